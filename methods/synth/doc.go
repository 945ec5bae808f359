// Package synth holds the synthetic-data methods that replace a block of dependent
// attributes Y by values predicted from a released block of independent attributes X:
// IPSO-A, IPSO-B and IPSO-C (Burridge's information-preserving statistical obfuscation) and
// FCRM, synthesis by fuzzy c-regression models, with its fuzzy c-means initialization.
//
// The methods follow a 2009 final-degree project on synthetic microdata by fuzzy
// c-regression (the document does not name its author); docs/fcrm.md explains every
// decision. X is released unchanged; only the Y columns change, and a release lists them in
// Release.Columns so that the measures can be computed on the synthesized columns only.
//
// Which columns are X and which are Y comes from the parameters `preds` (X) and `targets`
// (Y), or, when both are empty, from the split registered with the dataset (census_s1,
// census_s2, census_s3_d<d>_n<n>, fcrm_toy). Registered splits name attributes by their
// position v1..v13 in the Census file; `census_order: table4` maps v_i to the i-th name of the
// study's alphabetical attribute table instead.
package synth
