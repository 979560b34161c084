/*
 * test_check.c - `astray check`: the region analysis on square and hex
 * maps (tests/levels/check/NAME.lvl beside the NAME.expect it must give),
 * then the real binary (ASTRAY_BIN): exit status, --quiet, JSON lines, and
 * the shipped campaign free of errors and warnings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "level.h"
#include "run_capture.h"

static char *run(const char *args, int *status)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s %s 2>&1", test_bin(), args);
	return run_capture(cmd, status);
}

static void test_analysis_fixtures(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", &b, &d));
	DIR *dir = opendir("tests/levels/check");
	assert_non_null(dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(dir))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".lvl") != 0)
			continue;
		char path[512], expect_path[512];
		snprintf(path, sizeof path, "tests/levels/check/%s", e->d_name);
		snprintf(expect_path, sizeof expect_path, "tests/levels/check/%.*s.expect", (int)l - 4, e->d_name);
		size_t len, elen;
		char *text = level_read_file(path, &len);
		char *expect = level_read_file(expect_path, &elen);
		assert_non_null(text);
		assert_non_null(expect);
		struct level *lv = level_parse(path, text, len, &b, &d);
		assert_non_null(lv);
		int errors = level_analyse(lv, &b, &d);
		char got[8192] = "";
		size_t used = 0;
		for (int i = 0; i < d.n; i++) {
			char line[800];
			diag_format(&d.items[i], line, sizeof line);
			used += (size_t)snprintf(got + used, sizeof got - used, "%s\n", line);
		}
		if (strcmp(got, expect) != 0) {
			print_error("%s:\n--- expected\n%s--- got\n%s", path, expect, got);
			fail();
		}
		assert_int_equal(errors, d.errors);
		level_destroy(lv);
		diag_list_fini(&d);
		free(text);
		free(expect);
		n++;
	}
	closedir(dir);
	assert_true(n >= 6);
}

static void test_regions(void **state)
{
	(void)state;
	size_t len;
	char *text = level_read_file("tests/levels/check/hex-regions.lvl", &len);
	struct diag_list d = { 0 };
	struct level *lv = level_parse("hex", text, len, NULL, &d);
	assert_non_null(lv);
	int *r = malloc((size_t)lv->w * (size_t)lv->h * sizeof *r);
	assert_int_equal(level_regions(lv, r), 3);
	assert_int_equal(r[0], -1);                                   /* a wall */
	assert_int_equal(r[lv->player_y * lv->w + lv->player_x], 0); /* first in scan order */
	free(r);
	level_destroy(lv);
	free(text);
	diag_list_fini(&d);
}

static void test_binary(void **state)
{
	(void)state;
	int st;
	char *out = run("check levels/*.lvl", &st);
	assert_int_equal(st, 0);
	assert_null(strstr(out, "error:"));
	assert_null(strstr(out, "warning:")); /* the campaign is clean */
	assert_non_null(strstr(out, "it will scroll"));
	free(out);

	out = run("check --bestiary tests/levels/bestiary.txt tests/levels/check/square-exit.lvl", &st);
	assert_int_equal(st, 1);
	/* errors first: what stops play, then the warnings */
	assert_string_equal(out, "tests/levels/check/square-exit.lvl:7:6: error: exit '>' at 5,1 cannot be reached from the player start\n"
				 "tests/levels/check/square-exit.lvl:7:6: warning: region of 1 cell unreachable from the player start (cell 5,1 is one of them)\n"
				 "checked 1 file: 1 error, 1 warning, 0 notes\n");
	free(out);

	out = run("check --quiet --bestiary tests/levels/bestiary.txt tests/levels/check/square-exit.lvl", &st);
	assert_int_equal(st, 1);
	assert_string_equal(out, "tests/levels/check/square-exit.lvl:7:6: error: exit '>' at 5,1 cannot be reached from the player start\n");
	free(out);

	out = run("check --quiet levels/01-first-steps.lvl", &st);
	assert_int_equal(st, 0);
	assert_string_equal(out, "");
	free(out);

	out = run("check --format json --bestiary tests/levels/bestiary.txt tests/levels/errors/unknown-topology.lvl", &st);
	assert_int_equal(st, 1);
	assert_string_equal(out, "{\"file\":\"tests/levels/errors/unknown-topology.lvl\",\"line\":3,\"col\":11,\"x\":-1,\"y\":-1,"
				 "\"severity\":\"error\",\"code\":\"unknown-topology\","
				 "\"message\":\"unknown topology 'triangle' (expected square4, square8, hex, diamond4 or diamond8)\"}\n"
				 "{\"summary\":{\"files\":1,\"errors\":1,\"warnings\":0,\"notes\":0}}\n");
	free(out);

	/* a cell's problem carries its cell and code */
	out = run("check --format json --bestiary tests/levels/bestiary.txt tests/levels/check/square-exit.lvl", &st);
	assert_int_equal(st, 1);
	assert_string_equal(out, "{\"file\":\"tests/levels/check/square-exit.lvl\",\"line\":7,\"col\":6,\"x\":5,\"y\":1,"
				 "\"severity\":\"error\",\"code\":\"exit-unreachable\","
				 "\"message\":\"exit '>' at 5,1 cannot be reached from the player start\"}\n"
				 "{\"file\":\"tests/levels/check/square-exit.lvl\",\"line\":7,\"col\":6,\"x\":5,\"y\":1,"
				 "\"severity\":\"warning\",\"code\":\"region-unreachable\","
				 "\"message\":\"region of 1 cell unreachable from the player start (cell 5,1 is one of them)\"}\n"
				 "{\"summary\":{\"files\":1,\"errors\":1,\"warnings\":1,\"notes\":0}}\n");
	free(out);
	out = run("check --format json tests/levels/bestiary/twice.txt", &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "\"code\":\"bestiary\""));
	free(out);

	out = run("check levels/bestiary.txt tests/levels/bestiary/twice.txt", &st);
	assert_int_equal(st, 1); /* bestiaries are checked too */
	assert_non_null(strstr(out, "twice.txt:4:7: error: kind 'rat' is defined twice"));
	free(out);

	/* Moving AI maps: the player lands in the largest region, the pocket is reported */
	out = run("check tests/levels/check/pocket.map", &st);
	assert_int_equal(st, 0);
	assert_string_equal(out, "tests/levels/check/pocket.map:6:5: warning: region of 2 cells unreachable from the player start (cell 4,1 is one of them)\n"
				 "checked 1 file: 0 errors, 1 warning, 0 notes\n");
	free(out);

	free(run("check no/such/file.lvl", &st));
	assert_int_equal(st, 1);
	free(run("check", &st));
	assert_int_equal(st, 2);
	free(run("check --format xml levels/01-first-steps.lvl", &st));
	assert_int_equal(st, 2);
	free(run("check --frobnicate levels/01-first-steps.lvl", &st));
	assert_int_equal(st, 2);
	out = run("check --help", &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "usage: astray check"));
	free(out);
}

static bool is_symptom(const struct diag *d)
{
	return strcmp(d->code, "no-player") == 0 || strcmp(d->code, "no-exit") == 0;
}

/* Checks the diagnostics of one fixture come cause first; *layout is set
 * when the file has a row layout error. */
static void assert_cause_first(const char *path, const struct diag_list *d, bool *layout)
{
	bool symptom_seen = false;
	*layout = false;
	for (int i = 0; i < d->n; i++) {
		const struct diag *x = &d->items[i];
		if (!x->code[0]) {
			print_error("%s: diagnostic %d has no code: %s\n", path, i, x->msg);
			fail();
		}
		if (i > 0 && x->severity < d->items[i - 1].severity) {
			print_error("%s: a %s after a %s: %s\n", path, diag_severity_name(x->severity),
				    diag_severity_name(d->items[i - 1].severity), x->msg);
			fail();
		}
		if (x->severity == DIAG_ERROR && !is_symptom(x) && symptom_seen) {
			print_error("%s: a missing start or exit comes before its cause: %s\n", path, x->msg);
			fail();
		}
		symptom_seen |= is_symptom(x);
		*layout |= strncmp(x->code, "layout-", 7) == 0;
		/* a cell's diagnostic names a cell on its own line */
		if (x->x >= 0 || x->y >= 0)
			assert_true(x->x >= 0 && x->y >= 0 && x->line > x->y);
	}
}

/* Every fixture, errors and analysis alike, in cause-first order: errors
 * before warnings before notes, a missing start or exit after every other
 * error, and a row layout error with no missing start or exit after it
 * where the start and exit are on the rows it concerns (the *-no-lead and
 * *-stray fixtures). */
static void test_cause_first(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", &b, &d));
	const char *const dirs[] = { "tests/levels/errors", "tests/levels/check" };
	int n = 0, layouts = 0;
	for (int k = 0; k < 2; k++) {
		DIR *dir = opendir(dirs[k]);
		assert_non_null(dir);
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t l = strlen(e->d_name);
			if (l < 5 || strcmp(e->d_name + l - 4, ".lvl") != 0)
				continue;
			char path[512];
			snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
			size_t len;
			char *text = level_read_file(path, &len);
			assert_non_null(text);
			struct level *lv = level_parse(path, text, len, &b, &d);
			if (lv)
				level_analyse(lv, &b, &d);
			bool layout;
			assert_cause_first(path, &d, &layout);
			if (strstr(e->d_name, "-no-lead") || strstr(e->d_name, "-stray")) {
				assert_true(layout);
				for (int i = 0; i < d.n; i++)
					if (is_symptom(&d.items[i])) {
						print_error("%s: %s\n", path, d.items[i].msg);
						fail();
					}
				layouts++;
			}
			level_destroy(lv);
			diag_list_fini(&d);
			free(text);
			n++;
		}
		closedir(dir);
	}
	assert_true(n >= 45);
	assert_true(layouts >= 4);
}

/* The one-row diamond4 corridor: the exit's error comes first and says
 * why, and the corridor's lone cells are one line, not one each. */
static void test_diamond4_corridor(void **state)
{
	(void)state;
	int st;
	char *out = run("check --quiet --bestiary tests/levels/bestiary.txt tests/levels/check/diamond4-corridor.lvl", &st);
	assert_int_equal(st, 1);
	assert_non_null(strstr(out, "error: exit '>' at 13,2 cannot be reached from the player start: on diamond4"));
	free(out);
	out = run("check --bestiary tests/levels/bestiary.txt tests/levels/check/diamond4-corridor.lvl", &st);
	int singles = 0;
	for (const char *p = out; (p = strstr(p, "region of 1 cell")); p++)
		singles++;
	assert_int_equal(singles, 1);
	assert_non_null(strstr(out, "8 floor cells stand alone"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_analysis_fixtures),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_cause_first),
		cmocka_unit_test(test_diamond4_corridor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
