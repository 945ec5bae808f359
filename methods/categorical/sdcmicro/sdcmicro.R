# Regenerates the sdcMicro 5.8.1 reference values of methods/categorical's tests:
#   Rscript sdcmicro.R /path/to/testdata.csv
# pram_roof.csv: the diagonal draws and sdcMicro's invariant matrix Rs for roof (pd 0.75,
# alpha 0.5, no strata); localsupp.csv: the 1-based rows suppressed by localSupp(water, 0.4)
# and then localSupp(relat, 0.7); pram_changes.csv: see the end.
suppressMessages(library(sdcMicro))
args <- commandArgs(trailingOnly = TRUE)
td <- read.csv(args[1])
keys <- c("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")
for (k in keys) td[[k]] <- as.factor(td[[k]])
L <- nlevels(td$roof)
set.seed(20221)
pds <- runif(L, min = 0.75, max = 1)
set.seed(20221)
pr <- sdcMicro:::pramWORK(td, variables = "roof", params = list(pd = list(0.75), alpha = list(0.5)))
Rs <- attr(pr, "pram_params")$roof$Rs
out <- data.frame(level = levels(td$roof), pd = sprintf("%.17g", pds))
for (j in seq_len(L)) out[[paste0("Rs", j)]] <- sprintf("%.17g", Rs[, j])
write.csv(out, "pram_roof.csv", row.names = FALSE, quote = FALSE)
sdc <- createSdcObj(td, keyVars = keys)
rows <- list()
steps <- list(c("water", 0.4), c("relat", 0.7))
for (s in steps) {
  before <- is.na(get.sdcMicroObj(sdc, "manipKeyVars")[[s[1]]])
  sdc <- localSupp(sdc, keyVar = s[1], threshold = as.numeric(s[2]))
  after <- is.na(get.sdcMicroObj(sdc, "manipKeyVars")[[s[1]]])
  rows[[length(rows) + 1]] <- data.frame(step = paste(s, collapse = ":"), row = which(after & !before))
  r <- get.sdcMicroObj(sdc, "risk")$global
  fk <- get.sdcMicroObj(sdc, "risk")$individual[, "fk"]
  cat(s, "suppressed", sum(after & !before), "kanon", sum(fk < 2), sum(fk < 3), sum(fk < 5),
      "ER", sprintf("%.10f", sum(1 / fk)), sprintf("%.10f", r$risk_ER), "\n")
}
write.csv(do.call(rbind, rows), "localsupp.csv", row.names = FALSE, quote = FALSE)

# pram_changes.csv: records changed by 100 independent pram calls on roof (pd 0.75, alpha 0.5,
# no strata) and on sex with the matrix rows (1, 0), (0.05, 0.95).
set.seed(20222)
mat <- matrix(c(1, 0.05, 0, 0.95), ncol = 2, dimnames = list(levels(td$sex), levels(td$sex)))
ch <- data.frame(replicate = 1:100, roof = NA, sex = NA)
for (r in 1:100) {
  a <- sdcMicro:::pramWORK(td, variables = "roof", params = list(pd = list(0.75), alpha = list(0.5)))
  ch$roof[r] <- attr(a, "summary")$nrChanges
  b <- sdcMicro:::pramWORK(td, variables = "sex", params = list(pd = list(mat), alpha = list(NA)))
  ch$sex[r] <- attr(b, "summary")$nrChanges
}
write.csv(ch, "pram_changes.csv", row.names = FALSE, quote = FALSE)
