/*
 * test_help.c - every --help is laid out by the one wrapper (help.c):
 * `astray --help` and the --help of every command (DESIGN.md section 6,
 * and any command `astray --help` lists) must keep to these rules, line
 * by line:
 *   - no line is wider than HELP_WIDTH (79) columns;
 *   - a parenthesis or bracket opened on a line closes on that line
 *     (a "(" whose ")" is on a later line means the text was broken
 *     inside a parenthetical);
 *   - no line holds a single word, except a blank line and a heading: a
 *     line that starts in column 0 and ends with ':' ("options:");
 *   - in the options section (from "options:" to the next blank line)
 *     every option's text starts in one column, and no continuation
 *     line starts left of it.
 * The helpers are unit tested on small texts first (help_text,
 * help_row, help_usage), then the real binary is run (ASTRAY_BIN).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "help.h"
#include "run_capture.h"

/* The commands of DESIGN.md section 6; `astray --help` may list more. */
static const char *const design_commands[] = {
	"play", "check", "path", "sim", "bench", "gen", "edit", "replay", "scores", "sim-report",
};

/* Columns of a line of n bytes: UTF-8 continuation bytes take none. */
static int columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Words of a line: runs of characters other than spaces. */
static int words(const char *s, size_t n)
{
	int w = 0;
	for (size_t i = 0; i < n; i++)
		w += s[i] != ' ' && (i == 0 || s[i - 1] == ' ');
	return w;
}

/* Whether a '(' or '[' of the line stays open at its end. */
static bool opens_past_end(const char *s, size_t n)
{
	int paren = 0, bracket = 0;
	for (size_t i = 0; i < n; i++) {
		paren += s[i] == '(';
		bracket += s[i] == '[';
		if (s[i] == ')' && paren > 0)
			paren--;
		if (s[i] == ']' && bracket > 0)
			bracket--;
	}
	return paren > 0 || bracket > 0;
}

/* Checks text (all of one --help) by the rules above and returns how
 * many problems there were; with `say`, prints each with its line. */
static int check_layout(const char *what, const char *text, bool say)
{
	int bad = 0, lineno = 0, option_col = -1;
	bool in_options = false;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		lineno++;
		const char *why = NULL;
		size_t lead = strspn(p, " ");
		if (lead > n)
			lead = n;
		if (columns(p, n) > HELP_WIDTH)
			why = "wider than the wrap width";
		else if (opens_past_end(p, n))
			why = "a parenthesis or bracket opened here closes on a later line";
		else if (words(p, n) == 1 && !(lead == 0 && p[n - 1] == ':'))
			why = "a single word on a line";
		if (n == 0) {
			in_options = false;
		} else if (in_options && lead == 2 && p[2] == '-') {
			/* an option row: its text starts after two spaces past the names */
			const char *gap = strstr(p + 2, "  ");
			int col = gap && gap < p + n ? (int)(gap - p) + (int)strspn(gap, " ") : -1;
			if (option_col < 0)
				option_col = col;
			else if (col != option_col && !why)
				why = "an option's text starts in another column than the others'";
		} else if (in_options && (int)lead < option_col && !why) {
			why = "an option's continuation line starts left of its text";
		}
		if (lead == 0 && n == 8 && strncmp(p, "options:", 8) == 0)
			in_options = true;
		if (why && say)
			print_error("%s, line %d: %s:\n%.*s\n", what, lineno, why, (int)n, p);
		bad += why != NULL;
		p += n + (p[n] == '\n');
	}
	return bad;
}

static char *help_of(const char *args)
{
	char cmd[512];
	int st;
	snprintf(cmd, sizeof cmd, "%s %s --help </dev/null 2>&1", test_bin(), args);
	char *out = run_capture(cmd, &st);
	assert_non_null(out);
	if (st != 0)
		print_error("astray %s --help: exit status %d\n", args, st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "usage: astray"));
	return out;
}

/* Options before the command word are the command's (issue 30): astray
 * --no-save play --dungeon read "play" as a level and said --dungeon
 * wants no LEVEL; now play takes the options, and names a bad one. */
static void test_options_before_command(void **state)
{
	(void)state;
	char cmd[512];
	int st;
	snprintf(cmd, sizeof cmd, "%s --no-save play --dungeon --depth 0 </dev/null 2>&1", test_bin());
	char *out = run_capture(cmd, &st);
	assert_non_null(out);
	if (!strstr(out, "--depth wants"))
		print_error("%s\n", out);
	assert_non_null(strstr(out, "astray play: --depth wants"));
	assert_null(strstr(out, "give no LEVEL"));
	assert_int_equal(st, 2);
	free(out);
	snprintf(cmd, sizeof cmd, "%s --no-save check levels/01-first-steps.lvl </dev/null 2>&1", test_bin());
	out = run_capture(cmd, &st);
	assert_non_null(out);
	assert_non_null(strstr(out, "astray check: unknown option '--no-save'"));
	assert_int_equal(st, 2);
	free(out);
	snprintf(cmd, sizeof cmd, "%s --seed 3 play --help </dev/null 2>&1", test_bin());
	out = run_capture(cmd, &st);
	assert_non_null(out);
	assert_non_null(strstr(out, "usage: astray [play]"));
	assert_int_equal(st, 0);
	free(out);
}

/* The checker itself: each rule catches what it is for. */
static void test_checker(void **state)
{
	(void)state;
	assert_int_equal(check_layout("ok", "usage: astray x [--a A]\n\nSome words (in parens) here.\n\noptions:\n"
				      "  --a A  the a value, which is a long text of words that goes\n"
				      "         on (and on)\n  -h, --help  x y\n", false),
			 1); /* "-h, --help" starts its text elsewhere */
	assert_int_equal(check_layout("left", "options:\n  --a A  the a value\n    more of it\n", false), 1);
	assert_int_equal(check_layout("paren", "a line (no\ntitle\nscreen) ends\n", false), 2);
	assert_int_equal(check_layout("bracket", "usage: astray x [--a\nA] b\n", false), 1);
	assert_int_equal(check_layout("word", "one\n  two\nheading:\n  indented:\n", false), 3);
	char wide[100];
	memset(wide, 'x', sizeof wide);
	wide[HELP_WIDTH] = ' ';
	wide[HELP_WIDTH + 1] = 'y';
	wide[HELP_WIDTH + 2] = '\0';
	assert_int_equal(check_layout("wide", wide, false), 1);
	wide[HELP_WIDTH] = '\0';
	assert_int_equal(check_layout("wide", wide, false), 1); /* 79 columns are not too wide, but one word */
}

/* Writes what fn writes to a memory stream. */
#define CAPTURE(buf, call)                                                  \
	do {                                                                \
		size_t len_ = 0;                                            \
		FILE *out = open_memstream(&(buf), &len_);                  \
		assert_non_null(out);                                       \
		call;                                                       \
		assert_int_equal(fclose(out), 0);                           \
	} while (0)

static void test_wrapper(void **state)
{
	(void)state;
	char *t = NULL;
	/* A paragraph fills lines to the width; a parenthetical that does not
	 * fit on the rest of a line starts the next one. */
	CAPTURE(t, help_text(out, 0,
			     "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp "
			     "(qqqq rrrr) ssss tttt"));
	assert_string_equal(t, "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp\n"
			       "(qqqq rrrr) ssss tttt\n");
	free(t);
	/* ... even when its first word would fit */
	CAPTURE(t, help_text(out, 0,
			     "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn "
			     "(pppp qqqq) rrrr"));
	assert_string_equal(t, "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn\n"
			       "(pppp qqqq) rrrr\n");
	free(t);
	/* The last word is not left alone on its line. */
	CAPTURE(t, help_text(out, 4,
			     "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo zzzz"));
	assert_string_equal(t, "    aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn\n"
			       "    oooo zzzz\n");
	free(t);
	/* Blocks: a blank line, a sample as it is, a definition list. */
	CAPTURE(t, help_text(out, 0, "Intro:\n  $ astray  x\n\nab\tthe a and b\nlonger\tanother"));
	assert_string_equal(t, "Intro:\n  $ astray  x\n\n  ab      the a and b\n  longer  another\n");
	free(t);
	/* A row: the text under its column, from two spaces after a long left. */
	CAPTURE(t, help_row(out, "  --x N", 10, "one two\nsub\tthree four"));
	assert_string_equal(t, "  --x N   one two\n            sub  three four\n");
	free(t);
	CAPTURE(t, help_row(out, "  --a-long-name", 10, "text"));
	assert_string_equal(t, "  --a-long-name  text\n");
	free(t);
	/* A synopsis wraps under its first argument, brackets kept whole. */
	CAPTURE(t, help_usage(out, "x", (const char *const[]){ "A [--aaaaaaaaaaaaaaaaaaaa B] [--cccccccccccccccccccc D] "
							       "[--eeeeeeeeee F] [--g H]", "--new Z", NULL }));
	assert_string_equal(t, "usage: astray x A [--aaaaaaaaaaaaaaaaaaaa B] [--cccccccccccccccccccc D]\n"
			       "                [--eeeeeeeeee F] [--g H]\n"
			       "       astray x --new Z\n");
	free(t);
}

static void test_every_help(void **state)
{
	(void)state;
	char *top = help_of("");
	int bad = check_layout("astray --help", top, true);
	/* every command of DESIGN.md, and every one --help lists */
	const char *list = strstr(top, "\ncommands:\n");
	assert_non_null(list);
	char names[64][32];
	int n = 0;
	for (size_t i = 0; i < sizeof design_commands / sizeof design_commands[0]; i++)
		snprintf(names[n++], sizeof names[0], "%s", design_commands[i]);
	for (const char *p = list + 11; p && strncmp(p, "  ", 2) == 0 && p[2] != ' ';
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t len = strcspn(p + 2, " \n");
		bool known = false;
		for (int i = 0; i < n; i++)
			known |= strlen(names[i]) == len && strncmp(names[i], p + 2, len) == 0;
		if (!known && n < 64 && len < sizeof names[0])
			snprintf(names[n++], sizeof names[0], "%.*s", (int)len, p + 2);
	}
	free(top);
	for (int i = 0; i < n; i++) {
		char what[64];
		snprintf(what, sizeof what, "astray %s --help", names[i]);
		char *out = help_of(names[i]);
		bad += check_layout(what, out, true);
		free(out);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker),
		cmocka_unit_test(test_wrapper),
		cmocka_unit_test(test_every_help),
		cmocka_unit_test(test_options_before_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
