/* test_palette.c - the shared colour table and terminal plumbing (ui_palette, ui_screen) on a curses screen written to /dev/null. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "input.h"
#include "ui_palette.h"
#include "ui_screen.h"

struct screen {
	FILE *out, *in;
	SCREEN *scr;
};

/* A curses screen for TERM name on /dev/null, or a skip-free failure. */
static void screen_open(struct screen *s, const char *name)
{
	s->out = fopen("/dev/null", "w");
	s->in = fopen("/dev/null", "r");
	assert_non_null(s->out);
	assert_non_null(s->in);
	s->scr = newterm(name, s->out, s->in);
	assert_non_null(s->scr);
	set_term(s->scr);
}

static void screen_close(struct screen *s)
{
	endwin();
	delscreen(s->scr);
	fclose(s->out);
	fclose(s->in);
}

static short pair_fg(attr_t a)
{
	short fg = -9, bg = -9;
	assert_int_equal(pair_content((short)PAIR_NUMBER(a), &fg, &bg), OK);
	assert_int_equal(bg, -1);
	return fg;
}

static void test_colour_roles(void **state)
{
	(void)state;
	unsetenv("NO_COLOR");
	struct screen s;
	screen_open(&s, "xterm-256color");
	assert_true(ui_palette_init());
	/* the game's conventions: walls white, water bold blue, bosses bold red */
	assert_int_equal(pair_fg(ui_palette_attr(true, UI_COL_WALL)), COLOR_WHITE);
	assert_int_equal(pair_fg(ui_palette_attr(true, UI_COL_WATER)), COLOR_BLUE);
	assert_true(ui_palette_attr(true, UI_COL_WATER) & A_BOLD);
	assert_int_equal(pair_fg(ui_palette_attr(true, UI_COL_BOSS)), COLOR_RED);
	assert_int_equal(pair_fg(ui_palette_attr(true, UI_COL_MARKER)), COLOR_GREEN);
	assert_int_equal(pair_fg(ui_palette_attr(true, UI_COL_BANNER)), COLOR_YELLOW);
	/* the editor's and the title's roles draw as the game's of the same meaning */
	assert_int_equal(ui_palette_attr(true, UI_COL_KEY) & A_COLOR, ui_palette_attr(true, UI_COL_ROUTE) & A_COLOR);
	/* the terminal's own colours need no pair */
	assert_int_equal(PAIR_NUMBER(ui_palette_attr(true, UI_COL_NONE)), 0);
	assert_int_equal(ui_palette_attr(true, UI_COL_STATUS), A_REVERSE);
	screen_close(&s);
}

static void test_monochrome(void **state)
{
	(void)state;
	setenv("NO_COLOR", "1", 1);
	struct screen s;
	screen_open(&s, "xterm-256color");
	assert_false(ui_palette_init());
	unsetenv("NO_COLOR");
	screen_close(&s);
	screen_open(&s, "vt100");
	assert_false(ui_palette_init()); /* no colours at all */
	screen_close(&s);
	/* what stands in for a colour: never a pair */
	for (int c = 0; c < UI_COL_COUNT; c++)
		assert_int_equal(ui_palette_attr(false, (enum ui_colour)c) & A_COLOR, 0);
	assert_int_equal(ui_palette_attr(false, UI_COL_BOSS), A_BOLD | A_UNDERLINE);
	assert_int_equal(ui_palette_attr(false, UI_COL_REMEMBERED), A_DIM);
	assert_int_equal(ui_palette_attr(false, UI_COL_CAUTION), A_UNDERLINE);
	assert_int_equal(ui_palette_attr(false, UI_COL_WALL), A_NORMAL);
}

static void test_keys(void **state)
{
	(void)state;
	assert_int_equal(ui_screen_key(KEY_UP), INPUT_UP);
	assert_int_equal(ui_screen_key(KEY_NPAGE), INPUT_PGDN);
	assert_int_equal(ui_screen_key(KEY_ENTER), INPUT_ENTER);
	assert_int_equal(ui_screen_key(KEY_BACKSPACE), INPUT_BACKSPACE);
	assert_int_equal(ui_screen_key('x'), 'x');
	assert_int_equal(ui_screen_key(KEY_F(1)), KEY_F(1)); /* the game alone makes F1 help */
}

static void test_signals(void **state)
{
	(void)state;
	struct sigaction ign, now;
	sigemptyset(&ign.sa_mask);
	ign.sa_flags = 0;
	ign.sa_handler = SIG_IGN;
	sigaction(SIGUSR2, &ign, NULL);
	signal(SIGUSR1, SIG_DFL);
	struct ui_signals sigs;
	ui_screen_signals_install(&sigs);
	assert_int_equal(ui_screen_signal(), 0);
	/* caught, only noted: the process lives on to give the terminal back */
	raise(SIGUSR1);
	assert_int_equal(ui_screen_signal(), SIGUSR1);
	/* ignored before: stays ignored */
	sigaction(SIGUSR2, NULL, &now);
	assert_true(now.sa_handler == SIG_IGN);
	raise(SIGUSR2);
	assert_int_equal(ui_screen_signal(), SIGUSR1);
	ui_screen_signals_restore(&sigs);
	sigaction(SIGUSR1, NULL, &now);
	assert_true(now.sa_handler == SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	/* a new screen starts with no signal noted */
	ui_screen_signals_install(&sigs);
	assert_int_equal(ui_screen_signal(), 0);
	ui_screen_signal_note(SIGTERM);
	assert_int_equal(ui_screen_signal(), SIGTERM);
	ui_screen_signals_restore(&sigs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colour_roles),
		cmocka_unit_test(test_monochrome),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
