# sdcMicro 5.8.1's localSupp on eusilcS's keys, which hold missing values (pl030 and pb220a are NA
# for the 2,203 children): the reference of TestLocalSuppEusilcsNA (docs/own-data.md §6). Run from
# this folder:  Rscript eusilcs_na.R
# Writes localsupp_eusilcs.csv: the 1-based rows whose key_var becomes NA in
# localSupp(keyVar = "hsize", threshold = 0.5) with keys db040, rb090, pl030, pb220a, hsize, no
# weights (individual risk 1/fk, a missing key matching every category).
suppressMessages(library(sdcMicro))
stopifnot(packageVersion("sdcMicro") == "5.8.1")
e <- read.csv(file.path("..", "..", "..", "datasets", "data", "eusilcS.csv"))
keys <- c("db040", "rb090", "pl030", "pb220a", "hsize")
for (k in keys) e[[k]] <- as.factor(e[[k]])
stopifnot(sum(is.na(e$pl030)) == 2203)
sdc <- createSdcObj(e, keyVars = keys)
before <- is.na(get.sdcMicroObj(sdc, "manipKeyVars")$hsize)
sdc <- localSupp(sdc, keyVar = "hsize", threshold = 0.5)
after <- is.na(get.sdcMicroObj(sdc, "manipKeyVars")$hsize)
write.csv(data.frame(row = which(after & !before)), "localsupp_eusilcs.csv", row.names = FALSE, quote = FALSE)
cat("suppressed", sum(after & !before), "\n")
