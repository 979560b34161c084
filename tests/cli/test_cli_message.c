/*
 * test_cli_message.c - cli_message on a terminal breaks its lines between
 * words at the terminal's width (a player reads "rules version 19" whole,
 * not "rules ver" and "sion 19" where the terminal's edge fell); to a pipe
 * or a file it writes the text as it is.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

static const char MSG[] =
	"The saved game was played under rules version 18 (astray 0.1.0); this astray plays rules "
	"version 19 and cannot resume it.\nIt is kept, unchanged, as "
	"/home/someone/.local/share/astray/save.jnl.rules18-1: replay it with the astray that wrote it.";

/* What cli_message writes to a terminal of `cols` columns, as read on the
 * terminal's other side (its output processing off: "\n" stays "\n"). */
static char *through_terminal(int cols)
{
	int master, slave;
	struct winsize ws = { .ws_row = 24, .ws_col = (unsigned short)cols };
	assert_int_equal(openpty(&master, &slave, NULL, NULL, &ws), 0);
	struct termios t;
	assert_int_equal(tcgetattr(slave, &t), 0);
	t.c_oflag &= ~(tcflag_t)OPOST;
	assert_int_equal(tcsetattr(slave, TCSANOW, &t), 0);
	FILE *out = fdopen(slave, "w");
	assert_non_null(out);
	cli_message(out, "astray", MSG);
	assert_int_equal(fclose(out), 0);
	char *buf = calloc(4096, 1);
	assert_non_null(buf);
	size_t got = 0;
	ssize_t k;
	while (got < 4095 && (k = read(master, buf + got, 4095 - got)) > 0)
		got += (size_t)k;
	close(master);
	return buf;
}

static void test_lines_break_between_words(void **state)
{
	(void)state;
	static const int widths[] = { 40, 60, 80, 100 };
	for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
		const int cols = widths[w];
		char *text = through_terminal(cols);
		assert_true(strncmp(text, "astray: The saved game", 22) == 0);
		/* every line fits, or is one word (the path) alone */
		int lines = 0;
		for (char *line = text, *nl; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			assert_non_null(nl);
			const int len = (int)(nl - line);
			if (len > cols) {
				assert_null(memchr(line, ' ', (size_t)len));
				assert_non_null(strstr(line, "save.jnl.rules18-1"));
			}
			assert_true(len == 0 || line[len - 1] != ' '); /* no space left at a break */
			lines++;
		}
		assert_true(lines >= (int)(sizeof MSG - 1) / cols);
		/* the words, in order, none cut: the text with its breaks made spaces again */
		char *flat = strdup(text + 8);
		assert_non_null(flat);
		for (char *p = flat; *p; p++)
			if (*p == '\n')
				*p = ' ';
		char *want = malloc(sizeof MSG + 1);
		assert_non_null(want);
		snprintf(want, sizeof MSG + 1, "%s ", MSG);
		for (char *p = want; *p; p++)
			if (*p == '\n')
				*p = ' ';
		assert_string_equal(flat, want);
		free(want);
		free(flat);
		free(text);
	}
}

/* Not a terminal: the message as it is, on one line but its own newline. */
static void test_pipe_unchanged(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	cli_message(out, "astray", MSG);
	assert_int_equal(fclose(out), 0);
	char want[sizeof MSG + 16];
	snprintf(want, sizeof want, "astray: %s\n", MSG);
	assert_string_equal(buf, want);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_break_between_words),
		cmocka_unit_test(test_pipe_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
