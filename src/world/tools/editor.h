/* editor.h - a level being edited: painting, undo and redo, live diagnostics and routes, without a terminal. */
#ifndef ASTRAY_EDITOR_H
#define ASTRAY_EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bestiary.h"
#include "diag.h"
#include "grid.h"
#include "level.h"
#include "path.h"

/*
 * The editor holds the map as one glyph per cell, exactly the characters a
 * level file has at that cell (' ' void, '#', '.', ',', '~', '+', '>', '@',
 * '!', '$', or a monster letter).  Every change goes through the functions
 * below; each call (or each begin/end group) is one undo step.  What is
 * derived from the map (the struct level, the diagnostics of `astray
 * check`, the marker route, the monsters' routes) is recomputed on the
 * first read after a change, so a stroke of many cells pays once.
 */
struct editor;

/*
 * An editor on a copy of lv (lv is not kept).  `b` (may be NULL: then any
 * letter is a monster) is borrowed and must outlive the editor; it names
 * monsters in messages and says which letters may be painted.  `file` is
 * the name messages use.  NULL on no memory.
 */
struct editor *editor_create(const struct level *lv, const struct bestiary *b, const char *file);

/*
 * An editor on a new w x h level of topology `topo` named `name`: a wall
 * around floor, with neither start nor exit yet (so the diagnostics at
 * once say what is missing).  NULL on a bad size (1..LEVEL_MAX_SIDE) or no memory.
 */
struct editor *editor_new(enum grid_topology topo, int w, int h, const char *name,
			  const struct bestiary *b, const char *file);

void editor_destroy(struct editor *ed); /* NULL does nothing */

int editor_width(const struct editor *ed);
int editor_height(const struct editor *ed);
enum grid_topology editor_topology(const struct editor *ed);
const char *editor_file(const struct editor *ed);

/* The glyph at (x, y); ' ' outside the map. */
char editor_glyph(const struct editor *ed, int x, int y);

/* Whether c may be painted: a glyph of the format, a letter only when the
 * bestiary has a kind with it. */
bool editor_glyph_ok(const struct editor *ed, char c);

/*
 * Every glyph that may be painted, in palette order (terrain, door, start,
 * exit, items, then each monster kind of the bestiary), NUL-terminated,
 * into buf (room for 64).  Returns the count.
 */
int editor_palette(const struct editor *ed, char *buf, size_t size);

/* What a glyph is ("wall", "goblin", ...), for the palette and messages. */
const char *editor_glyph_name(const struct editor *ed, char c);

/*
 * Edits.  Each returns the number of cells changed (0: nothing changed and
 * no undo step was made), or -1 for a glyph editor_glyph_ok refuses or no
 * memory.  Cells outside the map are skipped (a line or rectangle is
 * clipped).  Painting '@' moves the start: the old '@' becomes floor, in
 * the same undo step.
 */
int editor_paint(struct editor *ed, int x, int y, char glyph);
/* The cells of a line from (x0, y0) to (x1, y1) that a mover of this
 * topology would step through (square4: no diagonal steps); nothing when
 * (x0, y0) is outside the map, and (x1, y1) is clamped into it. */
int editor_line(struct editor *ed, int x0, int y0, int x1, int y1, char glyph);
/* The rectangle with these corners (in cells): its outline, or filled. */
int editor_rect(struct editor *ed, int x0, int y0, int x1, int y1, char glyph, bool filled);
/* Flood fill from (x, y): every cell of the same glyph connected to it by
 * the topology's edge neighbours (square8 fills 4-connected, so a fill
 * never leaks through a diagonal gap in a wall). */
int editor_fill(struct editor *ed, int x, int y, char glyph);

/*
 * A clip: the glyphs of a rectangle of cells, row by row, for copy,
 * paste (a stamp), stamp and mirror.  Zero it before the first use.
 */
struct editor_clip {
	int w, h;
	char *glyphs;        /* w * h file glyphs, or NULL: empty */
};
void editor_clip_free(struct editor_clip *c); /* and zeroes it */
/* The rectangle with these corners, clipped to the map, into out (what
 * it held is replaced).  False when none of it is on the map, or no
 * memory (out unchanged). */
bool editor_copy(const struct editor *ed, int x0, int y0, int x1, int y1, struct editor_clip *out);
/* Turns the clip over: left to right, or top to bottom.  On hex and
 * diamond maps the cells mirror by their places in the rows (each row's
 * half-cell shift stays with the row). */
void editor_clip_mirror(struct editor_clip *c, bool left_right);
/* Stamps the clip with its top-left cell at (x, y), as one undo step; its
 * cells off the map are skipped.  A start ('@') in the clip moves the
 * start there.  Returns the cells changed, or -1 (no memory, or a glyph
 * this bestiary cannot paint: nothing changed). */
int editor_stamp(struct editor *ed, const struct editor_clip *c, int x, int y);
/* Mirrors the rectangle with these corners in place (editor_copy,
 * editor_clip_mirror, editor_stamp): one undo step; the cells changed. */
int editor_mirror(struct editor *ed, int x0, int y0, int x1, int y1, bool left_right);

/*
 * Groups every edit until the matching editor_end into one undo step (a
 * mouse stroke).  Groups nest; only the outermost counts.
 */
void editor_begin(struct editor *ed);
void editor_end(struct editor *ed);

/* Undo or redo one step; false when there is none. */
bool editor_undo(struct editor *ed);
bool editor_redo(struct editor *ed);
int editor_undo_count(const struct editor *ed);
int editor_redo_count(const struct editor *ed);

/*
 * The undo history's memory cap: when a step takes the history (its cell
 * changes, and the whole states a header edit or a resize keeps) past
 * it, the oldest steps are dropped until it fits again; the newest step
 * is always kept, whatever its size.  EDITOR_UNDO_CAP at the start (a
 * fill of a 4096x4096 level takes about 130 MB).  0 means no cap.
 */
#define EDITOR_UNDO_CAP ((size_t)256 << 20)
void editor_set_undo_cap(struct editor *ed, size_t bytes);
size_t editor_undo_cap(const struct editor *ed);
/* The bytes the history holds now, as the cap counts them. */
size_t editor_undo_bytes(const struct editor *ed);
/* The oldest steps dropped since the last call (then 0 until more are
 * dropped), for a word to the user; `all` (may be NULL) gets the number
 * dropped since the start. */
int editor_undo_dropped(struct editor *ed, long *all);

/* Whether the map differs from what was last saved (or loaded). */
bool editor_modified(const struct editor *ed);
void editor_mark_saved(struct editor *ed);

/*
 * Keeps the whole-line `;` comments of a level file's header (after its
 * first line, before `map:`), which the model does not hold, so that
 * editor_write puts them back: under the first line, in their order,
 * before the header keys.  A line with a byte the format refuses is left
 * out.  False on no memory (nothing kept).
 */
bool editor_keep_comments(struct editor *ed, const char *text, size_t len);

/*
 * The level as it is now, in the .lvl format (header kept from the level
 * loaded: name, author, description, sealed, and the comments kept by
 * editor_keep_comments), NUL-terminated, caller
 * frees.  level_parse gives back the same map.  NULL on no memory.
 */
char *editor_write(struct editor *ed, size_t *len);

/*
 * Writes editor_write's text to `path` so that a crash or a full disk never
 * leaves half a file: a temporary file beside it, fsync, the previous
 * version kept as `path~` (with `backup`: a hard link, left out where the
 * file system makes none; any other failure to keep it fails the save),
 * rename over `path`, fsync of the folder.  On success the editor counts
 * as saved (when `mark`).  On failure returns false with the reason in
 * err, and `path` is untouched.
 */
bool editor_save(struct editor *ed, const char *path, bool backup, bool mark, char *err,
		 size_t errlen);

/*
 * The level as it is now, as the game and `astray check` see it; owned by
 * the editor and valid until the next change.  Its map_line is the line of
 * the map in editor_write's text, so diagnostics name lines of the saved
 * file.  NULL on no memory.
 */
const struct level *editor_level(struct editor *ed);

/*
 * The diagnostics `astray check` gives the level as it is now: a missing
 * start or exit (as the parser says it), then level_analyse.  Owned by the
 * editor, valid until the next change.
 */
const struct diag_list *editor_diags(struct editor *ed);

/* The map cell diagnostic i is about, or false when it names none. */
bool editor_diag_cell(struct editor *ed, int i, int *x, int *y);

/* Route options: those of `astray path`. */
struct editor_route_options {
	bool fallback;       /* through walls at a penalty, the walk cut before the first */
	bool explored;       /* keep which cells the search expanded */
	bool corners;        /* square8: diagonal steps past a wall corner */
	double weight;       /* 1 A*, > 1 weighted, 0 Dijkstra */
};

/* The route between the two markers, as `astray path` finds it. */
struct editor_route {
	bool active;         /* both markers placed */
	enum path_status status;
	const int *cells;    /* cell indices from marker A to the end of the walk */
	int len;
	double cost;
	int steps;
	long expanded;
	bool reached;
	int end;             /* last cell of the walk */
};

void editor_route_set_options(struct editor *ed, const struct editor_route_options *opt);
struct editor_route_options editor_route_get_options(const struct editor *ed);
/* Marker 0 (the start, A) or 1 (the goal, B) at (x, y); x < 0 removes it. */
void editor_set_marker(struct editor *ed, int which, int x, int y);
bool editor_marker(const struct editor *ed, int which, int *x, int *y);
/* The route for the map as it is now; owned by the editor, valid until the next change. */
const struct editor_route *editor_route(struct editor *ed);
/* With the explored option: whether the last route search expanded the cell. */
bool editor_route_explored(struct editor *ed, int x, int y);

/*
 * Every monster's route to the player start (the cheapest, as a monster
 * plans on the true map), computed on demand.  Returns the number of
 * monsters (scan order, as in editor_level), 0 without a start.
 */
int editor_monster_routes(struct editor *ed);
/* Monster i: its cell, and its route (cells from the monster to the start)
 * or reachable = false, cells NULL and len 0 when it can never reach the
 * start. */
bool editor_monster_route(struct editor *ed, int i, int *x, int *y, const int **cells, int *len,
			  bool *reachable);

/*
 * What each monster's own mind would do at the level's start, with the
 * player standing on the start (docs/edit.md, "Monster plans"): the
 * game's own AI (ai_decide, through game_act) plays the level in a scratch
 * game where the player waits and no blow hurts, every monster but the
 * ambushers knowing where the player stands each turn (ai_mind_alert, as
 * `sim --chase` tells them), until no monster has stepped or dug for
 * EDITOR_PLAN_QUIET turns or EDITOR_PLAN_TURNS have passed.  Computed on
 * demand; valid until the next change.
 */
#define EDITOR_PLAN_QUIET 12
#define EDITOR_PLAN_TURNS 400
/* ... and at most this many monster-turns in all (turns times monsters),
 * so that a crowded level's plans stay a fraction of a second: its
 * monsters' first EDITOR_PLAN_WORK / monsters turns (editor_monster_plan_turns). */
#define EDITOR_PLAN_WORK 3000
/* Past this many monsters each would be played for less than two turns,
 * a first step and no plan, while the scratch game of a large level costs
 * seconds and gigabytes (4096x4096, 66,831 monsters: 2.9 GB of address
 * space): the view (`r`) plays no plans and draws each monster's route to
 * the start.  `astray path --as` still plays its one monster's. */
#define EDITOR_PLAN_MONSTERS (EDITOR_PLAN_WORK / 2)
struct editor_monster_plan {
	int x, y;            /* its cell on the map */
	int mind;            /* its kind's enum mind_kind; -1 for a letter the bestiary does not know (no plan) */
	const int *walk;     /* the cells it walks, its own first (cell = y * w + x); NULL when walk_len is 0 */
	int walk_len;
	const int *dug;      /* the walls it digs into rubble on the way, in order; NULL when n_dug is 0 */
	int n_dug;
	int post;            /* the cell its mind holds at the end: a pack member's post, an ambusher's lair,
	                        a ranged monster's firing spot; -1 none */
	int strike;          /* the cell it first struck the player from (a blow or a shot); -1 none */
	int strike_turn;     /* the player's turn (1 the first) of that strike: when it arrives; 0 none */
	int settle_turn;     /* the turn of its last step or dig (at its post, or where it strikes from); 0 never moved */
	bool asleep;         /* still asleep at the end (an ambusher of a kind that may sleep) */
};
/* Plays the scratch game when the map changed; the number of monsters (as
 * in editor_level), 0 without a start, an exit or a bestiary. */
int editor_monster_plans(struct editor *ed);
/* Monster i's plan; false when there is none (i out of range). */
bool editor_monster_plan(struct editor *ed, int i, struct editor_monster_plan *out);
/* The turns the plans were played for, and whether the work limit cut them short. */
int editor_monster_plan_turns(struct editor *ed, bool *cut);

/* ---- sight ---- */

/*
 * The sight view: the game's own line of sight (fov.h) over the map as
 * it is now, doors shut.  editor_sight marks in out (w * h bytes) every
 * cell seen from (x, y) within `radius` and returns how many, or -1 (off
 * the map, no memory).  Sight is symmetric between cells one can see
 * through, so the cells a start sees within a radius are the cells from
 * which a monster of that sight sees the start.
 */
int editor_sight(struct editor *ed, int x, int y, int radius, uint8_t *out);
/* The sight radius of the monster on (x, y) (its kind's), or -1 when no
 * known monster stands there. */
int editor_sight_radius(const struct editor *ed, int x, int y);
/* The widest sight of the monsters on the map (of the bestiary's kinds
 * when the map has none); 0 without a bestiary. */
int editor_sight_widest(const struct editor *ed);
/* Whether (ax, ay) sees (bx, by) within radius, as a monster's sight
 * test does: 1, 0, or -1 on no memory. */
int editor_sees(struct editor *ed, int ax, int ay, int bx, int by, int radius);

/* ---- the quick sim ---- */

/*
 * N games of `astray sim` on the level as it is now (a copy: later edits
 * do not touch them), played a few at a time by editor_sim_step so a
 * screen stays live and can stop the run; the heat of deaths and first
 * contacts (sim.h's heat layers) over the map.  `player` is an enum
 * sim_player; the game seeds are sim's (sim_game_seed of `seed`).
 */
struct editor_sim;
struct editor_sim_result {
	int games, done;      /* asked for, played so far */
	int player;           /* enum sim_player */
	int escaped, killed, out_of_turns;
	double mean_turns;
};
/* NULL with the reason in err: errors on the level, no bestiary, no memory. */
struct editor_sim *editor_sim_start(struct editor *ed, const struct bestiary *b, int games, int player, int max_turns,
				    uint64_t seed, char *err, size_t errlen);
void editor_sim_destroy(struct editor_sim *s); /* NULL does nothing */
/* Plays up to `games` more games; the number played in all, -1 on failure. */
int editor_sim_step(struct editor_sim *s, int games);
bool editor_sim_finished(const struct editor_sim *s);
const struct editor_sim_result *editor_sim_result(const struct editor_sim *s);
/* The deaths (or first-contact) counts per cell, w * h of them, and the
 * largest; NULL before the first game. */
const double *editor_sim_heat(const struct editor_sim *s, bool deaths, int *w, int *h, double *max);
const char *editor_sim_player_name(int player);
int editor_sim_players(void); /* how many players there are (0 .. n-1) */

/* ---- play-tests ---- */

struct game;
/*
 * A play-test: the game on the level as it is now, not saved or
 * journaled.  It borrows the editor's level (no edit until it ends).
 */
struct editor_playtest {
	struct level lv;               /* the editor's level, its start moved */
	const struct level *levels[1];
	struct game *g;                /* the game (game.h), NULL once ended */
};
/*
 * Starts one with game seed `seed`: from the level's start, or with
 * x >= 0 from (x, y), a cell one can stand on without a monster; with
 * `reveal` the player knows the whole map from the first turn.  pt must
 * not move while the game lives.  False with the reason in err.
 */
bool editor_playtest_start(struct editor *ed, int x, int y, bool reveal, const struct bestiary *b, uint64_t seed,
			   struct editor_playtest *pt, char *err, size_t errlen);
void editor_playtest_end(struct editor_playtest *pt);

/* ---- header and size ---- */

/*
 * The header keys a designer edits: every key of the format.  `sealed`
 * is its list of cells as the file writes it ("13,3 5,6"); the topology
 * changes only within its layout (square4 and square8; hex, diamond4 and
 * diamond8: the cells keep their places in the text).
 */
enum editor_field { EDITOR_NAME, EDITOR_AUTHOR, EDITOR_DESCRIPTION, EDITOR_SEALED, EDITOR_TOPOLOGY,
		    EDITOR_FIELDS };

const char *editor_field_name(enum editor_field f); /* "name", "author", "description", "sealed", "topology" */
/* The value now; NULL when the key is absent (author, description, sealed). */
const char *editor_header(const struct editor *ed, enum editor_field f);

/*
 * Sets a header key as one undo step.  The value is trimmed of spaces, as
 * the parser reads it; an empty author, description or sealed removes the
 * key.  Sealed cells are X,Y separated by spaces, each on the map and on
 * a cell one can stand on (as the parser wants them); a topology is a
 * name of the same layout as the map's.
 * Refused (-1, the reason in err, nothing changed) when the file could not
 * hold it: a byte that is not printable ASCII, a ';' at the start or after
 * a space (it would start a comment), an empty name; also no memory, or a
 * stroke still open.  0 when the value is already that, 1 when changed.
 */
int editor_set_header(struct editor *ed, enum editor_field f, const char *value, char *err,
		      size_t errlen);
/* Whether editor_set_header would take the value (the reason in err when not). */
bool editor_header_check(enum editor_field f, const char *value, char *err, size_t errlen);

/*
 * Grows (positive) or shrinks (negative) the map on each side by that
 * many cells, as one undo step: new cells are void, the cells, sealed
 * cells and markers keep their place on the map, and what falls off is
 * gone until undone.  Each side ends from 1 to LEVEL_MAX_SIDE cells.  On
 * hex and diamond maps `top` must be even: a row's half-cell shift follows
 * its parity, so rows come and go in pairs at the top (any number at the
 * bottom).  Returns 1, 0 when all four are 0, or -1 with the reason in err.
 */
int editor_resize(struct editor *ed, int left, int top, int right, int bottom, char *err, size_t errlen);

/*
 * The whole level becomes lv (same topology: its header, size and cells),
 * as one undo step, so undo shows the level as it was and redo lv again
 * (a restored LEVEL.recover over LEVEL).  Returns 1, or -1 with the reason
 * in err (another topology, a bad size, no memory, a stroke still open),
 * nothing changed.
 */
int editor_replace(struct editor *ed, const struct level *lv, char *err, size_t errlen);

/*
 * What the parser said of the file as it was loaded (a file with errors
 * opens with the map as far as it could be read), with `file_map_line`
 * the line of its map.  These come first in editor_diags, with the cells
 * they name (moved along by resizes), until the level is saved over its
 * file (editor_save with mark).  False on no memory.
 */
bool editor_set_file_diags(struct editor *ed, const struct diag_list *d, int file_map_line);
int editor_file_diag_count(const struct editor *ed);   /* the first n of editor_diags */
int editor_file_errors(const struct editor *ed);

/* Counts as unsaved even before the first change (a generated level). */
void editor_mark_unsaved(struct editor *ed);

/*
 * Remembers the state now (a restored recovery, editor_replace);
 * editor_past_mark then says whether every step up to it is still in
 * effect: false once it is undone, and for good once a new edit after an
 * undo has dropped it.  Before any editor_set_mark: true.
 */
void editor_set_mark(struct editor *ed);
bool editor_past_mark(const struct editor *ed);

/* CPU microseconds the last recomputation took (diagnostics and routes). */
double editor_last_refresh_us(const struct editor *ed);

/* ---- recovery files ---- */

/*
 * A session stopped by a signal or a closed terminal with unsaved changes
 * rescues them into "LEVEL.recover" (editor_save, through a temporary
 * file "LEVEL.recover.tmp-XXXXXX" renamed when complete).  These help the
 * next start find and tidy what was left.
 */

/* "path.recover" into buf; false when it does not fit. */
bool editor_recover_path(const char *path, char *buf, size_t size);

/*
 * Whether text is a whole file as the editor writes it: parsed (as far as
 * it can be, with any bestiary) and written again it gives the same bytes.
 * A rescue cut short is shorter or lacks its last newline.
 */
bool editor_text_complete(const char *text, size_t len);

/*
 * Tidies the temporary files a stopped session left beside the level
 * `level`: a rescue's ("level.recover.tmp-XXXXXX") and a save's
 * ("level.tmp-XXXXXX", killed before its rename: LEVEL still holds the
 * old text).  One that is empty (nothing was written) or holds the same
 * bytes as level.recover or as the level is removed; a whole one
 * (editor_text_complete) becomes level.recover when there is none, as it
 * holds changes the level has not; any other is kept, as it may be the
 * only copy of the changes.  One sentence per file goes to report
 * (appended; NUL-terminated).  Returns the number of files kept, or -1
 * when the folder cannot be read (said in report).
 */
int editor_recover_tidy(const char *level, char *report, size_t size);

/*
 * Moves `recover` out of the way of a newer rescue, to the first free name
 * "recover.N" (N = 1, 2, ...; a link, so nothing is ever replaced), and
 * syncs the folder.  aside gets the new name.  False with the reason in
 * err, `recover` untouched.
 */
bool editor_recover_set_aside(const char *recover, char *aside, size_t asize, char *err, size_t errlen);

/* Appends a sentence made as printf would to the text in report (size
 * bytes, NUL-terminated), a space before it when the text is not empty;
 * what does not fit is cut. */
__attribute__((format(printf, 3, 4))) void editor_say(char *report, size_t size, const char *fmt, ...);

#endif
