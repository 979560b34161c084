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
	sh->retopo = true;
	sh->topo = (int)ed->topo;
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
	enum grid_topology topo = sh->retopo ? (enum grid_topology)sh->topo : ed->topo;
	bool regrid = sized || topo != ed->topo;
	int nw = map ? sh->w : ed->w, nh = map ? sh->h : ed->h;
	size_t cells = (size_t)nw * (size_t)nh;
	char *glyphs = map ? malloc(cells) : NULL;
	uint8_t *tiles = sized ? malloc(cells) : NULL;
	struct grid *g = regrid ? grid_create(nw, nh, topo) : NULL;
	struct path_ctx *rc = g ? path_create(g) : NULL, *fc = g ? path_create(g) : NULL;
	if ((map && !glyphs) || (sized && !tiles) || (regrid && (!rc || !fc))) {
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
	}
	if (regrid) {
		path_destroy(ed->route_ctx);
		path_destroy(ed->flood_ctx);
		grid_destroy(ed->grid);
		ed->grid = g;
		ed->route_ctx = rc;
		ed->flood_ctx = fc;
		ed->w = nw;
		ed->h = nh;
		ed->topo = topo;
	}
	if (!editor_sealed_text_update(ed))
		ed->sealed_text = NULL; /* no memory: the header screen shows none; the cells stay */
	ed->stale = true;
	return true;
}

bool editor_sealed_text_update(struct editor *ed)
{
	free(ed->sealed_text);
	ed->sealed_text = NULL;
	if (ed->n_sealed == 0)
		return true;
	size_t cap = (size_t)ed->n_sealed * 24 + 1, n = 0;
	char *t = malloc(cap);
	if (!t)
		return false;
	for (int i = 0; i < ed->n_sealed; i++)
		n += (size_t)snprintf(t + n, cap - n, "%s%d,%d", i ? " " : "", ed->sealed[i].x, ed->sealed[i].y);
	ed->sealed_text = t;
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
	[EDITOR_SEALED] = "sealed", [EDITOR_TOPOLOGY] = "topology",
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
	case EDITOR_SEALED: return ed->sealed_text;
	case EDITOR_TOPOLOGY: return grid_topology_name(ed->topo);
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
	if (n == a && f == EDITOR_TOPOLOGY) {
		snprintf(err, errlen, "topology: a level needs one (square4, square8, hex, diamond4 or diamond8)");
		return false;
	}
	return true;
}

/* The topology named value[a, n) of the same layout as the map's; false with the reason. */
static bool parse_topology(const struct editor *ed, const char *value, size_t a, size_t n, enum grid_topology *out,
			   char *err, size_t errlen)
{
	static const enum grid_topology all[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		const char *name = grid_topology_name(all[i]);
		if (strlen(name) != n - a || memcmp(name, value + a, n - a) != 0)
			continue;
		if (grid_is_staggered(all[i]) != grid_is_staggered(ed->topo)) {
			snprintf(err, errlen, "topology: %s lays its rows out %s, this map %s: %s only", name,
				 grid_is_staggered(all[i]) ? "shifted" : "straight",
				 grid_is_staggered(ed->topo) ? "shifted" : "straight",
				 grid_is_staggered(ed->topo) ? "hex, diamond4 or diamond8" : "square4 or square8");
			return false;
		}
		*out = all[i];
		return true;
	}
	snprintf(err, errlen, "topology: unknown '%.*s' (square4, square8, hex, diamond4 or diamond8)",
		 (int)(n - a > 20 ? 20 : n - a), value + a);
	return false;
}

/* The sealed cells of value[a, n) ("X,Y X,Y"), each on the map and standable; false with the reason. */
static bool parse_sealed_cells(struct editor *ed, const char *value, size_t a, size_t n, struct level_cell **out,
			       int *count, char *err, size_t errlen)
{
	*out = NULL;
	*count = 0;
	const struct level *lv = editor_level(ed);
	if (!lv) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	int cap = 0;
	size_t i = a;
	while (i < n) {
		while (i < n && value[i] == ' ')
			i++;
		if (i >= n)
			break;
		size_t t = i;
		while (i < n && value[i] != ' ')
			i++;
		long x = -1, y = -1;
		char tok[32];
		size_t tl = i - t;
		int used = 0;
		if (tl < sizeof tok) {
			memcpy(tok, value + t, tl);
			tok[tl] = '\0';
		}
		if (tl >= sizeof tok || sscanf(tok, "%ld,%ld%n", &x, &y, &used) != 2 || (size_t)used != tl ||
		    tok[0] == '+' || tok[0] == '-' || strchr(tok, ' ') || strstr(tok, ",+") || strstr(tok, ",-")) {
			snprintf(err, errlen, "sealed: '%.*s' at character %zu is not a cell X,Y (like 12,4)",
				 (int)(tl > 20 ? 20 : tl), value + t, t - a + 1);
			free(*out);
			return false;
		}
		if (x < 0 || y < 0 || x >= ed->w || y >= ed->h) {
			snprintf(err, errlen, "sealed: cell %ld,%ld is outside the map (%dx%d cells)", x, y, ed->w, ed->h);
			free(*out);
			return false;
		}
		if (tile_info(level_tile(lv, (int)x, (int)y))->cost == 0) {
			snprintf(err, errlen,
				 "sealed: cell %ld,%ld is blocked (%s): name a cell one can stand on inside the region",
				 x, y, tile_info(level_tile(lv, (int)x, (int)y))->name);
			free(*out);
			return false;
		}
		if (*count == cap) {
			int nc = cap ? 2 * cap : 4;
			struct level_cell *c = realloc(*out, (size_t)nc * sizeof *c);
			if (!c) {
				snprintf(err, errlen, "out of memory");
				free(*out);
				return false;
			}
			*out = c;
			cap = nc;
		}
		(*out)[(*count)++] = (struct level_cell){ (int)x, (int)y };
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
	enum grid_topology topo = ed->topo;
	struct level_cell *cells = NULL;
	int n_cells = 0;
	if (f == EDITOR_TOPOLOGY && !parse_topology(ed, value, a, n, &topo, err, errlen))
		return -1;
	if (f == EDITOR_SEALED && !parse_sealed_cells(ed, value, a, n, &cells, &n_cells, err, errlen))
		return -1;
	struct shape after;
	memset(&after, 0, sizeof after);
	bool ok = f == EDITOR_SEALED
			  ? header_dup(ed->name, ed->author, ed->description, cells, n_cells, &after)
			  : header_dup(ed->name, ed->author, ed->description, ed->sealed, ed->n_sealed, &after);
	free(cells);
	if (!ok) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	after.retopo = true;
	after.topo = (int)topo;
	if (f == EDITOR_SEALED || f == EDITOR_TOPOLOGY) {
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
