# Reference values for the tests of docs/analysis.md "Tests that fit the design", from R's
# stats::wilcox.test. Run from experiments/stats:  Rscript testdata/design_tests.R > testdata/design_tests.csv
#
# kind ranksum:   wilcox.test(x, y, exact = E, conf.int = TRUE)   (replicates of two randomized methods)
# kind onesample: wilcox.test(x, mu = v, exact = E, conf.int = TRUE) (randomized against deterministic)
# r is the rank-biserial correlation: 2W/(n1 n2) - 1 for the rank sum, and the matched-pairs
# version 4V/(n(n+1)) - 1 over the n non-zero differences for the signed rank (Kerby 2014).
f <- function(v) if (is.na(v)) "NaN" else if (is.infinite(v)) (if (v > 0) "+Inf" else "-Inf") else sprintf("%.17g", v)
vec <- function(x) paste(vapply(x, f, ""), collapse = " ")
ex <- function(e) if (is.null(e)) "auto" else if (e) "yes" else "no"
cat("name,kind,exact,x,y,mu,statistic,p_value,estimate,ci_low,ci_high,conf_level,r\n")
row <- function(name, kind, x, y = NULL, mu = 0, exact = NULL) {
  r <- suppressWarnings(if (kind == "ranksum") wilcox.test(x, y, exact = exact, conf.int = TRUE)
                        else wilcox.test(x, mu = mu, exact = exact, conf.int = TRUE))
  st <- unname(r$statistic)
  rb <- if (kind == "ranksum") 2 * st / (length(x) * length(y)) - 1 else {
    n <- sum(x != mu); 4 * st / (n * (n + 1)) - 1 }
  cat(sprintf("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", name, kind, ex(exact), vec(x),
              if (is.null(y)) "" else vec(y), f(mu), f(st), f(r$p.value), f(unname(r$estimate)),
              f(r$conf.int[1]), f(r$conf.int[2]), f(attr(r$conf.int, "conf.level")), f(rb)))
}
swap <- 15.7 + 0.9 * (0:19) / 19              # rank swapping's interval_disclosure, 20 runs
row("issue32_zeros_vs_swap", "ranksum", rep(0, 20), swap)
row("issue32_swap_vs_zeros", "ranksum", swap, rep(0, 20))
row("issue32_noise_vs_mdav", "onesample", rep(0.846, 10), mu = 0.0091)
row("issue32_swap_vs_zero", "onesample", swap, mu = 0)
set.seed(32)
a <- round(rnorm(12, 1, 0.3), 6); b <- round(rnorm(9, 1.3, 0.3), 6)
row("ranksum_exact", "ranksum", a, b)
row("ranksum_ties", "ranksum", round(a, 1), round(b, 1))
row("ranksum_one_value", "ranksum", a, b[1])
big1 <- round(rnorm(70, 0, 1), 6); big2 <- round(rnorm(65, 0.4, 1), 6)
row("ranksum_normal", "ranksum", big1, big2)
huge1 <- round(rnorm(300, 0, 1), 6); huge2 <- round(rnorm(260, 0.1, 1), 6)
row("ranksum_capped", "ranksum", huge1, huge2, exact = FALSE)  # exact = "yes" past MaxExact equals this
row("onesample_exact", "onesample", a, mu = 0.9)
row("onesample_exact_neg", "onesample", b, mu = 1.6)
row("onesample_zero_diff", "onesample", c(a, 0.9), mu = 0.9)
row("onesample_ties", "onesample", round(a, 1), mu = 1.05)
row("onesample_normal", "onesample", big2, mu = 0.1)
row("onesample_capped", "onesample", c(huge1, huge2), mu = 0.05, exact = FALSE)
row("onesample_all_below", "onesample", b, mu = 5)
