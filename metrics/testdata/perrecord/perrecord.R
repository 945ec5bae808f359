# Per-record risk, SUDA attribute contributions and riskyCells of sdcMicro 5.8.1 on sdcMicro's
# testdata (the copy embedded as datasets/data/testdata.csv), the expected values of
# metrics/perrecord_test.go and cmd/sdcbench's eval --per-record test.
#
# Run from the repository root:  Rscript metrics/testdata/perrecord/perrecord.R
# Writes, next to this script:
#   testdata.csv.gz     one row per record of testdata: fk, Fk, risk, hier_risk (household
#                       ori_hid, weight sampling_weight), suda_score, dis_score and the seven
#                       contributionPercent columns of suda2 (keys urbrur … sex)
#   testdata_na.csv.gz  the same on a copy with missing key values (see na_rows below)
#   contributions.csv   suda2's attribute_contributions on both tables
#   riskycells.csv      riskyCells(useIdentificationLevel = FALSE) on the seven keys
suppressPackageStartupMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
out <- "metrics/testdata/perrecord"
keys <- c("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")
d <- read.csv("datasets/data/testdata.csv")

# missing key values: roof in every 97th record, water in every 89th, sex in every 251st
na_rows <- function(d) {
  n <- nrow(d)
  d$roof[seq(97, n, by = 97)] <- NA
  d$water[seq(89, n, by = 89)] <- NA
  d$sex[seq(251, n, by = 251)] <- NA
  d
}

per_record <- function(d) {
  sdc <- createSdcObj(d, keyVars = keys, w = "sampling_weight", hhId = "ori_hid")
  ind <- sdc@risk$individual
  s <- suda2(d, variables = keys) # data.frame method: NA is skipped (missing = -999)
  res <- data.frame(fk = ind[, "fk"], Fk = ind[, "Fk"], risk = ind[, "risk"],
                    hier_risk = ind[, "hier_risk"], suda_score = s$score, dis_score = s$disScore)
  cp <- as.data.frame(s$contributionPercent)
  names(cp) <- paste0("contrib_", keys)
  list(rows = cbind(res, cp), contrib = s$attribute_contributions)
}

write_gz <- function(df, name) {
  con <- gzfile(file.path(out, name), "w")
  write.csv(format(df, digits = 17, scientific = FALSE, trim = TRUE), con, row.names = FALSE, quote = FALSE)
  close(con)
}

a <- per_record(d)
b <- per_record(na_rows(d))
write_gz(a$rows, "testdata.csv.gz")
write_gz(b$rows, "testdata_na.csv.gz")
contrib <- rbind(cbind(table = "testdata", a$contrib), cbind(table = "testdata_na", b$contrib))
contrib$contribution <- format(contrib$contribution, digits = 17, scientific = FALSE, trim = TRUE)
write.csv(contrib, file.path(out, "contributions.csv"), row.names = FALSE, quote = FALSE)

# riskyCells: unsafe cells (N <= threshold) of every table of 1..maxDim keys
rc <- NULL
for (cfg in list(list(th = 2, md = 3), list(th = c(20, 10, 5), md = 3), list(th = 3, md = 7))) {
  for (tab in c("testdata", "testdata_na")) {
    dd <- if (tab == "testdata") d else na_rows(d)
    r <- riskyCells(dd, keyVars = keys, threshold = cfg$th, useIdentificationLevel = FALSE, maxDim = cfg$md)
    dims <- rowSums(!is.na(as.matrix(r[, paste0("dim", 1:cfg$md), with = FALSE])))
    for (k in 1:cfg$md) {
      rc <- rbind(rc, data.frame(table = tab, threshold = paste(cfg$th, collapse = " "), max_dim = cfg$md,
                                 dim = k, unsafe_cells = sum(as.numeric(r$unsafe_cells)[dims == k])))
    }
  }
}
write.csv(rc, file.path(out, "riskycells.csv"), row.names = FALSE, quote = FALSE)
