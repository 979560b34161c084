/*
 * pty_check.c - the end-to-end suites' shared checks on a pty's screen:
 * failing a test with the screen dumped, and reading the status line.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "pty_check.h"

void pty_fail(struct pty *p, const char *what)
{
	char buf[8192];
	pty_dump(p, buf, sizeof buf);
	print_error("%s\n%s", what, buf);
	fail();
}

int pty_turn(struct pty *p)
{
	int row, col;
	if (!pty_find(p, "Turn ", &row, &col))
		return -1;
	char line[1024];
	pty_row(p, row, line, sizeof line);
	return atoi(line + col + 5);
}

const char *pty_bin(void)
{
	const char *b = getenv("ASTRAY_BIN");
	return b && *b ? b : "build/san/astray";
}

char *pty_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = calloc(1, 65536);
	size_t n = buf ? fread(buf, 1, 65535, f) : 0;
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}
