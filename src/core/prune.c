/*
 * prune.c - dead-end pruning for maps that never change.  It peels the
 * trees that hang off the 2-core of the move graph once, then answers a
 * query by walking trees and searching the core alone.  It owns the
 * peeling and the splicing of routes; the search itself is path.c's, run
 * on a private copy of the map with every peeled cell blocked.  It knows
 * nothing of games or files.
 *
 * Why the core copy is exact: an optimal route between two core cells never
 * enters a hanging tree (it would have to leave through the cell it came
 * in by), and blocking the peeled cells removes no move between core cells.
 * On square8 without corner cutting a diagonal a-b needs both orthogonal
 * cells c, d free; then a, b, c, d are pairwise adjacent, so each keeps
 * three neighbours among them and none of the four is ever peeled.  With
 * corner cutting, on square4 and on hex, a move depends on its two cells
 * only.  The move graph is symmetric under every rule, so "degree" is
 * well defined.
 */
#include "prune.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* up[c] for a root or a blocked cell: no parent. */
#define PRUNE_NO_PARENT 0xFF

struct prune {
	int w, h, n;             /* size of the map in cells */
	enum grid_topology topo;
	bool corner_cutting;     /* the move rule the trees were peeled under */
	uint8_t *cost;           /* n: the original multipliers (0 = blocked) */
	uint8_t *up;             /* n: direction of the parent (into off[][]), PRUNE_NO_PARENT
	                            for a root or a blocked cell; one byte, as every tree
	                            step of every query reads it */
	int *depth;              /* n: steps to the root; -1 blocked */
	bool hex;                /* the direction offsets depend on the row's parity */
	int off[2][GRID_MAX_NEIGHBOURS]; /* index offset of each direction, per row parity */
	int *root;               /* n: root of the cell's tree; -1 blocked */
	int *comp;               /* n: connected component number; -1 blocked */
	int *cells;              /* n: result route buffer (a route is simple, so n is enough) */
	int peeled;              /* passable cells outside the core */
	struct grid *core;       /* the map with every peeled cell blocked */
	struct path_ctx *ctx;    /* search context on `core` */
};

void prune_destroy(struct prune *p)
{
	if (!p)
		return;
	path_destroy(p->ctx);
	grid_destroy(p->core);
	free(p->cost);
	free(p->up);
	free(p->depth);
	free(p->root);
	free(p->comp);
	free(p->cells);
	free(p);
}

/*
 * The move graph, read once from grid_neighbours: bit i of bits[c] is set
 * when the move from c in direction i is allowed.  Direction i leads to
 * c + off[r][i], r the row's parity on hex (0 on square grids).
 */
struct moves {
	uint8_t *bits;                      /* n */
	bool hex;
	int off[2][GRID_MAX_NEIGHBOURS];    /* index offsets per direction */
};

/* The same rules as grid_neighbours (the tests hold prune to path_find's
 * answers), row by row, without a call or a division per cell. */
static bool moves_build(struct moves *m, const struct grid *g, bool corner_cutting)
{
	const int w = g->w, h = g->h;
	const uint8_t *cost = g->cost;
	const enum grid_topology topo = g->topo;
	m->hex = grid_is_staggered(topo); /* hex or diamond: offsets by row parity */
	const int dirs = grid_dir_count(topo);
	const bool corners = g->topo == GRID_SQUARE8 && !corner_cutting;
	const bool dcorners = g->topo == GRID_DIAMOND8 && !corner_cutting;
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < GRID_MAX_NEIGHBOURS; i++)
			m->off[r][i] = i >= dirs ? 0 : grid_nb_dy(topo, i) * w + grid_nb_dx(topo, r, i);
	m->bits = malloc((size_t)w * (size_t)h);
	if (!m->bits)
		return false;
	for (int y = 0, c = 0; y < h; y++) {
		const int8_t *dx = topo == GRID_HEX ? GRID_HEX_DX[y & 1] : grid_is_diamond(topo) ? GRID_DIAMOND_DX[y & 1] : GRID_SQUARE_DX;
		const int8_t *dy = topo == GRID_HEX ? GRID_HEX_DY : grid_is_diamond(topo) ? GRID_DIAMOND_DY : GRID_SQUARE_DY;
		for (int x = 0; x < w; x++, c++) {
			unsigned bits = 0;
			if (cost[c]) {
				for (int i = 0; i < dirs; i++) {
					const int nx = x + dx[i], ny = y + dy[i];
					if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)h ||
					    !cost[ny * w + nx])
						continue;
					/* square8 diagonals (i >= 4) pass two orthogonal cells */
					if (corners && i >= 4 && (!cost[y * w + nx] || !cost[ny * w + x]))
						continue;
					if (dcorners && i >= 4 && !grid_diamond_flanks_open(cost, w, h, x, y, i))
						continue;
					bits |= 1u << i;
				}
			}
			m->bits[c] = (uint8_t)bits;
		}
	}
	return true;
}

static inline const int *moves_off(const struct moves *m, int c, int w)
{
	return m->off[m->hex ? (c / w) & 1 : 0];
}

/* The next cell up the tree from c (c must have a parent). */
static inline int parent_of(const struct prune *p, int c)
{
	return c + p->off[p->hex ? (c / p->w) & 1 : 0][p->up[c]];
}

/* Peels cells of degree <= 1 until none is left; fills the parents (and
 * root[] with 0 for peeled cells, 1 for core cells, -1 for blocked) and
 * writes the peeling order to order[], returning its length.  deg[] is
 * scratch of n ints. */
static int peel(struct prune *p, const struct moves *m, int *deg, int *order)
{
	int *removed = p->root; /* 1 while in the graph, 0 once peeled, -1 blocked */
	int head = 0, tail = 0;
	for (int c = 0; c < p->n; c++) {
		p->up[c] = PRUNE_NO_PARENT;
		if (!p->cost[c]) {
			removed[c] = -1;
			deg[c] = 0;
			continue;
		}
		removed[c] = 1;
		deg[c] = __builtin_popcount(m->bits[c]);
		if (deg[c] <= 1)
			order[tail++] = c;
	}
	/* A cell enters the queue once: at the start with degree <= 1, or
	 * when its degree falls from 2 to 1. */
	while (head < tail) {
		const int c = order[head++];
		const int *off = moves_off(m, c, p->w);
		removed[c] = 0;
		for (unsigned bits = m->bits[c]; bits; bits &= bits - 1) {
			const int dir = __builtin_ctz(bits), v = c + off[dir];
			if (removed[v] != 1)
				continue;
			p->up[c] = (uint8_t)dir; /* the one neighbour left, if any */
			if (--deg[v] == 1)
				order[tail++] = v;
		}
	}
	return tail;
}

/* Numbers the connected components of the move graph into comp[],
 * breadth first; queue[] is scratch of n ints. */
static void label_components(struct prune *p, const struct moves *m, int *queue)
{
	int next = 0;
	for (int c = 0; c < p->n; c++)
		p->comp[c] = -1;
	for (int c = 0; c < p->n; c++) {
		if (!p->cost[c] || p->comp[c] >= 0)
			continue;
		int head = 0, tail = 0;
		p->comp[c] = next;
		queue[tail++] = c;
		while (head < tail) {
			const int u = queue[head++];
			const int *off = moves_off(m, u, p->w);
			for (unsigned bits = m->bits[u]; bits; bits &= bits - 1) {
				const int v = u + off[__builtin_ctz(bits)];
				if (p->comp[v] < 0) {
					p->comp[v] = next;
					queue[tail++] = v;
				}
			}
		}
		next++;
	}
}

struct prune *prune_create(const struct grid *g, bool corner_cutting)
{
	if (!g || g->w <= 0 || g->h <= 0)
		return NULL;
	struct prune *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->w = g->w;
	p->h = g->h;
	p->n = g->w * g->h;
	p->topo = g->topo;
	p->corner_cutting = (g->topo == GRID_SQUARE8 || g->topo == GRID_DIAMOND8) && corner_cutting;
	const size_t n = (size_t)p->n;
	p->cost = malloc(n);
	p->up = malloc(n);
	p->depth = malloc(n * sizeof *p->depth);
	p->root = malloc(n * sizeof *p->root);
	p->comp = malloc(n * sizeof *p->comp);
	p->cells = malloc(n * sizeof *p->cells);
	p->core = grid_create(g->w, g->h, g->topo);
	if (!p->cost || !p->up || !p->depth || !p->root || !p->comp || !p->cells || !p->core) {
		prune_destroy(p);
		return NULL;
	}
	memcpy(p->cost, g->cost, n);

	struct moves m;
	if (!moves_build(&m, g, p->corner_cutting)) {
		prune_destroy(p);
		return NULL;
	}
	p->hex = m.hex;
	memcpy(p->off, m.off, sizeof p->off);
	/* comp[] serves as the degree scratch and cells[] as the order. */
	int *order = p->cells;
	int norder = peel(p, &m, p->comp, order);
	p->peeled = norder;

	/* Roots and depths: a parent is peeled after its children, so in
	 * reverse peeling order every parent is done before its children. */
	for (int c = 0; c < p->n; c++) {
		if (p->root[c] == 1) { /* core */
			p->root[c] = c;
			p->depth[c] = 0;
		} else if (p->root[c] < 0) {
			p->depth[c] = -1;
		}
	}
	for (int i = norder - 1; i >= 0; i--) {
		const int c = order[i];
		if (p->up[c] == PRUNE_NO_PARENT) {
			p->root[c] = c;
			p->depth[c] = 0;
		} else {
			const int up = parent_of(p, c);
			p->root[c] = p->root[up];
			p->depth[c] = p->depth[up] + 1;
		}
	}
	/* The core copy: every peeled cell blocked (a tree's last cell too). */
	grid_set_costs(p->core, p->cost);
	for (int i = 0; i < norder; i++)
		grid_set_cost(p->core, order[i], 0);
	label_components(p, &m, p->cells); /* the order is no longer needed */
	free(m.bits);
	p->ctx = path_create(p->core);
	if (!p->ctx) {
		prune_destroy(p);
		return NULL;
	}
	return p;
}

static void single_cell(struct prune *p, int start, enum path_status st, struct path_result *out)
{
	p->cells[0] = start;
	out->status = st;
	out->cells = p->cells;
	out->len = 1;
	out->end = start;
	out->cost = 0.0;
	out->steps = 0;
	out->expanded = 0;
	out->reached = st == PATH_FOUND;
	out->blocked_crossed = 0;
	out->first_blocked = -1;
}

/* Cost of cells[0..len-1] summed from the start, as path.c charges it. */
static double route_cost(const struct prune *p, const int *cells, int len)
{
	const int w = p->w;
	const uint8_t *cost = p->cost;
	double g = 0.0;
	if (p->topo == GRID_DIAMOND8) {
		/* a corner step stays in its row or moves two rows */
		for (int i = 1; i < len; i++) {
			const int a = cells[i - 1], v = cells[i], dr = a / w - v / w;
			const double step = dr != 1 && dr != -1 ? GRID_SQRT2 : 1.0;
			g = g + step * (double)cost[v];
		}
	} else if (p->topo != GRID_SQUARE8) {
		for (int i = 1; i < len; i++)
			g = g + (double)cost[cells[i]];
	} else if (w >= 3) {
		/* Between adjacent cells the index moves by 1, w or w +- 1,
		 * four distinct amounts when w >= 3: a diagonal is w +- 1. */
		for (int i = 1; i < len; i++) {
			const int v = cells[i], d = v > cells[i - 1] ? v - cells[i - 1] : cells[i - 1] - v;
			const double step = d == w - 1 || d == w + 1 ? GRID_SQRT2 : 1.0;
			g = g + step * (double)cost[v];
		}
	} else {
		for (int i = 1; i < len; i++) {
			const int a = cells[i - 1], v = cells[i];
			const double step = a % w != v % w && a / w != v / w ? GRID_SQRT2 : 1.0;
			g = g + step * (double)cost[v];
		}
	}
	return g;
}

/* The unique route inside one tree: up from both ends to their lowest
 * common ancestor, in one pass.  The start's side is written from the
 * front of cells[], the goal's from the back, then moved up to join it
 * (a route is simple, so the two never meet).  Returns the length. */
static int tree_route(struct prune *p, int start, int goal, long *walked)
{
	int *cells = p->cells;
	int a = start, b = goal, i = 0, j = p->n;
	int da = p->depth[a], db = p->depth[b];
	for (; da > db; da--) {
		cells[i++] = a;
		a = parent_of(p, a);
	}
	for (; db > da; db--) {
		cells[--j] = b;
		b = parent_of(p, b);
	}
	while (a != b) {
		cells[i++] = a;
		cells[--j] = b;
		a = parent_of(p, a);
		b = parent_of(p, b);
	}
	cells[i++] = a; /* the lowest common ancestor */
	memmove(cells + i, cells + j, (size_t)(p->n - j) * sizeof *cells);
	*walked = i - 1 + p->n - j;
	return i + p->n - j;
}

enum path_status prune_find(struct prune *p, int start, int goal, const struct path_options *opt,
			    struct path_result *out)
{
	struct path_options defaults = path_options_default();
	if (!opt)
		opt = &defaults;
	memset(out, 0, sizeof *out);
	const bool cc = p && (p->topo == GRID_SQUARE8 || p->topo == GRID_DIAMOND8) && opt->corner_cutting;
	if (!p || start < 0 || goal < 0 || start >= p->n || goal >= p->n || opt->fallback ||
	    opt->budget > 0 || opt->extra || cc != p->corner_cutting || !p->cost[start]) {
		out->status = PATH_BAD_INPUT;
		return PATH_BAD_INPUT;
	}
	if (start == goal) {
		single_cell(p, start, PATH_FOUND, out);
		return PATH_FOUND;
	}
	if (!p->cost[goal] || p->comp[start] != p->comp[goal]) {
		single_cell(p, start, PATH_NO_ROUTE, out);
		return PATH_NO_ROUTE;
	}
	const int rs = p->root[start], rg = p->root[goal];
	long expanded = 0;
	int len;
	if (rs == rg) {
		len = tree_route(p, start, goal, &expanded);
	} else {
		/* Different roots in one component: both are core cells. */
		struct path_result core;
		path_find(p->ctx, rs, rg, opt, &core);
		if (core.status != PATH_FOUND) {
			single_cell(p, start, PATH_NO_ROUTE, out);
			out->expanded = core.expanded;
			return PATH_NO_ROUTE;
		}
		const int ds = p->depth[start], dg = p->depth[goal];
		int c = start;
		for (int i = 0; i < ds; i++, c = parent_of(p, c))
			p->cells[i] = c;
		memcpy(p->cells + ds, core.cells, (size_t)core.len * sizeof *p->cells);
		len = ds + core.len + dg;
		c = goal;
		for (int i = len - 1; i >= len - dg; i--, c = parent_of(p, c))
			p->cells[i] = c;
		expanded = core.expanded + ds + dg;
	}
	out->status = PATH_FOUND;
	out->cells = p->cells;
	out->len = len;
	out->end = goal;
	out->cost = route_cost(p, p->cells, len);
	out->steps = len - 1;
	out->expanded = expanded;
	out->reached = true;
	out->blocked_crossed = 0;
	out->first_blocked = -1;
	return PATH_FOUND;
}

int prune_root(const struct prune *p, int cell)
{
	return p && cell >= 0 && cell < p->n ? p->root[cell] : -1;
}

int prune_depth(const struct prune *p, int cell)
{
	return p && cell >= 0 && cell < p->n ? p->depth[cell] : -1;
}

int prune_component(const struct prune *p, int cell)
{
	return p && cell >= 0 && cell < p->n ? p->comp[cell] : -1;
}

int prune_peeled(const struct prune *p)
{
	return p ? p->peeled : 0;
}

size_t prune_memory(const struct prune *p)
{
	if (!p)
		return 0;
	const size_t n = (size_t)p->n;
	return sizeof *p + 2 * n + 4 * n * sizeof(int) + n + path_memory(p->ctx);
}
