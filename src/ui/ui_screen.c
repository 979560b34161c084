/*
 * ui_screen.c - the terminal plumbing of the game, the editor and the
 * title screen, said once: the signal note, starting and stopping a
 * curses screen, the mouse, and reading keys.
 */
#include "ui_screen.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "ui.h"
#include "ui_palette.h"
#include "ui_term.h"

#define UI_STALE_READS 20 /* unreadable-but-ready reads before the terminal counts as gone */

/*
 * The one mutable file-scope variable: the number of the last caught
 * signal.  A handler may only store to a volatile sig_atomic_t (C11
 * 7.14.1.1), so it cannot live in a screen's struct.
 */
static volatile sig_atomic_t ui_signal_caught;

static void ui_on_signal(int signo)
{
	ui_signal_caught = signo;
}

static const int ui_caught_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
#ifdef SIGPOLL
	SIGPOLL,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};
#define UI_N_CAUGHT ((int)(sizeof ui_caught_signals / sizeof ui_caught_signals[0]))
_Static_assert(UI_N_CAUGHT <= UI_SIGNALS_MAX, "struct ui_signals holds every caught signal");

void ui_screen_signals_install(struct ui_signals *s)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	memset(s, 0, sizeof *s);
	sa.sa_handler = ui_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a signal ends the wait in getch at once */
	ui_signal_caught = 0;
	for (int i = 0; i < UI_N_CAUGHT; i++) {
		if (sigaction(ui_caught_signals[i], NULL, &s->old[i]) != 0)
			continue;
		if (s->old[i].sa_handler == SIG_IGN)
			continue;
		sigaction(ui_caught_signals[i], &sa, NULL);
	}
}

void ui_screen_signals_restore(const struct ui_signals *s)
{
	for (int i = 0; i < UI_N_CAUGHT; i++)
		sigaction(ui_caught_signals[i], &s->old[i], NULL);
}

int ui_screen_signal(void)
{
	return (int)ui_signal_caught;
}

void ui_screen_signal_note(int signo)
{
	ui_signal_caught = signo;
}

void ui_screen_modes(void)
{
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	curs_set(0);
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
}

static void ui_mouse_on(struct ui_tty *s, mmask_t mask)
{
	mousemask(mask, NULL);
	mouseinterval(0);
	if (s->drags) {
		/* ask for motion while a button is down: ncurses asks only for
		 * clicks from xterm-like terminals */
		refresh();
		fputs("\033[?1002h", stdout);
		fflush(stdout);
	}
}

static void ui_mouse_off(const struct ui_tty *s)
{
	if (s->drags) {
		fputs("\033[?1002l", stdout);
		fflush(stdout);
	}
	mousemask(0, NULL);
}

bool ui_screen_start(struct ui_tty *s, bool mouse, mmask_t mask, bool drags, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	setlocale(LC_CTYPE, "");
	if (!ui_term_usable(STDOUT_FILENO, err, errlen))
		return false;
	s->scr = newterm(NULL, stdout, stdin);
	if (!s->scr) {
		const char *term = getenv("TERM");
		snprintf(err, errlen, "cannot use the terminal (TERM=%s)", term ? term : "unset");
		return false;
	}
	set_term(s->scr);
	ui_screen_modes();
	s->colour = ui_palette_init();
	s->mouse = mouse;
	s->drags = mouse && drags;
	if (mouse)
		ui_mouse_on(s, mask);
	return true;
}

void ui_screen_stop(struct ui_tty *s)
{
	if (!s->scr)
		return;
	if (s->mouse)
		ui_mouse_off(s);
	curs_set(1);
	endwin();
	delscreen(s->scr);
	s->scr = NULL;
}

bool ui_screen_too_small(void)
{
	return COLS < UI_MIN_COLS || LINES < UI_MIN_ROWS;
}

/* Whether the terminal has gone away (hangup, closed pty): getch then
 * keeps failing at once, so the loop must stop instead of spinning. */
static bool ui_terminal_gone(int *stale_reads)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	int r = poll(&p, 1, 0);
	if (r < 0)
		return errno != EINTR && errno != EAGAIN;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return true;
	if (r > 0 && (p.revents & POLLIN)) {
		/* ready to read, yet getch read nothing: end of input */
		if (++*stale_reads >= UI_STALE_READS)
			return true;
	} else {
		*stale_reads = 0;
	}
	return false;
}

int ui_screen_read(int timeout_ms, int *stale_reads)
{
	timeout(timeout_ms);
	int ch = getch();
	if (ch != ERR) {
		*stale_reads = 0;
		return ch;
	}
	if (ui_signal_caught)
		return UI_READ_SIGNAL;
	if (ui_terminal_gone(stale_reads))
		return UI_READ_GONE;
	return ERR;
}

int ui_screen_wait(void (*draw)(void *ud), void *ud, int idle_ms, int *stale_reads)
{
	for (;;) {
		if (ui_signal_caught)
			return UI_READ_SIGNAL;
		draw(ud);
		int ch = ui_screen_read(idle_ms, stale_reads);
		if (ch != ERR && ch != KEY_RESIZE)
			return ch;
	}
}

int ui_screen_key(int ch)
{
	static const struct {
		int curses, input;
	} keys[] = {
		{ KEY_UP, INPUT_UP },      { KEY_DOWN, INPUT_DOWN },   { KEY_LEFT, INPUT_LEFT },
		{ KEY_RIGHT, INPUT_RIGHT }, { KEY_HOME, INPUT_HOME },  { KEY_END, INPUT_END },
		{ KEY_PPAGE, INPUT_PGUP }, { KEY_NPAGE, INPUT_PGDN }, { KEY_A1, INPUT_A1 },
		{ KEY_A3, INPUT_A3 },      { KEY_B2, INPUT_B2 },       { KEY_C1, INPUT_C1 },
		{ KEY_C3, INPUT_C3 },      { KEY_ENTER, INPUT_ENTER }, { KEY_BACKSPACE, INPUT_BACKSPACE },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].curses == ch)
			return keys[i].input;
	return ch;
}
