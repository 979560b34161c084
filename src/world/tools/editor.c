/*
 * editor.c - the model of `astray edit`: the map as one file glyph per
 * cell, the edits (editor_tools.c's paint, line, rectangle, flood fill)
 * recorded as undo steps of (cell, old glyph, new glyph), header edits
 * and resizes (editor_shape.c's) recorded as steps that swap whole
 * states, the parser's errors of a file loaded
 * broken (listed until saved), and what is derived from the map
 * on the first read after a change: the struct level the game and the
 * checks read, the diagnostics of `astray check` (the parser's missing
 * start or exit, then level_analyse), the route between two markers with
 * `astray path`'s options, and every monster's route to the start.
 * What a rescue of unsaved changes leaves beside a level is
 * editor_recover.c's.  It never draws, prints or reads a terminal;
 * ui_editor.c shows it.
 */
#include "editor.h"
#include "editor_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "savefile.h"

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
	{ '!', "potion" }, { '$', "gold" },
};
#define N_FIXED ((int)(sizeof fixed_glyphs / sizeof fixed_glyphs[0]))

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool editor_glyph_ok(const struct editor *ed, char c)
{
	for (int i = 0; i < N_FIXED; i++)
		if (fixed_glyphs[i].glyph == c)
			return true;
	if (!is_letter(c))
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
	return is_letter(c) ? "monster" : "?";
}

/* The terrain under a glyph: things stand on floor, the exit is terrain. */
static enum tile glyph_tile(char c)
{
	switch (c) {
	case '#': return TILE_WALL;
	case ',': return TILE_RUBBLE;
	case '~': return TILE_WATER;
	case '+': return TILE_DOOR;
	case '>': return TILE_EXIT;
	case ' ': return TILE_VOID;
	default: return TILE_FLOOR;
	}
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
		out[lv->items[i].y * lv->w + lv->items[i].x] = lv->items[i].kind == ITEM_POTION ? '!' : '$';
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
	    (lv->n_sealed > 0 && !ed->sealed)) {
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

bool editor_record(struct editor *ed, int cell, char before, char after)
{
	if (ed->n_changes == ed->cap_changes) {
		int cap = ed->cap_changes ? ed->cap_changes * 2 : 256;
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

/* ---- the derived level ------------------------------------------------- */

/* The line of the map in editor_write's text (see level_write). */
static int map_line(const struct editor *ed)
{
	return 1 + 1 + 1 + (ed->author ? 1 : 0) + (ed->description ? 1 : 0) + (ed->n_sealed ? 1 : 0) + 1 + 1;
}

static bool build_level(struct editor *ed)
{
	struct level *lv = &ed->lv;
	lv->file = ed->file;
	lv->name = ed->name;
	lv->author = ed->author;
	lv->description = ed->description;
	lv->topo = ed->topo;
	lv->w = ed->w;
	lv->h = ed->h;
	lv->sealed = ed->sealed;
	lv->n_sealed = ed->n_sealed;
	lv->map_line = map_line(ed);
	lv->player_x = lv->player_y = -1;
	lv->n_items = lv->n_monsters = 0;
	int cells = ed->w * ed->h;
	for (int i = 0; i < cells; i++) {
		char c = ed->glyphs[i];
		lv->tiles[i] = (uint8_t)glyph_tile(c);
		int x = i % ed->w, y = i / ed->w;
		if (c == '@') {
			lv->player_x = x;
			lv->player_y = y;
		} else if (c == '!' || c == '$') {
			if (lv->n_items == ed->cap_items) {
				int cap = ed->cap_items ? ed->cap_items * 2 : 16;
				struct level_item *it = realloc(lv->items, (size_t)cap * sizeof *it);
				if (!it)
					return false;
				lv->items = it;
				ed->cap_items = cap;
			}
			lv->items[lv->n_items++] =
				(struct level_item){ c == '!' ? ITEM_POTION : ITEM_GOLD, x, y };
		} else if (is_letter(c)) {
			if (lv->n_monsters == ed->cap_monsters) {
				int cap = ed->cap_monsters ? ed->cap_monsters * 2 : 16;
				struct level_monster *m = realloc(lv->monsters, (size_t)cap * sizeof *m);
				if (!m)
					return false;
				lv->monsters = m;
				ed->cap_monsters = cap;
			}
			lv->monsters[lv->n_monsters++] = (struct level_monster){ c, x, y };
		}
		ed->grid->cost[i] = tile_info((enum tile)lv->tiles[i])->cost;
	}
	return true;
}

static bool keep_route(struct editor *ed, const struct path_result *res)
{
	if (res->len > ed->cap_route) {
		int *c = realloc(ed->route_cells, (size_t)res->len * sizeof *c);
		if (!c)
			return false;
		ed->route_cells = c;
		ed->cap_route = res->len;
	}
	if (res->len > 0)
		memcpy(ed->route_cells, res->cells, (size_t)res->len * sizeof *res->cells);
	return true;
}

static void find_route(struct editor *ed)
{
	struct editor_route *r = &ed->route;
	memset(r, 0, sizeof *r);
	r->end = -1;
	if (ed->marker_x[0] < 0 || ed->marker_x[1] < 0)
		return;
	struct path_options o = path_options_default();
	o.fallback = ed->ropt.fallback;
	o.corner_cutting = ed->ropt.corners;
	o.weight = ed->ropt.weight;
	struct path_result res;
	int a = ed->marker_y[0] * ed->w + ed->marker_x[0];
	int b = ed->marker_y[1] * ed->w + ed->marker_x[1];
	r->active = true;
	r->status = path_find(ed->route_ctx, a, b, &o, &res);
	if (r->status == PATH_BAD_INPUT || !keep_route(ed, &res)) {
		r->status = PATH_BAD_INPUT;
		return;
	}
	r->cells = ed->route_cells;
	r->len = res.len;
	r->cost = res.cost;
	r->steps = res.steps;
	r->expanded = res.expanded;
	r->reached = res.reached;
	r->end = res.end;
}

/* The missing start or exit, as the parser words them, then level_analyse. */
static void diagnose(struct editor *ed)
{
	diag_list_fini(&ed->diags);
	for (int i = 0; i < ed->file_diags.n; i++) {
		const struct diag *d = &ed->file_diags.items[i];
		diag_add(&ed->diags, d->severity, d->file, d->line, d->col, "%s", d->msg);
	}
	const struct level *lv = &ed->lv;
	bool exit = memchr(ed->glyphs, '>', (size_t)ed->w * (size_t)ed->h) != NULL;
	if (lv->player_x < 0)
		diag_add(&ed->diags, DIAG_ERROR, ed->file, lv->map_line - 1, 1,
			 "no player start: put exactly one '@' on the map");
	if (!exit)
		diag_add(&ed->diags, DIAG_ERROR, ed->file, lv->map_line - 1, 1,
			 "no exit: put at least one '>' on the map");
	if (lv->player_x >= 0)
		level_analyse(lv, ed->b, &ed->diags);
}

static void refresh(struct editor *ed)
{
	if (!ed->stale)
		return;
	double t0 = clock_cpu_us();
	ed->stale = false;
	ed->monsters_done = false;
	if (!build_level(ed)) {
		diag_list_fini(&ed->diags);
		diag_add(&ed->diags, DIAG_ERROR, ed->file, 0, 0, "out of memory");
		ed->stale = true;
		return;
	}
	diagnose(ed);
	find_route(ed);
	ed->refresh_us = clock_cpu_us() - t0;
}

const struct level *editor_level(struct editor *ed)
{
	refresh(ed);
	return ed->stale ? NULL : &ed->lv;
}

bool editor_keep_comments(struct editor *ed, const char *text, size_t len)
{
	free(ed->comments);
	ed->comments = NULL;
	ed->comments_len = 0;
	size_t at = 0, n = 0;
	char *keep = malloc(len + 1);
	if (!keep)
		return false;
	/* after the first line ("astray-level 1"), up to the map */
	while (at < len && text[at] != '\n')
		at++;
	while (++at < len) {
		size_t end = at;
		while (end < len && text[end] != '\n')
			end++;
		if (end - at >= 4 && memcmp(text + at, "map:", 4) == 0)
			break;
		/* a line the format refuses (a tab, a control or non-ASCII
		 * byte) is an error the parser reported: it is not written back */
		bool clean = true;
		for (size_t i = at; i < end && clean; i++)
			clean = text[i] >= 0x20 && text[i] <= 0x7e;
		if (text[at] == ';' && clean) {
			memcpy(keep + n, text + at, end - at);
			n += end - at;
			keep[n++] = '\n';
		}
		at = end;
	}
	if (n == 0) {
		free(keep);
		return true;
	}
	ed->comments = keep;
	ed->comments_len = n;
	return true;
}

char *editor_write(struct editor *ed, size_t *len)
{
	const struct level *lv = editor_level(ed);
	char *text = lv ? level_write(lv, len) : NULL;
	if (!text || !ed->comments_len)
		return text;
	/* the comments go under the first line, before the header keys */
	const char *nl = memchr(text, '\n', *len);
	size_t head = nl ? (size_t)(nl - text) + 1 : *len;
	char *with = malloc(*len + ed->comments_len + 1);
	if (!with) {
		free(text);
		return NULL;
	}
	memcpy(with, text, head);
	memcpy(with + head, ed->comments, ed->comments_len);
	memcpy(with + head + ed->comments_len, text + head, *len - head);
	*len += ed->comments_len;
	with[*len] = '\0';
	free(text);
	return with;
}

/* Whether link(2) failed because no hard link can be made here: a file
 * system without them (EPERM, ENOTSUP, ENOSYS), a file this user may not
 * link (EPERM) or with too many links (EMLINK), another device (EXDEV),
 * or the file gone (ENOENT: nothing to keep). */
static bool no_hard_link(int e)
{
	return e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == ENOSYS || e == EMLINK || e == EXDEV ||
	       e == ENOENT;
}

bool editor_save(struct editor *ed, const char *path, bool backup, bool mark, char *err,
		 size_t errlen)
{
	size_t len;
	char *text = editor_write(ed, &len);
	size_t pl = strlen(path);
	char *old = malloc(pl + 2);
	if (!text || !old) {
		snprintf(err, errlen, "out of memory");
		free(text);
		free(old);
		return false;
	}
	if (backup && access(path, F_OK) == 0) {
		/* the previous version stays as FILE~ (a hard link: no copy);
		 * where no hard link can be made the save goes on without the
		 * backup, but any other failure (an old FILE~ that will not go,
		 * no room, an I/O error) stops it before it writes: the screen
		 * may have told the designer the old text is in FILE~ */
		snprintf(old, pl + 2, "%s~", path);
		int e = unlink(old) == 0 || errno == ENOENT ? 0 : errno;
		if (e == 0 && link(path, old) != 0 && !no_hard_link(errno))
			e = errno;
		if (e != 0) {
			snprintf(err, errlen, "%s: cannot keep the previous version as %s: %s", path, old,
				 strerror(e));
			free(text);
			free(old);
			return false;
		}
	}
	/* temporary file, fsync, rename, fsync of the folder (savefile.h) */
	bool ok = savefile_write_atomic_mode(NULL, path, text, len, true, 0644, err, errlen);
	if (ok && mark) {
		editor_mark_saved(ed);
		if (ed->file_diags.n > 0) {
			/* the file now holds the map as edited: what the parser said of the old text is past */
			diag_list_fini(&ed->file_diags);
			memset(&ed->file_diags, 0, sizeof ed->file_diags);
			ed->stale = true;
		}
	}
	free(text);
	free(old);
	return ok;
}

const struct diag_list *editor_diags(struct editor *ed)
{
	refresh(ed);
	return &ed->diags;
}

bool editor_diag_cell(struct editor *ed, int i, int *x, int *y)
{
	refresh(ed);
	if (i < 0 || i >= ed->diags.n)
		return false;
	if (i < ed->file_diags.n) {
		if (ed->file_cells[2 * i] < 0)
			return false;
		int fx = ed->file_cells[2 * i] + ed->origin_x, fy = ed->file_cells[2 * i + 1] + ed->origin_y;
		if (fx < 0 || fy < 0 || fx >= ed->w || fy >= ed->h)
			return false;
		*x = fx;
		*y = fy;
		return true;
	}
	const struct diag *d = &ed->diags.items[i];
	int ml = map_line(ed);
	int row = d->line - ml;
	if (d->line <= 0 || row < 0 || row >= ed->h || d->col < 1)
		return false;
	int col = d->col - 1;
	int cx = grid_is_staggered(ed->topo) ? (col - (row & 1)) / 2 : col;
	if (cx < 0 || cx >= ed->w)
		return false;
	*x = cx;
	*y = row;
	return true;
}

bool editor_set_file_diags(struct editor *ed, const struct diag_list *d, int file_map_line)
{
	diag_list_fini(&ed->file_diags);
	memset(&ed->file_diags, 0, sizeof ed->file_diags);
	free(ed->file_cells);
	ed->file_cells = NULL;
	ed->stale = true;
	if (d->n == 0)
		return true;
	ed->file_cells = malloc((size_t)d->n * 2 * sizeof *ed->file_cells);
	if (!ed->file_cells)
		return false;
	for (int i = 0; i < d->n; i++) {
		const struct diag *di = &d->items[i];
		if (!diag_add(&ed->file_diags, di->severity, di->file, di->line, di->col, "%s", di->msg))
			return false;
		/* the cell in the loaded map (origin 0,0), as the file's text places it */
		int row = di->line - file_map_line, col = di->col - 1, x = -1, y = -1;
		if (file_map_line > 0 && di->line > 0 && row >= 0 && row < ed->h && col >= 0) {
			x = grid_is_staggered(ed->topo) ? (col - (row & 1)) / 2 : col;
			y = row;
			if (x < 0 || x >= ed->w)
				x = y = -1;
		}
		ed->file_cells[2 * i] = x;
		ed->file_cells[2 * i + 1] = y;
	}
	ed->file_map_line = file_map_line;
	return true;
}

int editor_file_diag_count(const struct editor *ed)
{
	return ed->file_diags.n;
}

int editor_file_errors(const struct editor *ed)
{
	return ed->file_diags.errors;
}

/* ---- routes ------------------------------------------------------------ */

void editor_route_set_options(struct editor *ed, const struct editor_route_options *opt)
{
	ed->ropt = *opt;
	if (ed->ropt.weight < 0)
		ed->ropt.weight = 0;
	ed->stale = true;
}

struct editor_route_options editor_route_get_options(const struct editor *ed)
{
	return ed->ropt;
}

void editor_set_marker(struct editor *ed, int which, int x, int y)
{
	if (which < 0 || which > 1)
		return;
	if (x < 0 || y < 0 || x >= ed->w || y >= ed->h)
		x = y = -1;
	ed->marker_x[which] = x;
	ed->marker_y[which] = y;
	ed->stale = true;
}

bool editor_marker(const struct editor *ed, int which, int *x, int *y)
{
	if (which < 0 || which > 1 || ed->marker_x[which] < 0)
		return false;
	*x = ed->marker_x[which];
	*y = ed->marker_y[which];
	return true;
}

const struct editor_route *editor_route(struct editor *ed)
{
	refresh(ed);
	return &ed->route;
}

bool editor_route_explored(struct editor *ed, int x, int y)
{
	refresh(ed);
	if (!ed->route.active || !ed->ropt.explored || ed->route.status == PATH_BAD_INPUT)
		return false;
	if (x < 0 || y < 0 || x >= ed->w || y >= ed->h)
		return false;
	return path_was_expanded(ed->route_ctx, y * ed->w + x);
}

static bool push_mcell(struct editor *ed, int cell)
{
	if (ed->n_mcells == ed->cap_mcells) {
		int cap = ed->cap_mcells ? ed->cap_mcells * 2 : 1024;
		int *c = realloc(ed->mcells, (size_t)cap * sizeof *c);
		if (!c)
			return false;
		ed->mcells = c;
		ed->cap_mcells = cap;
	}
	ed->mcells[ed->n_mcells++] = cell;
	return true;
}

/*
 * One reverse flood from the start gives every monster's cheapest way to
 * it at once (the game's monsters plan on the true map, without corner
 * cutting); a monster the flood never reaches can never reach the start.
 */
int editor_monster_routes(struct editor *ed)
{
	refresh(ed);
	if (ed->stale || ed->lv.player_x < 0)
		return 0;
	if (ed->monsters_done)
		return ed->lv.n_monsters;
	double t0 = clock_cpu_us();
	int n = ed->lv.n_monsters;
	if (n > ed->cap_mon_routes) {
		int *s = realloc(ed->mstart, (size_t)n * sizeof *s);
		if (s)
			ed->mstart = s;
		int *l = realloc(ed->mlen, (size_t)n * sizeof *l);
		if (l)
			ed->mlen = l;
		if (!s || !l)
			return 0;
		ed->cap_mon_routes = n;
	}
	struct path_options o = path_options_default();
	int start = ed->lv.player_y * ed->w + ed->lv.player_x;
	path_flood(ed->flood_ctx, start, &o, true, 0);
	ed->n_mcells = 0;
	int cells = ed->w * ed->h;
	for (int i = 0; i < n; i++) {
		int c = ed->lv.monsters[i].y * ed->w + ed->lv.monsters[i].x;
		ed->mstart[i] = ed->n_mcells;
		ed->mlen[i] = 0;
		if (path_flood_distance(ed->flood_ctx, c) < 0)
			continue;
		int guard = 0;
		while (c >= 0 && guard++ <= cells) {
			if (!push_mcell(ed, c))
				return 0;
			ed->mlen[i]++;
			if (c == start)
				break;
			c = path_flood_next(ed->flood_ctx, c, &o);
		}
	}
	ed->monsters_done = true;
	ed->refresh_us += clock_cpu_us() - t0;
	return n;
}

bool editor_monster_route(struct editor *ed, int i, int *x, int *y, const int **cells, int *len,
			  bool *reachable)
{
	int n = editor_monster_routes(ed);
	if (i < 0 || i >= n)
		return false;
	*x = ed->lv.monsters[i].x;
	*y = ed->lv.monsters[i].y;
	/* no cell at all when no monster reaches the start: mcells may be NULL */
	*cells = ed->mlen[i] > 0 ? ed->mcells + ed->mstart[i] : NULL;
	*len = ed->mlen[i];
	*reachable = ed->mlen[i] > 0;
	return true;
}

double editor_last_refresh_us(const struct editor *ed)
{
	return ed->refresh_us;
}
