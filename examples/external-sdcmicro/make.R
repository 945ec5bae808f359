# Makes the sdcMicro releases that the external-sdcmicro example measures beside sdcbench's own
# MDAV: census and tarragona microaggregated with sdcMicro's mdav at k = 3 (every column).
# Run from the repository root:  Rscript examples/external-sdcmicro/make.R
suppressMessages(library(sdcMicro))
src <- c(census = "datasets/data/CASCrefmicrodata.csv", tarragona = "datasets/data/Tarragona.csv")
for (name in names(src)) {
  x <- read.csv(src[[name]], check.names = FALSE)
  m <- microaggregation(x, variables = colnames(x), aggr = 3, method = "mdav")
  out <- m$mx[, colnames(x)]
  write.csv(out, file.path("examples/external-sdcmicro/masked", paste0(name, ".csv")), row.names = FALSE)
  cat(name, ": sdcMicro", as.character(packageVersion("sdcMicro")), "mdav k = 3 ->",
      nrow(out), "x", ncol(out), "\n")
}
