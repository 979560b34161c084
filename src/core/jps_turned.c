/*
 * jps_turned.c - jump point search on the grids that are not square: hex,
 * and the diamond grids (a square grid turned 45 degrees).  It owns its
 * own context (records, queue) and answers uniform-cost queries only: every
 * passable cell counts as cost 1, and the caller (path.c) checks the route's
 * terrain and searches again with the costs when the route crosses any
 * (docs/core.md, "Jump point search on hex and diamond").  It does not know
 * path.c's records, ties or fallback.
 *
 * The method.  Each grid's moves split into "spawning" moves and "terminal"
 * moves, and every shortest route on an open map can be put in the
 * canonical form: spawning moves first, then terminal ones.
 * - diamond8 is square8 turned: its corner steps (the square diagonals)
 *   spawn, its edge steps (the square straights) are terminal.  Jump point
 *   search for square8 (Harabor and Grastien) carries over move for move,
 *   the corner rule included.
 * - diamond4 is square4 turned: the square W and E moves (diamond NW, SE)
 *   spawn, N and S (diamond NE, SW) are terminal.
 * - hex: a shortest route on an open hex map uses at most two directions,
 *   60 degrees apart, and of any two such directions one is in {W, NE, SE}
 *   and the other in {E, NW, SW} (they alternate around the hex).  So W, NE
 *   and SE spawn, each into its two neighbours (NE into E and NW, since NE
 *   = E + NW in axial coordinates), and E, NW and SW are terminal.
 * A terminal jump goes straight until the goal, a blocked cell (no jump
 * point), or a forced neighbour: a turn q whose cell beside (x + q) is free
 * while the same turn from the previous cell p (p + q) is blocked.  Were
 * p + q free, a canonical route would reach x + q through it at the same
 * cost (spawning move first), so only a blocked p + q forces the turn at
 * x; the turn is then added to the jump point's moves.
 * A spawning jump goes straight and stops at the first cell from which a
 * terminal jump along one of its two components finds a jump point (or the
 * goal).  A spawning move forces nothing: every other neighbour of the cell
 * it enters is a neighbour of the cell it came from.  On diamond8 a
 * spawning (corner) step needs both flanks free, as every search's.
 *
 * The jump points are then searched by A* with the grid's own heuristic in
 * fixed point (1 = 2^shift, sqrt 2 rounded), so equal routes tie exactly.
 * The terminal jumps scan 64 cells a machine word (count trailing or
 * leading zeros), on bit lines along the grid's own axes: hex rows are the
 * grid's bit rows (grid.h), and the context keeps the two other hex axes
 * (axial q constant: NW-SE; q + r constant: NE-SW), or a diamond map's u
 * and v lines.  A turn is forced at position r when a side line's cell at
 * r + a is free and its cell at r + b blocked (a and b per axis and side),
 * so one word of events is ~line | (side(r + a) & ~side(r + b)) for both
 * sides, read at a shifted window.  Each query first compares the grid's
 * bit rows (kept in step by grid_set_cost) with the copy it last saw, and
 * changes the lines' bits for the cells that differ: a door opened or a
 * wall dug in place costs its bits, and nothing built goes stale.  The
 * spawning jumps step cell by cell on the cost bytes.
 */
#include "jps_turned.h"

#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POS_CLOSED (-1)
#define POS_STACK INT32_MIN
#define DIR_NONE 255
#define GEN_LIMIT 0xffff

/* 16 bytes per cell. */
struct tnode {
	int64_t g;      /* fixed-point cost from the start */
	int32_t pos;    /* heap slot, POS_CLOSED or POS_STACK */
	uint16_t stamp; /* live when stamp == gen */
	uint8_t dir;    /* the move (grid.h table index) that arrived here; DIR_NONE at the start */
	uint8_t via;    /* 1: a spawning jump passed through (closed, never queued: jump_spawning) */
};

#define PQ_RECORD struct tnode
#define PQ_RING_SLOTS 64
#define PQ_RING_CHUNK 32
#include "pqueue.h"

/*
 * A topology's moves, by grid.h table index: which spawn, the two terminal
 * components of a spawning move, the two turns of a terminal move and the
 * moves a forced turn adds (square8's rule adds the turn and the diagonal
 * between it and the move), and each move's opposite.
 */
struct rules {
	int moves;
	unsigned spawning;   /* bit i: move i spawns */
	uint8_t comp[8][2];  /* spawning move: its terminal components */
	uint8_t turn[8][2];  /* terminal move: the cells beside that can force a turn */
	uint8_t add[8][2];   /* terminal move: the moves turn k adds, as a bit mask */
	uint8_t opp[8];
};

/* Hex (grid.h: W, E, NW, NE, SW, SE).  Around the hex: E, NE, NW, W, SW, SE. */
static const struct rules HEX_RULES = {
	.moves = 6,
	.spawning = 1u << 0 | 1u << 3 | 1u << 5, /* W, NE, SE */
	.comp = { [0] = { 2, 4 }, [3] = { 1, 2 }, [5] = { 4, 1 } },
	.turn = { [1] = { 3, 5 }, [2] = { 3, 0 }, [4] = { 0, 5 } },
	.add = { [1] = { 1u << 3, 1u << 5 }, [2] = { 1u << 3, 1u << 0 }, [4] = { 1u << 0, 1u << 5 } },
	.opp = { 1, 0, 5, 4, 3, 2 },
};

/* Diamond4 (NE, NW, SE, SW = the square N, W, E, S): W and E spawn. */
static const struct rules DIAMOND4_RULES = {
	.moves = 4,
	.spawning = 1u << 1 | 1u << 2,
	.comp = { [1] = { 0, 3 }, [2] = { 0, 3 } },
	.turn = { [0] = { 1, 2 }, [3] = { 1, 2 } },
	.add = { [0] = { 1u << 1, 1u << 2 }, [3] = { 1u << 1, 1u << 2 } },
	.opp = { 3, 2, 1, 0 },
};

/* Diamond8: the square8 moves turned (N, W, E, S, then NW, NE, SW, SE). */
static const struct rules DIAMOND8_RULES = {
	.moves = 8,
	.spawning = 0xf0,
	.comp = { [4] = { 0, 1 }, [5] = { 0, 2 }, [6] = { 1, 3 }, [7] = { 3, 2 } },
	.turn = { [0] = { 1, 2 }, [1] = { 0, 3 }, [2] = { 0, 3 }, [3] = { 1, 2 } },
	.add = { [0] = { 1u << 1 | 1u << 4, 1u << 2 | 1u << 5 },
		 [1] = { 1u << 0 | 1u << 4, 1u << 3 | 1u << 6 },
		 [2] = { 1u << 0 | 1u << 5, 1u << 3 | 1u << 7 },
		 [3] = { 1u << 1 | 1u << 6, 1u << 2 | 1u << 7 } },
	.opp = { 3, 2, 1, 0, 7, 6, 5, 4 },
};

/*
 * A family of n bit lines of `words` words each, padded: line i, for i
 * from -1 to n, is at mem + (i + 1) * (words + 2) + 1, and words -1 and
 * `words` of every line, and lines -1 and n, are 0 (blocked: the map's
 * edge).  So a scan reads one word either side and the lines either side
 * without a test.
 */
struct family {
	uint64_t *mem;
	int n, words;
};

static bool family_init(struct family *f, int n, int words)
{
	f->n = n;
	f->words = words;
	f->mem = calloc((size_t)(n + 2) * (size_t)(words + 2), sizeof *f->mem);
	return f->mem != NULL;
}

static size_t family_bytes(const struct family *f)
{
	return (size_t)(f->n + 2) * (size_t)(f->words + 2) * sizeof *f->mem;
}

static inline uint64_t *family_line(const struct family *f, int i)
{
	return f->mem + (size_t)(i + 1) * (size_t)(f->words + 2) + 1;
}

struct jps_turned {
	const struct grid *grid;
	int w, h, n;
	/* The bit lines: hex: a's line q + qoff holds bit y for the cell of
	 * axial q in row y, b's line q + y the same for the NE-SW axis;
	 * diamond: a's line u holds bit v + voff, b's line v + voff bit u.
	 * rows is the copy of grid->rows that a and b describe (hex E scans
	 * read it too).  Bits outside the map are 0. */
	struct family a, b, rows;
	int off;             /* hex: qoff; diamond: voff */
	struct tnode *node;  /* n records */
	uint64_t *seen;      /* bit c: cell c has a live record this query (n bits, cleared per query):
	                        a new jump point is known new without reading its record, which is
	                        mostly a cache miss */
	struct pq queue;     /* heap and tie stack; after a query its array holds the route */
	uint16_t gen;
	int64_t s1, s2;      /* fixed-point 1 and sqrt 2 */
	int hshift;          /* h >> hshift fits the key's 32 bits */
	bool synced;         /* the lines describe the grid's bits as of its bits_changes `synced_at` */
	uint64_t synced_at;
};

/* What one query's scans read. */
struct scan {
	const uint8_t *cost;
	int w, h, goal;
};

struct jps_turned *jps_turned_create(const struct grid *g)
{
	if (!g || g->w <= 0 || g->h <= 0 || !(g->topo == GRID_HEX || grid_is_diamond(g->topo)))
		return NULL;
	const size_t n = (size_t)g->w * (size_t)g->h;
	if (n > (size_t)INT32_MAX / 2)
		return NULL;
	struct jps_turned *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->grid = g;
	t->w = g->w;
	t->h = g->h;
	t->n = (int)n;
	t->node = calloc(n, sizeof *t->node);
	t->seen = calloc(n / 64 + 1, sizeof *t->seen);
	t->queue.cap = (long)n + 1;
	t->queue.key = malloc((size_t)t->queue.cap * sizeof *t->queue.key);
	bool lines;
	if (g->topo == GRID_HEX) {
		t->off = (g->h - 1) >> 1;
		/* q from -qoff to w - 1; q + y from 0 to w - 1 + h / 2 */
		lines = family_init(&t->a, g->w + t->off, (g->h + 63) / 64) &&
			family_init(&t->b, g->w + (g->h >> 1), (g->h + 63) / 64);
	} else {
		t->off = g->w; /* v from -w to h / 2, u from 0 to w + h / 2 */
		const int span = g->w + (g->h >> 1) + 1;
		lines = family_init(&t->a, span, (span + 63) / 64) && family_init(&t->b, span, (span + 63) / 64);
	}
	lines = lines && family_init(&t->rows, g->h, g->row_words);
	if (!t->node || !t->seen || !t->queue.key || !lines) {
		jps_turned_destroy(t);
		return NULL;
	}
	/* The largest scale at which no g or f can reach 2^62: a g is at most
	 * a route through every cell plus one jump across the map, at sqrt 2. */
	const double most = ((double)n + 4.0 * (double)(g->w + g->h)) * 2.0;
	int shift = 32;
	while (shift > 8 && most * ldexp(GRID_SQRT2, shift) >= ldexp(1.0, 62))
		shift--;
	t->s1 = (int64_t)1 << shift;
	t->s2 = (int64_t)llround(ldexp(GRID_SQRT2, shift));
	const double hmax = 2.0 * (double)(g->w + g->h) * (double)t->s2;
	t->hshift = 0;
	while (ldexp(hmax, -t->hshift) >= 4294967295.0)
		t->hshift++;
	return t;
}

static inline bool cell_free(const struct grid *g, int x, int y)
{
	return x >= 0 && y >= 0 && x < g->w && y < g->h && g->cost[y * g->w + x] != 0;
}

/* Whether passable cell (x, y) is a forced turn's cell (jps_turned_turn_share),
 * with the map's edge tested: for the cells near it. */
static bool forced_at_edge(const struct grid *g, const struct rules *r, int x, int y)
{
	const enum grid_topology topo = g->topo;
	for (int d = 0; d < r->moves; d++) {
		if (r->spawning >> d & 1)
			continue;
		const int b = r->opp[d];
		const int px = x + grid_nb_dx(topo, y, b), py = y + grid_nb_dy(topo, b);
		if (!cell_free(g, px, py))
			continue;
		for (int k = 0; k < 2; k++) {
			const int q = r->turn[d][k];
			if (cell_free(g, x + grid_nb_dx(topo, y, q), y + grid_nb_dy(topo, q)) &&
			    !cell_free(g, px + grid_nb_dx(topo, py, q), py + grid_nb_dy(topo, q)))
				return true;
		}
	}
	return false;
}

/*
 * On maps of 256 rows or more a quarter of the rows is counted, picked by
 * a hash of the row (a 512x512 map took 2-6 ms whole).  Not every fourth
 * row: that read 8room's walls, 9 rows apart, as 0.23 on hex against 0.11
 * whole, and the hex maze as 1.0 against 0.39, since rows sampled at a
 * period alias with the walls'.  Cells two steps or more from the edge
 * read their neighbours by offsets, without tests.
 */
double jps_turned_turn_share(const struct grid *g, long *passable, long *terrain)
{
	if (passable)
		*passable = 0;
	if (terrain)
		*terrain = 0;
	if (!g || !(g->topo == GRID_HEX || grid_is_diamond(g->topo)))
		return 0.0;
	const enum grid_topology topo = g->topo;
	const struct rules *r = topo == GRID_HEX ? &HEX_RULES : topo == GRID_DIAMOND4 ? &DIAMOND4_RULES : &DIAMOND8_RULES;
	const int w = g->w, h = g->h;
	const uint8_t *cost = g->cost;
	if (passable || terrain) {
		long all = 0, dear = 0;
		for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
			all += cost[i] != 0;
			dear += cost[i] > 1;
		}
		if (passable)
			*passable = all;
		if (terrain)
			*terrain = dear;
	}
	/* per row parity, per test: the offsets of p (one step back), x + q and p + q */
	int tests = 0, op[2][16], oq[2][16], opq[2][16];
	for (int d = 0; d < r->moves; d++) {
		if (r->spawning >> d & 1)
			continue;
		const int b = r->opp[d];
		for (int k = 0; k < 2; k++, tests++) {
			const int q = r->turn[d][k];
			for (int par = 0; par < 2; par++) {
				const int pdx = grid_nb_dx(topo, par, b), pdy = grid_nb_dy(topo, b);
				op[par][tests] = pdy * w + pdx;
				oq[par][tests] = grid_nb_dy(topo, q) * w + grid_nb_dx(topo, par, q);
				opq[par][tests] = op[par][tests] + grid_nb_dy(topo, q) * w + grid_nb_dx(topo, (par + pdy) & 1, q);
			}
		}
	}
	long turns = 0, sampled = 0;
	for (int y = 0; y < h; y++) {
		if (h >= 256 && ((uint32_t)y * 2654435761u) >> 30 != 0)
			continue;
		const int par = y & 1;
		const bool edge_row = y < 2 || y >= h - 2;
		for (int x = 0; x < w; x++) {
			const int c = y * w + x;
			if (!cost[c])
				continue;
			sampled++;
			if (edge_row || x < 2 || x >= w - 2) {
				turns += forced_at_edge(g, r, x, y);
				continue;
			}
			int forced = 0; /* no branches: on scattered walls they mispredict */
			for (int k = 0; k < tests; k++)
				forced |= (cost[c + op[par][k]] != 0) & (cost[c + oq[par][k]] != 0) & (cost[c + opq[par][k]] == 0);
			turns += forced;
		}
	}
	return sampled ? (double)turns / (double)sampled : 0.0;
}

void jps_turned_destroy(struct jps_turned *t)
{
	if (!t)
		return;
	free(t->node);
	free(t->seen);
	free(t->queue.key);
	free(t->a.mem);
	free(t->b.mem);
	free(t->rows.mem);
	free(t);
}

size_t jps_turned_memory(const struct jps_turned *t)
{
	if (!t)
		return 0;
	return sizeof *t + (size_t)t->n * sizeof *t->node + ((size_t)t->n / 64 + 1) * sizeof *t->seen +
	       (size_t)t->queue.cap * sizeof *t->queue.key +
	       family_bytes(&t->a) + family_bytes(&t->b) + family_bytes(&t->rows);
}

static inline int iabs(int v) { return v < 0 ? -v : v; }

static inline bool jfree(const struct scan *j, int x, int y)
{
	return (unsigned)x < (unsigned)j->w && (unsigned)y < (unsigned)j->h && j->cost[y * j->w + x];
}

/* The exact distance on an open map, in fixed point. */
static inline int64_t heuristic(enum grid_topology topo, int x, int y, int gx, int gy, int64_t s1, int64_t s2)
{
	const int dX = (2 * x + (y & 1)) - (2 * gx + (gy & 1)), dY = y - gy;
	if (topo == GRID_HEX) {
		const int ax = iabs(dX), ay = iabs(dY);
		return (int64_t)(ay + (ax > ay ? (ax - ay) / 2 : 0)) * s1;
	}
	const int du = iabs(dX + dY) / 2, dv = iabs(dY - dX) / 2;
	if (topo == GRID_DIAMOND4)
		return (int64_t)(du + dv) * s1;
	const int lo = du < dv ? du : dv, hi = du < dv ? dv : du;
	return (int64_t)hi * s1 + (int64_t)lo * (s2 - s1);
}

/* Bits [pos, pos + 64) of a padded line, for pos from -64 to 64 * words
 * - 1 (the padding words read as 0). */
static inline uint64_t window(const uint64_t *line, int pos)
{
	const int k = pos >> 6, o = pos & 63; /* pos >> 6 floors a negative pos */
	return line[k] >> o | (line[k + 1] << 1) << (63 - o);
}

/* A side of a scan: the event at position r is bits[r + a] & ~bits[r + b]. */
struct side {
	const uint64_t *bits;
	int a, b;
};

/*
 * A straight scan along the bit line m (`words` words) from position p,
 * rising (forward) or falling: the first position that is the goal's (gp,
 * or -1), or has an event on a side, or is blocked.  Returns it, or -1 when
 * it is blocked (bits past the line's end are 0, so blocked).
 */
static inline __attribute__((always_inline)) int scan(const uint64_t *m, int words, struct side s0, struct side s1,
						      int p, int gp, bool forward)
{
	if (p < 0)
		return -1;
	int k = p >> 6;
	if (k >= words)
		return -1;
	uint64_t mask = forward ? ~0ull << (p & 63) : (p & 63) == 63 ? ~0ull : (1ull << ((p & 63) + 1)) - 1;
	for (;;) {
		const int base = k * 64;
		uint64_t ev = ~m[k] | (window(s0.bits, base + s0.a) & ~window(s0.bits, base + s0.b)) |
			      (window(s1.bits, base + s1.a) & ~window(s1.bits, base + s1.b));
		if ((gp >> 6) == k && gp >= 0)
			ev |= 1ull << (gp & 63);
		ev &= mask;
		if (ev) {
			const int q = base + (forward ? __builtin_ctzll(ev) : 63 - __builtin_clzll(ev));
			return m[k] >> (q & 63) & 1 ? q : -1;
		}
		mask = ~0ull;
		k += forward ? 1 : -1;
		if (k < 0 || k >= words)
			return -1;
	}
}

/*
 * A terminal jump from (x, y) along move d: the first jump point (the goal,
 * or a cell with a forced turn), or -1 at a blocked cell.  *steps gets its
 * distance in moves.  Hex: E along the row, NW along its q line, SW along
 * its q + r line; diamond: NE and SW along the u line, NW and SE along
 * the v line.  The sides' offsets are the forced-turn rule above written
 * in each line's positions.
 */
static inline __attribute__((always_inline)) int jump_terminal(const struct jps_turned *t, const struct scan *j,
							       const enum grid_topology topo, int x, int y,
							       int d, int *steps)
{
	const int w = j->w, gx = j->goal % w, gy = j->goal / w;
	if (topo == GRID_HEX) {
		if (d == 1) { /* E: the grid's row y; the rows above and below shifted by the parity */
			const int par = y & 1;
			const uint64_t *m = family_line(&t->rows, y);
			const struct side up = { family_line(&t->rows, y - 1), par, par - 1 };
			const struct side dn = { family_line(&t->rows, y + 1), par, par - 1 };
			const int q = scan(m, t->rows.words, up, dn, x + 1, gy == y ? gx : -1, true);
			if (q < 0)
				return -1;
			*steps = q - x;
			return y * w + q;
		}
		const int ww = t->a.words;
		if (d == 2) { /* NW: q line, y falling; sides NE (q + 1) and W (q - 1) */
			const int L = x - (y >> 1) + t->off;
			const uint64_t *m = family_line(&t->a, L);
			const struct side ne = { family_line(&t->a, L + 1), -1, 0 };
			const struct side we = { family_line(&t->a, L - 1), 0, 1 };
			const int gl = gx - (gy >> 1) + t->off;
			const int q = scan(m, ww, ne, we, y - 1, gl == L ? gy : -1, false);
			if (q < 0)
				return -1;
			*steps = y - q;
			return q * w + L - t->off + (q >> 1);
		}
		/* SW: q + r line, y rising; sides W (T - 1) and SE (T + 1) */
		const int T = x + ((y + 1) >> 1);
		const uint64_t *m = family_line(&t->b, T);
		const struct side we = { family_line(&t->b, T - 1), 0, -1 };
		const struct side se = { family_line(&t->b, T + 1), 1, 0 };
		const int gl = gx + ((gy + 1) >> 1);
		const int q = scan(m, ww, we, se, y + 1, gl == T ? gy : -1, true);
		if (q < 0)
			return -1;
		*steps = q - y;
		return q * w + T - ((q + 1) >> 1);
	}
	/* diamond: u = (X + Y) / 2, v = (Y - X) / 2, X = 2x + (y & 1) */
	const int X = 2 * x + (y & 1), u = (X + y) >> 1, v = (y - X) >> 1;
	const int gX = 2 * gx + (gy & 1), gu = (gX + gy) >> 1, gv = (gy - gX) >> 1;
	int nu = u, nv = v;
	if (d == 0 || d == 3) { /* NE (v falling), SW (v rising) along u line u */
		const int ww = t->a.words;
		const uint64_t *m = family_line(&t->a, u);
		const int b = d == 0 ? 1 : -1;
		const struct side s0 = { family_line(&t->a, u - 1), 0, b };
		const struct side s1 = { family_line(&t->a, u + 1), 0, b };
		const int q = scan(m, ww, s0, s1, v + t->off - b, gu == u ? gv + t->off : -1, d == 3);
		if (q < 0)
			return -1;
		nv = q - t->off;
		*steps = iabs(nv - v);
	} else { /* NW (u falling), SE (u rising) along v line v */
		const int ww = t->b.words, V = v + t->off;
		const uint64_t *m = family_line(&t->b, V);
		const int b = d == 1 ? 1 : -1;
		const struct side s0 = { family_line(&t->b, V - 1), 0, b };
		const struct side s1 = { family_line(&t->b, V + 1), 0, b };
		const int q = scan(m, ww, s0, s1, u - b, gv == v ? gu : -1, d == 2);
		if (q < 0)
			return -1;
		nu = q;
		*steps = iabs(nu - u);
	}
	const int nY = nu + nv, nX = nu - nv;
	return nY * w + ((nX - (nY & 1)) >> 1);
}

static inline pq_key make_key(const struct jps_turned *t, int64_t g, int64_t h, int cell)
{
	return (pq_key)(uint64_t)(g + h) << 64 | (pq_key)((uint64_t)(uint32_t)(h >> t->hshift) << 32 | (uint32_t)cell);
}

/* Jump point v reached at g ng by move d (the tie stack's f tie_f):
 * opened when new (its bit in `seen`), its g lowered while open, and a cell
 * a spawning jump passed through (via) made a queued jump point when
 * reached for less. */
static inline __attribute__((always_inline)) void relax(struct jps_turned *t, const enum grid_topology topo,
							int v, int64_t ng, int d, int gx, int gy, uint64_t tie_f)
{
	struct tnode *nv = &t->node[v];
	uint64_t *seen = t->seen;
	const int w = t->w, vy = v / w, vx = v - vy * w;
	const bool fresh = !(seen[v >> 6] >> (v & 63) & 1);
	if (!fresh && (!(ng < nv->g) || (nv->pos == POS_CLOSED && !nv->via)))
		return;
	const pq_key key = make_key(t, ng, heuristic(topo, vx, vy, gx, gy, t->s1, t->s2), v);
	if (fresh || nv->via) {
		seen[v >> 6] |= 1ull << (v & 63);
		*nv = (struct tnode){ .g = ng, .stamp = t->gen, .dir = (uint8_t)d };
		pq_push(&t->queue, t->node, key, tie_f, POS_STACK);
		return;
	}
	nv->g = ng;
	nv->dir = (uint8_t)d;
	/* a lower g for an open cell: with a consistent heuristic it is on
	 * the heap (a stacked key has the least f there is) */
	CHECK(nv->pos >= 0);
	pq_sift_up(&t->queue, t->node, nv->pos, key);
}

/*
 * A spawning jump from (x, y), a jump point at g ug, along move d.  A cell
 * from which a terminal jump along one of d's components finds a jump point
 * is passed through, as path.c's jps_through does on square grids (the
 * rule of JPS2): those jump points are relaxed at once as its successors,
 * and the cell is recorded closed, with its g and the move that arrived
 * (via 1), so that routes pass through it, but never queued.  Returns, with
 * its steps, the goal or a cell already a jump point (the caller relaxes
 * it, as before), or -1: a blocked cell (or, on diamond8, a corner whose
 * flank is), or a cell passed through before at no more cost.
 */
static inline __attribute__((always_inline)) int jump_spawning(struct jps_turned *t, const struct scan *j,
							       const struct rules *r,
							       const enum grid_topology topo, int x, int y,
							       int d, int64_t ug, uint64_t tie_f, int *steps)
{
	const int c0 = r->comp[d][0], c1 = r->comp[d][1];
	const int dy = grid_nb_dy(topo, d);
	const int w = j->w, gx = j->goal % w, gy = j->goal / w;
	const int64_t step = topo == GRID_DIAMOND8 && d >= 4 ? t->s2 : t->s1;
	int64_t g = ug;
	for (int k = 1;; k++) {
		if (topo == GRID_DIAMOND8 &&
		    (!jfree(j, x + grid_nb_dx(topo, y, c0), y + grid_nb_dy(topo, c0)) ||
		     !jfree(j, x + grid_nb_dx(topo, y, c1), y + grid_nb_dy(topo, c1))))
			return -1;
		x += grid_nb_dx(topo, y, d);
		y += dy;
		g += step;
		if (!jfree(j, x, y))
			return -1;
		const int c = y * w + x;
		if (c == j->goal) {
			*steps = k;
			return c;
		}
		int k0 = 0, k1 = 0;
		const int v0 = jump_terminal(t, j, topo, x, y, c0, &k0), v1 = jump_terminal(t, j, topo, x, y, c1, &k1);
		if (v0 < 0 && v1 < 0)
			continue;
		struct tnode *nc = &t->node[c];
		if (t->seen[c >> 6] >> (c & 63) & 1) {
			if (!nc->via) {
				*steps = k;
				return c; /* a jump point queued or closed: relaxed as before */
			}
			if (!(g < nc->g))
				return -1; /* passed through as cheaply already */
		}
		t->seen[c >> 6] |= 1ull << (c & 63);
		*nc = (struct tnode){ .g = g, .pos = POS_CLOSED, .stamp = t->gen, .dir = (uint8_t)d, .via = 1 };
		if (v0 >= 0)
			relax(t, topo, v0, g + (int64_t)k0 * t->s1, c0, gx, gy, tie_f);
		if (v1 >= 0)
			relax(t, topo, v1, g + (int64_t)k1 * t->s1, c1, gx, gy, tie_f);
	}
}

static void new_generation(struct jps_turned *t)
{
	t->gen++;
	if (t->gen == GEN_LIMIT) {
		memset(t->node, 0, (size_t)t->n * sizeof *t->node);
		t->gen = 1;
	}
	pq_clear(&t->queue);
	memset(t->seen, 0, ((size_t)t->n / 64 + 1) * sizeof *t->seen);
}

/* The search over jump points, compiled once per topology.  Returns true
 * when the goal was reached. */
static inline __attribute__((always_inline)) bool search(struct jps_turned *t, const struct rules *r,
							 const enum grid_topology topo, int start, int goal,
							 long *expanded_out)
{
	const int w = t->w;
	const struct scan j = { t->grid->cost, w, t->h, goal };
	const int gx = goal % w, gy = goal / w;
	const int64_t s1 = t->s1, s2 = t->s2;
	struct tnode *node = t->node;
	const uint16_t gen = t->gen;
	long expanded = 0;

	node[start] = (struct tnode){ .g = 0, .pos = 0, .stamp = gen, .dir = DIR_NONE };
	uint64_t *seen = t->seen;
	seen[start >> 6] |= 1ull << (start & 63);
	pq_push(&t->queue, node, make_key(t, 0, heuristic(topo, start % w, start / w, gx, gy, s1, s2), start),
		UINT64_MAX, POS_STACK);
	while (!pq_empty(&t->queue)) {
		const pq_key uk = pq_pop(&t->queue, node);
		const int u = pq_cell(uk);
		const uint64_t tie_f = pq_f(uk);
		node[u].pos = POS_CLOSED;
		if (t->queue.heap_len > 0) /* the likely next jump point: fetch its record meanwhile */
			__builtin_prefetch(&node[pq_cell(t->queue.key[0])]);
		expanded++;
		if (u == goal) {
			*expanded_out = expanded;
			return true;
		}
		const int uy = u / w, ux = u - uy * w;
		const int64_t ug = node[u].g;
		const int a = node[u].dir;
		unsigned moves;
		if (a == DIR_NONE) {
			moves = (1u << r->moves) - 1;
		} else if (r->spawning >> a & 1) {
			moves = 1u << a | 1u << r->comp[a][0] | 1u << r->comp[a][1];
		} else {
			/* the natural move, and the turns the cells beside force */
			moves = 1u << a;
			const int b = r->opp[a];
			const int bx = ux + grid_nb_dx(topo, uy, b), by = uy + grid_nb_dy(topo, b);
			for (int k = 0; k < 2; k++) {
				const int q = r->turn[a][k];
				if (jfree(&j, ux + grid_nb_dx(topo, uy, q), uy + grid_nb_dy(topo, q)) &&
				    !jfree(&j, bx + grid_nb_dx(topo, by, q), by + grid_nb_dy(topo, q)))
					moves |= r->add[a][k];
			}
		}
		/* All the jumps first, then their records: a new jump point is
		 * known new by its bit in `seen`, so only a jump point seen
		 * before has its record read (jump points lie apart, and their
		 * records are mostly cache misses: 8room read as hex, 11% less
		 * time a query). */
		int succ[8], sdir[8], slen[8], ns = 0;
		while (moves) {
			const int d = __builtin_ctz(moves);
			moves &= moves - 1;
			int k = 0;
			const int v = r->spawning >> d & 1 ? jump_spawning(t, &j, r, topo, ux, uy, d, ug, tie_f, &k)
							  : jump_terminal(t, &j, topo, ux, uy, d, &k);
			if (v < 0)
				continue;
			succ[ns] = v;
			sdir[ns] = d;
			slen[ns++] = k;
		}
		for (int i = 0; i < ns; i++) {
			const int d = sdir[i];
			relax(t, topo, succ[i], ug + (int64_t)slen[i] * (topo == GRID_DIAMOND8 && d >= 4 ? s2 : s1), d, gx,
			      gy, tie_f);
		}
	}
	*expanded_out = expanded;
	return false;
}

static bool search_hex(struct jps_turned *t, int start, int goal, long *ex)
{
	return search(t, &HEX_RULES, GRID_HEX, start, goal, ex);
}

static bool search_diamond4(struct jps_turned *t, int start, int goal, long *ex)
{
	return search(t, &DIAMOND4_RULES, GRID_DIAMOND4, start, goal, ex);
}

static bool search_diamond8(struct jps_turned *t, int start, int goal, long *ex)
{
	return search(t, &DIAMOND8_RULES, GRID_DIAMOND8, start, goal, ex);
}

/* The cell one move d from `cell` (known to be in the map). */
static inline int step_cell(const struct jps_turned *t, int cell, int d)
{
	const int x = cell % t->w, y = cell / t->w;
	return (y + grid_nb_dy(t->grid->topo, d)) * t->w + x + grid_nb_dx(t->grid->topo, y, d);
}

/*
 * The jump point before `cell`: the first closed cell back along the move
 * that arrived whose g plus the line's length is exactly g(cell) (the
 * recorded parent always qualifies; an earlier one is as good), -1 at the
 * start, or -2 when the line holds no such cell (never seen: a fault must
 * not walk off the map).
 */
static int parent_of(const struct jps_turned *t, int cell, int *dir, int *steps)
{
	const int d = t->node[cell].dir;
	if (d == DIR_NONE)
		return -1;
	const enum grid_topology topo = t->grid->topo;
	const int back = topo == GRID_HEX ? HEX_RULES.opp[d] : DIAMOND8_RULES.opp[d];
	const int64_t g = t->node[cell].g, step = topo == GRID_DIAMOND8 && d >= 4 ? t->s2 : t->s1;
	int p = step_cell(t, cell, back);
	const int64_t most = t->w > t->h ? t->w : t->h;
	int64_t k = 1;
	for (;; k++, p = step_cell(t, p, back)) {
		if (k > most || (unsigned)p >= (unsigned)t->n)
			return -2; /* a broken chain (never seen): the caller searches with A* */
		const struct tnode *np = &t->node[p];
		if (np->stamp == t->gen && np->pos == POS_CLOSED && np->g + k * step == g)
			break;
	}
	*dir = back;
	*steps = (int)k;
	return p;
}

/* Sets or clears cell (x, y)'s bit in both line families. */
static void line_bits(struct jps_turned *t, int x, int y, bool on)
{
	int ia, pa, ib, pb;
	if (t->grid->topo == GRID_HEX) {
		ia = x - (y >> 1) + t->off;
		ib = x + ((y + 1) >> 1);
		pa = pb = y;
	} else {
		const int X = 2 * x + (y & 1), u = (X + y) >> 1, v = (y - X) >> 1;
		ia = u;
		pa = v + t->off;
		ib = v + t->off;
		pb = u;
	}
	uint64_t *a = family_line(&t->a, ia) + (pa >> 6);
	uint64_t *b = family_line(&t->b, ib) + (pb >> 6);
	if (on) {
		*a |= 1ull << (pa & 63);
		*b |= 1ull << (pb & 63);
	} else {
		*a &= ~(1ull << (pa & 63));
		*b &= ~(1ull << (pb & 63));
	}
}

/* Brings the lines in step with the grid's bit rows: every bit that
 * differs from the copy last seen is set or cleared in the lines.  False
 * when the rows do not describe the costs (grid.h's bits_of). */
static bool sync_lines(struct jps_turned *t)
{
	const struct grid *g = t->grid;
	if (g->cost != g->bits_of)
		return false;
	/* no bit written since: comparing them all cost 5-26% of a query on
	 * the open maps */
	if (t->synced && t->synced_at == g->bits_changes)
		return true;
	const int rw = g->row_words;
	for (int y = 0; y < t->h; y++) {
		const uint64_t *row = g->rows + (size_t)y * (size_t)rw;
		uint64_t *old = family_line(&t->rows, y);
		for (int k = 0; k < rw; k++) {
			uint64_t diff = row[k] ^ old[k];
			while (diff) {
				const int b = __builtin_ctzll(diff);
				diff &= diff - 1;
				line_bits(t, k * 64 + b, y, row[k] >> b & 1);
			}
			old[k] = row[k];
		}
	}
	t->synced = true;
	t->synced_at = g->bits_changes;
	return true;
}

#define CHAIN 256 /* jump points of a route jps_turned_find keeps between its walks */

enum jps_turned_status jps_turned_find(struct jps_turned *t, int start, int goal, const int **cells,
				       int *len, long *expanded)
{
	new_generation(t);
	*expanded = 0;
	*cells = NULL;
	*len = 0;
	if (!sync_lines(t))
		return JPS_TURNED_ASTAR;
	bool found;
	switch (t->grid->topo) {
	case GRID_DIAMOND4:
		found = search_diamond4(t, start, goal, expanded);
		break;
	case GRID_DIAMOND8:
		found = search_diamond8(t, start, goal, expanded);
		break;
	default:
		found = search_hex(t, start, goal, expanded);
		break;
	}
	if (!found)
		return JPS_TURNED_NO_ROUTE;
	/* The route's length, then its cells from the goal back, each jump's
	 * line walked cell by cell (the heap's memory holds them). */
	const uint8_t *cost = t->grid->cost;
	int n = 1, d;
	/* the chain's jump points and moves kept from the first walk, when
	 * they fit, so the second does not look for each again */
	int chain[CHAIN];
	uint8_t moves[CHAIN];
	int nchain = 0;
	bool kept = true;
	for (int c = goal, p, k; (p = parent_of(t, c, &d, &k)) != -1; c = p) {
		if (p == -2)
			return JPS_TURNED_ASTAR;
		n += k; /* the line's cells, c and not p */
		if (nchain < CHAIN) {
			chain[nchain] = p;
			moves[nchain++] = (uint8_t)d;
		} else {
			kept = false;
		}
	}
	int *out = (int *)(void *)t->queue.key;
	int i = n, at = 0;
	bool uniform = true;
	for (int c = goal, p, k;
	     (p = kept ? (at < nchain ? (d = moves[at], chain[at++]) : -1) : parent_of(t, c, &d, &k)) != -1; c = p)
		for (int v = c; v != p; v = step_cell(t, v, d)) {
			uniform &= cost[v] == 1;
			out[--i] = v;
		}
	out[0] = start;
	CHECK(i == 1);
	*cells = out;
	*len = n;
	return uniform ? JPS_TURNED_FOUND : JPS_TURNED_ASTAR;
}
