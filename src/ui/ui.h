/* ui.h - the terminal front end: plays a game in curses until it ends, then restores the terminal. */
#ifndef ASTRAY_UI_H
#define ASTRAY_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "settings.h"

#define UI_MIN_COLS 40  /* below this size the screen shows a notice instead of the game */
#define UI_MIN_ROWS 10

/*
 * What the caller (cmd_play) wants to hear from the loop, so the ui needs
 * no file or journal code of its own.  Every member may be NULL.
 */
struct ui_hooks {
	void *ud;
	/* After every game_act: false when something the player must know went
	 * wrong (a failing save); msg is then shown once on the message line. */
	bool (*acted)(void *ud, const struct game *g, const struct action *a, enum act_result r, char *msg,
		      size_t msglen);
	/* When the loop stops for any reason (quit, end of game, signal, hangup),
	 * before the terminal is given back: make what was saved durable. */
	void (*stopping)(void *ud, const struct game *g);
	const char *quit_prompt; /* the "really quit?" question; NULL: nothing is saved */
	/* While saving is broken: a short warning that stays on the status
	 * line ("NOT SAVED"), so a notice lost to typed-ahead keys is not the
	 * only sign; NULL when all is well (or no hook).  The quit question
	 * is then failed_quit_prompt. */
	const char *(*warning)(void *ud);
	const char *failed_quit_prompt;
};

struct ui_options {
	bool mouse;          /* enable the mouse (false: the terminal keeps its own text selection) */
	int step_delay_ms;   /* pause between two travel steps, so travel is seen and any key stops it */
	const struct ui_hooks *hooks; /* NULL: none */
	/* the options screen (O): the options file as read (NULL: the
	 * defaults), the folder it is kept in (NULL: changes last this game
	 * only); mouse and step_delay_ms above are what this run starts with
	 * (the command line may differ from the file) */
	const struct settings *settings;
	const char *settings_dir;
	bool no_colour;      /* the monochrome look even on a colour terminal */
	const char *note;    /* said on the first frame and kept in the history (a broken options file,
			      * a saved game found ended), or NULL */
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
 * One frame of g as play draws it (map, messages newer than msg_mark,
 * status line; routes of visible monsters when routes is set; notice on
 * the last message row), on the current curses screen.  For other screens
 * that show a game, such as the replay viewer.
 */
void ui_draw_game(struct game *g, bool routes, unsigned msg_mark, const char *notice);

/*
 * Watches a recorded game in the terminal: applies actions[0..n) to g (a
 * game fresh from journal_start) at a pace the viewer sets: Space pauses,
 * . steps, + and - change the speed, r shows the monsters' routes, v
 * reveals the whole level and every monster's route (`reveal` starts with
 * it on), q quits.  Restores the terminal before it returns.  UI_QUIT when the
 * viewer left, UI_SIGNAL (*signal_number says which) or UI_HANGUP when it
 * was stopped, UI_ERROR when no terminal could be set up (err says why).
 */
enum ui_outcome ui_replay_run(struct game *g, const struct action *actions, long n, bool reveal,
			      int *signal_number, char *err, size_t errlen);

/*
 * The key-press benchmark: an 80x24 curses screen written to /dev/null,
 * `n` key presses each resolved and redrawn through the same code as play:
 * the keys of `script` in turn, again from its start when it runs out
 * (NULL or "": moves to and fro), with play's hooks (saving) when hooks
 * is not NULL; samples_us[i] receives the CPU microseconds of press i.
 * Stops early when the game ends.  Returns the number of samples written,
 * or -1 when no screen could be set up (err says why).
 */
int ui_bench_keys(struct game *g, int n, const char *script, const struct ui_hooks *hooks, double *samples_us,
		  char *err, size_t errlen);

#endif
