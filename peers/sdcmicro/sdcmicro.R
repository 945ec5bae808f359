# sdcmicro.R: sdcMicro's methods as programs for sdcbench's `command` method.
#
#   Rscript sdcmicro.R FUNCTION IN OUT SEED [name=value]...
#   Rscript sdcmicro.R --version
#
# reads IN (a CSV with a header: the columns sdcbench protects), calls the sdcMicro function on
# every column with the given arguments, and writes the release to OUT (same header, same rows).
# FUNCTION is one of addNoise, rankSwap, microaggregation, pram, kAnon, localSuppression.
# SEED is the run's seed (a decimal uint64); R's set.seed takes a 32-bit integer, so the seed's
# last nine digits are used: the same run always draws the same numbers.
# Arguments are passed to the function as named (numbers as numbers), e.g. noise=150 or
# aggr=3 method=mdav. Missing values are read from "NA" and empty cells and written as "NA".
args <- commandArgs(trailingOnly = TRUE)
if (identical(args, "--version")) {
  cat("sdcMicro", as.character(packageVersion("sdcMicro")), "on", R.version$version.string, "\n")
  quit(save = "no")
}
if (length(args) < 4) {
  stop("usage: Rscript sdcmicro.R FUNCTION IN OUT SEED [name=value]...")
}
fun <- args[1]; inp <- args[2]; out <- args[3]; seed <- args[4]
suppressPackageStartupMessages(library(sdcMicro))
if (!grepl("^[0-9]+$", seed)) stop("SEED must be a non-negative integer, got ", seed)
set.seed(as.integer(substr(seed, max(1, nchar(seed) - 8), nchar(seed))))

opt <- list()
for (a in args[-(1:4)]) {
  kv <- regmatches(a, regexpr("=", a), invert = TRUE)[[1]]
  if (length(kv) != 2) stop("argument ", a, ": write name=value")
  v <- kv[2]
  num <- suppressWarnings(as.numeric(v))
  opt[[kv[1]]] <- if (!is.na(num)) num else if (v %in% c("TRUE", "FALSE")) as.logical(v) else v
}

x <- read.csv(inp, check.names = FALSE, na.strings = c("NA", ""), stringsAsFactors = FALSE)
vars <- names(x)
call <- function(f, ...) do.call(f, c(list(...), opt))
y <- switch(fun,
  addNoise = call(addNoise, x, variables = vars)$xm,
  rankSwap = call(rankSwap, x, variables = vars),
  microaggregation = call(microaggregation, x, variables = vars)$mx,
  pram = {
    for (v in vars) x[[v]] <- as.factor(x[[v]])
    r <- call(pram, x, variables = vars)
    z <- x
    for (v in vars) z[[v]] <- as.character(r[[paste0(v, "_pram")]])
    z
  },
  kAnon = {
    for (v in vars) x[[v]] <- as.factor(x[[v]])
    call(kAnon, x, keyVars = vars)$xAnon
  },
  localSuppression = {
    for (v in vars) x[[v]] <- as.factor(x[[v]])
    call(localSuppression, x, keyVars = vars)$xAnon
  },
  stop("unknown FUNCTION ", fun, ": use addNoise, rankSwap, microaggregation, pram, kAnon or localSuppression")
)
y <- as.data.frame(y)[, vars, drop = FALSE]
write.csv(y, out, row.names = FALSE, na = "NA")
