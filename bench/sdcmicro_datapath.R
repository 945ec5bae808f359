# Times sdcMicro 5.8.1 on the steps of sdcbench's data-path comparison (docs/datapath.md):
#   Rscript bench/sdcmicro_datapath.R noise  numeric.csv out.csv
#   Rscript bench/sdcmicro_datapath.R risk   census.csv
#   Rscript bench/sdcmicro_datapath.R more   numeric.csv
# noise: addNoise(x, noise = 5, method = "additive") on every column, then write.csv of the
# release (sdcbench: protect --method noise_additive --param noise_pct=5).
# risk: freqCalc, indivRisk and measure_risk's global risk on the keys (every column but w)
# with weight w (sdcbench: eval --metrics kanon_viol_2,ind_risk_mean,global_risk_er).
# more: one call each of addNoise(noise = 50, method = "correlated2"), rankSwap(P = 0.1, no top or
# bottom coding), and dUtility IL1s, IL1 and eigen and dRisk between x and its additive-noise
# release (sdcbench: protect noise_correlated2 delta=0.1 (50 % of the variance), rankswap
# p_frac=0.1; eval il1s_sum_sdc, il1rel_sum_sdc, eigen_sdc, interval_disclosure).
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
} else if (args[1] == "more") {
  xm <- addNoise(x, noise = 5, method = "additive")$xm
  invisible(timed("noise_correlated2", addNoise(x, noise = 50, method = "correlated2")$xm))
  invisible(timed("rankswap", rankSwap(x, P = 0.1, TopPercent = 0, BottomPercent = 0)))
  invisible(timed("il1s_sum_sdc", dUtility(x, xm, method = "IL1s")))
  invisible(timed("il1rel_sum_sdc", dUtility(x, xm, method = "IL1")))
  invisible(timed("eigen_sdc", dUtility(x, xm, method = "eigen")))
  invisible(timed("interval_disclosure", dRisk(x, xm)))
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
