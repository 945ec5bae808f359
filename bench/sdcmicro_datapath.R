# Times sdcMicro 5.8.1 on the steps of sdcbench's data-path comparison (docs/datapath.md):
#   Rscript bench/sdcmicro_datapath.R noise  numeric.csv out.csv
#   Rscript bench/sdcmicro_datapath.R risk   census.csv
# noise: addNoise(x, noise = 5, method = "additive") on every column, then write.csv of the
# release (sdcbench: protect --method noise_additive --param noise_pct=5).
# risk: freqCalc, indivRisk and measure_risk's global risk on the keys (every column but w)
# with weight w (sdcbench: eval --metrics kanon_viol_2,ind_risk_mean,global_risk_er).
# Prints step,cpu_s: the CPU seconds (user + system) of reading, of the sdcMicro call and of
# writing; time the whole process from outside (e.g. /usr/bin/time) for the process figure.
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
args <- commandArgs(trailingOnly = TRUE)
cpu <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }
timed <- function(step, expr) {
  t0 <- cpu()
  v <- expr
  cat(step, ",", cpu() - t0, "\n", sep = "")
  v
}
cat("step,cpu_s\n")
x <- timed("read", read.csv(args[2]))
if (args[1] == "noise") {
  xm <- timed("call", addNoise(x, noise = 5, method = "additive")$xm)
  timed("write", write.csv(xm, args[3], row.names = FALSE))
} else {
  keys <- setdiff(names(x), "w")
  for (v in keys) x[[v]] <- as.factor(x[[v]])
  timed("call", {
    ff <- freqCalc(x, keyVars = keys, w = "w")
    r <- indivRisk(ff)
    g <- measure_risk(x, keyVars = keys, w = "w")$global_risk_ER
    c(sum(ff$fk == 1), mean(r$rk), g)
  })
}
