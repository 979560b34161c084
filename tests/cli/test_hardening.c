/*
 * test_hardening.c - the real binary (ASTRAY_BIN) against hostile or
 * broken input, one test per finding of issue 13: diagnostics capped with
 * a count, write errors on stdout and on a CSV, FIFOs and devices refused,
 * control characters from files escaped, numbers range-checked, whole file
 * names, bestiaries that are folders, which levels/ folder is played, and
 * diagnostics lost for want of memory (the test build's allocation hook).
 * Every file it needs is written into a fresh temporary folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_capture.h"

struct tmp {
	char dir[64];
	char cwd[4096];
};

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	snprintf(t->dir, sizeof t->dir, "/tmp/astray-hard-XXXXXX");
	if (!mkdtemp(t->dir) || !getcwd(t->cwd, sizeof t->cwd)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;
	char cmd[256];
	snprintf(cmd, sizeof cmd, "chmod -R u+rwx %s; rm -rf %s", t->dir, t->dir);
	int r = system(cmd);
	(void)r;
	free(t);
	return 0;
}

/* The binary's absolute path, so commands may run in other folders. */
static void bin_path(const struct tmp *t, char *buf, size_t size)
{
	const char *b = test_bin();
	if (b[0] == '/')
		snprintf(buf, size, "%s", b);
	else
		snprintf(buf, size, "%s/%s", t->cwd, b);
}

/* Runs `astray ARGS` (with 2>&1 unless args redirect themselves). */
static char *run(const struct tmp *t, const char *args, int *status)
{
	char bin[4200], cmd[16384];
	bin_path(t, bin, sizeof bin);
	snprintf(cmd, sizeof cmd, "timeout 60 %s %s", bin, args);
	return run_capture(cmd, status);
}

static void write_file(const struct tmp *t, const char *name, const char *text, size_t len)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", t->dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void write_text(const struct tmp *t, const char *name, const char *text)
{
	write_file(t, name, text, strlen(text));
}

static void expect_has(const char *out, const char *want)
{
	if (!strstr(out, want)) {
		print_error("expected to find\n  %s\nin the output:\n%.3000s\n", want, out);
		fail();
	}
}

static const char small_level[] = "astray-level 1\nname: small\ntopology: square8\nmap:\n"
				  "#####\n#@.>#\n#####\n";

/* A 2048x2048 map of dominoes: 700,000 unreachable two-cell regions (and
 * an unreachable exit).  Check keeps 200 warnings, counts the rest in one
 * line, and stays quick.  (Lone cells are summed up in one line: below.) */
static void test_check_caps_diagnostics(void **state)
{
	struct tmp *t = *state;
	enum { N = 2048 };
	size_t head_len = 60, len = head_len + (size_t)N * (N + 1);
	char *text = malloc(len + 1);
	assert_non_null(text);
	int k = snprintf(text, head_len + 1, "astray-level 1\nname: checker\ntopology: square4\nmap:\n");
	size_t at = (size_t)k;
	for (int y = 0; y < N; y++) {
		for (int x = 0; x < N; x++) /* dominoes: a million regions of 2 cells */
			text[at++] = y % 2 || x % 3 == 2 ? '#' : '.';
		text[at++] = '\n';
	}
	size_t row = (size_t)N + 1;
	text[k] = '@';
	text[(size_t)k + row + 2] = '>'; /* 2,1: walled in */
	write_file(t, "checker.lvl", text, at);
	free(text);
	int st;
	char args[256];
	snprintf(args, sizeof args, "check %s/checker.lvl 2>&1", t->dir);
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "error: exit '>' at 2,1 cannot be reached");
	expect_has(out, "warning: ... and 699,192 more warnings (only the first 200 are shown)");
	expect_has(out, "699392 warnings");
	int lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	assert_true(lines < 260);
	free(out);
}

/* A 2048x2048 checkerboard: two million lone cells are one warning. */
static void test_check_sums_lone_cells(void **state)
{
	struct tmp *t = *state;
	enum { N = 2048 };
	size_t head_len = 60, len = head_len + (size_t)N * (N + 1);
	char *text = malloc(len + 1);
	assert_non_null(text);
	int k = snprintf(text, head_len + 1, "astray-level 1\nname: checker\ntopology: square4\nmap:\n");
	size_t at = (size_t)k;
	for (int y = 0; y < N; y++) {
		for (int x = 0; x < N; x++)
			text[at++] = (x + y) % 2 ? '#' : '.';
		text[at++] = '\n';
	}
	text[k] = '@';
	text[(size_t)k + (size_t)N + 2] = '>';
	write_file(t, "lone.lvl", text, at);
	free(text);
	int st;
	char args[256];
	snprintf(args, sizeof args, "check %s/lone.lvl 2>&1", t->dir);
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "warning: 2097151 floor cells stand alone, each a region of 1 cell unreachable");
	expect_has(out, "checked 1 file: 1 error, 1 warning, 1 note");
	free(out);
}

/* A diagnostic that cannot be kept for want of memory (the test build's
 * ASTRAY_TEST_DIAG_NOMEM makes diag_add's allocations fail) is an error
 * with a message and exit 1, even when it was only a warning: output is
 * missing, so check must never pass silently. */
static void test_check_reports_lost_diagnostics(void **state)
{
	struct tmp *t = *state;
	/* one warning (a cell the player cannot reach), no error */
	write_text(t, "warn.lvl", "astray-level 1\nname: warn\ntopology: square8\nmap:\n"
				   "#######\n#@.>#.#\n#######\n");
	int st;
	char args[256];
	snprintf(args, sizeof args, "check %s/warn.lvl 2>&1", t->dir);
	char *out = run(t, args, &st);
	assert_int_equal(st, 0);
	expect_has(out, "warning:");
	free(out);
	snprintf(args, sizeof args, "check %s/warn.lvl 2>&1", t->dir);
	setenv("ASTRAY_TEST_DIAG_NOMEM", "0", 1);
	out = run(t, args, &st);
	unsetenv("ASTRAY_TEST_DIAG_NOMEM");
	assert_int_equal(st, 1);
	expect_has(out, "error: out of memory: 1 diagnostic could not be kept");
	free(out);
	/* a level with many errors: the ones kept are shown, the lost ones counted */
	write_text(t, "errs.lvl", "astray-level 1\nname: errs\ntopology: square8\nmap:\n"
				   "#######\n#@QQQ>#\n#######\n");
	snprintf(args, sizeof args, "check %s/errs.lvl 2>&1", t->dir);
	setenv("ASTRAY_TEST_DIAG_NOMEM", "1", 1);
	out = run(t, args, &st);
	unsetenv("ASTRAY_TEST_DIAG_NOMEM");
	assert_int_equal(st, 1);
	expect_has(out, "errs.lvl:6:3: error: unknown monster 'Q'");
	expect_has(out, "3 diagnostics could not be kept");
	expect_has(out, "4 errors");
	free(out);
}

/* Every write to stdout is checked: /dev/full gives a message and exit 1. */
static void test_write_errors_exit_1(void **state)
{
	struct tmp *t = *state;
	write_text(t, "small.lvl", small_level);
	static const char *const cmds[] = {
		"--help", "play --help", "check --help", "path --help", "sim --help", "bench --help",
		"check %s/small.lvl", "path %s/small.lvl 1,1 3,1", "bench tests/bench/open.map.scen",
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char args[512], one[256];
		snprintf(one, sizeof one, cmds[i], t->dir);
		snprintf(args, sizeof args, "%s 2>&1 >/dev/full", one);
		int st;
		char *out = run(t, args, &st);
		if (st != 1 || !strstr(out, "error writing to standard output")) {
			print_error("astray %s >/dev/full: status %d, stderr:\n%s\n", one, st, out);
			fail();
		}
		free(out);
	}
	int st;
	char *out = run(t, "bench --csv /dev/full tests/bench/open.map.scen 2>&1 >/dev/null", &st);
	assert_int_equal(st, 1);
	expect_has(out, "/dev/full: cannot write the CSV");
	free(out);
}

/* Only regular files are read: a FIFO must not block, a device must not
 * be read without end, a folder says so. */
static void test_fifos_and_devices_are_refused(void **state)
{
	struct tmp *t = *state;
	char fifo[200], args[600];
	snprintf(fifo, sizeof fifo, "%s/pipe.lvl", t->dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	int st;
	snprintf(args, sizeof args, "check %s 2>&1", fifo);
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "not a regular file");
	free(out);
	snprintf(args, sizeof args, "check --bestiary %s %s 2>&1", fifo, "tests/levels/ok/lf.lvl");
	out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "not a regular file");
	free(out);
	out = run(t, "bench /dev/zero 2>&1", &st);
	assert_true(st != 0 && st != 124);
	expect_has(out, "/dev/zero: not a regular file");
	free(out);
	snprintf(args, sizeof args, "check --bestiary %s tests/levels/ok/lf.lvl 2>&1", t->dir);
	out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "cannot read the bestiary: Is a directory");
	free(out);
}

/* The files of the store (journals, their snapshots, the score list) are
 * read alike: a FIFO is refused at once, naming the file and what it is,
 * never waited on (savefile_read used to open without O_NONBLOCK and hang
 * for ever); so are a folder and a device.  `timeout 10` turns a hang
 * into a failure (124). */
static void test_store_files_that_are_fifos_are_refused(void **state)
{
	struct tmp *t = *state;
	char bin[4200], cmd[9000], path[300];
	bin_path(t, bin, sizeof bin);
	snprintf(path, sizeof path, "%s/pipe.jnl", t->dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	int st;
	snprintf(cmd, sizeof cmd, "timeout 10 %s replay %s --verify 2>&1", bin, path);
	char *out = run_capture(cmd, &st);
	assert_int_equal(st, 1);
	expect_has(out, "pipe.jnl: not a regular file (a FIFO)");
	free(out);
	snprintf(cmd, sizeof cmd, "timeout 10 %s replay %s --verify 2>&1", bin, t->dir);
	out = run_capture(cmd, &st);
	assert_int_equal(st, 1);
	expect_has(out, "not a regular file (a folder)");
	free(out);
	snprintf(cmd, sizeof cmd, "timeout 10 %s replay /dev/zero --verify 2>&1", bin);
	out = run_capture(cmd, &st);
	assert_int_equal(st, 1);
	expect_has(out, "/dev/zero: not a regular file (a device)");
	free(out);

	/* a good journal whose snapshot is a FIFO: replayed in full */
	snprintf(cmd, sizeof cmd, "cp tests/golden/journal/hex-options.jnl %s/game.jnl", t->dir);
	free(run_capture(cmd, &st));
	assert_int_equal(st, 0);
	snprintf(path, sizeof path, "%s/game.jnl.snap", t->dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(cmd, sizeof cmd, "timeout 10 %s replay %s/game.jnl --verify --resume 2>&1", bin, t->dir);
	out = run_capture(cmd, &st);
	/* not a hang (124); whether the golden still verifies under the
	 * current rules is test_journal's business */
	assert_true(st == 0 || st == 1);
	expect_has(out, "game.jnl.snap: not a regular file (a FIFO)");
	free(out);

	/* the score list */
	snprintf(path, sizeof path, "%s/data", t->dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/data/scores.txt", t->dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(cmd, sizeof cmd, "timeout 10 %s scores --data %s/data 2>&1", bin, t->dir);
	out = run_capture(cmd, &st);
	assert_int_equal(st, 1);
	expect_has(out, "scores.txt: not a regular file (a FIFO)");
	free(out);
}

/* A symbolic link planted as the data folder's save.lock: play refuses
 * to start, naming it, and no file appears where the link points (it was
 * opened with O_CREAT and followed). */
static void test_save_lock_link_is_refused(void **state)
{
	struct tmp *t = *state;
	char lock[300], target[300], args[1200];
	snprintf(lock, sizeof lock, "%s/save.lock", t->dir);
	snprintf(target, sizeof target, "%s/planted", t->dir);
	assert_int_equal(symlink(target, lock), 0);
	snprintf(args, sizeof args, "play tests/levels/ok/lf.lvl --data %s </dev/null 2>&1", t->dir);
	int st;
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "save.lock: not a file of its own");
	free(out);
	struct stat sb;
	assert_true(lstat(target, &sb) != 0);
}

/* A bestiary.txt beside the level that cannot be read (here a folder) is
 * an error, not a missing bestiary that skips the monster checks. */
static void test_unreadable_default_bestiary_is_an_error(void **state)
{
	struct tmp *t = *state;
	write_text(t, "small.lvl", small_level);
	char path[200], args[600];
	snprintf(path, sizeof path, "%s/bestiary.txt", t->dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(args, sizeof args, "check %s/small.lvl 2>&1", t->dir);
	int st;
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "bestiary.txt: error: cannot read the bestiary");
	free(out);
}

/* Control characters from a file are shown escaped, never sent to the terminal. */
static void test_echoed_file_text_is_escaped(void **state)
{
	struct tmp *t = *state;
	write_text(t, "esc.lvl", "astray-level 1\nname: x\ntopology: square8\nevil\033[2J: 1\nmap:\n"
				 "#####\n#@.>#\n#####\n");
	char args[600];
	int st;
	snprintf(args, sizeof args, "check %s/esc.lvl 2>&1", t->dir);
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	assert_null(strchr(out, '\033'));
	expect_has(out, "evil\\x1b[2J");
	free(out);
	write_text(t, "open.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n");
	write_text(t, "esc.scen", "version 1\n0\tx\033[2J,open.map\t2\t2\t0\t0\t1\t1\t1.41421356\n");
	snprintf(args, sizeof args, "bench --csv %s/out.csv %s/esc.scen 2>&1", t->dir, t->dir);
	out = run(t, args, &st);
	assert_null(strchr(out, '\033'));
	free(out);
}

/* A level file named with escape sequences (ESC ] 0 ; ... BEL retitles a
 * terminal, ESC [ 31 m turns its text red): sim, its CSV and heat counts
 * shards, and sim-report reading them (or a CSV made by hand with the raw
 * bytes) never print them raw, and the shards still match their CSV. */
static void test_sim_names_from_files_are_escaped(void **state)
{
	struct tmp *t = *state;
	static const char evil[] = "evil\033]0;pwned\007\033[31m";
	char name[100], args[2000];
	snprintf(name, sizeof name, "%s.map", evil);
	write_text(t, name, "type octile\nheight 6\nwidth 8\nmap\n........\n........\n........\n"
			    "........\n........\n........\n");
	char folder[200];
	snprintf(folder, sizeof folder, "%s/lvls", t->dir);
	assert_int_equal(mkdir(folder, 0700), 0);
	snprintf(name, sizeof name, "lvls/%s.lvl", evil);
	write_text(t, name, small_level);
	static const char *const runs[] = {
		"sim '%s/evil'*.map --games 2 --bestiary levels/bestiary.txt 2>&1",
		"sim '%s/lvls' --games 2 --per-game --bestiary levels/bestiary.txt 2>&1",
		"sim '%s/evil'*.map --games 2 --format csv --bestiary levels/bestiary.txt 2>&1",
		"sim '%s/evil'*.map --games 2 --heatmap - --bestiary levels/bestiary.txt 2>&1",
		"sim '%s/evil'*.map --games 2 --compare goblin.speed=100 goblin.speed=50 "
		"--bestiary levels/bestiary.txt 2>&1",
		"sim '%s/evil'*.map --games 2 --shard 1/1 --heat-counts %s/h.txt --bestiary levels/bestiary.txt "
		">%s/g.csv 2>&1; cat %s/g.csv %s/h.txt",
		"sim-report %s/g.csv %s/h.txt --heatmap - 2>&1",
		"sim-report %s/g.csv %s/h.txt --heatmap %s/h.svg 2>&1; cat %s/h.svg",
		"sim '%s/nothing\033[31m' --games 2 --bestiary levels/bestiary.txt 2>&1",
	};
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		snprintf(args, sizeof args, runs[i], t->dir, t->dir, t->dir, t->dir, t->dir);
		int st;
		char *out = run(t, args, &st);
		if (i + 1 < sizeof runs / sizeof *runs && st != 0) {
			print_error("%s: exit %d\n%.3000s\n", args, st, out);
			fail();
		}
		if (strchr(out, '\033')) {
			print_error("%s: an ESC reached the output:\n%.3000s\n", args, out);
			fail();
		}
		if (i + 1 < sizeof runs / sizeof *runs && i != 2 && i != 5)
			expect_has(out, "evil\\x1b]0;pwned\\x07\\x1b[31m");
		free(out);
	}
	/* a CSV made by hand, with the raw bytes in its level column */
	char sed[600];
	snprintf(sed, sizeof sed, "sed 's/evil\\\\x1b]0;pwned\\\\x07\\\\x1b\\[31m/%s/' %s/g.csv >%s/raw.csv && grep -c '\033' %s/raw.csv",
		 evil, t->dir, t->dir, t->dir);
	int st;
	char *text = run_capture(sed, &st);
	assert_int_equal(st, 0);
	assert_int_equal(atoi(text), 2);
	free(text);
	snprintf(args, sizeof args, "sim-report %s/raw.csv 2>&1", t->dir);
	char *out = run(t, args, &st);
	if (st != 0)
		print_error("%s: exit %d\n%.3000s\n", args, st, out);
	assert_int_equal(st, 0);
	assert_null(strchr(out, '\033'));
	expect_has(out, "evil\\x1b]0;pwned\\x07\\x1b[31m.map");
	free(out);
}

/* A level file name with a line break: sim's CSV and heat counts hold it
 * escaped on one line, so sim-report reads back what sim wrote (it used
 * to refuse the CSV, and sim the heat counts). */
static void test_sim_report_reads_a_name_with_a_line_break(void **state)
{
	struct tmp *t = *state;
	write_text(t, "new\nline.map", "type octile\nheight 6\nwidth 8\nmap\n........\n........\n........\n"
					  "........\n........\n........\n");
	char args[2000];
	snprintf(args, sizeof args,
		 "sim '%s/new'?'line.map' --games 2 --shard 1/1 --heat-counts %s/h.txt "
		 "--bestiary levels/bestiary.txt >%s/g.csv 2>&1",
		 t->dir, t->dir, t->dir);
	int st;
	free(run(t, args, &st));
	assert_int_equal(st, 0);
	snprintf(args, sizeof args, "sim-report %s/g.csv %s/h.txt --heatmap %s/h.svg 2>&1", t->dir, t->dir, t->dir);
	char *out = run(t, args, &st);
	if (st != 0)
		print_error("%s: exit %d\n%.3000s\n", args, st, out);
	assert_int_equal(st, 0);
	expect_has(out, "new\\x0aline.map (10 monsters placed from each seed)");
	free(out);
}

/* CSV quotes a name with a comma. */
static void test_bench_csv_quotes_names(void **state)
{
	struct tmp *t = *state;
	write_text(t, "a,b.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n");
	write_text(t, "q.scen", "version 1\n0\ta,b.map\t2\t2\t0\t0\t1\t1\t1.41421356\n");
	char args[600], csv[300];
	int st;
	snprintf(args, sizeof args, "bench --csv %s/out.csv %s/q.scen 2>&1", t->dir, t->dir);
	char *out = run(t, args, &st);
	assert_int_equal(st, 0);
	free(out);
	snprintf(csv, sizeof csv, "cat %s/out.csv", t->dir);
	out = run_capture(csv, &st);
	expect_has(out, "\n\"a,b.map\",1,0,0,1,1,");
	free(out);
}

/* The small misreports of issue 13. */
static void test_numbers_and_lines_are_range_checked(void **state)
{
	struct tmp *t = *state;
	write_text(t, "sealed.lvl", "astray-level 1\nname: s\ntopology: square8\nsealed: 99999999999,1\nmap:\n"
				    "#####\n#@.>#\n#####\n");
	char args[600];
	int st;
	snprintf(args, sizeof args, "check %s/sealed.lvl 2>&1", t->dir);
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "sealed.lvl:4:9: error: bad cell '99999999999,1'");
	free(out);
	write_text(t, "twice.map", "type octile\nheight 2\nheight 3\nwidth 2\nmap\n..\n..\n");
	snprintf(args, sizeof args, "check %s/twice.map 2>&1", t->dir);
	out = run(t, args, &st);
	assert_int_equal(st, 1);
	expect_has(out, "twice.map:3: error: repeated 'height' line");
	free(out);
	write_text(t, "open.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n");
	char scen[1400];
	int n = snprintf(scen, sizeof scen, "version 1\n0\topen.map\t2\t2\t0\t0\t1\t1\t1.41421356");
	while (n < 1200)
		scen[n++] = ' ';
	scen[n++] = '\n';
	scen[n] = '\0';
	write_text(t, "long.scen", scen);
	snprintf(args, sizeof args, "bench %s/long.scen 2>&1", t->dir);
	out = run(t, args, &st);
	assert_true(st != 0);
	expect_has(out, "line 2: line of 1190 bytes (at most 1023)");
	free(out);
}

/* A file name longer than 255 bytes is shown whole. */
static void test_long_file_names_whole(void **state)
{
	struct tmp *t = *state;
	char rel[400] = "", path[600];
	for (int i = 0; i < 6; i++)
		strcat(rel, "a-folder-name-of-fifty-bytes-long-enough-to-add-up/");
	snprintf(path, sizeof path, "mkdir -p %s/%s", t->dir, rel);
	assert_int_equal(system(path), 0);
	strcat(rel, "broken.lvl");
	write_text(t, rel, "not a level\n");
	char args[1000];
	snprintf(args, sizeof args, "check %s/%s 2>&1", t->dir, rel);
	int st;
	char *out = run(t, args, &st);
	assert_int_equal(st, 1);
	assert_true(strlen(rel) > 255);
	expect_has(out, rel);
	free(out);
}

/* An installed astray started in a folder that has a levels/ folder does
 * not play it: only astray's source tree's levels/ is the campaign. */
static void test_levels_folder_only_in_source_tree(void **state)
{
	struct tmp *t = *state;
	char path[300];
	snprintf(path, sizeof path, "%s/levels", t->dir);
	assert_int_equal(mkdir(path, 0700), 0);
	write_text(t, "levels/zz-not-ours.lvl", "garbage\n");
	char cp[400];
	snprintf(cp, sizeof cp, "cp levels/bestiary.txt %s/levels/", t->dir);
	assert_int_equal(system(cp), 0);
	char bin[4200], cmd[8600];
	bin_path(t, bin, sizeof bin);
	snprintf(cmd, sizeof cmd, "cd %s && timeout 60 %s </dev/null 2>&1", t->dir, bin);
	int st;
	char *out = run_capture(cmd, &st);
	assert_int_equal(st, 1);
	assert_null(strstr(out, "zz-not-ours"));
	free(out);
	/* ...while in the source tree (here) levels/ is played (checked, then
	 * refused for want of a terminal) */
	out = run(t, "</dev/null 2>&1", &st);
	assert_int_equal(st, 1);
	expect_has(out, "play needs a terminal");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_sums_lone_cells, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_caps_diagnostics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_errors_exit_1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifos_and_devices_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_files_that_are_fifos_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_lock_link_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_default_bestiary_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_echoed_file_text_is_escaped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_csv_quotes_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sim_names_from_files_are_escaped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sim_report_reads_a_name_with_a_line_break, setup, teardown),
		cmocka_unit_test_setup_teardown(test_numbers_and_lines_are_range_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_file_names_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_levels_folder_only_in_source_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_reports_lost_diagnostics, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
