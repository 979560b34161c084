/*
 * stats.c - the statistics behind `astray sim`: sample means with Student t
 * intervals, Wilson intervals for rates, paired differences for --compare,
 * nearest-rank percentiles, and the mean/median/p95/max summary the
 * timing benchmarks print.  The t distribution is computed here (the
 * closed-form series for integer degrees of freedom, inverted by bisection)
 * so the program needs no statistics library.  Pure functions: no state, no
 * allocation, no printing.
 */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define STATS_PI 3.14159265358979323846

double stats_normal_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

double stats_normal_quantile(double p)
{
	if (!(p > 0.0 && p < 1.0))
		return NAN;
	double lo = -40.0, hi = 40.0;
	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = 0.5 * (lo + hi);
		if (stats_normal_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/*
 * P(|T| < t) for integer df, t >= 0: with theta = atan(t / sqrt(df)) and
 * c = cos^2 theta,
 *   df odd:  (2/pi) (theta + sin cos (1 + 2/3 c + 2.4/(3.5) c^2 + ...))
 *   df even: sin theta (1 + 1/2 c + 1.3/(2.4) c^2 + ...)
 * with (df - 3) / 2 or (df - 2) / 2 terms after the first.
 */
static double t_central(double t, long df)
{
	double theta = atan(t / sqrt((double)df));
	double s = sin(theta), co = cos(theta), c = co * co;
	double sum = 1.0, term = 1.0;
	if (df % 2 == 1) {
		if (df == 1)
			return 2.0 * theta / STATS_PI;
		for (long k = 1; k <= (df - 3) / 2; k++) {
			term *= (double)(2 * k) / (double)(2 * k + 1) * c;
			sum += term;
		}
		return 2.0 / STATS_PI * (theta + s * co * sum);
	}
	for (long k = 1; k <= (df - 2) / 2; k++) {
		term *= (double)(2 * k - 1) / (double)(2 * k) * c;
		sum += term;
	}
	return s * sum;
}

double stats_t_cdf(double t, long df)
{
	if (df < 1 || isnan(t))
		return NAN;
	double a = t_central(fabs(t), df);
	return t >= 0 ? 0.5 + 0.5 * a : 0.5 - 0.5 * a;
}

/* Past this many degrees of freedom the Cornish-Fisher expansion around
 * the normal quantile is exact to about 1e-12, and the series is long. */
#define T_LARGE_DF 10000

double stats_t_quantile(double p, long df)
{
	if (df < 1 || !(p > 0.0 && p < 1.0))
		return NAN;
	if (p < 0.5)
		return -stats_t_quantile(1.0 - p, df);
	if (p == 0.5)
		return 0.0;
	if (df > T_LARGE_DF) {
		double z = stats_normal_quantile(p), v = (double)df;
		double z3 = z * z * z, z5 = z3 * z * z;
		return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v);
	}
	double lo = 0.0, hi = 1.0;
	while (stats_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

int stats_mean_ci(const double *v, size_t n, struct stats_summary *out)
{
	double sum = 0.0;
	int used = 0;
	long ones = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		sum += v[i];
		used++;
		if (v[i] == 1.0)
			ones++;
	}
	out->n = used;
	out->successes = ones;
	out->mean = used > 0 ? sum / used : NAN;
	out->sd = out->lo = out->hi = NAN;
	if (used < 2)
		return used;
	/* Two passes: the deviations from the mean, not sum of squares minus
	 * square of sums, which loses digits when the spread is small. */
	double ss = 0.0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = sqrt(ss / (used - 1));
	double half = stats_t_quantile(0.975, used - 1) * out->sd / sqrt((double)used);
	out->lo = out->mean - half;
	out->hi = out->mean + half;
	return used;
}

/* splitmix64: a small fixed-seed generator for the bootstrap, so intervals
 * replay exactly (the game's RNG streams are not touched). */
static uint64_t mix_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int stats_nonneg_ci(const double *v, size_t n, struct stats_summary *out)
{
	stats_mean_ci(v, n, out);
	if (out->n < 2)
		return out->n;
	size_t used = (size_t)out->n;
	double *x = malloc(used * sizeof *x);
	double *means = x && used <= STATS_BOOTSTRAP_MAX ? malloc(STATS_BOOTSTRAP_B * sizeof *means) : NULL;
	if (!x) {
		out->lo = out->hi = NAN;
		return out->n;
	}
	double lo = INFINITY, hi = -INFINITY;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			x[k++] = v[i];
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
	if (lo == hi) {
		out->lo = out->hi = lo;
	} else if (means) {
		uint64_t state = 0x5eed0001ULL;
		for (int b = 0; b < STATS_BOOTSTRAP_B; b++) {
			double sum = 0.0;
			for (size_t i = 0; i < used; i++)
				sum += x[(size_t)(((mix_next(&state) >> 32) * (uint64_t)used) >> 32)];
			means[b] = sum / (double)used;
		}
		out->lo = stats_percentile(means, STATS_BOOTSTRAP_B, 2.5);
		out->hi = stats_percentile(means, STATS_BOOTSTRAP_B, 97.5);
	} else if (used > STATS_BOOTSTRAP_MAX) {
		out->lo = out->lo < lo ? lo : out->lo;
		out->hi = out->hi > hi ? hi : out->hi;
	} else {
		out->lo = out->hi = NAN; /* no memory for the resamples */
	}
	free(means);
	free(x);
	return out->n;
}

void stats_wilson(long successes, long n, double z, double *lo, double *hi)
{
	if (n <= 0) {
		*lo = *hi = NAN;
		return;
	}
	double nn = (double)n, p = (double)successes / nn, z2 = z * z;
	double denom = 1.0 + z2 / nn;
	double centre = (p + z2 / (2.0 * nn)) / denom;
	double half = z / denom * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn));
	*lo = centre - half < 0.0 ? 0.0 : centre - half;
	*hi = centre + half > 1.0 ? 1.0 : centre + half;
	/* At 0 (or n) successes the bound is 0 (or 1) exactly; rounding in
	 * centre - half would otherwise print 0 of 9 as [2.78e-17, 0.299]. */
	if (successes == 0)
		*lo = 0.0;
	if (successes == n)
		*hi = 1.0;
}

int stats_rate_ci(const double *v, size_t n, struct stats_summary *out)
{
	stats_mean_ci(v, n, out);
	stats_wilson(out->successes, out->n, stats_normal_quantile(0.975), &out->lo, &out->hi);
	return out->n;
}

int stats_paired(const double *a, const double *b, size_t n, struct stats_summary *diff,
		 double *a_mean, double *b_mean)
{
	double *d = calloc(n ? n : 1, sizeof *d);
	double sa = 0.0, sb = 0.0;
	int used = 0;
	if (!d) {
		diff->n = 0;
		diff->mean = diff->sd = diff->lo = diff->hi = NAN;
		diff->successes = 0;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		d[i] = NAN;
		if (isnan(a[i]) || isnan(b[i]))
			continue;
		d[i] = b[i] - a[i];
		sa += a[i];
		sb += b[i];
		used++;
	}
	stats_mean_ci(d, n, diff);
	free(d);
	if (a_mean)
		*a_mean = used ? sa / used : NAN;
	if (b_mean)
		*b_mean = used ? sb / used : NAN;
	return diff->n;
}

void stats_effective_n(struct stats_summary *s, int ess, bool rate, bool nonneg)
{
	if (ess >= s->n || s->n < 2)
		return;
	if (ess < 2) {
		s->lo = s->hi = NAN;
		return;
	}
	if (rate) {
		/* the Wilson formula with a proportion p of ess values */
		double nn = (double)ess, p = s->mean, z = stats_normal_quantile(0.975), z2 = z * z;
		double denom = 1.0 + z2 / nn;
		double centre = (p + z2 / (2.0 * nn)) / denom;
		double half = z / denom * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn));
		s->lo = p <= 0.0 ? 0.0 : fmax(0.0, centre - half);
		s->hi = p >= 1.0 ? 1.0 : fmin(1.0, centre + half);
		return;
	}
	if (isnan(s->lo) || isnan(s->hi))
		return;
	double k = sqrt((double)s->n / ess) * stats_t_quantile(0.975, ess - 1) / stats_t_quantile(0.975, s->n - 1);
	s->lo = s->mean - (s->mean - s->lo) * k;
	s->hi = s->mean + (s->hi - s->mean) * k;
	if (nonneg && s->lo < 0)
		s->lo = 0;
}

int stats_interval_sign(double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		return 0;
	if (lo > 0.0)
		return 1;
	if (hi < 0.0)
		return -1;
	return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* The nearest-rank percentile q of n > 0 sorted values. */
static double nearest_rank(const double *sorted, size_t n, double q)
{
	double r = ceil(q * (double)n / 100.0);
	size_t rank = r < 1.0 ? 1 : r > (double)n ? n : (size_t)r;
	return sorted[rank - 1];
}

double stats_percentile(double *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	return nearest_rank(v, n, q);
}

void stats_spread(double *v, size_t n, struct stats_spread *out)
{
	if (n == 0) {
		*out = (struct stats_spread){ NAN, NAN, NAN, NAN };
		return;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	qsort(v, n, sizeof *v, cmp_double);
	*out = (struct stats_spread){ .mean = sum / (double)n, .p50 = nearest_rank(v, n, 50),
				      .p95 = nearest_rank(v, n, 95), .max = v[n - 1] };
}
