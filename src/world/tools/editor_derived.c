/*
 * editor_derived.c - what `astray edit` derives from the map, recomputed
 * on the first read after a change (so a stroke of many cells pays
 * once): the struct level the game and the checks read, the diagnostics
 * of `astray check` (the parser's errors of a file loaded broken, listed
 * until saved, then its missing start or exit, then level_analyse), the
 * route between two markers with `astray path`'s options, and every
 * monster's route to the start, with the CPU time they took.  It changes
 * nothing of the map.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* ---- the derived level ------------------------------------------------- */

/* The terrain under a glyph: things stand on floor, the exit is terrain. */
static enum tile glyph_tile(char c)
{
	switch (c) {
	case '#': return TILE_WALL;
	case '%': return TILE_BEDROCK;
	case ',': return TILE_RUBBLE;
	case '~': return TILE_WATER;
	case '+': return TILE_DOOR;
	case '>': return TILE_EXIT;
	case ' ': return TILE_VOID;
	default: return TILE_FLOOR;
	}
}

/* The line of the map in editor_write's text (see level_write). */
static int map_line(const struct editor *ed)
{
	return 1 + 1 + 1 + (ed->author ? 1 : 0) + (ed->description ? 1 : 0) + (ed->n_sealed ? 1 : 0) + 1 + 1;
}

/* What a glyph puts in the level: its terrain, and whether it is the
 * start, an item (its class) or a monster.  A table of all 256, made
 * once a build: on a 4096x4096 map the build reads 16 M glyphs, and a
 * test of each against the item glyphs, a division for its x and y and a
 * cost set with its column bit cell by cell took most of a stroke's
 * 0.4 s. */
enum glyph_role { ROLE_TERRAIN, ROLE_START, ROLE_ITEM, ROLE_MONSTER };

struct glyph_class {
	uint8_t tile[256];
	uint8_t role[256];
	int8_t item[256];
};

static void glyph_classes(struct glyph_class *gc)
{
	for (int c = 0; c < 256; c++) {
		const char ch = (char)c;
		gc->tile[c] = (uint8_t)glyph_tile(ch);
		gc->item[c] = (int8_t)item_class_of_glyph(ch);
		gc->role[c] = ch == '@' ? ROLE_START
			     : gc->item[c] >= 0 ? ROLE_ITEM
			     : editor_is_letter(ch) ? ROLE_MONSTER
			     : ROLE_TERRAIN;
	}
}

/* Room for one more of n records of `size` bytes at list, its capacity
 * *cap doubled when full: the list, moved or not, or NULL on no memory
 * (list is then as it was). */
static void *room_for(void *list, int n, int *cap, size_t size)
{
	if (n < *cap)
		return list;
	const int more = *cap ? *cap * 2 : 16;
	void *grown = realloc(list, (size_t)more * size);
	if (grown)
		*cap = more;
	return grown;
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
	struct glyph_class gc;
	glyph_classes(&gc);
	const unsigned char *glyphs = (const unsigned char *)ed->glyphs;
	for (int y = 0, i = 0; y < ed->h; y++) {
		for (int x = 0; x < ed->w; x++, i++) {
			const unsigned char c = glyphs[i];
			lv->tiles[i] = gc.tile[c];
			switch ((enum glyph_role)gc.role[c]) {
			case ROLE_TERRAIN:
				break;
			case ROLE_START:
				lv->player_x = x;
				lv->player_y = y;
				break;
			case ROLE_ITEM: {
				struct level_item *items =
					room_for(lv->items, lv->n_items, &ed->cap_items, sizeof *items);
				if (!items)
					return false;
				lv->items = items;
				lv->items[lv->n_items++] = (struct level_item){ (enum item_kind)gc.item[c], x, y };
				break;
			}
			case ROLE_MONSTER: {
				struct level_monster *ms =
					room_for(lv->monsters, lv->n_monsters, &ed->cap_monsters, sizeof *ms);
				if (!ms)
					return false;
				lv->monsters = ms;
				lv->monsters[lv->n_monsters++] = (struct level_monster){ (char)c, x, y };
				break;
			}
			}
		}
	}
	/* every cell's cost through its tile's, the grid's bits made once */
	uint8_t cost[256];
	for (int t = 0; t < 256; t++)
		cost[t] = tile_info((enum tile)t)->cost;
	grid_set_costs_mapped(ed->grid, lv->tiles, cost);
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
	ed->has_exit = exit;
	if (lv->player_x < 0)
		diag_add(&ed->diags, DIAG_ERROR, ed->file, lv->map_line - 1, 1,
			 "no player start: put exactly one '@' on the map");
	if (!exit)
		diag_add(&ed->diags, DIAG_ERROR, ed->file, lv->map_line - 1, 1,
			 "no exit: put at least one '>' on the map");
	if (lv->player_x >= 0)
		level_analyse_grid(lv, ed->grid, ed->b, &ed->diags); /* build_level filled the grid */
}

static void refresh(struct editor *ed)
{
	if (!ed->stale)
		return;
	double t0 = clock_cpu_us();
	ed->stale = false;
	ed->monsters_done = false;
	ed->plans_done = false;
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
