# sdcMicro 5.8.1's reference values for the missing-value rules of methods/perturb
# (TestNoiseMissing*; docs/perturbative.md "Missing values"), on testdata's expend, income and
# savings with missing values added as methods/microagg/testdata/mdav_na.R does (row i loses
# expend when 7 | i, income when 11 | i, savings when 13 | i, all three when 50 | i). Run
# from this folder:  Rscript na.R
# Writes na_stats.csv: per column the mean and SD over the available values (what addNoise's
# additive, additive0 and correlated2 use), and the covariance of the complete rows
# (correlated: cov(na.omit(x))); na_restr.csv: addNoise(method = "restr", noise = 150), all
# cells; na_noise.csv: the SD of (release − original) over the available cells of one
# addNoise(method = "additive", noise = 150) release at set.seed(1), and of one
# correlated2 release (delta = 0.5) likewise.
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
f <- function(v) ifelse(is.na(v), "NA", sprintf("%.17g", v))
x <- read.csv(file.path("..", "..", "..", "datasets", "data", "testdata.csv"))[, c("expend", "income", "savings")]
i <- seq_len(nrow(x))
x$expend[i %% 7 == 0 | i %% 50 == 0] <- NA
x$income[i %% 11 == 0 | i %% 50 == 0] <- NA
x$savings[i %% 13 == 0 | i %% 50 == 0] <- NA
cc <- cov(na.omit(x))
st <- data.frame(column = names(x), mean = f(colMeans(x, na.rm = TRUE)), sd = f(apply(x, 2, sd, na.rm = TRUE)),
  cov_expend = f(cc[, 1]), cov_income = f(cc[, 2]), cov_savings = f(cc[, 3]), n_complete = nrow(na.omit(x)))
write.csv(st, "na_stats.csv", row.names = FALSE, quote = FALSE)
N <- nrow(x)
w <- 150 / 100
cc <- if (N < 500) sqrt((N - 1 - w) / ((N + 1) * (1 + w))) else sqrt((N - 1) / (N + N * w - 1))
d <- (1 - cc) * colMeans(x, na.rm = TRUE)
r <- sweep(cc * as.matrix(x), 2, d, "+")
s <- as.matrix(addNoise(x, noise = 150, method = "restr")$xm)
own <- outer(seq_len(N), seq_len(ncol(x)), function(i, j) ((j - 1) * N + i - 1) %% ncol(x) + 1 == j)
stopifnot(isTRUE(all.equal(s[own], r[own], tolerance = 1e-15)), identical(is.na(s), is.na(r)))
write.csv(as.data.frame(lapply(as.data.frame(r), f)), "na_restr.csv", row.names = FALSE, quote = FALSE)
set.seed(1)
a <- addNoise(x, noise = 150, method = "additive")$xm
set.seed(1)
c2 <- addNoise(x, method = "correlated2", delta = 0.5)$xm
stopifnot(identical(is.na(a), is.na(as.matrix(x))), identical(is.na(c2), is.na(as.matrix(x))))
no <- data.frame(column = names(x), additive_sd = f(apply(a - x, 2, sd, na.rm = TRUE)),
  correlated2_mean = f(colMeans(c2, na.rm = TRUE)), correlated2_sd = f(apply(c2, 2, sd, na.rm = TRUE)),
  n_available = colSums(!is.na(x)))
write.csv(no, "na_noise.csv", row.names = FALSE, quote = FALSE)

# na_rankswap.csv: over 20 rankSwap releases (set.seed(2), defaults TopPercent = BottomPercent = 5,
# R0 = 0.95), the mean and SD of each column's correlation between original and release over the
# available cells; the missing cells stay missing.
set.seed(2)
cors <- t(replicate(20, {
  r <- rankSwap(x)
  stopifnot(identical(is.na(as.matrix(r)), is.na(as.matrix(x))))
  sapply(names(x), function(v) cor(x[[v]], r[[v]], use = "complete.obs"))
}))
write.csv(data.frame(column = names(x), mean_cor = f(colMeans(cors)), sd_cor = f(apply(cors, 2, sd))),
  "na_rankswap.csv", row.names = FALSE, quote = FALSE)
