# sdcMicro reference releases for the perturbative agreement check (docs/perturbative.md).
#
#   Rscript bench/sdcmicro_perturb.R OUTDIR [REPS] [SPEEDN]
#
# For census, tarragona, eia and eia10 (read from datasets/data/) and each method below,
# writes REPS masked releases OUTDIR/<dataset>__<method>__<rep>.csv, which
# bench.TestSdcMicroAgreement measures with sdcbench's own metrics next to sdcbench's releases.
# Then times rankSwap(P = 0.1) on SPEEDN x 5 log-normal data (default 200000) and writes
# OUTDIR/speed.csv. Needs R with sdcMicro (tested with 5.8.1); optional.
suppressMessages(library(sdcMicro))
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
reps <- if (length(args) >= 2) as.integer(args[2]) else 20L
speedn <- if (length(args) >= 3) as.integer(args[3]) else 200000L
dir.create(out, showWarnings = FALSE, recursive = TRUE)
root <- "datasets/data"
eiacols <- c("RESREVENUE", "RESSALES", "COMREVENUE", "COMSALES", "INDREVENUE",
             "INDSALES", "OTHREVENUE", "OTHRSALES", "TOTREVENUE", "TOTSALES")
sets <- list(
  census = read.csv(file.path(root, "CASCrefmicrodata.csv")),
  tarragona = read.csv(file.path(root, "Tarragona.csv")),
  eia = read.csv(file.path(root, "EIA.csv"))[, c("UTILITYID", eiacols)],
  eia10 = read.csv(file.path(root, "EIA.csv"))[, eiacols]
)
methods <- list(
  noise_additive = function(x) addNoise(x, noise = 5, method = "additive")$xm,
  noise_correlated2 = function(x) addNoise(x, noise = 50, method = "correlated2")$xm,
  rankswap = function(x) rankSwap(x, P = 0.1, TopPercent = 0, BottomPercent = 0),
  shuffle_ds = function(x) {
    # responses: every column but the last; predictor: the last column
    nm <- names(x)
    form <- as.formula(paste(paste(nm[-length(nm)], collapse = "+"), "~", nm[length(nm)]))
    sh <- shuffle(x, form)$sh
    cbind(sh, x[, length(nm), drop = FALSE])
  }
)
set.seed(20221)
for (ds in names(sets)) {
  x <- sets[[ds]]
  for (m in names(methods)) {
    for (r in seq_len(reps)) {
      y <- as.data.frame(methods[[m]](x))
      names(y) <- names(x)
      write.csv(y, file.path(out, sprintf("%s__%s__%02d.csv", ds, m, r)), row.names = FALSE)
    }
  }
}
if (speedn > 0) {
  set.seed(1)
  big <- as.data.frame(matrix(round(exp(rnorm(speedn * 5, 10, 1.5))), ncol = 5))
  t <- system.time(rankSwap(big, P = 0.1, TopPercent = 0, BottomPercent = 0))
  write.csv(data.frame(method = "rankSwap", n = speedn, p = 5, p_frac = 0.1, seconds = t[["elapsed"]],
                       cpu_seconds = t[["user.self"]] + t[["sys.self"]]),
            file.path(out, "speed.csv"), row.names = FALSE)
}
