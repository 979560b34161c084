/*
 * editor.c - the document of `astray edit` and its undo history: the map
 * as one file glyph per cell (the palette: which glyphs may be painted),
 * its life from a level or from nothing, and every change recorded as an
 * undo step of (cell, old glyph, new glyph) runs, grouped into strokes
 * (editor_begin, editor_end), undone and redone, with the saved and the
 * restored marks.  The changes come from editor_tools.c (cells) and
 * editor_shape.c (header and size); what derives from the map is
 * editor_derived.c's; the file is editor_save.c's and editor_recover.c's.
 * None of them draws, prints or reads a terminal; ui_editor.c shows it.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdlib.h>
#include <string.h>

char *editor_dup_str(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

/* ---- glyphs ------------------------------------------------------------ */

/* The palette's fixed part, in order; monster letters follow. */
static const struct {
	char glyph;
	const char *name;
} fixed_glyphs[] = {
	{ '#', "wall" },   { '.', "floor" },     { ',', "rubble" }, { '~', "water" },
	{ ' ', "void" },   { '+', "door" },      { '@', "start" },  { '>', "exit" },
	{ '!', "potion" }, { '$', "gold" },      { '%', "permanent wall" },
	{ '?', "scroll" }, { '/', "wand" },      { ')', "weapon" },  { '[', "armour" },
	{ '(', "ammunition" }, { '}', "tool" },
};
#define N_FIXED ((int)(sizeof fixed_glyphs / sizeof fixed_glyphs[0]))

bool editor_is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool editor_glyph_ok(const struct editor *ed, char c)
{
	for (int i = 0; i < N_FIXED; i++)
		if (fixed_glyphs[i].glyph == c)
			return true;
	if (!editor_is_letter(c))
		return false;
	return !ed->b || bestiary_find_glyph(ed->b, c) != NULL;
}

int editor_palette(const struct editor *ed, char *buf, size_t size)
{
	int n = 0;
	if (size == 0)
		return 0;
	for (int i = 0; i < N_FIXED && (size_t)n + 1 < size; i++)
		buf[n++] = fixed_glyphs[i].glyph;
	if (ed->b)
		for (int i = 0; i < ed->b->n && (size_t)n + 1 < size; i++)
			buf[n++] = ed->b->kinds[i].glyph;
	buf[n] = '\0';
	return n;
}

const char *editor_glyph_name(const struct editor *ed, char c)
{
	for (int i = 0; i < N_FIXED; i++)
		if (fixed_glyphs[i].glyph == c)
			return fixed_glyphs[i].name;
	const struct monster_kind *k = ed->b ? bestiary_find_glyph(ed->b, c) : NULL;
	if (k)
		return k->name;
	return editor_is_letter(c) ? "monster" : "?";
}

/* ---- life -------------------------------------------------------------- */

static struct editor *editor_alloc(enum grid_topology topo, int w, int h, const struct bestiary *b,
				   const char *file)
{
	if (w < 1 || h < 1 || w > LEVEL_MAX_SIDE || h > LEVEL_MAX_SIDE)
		return NULL;
	struct editor *ed = calloc(1, sizeof *ed);
	if (!ed)
		return NULL;
	ed->b = b;
	ed->topo = topo;
	ed->w = w;
	ed->h = h;
	ed->file = editor_dup_str(file ? file : "<level>");
	size_t cells = (size_t)w * (size_t)h;
	ed->glyphs = malloc(cells);
	ed->lv.tiles = malloc(cells);
	ed->grid = grid_create(w, h, topo);
	ed->route_ctx = ed->grid ? path_create(ed->grid) : NULL;
	ed->flood_ctx = ed->grid ? path_create(ed->grid) : NULL;
	if (!ed->file || !ed->glyphs || !ed->lv.tiles || !ed->route_ctx || !ed->flood_ctx) {
		editor_destroy(ed);
		return NULL;
	}
	memset(ed->glyphs, ' ', cells);
	ed->marker_x[0] = ed->marker_x[1] = -1;
	ed->marker_y[0] = ed->marker_y[1] = -1;
	ed->ropt.weight = 1.0;
	ed->undo_cap = EDITOR_UNDO_CAP;
	ed->stale = true;
	return ed;
}

/* The file glyph of each of lv's cells, w * h of them, into out. */
void editor_level_glyphs(const struct level *lv, char *out)
{
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			out[y * lv->w + x] = tile_glyph(level_tile(lv, x, y));
	for (int i = 0; i < lv->n_items; i++)
		out[lv->items[i].y * lv->w + lv->items[i].x] = item_class_glyph((int)lv->items[i].kind);
	for (int i = 0; i < lv->n_monsters; i++)
		out[lv->monsters[i].y * lv->w + lv->monsters[i].x] = lv->monsters[i].glyph;
	if (lv->player_x >= 0 && lv->player_y >= 0 && lv->player_x < lv->w && lv->player_y < lv->h)
		out[lv->player_y * lv->w + lv->player_x] = '@';
}

struct editor *editor_create(const struct level *lv, const struct bestiary *b, const char *file)
{
	struct editor *ed = editor_alloc(lv->topo, lv->w, lv->h, b, file ? file : lv->file);
	if (!ed)
		return NULL;
	editor_level_glyphs(lv, ed->glyphs);
	ed->name = editor_dup_str(lv->name ? lv->name : "untitled");
	ed->author = editor_dup_str(lv->author);
	ed->description = editor_dup_str(lv->description);
	if (lv->n_sealed > 0) {
		ed->sealed = malloc((size_t)lv->n_sealed * sizeof *ed->sealed);
		if (ed->sealed) {
			memcpy(ed->sealed, lv->sealed, (size_t)lv->n_sealed * sizeof *ed->sealed);
			ed->n_sealed = lv->n_sealed;
		}
	}
	if (!ed->name || (lv->author && !ed->author) || (lv->description && !ed->description) ||
	    (lv->n_sealed > 0 && !ed->sealed) || !editor_sealed_text_update(ed)) {
		editor_destroy(ed);
		return NULL;
	}
	return ed;
}

struct editor *editor_new(enum grid_topology topo, int w, int h, const char *name,
			  const struct bestiary *b, const char *file)
{
	struct editor *ed = editor_alloc(topo, w, h, b, file);
	if (!ed)
		return NULL;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			ed->glyphs[y * w + x] = (x == 0 || y == 0 || x == w - 1 || y == h - 1) ? '#' : '.';
	ed->name = editor_dup_str(name && *name ? name : "untitled");
	if (!ed->name) {
		editor_destroy(ed);
		return NULL;
	}
	return ed;
}

/* Frees the reshapes from index `from` on (dropped redo steps). */
static void drop_reshapes(struct editor *ed, int from)
{
	for (int i = from; i < ed->n_reshapes; i++) {
		editor_shape_free(&ed->reshapes[i].before);
		editor_shape_free(&ed->reshapes[i].after);
	}
	if (from < ed->n_reshapes)
		ed->n_reshapes = from;
}

void editor_destroy(struct editor *ed)
{
	if (!ed)
		return;
	drop_reshapes(ed, 0);
	free(ed->reshapes);
	diag_list_fini(&ed->file_diags);
	free(ed->file_cells);
	free(ed->file);
	free(ed->name);
	free(ed->author);
	free(ed->description);
	free(ed->comments);
	free(ed->sealed);
	free(ed->sealed_text);
	free(ed->glyphs);
	free(ed->changes);
	free(ed->steps);
	free(ed->lv.tiles);
	free(ed->lv.items);
	free(ed->lv.monsters);
	diag_list_fini(&ed->diags);
	path_destroy(ed->route_ctx);
	path_destroy(ed->flood_ctx);
	grid_destroy(ed->grid);
	free(ed->route_cells);
	free(ed->mcells);
	free(ed->mstart);
	free(ed->mlen);
	editor_plans_free(ed);
	free(ed);
}

int editor_width(const struct editor *ed) { return ed->w; }
int editor_height(const struct editor *ed) { return ed->h; }
enum grid_topology editor_topology(const struct editor *ed) { return ed->topo; }
const char *editor_file(const struct editor *ed) { return ed->file; }

char editor_glyph(const struct editor *ed, int x, int y)
{
	if (x < 0 || y < 0 || x >= ed->w || y >= ed->h)
		return ' ';
	return ed->glyphs[y * ed->w + x];
}

/* ---- changes and undo -------------------------------------------------- */

static void undo_trim(struct editor *ed);

bool editor_record(struct editor *ed, int cell, char before, char after)
{
	/* full: the oldest steps go first when the history is over its cap,
	 * so the array does not double past it (not for a reshape's change,
	 * whose index in reshapes[] is taken already) */
	if (cell >= 0 && ed->n_changes == ed->cap_changes && ed->undo_cap > 0 &&
	    (size_t)ed->cap_changes * sizeof *ed->changes >= ed->undo_cap / 2)
		undo_trim(ed);
	if (ed->n_changes == ed->cap_changes) {
		int cap = ed->cap_changes ? ed->cap_changes * 2 : 256;
		/* past half the cap, a quarter more at a time: the array stays
		 * near what the history holds instead of twice it */
		if (ed->undo_cap > 0 && ed->cap_changes >= 1024 &&
		    (size_t)cap * sizeof *ed->changes > ed->undo_cap)
			cap = ed->cap_changes + ed->cap_changes / 4;
		struct change *c = realloc(ed->changes, (size_t)cap * sizeof *c);
		if (!c)
			return false;
		ed->changes = c;
		ed->cap_changes = cap;
	}
	ed->changes[ed->n_changes++] = (struct change){ cell, before, after };
	return true;
}

void editor_begin(struct editor *ed)
{
	if (ed->group++ > 0)
		return;
	/* a new edit forgets what was undone */
	if (ed->done < ed->n_steps) {
		int first = ed->n_reshapes;
		for (int i = ed->steps[ed->done]; i < ed->n_changes; i++)
			if (ed->changes[i].cell < 0 && -1 - ed->changes[i].cell < first)
				first = -1 - ed->changes[i].cell;
		drop_reshapes(ed, first);
		ed->n_changes = ed->steps[ed->done];
		ed->n_steps = ed->done;
		if (ed->saved_at > ed->done)
			ed->saved_at = -1;
		if (ed->mark_at > ed->done)
			ed->mark_at = -1;
	}
	ed->group_start = ed->n_changes;
}

/* ---- the history's memory cap ----------------------------------------- */

static size_t shape_bytes(const struct shape *sh)
{
	size_t n = sizeof *sh + (size_t)sh->n_sealed * sizeof *sh->sealed;
	if (sh->glyphs)
		n += (size_t)sh->w * (size_t)sh->h;
	const char *str[] = { sh->name, sh->author, sh->description };
	for (int i = 0; i < 3; i++)
		if (str[i])
			n += strlen(str[i]) + 1;
	return n;
}

/* The end of the recorded steps' changes: an open stroke's follow them. */
static int steps_end(const struct editor *ed)
{
	return ed->group > 0 ? ed->group_start : ed->n_changes;
}

/* What steps [from, to) hold: their changes and the reshapes they keep. */
static size_t steps_bytes(const struct editor *ed, int from, int to)
{
	int begin = ed->steps[from], end = to < ed->n_steps ? ed->steps[to] : steps_end(ed);
	size_t n = (size_t)(end - begin) * sizeof(struct change) + (size_t)(to - from) * sizeof(int);
	for (int i = begin; i < end; i++)
		if (ed->changes[i].cell < 0) {
			const struct reshape *r = &ed->reshapes[-1 - ed->changes[i].cell];
			n += shape_bytes(&r->before) + shape_bytes(&r->after);
		}
	return n;
}

size_t editor_undo_bytes(const struct editor *ed)
{
	size_t open = (size_t)(ed->n_changes - steps_end(ed)) * sizeof(struct change);
	return (ed->n_steps > 0 ? steps_bytes(ed, 0, ed->n_steps) : 0) + open;
}

/*
 * Drops the oldest steps while the history is over its cap, the newest
 * step kept (a stroke still open counts as the newest): their changes
 * go, the reshapes they hold are freed and the later ones renumbered,
 * and the saved and restored marks follow (one that pointed into what is
 * gone can no longer be reached).
 */
static void undo_trim(struct editor *ed)
{
	int keep = ed->group > 0 ? 0 : 1;
	if (ed->undo_cap == 0 || ed->n_steps <= keep)
		return;
	size_t total = editor_undo_bytes(ed);
	int k = 0;
	/* only steps in effect: the state before them is then the new base */
	while (total > ed->undo_cap && k < ed->n_steps - keep && k < ed->done) {
		total -= steps_bytes(ed, k, k + 1);
		k++;
	}
	if (k == 0)
		return;
	/* every recorded step may go while a stroke is open: then up to it */
	int cut = k < ed->n_steps ? ed->steps[k] : steps_end(ed);
	/* the reshapes of the dropped steps are the first ones, in order */
	int gone = 0;
	for (int i = 0; i < cut; i++)
		if (ed->changes[i].cell < 0 && -ed->changes[i].cell > gone)
			gone = -ed->changes[i].cell;
	for (int i = 0; i < gone; i++) {
		editor_shape_free(&ed->reshapes[i].before);
		editor_shape_free(&ed->reshapes[i].after);
	}
	if (gone > 0) {
		memmove(ed->reshapes, ed->reshapes + gone, (size_t)(ed->n_reshapes - gone) * sizeof *ed->reshapes);
		ed->n_reshapes -= gone;
	}
	memmove(ed->changes, ed->changes + cut, (size_t)(ed->n_changes - cut) * sizeof *ed->changes);
	ed->n_changes -= cut;
	for (int i = 0; i < ed->n_changes; i++)
		if (ed->changes[i].cell < 0)
			ed->changes[i].cell += gone;
	for (int i = k; i < ed->n_steps; i++)
		ed->steps[i - k] = ed->steps[i] - cut;
	if (ed->group > 0)
		ed->group_start -= cut;
	ed->n_steps -= k;
	ed->done -= k;
	ed->saved_at = ed->saved_at >= k ? ed->saved_at - k : -1;
	ed->mark_at = ed->mark_at >= k ? ed->mark_at - k : -1;
	ed->dropped_new += k;
	ed->dropped_all += k;
	/* give the memory back: a huge fill's changes may be gone */
	if (ed->cap_changes > 1024 && ed->n_changes < ed->cap_changes / 4) {
		int cap = ed->n_changes * 2 > 256 ? ed->n_changes * 2 : 256;
		struct change *c = realloc(ed->changes, (size_t)cap * sizeof *c);
		if (c) {
			ed->changes = c;
			ed->cap_changes = cap;
		}
	}
}

void editor_set_undo_cap(struct editor *ed, size_t bytes)
{
	ed->undo_cap = bytes;
	undo_trim(ed);
}

size_t editor_undo_cap(const struct editor *ed) { return ed->undo_cap; }

int editor_undo_dropped(struct editor *ed, long *all)
{
	int n = ed->dropped_new;
	ed->dropped_new = 0;
	if (all)
		*all = ed->dropped_all;
	return n;
}

void editor_end(struct editor *ed)
{
	if (ed->group <= 0 || --ed->group > 0)
		return;
	if (ed->n_changes == ed->group_start)
		return; /* nothing changed: no step */
	if (ed->n_steps == ed->cap_steps) {
		int cap = ed->cap_steps ? ed->cap_steps * 2 : 64;
		int *s = realloc(ed->steps, (size_t)cap * sizeof *s);
		if (!s) {
			/* cannot record the step: take the changes back */
			for (int i = ed->n_changes - 1; i >= ed->group_start; i--) {
				const struct change *c = &ed->changes[i];
				if (c->cell >= 0) {
					ed->glyphs[c->cell] = c->before;
				} else {
					(void)editor_shape_apply(ed, &ed->reshapes[-1 - c->cell].before);
					drop_reshapes(ed, -1 - c->cell);
				}
			}
			ed->n_changes = ed->group_start;
			ed->stale = true;
			return;
		}
		ed->steps = s;
		ed->cap_steps = cap;
	}
	ed->steps[ed->n_steps++] = ed->group_start;
	ed->done = ed->n_steps;
	undo_trim(ed);
}

/* Sets one cell inside a group; returns 1 when it changed, 0 when not, -1 on no memory. */
int editor_set_cell(struct editor *ed, int x, int y, char glyph)
{
	if (x < 0 || y < 0 || x >= ed->w || y >= ed->h)
		return 0;
	int cell = y * ed->w + x;
	char before = ed->glyphs[cell];
	if (before == glyph)
		return 0;
	int extra = 0;
	if (glyph == '@') {
		/* one start: the cell it leaves gets back what it held before
		 * this edit began (a start dragged across a wall leaves the
		 * wall), and the start the edit found becomes floor */
		char *old = memchr(ed->glyphs, '@', (size_t)ed->w * (size_t)ed->h);
		if (old) {
			int oc = (int)(old - ed->glyphs);
			char back = '.';
			for (int i = ed->group > 0 ? ed->group_start : ed->n_changes; i < ed->n_changes; i++)
				if (ed->changes[i].cell == oc) {
					back = ed->changes[i].before == '@' ? '.' : ed->changes[i].before;
					break;
				}
			if (!editor_record(ed, oc, '@', back))
				return -1;
			*old = back;
			extra = 1;
		}
	}
	if (!editor_record(ed, cell, before, glyph))
		return -1;
	ed->glyphs[cell] = glyph;
	ed->stale = true;
	return 1 + extra;
}

/* Whether step s can be undone (redone) here: a reshape needs memory. */
static bool step_apply(struct editor *ed, int s, bool undo)
{
	int begin = ed->steps[s];
	int end = s + 1 < ed->n_steps ? ed->steps[s + 1] : ed->n_changes;
	for (int k = 0; k < end - begin; k++) {
		const struct change *c = &ed->changes[undo ? end - 1 - k : begin + k];
		if (c->cell >= 0) {
			ed->glyphs[c->cell] = undo ? c->before : c->after;
			continue;
		}
		/* a reshape is the whole step (editor_reshape), so nothing of
		 * the step is half done when it fails */
		const struct reshape *r = &ed->reshapes[-1 - c->cell];
		if (!editor_shape_apply(ed, undo ? &r->before : &r->after))
			return false;
	}
	ed->stale = true;
	return true;
}

bool editor_undo(struct editor *ed)
{
	if (ed->group > 0 || ed->done == 0)
		return false;
	if (!step_apply(ed, ed->done - 1, true))
		return false;
	ed->done--;
	return true;
}

bool editor_redo(struct editor *ed)
{
	if (ed->group > 0 || ed->done == ed->n_steps)
		return false;
	if (!step_apply(ed, ed->done, false))
		return false;
	ed->done++;
	return true;
}

int editor_undo_count(const struct editor *ed) { return ed->done; }
int editor_redo_count(const struct editor *ed) { return ed->n_steps - ed->done; }
bool editor_modified(const struct editor *ed) { return ed->saved_at != ed->done; }
void editor_mark_saved(struct editor *ed) { ed->saved_at = ed->done; }
void editor_mark_unsaved(struct editor *ed) { ed->saved_at = -1; }
void editor_set_mark(struct editor *ed) { ed->mark_at = ed->done; }
bool editor_past_mark(const struct editor *ed) { return ed->mark_at >= 0 && ed->done >= ed->mark_at; }
