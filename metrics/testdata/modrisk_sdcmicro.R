# Makes metrics/testdata/modrisk.csv, the values of metrics/modrisk_test.go: sdcMicro 5.8.1's
# modRisk global risks gr1 and gr2 (methods default, CE, PML, weightedLLM, IPF) on two embedded
# datasets, read from the repository's CSV files. modRisk(sdcObj) hands the object's key
# variables and weights to modRisk's data.frame method; the script calls that method directly:
#   testdata (sdcMicro's), weight sampling_weight, the seven keys urbrur, roof, walls, water,
#     electcon, relat, sex;
#   eusilcS (simPop's), weight rb050, keys db040, pb220a, hsize, age (pb220a has 2,203 missing
#     values) and pl030, pb220a, hsize, age.
# The keys are made factors first: sdcbench's keys are categories, and createSdcObj leaves
# integer-coded keys numeric (glm would then fit a linear trend in the codes; docs/metrics.md
# §9, "Model-based global risk").
# gr1 and gr2 are sdcMicro's code with one line changed: its file_risk sums
# as.numeric(freq == 1) * risk over all cells, so a cell of more than one record whose
# exp(-(1 - p) * lambda) overflows (0 * Inf) makes the sum NaN; the changed line sums risk over
# the sample uniques only, which is the definition and sdcbench's value. gr1_sdcmicro and
# gr2_sdcmicro are the unchanged sums (NaN where the overflow happens), from the same fit.
# Needs R with sdcMicro 5.8.1; the tests read only the file it writes.
# Run from the repository root: Rscript metrics/testdata/modrisk_sdcmicro.R
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
out <- "metrics/testdata/modrisk.csv"
rows <- list()
# sdcMicro's modRisk for a data.frame (what modRisk(sdcObj) calls) with the one changed line.
src <- deparse(getMethod("modRiskX", "data.frame")@.Data)
old <- "sum(as.numeric(freq == 1) * risk)"
stopifnot(sum(grepl(old, src, fixed = TRUE)) == 1)
src <- sub(old, "sum(risk[freq == 1])", src, fixed = TRUE)
ret <- grep("gr1perc = gr1 * 100,", src, fixed = TRUE)
stopifnot(length(ret) == 1)
src[ret] <- paste(src[ret], "gr1_sdcmicro = sum(as.numeric(x$counts == 1) * r1), gr2_sdcmicro = sum(as.numeric(x$counts == 1) * r2),")
modRiskFixed <- eval(parse(text = src))
environment(modRiskFixed) <- asNamespace("sdcMicro")
run <- function(name, dat, keys, w, formula = NULL, methods = c("default", "CE", "PML", "weightedLLM", "IPF"),
                bound = Inf) {
  for (k in keys) dat[[k]] <- factor(dat[[k]])
  if (is.null(formula)) formula <- paste("~", paste(keys, collapse = " + "))
  for (m in methods) {
    r <- suppressWarnings(modRiskFixed(dat[, c(keys, w)], method = m, weights = w,
      formulaM = as.formula(formula), bound = bound))
    rows[[length(rows) + 1]] <<- data.frame(dataset = name, keys = paste(keys, collapse = " "),
      formula = formula, method = m, bound = ifelse(is.finite(bound), sprintf("%g", bound), "Inf"),
      gr1 = sprintf("%.17g", r$gr1), gr2 = sprintf("%.17g", r$gr2),
      gr1_sdcmicro = sprintf("%.17g", r$gr1_sdcmicro), gr2_sdcmicro = sprintf("%.17g", r$gr2_sdcmicro))
  }
}
td <- read.csv("datasets/data/testdata.csv")
tk <- c("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")
run("testdata", td, tk, "sampling_weight")
run("testdata", td, tk, "sampling_weight", bound = 5)
run("testdata", td, tk, "sampling_weight", formula = "~ sex + water + roof")
run("testdata", td, tk, "sampling_weight", formula = "~ urbrur + water + relat + sex + water:urbrur + relat:sex",
    methods = c("default", "CE", "PML", "weightedLLM"))
eu <- read.csv("datasets/data/eusilcS.csv")
run("eusilcs", eu, c("db040", "pb220a", "hsize", "age"), "rb050")
run("eusilcs", eu, c("pl030", "pb220a", "hsize", "age"), "rb050")
run("eusilcs", eu, c("db040", "pb220a", "hsize", "age", "rb090"), "rb050",
    formula = "~ db040 + hsize + rb090 + age + pb220a + age:rb090 + hsize:rb090",
    methods = c("default", "CE", "PML", "weightedLLM"))
write.csv(do.call(rbind, rows), out, row.names = FALSE, quote = FALSE)
