# sdcMicro 5.8.1's MDAV releases with missing values, the reference of methods/microagg's
# TestMaMdavMissing (docs/microaggregation.md "Missing values"). Run from this folder:
#   Rscript mdav_na.R
# It reads the embedded tables (datasets/data) and writes
#   mdav_na_eusilcs.csv.gz: microaggregation(method = "mdav", aggr = 3) of eusilcS's nine income
#     columns (2,203 children have all nine missing);
#   mdav_na_testdata.csv.gz: the same at aggr = 3 and 5 of testdata's expend, income, savings
#     with missing values added by the rule na_testdata() below (the Go test adds the same).
# Values are written with 17 significant digits ("NA" for missing), so the Go test compares
# exactly.
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
data <- file.path("..", "..", "..", "datasets", "data")
w <- function(x, file) {
  out <- as.data.frame(lapply(x, function(v) ifelse(is.na(v), "NA", sprintf("%.17g", v))))
  con <- gzfile(file, "w")
  write.csv(out, con, row.names = FALSE, quote = FALSE)
  close(con)
}
e <- read.csv(file.path(data, "eusilcS.csv"))
inc <- c("netIncome", "py010n", "py050n", "py090n", "py100n", "py110n", "py120n", "py130n", "py140n")
stopifnot(sum(is.na(e$netIncome)) == 2203)
m <- microaggregation(e[, inc], variables = inc, method = "mdav", aggr = 3)$mx
w(m, "mdav_na_eusilcs.csv.gz")

# na_testdata: row i (1-based) loses expend when i %% 7 == 0, income when i %% 11 == 0 and
# savings when i %% 13 == 0; rows with i %% 50 == 0 lose all three.
na_testdata <- function(x) {
  i <- seq_len(nrow(x))
  x$expend[i %% 7 == 0 | i %% 50 == 0] <- NA
  x$income[i %% 11 == 0 | i %% 50 == 0] <- NA
  x$savings[i %% 13 == 0 | i %% 50 == 0] <- NA
  x
}
t <- na_testdata(read.csv(file.path(data, "testdata.csv"))[, c("expend", "income", "savings")])
r3 <- microaggregation(t, variables = names(t), method = "mdav", aggr = 3)$mx
r5 <- microaggregation(t, variables = names(t), method = "mdav", aggr = 5)$mx
names(r3) <- paste0(names(t), "_k3")
names(r5) <- paste0(names(t), "_k5")
w(cbind(r3, r5), "mdav_na_testdata.csv.gz")
