/*
 * test_idle.c - the idle marker of the test build (ui_screen.c,
 * ASTRAY_TEST_IDLE) and the pty driver's waits built on it
 * (tests/lib/pty_driver.c): a terminal shows nothing of the marker, the
 * driver counts it, and once pty_wait_idle returns the screen shows the
 * outcome of every key sent, with no sleep anywhere.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "pty_check.h"
#include "pty_driver.h"

#define SQUARE "tests/levels/e2e/square.lvl" /* no monsters; the player starts at 3,2 */
#define MARKER "\033]7777;astray-idle;12\007"

/* libvterm takes the marker as an OSC string it does not know: no cell
 * changes, the cursor stays. */
static void test_marker_invisible_to_libvterm(void **state)
{
	(void)state;
	VTerm *vt = vterm_new(5, 40);
	assert_non_null(vt);
	vterm_set_utf8(vt, 1);
	VTermScreen *screen = vterm_obtain_screen(vt);
	vterm_screen_reset(screen, 1);
	static const char text[] = "ab" MARKER "cd" MARKER;
	vterm_input_write(vt, text, sizeof text - 1);
	char row[64] = "";
	VTermRect rect = { .start_row = 0, .end_row = 1, .start_col = 0, .end_col = 40 };
	size_t n = vterm_screen_get_text(screen, row, sizeof row - 1, rect);
	row[n] = '\0';
	while (n > 0 && row[n - 1] == ' ')
		row[--n] = '\0';
	assert_string_equal(row, "abcd");
	VTermPos cursor;
	vterm_state_get_cursorpos(vterm_obtain_state(vt), &cursor);
	assert_int_equal(cursor.row, 0);
	assert_int_equal(cursor.col, 4);
	vterm_free(vt);
}

/* Each test's pty, closed by the teardown even when an assertion jumped out. */
static int setup(void **state)
{
	struct pty *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	p->fd = -1;
	p->pid = -1;
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pty *p = *state;
	if (p->vt)
		pty_close(p);
	free(p);
	return 0;
}

static void start(struct pty *p)
{
	char *argv[] = { (char *)pty_bin(), (char *)"play", (char *)SQUARE, (char *)"--seed", (char *)"1",
			 (char *)"--no-save", NULL };
	assert_true(pty_start(p, 24, 80, argv));
	if (!pty_wait_text(p, "Turn 0", WAIT_MS))
		pty_fail(p, "the game did not start");
}

static void quit(struct pty *p)
{
	pty_send(p, "Q");
	if (!pty_wait_text(p, "Really quit", WAIT_MS))
		pty_fail(p, "no quit question");
	pty_send(p, "y");
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(p->status), 0);
}

/* The game waiting for a key writes markers; none of it shows on the screen. */
static void test_markers_counted_not_shown(void **state)
{
	struct pty *p = *state;
	start(p);
	assert_true(pty_wait_idle(p, WAIT_MS));
	assert_true(pty_idles(p) > 0);
	assert_true(pty_log_has(p, "\033]7777;astray-idle;"));
	for (int r = 0; r < p->rows; r++) {
		char line[1024];
		pty_row(p, r, line, sizeof line);
		if (strstr(line, "7777") || strstr(line, "astray-idle"))
			pty_fail(p, "the idle marker shows on the screen");
	}
	/* an idle game wakes up every 200 ms (for signals) and is idle again */
	unsigned long seen = pty_idles(p);
	assert_true(pty_wait_next_idle(p, WAIT_MS));
	assert_true(pty_idles(p) > seen);
	quit(p);
}

/* Keys sent in separate writes with no wait between, then one wait: every
 * one of them is played by the time it returns. */
static void test_wait_idle_takes_every_key(void **state)
{
	struct pty *p = *state;
	start(p);
	pty_send(p, "l");
	pty_send(p, "l");
	pty_send(p, "\033OB"); /* down, one key of three bytes */
	pty_send(p, "h");
	pty_send(p, ".");
	assert_true(pty_wait_idle(p, WAIT_MS));
	assert_int_equal(pty_turn(p), 5);
	/* a key that does nothing: the wait returns, and the turn stays */
	pty_send(p, "\033");
	assert_true(pty_wait_idle(p, WAIT_MS));
	assert_int_equal(pty_turn(p), 5);
	/* a click on the player (one write, CLICKED) waits a turn */
	int row = -1, col = -1;
	for (int r = 0; r < p->rows; r++)
		for (int c = 0; c < p->cols; c++)
			if (pty_char(p, r, c) == '@') {
				row = r;
				col = c;
			}
	assert_true(row >= 0);
	pty_click(p, 0, col, row, false);
	assert_true(pty_wait_idle(p, WAIT_MS));
	assert_int_equal(pty_turn(p), 6);
	pty_click(p, 0, col, row, true); /* press, idle, release */
	assert_true(pty_wait_idle(p, WAIT_MS));
	assert_int_equal(pty_turn(p), 7);
	quit(p);
}

/* A resize is a key (KEY_RESIZE): once idle, the new layout is drawn. */
static void test_wait_idle_after_resize(void **state)
{
	struct pty *p = *state;
	start(p);
	pty_resize(p, 30, 100);
	assert_true(pty_wait_idle(p, WAIT_MS));
	char line[1024];
	pty_row(p, 29, line, sizeof line);
	if (!strstr(line, "Turn 0"))
		pty_fail(p, "the status line is not on the new last row once idle");
	quit(p);
}

/* A program that exits instead of going idle: the wait says false at once. */
static void test_wait_idle_false_on_exit(void **state)
{
	struct pty *p = *state;
	start(p);
	pty_send(p, "Q");
	assert_true(pty_wait_idle(p, WAIT_MS));
	assert_true(pty_find(p, "Really quit", NULL, NULL));
	pty_send(p, "y");
	assert_false(pty_wait_idle(p, WAIT_MS));
	assert_true(p->exited);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marker_invisible_to_libvterm),
		cmocka_unit_test_setup_teardown(test_markers_counted_not_shown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_idle_takes_every_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_idle_after_resize, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_idle_false_on_exit, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
