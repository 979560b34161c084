/*
 * pty_check.c - the end-to-end suites' shared checks on a pty's screen:
 * failing a test with the screen dumped, and reading the status line.
 */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pty_check.h"

_Noreturn void pty_fail(struct pty *p, const char *what)
{
	char buf[8192];
	pty_dump(p, buf, sizeof buf);
	print_error("%s\n%s", what, buf);
	fail();
	abort(); /* fail() leaves the test by longjmp, or ends the program */
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

bool pty_start_shim(struct pty *p, int rows, int cols, char *const argv[], const char *shim,
		    const char *mode, long at, const char *log)
{
	char num[32];
	snprintf(num, sizeof num, "%ld", at);
	if (mode || log)
		setenv("LD_PRELOAD", shim, 1);
	if (mode) {
		setenv("FAILIO_MODE", mode, 1);
		setenv("FAILIO_AT", num, 1);
	}
	if (log)
		setenv("FAILIO_LOG", log, 1);
	bool ok = pty_start(p, rows, cols, argv);
	unsetenv("LD_PRELOAD");
	unsetenv("FAILIO_MODE");
	unsetenv("FAILIO_AT");
	unsetenv("FAILIO_LOG");
	return ok;
}

void pty_play_keys(struct pty *p, const char *keys, int wait_ms)
{
	for (const char *c = keys; *c && !p->exited; c++) {
		char s[2] = { *c, 0 }, want[32];
		snprintf(want, sizeof want, "Turn %d ", pty_turn(p) + 1); /* "Turn 5  Gold 0" */
		pty_send(p, s);
		pty_wait_text(p, *c == '>' ? "(2/2)" : want, wait_ms);
	}
}

void pty_dismiss_more(struct pty *p)
{
	char before[8192];
	for (int i = 0; i < 20 && !p->exited && pty_find(p, "--More--", NULL, NULL); i++) {
		pty_dump(p, before, sizeof before);
		pty_send(p, " ");
		if (!pty_wait_change(p, before, WAIT_MS))
			return;
		if (pty_idles(p) > 0)
			pty_wait_idle(p, WAIT_MS);
	}
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

bool pty_data_make(char *buf, size_t size, const char *tag)
{
	int n = snprintf(buf, size, "/tmp/astray-%s-test-XXXXXX", tag);
	return n > 0 && (size_t)n < size && mkdtemp(buf) != NULL;
}

bool pty_data_remove(const char *dir)
{
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
	return system(cmd) == 0;
}

void pty_expect(struct pty *p, const char *text, int ms)
{
	if (!pty_wait_text(p, text, ms)) {
		char what[160];
		snprintf(what, sizeof what, "never saw \"%s\"", text);
		pty_fail(p, what);
	}
}

int pty_data_setup(void **state)
{
	struct pty_data_test *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	if (!pty_data_make(f->data, sizeof f->data, "e2e")) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

int pty_data_teardown(void **state)
{
	struct pty_data_test *f = *state;
	if (f->running)
		pty_close(&f->p);
	bool removed = pty_data_remove(f->data);
	free(f);
	return removed ? 0 : -1;
}
