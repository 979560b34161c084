/*
 * run_capture.h - run a shell command line and keep everything it writes to
 * stdout, for the suites that drive the real binary.  Included (not linked)
 * by the test files that use it, like pty_driver.c; include cmocka first.
 */
#ifndef ASTRAY_TEST_RUN_CAPTURE_H
#define ASTRAY_TEST_RUN_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

/* The program under test: $ASTRAY_BIN, or the sanitized build. */
static const char *test_bin(void)
{
	const char *b = getenv("ASTRAY_BIN");
	return b && *b ? b : "build/san/astray";
}

/* Runs `cmd` with /bin/sh; returns its stdout, NUL-terminated (caller
 * frees), and its exit status in *status (-1 when it did not exit). */
static char *run_capture(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 16, n = 0, k;
	char *out = malloc(cap);
	assert_non_null(out);
	while ((k = fread(out + n, 1, cap - n - 1, p)) > 0) {
		n += k;
		if (cap - n < 1024) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
	}
	out[n] = '\0';
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

#endif
