/*
 * test_bench.c - `astray bench` as a developer runs it: the real binary
 * (ASTRAY_BIN, the sanitized build in make test) on the small scenario
 * files in tests/bench/, whose optimal lengths were computed apart from
 * astray (a plain Dijkstra over the map, octile steps, no corner cutting).
 * The figures' shape, the options, --repeat, the CSV and every error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_capture.h"

#define OPEN "tests/bench/open.map.scen" /* 12 scenarios on a 16x11 map */
#define OPEN_N 12

/* Runs `astray bench ARGS`; stdout only, or with stderr after it (both). */
static char *bench(const char *args, bool both, int *status)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s bench %s %s", test_bin(), args, both ? "2>&1" : "2>/dev/null");
	return run_capture(cmd, status);
}

/* The final line's figures, which must have exactly the documented shape. */
struct figures {
	long n, mismatches;
	double mean_us, median_us, p95_us, mean_expanded, ns;
};

static struct figures last_line(const char *out)
{
	const char *end = out + strlen(out);
	assert_true(end > out && end[-1] == '\n');
	const char *line = end - 1;
	while (line > out && line[-1] != '\n')
		line--;
	struct figures f;
	int used = -1;
	int k = sscanf(line,
		       "total scenarios=%ld mismatches=%ld mean_us=%lf median_us=%lf p95_us=%lf "
		       "mean_expanded=%lf ns_per_expansion=%lf\n%n",
		       &f.n, &f.mismatches, &f.mean_us, &f.median_us, &f.p95_us, &f.mean_expanded, &f.ns,
		       &used);
	if (k != 7 || line + used != end) {
		print_error("last line is not the figures: %s", line);
		fail();
	}
	assert_true(f.mean_us > 0.0 && f.median_us > 0.0 && f.p95_us >= f.median_us && f.ns > 0.0);
	return f;
}

static void test_figures(void **state)
{
	(void)state;
	int status;
	char *out = bench(OPEN, false, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "mode=auto topology=square8 every=1 repeat=1\n"));
	assert_non_null(strstr(out, "open.map scenarios=12 mismatches=0 "));
	/* the choice the auto mode made for the core: the map's dead ends
	 * are peeled (peeled=18), and the small core left has corners enough
	 * that the jumps do not pay */
	assert_non_null(strstr(out, " peeled=18 dead_ends=18 search=plain\n"));
	struct figures f = last_line(out);
	assert_int_equal(f.n, OPEN_N);
	assert_int_equal(f.mismatches, 0);
	free(out);

	/* every K-th: scenarios 1, 4, 7 and 10 */
	out = bench("--every 3 --mode=astar " OPEN, false, &status);
	assert_int_equal(status, 0);
	assert_int_equal(last_line(out).n, 4);
	free(out);

	/* square4 is checked against astray's own Dijkstra; dijkstra mode too */
	out = bench("--topology square4 " OPEN, false, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "topology=square4"));
	assert_int_equal(last_line(out).mismatches, 0);
	free(out);
	out = bench("--mode dijkstra " OPEN, false, &status);
	assert_int_equal(status, 0);
	assert_int_equal(last_line(out).mismatches, 0);
	free(out);
}

/* Hex (each map read as hex) and the turned grids, checked against
 * astray's own Dijkstra (diamond8 against the file): plain A* and the jump
 * search (--mode jps) both exact, the jump search with fewer expansions. */
static void test_turned_jps(void **state)
{
	(void)state;
	static const char *const topos[] = { "hex", "diamond4", "diamond8" };
	for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
		char args[256];
		int status;
		snprintf(args, sizeof args, "--topology %s --mode astar " OPEN, topos[i]);
		char *astar = bench(args, false, &status);
		assert_int_equal(status, 0);
		snprintf(args, sizeof args, "--topology %s --mode jps --repeat 2 " OPEN, topos[i]);
		char *jps = bench(args, false, &status);
		assert_int_equal(status, 0);
		char head[64];
		snprintf(head, sizeof head, "mode=jps topology=%s every=1 repeat=2\n", topos[i]);
		assert_non_null(strstr(jps, head));
		struct figures a = last_line(astar), j = last_line(jps);
		assert_int_equal(a.n, OPEN_N);
		assert_int_equal(j.n, OPEN_N);
		assert_int_equal(a.mismatches, 0);
		assert_int_equal(j.mismatches, 0);
		assert_true(j.mean_expanded < a.mean_expanded);
		free(astar);
		free(jps);
	}
}

/* --repeat R: still one figure per scenario, the same expansions (the
 * answer does not change between rounds), and no slower than one round
 * can make it: each scenario keeps its fastest run. */
static void test_repeat(void **state)
{
	(void)state;
	int status;
	char *one = bench("--mode astar " OPEN, false, &status);
	assert_int_equal(status, 0);
	char *three = bench("--mode astar --repeat 3 " OPEN, false, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(three, "mode=astar topology=square8 every=1 repeat=3\n"));
	struct figures a = last_line(one), b = last_line(three);
	assert_int_equal(b.n, OPEN_N);
	assert_int_equal(b.mismatches, 0);
	assert_true(a.mean_expanded == b.mean_expanded);
	free(one);
	free(three);

	/* --clock cpu: the same answers, timed in CPU time, and said so */
	char *cpu = bench("--mode astar --clock cpu --repeat 2 " OPEN, false, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(cpu, "mode=astar topology=square8 every=1 repeat=2 clock=cpu\n"));
	struct figures c = last_line(cpu);
	assert_int_equal(c.n, OPEN_N);
	assert_int_equal(c.mismatches, 0);
	assert_true(c.mean_expanded == a.mean_expanded);
	free(cpu);

	/* the fallback mode's sealed goals are timed over the rounds too */
	char *fb = bench("--mode fallback --repeat 2 " OPEN, false, &status);
	assert_int_equal(status, 0);
	const char *line = strstr(fb, "fallback sealed_goals=");
	assert_non_null(line);
	long sealed = -1;
	assert_int_equal(sscanf(line, "fallback sealed_goals=%ld", &sealed), 1);
	assert_true(sealed > 0 && sealed <= OPEN_N);
	assert_int_equal(last_line(fb).n, OPEN_N);
	free(fb);
}

/* A wrong optimal length is a mismatch: named on stderr, counted, exit 1,
 * whatever the rounds. */
static void test_mismatch(void **state)
{
	(void)state;
	int status;
	char *out = bench("--mode astar --repeat 2 tests/bench/wrong.map.scen", true, &status);
	assert_int_equal(status, 1);
	assert_non_null(strstr(out, "mismatch: tests/bench/wrong.map.scen #4 (3,7)->(13,1) expected 14.656854 "
				    "got 13.656854 (reached)"));
	assert_int_equal(last_line(out).mismatches, 1);
	free(out);
}

static void test_csv(void **state)
{
	(void)state;
	const char *path = "build/test_bench.csv";
	remove(path);
	int status;
	char *out = bench("--repeat 2 --csv build/test_bench.csv " OPEN, false, &status);
	assert_int_equal(status, 0);
	free(out);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512];
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, "map,scenario,sx,sy,gx,gy,expected,cost,expanded,us,ok\n");
	int rows = 0;
	while (fgets(line, sizeof line, f)) {
		int scen, sx, sy, gx, gy, ok;
		double expected, cost, us;
		long expanded;
		assert_int_equal(sscanf(line, "open.map,%d,%d,%d,%d,%d,%lf,%lf,%ld,%lf,%d", &scen, &sx, &sy, &gx,
					&gy, &expected, &cost, &expanded, &us, &ok),
				 10);
		assert_int_equal(scen, rows + 1);
		assert_int_equal(ok, 1);
		assert_true(cost > expected - 0.01 && cost < expected + 0.01);
		assert_true(us > 0.0);
		rows++;
	}
	fclose(f);
	remove(path);
	assert_int_equal(rows, OPEN_N);
}

/* Bad options and files: a message on stderr naming the problem, exit 2,
 * and no figures. */
static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *args, *message;
	} cases[] = {
		{ "--repeat 0 " OPEN, "astray bench: --repeat wants a whole number from 1 to 1000, not '0'" },
		{ "--repeat x " OPEN, "--repeat wants a whole number from 1 to 1000, not 'x'" },
		{ "--repeat=1001 " OPEN, "--repeat wants a whole number from 1 to 1000, not '1001'" },
		{ OPEN " --repeat", "astray bench: --repeat needs a value (see astray bench --help)" },
		{ "--every 0 " OPEN, "--every wants a whole number from 1 to 1000000, not '0'" },
		{ "--mode nope " OPEN, "--mode wants auto, astar, dijkstra, fallback or jps, not 'nope'" },
		{ "--clock gpu " OPEN, "--clock wants wall or cpu, not 'gpu'" },
		{ "--topology=hex6 " OPEN, "--topology wants square8, square4, diamond8, diamond4 or hex, not 'hex6'" },
		{ "--bogus " OPEN, "astray bench: unknown option '--bogus' (see astray bench --help)" },
		{ "--bogus=3 " OPEN, "astray bench: unknown option '--bogus' (see astray bench --help)" },
		{ "", "usage: astray bench SCEN..." },
		{ "tests/bench/none.map.scen", "tests/bench/none.map.scen: No such file or directory" },
		{ "tests/bench/nomap.map.scen", "tests/bench/absent.map: No such file or directory" },
		{ "tests/bench/open.map", "tests/bench/open.map: line 1:" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int status;
		char *out = bench(cases[i].args, true, &status);
		const bool figures = strncmp(out, "total scenarios=", 16) == 0 || strstr(out, "\ntotal scenarios=");
		if (status != 2 || !strstr(out, cases[i].message) || figures) {
			print_error("bench %s: status %d, wanted 2 and '%s'; got:\n%s", cases[i].args, status,
				    cases[i].message, out);
			fail();
		}
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),  cmocka_unit_test(test_repeat), cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_csv),      cmocka_unit_test(test_errors),
		cmocka_unit_test(test_turned_jps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
