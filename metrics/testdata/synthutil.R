# Makes the pair of files behind metrics/synthutil_test.go and the values R gives for them:
# synthutil_orig.csv (an original), synthutil_rel.csv (a release of it) and
# synthutil_expected.csv (measure,value). Run from metrics/testdata: Rscript synthutil.R
#
# The propensity measures follow synthpop's utility.gen(method = "logit") as its source
# defines them (Snoke et al. 2018; synthpop is not needed to run this script): a missing
# number becomes 0 plus an indicator column <name>_NA, a missing category a level of its own
# (addNA); t = 1 for released rows, stacked first; pMSE = sum((p - c)^2)/N with c = n2/N;
# S_pMSE = pMSE / (km1 (1 - c)^2 c / N), km1 the number of non-NA coefficients minus one;
# SPECKS = ks.test(p[t == 1], p[t == 0])$statistic. The other measures are written out as
# docs/synthetic.md defines them.
set.seed(20261128)
n <- 240
mk <- function(n) {
  x1 <- rnorm(n, 10, 3)
  a <- factor(sample(c("u", "v", "w"), n, TRUE, c(0.5, 0.3, 0.2)))
  b <- factor(sample(c("p", "q", "r", "s"), n, TRUE))
  x2 <- exp(rnorm(n, 1 + 0.1 * x1, 0.5))
  y <- 2 + 0.8 * x1 - 0.5 * x2 + c(u = 0, v = 1, w = -2)[as.character(a)] + rnorm(n)
  data.frame(x1, x2, a, b, y)
}
orig <- mk(n)
orig$x2[sample(n, 12)] <- NA
orig$b[sample(n, 9)] <- NA
rel <- orig
rel$x1 <- rel$x1 + rnorm(n, 0.3, 1)          # noise with a shift
rel$x2 <- rel$x2 * exp(rnorm(n, 0, 0.2))
rel$x2[sample(n, 20)] <- NA
swap <- sample(n, 40)
rel$a[swap] <- sample(levels(rel$a), 40, TRUE, c(0.2, 0.3, 0.5))
rel$b[sample(n, 15)] <- NA
rel$y <- rel$y + rnorm(n, 0, 0.7)
write.csv(orig, "synthutil_orig.csv", row.names = FALSE, na = "NA")
write.csv(rel, "synthutil_rel.csv", row.names = FALSE, na = "NA")

# read back, as a user's files are read
orig <- read.csv("synthutil_orig.csv", stringsAsFactors = TRUE)
rel <- read.csv("synthutil_rel.csv", stringsAsFactors = TRUE)

out <- list()
prep <- function(d) {
  d$x2_NA <- 1 * is.na(d$x2)
  d$x2[is.na(d$x2)] <- 0
  d$b <- addNA(d$b)
  d
}
prop <- function(order, eps) {
  df <- rbind(prep(rel), prep(orig))
  n2 <- nrow(rel); N <- nrow(df); cc <- n2 / N
  df$t <- c(rep(1, n2), rep(0, nrow(orig)))
  f <- if (order == 0) t ~ . else t ~ .^2
  fit <- suppressWarnings(glm(f, data = df, family = "binomial",
                              control = list(maxit = 200, epsilon = eps)))
  p <- predict(fit, type = "response")
  pmse <- sum((p - cc)^2) / N
  km1 <- sum(!is.na(coef(fit))) - 1
  c(pmse = pmse, s_pmse = pmse / (km1 * (1 - cc)^2 * cc / N),
    specks = unname(suppressWarnings(ks.test(p[df$t == 1], p[df$t == 0]))$statistic), df = km1)
}
for (order in 0:1) {
  r <- prop(order, 1e-14)
  d <- prop(order, 1e-8)  # glm's default stopping rule, for the record
  for (nm in names(r)) out[[paste0(nm, "_order", order)]] <- r[[nm]]
  out[[paste0("pmse_order", order, "_glmdefault")]] <- d[["pmse"]]
}

# ci_overlap: lm on each table's complete cases, confint 95%, Karr et al. overlap, mean
cio <- function(f) {
  co <- confint(lm(f, data = orig)); cr <- confint(lm(f, data = rel))
  U <- pmin(co[, 2], cr[, 2]); L <- pmax(co[, 1], cr[, 1])
  J <- 0.5 * ((U - L) / (co[, 2] - co[, 1]) + (U - L) / (cr[, 2] - cr[, 1]))
  c(mean(J), min(J), length(J))
}
r <- cio(y ~ x1 + a); out$ci_overlap_m1 <- r[1]; out$ci_overlap_m1_min <- r[2]; out$ci_overlap_m1_n <- r[3]
r <- cio(y ~ x1 + x2 + a + b); out$ci_overlap_m2 <- r[1]; out$ci_overlap_m2_min <- r[2]; out$ci_overlap_m2_n <- r[3]

# kmarginal: numeric columns cut at the original's deciles (type 7), a value in bin
# #(cut points < v); categories as they are; NA a category of its own
disc <- function(x, ref) {
  if (is.factor(ref)) return(ifelse(is.na(x), "NA", as.character(x)))
  cuts <- quantile(ref[!is.na(ref)], (1:9) / 10, type = 7, names = FALSE)
  ifelse(is.na(x), "NA", as.character(sapply(x, function(v) sum(cuts < v))))
}
DO <- as.data.frame(lapply(names(orig), function(j) disc(orig[[j]], orig[[j]])))
DR <- as.data.frame(lapply(names(orig), function(j) disc(rel[[j]], orig[[j]])))
tvd <- function(cols) {
  ko <- do.call(paste, c(DO[cols], sep = "|")); kr <- do.call(paste, c(DR[cols], sep = "|"))
  cells <- union(ko, kr)
  po <- table(factor(ko, cells)) / length(ko); pr <- table(factor(kr, cells)) / length(kr)
  sum(abs(po - pr)) / 2
}
for (k in 2:3) {
  t <- apply(combn(ncol(DO), k), 2, tvd)
  out[[paste0("kmarginal_k", k)]] <- 1000 * (1 - mean(t))
  if (k == 2) out$kmarginal_worst2 <- 1000 * (1 - max(t))
}

# dcr_median, nndr_median: numeric columns z-scored with the original's mean and sd,
# complete records only
num <- c("x1", "x2", "y")
mu <- sapply(orig[num], mean, na.rm = TRUE); s <- sapply(orig[num], sd, na.rm = TRUE)
Z <- function(d) { d <- d[complete.cases(d[num]), num]; sweep(sweep(as.matrix(d), 2, mu), 2, s, "/") }
zo <- Z(orig); zr <- Z(rel)
d12 <- t(apply(zr, 1, function(p) sort(sqrt(colSums((t(zo) - p)^2)))[1:2]))
out$dcr_median <- median(d12[, 1])
out$nndr_median <- median(ifelse(d12[, 2] == 0, 1, d12[, 1] / d12[, 2]))
out$dcr_orig <- median(apply(zo, 1, function(p) sort(sqrt(colSums((t(zo) - p)^2)))[2]))

v <- unlist(out)
write.csv(data.frame(measure = names(v), value = sprintf("%.17g", v)), "synthutil_expected.csv",
          row.names = FALSE, quote = FALSE)
print(v, digits = 15)
