/*
 * pty_check.c - the end-to-end suites' shared checks on a pty's screen:
 * failing a test with the screen dumped, and reading the status line.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
