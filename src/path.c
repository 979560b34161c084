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

struct node {
	double g;        /* cost from the start (travel only in lexicographic fallback) */
	int32_t parent;  /* previous cell (previous jump point under JPS); -1 at the start */
	int32_t pos;     /* heap index, POS_CLOSED, or a pending-layer slot */
};

/* A heap entry: f as the bits of a non-negative double (whose order as an
 * unsigned integer is its numeric order), and the cell; 12 bytes. */
struct hent {
	uint32_t lo, hi;
	int32_t cell;
};

struct path_ctx {
	const struct grid *grid;
	int w, h, n;
	struct node *node;     /* n records */
	uint16_t *stamp;       /* n stamps: a record is live when stamp == gen */
	struct hent *heap;     /* n entries; also the pending layer (from the end) and the result cells */
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
	ctx->node = malloc(n * sizeof *ctx->node);
	ctx->stamp = calloc(n, sizeof *ctx->stamp);
	ctx->heap = malloc(n * sizeof *ctx->heap);
	if (!ctx->node || !ctx->stamp || !ctx->heap) {
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
	free(ctx->stamp);
	free(ctx->heap);
	free(ctx);
}

size_t path_memory(const struct path_ctx *ctx)
{
	if (!ctx)
		return 0;
	size_t n = (size_t)ctx->n;
	return sizeof *ctx + n * (sizeof *ctx->node + sizeof *ctx->stamp + sizeof *ctx->heap);
}

/* A new generation: every record becomes stale at once. */
static void new_generation(struct path_ctx *ctx)
{
	ctx->gen++;
	if (ctx->gen == 0) {
		memset(ctx->stamp, 0, (size_t)ctx->n * sizeof *ctx->stamp);
		ctx->gen = 1;
	}
	ctx->heap_len = 0;
	ctx->pending_len = 0;
	ctx->flood_source = -1;
}

/* ---- the priority queue: a binary heap with decrease-key ---- */

static inline uint64_t key_of(const struct hent *e)
{
	return (uint64_t)e->hi << 32 | e->lo;
}

static inline void set_key(struct hent *e, double f)
{
	uint64_t k;
	memcpy(&k, &f, sizeof k);
	e->lo = (uint32_t)k;
	e->hi = (uint32_t)(k >> 32);
}

/* Does a come out before b?  Lower f, then larger g. */
static inline bool before(const struct node *node, const struct hent *a, const struct hent *b)
{
	uint64_t ka = key_of(a), kb = key_of(b);
	if (ka != kb)
		return ka < kb;
	return node[a->cell].g > node[b->cell].g;
}

static inline void sift_up(struct path_ctx *ctx, int i, struct hent e)
{
	struct hent *heap = ctx->heap;
	struct node *node = ctx->node;
	while (i > 0) {
		int p = (i - 1) >> 1;
		if (!before(node, &e, &heap[p]))
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
	int len = ctx->heap_len;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= len)
			break;
		if (c + 1 < len && before(node, &heap[c + 1], &heap[c]))
			c++;
		if (!before(node, &heap[c], &e))
			break;
		heap[i] = heap[c];
		node[heap[i].cell].pos = i;
		i = c;
	}
	heap[i] = e;
	node[e.cell].pos = i;
}

static inline void heap_push(struct path_ctx *ctx, int cell, double f)
{
	struct hent e;
	set_key(&e, f);
	e.cell = cell;
	sift_up(ctx, ctx->heap_len++, e);
}

static inline void heap_decrease(struct path_ctx *ctx, int cell, double f)
{
	int i = ctx->node[cell].pos;
	struct hent e;
	set_key(&e, f);
	e.cell = cell;
	sift_up(ctx, i, e);
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
 * heap cells and pending cells are distinct live records, so they fit. */
static inline void pending_add(struct path_ctx *ctx, int cell)
{
	int slot = ctx->pending_len++;
	ctx->heap[ctx->n - 1 - slot].cell = cell;
	ctx->node[cell].pos = POS_PENDING0 - slot;
}

/* ---- topology tables ---- */

/* N, W, E, S, NW, NE, SW, SE: the order of grid.c. */
static const int sq_dx[8] = { 0, -1, 1, 0, -1, 1, -1, 1 };
static const int sq_dy[8] = { -1, 0, 0, 1, -1, -1, 1, 1 };
/* odd-r hex: W, E, NW, NE, SW, SE for even and odd rows (grid.c order). */
static const int hx_dx[2][6] = { { -1, 1, -1, 0, -1, 0 }, { -1, 1, 0, 1, 0, 1 } };
static const int hx_dy[6] = { 0, 0, -1, -1, 1, 1 };

static inline int iabs(int v) { return v < 0 ? -v : v; }

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

/* ---- the result ---- */

/* Writes the chain of parents ending at `end` into the result buffer, cut
 * before the first blocked cell after the start when `cut` is set. */
static void build_result(struct path_ctx *ctx, int start, int goal, int end, bool cut,
			 enum path_status status, long expanded, struct path_result *out)
{
	const uint8_t *cost = ctx->grid->cost;
	int *cells = (int *)(void *)ctx->heap;
	int len = 0;
	for (int c = end; c != -1; c = ctx->node[c].parent)
		len++;
	int i = len;
	int blocked = 0, first_blocked = -1;
	for (int c = end; c != -1; c = ctx->node[c].parent) {
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
	if (cut && blocked > 0 && status == PATH_FOUND)
		out->status = PATH_FALLBACK;
}

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
 * *end is the cell the route ends at, *expanded the expansions.
 */
static inline __attribute__((always_inline)) enum path_status
astar_loop(struct path_ctx *ctx, const struct search *s, enum grid_topology topo, int *end,
	   long *expanded_out)
{
	const struct grid *grid = ctx->grid;
	const uint8_t *cost = grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	struct node *node = ctx->node;
	uint16_t *stamp = ctx->stamp;
	const uint16_t gen = ctx->gen;
	const int dirs = topo == GRID_SQUARE4 ? 4 : topo == GRID_SQUARE8 ? 8 : 6;
	const double weight = s->weight;
	long expanded = 0;
	int best = s->start;
	double best_h = heuristic(topo, s->start % w, s->start / w, s->gx, s->gy), best_g = 0.0;

	stamp[s->start] = gen;
	node[s->start].g = 0.0;
	node[s->start].parent = -1;
	heap_push(ctx, s->start, weight * best_h);

	for (;;) {
		if (ctx->heap_len == 0) {
			if (ctx->pending_len == 0)
				break;
			/* Next fallback layer: its cells become the heap at once. */
			int m = ctx->pending_len;
			for (int i = 0; i < m; i++) {
				int c = ctx->heap[ctx->n - 1 - i].cell;
				ctx->heap[i].cell = c;
			}
			for (int i = 0; i < m; i++) {
				int c = ctx->heap[i].cell;
				set_key(&ctx->heap[i], node[c].g + weight * heuristic(topo, c % w, c / w,
										      s->gx, s->gy));
				node[c].pos = i;
			}
			ctx->heap_len = m;
			ctx->pending_len = 0;
			for (int i = m / 2 - 1; i >= 0; i--)
				sift_down(ctx, i, ctx->heap[i]);
			continue;
		}
		int u = heap_pop(ctx);
		expanded++;
		if (u == s->goal) {
			*end = u;
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		const int ux = u % w, uy = u / w;
		const double ug = node[u].g;
		{
			double uh = heuristic(topo, ux, uy, s->gx, s->gy);
			if (uh < best_h || (uh == best_h && ug < best_g)) {
				best = u;
				best_h = uh;
				best_g = ug;
			}
		}
		if (s->budget > 0 && expanded >= s->budget) {
			*end = best;
			*expanded_out = expanded;
			return PATH_BUDGET;
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
			bool v_blocked = cv == 0;
			if (!v_blocked) {
				if (topo == GRID_SQUARE8 && i >= 4 && u_open && !s->corner_cutting &&
				    (!cost[uy * w + nx] || !cost[ny * w + ux]))
					continue;
				ng = ug + step * (double)cv;
				if (s->extra)
					ng += (double)s->extra[v];
			} else {
				if (!s->fallback)
					continue;
				ng = ug + step + s->penalty;
			}
			if (stamp[v] != gen) {
				stamp[v] = gen;
				node[v].g = ng;
				node[v].parent = u;
				if (v_blocked && s->layered)
					pending_add(ctx, v);
				else
					heap_push(ctx, v, ng + weight * heuristic(topo, nx, ny, s->gx, s->gy));
				continue;
			}
			int pos = node[v].pos;
			if (pos == POS_CLOSED)
				continue;
			if (v_blocked && s->layered && pos >= 0)
				continue; /* already in this layer: fewer blocked cells */
			if (ng < node[v].g) {
				node[v].g = ng;
				node[v].parent = u;
				if (pos >= 0)
					heap_decrease(ctx, v, ng + weight * heuristic(topo, nx, ny,
										      s->gx, s->gy));
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

/* Straight jump from (x, y) along (dx, 0) or (0, dy): the first jump point,
 * or -1.  A cell is a jump point when it is the goal or has a forced
 * neighbour: the cell diagonally behind on one side is blocked while the
 * cell beside it on that side is free. */
static int jump_h(const struct jps *j, int x, int y, int dx)
{
	const uint8_t *row = j->cost + (size_t)y * (size_t)j->w;
	const uint8_t *up = y > 0 ? row - j->w : NULL;
	const uint8_t *dn = y + 1 < j->h ? row + j->w : NULL;
	for (;;) {
		x += dx;
		if ((unsigned)x >= (unsigned)j->w || !row[x])
			return -1;
		if (y * j->w + x == j->goal)
			return y * j->w + x;
		if (up && up[x] && !up[x - dx])
			return y * j->w + x;
		if (dn && dn[x] && !dn[x - dx])
			return y * j->w + x;
	}
}

static int jump_v(const struct jps *j, int x, int y, int dy)
{
	const int w = j->w;
	const uint8_t *cost = j->cost;
	const bool has_l = x > 0, has_r = x + 1 < w;
	for (;;) {
		y += dy;
		if ((unsigned)y >= (unsigned)j->h)
			return -1;
		const int c = y * w + x;
		if (!cost[c])
			return -1;
		if (c == j->goal)
			return c;
		if (has_l && cost[c - 1] && !cost[c - 1 - dy * w])
			return c;
		if (has_r && cost[c + 1] && !cost[c + 1 - dy * w])
			return c;
	}
}

/* Diagonal jump: each diagonal step needs both orthogonal cells free; a
 * diagonal cell is a jump point when it is the goal or a straight jump
 * from it finds one. */
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

static int sgn(int v) { return (v > 0) - (v < 0); }

/* The jump point search proper.  Returns PATH_FOUND or PATH_NO_ROUTE. */
static enum path_status jps_search(struct path_ctx *ctx, int start, int goal, long *expanded_out)
{
	const int w = ctx->w;
	const struct jps j = { ctx->grid->cost, w, ctx->h, goal, goal % w, goal / w };
	struct node *node = ctx->node;
	uint16_t *stamp = ctx->stamp;
	const uint16_t gen = ctx->gen;
	long expanded = 0;

	stamp[start] = gen;
	node[start].g = 0.0;
	node[start].parent = -1;
	heap_push(ctx, start, heuristic(GRID_SQUARE8, start % w, start / w, j.gx, j.gy));
	while (ctx->heap_len > 0) {
		int u = heap_pop(ctx);
		expanded++;
		if (u == goal) {
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		const int ux = u % w, uy = u / w;
		const double ug = node[u].g;
		/* Directions to try: bit i is direction i of sq_dx/sq_dy. */
		unsigned dirs;
		int p = node[u].parent;
		if (p < 0) {
			dirs = 0xff;
		} else {
			int dx = sgn(ux - p % w), dy = sgn(uy - p / w);
			if (dx != 0 && dy != 0) {
				/* diagonal arrival: the two straights and the diagonal */
				dirs = (1u << (dx < 0 ? 1 : 2)) | (1u << (dy < 0 ? 0 : 3)) |
				       (1u << (dy < 0 ? (dx < 0 ? 4 : 5) : (dx < 0 ? 6 : 7)));
			} else if (dx != 0) {
				dirs = 1u << (dx < 0 ? 1 : 2);
				/* forced: north side */
				if (jfree(&j, ux, uy - 1) && !jfree(&j, ux - dx, uy - 1))
					dirs |= 1u << 0 | 1u << (dx < 0 ? 4 : 5);
				if (jfree(&j, ux, uy + 1) && !jfree(&j, ux - dx, uy + 1))
					dirs |= 1u << 3 | 1u << (dx < 0 ? 6 : 7);
			} else {
				dirs = 1u << (dy < 0 ? 0 : 3);
				if (jfree(&j, ux - 1, uy) && !jfree(&j, ux - 1, uy - dy))
					dirs |= 1u << 1 | 1u << (dy < 0 ? 4 : 6);
				if (jfree(&j, ux + 1, uy) && !jfree(&j, ux + 1, uy - dy))
					dirs |= 1u << 2 | 1u << (dy < 0 ? 5 : 7);
			}
		}
		for (int i = 0; i < 8; i++) {
			if (!(dirs & (1u << i)))
				continue;
			int dx = sq_dx[i], dy = sq_dy[i], v;
			if (i < 4)
				v = dx ? jump_h(&j, ux, uy, dx) : jump_v(&j, ux, uy, dy);
			else
				v = jump_d(&j, ux, uy, dx, dy);
			if (v < 0)
				continue;
			int vx = v % w, vy = v / w;
			int k = iabs(vx - ux) > iabs(vy - uy) ? iabs(vx - ux) : iabs(vy - uy);
			double ng = ug + (i < 4 ? (double)k : GRID_SQRT2 * k);
			if (stamp[v] != gen) {
				stamp[v] = gen;
				node[v].g = ng;
				node[v].parent = u;
				heap_push(ctx, v, ng + heuristic(GRID_SQUARE8, vx, vy, j.gx, j.gy));
				continue;
			}
			if (node[v].pos == POS_CLOSED || !(ng < node[v].g))
				continue;
			node[v].g = ng;
			node[v].parent = u;
			heap_decrease(ctx, v, ng + heuristic(GRID_SQUARE8, vx, vy, j.gx, j.gy));
		}
	}
	*expanded_out = expanded;
	return PATH_NO_ROUTE;
}

/*
 * Expands the chain of jump points ending at the goal into every cell of
 * the route.  Returns false, leaving *out untouched, when a cell on the
 * route costs more than 1 (then JPS's answer might not be optimal).
 */
static bool jps_result(struct path_ctx *ctx, int start, int goal, long expanded,
		       struct path_result *out)
{
	const int w = ctx->w;
	const uint8_t *cost = ctx->grid->cost;
	int len = 1;
	for (int c = goal; ctx->node[c].parent != -1; c = ctx->node[c].parent) {
		int p = ctx->node[c].parent;
		int dx = iabs(c % w - p % w), dy = iabs(c / w - p / w);
		len += dx > dy ? dx : dy;
	}
	int *cells = (int *)(void *)ctx->heap;
	int i = len;
	for (int c = goal; c != -1; c = ctx->node[c].parent) {
		int p = ctx->node[c].parent;
		if (p == -1) {
			cells[--i] = c;
			break;
		}
		int step = sgn(p % w - c % w) + w * sgn(p / w - c / w);
		for (int k = c; k != p; k += step) {
			if (cost[k] != 1)
				return false;
			cells[--i] = k;
		}
	}
	if (cost[start] != 1)
		return false;
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
	return !opt->plain_astar && ctx->grid->topo == GRID_SQUARE8 && opt->weight == 1.0 && !opt->corner_cutting &&
	       !opt->fallback && opt->budget <= 0 && !opt->extra;
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
		ctx->stamp[start] = ctx->gen;
		ctx->node[start] = (struct node){ 0.0, -1, POS_CLOSED };
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
	enum path_status st = astar(ctx, &s, &end, &expanded);
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
	const uint16_t *extra = opt->extra;
	struct node *node = ctx->node;
	uint16_t *stamp = ctx->stamp;
	const uint16_t gen = ctx->gen;
	long settled = 0;

	ctx->flood_source = source;
	stamp[source] = gen;
	node[source].g = 0.0;
	node[source].parent = -1;
	heap_push(ctx, source, 0.0);
	while (ctx->heap_len > 0) {
		int u = ctx->heap[0].cell;
		if (max_cost > 0 && node[u].g > max_cost)
			break;
		heap_pop(ctx);
		settled++;
		const int ux = u % w, uy = u / w;
		const double ug = node[u].g;
		/* Reverse: the mover walks v -> u and pays for entering u. */
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
			if (topo == GRID_SQUARE8 && i >= 4 && !opt->corner_cutting &&
			    (!cost[uy * w + nx] || !cost[ny * w + ux]))
				continue;
			double ng = reverse ? ug + step * (double)cu + xu
					    : ug + step * (double)cost[v] + (extra ? (double)extra[v] : 0.0);
			if (stamp[v] != gen) {
				stamp[v] = gen;
				node[v].g = ng;
				node[v].parent = u;
				heap_push(ctx, v, ng);
			} else if (node[v].pos >= 0 && ng < node[v].g) {
				node[v].g = ng;
				node[v].parent = u;
				heap_decrease(ctx, v, ng);
			}
		}
	}
	return settled;
}

double path_flood_distance(const struct path_ctx *ctx, int cell)
{
	if (!ctx || ctx->flood_source < 0 || cell < 0 || cell >= ctx->n ||
	    ctx->stamp[cell] != ctx->gen || ctx->node[cell].pos != POS_CLOSED)
		return -1.0;
	return ctx->node[cell].g;
}

int path_flood_next(const struct path_ctx *ctx, int cell, const struct path_options *opt)
{
	(void)opt; /* the flood recorded each cell's downhill neighbour under its own options */
	if (path_flood_distance(ctx, cell) < 0)
		return -1;
	return ctx->node[cell].parent;
}

bool path_was_expanded(const struct path_ctx *ctx, int cell)
{
	return ctx && cell >= 0 && cell < ctx->n && ctx->stamp[cell] == ctx->gen &&
	       ctx->node[cell].pos == POS_CLOSED;
}
