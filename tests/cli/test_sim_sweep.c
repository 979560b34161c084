/*
 * test_sim_sweep.c - `astray sim --sweep`: the values a spec gives, a
 * sweep's CSV against separate runs with each value's --set (the same
 * figures, digit for digit), its shards merged by sim-report into the
 * single run's CSV and plot byte for byte, the plot's panels, and the
 * refusals.  Drives the real binary (ASTRAY_BIN) from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_capture.h"
#include "sim_sweep.h"

#define BIN_SKIP()                                                       \
	do {                                                             \
		if (!getenv("ASTRAY_BIN")) {                             \
			print_message("skipped: ASTRAY_BIN is not set\n"); \
			skip();                                          \
		}                                                        \
	} while (0)

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/astray-sweep-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* `astray ARGS`, stderr to stdout when both; stdout. */
static char *astray(const char *args, bool both, int *status)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s %s %s", getenv("ASTRAY_BIN"), both ? "2>&1" : "2>/dev/null", args);
	return run_capture(cmd, status);
}

static char *ok(const char *args)
{
	int st;
	char *out = astray(args, false, &st);
	if (st != 0)
		print_message("astray %s: exit %d\n", args, st);
	assert_int_equal(st, 0);
	return out;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* ---- the values -------------------------------------------------------- */

static void test_parse(void **state)
{
	(void)state;
	static struct sim_sweep_spec s;
	char err[256];
	assert_true(sim_sweep_parse("wolf.sight=2..20:2", &s, err, sizeof err));
	assert_string_equal(s.key, "wolf.sight");
	assert_int_equal(s.n, 10);
	assert_string_equal(s.text[0], "2");
	assert_string_equal(s.text[9], "20");
	assert_string_equal(s.set[3], "wolf.sight=8");
	/* Steps that are not whole: i * step, so the last value is HI exactly. */
	assert_true(sim_sweep_parse("orc.flee=0.1..0.7:0.2", &s, err, sizeof err));
	assert_int_equal(s.n, 4);
	assert_string_equal(s.text[1], "0.3");
	assert_string_equal(s.text[3], "0.7");
	/* Each value is the one its text sets: 0.1 + 2 * 0.1 is not 0.3, but
	 * "0.3" is what --set gives the games (the plot's x too). */
	assert_true(sim_sweep_parse("orc.flee=0.1..0.5:0.1", &s, err, sizeof err));
	assert_int_equal(s.n, 5);
	for (int i = 0; i < s.n; i++)
		assert_true(s.v[i] == strtod(s.text[i], NULL));
	assert_true(s.v[2] == 0.3);
	assert_true(sim_sweep_parse("rules.healing=1..3", &s, err, sizeof err)); /* STEP defaults to 1 */
	assert_int_equal(s.n, 3);
	/* A list keeps each value as written, in rising order. */
	assert_true(sim_sweep_parse("wolf.sight=14,4,8", &s, err, sizeof err));
	assert_int_equal(s.n, 3);
	assert_string_equal(s.text[0], "4");
	assert_string_equal(s.text[2], "14");
	assert_string_equal(s.set[2], "wolf.sight=14");
	static const struct {
		const char *spec, *want;
	} bad[] = {
		{ "wolf.sight", "expected KIND.KEY=" },
		{ "sight=4", "expected KIND.KEY=" },
		{ "wolf.sight=", "is not a number" },
		{ "wolf.sight=4,x", "'x' is not a number" },
		{ "wolf.sight=4,4", "the value 4 is given twice" },
		{ "wolf.sight=9..2", "must rise" },
		{ "wolf.sight=2..9:0", "must rise" },
		{ "wolf.sight=2..9:-1", "must rise" },
		{ "wolf.sight=1..1000", "more than 200 values" },
		{ "wolf.sight=1..nan", "each a number" },
		/* ten values that all print as 1 (they ran as ten sweeps of 1) */
		{ "wolf.sight=1..1.000000000001:1e-13", "two values print alike" },
		/* cut to 31 characters it set 1, not 12 */
		{ "wolf.sight=00000000000000000000000000000012,3", "at most 31 characters" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		bool parsed = sim_sweep_parse(bad[i].spec, &s, err, sizeof err);
		if (parsed || !strstr(err, bad[i].want))
			fail_msg("%s: %s '%s', wanted '%s'", bad[i].spec, parsed ? "parsed" : "refused", err, bad[i].want);
	}
	assert_true(sim_sweep_metric_ok("killed"));
	assert_true(sim_sweep_metric_ok("wolf.contacts"));
	assert_false(sim_sweep_metric_ok("wolf.nosuch"));
	assert_false(sim_sweep_metric_ok("frags"));
}

/* ---- the figures -------------------------------------------------------- */

/* Field i (0-based) of a CSV line without quotes, into buf. */
static void field(const char *line, int i, char *buf, size_t size)
{
	for (; i > 0; i--) {
		line = strchr(line, ',');
		assert_non_null(line);
		line++;
	}
	size_t n = strcspn(line, ",\n");
	assert_true(n < size);
	memcpy(buf, line, n);
	buf[n] = '\0';
}

/* A sweep's CSV holds, for each value, exactly the figures of a separate
 * run with --set KEY=VALUE: every summary row (metric, level, "all"), its
 * mean, interval and n, as the summary CSV prints them. */
static void test_equals_separate_runs(void **state)
{
	(void)state;
	BIN_SKIP();
	const char *levels = "levels/02-the-chase.lvl levels/03-hex-arena.lvl";
	char args[512];
	snprintf(args, sizeof args, "sim %s --games 12 --no-time --player fight --sweep 'goblin.sight=3,9'", levels);
	char *sweep = ok(args);
	assert_true(strncmp(sweep, "setting,value,level,metric,mean,lo,hi,n\n", 40) == 0);
	static const char *const values[] = { "3", "9" };
	int matched = 0;
	for (int v = 0; v < 2; v++) {
		snprintf(args, sizeof args, "sim %s --games 12 --no-time --player fight --set goblin.sight=%s --format csv",
			 levels, values[v]);
		char *run = ok(args);
		int rows = 0;
		/* every summary row (after the header) appears in the sweep */
		for (const char *line = strchr(run, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
			char level[256], metric[64], n[32], mean[64], lo[64], hi[64], want[600];
			field(line, 0, level, sizeof level);
			field(line, 1, metric, sizeof metric);
			field(line, 2, n, sizeof n);
			field(line, 3, mean, sizeof mean);
			field(line, 5, lo, sizeof lo);
			field(line, 6, hi, sizeof hi);
			snprintf(want, sizeof want, "\ngoblin.sight,%s,%s,%s,%s,%s,%s,%s\n", values[v], level, metric, mean,
				 lo, hi, n);
			if (!strstr(sweep, want))
				fail_msg("the sweep has no row%s", want);
			rows++;
		}
		assert_true(rows > 40);
		matched += rows;
		free(run);
	}
	/* and nothing else: one sweep row per summary row */
	int lines = 0;
	for (const char *p = sweep; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	assert_int_equal(lines, matched + 1);
	assert_non_null(strstr(sweep, "\ngoblin.sight,9,all,killed,"));
	free(sweep);
}

/* Shards of a sweep (a sweep column before each per-game row) merge in
 * sim-report, in any order, into the single run's CSV and plot. */
static void test_shards_merge(void **state)
{
	(void)state;
	BIN_SKIP();
	const char *run = "sim levels/02-the-chase.lvl levels/08-the-ogre-hall.lvl --games 10 --no-time "
			  "--sweep 'orc.speed=80..120:20'";
	char args[1024];
	snprintf(args, sizeof args, "%s --sweep-plot %s/one.svg --sweep-metric killed,orc.contacts", run, dir);
	char *one = ok(args);
	for (int i = 1; i <= 3; i++) {
		snprintf(args, sizeof args, "%s --shard %d/3 > %s/s%d.csv", run, i, dir, i);
		free(ok(args));
	}
	char *s1 = NULL;
	snprintf(args, sizeof args, "%s/s1.csv", dir);
	s1 = slurp(args);
	assert_true(strncmp(s1, "sweep,level,game,seed,outcome,", 30) == 0);
	assert_non_null(strstr(s1, "\norc.speed=120,levels/08-the-ogre-hall.lvl,0,1,"));
	free(s1);
	snprintf(args, sizeof args, "sim-report %s/s3.csv %s/s1.csv %s/s2.csv --sweep-plot %s/merged.svg "
		 "--sweep-metric killed,orc.contacts", dir, dir, dir, dir);
	char *merged = ok(args);
	assert_string_equal(merged, one);
	/* The plot: one panel per metric, a band, a line and a point per value. */
	snprintf(args, sizeof args, "%s/one.svg", dir);
	char *svg = slurp(args);
	assert_non_null(strstr(svg, "Sweep of orc.speed over 3 values: all levels together"));
	assert_non_null(strstr(svg, "id=\"panel-0\""));
	assert_non_null(strstr(svg, "id=\"panel-1\""));
	assert_null(strstr(svg, "id=\"panel-2\""));
	assert_non_null(strstr(svg, ">killed (rate)</text>"));
	assert_non_null(strstr(svg, ">orc.contacts</text>"));
	int points = 0, bands = 0;
	for (const char *p = svg; (p = strstr(p, "class=\"point\"")) != NULL; p++)
		points++;
	for (const char *p = svg; (p = strstr(p, "class=\"band\"")) != NULL; p++)
		bands++;
	assert_int_equal(points, 6);
	assert_int_equal(bands, 2);
	assert_non_null(strstr(svg, "<title>orc.speed=100: "));
	snprintf(args, sizeof args, "%s/merged.svg", dir);
	char *msvg = slurp(args);
	/* the same picture but for the third title line: sim-report cannot name the settings */
	assert_non_null(strstr(msvg, "id=\"panel-1\""));
	assert_string_equal(strstr(msvg, "<g class=\"panel\""), strstr(svg, "<g class=\"panel\""));
	free(msvg);
	free(svg);
	/* A shard left out: the missing seeds are named. */
	snprintf(args, sizeof args, "sim-report %s/s1.csv %s/s3.csv", dir, dir);
	int st;
	char *err = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(err, "are missing"));
	free(err);
	/* A sweep's files do not mix with other per-game CSV. */
	snprintf(args, sizeof args, "sim levels/02-the-chase.lvl --games 4 --no-time --per-game --format csv > %s/plain.csv",
		 dir);
	free(ok(args));
	snprintf(args, sizeof args, "sim-report %s/s1.csv %s/plain.csv", dir, dir);
	err = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(err, "plain.csv:1:1: error: not per-game CSV of a sweep"));
	free(err);
	free(merged);
	free(one);
}

/* Whole dungeons with the bot: win rate and depth against the value. */
static void test_dungeon(void **state)
{
	(void)state;
	BIN_SKIP();
	char args[512];
	snprintf(args, sizeof args, "sim --dungeon --depth 2 --player bot --games 3 --no-time --sweep 'orc.damage=1,3' "
		 "--sweep-plot %s/d.svg", dir);
	char *out = ok(args);
	assert_non_null(strstr(out, "\norc.damage,1,dungeon:d2,escaped,"));
	assert_non_null(strstr(out, "\norc.damage,3,dungeon:d2,depth,"));
	free(out);
	snprintf(args, sizeof args, "%s/d.svg", dir);
	char *svg = slurp(args);
	assert_non_null(strstr(svg, ">escaped (rate)</text>")); /* the default panels of a dungeon */
	assert_non_null(strstr(svg, ">depth</text>"));
	assert_non_null(strstr(svg, "dungeons of 2 levels"));
	free(svg);
}

static void test_refused(void **state)
{
	(void)state;
	BIN_SKIP();
	static const struct {
		const char *args, *want;
	} bad[] = {
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=x'", "--sweep goblin.sight=x: 'x' is not a number" },
		{ "sim levels/02-the-chase.lvl --sweep 'dragon.sight=2,4'", "dragon" },
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=2,4' --compare 'a.b=1' 'a.b=2'", "--compare" },
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=2,4' --heatmap -", "--heatmap" },
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=2,4' --format json", "CSV" },
		{ "sim levels/02-the-chase.lvl --sweep-plot x.svg", "--sweep-plot goes with --sweep" },
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=2,4' --sweep-plot x.svg --sweep-metric frags",
		  "'frags' is not a metric" },
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=2,4' --sweep-metric killed", "give --sweep-plot" },
		{ "sim levels/02-the-chase.lvl --sweep 'goblin.sight=2,4' --shard 1/2 --sweep-plot x.svg",
		  "sim-report --sweep-plot" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int st;
		char *out = astray(bad[i].args, true, &st);
		if (st != 2 || !strstr(out, bad[i].want))
			fail_msg("astray %s: exit %d, %s", bad[i].args, st, out);
		free(out);
	}
}

/* --generate from a folder outside the source tree finds the bestiary of
 * the tree the program lies in; a program with none anywhere says every
 * place it looked. */
static void test_generate_elsewhere(void **state)
{
	(void)state;
	BIN_SKIP();
	char bin[4096], cmd[8400];
	const char *rel = getenv("ASTRAY_BIN");
	char cwd[2048];
	assert_non_null(getcwd(cwd, sizeof cwd));
	snprintf(bin, sizeof bin, "%s%s%s", rel[0] == '/' ? "" : cwd, rel[0] == '/' ? "" : "/", rel);
	snprintf(cmd, sizeof cmd, "cd %s && %s sim --generate square8 --games 2 --no-time --format csv 2>&1", dir, bin);
	int st;
	char *out = run_capture(cmd, &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "\ngen:square8:"));
	free(out);
	snprintf(cmd, sizeof cmd, "mkdir -p %s/bin && cp %s %s/bin/astray && cd %s && bin/astray sim --dungeon --games 1 "
		 "2>&1", dir, bin, dir, dir);
	out = run_capture(cmd, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "astray sim: --dungeon needs a bestiary and found none: not ./bestiary.txt"));
	assert_non_null(strstr(out, "/bin/../levels/bestiary.txt"));
	assert_non_null(strstr(out, "give --bestiary FILE"));
	free(out);
}

/* The settings travel with per-game CSV: sim-report's table and JSON name
 * each side's player, turns, bestiary and --set instead of "as in the
 * files"; sim's own header names the bestiary and the hash of its text. */
static void test_report_settings(void **state)
{
	(void)state;
	BIN_SKIP();
	char args[1024];
	const char *run = "sim levels/02-the-chase.lvl --games 4 --no-time --turns 300 --set rat.hp=4 "
			  "--compare 'goblin.sight=3' 'goblin.sight=9'";
	char *table = ok(run);
	assert_non_null(strstr(table, "\nbestiary: levels/bestiary.txt (text hash "));
	free(table);
	snprintf(args, sizeof args, "%s --shard 1/2 > %s/c1.csv", run, dir);
	free(ok(args));
	snprintf(args, sizeof args, "%s --shard 2/2 > %s/c2.csv", run, dir);
	free(ok(args));
	snprintf(args, sizeof args, "%s/c1.csv", dir);
	char *csv = slurp(args);
	assert_non_null(strstr(csv, ",killer,topology,trace,settings\n"));
	assert_non_null(strstr(csv, ",player exit; at most 300 turns; bestiary levels/bestiary.txt (text hash "));
	free(csv);
	snprintf(args, sizeof args, "sim-report %s/c1.csv %s/c2.csv", dir, dir);
	char *rep = ok(args);
	assert_null(strstr(rep, "as in the files"));
	assert_non_null(strstr(rep, "A = player exit; at most 300 turns; bestiary levels/bestiary.txt (text hash "));
	assert_non_null(strstr(rep, "); rat.hp=4 goblin.sight=3\n"));
	assert_non_null(strstr(rep, "); rat.hp=4 goblin.sight=9\n"));
	free(rep);
	snprintf(args, sizeof args, "sim-report %s/c1.csv %s/c2.csv --format json", dir, dir);
	rep = ok(args);
	assert_null(strstr(rep, "\"a\": \"A\""));
	assert_non_null(strstr(rep, "\"compare\": {\"a\": \"player exit; at most 300 turns; bestiary "));
	assert_non_null(strstr(rep, "\"run_settings\": [\"player exit;"));
	free(rep);
	/* the per-game JSON names each game's level and topology */
	rep = ok("sim --generate hex,square4 --games 2 --no-time --format json --per-game");
	assert_non_null(strstr(rep, "\"level\": \"gen:hex:"));
	assert_non_null(strstr(rep, "\"topology\": \"square4\""));
	free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_equals_separate_runs),
		cmocka_unit_test(test_shards_merge),
		cmocka_unit_test(test_dungeon),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_generate_elsewhere),
		cmocka_unit_test(test_report_settings),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
