# Makes the testdata of metrics/missing_test.go: sdcMicro 5.8.1's releases of two tables with
# missing values and its measures of them (dUtility IL1, IL1s, eigen and dRisk).
# Needs R with sdcMicro 5.8.1; the tests read only the files it writes.
# Run from the repository root: Rscript metrics/testdata/missing_sdcmicro.R
#
# 1. eusilcS's nine income columns (2,203 children have every one missing), released by
#    microaggregation(method = "mdav", aggr = 3): eusilcs_mdav3.csv.gz.
# 2. testdata's expend, income and savings with 40 cells set missing (rows and columns
#    below), released by the same MDAV: testdata_na.csv (original) and testdata_na_mdav3.csv.
# 3. testdata's seven key variables with 91 cells set missing (13 per key, rows below):
#    testdata_keys_na.csv, with sdcMicro's sample frequencies (freqCalc: a missing value
#    matches any value) and suda2 (original scores, DisFraction 0.01).
# expected.csv holds the measures, printed with 17 significant digits.
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
out <- "metrics/testdata"
fmt <- function(v) ifelse(is.na(v), "NA", sprintf("%.17g", v))
write_table <- function(d, file) {
  d[] <- lapply(d, fmt)
  con <- if (grepl("\\.gz$", file)) gzfile(file, "w") else file(file, "w")
  write.csv(d, con, row.names = FALSE, quote = FALSE)
  close(con)
}
# eigen_kept is dUtility's eigen sum over the eigenvalues above 1e-10 times the largest only
# (sdcbench's eigen; the rest are rounding noise of a singular matrix).
eigen_kept <- function(x, xm) {
  e1 <- eigen(var(scale(x), na.rm = TRUE, use = "pairwise.complete.obs"))$values
  e2 <- eigen(var(scale(xm), na.rm = TRUE, use = "pairwise.complete.obs"))$values
  keep <- e1 > 1e-10 * e1[1]
  sum(abs(e1 - e2)[keep] / e1[keep])
}
measures <- function(name, x, xm) {
  data.frame(case = name,
    measure = c("IL1", "IL1s", "eigen", "eigen_kept", "dRisk"),
    value = fmt(c(dUtility(x, xm = xm, method = "IL1"), dUtility(x, xm = xm, method = "IL1s"),
      dUtility(x, xm = xm, method = "eigen"), eigen_kept(x, xm), dRisk(x, xm = xm))))
}

eu <- read.csv("datasets/data/eusilcS.csv")
v <- c("netIncome", "py010n", "py050n", "py090n", "py100n", "py110n", "py120n", "py130n", "py140n")
x1 <- eu[, v]
m1 <- as.data.frame(microaggregation(x1, method = "mdav", aggr = 3)$mx)
write_table(m1, file.path(out, "eusilcs_mdav3.csv.gz"))

td <- read.csv("datasets/data/testdata.csv")
x2 <- td[, c("expend", "income", "savings")]
rows <- c(3, 17, 101, 102, 250, 777, 1000, 1500, 2222, 3001, 4000, 4580)
x2$expend[rows[1:5]] <- NA
x2$income[rows[4:10]] <- NA
x2$savings[rows[8:12]] <- NA
x2[c(60, 61, 62, 63, 64), ] <- NA # five rows missing throughout
x2$income[seq(200, 4000, by = 400)] <- NA
m2 <- as.data.frame(microaggregation(x2, method = "mdav", aggr = 3)$mx)
write_table(x2, file.path(out, "testdata_na.csv"))
write_table(m2, file.path(out, "testdata_na_mdav3.csv"))

keys <- c("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")
x3 <- td[, keys]
for (k in seq_along(keys)) {
  x3[seq(k * 13, nrow(x3), by = 353), keys[k]] <- NA
}
write_table(x3, file.path(out, "testdata_keys_na.csv"))
fk <- freqCalc(x3, keyVars = keys)$fk
su <- suda2(x3, variables = keys, original_scores = TRUE, DisFraction = 0.01)
res3 <- data.frame(case = "testdata_keys_na",
  measure = c("kanon_viol_2", "kanon_viol_3", "kanon_viol_5", "global_risk_er", "ind_risk_max",
    "suda_n_score", "suda_score_sum", "suda_score_max", "dis_suda_mean", "dis_suda_max"),
  value = fmt(c(sum(fk < 2), sum(fk < 3), sum(fk < 5), sum(1 / fk), max(1 / fk),
    sum(su$score > 0), sum(su$score), max(su$score), mean(su$disScore), max(su$disScore))))
res <- rbind(measures("eusilcs_mdav3", x1, m1), measures("testdata_na_mdav3", x2, m2), res3)
write.csv(res, file.path(out, "expected.csv"), row.names = FALSE, quote = FALSE)
print(res)
cat("NA cells: eusilcS", sum(is.na(x1)), "release", sum(is.na(m1)),
    "; testdata", sum(is.na(x2)), "release", sum(is.na(m2)), "; keys", sum(is.na(x3)), "\n")
