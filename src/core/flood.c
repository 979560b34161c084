/*
 * flood.c - exact Dijkstra floods over grids with few distinct edge costs
 * (flood.h explains the method, the tie rule and the movement rules).
 *
 * The context (flood_internal.h, shared with route.c, which holds
 * flood_route):
 *   dist     the distances, value[] in doubles or code[] in compact units;
 *   queue    tag[] per cell: tag >> 16 == gen means the cell was reached
 *            by the current flood, and then tag & 0xFFFF is the index of
 *            the FIFO holding its live entry, or SETTLED; one FIFO per
 *            queue index (2 * multiplier + diagonal; index 0 holds only
 *            the source), each a chain of fixed-size blocks from one pool;
 *            active[] the indices of the non-empty FIFOs, ascending;
 *   run      the current flood's source, options and progress;
 *   moves    square grids: each cell's legal moves, the uniform tables;
 *   route, crowd   flood_route's (route.c).
 *
 * A cell's key is dist.value[] itself: a cell is appended to FIFO q only when its
 * tentative distance improves and q is not the FIFO it already sits in, so
 * an entry is live exactly when its state is q, and stale entries are
 * dropped when they reach a head.  A cell never enters the same FIFO twice
 * (a later key in one FIFO is never smaller), so a cell has at most one
 * entry per kind of edge entering it, at most GRID_MAX_NEIGHBOURS; the pool
 * holds that many entries per cell plus a partly filled block per FIFO, so
 * it never runs out.  Blocks freed at the head are reused, so a flood only
 * ever touches about as many blocks as its frontier needs.
 *
 * Whole floods on uniform square grids (uniform_loop) and shifts keep no
 * stamps or states: their FIFOs are plain arrays whose entries carry their
 * keys, and once such a flood has ended a cell is settled exactly when its
 * distance is finite (`whole`).
 */
#include "flood.h"
#include "flood_internal.h"

#include "bigmem.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>



static void moves_refresh(struct flood_ctx *f, bool cut);

#define POOL_FIRST 64 /* blocks the pool of a large map starts with (64 KiB) */

/* The blocks a whole uniform flood lays its arrays over (uniform_loop:
 * in doubles, two FIFOs of n + 1 cells and n + 1 keys). */
static int32_t uniform_blocks(const struct flood_ctx *f)
{
	const long long len = 6LL * ((long long)f->n + 1);
	const long long b = (len + BLOCK - 1) / BLOCK;
	return (int32_t)(b < f->queue.blocks ? b : f->queue.blocks);
}

/* The blocks a bounded uniform flood (run_bounded) lays its arrays over:
 * the same, for `slots` cells. */
static int32_t bounded_blocks(const struct flood_ctx *f, long long slots)
{
	const long long b = (6LL * slots + BLOCK - 1) / BLOCK;
	return (int32_t)(b < f->queue.blocks ? b : f->queue.blocks);
}

/* Grows the pool to at least `want` blocks (at most queue.blocks); false,
 * the pool as it was, when there is no memory.  Its blocks are found by
 * index, never by pointer, so they may move. */
static bool pool_reserve(struct flood_ctx *f, int32_t want)
{
	if (want > f->queue.blocks)
		want = f->queue.blocks;
	if (want <= f->queue.cap_blocks)
		return true;
	int32_t *pool = realloc(f->queue.pool, (size_t)want * BLOCK * sizeof *pool);
	if (!pool)
		return false;
	f->queue.pool = pool;
	int32_t *next = realloc(f->queue.block_next, (size_t)want * sizeof *next);
	if (!next)
		return false;
	f->queue.block_next = next;
	f->queue.cap_blocks = want;
	return true;
}

struct flood_options flood_options_default(void)
{
	return (struct flood_options){ .reverse = false, .corner_cutting = false, .max_dist = 0.0 };
}

struct flood_ctx *flood_create(const struct grid *g)
{
	if (!g || g->w <= 0 || g->h <= 0 || (long long)g->w * g->h > INT32_MAX / (2 * GRID_MAX_NEIGHBOURS))
		return NULL;
	struct flood_ctx *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->grid = g;
	f->n = g->w * g->h;
	long long entries = (long long)GRID_MAX_NEIGHBOURS * f->n + 1;
	f->queue.blocks = (int32_t)((entries + BLOCK - 1) / BLOCK + QUEUES + 1);
	f->dist.value = malloc((size_t)f->n * sizeof *f->dist.value);
	/* compact distances serve whole floods on uniform grids only: made
	 * now on a map small enough to be touched now, else by the first */
	if (f->n <= PRETOUCH_CELLS && !(f->dist.code = malloc((size_t)f->n * sizeof *f->dist.code))) {
		free(f->dist.value);
		free(f);
		return NULL;
	}
	f->queue.tag = calloc((size_t)f->n, sizeof *f->queue.tag);
	/* The pool starts with what a whole uniform flood takes on a map
	 * small enough to be touched now, else with POOL_FIRST blocks, and
	 * grows to what a flood's frontier needs (pool_reserve). */
	const int32_t first = f->n <= PRETOUCH_CELLS ? uniform_blocks(f) : POOL_FIRST;
	if (!pool_reserve(f, first)) {
		flood_destroy(f);
		return NULL;
	}
	f->moves.bits = big_malloc((size_t)f->n); /* written whole by moves_refresh */
	f->moves.costs = big_malloc((size_t)f->n);
	f->moves.corner_rule = -1;
	if (!route_create(f) || !f->dist.value || !f->queue.tag || !f->moves.bits ||
	    !f->moves.costs) {
		flood_destroy(f);
		return NULL;
	}
	for (int q = 0; q < QUEUES; q++) {
		double mult = (double)(q >> 1);
		f->queue.edge_cost[q] = (q & 1) ? GRID_SQRT2 * mult : mult;
		f->queue.fifo[q].head_blk = -1;
	}
	for (int i = 0; i < 8; i++)
		f->moves.delta[i] = GRID_SQUARE_DY[i] * g->w + GRID_SQUARE_DX[i];
	f->dist.sqrt2 = (uint32_t)(GRID_SQRT2 * (double)(1u << CBITS) + 0.5) | 1u;
	f->dist.sqrt2_inverse = f->dist.sqrt2; /* Newton's iteration: each step doubles the bits that are right */
	for (int i = 0; i < 5; i++)
		f->dist.sqrt2_inverse *= 2u - f->dist.sqrt2 * f->dist.sqrt2_inverse;
	f->run.source = -1;
	f->run.finished = true;
	f->dist.dirty_hi = f->n; /* malloc's: unknown until filled */
	f->dist.dirty_x0 = 0;
	f->dist.dirty_x1 = g->w;
	/* Done now, when the level loads, rather than by the first flood and
	 * the first flood_route (a monster's first turn): the moves of every
	 * cell under the usual corner rule, and the first touch of the
	 * memory they write (the distances and the part of the pool the
	 * uniform flood takes), whose page faults would otherwise land on
	 * that turn.  Only up to PRETOUCH_CELLS cells (about 40 MiB): on a
	 * larger map the pages are left to be touched where a flood needs
	 * them.  The route search's arrays (calloc's, 48 bytes a cell with
	 * the tags) up to PRETOUCH_ROUTE_CELLS: a detour search near a player
	 * who walks into new ground faulted them in a few at a time, 1-3 ms
	 * on a monster turn of a 512x512 map; on a 1024x1024 one, touching
	 * them all would add 0.4 s and 100 MB to each context's making. */
	if (f->n <= PRETOUCH_CELLS) {
		for (int c = 0; c < f->n; c++) {
			f->dist.value[c] = HUGE_VAL;
			f->dist.code[c] = CNONE;
		}
		f->dist.dirty_hi = 0;
		const size_t n = (size_t)f->n;
		memset(f->queue.pool, 0, (size_t)f->queue.cap_blocks * BLOCK * sizeof *f->queue.pool);
		if (f->n <= PRETOUCH_ROUTE_CELLS) {
			pages_touch(f->queue.tag, n * sizeof *f->queue.tag);
			if (!route_pretouch(f)) {
				flood_destroy(f);
				return NULL;
			}
		}
	}
	/* The moves of every cell (under the usual corner rule) on a map
	 * small enough to be touched now; on a larger one the first flood
	 * makes them (flood_begin), or flood_prefault for a game a person
	 * plays: a resume or a replay whose actions run no flood (a 4096x4096
	 * level's 67,000 monsters far from the player) never pays their
	 * 100-200 ms and 32 MiB of first touches. */
	if (f->n <= PRETOUCH_CELLS)
		moves_refresh(f, false);
	return f;
}

void flood_prefault(struct flood_ctx *f)
{
	if (f && f->moves.corner_rule < 0)
		moves_refresh(f, false);
}

void flood_destroy(struct flood_ctx *f)
{
	if (!f)
		return;
	free(f->dist.value);
	free(f->dist.code);
	free(f->queue.tag);
	free(f->queue.pool);
	free(f->queue.block_next);
	free(f->moves.bits);
	free(f->moves.costs);
	route_destroy(f);
	free(f);
}

size_t flood_memory(const struct flood_ctx *f)
{
	if (!f)
		return 0;
	return sizeof *f +
	       (size_t)f->n * (sizeof *f->dist.value + sizeof *f->queue.tag + 2) +
	       (f->dist.code ? (size_t)f->n * sizeof *f->dist.code : 0) +
	       (size_t)f->queue.cap_blocks * (BLOCK * sizeof *f->queue.pool + sizeof *f->queue.block_next) +
	       route_memory(f);
}

/* ---- the FIFOs ---------------------------------------------------------- */

/* A free block, -1 when the pool is full and cannot grow. */
static int32_t block_take(struct flood_ctx *f)
{
	int32_t b = f->queue.free_block;
	if (b >= 0) {
		f->queue.free_block = f->queue.block_next[b];
		return b;
	}
	/* bounded by queue.blocks (see the top of the file) */
	if (f->queue.used_blocks == f->queue.cap_blocks &&
	    !pool_reserve(f, f->queue.cap_blocks > f->queue.blocks / 2 ? f->queue.blocks : 2 * f->queue.cap_blocks))
		return -1;
	return f->queue.used_blocks++;
}

/* The pool could not grow: every FIFO is emptied and later pushes are
 * dropped, so the flood ends where it stands, as at a max_dist (the cells
 * it settled have their exact distances, the others count as not reached). */
static void starve(struct flood_ctx *f)
{
	f->queue.starved = true;
	for (int i = 0; i < f->queue.active_count; i++)
		f->queue.fifo[f->queue.active[i]].head_blk = -1;
	f->queue.active_count = 0;
}

static void block_give(struct flood_ctx *f, int32_t b)
{
	f->queue.block_next[b] = f->queue.free_block;
	f->queue.free_block = b;
}

static void activate(struct flood_ctx *f, uint16_t q)
{
	int i = f->queue.active_count++;
	while (i > 0 && f->queue.active[i - 1] > q) {
		f->queue.active[i] = f->queue.active[i - 1];
		i--;
	}
	f->queue.active[i] = q;
}

/* push, when q is empty or its tail block is full. */
static void push_slow(struct flood_ctx *f, uint16_t q, int32_t cell, double key)
{
	struct fifo *Q = &f->queue.fifo[q];
	const int32_t b = f->queue.starved ? -1 : block_take(f);
	if (b < 0) {
		if (!f->queue.starved)
			starve(f);
		return;
	}
	if (Q->head_blk < 0) {
		Q->head_blk = Q->tail_blk = b;
		Q->head_pos = Q->tail_pos = 0;
		f->queue.head_key[q] = key;
		activate(f, q);
	} else {
		f->queue.block_next[Q->tail_blk] = b;
		Q->tail_blk = b;
		Q->tail_pos = 0;
	}
	f->queue.pool[(size_t)Q->tail_blk * BLOCK + (size_t)Q->tail_pos++] = cell;
}

static inline void push(struct flood_ctx *f, uint16_t q, int32_t cell, double key)
{
	struct fifo *Q = &f->queue.fifo[q];
	if (Q->head_blk >= 0 && Q->tail_pos < BLOCK)
		f->queue.pool[(size_t)Q->tail_blk * BLOCK + (size_t)Q->tail_pos++] = cell;
	else
		push_slow(f, q, cell, key);
}

/*
 * Removes and returns the live entry with the smallest key (the lowest
 * FIFO index on equal keys), or -1 when nothing is left or the next key is
 * past max_dist.  The heads' keys are cached in head_key[]; a stale head
 * (its cell settled, or moved to a better FIFO) has a cached key no larger
 * than its entry's, so it may be chosen before live ones: it is dropped
 * then, and live entries are still taken in key order.
 */
static int32_t pop_min(struct flood_ctx *f)
{
	for (;;) {
		if (f->queue.active_count == 0)
			return -1;
		int best_i = 0;
		double best_key = f->queue.head_key[f->queue.active[0]];
		for (int i = 1; i < f->queue.active_count; i++) {
			double k = f->queue.head_key[f->queue.active[i]];
			if (k < best_key) {
				best_key = k;
				best_i = i;
			}
		}
		if (f->run.max_dist > 0 && best_key > f->run.max_dist)
			return -1;
		uint16_t q = f->queue.active[best_i];
		struct fifo *Q = &f->queue.fifo[q];
		int32_t c = f->queue.pool[(size_t)Q->head_blk * BLOCK + (size_t)Q->head_pos];
		Q->head_pos++;
		if (Q->head_blk == Q->tail_blk && Q->head_pos == Q->tail_pos) {
			block_give(f, Q->head_blk);
			Q->head_blk = -1;
			f->queue.active_count--;
			memmove(&f->queue.active[best_i], &f->queue.active[best_i + 1],
				(size_t)(f->queue.active_count - best_i) * sizeof f->queue.active[0]);
		} else {
			if (Q->head_pos == BLOCK) {
				int32_t next = f->queue.block_next[Q->head_blk];
				block_give(f, Q->head_blk);
				Q->head_blk = next;
				Q->head_pos = 0;
			}
			const int32_t *blk = f->queue.pool + (size_t)Q->head_blk * BLOCK;
			f->queue.head_key[q] = f->dist.value[blk[Q->head_pos]];
			/* the cells a few places behind the head are settled soon:
			 * fetch their rows now, so that relaxing them finds them in cache */
			const int ahead = Q->head_pos + PREFETCH_AHEAD;
			if (ahead < BLOCK && (Q->head_blk != Q->tail_blk || ahead < Q->tail_pos)) {
				const double *d = f->dist.value + blk[ahead];
				__builtin_prefetch(d);
				__builtin_prefetch(d - f->grid->w);
				__builtin_prefetch(d + f->grid->w);
			}
		}
		if (f->queue.tag[c] == (f->queue.gen << 16 | q))
			return c;
	}
}

/* ---- the flood ---------------------------------------------------------- */

static unsigned square_moves(const struct grid *g, int x, int y, bool square8, bool cut);

/* The direction of the step (dx, dy) on a square grid, -1 if none. */
static int sq_dir(int dx, int dy)
{
	for (int k = 0; k < 8; k++)
		if (GRID_SQUARE_DX[k] == dx && GRID_SQUARE_DY[k] == dy)
			return k;
	return -1;
}

/*
 * Whether a uniform flood's cell u, settled through the step i from p
 * (u = p + delta[i], d(u) = d(p) + |i|), may skip its move j to v, which
 * it may make (bit j of m, u's moves), because v already holds at most
 * d(u) + |j| then, so that the try could not improve it:
 *   - v is p, or a neighbour p may step to: p tried v, or skipped it on
 *     these same grounds, so v holds at most d(p) + |p v|, which is at
 *     least 2 - sqrt 2 below d(u) + |j|;
 *   - i and j are diagonals and v lies two orthogonal steps from p past
 *     x, an orthogonal neighbour of u that is passable: d(x) <= d(p) + 1
 *     < d(u), so x was settled before u and v holds at most d(p) + 2,
 *     below d(p) + 2 sqrt 2.
 * In a shift a cell that is not settled again keeps its old distance
 * plus the step, and the old distances obey the same bounds.  Whether p
 * may step to v is read from m: an orthogonal step needs v passable (it
 * is); a diagonal one, square8 and, without corner cutting, its other
 * orthogonal cell passable, which u's diagonal move to that cell tells
 * (its other orthogonal cells are v and p, both passable).
 */
static bool urow_skips(int i, int j, unsigned m, bool square8, bool cut)
{
	const int rx = GRID_SQUARE_DX[i] + GRID_SQUARE_DX[j], ry = GRID_SQUARE_DY[i] + GRID_SQUARE_DY[j];
	if (abs(rx) <= 1 && abs(ry) <= 1) {
		if (rx == 0 || ry == 0)
			return true;
		if (!square8)
			return false;
		return cut || (m >> sq_dir(GRID_SQUARE_DX[j] - GRID_SQUARE_DX[i], GRID_SQUARE_DY[j] - GRID_SQUARE_DY[i]) & 1u);
	}
	if (i >= 4 && j >= 4 && (rx == 0 || ry == 0))
		return m >> sq_dir(rx / 2 - GRID_SQUARE_DX[i], ry / 2 - GRID_SQUARE_DY[i]) & 1u;
	return false;
}

/* urow[i][m]: the moves of m that urow_skips keeps for a cell entered by
 * step i, in the order of the directions; when they outnumber the row's
 * places (corner cutting past two blocked cells), the row says so. */
static void urow_make(struct flood_ctx *f, bool square8, bool cut)
{
	for (int i = 0; i < 8; i++) {
		for (unsigned m = 0; m < 256; m++) {
			struct urow *r = &f->moves.rows[i][m];
			memset(r, 0, sizeof *r);
			int no = 0, nd = 0;
			for (int j = 0; j < 8; j++) {
				if (!(m >> j & 1u) || urow_skips(i, j, m, square8, cut))
					continue;
				const uint32_t s = (uint32_t)f->moves.delta[j] + ((uint32_t)j << UDIR_SHIFT);
				if (j < 4 && no < 2)
					r->step[no++] = s;
				else if (j >= 4 && nd < 2)
					r->step[2 + nd++] = s;
				else
					r->all = 1;
			}
		}
	}
}

/* Square grids: makes moves[] for the grid's costs and corner rule, unless
 * it was made for them already (a flood then reads one byte per cell
 * instead of its neighbours' costs).  moves_cost keeps the costs on every
 * topology: flood_shift checks against it that the grid is unchanged. */
static void moves_refresh(struct flood_ctx *f, bool cut)
{
	const struct grid *g = f->grid;
	if (f->moves.corner_rule == (int)cut && memcmp(f->moves.costs, g->cost, (size_t)f->n) == 0)
		return;
	memcpy(f->moves.costs, g->cost, (size_t)f->n);
	f->moves.corner_rule = (int)cut;
	f->dist.code_off = false;
	f->moves.uniform = 0;
	for (int c = 0; c < f->n; c++) {
		if (!g->cost[c] || g->cost[c] == f->moves.uniform)
			continue;
		if (f->moves.uniform) {
			f->moves.uniform = 0;
			break;
		}
		f->moves.uniform = g->cost[c];
	}
	if (!grid_is_square(g->topo))
		return;
	const bool square8 = g->topo == GRID_SQUARE8;
	for (int y = 0, c = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++, c++)
			f->moves.bits[c] = (uint8_t)square_moves(g, x, y, square8, cut);
	urow_make(f, square8, cut);
}

static void new_generation(struct flood_ctx *f)
{
	if (++f->queue.gen > 0xFFFF) {
		memset(f->queue.tag, 0, (size_t)f->n * sizeof *f->queue.tag);
		f->queue.gen = 1;
	}
}

/* A new generation with empty FIFOs and no source. */
static void queues_reset(struct flood_ctx *f)
{
	new_generation(f);
	f->run.epoch++;
	for (int i = 0; i < f->queue.active_count; i++)
		f->queue.fifo[f->queue.active[i]].head_blk = -1;
	f->queue.active_count = 0;
	f->queue.used_blocks = 0;
	f->queue.free_block = -1;
	f->queue.starved = false;
	f->run.settled = 0;
	f->run.source = -1;
	f->run.finished = true;
	f->run.whole = false;
	f->run.keyed = false;
}

bool flood_begin(struct flood_ctx *f, int source, const struct flood_options *opt)
{
	struct flood_options defaults = flood_options_default();
	if (!opt)
		opt = &defaults;
	if (!f)
		return false;
	queues_reset(f);
	if (source < 0 || source >= f->n)
		return false;
	f->run.source = source;
	f->run.reverse = opt->reverse;
	f->run.corner_cutting = opt->corner_cutting;
	f->run.max_dist = opt->max_dist;
	f->run.finished = false;
	f->dist.in_code = false;
	moves_refresh(f, f->run.corner_cutting);
	const int w = f->grid->w, x0 = f->dist.dirty_x0, x1 = f->dist.dirty_x1;
	if (x0 == 0 && x1 == w) {
		for (int c = f->dist.dirty_lo; c < f->dist.dirty_hi; c++)
			f->dist.value[c] = HUGE_VAL;
	} else if (f->dist.dirty_lo < f->dist.dirty_hi) {
		/* a bounded uniform flood's box (run_bounded): its rows, its columns */
		for (int r = f->dist.dirty_lo / w; r <= (f->dist.dirty_hi - 1) / w; r++)
			for (int c = r * w + x0; c < r * w + x1; c++)
				f->dist.value[c] = HUGE_VAL;
	}
	f->dist.value[source] = 0.0;
	f->dist.dirty_lo = source;
	f->dist.dirty_hi = source + 1;
	f->dist.dirty_x0 = 0;
	f->dist.dirty_x1 = w;
	f->queue.tag[source] = f->queue.gen << 16;
	push(f, 0, source, 0.0);
	return true;
}

/* Offers v the key `key` through FIFO q.  dist[] is +infinity on cells the
 * flood has not reached, and a settled cell's distance is below any key
 * offered now (keys grow by at least 1 per step), so one comparison tells
 * whether the offer improves v; only then is its tag read. */
static inline void relax(struct flood_ctx *f, int32_t v, uint16_t q, double key)
{
	if (!(key < f->dist.value[v]))
		return;
	f->dist.value[v] = key;
	const uint32_t t = f->queue.tag[v], mark = f->queue.gen << 16;
	if (t != (mark | q)) {
		f->queue.tag[v] = mark | q;
		push(f, q, v, key);
	}
}

/*
 * Square grids: the bit mask of the moves out of (x, y), bit i for the
 * neighbour GRID_SQUARE_DX/DY[i], with the corner rule applied.  A move between two
 * cells is legal both ways or neither, so forward and reverse share it.
 */
static unsigned square_moves(const struct grid *g, int x, int y, bool square8, bool cut)
{
	const int w = g->w, h = g->h;
	const uint8_t *cost = g->cost;
	unsigned m = 0;
	if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
		const uint8_t *c = cost + y * w + x;
		m = (c[-w] ? 1u : 0u) | (c[-1] ? 2u : 0u) | (c[1] ? 4u : 0u) | (c[w] ? 8u : 0u);
		if (square8)
			m |= (c[-w - 1] ? 16u : 0u) | (c[-w + 1] ? 32u : 0u) | (c[w - 1] ? 64u : 0u) |
			     (c[w + 1] ? 128u : 0u);
	} else {
		for (int i = 0; i < (square8 ? 8 : 4); i++) {
			int nx = x + GRID_SQUARE_DX[i], ny = y + GRID_SQUARE_DY[i];
			if ((unsigned)nx < (unsigned)w && (unsigned)ny < (unsigned)h && cost[ny * w + nx])
				m |= 1u << i;
		}
	}
	if (square8 && !cut) {
		/* NW needs N and W, NE needs N and E, SW needs S and W, SE needs S and E */
		unsigned n = m & 1u, wv = (m >> 1) & 1u, e = (m >> 2) & 1u, s = (m >> 3) & 1u;
		unsigned ok = 0xFu | ((n & wv) << 4) | ((n & e) << 5) | ((s & wv) << 6) | ((s & e) << 7);
		m &= ok;
	}
	return m;
}

/* Lowers dist[] of the neighbours u + delta[i], i a bit of `mask`, to key
 * where that improves them, without branches on the comparisons; the
 * improved cells go to got[] in bit order.  Returns how many. */
static inline __attribute__((always_inline)) int lower_neighbours(double *dist, int32_t u,
								 const int32_t *delta, unsigned mask,
								 double key, int32_t *got)
{
	int n = 0;
	while (mask) {
		const int i = __builtin_ctz(mask);
		mask &= mask - 1;
		const int32_t v = u + delta[i];
		const double dv = dist[v];
		const bool better = key < dv;
		dist[v] = better ? key : dv;
		got[n] = v;
		n += better;
	}
	return n;
}

/* Settles one cell and relaxes the edges out of it (into it, reverse). */
static inline void settle_one(struct flood_ctx *f, int32_t u)
{
	const struct grid *g = f->grid;
	const uint8_t *cost = g->cost;
	const double du = f->dist.value[u];
	const bool reverse = f->run.reverse;
	/* Reverse: a mover steps v -> u and pays for entering u (a blocked
	 * source counts as floor). */
	const unsigned mu = cost[u] ? cost[u] : 1u;
	f->queue.tag[u] = f->queue.gen << 16 | SETTLED;
	f->run.settled++;
	/* its neighbours' distances may be written: every topology's lie
	 * within 2 rows and a cell of it (diamond storage: N and S are two
	 * rows away) */
	const int32_t reach = 2 * g->w + 1;
	if (u - reach < f->dist.dirty_lo)
		f->dist.dirty_lo = u - reach > 0 ? u - reach : 0;
	if (u + reach + 1 > f->dist.dirty_hi)
		f->dist.dirty_hi = u + reach + 1 < f->n ? u + reach + 1 : f->n;
	if (grid_is_square(g->topo)) {
		const unsigned m = f->moves.bits[u];
		const int32_t *delta = f->moves.delta;
		unsigned mo = m & 0xFu, md = m >> 4; /* orthogonal, then diagonal moves */
		if (reverse) {
			/* every move into u costs the same: one key per kind of step */
			const uint16_t qo = (uint16_t)(2u * mu), qd = (uint16_t)(qo + 1u);
			const double ko = du + f->queue.edge_cost[qo], kd = du + f->queue.edge_cost[qd];
			/* without branches on the comparisons: the improved
			 * neighbours are gathered, then pushed in the same order */
			int32_t got[8];
			const int n_o = lower_neighbours(f->dist.value, u, delta, mo, ko, got);
			const int n_d = lower_neighbours(f->dist.value, u, delta + 4, md, kd, got + 4);
			const uint32_t mark = f->queue.gen << 16;
			for (int k = 0; k < n_o; k++) {
				f->queue.tag[got[k]] = mark | qo;
				push(f, qo, got[k], ko);
			}
			for (int k = 0; k < n_d; k++) {
				f->queue.tag[got[4 + k]] = mark | qd;
				push(f, qd, got[4 + k], kd);
			}
		} else {
			while (mo) {
				const int i = __builtin_ctz(mo);
				mo &= mo - 1;
				const int32_t v = u + delta[i];
				const uint16_t q = (uint16_t)(2u * cost[v]);
				relax(f, v, q, du + f->queue.edge_cost[q]);
			}
			while (md) {
				const int i = __builtin_ctz(md);
				md &= md - 1;
				const int32_t v = u + delta[4 + i];
				const uint16_t q = (uint16_t)(2u * cost[v] + 1u);
				relax(f, v, q, du + f->queue.edge_cost[q]);
			}
		}
		return;
	}
	const int w = g->w, uy = u / w, ux = u - uy * w;
	if (grid_is_diamond(g->topo)) {
		/* the corner rule's flanks are the same for u -> v and v -> u,
		 * so forward and reverse share it */
		const int8_t *dx = GRID_DIAMOND_DX[uy & 1];
		const int dirs = grid_dir_count(g->topo);
		for (int i = 0; i < dirs; i++) {
			const int vx = ux + dx[i], vy = uy + GRID_DIAMOND_DY[i];
			if ((unsigned)vx >= (unsigned)w || (unsigned)vy >= (unsigned)g->h)
				continue;
			const int32_t v = vy * w + vx;
			if (!cost[v])
				continue;
			if (i >= 4 && !f->run.corner_cutting && !grid_diamond_flanks_open(cost, w, g->h, ux, uy, i))
				continue;
			const uint16_t q = (uint16_t)(2u * (reverse ? mu : cost[v]) + (i >= 4 ? 1u : 0u));
			relax(f, v, q, du + f->queue.edge_cost[q]);
		}
		return;
	}
	const int8_t *ox = GRID_HEX_DX[uy & 1];
	for (int i = 0; i < 6; i++) {
		const int vx = ux + ox[i], vy = uy + GRID_HEX_DY[i];
		if ((unsigned)vx >= (unsigned)w || (unsigned)vy >= (unsigned)g->h)
			continue;
		const int32_t v = vy * w + vx;
		if (!cost[v])
			continue;
		const uint16_t q = (uint16_t)(2u * (reverse ? mu : cost[v]));
		relax(f, v, q, du + f->queue.edge_cost[q]);
	}
}

/* Whether a flood may take uniform_loop (below): a square grid whose
 * passable cells all cost the same (the Moving AI maps), moves made for
 * this corner rule, nothing but the source queued, and no max_dist (a
 * whole flood) or, `bounded`, one (run_bounded).  Forward and reverse are
 * the same there. */
static bool uniform_ready(const struct flood_ctx *f, bool bounded)
{
	return grid_is_square(f->grid->topo) && f->moves.uniform && f->moves.corner_rule == (int)f->run.corner_cutting &&
	       (f->run.max_dist > 0) == bounded && f->queue.active_count == 1 && f->queue.active[0] == 0 &&
	       f->run.settled == 0 && f->grid->cost[f->run.source] == f->moves.uniform;
}


/*
 * Whole floods on uniform square grids count in compact distances: a
 * route of a orthogonal and b diagonal steps costs a + b sqrt 2 steps,
 * kept as a * 2^CBITS + b * cr with cr an odd integer within 1 of
 * sqrt 2 * 2^CBITS.  Half the memory of a double, so the flood's working
 * set stays in cache, and exact:
 *   - two routes of equal cost have the same a and b, so the same code;
 *   - the codes order as the costs do while every b is below about 848:
 *     the code's error is under |b1 - b2| / 2^CBITS, and two different
 *     costs a1 + b1 sqrt 2 and a2 + b2 sqrt 2 differ by more than
 *     0.34 / |b1 - b2| (how well sqrt 2 can be approached by fractions);
 *     a key up to CLIMIT (1100 steps) keeps every b compared below 780;
 *   - cr is odd, so b is the code times cr's inverse modulo 2^CBITS, and
 *     a follows: the cost a + b sqrt 2 is made the same way for every
 *     route of that cost.
 * A flood or shift that meets a key past CLIMIT gives up and is made
 * again in doubles (and so are the grid's later whole floods).
 */

/* Keys of the uniform loop: a compact code, or the IEEE bits of a
 * non-negative double (which order as the values do). */
static inline uint64_t dbits(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	return b;
}

static inline double dval(uint64_t b)
{
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}

/*
 * The hot loop of the whole floods, about 160 lines kept in one piece:
 * its FIFOs' heads and tails live in registers across the turn, which a
 * split would spill.  A whole flood on a square grid whose passable cells
 * all cost the same (the Moving AI maps), from `source`, whose distance is set (0, or for a
 * shift the old distances plus the step; all others the old distances or
 * "none"), in compact distances (cdist[]) or in doubles (dist[]), as the
 * constant `compact` says.  Every edge is one of two costs, so there are
 * two FIFOs, orthogonal and diagonal steps, each a plain array over the
 * pool (a cell enters each at most once: a later key in one FIFO is never
 * smaller), each entry with the key it was queued with beside it (compact:
 * in one 64-bit word, the key above the cell, so one store queues it).  The
 * next cell is the smaller of the two heads, the orthogonal one on a tie;
 * an entry is live while its cell's distance still equals its key (a cell
 * enters a FIFO only when its distance strictly drops, and the entry that
 * settles it is the only one holding its final distance), and stale heads
 * are passed over.  The live entries come in the order of the general
 * queue, with the same additions.  Compact: false, with cdist[] left
 * unusable, when a key passes CLIMIT.
 *
 * An entry also carries the direction of the step that queued it, and a
 * cell settled through that step tries only the neighbours its row of
 * urow[] lists (see urow_make): the others are tries that cannot improve
 * anything, so leaving them out changes no distance, no entry and no
 * order.  In open ground a cell makes 3 tries instead of 8 (compact; in
 * doubles a cell entered by a diagonal adds a try of itself).
 *
 * `slots` bounds the cells the flood may reach (each FIFO holds at most
 * one entry per cell, and a sentinel): n + 1 for a whole flood.  In
 * doubles, `limit` stops it before the first key past it (run_bounded's
 * max_dist; DBL_MAX for a whole flood): the cells settled then are those
 * the general queue settles under that max_dist, with the same distances.
 */
static inline __attribute__((always_inline)) bool uniform_loop(struct flood_ctx *f, int32_t source,
							      const bool compact, const size_t slots, const double limit)
{
	/* the block queues hold at most the source: empty them, the arrays take the pool */
	f->queue.fifo[0].head_blk = -1;
	f->queue.active_count = 0;
	f->queue.used_blocks = 0;
	f->queue.free_block = -1;
	/* Pool layout (int32 units, the pool has more than 8n).  Compact: the
	 * entries o, then d, 64 bits each, reached through head and tail
	 * pointers.  Doubles: cells o, cells d, keys o, keys d (8 bytes a
	 * key), reached through head and tail indices. */
	uint64_t *const eo_at = (uint64_t *)(void *)f->queue.pool, *const ed_at = eo_at + slots;
	uint32_t *const fo = (uint32_t *)f->queue.pool, *const fd = fo + slots;
	double *const do_at = (double *)(void *)(f->queue.pool + 2 * slots), *const dd_at = do_at + slots;
	uint32_t *const cdist = f->dist.code;
	double *const ddist = f->dist.value;
	const uint8_t *const moves = f->moves.bits;
	const struct urow(*const rows)[256] = (const struct urow(*)[256])f->moves.rows;
	const int w = f->grid->w;
	const uint16_t qo = (uint16_t)(2u * f->moves.uniform);
	const uint64_t eo = compact ? 1u << CBITS : dbits(f->queue.edge_cost[qo]),
		       ed = compact ? f->dist.sqrt2 : dbits(f->queue.edge_cost[qo + 1u]);
	/* compact: an entry whose key is past CLIMIT (the empty FIFO's too) */
	const uint64_t past = (uint64_t)(CLIMIT + 1u) << 32;
	/* doubles: the largest key settled (non-negative doubles order as their bits) */
	const uint64_t last = dbits(limit);
	uint64_t *ho_p = eo_at, *to_p = eo_at, *hd_p = ed_at, *td_p = ed_at;
	size_t ho = 0, to = 0, hd = 0, td = 0;
#define U_GET(v) (compact ? (uint64_t)cdist[v] : dbits(ddist[v]))
#define U_ADD(k, e) (compact ? (k) + (e) : dbits(dval(k) + dval(e)))
	/* Tries the neighbour whose entry word is vl (cell | direction <<
	 * UDIR_SHIFT) with key k through FIFO `kind` (0: o, 1: d).  Without
	 * a branch: the store is min(key, dist), and the entry is written at
	 * the FIFO's tail, which advances only when the cell improved. */
#define U_TRY(kind, vl, k)                                                             \
	do {                                                                           \
		const uint32_t v_ = (vl) & UCELL;                                      \
		const uint64_t dv_ = U_GET(v_);                                        \
		const bool better_ = (k) < dv_;                                        \
		if (compact) {                                                         \
			cdist[v_] = (uint32_t)(better_ ? (k) : dv_);                   \
			*((kind) ? td_p : to_p) = (k) << 32 | (vl);                    \
			*((kind) ? &td_p : &to_p) += better_;                          \
		} else {                                                               \
			ddist[v_] = dval(better_ ? (k) : dv_);                         \
			((kind) ? fd : fo)[(kind) ? td : to] = (vl);                   \
			((kind) ? dd_at : do_at)[(kind) ? td : to] = dval(k);          \
			*((kind) ? &td : &to) += better_;                              \
		}                                                                      \
	} while (0)
	/* the sentinel after a FIFO's tail: the key an empty FIFO's head shows */
#define U_END(kind)                                                                    \
	do {                                                                           \
		if (compact)                                                           \
			*((kind) ? td_p : to_p) = UINT64_MAX;                          \
		else                                                                   \
			((kind) ? dd_at : do_at)[(kind) ? td : to] = HUGE_VAL;         \
	} while (0)
	long stale = 0;
	uint32_t u = (uint32_t)source;
	uint64_t du = U_GET(u);
	const struct urow *row = NULL; /* NULL: every legal move (the source) */
	for (;;) {
		const uint64_t ko = U_ADD(du, eo), kd = U_ADD(du, ed);
		if (row && !row->all) {
			U_TRY(0, u + row->step[0], ko);
			U_TRY(0, u + row->step[1], ko);
			U_TRY(1, u + row->step[2], kd);
			/* A cell entered by a diagonal has one diagonal try (no
			 * corner cutting), one entered straight has two in open
			 * ground: this branch follows the one in the pop that
			 * chose the FIFO, so it is seldom mispredicted, and it
			 * saves a quarter of the tries of 2 cells in 3.  (In
			 * doubles, a maze's cells have no diagonal tries, and the
			 * test did not pay.) */
			if (!compact || row->step[3])
				U_TRY(1, u + row->step[3], kd);
		} else {
			/* an illegal move tries u itself, whose distance du is
			 * below any key offered (so it is never improved) */
			const unsigned m = moves[u];
#pragma GCC unroll 8
			for (unsigned j = 0; j < 8; j++) {
				const uint32_t vl = u + ((uint32_t)f->moves.delta[j] & -(m >> j & 1u)) + (j << UDIR_SHIFT);
				if (j < 4)
					U_TRY(0, vl, ko);
				else
					U_TRY(1, vl, kd);
			}
		}
		U_END(0);
		U_END(1);
		uint32_t ul;
		for (;;) {
			uint64_t k;
			if (compact) {
				const uint64_t a = *ho_p, b = *hd_p;
				const bool take_o = a <= (b | UINT32_MAX);
				const uint64_t e = take_o ? a : b;
				if (e >= past) {
					if (e == UINT64_MAX)
						goto done;
					return false;
				}
				ho_p += take_o;
				hd_p += !take_o;
				k = e >> 32;
				ul = (uint32_t)e;
			} else {
				const uint64_t a = dbits(do_at[ho]), b = dbits(dd_at[hd]);
				const bool take_o = a <= b;
				k = take_o ? a : b;
				if (k > last) /* the sentinels' +infinity, or past the limit */
					goto done;
				ul = take_o ? fo[ho] : fd[hd];
				ho += take_o;
				hd += !take_o;
			}
			u = ul & UCELL;
			if (U_GET(u) == k) {
				/* cells settle in order of distance (codes and
				 * the bits of non-negative doubles order alike) */
				CHECK(k >= du);
				du = k;
				break;
			}
			stale++;
		}
		row = &rows[ul >> UDIR_SHIFT][moves[u]];
		/* Doubles: cells a few places behind the heads are settled
		 * soon, fetch their rows.  (Compact distances take half the
		 * room and stay in cache: there, fetching costs more than it
		 * saves.) */
		if (!compact) {
			if (ho + PREFETCH_AHEAD < to) {
				const double *const d = ddist + (fo[ho + PREFETCH_AHEAD] & UCELL);
				__builtin_prefetch(d - w);
				__builtin_prefetch(d);
				__builtin_prefetch(d + w);
			}
			if (hd + PREFETCH_AHEAD < td) {
				const double *const d = ddist + (fd[hd + PREFETCH_AHEAD] & UCELL);
				__builtin_prefetch(d - w);
				__builtin_prefetch(d);
				__builtin_prefetch(d + w);
			}
		}
	}
done:
#undef U_GET
#undef U_ADD
#undef U_TRY
#undef U_END
	/* every entry was popped (doubles: up to the limit), and each live one
	 * settled a cell */
	if (compact)
		f->run.settled += 1 + (long)((to_p - eo_at) + (td_p - ed_at)) - stale;
	else
		f->run.settled += 1 + (long)(ho + hd) - stale;
	f->run.finished = true;
	/* no tag was written: a cell is settled when its distance is finite
	 * (a whole flood), or within the limit */
	f->run.whole = compact || !(limit < DBL_MAX);
	f->run.keyed = true;
	f->run.limit = compact ? DBL_MAX : limit;
	f->dist.in_code = compact;
	return true;
}

static bool run_compact(struct flood_ctx *f, int32_t source)
{
	return uniform_loop(f, source, true, (size_t)f->n + 1, DBL_MAX);
}

static void run_doubles(struct flood_ctx *f, int32_t source)
{
	f->dist.dirty_lo = 0;
	f->dist.dirty_hi = f->n;
	f->dist.dirty_x0 = 0;
	f->dist.dirty_x1 = f->grid->w;
	(void)uniform_loop(f, source, false, (size_t)f->n + 1, DBL_MAX);
}

/* The box round the source of a bounded uniform flood: every cell it may
 * write.  A cell it settles is at most max_dist away, so at most
 * max_dist / m steps (m the grid's one multiplier, the least a step
 * costs), and the cells it tries are one step farther (and one more for
 * the sums' rounding).  Its size in cells. */
static long long bounded_box(const struct flood_ctx *f, int *x0, int *x1, int *y0, int *y1)
{
	const struct grid *g = f->grid;
	const double steps = f->run.max_dist / (double)f->moves.uniform + 2.0;
	const int r = steps < (double)(g->w + g->h) ? (int)steps : g->w + g->h;
	const int sx = f->run.source % g->w, sy = f->run.source / g->w;
	*x0 = sx - r > 0 ? sx - r : 0;
	*x1 = sx + r + 1 < g->w ? sx + r + 1 : g->w;
	*y0 = sy - r > 0 ? sy - r : 0;
	*y1 = sy + r + 1 < g->h ? sy + r + 1 : g->h;
	return (long long)(*x1 - *x0) * (*y1 - *y0);
}

/*
 * A flood with a max_dist on a uniform square grid (the near flood of a
 * goal that moves, docs/ai.md "Scale"), in doubles by uniform_loop, which
 * settles the same cells as the general queue with the same distances, at
 * a third of its cost; the arrays it lays over the pool are sized by its
 * box, and the box is all flood_begin clears after it.  False, with
 * nothing done, when there is no memory for them.
 */
static bool run_bounded(struct flood_ctx *f)
{
	int x0, x1, y0, y1;
	const long long cells = bounded_box(f, &x0, &x1, &y0, &y1);
	if (!pool_reserve(f, bounded_blocks(f, cells + 1)))
		return false;
	const int w = f->grid->w;
	f->dist.dirty_lo = y0 * w + x0;
	f->dist.dirty_hi = (y1 - 1) * w + x1;
	f->dist.dirty_x0 = x0;
	f->dist.dirty_x1 = x1;
	(void)uniform_loop(f, f->run.source, false, (size_t)cells + 1, f->run.max_dist);
	return true;
}

/*
 * Adds c to every compact distance cd[0 .. n), an unreached cell's CNONE
 * (and any sum past it) staying CNONE.  In blocks of 8, which the compiler
 * turns into vector code (at -O2 it leaves a loop of unknown length
 * scalar: 3-4 cycles a cell here, a tenth of a shift).
 */
static void cadd_all(uint32_t *cd, int n, uint32_t c)
{
	int v = 0;
	for (; v + 8 <= n; v += 8) {
		for (int j = 0; j < 8; j++) {
			const uint32_t d = cd[v + j] + c;
			cd[v + j] = d < CNONE ? d : CNONE;
		}
	}
	for (; v < n; v++) {
		const uint32_t d = cd[v] + c;
		cd[v] = d < CNONE ? d : CNONE;
	}
}

/* Adds c to every distance d[0 .. n) (+infinity stays so), as cadd_all. */
static void dadd_all(double *d, int n, double c)
{
	int v = 0;
	for (; v + 8 <= n; v += 8)
		for (int j = 0; j < 8; j++)
			d[v + j] += c;
	for (; v < n; v++)
		d[v] += c;
}

/* Sets cd[0 .. n) to CNONE, as cadd_all. */
static void cnone_all(uint32_t *cd, int n)
{
	int v = 0;
	for (; v + 8 <= n; v += 8)
		for (int j = 0; j < 8; j++)
			cd[v + j] = CNONE;
	for (; v < n; v++)
		cd[v] = CNONE;
}

/* A whole uniform flood from the source flood_begin queued: compact when
 * the grid allows it, else (or when it gives up) in doubles. */
static void run_whole_uniform(struct flood_ctx *f)
{
	if (!f->dist.code_off && !f->dist.code && !(f->dist.code = malloc((size_t)f->n * sizeof *f->dist.code)))
		f->dist.code_off = true; /* no memory for them: in doubles */
	if (!f->dist.code_off) {
		uint32_t *const cd = f->dist.code;
		cnone_all(cd, f->n);
		cd[f->run.source] = 0;
		if (run_compact(f, f->run.source))
			return;
		f->dist.code_off = true;
	}
	run_doubles(f, f->run.source);
}

/* Whether the distances are value[] and `cell` lies outside the part of
 * it a flood wrote: then it is not settled, and a bounded flood (the near
 * flood of a crowd, most of whose monsters stand outside its box) need
 * not read the cell's distance, a cache miss, to say so. */
static inline bool outside_written(const struct flood_ctx *f, int cell)
{
	if (!f->run.keyed || f->dist.in_code)
		return false;
	if (cell < f->dist.dirty_lo || cell >= f->dist.dirty_hi)
		return true;
	const int x = cell % f->grid->w;
	return x < f->dist.dirty_x0 || x >= f->dist.dirty_x1;
}

bool flood_settled(const struct flood_ctx *f, int cell)
{
	return f && f->run.source >= 0 && cell >= 0 && cell < f->n && !outside_written(f, cell) && is_settled(f, cell);
}

void flood_distances(const struct flood_ctx *f, const int *cells, int n, double *out)
{
	if (f && f->run.source >= 0 && f->run.keyed && f->dist.in_code) {
		/* a whole compact flood: settled means a code below CNONE */
		for (int i = 0; i < n; i++) {
			const int c = cells[i];
			const uint32_t code = c >= 0 && c < f->n ? f->dist.code[c] : CNONE;
			out[i] = code < CNONE ? cdecode(f, code) : -1.0;
		}
		return;
	}
	for (int i = 0; i < n; i++)
		out[i] = flood_distance(f, cells[i]);
}

void flood_prefetch(const struct flood_ctx *f, int cell)
{
	if (!f || f->run.source < 0 || cell < 0 || cell >= f->n || outside_written(f, cell))
		return;
	const int w = f->grid->w;
	const int up = cell >= w ? cell - w : cell, down = cell + w < f->n ? cell + w : cell;
	if (f->dist.in_code) {
		__builtin_prefetch(&f->dist.code[up]);
		__builtin_prefetch(&f->dist.code[cell]);
		__builtin_prefetch(&f->dist.code[down]);
	} else {
		__builtin_prefetch(&f->dist.value[up]);
		__builtin_prefetch(&f->dist.value[cell]);
		__builtin_prefetch(&f->dist.value[down]);
	}
	if (!f->run.keyed)
		__builtin_prefetch(&f->queue.tag[cell]);
}
long flood_settle(struct flood_ctx *f, const int *targets, int n)
{
	if (!f || f->run.source < 0)
		return 0;
	long before = f->run.settled;
	if (n == 0 && !f->run.finished && uniform_ready(f, false) && pool_reserve(f, uniform_blocks(f))) {
		run_whole_uniform(f);
		return f->run.settled - before;
	}
	if (n == 0 && !f->run.finished && uniform_ready(f, true) && run_bounded(f))
		return f->run.settled - before;
	int t = 0;
	double last = -HUGE_VAL; /* the distance settled last */
	while (!f->run.finished) {
		if (n > 0) {
			while (t < n && (targets[t] < 0 || targets[t] >= f->n || flood_settled(f, targets[t])))
				t++;
			if (t == n)
				break;
		}
		int32_t u = pop_min(f);
		if (u < 0) {
			f->run.finished = true;
			break;
		}
		/* Dijkstra's order: cells settle in order of distance. */
		CHECK(f->dist.value[u] >= last);
		last = f->dist.value[u];
		settle_one(f, u);
	}
	(void)last;
	return f->run.settled - before;
}

long flood_run(struct flood_ctx *f, int source, const struct flood_options *opt,
	       const int *targets, int n)
{
	if (!flood_begin(f, source, opt))
		return -1;
	return flood_settle(f, targets, n);
}

/*
 * flood_shift.  With d the old distances (to s) and c the cost of the step
 * s -> t, every cell has a route through s costing d(v) + c, so d(v) + c
 * bounds its new distance from above, and a cell whose new distance is
 * smaller has an optimal route made only of such cells (if the cell after
 * v on it kept d + c, so would v).  So a Dijkstra from t, with the old
 * distances standing as the labels of the cells it has not reached, only
 * reaches the cells that get nearer.  It counts in distance - c, so that
 * an untouched cell's stored d(v) is its label as it stands, and one pass
 * adds c back to every cell at the end.
 */
bool flood_shift(struct flood_ctx *f, int source)
{
	if (!f || f->run.source < 0 || !f->run.reverse || !f->run.finished || f->run.max_dist > 0 || source < 0 ||
	    source >= f->n || f->queue.starved)
		return false;
	const struct grid *g = f->grid;
	const int old = f->run.source;
	if (source == old || !g->cost[old] || f->moves.corner_rule != (int)f->run.corner_cutting ||
	    memcmp(f->moves.costs, g->cost, (size_t)f->n) != 0)
		return false;
	int32_t nb[GRID_MAX_NEIGHBOURS];
	bool dg[GRID_MAX_NEIGHBOURS];
	const int k = legal_neighbours(f, source, nb, dg);
	int i = 0;
	while (i < k && nb[i] != old)
		i++;
	if (i == k)
		return false;
	const unsigned m = g->cost[source] ? g->cost[source] : 1u;
	const double c = f->queue.edge_cost[2u * m + (dg[i] ? 1u : 0u)];
	const bool cut = f->run.corner_cutting;
	const bool was_compact = f->dist.in_code;
	if ((was_compact || (grid_is_square(g->topo) && f->moves.uniform && g->cost[source] == f->moves.uniform)) &&
	    !pool_reserve(f, uniform_blocks(f)))
		return false; /* no memory for the uniform loop's arrays */
	queues_reset(f);
	f->run.source = source;
	f->run.reverse = true;
	f->run.corner_cutting = cut;
	f->run.max_dist = 0.0;
	f->run.finished = false;
	if (was_compact) {
		/* The same in compact distances, counting from 0 at the new
		 * source: the step is added to the old distances first. */
		const uint32_t cc = dg[i] ? f->dist.sqrt2 : 1u << CBITS;
		uint32_t *const cd = f->dist.code;
		cadd_all(cd, f->n, cc);
		f->dist.in_code = false;
		cd[source] = 0;
		if (!run_compact(f, source)) {
			/* past CLIMIT: a new flood in doubles */
			f->dist.code_off = true;
			struct flood_options o = flood_options_default();
			o.reverse = true;
			o.corner_cutting = cut;
			flood_run(f, source, &o, NULL, 0);
		}
		return true;
	}
	double *const dist = f->dist.value;
	f->dist.dirty_lo = 0; /* every finite distance moves */
	f->dist.dirty_hi = f->n;
	f->dist.dirty_x0 = 0;
	f->dist.dirty_x1 = g->w;
	if (grid_is_square(g->topo) && f->moves.uniform && g->cost[source] == f->moves.uniform) {
		/* the uniform loop counts from 0: the step goes on first (an
		 * unreached cell's +infinity stays so) */
		dadd_all(dist, f->n, c);
		dist[source] = 0.0;
		run_doubles(f, source);
		return true;
	}
	dist[source] = -c;
	f->queue.tag[source] = f->queue.gen << 16;
	push(f, 0, source, -c);
	for (int32_t u; (u = pop_min(f)) >= 0;)
		settle_one(f, u);
	if (f->queue.starved) {
		/* no memory to finish it: no flood (the caller floods anew) */
		queues_reset(f);
		return true;
	}
	/* an unreached cell's +infinity stays so; every finite one is settled */
	dadd_all(dist, f->n, c);
	f->run.finished = true;
	f->run.whole = true;
	f->run.keyed = true;
	f->run.limit = DBL_MAX;
	return true;
}

bool flood_finished(const struct flood_ctx *f)
{
	return !f || f->run.finished;
}

int flood_source(const struct flood_ctx *f)
{
	return f ? f->run.source : -1;
}

long flood_settled_count(const struct flood_ctx *f)
{
	return f ? f->run.settled : 0;
}

double flood_distance(const struct flood_ctx *f, int cell)
{
	return flood_settled(f, cell) ? dist_of(f, cell) : -1.0;
}

int flood_next(const struct flood_ctx *f, int cell)
{
	if (!flood_settled(f, cell) || cell == f->run.source)
		return -1;
	const struct grid *g = f->grid;
	const uint8_t *cost = g->cost;
	const double d = dist_of(f, cell);
	const double limit = d + TIE_REL * (1.0 + d);
	if (grid_is_square(g->topo) && cost[f->run.source] && f->moves.corner_rule == (int)f->run.corner_cutting) {
		/* square grid, passable source: the legal moves are moves[]
		 * (made for this flood's costs and corner rule), bit i the
		 * neighbour grid_adjacent lists i-th, so the same one is found */
		for (unsigned m = f->moves.bits[cell]; m; m &= m - 1) {
			const int i = __builtin_ctz(m);
			const int32_t b = cell + f->moves.delta[i];
			if (!is_settled(f, b))
				continue;
			const unsigned mult = f->run.reverse ? cost[b] : cost[cell];
			if (dist_of(f, b) + f->queue.edge_cost[2u * mult + (i >= 4 ? 1u : 0u)] <= limit)
				return b;
		}
		return -1;
	}
	const int x = grid_x(g, cell), y = grid_y(g, cell);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	/* every adjacent cell, so that a blocked source is found too */
	int n = grid_adjacent(g, cell, s);
	for (int i = 0; i < n; i++) {
		int b = s[i].cell;
		if (!flood_settled(f, b))
			continue;
		if (b != f->run.source && !cost[b])
			continue;
		int bx = grid_x(g, b), by = grid_y(g, b);
		bool diag = g->topo == GRID_SQUARE8 && bx != x && by != y;
		if (diag && !f->run.corner_cutting && (!cost[grid_index(g, bx, y)] || !cost[grid_index(g, x, by)]))
			continue;
		if (g->topo == GRID_DIAMOND8 && s[i].step > 1.0) {
			/* a corner step: its row in the table, for the flanks */
			diag = true;
			int k = 4;
			while (k < 8 && grid_index(g, x + GRID_DIAMOND_DX[y & 1][k], y + GRID_DIAMOND_DY[k]) != b)
				k++;
			if (!f->run.corner_cutting && !grid_diamond_flanks_open(cost, g->w, g->h, x, y, k))
				continue;
		}
		/* reverse: the mover enters b; forward: the route entered cell from b */
		unsigned m = f->run.reverse ? (cost[b] ? cost[b] : 1u) : cost[cell];
		double via = dist_of(f, b) + f->queue.edge_cost[2u * m + (diag ? 1u : 0u)];
		if (via <= limit)
			return b;
	}
	return -1;
}
