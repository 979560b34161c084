/*
 * test_ask.c - the questions asked on the terminal before the game's
 * screen (issue 30 item 6), through the real program ($ASTRAY_BIN) in a
 * pseudo-terminal: "Continue it?" takes one key, no Enter; Esc answers
 * nothing (the program stops, the save is kept) and is never echoed as
 * ^[; a key that is no answer asks again.  Each test has its own --data
 * folder.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"

#define SQUARE "tests/levels/e2e/square.lvl"

static void expect(struct pty_data_test *f, const char *text)
{
	pty_expect(&f->p, text, WAIT_MS);
}

/* `astray --data DIR --seed 7 --no-title ARGS...` (the campaign unless a level is given). */
static void start(struct pty_data_test *f, const char *level)
{
	char *argv[] = { (char *)pty_bin(), (char *)"play", (char *)"--seed", (char *)"7", (char *)"--data", f->data,
			 (char *)level, NULL };
	if (f->running)
		pty_close(&f->p);
	assert_true(pty_start(&f->p, 24, 80, argv));
	f->running = true;
}

/* A saved game of the square level at turn 3, left with Q y. */
static void make_save(struct pty_data_test *f)
{
	start(f, SQUARE);
	expect(f, "Turn 0");
	pty_send_idle(&f->p, "l");
	pty_send_idle(&f->p, "l");
	pty_send_idle(&f->p, "l");
	expect(f, "Turn 3");
	pty_send(&f->p, "Q");
	expect(f, "Really quit");
	pty_send(&f->p, "y");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "The game is saved in"));
}

/* y alone, with no Enter, continues the saved game. */
static void test_continue_is_one_key(void **state)
{
	struct pty_data_test *f = *state;
	make_save(f);
	start(f, SQUARE);
	expect(f, "Continue it? [y/N]");
	pty_answer(&f->p, "y"); /* no Enter */
	if (!pty_wait_text(&f->p, "Turn 3", WAIT_MS))
		pty_fail(&f->p, "y alone did not continue the game");
	if (!pty_wait_idle(&f->p, WAIT_MS))
		pty_fail(&f->p, "the continued game did not go idle");
	assert_true(pty_log_has(&f->p, "Continue it? [y/N] yes"));
}

/* Esc answers nothing: no ^[ echoed, the program stops, the save stays. */
static void test_escape_is_not_echoed(void **state)
{
	struct pty_data_test *f = *state;
	make_save(f);
	start(f, SQUARE);
	expect(f, "Continue it?");
	pty_answer(&f->p, "\033");
	if (!pty_wait_exit(&f->p, WAIT_MS))
		pty_fail(&f->p, "Esc did not answer the question");
	assert_false(pty_log_has(&f->p, "^["));
	assert_true(pty_log_has(&f->p, "(no answer)"));
	assert_true(pty_log_has(&f->p, "Nothing was started."));
	assert_false(f->p.altscreen); /* no game screen was started */
	char path[128];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
}

/* An arrow (an escape sequence) or a letter that is no answer asks again;
 * n then plays the named level unsaved. */
static void test_other_keys_ask_again(void **state)
{
	struct pty_data_test *f = *state;
	make_save(f);
	start(f, SQUARE);
	expect(f, "Continue it?");
	pty_answer(&f->p, "\033[A");
	expect(f, "Press y or n:");
	pty_answer(&f->p, "x");
	pty_answer(&f->p, "n");
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		pty_fail(&f->p, "n did not start the named level");
	if (!pty_wait_idle(&f->p, WAIT_MS))
		pty_fail(&f->p, "the game did not go idle");
	assert_true(pty_log_has(&f->p, "no\r\n"));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, pty_data_setup, pty_data_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_continue_is_one_key),
		T(test_escape_is_not_echoed),
		T(test_other_keys_ask_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
