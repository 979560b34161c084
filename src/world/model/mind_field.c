/*
 * mind_field.c - the small distance fields the pack and ambush minds share:
 * an exact Dijkstra toward one or more source cells over a window of the
 * level (a square of cells around a centre, or the whole level), with
 * one cell that may not be entered (the player's, for monsters that must
 * go round it), and the walk downhill along it.  It owns only the field's
 * buffers, sized once (mind_field_init) and reused: a run allocates
 * nothing.  The whole-level field toward the stairs and the questions the
 * minds ask of the map (where the player's way to the stairs goes, which
 * cells are narrow) are mind_stairs.c; who uses a field for what is in
 * mind_pack.c and mind_ambush.c.
 *
 * The rules of movement are the game's (grid_neighbours: the corner rule,
 * terrain multipliers); other monsters are not obstacles, as in the chase
 * rule's plans.  Distances are floats (a field is a guide for a few dozen
 * steps, or the likely way to the stairs, not a benchmark answer); the
 * queue orders by (distance, cell), so a field is the same on every run.
 */
#include "ai_internal.h"

#include <math.h>
#include <stdlib.h>

bool mind_field_init(struct mind_field *f, int cap)
{
	*f = (struct mind_field){ .cap = cap };
	size_t n = cap > 0 ? (size_t)cap : 1;
	/* calloc: on a large level the pages are made only where a run writes */
	f->dist = calloc(n, sizeof *f->dist);
	f->heap = calloc(n, sizeof *f->heap);
	f->pos = calloc(n, sizeof *f->pos);
	return f->dist && f->heap && f->pos;
}

void mind_field_fini(struct mind_field *f)
{
	free(f->dist);
	free(f->heap);
	free(f->pos);
	*f = (struct mind_field){ 0 };
}

/* Whether the window is the whole level: then a cell is its own index. */
static bool whole(const struct mind_field *f, const struct grid *g)
{
	return f->w == g->w && f->h == g->h;
}

/* The window's index of a level cell, or -1 outside it. */
static int local_of(const struct mind_field *f, const struct grid *g, int cell)
{
	if (cell < 0 || cell >= g->w * g->h)
		return -1;
	if (whole(f, g))
		return cell;
	int x = grid_x(g, cell) - f->x0, y = grid_y(g, cell) - f->y0;
	if (x < 0 || y < 0 || x >= f->w || y >= f->h)
		return -1;
	return y * f->w + x;
}

static int cell_of_local(const struct mind_field *f, const struct grid *g, int l)
{
	if (whole(f, g))
		return l;
	return grid_index(g, f->x0 + l % f->w, f->y0 + l / f->w);
}

/* The queue: a 4-ary heap of (distance, window index), smallest first;
 * the keys sit in the heap itself, so a comparison reads no other array. */
static bool before(struct mind_field_entry a, struct mind_field_entry b)
{
	return a.d < b.d || (a.d == b.d && a.l < b.l);
}

static void heap_put(struct mind_field *f, int at, struct mind_field_entry e)
{
	f->heap[at] = e;
	f->pos[e.l] = at;
}

static void heap_up(struct mind_field *f, int at, struct mind_field_entry e)
{
	while (at > 0) {
		int up = (at - 1) / 4;
		if (!before(e, f->heap[up]))
			break;
		heap_put(f, at, f->heap[up]);
		at = up;
	}
	heap_put(f, at, e);
}

static int heap_pop(struct mind_field *f)
{
	int top = f->heap[0].l;
	f->pos[top] = -2; /* settled */
	int n = --f->queued, at = 0;
	if (n == 0)
		return top;
	struct mind_field_entry e = f->heap[n];
	for (;;) {
		int c = 4 * at + 1;
		if (c >= n)
			break;
		int end = c + 4 < n ? c + 4 : n, best = c;
		for (int k = c + 1; k < end; k++)
			if (before(f->heap[k], f->heap[best]))
				best = k;
		if (!before(f->heap[best], e))
			break;
		heap_put(f, at, f->heap[best]);
		at = best;
	}
	heap_put(f, at, e);
	return top;
}

/* Whether the run never enters `cell`. */
static bool walled(const struct mind_field *f, int cell)
{
	for (int i = 0; i < f->n_walls; i++)
		if (f->walls[i] == cell)
			return true;
	return false;
}

bool mind_field_wall(struct mind_field *f, int cell)
{
	if (f->n_walls >= MIND_FIELD_WALLS)
		return false;
	f->walls[f->n_walls++] = cell;
	return true;
}

void mind_field_begin(struct mind_field *f, const struct grid *g, int centre, int radius, const int *sources,
		      int n, int blocked)
{
	f->queued = 0;
	f->walls[0] = blocked;
	f->n_walls = 1;
	if (radius < 0) {
		f->x0 = f->y0 = 0;
		f->w = g->w;
		f->h = g->h;
	} else {
		int cx = grid_x(g, centre), cy = grid_y(g, centre);
		f->x0 = cx - radius > 0 ? cx - radius : 0;
		f->y0 = cy - radius > 0 ? cy - radius : 0;
		int x1 = cx + radius + 1 < g->w ? cx + radius + 1 : g->w;
		int y1 = cy + radius + 1 < g->h ? cy + radius + 1 : g->h;
		f->w = x1 - f->x0;
		f->h = y1 - f->y0;
	}
	if ((long)f->w * f->h > f->cap) { /* a caller's mistake: an empty field */
		f->w = f->h = 0;
		return;
	}
	const int cells = f->w * f->h;
	for (int l = 0; l < cells; l++) {
		f->dist[l] = INFINITY;
		f->pos[l] = -1;
	}
	for (int i = 0; i < n; i++) {
		int l = local_of(f, g, sources[i]);
		if (l < 0 || walled(f, sources[i]) || !grid_passable(g, sources[i]) || f->pos[l] != -1)
			continue;
		f->dist[l] = 0;
		heap_up(f, f->queued++, (struct mind_field_entry){ 0, l });
	}
}

long mind_field_settle(struct mind_field *f, const struct grid *g, int target)
{
	int t = target >= 0 ? local_of(f, g, target) : -1;
	if (target >= 0 && t < 0)
		return 0; /* outside the window: never settled */
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	long settled = 0;
	while (f->queued > 0 && !(t >= 0 && f->pos[t] == -2)) {
		int u = heap_pop(f), cu = cell_of_local(f, g, u);
		settled++;
		/* a mover at v steps into cu: it pays cu's terrain */
		float enter = (float)g->cost[cu];
		int k = grid_neighbours(g, cu, false, s);
		for (int i = 0; i < k; i++) {
			int v = local_of(f, g, s[i].cell);
			if (v < 0 || f->pos[v] == -2 || walled(f, s[i].cell))
				continue;
			float d = f->dist[u] + (float)s[i].step * enter;
			if (!(d < f->dist[v]))
				continue;
			f->dist[v] = d;
			heap_up(f, f->pos[v] < 0 ? f->queued++ : f->pos[v], (struct mind_field_entry){ d, v });
		}
	}
	return settled;
}

bool mind_field_settled(const struct mind_field *f, const struct grid *g, int cell)
{
	int l = local_of(f, g, cell);
	return l >= 0 && f->pos[l] == -2;
}

long mind_field_run(struct mind_field *f, const struct grid *g, int centre, int radius, const int *sources,
		    int n, int blocked)
{
	mind_field_begin(f, g, centre, radius, sources, n, blocked);
	return mind_field_settle(f, g, -1);
}

float mind_field_dist(const struct mind_field *f, const struct grid *g, int cell)
{
	int l = local_of(f, g, cell);
	return l < 0 ? INFINITY : f->dist[l];
}

int mind_field_next(const struct mind_field *f, const struct grid *g, int cell, const int *occupant)
{
	int l = local_of(f, g, cell);
	if (l < 0 || !(f->dist[l] > 0) || isinf(f->dist[l]))
		return -1;
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int k = grid_neighbours(g, cell, false, s), best = -1;
	float best_d = INFINITY;
	for (int i = 0; i < k; i++) {
		int v = local_of(f, g, s[i].cell);
		if (v < 0 || !(f->dist[v] < f->dist[l]) || (occupant && occupant[s[i].cell] >= 0))
			continue;
		float d = f->dist[v] + (float)s[i].step * (float)g->cost[s[i].cell];
		if (d < best_d) {
			best_d = d;
			best = s[i].cell;
		}
	}
	return best;
}

int mind_field_route(const struct mind_field *f, const struct grid *g, int from, int *out, int cap)
{
	if (cap < 1)
		return 0;
	int len = 0, c = from;
	out[len++] = c;
	while (len < cap && (c = mind_field_next(f, g, c, NULL)) >= 0)
		out[len++] = c;
	return len;
}
