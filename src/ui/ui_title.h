/* ui_title.h - the title screen: new dungeon, dungeon from a seed, the campaign, continue, high scores, quit. */
#ifndef ASTRAY_UI_TITLE_H
#define ASTRAY_UI_TITLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scores.h"
#include "settings.h"
#include "ui.h"

#define UI_TITLE_SCORES 5   /* high scores shown at most */

/* What the player chose, or why the screen ended. */
enum ui_title_choice {
	TITLE_NEW_DUNGEON,      /* a dungeon from a fresh seed */
	TITLE_SEEDED_DUNGEON,   /* a dungeon from the seed the player typed (*seed) */
	TITLE_CAMPAIGN,         /* the hand-made levels */
	TITLE_CONTINUE,         /* the saved game (offered only when the caller says one exists) */
	TITLE_QUIT,
	TITLE_SIGNAL,           /* SIGINT, SIGTERM: *signal_number says which */
	TITLE_HANGUP,           /* SIGHUP, or the terminal went away */
	TITLE_ERROR             /* the terminal could not be set up: err says why */
};

/* What the caller offers; every pointer is borrowed and may be NULL. */
struct ui_title_entries {
	bool can_continue;               /* a saved game exists: "Continue saved game" is shown */
	const char *continue_detail;     /* shown beside it ("turn 812"; play_save_detail), or NULL */
	int continue_rules;              /* the save's rules version when it is not this astray's (it can
	                                    only be kept: a new game leaves it beside, named with them); 0 */
	const struct score_entry *scores;/* best first; the entry "High scores" shows the top UI_TITLE_SCORES */
	int n_scores;                    /* 0: no "High scores" entry */
	bool mouse;                      /* a click on an entry chooses it */
	const char *notice;              /* a line under the menu (wrapped), or NULL */
	/* what cannot start is not offered (the notice says why): */
	bool no_dungeon;                 /* no bestiary: no "New dungeon", no "Dungeon from a seed" */
	bool no_campaign;                /* no campaign's levels: no "The campaign" */
	/* the options (the entry "Options", or O): changed in place, kept in
	 * settings_dir (NULL: not kept); NULL: no entry */
	struct settings *settings;
	const char *settings_dir;
};

/*
 * Shows the title screen on stdin/stdout until the player chooses.  Keys:
 * up/down arrows or k/j move, Enter chooses, an entry's first letter
 * chooses it, q or Esc quits; a click on an entry chooses it.  A new
 * game chosen while a game is saved (can_continue) asks first: y goes on,
 * any other key (or a click) goes back to the menu.  "Dungeon
 * from a seed" asks for a number (digits, Backspace, Enter; Esc goes
 * back) and stores it in *seed.  The screen is redrawn on resize.  The
 * terminal is restored (endwin) before it returns, whatever happened;
 * nothing is printed.
 */
enum ui_title_choice ui_title_run(const struct ui_title_entries *e, uint64_t *seed, int *signal_number,
				  char *err, size_t errlen);

#endif
