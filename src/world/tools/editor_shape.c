/*
 * editor_shape.c - the edits of `astray edit` that change more than
 * cells: a header key (name, author, description, checked as the parser
 * would read it back), a resize on any side, and a whole level put in
 * place of the map (a restored recovery).  Each is one undo step, a
 * reshape that keeps the whole state before and after, so undo and redo
 * swap them (editor_shape_apply); the history itself is editor.c's.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void editor_shape_free(struct shape *sh)
{
	free(sh->name);
	free(sh->author);
	free(sh->description);
	free(sh->sealed);
	free(sh->glyphs);
	memset(sh, 0, sizeof *sh);
}

/* Copies of a header into out's header fields; false (nothing kept) on no memory. */
static bool header_dup(const char *name, const char *author, const char *description,
		       const struct level_cell *sealed, int n_sealed, struct shape *out)
{
	out->name = editor_dup_str(name);
	out->author = editor_dup_str(author);
	out->description = editor_dup_str(description);
	out->n_sealed = n_sealed;
	out->sealed = NULL;
	if (n_sealed > 0) {
		out->sealed = malloc((size_t)n_sealed * sizeof *out->sealed);
		if (out->sealed)
			memcpy(out->sealed, sealed, (size_t)n_sealed * sizeof *out->sealed);
	}
	if ((name && !out->name) || (author && !out->author) || (description && !out->description) ||
	    (n_sealed > 0 && !out->sealed)) {
		free(out->name);
		free(out->author);
		free(out->description);
		free(out->sealed);
		return false;
	}
	return true;
}

/* Copies of the header (and, with `map`, the cells) as they are now. */
static bool shape_take(const struct editor *ed, struct shape *sh, bool map)
{
	memset(sh, 0, sizeof *sh);
	if (!header_dup(ed->name, ed->author, ed->description, ed->sealed, ed->n_sealed, sh))
		return false;
	sh->w = ed->w;
	sh->h = ed->h;
	sh->origin_x = ed->origin_x;
	sh->origin_y = ed->origin_y;
	if (map) {
		size_t cells = (size_t)ed->w * (size_t)ed->h;
		sh->glyphs = malloc(cells);
		if (!sh->glyphs) {
			editor_shape_free(sh);
			return false;
		}
		memcpy(sh->glyphs, ed->glyphs, cells);
	}
	return true;
}

/*
 * Makes sh the editor's header (and map, when sh->glyphs): everything is
 * allocated first, so on no memory nothing has changed (false).  Markers
 * move with the map and are removed when they fall outside it.
 */
bool editor_shape_apply(struct editor *ed, const struct shape *sh)
{
	struct shape now;
	memset(&now, 0, sizeof now);
	if (!header_dup(sh->name, sh->author, sh->description, sh->sealed, sh->n_sealed, &now))
		return false;
	bool map = sh->glyphs != NULL, sized = map && (sh->w != ed->w || sh->h != ed->h);
	size_t cells = (size_t)sh->w * (size_t)sh->h;
	char *glyphs = map ? malloc(cells) : NULL;
	uint8_t *tiles = sized ? malloc(cells) : NULL;
	struct grid *g = sized ? grid_create(sh->w, sh->h, ed->topo) : NULL;
	struct path_ctx *rc = g ? path_create(g) : NULL, *fc = g ? path_create(g) : NULL;
	if ((map && !glyphs) || (sized && (!tiles || !rc || !fc))) {
		free(glyphs);
		free(tiles);
		path_destroy(rc);
		path_destroy(fc);
		grid_destroy(g);
		editor_shape_free(&now);
		return false;
	}
	free(ed->name);
	free(ed->author);
	free(ed->description);
	free(ed->sealed);
	ed->name = now.name;
	ed->author = now.author;
	ed->description = now.description;
	ed->sealed = now.sealed;
	ed->n_sealed = now.n_sealed;
	if (map) {
		memcpy(glyphs, sh->glyphs, cells);
		free(ed->glyphs);
		ed->glyphs = glyphs;
		for (int k = 0; k < 2; k++) {
			int mx = ed->marker_x[k] + sh->origin_x - ed->origin_x;
			int my = ed->marker_y[k] + sh->origin_y - ed->origin_y;
			bool in = ed->marker_x[k] >= 0 && mx >= 0 && my >= 0 && mx < sh->w && my < sh->h;
			ed->marker_x[k] = in ? mx : -1;
			ed->marker_y[k] = in ? my : -1;
		}
		ed->origin_x = sh->origin_x;
		ed->origin_y = sh->origin_y;
	}
	if (sized) {
		free(ed->lv.tiles);
		ed->lv.tiles = tiles;
		path_destroy(ed->route_ctx);
		path_destroy(ed->flood_ctx);
		grid_destroy(ed->grid);
		ed->grid = g;
		ed->route_ctx = rc;
		ed->flood_ctx = fc;
		ed->w = sh->w;
		ed->h = sh->h;
	}
	ed->stale = true;
	return true;
}

/*
 * One undo step that changes the header or the size: `after` (owned from
 * here on, freed on failure) becomes the editor's state.  Returns 1, or -1
 * on no memory (nothing changed) or inside an open stroke.
 */
static int reshape(struct editor *ed, struct shape *after)
{
	struct shape before;
	if (ed->group > 0 || !shape_take(ed, &before, after->glyphs != NULL)) {
		editor_shape_free(after);
		return -1;
	}
	if (ed->n_reshapes == ed->cap_reshapes) {
		int cap = ed->cap_reshapes ? 2 * ed->cap_reshapes : 8;
		struct reshape *r = realloc(ed->reshapes, (size_t)cap * sizeof *r);
		if (!r) {
			editor_shape_free(&before);
			editor_shape_free(after);
			return -1;
		}
		ed->reshapes = r;
		ed->cap_reshapes = cap;
	}
	editor_begin(ed); /* drops the redo steps, and their reshapes */
	int k = ed->n_reshapes;
	bool applied = editor_shape_apply(ed, after);
	if (!applied || !editor_record(ed, -1 - k, 0, 0)) {
		if (applied)
			(void)editor_shape_apply(ed, &before);
		editor_shape_free(&before);
		editor_shape_free(after);
		editor_end(ed);
		return -1;
	}
	ed->reshapes[k] = (struct reshape){ before, *after };
	ed->n_reshapes = k + 1;
	editor_end(ed);
	return 1;
}

static const char *const field_names[EDITOR_FIELDS] = {
	[EDITOR_NAME] = "name", [EDITOR_AUTHOR] = "author", [EDITOR_DESCRIPTION] = "description",
};

const char *editor_field_name(enum editor_field f)
{
	return f >= 0 && f < EDITOR_FIELDS ? field_names[f] : "?";
}

const char *editor_header(const struct editor *ed, enum editor_field f)
{
	switch (f) {
	case EDITOR_NAME: return ed->name;
	case EDITOR_AUTHOR: return ed->author;
	case EDITOR_DESCRIPTION: return ed->description;
	default: return NULL;
	}
}

/* The value trimmed as the parser trims it: value[*a .. *n). */
static void trim(const char *value, size_t *a, size_t *n)
{
	*n = strlen(value);
	*a = 0;
	while (*a < *n && value[*a] == ' ')
		(*a)++;
	while (*n > *a && value[*n - 1] == ' ')
		(*n)--;
}

bool editor_header_check(enum editor_field f, const char *value, char *err, size_t errlen)
{
	if (f < 0 || f >= EDITOR_FIELDS) {
		snprintf(err, errlen, "no such header key");
		return false;
	}
	size_t a, n;
	trim(value, &a, &n);
	for (size_t i = a; i < n; i++) {
		unsigned char c = (unsigned char)value[i];
		if (c < 0x20 || c >= 0x7f) {
			snprintf(err, errlen, "%s: character %zu is %s 0x%02X: level files are plain ASCII text",
				 field_names[f], i - a + 1, c >= 0x80 ? "the non-ASCII byte" : "the control character", c);
			return false;
		}
		if (c == ';' && (i == a || value[i - 1] == ' ')) {
			snprintf(err, errlen,
				 "%s: the ';' at character %zu would start a comment in the file (no space before it)",
				 field_names[f], i - a + 1);
			return false;
		}
	}
	if (n == a && f == EDITOR_NAME) {
		snprintf(err, errlen, "name: a level needs a name");
		return false;
	}
	return true;
}

int editor_set_header(struct editor *ed, enum editor_field f, const char *value, char *err,
		      size_t errlen)
{
	if (!editor_header_check(f, value, err, errlen))
		return -1;
	size_t a, n;
	trim(value, &a, &n);
	const char *now = editor_header(ed, f);
	if ((n == a && !now) || (now && strlen(now) == n - a && memcmp(now, value + a, n - a) == 0))
		return 0;
	struct shape after;
	memset(&after, 0, sizeof after);
	if (!header_dup(ed->name, ed->author, ed->description, ed->sealed, ed->n_sealed, &after)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	char *v = NULL;
	if (n > a) {
		v = malloc(n - a + 1);
		if (!v) {
			editor_shape_free(&after);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memcpy(v, value + a, n - a);
		v[n - a] = '\0';
	}
	char **slot = f == EDITOR_NAME ? &after.name : f == EDITOR_AUTHOR ? &after.author : &after.description;
	free(*slot);
	*slot = v;
	after.w = ed->w;
	after.h = ed->h;
	after.origin_x = ed->origin_x;
	after.origin_y = ed->origin_y;
	if (reshape(ed, &after) < 0) {
		snprintf(err, errlen, ed->group > 0 ? "finish the stroke first" : "out of memory");
		return -1;
	}
	return 1;
}

int editor_resize(struct editor *ed, int left, int top, int right, int bottom, char *err, size_t errlen)
{
	long nw = (long)ed->w + left + right, nh = (long)ed->h + top + bottom;
	if (nw < 1 || nh < 1 || nw > LEVEL_MAX_SIDE || nh > LEVEL_MAX_SIDE) {
		snprintf(err, errlen, "the map would be %ldx%ld cells: each side goes from 1 to %d", nw, nh,
			 LEVEL_MAX_SIDE);
		return -1;
	}
	if (grid_is_staggered(ed->topo) && (top & 1)) {
		snprintf(err, errlen,
			 "on %s maps rows come and go in pairs at the top, so that every row keeps "
			 "its half-cell shift and the map its shape",
			 ed->topo == GRID_HEX ? "hex" : "diamond");
		return -1;
	}
	if (left == 0 && top == 0 && right == 0 && bottom == 0)
		return 0;
	struct shape after;
	memset(&after, 0, sizeof after);
	after.w = (int)nw;
	after.h = (int)nh;
	after.origin_x = ed->origin_x + left;
	after.origin_y = ed->origin_y + top;
	after.glyphs = malloc((size_t)nw * (size_t)nh);
	struct level_cell *sealed = ed->n_sealed ? malloc((size_t)ed->n_sealed * sizeof *sealed) : NULL;
	int n_sealed = 0;
	if (!after.glyphs || (ed->n_sealed && !sealed)) {
		free(after.glyphs);
		free(sealed);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(after.glyphs, ' ', (size_t)nw * (size_t)nh);
	for (int y = 0; y < ed->h; y++) {
		int ny = y + top;
		if (ny < 0 || ny >= nh)
			continue;
		for (int x = 0; x < ed->w; x++) {
			int nx = x + left;
			if (nx >= 0 && nx < nw)
				after.glyphs[(size_t)ny * (size_t)nw + (size_t)nx] = ed->glyphs[y * ed->w + x];
		}
	}
	/* sealed cells move with the map; those cut off go (undo brings them back) */
	for (int i = 0; i < ed->n_sealed; i++) {
		int x = ed->sealed[i].x + left, y = ed->sealed[i].y + top;
		if (x >= 0 && y >= 0 && x < nw && y < nh)
			sealed[n_sealed++] = (struct level_cell){ x, y };
	}
	bool ok = header_dup(ed->name, ed->author, ed->description, sealed, n_sealed, &after);
	free(sealed);
	if (!ok) {
		free(after.glyphs);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (reshape(ed, &after) < 0) {
		snprintf(err, errlen, ed->group > 0 ? "finish the stroke first" : "out of memory");
		return -1;
	}
	return 1;
}

int editor_replace(struct editor *ed, const struct level *lv, char *err, size_t errlen)
{
	if (lv->topo != ed->topo) {
		snprintf(err, errlen, "it is a %s map and this one is %s", grid_topology_name(lv->topo),
			 grid_topology_name(ed->topo));
		return -1;
	}
	if (lv->w < 1 || lv->h < 1 || lv->w > LEVEL_MAX_SIDE || lv->h > LEVEL_MAX_SIDE) {
		snprintf(err, errlen, "its map is %dx%d cells: each side goes from 1 to %d", lv->w, lv->h,
			 LEVEL_MAX_SIDE);
		return -1;
	}
	struct shape after;
	memset(&after, 0, sizeof after);
	if (!header_dup(lv->name ? lv->name : "untitled", lv->author, lv->description, lv->sealed, lv->n_sealed,
			&after)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	after.w = lv->w;
	after.h = lv->h;
	after.origin_x = ed->origin_x; /* the map's 0,0 stays where it is */
	after.origin_y = ed->origin_y;
	after.glyphs = malloc((size_t)lv->w * (size_t)lv->h);
	if (!after.glyphs) {
		editor_shape_free(&after);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	editor_level_glyphs(lv, after.glyphs);
	if (reshape(ed, &after) < 0) {
		snprintf(err, errlen, ed->group > 0 ? "finish the stroke first" : "out of memory");
		return -1;
	}
	return 1;
}
