# Makes the recordswap reference values from sdcMicro 5.8.1:
#   createdat.csv   the data of sdcMicro::createDat(5000) under set.seed(2021)
#   sdcmicro50.csv  per configuration, the mean and sd over seeds 1..50 of recordSwap's
#                   share of swapped households and, per hierarchy level, the number of
#                   swapped households whose coarsest changed area is that level.
# Run from this folder: Rscript recordswap.R
suppressMessages({library(sdcMicro); library(data.table)})
set.seed(2021)
dat <- createDat(5000)
fwrite(dat, "createdat.csv")

configs <- list(
  list(name = "nuts12_k3", hierarchy = c("nuts1", "nuts2"), similar = list("hsize"),
       risk = c("ageGroup", "national"), k = 3, swaprate = 0.05, carry = c("nuts3", "lau2")),
  list(name = "nuts123_k2", hierarchy = c("nuts1", "nuts2", "nuts3"), similar = list(c("hsize", "htype"), "hsize"),
       risk = c("ageGroup"), k = 2, swaprate = 0.1, carry = character(0)),
  list(name = "nuts123_k0", hierarchy = c("nuts1", "nuts2", "nuts3"), similar = list("hsize"),
       risk = c("ageGroup", "gender"), k = 0, swaprate = 0.2, carry = character(0)),
  list(name = "nuts123_k3", hierarchy = c("nuts1", "nuts2", "nuts3"), similar = list("hsize"),
       risk = c("ageGroup", "gender"), k = 3, swaprate = 0.05, carry = "lau2"),
  list(name = "nuts12_k3_risky", hierarchy = c("nuts1", "nuts2"), similar = list("hsize"),
       risk = c("ageGroup", "national", "hincome"), k = 3, swaprate = 0.05, carry = character(0))
)

# stats returns the share of swapped households and, per level, the number of swapped
# households whose first changed hierarchy column is that level.
stats <- function(orig, rel, hier) {
  o <- unique(orig[, c("hid", hier), with = FALSE])
  r <- unique(rel[, c("hid", hier), with = FALSE])
  setkey(o, hid); setkey(r, hid)
  stopifnot(nrow(o) == nrow(r), all(o$hid == r$hid))
  lev <- rep(NA_integer_, nrow(o))
  for (j in rev(seq_along(hier))) {
    lev[o[[hier[j]]] != r[[hier[j]]]] <- j
  }
  c(share = mean(!is.na(lev)), sapply(seq_along(hier), function(j) sum(lev == j, na.rm = TRUE)))
}

out <- list()
for (cf in configs) {
  res <- t(sapply(1:50, function(seed) {
    rel <- suppressMessages(recordSwap(dat, hid = "hid", hierarchy = cf$hierarchy, similar = cf$similar,
      swaprate = cf$swaprate, k_anonymity = cf$k, risk_variables = cf$risk,
      carry_along = if (length(cf$carry)) cf$carry else NULL,
      log_file_name = tempfile(), seed = seed))
    stats(dat, rel, cf$hierarchy)
  }))
  stat <- c("share", paste0("level", seq_along(cf$hierarchy)))
  out[[cf$name]] <- data.frame(config = cf$name, stat = stat,
    mean = sprintf("%.10g", colMeans(res)), sd = sprintf("%.10g", apply(res, 2, sd)))
}
fwrite(rbindlist(out), "sdcmicro50.csv")

# risklevels.csv: sdcMicro's own C++ risk and must-swap levels (setRisk_cpp, setLevels_cpp,
# as recordSwap calls them) for each household of createdat.csv, with hierarchy
# nuts1 > nuts2 > nuts3, risk variables ageGroup and national, k_anonymity 3 (level 3: none).
hier <- c("nuts1", "nuts2", "nuts3")
dat <- fread("createdat.csv") # as written, whatever recordSwap did to dat
setkey(dat, hid)
cn <- colnames(dat)
risk <- sdcMicro:::setRisk_cpp(transpose(dat), match(hier, cn) - 1, match(c("ageGroup", "national"), cn) - 1, match("hid", cn) - 1)
lev <- sdcMicro:::setLevels_cpp(risk, 1 / 3)
r <- do.call(rbind, risk)
first <- !duplicated(dat$hid)
fwrite(data.table(hid = dat$hid[first], risk1 = sprintf("%.17g", r[first, 1]), risk2 = sprintf("%.17g", r[first, 2]),
  risk3 = sprintf("%.17g", r[first, 3]), level = lev[first]), "risklevels.csv")
