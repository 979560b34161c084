/*
 * test_sim_cli.c - `astray sim` at scale and `astray sim-report`, driving
 * the real binary (ASTRAY_BIN, run from the repository root): --jobs N
 * gives the output of --jobs 1 (time columns aside), shards merged by
 * sim-report give the single run's report, and the hardening: --turns is
 * kept exactly, seeds that wrap are printed as such, file names with
 * commas, quotes, UTF-8 and other bytes in CSV and JSON, a write error on
 * stdout reported, the heat map's text and SVG from the command line,
 * and shards' heat counts drawn by sim-report as the single run draws.
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

#define BIN_SKIP()                                                       \
	do {                                                             \
		if (!getenv("ASTRAY_BIN")) {                             \
			print_message("skipped: ASTRAY_BIN is not set\n"); \
			skip();                                          \
		}                                                        \
	} while (0)

static char dir[64];

/* Runs `astray ARGS` (stderr to stdout when `both`); returns stdout. */
static char *astray(const char *args, bool both, int *status)
{
	char cmd[8192];
	/* The stderr redirection comes first, so that one in args (> /dev/full)
	 * moves stdout alone. */
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

/* Drops the CSV columns whose header starts with time_ (every line). */
static void drop_time_columns(char *csv)
{
	bool drop[1024] = { false };
	char *out = csv, *p = csv;
	bool header = true;
	while (*p) {
		int col = 0;
		char *line_end = strchr(p, '\n');
		if (!line_end)
			line_end = p + strlen(p);
		while (p < line_end) {
			char *c = memchr(p, ',', (size_t)(line_end - p));
			char *e = c ? c : line_end;
			assert_true(col < 1024); /* more columns than this test keeps track of */
			if (header)
				drop[col] = strncmp(p, "time_", 5) == 0;
			if (!drop[col]) {
				if (col > 0 && out != csv && out[-1] != '\n')
					*out++ = ',';
				memmove(out, p, (size_t)(e - p));
				out += e - p;
			}
			col++;
			p = c ? c + 1 : e;
		}
		header = false;
		if (*p == '\n')
			*out++ = *p++;
	}
	*out = '\0';
}

static void test_jobs_identical(void **state)
{
	(void)state;
	BIN_SKIP();
	static const char *const forms[] = {
		"sim levels/ --games 5 --no-time",
		"sim levels/03-hex-arena.lvl levels/07-the-deep.lvl --games 7 --no-time --format json --per-game",
		"sim levels/02-the-chase.lvl --games 6 --no-time --compare goblin.sight=3 goblin.sight=9",
		"sim levels/07-the-deep.lvl --games 5 --no-time --heatmap - --layer blocked",
	};
	/* Each form against one count of workers, 3 and 2 in turn: every
	 * form and both counts are covered, each sim run costing a start of
	 * the sanitized program (about 0.1 s of CPU) whatever its games. */
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char args[512];
		char *one = ok(forms[i]);
		snprintf(args, sizeof args, "%s --jobs %d", forms[i], 3 - (int)(i % 2));
		char *many = ok(args);
		assert_string_equal(one, many);
		free(many);
		free(one);
	}
	/* With time columns: equal once they are dropped. */
	char *one = ok("sim levels/07-the-deep.lvl --games 6 --format csv --per-game");
	char *two = ok("sim levels/07-the-deep.lvl --games 6 --format csv --per-game --jobs 2");
	assert_non_null(strstr(one, "time_ai_ms_mean"));
	drop_time_columns(one);
	drop_time_columns(two);
	assert_null(strstr(one, "time_"));
	assert_string_equal(one, two);
	free(one);
	free(two);
	/* The SVG heat map too. */
	char a1[256], a2[256];
	snprintf(a1, sizeof a1, "sim levels/07-the-deep.lvl --games 4 --no-time --heatmap %s/h1.svg", dir);
	snprintf(a2, sizeof a2, "sim levels/07-the-deep.lvl --games 4 --no-time --heatmap %s/h2.svg --jobs 2", dir);
	free(ok(a1));
	free(ok(a2));
	snprintf(a1, sizeof a1, "cmp -s %s/h1.svg %s/h2.svg", dir, dir);
	assert_int_equal(system(a1), 0);
}

static void test_shards_merge(void **state)
{
	(void)state;
	BIN_SKIP();
	char args[1024];
	static const char *const runs[] = {
		"sim levels/ --games 7 --no-time",
		"sim levels/02-the-chase.lvl levels/07-the-deep.lvl --games 7 --no-time --compare goblin.sight=3 goblin.sight=9",
		"sim levels/07-the-deep.lvl --games 9",
	};
	static const char *const formats[] = { "csv", "json", "table" };
	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		for (int i = 1; i <= 3; i++) {
			snprintf(args, sizeof args, "%s --shard %d/3 > %s/s%d.csv", runs[r], i, dir, i);
			free(ok(args));
		}
		for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
			/* With time columns (r == 2) the numbers come from different
			 * runs: the single run is not compared, so not played. */
			snprintf(args, sizeof args, "%s --format %s", runs[r], formats[f]);
			char *single = r == 2 ? NULL : ok(args);
			snprintf(args, sizeof args, "sim-report %s/s3.csv %s/s1.csv %s/s2.csv --format %s", dir, dir, dir,
				 formats[f]);
			char *merged = ok(args);
			if (r == 2) {
				assert_non_null(strstr(merged, "time_ai_ms_mean") ? merged : strstr(merged, "AI ms/turn"));
			} else if (f == 0) {
				assert_string_equal(single, merged);
			} else {
				/* The headers differ (the settings are not in CSV); from
				 * the first level on, every number is the same. */
				const char *key = f == 1 ? "\"levels\"" : "\nlevels/";
				assert_non_null(strstr(single, key));
				assert_non_null(strstr(merged, key));
				assert_string_equal(strstr(single, key), strstr(merged, key));
			}
			free(single);
			free(merged);
		}
	}
	/* A game twice, a game missing, a file that is not per-game CSV. */
	int st;
	snprintf(args, sizeof args, "sim-report %s/s1.csv %s/s1.csv", dir, dir);
	char *out = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "appears twice"));
	free(out);
	snprintf(args, sizeof args, "sim-report %s/s1.csv %s/s3.csv", dir, dir);
	out = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "the games with seeds 4..6 are missing (a shard or seed range not given?)"));
	free(out);
	snprintf(args, sizeof args, "sim levels/02-the-chase.lvl --games 3 --format csv > %s/sum.csv", dir);
	free(ok(args));
	snprintf(args, sizeof args, "sim-report %s/sum.csv", dir);
	out = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "sum.csv:1:1: error: unknown column 'metric'"));
	free(out);
	out = astray("sim-report", true, &st);
	assert_int_equal(st, 2);
	free(out);
	/* Shards of two different runs (one machine had another --set, another
	 * player or another --turns) are refused at the first game that
	 * differs, naming the game it differs from. */
	static const char *const other[] = { "--set goblin.sight=3", "--player flee", "--turns 500" };
	snprintf(args, sizeof args, "sim levels/07-the-deep.lvl --games 9 --shard 1/3 > %s/o1.csv", dir);
	free(ok(args));
	for (size_t k = 0; k < sizeof other / sizeof other[0]; k++) {
		snprintf(args, sizeof args, "sim levels/07-the-deep.lvl --games 9 --shard 2/3 %s > %s/o2.csv", other[k],
			 dir);
		free(ok(args));
		snprintf(args, sizeof args, "sim-report %s/o1.csv %s/o2.csv", dir, dir);
		out = astray(args, true, &st);
		assert_int_equal(st, 1);
		assert_non_null(strstr(out, "o2.csv:2:1: error: this game of levels/07-the-deep.lvl was played under "
					    "other settings than "));
		assert_non_null(strstr(out, "o1.csv:2 (config "));
		free(out);
	}
}

/* The output of `astray ARGS` run once before with the same ARGS (the
 * runs compared here are --no-time: the same every time), else runs it:
 * a caller that frees the result gets a copy. */
static char *ok_once(const char *args)
{
	static struct {
		char *args, *out;
	} seen[16];
	static int n;
	for (int i = 0; i < n; i++)
		if (strcmp(seen[i].args, args) == 0)
			return strdup(seen[i].out);
	char *out = ok(args);
	if (n < (int)(sizeof seen / sizeof seen[0])) {
		seen[n].args = strdup(args);
		seen[n].out = strdup(out);
		assert_non_null(seen[n].args);
		assert_non_null(seen[n].out);
		n++;
	}
	return out;
}

/* Runs `sim SINGLE --format F` and `sim-report` of the files the shard
 * commands write, and checks they print the same report: CSV byte for
 * byte, JSON and table from the first level on (their headers name the
 * merged files instead of the settings). */
static void check_merge(const char *single, const char *const *shards, int n)
{
	static const char *const formats[] = { "csv", "json", "table" };
	char args[2048], files[1024] = "";
	size_t used = 0;
	for (int i = 0; i < n; i++) {
		snprintf(args, sizeof args, "sim %s > %s/m%d.csv", shards[i], dir, i);
		free(ok(args));
		/* the files in reverse order: order must not matter */
		used += (size_t)snprintf(files + used, sizeof files - used, " %s/m%d.csv", dir, n - 1 - i);
	}
	for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
		snprintf(args, sizeof args, "sim %s --format %s", single, formats[f]);
		char *one = ok_once(args);
		snprintf(args, sizeof args, "sim-report%s --format %s", files, formats[f]);
		char *merged = ok(args);
		if (f == 0) {
			if (strcmp(one, merged) != 0)
				print_message("sim %s\n--- single:\n%s--- merged:\n%s", single, one, merged);
			assert_string_equal(one, merged);
		} else {
			const char *key = f == 1 ? "\"levels\"" : "\n\n";
			assert_non_null(strstr(one, key));
			assert_non_null(strstr(merged, key));
			assert_string_equal(strstr(one, key), strstr(merged, key));
		}
		free(one);
		free(merged);
	}
}

/* Generated dungeons, --compare per-game CSV and disjoint --seed ranges
 * merge into the single run's report too; misaligned ranges are refused. */
static void test_ranges_merge(void **state)
{
	(void)state;
	BIN_SKIP();
	const char *gen = "--generate square4,hex,diamond8 --games 7 --no-time";
	const char *gen_shards[] = {
		"--generate square4,hex,diamond8 --games 7 --no-time --shard 2/3",
		"--generate square4,hex,diamond8 --games 7 --no-time --shard 1/3",
		"--generate square4,hex,diamond8 --games 7 --no-time --shard 3/3",
	};
	check_merge(gen, gen_shards, 3);
	const char *gen_cmp = "--generate square8,hex --games 6 --seed 40 --no-time --compare goblin.sight=3 goblin.sight=9";
	const char *gen_cmp_shards[] = {
		"--generate square8,hex --games 6 --seed 40 --no-time --compare goblin.sight=3 goblin.sight=9 --shard 1/2",
		"--generate square8,hex --games 6 --seed 40 --no-time --compare goblin.sight=3 goblin.sight=9 --shard 2/2",
	};
	check_merge(gen_cmp, gen_cmp_shards, 2);
	/* --seed ranges: 5 games from seed 1 (--per-game --format csv), 7 from seed 6 */
	const char *lvl = "levels/02-the-chase.lvl levels/07-the-deep.lvl --games 12 --no-time";
	const char *lvl_ranges[] = {
		"levels/02-the-chase.lvl levels/07-the-deep.lvl --games 5 --no-time --per-game --format csv",
		"levels/02-the-chase.lvl levels/07-the-deep.lvl --games 7 --seed 6 --no-time --shard 1/1",
	};
	check_merge(lvl, lvl_ranges, 2);
	const char *cmp = "levels/02-the-chase.lvl --games 9 --seed 100 --no-time --compare goblin.sight=3 goblin.sight=9";
	const char *cmp_ranges[] = {
		"levels/02-the-chase.lvl --games 4 --seed 105 --no-time --compare goblin.sight=3 goblin.sight=9 "
		"--per-game --format csv",
		"levels/02-the-chase.lvl --games 5 --seed 100 --no-time --compare goblin.sight=3 goblin.sight=9 "
		"--per-game --format csv",
	};
	check_merge(cmp, cmp_ranges, 2);
	/* generated, in seed ranges that start a whole cycle of topologies apart */
	const char *gen_ranges[] = {
		"--generate square4,hex,diamond8 --games 3 --no-time --shard 1/1",
		"--generate square4,hex,diamond8 --games 4 --seed 4 --no-time --shard 1/1",
	};
	check_merge(gen, gen_ranges, 2);
	/* Refused: ranges a generated run would not play, a hole between ranges. */
	char args[1024];
	int st;
	snprintf(args, sizeof args, "sim --generate square4,hex --games 3 --no-time --shard 1/1 > %s/m0.csv", dir);
	free(ok(args));
	snprintf(args, sizeof args, "sim --generate square4,hex --games 3 --seed 4 --no-time --shard 1/1 > %s/m1.csv",
		 dir);
	free(ok(args));
	snprintf(args, sizeof args, "sim-report %s/m0.csv %s/m1.csv", dir, dir);
	char *out = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "m1.csv:2:1: error: gen:square4:79x23:d1:4 is game 3 of the merged run from seed 1, "
				    "which a single run plays on hex: with --generate, start each --seed range a "
				    "multiple of 2 games after the first"));
	free(out);
	snprintf(args, sizeof args, "sim levels/02-the-chase.lvl --games 2 --seed 9 --no-time --shard 1/1 > %s/m1.csv",
		 dir);
	free(ok(args));
	snprintf(args, sizeof args, "sim levels/02-the-chase.lvl --games 3 --no-time --shard 1/1 > %s/m0.csv", dir);
	free(ok(args));
	snprintf(args, sizeof args, "sim-report %s/m0.csv %s/m1.csv", dir, dir);
	out = astray(args, true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "the games with seeds 4..8 are missing (a shard or seed range not given?)"));
	free(out);
}

/* Every game ends by turn T: a slow step that would cross it waits. */
static void test_turns_exact(void **state)
{
	(void)state;
	BIN_SKIP();
	char *out = ok("sim levels/04-the-mire.lvl --player fight --chase --turns 72 --seed 7 --games 12 "
		       "--per-game --format csv --no-time");
	int rows = 0, at_limit = 0;
	for (char *line = strchr(out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		/* level,game,seed,outcome,monsters,config,escaped,killed,out_of_turns,turns */
		char *p = line + 1;
		for (int k = 0; k < 9; k++)
			p = strchr(p, ',') + 1;
		int turns = atoi(p);
		assert_true(turns <= 72);
		at_limit += strstr(line + 1, ",out_of_turns,") != NULL && turns == 72;
		rows++;
	}
	assert_int_equal(rows, 12);
	assert_true(at_limit >= 1);
	free(out);
}

static void test_seed_wrap(void **state)
{
	(void)state;
	BIN_SKIP();
	char *out = ok("sim levels/01-first-steps.lvl --seed 18446744073709551615 --games 3 --no-time");
	assert_non_null(strstr(out, "(seeds 18446744073709551615 and 0..1)"));
	free(out);
	out = ok("sim levels/01-first-steps.lvl --seed 18446744073709551614 --games 2 --no-time");
	assert_non_null(strstr(out, "(seeds 18446744073709551614..18446744073709551615)"));
	free(out);
	out = ok("sim levels/01-first-steps.lvl --seed 18446744073709551615 --games 3 --no-time --format csv "
		 "--per-game");
	assert_non_null(strstr(out, ",0,18446744073709551615,"));
	assert_non_null(strstr(out, ",1,0,"));
	assert_non_null(strstr(out, ",2,1,"));
	free(out);
}

/* File names with a comma, a quote, UTF-8 and a byte that is not UTF-8. */
static void test_names(void **state)
{
	(void)state;
	BIN_SKIP();
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "cp levels/01-first-steps.lvl '%s/caf\xc3\xa9,\"q\".lvl' && cp levels/01-first-steps.lvl %s/$(printf 'b\\377d').lvl",
		 dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "sim '%s/caf\xc3\xa9,\"q\".lvl' --bestiary levels/bestiary.txt --games 2 --no-time "
				  "--format csv --per-game", dir);
	char *out = ok(cmd);
	char want[256];
	snprintf(want, sizeof want, "\n\"%s/caf\xc3\xa9,\"\"q\"\".lvl\",0,1,", dir);
	assert_non_null(strstr(out, want));
	free(out);
	snprintf(cmd, sizeof cmd, "sim '%s/caf\xc3\xa9,\"q\".lvl' %s/$(printf 'b\\377d').lvl --bestiary "
				  "levels/bestiary.txt --games 2 --no-time --format json", dir, dir);
	out = ok(cmd);
	snprintf(want, sizeof want, "\"level\": \"%s/caf\xc3\xa9,\\\"q\\\".lvl\"", dir);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof want, "\"level\": \"%s/b\\ufffdd.lvl\"", dir);
	assert_non_null(strstr(out, want));
	assert_null(strstr(out, "\xff"));
	free(out);
	snprintf(cmd, sizeof cmd, "rm -f '%s/caf\xc3\xa9,\"q\".lvl' %s/$(printf 'b\\377d').lvl", dir, dir);
	assert_int_equal(system(cmd), 0);
}

static void test_write_error(void **state)
{
	(void)state;
	BIN_SKIP();
	if (access("/dev/full", W_OK) != 0) {
		print_message("skipped: no /dev/full\n");
		skip();
	}
	int st;
	char *out = astray("sim levels/01-first-steps.lvl --games 2 > /dev/full", true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "astray sim: write error on standard output"));
	free(out);
}

static void test_heatmap_cli(void **state)
{
	(void)state;
	BIN_SKIP();
	char *out = ok("sim levels/02-the-chase.lvl --games 4 --no-time --player flee --chase --turns 100 "
		       "--heatmap - --layer occupancy | tail -4"); /* the legend: layer, scale, marks, terrain */
	assert_null(strchr(out, '\033')); /* not a terminal: plain */
	assert_non_null(strstr(out, "monster actions taken on the cell"));
	free(out);
	char args[512];
	snprintf(args, sizeof args, "sim levels/02-the-chase.lvl --games 4 --no-time --heatmap %s/c.svg "
				    "--compare goblin.sight=3 goblin.sight=9 --layer contact", dir);
	free(ok(args));
	snprintf(args, sizeof args, "head -c 5 %s/c.svg; grep -c 'class=\"cell\"' %s/c.svg; tail -1 %s/c.svg", dir, dir,
		 dir);
	int st;
	out = run_capture(args, &st);
	/* chase level: 51 x 15 cells, the floor ones as class="cell" */
	assert_true(strncmp(out, "<?xml", 5) == 0);
	assert_true(atoi(out + 5) > 100);
	assert_non_null(strstr(out, "</svg>"));
	free(out);
	/* The picture names what it compares, under its title. */
	snprintf(args, sizeof args, "grep -o '>player exit; A = goblin.sight=3; B = goblin.sight=9<' %s/c.svg", dir);
	out = run_capture(args, &st);
	assert_int_equal(st, 0);
	free(out);
	out = ok("sim levels/02-the-chase.lvl --games 2 --no-time --set goblin.sight=4 --heatmap - --layer deaths");
	assert_non_null(strstr(out, "\nplayer exit; settings: goblin.sight=4\n"));
	assert_non_null(strstr(out, "player's cell at death:\n  nothing counted on any cell (all .); # wall\n"));
	free(out);
	out = astray("sim levels/01-first-steps.lvl levels/02-the-chase.lvl --heatmap -", true, &st);
	assert_int_equal(st, 2);
	assert_non_null(strstr(out, "one LEVEL"));
	free(out);
	out = astray("sim levels/01-first-steps.lvl --shard 3/2", true, &st);
	assert_int_equal(st, 2);
	free(out);
	/* a --heatmap into a missing folder is refused before any game is played */
	out = astray("sim levels/02-the-chase.lvl --games 100000 --heatmap /nonexistent-astray/x.svg", true, &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "the folder /nonexistent-astray"));
	free(out);
	/* a bad --set or --compare value is a usage error, as every bad value */
	out = astray("sim levels/02-the-chase.lvl --games 1 --set goblin.hp=abc", true, &st);
	assert_int_equal(st, 2);
	assert_non_null(strstr(out, "--set goblin.hp=abc"));
	free(out);
	out = astray("sim levels/02-the-chase.lvl --games 1 --compare goblin.sigh=6 goblin.sight=7", true, &st);
	assert_int_equal(st, 2);
	assert_non_null(strstr(out, "unknown key 'sigh'"));
	free(out);
}

/* Runs a shell line in dir (cd first); returns its exit status and puts
 * its output (stdout and stderr) in *out. */
static int in_dir(const char *line, char **out)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd %s && B=$(cd - >/dev/null && realpath %s) && L=$(cd - >/dev/null && pwd)/levels && (%s) 2>&1",
		 dir, getenv("ASTRAY_BIN"), line);
	int st;
	*out = run_capture(cmd, &st);
	return st;
}

static void must(const char *line)
{
	char *out;
	int st = in_dir(line, &out);
	if (st != 0)
		print_message("%s: exit %d\n%s\n", line, st, out);
	assert_int_equal(st, 0);
	free(out);
}

/* Expects the line to fail with `want` in its output. */
static void refused(const char *line, const char *want)
{
	char *out;
	int st = in_dir(line, &out);
	if (st == 0 || !strstr(out, want))
		print_message("%s: exit %d, wanted '%s' in:\n%s\n", line, st, want, out);
	assert_int_not_equal(st, 0);
	assert_non_null(strstr(out, want));
	free(out);
}

/*
 * The heat of shards (sim --heat-counts) merged by sim-report --heatmap is
 * the picture of the single run, byte for byte: SVG and text, one run
 * and --compare, every layer, --shard slices (one played with --jobs 2)
 * and --seed ranges, files in any order.  Then what is refused.
 */
static void test_heat_shards(void **state)
{
	(void)state;
	BIN_SKIP();
	char line[2048];
	static const char *const runs[] = {
		"$L/02-the-chase.lvl --games 9 --no-time --player flee --turns 200",
		"$L/07-the-deep.lvl --games 7 --no-time --compare goblin.sight=3 goblin.sight=9",
	};
	static const char *const layers[] = { "occupancy", "contact", "deaths", "blocked" };
	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		for (int i = 1; i <= 3; i++) {
			snprintf(line, sizeof line, "$B sim %s --shard %d/3 --heat-counts h%d.heat%s > s%d.csv", runs[r], i, i,
				 i == 2 ? " --jobs 2" : "", i);
			must(line);
		}
		for (size_t l = 0; l < sizeof layers / sizeof layers[0]; l++) {
			snprintf(line, sizeof line, "$B sim %s --layer %s --heatmap one.svg > /dev/null && "
				 "$B sim-report h3.heat s2.csv h1.heat s3.csv s1.csv h2.heat --layer %s --heatmap all.svg > /dev/null && "
				 "cmp one.svg all.svg && grep -c 'class=\"cell\"' all.svg",
				 runs[r], layers[l], layers[l]);
			must(line);
		}
		/* The text form: the same lines after the report. */
		snprintf(line, sizeof line, "$B sim %s --layer blocked --heatmap - | sed -n '/: blocked, /,$p' > one.txt && "
			 "$B sim-report s1.csv s2.csv s3.csv h1.heat h2.heat h3.heat --layer blocked --heatmap - "
			 "| sed -n '/: blocked, /,$p' > all.txt && test -s one.txt && cmp one.txt all.txt",
			 runs[r]);
		must(line);
	}
	/* The start is marked in both forms. */
	char *out;
	assert_int_equal(in_dir("grep -c 'class=\"start\"' all.svg; grep -c '^ *@ the player.s start' all.txt; "
				"grep -c '#@' all.txt", &out), 0);
	assert_string_equal(out, "1\n1\n1\n");
	free(out);
	/* --seed ranges merge too: seeds 1..4 and 5..9 against seeds 1..9. */
	must("$B sim $L/02-the-chase.lvl --games 4 --no-time --per-game --format csv --heat-counts r1.heat > r1.csv && "
	     "$B sim $L/02-the-chase.lvl --games 5 --seed 5 --no-time --per-game --format csv --heat-counts r2.heat > r2.csv && "
	     "$B sim $L/02-the-chase.lvl --games 9 --no-time --heatmap one.svg > /dev/null && "
	     "$B sim-report r2.csv r1.csv r2.heat r1.heat --heatmap all.svg > /dev/null && cmp one.svg all.svg");
	/* Refused, each with a message that says what to do. */
	refused("$B sim-report r1.csv r2.csv r1.heat r2.heat", "r1.heat is a heat counts file: draw it with --heatmap");
	refused("$B sim-report r1.csv r2.csv --heatmap x.svg", "--heatmap needs the shards' heat counts");
	refused("$B sim-report r1.heat --heatmap x.svg", "give at least one per-game CSV file");
	refused("$B sim-report r1.csv r2.csv r1.heat --heatmap x.svg",
		"the heat counts files cover the games with seeds 1..4, the CSV files seeds 1..9");
	refused("$B sim-report r1.csv r2.csv r1.heat r1.heat --heatmap x.svg",
		"r1.heat:11:1: error: the games with seeds 1..4 are counted in r1.heat too");
	/* Another level, another version of the level, other options. */
	must("$B sim $L/01-first-steps.lvl --games 5 --seed 5 --no-time --per-game --format csv --heat-counts o.heat > /dev/null");
	refused("$B sim-report r1.csv r2.csv r1.heat o.heat --heatmap x.svg",
		"o.heat:2:1: error: level '");
	must("cp $L/02-the-chase.lvl v.lvl && cp $L/bestiary.txt . && "
	     "$B sim v.lvl --games 4 --no-time --per-game --format csv --heat-counts v1.heat > /dev/null && "
	     "sed -i '1a ; another version of the level' v.lvl && "
	     "$B sim v.lvl --games 5 --seed 5 --no-time --per-game --format csv --heat-counts v2.heat > /dev/null");
	refused("$B sim-report r1.csv r2.csv v1.heat v2.heat --heatmap x.svg",
		"v2.heat:3:1: error: level-hash '");
	must("$B sim $L/02-the-chase.lvl --games 5 --seed 5 --no-time --player idle --per-game --format csv "
	     "--heat-counts p.heat > /dev/null");
	refused("$B sim-report r1.csv r2.csv r1.heat p.heat --heatmap x.svg",
		"p.heat:7:1: error: player 'idle' differs from r1.heat:7 ('exit')");
	/* A damaged file: its line named. */
	must("sed 's/^games: 5/games: five/' r2.heat > bad.heat");
	refused("$B sim-report r1.csv r2.csv r1.heat bad.heat --heatmap x.svg", "bad.heat:10:8: error: expected a whole number");
	must("head -n -1 r2.heat > cut.heat");
	refused("$B sim-report r1.csv r2.csv r1.heat cut.heat --heatmap x.svg",
		"error: the file ends without 'end' (cut short?)");
	/* sim itself: --heat-counts needs one level, and a slice with games. */
	refused("$B sim $L/01-first-steps.lvl $L/02-the-chase.lvl --heat-counts x.heat", "--heat-counts draws one level");
	refused("$B sim $L/01-first-steps.lvl --games 2 --shard 1/3 --heat-counts x.heat", "this slice has no games");
	refused("$B sim --generate hex --heat-counts x.heat", "--heat-counts draws one level: it cannot go with --generate");
	refused("$B sim $L/01-first-steps.lvl --heat-counts -", "--heat-counts needs a file");
	refused("$B sim $L/01-first-steps.lvl --games 2 --shard 1/3 --heatmap x.svg", "--heat-counts FILE");
	refused("$B sim $L/01-first-steps.lvl --games 2 --heat-counts /nonexistent-astray/x.heat",
		"--heat-counts /nonexistent-astray/x.heat: the folder /nonexistent-astray");
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/astray-test-simcli-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* --games and --monsters beyond what memory allows are refused at once,
 * with the figure, before anything is reserved or played (issue 33, item
 * 9); the test build's $ASTRAY_TEST_MEMORY stands for the machine's. */
static void test_memory_bound(void **state)
{
	(void)state;
	BIN_SKIP();
	assert_int_equal(setenv("ASTRAY_TEST_MEMORY", "100000000", 1), 0);
	int st;
	char *out = astray("sim levels/01-first-steps.lvl --games 100000000", true, &st);
	assert_int_equal(st, 2);
	if (!strstr(out, "--games 100000000 needs about ") || !strstr(out, "GB for its per-game rows") ||
	    !strstr(out, "at most "))
		fail_msg("no figure in: %s", out);
	free(out);
	out = astray("sim levels/01-first-steps.lvl --games 20000 --compare a= b=", true, &st);
	assert_int_equal(st, 2);
	if (!strstr(out, "x 2 for --compare"))
		fail_msg("--compare not counted in: %s", out);
	free(out);
	out = astray("sim tests/fuzz-corpus-map/open.map --monsters 1000000 --jobs 2", true, &st);
	assert_int_equal(st, 2);
	if (!strstr(out, "--monsters 1000000 needs about ") || !strstr(out, "at most "))
		fail_msg("no figure in: %s", out);
	free(out);
	/* what fits is played */
	free(ok("sim levels/01-first-steps.lvl --games 3 --turns 20 --monsters 10"));
	assert_int_equal(unsetenv("ASTRAY_TEST_MEMORY"), 0);
}

/* sim-report reads what sim wrote for a level whose file name holds a
 * newline (issue 33, item 11): the per-game CSV, and a shard CSV of its
 * own whose quoted name holds the raw newline (as a spreadsheet writes
 * it), merged as one level. */
static void test_newline_level_name(void **state)
{
	(void)state;
	BIN_SKIP();
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp levels/01-first-steps.lvl '%s/a\nb.lvl'", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "sim '%s/a\nb.lvl' --games 4 --turns 30 --per-game --format csv > '%s/nl.csv'", dir,
		 dir);
	free(ok(cmd));
	snprintf(cmd, sizeof cmd, "sim-report '%s/nl.csv'", dir);
	char *out = ok(cmd);
	if (!strstr(out, "4 games per level") || !strstr(out, "b.lvl"))
		fail_msg("sim-report of a newline name: %s", out);
	free(out);
	/* the same rows with the name quoted raw, newline and all */
	snprintf(cmd, sizeof cmd,
		 "sed -e '2,$s|^[^,]*,|\"%s/a\\\nb.lvl\",|' '%s/nl.csv' > '%s/raw.csv' && grep -c . '%s/raw.csv'",
		 dir, dir, dir, dir);
	int st;
	char *lines = run_capture(cmd, &st);
	assert_int_equal(st, 0);
	assert_int_equal(atoi(lines), 9); /* the header and four rows of two lines */
	free(lines);
	snprintf(cmd, sizeof cmd, "sim-report '%s/raw.csv'", dir);
	out = ok(cmd);
	if (!strstr(out, "4 games per level"))
		fail_msg("sim-report of a raw newline in a quoted name: %s", out);
	free(out);
}

/* sim-report's header says what the games were played under, as sim's
 * does: each side's player, turn limit, bestiary (file and text hash)
 * and --set, from the files' settings column (issue 33, item 12). */
static void test_report_header_settings(void **state)
{
	(void)state;
	BIN_SKIP();
	char args[1024];
	static const char run[] = "sim levels/02-the-chase.lvl --games 4 --no-time --player flee --turns 400";
	for (int i = 1; i <= 2; i++) {
		snprintf(args, sizeof args, "%s --set goblin.sight=7 --shard %d/2 > %s/h%d.csv", run, i, dir, i);
		free(ok(args));
		snprintf(args, sizeof args, "%s --compare goblin.sight=3 goblin.sight=9 --shard %d/2 > %s/k%d.csv", run,
			 i, dir, i);
		free(ok(args));
	}
	snprintf(args, sizeof args, "sim-report %s/h2.csv %s/h1.csv", dir, dir);
	char *out = ok(args);
	if (!strstr(out, "\nsettings: player flee; at most 400 turns; bestiary levels/bestiary.txt (text hash ") ||
	    !strstr(out, "); goblin.sight=7\n"))
		fail_msg("sim-report's header lacks the run's settings:\n%s", out);
	free(out);
	snprintf(args, sizeof args, "sim-report %s/k1.csv %s/k2.csv", dir, dir);
	out = ok(args);
	if (!strstr(out, "compare (same seeds for both): A = player flee; at most 400 turns; bestiary ") ||
	    !strstr(out, "); goblin.sight=3\n") || !strstr(out, "B = player flee; at most 400 turns; ") ||
	    !strstr(out, "); goblin.sight=9\n"))
		fail_msg("sim-report's header lacks each side's settings:\n%s", out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_identical),
		cmocka_unit_test(test_shards_merge),
		cmocka_unit_test(test_ranges_merge),
		cmocka_unit_test(test_turns_exact),
		cmocka_unit_test(test_seed_wrap),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_heatmap_cli),
		cmocka_unit_test(test_heat_shards),
		cmocka_unit_test(test_memory_bound),
		cmocka_unit_test(test_newline_level_name),
		cmocka_unit_test(test_report_header_settings),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
