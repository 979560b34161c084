/*
 * test_stats.c - the statistics of `astray sim` against values from
 * published tables and against cases worked by hand: t quantiles, the
 * Wilson interval, means with t intervals, paired differences, percentiles.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Two-sided 95% critical values of Student's t, from any printed table. */
static void test_t_quantile_table(void **state)
{
	(void)state;
	static const struct {
		long df;
		double t;
	} table[] = {
		{ 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 4, 2.7764 }, { 5, 2.5706 },
		{ 9, 2.2622 }, { 10, 2.2281 }, { 19, 2.0930 }, { 29, 2.0452 }, { 30, 2.0423 },
		{ 60, 2.0003 }, { 99, 1.9842 }, { 120, 1.9799 }, { 1000, 1.9623 },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		NEAR(stats_t_quantile(0.975, table[i].df), table[i].t, 5e-4);
	/* Very many degrees of freedom: the normal quantile. */
	NEAR(stats_t_quantile(0.975, 1000000), 1.959966, 1e-5);
	NEAR(stats_normal_quantile(0.975), 1.959964, 1e-6);
	/* Other levels and symmetry. */
	NEAR(stats_t_quantile(0.95, 9), 1.8331, 5e-4);
	NEAR(stats_t_quantile(0.995, 9), 3.2498, 5e-4);
	NEAR(stats_t_quantile(0.025, 9), -2.2622, 5e-4);
	NEAR(stats_t_quantile(0.5, 7), 0.0, 1e-12);
	assert_true(isnan(stats_t_quantile(0.975, 0)));
	assert_true(isnan(stats_t_quantile(1.0, 5)));
}

static void test_t_cdf(void **state)
{
	(void)state;
	/* df = 2 has a closed form: 1/2 + t / (2 sqrt(2 + t^2)). */
	for (double t = -5; t <= 5; t += 0.5)
		NEAR(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	/* df = 1 is Cauchy: 1/2 + atan(t) / pi. */
	NEAR(stats_t_cdf(1.0, 1), 0.75, 1e-12);
	NEAR(stats_t_cdf(2.2622, 9), 0.975, 1e-5);
	NEAR(stats_normal_cdf(0.0), 0.5, 1e-15);
}

/* Wilson score intervals worked by hand with z = 1.959964. */
static void test_wilson(void **state)
{
	(void)state;
	double z = stats_normal_quantile(0.975), lo, hi;
	stats_wilson(0, 10, z, &lo, &hi);
	NEAR(lo, 0.0, 1e-12);
	NEAR(hi, 0.277533, 1e-5);
	stats_wilson(5, 10, z, &lo, &hi);
	NEAR(lo, 0.236593, 1e-5);
	NEAR(hi, 0.763407, 1e-5);
	stats_wilson(8, 10, z, &lo, &hi);
	NEAR(lo, 0.490162, 1e-5);
	NEAR(hi, 0.943318, 1e-5);
	stats_wilson(42, 100, z, &lo, &hi);
	NEAR(lo, 0.327984, 1e-5);
	NEAR(hi, 0.517935, 1e-5);
	stats_wilson(10, 10, z, &lo, &hi);
	NEAR(hi, 1.0, 1e-12);
	stats_wilson(0, 0, z, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	/* None or all: the bound is exactly 0 or 1, never a rounding residue
	 * (0 of 9 once gave a lower bound of 2.78e-17). */
	for (long n = 1; n <= 500; n++) {
		stats_wilson(0, n, z, &lo, &hi);
		assert_true(lo == 0.0);
		assert_true(hi > 0.0 && hi < 1.0);
		stats_wilson(n, n, z, &lo, &hi);
		assert_true(hi == 1.0);
		assert_true(lo > 0.0 && lo < 1.0);
	}
}

static void test_rate_ci(void **state)
{
	(void)state;
	/* 8 successes out of 10, one game that does not count (NaN). */
	double v[] = { 1, 1, 0, 1, 1, 1, NAN, 1, 0, 1, 1 };
	struct stats_summary s;
	assert_int_equal(stats_rate_ci(v, sizeof v / sizeof v[0], &s), 10);
	assert_int_equal(s.successes, 8);
	NEAR(s.mean, 0.8, 1e-12);
	NEAR(s.lo, 0.490162, 1e-5);
	NEAR(s.hi, 0.943318, 1e-5);
}

static void test_mean_ci(void **state)
{
	(void)state;
	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7). */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats_summary s;
	assert_int_equal(stats_mean_ci(v, 8, &s), 8);
	NEAR(s.mean, 5.0, 1e-12);
	NEAR(s.sd, sqrt(32.0 / 7.0), 1e-12);
	double half = 2.364624 * sqrt(32.0 / 7.0) / sqrt(8.0); /* t_{7,0.975} */
	NEAR(s.lo, 5.0 - half, 1e-5);
	NEAR(s.hi, 5.0 + half, 1e-5);

	/* One value: a mean, no spread, no interval. */
	assert_int_equal(stats_mean_ci(v, 1, &s), 1);
	NEAR(s.mean, 2.0, 0);
	assert_true(isnan(s.sd) && isnan(s.lo) && isnan(s.hi));
	/* Nothing: NaN. */
	double none[] = { NAN, NAN };
	assert_int_equal(stats_mean_ci(none, 2, &s), 0);
	assert_true(isnan(s.mean));
	/* All equal: a zero-width interval. */
	double same[] = { 3, 3, 3 };
	stats_mean_ci(same, 3, &s);
	NEAR(s.lo, 3.0, 0);
	NEAR(s.hi, 3.0, 0);
}

/*
 * The --compare arithmetic on a constructed case.  A = 10 12 9 11 13,
 * B = 12 15 10 14 15: differences 2 3 1 3 2, mean 2.2, sd sqrt(0.7),
 * interval 2.2 +/- t_{4,0.975} (2.776445) * 0.836660 / sqrt 5
 * = [1.161149, 3.238851]: it excludes 0, so B is really higher.
 */
static void test_paired(void **state)
{
	(void)state;
	double a[] = { 10, 12, 9, 11, 13 };
	double b[] = { 12, 15, 10, 14, 15 };
	struct stats_summary d;
	double am, bm;
	assert_int_equal(stats_paired(a, b, 5, &d, &am, &bm), 5);
	NEAR(am, 11.0, 1e-12);
	NEAR(bm, 13.2, 1e-12);
	NEAR(d.mean, 2.2, 1e-12);
	NEAR(d.sd, sqrt(0.7), 1e-12);
	NEAR(d.lo, 1.161149, 1e-5);
	NEAR(d.hi, 3.238851, 1e-5);
	assert_int_equal(stats_interval_sign(d.lo, d.hi), 1);

	/* Pairs with a missing value are left out on both sides. */
	double a2[] = { 10, NAN, 12, 9, 11, 13 };
	double b2[] = { 12, 50, 15, 10, 14, 15 };
	assert_int_equal(stats_paired(a2, b2, 6, &d, &am, &bm), 5);
	NEAR(d.mean, 2.2, 1e-12);
	NEAR(bm, 13.2, 1e-12);

	/* Noise: differences -1 1 -1 1 hold 0. */
	double a3[] = { 5, 5, 5, 5 }, b3[] = { 4, 6, 4, 6 };
	stats_paired(a3, b3, 4, &d, NULL, NULL);
	NEAR(d.mean, 0.0, 1e-12);
	assert_int_equal(stats_interval_sign(d.lo, d.hi), 0);
	assert_int_equal(stats_interval_sign(-3, -1), -1);
	assert_int_equal(stats_interval_sign(NAN, NAN), 0);
}

/* The issue's case: a t interval on {0, 0, 0, 6} reads 1.50 [-3.27, 6.27];
 * the non-negative interval must stay at or above 0 and inside the values. */
static void test_nonneg_issue_case(void **state)
{
	(void)state;
	double v[] = { 0, 0, 0, 6, NAN };
	struct stats_summary s;
	stats_mean_ci(v, 4, &s);
	assert_true(s.lo < 0); /* the t interval does go below 0 here */
	assert_int_equal(stats_nonneg_ci(v, 5, &s), 4);
	NEAR(s.mean, 1.5, 1e-12);
	assert_true(s.lo >= 0 && s.lo <= s.mean && s.hi >= s.mean && s.hi <= 6);
	/* Deterministic: the same values give the same interval. */
	struct stats_summary t;
	stats_nonneg_ci(v, 5, &t);
	NEAR(t.lo, s.lo, 0);
	NEAR(t.hi, s.hi, 0);
	/* All equal: zero width; one value or none: no interval. */
	double same[] = { 2, 2, 2 };
	stats_nonneg_ci(same, 3, &s);
	assert_true(s.lo == 2 && s.hi == 2);
	stats_nonneg_ci(same, 1, &s);
	assert_true(isnan(s.lo) && isnan(s.hi));
}

/* Property: over many random skewed samples (mostly zeros, a few large
 * values; small and large n, past STATS_BOOTSTRAP_MAX too) the interval
 * never leaves [min, max] of the values and holds the mean. */
static void test_nonneg_property(void **state)
{
	(void)state;
	static double v[STATS_BOOTSTRAP_MAX + 300];
	uint64_t x = 12345;
	const size_t sizes[] = { 2, 3, 5, 10, 30, 100, STATS_BOOTSTRAP_MAX + 300 };
	for (int round = 0; round < 60; round++) {
		size_t n = sizes[round % (sizeof sizes / sizeof sizes[0])];
		double lo = INFINITY, hi = -INFINITY;
		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned r = (unsigned)(x >> 33);
			v[i] = r % 10 < 8 ? 0 : (double)(r % 1000) / 7.0;
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
		struct stats_summary s;
		stats_nonneg_ci(v, n, &s);
		if (lo == hi) {
			assert_true(s.lo == lo && s.hi == hi);
			continue;
		}
		assert_true(s.lo >= 0 && s.lo >= lo && s.hi <= hi);
		assert_true(s.lo <= s.mean + 1e-12 && s.hi >= s.mean - 1e-12);
	}
}

/*
 * The effective sample size: 10 values 1..10, t interval mean 5.5, sd
 * 3.02765, half width t(9) 2.262157 * 3.02765 / sqrt 10 = 2.165853.  As
 * if 4 were independent: half width times sqrt(10 / 4) * t(3) / t(9) =
 * 1.581139 * 3.182446 / 2.262157 = 2.224377, so 4.81768 around 5.5.
 * As if 2: t(1) = 12.7062, half width 27.2 goes below 0, and is cut there
 * for a metric that cannot be negative.  A rate 3 of 10 over 4: the
 * Wilson interval of 0.3 at n = 4.
 * One value's worth: no interval.
 */
static void test_effective_n(void **state)
{
	(void)state;
	double v[10];
	for (int i = 0; i < 10; i++)
		v[i] = i + 1;
	struct stats_summary s;
	stats_mean_ci(v, 10, &s);
	NEAR(s.hi - s.mean, 2.165853, 1e-5);
	stats_effective_n(&s, 10, false, true); /* as many as n: unchanged */
	NEAR(s.hi - s.mean, 2.165853, 1e-5);
	struct stats_summary w = s;
	stats_effective_n(&w, 4, false, false);
	NEAR(w.mean, 5.5, 0);
	NEAR(w.hi - w.mean, 4.81768, 1e-4);
	NEAR(w.mean - w.lo, 4.81768, 1e-4);
	w = s;
	stats_effective_n(&w, 2, false, true);
	NEAR(w.lo, 0, 0);
	assert_true(w.hi > 30);
	double r[10] = { 1, 1, 1, 0, 0, 0, 0, 0, 0, 0 };
	stats_rate_ci(r, 10, &s);
	stats_effective_n(&s, 4, true, true);
	/* Wilson at p = 0.3, n = 4, z = 1.959964: centre (0.3 + z^2/8) / (1 + z^2/4), half z/(1 + z^2/4) sqrt(0.3 0.7/4 + z^2/64) */
	double z = stats_normal_quantile(0.975), den = 1 + z * z / 4;
	NEAR(s.lo, (0.3 + z * z / 8) / den - z / den * sqrt(0.21 / 4 + z * z / 64), 1e-12);
	NEAR(s.hi, (0.3 + z * z / 8) / den + z / den * sqrt(0.21 / 4 + z * z / 64), 1e-12);
	stats_effective_n(&s, 1, true, true);
	assert_true(isnan(s.lo) && isnan(s.hi));
	NEAR(s.mean, 0.3, 1e-12);
}

static void test_percentile(void **state)
{
	(void)state;
	/* Nearest rank: p95 of 1..20 is the 19th value, of 1..100 the 95th. */
	double v[100];
	for (int i = 0; i < 20; i++)
		v[i] = 20 - i;
	NEAR(stats_percentile(v, 20, 95), 19, 0);
	NEAR(stats_percentile(v, 20, 50), 10, 0);
	NEAR(stats_percentile(v, 20, 100), 20, 0);
	for (int i = 0; i < 100; i++)
		v[i] = (i * 37) % 100 + 1;
	NEAR(stats_percentile(v, 100, 95), 95, 0);
	NEAR(stats_percentile(v, 1, 95), v[0], 0);
	assert_true(isnan(stats_percentile(v, 0, 95)));
}

/* The benchmarks' summary: mean in the given order, nearest-rank p50 and
 * p95 (as stats_percentile), the largest; the samples end up sorted. */
static void test_spread(void **state)
{
	(void)state;
	double v[20];
	for (int i = 0; i < 20; i++)
		v[i] = 20 - i;
	struct stats_spread s;
	stats_spread(v, 20, &s);
	NEAR(s.mean, 10.5, 0);
	NEAR(s.p50, 10, 0);
	NEAR(s.p95, 19, 0);
	NEAR(s.max, 20, 0);
	for (int i = 0; i < 20; i++)
		NEAR(v[i], i + 1, 0);
	double one = 3.25;
	stats_spread(&one, 1, &s);
	assert_true(s.mean == 3.25 && s.p50 == 3.25 && s.p95 == 3.25 && s.max == 3.25);
	stats_spread(v, 0, &s);
	assert_true(isnan(s.mean) && isnan(s.p50) && isnan(s.p95) && isnan(s.max));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantile_table),
		cmocka_unit_test(test_t_cdf),
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_rate_ci),
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_effective_n),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_nonneg_issue_case),
		cmocka_unit_test(test_nonneg_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
