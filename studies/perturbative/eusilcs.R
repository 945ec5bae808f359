# sdcMicro's numbers for the perturbative study's EusilcS walkthrough (Morais 2022, MSc
# dissertation, Universidade do Minho, section 6.3, Code 26), on simPop's eusilcS as embedded in
# sdcbench (datasets/data/eusilcS.csv). Writes eusilcs.reference.csv's rows to stdout:
#   Rscript studies/perturbative/eusilcs.R > studies/perturbative/eusilcs.reference.csv
# Needs R and sdcMicro 5.8.1 (checked below). The study's call is run twice: with the keys it
# prints (db040, pb220a, hsize, age) and with pl030 in place of db040, the keys its numbers come
# from (eusilcs.md).
#
# Optional, the cause of the l-diversity difference: with SDCMICRO_SRC set to an unpacked sdcMicro
# 5.8.1 source tree, the script also compiles its measure_risk_cpp with the class test of the code
# before the 5.8.2 rewrite (a missing key never equals another missing key, so each record with a
# missing key is a class of its own; one line changed) and prints the l-diversity summaries it gives
# on stderr:  SDCMICRO_SRC=/path/to/sdcMicro Rscript studies/perturbative/eusilcs.R > /dev/null
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
args <- commandArgs(trailingOnly = FALSE)
here <- dirname(normalizePath(sub("^--file=", "", args[grep("^--file=", args)])))
d <- read.csv(file.path(here, "..", "..", "datasets", "data", "eusilcS.csv"), stringsAsFactors = TRUE)
d$pl030 <- factor(d$pl030) # a factor with 7 levels, as str(eusilcS) prints it in the study
stopifnot(nrow(d) == 11725, ncol(d) == 18)

sdcObj <- function(keys) {
  # The warning "at least one pramVar only contains NA values" is sdcMicro's test of a single
  # pramVar (it applies sapply to the column's values); pl030 stays a pramVar.
  suppressWarnings(createSdcObj(d, keyVars = keys,
    numVars = c("netIncome", "py130n", "py100n", "py090n"), pramVars = c("pl030"),
    sensibleVar = c("netIncome", "rb090"), weightVar = "rb050", hhId = "db030"))
}

cat("# sdcMicro 5.8.1's values for the EusilcS walkthrough of Morais (2022) on simPop's eusilcS, written by\n")
cat("# eusilcs.R (Rscript studies/perturbative/eusilcs.R > studies/perturbative/eusilcs.reference.csv).\n")
cat("# keys: printed = the call the study prints (db040, pb220a, hsize, age), study = pl030 in place of db040;\n")
cat("# metric: the runs.csv column (with :netIncome or :rb090, the sensitive variable of ldiversity); not\n")
cat("# printed in the study. Read by the study report (EUSILCS.md of perturbative-eusilcs).\n")
cat("keys,metric,value\n")
out <- function(set, metric, v) cat(sprintf("%s,%s,%s\n", set, metric, format(v, digits = 15)))
ldivSummary <- function(set, l, v) {
  q <- quantile(l, c(0.25, 0.5, 0.75), type = 7)
  out(set, paste0("ldiv_distinct_min:", v), min(l))
  out(set, paste0("ldiv_distinct_median_q1:", v), q[[1]])
  out(set, paste0("ldiv_distinct_median:", v), q[[2]])
  out(set, paste0("ldiv_distinct_mean:", v), mean(l))
  out(set, paste0("ldiv_distinct_median_q3:", v), q[[3]])
  out(set, paste0("ldiv_distinct_max:", v), max(l))
}
sets <- list(printed = c("db040", "pb220a", "hsize", "age"), study = c("pl030", "pb220a", "hsize", "age"))
objs <- list()
for (set in names(sets)) {
  sdc <- sdcObj(sets[[set]])
  objs[[set]] <- sdc
  fk <- sdc@risk$individual[, "fk"]
  r <- sdc@risk$individual[, "risk"]
  g <- sdc@risk$global
  for (k in c(2, 3, 5)) out(set, paste0("kanon_viol_", k), sum(fk < k))
  out(set, "ind_risk_max", max(r))
  out(set, "global_risk_er", g$risk_ER)
  out(set, "global_risk_pct", g$risk_pct)
  out(set, "hier_risk_er", g$hier_risk_ER)
  out(set, "hier_risk_pct", g$hier_risk_pct)
  # print(sdc, "risk")'s "higher risk than the main part of the data"
  out(set, "risky_obs", sum(r > median(r) + 2 * mad(r) & r > 0.1))
  l <- ldiversity(sdc)@risk$ldiversity
  ldivSummary(set, l[, "netIncome_Distinct_Ldiversity"], "netIncome")
  ldivSummary(set, l[, "rb090_Distinct_Ldiversity"], "rb090")
  s <- suppressWarnings(suda2(sdc, original_scores = TRUE))@risk$suda2
  out(set, "dis_suda_mean", mean(s$disScore))
  out(set, "dis_suda_max", max(s$disScore))
  out(set, "dis_suda_mean_bin_0", sum(s$disScore == 0))
  out(set, "dis_suda_mean_bin_0.1", sum(s$disScore > 0 & s$disScore <= 0.1))
  for (v in s$attribute_contributions$variable) {
    out(set, paste0("suda_contribution:", v), s$attribute_contributions$contribution[s$attribute_contributions$variable == v])
  }
}

src <- Sys.getenv("SDCMICRO_SRC")
if (nzchar(src)) {
  dir <- tempfile("oldldiv")
  dir.create(dir)
  file.copy(file.path(src, "src", "Framework.h"), dir)
  h <- readLines(file.path(src, "src", "Measure_Risk.h"))
  i <- grep("while (is_same_key_Safe(group_key, obs_key", h, fixed = TRUE)
  stopifnot(length(i) == 1)
  h[i] <- sub("is_same_key_Safe", "is_same_key_Risk", h[i], fixed = TRUE) # NA != NA, as before 5.8.2
  h <- sub("RcppExport SEXP measure_risk_cpp(", "SEXP measure_risk_cpp_old(", h, fixed = TRUE)
  writeLines(h, file.path(dir, "Measure_Risk_old.h"))
  writeLines(c("#include <Rcpp.h>", "#include <math.h>", "#include <float.h>", "#include <limits.h>",
    "#include \"Framework.h\"", "#include \"Measure_Risk_old.h\"", "// [[Rcpp::export]]",
    "SEXP old_mr(SEXP a, SEXP b, SEXP c, SEXP d, SEXP e, SEXP f) { return measure_risk_cpp_old(a, b, c, d, e, f); }"),
    file.path(dir, "old.cpp"))
  Rcpp::sourceCpp(file.path(dir, "old.cpp"))
  assignInNamespace("measure_risk_cpp", function(data, weighted_R, n_key_vars_R, l_recurs_c_R, ldiv_index_R,
    missing_value_R) old_mr(data, weighted_R, n_key_vars_R, l_recurs_c_R, ldiv_index_R, missing_value_R), "sdcMicro")
  for (set in names(sets)) {
    l <- ldiversity(objs[[set]])@risk$ldiversity
    message("pre-5.8.2 class test, keys ", set, ":")
    message(paste(capture.output(summary(l[, c("netIncome_Distinct_Ldiversity", "rb090_Distinct_Ldiversity")])), collapse = "\n"))
  }
}
