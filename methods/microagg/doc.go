// Package microagg holds the microaggregation methods of docs/microaggregation.md, which
// partition the records into groups of at least k and release every record as its group's
// mean in raw units.
//
// It registers mdav, vmdav, cbfs, gsms, rmdm, pca, pppca, clustpppca, fdm, mhm, onedims and
// sdcMicro's ma_* variants. Partitions are labelled canonically (groups numbered by their
// smallest member); onedims aggregates each column on its own and has no joint partition.
// The partition functions (MDAV, VMDAV, CBFS, GSMS, …) take a row-major table in the
// distance space (z-scores or power-scaled raw values) and return labels that do not depend
// on the number of workers. From 8,192 records and up to 16 columns, MDAV, VMDAV, CBFS and
// GSMS answer their nearest and farthest queries from the exact indexes of
// internal/mdavindex instead of passes over the live records, with the same labels; rmdm
// orders its seeds by the robust distances of internal/robust's FastMCD.
package microagg
