/*
 * flood.c - exact Dijkstra floods over grids with few distinct edge costs
 * (flood.h explains the method, the tie rule and the movement rules).
 *
 * Layout of the context:
 *   dist[], stamp[], state[]  one entry per cell; stamp[c] == gen means the
 *                             cell was reached by the current flood, and
 *                             then state[c] is the index of the FIFO holding
 *                             its live entry, or SETTLED;
 *   fifo[]                    one FIFO per queue index (2 * multiplier +
 *                             diagonal; index 0 holds only the source), each
 *                             a chain of fixed-size blocks from one pool;
 *   active[]                  indices of the non-empty FIFOs, ascending.
 *
 * A cell's key is dist[] itself: a cell is appended to FIFO q only when its
 * tentative distance improves and q is not the FIFO it already sits in, so
 * an entry is live exactly when state[cell] == q, and stale entries are
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

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define QUEUES 512             /* 2 * (255 + 1): multiplier 1..255, orthogonal or diagonal */
#define BLOCK 256              /* entries per pool block */
#define SETTLED UINT16_MAX     /* state[] of a settled cell */
#define PREFETCH_AHEAD 8       /* pop_min: how far behind a FIFO's head to prefetch */
#define TIE_REL 1e-11          /* flood_next: relative tolerance between equally good neighbours */
#define CROWD_CELLS 512        /* cells of flood_route's crowd-aware potential */
#define RRING 1024             /* flood_route: buckets in its ring */
#define PRETOUCH_CELLS (1 << 20) /* flood_create touches its arrays up to this size */
/* Compact distances (see run_compact): a + b sqrt 2 steps kept as
 * a * 2^CBITS + b * cr in 32 bits. */
#define CBITS 21
#define CMASK ((1u << CBITS) - 1u)
#define CNONE 0xFF000000u          /* a cell not reached */
#define CLIMIT (1100u << CBITS)    /* the largest key whose order is kept exact */
#define RSCALE 4.0             /* flood_route: buckets per unit of f */
#define RCHUNK 16              /* flood_route: ints per list chunk (a link, then 15 cells) */

struct fifo {
	int32_t head_blk, head_pos; /* head_blk < 0: empty */
	int32_t tail_blk, tail_pos;
};

/* flood_route's A*: a cell's record, everything the test of a neighbour
 * reads on one line, and a heap entry carrying its keys. */
struct a_node {
	union {
		double g;    /* the cost from the start */
		uint64_t gc; /* the same in compact units (route_fixed) */
	};
	int32_t pos;    /* index in the heap while open (see r_push for the other codes) */
	uint32_t tag;   /* agen << 1 (open) or agen << 1 | 1 (closed), shifted left by
	                   A_DIR_BITS, then the direction of the step from its parent
	                   (A_NO_DIR at the start) */
};
#define A_DIR_BITS 4
#define A_NO_DIR 15u
#define A_GEN_LIMIT 0x7FFFFFFu /* agen << 1 | 1 fits beside the direction */

struct a_entry {
	double f, g;
	int32_t cell;
};

/* flood_route's heap entry: one 128-bit key compared as an unsigned
 * integer, the IEEE bits of f (non-negative, so they order as the values
 * do), then the complement of g rounded to a float (larger g first), then
 * the cell. */
__extension__ typedef unsigned __int128 akey;

/* The neighbours a cell of a uniform flood tries (see urow_make): entry
 * words to add to its index, each delta[i] + (i << UDIR_SHIFT) or 0 (a try
 * of the cell itself, which never improves it); orthogonal steps first. */
#define UDIR_SHIFT 28 /* an entry word's direction bits; cells are below 2^27 (flood_create) */
#define UCELL ((1u << UDIR_SHIFT) - 1u)
struct urow {
	uint32_t step[4]; /* 2 orthogonal steps, 2 diagonal */
	uint32_t all;     /* nonzero: they do not fit, every legal move is tried */
	uint32_t pad[3];  /* a row per 32 bytes */
};

struct flood_ctx {
	const struct grid *grid;
	int n;
	double *dist;        /* tentative, then final, distance */
	uint32_t *tag;       /* gen << 16 | state: reached by the current flood when the
	                        high half is gen; state is the FIFO index holding the
	                        cell's live entry, or SETTLED */
	uint32_t gen;        /* 1..65535 */

	int32_t *pool;       /* n_blocks * BLOCK cells */
	int32_t *blk_next;   /* chain of blocks within a FIFO, or of free blocks */
	int32_t n_blocks, used_blocks, free_blk;
	struct fifo fifo[QUEUES];
	uint16_t active[QUEUES];
	double head_key[QUEUES]; /* key of each non-empty FIFO's head: dist[] of its cell when it
	                            became the head - its entry's key if live, no more if stale */
	int n_active;
	double edge[QUEUES]; /* cost of an edge of each queue index */

	int source;          /* -1: no flood */
	bool reverse, corner_cutting, finished;
	uint32_t *cdist;     /* compact distances of a whole uniform flood (see run_compact) */
	uint32_t cr, crinv;  /* sqrt 2 in the compact scale (odd), its inverse mod 2^CBITS */
	bool compact;        /* the current flood's distances are cdist[], not dist[] */
	bool compact_off;    /* this grid's floods outgrew CLIMIT: whole floods use dist[] */
	bool whole;          /* the flood ran to its end with no max_dist, so a
	                        cell is settled exactly when dist[] is finite
	                        (tag[] is then not kept up to date) */
	double max_dist;
	long settled;
	int32_t delta[8];    /* square grids: index offset of each neighbour */
	struct urow urow[8][256]; /* uniform_loop: the tries of a cell entered by step d
	                             whose moves[] byte is m (see urow_make) */
	uint8_t *moves;      /* square grids: square_moves of every cell, made from moves_cost */
	uint8_t *moves_cost; /* the grid's costs when moves[] was made */
	int moves_cut;       /* the corner rule moves[] was made with; -1: not made */
	unsigned uniform;    /* the multiplier of every passable cell when they all share
	                        one (made with moves[]), else 0 */

	/* flood_route's A*: the cells' records and an indexed heap, sized once */
	struct a_node *anode;
	akey *aheap;
	/* flood_route's bucket ring (see route_push): per-slot lists of
	 * cells in chunks from rpool */
	int32_t *rpool;
	int rpool_chunks;
	int rhead[RRING], rfill[RRING];
	int rfree, rnext;
	uint64_t rq;          /* the current bucket, floor(f * RSCALE) */
	bool ron;
	uint32_t agen;
	int aheap_len;
	int astack_len;       /* the tie stack, aheap[n - astack_len .. n - 1] (see r_push) */
	uint64_t atie;        /* the f bits of the key popped last */

	/* flood_route's potential: a Dijkstra from the source under the crowd
	 * costs, stopped after CROWD_CELLS cells (see crowd_make) */
	uint64_t epoch;       /* flood_begin counts floods */
	double *cd;           /* crowd distance of the cells in it */
	uint32_t *cst;        /* cgen << 1: queued, | 1: settled */
	uint32_t cgen;
	int32_t *rcell;       /* the cells it settled, in order */
	uint16_t *rx;         /* the extra cost each had then */
	int nr;
	struct a_entry *cheap; /* its heap (f unused) */
	int cheap_len;
	double cdelta;        /* lower bound of (crowd distance - flood distance) outside it */
	int32_t rlo, rspan;   /* its cells lie in rlo .. rlo + rspan: a cell past them is not in it */
	bool c_valid;
	uint64_t c_epoch;
	long c_settled;
	double c_lo;
	const uint16_t *c_extra;
	bool c_codes;         /* cd[] and cdelta in compact units (route_fixed) */
};


static void moves_refresh(struct flood_ctx *f, bool cut);

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
	f->n_blocks = (int32_t)((entries + BLOCK - 1) / BLOCK + QUEUES + 1);
	f->dist = malloc((size_t)f->n * sizeof *f->dist);
	f->cdist = malloc((size_t)f->n * sizeof *f->cdist);
	f->tag = calloc((size_t)f->n, sizeof *f->tag);
	/* malloc, not calloc: the pool is reserved for the worst case, and a
	 * flood writes only the blocks its frontier needs. */
	f->pool = malloc((size_t)f->n_blocks * BLOCK * sizeof *f->pool);
	f->blk_next = malloc((size_t)f->n_blocks * sizeof *f->blk_next);
	f->anode = calloc((size_t)f->n, sizeof *f->anode);
	f->rpool_chunks = f->n / 8 + 1;
	f->rpool = malloc((size_t)f->rpool_chunks * RCHUNK * sizeof *f->rpool);
	f->aheap = malloc((size_t)f->n * sizeof *f->aheap);
	f->moves = malloc((size_t)f->n);
	f->moves_cost = malloc((size_t)f->n);
	f->moves_cut = -1;
	f->cd = malloc((size_t)f->n * sizeof *f->cd);
	f->cst = calloc((size_t)f->n, sizeof *f->cst);
	f->rcell = malloc((size_t)CROWD_CELLS * sizeof *f->rcell);
	f->rx = malloc((size_t)CROWD_CELLS * sizeof *f->rx);
	f->cheap = malloc(((size_t)CROWD_CELLS * GRID_MAX_NEIGHBOURS + 1) * sizeof *f->cheap);
	if (!f->cd || !f->cst || !f->rcell || !f->rx || !f->cheap) {
		flood_destroy(f);
		return NULL;
	}
	if (!f->dist || !f->cdist || !f->tag || !f->pool || !f->blk_next || !f->anode || !f->rpool || !f->aheap || !f->moves ||
	    !f->moves_cost) {
		flood_destroy(f);
		return NULL;
	}
	for (int q = 0; q < QUEUES; q++) {
		double mult = (double)(q >> 1);
		f->edge[q] = (q & 1) ? GRID_SQRT2 * mult : mult;
		f->fifo[q].head_blk = -1;
	}
	for (int i = 0; i < 8; i++)
		f->delta[i] = GRID_SQUARE_DY[i] * g->w + GRID_SQUARE_DX[i];
	f->cr = (uint32_t)(GRID_SQRT2 * (double)(1u << CBITS) + 0.5) | 1u;
	f->crinv = f->cr; /* Newton's iteration: each step doubles the bits that are right */
	for (int i = 0; i < 5; i++)
		f->crinv *= 2u - f->cr * f->crinv;
	f->source = -1;
	f->finished = true;
	/* Done now, when the level loads, rather than by the first flood and
	 * the first flood_route (a monster's first turn): the moves of every
	 * cell under the usual corner rule, and the first touch of the
	 * memory they write (the distances, the part of the pool the uniform
	 * flood takes, the route search's records), whose page faults would
	 * otherwise land on that turn.  The zeroed arrays stay zero.  Only up
	 * to PRETOUCH_CELLS cells (about 75 MiB): on a larger map the pages
	 * are left to be touched where a search needs them. */
	if (f->n <= PRETOUCH_CELLS) {
		for (int c = 0; c < f->n; c++) {
			f->dist[c] = HUGE_VAL;
			f->cdist[c] = CNONE;
		}
		const size_t n = (size_t)f->n, pool_len = (size_t)f->n_blocks * BLOCK,
			     uniform_len = 6 * (n + 1);
		memset(f->pool, 0, (uniform_len < pool_len ? uniform_len : pool_len) * sizeof *f->pool);
		memset(f->anode, 0, n * sizeof *f->anode);
		memset(f->aheap, 0, n * sizeof *f->aheap);
		memset(f->cst, 0, n * sizeof *f->cst);
	}
	moves_refresh(f, false);
	return f;
}

void flood_destroy(struct flood_ctx *f)
{
	if (!f)
		return;
	free(f->dist);
	free(f->cdist);
	free(f->tag);
	free(f->pool);
	free(f->blk_next);
	free(f->anode);
	free(f->rpool);
	free(f->aheap);
	free(f->moves);
	free(f->moves_cost);
	free(f->cd);
	free(f->cst);
	free(f->rcell);
	free(f->rx);
	free(f->cheap);
	free(f);
}

size_t flood_memory(const struct flood_ctx *f)
{
	if (!f)
		return 0;
	return sizeof *f +
	       (size_t)f->n * (sizeof *f->dist + sizeof *f->cdist + sizeof *f->tag + sizeof *f->anode + sizeof *f->aheap + 2 +
			       sizeof *f->cd + sizeof *f->cst) +
	       (size_t)CROWD_CELLS * (sizeof *f->rcell + sizeof *f->rx + GRID_MAX_NEIGHBOURS * sizeof *f->cheap) +
	       sizeof *f->cheap + (size_t)f->rpool_chunks * RCHUNK * sizeof *f->rpool +
	       (size_t)f->n_blocks * (BLOCK * sizeof *f->pool + sizeof *f->blk_next);
}

/* ---- the FIFOs ---------------------------------------------------------- */

static int32_t block_take(struct flood_ctx *f)
{
	int32_t b = f->free_blk;
	if (b >= 0) {
		f->free_blk = f->blk_next[b];
		return b;
	}
	return f->used_blocks++; /* bounded by n_blocks (see the top of the file) */
}

static void block_give(struct flood_ctx *f, int32_t b)
{
	f->blk_next[b] = f->free_blk;
	f->free_blk = b;
}

static void activate(struct flood_ctx *f, uint16_t q)
{
	int i = f->n_active++;
	while (i > 0 && f->active[i - 1] > q) {
		f->active[i] = f->active[i - 1];
		i--;
	}
	f->active[i] = q;
}

/* push, when q is empty or its tail block is full. */
static void push_slow(struct flood_ctx *f, uint16_t q, int32_t cell, double key)
{
	struct fifo *Q = &f->fifo[q];
	if (Q->head_blk < 0) {
		int32_t b = block_take(f);
		Q->head_blk = Q->tail_blk = b;
		Q->head_pos = Q->tail_pos = 0;
		f->head_key[q] = key;
		activate(f, q);
	} else {
		int32_t b = block_take(f);
		f->blk_next[Q->tail_blk] = b;
		Q->tail_blk = b;
		Q->tail_pos = 0;
	}
	f->pool[(size_t)Q->tail_blk * BLOCK + (size_t)Q->tail_pos++] = cell;
}

static inline void push(struct flood_ctx *f, uint16_t q, int32_t cell, double key)
{
	struct fifo *Q = &f->fifo[q];
	if (Q->head_blk >= 0 && Q->tail_pos < BLOCK)
		f->pool[(size_t)Q->tail_blk * BLOCK + (size_t)Q->tail_pos++] = cell;
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
		if (f->n_active == 0)
			return -1;
		int best_i = 0;
		double best_key = f->head_key[f->active[0]];
		for (int i = 1; i < f->n_active; i++) {
			double k = f->head_key[f->active[i]];
			if (k < best_key) {
				best_key = k;
				best_i = i;
			}
		}
		if (f->max_dist > 0 && best_key > f->max_dist)
			return -1;
		uint16_t q = f->active[best_i];
		struct fifo *Q = &f->fifo[q];
		int32_t c = f->pool[(size_t)Q->head_blk * BLOCK + (size_t)Q->head_pos];
		Q->head_pos++;
		if (Q->head_blk == Q->tail_blk && Q->head_pos == Q->tail_pos) {
			block_give(f, Q->head_blk);
			Q->head_blk = -1;
			f->n_active--;
			memmove(&f->active[best_i], &f->active[best_i + 1],
				(size_t)(f->n_active - best_i) * sizeof f->active[0]);
		} else {
			if (Q->head_pos == BLOCK) {
				int32_t next = f->blk_next[Q->head_blk];
				block_give(f, Q->head_blk);
				Q->head_blk = next;
				Q->head_pos = 0;
			}
			const int32_t *blk = f->pool + (size_t)Q->head_blk * BLOCK;
			f->head_key[q] = f->dist[blk[Q->head_pos]];
			/* the cells a few places behind the head are settled soon:
			 * fetch their rows now, so that relaxing them finds them in cache */
			const int ahead = Q->head_pos + PREFETCH_AHEAD;
			if (ahead < BLOCK && (Q->head_blk != Q->tail_blk || ahead < Q->tail_pos)) {
				const double *d = f->dist + blk[ahead];
				__builtin_prefetch(d);
				__builtin_prefetch(d - f->grid->w);
				__builtin_prefetch(d + f->grid->w);
			}
		}
		if (f->tag[c] == (f->gen << 16 | q))
			return c;
	}
}

/* ---- the flood ---------------------------------------------------------- */

static unsigned square_moves(const struct grid *g, int x, int y, bool square8, bool cut);
static int legal_neighbours(const struct flood_ctx *f, int32_t v, int32_t out[GRID_MAX_NEIGHBOURS],
			    bool diag[GRID_MAX_NEIGHBOURS]);

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
			struct urow *r = &f->urow[i][m];
			memset(r, 0, sizeof *r);
			int no = 0, nd = 0;
			for (int j = 0; j < 8; j++) {
				if (!(m >> j & 1u) || urow_skips(i, j, m, square8, cut))
					continue;
				const uint32_t s = (uint32_t)f->delta[j] + ((uint32_t)j << UDIR_SHIFT);
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
	if (f->moves_cut == (int)cut && memcmp(f->moves_cost, g->cost, (size_t)f->n) == 0)
		return;
	memcpy(f->moves_cost, g->cost, (size_t)f->n);
	f->moves_cut = (int)cut;
	f->compact_off = false;
	f->uniform = 0;
	for (int c = 0; c < f->n; c++) {
		if (!g->cost[c] || g->cost[c] == f->uniform)
			continue;
		if (f->uniform) {
			f->uniform = 0;
			break;
		}
		f->uniform = g->cost[c];
	}
	if (g->topo == GRID_HEX)
		return;
	const bool square8 = g->topo == GRID_SQUARE8;
	for (int y = 0, c = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++, c++)
			f->moves[c] = (uint8_t)square_moves(g, x, y, square8, cut);
	urow_make(f, square8, cut);
}

static void new_generation(struct flood_ctx *f)
{
	if (++f->gen > 0xFFFF) {
		memset(f->tag, 0, (size_t)f->n * sizeof *f->tag);
		f->gen = 1;
	}
}

/* A new generation with empty FIFOs and no source. */
static void queues_reset(struct flood_ctx *f)
{
	new_generation(f);
	f->epoch++;
	for (int i = 0; i < f->n_active; i++)
		f->fifo[f->active[i]].head_blk = -1;
	f->n_active = 0;
	f->used_blocks = 0;
	f->free_blk = -1;
	f->settled = 0;
	f->source = -1;
	f->finished = true;
	f->whole = false;
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
	f->source = source;
	f->reverse = opt->reverse;
	f->corner_cutting = opt->corner_cutting;
	f->max_dist = opt->max_dist;
	f->finished = false;
	f->compact = false;
	moves_refresh(f, f->corner_cutting);
	for (int c = 0; c < f->n; c++)
		f->dist[c] = HUGE_VAL;
	f->dist[source] = 0.0;
	f->tag[source] = f->gen << 16;
	push(f, 0, source, 0.0);
	return true;
}

/* Offers v the key `key` through FIFO q.  dist[] is +infinity on cells the
 * flood has not reached, and a settled cell's distance is below any key
 * offered now (keys grow by at least 1 per step), so one comparison tells
 * whether the offer improves v; only then is its tag read. */
static inline void relax(struct flood_ctx *f, int32_t v, uint16_t q, double key)
{
	if (!(key < f->dist[v]))
		return;
	f->dist[v] = key;
	const uint32_t t = f->tag[v], mark = f->gen << 16;
	if (t != (mark | q)) {
		f->tag[v] = mark | q;
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
	const double du = f->dist[u];
	const bool reverse = f->reverse;
	/* Reverse: a mover steps v -> u and pays for entering u (a blocked
	 * source counts as floor). */
	const unsigned mu = cost[u] ? cost[u] : 1u;
	f->tag[u] = f->gen << 16 | SETTLED;
	f->settled++;
	if (g->topo != GRID_HEX) {
		const unsigned m = f->moves[u];
		const int32_t *delta = f->delta;
		unsigned mo = m & 0xFu, md = m >> 4; /* orthogonal, then diagonal moves */
		if (reverse) {
			/* every move into u costs the same: one key per kind of step */
			const uint16_t qo = (uint16_t)(2u * mu), qd = (uint16_t)(qo + 1u);
			const double ko = du + f->edge[qo], kd = du + f->edge[qd];
			/* without branches on the comparisons: the improved
			 * neighbours are gathered, then pushed in the same order */
			int32_t got[8];
			const int n_o = lower_neighbours(f->dist, u, delta, mo, ko, got);
			const int n_d = lower_neighbours(f->dist, u, delta + 4, md, kd, got + 4);
			const uint32_t mark = f->gen << 16;
			for (int k = 0; k < n_o; k++) {
				f->tag[got[k]] = mark | qo;
				push(f, qo, got[k], ko);
			}
			for (int k = 0; k < n_d; k++) {
				f->tag[got[4 + k]] = mark | qd;
				push(f, qd, got[4 + k], kd);
			}
		} else {
			while (mo) {
				const int i = __builtin_ctz(mo);
				mo &= mo - 1;
				const int32_t v = u + delta[i];
				const uint16_t q = (uint16_t)(2u * cost[v]);
				relax(f, v, q, du + f->edge[q]);
			}
			while (md) {
				const int i = __builtin_ctz(md);
				md &= md - 1;
				const int32_t v = u + delta[4 + i];
				const uint16_t q = (uint16_t)(2u * cost[v] + 1u);
				relax(f, v, q, du + f->edge[q]);
			}
		}
		return;
	}
	const int w = g->w, uy = u / w, ux = u - uy * w;
	const int8_t *ox = GRID_HEX_DX[uy & 1];
	for (int i = 0; i < 6; i++) {
		const int vx = ux + ox[i], vy = uy + GRID_HEX_DY[i];
		if ((unsigned)vx >= (unsigned)w || (unsigned)vy >= (unsigned)g->h)
			continue;
		const int32_t v = vy * w + vx;
		if (!cost[v])
			continue;
		const uint16_t q = (uint16_t)(2u * (reverse ? mu : cost[v]));
		relax(f, v, q, du + f->edge[q]);
	}
}

/* Whether a whole flood may take uniform_loop (below): a square grid
 * whose passable cells all cost the same (the Moving AI maps), moves made
 * for this corner rule, nothing but the source queued and no max_dist.
 * Forward and reverse are the same there. */
static bool uniform_ready(const struct flood_ctx *f)
{
	return f->grid->topo != GRID_HEX && f->uniform && f->moves_cut == (int)f->corner_cutting &&
	       !(f->max_dist > 0) && f->n_active == 1 && f->active[0] == 0 && f->settled == 0 &&
	       f->grid->cost[f->source] == f->uniform;
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
static inline double cdecode(const struct flood_ctx *f, uint32_t code)
{
	const uint32_t b = ((code & CMASK) * f->crinv) & CMASK;
	const uint32_t a = (code - b * f->cr) >> CBITS;
	/* compact floods run only on grids of one multiplier, f->uniform */
	return (double)f->uniform * ((double)a + (double)b * GRID_SQRT2);
}

/* The current flood's distance of v, +infinity where it has none. */
static inline double dist_of(const struct flood_ctx *f, int32_t v)
{
	if (f->compact) {
		const uint32_t code = f->cdist[v];
		return code >= CNONE ? HUGE_VAL : cdecode(f, code);
	}
	return f->dist[v];
}

static inline bool is_settled(const struct flood_ctx *f, int32_t v)
{
	if (f->whole)
		return f->compact ? f->cdist[v] < CNONE : f->dist[v] < HUGE_VAL;
	return f->tag[v] == (f->gen << 16 | SETTLED);
}

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
 * A whole flood on a square grid whose passable cells all cost the same
 * (the Moving AI maps), from `source`, whose distance is set (0, or for a
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
 */
static inline __attribute__((always_inline)) bool uniform_loop(struct flood_ctx *f, int32_t source,
							      const bool compact)
{
	/* the block queues hold at most the source: empty them, the arrays take the pool */
	f->fifo[0].head_blk = -1;
	f->n_active = 0;
	f->used_blocks = 0;
	f->free_blk = -1;
	/* Pool layout (int32 units, the pool has more than 8n).  Compact: the
	 * entries o, then d, 64 bits each, reached through head and tail
	 * pointers.  Doubles: cells o, cells d, keys o, keys d (8 bytes a
	 * key), reached through head and tail indices. */
	const size_t slots = (size_t)f->n + 1;
	uint64_t *const eo_at = (uint64_t *)(void *)f->pool, *const ed_at = eo_at + slots;
	uint32_t *const fo = (uint32_t *)f->pool, *const fd = fo + slots;
	double *const do_at = (double *)(void *)(f->pool + 2 * slots), *const dd_at = do_at + slots;
	uint32_t *const cdist = f->cdist;
	double *const ddist = f->dist;
	const uint8_t *const moves = f->moves;
	const struct urow(*const rows)[256] = (const struct urow(*)[256])f->urow;
	const int w = f->grid->w;
	const uint16_t qo = (uint16_t)(2u * f->uniform);
	const uint64_t eo = compact ? 1u << CBITS : dbits(f->edge[qo]),
		       ed = compact ? f->cr : dbits(f->edge[qo + 1u]);
	/* compact: an entry whose key is past CLIMIT (the empty FIFO's too) */
	const uint64_t past = (uint64_t)(CLIMIT + 1u) << 32;
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
				const uint32_t vl = u + ((uint32_t)f->delta[j] & -(m >> j & 1u)) + (j << UDIR_SHIFT);
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
				if (k == dbits(HUGE_VAL))
					goto done;
				ul = take_o ? fo[ho] : fd[hd];
				ho += take_o;
				hd += !take_o;
			}
			u = ul & UCELL;
			if (U_GET(u) == k) {
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
	/* every entry was popped, and each live one settled a cell */
	if (compact)
		f->settled += 1 + (long)((to_p - eo_at) + (td_p - ed_at)) - stale;
	else
		f->settled += 1 + (long)(to + td) - stale;
	f->finished = true;
	f->whole = true; /* no tag was written: every reached cell is settled */
	f->compact = compact;
	return true;
}

static bool run_compact(struct flood_ctx *f, int32_t source)
{
	return uniform_loop(f, source, true);
}

static void run_doubles(struct flood_ctx *f, int32_t source)
{
	(void)uniform_loop(f, source, false);
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
	if (!f->compact_off) {
		uint32_t *const cd = f->cdist;
		cnone_all(cd, f->n);
		cd[f->source] = 0;
		if (run_compact(f, f->source))
			return;
		f->compact_off = true;
	}
	run_doubles(f, f->source);
}

bool flood_settled(const struct flood_ctx *f, int cell)
{
	return f && f->source >= 0 && cell >= 0 && cell < f->n && is_settled(f, cell);
}
long flood_settle(struct flood_ctx *f, const int *targets, int n)
{
	if (!f || f->source < 0)
		return 0;
	long before = f->settled;
	if (n == 0 && !f->finished && uniform_ready(f)) {
		run_whole_uniform(f);
		return f->settled - before;
	}
	int t = 0;
	while (!f->finished) {
		if (n > 0) {
			while (t < n && (targets[t] < 0 || targets[t] >= f->n || flood_settled(f, targets[t])))
				t++;
			if (t == n)
				break;
		}
		int32_t u = pop_min(f);
		if (u < 0) {
			f->finished = true;
			break;
		}
		settle_one(f, u);
	}
	return f->settled - before;
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
	if (!f || f->source < 0 || !f->reverse || !f->finished || f->max_dist > 0 || source < 0 ||
	    source >= f->n)
		return false;
	const struct grid *g = f->grid;
	const int old = f->source;
	if (source == old || !g->cost[old] || f->moves_cut != (int)f->corner_cutting ||
	    memcmp(f->moves_cost, g->cost, (size_t)f->n) != 0)
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
	const double c = f->edge[2u * m + (dg[i] ? 1u : 0u)];
	const bool cut = f->corner_cutting;
	const bool was_compact = f->compact;
	queues_reset(f);
	f->source = source;
	f->reverse = true;
	f->corner_cutting = cut;
	f->max_dist = 0.0;
	f->finished = false;
	if (was_compact) {
		/* The same in compact distances, counting from 0 at the new
		 * source: the step is added to the old distances first. */
		const uint32_t cc = dg[i] ? f->cr : 1u << CBITS;
		uint32_t *const cd = f->cdist;
		cadd_all(cd, f->n, cc);
		f->compact = false;
		cd[source] = 0;
		if (!run_compact(f, source)) {
			/* past CLIMIT: a new flood in doubles */
			f->compact_off = true;
			struct flood_options o = flood_options_default();
			o.reverse = true;
			o.corner_cutting = cut;
			flood_run(f, source, &o, NULL, 0);
		}
		return true;
	}
	double *const dist = f->dist;
	if (g->topo != GRID_HEX && f->uniform && g->cost[source] == f->uniform) {
		/* the uniform loop counts from 0: the step goes on first (an
		 * unreached cell's +infinity stays so) */
		dadd_all(dist, f->n, c);
		dist[source] = 0.0;
		run_doubles(f, source);
		return true;
	}
	dist[source] = -c;
	f->tag[source] = f->gen << 16;
	push(f, 0, source, -c);
	for (int32_t u; (u = pop_min(f)) >= 0;)
		settle_one(f, u);
	/* an unreached cell's +infinity stays so; every finite one is settled */
	dadd_all(dist, f->n, c);
	f->finished = true;
	f->whole = true;
	return true;
}

bool flood_finished(const struct flood_ctx *f)
{
	return !f || f->finished;
}

int flood_source(const struct flood_ctx *f)
{
	return f ? f->source : -1;
}

long flood_settled_count(const struct flood_ctx *f)
{
	return f ? f->settled : 0;
}

double flood_distance(const struct flood_ctx *f, int cell)
{
	return flood_settled(f, cell) ? dist_of(f, cell) : -1.0;
}

int flood_next(const struct flood_ctx *f, int cell)
{
	if (!flood_settled(f, cell) || cell == f->source)
		return -1;
	const struct grid *g = f->grid;
	const uint8_t *cost = g->cost;
	const double d = dist_of(f, cell);
	const double limit = d + TIE_REL * (1.0 + d);
	if (g->topo != GRID_HEX && cost[f->source] && f->moves_cut == (int)f->corner_cutting) {
		/* square grid, passable source: the legal moves are moves[]
		 * (made for this flood's costs and corner rule), bit i the
		 * neighbour grid_adjacent lists i-th, so the same one is found */
		for (unsigned m = f->moves[cell]; m; m &= m - 1) {
			const int i = __builtin_ctz(m);
			const int32_t b = cell + f->delta[i];
			if (!is_settled(f, b))
				continue;
			const unsigned mult = f->reverse ? cost[b] : cost[cell];
			if (dist_of(f, b) + f->edge[2u * mult + (i >= 4 ? 1u : 0u)] <= limit)
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
		if (b != f->source && !cost[b])
			continue;
		int bx = grid_x(g, b), by = grid_y(g, b);
		bool diag = g->topo == GRID_SQUARE8 && bx != x && by != y;
		if (diag && !f->corner_cutting && (!cost[grid_index(g, bx, y)] || !cost[grid_index(g, x, by)]))
			continue;
		/* reverse: the mover enters b; forward: the route entered cell from b */
		unsigned m = f->reverse ? (cost[b] ? cost[b] : 1u) : cost[cell];
		double via = dist_of(f, b) + f->edge[2u * m + (diag ? 1u : 0u)];
		if (via <= limit)
			return b;
	}
	return -1;
}

/* ---- routes with extra costs, guided by the flood ----------------------- */

/* The cells a mover may step to from v (and, moves being symmetric, the
 * cells that may step to v), with whether the step is a square8 diagonal. */
static int legal_neighbours(const struct flood_ctx *f, int32_t v, int32_t out[GRID_MAX_NEIGHBOURS],
			    bool diag[GRID_MAX_NEIGHBOURS])
{
	const struct grid *g = f->grid;
	int k = 0;
	if (g->topo != GRID_HEX) {
		unsigned m = f->moves[v];
		while (m) {
			const int i = __builtin_ctz(m);
			m &= m - 1;
			out[k] = v + f->delta[i];
			diag[k++] = i >= 4;
		}
		return k;
	}
	const int w = g->w, vy = v / w, vx = v - vy * w;
	const int8_t *ox = GRID_HEX_DX[vy & 1];
	for (int i = 0; i < 6; i++) {
		const int nx = vx + ox[i], ny = vy + GRID_HEX_DY[i];
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)g->h || !g->cost[ny * w + nx])
			continue;
		out[k] = ny * w + nx;
		diag[k++] = false;
	}
	return k;
}

/* The flood's distance of v, a lower bound where it has not settled v;
 * negative when v cannot reach the source. */
static inline double flood_h(const struct flood_ctx *f, int32_t v, double lo)
{
	return is_settled(f, v) ? dist_of(f, v) : lo;
}

static inline bool c_before(const struct a_entry *a, const struct a_entry *b)
{
	return a->g != b->g ? a->g < b->g : a->cell < b->cell;
}

static void c_push(struct flood_ctx *f, double key, int32_t cell)
{
	int i = f->cheap_len++;
	struct a_entry e = { 0.0, key, cell };
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!c_before(&e, &f->cheap[p]))
			break;
		f->cheap[i] = f->cheap[p];
		i = p;
	}
	f->cheap[i] = e;
}

static struct a_entry c_pop(struct flood_ctx *f)
{
	struct a_entry top = f->cheap[0], e = f->cheap[--f->cheap_len];
	int i = 0, n = f->cheap_len;
	for (;;) {
		int l = 2 * i + 1;
		if (l >= n)
			break;
		int m = l + 1 < n && c_before(&f->cheap[l + 1], &f->cheap[l]) ? l + 1 : l;
		if (!c_before(&f->cheap[m], &e))
			break;
		f->cheap[i] = f->cheap[m];
		i = m;
	}
	if (n > 0)
		f->cheap[i] = e;
	return top;
}

/*
 * flood_route's potential.  A Dijkstra from the source under the costs the
 * route pays (step x multiplier + extra), stopped after CROWD_CELLS cells:
 * the set R it settled, each with its exact crowd distance cd[].  Those
 * distances depend only on the extra costs inside R (a key is made from
 * the cell settled), so they stay lower bounds while no cell of R gets
 * cheaper (crowd_valid).  A route from a cell outside R enters R at some
 * cell b next to a cell outside; the part before b costs at least the
 * difference of flood distances, so the whole costs at least
 * h(v) + cdelta with cdelta = min over such b of cd(b) - h(b).  The
 * potential min(cd, h + cdelta) (h + cdelta outside R) is then a minimum
 * of two consistent lower bounds, so consistent, and it counts the crowd
 * every route must cross near the source: an A* with it expands little
 * more than its route where the plain flood distance would expand every
 * cell with a smaller detour than the crowd around the goal.  With `codes`
 * (for route_fixed: a compact flood, so one multiplier) every cost is in
 * compact units: a step of the multiplier m is m 2^CBITS or m cr, an extra
 * e is e 2^CBITS, h is m times the compact distance; the sums are
 * integers below 2^53, so the doubles hold them exactly.
 */
static void crowd_make(struct flood_ctx *f, const uint16_t *extra, double lo, bool codes)
{
	const uint8_t *gc = f->grid->cost;
	if (++f->cgen > 0x7FFFFFFFu) {
		memset(f->cst, 0, (size_t)f->n * sizeof *f->cst);
		f->cgen = 1;
	}
	const uint32_t queued = f->cgen << 1, done = queued | 1u;
	f->nr = 0;
	f->cheap_len = 0;
	f->cd[f->source] = 0.0;
	f->cst[f->source] = queued;
	c_push(f, 0.0, f->source);
	int32_t nb[GRID_MAX_NEIGHBOURS];
	bool dg[GRID_MAX_NEIGHBOURS];
	while (f->cheap_len > 0 && f->nr < CROWD_CELLS) {
		const struct a_entry e = c_pop(f);
		const int32_t v = e.cell;
		if (f->cst[v] == done || e.g > f->cd[v])
			continue;
		f->cst[v] = done;
		const uint16_t xv = extra ? extra[v] : 0;
		f->rcell[f->nr] = v;
		f->rx[f->nr++] = xv;
		const unsigned m = gc[v] ? gc[v] : 1u;
		const int k = legal_neighbours(f, v, nb, dg);
		for (int i = 0; i < k; i++) {
			const int32_t u = nb[i];
			if (f->cst[u] == done)
				continue;
			const double key =
				codes ? e.g + (double)((uint64_t)m * (dg[i] ? f->cr : 1u << CBITS) +
						       ((uint64_t)xv << CBITS))
				      : e.g + f->edge[2u * m + (dg[i] ? 1u : 0u)] + (double)xv;
			if (f->cst[u] != queued || key < f->cd[u]) {
				f->cst[u] = queued;
				f->cd[u] = key;
				c_push(f, key, u);
			}
		}
	}
	/* cdelta: over the cells of R a cell outside may step to */
	double delta = HUGE_VAL;
	for (int r = 0; r < f->nr; r++) {
		const int32_t b = f->rcell[r];
		const int k = legal_neighbours(f, b, nb, dg);
		bool edge = false;
		for (int i = 0; i < k && !edge; i++)
			edge = f->cst[nb[i]] != done;
		if (!edge)
			continue;
		const double hb = !codes ? flood_h(f, b, lo)
				  : f->cdist[b] < CNONE ? (double)((uint64_t)f->uniform * f->cdist[b]) : -1.0;
		if (hb >= 0 && f->cd[b] - hb < delta)
			delta = f->cd[b] - hb;
	}
	f->cdelta = delta < 0 ? 0 : delta;
	int32_t rmin = f->source, rmax = f->source;
	for (int r = 0; r < f->nr; r++) {
		rmin = f->rcell[r] < rmin ? f->rcell[r] : rmin;
		rmax = f->rcell[r] > rmax ? f->rcell[r] : rmax;
	}
	f->rlo = rmin;
	f->rspan = rmax - rmin;
	f->c_valid = true;
	f->c_epoch = f->epoch;
	f->c_settled = f->settled;
	f->c_lo = lo;
	f->c_extra = extra;
	f->c_codes = codes;
}

/* Whether the potential still holds: the same flood (no cell settled since,
 * so the same h), the same extra array, and no cell of R cheaper now. */
static bool crowd_valid(const struct flood_ctx *f, const uint16_t *extra, double lo, bool codes)
{
	if (!f->c_valid || f->c_epoch != f->epoch || f->c_settled != f->settled || f->c_lo != lo ||
	    f->c_extra != extra || f->c_codes != codes)
		return false;
	if (extra)
		for (int r = 0; r < f->nr; r++)
			if (extra[f->rcell[r]] < f->rx[r])
				return false;
	return true;
}

/* Heap order of flood_route: smaller f, then larger g (to a float's
 * precision), then smaller cell. */
static inline akey a_key(double fv, double gv, int32_t cell)
{
	uint64_t fb;
	memcpy(&fb, &fv, sizeof fb);
	const float gf = (float)gv;
	uint32_t gb;
	memcpy(&gb, &gf, sizeof gb);
	return (akey)fb << 64 | (akey)((uint64_t)(UINT32_MAX - gb) << 32 | (uint32_t)cell);
}

static inline int32_t a_cell(akey k) { return (int32_t)(uint32_t)k; }

static inline double a_key_f(akey k)
{
	const uint64_t fb = (uint64_t)(k >> 64);
	double fv;
	memcpy(&fv, &fb, sizeof fv);
	return fv;
}

static inline void a_up(struct flood_ctx *f, int i, akey e)
{
	akey *heap = f->aheap;
	while (i > 0) {
		const int p = (i - 1) / 4;
		if (!(e < heap[p]))
			break;
		heap[i] = heap[p];
		f->anode[a_cell(heap[i])].pos = i;
		i = p;
	}
	heap[i] = e;
	f->anode[a_cell(e)].pos = i;
}

/* Sifts e down from slot i (the heap is 4-ary, shallower than binary; the
 * least of four children is found without branches when all four exist). */
static inline void a_down(struct flood_ctx *f, int i, akey e)
{
	akey *heap = f->aheap;
	const int n = f->aheap_len;
	for (;;) {
		const int c = 4 * i + 1;
		if (c >= n)
			break;
		int m;
		akey km;
		if (c + 3 < n) {
			const akey k0 = heap[c], k1 = heap[c + 1], k2 = heap[c + 2], k3 = heap[c + 3];
			const bool b01 = k1 < k0, b23 = k3 < k2;
			const akey ka = b01 ? k1 : k0, kb = b23 ? k3 : k2;
			const bool bab = kb < ka;
			m = bab ? c + 2 + b23 : c + b01;
			km = bab ? kb : ka;
		} else {
			m = c;
			km = heap[c];
			for (int k = c + 1; k < n; k++)
				if (heap[k] < km) {
					m = k;
					km = heap[k];
				}
		}
		if (!(km < e))
			break;
		heap[i] = km;
		f->anode[a_cell(km)].pos = i;
		i = m;
	}
	heap[i] = e;
	f->anode[a_cell(e)].pos = i;
}

static inline int32_t a_pop(struct flood_ctx *f)
{
	const int32_t top = a_cell(f->aheap[0]);
	const akey e = f->aheap[--f->aheap_len];
	if (f->aheap_len > 0)
		a_down(f, 0, e);
	return top;
}

/*
 * flood_route's queue is a bucket ring over f, as plain A*'s in path.c:
 * f never drops below the f just popped (the potential is consistent), so
 * the open cells are sorted into buckets of width 1 / RSCALE by
 * floor(f * RSCALE); only the current bucket is a heap, the later ones are
 * unsorted lists of cells in a ring of RRING slots, and a list becomes the
 * heap (its keys made again from the cells' g, Floyd's heapify) when its
 * turn comes.  Every key in the current bucket is below every key in a
 * later one, so cells come out in exactly the heap's order, from heaps a
 * small fraction of the size.  A listed cell's pos is -2 - slot; a cell
 * whose g improves into another bucket is listed again (or goes to the
 * heap), so its old entry no longer matches its pos and is skipped.  A key
 * beyond the ring's reach, or a full pool, sends every listed cell to the
 * heap, and the query goes on with the heap alone.
 */
static inline int r_code(int slot) { return -2 - slot; }

static inline uint64_t r_bucket(double fv) { return (uint64_t)(fv * RSCALE); }

/* The same buckets for keys in compact units (route_fixed). */
#define RSHIFT (CBITS - 2)

/* What a key is made from: the potential's terms (see flood_route and
 * crowd_make) and the units, doubles or compact (route_fixed). */
struct rpot {
	double lo, delta;
	uint32_t in_r;
	bool codes;
	uint64_t cdelta;  /* codes: delta, UINT64_MAX when R holds every cell that reaches the source */
	uint64_t mult;    /* codes: the one multiplier */
};

/* flood_route's potential of v (see flood_route), or -1 when v is not to be queued. */
static inline double route_h(const struct flood_ctx *f, int32_t v, double lo, double delta,
			     uint32_t in_r)
{
	double hv = flood_h(f, v, lo);
	if (hv < 0)
		return -1.0; /* cannot reach the source */
	hv += delta;
	if (f->cst[v] == in_r) {
		if (f->cd[v] < hv)
			hv = f->cd[v];
	} else if (delta == HUGE_VAL) {
		return -1.0; /* R holds every cell that reaches the source */
	}
	return hv;
}

/* Lists v in slot r; false when the pool has no chunk left. */
static inline bool r_list(struct flood_ctx *f, int r, int32_t v)
{
	int c = f->rhead[r];
	if (c < 0 || f->rfill[r] == RCHUNK - 1) {
		int nc = f->rfree;
		if (nc >= 0)
			f->rfree = f->rpool[(size_t)nc * RCHUNK];
		else if (f->rnext < f->rpool_chunks)
			nc = f->rnext++;
		else
			return false;
		f->rpool[(size_t)nc * RCHUNK] = c;
		f->rhead[r] = nc;
		f->rfill[r] = 0;
		c = nc;
	}
	f->rpool[(size_t)c * RCHUNK + 1 + f->rfill[r]++] = v;
	f->anode[v].pos = r_code(r);
	return true;
}

/* route_fixed's potential of v in compact units (see route_h);
 * UINT64_MAX when v is not to be queued. */
static inline uint64_t route_hc(const struct flood_ctx *f, const struct rpot *p, int32_t v)
{
	const uint32_t code = f->cdist[v];
	if (code >= CNONE)
		return UINT64_MAX; /* cannot reach the source */
	uint64_t h = p->cdelta == UINT64_MAX ? UINT64_MAX : p->mult * code + p->cdelta;
	if ((uint32_t)(v - f->rlo) <= (uint32_t)f->rspan && f->cst[v] == p->in_r && (uint64_t)f->cd[v] < h)
		h = (uint64_t)f->cd[v];
	return h;
}

/* route_fixed's key: f, then the larger g (to 32 bits: g never passes f,
 * and f passes CLIMIT only in keys never popped), then the smaller cell. */
static inline akey a_key_codes(uint64_t fv, uint64_t gv, int32_t cell)
{
	const uint32_t g32 = gv > UINT32_MAX ? UINT32_MAX : (uint32_t)gv;
	return (akey)fv << 64 | (akey)((uint64_t)(UINT32_MAX - g32) << 32 | (uint32_t)cell);
}

/* Appends slot r's live cells to the heap (unordered) and frees its chunks. */
static void r_drain(struct flood_ctx *f, int r, const struct rpot *p)
{
	const int code = r_code(r);
	int m = f->aheap_len;
	for (int c = f->rhead[r], k = f->rfill[r]; c >= 0; k = RCHUNK - 1) {
		const int32_t *e = f->rpool + (size_t)c * RCHUNK;
		for (int i = 1; i <= k; i++) {
			const int32_t v = e[i];
			if (f->anode[v].pos != code)
				continue;
			if (p->codes) {
				const uint64_t gv = f->anode[v].gc;
				f->aheap[m] = a_key_codes(gv + route_hc(f, p, v), gv, v);
			} else {
				const double gv = f->anode[v].g;
				f->aheap[m] = a_key(gv + route_h(f, v, p->lo, p->delta, p->in_r), gv, v);
			}
			f->anode[v].pos = m++;
		}
		const int next = e[0];
		f->rpool[(size_t)c * RCHUNK] = f->rfree;
		f->rfree = c;
		c = next;
	}
	f->rhead[r] = -1;
	f->aheap_len = m;
}

static void a_heapify(struct flood_ctx *f)
{
	const int m = f->aheap_len;
	for (int i = m > 1 ? (m - 2) / 4 : -1; i >= 0; i--)
		a_down(f, i, f->aheap[i]);
}

/* The current bucket is used up: the next slot with a cell becomes the heap. */
static bool r_advance(struct flood_ctx *f, const struct rpot *p)
{
	const uint64_t q0 = f->rq;
	for (int d = 1; d < RRING && f->aheap_len == 0; d++) {
		const int r = (int)((q0 + (uint64_t)d) % RRING);
		f->rq = q0 + (uint64_t)d;
		if (f->rhead[r] >= 0)
			r_drain(f, r, p);
	}
	a_heapify(f);
	return f->aheap_len > 0;
}

/* Gives up the ring: every listed cell goes to the heap. */
static void r_flush(struct flood_ctx *f, const struct rpot *p)
{
	for (int r = 0; r < RRING; r++)
		if (f->rhead[r] >= 0)
			r_drain(f, r, p);
	a_heapify(f);
	f->ron = false;
}

/*
 * The tie stack, as path.c's: a key whose f equals the f just popped, and
 * which beats the stack's top, goes on the stack instead of the heap.
 * The stack stays sorted (each entry beats the ones below it), so the
 * queue's least key is the better of the stack's top and the heap's: the
 * order is exactly the heap's, and most pushes and pops (the successors
 * along a route whose f holds) cost O(1).  A stacked cell's pos is
 * A_STACKED.  The potential is consistent, so a stacked cell should never
 * improve; should rounding let one, it leaves the stack (a_unstack) and
 * is queued anew.
 */
#define A_STACKED (-1)

static inline akey *a_stack_top(struct flood_ctx *f) { return &f->aheap[f->n - f->astack_len]; }

static __attribute__((noinline)) void a_unstack(struct flood_ctx *f, int32_t v)
{
	akey *const base = a_stack_top(f);
	int i = 0;
	while (a_cell(base[i]) != v)
		i++;
	for (; i > 0; i--)
		base[i] = base[i - 1];
	f->astack_len--;
}

/* Removes the least key of the tie stack and the heap; returns its cell. */
static inline int32_t a_take(struct flood_ctx *f)
{
	if (f->astack_len > 0 && (f->aheap_len == 0 || *a_stack_top(f) < f->aheap[0])) {
		const akey k = *a_stack_top(f);
		f->astack_len--;
		f->atie = (uint64_t)(k >> 64);
		return a_cell(k);
	}
	f->atie = (uint64_t)(f->aheap[0] >> 64);
	return a_pop(f);
}

/* Queues v (g and potential just set) with key k, of bucket q: in the
 * current bucket, the tie stack or the heap; in a later one, its list.
 * `pos` is v's pos if it is open already (its g just improved), else
 * INT32_MIN. */
static inline __attribute__((always_inline)) void
r_push(struct flood_ctx *f, int32_t v, uint64_t q, akey k, int pos, const struct rpot *p)
{
	if (__builtin_expect(pos == A_STACKED, 0)) {
		a_unstack(f, v);
		pos = INT32_MIN;
	}
	if (f->ron) {
		if (q > f->rq) {
			const int r = (int)(q % RRING);
			if (pos == r_code(r))
				return; /* still in the same list: its key is made when drained */
			if (q - f->rq < RRING && r_list(f, r, v))
				return;
			r_flush(f, p);
			if (pos != INT32_MIN)
				return; /* the flush queued it, with its new g */
			pos = INT32_MIN;
		}
	}
	if (pos >= 0) {
		a_up(f, pos, k);
	} else if ((uint64_t)(k >> 64) == f->atie && (f->astack_len == 0 || k < *a_stack_top(f))) {
		f->astack_len++;
		*a_stack_top(f) = k;
		f->anode[v].pos = A_STACKED;
	} else {
		a_up(f, f->aheap_len++, k);
	}
}

/* A lower bound of the distance to the source of a cell the flood has not
 * settled: the smallest key still queued (every unsettled cell is at least
 * that far); negative when the flood is over, so the cell cannot reach it. */
static double unsettled_bound(const struct flood_ctx *f)
{
	if (f->finished)
		return f->max_dist > 0 ? f->max_dist : -1.0;
	double lo = -1.0;
	for (int i = 0; i < f->n_active; i++) {
		double k = f->head_key[f->active[i]];
		if (lo < 0 || k < lo)
			lo = k;
	}
	return lo;
}

/* The cell before v on flood_route's search tree; -1 at the start. */
static int32_t a_parent(const struct flood_ctx *f, int32_t v)
{
	const unsigned d = f->anode[v].tag & A_NO_DIR;
	if (d == A_NO_DIR)
		return -1;
	if (f->grid->topo != GRID_HEX)
		return v - f->delta[d];
	const int w = f->grid->w, vy = v / w, py = vy - GRID_HEX_DY[d];
	return py * w + v - vy * w - GRID_HEX_DX[py & 1][d];
}

/*
 * flood_route's A* loop, from the queue flood_route set up, specialised by
 * the constant `mode`.  ROUTE_GENERAL serves every case.  The plain modes
 * serve the usual one, a square grid, a whole flood (run to its end with
 * no max_dist, so settled means a finite distance), a passable goal and
 * an extra array, with its distances compact or in doubles: there every
 * neighbour in moves[] is passable, no unsettled bound or blocked goal
 * plays a part, and the tests are the general loop's with those cases
 * taken out, so the two give the same keys in the same order, the same
 * expansions and the same route.  True when the goal was reached; the
 * expansions go to *exp_out.
 */
enum { ROUTE_GENERAL, ROUTE_PLAIN_COMPACT, ROUTE_PLAIN_DOUBLES };

static inline __attribute__((always_inline)) bool
route_loop(struct flood_ctx *f, const uint16_t *extra, double lo, double delta, uint32_t in_r,
	   long *exp_out, const int mode)
{
	const bool plain = mode != ROUTE_GENERAL, compact = mode == ROUTE_PLAIN_COMPACT;
	const struct grid *g = f->grid;
	const uint8_t *gc = g->cost;
	const int w = g->w, h = g->h, goal = f->source;
	const bool square = plain || g->topo != GRID_HEX;
	const uint32_t open = f->agen << 1, closed = open | 1u;
	struct a_node *an = f->anode;
	const uint32_t *cdist = f->cdist, *cst = f->cst;
	const double *dist = f->dist, *cd = f->cd;
	const int32_t rlo = f->rlo;
	const uint32_t rspan = (uint32_t)f->rspan;
	const double eo = f->edge[2u * f->uniform], ed = f->edge[2u * f->uniform + 1u];
	const struct rpot pot = { .lo = lo, .delta = delta, .in_r = in_r };
	long exp = 0;
	bool found = false;
	for (;;) {
		if (f->aheap_len == 0 && f->astack_len == 0 && !(f->ron && r_advance(f, &pot)))
			break;
		const int32_t u = a_take(f);
		an[u].tag = closed << A_DIR_BITS | (an[u].tag & A_NO_DIR);
		exp++;
		if (square && (f->astack_len > 0 || f->aheap_len > 0)) {
			/* the likely next cell: fetch its neighbours' records meanwhile */
			const int32_t t = a_cell(f->astack_len > 0 ? *a_stack_top(f) : f->aheap[0]);
			if (t > w && t < f->n - w) {
				if (plain ? compact : f->compact) {
					__builtin_prefetch(&cdist[t - w]);
					__builtin_prefetch(&cdist[t + w]);
				} else {
					__builtin_prefetch(&dist[t - w]);
					__builtin_prefetch(&dist[t]);
					__builtin_prefetch(&dist[t + w]);
				}
				__builtin_prefetch(&an[t - w]);
				__builtin_prefetch(&an[t]);
				__builtin_prefetch(&an[t + w]);
				if (plain) {
					__builtin_prefetch(&an[t - w + 1]);
					__builtin_prefetch(&an[t + w + 1]);
					__builtin_prefetch(&extra[t - w]);
					__builtin_prefetch(&extra[t + w]);
				}
			}
		}
		if (u == goal) {
			found = true;
			break;
		}
		const double gu = an[u].g;
		unsigned moves;
		int uy = 0, ux = 0;
		const int8_t *ox = GRID_SQUARE_DX, *oy = GRID_SQUARE_DY;
		if (square) {
			moves = f->moves[u];
		} else {
			uy = u / w;
			ux = u - uy * w;
			moves = 0;
			ox = GRID_HEX_DX[uy & 1];
			oy = GRID_HEX_DY;
			for (int i = 0; i < 6; i++) {
				int vx = ux + ox[i], vy = uy + oy[i];
				if ((unsigned)vx < (unsigned)w && (unsigned)vy < (unsigned)h && gc[vy * w + vx])
					moves |= 1u << i;
			}
		}
		if (!plain && !gc[goal]) {
			/* a blocked source (floor to the flood) may be entered too */
			uy = u / w;
			ux = u - uy * w;
			const int dirs = square ? (g->topo == GRID_SQUARE8 ? 8 : 4) : 6;
			for (int i = 0; i < dirs; i++) {
				const int vx = ux + ox[i], vy = uy + oy[i];
				if ((unsigned)vx >= (unsigned)w || (unsigned)vy >= (unsigned)h || vy * w + vx != goal)
					continue;
				if (square && i >= 4 && !f->corner_cutting && (!gc[uy * w + vx] || !gc[vy * w + ux]))
					continue;
				moves |= 1u << i;
			}
		}
		double gvs[8];
		if (plain) {
			/*
			 * All eight neighbours are tested without a branch: an
			 * illegal move tests u itself, closed, so never to be
			 * worked on.  A neighbour is worked on when it is new, or
			 * open with a larger g; v is passable (moves[] and a
			 * passable goal), compact: of the one multiplier
			 * f->uniform.  The rest of the loop then sees the same
			 * cells, in the same order, as the general one.
			 */
			unsigned work = 0;
#pragma GCC unroll 8
			for (int i = 0; i < 8; i++) {
				const int32_t v = u + (f->delta[i] & -(int32_t)(moves >> i & 1u));
				const uint32_t st = an[v].tag >> A_DIR_BITS;
				const double e = compact ? (i >= 4 ? ed : eo) : f->edge[2u * gc[v] + (i >= 4 ? 1u : 0u)];
				const double gv = gu + e + (double)extra[v];
				gvs[i] = gv;
				work |= (unsigned)((st != closed) & ((st != open) | (gv < an[v].g))) << i;
			}
			moves = work;
		}
		while (moves) {
			const int i = __builtin_ctz(moves);
			moves &= moves - 1;
			const int32_t v = square ? u + f->delta[i] : (uy + oy[i]) * w + ux + ox[i];
			const uint32_t st = an[v].tag >> A_DIR_BITS;
			double gv;
			struct a_node *nv = &an[v];
			if (plain) {
				gv = gvs[i];
			} else {
				if (st == closed)
					continue;
				const unsigned m = gc[v] ? gc[v] : 1u;
				gv = gu + f->edge[2u * m + (square && i >= 4 ? 1u : 0u)] +
				     (extra ? (double)extra[v] : 0.0);
				if (st == open && !(gv < nv->g))
					continue;
			}
			/* the potential (an open cell passed these tests already) */
			double hv;
			if (plain) {
				/* route_h without the unsettled bound: no distance, no route */
				double d;
				if (compact) {
					const uint32_t code = cdist[v];
					if (code >= CNONE)
						continue;
					d = cdecode(f, code);
				} else {
					d = dist[v];
					if (!(d < HUGE_VAL))
						continue;
				}
				hv = d + delta;
				if ((uint32_t)(v - rlo) <= rspan && cst[v] == in_r && cd[v] < hv)
					hv = cd[v];
				if (hv == HUGE_VAL)
					continue; /* outside R when R holds every cell that reaches the source */
			} else {
				hv = route_h(f, v, lo, delta, in_r);
				if (hv < 0)
					continue;
			}
			nv->g = gv;
			nv->tag = open << A_DIR_BITS | (unsigned)i;
			const double fv = gv + hv;
			if (st != open) {
				r_push(f, v, r_bucket(fv), a_key(fv, gv, v), INT32_MIN, &pot);
			} else {
				r_push(f, v, r_bucket(fv), a_key(fv, gv, v), nv->pos, &pot);
			}
		}
	}
	*exp_out = exp;
	return found;
}

static __attribute__((noinline)) bool route_general(struct flood_ctx *f, const uint16_t *extra,
						    double lo, double delta, uint32_t in_r, long *exp)
{
	return route_loop(f, extra, lo, delta, in_r, exp, ROUTE_GENERAL);
}

static __attribute__((noinline)) bool route_plain_compact(struct flood_ctx *f, const uint16_t *extra,
							  double lo, double delta, uint32_t in_r, long *exp)
{
	return route_loop(f, extra, lo, delta, in_r, exp, ROUTE_PLAIN_COMPACT);
}

static __attribute__((noinline)) bool route_plain_doubles(struct flood_ctx *f, const uint16_t *extra,
							  double lo, double delta, uint32_t in_r, long *exp)
{
	return route_loop(f, extra, lo, delta, in_r, exp, ROUTE_PLAIN_DOUBLES);
}

/*
 * flood_route's loop in compact units, for the usual case (a whole compact
 * flood of a square grid, a passable goal, an extra array): g, the
 * potential and the keys are integers (see crowd_make), so the potential
 * is exactly consistent, a closed cell can never improve, and the test of
 * a neighbour is "new, or a smaller g" with no closed test, made for all
 * eight without a branch.  Integer costs order as the real ones while they
 * stay within CLIMIT (see the compact distances), so the search gives up
 * (FIXED_GAVE_UP) when it would pop a key past it, and flood_route asks
 * the loop in doubles instead.  Ties: smaller f, then larger g, then
 * smaller cell, all exact.
 */
enum { FIXED_NO_ROUTE, FIXED_FOUND, FIXED_GAVE_UP };

static __attribute__((noinline)) int route_fixed(struct flood_ctx *f, const uint16_t *extra,
						 const struct rpot *p, long *exp_out)
{
	const int w = f->grid->w, goal = f->source;
	const uint32_t agen = f->agen, open = agen << 1, closed = open | 1u;
	struct a_node *an = f->anode;
	const uint32_t *cdist = f->cdist;
	const uint64_t eo = p->mult << CBITS, ed = p->mult * f->cr;
	int32_t step[8];
	memcpy(step, f->delta, sizeof step);
	long exp = 0;
	int res = FIXED_NO_ROUTE;
	for (;;) {
		if (f->aheap_len == 0 && f->astack_len == 0 && !(f->ron && r_advance(f, p)))
			break;
		const int32_t u = a_take(f);
		if (f->atie > CLIMIT) {
			res = FIXED_GAVE_UP;
			break;
		}
		an[u].tag = closed << A_DIR_BITS | (an[u].tag & A_NO_DIR);
		exp++;
		if (f->astack_len > 0 || f->aheap_len > 0) {
			/* the likely next cell: fetch its neighbours' records meanwhile */
			const int32_t t = a_cell(f->astack_len > 0 ? *a_stack_top(f) : f->aheap[0]);
			if (t > w && t < f->n - w) {
				__builtin_prefetch(&cdist[t - w]);
				__builtin_prefetch(&cdist[t + w]);
				__builtin_prefetch(&an[t - w]);
				__builtin_prefetch(&an[t - w + 1]);
				__builtin_prefetch(&an[t]);
				__builtin_prefetch(&an[t + w]);
				__builtin_prefetch(&an[t + w + 1]);
				__builtin_prefetch(&extra[t - w]);
				__builtin_prefetch(&extra[t + w]);
			}
		}
		if (u == goal) {
			res = FIXED_FOUND;
			break;
		}
		const uint64_t gu = an[u].gc;
		const unsigned moves = f->moves[u];
		/* an illegal move tests u itself: of this query, and not cheaper */
		uint64_t gvs[8];
		unsigned work = 0;
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++) {
			const int32_t v = u + (step[i] & -(int32_t)(moves >> i & 1u));
			const uint64_t gv = gu + (i >= 4 ? ed : eo) + ((uint64_t)extra[v] << CBITS);
			gvs[i] = gv;
			work |= (unsigned)(((an[v].tag >> A_DIR_BITS >> 1) != agen) | (gv < an[v].gc)) << i;
		}
		while (work) {
			const int i = __builtin_ctz(work);
			work &= work - 1;
			const int32_t v = u + step[i];
			const uint64_t h = route_hc(f, p, v);
			if (h == UINT64_MAX)
				continue;
			struct a_node *nv = &an[v];
			const bool was_open = nv->tag >> A_DIR_BITS == open;
			const uint64_t gv = gvs[i], fv = gv + h;
			nv->gc = gv;
			nv->tag = open << A_DIR_BITS | (unsigned)i;
			r_push(f, v, fv >> RSHIFT, a_key_codes(fv, gv, v), was_open ? nv->pos : INT32_MIN, p);
		}
	}
	*exp_out = exp;
	return res;
}

/* Empties the queue and the ring and starts a search from `start`, whose
 * key is k0 in bucket q0. */
static void route_start(struct flood_ctx *f, int32_t start, akey k0, uint64_t q0)
{
	if (++f->agen > A_GEN_LIMIT) {
		for (int c = 0; c < f->n; c++)
			f->anode[c].tag = 0;
		f->agen = 1;
	}
	f->aheap_len = 0;
	f->astack_len = 0;
	f->atie = UINT64_MAX;
	f->anode[start] = (struct a_node){ .gc = 0, .pos = 0, .tag = f->agen << 1 << A_DIR_BITS | A_NO_DIR };
	f->aheap[f->aheap_len++] = k0;
	/* the ring starts empty, its current bucket that of the start */
	for (int r = 0; r < RRING; r++)
		f->rhead[r] = -1;
	f->rfree = -1;
	f->rnext = 0;
	f->ron = true;
	f->rq = q0;
}

int flood_route(struct flood_ctx *f, int start, const uint16_t *extra, int *out, int cap,
		double *cost, long *expanded)
{
	if (expanded)
		*expanded = 0;
	if (!f || !f->reverse || !flood_settled(f, start))
		return -1;
	const struct grid *g = f->grid;
	const int goal = f->source;
	const double lo = unsettled_bound(f);
	const bool plain = g->topo != GRID_HEX && f->whole && f->finished && g->cost[goal] && extra;
	long exp = 0;
	bool found = false, codes = false;
	if (plain && f->compact) {
		if (!crowd_valid(f, extra, lo, true))
			crowd_make(f, extra, lo, true);
		const struct rpot p = { .lo = lo,
					.in_r = f->cgen << 1 | 1u,
					.codes = true,
					.cdelta = f->cdelta == HUGE_VAL ? UINT64_MAX : (uint64_t)f->cdelta,
					.mult = f->uniform };
		const uint64_t h0 = route_hc(f, &p, start);
		route_start(f, start, a_key_codes(h0, 0, start), h0 >> RSHIFT);
		const int r = route_fixed(f, extra, &p, &exp);
		codes = r != FIXED_GAVE_UP;
		found = r == FIXED_FOUND;
	}
	if (!codes) {
		/* in doubles: not the usual case, or the route is too long for
		 * compact units */
		if (!crowd_valid(f, extra, lo, false))
			crowd_make(f, extra, lo, false);
		const uint32_t in_r = f->cgen << 1 | 1u;
		const double delta = f->cdelta;
		double h0 = dist_of(f, start) + delta;
		if (f->cst[start] == in_r && f->cd[start] < h0)
			h0 = f->cd[start];
		route_start(f, start, a_key(h0, 0.0, start), r_bucket(h0));
		long more = 0;
		if (plain)
			found = f->compact ? route_plain_compact(f, extra, lo, delta, in_r, &more)
					   : route_plain_doubles(f, extra, lo, delta, in_r, &more);
		else
			found = route_general(f, extra, lo, delta, in_r, &more);
		exp += more;
	}
	if (expanded)
		*expanded = exp;
	if (!found)
		return -1;
	int len = 0;
	for (int32_t c = goal; c >= 0; c = a_parent(f, c))
		len++;
	int i = len;
	for (int32_t c = goal; c >= 0; c = a_parent(f, c))
		if (--i < cap)
			out[i] = c;
	if (cost) {
		if (codes) {
			/* a cost in compact units, A 2^CBITS + B cr, is A + B sqrt 2 */
			const uint64_t gc = f->anode[goal].gc;
			const uint64_t b = ((uint32_t)gc & CMASK) * (uint64_t)f->crinv & CMASK;
			*cost = (double)((gc - b * f->cr) >> CBITS) + (double)b * GRID_SQRT2;
		} else {
			*cost = f->anode[goal].g;
		}
	}
	return len;
}
