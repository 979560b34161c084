/*
 * path.c - the A* core.  A context is sized once for a grid and reused: its
 * per-cell records carry a generation stamp, so a new query starts by
 * bumping a counter instead of clearing memory, and no query allocates.
 *
 * One search loop serves A*, weighted A*, Dijkstra, budgets and the
 * obstacle-penalty fallback on all three topologies.  Uniform-cost square8
 * queries without corner cutting, extra costs, fallback or budget go
 * through jump point search first; its answer is checked cell by cell and
 * the plain loop takes over if the route touches a cell whose cost is not 1
 * (so JPS never changes a result's cost, only how fast it is found).
 *
 * Decisions this file makes (docs/core.md repeats them):
 * - Priority: lowest f = g + weight * h; equal f goes to the larger g; a
 *   remaining tie is settled by the heap's fixed sequence of operations, so
 *   one query gives one path on every run.
 * - Fallback with automatic P is lexicographic: fewest blocked cells first,
 *   then least travel (the limit of "P above any wall-free path", without
 *   the rounding a huge P would bring).  The search runs in layers: every
 *   cell reachable with k blocked cells is settled before any needing k + 1.
 *   A finite P (opt->penalty > 0) is added to the cost instead.
 * - Entering a blocked cell costs the plain step (1 or sqrt 2) plus P; a
 *   step into or out of a blocked cell checks no corners; entering a
 *   passable cell always costs step * terrain (+ extra), wherever from.
 * - The start never counts as blocked (a mover may stand in a doorway that
 *   has just closed); the walk is cut before the first blocked cell after it.
 * - Budget: the partial path ends at the expanded cell with the lowest h,
 *   ties to the lower g, then to the one expanded first.
 */
#include "path.h"

#include <stdlib.h>
#include <string.h>

#define POS_CLOSED (-1)
/* pos <= POS_PENDING0: waiting for the next fallback layer at index POS_PENDING0 - pos */
#define POS_PENDING0 (-2)
#define DIR_NONE 255
#define HEAP_D 4 /* children per heap node */

/* 16 bytes per cell: everything a neighbour test touches is on one line. */
struct node {
	double g;        /* cost from the start (travel only in lexicographic fallback) */
	int32_t pos;     /* heap index, POS_CLOSED, or a pending-layer slot */
	uint16_t stamp;  /* the record is live when stamp == ctx->gen */
	uint8_t dir;     /* direction (grid.c order) from this cell toward its parent; DIR_NONE at the start */
	uint8_t unused;
};

/* A heap entry: f, and g at single precision for the tie rule. */
struct hent {
	double f;
	float g;
	int32_t cell;
};

struct path_ctx {
	const struct grid *grid;
	int w, h, n;
	struct node *node;     /* n records */
	struct hent *heap;     /* cap entries; also the pending layer (from the end) and the result cells */
	int cap;
	int heap_len;
	int pending_len;
	uint16_t gen;
	int flood_source;      /* -1 when the last query was not a flood */
};

struct path_options path_options_default(void)
{
	return (struct path_options){ .weight = 1.0, .corner_cutting = false, .fallback = false,
				      .penalty = 0.0, .budget = 0, .extra = NULL,
				      .plain_astar = false };
}

/*
 * Heap capacity.  Every open or pending cell was first seen as a neighbour
 * of an expanded (closed) one and a cell has at most 8 neighbours, so
 * open <= 8 * closed and open + closed <= n give open <= 8n/9.  The result
 * cells (at most n ints) fit in the same bytes.
 */
static int heap_capacity(int n)
{
	int cap = n - n / 9 + 9;
	return cap > n ? n : cap;
}

struct path_ctx *path_create(const struct grid *g)
{
	if (!g || g->w <= 0 || g->h <= 0)
		return NULL;
	struct path_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	size_t n = (size_t)g->w * (size_t)g->h;
	ctx->grid = g;
	ctx->w = g->w;
	ctx->h = g->h;
	ctx->n = (int)n;
	ctx->cap = heap_capacity(ctx->n);
	ctx->node = calloc(n, sizeof *ctx->node);
	ctx->heap = malloc((size_t)ctx->cap * sizeof *ctx->heap);
	if (!ctx->node || !ctx->heap) {
		path_destroy(ctx);
		return NULL;
	}
	ctx->gen = 0;
	ctx->flood_source = -1;
	return ctx;
}

void path_destroy(struct path_ctx *ctx)
{
	if (!ctx)
		return;
	free(ctx->node);
	free(ctx->heap);
	free(ctx);
}

size_t path_memory(const struct path_ctx *ctx)
{
	if (!ctx)
		return 0;
	return sizeof *ctx + (size_t)ctx->n * sizeof *ctx->node + (size_t)ctx->cap * sizeof *ctx->heap;
}

/* A new generation: every record becomes stale at once. */
static void new_generation(struct path_ctx *ctx)
{
	ctx->gen++;
	if (ctx->gen == 0) {
		for (int i = 0; i < ctx->n; i++)
			ctx->node[i].stamp = 0;
		ctx->gen = 1;
	}
	ctx->heap_len = 0;
	ctx->pending_len = 0;
	ctx->flood_source = -1;
}

/* ---- the priority queue: a 4-ary heap with decrease-key ---- */

/* Does a come out before b?  Lower f, then larger g. */
static inline bool before(const struct hent *a, const struct hent *b)
{
	return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static inline void sift_up(struct path_ctx *ctx, int i, struct hent e)
{
	struct hent *heap = ctx->heap;
	struct node *node = ctx->node;
	while (i > 0) {
		int p = (i - 1) / HEAP_D;
		if (!before(&e, &heap[p]))
			break;
		heap[i] = heap[p];
		node[heap[i].cell].pos = i;
		i = p;
	}
	heap[i] = e;
	node[e.cell].pos = i;
}

static inline void sift_down(struct path_ctx *ctx, int i, struct hent e)
{
	struct hent *heap = ctx->heap;
	struct node *node = ctx->node;
	const int len = ctx->heap_len;
	for (;;) {
		int c = HEAP_D * i + 1;
		if (c >= len)
			break;
		int m;
		if (c + 3 < len) {
			int a = before(&heap[c + 1], &heap[c]) ? c + 1 : c;
			int b = before(&heap[c + 3], &heap[c + 2]) ? c + 3 : c + 2;
			m = before(&heap[b], &heap[a]) ? b : a;
		} else {
			m = c;
			for (int k = c + 1; k < len; k++)
				if (before(&heap[k], &heap[m]))
					m = k;
		}
		if (!before(&heap[m], &e))
			break;
		heap[i] = heap[m];
		node[heap[i].cell].pos = i;
		i = m;
	}
	heap[i] = e;
	node[e.cell].pos = i;
}

static inline void heap_push(struct path_ctx *ctx, int cell, double f, double g)
{
	struct hent e = { f, (float)g, cell };
	sift_up(ctx, ctx->heap_len++, e);
}

static inline void heap_decrease(struct path_ctx *ctx, int cell, double f, double g)
{
	struct hent e = { f, (float)g, cell };
	sift_up(ctx, ctx->node[cell].pos, e);
}

static inline int heap_pop(struct path_ctx *ctx)
{
	int top = ctx->heap[0].cell;
	ctx->heap_len--;
	if (ctx->heap_len > 0)
		sift_down(ctx, 0, ctx->heap[ctx->heap_len]);
	ctx->node[top].pos = POS_CLOSED;
	return top;
}

/* The pending layer lives at the far end of the heap array, growing down:
 * heap cells and pending cells are distinct open cells, so both fit. */
static inline void pending_add(struct path_ctx *ctx, int cell)
{
	int slot = ctx->pending_len++;
	ctx->heap[ctx->cap - 1 - slot].cell = cell;
	ctx->node[cell].pos = POS_PENDING0 - slot;
}

/* ---- topology tables ---- */

/* N, W, E, S, NW, NE, SW, SE: the order of grid.c. */
static const int sq_dx[8] = { 0, -1, 1, 0, -1, 1, -1, 1 };
static const int sq_dy[8] = { -1, 0, 0, 1, -1, -1, 1, 1 };
static const uint8_t sq_opp[8] = { 3, 2, 1, 0, 7, 6, 5, 4 };
/* odd-r hex: W, E, NW, NE, SW, SE for even and odd rows (grid.c order). */
static const int hx_dx[2][6] = { { -1, 1, -1, 0, -1, 0 }, { -1, 1, 0, 1, 0, 1 } };
static const int hx_dy[6] = { 0, 0, -1, -1, 1, 1 };
static const uint8_t hx_opp[6] = { 1, 0, 5, 4, 3, 2 };

static inline int iabs(int v) { return v < 0 ? -v : v; }
static inline int sgn(int v) { return (v > 0) - (v < 0); }

static inline double heuristic(enum grid_topology topo, int x, int y, int gx, int gy)
{
	switch (topo) {
	case GRID_SQUARE4:
		return (double)(iabs(x - gx) + iabs(y - gy));
	case GRID_SQUARE8: {
		int dx = iabs(x - gx), dy = iabs(y - gy);
		return dx < dy ? dy + (GRID_SQRT2 - 1.0) * dx : dx + (GRID_SQRT2 - 1.0) * dy;
	}
	case GRID_HEX:
		break;
	}
	int dx = iabs((2 * x + (y & 1)) - (2 * gx + (gy & 1))), dy = iabs(y - gy);
	return (double)(dy + (dx > dy ? (dx - dy) / 2 : 0));
}

/* The cell one step from `cell` in direction d (known to be in the map). */
static inline int step_cell(const struct path_ctx *ctx, int cell, int d)
{
	int x = cell % ctx->w, y = cell / ctx->w;
	if (ctx->grid->topo == GRID_HEX)
		return (y + hx_dy[d]) * ctx->w + x + hx_dx[y & 1][d];
	return (y + sq_dy[d]) * ctx->w + x + sq_dx[d];
}

static inline bool live(const struct path_ctx *ctx, int cell)
{
	return ctx->node[cell].stamp == ctx->gen;
}

static inline bool closed(const struct path_ctx *ctx, int cell)
{
	return live(ctx, cell) && ctx->node[cell].pos == POS_CLOSED;
}

/*
 * The previous cell on the route to `cell`: its neighbour for A* and floods.
 * Jump point search records only the direction back to the parent jump
 * point, so the parent is the first expanded cell back along that line
 * whose g plus the line's length gives exactly g(cell), computed as the
 * search computed it (the recorded parent always qualifies; an earlier one
 * is as good, and g strictly falls along the chain, so it cannot loop).
 */
static inline int parent_of(const struct path_ctx *ctx, int cell, bool jps)
{
	int d = ctx->node[cell].dir;
	if (d == DIR_NONE)
		return -1;
	int p = step_cell(ctx, cell, d);
	if (jps) {
		const double g = ctx->node[cell].g;
		for (int k = 1;; k++, p = step_cell(ctx, p, d))
			if (closed(ctx, p) &&
			    ctx->node[p].g + (d < 4 ? (double)k : GRID_SQRT2 * k) == g)
				break;
	}
	return p;
}

/* ---- the result ---- */

static void single_cell_result(struct path_ctx *ctx, int start, int goal, enum path_status status,
			       struct path_result *out)
{
	int *cells = (int *)(void *)ctx->heap;
	cells[0] = start;
	out->status = status;
	out->cells = cells;
	out->len = 1;
	out->end = start;
	out->cost = 0.0;
	out->steps = 0;
	out->expanded = 0;
	out->reached = start == goal;
	out->blocked_crossed = 0;
}

/* Writes the route ending at `end` into the result buffer, cut before the
 * first blocked cell after the start when `cut` is set. */
static void build_result(struct path_ctx *ctx, int start, int goal, int end, bool cut,
			 enum path_status status, long expanded, struct path_result *out)
{
	const uint8_t *cost = ctx->grid->cost;
	int *cells = (int *)(void *)ctx->heap;
	int len = 0;
	for (int c = end; c != -1; c = parent_of(ctx, c, false))
		len++;
	int i = len;
	int blocked = 0, first_blocked = -1;
	for (int c = end; c != -1; c = parent_of(ctx, c, false)) {
		cells[--i] = c;
		if (c != start && !cost[c]) {
			blocked++;
			first_blocked = i;
		}
	}
	if (cut && first_blocked >= 0)
		len = first_blocked;
	out->status = status;
	out->cells = cells;
	out->len = len;
	out->end = cells[len - 1];
	out->cost = ctx->node[out->end].g;
	out->steps = len - 1;
	out->expanded = expanded;
	out->reached = out->end == goal;
	out->blocked_crossed = blocked;
	if (status == PATH_FOUND && !out->reached)
		out->status = PATH_FALLBACK;
}

/* ---- the general search ---- */

struct search {
	int start, goal, gx, gy;
	double weight;
	double penalty;        /* finite P, or 0 in lexicographic mode */
	bool fallback, layered, corner_cutting;
	long budget;
	const uint16_t *extra;
};

/*
 * The A* loop, specialised per topology by the constant `topo` (the
 * function is inlined into one caller per topology).  Returns the status;
 * *end is the cell the route ends at, *expanded_out the expansions.
 */
static inline __attribute__((always_inline)) enum path_status
astar_loop(struct path_ctx *ctx, const struct search *sp, const enum grid_topology topo, int *end,
	   long *expanded_out)
{
	const struct search s = *sp; /* a local copy: stores to nodes cannot alias it */
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	const int dirs = topo == GRID_SQUARE4 ? 4 : topo == GRID_SQUARE8 ? 8 : 6;
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	long expanded = 0;
	int best = s.start;
	double best_h = heuristic(topo, s.start % w, s.start / w, s.gx, s.gy), best_g = 0.0;

	node[s.start] = (struct node){ 0.0, 0, gen, DIR_NONE, 0 };
	heap_push(ctx, s.start, s.weight * best_h, 0.0);

	for (;;) {
		if (ctx->heap_len == 0) {
			if (ctx->pending_len == 0)
				break;
			/* Next fallback layer: its cells become the heap at once. */
			int m = ctx->pending_len;
			/* Slots cap-m .. cap-1 down to 0 .. m-1; the source is never
			 * below the destination, so copying upward is safe. */
			for (int i = 0; i < m; i++)
				ctx->heap[i].cell = ctx->heap[ctx->cap - m + i].cell;
			for (int i = 0; i < m; i++) {
				int c = ctx->heap[i].cell;
				double h = heuristic(topo, c % w, c / w, s.gx, s.gy);
				ctx->heap[i] = (struct hent){ node[c].g + s.weight * h, (float)node[c].g, c };
				node[c].pos = i;
			}
			ctx->heap_len = m;
			ctx->pending_len = 0;
			for (int i = (m - 2) / HEAP_D; i >= 0; i--)
				sift_down(ctx, i, ctx->heap[i]);
			continue;
		}
		const int u = heap_pop(ctx);
		expanded++;
		if (u == s.goal) {
			*end = u;
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		const int uy = u / w, ux = u - uy * w;
		const double ug = node[u].g;
		if (s.budget > 0) {
			double uh = heuristic(topo, ux, uy, s.gx, s.gy);
			if (uh < best_h || (uh == best_h && ug < best_g)) {
				best = u;
				best_h = uh;
				best_g = ug;
			}
			if (expanded >= s.budget) {
				*end = best;
				*expanded_out = expanded;
				return PATH_BUDGET;
			}
		}
		if (topo == GRID_SQUARE8 && cost[u] && ux > 0 && uy > 0 && ux < w - 1 &&
		    uy < hgt - 1) {
			/* Interior square8 cell: the legal moves as a bit mask. */
			const uint8_t *c = cost + u;
			unsigned m = (unsigned)(c[-w] != 0) | (unsigned)(c[-1] != 0) << 1 |
				     (unsigned)(c[1] != 0) << 2 | (unsigned)(c[w] != 0) << 3 |
				     (unsigned)(c[-w - 1] != 0) << 4 | (unsigned)(c[-w + 1] != 0) << 5 |
				     (unsigned)(c[w - 1] != 0) << 6 | (unsigned)(c[w + 1] != 0) << 7;
			/* Into blocked cells (fallback): every direction, no corner rule. */
			unsigned mb = s.fallback ? ~m & 0xffu : 0;
			if (!s.corner_cutting) {
				unsigned n = m & 1, wb = (m >> 1) & 1, e = (m >> 2) & 1, so = (m >> 3) & 1;
				m &= 0x0fu | (n & wb) << 4 | (n & e) << 5 | (so & wb) << 6 | (so & e) << 7;
			}
			while (mb) {
				const int i = __builtin_ctz(mb);
				mb &= mb - 1;
				const int v = u + sq_dy[i] * w + sq_dx[i];
				const double ng = ug + (i >= 4 ? GRID_SQRT2 : 1.0) + s.penalty;
				struct node *nv = &node[v];
				if (nv->stamp != gen) {
					nv->stamp = gen;
					nv->g = ng;
					nv->dir = sq_opp[i];
					if (s.layered)
						pending_add(ctx, v);
					else
						heap_push(ctx, v, ng + s.weight * heuristic(topo, ux + sq_dx[i],
							  uy + sq_dy[i], s.gx, s.gy), ng);
					continue;
				}
				const int pos = nv->pos;
				if (pos == POS_CLOSED || (s.layered && pos >= 0) || !(ng < nv->g))
					continue;
				nv->g = ng;
				nv->dir = sq_opp[i];
				if (pos >= 0)
					heap_decrease(ctx, v, ng + s.weight * heuristic(topo, ux + sq_dx[i],
						      uy + sq_dy[i], s.gx, s.gy), ng);
			}
			while (m) {
				const int i = __builtin_ctz(m);
				m &= m - 1;
				const int nx = ux + sq_dx[i], ny = uy + sq_dy[i];
				const int v = u + sq_dy[i] * w + sq_dx[i];
				double ng = ug + (i >= 4 ? GRID_SQRT2 : 1.0) * (double)cost[v];
				if (s.extra)
					ng += (double)s.extra[v];
				struct node *nv = &node[v];
				if (nv->stamp != gen) {
					nv->stamp = gen;
					nv->g = ng;
					nv->dir = sq_opp[i];
					heap_push(ctx, v, ng + s.weight * heuristic(topo, nx, ny, s.gx, s.gy), ng);
				} else if (nv->pos >= 0 && ng < nv->g) {
					nv->g = ng;
					nv->dir = sq_opp[i];
					heap_decrease(ctx, v, ng + s.weight * heuristic(topo, nx, ny, s.gx, s.gy), ng);
				}
			}
			continue;
		}
		const bool u_open = cost[u] != 0;
		for (int i = 0; i < dirs; i++) {
			int nx, ny;
			double step;
			if (topo == GRID_HEX) {
				nx = ux + hx_dx[uy & 1][i];
				ny = uy + hx_dy[i];
				step = 1.0;
			} else {
				nx = ux + sq_dx[i];
				ny = uy + sq_dy[i];
				step = (topo == GRID_SQUARE8 && i >= 4) ? GRID_SQRT2 : 1.0;
			}
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			const unsigned cv = cost[v];
			double ng;
			const bool v_blocked = cv == 0;
			if (!v_blocked) {
				if (topo == GRID_SQUARE8 && i >= 4 && u_open && !s.corner_cutting &&
				    (!cost[uy * w + nx] || !cost[ny * w + ux]))
					continue;
				ng = ug + step * (double)cv;
				if (s.extra)
					ng += (double)s.extra[v];
			} else {
				if (!s.fallback)
					continue;
				ng = ug + step + s.penalty;
			}
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				nv->g = ng;
				nv->dir = opp[i];
				if (v_blocked && s.layered)
					pending_add(ctx, v);
				else
					heap_push(ctx, v, ng + s.weight * heuristic(topo, nx, ny, s.gx, s.gy), ng);
				continue;
			}
			const int pos = nv->pos;
			if (pos == POS_CLOSED)
				continue;
			if (v_blocked && s.layered && pos >= 0)
				continue; /* already in this layer: fewer blocked cells */
			if (ng < nv->g) {
				nv->g = ng;
				nv->dir = opp[i];
				if (pos >= 0)
					heap_decrease(ctx, v, ng + s.weight * heuristic(topo, nx, ny, s.gx, s.gy),
						      ng);
			}
		}
	}
	*end = best;
	*expanded_out = expanded;
	return PATH_NO_ROUTE;
}

static enum path_status astar_square4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE4, end, ex);
}

static enum path_status astar_square8(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, end, ex);
}

static enum path_status astar_hex(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_HEX, end, ex);
}

static enum path_status astar(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	switch (ctx->grid->topo) {
	case GRID_SQUARE4:
		return astar_square4(ctx, s, end, ex);
	case GRID_SQUARE8:
		return astar_square8(ctx, s, end, ex);
	case GRID_HEX:
		break;
	}
	return astar_hex(ctx, s, end, ex);
}

/* ---- jump point search (square8, uniform cost, no corner cutting) ---- */

struct jps {
	const uint8_t *cost;
	int w, h, goal, gx, gy;
};

static inline bool jfree(const struct jps *j, int x, int y)
{
	return (unsigned)x < (unsigned)j->w && (unsigned)y < (unsigned)j->h && j->cost[y * j->w + x];
}

/*
 * Straight jump from (x, y) along (dx, 0): the first jump point, or -1.  A
 * cell is a jump point when it is the goal or has a forced neighbour: on
 * one side, the cell diagonally behind is blocked while the cell beside is
 * free (without corner cutting that side cell, and the diagonal past it,
 * can only be reached well through this cell).
 */
static int jump_h(const struct jps *j, int x, int y, int dx)
{
	const uint8_t *row = j->cost + (size_t)y * (size_t)j->w;
	const uint8_t *up = y > 0 ? row - j->w : NULL;
	const uint8_t *dn = y + 1 < j->h ? row + j->w : NULL;
	const int goal_x = j->gy == y ? j->gx : -1;
	for (;;) {
		x += dx;
		if ((unsigned)x >= (unsigned)j->w || !row[x])
			return -1;
		if (x == goal_x)
			return y * j->w + x;
		if (up && up[x] && !up[x - dx])
			return y * j->w + x;
		if (dn && dn[x] && !dn[x - dx])
			return y * j->w + x;
	}
}

/* Straight jump along (0, dy), the same rule turned a quarter. */
static int jump_v(const struct jps *j, int x, int y, int dy)
{
	const int w = j->w;
	const uint8_t *cost = j->cost;
	const bool has_l = x > 0, has_r = x + 1 < w;
	const int goal_y = j->gx == x ? j->gy : -1;
	const int stride = dy * w;
	int c = y * w + x;
	for (;;) {
		y += dy;
		c += stride;
		if ((unsigned)y >= (unsigned)j->h || !cost[c])
			return -1;
		if (y == goal_y)
			return c;
		if (has_l && cost[c - 1] && !cost[c - 1 - stride])
			return c;
		if (has_r && cost[c + 1] && !cost[c + 1 - stride])
			return c;
	}
}

/* Diagonal jump: each diagonal step needs both orthogonal cells free; a
 * diagonal cell is a jump point when it is the goal or a straight jump
 * from it finds one.  Without corner cutting diagonals force nothing. */
static int jump_d(const struct jps *j, int x, int y, int dx, int dy)
{
	for (;;) {
		if (!jfree(j, x + dx, y) || !jfree(j, x, y + dy) || !jfree(j, x + dx, y + dy))
			return -1;
		x += dx;
		y += dy;
		int c = y * j->w + x;
		if (c == j->goal)
			return c;
		if (jump_h(j, x, y, dx) >= 0 || jump_v(j, x, y, dy) >= 0)
			return c;
	}
}

/* The jump point search proper.  Returns PATH_FOUND or PATH_NO_ROUTE. */
static enum path_status jps_search(struct path_ctx *ctx, int start, int goal, long *expanded_out)
{
	const int w = ctx->w;
	const struct jps j = { ctx->grid->cost, w, ctx->h, goal, goal % w, goal / w };
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	long expanded = 0;

	node[start] = (struct node){ 0.0, 0, gen, DIR_NONE, 0 };
	heap_push(ctx, start, heuristic(GRID_SQUARE8, start % w, start / w, j.gx, j.gy), 0.0);
	while (ctx->heap_len > 0) {
		const int u = heap_pop(ctx);
		expanded++;
		if (u == goal) {
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		const int uy = u / w, ux = u - uy * w;
		const double ug = node[u].g;
		/* Directions to try: bit i is direction i of sq_dx/sq_dy. */
		unsigned dirs;
		if (node[u].dir == DIR_NONE) {
			dirs = 0xff;
		} else {
			int arrive = sq_opp[node[u].dir];
			int dx = sq_dx[arrive], dy = sq_dy[arrive];
			if (dx != 0 && dy != 0) {
				/* diagonal arrival: the two straights and the diagonal */
				dirs = (1u << (dx < 0 ? 1 : 2)) | (1u << (dy < 0 ? 0 : 3)) | (1u << arrive);
			} else if (dx != 0) {
				dirs = 1u << arrive;
				if (jfree(&j, ux, uy - 1) && !jfree(&j, ux - dx, uy - 1))
					dirs |= 1u << 0 | 1u << (dx < 0 ? 4 : 5);
				if (jfree(&j, ux, uy + 1) && !jfree(&j, ux - dx, uy + 1))
					dirs |= 1u << 3 | 1u << (dx < 0 ? 6 : 7);
			} else {
				dirs = 1u << arrive;
				if (jfree(&j, ux - 1, uy) && !jfree(&j, ux - 1, uy - dy))
					dirs |= 1u << 1 | 1u << (dy < 0 ? 4 : 6);
				if (jfree(&j, ux + 1, uy) && !jfree(&j, ux + 1, uy - dy))
					dirs |= 1u << 2 | 1u << (dy < 0 ? 5 : 7);
			}
		}
		for (int i = 0; i < 8; i++) {
			if (!(dirs & (1u << i)))
				continue;
			const int dx = sq_dx[i], dy = sq_dy[i];
			int v;
			if (i < 4)
				v = dx ? jump_h(&j, ux, uy, dx) : jump_v(&j, ux, uy, dy);
			else
				v = jump_d(&j, ux, uy, dx, dy);
			if (v < 0)
				continue;
			const int vy = v / w, vx = v - vy * w;
			const int k = iabs(vx - ux) > iabs(vy - uy) ? iabs(vx - ux) : iabs(vy - uy);
			const double ng = ug + (i < 4 ? (double)k : GRID_SQRT2 * k);
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				nv->g = ng;
				nv->dir = sq_opp[i];
				heap_push(ctx, v, ng + heuristic(GRID_SQUARE8, vx, vy, j.gx, j.gy), ng);
				continue;
			}
			if (nv->pos == POS_CLOSED || !(ng < nv->g))
				continue;
			nv->g = ng;
			nv->dir = sq_opp[i];
			heap_decrease(ctx, v, ng + heuristic(GRID_SQUARE8, vx, vy, j.gx, j.gy), ng);
		}
	}
	*expanded_out = expanded;
	return PATH_NO_ROUTE;
}

/*
 * Expands the chain of jump points ending at the goal into every cell of
 * the route.  Returns false, leaving *out untouched, when a cell on the
 * route costs more than 1 (then the uniform-cost answer might not be
 * optimal; when every cell on it costs 1 it is, since terrain only ever
 * raises the cost of the other routes).
 */
static bool jps_result(struct path_ctx *ctx, int start, int goal, long expanded,
		       struct path_result *out)
{
	const int w = ctx->w;
	const uint8_t *cost = ctx->grid->cost;
	if (cost[start] != 1)
		return false;
	int len = 1;
	for (int c = goal, p; (p = parent_of(ctx, c, true)) != -1; c = p) {
		int dx = iabs(c % w - p % w), dy = iabs(c / w - p / w);
		len += dx > dy ? dx : dy;
	}
	int *cells = (int *)(void *)ctx->heap;
	int i = len;
	for (int c = goal, p; (p = parent_of(ctx, c, true)) != -1; c = p) {
		int step = sgn(p % w - c % w) + w * sgn(p / w - c / w);
		for (int k = c; k != p; k += step) {
			if (cost[k] != 1)
				return false;
			cells[--i] = k;
		}
	}
	cells[0] = start;
	out->status = PATH_FOUND;
	out->cells = cells;
	out->len = len;
	out->end = goal;
	out->cost = ctx->node[goal].g;
	out->steps = len - 1;
	out->expanded = expanded;
	out->reached = true;
	out->blocked_crossed = 0;
	return true;
}

/* ---- the public entry points ---- */

static bool use_jps(const struct path_ctx *ctx, const struct path_options *opt)
{
	return !opt->plain_astar && ctx->grid->topo == GRID_SQUARE8 && opt->weight == 1.0 &&
	       !opt->corner_cutting && !opt->fallback && opt->budget <= 0 && !opt->extra;
}

enum path_status path_find(struct path_ctx *ctx, int start, int goal,
			   const struct path_options *opt, struct path_result *out)
{
	struct path_options defaults = path_options_default();
	if (!opt)
		opt = &defaults;
	memset(out, 0, sizeof *out);
	if (!ctx || start < 0 || goal < 0 || start >= ctx->n || goal >= ctx->n) {
		out->status = PATH_BAD_INPUT;
		return PATH_BAD_INPUT;
	}
	const uint8_t *cost = ctx->grid->cost;
	new_generation(ctx);
	if (!opt->fallback && !cost[start]) {
		out->status = PATH_BAD_INPUT;
		return PATH_BAD_INPUT;
	}
	if (start == goal) {
		ctx->node[start] = (struct node){ 0.0, POS_CLOSED, ctx->gen, DIR_NONE, 0 };
		single_cell_result(ctx, start, goal, PATH_FOUND, out);
		return PATH_FOUND;
	}
	if (!opt->fallback && !cost[goal]) {
		single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
		return PATH_NO_ROUTE;
	}

	long expanded = 0;
	if (use_jps(ctx, opt)) {
		enum path_status st = jps_search(ctx, start, goal, &expanded);
		if (st == PATH_NO_ROUTE) {
			single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
			out->expanded = expanded;
			return PATH_NO_ROUTE;
		}
		if (jps_result(ctx, start, goal, expanded, out))
			return PATH_FOUND;
		new_generation(ctx);
	}

	struct search s = {
		.start = start, .goal = goal, .gx = goal % ctx->w, .gy = goal / ctx->w,
		.weight = opt->weight < 0 ? 0.0 : opt->weight,
		.penalty = opt->penalty > 0 ? opt->penalty : 0.0,
		.fallback = opt->fallback,
		.layered = opt->fallback && !(opt->penalty > 0),
		.corner_cutting = opt->corner_cutting,
		.budget = opt->budget,
		.extra = opt->extra,
	};
	int end = start;
	long more = 0;
	enum path_status st = astar(ctx, &s, &end, &more);
	expanded += more;
	if (st == PATH_NO_ROUTE) {
		/* Only without fallback: with it every cell can be entered. */
		single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
		out->expanded = expanded;
		return PATH_NO_ROUTE;
	}
	build_result(ctx, start, goal, end, opt->fallback, st, expanded, out);
	return out->status;
}

long path_flood(struct path_ctx *ctx, int source, const struct path_options *opt,
		bool reverse, double max_cost)
{
	struct path_options defaults = path_options_default();
	if (!opt)
		opt = &defaults;
	if (!ctx || source < 0 || source >= ctx->n)
		return 0;
	new_generation(ctx);
	const struct grid *grid = ctx->grid;
	const enum grid_topology topo = grid->topo;
	const uint8_t *cost = grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	const int dirs = topo == GRID_SQUARE4 ? 4 : topo == GRID_SQUARE8 ? 8 : 6;
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	const uint16_t *extra = opt->extra;
	const bool corner_cutting = opt->corner_cutting;
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	long settled = 0;

	ctx->flood_source = source;
	node[source] = (struct node){ 0.0, 0, gen, DIR_NONE, 0 };
	heap_push(ctx, source, 0.0, 0.0);
	while (ctx->heap_len > 0) {
		const int u = ctx->heap[0].cell;
		if (max_cost > 0 && node[u].g > max_cost)
			break;
		heap_pop(ctx);
		settled++;
		const int uy = u / w, ux = u - uy * w;
		const double ug = node[u].g;
		/* Reverse: the mover walks v -> u and pays for entering u (a
		 * blocked source, such as a closed door, counts as floor). */
		const unsigned cu = cost[u] ? cost[u] : 1;
		const double xu = extra ? (double)extra[u] : 0.0;
		for (int i = 0; i < dirs; i++) {
			int nx, ny;
			double step;
			if (topo == GRID_HEX) {
				nx = ux + hx_dx[uy & 1][i];
				ny = uy + hx_dy[i];
				step = 1.0;
			} else {
				nx = ux + sq_dx[i];
				ny = uy + sq_dy[i];
				step = (topo == GRID_SQUARE8 && i >= 4) ? GRID_SQRT2 : 1.0;
			}
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			if (!cost[v])
				continue;
			if (topo == GRID_SQUARE8 && i >= 4 && !corner_cutting &&
			    (!cost[uy * w + nx] || !cost[ny * w + ux]))
				continue;
			const double ng = reverse ? ug + step * (double)cu + xu
						  : ug + step * (double)cost[v] + (extra ? (double)extra[v] : 0.0);
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				nv->g = ng;
				nv->dir = opp[i];
				heap_push(ctx, v, ng, ng);
			} else if (nv->pos >= 0 && ng < nv->g) {
				nv->g = ng;
				nv->dir = opp[i];
				heap_decrease(ctx, v, ng, ng);
			}
		}
	}
	return settled;
}

double path_flood_distance(const struct path_ctx *ctx, int cell)
{
	if (!ctx || ctx->flood_source < 0 || cell < 0 || cell >= ctx->n || !closed(ctx, cell))
		return -1.0;
	return ctx->node[cell].g;
}

int path_flood_next(const struct path_ctx *ctx, int cell, const struct path_options *opt)
{
	(void)opt; /* the flood recorded each cell's downhill neighbour under its own options */
	if (path_flood_distance(ctx, cell) < 0)
		return -1;
	return parent_of(ctx, cell, false);
}

bool path_was_expanded(const struct path_ctx *ctx, int cell)
{
	return ctx && cell >= 0 && cell < ctx->n && closed(ctx, cell);
}
