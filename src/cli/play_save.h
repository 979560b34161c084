/* play_save.h - play's saved game: the data folder, the journal kept while playing, resume, and a game's end (scores, death record, filing). */
#ifndef ASTRAY_PLAY_SAVE_H
#define ASTRAY_PLAY_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "journal.h"
#include "ui.h"

#define PLAY_SAVE_FILE "save.jnl"   /* the save slot, in the data folder */
#define PLAY_GAMES_DIR "games"      /* finished (or left) games and their death records */
#define PLAY_PATH 4096

/* The journal of the game being played and what became of its writes. */
struct play_save {
	char data[PLAY_PATH];      /* the data folder ("" with --no-save) */
	char path[PLAY_PATH];      /* the journal: DATA/save.jnl, or the --record file */
	bool in_slot;              /* path is the save slot (offered for resume next time) */
	bool unscored;             /* other levels or settings: kept out of the high-score list */
	char mode[24];             /* the score list it goes on ("campaign", "dungeon-10"; play_score_mode) */
	struct journal *j;         /* NULL: the game is not being saved */
	bool failed;               /* a write failed; the player was told once */
	bool snapshot_told;        /* a snapshot write failed and the player was told (once) */
	bool full_told;            /* the save is nearly full and the player was told (once) */
	bool unsaved;              /* saving is on, but this game is not saved (the slot holds another) */
	char failure[DIAG_ERR_LEN];         /* that message, printed again after the game */
};

/*
 * The data folder: dir when not NULL, else $XDG_DATA_HOME/astray or
 * ~/.local/share/astray; created (0700) when missing.  False with a
 * message naming the folder.
 */
bool play_data_dir(const char *dir, char *buf, size_t size, char *err, size_t errlen);

/* DATA/save.jnl into buf. */
void play_save_slot(const char *data, char *buf, size_t size);

/*
 * Removes the temporary files a program killed while writing the save
 * left in DATA (save.jnl.snap.tmp-XXXXXX, save.jnl.tmp-XXXXXX): never the
 * only copy of anything, and not in use, since the caller holds DATA's
 * save lock.  Returns how many were removed; one that cannot be is left.
 */
int play_save_tidy(const char *data);

/* Whether DATA/save.jnl holds a game (finished or not, readable or not). */
bool play_save_exists(const char *data);
/* What the title shows beside "Continue saved game", into buf: the game
 * turn it was saved at, or that this astray can only keep it (a save of
 * other rules, whose version goes to *other_rules, else 0); "" when the
 * journal says neither (journal_peek). */
void play_save_detail(const char *data, char *buf, size_t size, int *other_rules);

/* The score list of a game on these levels (scores_mode): a generated
 * dungeon of n levels when every level is one ("dungeon"), else the
 * campaign.  Only games play_journal_scored admits are scored at all. */
void play_score_mode(const struct journal_level *levels, int n, char *mode, size_t size);

/* A saved game read back and replayed to where it was left. */
struct play_resumed {
	struct journal_data d;
	struct journal_game jg;
	bool scored;               /* the game counts for the high-score list (play_journal_scored) */
	char mode[24];             /* and the list it goes on (play_score_mode) */
	long from_snapshot;        /* actions the snapshot covered (0: the whole journal was replayed) */
	char snapshot_note[700];   /* why DATA/save.jnl.snap was not used ("" when it was, or there was none) */
};

enum play_resume_status {
	PLAY_RESUME_READY,         /* r holds the game, replayed; msg describes it in one line */
	PLAY_RESUME_SET_ASIDE,     /* damaged or foreign: moved aside (msg says why, where) */
	PLAY_RESUME_FINISHED,      /* the game had ended: filed away (msg says where); nothing to resume */
	PLAY_RESUME_FAILED         /* the file could not even be moved aside: msg says why; do not overwrite it */
};

/*
 * Whether the game journalled in d counts for the high-score list: what
 * its `scored` record says, decided when it began (the campaign and
 * generated dungeons as they come).  A journal from before that record:
 * scored when it holds no --set overrides and its bestiary and levels are,
 * byte for byte, those of `as_they_come` (the setup of a game this run
 * would score: the installed campaign; NULL when this run has none), or
 * its levels are all generated ("dungeon") with that bestiary.
 */
bool play_journal_scored(const struct journal_data *d, const struct journal_setup *as_they_come);

/* Reads, rebuilds and replays DATA/save.jnl.  r is filled only for READY
 * (free it with play_resumed_fini).  as_they_come: play_journal_scored's. */
enum play_resume_status play_resume_load(const char *data, const struct journal_setup *as_they_come,
					 struct play_resumed *r, char *msg, size_t msglen);
void play_resumed_fini(struct play_resumed *r); /* a zeroed struct does nothing */

/* Files the save slot away as DATA/games/DATE-SEED.jnl (never replacing a
 * file); out gets the new name.  False with a message. */
bool play_save_file_away(const char *data, uint64_t seed, char *out, size_t outsize, char *err, size_t errlen);

/* Starts journalling a new game to s->path.  False with a message (the
 * caller decides whether to play on unsaved). */
bool play_save_begin(struct play_save *s, const struct journal_setup *setup, const struct game *g, char *err,
		     size_t errlen);

/* Journals on into the resumed file (torn or damaged tails are cut first). */
bool play_save_reopen(struct play_save *s, const struct play_resumed *r, char *err, size_t errlen);

/* The hooks ui_run calls (record after every action, sync when the loop stops). */
void play_save_hooks(struct play_save *s, struct ui_hooks *h);

/*
 * A game that ended (died or won): the last checksum, closes the journal,
 * adds the score, writes the death record and files both away.  Prints
 * what it did (or what failed) to out.  s->j is NULL afterwards.
 */
void play_save_finish(struct play_save *s, const struct game *g, FILE *out);

/* A game left unfinished (quit, signal, hangup): syncs and closes.  Prints
 * where it is kept to out. */
void play_save_leave(struct play_save *s, FILE *out);

/* The death record ("morgue") of a finished game, NUL-terminated (caller frees). */
char *play_morgue_text(const struct game *g, const char *journal_name, size_t *len);

/*
 * When DATA/save.jnl holds a game, offers to continue it (a question on
 * stdin/stdout, before the game screen; a title screen may ask instead
 * with play_save_exists and play_resume_load).  Returns 1 when r holds
 * the game to continue, 0 for a new game, -1 to stop (end of input, or
 * no new game wanted).  *keep_slot is set when the slot holds a file that
 * could not be moved aside: the new game must not be saved there.  A game
 * found ended (stopped at its end before it was filed) is filed now, and
 * what was done goes to `ended` (lines; "" when none), not to stdout: the
 * new game's screen would wipe it, so the caller says it where it stays.
 */
int play_resume_offer(const char *data, const struct journal_setup *as_they_come, struct play_resumed *r,
		      bool *keep_slot, char *ended, size_t endedlen);

/*
 * Asks a yes/no question on out: one key when in is a terminal, else a
 * line (ask_yes_no, ask.h).  Returns 1 for yes (Enter or an empty line
 * when default_yes), 0 for no, -1 for no answer (Esc, end of input).
 */
int play_ask(FILE *in, FILE *out, const char *question, bool default_yes);

#endif
