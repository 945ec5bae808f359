# Regenerates sdcMicro 5.8.1's kAnon reference suppressions for methods/categorical's kanon tests:
#   Rscript kanon.R datasets/data/testdata.csv datasets/data/eusilcS.csv > kanon.csv
# Each case runs kAnon (the data.frame method of localSuppression) and prints every cell it set
# missing as case,row,column (row 1-based, in file order). A case's first line is row 0 with the
# column "-" so that a case without suppressions is still listed.
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
args <- commandArgs(trailingOnly = TRUE)
td <- read.csv(args[1])
eu <- read.csv(args[2])
tk <- c("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")
ek <- c("db040", "hsize", "rb090", "age", "pb220a", "pl030")
for (v in tk) td[[v]] <- as.factor(td[[v]])
for (v in ek) eu[[v]] <- as.factor(eu[[v]])
cat("case,row,column\n")
run <- function(name, d, vars, ..., strata = NULL) {
  keys <- vars
  t0 <- proc.time()[["elapsed"]]
  cols <- c(keys, strata)
  x <- d[, cols]
  sv <- if (is.null(strata)) NULL else length(keys) + seq_along(strata)
  r <- kAnon(x, keyVars = seq_along(keys), strataVars = sv, ...)
  cat(name, ",0,-\n", sep = "")
  for (v in keys) {
    for (i in which(is.na(r$xAnon[[v]]) & !is.na(x[[v]]))) cat(name, ",", i, ",", v, "\n", sep = "")
  }
  message(name, ": ", sum(is.na(r$xAnon[, keys]) & !is.na(x[, keys])), " suppressions, ",
    round(proc.time()[["elapsed"]] - t0, 1), " s")
}
run("td_k3_imp1to7", td, tk, k = 3, importance = 1:7)
run("td_k3", td, tk, k = 3)
run("td_k2", td, tk, k = 2)
run("td_k5_imp7to1", td, tk, k = 5, importance = 7:1)
run("td_k3_imp_ties", td, tk, k = 3, importance = c(1, 1, 2, 2, 3, 3, 3))
run("td_strata_urbrur_k3", td, tk[-1], strata = "urbrur", k = 3)
run("td_combs_5_4_3", td, tk, k = c(10, 20, 30), combs = 5:3)
run("td_combs_3_k3", td, tk, k = 3, combs = 3)
run("eu_k3", eu, ek, k = 3)
run("eu_k3_imp1to6", eu, ek, k = 3, importance = 1:6)
run("eu_k3_alpha0.5", eu, ek, k = 3, alpha = 0.5)
run("eu_k3_alpha0", eu, ek, k = 3, alpha = 0)
run("eu_study_k3", eu, c("db040", "pb220a", "hsize", "age"), k = 3)
