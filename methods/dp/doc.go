// Package dp implements ε-differentially private synthetic data for binary and categorical
// variables and Bayesian inference on the released copies, following
// docs/dp.md (DP study, 002_8cd6576b8ce6e8bf.txt):
//
//   - the Abowd–Vilhuber synthesizers bb_synth (Beta-Binomial) and dm_synth
//     (Dirichlet-Multinomial) with the ε → α rules mv2008 (default) and printed (§3);
//   - the baselines laplace_counts, rubin_mi and rubin_fs (§2, §4);
//   - Charest's model for binary data with its exact posterior charest_exact (§5.1), the
//     Gibbs sampler charest_gibbs (Algorithm 3, §5.2) and the Metropolis-within-Gibbs sampler
//     charest_mhl (Algorithm 4, §5.3);
//   - the categorical extension: dm_exact (§6.1), the seed's sampler dm_alg6 (Algorithm 6,
//     §6.2) and the collapsed reference sampler dm_collapsed (§6.3).
//
// # Data
//
// A binary confidential dataset is one column of 0/1 values (x = the number of ones). A
// categorical one is C ≥ 2 one-hot columns (x_i = the column sums). The generators of this
// package register the seed's scenarios (dp_bin_*, dp_cat*, susep_collisions).
//
// # Releases
//
// Every method synthesizes M copies at ε/M each from the dataset's counts (the run's
// *rand.Rand is the only source of randomness), runs its inference and returns the first
// copy as records in Release.Masked, scaled to the input's n rows when nt ≠ n. The
// posterior is handed to the metrics of metrics/dp.go as Release.Diag.Posterior (posterior
// means, Beta mixtures or stored draws, the target; diag.Posterior).
package dp
