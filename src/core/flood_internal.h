/*
 * flood_internal.h - what flood.c (the flood, its shift and its downhill
 * steps) and route.c (flood_route's A* and its crowd potential) share:
 * the context, its units and the reads of a flood's distances.  Not for
 * use outside those two files.
 */
#ifndef ASTRAY_FLOOD_INTERNAL_H
#define ASTRAY_FLOOD_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"

#define QUEUES 512             /* 2 * (255 + 1): multiplier 1..255, orthogonal or diagonal */
#define BLOCK 256              /* entries per pool block */
#define SETTLED UINT16_MAX     /* state[] of a settled cell */
#define PREFETCH_AHEAD 8       /* pop_min: how far behind a FIFO's head to prefetch */
#define TIE_REL 1e-11          /* flood_next: relative tolerance between equally good neighbours */
#define CROWD_CELLS 512        /* cells of flood_route's crowd-aware potential */
#define RRING 1024             /* flood_route: buckets in its ring */
#define PRETOUCH_CELLS (1 << 20) /* flood_create touches its arrays up to this size */
#define PRETOUCH_ROUTE_CELLS (1 << 18) /* ... and the route search's up to this one (512x512) */
/* Compact distances (see run_compact): a + b sqrt 2 steps kept as
 * a * 2^CBITS + b * dist.sqrt2 in 32 bits. */
#define CBITS 21
#define CMASK ((1u << CBITS) - 1u)
#define CNONE 0xFF000000u          /* a cell not reached */
#define CLIMIT (1100u << CBITS)    /* the largest key whose order is kept exact */
#define RSCALE 4.0             /* flood_route: buckets per unit of f */
#define RCHUNK 16              /* flood_route: ints per list chunk (a link, then 15 cells) */
#define RING_CHUNKS ((1 << 20) / 8 + 1) /* flood_route: the most chunks its ring has (8 MiB) */
#define KEYS_FIRST (1 << 16)   /* flood_route: keys its queue starts with on a large map */

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
	uint32_t tag;   /* gen << 1 (open) or gen << 1 | 1 (closed), gen the search's
	                   route.gen, shifted left by
	                   A_DIR_BITS, then the direction of the step from its parent
	                   (A_NO_DIR at the start) */
};
#define A_DIR_BITS 4
#define A_NO_DIR 15u
#define A_GEN_LIMIT 0x7FFFFFFu /* route.gen << 1 | 1 fits beside the direction */

/* flood_route's heap entry: one 128-bit key compared as an unsigned
 * integer, the IEEE bits of f (non-negative, so they order as the values
 * do), then the complement of g rounded to a float (larger g first), then
 * the cell. */
#define PQ_RECORD struct a_node
#define PQ_RING_SLOTS RRING
#define PQ_RING_CHUNK RCHUNK
#include "pqueue.h"
typedef pq_key akey;

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

/* The distances of the current flood. */
struct flood_dist {
	double *value;          /* n: tentative, then final, distance in cost units;
	                           +infinity where the flood has not reached */
	uint32_t *code;         /* n: a whole uniform flood's compact distances
	                           (see run_compact); CNONE where not reached */
	uint32_t sqrt2;         /* sqrt 2 in compact units: odd, within 1 of sqrt 2 * 2^CBITS */
	uint32_t sqrt2_inverse; /* its inverse modulo 2^CBITS */
	bool in_code;           /* the current flood's distances are code[], not value[] */
	bool code_off;          /* this grid's floods outgrew CLIMIT: whole floods use value[] */
	int dirty_lo, dirty_hi; /* value[] is +infinity outside [dirty_lo, dirty_hi): a flood
	                           that settles a few cells resets only those (flood_begin) */
	int dirty_x0, dirty_x1; /* ... and outside columns [dirty_x0, dirty_x1) of those rows
	                           (a bounded uniform flood's box; else the whole width) */
};

/* The multi-queue: one FIFO of cells per kind of edge (see flood.h). */
struct flood_queue {
	uint32_t *tag;          /* n: gen << 16 | state; the cell was reached by the
	                           current flood when the high half is gen, and state
	                           is the FIFO holding its live entry, or SETTLED */
	uint32_t gen;           /* 1..65535 */
	int32_t *pool;          /* blocks * BLOCK cells, the FIFOs' entries */
	int32_t *block_next;    /* blocks: the next block of a FIFO, or of the free list */
	int32_t blocks;         /* blocks the pool may need at most (the worst case) */
	int32_t cap_blocks;     /* blocks allocated so far: the pool grows when a
	                           flood needs more (pool_reserve), never past blocks */
	bool starved;           /* the pool could not grow: the flood stopped there */
	int32_t used_blocks;    /* blocks never given back start here */
	int32_t free_block;     /* the first free block, -1: none */
	struct fifo fifo[QUEUES];
	uint16_t active[QUEUES];  /* indices of the non-empty FIFOs, ascending */
	int active_count;
	double head_key[QUEUES];  /* each non-empty FIFO's head key: the distance of its
	                             cell when it became the head (its entry's key if
	                             live, no more if stale) */
	double edge_cost[QUEUES]; /* the cost of an edge of each FIFO index:
	                             multiplier (index / 2) times 1 or sqrt 2 (index odd) */
};

/* The current flood: where from, under which options, how far. */
struct flood_run {
	int source;             /* -1: no flood */
	bool reverse, corner_cutting;
	double max_dist;        /* cost units; <= 0: no limit */
	bool finished;          /* nothing is left to settle */
	bool whole;             /* it ran to its end with no max_dist, so a cell is
	                           settled exactly when its distance is finite (tag[]
	                           is then not kept up to date) */
	bool keyed;             /* a cell is settled exactly when its distance is at most
	                           `limit` (a whole flood: finite; a bounded uniform one,
	                           run_bounded: max_dist), so tag[] is not kept up to date */
	double limit;           /* see keyed */
	long settled;           /* cells settled by this flood */
	uint64_t epoch;         /* floods begun on this context (the route's potential
	                           is kept while it does not change) */
};

/* Square grids: the legal moves of every cell, and what the uniform
 * flood makes of them. */
struct flood_moves {
	uint8_t *bits;          /* n: square_moves of every cell, bit i the move to
	                           GRID_SQUARE_DX/DY[i] */
	uint8_t *costs;         /* n: the grid's costs when bits[] was made (every topology) */
	int corner_rule;        /* the corner cutting bits[] was made with; -1: not made */
	unsigned uniform;       /* the multiplier every passable cell shares, 0 if they differ */
	int32_t delta[8];       /* cell index offset of each direction */
	struct urow rows[8][256]; /* uniform_loop: the tries of a cell entered by step d
	                             whose bits[] byte is m (see urow_make) */
};

/* flood_route's A* (route.c): the records, the queue and its bucket ring.
 * Scratch of one search at a time, so contexts may share one
 * (flood_share_search); its arrays are made by the first search. */
struct route_search {
	int users;              /* the contexts that share it */
	int n;                  /* cells of their grids */
	bool starved;           /* the queue could not grow: this search finds nothing */
	struct a_node *node;    /* n records */
	struct pq queue;        /* the heap and the tie stack (pqueue.h): up to n keys,
	                           grown as a search opens cells (keys_reserve) */
	uint64_t tie_f;         /* the f bits of the key popped last */
	uint32_t gen;           /* records of this search carry gen (see struct a_node) */
	struct pq_ring ring;    /* buckets of f: floor(f * RSCALE), or f >> RSHIFT in
	                           compact units; ring.pool holds n / 8 + 1 chunks,
	                           at most RING_CHUNKS (a full pool sends the listed
	                           cells to the heap: the same order, more heap work) */
};

/* flood_route's potential (route.c): a Dijkstra from the source under the
 * crowd costs, stopped after CROWD_CELLS cells (see crowd_make).  Its cells
 * are kept in a small open-addressing table, not in per-cell arrays: it
 * queues at most 1 + CROWD_CELLS * GRID_MAX_NEIGHBOURS cells, under half
 * of CROWD_SLOTS. */
#define CROWD_SLOTS 16384      /* a power of two */
struct crowd_slot {
	double dist;            /* the cell's crowd distance (cost or compact units) */
	int32_t cell;
	uint32_t state;         /* gen << 1 queued, gen << 1 | 1 settled (in R); a
	                           slot of an older gen is free */
};
struct route_crowd {
	struct crowd_slot *slot; /* CROWD_SLOTS */
	uint32_t gen;
	int32_t *cell;          /* CROWD_CELLS: R's cells in the order settled */
	uint16_t *extra;        /* CROWD_CELLS: the extra cost each had then */
	int count;              /* cells in R */
	akey *heap;             /* the Dijkstra's heap (route.c, c_push) */
	int heap_len;
	double delta;           /* lower bound of (crowd distance - flood distance) outside R */
	int32_t first_cell;     /* R lies in first_cell .. first_cell + cell_span */
	int32_t cell_span;
	/* what R was made for: it holds while these are unchanged */
	bool valid;
	uint64_t epoch;
	long settled;
	double bound;
	const uint16_t *extra_array;
	bool in_code;           /* dist[] and delta in compact units (route_fixed) */
};

struct flood_ctx {
	const struct grid *grid;
	int n;                  /* cells */
	struct flood_dist dist;
	struct flood_queue queue;
	struct flood_run run;
	struct flood_moves moves;
	struct route_search *route; /* its own, or shared (flood_share_search) */
	struct route_crowd crowd;
};

static inline double cdecode(const struct flood_ctx *f, uint32_t code)
{
	const uint32_t b = ((code & CMASK) * f->dist.sqrt2_inverse) & CMASK;
	const uint32_t a = (code - b * f->dist.sqrt2) >> CBITS;
	/* compact floods run only on grids of one multiplier, f->moves.uniform */
	return (double)f->moves.uniform * ((double)a + (double)b * GRID_SQRT2);
}

/* The current flood's distance of v, +infinity where it has none. */
static inline double dist_of(const struct flood_ctx *f, int32_t v)
{
	if (f->dist.in_code) {
		const uint32_t code = f->dist.code[v];
		return code >= CNONE ? HUGE_VAL : cdecode(f, code);
	}
	return f->dist.value[v];
}

static inline bool is_settled(const struct flood_ctx *f, int32_t v)
{
	if (f->run.keyed)
		return f->dist.in_code ? f->dist.code[v] < CNONE : f->dist.value[v] <= f->run.limit;
	return f->queue.tag[v] == (f->queue.gen << 16 | SETTLED);
}

/* The cells a mover may step to from v (and, moves being symmetric, the
 * cells that may step to v), with whether the step is a long one (a
 * square8 diagonal, a diamond8 corner step). */
static inline int legal_neighbours(const struct flood_ctx *f, int32_t v, int32_t out[GRID_MAX_NEIGHBOURS],
			    bool diag[GRID_MAX_NEIGHBOURS])
{
	const struct grid *g = f->grid;
	int k = 0;
	if (grid_is_square(g->topo)) {
		unsigned m = f->moves.bits[v];
		while (m) {
			const int i = __builtin_ctz(m);
			m &= m - 1;
			out[k] = v + f->moves.delta[i];
			diag[k++] = i >= 4;
		}
		return k;
	}
	const int w = g->w, vy = v / w, vx = v - vy * w;
	if (grid_is_diamond(g->topo)) {
		const int8_t *dx = GRID_DIAMOND_DX[vy & 1];
		for (int i = 0; i < grid_dir_count(g->topo); i++) {
			const int nx = vx + dx[i], ny = vy + GRID_DIAMOND_DY[i];
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)g->h || !g->cost[ny * w + nx])
				continue;
			if (i >= 4 && !f->run.corner_cutting && !grid_diamond_flanks_open(g->cost, w, g->h, vx, vy, i))
				continue;
			out[k] = ny * w + nx;
			diag[k++] = i >= 4;
		}
		return k;
	}
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

/* route.c's part of the context: allocated and freed with it (route_create
 * false: no memory; route_destroy frees what was allocated), its bytes
 * (route_memory).  Its per-cell arrays are made by the first flood_route or
 * flood_detour (route_ready), so a context that only floods never has
 * them, or by route_pretouch, which also maps their pages (flood_create
 * does on maps up to PRETOUCH_ROUTE_CELLS). */
/* Writes one byte of every page of [p, p + len), so that the kernel maps
 * them now (a memset of calloc'd memory may be dropped by the compiler). */
static inline void pages_touch(void *p, size_t len)
{
	volatile unsigned char *b = p;
	for (size_t i = 0; i < len; i += 4096)
		b[i] = b[i];
}

bool route_create(struct flood_ctx *f);
bool route_pretouch(struct flood_ctx *f); /* makes its arrays and maps their pages now (flood_create) */
void route_destroy(struct flood_ctx *f);
size_t route_memory(const struct flood_ctx *f);

#endif
