/* editor_internal.h - what the editor's files share: struct editor, its undo records, and the calls between the files. */
#ifndef ASTRAY_EDITOR_INTERNAL_H
#define ASTRAY_EDITOR_INTERNAL_H

/* Only for src/world/tools/editor*.c. */

#include <stdbool.h>
#include <stddef.h>

#include "bestiary.h"
#include "diag.h"
#include "editor.h"
#include "grid.h"
#include "level.h"
#include "path.h"

/* One cell's change; an undo step is a run of them.  A cell < 0 stands
 * for reshapes[-1 - cell]: a header or size change. */
struct change {
	int cell;
	char before, after;
};

/* What a header edit or a resize changes: the header, and (glyphs not
 * NULL) the map's size and cells.  A reshape holds the state before and
 * after, so undo and redo swap whole states. */
struct shape {
	char *name, *author, *description;
	struct level_cell *sealed;
	int n_sealed;
	int w, h;
	char *glyphs;                 /* w * h, or NULL: the map is not touched */
	bool retopo;                  /* topo is the topology to take (else the editor's stays) */
	int topo;                     /* enum grid_topology */
	int origin_x, origin_y;       /* where the loaded map's 0,0 now is */
};

struct reshape {
	struct shape before, after;
};

struct editor {
	const struct bestiary *b;     /* borrowed; may be NULL */
	char *file;
	char *name, *author, *description; /* header, kept for writing */
	char *comments;               /* the file's whole-line ';' comments before the map, each
	                                 with its newline (editor_keep_comments), or NULL */
	size_t comments_len;
	struct level_cell *sealed;
	int n_sealed;
	char *sealed_text;            /* the sealed cells as the header writes them ("13,3 5,6"), or NULL */
	enum grid_topology topo;
	int w, h;
	char *glyphs;                 /* w * h file glyphs */

	int origin_x, origin_y;       /* cell of the loaded map's 0,0 after resizes */
	struct reshape *reshapes;     /* header and size changes, referenced by changes[] */
	int n_reshapes, cap_reshapes;
	struct diag_list file_diags;  /* what the parser said of the file as loaded (until saved) */
	int *file_cells;              /* per file diagnostic: x, y in the loaded map, -1 none */
	int file_map_line;            /* line of the map in the loaded file */
	struct change *changes;       /* every recorded change, steps in order */
	int n_changes, cap_changes;
	int *steps;                   /* steps[i]: index in changes[] where step i starts */
	int n_steps, cap_steps;       /* steps recorded (undone ones included) */
	int done;                     /* steps in effect: undo takes step done - 1 */
	int saved_at;                 /* `done` when last saved; -1 when unreachable */
	int mark_at;                  /* `done` at editor_set_mark; -1 when dropped */
	size_t undo_cap;              /* the history's memory cap in bytes (editor_set_undo_cap) */
	int dropped_new;              /* oldest steps dropped since editor_undo_dropped last asked */
	long dropped_all;             /* ... since the start */
	int group;                    /* editor_begin nesting */
	int group_start;              /* n_changes when the outer group began */

	/* derived, recomputed when `stale` */
	bool stale;
	struct level lv;              /* tiles, items, monsters of the map now */
	int cap_items, cap_monsters;
	struct diag_list diags;
	struct grid *grid;            /* entering costs of the map now */
	struct path_ctx *route_ctx;   /* the marker route (its expanded cells stay readable) */
	struct path_ctx *flood_ctx;   /* the monsters' flood */
	struct editor_route_options ropt;
	int marker_x[2], marker_y[2]; /* -1: not placed */
	struct editor_route route;
	int *route_cells, cap_route;
	bool want_monsters;           /* monster routes asked for since the last change */
	bool monsters_done;
	int *mcells, n_mcells, cap_mcells; /* every monster's route, one after another */
	int *mstart, *mlen;           /* per monster: offset in mcells, length (0: cannot reach) */
	int cap_mon_routes;
	struct plan_acc *plans;       /* per monster of the map: its plan (editor_plan.c) */
	int n_plans, cap_plans;
	bool plans_done;
	bool has_exit;            /* the map has a '>' (found by the last refresh) */
	int plan_turns;               /* turns the plans were played for */
	bool plan_cut;                /* ... cut short by EDITOR_PLAN_WORK */
	double refresh_us;
};

/* editor_plan.c: one monster's plan as the scratch game plays it. */
struct plan_acc {
	int *walk, n_walk, cap_walk;
	int *dug, n_dug, cap_dug;
	int post, strike, mind;
	int strike_turn, settle_turn; /* the turns of its first strike and of its last step or dig; 0 none */
	bool asleep;
};

/* editor_plan.c: frees the plans' buffers (editor_destroy). */
void editor_plans_free(struct editor *ed);

/* editor.c: whether c is an ASCII letter (a monster's glyph). */
bool editor_is_letter(char c);

/* editor.c: a copy of s (NULL stays NULL); NULL on no memory. */
char *editor_dup_str(const char *s);

/* editor.c: the file glyph of each of lv's cells, w * h of them, into out. */
void editor_level_glyphs(const struct level *lv, char *out);

/* editor.c: appends one change to the open step; false on no memory. */
bool editor_record(struct editor *ed, int cell, char before, char after);

/* editor.c: one cell of the open step (editor_begin); 1 changed, 0 not, -1 no memory. */
int editor_set_cell(struct editor *ed, int x, int y, char glyph);

/* editor_shape.c: ed->sealed_text anew from ed->sealed; false on no memory (then NULL). */
bool editor_sealed_text_update(struct editor *ed);

/* editor_shape.c: frees what sh holds and zeroes it. */
void editor_shape_free(struct shape *sh);

/*
 * editor_shape.c: makes sh the editor's header (and map, when sh->glyphs);
 * false on no memory, and then nothing has changed.
 */
bool editor_shape_apply(struct editor *ed, const struct shape *sh);

#endif
