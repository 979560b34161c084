/*
 * test_settings.c - the options file (settings.c): a good file sets every
 * option; each problem is said at its line and column and leaves the
 * default for its key while the good lines stand; a missing file is the
 * defaults without a word; a broken one the defaults with its first
 * problem; what settings_save writes, settings_load reads back.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "settings.h"

static bool parse(const char *text, struct settings *s, struct diag_list *d)
{
	memset(d, 0, sizeof *d);
	return settings_parse("o.txt", text, strlen(text), s, d);
}

static void test_good(void **state)
{
	(void)state;
	struct settings s;
	struct diag_list d;
	assert_true(parse("astray-options 1\n; mine\ndelay: 120\ncolour: off\nmouse: off\npointer: off\n", &s, &d));
	assert_int_equal(d.n, 0);
	assert_int_equal(s.delay_ms, 120);
	assert_false(s.colour);
	assert_false(s.mouse);
	assert_false(s.pointer);
	assert_true(parse("astray-options 1\ndelay: instant ; no animation\n", &s, &d));
	assert_int_equal(s.delay_ms, 0);
	assert_true(s.colour); /* not given: the default */
	assert_true(s.mouse);
	assert_true(s.pointer); /* a file from before the pointer's route: on */
}

static void test_errors_have_positions(void **state)
{
	(void)state;
	struct settings s;
	struct diag_list d;
	assert_false(parse("astray-options 1\ndelay: 2000\ncolour: off\nspeed: fast\nmouse: maybe\ncolour: on\n", &s, &d));
	assert_int_equal(d.errors, 4);
	assert_int_equal(d.items[0].line, 2);
	assert_int_equal(d.items[0].col, 8); /* at the value */
	assert_non_null(strstr(d.items[0].msg, "from 0 to 1000"));
	assert_int_equal(d.items[1].line, 4);
	assert_int_equal(d.items[1].col, 1);
	assert_non_null(strstr(d.items[1].msg, "unknown key 'speed'"));
	assert_non_null(strstr(d.items[1].msg, "delay, colour, mouse and pointer"));
	assert_int_equal(d.items[2].line, 5);
	assert_non_null(strstr(d.items[2].msg, "on or off"));
	assert_int_equal(d.items[3].line, 6);
	assert_non_null(strstr(d.items[3].msg, "given twice"));
	/* the good line stands, the bad ones keep their defaults */
	assert_false(s.colour);
	assert_int_equal(s.delay_ms, SETTINGS_DELAY_DEFAULT);
	assert_true(s.mouse);
	diag_list_fini(&d);
	assert_false(parse("delay: 5\n", &s, &d));
	assert_int_equal(d.items[0].line, 1);
	assert_non_null(strstr(d.items[0].msg, "astray-options 1"));
	diag_list_fini(&d);
}

static void test_load_and_save(void **state)
{
	(void)state;
	char dir[] = "/tmp/astray-settings-XXXXXX", path[64], msg[800], err[300];
	assert_non_null(mkdtemp(dir));
	struct settings s;
	s.delay_ms = 99;
	assert_true(settings_load(dir, &s, msg, sizeof msg)); /* missing: defaults, no word */
	assert_string_equal(msg, "");
	assert_int_equal(s.delay_ms, SETTINGS_DELAY_DEFAULT);
	snprintf(path, sizeof path, "%s/options.txt", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("astray-options 1\nmouse: off\ndelay: soon\n", f);
	fclose(f);
	assert_false(settings_load(dir, &s, msg, sizeof msg));
	assert_non_null(strstr(msg, "options.txt:3:8: error: delay"));
	assert_false(s.mouse);
	assert_int_equal(s.delay_ms, SETTINGS_DELAY_DEFAULT);
	struct settings w = { .delay_ms = 0, .colour = false, .mouse = true, .pointer = false };
	assert_true(settings_save(dir, &w, err, sizeof err));
	assert_true(settings_load(dir, &s, msg, sizeof msg));
	assert_int_equal(s.delay_ms, 0);
	assert_false(s.colour);
	assert_true(s.mouse);
	assert_false(s.pointer);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors_have_positions),
		cmocka_unit_test(test_load_and_save),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
