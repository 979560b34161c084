/*
 * prune.c - dead-end pruning for maps that do not change while it is used.  It peels the
 * trees that hang off the 2-core of the move graph once, then answers a
 * query by walking trees and searching the core alone.  It owns the
 * peeling and the splicing of routes; the search itself is path.c's, run
 * on a private copy of the map with every peeled cell blocked (or, when
 * the trees are too few to keep, on the caller's map), or, on a core that
 * is mostly corridor, its own A* over the core's junctions and the chains
 * between them ("the core as chains", below).  It knows nothing of games
 * or files.
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

#include "region.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* up[c] of a whole tree's last cell (its root): no parent. */
#define PRUNE_NO_PARENT 0xFF
/* A core of more cells than this is first sampled, one row in
 * PRUNE_SAMPLE, before its chains are made (chains_make). */
#define PRUNE_SAMPLE_CORE 65536
#define PRUNE_SAMPLE 16
/* The trees are kept when they hold at least 1 / PRUNE_MIN_SHARE_DIV of
 * the passable cells (docs/core.md, "Dead-end pruning"). */
#define PRUNE_MIN_SHARE_DIV 16

struct prune {
	int w, h, n;             /* size of the map in cells */
	enum grid_topology topo;
	bool corner_cutting;     /* the move rule the trees were peeled under */
	const uint8_t *cost;     /* n: the original multipliers (0 = blocked): a copy, or with
	                            no trees kept the caller's grid's */
	bool trees;              /* the trees are kept: else every query is path_find on the caller's map */
	uint8_t *up;             /* n: direction of the parent (into off[][]) of a peeled
	                            cell, PRUNE_NO_PARENT for a tree's last cell; not set
	                            elsewhere; one byte, as every tree step of every query
	                            reads it */
	int *depth;              /* n: a peeled cell's steps up to its root; 0 elsewhere (a
	                            root: a core cell, a tree's last cell).  Written for the
	                            cells hanging in trees alone; no root is kept, as the
	                            climbs that need it walk there anyway */
	bool hex;                /* the direction offsets depend on the row's parity */
	int off[2][GRID_MAX_NEIGHBOURS]; /* index offset of each direction, per row parity */
	int *cells;              /* n: result route buffer (a route is simple, so n is enough) */
	int peeled;              /* passable cells outside the core */
	struct grid *core;       /* the map with every peeled cell blocked (trees kept only) */
	struct region *labels;   /* the core's components when it is searched whole (not as
	                            chains): region.c's labels of the core's map, whose
	                            regions are the components of its move graph */
	struct path_ctx *ctx;    /* search context on `core`, or on the caller's grid; NULL when
	                            the core is searched as chains (below) */
	struct moves *mv;        /* the move rules over `cost`, for walking chains (chains only) */
	struct chains *ch;       /* the core as junctions and the chains between them; NULL: not */
	const atomic_int *stop;  /* while prune_create_until runs: give up once it is set; NULL never */
};

/* Whether the peeling is to give up (prune_create_until): read now and
 * then, between rows and every STOP_EVERY cells of a pass. */
#define STOP_EVERY 65536
static inline bool stopped(const atomic_int *stop)
{
	return stop && atomic_load_explicit(stop, memory_order_relaxed) != 0;
}

static void chains_free(struct chains *ch);
static double route_cost(const struct prune *p, const int *cells, int len);

void prune_destroy(struct prune *p)
{
	if (!p)
		return;
	path_destroy(p->ctx);
	if (p->trees)
		free((void *)(uintptr_t)p->cost);
	region_destroy(p->labels);
	grid_destroy(p->core);
	free(p->up);
	free(p->depth);
	free(p->cells);
	chains_free(p->ch);
	free(p->mv);
	free(p);
}

/*
 * The move rules: the move from c in direction i leads to c + off[r][i],
 * r the row's parity on hex and diamond (0 on square grids).  A cell's
 * moves are read from the map when the peeling needs them (moves_at),
 * never all at once: most maps have few dead ends, and the peeling then
 * looks at them and their neighbours only.
 */
struct moves {
	const uint8_t *cost;
	int w, h, dirs;
	enum grid_topology topo;
	bool hex, corners, dcorners;
	int off[2][GRID_MAX_NEIGHBOURS];    /* index offsets per direction */
	int dx[2][GRID_MAX_NEIGHBOURS], dy[GRID_MAX_NEIGHBOURS]; /* the same as steps in x and y */
	const uint64_t *bits;               /* on square grids, when set: cost as bit rows (rw
	                                       words a row), read instead of the bytes (the
	                                       grid's own while peeling; the core's for its
	                                       chains) */
	int rw;
};

static void moves_init(struct moves *m, const struct grid *g, const uint8_t *cost, bool corner_cutting)
{
	m->cost = cost;
	m->w = g->w;
	m->h = g->h;
	m->topo = g->topo;
	m->dirs = grid_dir_count(g->topo);
	m->hex = grid_is_staggered(g->topo); /* hex or diamond: offsets by row parity */
	m->corners = g->topo == GRID_SQUARE8 && !corner_cutting;
	m->dcorners = g->topo == GRID_DIAMOND8 && !corner_cutting;
	m->bits = NULL;
	m->rw = 0;
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < GRID_MAX_NEIGHBOURS; i++) {
			m->dx[r][i] = i >= m->dirs ? 0 : grid_nb_dx(g->topo, r, i);
			m->dy[i] = i >= m->dirs ? 0 : grid_nb_dy(g->topo, i);
			m->off[r][i] = m->dy[i] * g->w + m->dx[r][i];
		}
}

/* Bits x - 1, x and x + 1 of a bit row as bits 0-2 (0 < x < w - 1). */
static inline unsigned trio(const uint64_t *row, int x)
{
	const int b = x - 1, j = b >> 6, s = b & 63;
	uint64_t v = row[j] >> s;
	if (s > 61)
		v |= row[j + 1] << (64 - s);
	return (unsigned)v & 7;
}

/* The bits of the eight cells around interior square cell (x, y) of bit
 * rows of rw words, bit i for direction i (N W E S NW NE SW SE). */
static inline unsigned ring_of(const uint64_t *bits, int rw, int x, int y)
{
	const uint64_t *r = bits + (size_t)y * (size_t)rw;
	const unsigned up = trio(r - rw, x), mid = trio(r, x), dn = trio(r + rw, x);
	return (up >> 1 & 1) | (mid & 1) << 1 | (mid >> 2 & 1) << 2 | (dn >> 1 & 1) << 3 | (up & 1) << 4 |
	       (up >> 2 & 1) << 5 | (dn & 1) << 6 | (dn >> 2 & 1) << 7;
}

/* Bit i set when the move from passable cell c = (x, y) in direction i is
 * allowed: the same rules as grid_neighbours (the tests hold prune to
 * path_find's answers). */
static unsigned moves_at(const struct moves *m, int x, int y)
{
	const enum grid_topology topo = m->topo;
	const int w = m->w, h = m->h;
	if (grid_is_square(topo) && x > 0 && y > 0 && x < w - 1 && y < h - 1) {
		/* an interior square cell: its eight neighbours at once (bit
		 * i: direction i, N W E S NW NE SW SE), from the bit rows when
		 * there are (a maze's 4096x4096 bytes spill out of the cache,
		 * its bits do not) */
		unsigned raw, diag;
		if (m->bits) {
			const unsigned ring = ring_of(m->bits, m->rw, x, y);
			raw = ring & 0x0F;
			diag = ring & 0xF0;
		} else {
			const uint8_t *c = m->cost + y * w + x;
			raw = (unsigned)(c[-w] != 0) | (unsigned)(c[-1] != 0) << 1 | (unsigned)(c[1] != 0) << 2 |
			      (unsigned)(c[w] != 0) << 3;
			diag = (unsigned)(c[-w - 1] != 0) << 4 | (unsigned)(c[-w + 1] != 0) << 5 |
			       (unsigned)(c[w - 1] != 0) << 6 | (unsigned)(c[w + 1] != 0) << 7;
		}
		if (topo == GRID_SQUARE4)
			return raw;
		if (!m->corners)
			return raw | diag;
		const unsigned bn = raw & 1, bw = raw >> 1 & 1, be = raw >> 2 & 1, bs = raw >> 3 & 1;
		return raw | (diag & ((bn & bw) << 4 | (bn & be) << 5 | (bs & bw) << 6 | (bs & be) << 7));
	}
	const int8_t *dx = topo == GRID_HEX ? GRID_HEX_DX[y & 1] : grid_is_diamond(topo) ? GRID_DIAMOND_DX[y & 1] : GRID_SQUARE_DX;
	const int8_t *dy = topo == GRID_HEX ? GRID_HEX_DY : grid_is_diamond(topo) ? GRID_DIAMOND_DY : GRID_SQUARE_DY;
	const uint8_t *cost = m->cost;
	unsigned bits = 0;
	for (int i = 0; i < m->dirs; i++) {
		const int nx = x + dx[i], ny = y + dy[i];
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)h || !cost[ny * w + nx])
			continue;
		/* square8 diagonals (i >= 4) pass two orthogonal cells */
		if (m->corners && i >= 4 && (!cost[y * w + nx] || !cost[ny * w + x]))
			continue;
		if (m->dcorners && i >= 4 && !grid_diamond_flanks_open(cost, w, h, x, y, i))
			continue;
		bits |= 1u << i;
	}
	return bits;
}

static inline const int *moves_off(const struct moves *m, int c)
{
	return m->off[m->hex ? (c / m->w) & 1 : 0];
}

/* The next cell up the tree from c (c must have a parent). */
static inline int parent_of(const struct prune *p, int c)
{
	return c + p->off[p->hex ? (c / p->w) & 1 : 0][p->up[c]];
}

/* The high bit of each of the eight bytes of v that is not zero. */
static inline uint64_t nonzero_bytes(uint64_t v)
{
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
	return (((v & low7) + low7) | v) & ~low7;
}

/*
 * Row y of a map's costs as bits, 64 cells a word (bit i of word j: cell
 * 64 j + i is passable), as the grid's bit rows hold them.  Eight cells at
 * a time: a byte's high bit set when any of its bits is, gathered into
 * eight bits by one multiplication (each lands on its own bit: no carries).
 */
static void pack_row(const uint8_t *row, int w, uint64_t *out)
{
	int j = 0, x = 0;
#if defined(__SSE2__)
	/* a word's 64 cells in four compares of sixteen bytes (region.c's row_bits) */
	const __m128i zero = _mm_setzero_si128();
	for (; x + 64 <= w; j++, x += 64) {
		uint64_t word = 0;
		for (int k = 0; k < 4; k++) {
			const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(row + x + 16 * k));
			word |= (uint64_t)(uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) << (16 * k);
		}
		out[j] = word;
	}
#endif
	for (; x < w; j++) {
		uint64_t word = 0;
		for (int b = 0; b < 64 && x < w; b += 8, x += 8) {
			uint64_t v = 0;
			memcpy(&v, row + x, w - x < 8 ? (size_t)(w - x) : 8);
			word |= ((nonzero_bytes(v) >> 7) * 0x0102040810204080ull >> 56) << b;
		}
		out[j] = word;
	}
}

/* Bit x of the result: cell x - 1 (west_of) or x + 1 (east_of) of bit
 * row r (rw words), word i; 0 past the row's ends. */
static inline uint64_t west_of(const uint64_t *r, int i)
{
	return r[i] << 1 | (i ? r[i - 1] >> 63 : 0);
}

static inline uint64_t east_of(const uint64_t *r, int i, int rw)
{
	return r[i] >> 1 | (i + 1 < rw ? r[i + 1] << 63 : 0);
}

/* How a row's tips are found 64 cells a word (peel): the neighbours whose
 * count decides, and so the map's kinds with such a rule. */
enum tips {
	TIPS_NONE,    /* each cell's moves counted (corner cutting on square8 and diamond8) */
	TIPS_SQUARE,  /* square4, square8 with the corner rule: the four orthogonal neighbours */
	TIPS_DIAMOND, /* diamond4, diamond8 with the corner rule: the four edge neighbours */
	TIPS_HEX,     /* the six neighbours */
};

static enum tips tips_kind(const struct moves *m)
{
	switch (m->topo) {
	case GRID_SQUARE4:
		return TIPS_SQUARE;
	case GRID_SQUARE8:
		return m->corners ? TIPS_SQUARE : TIPS_NONE;
	case GRID_DIAMOND4:
		return TIPS_DIAMOND;
	case GRID_DIAMOND8:
		return m->dcorners ? TIPS_DIAMOND : TIPS_NONE;
	case GRID_HEX:
		return TIPS_HEX;
	}
	return TIPS_NONE;
}

/*
 * The tips of row y, bits r (its neighbour rows up and dn, NULL past an
 * edge): passable cells with at most one move, appended to order[] from k.
 * A diagonal of square8 or a corner step of diamond8 needs both its
 * flanks, so there a cell with at most one orthogonal (edge) neighbour has
 * at most one move, and one with two has two.  On hex and diamond maps a
 * row's neighbours above and below lie half a cell to the west (even rows)
 * or east (odd rows): the row's parity picks the shifts.
 */
static int row_tips(enum tips kind, const uint64_t *r, const uint64_t *up, const uint64_t *dn, int rw, int y,
		    int w, int *order, int k)
{
	const bool odd = y & 1;
	for (int i = 0; i < rw; i++) {
		/* the rows above and below: the cell itself, and the ones west and east of it */
		const uint64_t n = up ? up[i] : 0, s = dn ? dn[i] : 0;
		const uint64_t west = west_of(r, i), east = east_of(r, i, rw);
		uint64_t two;
		if (kind == TIPS_SQUARE) {
			two = (n & s) | (west & east) | ((n | s) & (west | east));
		} else {
			/* above and below: half a step west and half a step east */
			const uint64_t uw = odd ? n : up ? west_of(up, i) : 0, ue = !odd ? n : up ? east_of(up, i, rw) : 0;
			const uint64_t dw = odd ? s : dn ? west_of(dn, i) : 0, de = !odd ? s : dn ? east_of(dn, i, rw) : 0;
			two = (uw & ue) | (dw & de) | ((uw | ue) & (dw | de));
			if (kind == TIPS_HEX)
				two |= (west & east) | ((west | east) & (uw | ue | dw | de));
		}
		for (uint64_t t = r[i] & ~two; t; t &= t - 1)
			order[k++] = y * w + i * 64 + __builtin_ctzll(t);
	}
	return k;
}

/* The moves in a cell's set of them (at most eight), without the call
 * __builtin_popcount makes on a build for any x86-64. */
static inline int move_count(unsigned v)
{
	v = v - (v >> 1 & 0x55);
	v = (v & 0x33) + (v >> 2 & 0x33);
	return (int)((v + (v >> 4)) & 0x0F);
}

static inline bool bit(const uint64_t *b, int c) { return b[c >> 6] >> (c & 63) & 1; }
static inline void set_bit(uint64_t *b, int c) { b[c >> 6] |= 1ull << (c & 63); }

/* The marks of the peeling, a bit a cell in rows of rw words, as the
 * grid's bit rows are laid out (so one word-wise read gives a square
 * cell's ring of neighbours). */
struct marks {
	uint64_t *bits;
	int rw;
};

static inline bool marked(const struct marks *k, int x, int y) { return bit(k->bits + (size_t)y * (size_t)k->rw, x); }

/* Of the moves mv of cell (x, y), those to cells not marked. */
static inline unsigned unmarked(const struct moves *m, const struct marks *k, int x, int y, unsigned mv)
{
	if (grid_is_square(m->topo) && x > 0 && y > 0 && x < m->w - 1 && y < m->h - 1)
		return mv & ~ring_of(k->bits, k->rw, x, y);
	const int *dx = m->dx[m->hex ? y & 1 : 0];
	unsigned left = 0;
	for (unsigned b = mv; b; b &= b - 1) {
		const int d = __builtin_ctz(b);
		if (!marked(k, x + dx[d], y + m->dy[d]))
			left |= 1u << d;
	}
	return left;
}

/*
 * Peels c, a cell with at most one move to a cell not yet peeled, then
 * that neighbour while it has at most one such move left, and so on up
 * the dead end: appends each to order[] from n and its parent direction
 * (the one neighbour left, or PRUNE_NO_PARENT) to dir[], returning the
 * new length.  A cell's moves left fall only when a neighbour is peeled,
 * and then to that neighbour's parent, so following the parent at once
 * peels every cell that can be peeled, as a queue would; but along the
 * corridor, a few cache lines at a time, where a queue's order jumped
 * between the dead ends of the whole map (on a 4096x4096 maze most of the
 * time went in those misses).  A cell's moves left are its moves less a
 * mask of its peeled neighbours, with no branch a neighbour.  The writes
 * are sequential: the parents are scattered to their cells only when the
 * trees are kept (on caves, which keep none, a write a cell would touch
 * most pages of an n-byte array).
 */
static int peel_up(const struct moves *m, struct marks *peeled, int *order, uint8_t *dir, int n, int c)
{
	int x = c % m->w, y = c / m->w;
	unsigned mv = moves_at(m, x, y);
	for (;;) {
		set_bit(peeled->bits + (size_t)y * (size_t)peeled->rw, x);
		order[n] = c;
		const unsigned left = unmarked(m, peeled, x, y, mv);
		if (!left) { /* a whole tree's last cell: its root */
			dir[n] = PRUNE_NO_PARENT;
			return n + 1;
		}
		const int d = __builtin_ctz(left);
		dir[n++] = (uint8_t)d;
		const int r = m->hex ? y & 1 : 0, v = c + m->off[r][d], vx = x + m->dx[r][d], vy = y + m->dy[d];
		const unsigned vm = moves_at(m, vx, vy), vleft = unmarked(m, peeled, vx, vy, vm);
		if (vleft & (vleft - 1)) /* two or more */
			return n;
		c = v;
		x = vx;
		y = vy;
		mv = vm;
	}
}

/*
 * Peels cells with at most one move until none is left (the 2-core of the
 * move graph stays), marking each in `peeled`, writing the peeling order
 * to order[] and each peeled cell's parent direction to dir[]; returns how
 * many, or -1 on no memory or once *stop is set.  The tips (the cells with at most one move on
 * the map) are found a row at a time into tip[] (w ints), each peeled up
 * its dead end (peel_up) before the next row is looked at.  On every grid
 * but square8 and diamond8 with corner cutting the tips are found 64 cells
 * a word (row_tips: on square4 and square8 a passable cell with at most
 * one passable orthogonal neighbour, as a diagonal needs two; on diamond
 * maps one edge neighbour, on hex one of six): on the grid's bit rows (a
 * square grid's moves are then read from them too), or on a costs array
 * of the caller's (the game's map memory) packed into bits three rows at
 * a time (on 4096x4096 about 15 times faster than counting each cell's
 * moves, which the two left still do).  `peeled` is a bit a cell: on
 * most maps the dead ends are few, and the preparation then touches
 * little memory.
 */
static int peel(const struct grid *g, struct moves *m, struct marks *peeled, int *order, uint8_t *dir, int *tip,
		const atomic_int *stop)
{
	int k = 0;
	const int rw = g->row_words, w = g->w, h = g->h;
	const bool own = g->cost == g->bits_of;
	if (own && grid_is_square(g->topo)) {
		m->bits = g->rows;
		m->rw = rw;
	}
	const enum tips kind = tips_kind(m);
	if (kind == TIPS_NONE) {
		for (int y = 0, c = 0; y < h && k >= 0; y++) {
			for (int x = 0; x < w; x++, c++)
				if (m->cost[c] && !marked(peeled, x, y) && move_count(moves_at(m, x, y)) <= 1)
					k = peel_up(m, peeled, order, dir, k, c);
			if (stopped(stop))
				k = -1;
		}
		m->bits = NULL;
		m->rw = 0;
		return k;
	}
	/* the caller's costs: three packed rows in turn, above, this one, below */
	uint64_t *buf = own ? NULL : calloc(3 * (size_t)rw, sizeof *buf);
	if (!own && !buf)
		return -1;
	uint64_t *rows[3] = { buf, buf + rw, buf + 2 * (size_t)rw };
	if (!own)
		pack_row(g->cost, w, rows[1]);
	for (int y = 0; y < h && k >= 0; y++) {
		int ntip;
		if (own) {
			const uint64_t *r = g->rows + (size_t)y * (size_t)rw;
			ntip = row_tips(kind, r, y > 0 ? r - rw : NULL, y + 1 < h ? r + rw : NULL, rw, y, w, tip, 0);
		} else {
			if (y + 1 < h)
				pack_row(g->cost + (size_t)(y + 1) * (size_t)w, w, rows[2]);
			ntip = row_tips(kind, rows[1], y > 0 ? rows[0] : NULL, y + 1 < h ? rows[2] : NULL, rw, y, w, tip, 0);
			uint64_t *t = rows[0];
			rows[0] = rows[1];
			rows[1] = rows[2];
			rows[2] = t;
		}
		for (int i = 0; i < ntip; i++)
			if (!marked(peeled, tip[i] % w, y))
				k = peel_up(m, peeled, order, dir, k, tip[i]);
		if (stopped(stop))
			k = -1;
	}
	m->bits = NULL;
	m->rw = 0;
	free(buf);
	return k;
}

/* ---- the core as chains ------------------------------------------------ */

/*
 * A maze's core is mostly corridors: cells with exactly two moves within
 * the core.  When at least half the core's cells are such, the core is
 * searched as a graph of its junctions (core cells with any other number
 * of moves) joined by arcs, each the chain of two-move cells between two
 * junctions (or a junction and itself), with its cost summed each way.  A
 * loop with no junction gets its lowest cell as one.  A query's ends that
 * lie inside a chain join it at the chain's two junctions.  The search is
 * A* over the junctions (the grid's heuristic is consistent there too: an
 * arc costs at least the distance of its ends), so the answer is exact.
 */
struct arc {
	int a, b;          /* the junction cells at its ends */
	int first[2];      /* the first cell after a (0) and after b (1): an interior cell, or the other end */
	double cost[2];    /* from a to b (0), from b to a (1): the cells entered on the way */
};

struct chains {
	uint8_t *moves;    /* n: a core cell's moves to core cells, a bit a direction (0 elsewhere) */
	int *tag;          /* n: a junction's node (>= 0), a chain cell's -2 - arc, else -1 */
	int *cell;         /* nodes: the junction cell of each node */
	int *adj0, *adj;   /* nodes + 1 offsets; 2 * arcs entries: arc * 2 + the direction leaving the node */
	struct arc *arcs;
	int nodes, narcs;
	/* the search's scratch, per node */
	double *g;
	int *from;         /* the arc entry (arc * 2 + dir) it was reached by; -1 the start, -2 none */
	unsigned *seen;    /* the query it was reached in */
	unsigned *closed;  /* the query it was taken from the queue in: never opened again */
	unsigned query;
	struct hent { double f, g; int node; } *heap;
	int heap_cap;
	int *path;         /* nodes + 2: the entries of a route, last first */
	int *comp;         /* nodes: 1 + the component number of each node (of its chains' cells too) */
};

/* A number shared by the roots of one component, for root r: a whole
 * tree's own cell (its only root: below n); a core cell's chain's node's
 * number when the core is kept as chains, else its region's, each past n
 * (the two never meet in one map). */
static inline int comp_at(const struct prune *p, int r)
{
	if (!p->core->cost[r])
		return r;
	if (p->ch) {
		const int t = p->ch->tag[r];
		return p->n + p->ch->comp[t >= 0 ? t : p->ch->tag[p->ch->arcs[-2 - t].a]];
	}
	return p->n + (int)region_of(p->labels, r);
}

static void chains_free(struct chains *ch)
{
	if (!ch)
		return;
	free(ch->moves);
	free(ch->tag);
	free(ch->cell);
	free(ch->adj0);
	free(ch->adj);
	free(ch->arcs);
	free(ch->g);
	free(ch->from);
	free(ch->seen);
	free(ch->closed);
	free(ch->heap);
	free(ch->path);
	free(ch->comp);
	free(ch);
}

/* The core cells core cell c = (x, y) can move to, as bits over the
 * directions (chains_make keeps them: core_moves).  On a square grid the
 * moves of the core's own map, from its bit rows: blocking the peeled
 * cells removed no move between core cells (the top of this file), and
 * the core's map has no move the map lacks.  Elsewhere the map's moves to
 * core cells. */
static unsigned core_moves_of(const struct prune *p, const struct moves *m, const struct moves *cm, int c, int x,
			      int y)
{
	if (cm)
		return moves_at(cm, x, y);
	const unsigned bits = moves_at(m, x, y);
	unsigned out = 0;
	const int *off = moves_off(m, c);
	for (unsigned b = bits; b; b &= b - 1) {
		const int i = __builtin_ctz(b);
		if (p->core->cost[c + off[i]])
			out |= 1u << i;
	}
	return out;
}

/* The core's cells in cell order into list[], from its bit rows; returns
 * how many.  The passes below look at them alone, not at every cell. */
static int core_cells(const struct prune *p, int *list)
{
	const struct grid *g = p->core;
	int k = 0;
	for (int y = 0; y < g->h; y++) {
		const uint64_t *r = g->rows + (size_t)y * (size_t)g->row_words;
		for (int j = 0; j < g->row_words; j++)
			for (uint64_t b = r[j]; b; b &= b - 1)
				list[k++] = y * g->w + j * 64 + __builtin_ctzll(b);
	}
	return k;
}

static inline unsigned core_moves(const struct prune *p, int c)
{
	return p->ch->moves[c];
}

/* The core cell after x on a chain entered from prev (x has two core moves). */
static int chain_next(const struct prune *p, const struct moves *m, int x, int prev)
{
	const int *off = moves_off(m, x);
	for (unsigned b = core_moves(p, x); b; b &= b - 1) {
		const int v = x + off[__builtin_ctz(b)];
		if (v != prev)
			return v;
	}
	return prev; /* cannot be: a chain cell has two */
}

/* Chain cell c's core neighbour on its side d (0: the first of its two
 * moves in direction order, 1: the other). */
static int chain_side(const struct prune *p, const struct moves *m, int c, int d)
{
	unsigned b = core_moves(p, c);
	if (d == 1)
		b &= b - 1;
	return c + moves_off(m, c)[__builtin_ctz(b)];
}

/* The cost of the step from a to the adjacent v, as path.c charges it. */
static double step_cost(const struct prune *p, int a, int v)
{
	const int pair[2] = { a, v };
	return route_cost(p, pair, 2);
}

/* Walks a chain from junction `from` through `first` to the junction at
 * its other end, tagging its cells with arc k; the arc's costs and ends. */
static void trace_arc(struct prune *p, const struct moves *m, struct chains *ch, int k, int from, int first)
{
	struct arc *a = &ch->arcs[k];
	a->a = from;
	a->first[0] = first;
	a->cost[0] = a->cost[1] = 0.0;
	int prev = from, x = first;
	while (ch->tag[x] < 0) { /* a chain cell (junctions are tagged first) */
		ch->tag[x] = -2 - k;
		a->cost[0] += step_cost(p, prev, x);
		a->cost[1] += step_cost(p, x, prev);
		const int next = chain_next(p, m, x, prev);
		prev = x;
		x = next;
	}
	a->cost[0] += step_cost(p, prev, x);
	a->cost[1] += step_cost(p, x, prev);
	a->b = x;
	a->first[1] = prev; /* from, when the chain has no cell between */
}

/* The core as chains, when at least half its cells are two-move cells;
 * NULL when not (or on no memory: the core is then searched whole). */
static struct chains *chains_make(struct prune *p, const struct moves *m, int *list)
{
	long two = 0;
	struct moves cm = *m; /* the core's own map, on square grids */
	cm.cost = p->core->cost;
	cm.bits = p->core->rows;
	cm.rw = p->core->row_words;
	const bool square = grid_is_square(p->topo);
	const struct grid *cg = p->core;
	long all = 0;
	for (size_t i = 0; i < (size_t)cg->h * (size_t)cg->row_words; i++)
		all += __builtin_popcountll(cg->rows[i]);
	if (all > PRUNE_SAMPLE_CORE) {
		/* a large core that is mostly open ground (a map memory whose
		 * unknown cells count as open) is told by a sample of its rows,
		 * not by a pass over all its cells: the chains would not be made */
		long seen = 0;
		for (int y = 0; y < cg->h; y += PRUNE_SAMPLE) {
			const uint64_t *r = cg->rows + (size_t)y * (size_t)cg->row_words;
			for (int j = 0; j < cg->row_words; j++)
				for (uint64_t b = r[j]; b; b &= b - 1, seen++) {
					const int x = j * 64 + __builtin_ctzll(b);
					two += move_count(core_moves_of(p, m, square ? &cm : NULL, y * p->w + x, x, y)) == 2;
				}
		}
		if (two * 2 < seen)
			return NULL;
		two = 0;
	}
	const int core = core_cells(p, list);
	uint8_t *moves = calloc((size_t)p->n, 1);
	if (!moves)
		return NULL;
	for (int i = 0; i < core; i++) {
		const int c = list[i];
		moves[c] = (uint8_t)core_moves_of(p, m, square ? &cm : NULL, c, c % p->w, c / p->w);
		two += move_count(moves[c]) == 2;
	}
	struct chains *ch = core == 0 || two * 2 < core || stopped(p->stop) ? NULL : calloc(1, sizeof *ch);
	if (!ch) {
		free(moves);
		return NULL;
	}
	ch->moves = moves;
	p->ch = ch; /* core_moves reads them from here on */
	ch->tag = malloc((size_t)p->n * sizeof *ch->tag);
	ch->cell = malloc((size_t)(core - two + 1) * sizeof *ch->cell);
	if (!ch->tag || !ch->cell) {
		chains_free(ch);
		return NULL;
	}
	memset(ch->tag, 0xFF, (size_t)p->n * sizeof *ch->tag); /* all -1 */
	for (int i = 0; i < core; i++) {
		const int c = list[i];
		if (move_count(core_moves(p, c)) != 2) {
			ch->tag[c] = ch->nodes;
			ch->cell[ch->nodes++] = c;
		}
	}
	/* arcs: at most one per junction's move, plus the loops without one */
	long cap_arcs = 0;
	for (int i = 0; i < ch->nodes; i++)
		cap_arcs += move_count(core_moves(p, ch->cell[i]));
	cap_arcs = cap_arcs / 2 + two / 3 + 2;
	ch->arcs = malloc((size_t)cap_arcs * sizeof *ch->arcs);
	int *grown = NULL;
	if (!ch->arcs) {
		chains_free(ch);
		return NULL;
	}
	for (int i = 0; i < ch->nodes; i++) {
		const int c = ch->cell[i];
		const int *off = moves_off(m, c);
		for (unsigned b = core_moves(p, c); b; b &= b - 1) {
			const int v = c + off[__builtin_ctz(b)];
			if (ch->tag[v] <= -2 || (ch->tag[v] >= 0 && v < c))
				continue; /* traced from its other end already */
			trace_arc(p, m, ch, ch->narcs++, c, v);
		}
	}
	/* loops of two-move cells alone: their lowest cell a junction */
	for (int i = 0; i < core; i++) {
		const int c = list[i];
		if (ch->tag[c] != -1)
			continue;
		grown = realloc(ch->cell, (size_t)(ch->nodes + 1) * sizeof *ch->cell);
		if (!grown || ch->narcs >= cap_arcs) {
			if (grown)
				ch->cell = grown;
			chains_free(ch);
			return NULL;
		}
		ch->cell = grown;
		ch->tag[c] = ch->nodes;
		ch->cell[ch->nodes++] = c;
		const int *off = moves_off(m, c);
		const unsigned b = core_moves(p, c);
		trace_arc(p, m, ch, ch->narcs++, c, c + off[__builtin_ctz(b)]);
	}
	if (stopped(p->stop)) {
		chains_free(ch);
		return NULL;
	}
	/* each node's arcs leaving it, in arc order */
	ch->adj0 = calloc((size_t)ch->nodes + 1, sizeof *ch->adj0);
	ch->adj = malloc((size_t)ch->narcs * 2 * sizeof *ch->adj);
	ch->g = malloc(((size_t)ch->nodes + 1) * sizeof *ch->g);
	ch->from = malloc(((size_t)ch->nodes + 1) * sizeof *ch->from);
	ch->seen = calloc((size_t)ch->nodes + 1, sizeof *ch->seen);
	ch->closed = calloc((size_t)ch->nodes + 1, sizeof *ch->closed);
	ch->heap_cap = 2 * ch->narcs + ch->nodes + 8;
	ch->heap = malloc((size_t)ch->heap_cap * sizeof *ch->heap);
	ch->path = malloc(((size_t)ch->nodes + 2) * sizeof *ch->path);
	if (!ch->adj0 || !ch->adj || !ch->g || !ch->from || !ch->seen || !ch->closed || !ch->heap || !ch->path) {
		chains_free(ch);
		return NULL;
	}
	for (int k = 0; k < ch->narcs; k++) {
		ch->adj0[ch->tag[ch->arcs[k].a] + 1]++;
		ch->adj0[ch->tag[ch->arcs[k].b] + 1]++;
	}
	for (int i = 0; i < ch->nodes; i++)
		ch->adj0[i + 1] += ch->adj0[i];
	int *fill = ch->from; /* scratch until the first query */
	memcpy(fill, ch->adj0, (size_t)ch->nodes * sizeof *fill);
	for (int k = 0; k < ch->narcs; k++) {
		ch->adj[fill[ch->tag[ch->arcs[k].a]]++] = 2 * k;
		ch->adj[fill[ch->tag[ch->arcs[k].b]]++] = 2 * k + 1;
	}
	/* the core's components over the nodes, breadth first along the arcs
	 * (a chain's cells are in its ends' component): a maze's 20,000
	 * junctions, not its million core cells */
	ch->comp = calloc((size_t)ch->nodes, sizeof *ch->comp);
	if (!ch->comp) {
		chains_free(ch);
		return NULL;
	}
	int *queue = ch->path, comps = 0; /* scratch until the first query */
	for (int i = 0; i < ch->nodes; i++) {
		if (ch->comp[i])
			continue;
		int head = 0, tail = 0;
		ch->comp[i] = ++comps;
		queue[tail++] = i;
		while (head < tail) {
			const int u = queue[head++];
			for (int e = ch->adj0[u]; e < ch->adj0[u + 1]; e++) {
				const struct arc *a = &ch->arcs[ch->adj[e] >> 1];
				const int v = ch->tag[(ch->adj[e] & 1) ? a->a : a->b];
				if (!ch->comp[v]) {
					ch->comp[v] = comps;
					queue[tail++] = v;
				}
			}
		}
	}
	return ch;
}

static void heap_push(struct chains *ch, int *size, struct hent e)
{
	if (*size >= ch->heap_cap)
		return; /* cannot be: a node is taken once, and its arcs pushed once */
	int i = (*size)++;
	while (i > 0) {
		const int up = (i - 1) / 2;
		const struct hent *u = &ch->heap[up];
		if (u->f < e.f || (u->f == e.f && u->g >= e.g))
			break;
		ch->heap[i] = *u;
		i = up;
	}
	ch->heap[i] = e;
}

static struct hent heap_pop(struct chains *ch, int *size)
{
	const struct hent top = ch->heap[0], e = ch->heap[--*size];
	int i = 0;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= *size)
			break;
		if (c + 1 < *size && (ch->heap[c + 1].f < ch->heap[c].f ||
				      (ch->heap[c + 1].f == ch->heap[c].f && ch->heap[c + 1].g > ch->heap[c].g)))
			c++;
		if (e.f < ch->heap[c].f || (e.f == ch->heap[c].f && e.g >= ch->heap[c].g))
			break;
		ch->heap[i] = ch->heap[c];
		i = c;
	}
	ch->heap[i] = e;
	return top;
}

/* From x along a chain through `first` up to `stop` or the chain's end:
 * appends the cells after x (the last one included) to out[] from *len,
 * and returns the last cell. */
static int walk_chain(const struct prune *p, const struct moves *m, int x, int first, int stop, int *out, int *len)
{
	int prev = x, c = first;
	for (;;) {
		out[(*len)++] = c;
		if (c == stop || p->ch->tag[c] >= 0)
			return c;
		const int next = chain_next(p, m, c, prev);
		prev = c;
		c = next;
	}
}

/* The cost of walking from x through `first` to the chain's end, *end
 * (or to `stop`, where *met is set). */
static double chain_cost(const struct prune *p, const struct moves *m, int x, int first, int stop, bool *met,
			 int *end)
{
	double cost = 0.0;
	int prev = x, c = first;
	*met = false;
	for (;;) {
		cost += step_cost(p, prev, c);
		if (c == stop) {
			*met = true;
			break;
		}
		if (p->ch->tag[c] >= 0)
			break;
		const int next = chain_next(p, m, c, prev);
		prev = c;
		c = next;
	}
	*end = c;
	return cost;
}

/*
 * A* over the junctions from core cell rs to core cell rg (rs != rg).  The
 * goal is a node of its own (number `nodes`): reached from rg's junction,
 * or when rg lies in a chain from either end of it (the rest of the chain
 * its cost) and from rs along their common chain; a route is found when
 * that node is taken from the queue, as A* takes a goal, for any weight.
 * The route from rs to rg (or, out of budget, to the junction taken that
 * lies nearest rg by the heuristic, the fewer cost first) goes to out[]
 * from *len.  Returns PATH_FOUND, PATH_BUDGET or PATH_NO_ROUTE; *expanded
 * counts the junctions taken.
 */
static enum path_status chains_find(struct prune *p, int rs, int rg, const struct path_options *opt, int *out,
				    int *len, long *expanded)
{
	struct chains *ch = p->ch;
	const struct moves *m = p->mv;
	const double w = opt->weight;
	const int goal = ch->nodes;
	if (++ch->query == 0) {
		memset(ch->seen, 0, ((size_t)ch->nodes + 1) * sizeof *ch->seen);
		memset(ch->closed, 0, ((size_t)ch->nodes + 1) * sizeof *ch->closed);
		ch->query = 1;
	}
	const unsigned q = ch->query;
	int size = 0;
	/* reaching node v (or the goal) at cost g, by `from` */
#define CHAINS_REACH(v, gv, fromv, hv)                                                                        \
	do {                                                                                                  \
		if (ch->closed[v] != q && (ch->seen[v] != q || (gv) < ch->g[v])) {                            \
			ch->seen[v] = q;                                                                      \
			ch->g[v] = (gv);                                                                      \
			ch->from[v] = (fromv);                                                                \
			heap_push(ch, &size, (struct hent){ (gv) + w * (hv), (gv), (v) });                    \
		}                                                                                             \
	} while (0)
	/* the goal's side: its chain's two ends, the cost from each to rg,
	 * and the cell after each end on the way */
	const int gnode = ch->tag[rg];
	int gend[2] = { -1, -1 }, glast[2] = { -1, -1 };
	double gcost[2] = { 0.0, 0.0 };
	if (gnode < 0) {
		for (int d = 0; d < 2; d++) {
			int prev = rg, c = chain_side(p, m, rg, d);
			double back = step_cost(p, c, prev); /* walked outward: the steps' costs toward rg */
			while (ch->tag[c] < 0) {
				const int next = chain_next(p, m, c, prev);
				prev = c;
				c = next;
				back += step_cost(p, c, prev);
			}
			gend[d] = c;
			glast[d] = prev;
			gcost[d] = back;
		}
	}
	/* the start's side */
	int direct_first = -1;
	if (ch->tag[rs] >= 0) {
		const int s = ch->tag[rs];
		CHAINS_REACH(s, 0.0, -1, grid_heuristic(p->core, rs, rg));
	} else {
		for (int d = 0; d < 2; d++) {
			const int first = chain_side(p, m, rs, d);
			bool met;
			int end;
			const double c = chain_cost(p, m, rs, first, rg, &met, &end);
			if (met) { /* rg lies this way along rs's own chain */
				if (ch->seen[goal] != q || c < ch->g[goal])
					direct_first = first;
				CHAINS_REACH(goal, c, -5, 0.0);
			} else {
				CHAINS_REACH(ch->tag[end], c, -3 - d, grid_heuristic(p->core, end, rg));
			}
		}
	}
	long pops = 0;
	int near = -1;
	double near_h = INFINITY, near_g = 0.0;
	bool found = false;
	while (size > 0) {
		const struct hent e = heap_pop(ch, &size);
		if (e.g > ch->g[e.node] || ch->closed[e.node] == q)
			continue; /* a stale entry */
		const int u = e.node;
		ch->closed[u] = q;
		if (u == goal) {
			found = true;
			break;
		}
		if (opt->budget > 0 && pops >= opt->budget)
			break;
		pops++;
		const int cu = ch->cell[u];
		const double hu = grid_heuristic(p->core, cu, rg);
		if (hu < near_h || (hu == near_h && e.g < near_g)) {
			near = u;
			near_h = hu;
			near_g = e.g;
		}
		if (u == gnode) {
			CHAINS_REACH(goal, e.g, -6, 0.0);
			continue;
		}
		for (int d = 0; d < 2; d++)
			if (gnode < 0 && cu == gend[d])
				CHAINS_REACH(goal, e.g + gcost[d], -10 - d, 0.0);
		for (int k = ch->adj0[u]; k < ch->adj0[u + 1]; k++) {
			const int entry = ch->adj[k];
			const struct arc *a = &ch->arcs[entry / 2];
			const int vcell = (entry & 1) ? a->a : a->b;
			CHAINS_REACH(ch->tag[vcell], e.g + a->cost[entry & 1], entry, grid_heuristic(p->core, vcell, rg));
		}
	}
#undef CHAINS_REACH
	*expanded = pops;
	int reached; /* the junction the route leaves the junctions at; -1: along rs's chain */
	enum path_status st = PATH_FOUND;
	if (found) {
		reached = ch->from[goal] == -5 ? -1 : ch->from[goal] == -6 ? gnode : ch->tag[gend[-10 - ch->from[goal]]];
	} else if (opt->budget > 0 && pops >= opt->budget && near >= 0) {
		st = PATH_BUDGET;
		reached = near;
	} else {
		return PATH_NO_ROUTE;
	}
	out[(*len)++] = rs;
	if (reached < 0) {
		walk_chain(p, m, rs, direct_first, rg, out, len);
		return PATH_FOUND;
	}
	/* the arc entries from rs to `reached`, last first */
	int np = 0, v = reached;
	while (ch->from[v] >= 0) {
		const int entry = ch->from[v];
		ch->path[np++] = entry;
		const struct arc *a = &ch->arcs[entry / 2];
		v = ch->tag[(entry & 1) ? a->b : a->a];
	}
	if (ch->from[v] <= -3) /* rs inside a chain: out along its side d */
		walk_chain(p, m, rs, chain_side(p, m, rs, -3 - ch->from[v]), -1, out, len);
	for (int i = np - 1; i >= 0; i--) {
		const int entry = ch->path[i];
		const struct arc *a = &ch->arcs[entry / 2];
		const int dir = entry & 1;
		walk_chain(p, m, dir ? a->b : a->a, a->first[dir], -1, out, len);
	}
	if (st == PATH_FOUND && ch->from[goal] <= -10) {
		const int d = -10 - ch->from[goal];
		walk_chain(p, m, gend[d], glast[d], rg, out, len);
	}
	return st;
}

/* Passable cells: the bit rows counted when they are current, else the
 * costs eight at a time. */
static long count_passable(const struct grid *g)
{
	long k = 0;
	if (g->cost == g->bits_of) {
		for (size_t i = 0; i < (size_t)g->h * (size_t)g->row_words; i++)
			k += __builtin_popcountll(g->rows[i]);
	} else {
		const size_t n = (size_t)g->w * (size_t)g->h;
		size_t i = 0;
		for (; i + 8 <= n; i += 8) {
			uint64_t v;
			memcpy(&v, g->cost + i, 8);
			k += (long)((nonzero_bytes(v) >> 7) * 0x0101010101010101ull >> 56); /* their sum */
		}
		for (; i < n; i++)
			k += g->cost[i] != 0;
	}
	return k;
}

/* The map's costs with every cell marked in `peeled` blocked, into out[]:
 * eight cells at a time, each mark spread to a byte's mask. */
static void core_costs(const uint8_t *cost, const struct marks *peeled, int w, int h, uint8_t *out)
{
	for (int y = 0; y < h; y++) {
		const uint64_t *r = peeled->bits + (size_t)y * (size_t)peeled->rw;
		const uint8_t *src = cost + (size_t)y * (size_t)w;
		uint8_t *dst = out + (size_t)y * (size_t)w;
		int x = 0;
		for (; x + 8 <= w; x += 8) {
			const uint64_t eight = r[x >> 6] >> (x & 63) & 0xFF;
			const uint64_t mask = (nonzero_bytes(eight * 0x0101010101010101ull & 0x8040201008040201ull) >> 7) *
					      0xFF;
			uint64_t v;
			memcpy(&v, src + x, 8);
			v &= ~mask;
			memcpy(dst + x, &v, 8);
		}
		for (; x < w; x++)
			dst[x] = bit(r, x) ? 0 : src[x];
	}
}

struct prune *prune_create(const struct grid *g, bool corner_cutting)
{
	return prune_create_until(g, corner_cutting, NULL);
}

struct prune *prune_create_until(const struct grid *g, bool corner_cutting, const atomic_int *stop)
{
	if (!g || g->w <= 0 || g->h <= 0 || stopped(stop))
		return NULL;
	struct prune *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->stop = stop;
	p->w = g->w;
	p->h = g->h;
	p->n = g->w * g->h;
	p->topo = g->topo;
	p->corner_cutting = (g->topo == GRID_SQUARE8 || g->topo == GRID_DIAMOND8) && corner_cutting;
	const size_t n = (size_t)p->n;
	/* the peeling's record, order[] (in p->cells) and dir[], is written
	 * a peeled cell at a time: on a map with few dead ends few of its
	 * pages are touched */
	p->cells = malloc(n * sizeof *p->cells);
	uint8_t *dir = malloc(n);
	struct marks peeled = { calloc((size_t)g->h * (size_t)g->row_words, sizeof(uint64_t)), g->row_words };
	int *tip = malloc((size_t)g->w * sizeof *tip);
	bool ok = p->cells && dir && peeled.bits && tip;
	struct moves m;
	moves_init(&m, g, g->cost, p->corner_cutting);
	p->hex = m.hex;
	memcpy(p->off, m.off, sizeof p->off);
	int *order = p->cells;
	const int npeeled = ok ? peel(g, &m, &peeled, order, dir, tip, stop) : -1;
	ok = ok && npeeled >= 0;
	p->peeled = ok ? npeeled : 0;
	free(tip);
	/* Trees that hold too small a share of the map are not kept: every
	 * query is then path_find on g itself (docs/core.md, "Dead-end
	 * pruning": the maps with under 1% of their cells in trees gained
	 * nothing from them, and keeping them costs a copy of the map, a pass
	 * over it and a labelling). */
	p->trees = ok && npeeled > 0 && (long)npeeled * PRUNE_MIN_SHARE_DIV >= count_passable(g);
	uint8_t *cost = NULL, *core = NULL;
	if (ok && p->trees) {
		p->cost = cost = malloc(n);
		p->up = malloc(n);
		core = malloc(n);
		p->depth = calloc(n, sizeof *p->depth);
		p->core = grid_create(g->w, g->h, g->topo);
		ok = p->cost && p->up && core && p->depth && p->core;
	}
	if (ok && p->trees) {
		memcpy(cost, g->cost, n);
		/* parents, and depths in reverse peeling order (a parent is
		 * peeled after its children) */
		int last = -1, last_depth = 0;
		for (int i = npeeled - 1; i >= 0 && ok; i--) {
			if (!(i & (STOP_EVERY - 1)) && stopped(stop))
				ok = false;
			const int c = order[i];
			p->up[c] = dir[i];
			if (dir[i] != PRUNE_NO_PARENT) {
				/* along a dead end the parent was the cell just done */
				const int up = parent_of(p, c);
				last_depth = (up == last ? last_depth : p->depth[up]) + 1;
				p->depth[c] = last_depth;
			} else {
				last_depth = 0; /* a whole tree's root: its own component */
			}
			last = c;
		}
	}
	if (ok && p->trees) {
		/* The core copy: every peeled cell blocked (a tree's last cell
		 * too), set at once, bit rows and all, not a cell at a time:
		 * most of a maze is peeled. */
		core_costs(g->cost, &peeled, g->w, g->h, core);
		grid_set_costs(p->core, core);
		moves_init(&m, g, p->cost, p->corner_cutting);
		/* p->cells is scratch until the first query */
		p->mv = malloc(sizeof *p->mv);
		if (p->mv) {
			*p->mv = m;
			p->ch = chains_make(p, p->mv, p->cells);
		}
		if (!p->ch && !stopped(stop)) {
			p->labels = region_create_over(p->core, p->core->cost, p->corner_cutting);
			ok = p->labels != NULL;
		}
		ok = ok && !stopped(stop);
	} else if (ok) {
		p->cost = g->cost;
	}
	free(core);
	free(dir);
	free(peeled.bits);
	p->stop = NULL;
	p->ctx = ok && !p->ch ? path_create(p->trees ? p->core : g) : NULL;
	if (!ok || (!p->ch && !p->ctx)) {
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

/*
 * The two ends' climb: the deeper of start and goal goes up to the
 * other's depth, then both a step at a time, until they meet (their
 * lowest common ancestor) or both stand at their roots (depth 0).  Each
 * step is a step of the route.  The start's cells go to cells[0..) from
 * the start up, the goal's to cells[..n) from the goal (at n - 1) up.
 * Returns the route's length when they met, with the route in cells[0..)
 * and its steps in *walked; else 0, with the start's climb in
 * cells[0..*ds] (its root last) and the goal's in cells[n - 1 - *dg..n)
 * (its root first).
 */
static int climb(struct prune *p, int start, int goal, long *walked, int *ds, int *dg)
{
	int *cells = p->cells;
	const int n = p->n;
	int ia = 0, jb = n, a = start, b = goal, da = p->depth[start], db = p->depth[goal];
	cells[ia++] = a;
	cells[--jb] = b;
	for (; da > db; da--)
		cells[ia++] = a = parent_of(p, a);
	for (; db > da; db--)
		cells[--jb] = b = parent_of(p, b);
	for (; a != b && da > 0; da--) {
		cells[ia++] = a = parent_of(p, a);
		cells[--jb] = b = parent_of(p, b);
	}
	if (a != b) {
		*ds = ia - 1;
		*dg = n - jb - 1;
		return 0;
	}
	/* the ancestor is in both halves: the goal's from the one after it */
	memmove(cells + ia, cells + jb + 1, (size_t)(n - jb - 1) * sizeof *cells);
	*walked = ia + (n - jb - 1) - 1;
	return ia + (n - jb - 1);
}

enum path_status prune_find(struct prune *p, int start, int goal, const struct path_options *opt,
			    struct path_result *out)
{
	struct path_options defaults = path_options_default();
	if (!opt)
		opt = &defaults;
	memset(out, 0, sizeof *out);
	const bool cc = p && (p->topo == GRID_SQUARE8 || p->topo == GRID_DIAMOND8) && opt->corner_cutting;
	if (!p || start < 0 || goal < 0 || start >= p->n || goal >= p->n || opt->fallback || opt->extra ||
	    cc != p->corner_cutting || !p->cost[start]) {
		out->status = PATH_BAD_INPUT;
		return PATH_BAD_INPUT;
	}
	if (!p->trees)
		return path_find(p->ctx, start, goal, opt, out);
	if (start == goal) {
		single_cell(p, start, PATH_FOUND, out);
		return PATH_FOUND;
	}
	if (!p->cost[goal]) {
		single_cell(p, start, PATH_NO_ROUTE, out);
		return PATH_NO_ROUTE;
	}
	long expanded = 0;
	int ds = 0, dg = 0;
	int len = climb(p, start, goal, &expanded, &ds, &dg);
	enum path_status st = PATH_FOUND;
	if (len == 0) {
		/* Different roots: the start's climb is in cells[0..ds], its
		 * root last.  In one component both are core cells: the core's
		 * route (as chains, or searched whole), then down the goal's
		 * tree. */
		const int rs = p->cells[ds];
		const int rg = p->cells[p->n - 1 - dg]; /* the goal's climb, its root on top */
		if (comp_at(p, rs) != comp_at(p, rg)) {
			single_cell(p, start, PATH_NO_ROUTE, out);
			return PATH_NO_ROUTE;
		}
		enum path_status cst;
		long core_expanded = 0;
		len = ds;
		if (p->ch) {
			cst = chains_find(p, rs, rg, opt, p->cells, &len, &core_expanded);
		} else {
			struct path_result core;
			cst = path_find(p->ctx, rs, rg, opt, &core);
			core_expanded = core.expanded;
			if (cst == PATH_FOUND || cst == PATH_BUDGET) {
				memcpy(p->cells + ds, core.cells, (size_t)core.len * sizeof *p->cells);
				len += core.len;
			}
		}
		if (cst != PATH_FOUND && cst != PATH_BUDGET) {
			single_cell(p, start, PATH_NO_ROUTE, out);
			out->expanded = core_expanded;
			return PATH_NO_ROUTE;
		}
		if (cst != PATH_FOUND)
			dg = 0;
		len += dg;
		int c = goal;
		for (int i = len - 1; i >= len - dg; i--, c = parent_of(p, c))
			p->cells[i] = c;
		expanded = core_expanded + ds + dg;
		/* out of budget: up to the start's root and the core search's
		 * best cell, a partial route that ends on the core, in no dead end */
		st = cst;
	}
	out->status = st;
	out->cells = p->cells;
	out->len = len;
	out->end = p->cells[len - 1]; /* the goal, when found */
	out->cost = route_cost(p, p->cells, len);
	out->steps = len - 1;
	out->expanded = expanded;
	out->reached = st == PATH_FOUND;
	out->blocked_crossed = 0;
	out->first_blocked = -1;
	return st;
}

int prune_root(const struct prune *p, int cell)
{
	if (!p || cell < 0 || cell >= p->n)
		return -1;
	if (!p->cost[cell])
		return -1;
	int c = cell;
	for (int d = p->trees ? p->depth[cell] : 0; d > 0; d--)
		c = parent_of(p, c);
	return c;
}

int prune_depth(const struct prune *p, int cell)
{
	if (!p || cell < 0 || cell >= p->n)
		return -1;
	if (!p->cost[cell])
		return -1;
	return p->trees ? p->depth[cell] : 0;
}

int prune_component(const struct prune *p, int cell)
{
	return p && p->trees && cell >= 0 && cell < p->n && p->cost[cell] ? comp_at(p, prune_root(p, cell)) : -1;
}

int prune_peeled(const struct prune *p)
{
	return p && p->trees ? p->peeled : 0;
}

int prune_junctions(const struct prune *p)
{
	return p && p->ch ? p->ch->nodes : 0;
}

const char *prune_auto_search(const struct prune *p)
{
	return p && p->ch ? "chains" : path_auto_search(p ? p->ctx : NULL);
}

int prune_dead_ends(const struct prune *p)
{
	return p ? p->peeled : 0;
}

size_t prune_memory(const struct prune *p)
{
	if (!p)
		return 0;
	const size_t n = (size_t)p->n;
	/* the copy, the parents and the core's costs, the depths, the core's
	 * bit rows */
	const size_t trees = p->trees ? 3 * n + n * sizeof(int) +
						(size_t)p->h * (size_t)p->core->row_words * 8 +
						(size_t)p->w * (size_t)p->core->col_words * 8 : 0;
	size_t chains = 0;
	if (p->ch) {
		const size_t nodes = (size_t)p->ch->nodes + 2;
		chains = sizeof *p->ch + sizeof *p->mv + n * sizeof(int) +
			 nodes * (4 * sizeof(int) + sizeof(double) + 3 * sizeof(unsigned)) +
			 (size_t)p->ch->narcs * (sizeof(struct arc) + 2 * sizeof(int)) +
			 (size_t)p->ch->heap_cap * sizeof(struct hent);
	}
	return sizeof *p + n * sizeof(int) + trees + chains + (p->labels ? region_memory(p->labels) : 0) +
	       (p->ctx ? path_memory(p->ctx) : 0);
}
