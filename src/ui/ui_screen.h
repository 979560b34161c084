/* ui_screen.h - the terminal plumbing every curses screen shares: signals, start and stop, reading keys, wrapping text. */
#ifndef ASTRAY_UI_SCREEN_H
#define ASTRAY_UI_SCREEN_H

#include <curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- signals ---------------------------------------------------------- */

#define UI_SIGNALS_MAX 16

/* What was installed before ui_screen_signals_install, to put back. */
struct ui_signals {
	struct sigaction old[UI_SIGNALS_MAX];
};

/*
 * Installs a handler that only notes the signal, for every signal whose
 * default action ends the process and that arrives from outside (a key,
 * kill, a timer, a closed pipe), and clears the note.  A signal ignored
 * when astray started (nohup) stays ignored.  Call it before curses
 * starts, so curses keeps its hands off them.  The screen's loop polls
 * ui_screen_signal (getch has a timeout and is not restarted) and leaves
 * through ui_screen_stop; the caller restores the handlers and then dies
 * of the signal (or exits 128 + its number), so the terminal is always
 * given back first.  The faults a program raises on itself (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGABRT) are ui_screen_start's: while a screen
 * is up their handler gives the terminal back and dies of the signal.
 */
void ui_screen_signals_install(struct ui_signals *s);
void ui_screen_signals_restore(const struct ui_signals *s);

/* The number of the last signal noted, 0 for none. */
int ui_screen_signal(void);

/* Notes signo as if it had arrived (a nested screen's signal, passed on). */
void ui_screen_signal_note(int signo);

/* ---- the screen ------------------------------------------------------- */

struct ui_tty {
	SCREEN *scr;   /* NULL: not started, or stopped */
	bool colour;   /* colours in use (else ui_palette's monochrome stand-ins) */
	bool mouse;    /* the mouse is on */
	bool drags;    /* motion with a button down is reported too */
	bool hover;    /* motion with no button down too (mask has REPORT_MOUSE_POSITION): the pointer's cell */
};

/*
 * Starts a curses screen on stdin/stdout: the locale, a check that TERM
 * names a usable terminal, newterm, the modes of ui_screen_modes, the
 * palette, and, when mouse is set (no --no-mouse), the mouse events in
 * mask (drags: motion while a button is down too).  Until ui_screen_stop,
 * a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) first gives
 * the terminal back (mouse reports off, attributes reset, cursor shown,
 * alternate screen left, the terminal modes from before the start), then
 * goes to the handler that was there before (the sanitizers') and ends
 * the program with that signal.  One screen at a time.  False with the
 * reason in err when the terminal cannot be used.
 */
/* The run of mouse reports one KEY_MOUSE stands for, at most max: ncurses
 * keeps the reports read at once in its queue and getmouse gives the
 * newest first (a click's release, then the pointer's motion, gives the
 * motion); returns how many, newest first (0: none). */
int ui_screen_mouse_run(MEVENT *run, int max);
/* Room for a whole run: ncurses keeps eight reports. */
#define UI_MOUSE_RUN 16

/* The mouse as the options now have it: off, or the events of `clicks`
 * and, with `pointer`, the pointer's motion with no button down (xterm's
 * mode 1003, switched on or off to match); s keeps what ui_screen_stop
 * must undo.  For the screens whose options turn the mouse and the
 * pointer on and off (the game's O, the title's Options). */
void ui_screen_mouse_set(struct ui_tty *s, bool mouse, mmask_t clicks, bool pointer);

bool ui_screen_start(struct ui_tty *s, bool mouse, mmask_t mask, bool drags, char *err, size_t errlen);

/* Gives the terminal back: the fatal-signal handlers removed, the mouse
 * off, the cursor on, endwin, and the screen freed.  Nothing when s is
 * not started. */
void ui_screen_stop(struct ui_tty *s);

/* The input modes of every screen on the current curses screen: keys one
 * at a time, no echo, keypad keys decoded, no cursor, a short Escape
 * delay unless ESCDELAY says otherwise. */
void ui_screen_modes(void);

/* Below UI_MIN_COLS x UI_MIN_ROWS a screen shows a notice instead. */
bool ui_screen_too_small(void);

/* That notice, centred on the screen however small: "Terminal too
 * small", the size and the size needed, and how to leave (`quit`, such
 * as "Q quits"; NULL: nothing). */
void ui_screen_draw_too_small(const char *quit);

/* ---- reading ---------------------------------------------------------- */

#define UI_READ_SIGNAL (-2)  /* a signal was noted: leave */
#define UI_READ_GONE (-3)    /* the terminal has gone away: leave */

/*
 * The next key within timeout_ms (negative: wait), or ERR when none came,
 * UI_READ_SIGNAL, or UI_READ_GONE when the terminal has closed (getch
 * would then fail at once forever; *stale_reads counts those reads).
 */
int ui_screen_read(int timeout_ms, int *stale_reads);

/* The key already waiting, ERR when none (no wait), and the way to give
 * one back (a mouse event: ungetmouse's): for a reader that looks ahead,
 * as the pointer's motion is read to its end.  Counted as ui_screen_read
 * counts, for the test build's idle marker. */
int ui_screen_waiting(void);
void ui_screen_unread(int ch, MEVENT *mouse);

/*
 * The loop of a screen that only waits for the user: draws with
 * draw(ud) and waits up to idle_ms for input, again after every timeout
 * or resize, until a key (returned), a mouse event (KEY_MOUSE), a noted
 * signal (UI_READ_SIGNAL, without a wait) or a closed terminal
 * (UI_READ_GONE).
 */
int ui_screen_wait(void (*draw)(void *ud), void *ud, int idle_ms, int *stale_reads);

/* curses key codes to the names input.h knows; everything else passes. */
int ui_screen_key(int ch);

/*
 * Splits text at spaces into rows of at most width cells (a word longer
 * than a row is cut), skipping the spaces between rows; fills start[] and
 * len[] and returns the rows, at most max (0 for empty text).
 */
int ui_screen_wrap(const char *text, int width, int start[], int len[], int max);

#endif
