/*
 * test_gen_cmd.c - `astray gen` through the real binary (ASTRAY_BIN): the
 * level it writes passes `astray check` without a warning, both option
 * spellings and -o give the same bytes, --help, usage errors (exit 2 and a
 * message naming the problem) and write errors (exit 1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_capture.h"

static char *run(const char *args, int *status)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s %s 2>&1", test_bin(), args);
	return run_capture(cmd, status);
}

static void test_writes_a_clean_level(void **state)
{
	(void)state;
	char path[] = "/tmp/astray-gen-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	const char *topos[] = { "square4", "square8", "hex" };
	for (int i = 0; i < 3; i++) {
		char args[512];
		int st;
		snprintf(args, sizeof args, "gen --topology %s --seed %d --depth 4 -o %s", topos[i], 10 + i, path);
		char *out = run(args, &st);
		assert_int_equal(st, 0);
		assert_string_equal(out, "");
		free(out);
		snprintf(args, sizeof args, "check %s", path);
		out = run(args, &st);
		assert_int_equal(st, 0);
		assert_non_null(strstr(out, "0 errors, 0 warnings"));
		assert_null(strstr(out, ": warning:"));
		free(out);
		/* stdout gives the same bytes, and --opt=value means --opt value */
		snprintf(args, sizeof args, "gen --topology=%s --seed=%d --depth=4", topos[i], 10 + i);
		out = run(args, &st);
		assert_int_equal(st, 0);
		size_t len;
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char buf[8192];
		len = fread(buf, 1, sizeof buf - 1, f);
		buf[len] = '\0';
		fclose(f);
		assert_string_equal(out, buf);
		assert_non_null(strstr(out, "\nauthor: astray gen\n"));
		char want[128];
		snprintf(want, sizeof want, "%s 79x23, depth 4, style ", topos[i]);
		if (i == 2)
			snprintf(want, sizeof want, "hex 39x23, depth 4, style ");
		assert_non_null(strstr(out, want));
		free(out);
	}
	unlink(path);
}

static void test_help(void **state)
{
	(void)state;
	int st;
	char *out = run("gen --help", &st);
	assert_int_equal(st, 0);
	const char *names[] = { "--topology", "--seed", "--size", "--depth", "--style", "-o FILE", "--count" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_non_null(strstr(out, names[i]));
	free(out);
	out = run("--help", &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "\n  gen "));
	free(out);
}

static void test_usage_errors(void **state)
{
	(void)state;
	static const struct {
		const char *args, *says;
	} cases[] = {
		{ "gen --seed 1", "--topology is required" },
		{ "gen --topology hex", "--seed is required" },
		{ "gen --topology cube --seed 1", "--topology wants square4, square8, hex, diamond4 or diamond8, not 'cube'" },
		{ "gen --topology hex --seed -1", "--seed wants a whole number from 0 to 18446744073709551615, not '-1'" },
		{ "gen --topology hex --seed 1 --size 10x10", "--size wants WxH, from 12x8 to 4096x4096, not '10x10'" },
		{ "gen --topology hex --seed 1 --size 40", "--size wants WxH, from 12x8 to 4096x4096, not '40'" },
		{ "gen --topology hex --seed 1 --depth 0", "--depth wants a whole number from 1 to 99, not '0'" },
		{ "gen --topology hex --seed 1 --style maze", "--style wants rooms, caves or mixed, not 'maze'" },
		{ "gen --topology hex --seed 1 --colour", "unknown option '--colour'" },
		{ "gen --topology hex --seed 1 extra", "unexpected argument 'extra'" },
		{ "gen --topology hex --seed", "--seed needs a value" },
		{ "gen --topology hex --seed 1 --count 0", "--count wants a whole number from 1 to 100000000, not '0'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int st;
		char *out = run(cases[i].args, &st);
		if (st != 2 || !strstr(out, cases[i].says) || strncmp(out, "astray gen: ", 12) != 0) {
			print_error("astray %s: exit %d, printed:\n%s", cases[i].args, st, out);
			fail();
		}
		free(out);
	}
}

static void test_write_errors(void **state)
{
	(void)state;
	int st;
	char *out = run("gen --topology square8 --seed 1 -o /nonexistent-dir/x.lvl", &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "cannot write /nonexistent-dir/x.lvl"));
	free(out);
	if (access("/dev/full", W_OK) == 0) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "%s gen --topology square8 --seed 1 2>&1 >/dev/full", test_bin());
		out = run_capture(cmd, &st);
		assert_int_equal(st, 1);
		assert_non_null(strstr(out, "cannot write standard output"));
		free(out);
	}
}

static void test_count(void **state)
{
	(void)state;
	int st;
	char *out = run("gen --topology hex --seed 5 --count 20 --size 30x16", &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "levels 20 (hex 30x16"));
	assert_non_null(strstr(out, "time_ms mean"));
	assert_non_null(strstr(out, "loops mean"));
	assert_non_null(strstr(out, "failed 0"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes_a_clean_level),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
