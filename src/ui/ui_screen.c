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
#include <termios.h>
#include <unistd.h>
#ifdef ASTRAY_TEST_CRASH
#include <limits.h>
#include <sys/mman.h>
#endif

#include "check.h"
#include "input.h"
#include "ui.h"
#include "ui_palette.h"
#include "ui_term.h"

#define UI_STALE_READS 20 /* unreadable-but-ready reads before the terminal counts as gone */

/*
 * The first of the two mutable file-scope variables (the second is
 * ui_fatal, below; the test build has a third, ui_test_keys): the number
 * of the last caught signal.  A handler may only store to a volatile
 * sig_atomic_t (C11 7.14.1.1), so it cannot live in a screen's struct.
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

/* ---- fatal signals ---------------------------------------------------- */

/*
 * A fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or an abort (a failed CHECK,
 * abort(), a sanitizer that aborts) cannot be noted and polled like the
 * signals above: the program cannot go on.  While a curses screen is up,
 * the handler below gives the terminal back first, with only
 * async-signal-safe calls (write, tcsetattr, sigaction, sigprocmask,
 * raise): the bytes that reset it (ui_term_reset_bytes, computed when the
 * screen started) and the terminal modes saved before curses changed
 * them.  Then it passes the signal on to the handler that was there
 * before (AddressSanitizer's, in the test build, which prints its report
 * onto the restored screen) and dies of the signal with its default
 * action, so the exit status and the core dump are those of the fault.
 *
 * A handler can reach no struct of ours, so what it needs is the second
 * mutable file-scope variable of this file: written only by
 * ui_screen_start and ui_screen_stop, while the handlers are not
 * installed (armed is set last and cleared first), and only read by the
 * handler.
 */
static const int ui_fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define UI_N_FATAL ((int)(sizeof ui_fatal_signals / sizeof ui_fatal_signals[0]))
#define UI_FATAL_STACK (64 * 1024) /* the handler's own stack: a stack overflow leaves none */

static struct {
	volatile sig_atomic_t armed;     /* a screen is up and the fields below are valid */
	int out;                         /* where the reset bytes go (the screen's output) */
	int tty;                         /* the terminal whose modes were saved; -1 none */
	struct termios modes;            /* its modes before curses started */
	char reset[512];                 /* ui_term_reset_bytes */
	size_t reset_len;
	struct sigaction old[UI_N_FATAL];/* the handlers before ours: chained to, then put back */
	void *stack;                     /* our alternate signal stack, or NULL (one was there already) */
} ui_fatal;

/* Gives the terminal back, once; async-signal-safe. */
static void ui_fatal_restore(void)
{
	if (!ui_fatal.armed)
		return;
	ui_fatal.armed = 0;
	size_t done = 0;
	while (done < ui_fatal.reset_len) {
		ssize_t w = write(ui_fatal.out, ui_fatal.reset + done, ui_fatal.reset_len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (ui_fatal.tty >= 0)
		tcsetattr(ui_fatal.tty, TCSANOW, &ui_fatal.modes);
}

static void ui_on_fatal(int signo, siginfo_t *info, void *context)
{
	int saved_errno = errno;
	ui_fatal_restore();
	int i = 0;
	while (i < UI_N_FATAL - 1 && ui_fatal_signals[i] != signo)
		i++;
	const struct sigaction *old = &ui_fatal.old[i];
	errno = saved_errno;
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction)
		old->sa_sigaction(signo, info, context);
	else if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN)
		old->sa_handler(signo);
	/* SA_RESETHAND already put the default action back; SA_NODEFER and
	 * the unblock make the raise take effect now, inside this handler */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(signo, &dfl, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, signo);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(signo);
}

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define UI_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define UI_SANITIZER 1
#endif
#endif

#ifdef UI_SANITIZER
/*
 * The sanitizers end the program without a signal (their exit code) after
 * an error they find themselves: a heap overflow, an overflow UBSan
 * traps.  AddressSanitizer calls __asan_on_error before it prints its
 * report, so the report lands on the restored screen, and its death
 * callback is ours.  GCC links UBSan as a runtime of its own, whose death
 * callback this file cannot reach; by default it is told to abort after
 * its report instead (UBSAN_OPTIONS still overrides), which the SIGABRT
 * handler turns into a restored terminal (the report itself was printed
 * on the alternate screen, which is then left: run with
 * UBSAN_OPTIONS=log_path=FILE to keep it).
 */
void __asan_on_error(void);
void __asan_on_error(void)
{
	ui_fatal_restore();
}

const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "abort_on_error=1";
}
#endif

/* Arms the fatal-signal handlers for the screen starting on out/in (its
 * modes not yet changed by curses); the reset bytes come later. */
static void ui_fatal_arm(int out, int in)
{
	memset(&ui_fatal, 0, sizeof ui_fatal);
	ui_fatal.out = out;
	ui_fatal.tty = tcgetattr(in, &ui_fatal.modes) == 0 ? in : tcgetattr(out, &ui_fatal.modes) == 0 ? out : -1;
}

/* Installs the handlers once the screen is up and the reset bytes are known. */
static void ui_fatal_install(bool mouse, bool drags)
{
	ui_fatal.reset_len = ui_term_reset_bytes(ui_fatal.reset, sizeof ui_fatal.reset, mouse, drags);
	stack_t ss, old_ss;
	if (sigaltstack(NULL, &old_ss) == 0 && (old_ss.ss_flags & SS_DISABLE) &&
	    (ui_fatal.stack = malloc(UI_FATAL_STACK)) != NULL) {
		ss.ss_sp = ui_fatal.stack;
		ss.ss_size = UI_FATAL_STACK;
		ss.ss_flags = 0;
		if (sigaltstack(&ss, NULL) != 0) {
			free(ui_fatal.stack);
			ui_fatal.stack = NULL;
		}
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = ui_on_fatal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
	ui_fatal.armed = 1;
	for (int i = 0; i < UI_N_FATAL; i++)
		sigaction(ui_fatal_signals[i], &sa, &ui_fatal.old[i]);
#ifdef UI_SANITIZER
	__sanitizer_set_death_callback(ui_fatal_restore);
#endif
}

/* Puts the handlers that were there back (the screen is being stopped). */
static void ui_fatal_disarm(void)
{
#ifdef UI_SANITIZER
	__sanitizer_set_death_callback(NULL);
#endif
	for (int i = 0; i < UI_N_FATAL; i++)
		sigaction(ui_fatal_signals[i], &ui_fatal.old[i], NULL);
	ui_fatal.armed = 0;
	if (ui_fatal.stack) {
		stack_t ss = { .ss_flags = SS_DISABLE };
		sigaltstack(&ss, NULL);
		free(ui_fatal.stack);
		ui_fatal.stack = NULL;
	}
}

#ifdef ASTRAY_TEST_CRASH
/*
 * The test build's crash hook: Ctrl-] makes the program fail as
 * $ASTRAY_TEST_CRASH says (SEGV, BUS, FPE, ILL, ABRT, CHECK, UBSAN or
 * ASAN), so the end-to-end tests can see the terminal given back after
 * each.  Release builds have neither the key nor the variable.
 */
static void ui_test_crash(void)
{
	const char *how = getenv("ASTRAY_TEST_CRASH");
	if (!how)
		return;
	if (strcmp(how, "SEGV") == 0) {
		/* a real fault: a store to a page that may not be written */
		volatile int *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page != MAP_FAILED)
			page[1] = 1;
		raise(SIGSEGV);
	} else if (strcmp(how, "BUS") == 0) {
		raise(SIGBUS);
	} else if (strcmp(how, "FPE") == 0) {
		raise(SIGFPE);
	} else if (strcmp(how, "ILL") == 0) {
		__builtin_trap();
	} else if (strcmp(how, "ABRT") == 0) {
		abort();
	} else if (strcmp(how, "CHECK") == 0) {
		volatile int zero = 0;
		CHECK(zero == 1);
	} else if (strcmp(how, "UBSAN") == 0) {
		volatile int big = INT_MAX;
		big = big + 1;
	} else if (strcmp(how, "ASAN") == 0) {
		volatile char *volatile p = malloc(4);
		if (p) {
			p[4] = 1;
			free((void *)p);
		}
	}
}
#endif

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

int ui_screen_mouse_run(MEVENT *run, int max)
{
	int n = 0;
	while (n < max && getmouse(&run[n]) == OK)
		n++;
	return n;
}

static void ui_screen_hover(bool on)
{
	refresh();
	fputs(on ? "\033[?1003h" : "\033[?1003l", stdout);
	fflush(stdout);
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
	if (s->hover)
		ui_screen_hover(true); /* and with none down: where the pointer is */
}

static void ui_mouse_off(const struct ui_tty *s)
{
	if (s->drags) {
		fputs("\033[?1002l", stdout);
		fflush(stdout);
	}
	if (s->hover)
		ui_screen_hover(false);
	mousemask(0, NULL);
}

void ui_screen_mouse_set(struct ui_tty *s, bool mouse, mmask_t clicks, bool pointer)
{
	const bool hover = mouse && pointer;
	mousemask(mouse ? clicks | (hover ? REPORT_MOUSE_POSITION : 0) : 0, NULL);
	if (hover != s->hover)
		ui_screen_hover(hover);
	s->mouse = mouse;
	s->hover = hover;
}

bool ui_screen_start(struct ui_tty *s, bool mouse, mmask_t mask, bool drags, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	setlocale(LC_CTYPE, "");
	if (!ui_term_usable(STDOUT_FILENO, err, errlen))
		return false;
	ui_fatal_arm(STDOUT_FILENO, STDIN_FILENO);
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
	s->hover = mouse && (mask & REPORT_MOUSE_POSITION);
	if (mouse)
		ui_mouse_on(s, mask);
	ui_fatal_install(s->mouse, s->drags || s->hover);
	return true;
}

void ui_screen_stop(struct ui_tty *s)
{
	if (!s->scr)
		return;
	ui_fatal_disarm();
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

void ui_screen_draw_too_small(const char *quit)
{
	char size[64];
	snprintf(size, sizeof size, "%dx%d, need %dx%d", COLS, LINES, UI_MIN_COLS, UI_MIN_ROWS);
	const char *lines[3] = { "Terminal too small", size, quit };
	int n = quit ? 3 : 2;
	for (int i = 0; i < n && i < LINES; i++) {
		int len = (int)strlen(lines[i]);
		int col = COLS > len ? (COLS - len) / 2 : 0;
		int row = LINES > n ? (LINES - n) / 2 + i : i;
		mvaddnstr(row, col, lines[i], COLS);
	}
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

#ifdef ASTRAY_TEST_IDLE
/*
 * The test build's idle marker: each time the program is about to block
 * waiting for a key - nothing typed is left to read, and the screen is
 * drawn (getch refreshes before it reads) - it writes the OSC string
 * ESC ] 7777 ; astray-idle ; N BEL to the terminal, N the number of keys
 * read so far.  A terminal ignores an OSC string it does not know
 * (libvterm, xterm and tmux do), so the screen does not change.  The
 * end-to-end tests' pty driver (tests/lib/pty_driver.c) counts the
 * markers to know that the program has taken in what it was sent and has
 * nothing left to do, instead of sleeping a fixed time.  The count is a
 * third mutable file-scope variable, in the test build only: the markers
 * of every screen the process shows count the same keys.
 */
static unsigned long ui_test_keys;

static void ui_test_idle(void)
{
	char marker[64];
	int n = snprintf(marker, sizeof marker, "\033]7777;astray-idle;%lu\007", ui_test_keys);
	size_t done = 0;
	while (n > 0 && done < (size_t)n) {
		ssize_t w = write(STDOUT_FILENO, marker + done, (size_t)n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break; /* the terminal has gone: the read below notices */
		done += (size_t)w;
	}
}

/* A key that is already there, without waiting; else the marker, then the
 * wait of timeout_ms (none when a signal came meanwhile). */
static int ui_test_getch(int timeout_ms)
{
	timeout(0);
	int ch = getch();
	if (ch != ERR || timeout_ms == 0 || ui_signal_caught)
		return ch;
	ui_test_idle();
	timeout(timeout_ms);
	return getch();
}
#endif

/* The next key already waiting, -1 when none (input_after_escape). */
static int ui_key_waiting(void *ctx)
{
	(void)ctx;
	timeout(0);
	int ch = getch();
#ifdef ASTRAY_TEST_IDLE
	if (ch != ERR)
		ui_test_keys++; /* each key ncurses gave counts, as in ui_screen_read */
#endif
	return ch == ERR ? -1 : ch;
}

int ui_screen_waiting(void)
{
	const int ch = ui_key_waiting(NULL);
	return ch < 0 ? ERR : ch;
}

void ui_screen_unread(int ch, MEVENT *mouse)
{
	if (mouse)
		ungetmouse(mouse);
	else
		ungetch(ch);
#ifdef ASTRAY_TEST_IDLE
	ui_test_keys--; /* read again, counted again */
#endif
}

int ui_screen_read(int timeout_ms, int *stale_reads)
{
#ifdef ASTRAY_TEST_IDLE
	int ch = ui_test_getch(timeout_ms);
	if (ch != ERR)
		ui_test_keys++;
#else
	timeout(timeout_ms);
	int ch = getch();
#endif
	if (ch != ERR) {
		*stale_reads = 0;
		if (ch == INPUT_ESC) {
			/* a keypad in application mode or an Alt key: the rest
			 * of the sequence is waiting already (ncurses held the
			 * bytes for ESCDELAY and gave them back unmatched) */
			int unread;
			ch = input_after_escape(ui_key_waiting, NULL, &unread);
			if (unread >= 0)
				ungetch(unread);
		}
#ifdef ASTRAY_TEST_CRASH
		if (ch == INPUT_CTRL(']'))
			ui_test_crash();
#endif
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
	if (ch > KEY_MIN) {
		/* the keypad keys only the extended names know (xterm's ka2...) */
		int k = input_key_named(keyname(ch));
		if (k >= 0)
			return k;
	}
	return ch;
}

int ui_screen_wrap(const char *text, int width, int start[], int len[], int max)
{
	int n = 0, at = 0, total = (int)strlen(text);
	if (width < 1)
		width = 1;
	while (at < total && n < max) {
		int take = total - at;
		if (take > width) {
			take = width;
			while (take > 0 && text[at + take] != ' ')
				take--;
			if (take == 0)
				take = width;
		}
		start[n] = at;
		len[n++] = take;
		at += take;
		while (at < total && text[at] == ' ')
			at++;
	}
	return n;
}
