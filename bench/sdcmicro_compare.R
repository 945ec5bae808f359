#!/usr/bin/env Rscript
# Side by side: the CPU seconds of sdcMicro 5.8.1 and of sdcbench on the same CSV inputs, for
# the methods and measures both have, and the table with fitted exponents in docs/performance.md.
#
# Usage (from the repository root; `make bench-sdcmicro` builds bin/sdcbench and runs it):
#   Rscript bench/sdcmicro_compare.R [--full] [--reps R] [--out FILE] [--only case,case]
#     --full   the large sizes (up to 10^6 records; hours: sdcMicro's mdav and kAnon are slow)
#     --reps   repetitions, sdcMicro and sdcbench alternating (default 1; the median is reported)
#     --out    the Markdown file written (default docs/performance.md; "-" prints it only)
#     --only   a comma list of case names (see `cases` below)
#     --sizes  a comma list of record counts for every case (instead of its own; for trying)
# Environment: SDCBENCH (default bin/sdcbench).
#
# For each case and size the script generates the data (set.seed(n)), writes one CSV and runs
#   - sdcMicro: a child `Rscript bench/sdcmicro_compare.R --child CASE IN OUT` that loads
#     sdcMicro, reads the CSV, makes the call and writes the release (as a user of R would);
#     "call" is the CPU of the call alone (user + system, measured inside the child), "process"
#     the child's CPU in all (R start-up, package load, CSV reading and writing included);
#   - sdcbench: `sdcbench protect` or `sdcbench eval` on the same CSV, the child's CPU in all.
# CPU seconds (user + system), not wall time: the machine may be shared. "ratio" is sdcMicro's
# call over sdcbench's whole process (above 1: sdcbench's process costs less than sdcMicro's
# call alone). "agreement" is one number computed from both outputs (see `cases`).
# The exponent b is the least-squares slope of log(CPU) on log(n) over the sizes run
# (CPU ∝ n^b), for each tool.

args <- commandArgs(trailingOnly = TRUE)
flag <- function(name) any(args == name)
opt <- function(name, default) {
  i <- match(name, args)
  if (is.na(i) || i == length(args)) default else args[i + 1]
}

keyNames <- paste0("k", 1:7)

# ---- the sdcMicro side (child process) ----
child <- function(case, inp, out, masked) {
  suppressMessages(library(sdcMicro))
  stopifnot(packageVersion("sdcMicro") == "5.8.1")
  x <- read.csv(inp)
  xm <- if (!is.na(masked)) read.csv(masked) else NULL
  value <- NA_real_
  kf <- function(d) { for (k in keyNames) d[[k]] <- factor(d[[k]]); d } # keys as factors
  obj <- switch(case, # the object a case's call needs, made outside the timing
    local_supp = createSdcObj(x, keyVars = keyNames),
    modrisk_gr1 = createSdcObj(kf(x), keyVars = keyNames, weightVar = "w"),
    NULL)
  t <- system.time({
    switch(case,
      mdav_k3 = {
        y <- microaggregation(x, method = "mdav", aggr = 3)$mx
      },
      mdav_k1000 = {
        y <- microaggregation(x, method = "mdav", aggr = 1000)$mx
      },
      pppca_k3 = {
        y <- microaggregation(x, method = "pppca", aggr = 3)$mx
      },
      noise_additive = {
        y <- addNoise(x, noise = 5, method = "additive")$xm
      },
      noise_correlated2 = {
        y <- addNoise(x, noise = 50, method = "correlated2")$xm
      },
      rankswap = {
        y <- rankSwap(x, P = 0.1, TopPercent = 0, BottomPercent = 0)
      },
      onedims_k3 = {
        y <- microaggregation(x, method = "onedims", aggr = 3)$mx
      },
      il1s = {
        value <- dUtility(x, xm, method = "IL1s")
        y <- NULL
      },
      il1rel = {
        value <- dUtility(x, xm, method = "IL1")
        y <- NULL
      },
      eigen = {
        value <- 100 * dUtility(x, xm, method = "eigen")
        y <- NULL
      },
      interval_disclosure = {
        value <- 100 * dRisk(x, xm)
        y <- NULL
      },
      freq = , freq_na = {
        ff <- freqCalc(x, keyVars = keyNames, w = "w")
        value <- sum(ff$fk < 2)
        y <- NULL
      },
      ind_risk_mean = {
        ff <- freqCalc(x, keyVars = keyNames, w = "w")
        value <- mean(indivRisk(ff)$rk)
        y <- NULL
      },
      global_risk_er = {
        value <- measure_risk(x, keyVars = keyNames, w = "w")$global_risk_ER
        y <- NULL
      },
      pca_k3 = {
        y <- microaggregation(x, method = "pca", aggr = 3)$mx
      },
      single_k3 = {
        y <- microaggregation(x, method = "single", aggr = 3)$mx
      },
      simple_k3 = {
        y <- microaggregation(x, method = "simple", aggr = 3)$mx
      },
      rmd_k3 = {
        y <- microaggregation(x, method = "rmd", aggr = 3)$mx
      },
      noise_additive0 = {
        y <- addNoise(x, noise = 5, method = "additive0")$xm
      },
      noise_correlated = {
        y <- addNoise(x, noise = 150, method = "correlated")$xm
      },
      noise_restr = {
        y <- addNoise(x, noise = 150, method = "restr")$xm
      },
      shuffle_ds = {
        y <- x
        y[, 1:5] <- shuffle(x, form = V1 + V2 + V3 + V4 + V5 ~ V6 + V7 + V8 + V9 + V10, method = "ds")$shuffled
      },
      topbot_code = {
        y <- topBotCoding(x, value = 1, replacement = 1, kind = "top", column = "V1")
      },
      global_recode = {
        y <- globalRecode(x, column = "V1", breaks = c(-10, -1, 0, 1, 10))
      },
      pram = {
        y <- pram(kf(x), variables = keyNames)
        y <- data.frame(lapply(y[paste0(keyNames, "_pram")], as.character), w = x$w)
        names(y) <- c(keyNames, "w")
      },
      local_supp = {
        y <- extractManipData(localSupp(obj, threshold = 0.15, keyVar = "k7"))
        value <- sum(is.na(as.matrix(y[, keyNames]))) - sum(is.na(as.matrix(x[, keyNames])))
      },
      ldiv_distinct_mean = {
        value <- mean(ldiversity(x, keyVars = keyNames, ldiv_index = "s")[, "s_Distinct_Ldiversity"])
        y <- NULL
      },
      dis_suda_mean = {
        value <- mean(suda2(x[, keyNames], variables = keyNames)$disScore)
        y <- NULL
      },
      suda_contrib_max = {
        value <- max(suda2(x[, keyNames], variables = keyNames)$attribute_contributions$contribution)
        y <- NULL
      },
      hier_risk_er = {
        value <- measure_risk(x, keyVars = keyNames, w = "w", hid = "h")$hier_risk_ER
        y <- NULL
      },
      risky_cells = {
        value <- sum(as.numeric(riskyCells(x, keyVars = keyNames, threshold = 2, maxDim = 3,
          useIdentificationLevel = FALSE)$unsafe_cells))
        y <- NULL
      },
      modrisk_gr1 = {
        value <- modRisk(obj, method = "default", formulaM = ~ k1 + k2 + k3 + k4 + k5 + k6 + k7)@risk$model$gr1
        y <- NULL
      },
      rmd_risk1 = {
        value <- 100 * dRiskRMD(x, xm)$risk1
        y <- NULL
      },
      kanon_k3 = {
        y <- kAnon(x[, keyNames], keyVars = seq_along(keyNames), k = 3)$xAnon
        value <- sum(is.na(as.matrix(y))) - sum(is.na(as.matrix(x[, keyNames])))
      },
      stop("unknown case ", case))
  })
  if (!is.null(y)) write.csv(as.data.frame(y), out, row.names = FALSE, na = "NA")
  cat(sprintf("%.17g %.17g\n", t[["user.self"]] + t[["sys.self"]], value))
}

if (flag("--child")) {
  i <- match("--child", args)
  child(args[i + 1], args[i + 2], args[i + 3], if (length(args) >= i + 4) args[i + 4] else NA)
  quit(save = "no")
}

# ---- the cases ----
# data: "normal" (n × d N(0,1) columns V1..Vd), "pair" (such an original and a masked file: the
# original plus N(0, 0.05²) noise, for the measures of loss and risk between the two) or "keys"
# (seven skewed categorical keys of 2–30 categories and a weight w in [1, 100); na: the share of
# missing key cells).
# ours: sdcbench's arguments after the input file; agree: how the one number is computed.
cases <- list(
  mdav_k3 = list(data = "normal", d = 10, sizes = c(5000, 20000), full = c(10000, 20000, 1e5),
    ours = c("protect", "--method", "ma_mdav", "--param", "k=3"), agree = "maxdiff",
    what = "microaggregation(method = \"mdav\", aggr = 3) / protect --method ma_mdav --param k=3"),
  mdav_k1000 = list(data = "normal", d = 5, sizes = c(1e4, 1e5), full = c(1e4, 1e5, 1e6),
    ours = c("protect", "--method", "ma_mdav", "--param", "k=1000"), agree = "maxdiff",
    what = "microaggregation(method = \"mdav\", aggr = 1000) / protect --method ma_mdav --param k=1000"),
  pppca_k3 = list(data = "normal", d = 5, sizes = c(1000, 3000), full = c(1000, 3000, 10000),
    ours = c("protect", "--method", "pppca", "--param", "k=3"), agree = "maxdiff",
    what = "microaggregation(method = \"pppca\", aggr = 3) / protect --method pppca --param k=3"),
  noise_additive = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "noise_additive", "--param", "noise_pct=5"), agree = "noisesd",
    what = "addNoise(method = \"additive\", noise = 5) / protect --method noise_additive --param noise_pct=5"),
  noise_correlated2 = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "noise_correlated2", "--param", "delta=0.1"), agree = "noisesd",
    what = "addNoise(method = \"correlated2\", noise = 50) / protect --method noise_correlated2 --param delta=0.1 (δ = 0.1 in both; sdcMicro ignores noise here)"),
  rankswap = list(data = "normal", d = 10, sizes = c(1e4, 1e5), full = c(1e4, 1e5, 1e6),
    ours = c("protect", "--method", "rankswap", "--param", "p_frac=0.1"), agree = "noisesd",
    what = "rankSwap(P = 0.1, TopPercent = 0, BottomPercent = 0) / protect --method rankswap --param p_frac=0.1"),
  onedims_k3 = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "ma_onedims_sdc", "--param", "k=3"), agree = "maxdiff",
    what = "microaggregation(method = \"onedims\", aggr = 3) / protect --method ma_onedims_sdc --param k=3"),
  il1s = list(data = "pair", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "il1s_sum_sdc"), agree = "value",
    what = "dUtility(method = \"IL1s\") / eval --metrics il1s_sum_sdc"),
  il1rel = list(data = "pair", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "il1rel_sum_sdc"), agree = "value",
    what = "dUtility(method = \"IL1\") / eval --metrics il1rel_sum_sdc"),
  eigen = list(data = "pair", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "eigen_sdc"), agree = "value",
    what = "100 · dUtility(method = \"eigen\") / eval --metrics eigen_sdc (in %)"),
  interval_disclosure = list(data = "pair", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "interval_disclosure"), agree = "value",
    what = "100 · dRisk() / eval --metrics interval_disclosure (in %)"),
  freq = list(data = "keys", na = 0, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "kanon_viol_2"), agree = "value",
    what = "freqCalc: records with f_k < 2 / eval --metrics kanon_viol_2"),
  freq_na = list(data = "keys", na = 0.02, sizes = c(1e4, 1e5), full = c(1e4, 1e5, 1e6),
    ours = c("eval", "--metrics", "kanon_viol_2"), agree = "value",
    what = "freqCalc with 2 % missing key cells: records with f_k < 2 / eval --metrics kanon_viol_2"),
  ind_risk_mean = list(data = "keys", na = 0, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "ind_risk_mean"), agree = "value",
    what = "mean(indivRisk(freqCalc(w = \"w\"))$rk) / eval --metrics ind_risk_mean"),
  global_risk_er = list(data = "keys", na = 0, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "global_risk_er"), agree = "value",
    what = "measure_risk(w = \"w\")$global_risk_ER / eval --metrics global_risk_er"),
  kanon_k3 = list(data = "keys", na = 0, sizes = c(2000, 5000), full = c(2000, 5000, 1e4, 2e4),
    ours = c("protect", "--method", "kanon", "--param", "k=3"), agree = "suppressed",
    what = "kAnon(k = 3): cells suppressed / protect --method kanon --param k=3"),
  pca_k3 = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "ma_pca_sdc", "--param", "k=3"), agree = "maxdiff",
    what = "microaggregation(method = \"pca\", aggr = 3) / protect --method ma_pca_sdc --param k=3"),
  single_k3 = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "single", "--param", "k=3"), agree = "maxdiff",
    what = "microaggregation(method = \"single\", aggr = 3) (varsort = 1) / protect --method single --param k=3 (var = 0)"),
  simple_k3 = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "simple", "--param", "k=3"), agree = "maxdiff",
    what = "microaggregation(method = \"simple\", aggr = 3) / protect --method simple --param k=3"),
  rmd_k3 = list(data = "normal", d = 10, sizes = c(5000, 20000), full = c(5000, 1e4, 2e4),
    ours = c("protect", "--method", "ma_rmd_sdc", "--param", "k=3"), agree = "ssesst",
    what = "microaggregation(method = \"rmd\", aggr = 3) / protect --method ma_rmd_sdc --param k=3 (random in both: covMcd's subsets; agreement: 100·SSE/SST of each release; sdcMicro's call held 7.6 GB at 20000 records in n × n matrices, so no larger n)"),
  noise_additive0 = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "noise_additive0", "--param", "noise_pct=5"), agree = "noisesd",
    what = "addNoise(method = \"additive0\", noise = 5) / protect --method noise_additive0 --param noise_pct=5"),
  noise_correlated = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "noise_correlated", "--param", "noise_pct=150"), agree = "noisesd",
    what = "addNoise(method = \"correlated\", noise = 150) / protect --method noise_correlated --param noise_pct=150"),
  noise_restr = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "noise_restr", "--param", "noise_pct=150"), agree = "noisesd",
    what = "addNoise(method = \"restr\", noise = 150) / protect --method noise_restr --param noise_pct=150 (deterministic; sdcMicro recycles the column terms, docs/sdcmicro.md §6: with centred data the terms are near 0)"),
  shuffle_ds = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "shuffle_ds", "--param", "preds=V6,V7,V8,V9,V10"), agree = "noisesd",
    what = "shuffle(V1 + … + V5 ~ V6 + … + V10, method = \"ds\")$shuffled / protect --method shuffle_ds --param preds=V6,…,V10 (random in both; sdcMicro also computes EGADP)"),
  topbot_code = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "topbot_code", "--param", "value=1", "--columns", "V1"), agree = "maxdiff",
    what = "topBotCoding(value = 1, replacement = 1, kind = \"top\", column = \"V1\") / protect --method topbot_code --param value=1 --columns V1"),
  global_recode = list(data = "normal", d = 10, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "global_recode", "--param", "breaks=-10,-1,0,1,10", "--columns", "V1"), agree = "interval",
    what = "globalRecode(column = \"V1\", breaks = c(-10, -1, 0, 1, 10)) / protect --method global_recode --param breaks=-10,-1,0,1,10 --columns V1 (agreement: records given the same interval; sdcMicro's first label is open on the left, ours closed)"),
  pram = list(data = "keys", na = 0, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("protect", "--method", "pram"), agree = "changed",
    what = "pram(variables = the 7 keys, pd = 0.8, alpha = 0.5) / protect --method pram (random in both; agreement: % of key cells changed)"),
  local_supp = list(data = "keys", na = 0, sizes = c(1e4, 3e4), full = c(1e4, 1e5, 1e6),
    ours = c("protect", "--method", "local_supp", "--param", "key_var=k7", "--param", "threshold=0.15"), agree = "suppressed",
    what = "localSupp(createSdcObj(keyVars = the 7 keys), threshold = 0.15, keyVar = \"k7\"): cells suppressed / protect --method local_supp --param key_var=k7 (createSdcObj not timed; sdcMicro's call takes 97 s at 10^5)"),
  ldiv_distinct_mean = list(data = "keys", na = 0, cols = "s", sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "ldiv_distinct_mean", "--sensitive", "s"), agree = "value",
    what = "mean distinct l-diversity of ldiversity(ldiv_index = \"s\") / eval --metrics ldiv_distinct_mean --sensitive s (sdcMicro's call also computes the entropy and recursive l-diversity)"),
  dis_suda_mean = list(data = "keys", na = 0, sizes = c(1e4, 1e5), full = c(1e4, 1e5, 1e6),
    ours = c("eval", "--metrics", "dis_suda_mean"), agree = "value",
    what = "mean(suda2(variables = the 7 keys)$disScore) / eval --metrics dis_suda_mean"),
  suda_contrib_max = list(data = "keys", na = 0, sizes = c(1e4, 1e5), full = c(1e4, 1e5, 1e6),
    ours = c("eval", "--metrics", "suda_contrib_max"), agree = "value",
    what = "max(suda2(variables = the 7 keys)$attribute_contributions$contribution) / eval --metrics suda_contrib_max (%)"),
  hier_risk_er = list(data = "keys", na = 0, cols = "h", sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "hier_risk_er", "--household", "h"), agree = "value",
    what = "measure_risk(w = \"w\", hid = \"h\")$hier_risk_ER / eval --metrics hier_risk_er --household h (households of about 3 records)"),
  risky_cells = list(data = "keys", na = 0, sizes = c(1e5, 1e6), full = c(1e5, 1e6),
    ours = c("eval", "--metrics", "risky_cells", "--metric-opt", "risky_cells_threshold=2",
      "--metric-opt", "risky_cells_max_dim=3"), agree = "value",
    what = "sum(riskyCells(threshold = 2, maxDim = 3, useIdentificationLevel = FALSE)$unsafe_cells) / eval --metrics risky_cells"),
  modrisk_gr1 = list(data = "keys", na = 0, sizes = 2000, full = c(2000, 1e4),
    ours = c("eval", "--metrics", "modrisk_gr1"), agree = "value",
    what = "modRisk(createSdcObj(keys as factors, weightVar = \"w\"), method = \"default\", formulaM = main effects)@risk$model$gr1 / eval --metrics modrisk_gr1 (createSdcObj not timed; sdcMicro's call takes minutes even at 2000 records)"),
  rmd_risk1 = list(data = "pair", d = 10, sizes = c(2000, 5000), full = c(2000, 5000, 1e4),
    ours = c("eval", "--metrics", "rmd_risk1"), agree = "value",
    what = "100 · dRiskRMD()$risk1 / eval --metrics rmd_risk1 (in %; sdcMicro builds the n × n distance matrix, so small n only)")
)

genData <- function(cs, n) {
  set.seed(n)
  if (cs$data %in% c("normal", "pair")) {
    return(as.data.frame(matrix(rnorm(n * cs$d), n, cs$d)))
  }
  L <- c(2, 4, 6, 8, 12, 20, 30)
  x <- as.data.frame(lapply(L, function(l) sample.int(l, n, replace = TRUE, prob = 1 / seq_len(l))))
  names(x) <- keyNames
  if (cs$na > 0) {
    for (k in keyNames) x[[k]][runif(n) < cs$na] <- NA
  }
  x$w <- round(runif(n, 1, 100), 3)
  if ("s" %in% cs$cols) x$s <- sample.int(5, n, replace = TRUE) # a sensitive column
  if ("h" %in% cs$cols) x$h <- sort(sample.int(ceiling(n / 3), n, replace = TRUE)) # households
  x
}

bin <- Sys.getenv("SDCBENCH", "bin/sdcbench")
# The commit the binary was built from: `make bench-sdcmicro` builds it just before this script
# starts, so the tree's commit now (not when the table is written, which may be later), marked
# "+changes" when the tree differs from it.
binRev <- tryCatch({
  r <- system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE)
  if (system2("git", c("diff", "--quiet", "HEAD")) != 0) paste0(r, "+changes") else r
}, error = function(e) "?", warning = function(w) "?")
script <- "bench/sdcmicro_compare.R"
# When the run started and the machine's load then (the table is written at the end).
started <- format(Sys.time(), "%Y-%m-%d %H:%M", tz = "UTC")
startLoad <- tryCatch(paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " "), error = function(e) "?")
stopifnot(file.exists(bin), file.exists(script))
childCPU <- function(t) t[["user.child"]] + t[["sys.child"]]

# runFloor is the CPU of `cat` copying the input files to /dev/null: what only reading their
# bytes costs, a lower bound for any process that parses them (sdcbench's included). Where
# sdcMicro's call costs less than that, no process that reads the CSV can cost less than it.
runFloor <- function(inp, masked) {
  t <- system.time(system2("cat", c(inp, masked), stdout = FALSE))
  childCPU(t)
}

runTheirs <- function(name, inp, out, masked) {
  res <- NULL
  t <- system.time(res <- system2("Rscript", c(script, "--child", name, inp, out, masked), stdout = TRUE))
  v <- suppressWarnings(as.numeric(strsplit(trimws(res[length(res)]), " ")[[1]]))
  list(call = v[1], process = childCPU(t), value = v[2])
}

runOurs <- function(cs, inp, out, masked) {
  a <- if (cs$ours[1] == "protect") {
    c(cs$ours, "--in", inp, "--out", out, "--quiet", "--seed", "1",
      if (cs$data == "keys") c("--columns", paste(keyNames, collapse = ","), "--keep", "w"))
  } else if (cs$data == "pair") {
    c(cs$ours, "--orig", inp, "--masked", masked)
  } else { # keys: the risk of one file, as a user measures a release (no original needed)
    c(cs$ours, "--masked", inp, "--keys", paste(keyNames, collapse = ","), "--weight", "w")
  }
  res <- NULL
  t <- system.time(res <- system2(bin, a, stdout = TRUE, stderr = FALSE))
  value <- NA_real_
  if (cs$ours[1] == "eval") {
    m <- cs$ours[3]
    line <- grep(paste0("^", m, ","), res, value = TRUE)
    value <- as.numeric(sub("^[^,]*,", "", line[1]))
  }
  list(process = childCPU(t), value = value)
}

sseSST <- function(x, y) {
  x <- as.matrix(x)
  100 * sum((as.matrix(y) - x)^2) / sum(sweep(x, 2, colMeans(x))^2)
}
changedPct <- function(x, y) 100 * mean(as.matrix(x[, keyNames]) != as.matrix(y[, keyNames]))
upperBound <- function(label) as.numeric(sub("^.*,([^]]*)\\]$", "\\1", as.character(label)))
noiseSD <- function(x, y) 100 * mean(mapply(function(a, b) sd(b - a) / sd(a), x, y))

only <- opt("--only", "")
names_ <- if (nzchar(only)) strsplit(only, ",")[[1]] else names(cases)
reps <- as.integer(opt("--reps", "1"))
full <- flag("--full")
outFile <- opt("--out", file.path("docs", "performance.md"))
tmp <- tempfile("sdccmp")
dir.create(tmp)
rows <- list()
for (name in names_) {
  cs <- cases[[name]]
  if (is.null(cs)) stop("unknown case ", name)
  sizes <- if (nzchar(opt("--sizes", ""))) as.numeric(strsplit(opt("--sizes", ""), ",")[[1]]) else if (full) cs$full else cs$sizes
  for (n in sizes) {
    x <- genData(cs, n)
    inp <- file.path(tmp, "in.csv")
    write.csv(x, inp, row.names = FALSE, na = "NA")
    masked <- NULL
    if (cs$data == "pair") { # the same masked file for both tools
      masked <- file.path(tmp, "masked.csv")
      write.csv(x + rnorm(n * cs$d, sd = 0.05), masked, row.names = FALSE)
    }
    their <- file.path(tmp, "theirs.csv")
    our <- file.path(tmp, "ours.csv")
    th <- list()
    us <- list()
    fl <- numeric(0)
    for (r in seq_len(reps)) { # alternating, so that a drift of the machine hits both
      th[[r]] <- runTheirs(name, inp, their, masked)
      us[[r]] <- runOurs(cs, inp, our, masked)
      fl[r] <- runFloor(inp, masked)
    }
    call <- median(sapply(th, `[[`, "call"))
    proc <- median(sapply(th, `[[`, "process"))
    ours <- median(sapply(us, `[[`, "process"))
    agree <- switch(cs$agree,
      maxdiff = sprintf("largest difference %.3g", max(abs(as.matrix(read.csv(their)) - as.matrix(read.csv(our))))),
      noisesd = sprintf("100·sd(noise)/sd: %.3f / %.3f", noiseSD(x, read.csv(their)), noiseSD(x, read.csv(our))),
      value = sprintf("%.10g / %.10g", th[[1]]$value, us[[1]]$value),
      ssesst = sprintf("100·SSE/SST: %.4f / %.4f", sseSST(x, read.csv(their)), sseSST(x, read.csv(our))),
      changed = sprintf("%% key cells changed: %.3f / %.3f", changedPct(x, read.csv(their)), changedPct(x, read.csv(our))),
      interval = sprintf("records in the same interval: %d of %d",
        sum(upperBound(read.csv(their)$V1) == upperBound(read.csv(our)$V1)), as.integer(n)),
      suppressed = sprintf("%d / %d", as.integer(th[[1]]$value),
        sum(is.na(as.matrix(read.csv(our)[, keyNames]))) - sum(is.na(as.matrix(x[, keyNames])))))
    d <- ncol(x)
    rows[[length(rows) + 1]] <- data.frame(case = name, n = n, d = d, call = call, process = proc,
      ours = ours, floor = median(fl), ratio = call / ours, agreement = agree, stringsAsFactors = FALSE)
    cat(sprintf("%-15s n=%-8d d=%-3d sdcMicro call %9.3f process %9.3f | sdcbench %8.3f | cat %6.3f | ratio %7.2f | %s\n",
      name, as.integer(n), as.integer(d), call, proc, ours, median(fl), call / ours, agree))
  }
}
tab <- do.call(rbind, rows)

slope <- function(n, y) {
  if (length(unique(n)) < 2 || any(y <= 0)) return(NA_real_)
  unname(coef(lm(log(y) ~ log(n)))[2])
}

fmtN <- function(n) {
  e <- floor(log10(n) + 1e-9)
  m <- n / 10^e
  if (abs(m - 1) < 1e-9) sprintf("10^%d", e) else sprintf("%g·10^%d", m, e)
}

md <- c(
  "# Performance against sdcMicro",
  "",
  "<!-- Generated by bench/sdcmicro_compare.R (`make bench-sdcmicro`); edit the script, not this table. -->",
  "",
  "CPU seconds (user + system) of sdcMicro 5.8.1 and of sdcbench on the same CSV files, for the",
  "methods and measures both have. *sdcMicro call*: the function call alone, measured inside R;",
  "*sdcMicro process*: the whole `Rscript` child (start-up, `library(sdcMicro)`, `read.csv`, the",
  "call, `write.csv`); *sdcbench*: the whole `sdcbench protect` or `sdcbench eval` process (reading",
  "the CSV, the method or measure, writing the release); *`cat`*: `cat` copying the input",
  "file(s) to /dev/null, what only reading their bytes costs, a floor for any process that parses",
  "them. *ratio* = sdcMicro call / sdcbench process: above 1, sdcbench's whole process costs less",
  "than sdcMicro's call alone; where the call costs no more than `cat` (marked †), no process that",
  "reads the CSV can cost less than it. *agreement*: one number from both outputs (sdcMicro /",
  "sdcbench, or the largest absolute difference between the two releases).",
  "",
  "The data are generated in R with `set.seed(n)`: *normal* cases are n × d independent N(0, 1)",
  "columns; the *pair* cases (`il1s`, `il1rel`, `eigen`, `interval_disclosure`, `rmd_risk1`) give both tools the same",
  "original and masked file (the original plus N(0, 0.05²) noise), so sdcbench reads two CSV files;",
  "the *keys* cases (`freq*`, `ind_risk_mean`, `global_risk_er`, `kanon_k3`, `pram`, `local_supp`,",
  "`ldiv_distinct_mean`, `dis_suda_mean`, `suda_contrib_max`, `hier_risk_er`, `risky_cells`, `modrisk_gr1`) are seven",
  "categorical keys of 2, 4, 6, 8, 12, 20 and 30 categories (category c drawn with probability",
  "∝ 1/c) and a sampling weight w in [1, 100) (d = 8 columns); `freq_na` sets 2 % of the key cells",
  "missing (a missing value matches any value, sdcMicro's freqCalc rule); `ldiv_distinct_mean` adds a",
  "sensitive column s of 5 equally likely values, `hier_risk_er` a household id h (n/3 households drawn",
  "at random, about 3 records each, sorted); the measures among them read the file as a release",
  "alone in both tools (`eval --masked FILE --keys k1,…,k7 --weight w`, no original).",
  "Where both tools draw at random (noise, shuffling, PRAM,",
  "rmd), the agreement compares a statistic of the two releases, not the releases.",
  "",
  if (nzchar(only)) sprintf("Cases run: %d of the script's %d (`--only`).",
    length(names_), length(cases)),
  sprintf("Run: started %s UTC, ended %s UTC, %s, sdcMicro %s, %s, %d repetition(s) (median), %s sizes, %d CPUs (load average at the start: %s).",
    started, format(Sys.time(), "%H:%M", tz = "UTC"), R.version.string, as.character(packageVersion("sdcMicro")),
    paste0("sdcbench ", binRev),
    reps, if (full) "full (`--full`)" else "default", parallel::detectCores(),
    startLoad),
  "On a machine shared with other processes, compare the ratios rather than the absolute times.",
  "",
  "| case | n × d | sdcMicro call (CPU-s) | sdcMicro process (CPU-s) | sdcbench (CPU-s) | `cat` (CPU-s) | ratio | agreement |",
  "|---|---|---|---|---|---|---|---|")
fmtRatio <- function(r) {
  x <- if (r$ratio < 1) sprintf("**%.2f**", r$ratio) else sprintf("%.1f", r$ratio)
  if (r$call <= r$floor) paste0(x, " †") else x
}
for (i in seq_len(nrow(tab))) {
  r <- tab[i, ]
  md <- c(md, sprintf("| %s | %s × %d | %.3f | %.3f | %.3f | %.3f | %s | %s |", r$case, fmtN(r$n), r$d,
    r$call, r$process, r$ours, r$floor, fmtRatio(r), r$agreement))
}
below <- tab[tab$ratio < 1, ]
if (nrow(below) > 0) {
  lst <- function(b) paste(sprintf("`%s` at %s (%.2f)", b$case, sapply(b$n, fmtN), b$ratio), collapse = ", ")
  small <- below$n < 1e5 # below the sizes the speed goals are set at (10^5 and 10^6 records)
  bound <- !small & below$call <= below$floor
  other <- !small & !bound
  md <- c(md, "", paste0(sprintf("Below 1 in this run: %d of %d.", nrow(below), nrow(tab)),
    if (any(small)) sprintf(" Below 10^5 records: %s.", lst(below[small, ])),
    if (any(bound)) sprintf(" At 10^5 records and more, where sdcMicro's call costs no more than `cat` reading the input (†): %s.", lst(below[bound, ])),
    if (any(other)) sprintf(" At 10^5 records and more, where it costs more than `cat`: %s.", lst(below[other, ]))))
} else {
  md <- c(md, "", "Below 1 in this run: none.")
}
md <- c(md, "", "**Fitted exponents** (CPU ∝ n^b, the least-squares slope of log CPU on log n over the sizes above):", "",
  "| case | sizes | b, sdcMicro call | b, sdcMicro process | b, sdcbench |", "|---|---|---|---|---|")
for (name in unique(tab$case)) {
  s <- tab[tab$case == name, ]
  f <- function(y) { b <- slope(s$n, y); if (is.na(b)) "—" else sprintf("%.2f", b) }
  md <- c(md, sprintf("| %s | %s | %s | %s | %s |", name, paste(sapply(s$n, fmtN), collapse = ", "),
    f(s$call), f(s$process), f(s$ours)))
}
md <- c(md, "", "The calls compared:", "")
for (name in unique(tab$case)) md <- c(md, sprintf("- `%s`: %s", name, cases[[name]]$what))
md <- c(md, "",
  "Regenerate with `make bench-sdcmicro` (default sizes, about 40 CPU-minutes) or",
  "`make bench-sdcmicro ARGS=\"--full --reps 3\"` (up to 10^6 records; sdcMicro's mdav at 10^5 × 10,",
  "freqCalc with missing keys at 10^6, kAnon at 2·10^4, localSupp at 10^6 and modRisk at 10^4 take minutes to hours each). Needs R with sdcMicro 5.8.1 (`Rscript`).",
  "docs/scaling.md explains where sdcbench's time goes.")
if (outFile == "-") {
  writeLines(md)
} else {
  writeLines(md, outFile)
  cat("wrote", outFile, "\n")
}
unlink(tmp, recursive = TRUE)
