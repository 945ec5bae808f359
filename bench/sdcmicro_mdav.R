#!/usr/bin/env Rscript
# Times sdcMicro 5.8.1's C++ mdav (microaggregation(method = "mdav")) and sdcbench's mdav side by
# side on the same n×10 N(0,1) table, and checks that the two releases agree.
# Usage (from the repository root, after `make build`):
#   Rscript bench/sdcmicro_mdav.R [n ...]        (default n = 5000 20000)
# CPU seconds are user+system of the R process (sdcMicro) and of the child process (sdcbench,
# which includes reading and writing the CSV files). docs/scaling.md reports a run.
suppressMessages(library(sdcMicro))
args <- commandArgs(trailingOnly = TRUE)
ns <- if (length(args)) as.integer(args) else c(5000L, 20000L)
bin <- Sys.getenv("SDCBENCH", "bin/sdcbench")
cat(sprintf("%8s %14s %14s %8s %s\n", "n", "sdcMicro CPU s", "sdcbench CPU s", "ratio", "max |release diff|"))
for (n in ns) {
  set.seed(n)
  x <- as.data.frame(matrix(rnorm(n * 10), n, 10))
  inp <- tempfile(fileext = ".csv"); out <- tempfile(fileext = ".csv")
  write.csv(x, inp, row.names = FALSE)
  t1 <- system.time(y <- microaggregation(x, method = "mdav", aggr = 3)$mx)
  t2 <- system.time(system2(bin, c("protect", "--method", "mdav", "--param", "k=3", "--in", inp, "--out", out)))
  z <- read.csv(out)
  cpu1 <- t1[["user.self"]] + t1[["sys.self"]]
  cpu2 <- t2[["user.child"]] + t2[["sys.child"]]
  cat(sprintf("%8d %14.2f %14.2f %8.1f %.3g\n", n, cpu1, cpu2, cpu1 / cpu2, max(abs(as.matrix(y) - as.matrix(z)))))
}
