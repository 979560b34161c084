/*
 * test_opt.c - the option parser every command uses (opt.c), first on a
 * table of its own (every kind of value, both spellings, every error), then
 * through the real binary (ASTRAY_BIN): every command answers a usage error
 * alike, with exit status 2, and its --help lists what its table holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "run_capture.h"

struct t_args {
	bool flag;
	int n;
	uint64_t seed;
	double w;
	const char *file;
	struct opt_list sets;
	int mode;
	const char *pair[2];
};

static const char *const modes[] = { "one", "two", "three", NULL };

#define ARG(f) offsetof(struct t_args, f)
static const struct opt t_opts[] = {
	{ .name = "flag", .short_name = 'f', .kind = OPT_FLAG, .offset = ARG(flag), .help = "a flag" },
	{ .name = "n", .kind = OPT_INT, .offset = ARG(n), .metavar = "N", .lo = 1, .hi = 10, .help = "n" },
	{ .name = "seed", .kind = OPT_SEED, .offset = ARG(seed), .metavar = "S", .help = "seed" },
	{ .name = "w", .kind = OPT_DOUBLE, .offset = ARG(w), .metavar = "W", .lo = 0, .hi = 2, .help = "w" },
	{ .name = "file", .kind = OPT_STRING, .offset = ARG(file), .metavar = "FILE", .help = "file" },
	{ .name = "set", .kind = OPT_LIST, .offset = ARG(sets), .metavar = "K=V", .help = "set\nsecond line" },
	{ .name = "mode", .kind = OPT_CHOICE, .offset = ARG(mode), .metavar = "M", .choices = modes, .help = "m" },
	{ .name = "pair", .kind = OPT_PAIR, .offset = ARG(pair), .metavar = "A B", .help = "two" },
};
#undef ARG

static void t_usage(FILE *out)
{
	fputs("usage: t\n", out);
}

static const struct opt_command t_cmd = { "t", t_opts, (int)(sizeof t_opts / sizeof t_opts[0]), t_usage };

/* Parses a space-separated command line (argv[0] "t"); the status. */
static int parse(const char *line, struct t_args *a, struct opt_list *pos)
{
	static char buf[512];
	static char *argv[32];
	int argc = 0;
	snprintf(buf, sizeof buf, "t %s", line);
	for (char *tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	memset(a, 0, sizeof *a);
	memset(pos, 0, sizeof *pos);
	return opt_parse(&t_cmd, argc, argv, a, pos, NULL);
}

static void test_kinds_and_spellings(void **state)
{
	(void)state;
	struct t_args a;
	struct opt_list pos;
	assert_int_equal(parse("x --flag --n 3 --seed=18446744073709551615 --w=0.5 --file f y --set a=1 "
			       "--set=b=2 --mode two --pair p q z",
			       &a, &pos),
			 -1);
	assert_true(a.flag);
	assert_int_equal(a.n, 3);
	assert_true(a.seed == UINT64_MAX);
	assert_true(a.w == 0.5);
	assert_string_equal(a.file, "f");
	assert_int_equal(a.sets.n, 2);
	assert_string_equal(a.sets.v[0], "a=1");
	assert_string_equal(a.sets.v[1], "b=2");
	assert_int_equal(a.mode, 1);
	assert_string_equal(a.pair[0], "p");
	assert_string_equal(a.pair[1], "q");
	assert_int_equal(pos.n, 3);
	assert_string_equal(pos.v[0], "x");
	assert_string_equal(pos.v[1], "y");
	assert_string_equal(pos.v[2], "z");
	opt_list_fini(&a.sets);
	opt_list_fini(&pos);

	/* -f is --flag; "-" and "-1,2" are positional; "--" ends the options */
	assert_int_equal(parse("-f - -1,2 -- --n -x", &a, &pos), -1);
	assert_true(a.flag);
	assert_int_equal(a.n, 0);
	assert_int_equal(pos.n, 4);
	assert_string_equal(pos.v[0], "-");
	assert_string_equal(pos.v[1], "-1,2");
	assert_string_equal(pos.v[2], "--n");
	assert_string_equal(pos.v[3], "-x");
	opt_list_fini(&pos);
	assert_int_equal(parse("--pair=p q", &a, &pos), -1);
	assert_string_equal(a.pair[0], "p");
	assert_string_equal(a.pair[1], "q");
	opt_list_fini(&pos);
}

static void test_usage_errors(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"--nope", "--nope=1", "-z", "--flag=1", "--n", "--n 0", "--n 11", "--n=x", "--n 3x",
		"--seed -1", "--seed 1.5", "--w 2.5", "--w nan", "--w", "--mode four", "--pair p", "--file",
		"--fla", "--flags",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct t_args a;
		struct opt_list pos;
		int st = parse(bad[i], &a, &pos);
		if (st != 2)
			print_error("'%s' gave %d, not 2\n", bad[i], st);
		assert_int_equal(st, 2);
		opt_list_fini(&a.sets);
		opt_list_fini(&pos);
	}
}

static void test_cell(void **state)
{
	(void)state;
	int x = 0, y = 0;
	assert_true(opt_parse_cell("3,4", &x, &y));
	assert_int_equal(x, 3);
	assert_int_equal(y, 4);
	assert_true(opt_parse_cell("-1,-2", &x, &y));
	assert_int_equal(x, -1);
	assert_int_equal(y, -2);
	static const char *const bad[] = { "3", "3,", ",4", "3,4,5", "x,y", "3 ,4", "2000000,1", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(opt_parse_cell(bad[i], &x, &y));
}

/* Runs `astray ARGS 2>&1`. */
static char *run(const char *args, int *status)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s </dev/null 2>&1", test_bin(), args);
	return run_capture(cmd, status);
}

static void expect(const char *args, int status, const char *text)
{
	int st;
	char *out = run(args, &st);
	if (st != status || !strstr(out, text)) {
		print_error("astray %s: status %d, wanted %d and '%s'; got:\n%s", args, st, status, text, out);
		fail();
	}
	free(out);
}

static void test_binary_usage_errors(void **state)
{
	(void)state;
	static const char *const cmds[] = { "play", "check", "path", "sim", "bench" };
	char args[256], text[256];
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		snprintf(args, sizeof args, "%s --frobnicate=2 x", cmds[i]);
		snprintf(text, sizeof text, "astray %s: unknown option '--frobnicate' (see astray %s --help)\n",
			 cmds[i], cmds[i]);
		expect(args, 2, text);
		snprintf(args, sizeof args, "%s --help", cmds[i]);
		expect(args, 0, "  -h, --help");
		snprintf(args, sizeof args, "%s -h", cmds[i]);
		expect(args, 0, "usage: astray");
	}
	/* play: usage errors are 2 like everywhere, not 1; no command is play */
	expect("--nomouse", 2, "astray play: unknown option '--nomouse' (see astray play --help)");
	expect("play --seed", 2, "astray play: --seed needs a value (see astray play --help)");
	expect("play --seed x", 2, "astray play: --seed wants a whole number from 0 to 18446744073709551615, not 'x'");
	expect("play --delay=5000", 2, "astray play: --delay wants a whole number from 0 to 1000, not '5000'");
	expect("play --no-mouse=1", 2, "astray play: --no-mouse is a flag and takes no value (not '--no-mouse=1')");
	expect("play --bench-keys 0", 2, "--bench-keys wants a whole number from 1 to 1000000, not '0'");
	/* --opt=value everywhere */
	expect("check --quiet --format=json --bestiary=tests/levels/bestiary.txt levels/01-first-steps.lvl", 0,
	       "{\"summary\":{\"files\":1,");
	expect("check --format=xml levels/01-first-steps.lvl", 2, "--format wants text or json, not 'xml'");
	expect("check --quiet=yes levels/01-first-steps.lvl", 2, "--quiet is a flag");
	expect("path tests/levels/path/square.lvl 1,1 2,2 --weight=0", 0, "reached=yes");
	expect("path tests/levels/path/square.lvl 1,1 2,2 --weight -1", 2,
	       "astray path: --weight wants a number from 0 to 1000, not '-1'");
	expect("path tests/levels/path/square.lvl 1,1 2,2 --fallback=1", 2, "--fallback is a flag");
	expect("path tests/levels/path/square.lvl 1,1 2,2 --bestiary", 2, "--bestiary needs a value");
	expect("sim --games=0 levels", 2, "astray sim: --games wants a whole number from 1 to 100000000, not '0'");
	expect("sim levels --compare a", 2, "astray sim: --compare needs two values, 'A' 'B'");
	expect("sim --monsters 3: levels", 2, "--monsters wants K or K:KIND, not '3:'");
	expect("sim --player=dance levels", 2, "--player wants exit, flee, idle, fight or bot, not 'dance'");
	expect("bench --mode=nope x.scen", 2, "--mode wants auto, astar, dijkstra, fallback or jps, not 'nope'");
}

/* --bench-script: the keys --bench-keys presses, in turn; alone, a usage
 * error.  The journal of the run holds what the keys did: explore steps
 * (o) and a rest (R), none of the default moves. */
static void test_bench_script(void **state)
{
	(void)state;
	expect("play --bench-script oo", 2, "--bench-script gives the keys of --bench-keys N");
	expect("play --bench-keys 3 --bench-script=", 2, "and at least one key");
	expect("play --bench-samples /tmp/x", 2, "--bench-samples writes the times of --bench-keys N");
	expect("play --bench-mapped", 2, "--bench-mapped, --bench-exact and --bench-alone are for --bench-preview N");
	expect("play --bench-keys 3 --bench-exact", 2,
	       "--bench-mapped, --bench-exact and --bench-alone are for --bench-preview N");
	expect("play --bench-alone", 2, "--bench-mapped, --bench-exact and --bench-alone are for --bench-preview N");
	expect("play --bench-preview 3 --bench-pause 5", 2, "--bench-pause waits after --bench-mapped's map: give it too");
	expect("play --bench-preview 3 --bench-before 5", 2, "--bench-before waits before --bench-mapped's map: give it too");
	expect("play --bench-preview 3 --bench-mapped --bench-before 70000", 2, "--bench-before");
	/* the preview bench's line per kind of target, the fourth the border's */
	expect("play levels/07-the-deep.lvl --seed 1 --bench-preview 8 --bench-mapped --bench-exact", 0,
	       "bench-preview-kind: kind=border previews=2 ");
	char path[] = "/tmp/astray-bench-script-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path); /* --record wants a new file */
	char args[512];
	snprintf(args, sizeof args,
		 "play levels/07-the-deep.lvl --seed 1 --bench-keys 12 --bench-script oooR --record %s", path);
	expect(args, 0, "bench-keys: presses=12");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512];
	int explore = 0, rest = 0, moves = 0;
	while (fgets(line, sizeof line, f)) {
		explore += strncmp(line, "a e ", 4) == 0;
		rest += strncmp(line, "a r ", 4) == 0;
		moves += strncmp(line, "a m ", 4) == 0;
	}
	fclose(f);
	unlink(path);
	assert_int_equal(explore, 9);
	assert_true(rest <= 3);
	assert_int_equal(moves, 0);

	/* a generated dungeon's run replays as recorded: the game has all ten
	 * levels the journal names (with one its start hashed otherwise) */
	snprintf(args, sizeof args, "play --dungeon --seed 11 --bench-keys 40 --bench-script oooo --record %s", path);
	expect(args, 0, "bench-keys: presses=40");
	snprintf(args, sizeof args, "replay --verify %s", path);
	expect(args, 0, "levels=10");
	unlink(path);
	unlink(strcat(strcpy(line, path), ".snap"));
}

/* The options section of --help comes from the table: every option the
 * command takes is listed, each on its own line. */
static void test_help_lists_options(void **state)
{
	(void)state;
	static const struct {
		const char *cmd;
		const char *opts[12];
	} cases[] = {
		{ "play", { "--seed N", "--no-mouse", "--bestiary FILE", "--set KIND.KEY=VAL", "--monsters K",
			    "--delay MS", "--bench-keys N" } },
		{ "check", { "-q, --quiet", "--format F", "--bestiary FILE" } },
		{ "path", { "--fallback", "--explored", "--weight W", "--corners", "--bestiary FILE" } },
		{ "sim", { "--games N", "--seed S", "--player P", "--turns T", "--format F", "--per-game",
			   "--no-time", "--chase", "--set KIND.KEY=VALUE", "--bestiary FILE", "--monsters K[:KIND]",
			   "--compare 'A' 'B'" } },
		{ "bench", { "--every K", "--repeat R", "--topology T", "--mode M", "--csv FILE" } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char args[64], line[128];
		int st;
		snprintf(args, sizeof args, "%s --help", cases[i].cmd);
		char *out = run(args, &st);
		assert_int_equal(st, 0);
		for (int k = 0; k < 12 && cases[i].opts[k]; k++) {
			snprintf(line, sizeof line, "\n  %s ", cases[i].opts[k]);
			if (!strstr(out, line)) {
				print_error("astray %s: no line '%s' in:\n%s", args, cases[i].opts[k], out);
				fail();
			}
		}
		free(out);
	}
}

/*
 * A usage error is said before the save lock is asked for: with another
 * program holding DATA/save.lock (this test, by a record lock), a
 * mistyped play command still gets its usage message and status 2, not
 * "another astray is playing".  The lock is checked to be real: a
 * well-formed command on the same folder is refused for it.
 */
static void test_usage_before_lock(void **state)
{
	(void)state;
	char dir[] = "/tmp/astray-opt-lock-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char lock[128];
	snprintf(lock, sizeof lock, "%s/save.lock", dir);
	int fd = open(lock, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	assert_int_equal(fcntl(fd, F_SETLK, &fl), 0);
	char args[512];
	snprintf(args, sizeof args, "play --data %s --no-title levels/01-first-steps.lvl", dir);
	expect(args, 1, "is playing a game saved in");
	snprintf(args, sizeof args, "play --data %s --bench-script oo", dir);
	expect(args, 2, "--bench-script gives the keys of --bench-keys N");
	snprintf(args, sizeof args, "play --data %s --dungeon levels/01-first-steps.lvl", dir);
	expect(args, 2, "--dungeon makes its own levels");
	snprintf(args, sizeof args, "play --data %s --depth 3 levels/01-first-steps.lvl", dir);
	expect(args, 2, "--depth is the number of levels of --dungeon");
	close(fd);
	unlink(lock);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_and_spellings),  cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_cell),                 cmocka_unit_test(test_binary_usage_errors),
		cmocka_unit_test(test_help_lists_options),
		cmocka_unit_test(test_bench_script),
		cmocka_unit_test(test_usage_before_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
