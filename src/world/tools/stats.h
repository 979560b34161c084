/* stats.h - small statistics for `astray sim` and the benchmarks: means, percentiles, t and Wilson intervals, paired differences. */
#ifndef ASTRAY_STATS_H
#define ASTRAY_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A mean with its 95% confidence interval.  Values that are NaN are left
 * out (a metric a game does not define, such as the turn of first contact
 * in a game without contact); n counts the values used.
 */
struct stats_summary {
	int n;            /* values used (NaN left out) */
	double mean;      /* NaN when n == 0 */
	double sd;        /* sample standard deviation (n - 1); NaN when n < 2 */
	double lo, hi;    /* 95% interval; NaN when n < 2 (or n == 0 for rates) */
	long successes;   /* rates only: values equal to 1 */
};

/* Cumulative distribution of the standard normal at x. */
double stats_normal_cdf(double x);

/* The standard normal quantile: x with P(Z <= x) = p, 0 < p < 1 (NaN otherwise). */
double stats_normal_quantile(double p);

/* Cumulative distribution of Student's t with df degrees of freedom (df >= 1) at t. */
double stats_t_cdf(double t, long df);

/* Student's t quantile: t with P(T <= t) = p for df >= 1 (NaN on bad input).
 * stats_t_quantile(0.975, 9) = 2.2622. */
double stats_t_quantile(double p, long df);

/*
 * Mean, sd and the t interval mean +/- t_{n-1,0.975} * sd / sqrt(n) of the
 * n values in v (NaN values skipped).  Fills out and returns out->n.
 */
int stats_mean_ci(const double *v, size_t n, struct stats_summary *out);

/*
 * A mean of a metric that cannot be negative (counts, turns, times): mean
 * and sd as stats_mean_ci, and lo/hi a 95% interval that stays inside the
 * range of the values (so never below 0).  Up to STATS_BOOTSTRAP_MAX
 * values it is the bootstrap percentile interval: STATS_BOOTSTRAP_B
 * resamples drawn from a fixed seed, so the same values in the same order
 * give the same interval on every run and machine; the 2.5th and 97.5th
 * nearest-rank percentiles of the resampled means.  With more values it is
 * the t interval cut to [min, max] of the values (the t interval is then
 * sound and the cut rarely acts).  All values equal: lo = hi = mean.
 */
#define STATS_BOOTSTRAP_B 2000
#define STATS_BOOTSTRAP_MAX 5000
int stats_nonneg_ci(const double *v, size_t n, struct stats_summary *out);

/*
 * A rate: values 1 (success) and 0 (failure), NaN skipped; mean = the
 * proportion, and lo/hi the 95% Wilson score interval, which stays inside
 * [0, 1] and is sound for 0 or n successes.  sd as stats_mean_ci.
 */
int stats_rate_ci(const double *v, size_t n, struct stats_summary *out);

/* The Wilson score interval for `successes` out of n with normal quantile z. */
void stats_wilson(long successes, long n, double z, double *lo, double *hi);

/*
 * Paired comparison: the per-pair differences b[i] - a[i] (pairs where
 * either is NaN skipped) summarised as stats_mean_ci does.  a_mean and
 * b_mean (may be NULL) receive the means of a and b over the same pairs.
 */
int stats_paired(const double *a, const double *b, size_t n, struct stats_summary *diff,
		 double *a_mean, double *b_mean);

/*
 * Narrows what a summary claims to `ess` independent values out of its n
 * (its effective sample size: sim counts the distinct games, since a game
 * played again under another seed is no new evidence).  With ess >= n
 * nothing changes.  With ess < 2 there is no interval: lo and hi become
 * NaN.  Otherwise the mean stays and the interval widens as if ess values
 * had been drawn: a rate's becomes the Wilson interval of the same
 * proportion over ess values; any other's half-widths are multiplied by
 * sqrt(n / ess) * t(ess - 1) / t(n - 1) (the 97.5% t quantiles), its
 * lower end kept at or above 0 when `nonneg`.
 */
void stats_effective_n(struct stats_summary *s, int ess, bool rate, bool nonneg);

/* Whether an interval lies wholly on one side of 0: +1 above, -1 below, 0 it holds 0 (or is NaN). */
int stats_interval_sign(double lo, double hi);

/*
 * The nearest-rank percentile (0 < q <= 100) of n values: the smallest
 * value with at least q% of the values at or below it.  Sorts v in place.
 * NaN when n == 0.
 */
double stats_percentile(double *v, size_t n, double q);

/*
 * What a timing benchmark prints of its n samples (bench, play
 * --bench-keys and --bench-preview, edit --bench): the mean (summed in
 * the given order), the nearest-rank median and 95th percentile as
 * stats_percentile, and the largest.  Sorts v in place.  All NaN when
 * n == 0.
 */
struct stats_spread {
	double mean, p50, p95, max;  /* in the samples' unit */
};
void stats_spread(double *v, size_t n, struct stats_spread *out);

#endif
