# Times sdcMicro 5.8.1 on a census table written by bench/census_sdcmicro_test.go:
#   Rscript bench/sdcmicro_census.R census.csv [kanon: yes|no|STEP] [cells.csv]
# The table has seven categorical keys and a weight column w. For each step it prints
# step,cpu_s,elapsed_s,value: the CPU seconds (user + system of the R process), wall seconds
# and a check value (sample uniques, mean individual risk, expected re-identifications,
# suppressions) to compare with sdcbench's. With a step's name (frequency, ind_risk_mean,
# global_risk_er, kanon_k3) as the second argument only that step runs: the first call after
# reading the table, as sdcbench's fresh-process timing has it. With cells.csv, kAnon's
# suppressed cells are written there as row,column (row 1-based).
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
args <- commandArgs(trailingOnly = TRUE)
x <- read.csv(args[1])
only <- if (length(args) >= 2 && !(args[2] %in% c("yes", "no"))) args[2] else ""
kanon <- (length(args) < 2 || args[2] == "yes" || only == "kanon_k3")
keys <- setdiff(names(x), "w")
for (v in keys) x[[v]] <- as.factor(x[[v]])
cat("step,cpu_s,elapsed_s,value\n")
timed <- function(step, expr) {
  if (only != "" && step != only) return(invisible())
  t0 <- proc.time()
  v <- expr
  t1 <- proc.time() - t0
  cat(step, ",", t1[["user.self"]] + t1[["sys.self"]], ",", t1[["elapsed"]], ",", format(v, digits = 15), "\n", sep = "")
}
timed("frequency", {
  ff <- freqCalc(x, keyVars = keys, w = "w")
  sum(ff$fk == 1)
})
timed("ind_risk_mean", {
  ff <- freqCalc(x, keyVars = keys, w = "w")
  mean(indivRisk(ff)$rk)
})
timed("global_risk_er", {
  measure_risk(x, keyVars = keys, w = "w")$global_risk_ER
})
if (kanon) {
  timed("kanon_k3", {
    r <- kAnon(x[, keys], keyVars = seq_along(keys), k = 3)
    if (length(args) >= 3) {
      w <- which(is.na(as.matrix(r$xAnon)), arr.ind = TRUE)
      write.csv(data.frame(row = w[, 1], column = keys[w[, 2]]), args[3], row.names = FALSE, quote = FALSE)
    }
    sum(is.na(r$xAnon))
  })
}
