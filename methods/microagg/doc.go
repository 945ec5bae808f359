// Package microagg holds the microaggregation methods of docs/microaggregation.md:
// MDAV and the building blocks the other methods share (standardization, canonical labels,
// group-mean aggregation). Each method partitions the records into groups of at least k
// records and replaces every record by its group's mean in raw units.
package microagg
