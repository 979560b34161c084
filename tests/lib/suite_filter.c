/*
 * suite_filter.c - lets `make test` run part of a suite.  Every suite is
 * linked with -Wl,--wrap=_cmocka_run_group_tests, so its
 * cmocka_run_group_tests comes here first: ASTRAY_TEST_ONLY keeps the
 * tests whose names match one of its globs (fnmatch, separated by
 * spaces), ASTRAY_TEST_SKIP drops those that match one of its own.  A
 * test left out is neither run nor counted, so a suite run in two parts,
 * one with ONLY=G and one with SKIP=G, runs and counts every test once.
 * Without either variable the whole group runs as written; an ONLY that
 * names no test fails.
 *
 * ASTRAY_CHILD_ASAN_OPTIONS, when set, becomes ASAN_OPTIONS for the
 * programs the suite starts (its own sanitizer read its options before
 * main): make test checks leaks at the exit of every suite, and not at
 * the exit of each of the hundreds of short program runs that the cli,
 * sim and e2e suites start (a quarter of the CPU of such a run).
 */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

int __real__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
				   const size_t num_tests, CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown);
int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
				   const size_t num_tests, CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown);

/* Whether name matches one of the space-separated globs of list. */
static bool matches(const char *list, const char *name)
{
	char glob[256];
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, " ");
		if (n > 0 && n < sizeof glob) {
			memcpy(glob, p, n);
			glob[n] = '\0';
			if (fnmatch(glob, name, 0) == 0)
				return true;
		}
		p += n;
		p += strspn(p, " ");
	}
	return false;
}

int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
				   const size_t num_tests, CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown)
{
	const char *child = getenv("ASTRAY_CHILD_ASAN_OPTIONS");
	if (child && *child)
		setenv("ASAN_OPTIONS", child, 1);
	const char *only = getenv("ASTRAY_TEST_ONLY");
	const char *skip = getenv("ASTRAY_TEST_SKIP");
	if ((!only || !*only) && (!skip || !*skip))
		return __real__cmocka_run_group_tests(group_name, tests, num_tests, group_setup, group_teardown);
	struct CMUnitTest *kept = calloc(num_tests ? num_tests : 1, sizeof *kept);
	if (!kept)
		return 1;
	size_t n = 0;
	for (size_t i = 0; i < num_tests; i++) {
		const char *name = tests[i].name ? tests[i].name : "";
		if (only && *only && !matches(only, name))
			continue;
		if (skip && *skip && matches(skip, name))
			continue;
		kept[n++] = tests[i];
	}
	if (only && *only && n == 0) {
		/* a stale split (a test renamed) would otherwise pass unseen */
		print_error("suite_filter: ASTRAY_TEST_ONLY='%s' names no test of %s\n", only, group_name);
		free(kept);
		return 1;
	}
	int failed = __real__cmocka_run_group_tests(group_name, kept, n, group_setup, group_teardown);
	free(kept);
	return failed;
}
