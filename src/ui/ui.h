/* ui.h - the terminal front end: plays a game in curses until it ends, then restores the terminal. */
#ifndef ASTRAY_UI_H
#define ASTRAY_UI_H

#include <stdbool.h>
#include <stddef.h>

struct game;

#define UI_MIN_COLS 40  /* below this size the screen shows a notice instead of the game */
#define UI_MIN_ROWS 10

struct ui_options {
	bool mouse;          /* enable the mouse (false: the terminal keeps its own text selection) */
	int step_delay_ms;   /* pause between two travel steps, so travel is seen and any key stops it */
};

enum ui_outcome {
	UI_QUIT,             /* the player quit (confirmed) */
	UI_DIED,
	UI_WON,
	UI_SIGNAL,           /* SIGINT, SIGTERM or SIGHUP: *signal_number says which */
	UI_HANGUP,           /* the terminal went away (read error or end of input) */
	UI_ERROR             /* the terminal could not be set up: err says why */
};

/*
 * Plays g in the terminal on stdin/stdout until the game ends, the player
 * quits, a signal arrives or the terminal closes.  The terminal is restored
 * (endwin) before it returns, whatever happened; nothing is printed, the
 * caller reports the outcome.  *signal_number is set for UI_SIGNAL.
 */
enum ui_outcome ui_run(struct game *g, const struct ui_options *opt, int *signal_number,
		       char *err, size_t errlen);

/*
 * The key-press benchmark: an 80x24 curses screen written to /dev/null,
 * `n` key presses (moves to and fro) each resolved and redrawn through the
 * same code as play; samples_us[i] receives the CPU microseconds of press i.
 * Stops early when the game ends.  Returns the number of samples written,
 * or -1 when no screen could be set up (err says why).
 */
int ui_bench_keys(struct game *g, int n, double *samples_us, char *err, size_t errlen);

#endif
