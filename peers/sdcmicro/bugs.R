# Two sdcMicro 5.8.1 bugs that sdcbench does not copy (docs/sdcmicro.md §6). Run with
#   Rscript peers/sdcmicro/bugs.R
# It prints, for each bug, the value sdcMicro gives with the trigger and without it.
suppressMessages(library(sdcMicro))
cat("sdcMicro", as.character(packageVersion("sdcMicro")), "\n")

# 1. dUtility with the release as a matrix: xm[[i]] is the i-th cell, not the i-th column.
set.seed(1)
x <- matrix(rnorm(30, 10), 10, 3)
xm <- x + 0.1
cat("dUtility IL1s, release as a matrix:    ", dUtility(as.data.frame(x), xm = xm, method = "IL1s"), "\n")
cat("dUtility IL1s, release as a data frame:", dUtility(as.data.frame(x), xm = as.data.frame(xm), method = "IL1s"), "\n")
# With the original as a matrix there is no dUtility method at all.
cat("dUtility, original as a matrix:        ",
    tryCatch(dUtility(x, xm = xm, method = "IL1s"), error = function(e) "error (no method)"), "\n")

# 2. suda2 with a text key: as.numeric() turns every value into NA, so the key is missing throughout.
d <- data.frame(a = c("x", "x", "y", "y", "z"), b = c(1, 1, 2, 2, 1), c = c(1, 2, 1, 2, 1),
                stringsAsFactors = FALSE)
cat("suda2 scores, key a as text:  ", suppressWarnings(suda2(d))$score, "\n")
d$a <- factor(d$a)
s <- suppressWarnings(suda2(d))  # sdcMicro warns "invalid factor level" here; the scores are right
cat("suda2 scores, key a as factor:", s$score, " DIS:", s$disScore, "\n")
