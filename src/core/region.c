/*
 * region.c - connected regions of a grid's passable cells (region.h), for
 * the fallback search (path.c): a goal outside the start's region cannot be
 * reached without crossing a blocked cell, which one comparison now says
 * where a search had to settle the whole start region to learn it.
 *
 * Each passable cell holds an id of a union-find over ids; the cells of a
 * region hold ids of one set.  A full labelling is a scan in cell order
 * that joins each cell to its earlier neighbours (a union-find over cell
 * indices held in the label array itself, every link to the smaller
 * index), then a second scan that gives each root a dense id (a cell's
 * parent is earlier, so it already holds its root's id).  No queue, no
 * memory beyond the labels and the sets.
 *
 * Changes: an opening cell unites the sets of its neighbours (by size);
 * a closing cell leaves its region whole when the passable cells around
 * it that touch it form one run around it (then they stay joined through
 * each other), and otherwise marks the labels stale, to be made again in
 * full by region_refresh before the next query.  Splitting a region
 * exactly would need a search of the region anyway; a closing that can
 * split one is rare in play (a door shut, a boulder moved), and a full
 * labelling costs about as much as one fallback search used to.
 *
 * What this file does not do: know which array the grid will point at
 * next, or notice a change nobody reports (the caller reports each one).
 */
#include "region.h"

#include <stdlib.h>
#include <string.h>

struct region {
	const struct grid *g;
	const uint8_t *cost;   /* the array the labels describe */
	bool cc;               /* corner cutting: long steps join cells too */
	bool stale;
	int w, h, n;
	int conn;              /* expansion-table rows that join cells: 4, 6 or 8 */
	int32_t *label;        /* n: a set id, or -1 blocked */
	int32_t *parent;       /* cap: the union-find over ids */
	int32_t *size;         /* cap: cells in a root's set */
	int32_t ids, cap;      /* ids in use, room */
	long regions;
	long rebuilds;
};

static int conn_rows(enum grid_topology t, bool cc)
{
	if (t == GRID_HEX)
		return 6;
	return cc && (t == GRID_SQUARE8 || t == GRID_DIAMOND8) ? 8 : 4;
}

/* Neighbour i (expansion table row) of (x, y), or -1 outside the map. */
static inline int nb(const struct region *r, int x, int y, int i)
{
	const enum grid_topology t = r->g->topo;
	const int nx = x + grid_nb_dx(t, y, i), ny = y + grid_nb_dy(t, i);
	if ((unsigned)nx >= (unsigned)r->w || (unsigned)ny >= (unsigned)r->h)
		return -1;
	return ny * r->w + nx;
}

static int32_t find_mut(struct region *r, int32_t id)
{
	while (r->parent[id] != id) {
		r->parent[id] = r->parent[r->parent[id]];
		id = r->parent[id];
	}
	return id;
}

static int32_t find_const(const struct region *r, int32_t id)
{
	while (r->parent[id] != id)
		id = r->parent[id];
	return id;
}

static bool reserve(struct region *r, int32_t need)
{
	if (need <= r->cap)
		return true;
	int32_t cap = r->cap > 0 ? r->cap : 64;
	while (cap < need)
		cap = cap > INT32_MAX / 2 ? INT32_MAX : cap * 2;
	int32_t *p = realloc(r->parent, (size_t)cap * sizeof *p);
	if (!p)
		return false;
	r->parent = p;
	int32_t *s = realloc(r->size, (size_t)cap * sizeof *s);
	if (!s)
		return false;
	r->size = s;
	r->cap = cap;
	return true;
}

/* The scan's union-find over cell indices, in the label array: a root
 * holds its own index, and every link goes to a smaller index. */
static int32_t cell_root(int32_t *lab, int32_t c)
{
	while (lab[c] != c) {
		lab[c] = lab[lab[c]];
		c = lab[c];
	}
	return c;
}

bool region_rebuild(struct region *r)
{
	const uint8_t *cost = r->g->cost;
	int32_t *lab = r->label;
	r->cost = cost;
	r->rebuilds++;
	for (int y = 0, c = 0; y < r->h; y++)
		for (int x = 0; x < r->w; x++, c++) {
			if (!cost[c]) {
				lab[c] = -1;
				continue;
			}
			lab[c] = c;
			for (int i = 0; i < r->conn; i++) {
				const int v = nb(r, x, y, i);
				if (v < 0 || v > c || !cost[v])
					continue;
				int32_t a = cell_root(lab, c), b = cell_root(lab, v);
				if (a != b) {
					if (a < b)
						lab[b] = a;
					else
						lab[a] = b;
				}
			}
		}
	/* Dense ids, coded -2 - id while the scan runs: a cell's parent is an
	 * earlier cell and already holds its root's code. */
	int32_t ids = 0;
	for (int c = 0; c < r->n; c++) {
		const int32_t p = lab[c];
		if (p < 0)
			continue;
		lab[c] = p == c ? -2 - ids++ : lab[p];
	}
	if (!reserve(r, ids > 0 ? ids : 1)) {
		r->stale = true;
		return false;
	}
	for (int32_t i = 0; i < ids; i++) {
		r->parent[i] = i;
		r->size[i] = 0;
	}
	for (int c = 0; c < r->n; c++)
		if (lab[c] <= -2) {
			lab[c] = -2 - lab[c];
			r->size[lab[c]]++;
		}
	r->ids = ids;
	r->regions = ids;
	r->stale = false;
	return true;
}

struct region *region_create(const struct grid *g, bool corner_cutting)
{
	if (!g)
		return NULL;
	struct region *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->g = g;
	r->cc = corner_cutting;
	r->w = g->w;
	r->h = g->h;
	r->n = g->w * g->h;
	r->conn = conn_rows(g->topo, corner_cutting);
	r->label = malloc((size_t)r->n * sizeof *r->label);
	if (!r->label || !region_rebuild(r)) {
		region_destroy(r);
		return NULL;
	}
	return r;
}

void region_destroy(struct region *r)
{
	if (!r)
		return;
	free(r->label);
	free(r->parent);
	free(r->size);
	free(r);
}

/*
 * The cells around `cell` in the order they ring it, as expansion-table
 * rows: consecutive ones are neighbours of each other (on hex all six
 * touch the centre; on square and diamond rows 0-3 are the short steps).
 */
static const uint8_t ring_square[8] = { 0, 5, 2, 7, 3, 6, 1, 4 };  /* N NE E SE S SW W NW */
static const uint8_t ring_diamond[8] = { 4, 0, 5, 2, 7, 3, 6, 1 }; /* N NE E SE S SW W NW */
static const uint8_t ring_hex[6] = { 1, 5, 4, 0, 2, 3 };           /* E SE SW W NW NE */

/* Whether closing `cell` leaves its region in one piece for sure: the
 * passable cells that touch it lie in one run around it. */
static bool closing_keeps_whole(const struct region *r, int cell)
{
	const enum grid_topology t = r->g->topo;
	const int x = cell % r->w, y = cell / r->w;
	const uint8_t *ring = t == GRID_HEX ? ring_hex : grid_is_diamond(t) ? ring_diamond : ring_square;
	const int len = t == GRID_HEX ? 6 : 8;
	bool open[8], touch[8];
	int first_closed = -1;
	for (int k = 0; k < len; k++) {
		const int v = nb(r, x, y, ring[k]);
		open[k] = v >= 0 && r->cost[v];
		touch[k] = ring[k] < r->conn;
		if (!open[k] && first_closed < 0)
			first_closed = k;
	}
	if (first_closed < 0)
		return true;
	int runs = 0;
	bool in_run = false, run_touches = false;
	for (int j = 1; j <= len; j++) {
		const int k = (first_closed + j) % len;
		if (open[k]) {
			in_run = true;
			run_touches = run_touches || touch[k];
		} else if (in_run) {
			runs += run_touches;
			in_run = false;
			run_touches = false;
		}
	}
	return runs <= 1;
}

void region_cell_changed(struct region *r, int cell, uint8_t old_cost)
{
	if (!r || cell < 0 || cell >= r->n)
		return;
	const bool now = r->cost[cell] != 0;
	if (now == (old_cost != 0) || r->stale)
		return;
	const int x = cell % r->w, y = cell / r->w;
	if (now) {
		int32_t root = -1;
		for (int i = 0; i < r->conn; i++) {
			const int v = nb(r, x, y, i);
			if (v < 0 || !r->cost[v] || r->label[v] < 0)
				continue;
			int32_t b = find_mut(r, r->label[v]);
			if (root < 0) {
				root = b;
			} else if (b != root) {
				if (r->size[b] > r->size[root]) {
					const int32_t t = b;
					b = root;
					root = t;
				}
				r->parent[b] = root;
				r->size[root] += r->size[b];
				r->regions--;
			}
		}
		if (root < 0) {
			if (!reserve(r, r->ids + 1)) {
				r->stale = true;
				return;
			}
			root = r->ids++;
			r->parent[root] = root;
			r->size[root] = 0;
			r->regions++;
		}
		r->label[cell] = root;
		r->size[root]++;
		return;
	}
	const int32_t id = r->label[cell];
	r->label[cell] = -1;
	if (id < 0)
		return;
	if (!closing_keeps_whole(r, cell)) {
		r->stale = true;
		return;
	}
	const int32_t root = find_mut(r, id);
	if (--r->size[root] == 0)
		r->regions--;
}

bool region_refresh(struct region *r)
{
	return !r->stale || region_rebuild(r);
}

bool region_current(const struct region *r, const uint8_t *cost, bool corner_cutting)
{
	return r && !r->stale && r->cost == cost && r->cc == corner_cutting;
}

int32_t region_of(const struct region *r, int cell)
{
	const int32_t id = r->label[cell];
	return id < 0 ? -1 : find_const(r, id);
}

long region_size(const struct region *r, int cell)
{
	const int32_t id = region_of(r, cell);
	return id < 0 ? 0 : r->size[id];
}

long region_count(const struct region *r) { return r->regions; }
bool region_stale(const struct region *r) { return r->stale; }
long region_rebuilds(const struct region *r) { return r->rebuilds; }

size_t region_memory(const struct region *r)
{
	return sizeof *r + (size_t)r->n * sizeof *r->label + 2 * (size_t)r->cap * sizeof *r->parent;
}
