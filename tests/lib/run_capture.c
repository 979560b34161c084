/*
 * run_capture.c - run a command line and keep its output (run_capture.h), compiled once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "run_capture.h"

const char *test_bin(void)
{
	const char *b = getenv("ASTRAY_BIN");
	return b && *b ? b : "build/san/astray";
}

char *run_capture(const char *cmd, int *status)
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
