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
 * - Searches count cost in 64-bit fixed point: 1 is 2^shift and sqrt 2 is
 *   sqrt 2 * 2^shift rounded, with shift chosen per query as large as the
 *   map's worst route allows (32 for plain maps).  Every cost is then an
 *   exact integer combination of the two, so equal routes tie exactly and
 *   sums do not depend on their order.  The cost reported is summed again
 *   in double along the route, from the start, as the steps were taken.
 * - Priority: lowest f = g + weight * h; equal f goes to the larger g (the
 *   smaller h, which is the same thing); then the lower cell index.  So one
 *   query gives one path on every run, whatever the queue's history.
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
 * - Solid cells (opt->solid: walls no one can dig) are blocked cells the
 *   fallback may not enter either; a goal they wall off is PATH_NO_ROUTE.
 * - Budget: the partial path ends at the expanded cell with the lowest h,
 *   ties to the lower g, then to the one expanded first.
 */
/* madvise and MADV_POPULATE_WRITE (Linux 5.14) are outside strict POSIX.
 * Guarded: the fuzz build of the UI passes -D_DEFAULT_SOURCE (curses). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include "path.h"

#include "bigmem.h"
#include "check.h"
#include "region.h"
#include "jps_turned.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define POS_CLOSED (-1)
/* POS_STACK < pos <= POS_PENDING0: waiting for the next fallback layer; the
 * pending cells form a list, and POS_PENDING0 - pos - 1 is the next one (-1: none) */
#define POS_PENDING0 (-2)
#define POS_STACK INT32_MIN /* open, on the tie stack */
/* POS_STACK < pos <= POS_DEFERRED0: a fallback layer's cell set aside (see
 * astar_loop); POS_DEFERRED0 - pos - 1 is the next one (-1: none) */
#define POS_DEFERRED0 (-(1 << 30))
#define MAX_CELLS ((1 << 30) - 8) /* keeps the two lists' codes apart */
/* Plain A* only (no pending or deferred lists there): PQ_RING_ENTRY(e) =
 * -2 - e for a cell waiting in the bucket ring at entry e of the pool (see
 * ring_push). */
#define RING 256         /* buckets in the ring */
#define RING_WBITS 5     /* a bucket spans 1/32 of a plain step in f */
#define CHUNK 32         /* ints per pool chunk: a link, then 31 cells */
#define DIR_NONE 255
/* path_prefault: the heap's first 2^20 entries (16 MiB).  A search whose
 * open list grows past them has expanded over 100,000 cells, whose cost
 * dwarfs the page faults of the rest. */
#define PREFAULT_KEYS ((size_t)1 << 20)
/* The queue's first size, in keys (64 KiB), or the bound if smaller; it
 * grows by doubling up to the bound (queue_reserve). */
#define FIRST_KEYS ((long)1 << 12)
/* corner_share below which a square8 grid searches with JPS (measured on
 * the shared Moving AI maps: JPS wins at 0.11, plain A* at 0.32). */
#define JPS_CORNER_SHARE 0.2
/* Hex and diamond grids search with jump points (jps_turned.c) when their
 * turn share (jps_turned_turn_share) is below TURNED_SHARE: measured on the
 * shared Moving AI maps, the rooms and open maps are at 0.01-0.11 and gain
 * 2.8-19x, maze512 and random512 at 0.22-0.39 gain 1.15-2.4x (hex 1.2).
 * Not on maps of under TURNED_MIN_CELLS passable cells (arena, 49x49:
 * queries of 1-5 us, 0.98-1.17x, nothing to win), nor over TURNED_MAX_CELLS
 * cells: its context holds 33 bytes a cell (a 16-byte record and a 16-byte
 * queue key), 35 MB at the cap, where a 4096x4096 level's two game
 * contexts would grow by 1.1 GB (docs/core.md).  Diamond8 needs no share
 * (rules 20): its plain A* has no whole-step ring, and its jump search beat
 * it on every dense map measured, 1.11-1.52x on random maps of 8-45% walls,
 * maze512 1.87x, random512 1.22x; where A* goes straight the next test
 * decides. */
#define TURNED_SHARE 0.15
/* Nor where over one passable cell in TURNED_TERRAIN costs more than 1: a
 * long route then nearly always crosses some, and plain A* runs after the
 * jump search (a generated 400x300 hex level of rooms: 12 ms of plain A*
 * became 22 ms of both, the same route cost). */
#define TURNED_TERRAIN 1024L
/*
 * Nor, on any grid, where plain A* goes nearly straight: open maps whose
 * obstacles are small (pillars, scattered blocks), where the octile or hex
 * distance is nearly the true one, so A* expands little more than the
 * route, while each small obstacle still makes jump points that the scans
 * stop at.  There the jump searches took up to 2.2x plain A*'s time on every
 * grid (docs/core.md, "Where plain A* goes straight").  Measured by sample
 * queries of plain A* (near_straight): its expansions per route cell, the
 * *excess*, at most straight_excess() for the grid; on maps of at least
 * STRAIGHT_MIN_CELLS passable cells (the game's screen-sized levels keep
 * their choice).
 */
#define STRAIGHT_MIN_CELLS 4096L
#define STRAIGHT_SAMPLES 16
#define TURNED_MIN_CELLS 4096L
#define TURNED_MAX_CELLS (1 << 20)

/*
 * A cell's record is split in two arrays (docs/core.md, "The records").
 * The hot one, ctx->gw, holds one 8-byte word a cell, the only thing a
 * neighbour test reads: the searches' fixed-point g (an int64_t, below
 * 2^61: travel only in the lexicographic fallback), the floods' cost (a
 * non-negative double's bits), or plain A*'s generation and g in one word
 * (see PK_LOW).  A row of three neighbours is 24 bytes, one cache line or
 * two, where 16-byte records took two or three.  The cold one, struct
 * node, is read only for the cells whose g changes and by the queue.
 */
struct node {
	int32_t pos;     /* heap index, POS_CLOSED, POS_STACK, or a pending-layer slot */
	uint16_t stamp;  /* the record is live when stamp == ctx->gen (plain A*: see ctx->packed) */
	uint8_t dir;     /* direction (grid.c order) from this cell toward its parent; DIR_NONE at the start */
	uint8_t aux;     /* fallback_deep: the walls crossed to the cell; the square jump searches: 1
	                    on a cell a jump passed through, never queued (jps_through), else 0 */
};

/* A flood's cost in the hot word, and back. */
static inline double gd_get(const uint64_t *gw, int c)
{
	double d;
	memcpy(&d, &gw[c], sizeof d);
	return d;
}

static inline void gd_set(uint64_t *gw, int c, double d) { memcpy(&gw[c], &d, sizeof d); }

/* The open list: pqueue.h's heap, tie stack and bucket ring over these records. */
#define PQ_RECORD struct node
#define PQ_RING_SLOTS RING
#define PQ_RING_CHUNK CHUNK
#include "pqueue.h"

/*
 * A queue entry is one 128-bit key compared as an unsigned integer: f in
 * the high half (a non-negative fixed-point integer, or for floods the IEEE
 * bits of a non-negative double, which order the same way), then h shifted
 * to 32 bits (for equal f a smaller h is a larger g), then the cell.  One
 * integer compare settles the whole tie rule.
 */
typedef pq_key qkey;

/*
 * Plain A*'s word: gw = code << 48 | (PK_LOW - g), for g below 2^48, where
 * code is the query's own 16-bit code (not its generation).  Then "new
 * cell, or a cost below its g" is one compare, pk(code, ng) > gw: a word of
 * this query compares as PK_LOW - g, and every other word must compare
 * below every word of this query.  The codes come in two classes that take
 * turns, a phase each (new_generation):
 * - unsigned phases: codes 0x8000..0xffff, compared unsigned.  Every other
 *   search's word is below 2^63 (fixed-point g below 2^61, a flood's
 *   non-negative double), and so is every word of a signed phase;
 * - signed phases: codes PK_S_FIRST..0x7fff, compared as int64_t (the same
 *   compare instruction with another condition).  Every word of an
 *   unsigned phase is negative then, and the other searches' words stay
 *   below PK_S_FIRST << 48 (fixed-point g below 2^61; a flood's distance is
 *   at most n * (255 sqrt 2 + 65535) < 2^48, a double below 2^65).
 * Within a phase the codes only grow, so an older word of the same phase
 * is smaller.  A word of the phase before last would not be: the phase in
 * between sweeps every record once (the sweep, new_generation), so none is
 * left when a class comes back.  No query ever clears the whole arrays.
 */
#define PK_LOW ((UINT64_C(1) << 48) - 1)
#define PK_U_FIRST 0x8000u
#define PK_U_END 0x10000u
#define PK_S_FIRST 0x4400u
#define PK_S_END 0x8000u
/* A phase lasts at most this many generations, and sweeps every record
 * once: a record is swept at least once every 2 * PHASE_GENS < 65535
 * generations, so a 16-bit stamp never meets its value again unswept. */
#define PHASE_GENS 32000

static inline uint64_t pk(uint64_t code, int64_t g) { return code | (PK_LOW - (uint64_t)g); }
static inline int64_t pk_g(uint64_t gw) { return (int64_t)(PK_LOW - (gw & PK_LOW)); }
/* k > w in the phase's order: unsigned, or signed (sgn). */
static inline bool pk_above(uint64_t k, uint64_t w, bool sgn)
{
	return sgn ? (int64_t)k > (int64_t)w : k > w;
}

struct path_ctx {
	const struct grid *grid;
	int w, h, n;
	uint64_t *gw;          /* n hot words: g, a flood's cost, or plain A*'s word */
	struct node *node;     /* n cold records */
	struct pq queue;       /* the heap and the tie stack (pqueue.h); after a query
	                          its array holds the result cells.  queue.cap keys are
	                          allocated, grown on demand up to key_max */
	long key_max;          /* what the queue can ever need (heap_capacity) */
	bool no_memory;        /* the last query could not grow the queue */
	int pending_len;       /* cells waiting for the next fallback layer ... */
	int pending_head;      /* ... a list through their pos, from this cell (-1: empty) */
	int deferred_head;     /* the current layer's cells set aside, a list the same way */
	int32_t *pool;         /* plain A*'s bucket lists: pool_chunks chunks of CHUNK ints */
	int pool_chunks;
	int *hcount;           /* the whole-step ring's sort (whole_sort): a count per h of a bucket */
	int hcount_len;
	uint16_t gen;          /* the records' stamp of this query: never 0, which is a swept record */
	uint64_t packed;       /* plain A*'s code << 48 when the last query kept its records
	                          live by that code in the words alone, without stamps; else 0 */
	/* The phases and the sweep (new_generation) */
	bool pk_signed;        /* this phase's codes are the signed class */
	unsigned code_next, code_end; /* this phase's unused codes */
	int phase_gen;         /* generations begun in this phase */
	int phase_gens;        /* the most a phase may have: PHASE_GENS (less in tests) */
	unsigned class_codes;  /* the most codes a phase may use: a class's (less in tests) */
	int sweep_at;          /* the next record the sweep clears ... */
	int sweep_left;        /* ... and how many it has still to clear in this phase */
	int flood_source;      /* -1 when the last query was not a flood */
	int64_t s1, s2;        /* the last search's fixed-point 1 and sqrt 2 */
	uint64_t row_magic;    /* ceil(2^64 / w): row of a cell by one multiply (w >= 2) */
	bool jps_pays;         /* square8: jump points are sparse enough for JPS to beat plain A* (corner_share) */
	bool jps_via;          /* the query under way is a square jump search: a closed record of aux 1
	                          was passed through, not expanded (jps_through) */
	bool turned_pays;      /* hex, diamond: the jump search is the default (TURNED_SHARE) */
	struct jps_turned *turned; /* hex, diamond: jump point search (jps_turned.c), made at the first
	                              query that uses it (turned_pays or opt.jps_always); NULL before */
	int *one_b;            /* fallback_one: the blocked cells that may join the two regions ... */
	long one_b_cap;
	struct target *one_t;  /* ... and the start region's cells beside them; grown on demand */
	long one_t_cap;
	int *ring_buf;         /* deep_doors from a wall past its ball: the ring d = K ... */
	long ring_cap;
	struct seed *seed_buf; /* ... and the cells of home beside it, the plain loop's seeds */
	long seed_cap;
	uint8_t *deep_hi;      /* fallback_deep past 255 walls: the high byte of each count above
	                          the record's aux (deep_w); made at the first such query */
	int route_len;         /* the last answer's whole route in the queue's memory (path_route); 0 none */
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

/*
 * The share of jump-point makers on a square grid: 2x2 blocks with exactly
 * one blocked cell (each gives the free cell opposite it a forced
 * neighbour, so straight jumps past it stop there), per passable cell.
 * Rooms and caves have few (8room_000 0.11, AR0011SR 0.009), scattered
 * obstacles many (random512-10-0 0.32), where JPS finds so many jump points
 * that plain A* is faster (docs/core.md).  Counted 64 blocks a word on the
 * grid's bit rows.
 */
static double corner_share(const struct grid *g, long *passable)
{
	const int rw = g->row_words;
	long corners = 0, free_cells = 0;
	for (int y = 0; y < g->h; y++) {
		const uint64_t *r0 = g->rows + (size_t)y * (size_t)rw;
		for (int k = 0; k < rw; k++)
			free_cells += __builtin_popcountll(r0[k]);
		if (y + 1 >= g->h)
			continue;
		const uint64_t *r1 = r0 + rw;
		for (int k = 0; k < rw; k++) {
			const uint64_t a = r0[k], c = r1[k];
			const uint64_t b = a >> 1 | (k + 1 < rw ? r0[k + 1] << 63 : 0);
			const uint64_t d = c >> 1 | (k + 1 < rw ? r1[k + 1] << 63 : 0);
			/* block x spans x and x + 1; the last column has no block */
			const int last = g->w - 1 - k * 64;
			const uint64_t in = last >= 64 ? ~0ull : last <= 0 ? 0 : (1ull << last) - 1;
			const uint64_t one_blocked = (~a & b & c & d) | (a & ~b & c & d) | (a & b & ~c & d) | (a & b & c & ~d);
			corners += __builtin_popcountll(one_blocked & in);
		}
	}
	*passable = free_cells;
	return free_cells ? (double)corners / (double)free_cells : 0.0;
}

static bool near_straight(struct path_ctx *ctx);

struct path_ctx *path_create(const struct grid *g)
{
	if (!g || g->w <= 0 || g->h <= 0)
		return NULL;
	struct path_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	size_t n = (size_t)g->w * (size_t)g->h;
	if (n > (size_t)MAX_CELLS) {
		free(ctx);
		return NULL;
	}
	ctx->grid = g;
	ctx->w = g->w;
	ctx->h = g->h;
	ctx->n = (int)n;
	ctx->key_max = heap_capacity(ctx->n);
	ctx->queue.cap = ctx->key_max < FIRST_KEYS ? ctx->key_max : FIRST_KEYS;
	ctx->gw = big_calloc(n, sizeof *ctx->gw);   /* written whole by path_prefault */
	ctx->node = big_calloc(n, sizeof *ctx->node);
	ctx->queue.key = malloc((size_t)ctx->queue.cap * sizeof *ctx->queue.key);
	/* About one byte per cell; on smaller maps as many chunks as with
	 * chunks of 16 ints (up to RING / 2 more), since every bucket in use
	 * holds one. */
	ctx->pool_chunks = ctx->key_max / 128 + 1 + (ctx->key_max / 128 < RING / 2 ? ctx->key_max / 128 : RING / 2);
	ctx->pool = malloc((size_t)ctx->pool_chunks * CHUNK * sizeof *ctx->pool);
	/* h in steps is below 2 (w + h) on every grid: one count each */
	ctx->hcount_len = 2 * (ctx->w + ctx->h) + 2;
	ctx->hcount = malloc((size_t)ctx->hcount_len * sizeof *ctx->hcount);
	if (!ctx->gw || !ctx->node || !ctx->queue.key || !ctx->pool || !ctx->hcount) {
		path_destroy(ctx);
		return NULL;
	}
	ctx->gen = 0;
	/* The arrays start cleared: the first phase has nothing to sweep. */
	ctx->phase_gens = PHASE_GENS;
	ctx->class_codes = PK_U_END - PK_U_FIRST;
	ctx->pk_signed = false;
	ctx->code_next = PK_U_FIRST;
	ctx->code_end = PK_U_END;
	ctx->flood_source = -1;
	ctx->s1 = 1;
	ctx->s2 = 1;
	ctx->row_magic = UINT64_MAX / (uint64_t)ctx->w + 1;
	/* JPS pays only where jump points are sparse (docs/core.md): on square8
	 * and, since plain square4 A* runs in the whole-step ring (1.8-2x
	 * faster: hexring, 2026-11-30), on square4 too: random512 (0.32)
	 * searches plain, the rooms and open maps by jumps. */
	long passable = 0;
	if (g->topo == GRID_SQUARE8 || g->topo == GRID_SQUARE4)
		ctx->jps_pays = corner_share(g, &passable) < JPS_CORNER_SHARE;
	/* hex and diamond: where jump points are sparse (rules 7) */
	if ((g->topo == GRID_HEX || grid_is_diamond(g->topo)) && n <= (size_t)TURNED_MAX_CELLS) {
		long terrain;
		const double share = jps_turned_turn_share(g, &passable, &terrain);
		ctx->turned_pays = passable >= TURNED_MIN_CELLS &&
				   (share < TURNED_SHARE || g->topo == GRID_DIAMOND8) &&
				   terrain * TURNED_TERRAIN < passable;
	}
	/* but not where plain A* goes nearly straight (rules 20) */
	if ((ctx->jps_pays || ctx->turned_pays) && passable >= STRAIGHT_MIN_CELLS && near_straight(ctx))
		ctx->jps_pays = ctx->turned_pays = false;
	return ctx;
}

const char *path_auto_search(const struct path_ctx *ctx)
{
	return ctx && (ctx->jps_pays || ctx->turned_pays) ? "jumps" : "plain";
}

void path_destroy(struct path_ctx *ctx)
{
	if (!ctx)
		return;
	free(ctx->gw);
	free(ctx->node);
	free(ctx->queue.key);
	free(ctx->pool);
	free(ctx->hcount);
	jps_turned_destroy(ctx->turned);
	free(ctx->one_b);
	free(ctx->one_t);
	free(ctx->ring_buf);
	free(ctx->seed_buf);
	free(ctx->deep_hi);
	free(ctx);
}

size_t path_memory(const struct path_ctx *ctx)
{
	if (!ctx)
		return 0;
	return sizeof *ctx + (size_t)ctx->n * (sizeof *ctx->gw + sizeof *ctx->node) + (size_t)ctx->queue.cap * sizeof *ctx->queue.key +
	       (size_t)ctx->pool_chunks * CHUNK * sizeof *ctx->pool + (size_t)ctx->hcount_len * sizeof *ctx->hcount +
	       jps_turned_memory(ctx->turned) + (ctx->deep_hi ? (size_t)ctx->n : 0);
}

/*
 * Makes room for `need` keys in the queue: the heap keeps the front, the
 * tie stack the end.  The array grows by doubling up to key_max, so a
 * context reaches the size its largest query needs after a few growths and
 * then never allocates again (and path_prefault gives the game's context
 * its first 2^20 keys at once).  The queue holds only the open cells, and
 * plain square8 A* only the current bucket's: on a 4096 x 4096 level the
 * bound is 238 MB, which few queries come near.  False, with the query
 * marked, when the memory is not there.
 */
static __attribute__((noinline)) bool queue_grow(struct path_ctx *ctx, long need)
{
	struct pq *q = &ctx->queue;
	/* The bound holds every open cell (and every result), whatever a
	 * caller's margin asks for. */
	if (need > ctx->key_max)
		need = ctx->key_max;
	if (need <= q->cap)
		return true;
	long cap = q->cap * 2 > need ? q->cap * 2 : need;
	if (cap > ctx->key_max)
		cap = ctx->key_max;
	if (!pq_resize(q, cap)) {
		ctx->no_memory = true;
		return false;
	}
	return true;
}

static inline bool queue_reserve(struct path_ctx *ctx, long need)
{
	return need <= ctx->queue.cap || queue_grow(ctx, need);
}

/* Room for `more` keys beyond those queued. */
static inline bool queue_room(struct path_ctx *ctx, long more)
{
	return queue_reserve(ctx, ctx->queue.heap_len + ctx->queue.stack_len + more);
}

/* Room for n result cells (ints) in the queue's memory. */
static inline int *result_cells(struct path_ctx *ctx, long n)
{
	if (!queue_reserve(ctx, (n * (long)sizeof(int) + (long)sizeof(pq_key) - 1) / (long)sizeof(pq_key)))
		return NULL;
	return (int *)(void *)ctx->queue.key;
}

void path_prefault(struct path_ctx *ctx)
{
	if (!ctx)
		return;
	big_populate(ctx->gw, (size_t)ctx->n * sizeof *ctx->gw);
	big_populate(ctx->node, (size_t)ctx->n * sizeof *ctx->node);
	big_populate(ctx->pool, (size_t)ctx->pool_chunks * CHUNK * sizeof *ctx->pool);
	const size_t keys = (size_t)ctx->key_max < PREFAULT_KEYS ? (size_t)ctx->key_max : PREFAULT_KEYS;
	(void)queue_reserve(ctx, (long)keys); /* without the memory, the queue grows later */
	big_populate(ctx->queue.key, (size_t)ctx->queue.cap * sizeof *ctx->queue.key);
}

/*
 * A new generation: every record becomes stale at once, by its stamp, or
 * for plain A*'s words by the code its query takes (next_code).  Each call
 * also sweeps a slice of the records (clears them: all are stale now), so
 * that each phase clears every record once; it ends when its generations
 * or its codes run out, and the slice is what is left over what remains of
 * either, so the sweep is done by then.  On a 4096x4096 level that is
 * 8 KiB a query where the whole 268 MB was cleared every 32,767 queries.
 */
static void new_generation(struct path_ctx *ctx)
{
	if (ctx->phase_gen >= ctx->phase_gens || ctx->code_next >= ctx->code_end) {
		ctx->pk_signed = !ctx->pk_signed;
		const unsigned first = ctx->pk_signed ? PK_S_FIRST : PK_U_FIRST;
		const unsigned end = ctx->pk_signed ? PK_S_END : PK_U_END;
		ctx->code_next = first;
		ctx->code_end = end - first < ctx->class_codes ? end : first + ctx->class_codes;
		ctx->phase_gen = 0;
		ctx->sweep_at = 0;
		ctx->sweep_left = ctx->n;
	}
	ctx->phase_gen++;
	ctx->gen++;
	if (ctx->gen == 0)
		ctx->gen = 1;
	if (ctx->sweep_left > 0) {
		/* generations left in the phase, this one counted, and codes left */
		long budget = ctx->phase_gens - ctx->phase_gen + 1;
		if ((long)(ctx->code_end - ctx->code_next) < budget)
			budget = (long)(ctx->code_end - ctx->code_next);
		if (budget < 1)
			budget = 1;
		const long k = ((long)ctx->sweep_left + budget - 1) / budget;
		memset(ctx->gw + ctx->sweep_at, 0, (size_t)k * sizeof *ctx->gw);
		memset(ctx->node + ctx->sweep_at, 0, (size_t)k * sizeof *ctx->node);
		ctx->sweep_at += (int)k;
		ctx->sweep_left -= (int)k;
	}
	ctx->queue.heap_len = 0;
	ctx->pending_len = 0;
	ctx->pending_head = -1;
	ctx->deferred_head = -1;
	ctx->queue.stack_len = 0;
	ctx->flood_source = -1;
	ctx->packed = 0;
	ctx->jps_via = false;
	ctx->no_memory = false;
	ctx->route_len = 0;
}

/* Plain A*'s code for the query under way (one a generation at most: the
 * phase still has one, or new_generation would have begun the next). */
static uint64_t next_code(struct path_ctx *ctx)
{
	CHECK(ctx->code_next < ctx->code_end);
	return (uint64_t)ctx->code_next++ << 48;
}

void path_set_phases(struct path_ctx *ctx, int gens, int codes)
{
	if (!ctx)
		return;
	ctx->phase_gens = gens >= 1 && gens <= PHASE_GENS ? gens : PHASE_GENS;
	ctx->class_codes = codes >= 1 ? (unsigned)codes : PK_U_END - PK_U_FIRST;
}

/* ---- the priority queue: a 4-ary heap with decrease-key, and a tie stack ---- */

static inline qkey make_key(uint64_t f, uint32_t h, int cell)
{
	return (qkey)f << 64 | (qkey)((uint64_t)h << 32 | (uint32_t)cell);
}

static inline qkey double_key(double f, int cell)
{
	uint64_t fb;
	memcpy(&fb, &f, sizeof fb);
	return make_key(fb, 0, cell);
}


/* No f has these bits: disables the tie stack. */
#define NO_TIE_F UINT64_MAX

static inline void sift_up(struct path_ctx *ctx, int i, qkey e)
{
	pq_sift_up(&ctx->queue, ctx->node, i, e);
}

/* Queues k on the heap, or on the tie stack when its f is tie_f (pqueue.h). */
static inline void queue_push(struct path_ctx *ctx, qkey k, uint64_t tie_f)
{
	pq_push(&ctx->queue, ctx->node, k, tie_f, POS_STACK);
}

static inline qkey queue_peek(const struct path_ctx *ctx) { return pq_peek(&ctx->queue); }

/* Removes and returns the least key; its cell is closed. */
static inline qkey queue_pop(struct path_ctx *ctx)
{
	const qkey top = pq_pop(&ctx->queue, ctx->node);
	ctx->node[pq_cell(top)].pos = POS_CLOSED;
	return top;
}

/* The pending layer is a list threaded through the cells' pos fields, so
 * it takes no queue space (its order does not matter: keys are unique). */
static inline void pending_add(struct path_ctx *ctx, int cell)
{
	ctx->pending_len++;
	ctx->node[cell].pos = POS_PENDING0 - (ctx->pending_head + 1);
	ctx->pending_head = cell;
}

static inline bool is_pending(int32_t pos) { return pos <= POS_PENDING0 && pos > POS_DEFERRED0; }
static inline bool is_deferred(int32_t pos) { return pos <= POS_DEFERRED0 && pos != POS_STACK; }

/* ---- topology tables ---- */

/* The neighbour offsets are grid.h's (GRID_SQUARE_DX/DY, GRID_HEX_DX/DY):
 * their order decides ties.  The index of the opposite direction in the
 * same tables, for the step back to a parent. */
static const uint8_t sq_opp[8] = { 3, 2, 1, 0, 7, 6, 5, 4 };
static const uint8_t hx_opp[6] = { 1, 0, 5, 4, 3, 2 };

static inline int iabs(int v) { return v < 0 ? -v : v; }

/*
 * The passable cells around an interior square8 cell as 9 bits, column by
 * column: bit 0 NW, 1 W, 2 SW, 3 N, 4 the cell, 5 S, 6 NE, 7 E, 8 SE.  Each
 * row in one word (byte lanes 0, 1, 2 = columns x - 1, x, x + 1), the three
 * bytes tested for non-zero at once, then shifts.  On a little-endian
 * machine a row is one 4-byte load, within the grid for an interior cell:
 * the row below is read from x - 2, so its lanes are 1, 2, 3.
 */
static inline void sq8_rows(const uint8_t *c, int w, uint32_t *a, uint32_t *m, uint32_t *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(a, c - w - 1, sizeof *a);
	memcpy(m, c - 1, sizeof *m);
	memcpy(b, c + w - 2, sizeof *b);
	*b >>= 8;
#else
	*a = (uint32_t)c[-w - 1] | (uint32_t)c[-w] << 8 | (uint32_t)c[-w + 1] << 16;
	*m = (uint32_t)c[-1] | (uint32_t)c[0] << 8 | (uint32_t)c[1] << 16;
	*b = (uint32_t)c[w - 1] | (uint32_t)c[w] << 8 | (uint32_t)c[w + 1] << 16;
#endif
}

/* Bit 0 of each byte lane: the byte is non-zero. */
static inline uint32_t nonzero_lanes(uint32_t v)
{
	const uint32_t lo7 = 0x7f7f7f7fu;
	return ((((v & lo7) + lo7) | v) & 0x80808080u) >> 7;
}

/* Three rows' lane bits (bit 0 of lanes 0, 1, 2) to the nine bits. */
static inline unsigned sq8_pack(uint32_t a, uint32_t m, uint32_t b)
{
	const uint32_t x = (a | m << 1 | b << 2) & 0x00070707u;
	return (x & 7u) | (x >> 5 & 0x38u) | (x >> 10 & 0x1c0u);
}

/* No cell of the rows (lanes 0, 1, 2) costs more than 1: each byte is its
 * own lane bit. */
static inline bool sq8_unit_rows(uint32_t a, uint32_t m, uint32_t b)
{
	return ((a | m | b) & 0x00fefefeu) == 0;
}

/* The nine bits of sq8_pack (a cell and its eight neighbours) to moves in
 * grid.h order (N, W, E, S, NW, NE, SW, SE):
 * [0] without corner cutting (a diagonal needs both orthogonal cells), [1] with. */
#define AB(i, k) (((i) >> (k)) & 1)
#define MOVES_CC(i) (AB(i, 3) | AB(i, 1) << 1 | AB(i, 7) << 2 | AB(i, 5) << 3 | AB(i, 0) << 4 | \
		     AB(i, 6) << 5 | AB(i, 2) << 6 | AB(i, 8) << 7)
#define MOVES_NC(i) (MOVES_CC(i) & (0x0fu | (AB(i, 0) & AB(i, 3) & AB(i, 1)) << 4 |    \
		     (AB(i, 6) & AB(i, 3) & AB(i, 7)) << 5 | (AB(i, 2) & AB(i, 5) & AB(i, 1)) << 6 | \
		     (AB(i, 8) & AB(i, 5) & AB(i, 7)) << 7))
#define X4(F, i) F(i), F((i) + 1), F((i) + 2), F((i) + 3)
#define X16(F, i) X4(F, i), X4(F, (i) + 4), X4(F, (i) + 8), X4(F, (i) + 12)
#define X64(F, i) X16(F, i), X16(F, (i) + 16), X16(F, (i) + 32), X16(F, (i) + 48)
#define X256(F, i) X64(F, i), X64(F, (i) + 64), X64(F, (i) + 128), X64(F, (i) + 192)
static const uint8_t sq8_moves[2][512] = {
	{ X256(MOVES_NC, 0), X256(MOVES_NC, 256) },
	{ X256(MOVES_CC, 0), X256(MOVES_CC, 256) },
};
#undef X256
#undef X64
#undef X16
#undef X4
#undef MOVES_NC
#undef MOVES_CC
#undef AB

/*
 * cell / w without a division: with magic = ceil(2^64 / w) the error of
 * cell * magic / 2^64 is cell * (magic * w - 2^64) / (w * 2^64) < 1 / w,
 * since cell < 2^31 and magic * w - 2^64 < w < 2^31; so the floor is exact.
 */
static inline int cell_row(const struct path_ctx *ctx, int cell)
{
	if (ctx->w == 1)
		return cell;
	return (int)(((qkey)(uint64_t)cell * ctx->row_magic) >> 64);
}

/* cell_row without its test of w == 1: plain square8 A* (the bucket ring)
 * runs only on maps at least 2 wide (astar), where the magic holds. */
static inline int cell_row_wide(const struct path_ctx *ctx, int cell)
{
	return (int)(((qkey)(uint64_t)cell * ctx->row_magic) >> 64);
}

/* The heuristic in fixed point (s1 = 1, s2 = sqrt 2). */
static inline int64_t heuristic(enum grid_topology topo, int x, int y, int gx, int gy, int64_t s1,
				int64_t s2)
{
	switch (topo) {
	case GRID_SQUARE4:
		return (int64_t)(iabs(x - gx) + iabs(y - gy)) * s1;
	case GRID_SQUARE8: {
		int dx = iabs(x - gx), dy = iabs(y - gy);
		int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
		return (int64_t)hi * s1 + (int64_t)lo * (s2 - s1);
	}
	case GRID_DIAMOND4:
	case GRID_DIAMOND8: {
		/* Manhattan or octile in u = (X + Y) / 2, v = (Y - X) / 2 */
		const int dX = (2 * x + (y & 1)) - (2 * gx + (gy & 1)), dY = y - gy;
		const int du = iabs(dX + dY) / 2, dv = iabs(dY - dX) / 2;
		if (topo == GRID_DIAMOND4)
			return (int64_t)(du + dv) * s1;
		const int lo = du < dv ? du : dv, hi = du < dv ? dv : du;
		return (int64_t)hi * s1 + (int64_t)lo * (s2 - s1);
	}
	case GRID_HEX:
		break;
	}
	int dx = iabs((2 * x + (y & 1)) - (2 * gx + (gy & 1))), dy = iabs(y - gy);
	return (int64_t)(dy + (dx > dy ? (dx - dy) / 2 : 0)) * s1;
}

/* The cell one step from `cell` in direction d (known to be in the map). */
static inline int step_cell(const struct path_ctx *ctx, int cell, int d)
{
	if (grid_is_square(ctx->grid->topo))
		return cell + GRID_SQUARE_DY[d] * ctx->w + GRID_SQUARE_DX[d]; /* no division */
	int x = cell % ctx->w, y = cell / ctx->w;
	if (ctx->grid->topo == GRID_HEX)
		return (y + GRID_HEX_DY[d]) * ctx->w + x + GRID_HEX_DX[y & 1][d];
	if (grid_is_diamond(ctx->grid->topo))
		return (y + GRID_DIAMOND_DY[d]) * ctx->w + x + GRID_DIAMOND_DX[y & 1][d];
	return (y + GRID_SQUARE_DY[d]) * ctx->w + x + GRID_SQUARE_DX[d];
}

static inline bool live(const struct path_ctx *ctx, int cell)
{
	if (ctx->packed)
		return (ctx->gw[cell] & ~PK_LOW) == ctx->packed;
	return ctx->node[cell].stamp == ctx->gen;
}

static inline bool closed(const struct path_ctx *ctx, int cell)
{
	return live(ctx, cell) && ctx->node[cell].pos == POS_CLOSED;
}

/* The previous cell on the route to `cell`: its neighbour for A* and floods
 * (a square jump search's chain: jps_parent). */
static inline int parent_of(const struct path_ctx *ctx, int cell)
{
	const int d = ctx->node[cell].dir;
	return d == DIR_NONE ? -1 : step_cell(ctx, cell, d);
}

/* ---- the result ---- */

/* The answer when the queue could not grow (status PATH_BAD_INPUT). */
static void no_memory_result(struct path_result *out, long expanded)
{
	*out = (struct path_result){ .status = PATH_BAD_INPUT, .cells = NULL, .len = 0, .end = -1,
				     .expanded = expanded, .first_blocked = -1 };
}

static void single_cell_result(struct path_ctx *ctx, int start, int goal, enum path_status status,
			       struct path_result *out)
{
	int *cells = (int *)(void *)ctx->queue.key;
	cells[0] = start;
	ctx->route_len = 1;
	out->status = status;
	out->cells = cells;
	out->len = 1;
	out->end = start;
	out->cost = 0.0;
	out->steps = 0;
	out->expanded = 0;
	out->reached = start == goal;
	out->blocked_crossed = 0;
	out->first_blocked = -1;
}

/* The cost of cells[0..len-1] in double, summed from the start as the
 * search's rules charge each step (step * terrain (+ extra), or step + P
 * into a blocked cell). */
static double route_cost(const struct path_ctx *ctx, const int *cells, int len, double penalty,
			 const uint16_t *extra)
{
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w;
	double g = 0.0;
	for (int i = 1; i < len; i++) {
		const int a = cells[i - 1], v = cells[i];
		double step = 1.0;
		/* square8: a step of 1 or w is straight, w +- 1 diagonal (for w > 2
		 * the four differences are distinct; no division per step) */
		if (ctx->grid->topo == GRID_SQUARE8 &&
		    (w > 2 ? iabs(v - a) != 1 && iabs(v - a) != w : a % w != v % w && a / w != v / w))
			step = GRID_SQRT2;
		else if (ctx->grid->topo == GRID_DIAMOND8 && iabs(a / w - v / w) != 1)
			step = GRID_SQRT2; /* a corner step: same row, or two rows apart */
		if (cost[v]) {
			g = g + step * (double)cost[v];
			if (extra)
				g += (double)extra[v];
		} else {
			g = g + step + penalty;
		}
	}
	return g;
}

/* Writes the route ending at `end` into the result buffer, cut before the
 * first blocked cell after the start when `cut` is set. */
static void build_result(struct path_ctx *ctx, int start, int goal, int end, bool cut,
			 enum path_status status, long expanded, double penalty,
			 const uint16_t *extra, struct path_result *out)
{
	const uint8_t *cost = ctx->grid->cost;
	int len = 0;
	for (int c = end; c != -1; c = parent_of(ctx, c))
		len++;
	int *cells = result_cells(ctx, len);
	if (!cells) {
		no_memory_result(out, expanded);
		return;
	}
	int i = len;
	int blocked = 0, first_blocked = -1;
	for (int c = end; c != -1; c = parent_of(ctx, c)) {
		cells[--i] = c;
		if (c != start && !cost[c]) {
			blocked++;
			first_blocked = i;
		}
	}
	ctx->route_len = len;
	if (cut && first_blocked >= 0)
		len = first_blocked;
	out->status = status;
	out->cells = cells;
	out->len = len;
	out->end = cells[len - 1];
	out->cost = route_cost(ctx, cells, len, penalty, extra);
	out->steps = len - 1;
	out->expanded = expanded;
	out->reached = out->end == goal;
	out->blocked_crossed = blocked;
	out->first_blocked = first_blocked >= 0 ? cells[first_blocked] : -1;
	if (status == PATH_FOUND && !out->reached)
		out->status = PATH_FALLBACK;
}

/* ---- the general search ---- */

enum wmode { W_DIJKSTRA, W_ASTAR, W_WEIGHTED };

/*
 * Targets of a search: fallback_one's first layer (NULL in every other
 * search).  The search records the g and the rank of each target's pop,
 * and stops at the first pop whose f exceeds `bound`, the least g + togo
 * of the targets popped so far (see fallback_one); with `first_wins`
 * (deep_plain) at the first whose f reaches it.
 */
struct target {
	int cell;
	int32_t order;  /* the rank of its pop among the targets' pops; -1 before */
	int64_t togo;   /* the cost of a real route on from it to the goal */
	int64_t g;      /* its g at its pop */
};

/* A cell the search starts from, at fixed-point cost g, its parent one
 * step `dir` away (struct search's seeds). */
struct seed {
	int cell;
	int64_t g;
	uint8_t dir;
};

struct targets {
	struct target *t; /* sorted by cell */
	int n, lo;        /* lo: the least cell; span: the largest minus it */
	unsigned span;
	int pops;
	uint16_t gen;     /* the generation they describe (astar() may start a search again) */
	uint64_t bound;
	/* deep_plain: only the best target counts, the first popped among
	 * equals, so the search stops at the first pop whose f reaches the
	 * bound: a target popped from then on has g + togo >= its f >= the
	 * bound (togo >= h), and if equal it was popped later.  fallback_one
	 * needs every cell of f up to the bound (its layer 1 reads them all). */
	bool first_wins;
	/* deep_doors: the search stops at the pop of the last target, every
	 * target's g exact (the bound is not used) */
	bool all;
};

struct search {
	int start, goal, gx, gy;
	enum wmode wmode;
	double weight;
	int64_t s1, s2;        /* fixed-point 1 and sqrt 2 */
	int hshift;            /* h >> hshift fits the key's 32 bits */
	int64_t penalty;       /* finite P in fixed point, or 0 in lexicographic mode */
	int extra_shift;       /* extra[v] << extra_shift is its fixed-point cost */
	bool fallback, layered, corner_cutting;
	long budget;
	const uint16_t *extra;
	const uint8_t *solid;  /* fallback: blocked cells it may not enter either; NULL none */
	struct targets *tg;    /* fallback_one's first layer; NULL none */
	bool doors;            /* path_options.deep_doors */
	/* deep_doors from a wall past its ball: the search starts from these
	 * open cells at their g (each with its parent's direction) instead of
	 * the start; the queue has room for them */
	const struct seed *seeds;
	int n_seeds;
	const atomic_int *stop; /* path_options.stop: looked at with the budget */
};

/* weight * h in fixed point. */
static inline int64_t weighted(const struct search *s, int64_t h)
{
	if (s->wmode == W_ASTAR)
		return h;
	if (s->wmode == W_DIJKSTRA)
		return 0;
	return (int64_t)(s->weight * (double)h);
}

/* The queue key of `cell` with cost g and heuristic h. */
static inline qkey search_key(const struct search *s, int cell, int64_t g, int64_t h)
{
	return make_key((uint64_t)(g + weighted(s, h)),
			s->wmode == W_DIJKSTRA ? 0 : (uint32_t)((uint64_t)h >> s->hshift), cell);
}

/*
 * Chooses the fixed point: the largest shift (at most 32) such that no
 * route on the map, nor f on it, can reach 2^61.  Plain maps up to about
 * 2000 x 2000 get 32 bits of fraction (sqrt 2 off by under 2^-33 a step).
 */
static void choose_scale(const struct path_ctx *ctx, const struct path_options *opt,
			 struct search *s)
{
	const double penalty = opt->fallback && opt->penalty > 0 ? opt->penalty : 0.0;
	const double weight = s->weight > 1.0 ? s->weight : 1.0;
	const double side = (double)ctx->w + (double)ctx->h;
	const double bound = (double)ctx->n * (255.0 * GRID_SQRT2 + (opt->extra ? 65535.0 : 0.0) +
					       penalty + 2.0) +
			     weight * 2.0 * side + 1.0;
	const double limit = 2305843009213693952.0; /* 2^61 */
	int shift = 32;
	double scaled = bound * 4294967296.0;
	while (shift > 0 && scaled > limit) {
		shift--;
		scaled *= 0.5;
	}
	s->s1 = (int64_t)1 << shift;
	s->s2 = (int64_t)(GRID_SQRT2 * (double)s->s1 + 0.5);
	s->extra_shift = shift;
	s->penalty = s->layered ? 0 : (int64_t)(penalty * (double)s->s1 + 0.5);
	/* Largest h: below 2 * (w + h) steps. */
	double hmax = 2.0 * side * (double)s->s1;
	s->hshift = 0;
	while (hmax >= 4294967296.0) {
		s->hshift++;
		hmax *= 0.5;
	}
}

/*
 * Plain square8 A*'s bucket ring (and diamond8's with targets:
 * astar_diamond8_ring; hex's, square4's and diamond4's, whose current
 * bucket is kept otherwise: whole_ring).  With a consistent heuristic no key
 * pushed has an f below the f just popped, nor above it by more than twice
 * the step just taken.  So the open cells are sorted into buckets of width W (a
 * power of two, 1/32 of a plain step) by floor(f / W): only the lowest
 * bucket, the current one, is ordered (a sorted run or a heap, with the
 * tie stack; see ring_advance); the others are unsorted lists in a ring of
 * RING slots, ordered when their turn comes.  Every key in the current
 * bucket is below every key elsewhere, so the order is exactly the
 * heap's, on a small fraction of the keys.
 *
 * The lists hold cell indices in chunks taken from ctx->pool (slot 0 of a
 * chunk links the previous chunk of the same list).  A listed cell's pos
 * is its entry's place in the pool; when a cell improves it is listed
 * again (or goes to the current bucket) and its old entry is overwritten
 * with -1, which the drain skips.  Should a key fall outside the ring (large
 * terrain multipliers) or the pool run out, every listed cell goes into
 * the heap and the query goes on with the heap alone.
 */
struct ring {
	struct pq_ring lists;  /* the slots (pqueue.h); lists.bucket is floor(f / W) of the current one */
	int wshift;            /* W = 2^wshift */
	bool run;              /* the current bucket is a run, not a heap (see ring_advance) */
};

static inline void ring_init(const struct path_ctx *ctx, struct ring *rg, const struct search *s,
			     uint64_t f0)
{
	const int shift = __builtin_ctzll((uint64_t)s->s1);
	const bool on = shift > RING_WBITS && ctx->pool_chunks > 0;
	rg->wshift = shift - RING_WBITS;
	rg->run = false;
	rg->lists.pool = ctx->pool;
	rg->lists.pool_chunks = ctx->pool_chunks;
	pq_ring_reset(&rg->lists, on ? f0 >> rg->wshift : 0, on);
}

/* The queue key of an open cell, from its record. */
static inline qkey open_key(const struct path_ctx *ctx, const struct search *s, const enum grid_topology topo,
			    int cell)
{
	const int y = cell_row_wide(ctx, cell), x = cell - y * ctx->w;
	return search_key(s, cell, pk_g(ctx->gw[cell]), heuristic(topo, x, y, s->gx, s->gy, s->s1, s->s2));
}

/* What open_key reads, for pq_ring_drain. */
struct open_env {
	const struct path_ctx *ctx;
	const struct search *s;
};

/* square8's, and diamond8's (the ring with targets: astar).  Square8's
 * also fetches the rows above and below the cell, its hot words and its
 * cold records (which its expansion writes): the bucket's cells are
 * expanded soon, and are spread over the band of the bucket's f, so those
 * rows mostly miss the first cache.  The drain reads no record now (stale
 * entries are -1), so these fetches run ahead of it: with them, 2-7% less
 * time an expansion on the shared maps; without the -1 entries, 0-4%.
 * Addresses by integer arithmetic: a first or last row's cell fetches
 * outside the arrays, which a prefetch may do. */
static inline qkey open_env_key(const void *env, int cell)
{
	const struct open_env *e = env;
	const uintptr_t at = (uintptr_t)e->ctx->gw + (uintptr_t)cell * sizeof(uint64_t),
			wb = (uintptr_t)e->ctx->w * sizeof(uint64_t);
	__builtin_prefetch((const void *)(at - wb));
	__builtin_prefetch((const void *)(at + wb));
	const uintptr_t nat = (uintptr_t)e->ctx->node + (uintptr_t)cell * sizeof(struct node),
			nw = (uintptr_t)e->ctx->w * sizeof(struct node);
	__builtin_prefetch((const void *)(nat - nw), 1);
	__builtin_prefetch((const void *)(nat + nw), 1);
	return open_key(e->ctx, e->s, GRID_SQUARE8, cell);
}

/* Diamond8's, as square8's but over the two rows each way that its steps
 * reach (N and S are two rows away): 8room 1.06x and maze512 1.05-1.08x
 * an expansion, the rest 0.98-1.04 (docs/perf-log.md, thirty-fifth
 * session).  The cell's own record alone was level. */
static inline qkey open_env_key_d8(const void *env, int cell)
{
	const struct open_env *e = env;
	for (int k = -2; k <= 2; k++) {
		if (k == 0)
			continue;
		const uintptr_t off = (uintptr_t)(intptr_t)(k * e->ctx->w + cell);
		__builtin_prefetch((const void *)((uintptr_t)e->ctx->gw + off * sizeof(uint64_t)));
		__builtin_prefetch((const void *)((uintptr_t)e->ctx->node + off * sizeof(struct node)), 1);
	}
	return open_key(e->ctx, e->s, GRID_DIAMOND8, cell);
}

/*
 * The whole-step grids' (whole_ring).  Each fetches the cell's own record
 * for writing: the pop stores POS_CLOSED there.  The drain used to read
 * and write that record (its pos) and so brought it in; without that
 * (astar8) hex was 2-6% slower and square4 about 2%, and with the fetch
 * level on hex and 2-6% faster on square4 and diamond4 than before astar8
 * (docs/perf-log.md, thirty-fifth session).  The rows around the cell, as
 * square8 fetches them, were no gain here: a whole-step bucket holds
 * thousands of cells, expanded long after the drain.
 */
static inline qkey open_env_key_hex(const void *env, int cell)
{
	const struct open_env *e = env;
	__builtin_prefetch(&e->ctx->node[cell], 1);
	return open_key(e->ctx, e->s, GRID_HEX, cell);
}

static inline qkey open_env_key_s4(const void *env, int cell)
{
	const struct open_env *e = env;
	__builtin_prefetch(&e->ctx->node[cell], 1);
	return open_key(e->ctx, e->s, GRID_SQUARE4, cell);
}

static inline qkey open_env_key_d4(const void *env, int cell)
{
	const struct open_env *e = env;
	__builtin_prefetch(&e->ctx->node[cell], 1);
	return open_key(e->ctx, e->s, GRID_DIAMOND4, cell);
}

/*
 * The grids whose steps cost whole steps (hex, square4, diamond4): with no
 * extra costs every g and h there, and so every f, is a whole number of
 * fixed-point steps s1, and a bucket of the ring (1/32 of a step) holds one
 * f.  Plain A* then keeps the current bucket otherwise (whole_sort and
 * ring_push): see docs/core.md, "The whole-step ring".
 */
static inline bool whole_ring(const enum grid_topology topo)
{
	return topo == GRID_HEX || topo == GRID_SQUARE4 || topo == GRID_DIAMOND4;
}

/*
 * Plain A* lists by entry (pqueue.h's by_entry): a listed cell's pos is
 * PQ_RING_ENTRY(e) of its entry e in the pool (below -1 and above
 * POS_STACK: e < 2^28).  A listed cell whose g improves is listed again,
 * in whatever bucket (or goes to the current one), and its old entry is
 * overwritten with -1 (ring_push): so every entry the drain meets is live
 * or -1, and it reads no cell's record to tell them apart (those reads,
 * spread over the bucket's band, were the drain's cache misses).
 */
/* Whether `pos` (below -1, not POS_STACK) of cell v is its entry in a
 * list; else v was drained into the current bucket's run. */
static inline bool ring_listed(const struct ring *rg, int32_t pos, int v)
{
	return rg->lists.pool[PQ_RING_ENTRY(pos)] == v;
}

/* Empties slot r: its live cells are appended to the heap, newest first
 * (so not in heap order), and its chunks given back.  By entry
 * (pq_ring_drain's by_entry): no record is read or written.  A drained
 * cell keeps its old entry's code as pos, and that entry is overwritten
 * with -1, so ring_listed tells it from a listed cell; the run's cells get
 * a pos only if the run becomes a heap (ring_heap), which is when one is
 * needed. */
static inline __attribute__((always_inline)) bool ring_drain(struct path_ctx *ctx, struct ring *rg,
							      const struct search *s, const enum grid_topology topo,
							      int r)
{
	/* Room first: the chunks ever taken bound every slot's cells, and
	 * the expansion under way (ring_flush) may push 8 more after them. */
	if (!queue_room(ctx, (long)rg->lists.next_chunk * (CHUNK - 1) + 8))
		return false;
	const struct open_env env = { ctx, s };
	pq_ring_drain(&rg->lists, &ctx->queue, ctx->node, r, true, true,
		      topo == GRID_DIAMOND8 ? open_env_key_d8 : topo == GRID_HEX ? open_env_key_hex
			      : topo == GRID_SQUARE4 ? open_env_key_s4 : topo == GRID_DIAMOND4 ? open_env_key_d4
			      : open_env_key, &env);
	return true;
}

/*
 * The whole-step ring's bucket, drained into key[0 .. m), sorted as a run
 * (falling order, the least last) by its keys' h field, a count per value
 * (all its keys share f), then by insertion within each group of equal h
 * (the cells of one h, drained newest first, in no order).  On hex a
 * bucket holds thousands of keys in hundreds of h values: the insertion sort
 * alone moved a key past RUN_MOVES and gave the bucket to the heap (deep2).
 * False, nothing moved, when the bucket's h span more values than
 * ctx->hcount has (not on a map's own h), when its first and last keys
 * do not share f (weighted A*, whose f are not whole steps), or when the
 * queue cannot hold the copy: the caller sorts as before.
 */
static __attribute__((noinline)) bool whole_sort(struct path_ctx *ctx, const struct search *s)
{
	const long m = ctx->queue.heap_len;
	if (!queue_reserve(ctx, 2 * m + 8))
		return false;
	qkey *a = ctx->queue.key, *b = a + m;
	/* h >> hshift in the key: distinct h of whole steps lie 2^z apart */
	const int shift = __builtin_ctzll((uint64_t)s->s1);
	const int z = shift > s->hshift ? shift - s->hshift : 0;
	/* a weighted search's bucket holds many f (astar_loop_weighted): told
	 * by its first and last key, at no cost to plain A*'s; one that passes
	 * is still sorted right, the insertion below comparing whole keys */
	if (pq_f(a[0]) != pq_f(a[m - 1]))
		return false;
	uint32_t lo = UINT32_MAX, hi = 0;
	for (long i = 0; i < m; i++) {
		const uint32_t hk = (uint32_t)(uint64_t)(a[i] >> 32);
		lo = hk < lo ? hk : lo;
		hi = hk > hi ? hk : hi;
	}
	const uint32_t span = ((hi - lo) >> z) + 1;
	if (span > (uint32_t)ctx->hcount_len)
		return false;
	int *count = ctx->hcount;
	memset(count, 0, span * sizeof *count);
	for (long i = 0; i < m; i++)
		count[((uint32_t)(uint64_t)(a[i] >> 32) - lo) >> z]++;
	/* falling order: the largest h first */
	int at = 0;
	for (long k = (long)span - 1; k >= 0; k--) {
		const int c = count[k];
		count[k] = at;
		at += c;
	}
	for (long i = 0; i < m; i++)
		b[count[((uint32_t)(uint64_t)(a[i] >> 32) - lo) >> z]++] = a[i];
	for (long i = 1; i < m; i++) {
		const qkey x = b[i];
		long j = i;
		for (; j > 0 && b[j - 1] < x; j--) /* within x's group: a key of another is above x */
			b[j] = b[j - 1];
		b[j] = x;
	}
	memcpy(a, b, (size_t)m * sizeof *a);
	return true;
}

/*
 * The current bucket is exhausted: the next one with a live cell becomes
 * the queue.  False when every slot is empty.  The bucket is sorted, as a
 * run: its keys in heap[0 .. heap_len - 1] in falling order, the least
 * last, so a pop just shortens the run.  Almost nothing but ties is pushed
 * into the current bucket (they go on the tie stack), so the run seldom
 * has to become a heap (ring_heap), and the run's cells may hold any
 * non-negative pos, not their index.  The drain lists the cells newest
 * first, which is much nearer falling order than random (measured: the
 * inversions are 34% of the possible on 8room, 7% on AR0011SR, 8% on
 * random512; a random order has 50%), so insertion sort has little to
 * move; should it pass RUN_MOVES moves a key, the bucket becomes a heap
 * instead.
 */
#define RUN_MOVES 32
#define WHOLE_SORT_MIN 16 /* fewer keys: insertion sort alone */
static inline __attribute__((always_inline)) bool
ring_advance(struct path_ctx *ctx, struct ring *rg, const struct search *s, const enum grid_topology topo)
{
	while (ctx->queue.heap_len == 0) {
		const int d = pq_ring_next(&rg->lists);
		if (d == RING)
			break;
		rg->lists.bucket += (uint64_t)d;
		if (!ring_drain(ctx, rg, s, topo, (int)(rg->lists.bucket % RING)))
			return false;
	}
	const int m = ctx->queue.heap_len;
	if (whole_ring(topo) && m >= WHOLE_SORT_MIN && whole_sort(ctx, s)) {
		rg->run = true;
		return true;
	}
	qkey *a = ctx->queue.key;
	long moves = (long)RUN_MOVES * m;
	rg->run = true;
	for (int i = 1; i < m; i++) {
		const qkey x = a[i];
		int j = i;
		if (a[i - 1] < x) {
			/* x moves; when a[0] is not below it, a[0] ends the scan
			 * and the loop needs no bound test */
			if (a[0] < x) {
				for (; j > 0; j--)
					a[j] = a[j - 1];
			} else {
				for (; a[j - 1] < x; j--)
					a[j] = a[j - 1];
			}
			a[j] = x;
		}
		moves -= i - j;
		if (moves < 0) {
			rg->run = false;
			break;
		}
	}
	if (!rg->run) {
		for (int i = 0; i < m; i++)
			ctx->node[pq_cell(a[i])].pos = i;
		pq_heapify(&ctx->queue, ctx->node);
	}
	return m > 0;
}

/* The run becomes a heap: in rising order it is one. */
static __attribute__((noinline)) void ring_heap(struct path_ctx *ctx, struct ring *rg)
{
	qkey *a = ctx->queue.key;
	for (int i = 0, j = ctx->queue.heap_len - 1; i < j; i++, j--) {
		const qkey t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
	for (int i = 0; i < ctx->queue.heap_len; i++)
		ctx->node[pq_cell(a[i])].pos = i;
	rg->run = false;
}

/* Whether the least key of the tie stack and the current bucket is the stack's top. */
static inline bool ring_stack_first(const struct path_ctx *ctx, const struct ring *rg)
{
	const struct pq *q = &ctx->queue;
	return q->stack_len > 0 &&
	       (q->heap_len == 0 || *pq_stack_top(q) < q->key[rg->run ? q->heap_len - 1 : 0]);
}

/* Removes and returns the least key of the tie stack and the current bucket. */
static inline qkey ring_pop(struct path_ctx *ctx, struct ring *rg)
{
	struct pq *q = &ctx->queue;
	qkey top;
	if (ring_stack_first(ctx, rg)) {
		top = *pq_stack_top(q);
		q->stack_len--;
	} else if (rg->run) {
		top = q->key[--q->heap_len];
	} else {
		top = pq_pop(q, ctx->node);
	}
	ctx->node[pq_cell(top)].pos = POS_CLOSED;
	return top;
}

/* Gives up the ring: every listed cell goes into the heap. */
static __attribute__((noinline)) void ring_flush(struct path_ctx *ctx, struct ring *rg,
						 const struct search *s)
{
	if (rg->run)
		ring_heap(ctx, rg);
	for (int r = 0; r < RING; r++) {
		const int from = ctx->queue.heap_len;
		bool ok;
		switch (ctx->grid->topo) {
		case GRID_DIAMOND8: ok = ring_drain(ctx, rg, s, GRID_DIAMOND8, r); break;
		case GRID_HEX: ok = ring_drain(ctx, rg, s, GRID_HEX, r); break;
		case GRID_SQUARE4: ok = ring_drain(ctx, rg, s, GRID_SQUARE4, r); break;
		case GRID_DIAMOND4: ok = ring_drain(ctx, rg, s, GRID_DIAMOND4, r); break;
		default: ok = ring_drain(ctx, rg, s, GRID_SQUARE8, r); break;
		}
		if (!ok)
			return;
		const int to = ctx->queue.heap_len;
		for (int i = from; i < to; i++)
			sift_up(ctx, i, ctx->queue.key[i]);
	}
	rg->lists.on = false;
}

/* Queues a key of plain A*: in the current bucket, the heap or the tie
 * stack; in a later one, its list.  `listed` is the cell's pos when it is
 * listed already (its g just improved), else POS_CLOSED; it is listed
 * again, in whatever bucket, and its old entry overwritten with -1 (a
 * bucket's cells are not looked up by slot any more).  On the whole-step grids (the constant `whole`) a key
 * of the current bucket has the f just popped and an h below the popped
 * cell's, so it beats every key queued but those this expansion pushed
 * before it: it goes into the tie stack at its place among them, and the
 * stack stays sorted without the heap. */
static inline __attribute__((always_inline)) void
ring_push(struct path_ctx *ctx, struct ring *rg, const struct search *s, qkey k, uint64_t tie_f,
	  int32_t listed, const bool whole)
{
	if (rg->lists.on) {
		const uint64_t q = pq_f(k) >> rg->wshift;
		if (q > rg->lists.bucket) {
			const int r = (int)(q % RING);
			if (q - rg->lists.bucket < RING && pq_ring_add(&rg->lists, ctx->node, r, pq_cell(k), true)) {
				if (listed != POS_CLOSED)
					rg->lists.pool[PQ_RING_ENTRY(listed)] = -1; /* its old entry */
				return;
			}
			ring_flush(ctx, rg, s);
			if (listed != POS_CLOSED || ctx->no_memory)
				return; /* the flush queued it, with its new g (or the query ends) */
		} else if (listed != POS_CLOSED) {
			rg->lists.pool[PQ_RING_ENTRY(listed)] = -1;
		}
	}
	struct pq *pq = &ctx->queue;
	if (pq_f(k) == tie_f && (pq->stack_len == 0 || k < *pq_stack_top(pq))) {
		pq->stack_len++;
		*pq_stack_top(pq) = k;
		ctx->node[pq_cell(k)].pos = POS_STACK;
		return;
	}
	if (whole && pq_f(k) == tie_f) {
		/* below the top: the keys above it move up one */
		qkey *t = pq_stack_top(pq) - 1;
		long i = 0;
		pq->stack_len++;
		for (; i + 1 < pq->stack_len && t[i + 1] < k; i++)
			t[i] = t[i + 1];
		t[i] = k;
		ctx->node[pq_cell(k)].pos = POS_STACK;
		return;
	}
	if (rg->run)
		ring_heap(ctx, rg);
	sift_up(ctx, pq->heap_len++, k);
}

/*
 * The whole-step ring's run is popped in a known order, cells anywhere in
 * the bucket's band; on a 4096x4096 level their rows are mostly not in the
 * caches (the cost bytes and the words of a far hex goal's pops missed
 * about as often as the drain's reads).  So each pop fetches the rows of
 * the cell WHOLE_AHEAD places further down the run: the hot words, the
 * cold records (written when a neighbour is new) and the cost bytes.  On
 * maps of 2^22 cells or more alone (WHOLE_AHEAD_CELLS): on the 512x512
 * Moving AI maps read as hex it cost 1-4% on five of eight maps
 * (docs/perf-log.md, 2026-11-30, hexring).
 */
#define WHOLE_AHEAD 16
#define WHOLE_AHEAD_CELLS (1L << 22)

/* Fetches the hot words of the three rows around cell t (an interior
 * one), which an expansion of t is about to read, and with `cold` their
 * cold records too, which it writes (t's pos at the pop, each successor's
 * dir and pos). */
static inline __attribute__((always_inline)) void prefetch_around(const struct path_ctx *ctx, int t, const bool cold)
{
	const int w = ctx->w;
	if (t > w && t < ctx->n - w - 1) {
		const uint64_t *gw = ctx->gw;
		__builtin_prefetch(&gw[t - w - 1]);
		__builtin_prefetch(&gw[t - w + 1]);
		__builtin_prefetch(&gw[t - 1]);
		__builtin_prefetch(&gw[t + 1]);
		__builtin_prefetch(&gw[t + w - 1]);
		__builtin_prefetch(&gw[t + w + 1]);
		if (cold) {
			const struct node *node = ctx->node;
			__builtin_prefetch(&node[t - w - 1], 1);
			__builtin_prefetch(&node[t - w + 1], 1);
			__builtin_prefetch(&node[t - 1], 1);
			__builtin_prefetch(&node[t + 1], 1);
			__builtin_prefetch(&node[t + w - 1], 1);
			__builtin_prefetch(&node[t + w + 1], 1);
		}
	}
}

/* prefetch_around's rows, the cold records too, and their cost bytes. */
static inline __attribute__((always_inline)) void prefetch_whole(const struct path_ctx *ctx, int t)
{
	const int w = ctx->w;
	prefetch_around(ctx, t, true);
	if (t > w && t < ctx->n - w - 1) {
		const uint8_t *cost = ctx->grid->cost;
		__builtin_prefetch(&cost[t - w - 1]);
		__builtin_prefetch(&cost[t - w + 1]);
		__builtin_prefetch(&cost[t - 1]);
		__builtin_prefetch(&cost[t + 1]);
		__builtin_prefetch(&cost[t + w - 1]);
		__builtin_prefetch(&cost[t + w + 1]);
	}
}

/*
 * The pieces of astar_loop.  The hot ones are always_inline: each is
 * inlined into astar_loop, which is inlined into one caller per topology
 * and kind of query, so the constants they receive (topo, ring, need_h,
 * and through the local copy *s the options of a plain query) specialise
 * them exactly as if they were written in the loop.  The loop's values
 * are passed by value, so they stay in registers.  The fallback layers'
 * steps, once per layer, are cold and out of line.
 */

/*
 * Fallback layers: the current layer's set-aside cells.  Their g is final
 * (see layer_next), and all that expanding them can do is offer the
 * blocked cells around them to the next layer.  The order does not change
 * any g, only which of two equal parents a pending cell keeps.  Returns
 * the expansions.
 */
static __attribute__((noinline)) long layer_expand_deferred(struct path_ctx *ctx, const struct search *s,
							    const enum grid_topology topo)
{
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	struct node *node = ctx->node;
	uint64_t *gw = ctx->gw;
	const uint16_t gen = ctx->gen;
	const int dirs = grid_dir_count(topo);
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp; /* diamond: as square */
	const int64_t s1 = s->s1, s2 = s->s2;
	long expanded = 0;
	for (int c = ctx->deferred_head; c != -1;) {
		const int next = POS_DEFERRED0 - node[c].pos - 1;
		const int cy = cell_row(ctx, c), cx = c - cy * w;
		node[c].pos = POS_CLOSED;
		expanded++;
		for (int i = 0; i < dirs; i++) {
			const int nx = cx + grid_nb_dx(topo, cy, i);
			const int ny = cy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			if (cost[v] || (s->solid && s->solid[v]))
				continue;
			const int64_t ng = (int64_t)gw[c] + (grid_nb_long(topo, i) ? s2 : s1);
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				gw[v] = (uint64_t)ng;
				nv->dir = opp[i];
				pending_add(ctx, v);
			} else if (is_pending(nv->pos) && ng < (int64_t)gw[v]) {
				gw[v] = (uint64_t)ng;
				nv->dir = opp[i];
			}
		}
		c = next;
	}
	ctx->deferred_head = -1;
	return expanded;
}

/*
 * Next fallback layer.  A pending cell's g is final: a route reaching it
 * within this layer crosses no blocked cell before it, so it came from the
 * layers before, all settled.  A pending cell whose passable neighbours
 * are all expanded already (and that is not the goal) can lead nowhere new
 * in this layer, so without a budget it is set aside instead of queued;
 * the rest become the heap at once.
 */
static __attribute__((noinline)) void layer_next(struct path_ctx *ctx, const struct search *s,
						 const enum grid_topology topo)
{
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	const int dirs = grid_dir_count(topo);
	const int64_t s1 = s->s1, s2 = s->s2;
	int m = 0;
	for (int c = ctx->pending_head; c != -1;) {
		const int next = POS_PENDING0 - node[c].pos - 1;
		const int cy = c / w, cx = c - cy * w;
		bool useful = c == s->goal || s->budget > 0;
		for (int i = 0; i < dirs && !useful; i++) {
			const int nx = cx + grid_nb_dx(topo, cy, i);
			const int ny = cy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			useful = cost[v] && (node[v].stamp != gen || node[v].pos != POS_CLOSED);
		}
		if (useful) {
			int64_t h = heuristic(topo, cx, cy, s->gx, s->gy, s1, s2);
			ctx->queue.key[m] = search_key(s, c, (int64_t)ctx->gw[c], h);
			node[c].pos = m++;
		} else {
			node[c].pos = POS_DEFERRED0 - (ctx->deferred_head + 1);
			ctx->deferred_head = c;
		}
		c = next;
	}
	ctx->queue.heap_len = m;
	ctx->pending_len = 0;
	ctx->pending_head = -1;
	pq_heapify(&ctx->queue, node);
}

/* An interior square8 cell u, fallback: the moves into blocked cells
 * (every direction, no corner rule). */
static inline __attribute__((always_inline)) void
sq8_into_blocked(struct path_ctx *ctx, const struct search *s, int u, int ux, int uy, int64_t ug,
		 unsigned around, uint64_t tie_f, struct node *node, uint64_t *gw, uint16_t gen, const int *off,
		 const int64_t *stepc, const int *sq_dx, const int *sq_dy)
{
	const enum grid_topology topo = GRID_SQUARE8;
	const int64_t s1 = s->s1, s2 = s->s2;
	unsigned mb = s->fallback ? ~(unsigned)sq8_moves[1][around] & 0xffu : 0;
	while (mb) {
		const int i = __builtin_ctz(mb);
		mb &= mb - 1;
		const int v = u + off[i];
		if (s->solid && s->solid[v])
			continue;
		const int64_t ng = ug + stepc[i] + s->penalty;
		struct node *nv = &node[v];
		if (nv->stamp != gen) {
			nv->stamp = gen;
			gw[v] = (uint64_t)ng;
			nv->dir = sq_opp[i];
			if (s->layered)
				pending_add(ctx, v);
			else
				queue_push(ctx, search_key(s, v, ng,
					   heuristic(topo, ux + sq_dx[i], uy + sq_dy[i], s->gx,
						     s->gy, s1, s2)), tie_f);
			continue;
		}
		const int pos = nv->pos;
		if (pos == POS_CLOSED || (s->layered && (pos >= 0 || is_deferred(pos))) ||
		    !(ng < (int64_t)gw[v]))
			continue;
		gw[v] = (uint64_t)ng;
		nv->dir = sq_opp[i];
		if (pos >= 0)
			sift_up(ctx, pos, search_key(s, v, ng,
				heuristic(topo, ux + sq_dx[i], uy + sq_dy[i], s->gx, s->gy, s1, s2)));
	}
}

/* plain_queue after its stores: v's word and dir are written already and
 * `fresh` says whether v was new to this query. */
static inline __attribute__((always_inline)) void
plain_queue_rest(struct path_ctx *ctx, const struct search *s, struct ring *rg, int v, bool fresh, qkey k,
		 uint64_t tie_f, struct node *node)
{
	if (__builtin_expect(fresh, 1)) {
		ring_push(ctx, rg, s, k, tie_f, POS_CLOSED, false);
		return;
	}
	const int32_t listed = node[v].pos;
	if (__builtin_expect(listed == POS_STACK, 0))
		return;
	if (__builtin_expect(listed < POS_CLOSED && ring_listed(rg, listed, v), 1)) {
		ring_push(ctx, rg, s, k, tie_f, listed, false);
		return;
	}
	/* in the current bucket: the heap, or the run, which becomes one */
	if (rg->run)
		ring_heap(ctx, rg); /* numbers the run: pos read again */
	sift_up(ctx, node[v].pos, k);
}

/* Successor v of plain A* in the bucket ring (square8's and diamond8's
 * interiors), its g ng and key k: its word and parent direction stored,
 * and queued.  A new cell (the common case) needs nothing of its cold
 * record but the stores: its pos is not read.  The test is on the word
 * just compared, so it costs no wait. */
static inline __attribute__((always_inline)) void
plain_queue(struct path_ctx *ctx, const struct search *s, struct ring *rg, int v, int64_t ng, qkey k,
	    uint64_t tie_f, uint8_t dir, struct node *node, uint64_t *gw, uint64_t code)
{
	const bool fresh = (gw[v] & ~PK_LOW) != code;
	gw[v] = pk(code, ng);
	node[v].dir = dir;
	plain_queue_rest(ctx, s, rg, v, fresh, k, tie_f, node);
}

/*
 * Plain A*'s successor i of an interior square8 cell u (sq8_plain); kv is
 * v's new word pk(code, ng), which the neighbour test made already, so ng
 * is read back from it.  A new cell whose bucket is a later one (the
 * common case) is listed at once: its key's h and cell fields are made
 * only when it goes elsewhere.
 */
static inline __attribute__((always_inline)) void
sq8_plain_succ(struct path_ctx *ctx, const struct search *s, struct ring *rg, int i, int u, uint64_t kv,
	       int dxu, int dyu, uint64_t tie_f, struct node *node, uint64_t *gw, uint64_t code,
	       const int *off, const int *sq_dx, const int *sq_dy)
{
	const int64_t s1 = s->s1, s2 = s->s2;
	const int v = u + off[i];
	const int64_t ng = (int64_t)((code | PK_LOW) - kv);
	const int ax = iabs(dxu + sq_dx[i]), ay = iabs(dyu + sq_dy[i]);
	/* The octile h, hi s1 + lo (s2 - s1), as (ax + ay) s1 + lo (s2 - 2 s1):
	 * the same integer, without the max. */
	const int lo = ax < ay ? ax : ay;
	const int64_t h = (int64_t)(ax + ay) * s1 + (int64_t)lo * (s2 - 2 * s1);
	const uint64_t f = (uint64_t)(ng + h);
	const bool fresh = (gw[v] & ~PK_LOW) != code;
	gw[v] = kv;
	node[v].dir = sq_opp[i];
	if (__builtin_expect(fresh, 1) && rg->lists.on) {
		const uint64_t q = f >> rg->wshift;
		if (q - rg->lists.bucket - 1 < RING - 1 && pq_ring_add(&rg->lists, node, (int)(q % RING), v, true))
			return;
	}
	plain_queue_rest(ctx, s, rg, v, fresh, make_key(f, (uint32_t)((uint64_t)h >> s->hshift), v), tie_f,
			 node);
}

/*
 * An interior square8 cell u of plain A*.  m: u's legal moves; unit:
 * every cell around u costs 1 (or 0).
 */
static inline __attribute__((always_inline)) void
sq8_plain(struct path_ctx *ctx, const struct search *s, struct ring *rg, int u, uint64_t ku,
	  const uint8_t *c, bool unit, unsigned m, int dxu, int dyu, uint64_t tie_f, struct node *node,
	  uint64_t *gw, uint64_t code, bool sgn, int w, const int *off, const int64_t *stepc,
	  const int *sq_dx, const int *sq_dy)
{
	const int64_t s1 = s->s1, s2 = s->s2;
	/*
	 * Plain A*: first the neighbours to update, as a mask built
	 * without a branch (one compare of words each), then only
	 * those.  No closed test: the heuristic is exactly
	 * consistent, so a closed cell's g is optimal and no step
	 * lowers it.
	 */
	const uint64_t *nu = gw + u, *na = nu - w, *nb = nu + w;
	const uint8_t *ca = c - w, *cb = c + w;
	uint64_t kn, kw, ke, ks, knw, kne, ksw, kse;
	if (unit) {
		kn = kw = ke = ks = ku - (uint64_t)s1;
		knw = kne = ksw = kse = ku - (uint64_t)s2;
	} else {
		kn = ku - (uint64_t)s1 * ca[0];
		kw = ku - (uint64_t)s1 * c[-1];
		ke = ku - (uint64_t)s1 * c[1];
		ks = ku - (uint64_t)s1 * cb[0];
		knw = ku - (uint64_t)s2 * ca[-1];
		kne = ku - (uint64_t)s2 * ca[1];
		ksw = ku - (uint64_t)s2 * cb[-1];
		kse = ku - (uint64_t)s2 * cb[1];
	}
	const unsigned w0 = (unsigned)pk_above(kn, na[0], sgn) | (unsigned)pk_above(kw, nu[-1], sgn) << 1;
	const unsigned w1 = (unsigned)pk_above(ke, nu[1], sgn) << 2 | (unsigned)pk_above(ks, nb[0], sgn) << 3;
	const unsigned w2 = (unsigned)pk_above(knw, na[-1], sgn) << 4 | (unsigned)pk_above(kne, na[1], sgn) << 5;
	const unsigned w3 = (unsigned)pk_above(ksw, nb[-1], sgn) << 6 | (unsigned)pk_above(kse, nb[1], sgn) << 7;
	const unsigned work = ((w0 | w1) | (w2 | w3)) & m;
	if (!(work & (work - 1))) {
		/* None or one (a corridor's cell): its index at once */
		if (work) {
			const int i = __builtin_ctz(work);
			sq8_plain_succ(ctx, s, rg, i, u, ku - (uint64_t)stepc[i] * c[off[i]], dxu, dyu, tie_f,
				       node, gw, code, off, sq_dx, sq_dy);
		}
		return;
	}
	/* Two or more: one test of each bit, so that each successor's offsets
	 * and steps are constants */
	const uint64_t kv[8] = { kn, kw, ke, ks, knw, kne, ksw, kse };
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++)
		if (work >> i & 1)
			sq8_plain_succ(ctx, s, rg, i, u, kv[i], dxu, dyu, tie_f, node, gw, code, off, sq_dx,
				       sq_dy);
}

/* An interior square8 cell u, any other query: its legal moves m into
 * passable cells, the loop unrolled (one test of m's bit each). */
static inline __attribute__((always_inline)) void
sq8_general(struct path_ctx *ctx, const struct search *s, int u, int64_t ug, const uint8_t *c,
	    unsigned m, int dxu, int dyu, uint64_t tie_f, bool need_h, struct node *node, uint64_t *gw,
	    uint16_t gen, const int *off, const int64_t *stepc, const int *sq_dx, const int *sq_dy)
{
	const int64_t s1 = s->s1, s2 = s->s2;
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) {
		if (!(m >> i & 1))
			continue;
		const int v = u + off[i];
		int64_t ng = ug + stepc[i] * (int64_t)c[off[i]];
		if (s->extra)
			ng += (int64_t)s->extra[v] << s->extra_shift;
		struct node *nv = &node[v];
		const bool fresh = nv->stamp != gen;
		if (!fresh && !(nv->pos != POS_CLOSED && ng < (int64_t)gw[v]))
			continue;
		int64_t hv = 0;
		if (need_h) {
			const int ax = iabs(dxu + sq_dx[i]), ay = iabs(dyu + sq_dy[i]);
			const int lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
			hv = (int64_t)hi * s1 + (int64_t)lo * (s2 - s1);
		}
		const qkey k = search_key(s, v, ng, hv);
		gw[v] = (uint64_t)ng;
		nv->dir = sq_opp[i];
		if (fresh) {
			nv->stamp = gen;
			queue_push(ctx, k, tie_f);
		} else if (nv->pos >= 0) {
			sift_up(ctx, nv->pos, k);
		}
	}
}

/*
 * An interior diamond8 cell of plain A* (in the bucket ring): what
 * sq8_plain is to square8.  A cell whose every step stays in the map (N and
 * S are two rows away) has its neighbours at d8->off[y & 1][i] (the row's
 * parity picks the column offsets), and each step moves u = (X + Y) / 2
 * and v = (Y - X) / 2 by a constant (d8->du, d8->dv), so a successor's
 * octile h is a few operations on u's distance to the goal instead of
 * heuristic()'s.  The corner rule reads the flanks' cost bytes already
 * loaded (expand_any tested the bounds of each again).  The neighbours to
 * update come first, as a mask (passable and legal, new to this query or
 * a lower g), then only those, in the table's order as expand_any visits
 * them: the same pushes in the same order, so the same pops.  (The same
 * piece on hex, square4 and diamond4, whose steps need no corner rule, was
 * 0.85-1.05x expand_any's time: docs/perf-log.md, 2026-11-30, d8plain.)
 */
struct d8_steps {
	int off[2][8];   /* neighbour i of a cell in a row of parity p: cell + off[p][i] */
	int du[8], dv[8]; /* step i in u and v */
	int64_t step[8]; /* s1 on the edge steps, s2 on the corner steps */
};

static void d8_init(struct d8_steps *d8, int w, int64_t s1, int64_t s2)
{
	for (int i = 0; i < 8; i++) {
		const int dy = GRID_DIAMOND_DY[i];
		for (int p = 0; p < 2; p++)
			d8->off[p][i] = dy * w + GRID_DIAMOND_DX[p][i];
		/* from an even row, doubled column X = 2x moves to 2 (x + dx) +
		 * (dy & 1); odd rows give the same (their table is shifted) */
		const int dX = 2 * GRID_DIAMOND_DX[0][i] + (dy & 1);
		d8->du[i] = (dX + dy) / 2;
		d8->dv[i] = (dy - dX) / 2;
		d8->step[i] = i >= 4 ? s2 : s1;
	}
}

static inline __attribute__((always_inline)) void
d8_plain(struct path_ctx *ctx, const struct search *s, struct ring *rg, const struct d8_steps *d8, int u,
	 int ux, int uy, int64_t ug, uint64_t ku, uint64_t tie_f, struct node *node, uint64_t *gw,
	 uint64_t code)
{
	const uint8_t *cost = ctx->grid->cost;
	const int *off = d8->off[uy & 1];
	const int64_t s1 = s->s1, s2 = s->s2;
	unsigned c[8];
	unsigned open = 0, work = 0;
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) {
		c[i] = cost[u + off[i]];
		open |= (unsigned)(c[i] != 0) << i;
	}
	if (!s->corner_cutting) {
		/* a corner step needs both its flanks (edge steps) passable */
		unsigned flanks = 0;
#pragma GCC unroll 4
		for (int k = 0; k < 4; k++)
			flanks |= (open >> GRID_CORNER_FLANKS[k][0] & open >> GRID_CORNER_FLANKS[k][1] & 1u) << (4 + k);
		open &= 0x0fu | flanks;
	}
	/* At most three open (a corridor, the side of a wall): only those
	 * are tested (all eight cost maze512 8%).  Three bits cleared, as
	 * __builtin_popcount is a call without -mpopcnt. */
	const unsigned open1 = open & (open - 1), open2 = open1 & (open1 - 1);
	if ((open2 & (open2 - 1)) == 0) {
		for (unsigned m = open; m; m &= m - 1) {
			const int i = __builtin_ctz(m);
			const uint64_t old = gw[u + off[i]];
			const uint64_t kv = ku - (uint64_t)d8->step[i] * c[i]; /* pk(code, g + step) */
			work |= (unsigned)(((old & ~PK_LOW) != code) | (kv > old)) << i;
		}
	} else {
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++) {
			const uint64_t old = gw[u + off[i]];
			const uint64_t kv = ku - (uint64_t)d8->step[i] * c[i];
			work |= (unsigned)(((old & ~PK_LOW) != code) | (kv > old)) << i;
		}
		work &= open;
	}
	if (!work)
		return;
	/* u's distance to the goal in u and v (heuristic()'s terms, signed) */
	const int dX = (2 * ux + (uy & 1)) - (2 * s->gx + (s->gy & 1)), dY = uy - s->gy;
	const int hu = (dX + dY) / 2, hv = (dY - dX) / 2;
#pragma GCC unroll 8
	for (int i = 0; i < 8; i++) {
		if (!(work >> i & 1))
			continue;
		const int v = u + off[i];
		const int64_t ng = ug + d8->step[i] * (int64_t)c[i];
		const int a = iabs(hu + d8->du[i]), b = iabs(hv + d8->dv[i]), lo = a < b ? a : b;
		/* the octile h, hi s1 + lo (s2 - s1), without the max */
		plain_queue(ctx, s, rg, v, ng, search_key(s, v, ng, (int64_t)(a + b) * s1 + (int64_t)lo * (s2 - 2 * s1)),
			    tie_f, sq_opp[i], node, gw, code);
	}
}

/*
 * Any cell of any topology (the square8 interior has the pieces above):
 * the neighbours one by one, with the bounds, the corner rule, blocked
 * cells for the fallback and the pending layer.
 */
static inline __attribute__((always_inline)) void
expand_any(struct path_ctx *ctx, const struct search *s, struct ring *rg, const enum grid_topology topo,
	   const bool ring, const bool need_h, int u, int ux, int uy, int64_t ug, uint64_t tie_f,
	   const uint8_t *cost, int w, int hgt, struct node *node, uint64_t *gw, uint16_t gen, uint64_t code,
	   const uint8_t *opp)
{
	const int dirs = grid_dir_count(topo);
	const int64_t s1 = s->s1, s2 = s->s2;
	const bool u_open = cost[u] != 0;
	for (int i = 0; i < dirs; i++) {
		int nx, ny;
		int64_t step;
		if (topo == GRID_HEX) {
			nx = ux + GRID_HEX_DX[uy & 1][i];
			ny = uy + GRID_HEX_DY[i];
			step = s1;
		} else if (grid_is_diamond(topo)) {
			nx = ux + GRID_DIAMOND_DX[uy & 1][i];
			ny = uy + GRID_DIAMOND_DY[i];
			step = (topo == GRID_DIAMOND8 && i >= 4) ? s2 : s1;
		} else {
			nx = ux + GRID_SQUARE_DX[i];
			ny = uy + GRID_SQUARE_DY[i];
			step = (topo == GRID_SQUARE8 && i >= 4) ? s2 : s1;
		}
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
			continue;
		const int v = ny * w + nx;
		const unsigned cv = cost[v];
		int64_t ng;
		const bool v_blocked = cv == 0;
		if (!v_blocked) {
			if (topo == GRID_SQUARE8 && i >= 4 && u_open && !s->corner_cutting &&
			    (!cost[uy * w + nx] || !cost[ny * w + ux]))
				continue;
			if (topo == GRID_DIAMOND8 && i >= 4 && u_open && !s->corner_cutting &&
			    !grid_diamond_flanks_open(cost, w, hgt, ux, uy, i))
				continue;
			ng = ug + step * (int64_t)cv;
			if (s->extra)
				ng += (int64_t)s->extra[v] << s->extra_shift;
		} else {
			if (!s->fallback || (s->solid && s->solid[v]))
				continue;
			ng = ug + step + s->penalty;
		}
		struct node *nv = &node[v];
		if (ring ? (gw[v] & ~PK_LOW) != code : nv->stamp != gen) {
			if (!ring)
				nv->stamp = gen;
			gw[v] = ring ? pk(code, ng) : (uint64_t)ng;
			nv->dir = opp[i];
			if (v_blocked && s->layered)
				pending_add(ctx, v);
			else if (ring)
				ring_push(ctx, rg, s, search_key(s, v, ng,
					  heuristic(topo, nx, ny, s->gx, s->gy, s1, s2)), tie_f, POS_CLOSED, whole_ring(topo));
			else
				queue_push(ctx, search_key(s, v, ng, need_h ?
					   heuristic(topo, nx, ny, s->gx, s->gy, s1, s2) : 0), tie_f);
			continue;
		}
		const int pos = nv->pos;
		if (pos == POS_CLOSED)
			continue;
		if (v_blocked && s->layered && (pos >= 0 || is_deferred(pos)))
			continue; /* already in this layer: fewer blocked cells */
		if (ring ? ng < pk_g(gw[v]) : ng < (int64_t)gw[v]) {
			gw[v] = ring ? pk(code, ng) : (uint64_t)ng;
			nv->dir = opp[i];
			if (pos >= 0 || (ring && pos != POS_STACK && !ring_listed(rg, pos, v))) {
				if (ring && rg->run)
					ring_heap(ctx, rg);
				sift_up(ctx, nv->pos, search_key(s, v, ng, need_h ?
					heuristic(topo, nx, ny, s->gx, s->gy, s1, s2) : 0));
			} else if (ring && pos != POS_STACK)
				ring_push(ctx, rg, s, search_key(s, v, ng,
					  heuristic(topo, nx, ny, s->gx, s->gy, s1, s2)), tie_f, pos, whole_ring(topo));
		}
	}
}

/* The index of `cell` among the n targets t (sorted by cell), or -1. */
static int target_at(const struct target *t, int n, int cell)
{
	int a = 0, b = n;
	while (a < b) {
		const int m = a + (b - a) / 2;
		if (t[m].cell < cell)
			a = m + 1;
		else
			b = m;
	}
	return a < n && t[a].cell == cell ? a : -1;
}

/*
 * A pop seen by a search with targets (struct targets): at a new
 * generation they are reset; true when the pop's f exceeds the bound (the
 * search stops); a target's pop records its g and rank and lowers the
 * bound to its g + togo.  With `all` (deep_doors) the bound stays: true
 * at the pop of the last target not popped before.
 */
static __attribute__((noinline)) bool targets_pop(const struct path_ctx *ctx, struct targets *tg, int u, int64_t g,
						  uint64_t f)
{
	if (tg->gen != ctx->gen) {
		for (int k = 0; k < tg->n; k++)
			tg->t[k].order = -1;
		tg->pops = 0;
		tg->bound = UINT64_MAX;
		tg->gen = ctx->gen;
	}
	if (f + tg->first_wins > tg->bound)
		return true;
	if ((unsigned)(u - tg->lo) > tg->span)
		return false;
	const int a = target_at(tg->t, tg->n, u);
	if (a < 0)
		return false;
	struct target *t = &tg->t[a];
	if (tg->all) {
		if (t->order < 0) {
			t->order = tg->pops++;
			t->g = g;
		}
		return tg->pops == tg->n;
	}
	t->order = tg->pops++;
	t->g = g;
	if ((uint64_t)(g + t->togo) < tg->bound)
		tg->bound = (uint64_t)(g + t->togo);
	return false;
}

/* astar_loop's start from struct search's seeds (deep_doors, plain A* in
 * the ring alone): the ring's first bucket is the least seed's, the others
 * queued as pushes are (later buckets listed). */
static inline __attribute__((always_inline)) void queue_seeds(struct path_ctx *ctx, const struct search *s,
							      struct ring *rg, uint64_t code)
{
	const enum grid_topology topo = ctx->grid->topo;
	const int w = ctx->w;
	uint64_t f0 = UINT64_MAX;
	for (int k = 0; k < s->n_seeds; k++) {
		const int c = s->seeds[k].cell, cy = c / w, cx = c - cy * w;
		const uint64_t f =
			pq_f(search_key(s, c, s->seeds[k].g, heuristic(topo, cx, cy, s->gx, s->gy, s->s1, s->s2)));
		f0 = f < f0 ? f : f0;
	}
	ring_init(ctx, rg, s, f0);
	for (int k = 0; k < s->n_seeds; k++) {
		const int c = s->seeds[k].cell, cy = c / w, cx = c - cy * w;
		const int64_t g = s->seeds[k].g;
		const qkey key = search_key(s, c, g, heuristic(topo, cx, cy, s->gx, s->gy, s->s1, s->s2));
		ctx->node[c] = (struct node){ .pos = 0, .stamp = ctx->gen, .dir = s->seeds[k].dir };
		ctx->gw[c] = pk(code, g);
		ring_push(ctx, rg, s, key, NO_TIE_F, POS_CLOSED, whole_ring(topo));
	}
}

/* How often a budgeted search looks at path_options.stop, in expansions. */
#define PATH_STOP_EVERY 1024L

/*
 * The stop loops' next test of `expanded` (astar_loop_stop: the search
 * ends when it is not above `expanded`): the budget, or with a stop flag
 * the next look at the flag, every PATH_STOP_EVERY expansions, so the
 * loop keeps its one comparison an expansion.  Any test of the flag in
 * the loops every search runs cost them 2-6% (tools/bench-plain-pair, with
 * and without PAIR_BUDGET: the compiler's choices for the whole loop
 * changed, its unbudgeted copies too), so only the searches with a flag
 * run loops that have one.
 */
static __attribute__((noinline, cold)) long budget_look(const struct search *sp, long expanded)
{
	CHECK(sp->stop); /* only the stop loops call it (astar_ring_stop, astar_square8_stop) */
	if (expanded >= sp->budget || atomic_load_explicit(sp->stop, memory_order_relaxed))
		return expanded;
	return expanded + PATH_STOP_EVERY < sp->budget ? expanded + PATH_STOP_EVERY : sp->budget;
}

#define PATH_LOOP_STOP 0
#define PATH_LOOP_NAME astar_loop
#define PATH_LOOP_WEIGHTED 0
#include "path_loop.h"
#undef PATH_LOOP_NAME
#undef PATH_LOOP_WEIGHTED
#define PATH_LOOP_NAME astar_loop_weighted
#define PATH_LOOP_WEIGHTED 1
#include "path_loop.h"
#undef PATH_LOOP_NAME
#undef PATH_LOOP_WEIGHTED
#undef PATH_LOOP_STOP

/* The loops again with path_options.stop looked at (budget_look), for
 * the searches that have one (astar_ring_stop, astar_square8_stop): the
 * loops of every other search keep not a byte more. */
#define PATH_LOOP_STOP 1
#define PATH_LOOP_NAME astar_loop_stop
#define PATH_LOOP_WEIGHTED 0
#include "path_loop.h"
#undef PATH_LOOP_NAME
#undef PATH_LOOP_WEIGHTED
#define PATH_LOOP_NAME astar_loop_weighted_stop
#define PATH_LOOP_WEIGHTED 1
#include "path_loop.h"
#undef PATH_LOOP_NAME
#undef PATH_LOOP_WEIGHTED
#undef PATH_LOOP_STOP

static enum path_status astar_square4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE4, false, false, false, false, end, ex);
}

static enum path_status astar_square8(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, false, false, false, false, end, ex);
}

/* Plain A* in an unsigned and in a signed phase (new_generation). */
static enum path_status astar_square8_plain(struct path_ctx *ctx, const struct search *s, int *end,
					    long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, true, false, false, false, end, ex);
}

static enum path_status astar_square8_plain_signed(struct path_ctx *ctx, const struct search *s, int *end,
						   long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, true, true, false, false, end, ex);
}

/* The same with a budget (the player's far clicks: path_find) or
 * fallback_one's targets, apart so that the other loops keep no test of
 * either. */
static enum path_status astar_square8_plain_budget(struct path_ctx *ctx, const struct search *s, int *end,
						   long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, true, false, true, false, end, ex);
}

static enum path_status astar_square8_plain_budget_signed(struct path_ctx *ctx, const struct search *s,
							  int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, true, true, true, false, end, ex);
}

static enum path_status astar_hex(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_HEX, false, false, false, false, end, ex);
}

/* Diamond maps: their own specialisations (expand_any's diamond rows), so
 * the square and hex loops stay as they were. */
static enum path_status astar_diamond4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND4, false, false, false, false, end, ex);
}

static enum path_status astar_diamond8(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND8, false, false, false, false, end, ex);
}

/*
 * diamond8's plain A* in the bucket ring, as square8's: its cells through
 * expand_any, whose words are compared for equality and g alone, so one
 * loop serves both phases.  The same pops as the heap's loop, in less
 * time: with targets (fallback_one's and deep_plain's first layer) on the
 * 4096x4096 caves level 1.2-1.45x on deep goals (docs/perf-log.md,
 * 2026-11-30, deep2), and every plain query since (twenty-eighth session,
 * lead: 1.15-1.6x per expansion on the shared maps read as diamond8).
 * Hex has its own (astar_hex_ring: the bucket sorted for whole steps),
 * where this ring was no steady gain (per goal 0.88-1.23x).
 */
static enum path_status astar_diamond8_ring(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND8, true, false, true, false, end, ex);
}

/* The same without a budget or targets. */
static enum path_status astar_diamond8_ring_plain(struct path_ctx *ctx, const struct search *s, int *end,
						  long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND8, true, false, false, false, end, ex);
}

/*
 * Plain A* on hex in the bucket ring, sorted for whole steps (whole_ring):
 * without and with a budget or targets (fallback_one's first layer).  The
 * words are compared for equality and g alone (expand_any), so one loop
 * serves both phases.  The same pops as the heap's loop.
 */
static enum path_status astar_hex_ring(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_HEX, true, false, false, false, end, ex);
}

static enum path_status astar_hex_ring_budget(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_HEX, true, false, true, false, end, ex);
}

/* The same on square4 and diamond4 (whole steps too) */
static enum path_status astar_square4_ring(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE4, true, false, false, false, end, ex);
}

static enum path_status astar_square4_ring_budget(struct path_ctx *ctx, const struct search *s, int *end,
						  long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE4, true, false, true, false, end, ex);
}

static enum path_status astar_diamond4_ring(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND4, true, false, false, false, end, ex);
}

static enum path_status astar_diamond4_ring_budget(struct path_ctx *ctx, const struct search *s, int *end,
						   long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND4, true, false, true, false, end, ex);
}

/* Plain A* with targets from deep_doors' seeds (struct search's seeds), a
 * loop of its own on each grid so that the others test nothing more. */
static __attribute__((cold)) enum path_status
astar_seeds_s8(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, true, false, true, true, end, ex);
}

static __attribute__((cold)) enum path_status
astar_seeds_s8_signed(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE8, true, true, true, true, end, ex);
}

static __attribute__((cold)) enum path_status
astar_seeds_s4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_SQUARE4, true, false, true, true, end, ex);
}

static __attribute__((cold)) enum path_status
astar_seeds_hex(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_HEX, true, false, true, true, end, ex);
}

static __attribute__((cold)) enum path_status
astar_seeds_d4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND4, true, false, true, true, end, ex);
}

static __attribute__((cold)) enum path_status
astar_seeds_d8(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop(ctx, s, GRID_DIAMOND8, true, false, true, true, end, ex);
}

/* Plain A*: weight 1 and nothing else that the general loop must test for
 * but a budget (the ring keeps the same best cell for it: the same pops). */
static bool plain_search(const struct search *s)
{
	return s->wmode == W_ASTAR && !s->fallback && !s->extra;
}

/*
 * Weighted A* (weight above 1, no fallback, extra costs or targets) in
 * plain A*'s bucket ring on hex, square4 and the diamond grids
 * (astar_loop_weighted, path_loop.h): the same keys, so the same pops,
 * expansions and route as the general loop, with a budget or not.  Its
 * keys are not monotone (a step towards the goal lowers f by up to
 * weight - 1 times the step): a key at or below the current bucket goes to
 * its heap (ring_push), which orders it before every listed key as it
 * must.  What it saves is the heap's work on cells a weighted search never
 * pops: warm searches at weight 1.15 on 4096x4096 rooms levels take
 * 1.13-1.18x less time on hex and the diamond grids.  Square8's general
 * loop, whose interior sq8_general expands, was level with it and keeps
 * the heap (docs/perf-log.md, fortieth session).
 */
static bool weighted_ring_search(const struct path_ctx *ctx, const struct search *s)
{
	return s->wmode == W_WEIGHTED && !s->fallback && !s->extra && !s->tg && ctx->grid->topo != GRID_SQUARE8;
}

static enum path_status astar_wring_s4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop_weighted(ctx, s, GRID_SQUARE4, true, false, true, false, end, ex);
}

static enum path_status astar_wring_hex(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop_weighted(ctx, s, GRID_HEX, true, false, true, false, end, ex);
}

static enum path_status astar_wring_d4(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop_weighted(ctx, s, GRID_DIAMOND4, true, false, true, false, end, ex);
}

static enum path_status astar_wring_d8(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	return astar_loop_weighted(ctx, s, GRID_DIAMOND8, true, false, true, false, end, ex);
}

/* Weighted A* in the ring of its grid; PATH_BAD_INPUT (the general loop)
 * on square8, which weighted_ring_search keeps out. */
static enum path_status astar_wring(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	switch (ctx->grid->topo) {
	case GRID_SQUARE4: return astar_wring_s4(ctx, s, end, ex);
	case GRID_DIAMOND4: return astar_wring_d4(ctx, s, end, ex);
	case GRID_DIAMOND8: return astar_wring_d8(ctx, s, end, ex);
	case GRID_SQUARE8: return PATH_BAD_INPUT;
	case GRID_HEX: break;
	}
	return astar_wring_hex(ctx, s, end, ex);
}

/* A search with a stop flag (path_options.stop; always with a budget):
 * the ring's loop of its grid, plain or weighted, with the look at the
 * flag; PATH_BAD_INPUT where the plain or weighted ring's would be (the
 * general loop then: astar_square8_stop on square8, else without the
 * look, which only ends later). */
#define STOP_LOOP(name, loop, topo, plain, sgn)                                                        \
	static enum path_status name(struct path_ctx *ctx, const struct search *s, int *end, long *ex) \
	{                                                                                              \
		return loop(ctx, s, topo, plain, sgn, plain, false, end, ex);                          \
	}
STOP_LOOP(astar_stop_s4, astar_loop_stop, GRID_SQUARE4, true, false)
STOP_LOOP(astar_stop_s8, astar_loop_stop, GRID_SQUARE8, true, false)
STOP_LOOP(astar_stop_s8_signed, astar_loop_stop, GRID_SQUARE8, true, true)
STOP_LOOP(astar_stop_d4, astar_loop_stop, GRID_DIAMOND4, true, false)
STOP_LOOP(astar_stop_d8, astar_loop_stop, GRID_DIAMOND8, true, false)
STOP_LOOP(astar_stop_hex, astar_loop_stop, GRID_HEX, true, false)
STOP_LOOP(astar_wstop_s4, astar_loop_weighted_stop, GRID_SQUARE4, true, false)
STOP_LOOP(astar_wstop_d4, astar_loop_weighted_stop, GRID_DIAMOND4, true, false)
STOP_LOOP(astar_wstop_d8, astar_loop_weighted_stop, GRID_DIAMOND8, true, false)
STOP_LOOP(astar_wstop_hex, astar_loop_weighted_stop, GRID_HEX, true, false)
STOP_LOOP(astar_square8_stop, astar_loop_stop, GRID_SQUARE8, false, false)
#undef STOP_LOOP

static enum path_status astar_ring_stop(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	const bool plain = plain_search(s);
	switch (ctx->grid->topo) {
	case GRID_SQUARE4: return plain ? astar_stop_s4(ctx, s, end, ex) : astar_wstop_s4(ctx, s, end, ex);
	case GRID_SQUARE8:
		if (!plain)
			return PATH_BAD_INPUT;
		return ctx->pk_signed ? astar_stop_s8_signed(ctx, s, end, ex) : astar_stop_s8(ctx, s, end, ex);
	case GRID_DIAMOND4: return plain ? astar_stop_d4(ctx, s, end, ex) : astar_wstop_d4(ctx, s, end, ex);
	case GRID_DIAMOND8: return plain ? astar_stop_d8(ctx, s, end, ex) : astar_wstop_d8(ctx, s, end, ex);
	case GRID_HEX: break;
	}
	return plain ? astar_stop_hex(ctx, s, end, ex) : astar_wstop_hex(ctx, s, end, ex);
}

/* Plain A* in the ring of its grid (the bucket ring, or the whole-step
 * ring: hex, square4, diamond4), with a budget or targets or neither. */
static enum path_status astar_ring(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	const bool budgeted = s->budget > 0 || s->tg;
	switch (ctx->grid->topo) {
	case GRID_SQUARE4:
		return budgeted ? astar_square4_ring_budget(ctx, s, end, ex) : astar_square4_ring(ctx, s, end, ex);
	case GRID_SQUARE8:
		return budgeted ? (ctx->pk_signed ? astar_square8_plain_budget_signed(ctx, s, end, ex)
						  : astar_square8_plain_budget(ctx, s, end, ex))
				: (ctx->pk_signed ? astar_square8_plain_signed(ctx, s, end, ex)
						  : astar_square8_plain(ctx, s, end, ex));
	case GRID_DIAMOND4:
		return budgeted ? astar_diamond4_ring_budget(ctx, s, end, ex) : astar_diamond4_ring(ctx, s, end, ex);
	case GRID_DIAMOND8:
		return budgeted ? astar_diamond8_ring(ctx, s, end, ex) : astar_diamond8_ring_plain(ctx, s, end, ex);
	case GRID_HEX:
		break;
	}
	return budgeted ? astar_hex_ring_budget(ctx, s, end, ex) : astar_hex_ring(ctx, s, end, ex);
}

static enum path_status astar(struct path_ctx *ctx, const struct search *s, int *end, long *ex)
{
	if (s->n_seeds > 0) {
		/* deep_doors' plain A* from its seeds: in the ring alone (a g
		 * too large for its word ends it: the caller gives up) */
		CHECK(plain_search(s) && s->tg && ctx->w > 1);
		switch (ctx->grid->topo) {
		case GRID_SQUARE4: return astar_seeds_s4(ctx, s, end, ex);
		case GRID_SQUARE8:
			return ctx->pk_signed ? astar_seeds_s8_signed(ctx, s, end, ex) : astar_seeds_s8(ctx, s, end, ex);
		case GRID_DIAMOND4: return astar_seeds_d4(ctx, s, end, ex);
		case GRID_DIAMOND8: return astar_seeds_d8(ctx, s, end, ex);
		case GRID_HEX: break;
		}
		return astar_seeds_hex(ctx, s, end, ex);
	}
	if ((plain_search(s) || weighted_ring_search(ctx, s)) && ctx->w > 1) {
		const enum path_status st = s->stop ? astar_ring_stop(ctx, s, end, ex)
					  : plain_search(s) ? astar_ring(ctx, s, end, ex)
							    : astar_wring(ctx, s, end, ex);
		if (st != PATH_BAD_INPUT || ctx->no_memory)
			return st;
		/* A g too large for the ring's word: the same search again in
		 * the general loop, which expands the same cells in the same
		 * order (test_plain_ring, test_weighted_ring and their grids
		 * hold the two to that). */
		new_generation(ctx);
	}
	switch (ctx->grid->topo) {
	case GRID_SQUARE4:
		return astar_square4(ctx, s, end, ex);
	case GRID_SQUARE8:
		return s->stop ? astar_square8_stop(ctx, s, end, ex) : astar_square8(ctx, s, end, ex);
	case GRID_DIAMOND4:
		return astar_diamond4(ctx, s, end, ex);
	case GRID_DIAMOND8:
		return astar_diamond8(ctx, s, end, ex);
	case GRID_HEX:
		break;
	}
	return astar_hex(ctx, s, end, ex);
}

/* ---- jump point search (square8, uniform cost, no corner cutting) ---- */

struct jps {
	const uint8_t *cost;
	int w, h, goal, gx, gy;
	int64_t s1, s2;
	const uint64_t *rows, *cols; /* the grid's passability bits and their transpose (grid.h) */
	int row_words, col_words;
};

/* The start of a square jump search: its view of the grid, and the start
 * opened at g 0 (jps_search and jps4_search share it). */
static struct jps jps_begin(struct path_ctx *ctx, int start, int goal, const struct search *s,
			    enum grid_topology topo)
{
	const int w = ctx->w;
	const struct grid *grid = ctx->grid;
	const struct jps j = { grid->cost, w, ctx->h, goal, goal % w, goal / w, s->s1, s->s2,
			       grid->rows, grid->cols, grid->row_words, grid->col_words };
	ctx->node[start] = (struct node){ .pos = 0, .stamp = ctx->gen, .dir = DIR_NONE };
	ctx->gw[start] = 0;
	sift_up(ctx, ctx->queue.heap_len++,
		search_key(s, start, 0, heuristic(topo, start % w, start / w, j.gx, j.gy, j.s1, j.s2)));
	return j;
}

/* A jump point v reached with cost ng from the direction whose opposite is
 * dir: opened (a fresh record), or its g lowered if still open; shared by
 * the square8 and square4 jump searches.  A cell a jump passed through
 * (aux 1: jps_through) becomes a queued jump point when reached for
 * less. */
static inline __attribute__((always_inline)) void jps_relax(struct path_ctx *ctx, int v, uint16_t gen,
							    int64_t ng, qkey key, uint8_t dir, uint64_t tie_f)
{
	struct node *nv = &ctx->node[v];
	if (nv->stamp != gen || nv->aux) {
		if (nv->stamp == gen && !(ng < (int64_t)ctx->gw[v]))
			return; /* passed through as cheaply already */
		nv->stamp = gen;
		nv->aux = 0;
		ctx->gw[v] = (uint64_t)ng;
		nv->dir = dir;
		queue_push(ctx, key, tie_f);
		return;
	}
	if (nv->pos == POS_CLOSED || !(ng < (int64_t)ctx->gw[v]))
		return;
	ctx->gw[v] = (uint64_t)ng;
	nv->dir = dir;
	if (nv->pos >= 0)
		sift_up(ctx, nv->pos, key);
}

static inline bool jfree(const struct jps *j, int x, int y)
{
	return (unsigned)x < (unsigned)j->w && (unsigned)y < (unsigned)j->h && j->cost[y * j->w + x];
}

/*
 * A straight jump, 64 cells a word.  `line` is the bit line walked (a row,
 * or a column of the turned grid), `side_a` and `side_b` the lines beside
 * it (NULL at the map's edge), `words` each line's length in words, `p` the
 * first position to test and `goal` the goal's position on this line (-1
 * none).  Moving forward (positions rising), position q is a jump point
 * when it is the goal or has a forced neighbour: on one side, the cell
 * diagonally behind (q - 1) is blocked while the cell beside (q) is free
 * (without corner cutting that side cell, and the diagonal past it, can
 * only be reached well through q).  The scan stops at the first blocked
 * cell (bits past the line's end are 0, so blocked).  Returns the jump
 * point's position, or -1.
 */
static inline __attribute__((always_inline)) int scan_forward(const uint64_t *line, const uint64_t *side_a,
							      const uint64_t *side_b, int words, int p, int goal)
{
	int k = p >> 6;
	if (k >= words)
		return -1;
	uint64_t mask = ~0ull << (p & 63);
	for (; k < words; k++, mask = ~0ull) {
		uint64_t ev = ~line[k];
		if (side_a) {
			const uint64_t a = side_a[k], behind = a << 1 | (k ? side_a[k - 1] >> 63 : 0);
			ev |= a & ~behind;
		}
		if (side_b) {
			const uint64_t b = side_b[k], behind = b << 1 | (k ? side_b[k - 1] >> 63 : 0);
			ev |= b & ~behind;
		}
		if ((goal >> 6) == k && goal >= 0)
			ev |= 1ull << (goal & 63);
		ev &= mask;
		if (ev) {
			const int q = k * 64 + __builtin_ctzll(ev);
			return line[k] >> (q & 63) & 1 ? q : -1;
		}
	}
	return -1;
}

/* The same scan moving backward (positions falling): the cell behind q is q + 1. */
static inline __attribute__((always_inline)) int scan_backward(const uint64_t *line, const uint64_t *side_a,
							       const uint64_t *side_b, int words, int p, int goal)
{
	if (p < 0)
		return -1;
	int k = p >> 6;
	uint64_t mask = (p & 63) == 63 ? ~0ull : (1ull << ((p & 63) + 1)) - 1;
	for (; k >= 0; k--, mask = ~0ull) {
		uint64_t ev = ~line[k];
		if (side_a) {
			const uint64_t a = side_a[k], behind = a >> 1 | (k + 1 < words ? side_a[k + 1] << 63 : 0);
			ev |= a & ~behind;
		}
		if (side_b) {
			const uint64_t b = side_b[k], behind = b >> 1 | (k + 1 < words ? side_b[k + 1] << 63 : 0);
			ev |= b & ~behind;
		}
		if ((goal >> 6) == k && goal >= 0)
			ev |= 1ull << (goal & 63);
		ev &= mask;
		if (ev) {
			const int q = k * 64 + 63 - __builtin_clzll(ev);
			return line[k] >> (q & 63) & 1 ? q : -1;
		}
	}
	return -1;
}

/* Straight jump from (x, y) along (dx, 0): the first jump point, or -1. */
static inline __attribute__((always_inline)) int jump_h(const struct jps *j, int x, int y, int dx)
{
	const int rw = j->row_words;
	const uint64_t *line = j->rows + (size_t)y * (size_t)rw;
	const uint64_t *up = y > 0 ? line - rw : NULL;
	const uint64_t *dn = y + 1 < j->h ? line + rw : NULL;
	const int goal = j->gy == y ? j->gx : -1;
	const int q = dx > 0 ? scan_forward(line, up, dn, rw, x + 1, goal) : scan_backward(line, up, dn, rw, x - 1, goal);
	return q < 0 ? -1 : y * j->w + q;
}

/* Straight jump along (0, dy): the same scan on the turned grid's column x. */
static inline __attribute__((always_inline)) int jump_v(const struct jps *j, int x, int y, int dy)
{
	const int cw = j->col_words;
	const uint64_t *line = j->cols + (size_t)x * (size_t)cw;
	const uint64_t *left = x > 0 ? line - cw : NULL;
	const uint64_t *right = x + 1 < j->w ? line + cw : NULL;
	const int goal = j->gx == x ? j->gy : -1;
	const int q = dy > 0 ? scan_forward(line, left, right, cw, y + 1, goal)
			     : scan_backward(line, left, right, cw, y - 1, goal);
	return q < 0 ? -1 : q * j->w + x;
}

/* A straight jump point v found from the cell (cx, cy), at g gc, that the
 * jump passes through, along direction i: relaxed as a successor of it. */
static inline __attribute__((always_inline)) void jps_via_succ(struct path_ctx *ctx, const struct jps *j,
							       const struct search *s, enum grid_topology topo,
							       int cx, int cy, int64_t gc, int v, int i, uint64_t tie_f)
{
	const int w = j->w, vy = cell_row(ctx, v), vx = v - vy * w;
	const int k = iabs(vx - cx) + iabs(vy - cy); /* one of the two is 0 */
	const int64_t ng = gc + (int64_t)k * j->s1;
	jps_relax(ctx, v, ctx->gen, ng, search_key(s, v, ng, heuristic(topo, vx, vy, j->gx, j->gy, j->s1, j->s2)),
		  sq_opp[i], tie_f);
}

/*
 * A jump that spawns straight ones (square8's diagonal, square4's vertical)
 * at a cell c = (cx, cy), g gc, whose straight jumps found va (along direction ia) or
 * vb (ib), -1 for none; `back` is the direction from c toward where the
 * jump began.  Plain JPS stops there and queues c, and c's expansion scans
 * the same straights again and goes on.  Here (the rule of Harabor and
 * Grastien's JPS2, "Improving jump point search", 2014) the straights'
 * jump points are relaxed at once as c's successors, and c is recorded,
 * closed, with its g and the way back (aux 1: ctx->jps_via), so that
 * routes pass through it, but never queued or expanded: true, the jump
 * goes on.  Without corner cutting those are all of c's successors.  A c
 * recorded before at no more cost is dominated, as plain JPS's relax would
 * drop it: false, *ret -1, the jump ends.  A c that is a queued or closed
 * jump point: false, *ret c, for the caller to relax as plain JPS does.
 * No memory: false, *ret -1 (the query is marked).
 */
static inline __attribute__((always_inline)) bool jps_through(struct path_ctx *ctx, const struct jps *j,
							      const struct search *s, enum grid_topology topo, int cx,
							      int cy, int64_t gc, uint8_t back, int va, int ia, int vb,
							      int ib, uint64_t tie_f, int *ret)
{
	const int c = cy * j->w + cx;
	*ret = -1;
	if (!queue_room(ctx, 2))
		return false;
	struct node *nc = &ctx->node[c];
	if (nc->stamp == ctx->gen) {
		if (!nc->aux) {
			*ret = c;
			return false;
		}
		if (!(gc < (int64_t)ctx->gw[c]))
			return false;
	}
	*nc = (struct node){ .pos = POS_CLOSED, .stamp = ctx->gen, .dir = back, .aux = 1 };
	ctx->gw[c] = (uint64_t)gc;
	if (va >= 0)
		jps_via_succ(ctx, j, s, topo, cx, cy, gc, va, ia, tie_f);
	if (vb >= 0)
		jps_via_succ(ctx, j, s, topo, cx, cy, gc, vb, ib, tie_f);
	return true;
}

/*
 * Diagonal jump from (x, y), a jump point at g ug, along direction i =
 * (dx, dy): each diagonal step needs both orthogonal cells free (without
 * corner cutting diagonals force nothing).  A diagonal cell from which a
 * straight jump finds a jump point is passed through (jps_through).
 * Returns the cell for the caller to relax (the goal, or a jump point
 * recorded already), or -1.
 */
static int jump_d(struct path_ctx *ctx, const struct jps *j, const struct search *s, int x, int y, int i,
		  int64_t ug, uint64_t tie_f)
{
	const int dx = GRID_SQUARE_DX[i], dy = GRID_SQUARE_DY[i];
	int64_t g = ug;
	for (;;) {
		if (!jfree(j, x + dx, y) || !jfree(j, x, y + dy) || !jfree(j, x + dx, y + dy))
			return -1;
		x += dx;
		y += dy;
		g += j->s2;
		const int c = y * j->w + x;
		if (c == j->goal)
			return c;
		const int vh = jump_h(j, x, y, dx), vv = jump_v(j, x, y, dy);
		int ret;
		if ((vh >= 0 || vv >= 0) &&
		    !jps_through(ctx, j, s, GRID_SQUARE8, x, y, g, sq_opp[i], vh, dx < 0 ? 1 : 2, vv, dy < 0 ? 0 : 3,
				 tie_f, &ret))
			return ret;
	}
}

/* The jump point search proper.  Returns PATH_FOUND or PATH_NO_ROUTE. */
static __attribute__((noinline)) enum path_status
jps_search(struct path_ctx *ctx, int start, int goal, const struct search *s,
				   long *expanded_out)
{
	const int w = ctx->w;
	const struct jps j = jps_begin(ctx, start, goal, s, GRID_SQUARE8);
	ctx->jps_via = true;
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	long expanded = 0;

	while (ctx->queue.heap_len > 0 || ctx->queue.stack_len > 0) {
		const qkey uk = queue_pop(ctx);
		const int u = pq_cell(uk);
		const uint64_t tie_f = pq_f(uk);
		if (ctx->queue.heap_len > 0) /* the likely next jump point: fetch its record meanwhile */
			__builtin_prefetch(&node[pq_cell(ctx->queue.key[0])]);
		expanded++;
		if (u == goal) {
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		if (!queue_room(ctx, 8))
			break; /* no memory: path_find says so */
		const int uy = cell_row(ctx, u), ux = u - uy * w;
		const int64_t ug = (int64_t)ctx->gw[u];
		/* The passable neighbours as a bit mask (bit i: direction i of
		 * GRID_SQUARE_DX/GRID_SQUARE_DY), then the first steps that are legal at all. */
		const uint8_t *c = j.cost + u;
		unsigned raw;
		if (ux > 0 && uy > 0 && ux < w - 1 && uy < j.h - 1) {
			raw = (unsigned)(c[-w] != 0) | (unsigned)(c[-1] != 0) << 1 |
			      (unsigned)(c[1] != 0) << 2 | (unsigned)(c[w] != 0) << 3 |
			      (unsigned)(c[-w - 1] != 0) << 4 | (unsigned)(c[-w + 1] != 0) << 5 |
			      (unsigned)(c[w - 1] != 0) << 6 | (unsigned)(c[w + 1] != 0) << 7;
		} else {
			raw = 0;
			for (int i = 0; i < 8; i++)
				raw |= (unsigned)jfree(&j, ux + GRID_SQUARE_DX[i], uy + GRID_SQUARE_DY[i]) << i;
		}
		const unsigned bn = raw & 1, bw = (raw >> 1) & 1, be = (raw >> 2) & 1, bs = (raw >> 3) & 1;
		const unsigned legal = raw & (0x0fu | (bn & bw) << 4 | (bn & be) << 5 | (bs & bw) << 6 |
					     (bs & be) << 7);
		/* Directions to try: the natural ones for the arrival, plus those
		 * a forced neighbour opens (N 0, W 1, E 2, S 3, NW 4, NE 5, SW 6, SE 7). */
		unsigned dirs;
		if (node[u].dir == DIR_NONE) {
			dirs = 0xff;
		} else {
			const int arrive = sq_opp[node[u].dir];
			switch (arrive) {
			case 0: /* north */
				dirs = 1u << 0 | ((raw >> 1 & 1) && !(raw >> 6 & 1) ? 1u << 1 | 1u << 4 : 0) |
				       ((raw >> 2 & 1) && !(raw >> 7 & 1) ? 1u << 2 | 1u << 5 : 0);
				break;
			case 3: /* south */
				dirs = 1u << 3 | ((raw >> 1 & 1) && !(raw >> 4 & 1) ? 1u << 1 | 1u << 6 : 0) |
				       ((raw >> 2 & 1) && !(raw >> 5 & 1) ? 1u << 2 | 1u << 7 : 0);
				break;
			case 1: /* west */
				dirs = 1u << 1 | ((raw & 1) && !(raw >> 5 & 1) ? 1u << 0 | 1u << 4 : 0) |
				       ((raw >> 3 & 1) && !(raw >> 7 & 1) ? 1u << 3 | 1u << 6 : 0);
				break;
			case 2: /* east */
				dirs = 1u << 2 | ((raw & 1) && !(raw >> 4 & 1) ? 1u << 0 | 1u << 5 : 0) |
				       ((raw >> 3 & 1) && !(raw >> 6 & 1) ? 1u << 3 | 1u << 7 : 0);
				break;
			default: {
				/* diagonal arrival: the two straights and the diagonal */
				const int dx = GRID_SQUARE_DX[arrive], dy = GRID_SQUARE_DY[arrive];
				dirs = (1u << (dx < 0 ? 1 : 2)) | (1u << (dy < 0 ? 0 : 3)) | (1u << arrive);
				break;
			}
			}
		}
		dirs &= legal;
		/* All the jumps first, each successor's record prefetched: jump
		 * points lie apart, so their records are mostly cache misses, and
		 * this overlaps them with the remaining jumps. */
		int succ[8], sdir[8], ns = 0;
		while (dirs) {
			const int i = __builtin_ctz(dirs);
			dirs &= dirs - 1;
			const int dx = GRID_SQUARE_DX[i], dy = GRID_SQUARE_DY[i];
			int v;
			if (i < 4)
				v = dx ? jump_h(&j, ux, uy, dx) : jump_v(&j, ux, uy, dy);
			else
				v = jump_d(ctx, &j, s, ux, uy, i, ug, tie_f);
			if (v < 0)
				continue;
			__builtin_prefetch(&node[v], 1);
			__builtin_prefetch(&ctx->gw[v], 1);
			succ[ns] = v;
			sdir[ns++] = i;
		}
		for (int t = 0; t < ns; t++) {
			const int v = succ[t], i = sdir[t];
			const int vy = cell_row(ctx, v), vx = v - vy * w;
			const int k = iabs(vx - ux) > iabs(vy - uy) ? iabs(vx - ux) : iabs(vy - uy);
			const int64_t ng = ug + (int64_t)k * (i < 4 ? j.s1 : j.s2);
			const qkey key = search_key(s, v, ng, heuristic(GRID_SQUARE8, vx, vy, j.gx, j.gy, j.s1, j.s2));
			jps_relax(ctx, v, gen, ng, key, sq_opp[i], tie_f);
		}
	}
	*expanded_out = expanded;
	return PATH_NO_ROUTE;
}

/*
 * Jump point search on square4 (uniform cost).  The canonical routes turn
 * from vertical to horizontal freely and from horizontal to vertical only
 * where a wall forces it, as JPS on square8 goes diagonal first: so a
 * vertical move plays the diagonal's part.  A horizontal jump stops where
 * the cell beside it is free and the one diagonally behind is blocked (the
 * same forced neighbours as scan_forward's, 64 cells a word on the bit
 * rows); a vertical jump steps one cell at a time, and a cell from which a
 * horizontal jump, either way, finds a jump point is passed through
 * (jps_through, as square8's diagonal).
 */
static int jump_v4(struct path_ctx *ctx, const struct jps *j, const struct search *s, int x, int y, int i,
		   int64_t ug, uint64_t tie_f)
{
	const int dy = GRID_SQUARE_DY[i];
	int64_t g = ug;
	for (;;) {
		y += dy;
		g += j->s1;
		if (!jfree(j, x, y))
			return -1;
		const int c = y * j->w + x;
		if (c == j->goal)
			return c;
		const int vw = jump_h(j, x, y, -1), ve = jump_h(j, x, y, 1);
		int ret;
		if ((vw >= 0 || ve >= 0) &&
		    !jps_through(ctx, j, s, GRID_SQUARE4, x, y, g, sq_opp[i], vw, 1, ve, 2, tie_f, &ret))
			return ret;
	}
}

/* The search proper, as jps_search.  Returns PATH_FOUND or PATH_NO_ROUTE. */
static __attribute__((noinline)) enum path_status
jps4_search(struct path_ctx *ctx, int start, int goal, const struct search *s, long *expanded_out)
{
	const int w = ctx->w;
	const struct jps j = jps_begin(ctx, start, goal, s, GRID_SQUARE4);
	ctx->jps_via = true;
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	long expanded = 0;

	while (ctx->queue.heap_len > 0 || ctx->queue.stack_len > 0) {
		const qkey uk = queue_pop(ctx);
		const int u = pq_cell(uk);
		const uint64_t tie_f = pq_f(uk);
		if (ctx->queue.heap_len > 0)
			__builtin_prefetch(&node[pq_cell(ctx->queue.key[0])]);
		expanded++;
		if (u == goal) {
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		if (!queue_room(ctx, 8))
			break; /* no memory: path_find says so */
		const int uy = cell_row(ctx, u), ux = u - uy * w;
		const int64_t ug = (int64_t)ctx->gw[u];
		/* Directions to try (N 0, W 1, E 2, S 3): all four from the start;
		 * after a vertical arrival on, and both horizontals; after a
		 * horizontal one on, and a vertical side that is free where the
		 * cell behind it is blocked. */
		unsigned dirs;
		if (node[u].dir == DIR_NONE) {
			dirs = 0x0f;
		} else {
			const int arrive = sq_opp[node[u].dir];
			if (arrive == 0 || arrive == 3) {
				dirs = 1u << arrive | 1u << 1 | 1u << 2;
			} else {
				const int dx = GRID_SQUARE_DX[arrive];
				dirs = 1u << arrive;
				if (jfree(&j, ux, uy - 1) && !jfree(&j, ux - dx, uy - 1))
					dirs |= 1u << 0;
				if (jfree(&j, ux, uy + 1) && !jfree(&j, ux - dx, uy + 1))
					dirs |= 1u << 3;
			}
		}
		int succ[4], sdir[4], ns = 0;
		while (dirs) {
			const int i = __builtin_ctz(dirs);
			dirs &= dirs - 1;
			const int v = (i == 1 || i == 2) ? jump_h(&j, ux, uy, GRID_SQUARE_DX[i])
							 : jump_v4(ctx, &j, s, ux, uy, i, ug, tie_f);
			if (v < 0)
				continue;
			__builtin_prefetch(&node[v], 1);
			__builtin_prefetch(&ctx->gw[v], 1);
			succ[ns] = v;
			sdir[ns++] = i;
		}
		for (int t = 0; t < ns; t++) {
			const int v = succ[t], i = sdir[t];
			const int vy = cell_row(ctx, v), vx = v - vy * w;
			const int64_t ng = ug + (int64_t)(iabs(vx - ux) + iabs(vy - uy)) * j.s1;
			const qkey key = search_key(s, v, ng, heuristic(GRID_SQUARE4, vx, vy, j.gx, j.gy, j.s1, j.s2));
			jps_relax(ctx, v, gen, ng, key, sq_opp[i], tie_f);
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
#define JPS_CHAIN 256 /* jump points of a route jps_result keeps between its walks */
/*
 * The previous jump point on a square jump search's route.  A jump point
 * records only the direction back to its parent, so the parent is the
 * first expanded cell back along that line whose g plus the line's length
 * gives exactly g(cell) (the recorded parent always qualifies; an earlier
 * one is as good, and g strictly falls along the chain, so it cannot loop).
 * Each cell's g is tested first (one word, the g wanted falling a step
 * each time), its record only on a match: reading every record first cost
 * 6-9% of a query on the open maps.  -1 at the start; -2 when the line
 * holds no such cell (a broken chain: never seen, but a fault must not
 * walk off the map; jps_result then hands the query to plain A*).
 */
static int jps_parent(const struct path_ctx *ctx, int cell, int *steps)
{
	const int d = ctx->node[cell].dir;
	if (d == DIR_NONE)
		return -1;
	const int delta = GRID_SQUARE_DY[d] * ctx->w + GRID_SQUARE_DX[d];
	const uint64_t step = (uint64_t)(d < 4 ? ctx->s1 : ctx->s2);
	const uint64_t *gw = ctx->gw;
	const long most = ctx->w > ctx->h ? ctx->w : ctx->h;
	uint64_t want = gw[cell] - step;
	long p = (long)cell + delta;
	for (long k = 1; k <= most && (unsigned long)p < (unsigned long)ctx->n; k++, p += delta, want -= step)
		if (gw[p] == want && ctx->node[p].stamp == ctx->gen && ctx->node[p].pos == POS_CLOSED) {
			*steps = (int)k;
			return (int)p;
		}
	return -2;
}

static bool jps_result(struct path_ctx *ctx, int start, int goal, long expanded,
		       struct path_result *out)
{
	const int w = ctx->w;
	const uint8_t *cost = ctx->grid->cost;
	if (cost[start] != 1)
		return false;
	/* The chain's jump points and their lines' lengths kept from the
	 * first walk, when they fit, so the second does not look for each
	 * again along its line (the walk was 11% of AR0011SR's queries). */
	int chain[JPS_CHAIN], chain_k[JPS_CHAIN];
	int nchain = 0;
	bool kept = true;
	int len = 1;
	for (int c = goal, p, k; (p = jps_parent(ctx, c, &k)) != -1; c = p) {
		if (p == -2)
			return false;
		len += k;
		if (nchain < JPS_CHAIN) {
			chain[nchain] = p;
			chain_k[nchain++] = k;
		} else {
			kept = false;
		}
	}
	int *cells = result_cells(ctx, len);
	if (!cells)
		return false;
	/* Each line written from its jump point back toward the parent, the
	 * way jps_parent walked it (the cell's direction) */
	int i = len, at = 0;
	for (int c = goal, p, k; (p = kept ? (at < nchain ? (k = chain_k[at], chain[at++]) : -1)
				      : jps_parent(ctx, c, &k)) != -1; c = p) {
		if (p < 0)
			return false;
		const int d = ctx->node[c].dir, step = GRID_SQUARE_DY[d] * w + GRID_SQUARE_DX[d];
		for (int v = c; k > 0; k--, v += step) {
			if (cost[v] != 1)
				return false;
			cells[--i] = v;
		}
	}
	cells[0] = start;
	out->status = PATH_FOUND;
	out->cells = cells;
	out->len = len;
	out->end = goal;
	out->cost = route_cost(ctx, cells, len, 0.0, NULL);
	out->steps = len - 1;
	out->expanded = expanded;
	out->reached = true;
	out->blocked_crossed = 0;
	out->first_blocked = -1;
	return true;
}

/* ---- the public entry points ---- */

static bool use_jps(const struct path_ctx *ctx, const struct path_options *opt)
{
	return !opt->plain_astar &&
	       (ctx->jps_pays || (opt->jps_always && grid_is_square(ctx->grid->topo))) &&
	       ctx->grid->cost == ctx->grid->bits_of &&
	       opt->weight == 1.0 &&
	       !opt->corner_cutting && !opt->fallback && opt->budget <= 0 && !opt->extra;
}

/* ---- the fallback over region labels (path_options.regions) ---- */

/*
 * With automatic P the fallback's layers are: layer 0, the start's region
 * (the start passable); layer 1, the blocked cells next to it and every
 * passable cell they lead to outside it; and so on.  When the goal lies
 * outside the start's region (the labels say so at once) and one blocked
 * cell can reach it, the answer is in layer 1, and the layered search
 * finds it only after settling all of layer 0, the whole start region.
 *
 * fallback_near finds the same answer without that: one heap holds both
 * layers, ordered by f first, then layer 0 before layer 1, then each
 * layer's own tie rule (larger g, lower cell).  A layer-1 cell is popped
 * only when every layer-0 cell of no larger f has been, so its g and its
 * parent are those the whole layer 0 would have given it (a layer-0 cell
 * popped later has a larger f, and by the heuristic's consistency offers
 * a larger g); and the layer-1 cells come out in the order the layered
 * search pops them, up to the goal.  What the layered search learns from
 * having closed all of layer 0 the labels tell instead: a passable cell
 * of the start's region is closed to layer 1, and a blocked cell whose
 * passable neighbours all lie in that region (and which is not the goal)
 * is never queued, as layer_next sets it aside.  Blocked cells offered
 * from layer 1 belong to layer 2 and are not needed.  So the search stops
 * at the goal's f rather than at the start region's end: about what an A*
 * to the goal costs.  tests/core/test_region.c holds it to the layered
 * search on every topology.
 *
 * Returns PATH_FOUND with *end the goal, or PATH_NO_ROUTE when layer 1
 * does not hold the goal, or (with a budget: path_options.near_exact) when
 * it is not found within the budget's expansions: the caller runs the
 * layered search.
 */
static inline qkey near_key(const struct search *s, int cell, int64_t g, int64_t h, unsigned layer)
{
	return make_key((uint64_t)(g + h) << 1 | layer, (uint32_t)((uint64_t)h >> s->hshift), cell);
}

/* Whether blocked cell b, offered by layer 0, would be queued in layer 1:
 * the goal, or a cell with a passable neighbour outside the start's region. */
static bool near_useful(const struct path_ctx *ctx, const struct region *rg, int32_t home, int b, int goal)
{
	if (b == goal)
		return true;
	const enum grid_topology topo = ctx->grid->topo;
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, bx = b % w, by = b / w;
	for (int i = 0; i < grid_dir_count(topo); i++) {
		const int nx = bx + grid_nb_dx(topo, by, i), ny = by + grid_nb_dy(topo, i);
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)ctx->h)
			continue;
		const int v = ny * w + nx;
		if (cost[v] && region_of(rg, v) != home)
			return true;
	}
	return false;
}

/* Regions of at most this many cells are walked to learn whether one
 * blocked cell joins them to the start's region; larger ones are not
 * (the search itself then finds out). */
#define NEAR_WALK_LIMIT (1 << 18)

/*
 * Whether one blocked cell (not solid) can lead from the start's region
 * `home` to the goal: for a blocked goal, whether it touches that region;
 * for a goal in another region, whether a blocked cell touches both (true
 * without looking when the goal's region is large).  Uses the records and
 * the queue's memory; the caller starts a new generation after it.
 */
static bool near_possible(struct path_ctx *ctx, const struct region *rg, int32_t home, int goal,
			  const uint8_t *solid)
{
	const enum grid_topology topo = ctx->grid->topo;
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h, dirs = grid_dir_count(topo);
	if (solid && solid[goal])
		return false;
	if (!cost[goal]) {
		const int gx = goal % w, gy = goal / w;
		for (int i = 0; i < dirs; i++) {
			const int nx = gx + grid_nb_dx(topo, gy, i), ny = gy + grid_nb_dy(topo, i);
			if ((unsigned)nx < (unsigned)w && (unsigned)ny < (unsigned)hgt && cost[ny * w + nx] &&
			    region_of(rg, ny * w + nx) == home)
				return true;
		}
		return false;
	}
	if (region_size(rg, goal) > NEAR_WALK_LIMIT)
		return true;
	const int32_t there = region_of(rg, goal);
	int *walk = result_cells(ctx, region_size(rg, goal)); /* the walk's FIFO, in the idle heap's memory */
	if (!walk)
		return true; /* the search finds out */
	const uint16_t gen = ctx->gen;
	long head = 0, tail = 0;
	walk[tail++] = goal;
	ctx->node[goal].stamp = gen;
	while (head < tail) {
		const int c = walk[head++], cx = c % w, cy = c / w;
		for (int i = 0; i < dirs; i++) {
			const int nx = cx + grid_nb_dx(topo, cy, i), ny = cy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			if (ctx->node[v].stamp == gen)
				continue;
			ctx->node[v].stamp = gen;
			if (cost[v]) {
				if (region_of(rg, v) == there)
					walk[tail++] = v;
				continue;
			}
			if (solid && solid[v])
				continue;
			const int bx = nx, by = ny;
			for (int k = 0; k < dirs; k++) {
				const int mx = bx + grid_nb_dx(topo, by, k), my = by + grid_nb_dy(topo, k);
				if ((unsigned)mx < (unsigned)w && (unsigned)my < (unsigned)hgt && cost[my * w + mx] &&
				    region_of(rg, my * w + mx) == home)
					return true;
			}
		}
	}
	return false;
}

static inline __attribute__((always_inline)) enum path_status
near_loop(struct path_ctx *ctx, const struct search *s, const struct region *rg, const enum grid_topology topo,
	  int *end, long *expanded_out)
{
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h, dirs = grid_dir_count(topo);
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	const int64_t s1 = s->s1, s2 = s->s2;
	const int32_t home = region_of(rg, s->start);
	struct node *node = ctx->node;
	const uint16_t gen = ctx->gen;
	struct pq *q = &ctx->queue;
	long expanded = 0;

	node[s->start] = (struct node){ .pos = 0, .stamp = gen, .dir = DIR_NONE };
	ctx->gw[s->start] = 0;
	pq_sift_up(q, node, (int)q->heap_len++,
		   near_key(s, s->start, 0, heuristic(topo, s->start % w, s->start / w, s->gx, s->gy, s1, s2), 0));
	while (q->heap_len > 0) {
		const qkey uk = pq_pop(q, node);
		const int u = pq_cell(uk);
		const unsigned layer = (unsigned)(pq_f(uk) & 1);
		node[u].pos = POS_CLOSED;
		expanded++;
		if (u == s->goal) {
			*end = u;
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		if (s->budget > 0 && expanded >= s->budget)
			break; /* near_exact: the caller's bounded search answers */
		if (!queue_room(ctx, dirs))
			break; /* no memory: the layered search runs, and says so */
		const int uy = u / w, ux = u - uy * w;
		const int64_t ug = (int64_t)ctx->gw[u];
		const bool u_open = cost[u] != 0;
		for (int i = 0; i < dirs; i++) {
			const int nx = ux + grid_nb_dx(topo, uy, i), ny = uy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			const unsigned cv = cost[v];
			const int64_t step = grid_nb_long(topo, i) ? s2 : s1;
			int64_t ng;
			unsigned vlayer;
			bool park = false; /* a blocked cell layer_next would set aside */
			if (cv) {
				if (layer == 1 && region_of(rg, v) == home)
					continue; /* closed by layer 0 */
				if (i >= 4 && u_open && !s->corner_cutting &&
				    ((topo == GRID_SQUARE8 && (!cost[uy * w + nx] || !cost[ny * w + ux])) ||
				     (topo == GRID_DIAMOND8 && !grid_diamond_flanks_open(cost, w, hgt, ux, uy, i))))
					continue;
				ng = ug + step * (int64_t)cv;
				if (s->extra)
					ng += (int64_t)s->extra[v] << s->extra_shift;
				vlayer = layer;
			} else {
				if (layer == 1 || (s->solid && s->solid[v]))
					continue; /* layer 2, or never */
				ng = ug + step;
				vlayer = 1;
			}
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				ctx->gw[v] = (uint64_t)ng;
				nv->dir = opp[i];
				park = !cv && !near_useful(ctx, rg, home, v, s->goal);
				if (park)
					nv->pos = POS_PENDING0;
				else
					pq_sift_up(q, node, (int)q->heap_len++,
						   near_key(s, v, ng, heuristic(topo, nx, ny, s->gx, s->gy, s1, s2), vlayer));
				continue;
			}
			if (nv->pos == POS_CLOSED || ng >= (int64_t)ctx->gw[v])
				continue;
			ctx->gw[v] = (uint64_t)ng;
			nv->dir = opp[i];
			if (nv->pos >= 0)
				pq_sift_up(q, node, nv->pos,
					   near_key(s, v, ng, heuristic(topo, nx, ny, s->gx, s->gy, s1, s2), vlayer));
		}
	}
	*end = s->start;
	*expanded_out = expanded;
	return PATH_NO_ROUTE;
}

/* Returns loop(ctx, s, rg, TOPO, end, ex) with the grid's topology as the
 * constant TOPO, so that each topology gets its own compiled loop. */
#define BY_TOPOLOGY(loop, ctx, s, rg, end, ex)                          \
	do {                                                            \
		switch ((ctx)->grid->topo) {                            \
		case GRID_SQUARE4:                                      \
			return loop(ctx, s, rg, GRID_SQUARE4, end, ex); \
		case GRID_SQUARE8:                                      \
			return loop(ctx, s, rg, GRID_SQUARE8, end, ex); \
		case GRID_DIAMOND4:                                     \
			return loop(ctx, s, rg, GRID_DIAMOND4, end, ex); \
		case GRID_DIAMOND8:                                     \
			return loop(ctx, s, rg, GRID_DIAMOND8, end, ex); \
		case GRID_HEX:                                          \
			break;                                          \
		}                                                       \
		return loop(ctx, s, rg, GRID_HEX, end, ex);             \
	} while (0)

/* near_loop compiled once per topology (the constant `topo`), as astar_loop is. */
static enum path_status fallback_near(struct path_ctx *ctx, const struct search *s, const struct region *rg,
				      int *end, long *ex)
{
	BY_TOPOLOGY(near_loop, ctx, s, rg, end, ex);
}

/*
 * fallback_one: fallback_near's answer (the layered search's, cell for
 * cell) without its heap: the first layer by the plain A* loop, the
 * second from the goal's side.  The goal is one blocked cell from the
 * start's region `home`: blocked itself (a click on a wall), or in another
 * region R of at most NEAR_WALK_LIMIT cells (a sealed region).
 *
 * 1. The set B of blocked cells a route may cross: the goal itself, or the
 *    cells (not solid) that touch both home and R.  For each b in B a real
 *    route's cost L(b) from b to the goal: 0 for a blocked goal, else a
 *    Dijkstra from the goal over R, backwards (a step's cost is its
 *    target's).  The targets: the cells of home beside B, each with togo =
 *    the least step into some b plus its L(b).
 * 2. Layer 0: the A* loop from the start toward the goal, as plain A* in
 *    the bucket ring (every grid), with the same keys and rules
 *    as fallback_near's layer 0, so its pops, g and parents are the same,
 *    pop for pop.  It records the g and rank of each target it pops and
 *    stops at the first pop whose f exceeds U, the least g + togo so far.  U is a real route's cost, so it
 *    is at least the answer's T; when it stops every cell of f <= T has
 *    been popped, which is all fallback_near pops of layer 0 before the goal.
 * 3. Each b in B gets the g and parent fallback_near gives it: the least
 *    g(p) + step over the popped targets p beside it, a tie to the one
 *    popped first.  A blocked goal is then done.  Else layer 1 runs over B
 *    and R alone, with fallback_near's keys and rules: its cells there are
 *    reached only from B and R, in the same order as there (a b's g is
 *    final before it pops, in both), so the route from the goal back to
 *    its b, that b's parent, and the start is the same.
 *
 * True with *end the goal; false when it does not apply or runs out of
 * memory (the caller runs fallback_near).  Uses the records of two
 * generations.
 */
/* fallback_one walks a goal region of at most ONE_WALK_BASE cells, or
 * ONE_WALK_PER_STEP a step of the heuristic's distance to the goal. */
#define ONE_WALK_BASE 1024
#define ONE_WALK_PER_STEP 64

static bool one_grow(void **buf, long *cap, long need, size_t size)
{
	if (need <= *cap)
		return true;
	long c = *cap > 0 ? 2 * *cap : 64;
	while (c < need)
		c *= 2;
	void *p = realloc(*buf, (size_t)c * size);
	if (!p)
		return false;
	*buf = p;
	*cap = c;
	return true;
}

/* The cell one step i from (x, y) when it lies on the map, is open and is
 * in region `home`; -1 otherwise. */
static inline int home_step(const struct path_ctx *ctx, const struct region *rg, int x, int y, int i, int32_t home)
{
	const enum grid_topology topo = ctx->grid->topo;
	const int nx = x + grid_nb_dx(topo, y, i), ny = y + grid_nb_dy(topo, i);
	if ((unsigned)nx >= (unsigned)ctx->w || (unsigned)ny >= (unsigned)ctx->h)
		return -1;
	const int p = ny * ctx->w + nx;
	return ctx->grid->cost[p] && region_of(rg, p) == home ? p : -1;
}

static int target_cmp(const void *a, const void *b)
{
	const int x = ((const struct target *)a)->cell, y = ((const struct target *)b)->cell;
	return (x > y) - (x < y);
}

static bool fallback_one(struct path_ctx *ctx, const struct search *s, const struct region *rg, int *end,
			 long *ex)
{
	const enum grid_topology topo = ctx->grid->topo;
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h, dirs = grid_dir_count(topo);
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	const int64_t s1 = s->s1, s2 = s->s2;
	const int32_t home = region_of(rg, s->start);
	const int goal = s->goal;
	const bool wall = !cost[goal];
	const int32_t there = wall ? -1 : region_of(rg, goal);
	struct node *node = ctx->node;
	uint64_t *gw = ctx->gw;
	long nb = 0, expanded = 0;
	/* R is walked whole: not when that could cost more than the search it
	 * spares (fallback_near explores about what an A* to the goal does) */
	const int64_t dist = heuristic(topo, s->start % w, s->start / w, s->gx, s->gy, s1, s2) / s1;
	if (!wall && (region_size(rg, goal) > NEAR_WALK_LIMIT || region_size(rg, goal) > ONE_WALK_BASE + ONE_WALK_PER_STEP * dist))
		return false;

	/* 1. B and L (the records of this generation) */
	uint16_t gen = ctx->gen;
	if (wall) {
		if (!one_grow((void **)&ctx->one_b, &ctx->one_b_cap, 1, sizeof *ctx->one_b))
			return false;
		ctx->one_b[nb++] = goal;
		node[goal] = (struct node){ .pos = POS_CLOSED, .stamp = gen, .dir = DIR_NONE };
		gw[goal] = 0;
	} else {
		if (!queue_reserve(ctx, region_size(rg, goal) + 1))
			return false;
		node[goal] = (struct node){ .pos = POS_CLOSED, .stamp = gen, .dir = DIR_NONE };
		gw[goal] = 0;
		queue_push(ctx, make_key(0, 0, goal), NO_TIE_F);
		while (!pq_empty(&ctx->queue)) {
			const int x = pq_cell(queue_pop(ctx));
			const int xy = x / w, xx = x - xy * w;
			const int64_t dx = (int64_t)gw[x];
			for (int i = 0; i < dirs; i++) {
				const int nx = xx + grid_nb_dx(topo, xy, i), ny = xy + grid_nb_dy(topo, i);
				if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
					continue;
				const int v = ny * w + nx;
				const int j = opp[i]; /* the step from v to x */
				int64_t c = (grid_nb_long(topo, i) ? s2 : s1) * (int64_t)cost[x];
				if (s->extra)
					c += (int64_t)s->extra[x] << s->extra_shift;
				struct node *nv = &node[v];
				if (!cost[v]) {
					/* a blocked cell beside R: in B when it touches home */
					if (s->solid && s->solid[v])
						continue;
					if (nv->stamp != gen) {
						nv->stamp = gen;
						nv->pos = POS_CLOSED;
						gw[v] = (uint64_t)(dx + c);
						bool touches = false;
						for (int k = 0; k < dirs && !touches; k++)
							touches = home_step(ctx, rg, nx, ny, k, home) >= 0;
						nv->dir = touches;
						if (touches) {
							if (!one_grow((void **)&ctx->one_b, &ctx->one_b_cap, nb + 1,
								      sizeof *ctx->one_b))
								return false;
							ctx->one_b[nb++] = v;
						}
					} else if (dx + c < (int64_t)gw[v]) {
						gw[v] = (uint64_t)(dx + c);
					}
					continue;
				}
				if (region_of(rg, v) != there)
					continue;
				if (grid_nb_long(topo, j) && !s->corner_cutting &&
				    ((topo == GRID_SQUARE8 && (!cost[ny * w + xx] || !cost[xy * w + nx])) ||
				     (topo == GRID_DIAMOND8 && !grid_diamond_flanks_open(cost, w, hgt, nx, ny, j))))
					continue;
				if (nv->stamp != gen) {
					nv->stamp = gen;
					gw[v] = (uint64_t)(dx + c);
					queue_push(ctx, make_key((uint64_t)(dx + c), 0, v), NO_TIE_F);
				} else if (nv->pos >= 0 && dx + c < (int64_t)gw[v]) {
					gw[v] = (uint64_t)(dx + c);
					sift_up(ctx, nv->pos, make_key((uint64_t)(dx + c), 0, v));
				}
			}
		}
	}
	if (nb == 0)
		return false;
	/* the targets: home's cells beside B (their records are still free) */
	long nt = 0;
	for (long k = 0; k < nb; k++) {
		const int b = ctx->one_b[k], by = b / w, bx = b - by * w;
		const int64_t lb = (int64_t)gw[b];
		for (int i = 0; i < dirs; i++) {
			const int p = home_step(ctx, rg, bx, by, i, home);
			if (p < 0)
				continue;
			const int64_t togo = lb + (grid_nb_long(topo, i) ? s2 : s1);
			if (node[p].stamp != gen) {
				if (!one_grow((void **)&ctx->one_t, &ctx->one_t_cap, nt + 1, sizeof *ctx->one_t))
					return false;
				node[p].stamp = gen;
				node[p].pos = (int32_t)nt;
				ctx->one_t[nt++] = (struct target){ .cell = p, .order = -1, .togo = togo };
			} else if (togo < ctx->one_t[node[p].pos].togo) {
				ctx->one_t[node[p].pos].togo = togo;
			}
		}
	}
	if (nt == 0)
		return false;
	qsort(ctx->one_t, (size_t)nt, sizeof *ctx->one_t, target_cmp);
	struct targets tg = { .t = ctx->one_t, .n = (int)nt, .lo = ctx->one_t[0].cell, .bound = UINT64_MAX,
			      .span = (unsigned)(ctx->one_t[nt - 1].cell - ctx->one_t[0].cell) };

	/* 2. layer 0 */
	new_generation(ctx);
	gen = ctx->gen;
	tg.gen = (uint16_t)(gen - 1); /* reset at the first pop */
	struct search s0 = *s;
	s0.fallback = false;
	s0.layered = false;
	s0.solid = NULL;
	s0.tg = &tg;
	int e0 = s->start;
	long ex0 = 0;
	/* counted as fallback_near counts: not the pop that stopped it, but
	 * the goal's pop when it is blocked (layer 1's pops below) */
	const enum path_status st0 = astar(ctx, &s0, &e0, &ex0);
	expanded += ex0 - (st0 == PATH_FOUND) + wall;
	gen = ctx->gen; /* astar() may have begun again in a new one */
	if (ctx->no_memory)
		return false;

	/* 3. B's g and parents */
	ctx->queue.heap_len = 0;
	ctx->queue.stack_len = 0;
	if (!wall && !queue_reserve(ctx, region_size(rg, goal) + nb + 1))
		return false;
	for (long k = 0; k < nb; k++) {
		const int b = ctx->one_b[k], by = b / w, bx = b - by * w;
		int64_t best = -1;
		int32_t rank = -1;
		int dir = -1;
		for (int i = 0; i < dirs; i++) {
			const int p = home_step(ctx, rg, bx, by, i, home);
			if (p < 0)
				continue;
			const struct target key = { .cell = p };
			const struct target *t = bsearch(&key, tg.t, (size_t)tg.n, sizeof *tg.t, target_cmp);
			if (!t || t->order < 0)
				continue;
			const int64_t ng = t->g + (grid_nb_long(topo, i) ? s2 : s1);
			if (best < 0 || ng < best || (ng == best && t->order < rank)) {
				best = ng;
				rank = t->order;
				dir = i;
			}
		}
		if (dir < 0)
			continue;
		node[b] = (struct node){ .pos = POS_CLOSED, .stamp = gen, .dir = (uint8_t)dir };
		gw[b] = (uint64_t)best;
		if (!wall)
			sift_up(ctx, (int)ctx->queue.heap_len++,
				search_key(s, b, best, heuristic(topo, bx, by, s->gx, s->gy, s1, s2)));
	}
	if (wall) {
		*end = goal;
		*ex = expanded;
		return node[goal].stamp == gen && node[goal].dir != DIR_NONE;
	}

	/* layer 1, over B and R */
	while (!pq_empty(&ctx->queue)) {
		const int u = pq_cell(queue_pop(ctx));
		expanded++;
		if (u == goal) {
			*end = u;
			*ex = expanded;
			return true;
		}
		const int uy = u / w, ux = u - uy * w;
		const int64_t ug = (int64_t)gw[u];
		const bool u_open = cost[u] != 0;
		for (int i = 0; i < dirs; i++) {
			const int nx = ux + grid_nb_dx(topo, uy, i), ny = uy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			const unsigned cv = cost[v];
			if (!cv || region_of(rg, v) != there)
				continue; /* layer 2, or out of R */
			if (i >= 4 && u_open && !s->corner_cutting &&
			    ((topo == GRID_SQUARE8 && (!cost[uy * w + nx] || !cost[ny * w + ux])) ||
			     (topo == GRID_DIAMOND8 && !grid_diamond_flanks_open(cost, w, hgt, ux, uy, i))))
				continue;
			int64_t ng = ug + (grid_nb_long(topo, i) ? s2 : s1) * (int64_t)cv;
			if (s->extra)
				ng += (int64_t)s->extra[v] << s->extra_shift;
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				gw[v] = (uint64_t)ng;
				nv->dir = opp[i];
				queue_push(ctx, search_key(s, v, ng, heuristic(topo, nx, ny, s->gx, s->gy, s1, s2)),
					   NO_TIE_F);
				continue;
			}
			if (nv->pos == POS_CLOSED || ng >= (int64_t)gw[v])
				continue;
			gw[v] = (uint64_t)ng;
			nv->dir = opp[i];
			if (nv->pos >= 0)
				sift_up(ctx, nv->pos, search_key(s, v, ng, heuristic(topo, nx, ny, s->gx, s->gy, s1, s2)));
		}
	}
	return false;
}

/*
 * fallback_deep: a goal two or more blocked cells from the start's region
 * `home` (a click deep in rock, or into a region sealed by thick walls),
 * without settling home.  Queries without a budget, automatic P, weight 1,
 * current labels.  The answer has the layered search's key, the fewest
 * blocked cells W and then the least cost T (in the query's fixed point),
 * but not always its route: among routes of equal key the layered search's
 * choice depends on the pop order of the whole of home (docs/core.md,
 * "Deep goals"), and this search keeps its own tie rule, A*'s over the
 * pair: the least (blocked cells so far + their bound on to the goal),
 * then the least f = g + h, then the larger g, then the lower cell.
 *
 * 1. The count, from the goal's side: w(c), the fewest blocked cells a
 *    route from c to the goal enters (c itself not counted), with the
 *    fallback's own moves: a step into a passable cell counts 0 (between
 *    two passable cells it keeps the corner rule), a step into a blocked
 *    cell 1 (no corner rule), solid cells are never entered.  Breadth
 *    first, a level at a time, from the goal backwards: a level's passable
 *    cells pass it to their neighbours at once, its blocked cells make the
 *    next level.  It stops at the first cell of home it meets, at level W
 *    (every cell of home has w = W: they join at no cost), with every cell
 *    of w < W counted.  Each counted cell keeps its w in its record (pos
 *    POS_COUNTED, aux w, and past 255 deep_hi: deep_w), in the generation
 *    the A* then runs in.
 * 2. A* from the start over the pair (blocked cells, g) as one integer,
 *    blocked << DEEP_WALL_SHIFT | g, with the heuristic w'(c) << DEEP_WALL_SHIFT
 *    | h(c), where w'(c) is the count's w for counted cells and W for the
 *    rest (all of them have w >= W then).  w' is a lower bound and
 *    consistent (a step into a blocked cell lowers it by at most 1, into a
 *    passable one not at all, and where it does not drop the plain h
 *    covers the step), so the first pop of the goal is optimal for the
 *    pair, which is the lexicographic order.  No cell of the answer has
 *    blocked + w' > W; those are never queued, so the search expands only
 *    cells on routes through W blocked cells, and of them the ones with
 *    f below T (and ties): in home, about what an A* toward the goal pops.
 *    Without a budget and without extra costs, deep_plain answers instead, after the count: the same key, home on
 *    the plain A* loop (the bucket ring) with fallback_one's targets, and
 *    its own tie rule (the least g + togo over the targets, then the one
 *    popped first).
 *
 * g must stay below 2^DEEP_G_BITS (far above any route on a 4096x4096
 * level: 2^42 there); else, and without memory, DEEP_NOT: the caller
 * runs the layered search.  DEEP_NO_ROUTE
 * when solid cells wall the goal off from home (the count ends first).
 * With a budget (path_options.near_exact), the cells counted and the A*'s
 * pops together take at most s->budget expansions; DEEP_BUDGET past it.
 * DEEP_THICK: with a budget, W is above DEEP_WALLS_MAX (the count passed
 * that many levels): the query is not answered, as the layered search
 * would first settle the start's region and then as many layers of rock,
 * each about as wide as the region's edge (on diamond8 levels with a
 * region of 110-250 k cells, 25-40 ms of a click for a budget's partial
 * route).  Without a budget the count goes on (wide): each w keeps its
 * high byte in ctx->deep_hi, and the key gives the walls its top 16 bits
 * (DEEP_WIDE_SHIFT), so g must stay below 2^DEEP_WIDE_G_BITS; DEEP_THICK
 * past DEEP_WIDE_MAX walls or without memory for deep_hi, and the layered
 * search answers.  (A goal 1,052-1,534 walls deep on a 4096x4096 rooms
 * level: 76-153 ms of CPU warm, where the layered search took 1.3-1.7 s:
 * docs/perf-log.md, thirty-sixth session.)
 */
#define POS_COUNTED (-3)    /* fallback_deep: counted from the goal, not yet reached by its A* */
#define DEEP_WALL_SHIFT 56
#define DEEP_G_BITS 55
#define DEEP_WALLS_MAX 250  /* blocked + w' of a queued cell is at most W, in the key's top 8 bits */
/* Without a budget the count goes on past DEEP_WALLS_MAX (wide): each w
 * in aux and deep_hi, the key's top 16 bits for the walls. */
#define DEEP_WIDE_SHIFT 48
#define DEEP_WIDE_G_BITS 47
#define DEEP_WIDE_MAX 32000

/* A cell's w (the count's, or w' once the A* reached it): the record's aux,
 * and when the count is wide the byte above it in ctx->deep_hi. */
static inline unsigned deep_w(const struct path_ctx *ctx, int c, bool wide)
{
	return ctx->node[c].aux | (wide ? (unsigned)ctx->deep_hi[c] << 8 : 0u);
}

static inline void deep_set_w(struct path_ctx *ctx, int c, unsigned wv, bool wide)
{
	ctx->node[c].aux = (uint8_t)wv;
	if (wide)
		ctx->deep_hi[c] = (uint8_t)(wv >> 8);
}

/* The count passes DEEP_WALLS_MAX without a budget: the high bytes of the
 * cells counted so far (all below 256) cleared.  False without memory. */
static bool deep_widen(struct path_ctx *ctx, const int *list, long len)
{
	if (!ctx->deep_hi)
		ctx->deep_hi = big_calloc((size_t)ctx->n, 1);
	if (!ctx->deep_hi)
		return false;
	for (long k = 0; k < len; k++)
		ctx->deep_hi[list[k]] = 0;
	return true;
}

/* DEEP_ASTAR and DEEP_AGAIN are deep_plain's alone: the A* over the pair
 * answers in the same generation, or (the records used) in a new one. */
enum deep_status { DEEP_NOT, DEEP_FOUND, DEEP_NO_ROUTE, DEEP_BUDGET, DEEP_THICK, DEEP_ASTAR, DEEP_AGAIN };

/* Room for n ints of the count's list in the queue's memory (it may move). */
static inline int *deep_list(struct path_ctx *ctx, long n)
{
	return result_cells(ctx, n);
}

/* deep_plain's and deep_doors' search in home: s without its fallback,
 * solid cells and budget (the plain A* loop), recording the targets tg. */
static struct search home_layer(const struct search *s, struct targets *tg)
{
	struct search s0 = *s;
	s0.fallback = false;
	s0.layered = false;
	s0.solid = NULL;
	s0.budget = 0;
	s0.tg = tg;
	return s0;
}

/*
 * fallback_deep without a budget: the start's region on the plain A* loop,
 * as fallback_one's first layer, after the count (deep_loop's part 1) has
 * found W = `walls` and left w(c) < W in the records of every cell it
 * counted (`counted` cells in all, the last of them `met`, the cell of
 * home it met).  An answer's route has one stretch in home, from the start
 * to its last cell p there (a route that leaves home and comes back crosses
 * W more blocked cells from there), then a blocked cell d beside p with
 * w(d) = W - 1, then W - 1 blocked cells more, on counted cells alone.
 *
 * 1. L(c), the least cost from each counted cell c of w(c) < W on to the
 *    goal through exactly w(c) blocked cells: a Dijkstra backwards from the
 *    goal over those cells, along the steps c -> x with w(c) = w(x) + (x
 *    blocked) alone (the steps of such routes), costed as the fallback
 *    costs them (into a passable cell step * terrain + extra, the corner
 *    rule between two passable cells; into a blocked cell the plain step).
 *    Its cells keep L in gw and in dir the step on toward the goal.  The
 *    targets: the cells p of home beside a blocked d of w(d) = W - 1, each
 *    with togo = the least step into such a d plus its L(d).
 * 2. Layer 0 of fallback_one: the A* loop from the start toward the goal
 *    with no fallback (plain A* in the bucket ring), in home
 *    alone, recording the targets' g and stopping at the first pop whose f
 *    exceeds the least g + togo so far; every target that can hold the
 *    answer has been popped then (h is at most togo).  The answer's T is the
 *    least g(p) + togo(p), a tie to the target popped first.
 * 3. The route past p: its d (the first direction with step + L(d) = togo)
 *    and L's steps on to the goal get their records turned round, each cell's
 *    dir pointing back, so that build_result reads the whole route from the
 *    goal to the start.
 *
 * All in one generation: the A* touches no cell of the count but `met`,
 * which is set free first (and the targets live in ctx->one_t).  Returns
 * DEEP_FOUND with *end the goal; DEEP_ASTAR when it does not apply and the
 * records are as the count left them (the count too large for its
 * Dijkstra: more cells than ONE_WALK_BASE + ONE_WALK_PER_STEP a step of
 * the heuristic's distance, as fallback_one walks); DEEP_AGAIN when it
 * failed after using them (no memory, or astar() began a new generation):
 * deep_loop's A* answers in a new one.  Its expansions: the cells counted,
 * the Dijkstra's pops and layer 0's.
 */
static __attribute__((noinline)) enum deep_status deep_plain(struct path_ctx *ctx, const struct search *s,
							     const struct region *rg, int walls, bool wide,
							     long counted, int met, int *end, long *ex)
{
	const enum grid_topology topo = ctx->grid->topo;
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h, dirs = grid_dir_count(topo);
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	const bool corners = !s->corner_cutting && (topo == GRID_SQUARE8 || topo == GRID_DIAMOND8);
	const int64_t s1 = s->s1, s2 = s->s2;
	const int32_t home = region_of(rg, s->start);
	const int goal = s->goal;
	struct node *node = ctx->node;
	uint64_t *gw = ctx->gw;
	const uint16_t gen = ctx->gen;
	const int64_t dist = heuristic(topo, s->start % w, s->start / w, s->gx, s->gy, s1, s2) / s1;
	if (counted > ONE_WALK_BASE + ONE_WALK_PER_STEP * dist)
		return DEEP_ASTAR;
	node[met].stamp = 0; /* home's cell is layer 0's (a swept record: gen is never 0) */

	/* 1. L, and the targets (ctx->one_t: a cell may come more than once) */
	long expanded = counted, nt = 0;
	struct pq *q = &ctx->queue;
	q->heap_len = 0;
	q->stack_len = 0;
	if (!queue_reserve(ctx, counted + 1))
		return DEEP_AGAIN;
	node[goal].pos = 0;
	gw[goal] = 0;
	q->key[q->heap_len++] = make_key(0, 0, goal);
	while (!pq_empty(q)) {
		const int x = pq_cell(queue_pop(ctx));
		const int xy = x / w, xx = x - xy * w;
		const int64_t lx = (int64_t)gw[x];
		const unsigned wx = deep_w(ctx, x, wide), cx = cost[x];
		expanded++;
		if (!cx && wx + 1 == (unsigned)walls) {
			for (int i = 0; i < dirs; i++) {
				const int p = home_step(ctx, rg, xx, xy, i, home);
				if (p < 0)
					continue;
				if (!one_grow((void **)&ctx->one_t, &ctx->one_t_cap, nt + 1, sizeof *ctx->one_t))
					return DEEP_AGAIN;
				ctx->one_t[nt++] = (struct target){ .cell = p, .order = -1,
								    .togo = lx + (grid_nb_long(topo, i) ? s2 : s1) };
			}
		}
		/* the cells v one step before x on such a route */
		const unsigned wv = wx + (cx == 0);
		if (wv >= (unsigned)walls)
			continue;
		for (int i = 0; i < dirs; i++) {
			const int nx = xx + grid_nb_dx(topo, xy, i), ny = xy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			struct node *nv = &node[v];
			if (nv->stamp != gen || deep_w(ctx, v, wide) != wv || nv->pos == POS_CLOSED)
				continue;
			const int j = opp[i]; /* the step from v to x */
			if (cx && cost[v] && corners && grid_nb_long(topo, j) &&
			    ((topo == GRID_SQUARE8 && (!cost[ny * w + xx] || !cost[xy * w + nx])) ||
			     (topo == GRID_DIAMOND8 && !grid_diamond_flanks_open(cost, w, hgt, nx, ny, j))))
				continue;
			int64_t c = (grid_nb_long(topo, i) ? s2 : s1) * (int64_t)(cx ? cx : 1);
			if (cx && s->extra)
				c += (int64_t)s->extra[x] << s->extra_shift;
			if (nv->pos == POS_COUNTED) {
				gw[v] = (uint64_t)(lx + c);
				nv->dir = (uint8_t)j;
				queue_push(ctx, make_key((uint64_t)(lx + c), 0, v), NO_TIE_F);
			} else if (lx + c < (int64_t)gw[v]) {
				gw[v] = (uint64_t)(lx + c);
				nv->dir = (uint8_t)j;
				sift_up(ctx, nv->pos, make_key((uint64_t)(lx + c), 0, v));
			}
		}
	}
	CHECK(nt > 0); /* `met`, at least, beside a blocked cell of w = W - 1 */
	if (nt == 0)
		return DEEP_AGAIN;
	qsort(ctx->one_t, (size_t)nt, sizeof *ctx->one_t, target_cmp);
	long k = 0;
	for (long i = 1; i < nt; i++) {
		if (ctx->one_t[i].cell != ctx->one_t[k].cell)
			ctx->one_t[++k] = ctx->one_t[i];
		else if (ctx->one_t[i].togo < ctx->one_t[k].togo)
			ctx->one_t[k].togo = ctx->one_t[i].togo;
	}
	nt = k + 1;
	struct targets tg = { .t = ctx->one_t, .n = (int)nt, .lo = ctx->one_t[0].cell, .bound = UINT64_MAX,
			      .first_wins = true,
			      .span = (unsigned)(ctx->one_t[nt - 1].cell - ctx->one_t[0].cell),
			      .gen = (uint16_t)(gen - 1) /* reset at the first pop */ };

	/* 2. layer 0, in home alone */
	struct search s0 = home_layer(s, &tg);
	int e0 = s->start;
	long ex0 = 0;
	const enum path_status st0 = astar(ctx, &s0, &e0, &ex0);
	if (ctx->no_memory || ctx->gen != gen)
		return DEEP_AGAIN;
	expanded += ex0 - (st0 == PATH_FOUND); /* not the pop that stopped it */
	const struct target *best = NULL;
	for (long i = 0; i < nt; i++) {
		const struct target *t = &tg.t[i];
		if (t->order >= 0 && (!best || t->g + t->togo < best->g + best->togo ||
				      (t->g + t->togo == best->g + best->togo && t->order < best->order)))
			best = t;
	}
	CHECK(best); /* the targets are in home: popped, or the bound stopped it */
	if (!best)
		return DEEP_AGAIN;

	/* 3. the route past home, turned round */
	const int p = best->cell, py = p / w, px = p - py * w;
	int c = -1, back = 0;
	for (int i = 0; i < dirs && c < 0; i++) {
		const int nx = px + grid_nb_dx(topo, py, i), ny = py + grid_nb_dy(topo, i);
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
			continue;
		const int d = ny * w + nx;
		if (!cost[d] && node[d].stamp == gen && node[d].pos == POS_CLOSED &&
		    deep_w(ctx, d, wide) + 1 == (unsigned)walls &&
		    (int64_t)gw[d] + (grid_nb_long(topo, i) ? s2 : s1) == best->togo) {
			c = d;
			back = opp[i];
		}
	}
	CHECK(c >= 0); /* best's togo came from such a d, its L final */
	if (c < 0)
		return DEEP_AGAIN;
	for (;;) {
		const int on = node[c].dir;
		node[c].dir = (uint8_t)back;
		if (on == DIR_NONE)
			break;
		c = step_cell(ctx, c, on);
		back = opp[on];
	}
	CHECK(c == goal);
	*end = goal;
	*ex = expanded;
	return DEEP_FOUND;
}

/* Whether passable u lies in one of the n regions r. */
static inline bool beside_start(const struct region *rg, int u, const int32_t *r, int n)
{
	if (!n)
		return false;
	const int32_t ru = region_of(rg, u);
	for (int k = 0; k < n; k++)
		if (r[k] == ru)
			return true;
	return false;
}

/* deep_doors' exit one step i from door (x, y): an open cell of one of the
 * n home regions, or the start itself where it is blocked; -1 otherwise. */
static inline int door_exit(const struct path_ctx *ctx, const struct region *rg, int start, int x, int y, int i,
			    const int32_t *home, int n)
{
	const enum grid_topology topo = ctx->grid->topo;
	const int nx = x + grid_nb_dx(topo, y, i), ny = y + grid_nb_dy(topo, i);
	if ((unsigned)nx >= (unsigned)ctx->w || (unsigned)ny >= (unsigned)ctx->h)
		return -1;
	const int p = ny * ctx->w + nx;
	if (!ctx->grid->cost[p])
		return p == start ? p : -1;
	return beside_start(rg, p, home, n) ? p : -1;
}

static inline int deep_dist(enum grid_topology topo, int x, int y, int gx, int gy);
static long deep_ring(struct path_ctx *ctx, enum grid_topology topo, int gx, int gy, int b, int *out);

static int seed_cmp(const void *a, const void *b)
{
	const struct seed *x = a, *y = b;
	if (x->cell != y->cell)
		return (x->cell > y->cell) - (x->cell < y->cell);
	if (x->g != y->g)
		return (x->g > y->g) - (x->g < y->g);
	return (x->dir > y->dir) - (x->dir < y->dir);
}

/*
 * deep_doors from a wall past its ball (K = sk >= 1, every cell of d <= K
 * round the start blocked): the open cells of the n home regions on the
 * ring d = K + 1, each at the least cost of a ray of K blocked cells to a
 * cell c of the ring d = K beside it (the grid's heuristic to the start:
 * in rock the least cost of K steps) and the step in at its terrain, into
 * ctx->seed_buf, one a cell, its parent c.  Every route into home with K
 * blocked cells enters it so.  deep_lay_ray lays c's ray after the goal's
 * pop: c's record says DIR_NONE then, as the count left it or as the A*
 * over the pair seeds the ring d = K (every cell of it the count did not
 * reach is seeded there).  Returns how many (0: none, or no memory).
 */
static long deep_entry_seeds(struct path_ctx *ctx, const struct search *s, const struct region *rg,
			     const int32_t *home, int n_home, int sk)
{
	const enum grid_topology topo = ctx->grid->topo;
	const uint8_t *cost = ctx->grid->cost;
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	const int w = ctx->w, dirs = grid_dir_count(topo), sx = s->start % w, sy = s->start / w;
	if (!one_grow((void **)&ctx->ring_buf, &ctx->ring_cap, 8L * sk + 8, sizeof *ctx->ring_buf))
		return 0;
	const long nr = deep_ring(ctx, topo, sx, sy, sk, ctx->ring_buf);
	long ns = 0;
	for (long k = 0; k < nr; k++) {
		const int c = ctx->ring_buf[k], cy = c / w, cx = c - cy * w;
		const int64_t hc = heuristic(topo, cx, cy, sx, sy, s->s1, s->s2);
		for (int i = 0; i < dirs; i++) {
			const int e = door_exit(ctx, rg, -1, cx, cy, i, home, n_home);
			if (e < 0)
				continue;
			const int ey = e / w, ex = e - ey * w;
			if (deep_dist(topo, ex, ey, sx, sy) != sk + 1)
				continue;
			if (!one_grow((void **)&ctx->seed_buf, &ctx->seed_cap, ns + 1, sizeof *ctx->seed_buf))
				return 0;
			ctx->seed_buf[ns++] = (struct seed){
				.cell = e, .g = hc + (grid_nb_long(topo, i) ? s->s2 : s->s1) * (int64_t)cost[e],
				.dir = opp[i] };
		}
	}
	if (ns == 0)
		return 0;
	qsort(ctx->seed_buf, (size_t)ns, sizeof *ctx->seed_buf, seed_cmp);
	long m = 0;
	for (long k = 1; k < ns; k++)
		if (ctx->seed_buf[k].cell != ctx->seed_buf[m].cell)
			ctx->seed_buf[++m] = ctx->seed_buf[k];
	return m + 1;
}

/*
 * fallback_deep without a budget, when deep_plain declines (the count too
 * large for its Dijkstra): the start's region `home` on the plain A* loop
 * first, then the A* over the pair from the doors.  Every answer leaves
 * home from an *exit* p, a cell of home beside a *door* d, a blocked cell
 * of w(d) = W - 1 (deep_plain: "An answer's route has one stretch in
 * home").  So:
 * 1. the exits and the doors, from list[lo .. hi) (the count's last level
 *    of blocked cells, w = W - 1), read before the queue's memory, where
 *    the list lies, is used again;
 * 2. plain A* from the start in home (the bucket ring, as deep_plain's
 *    layer 0), toward the middle of the exits' bounding box (any point
 *    will do: the grid's own h to a point is consistent, so each cell's g
 *    at its pop is its least), stopping at the pop of the last exit;
 * 3. deep_loop's A* over (blocked cells, g) seeded with every door d at
 *    (1, the least g(p) + the step from an exit p beside it), its parent
 *    that p, in place of the start.  It never enters home again: the plain
 *    loop stamps only the start (closed), so any other cell of home is new
 *    to it, with the bound W, and a step back into home, one blocked cell
 *    or more behind, is on no route through W (its prune).  It stops at
 *    the goal.
 * The key is the layered search's (the exits' g exact, then an exact A*
 * over the rest); the route, among routes of that key, may differ.  Where
 * the A* over the pair from the start spent 130-330 k pops of its heap in
 * home (docs/perf-log.md, thirty-seventh session), home now costs the
 * plain loop's pops.  Only with path_options.deep_doors (astray path): its
 * route may be another of the same key than the game's searches take, and
 * the game's must not change under the same rules.  Returns the doors
 * seeded (> 0); 0 when it does not apply (the caller seeds the start as
 * before, the records untouched); -1 when the records are spent
 * (DEEP_AGAIN).
 * Home is the n_home regions `home`: the start's own, or for a start on a
 * wall (deep_loop's wall_doors) the regions of its ball, those with a cell
 * on the ring d = K + 1.  Every answer has one stretch in that home too (a
 * route back into it behind more blocked cells could have entered it with
 * fewer).  With K = sk = 0 the start is home as well, an exit to the doors
 * beside it at g 0 (door_exit); with K > 0 the plain loop starts from
 * deep_entry_seeds' cells instead of the start, and each door is K + 1
 * blocked cells from the start.
 */
static long deep_doors(struct path_ctx *ctx, const struct search *s, const struct region *rg,
		       const int32_t *home, int n_home, int sk, int walls, bool wide, const int *list, long lo,
		       long hi, int met, long *ex)
{
	/* the start is an exit where it is blocked and home is beside it (K = 0) */
	const int start_exit = sk == 0 ? s->start : -1;
	const enum grid_topology topo = ctx->grid->topo;
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, dirs = grid_dir_count(topo);
	const uint16_t gen = ctx->gen;
	long nt = 0, nb = 0;
	int x0 = w, y0 = ctx->h, x1 = -1, y1 = -1;
	for (long k = lo; k < hi; k++) {
		const int d = list[k];
		if (cost[d])
			continue;
		const int dy = d / w, dx = d - dy * w;
		bool door = false;
		for (int i = 0; i < dirs; i++) {
			const int p = door_exit(ctx, rg, start_exit, dx, dy, i, home, n_home);
			if (p < 0)
				continue;
			if (!one_grow((void **)&ctx->one_t, &ctx->one_t_cap, nt + 1,
				      sizeof *ctx->one_t))
				return 0;
			ctx->one_t[nt++] = (struct target){ .cell = p, .order = -1 };
			const int py = p / w, px = p - py * w;
			x0 = px < x0 ? px : x0;
			x1 = px > x1 ? px : x1;
			y0 = py < y0 ? py : y0;
			y1 = py > y1 ? py : y1;
			door = true;
		}
		if (door) {
			if (!one_grow((void **)&ctx->one_b, &ctx->one_b_cap, nb + 1,
				      sizeof *ctx->one_b))
				return 0;
			ctx->one_b[nb++] = d;
		}
	}
	if (nt == 0)
		return 0;
	qsort(ctx->one_t, (size_t)nt, sizeof *ctx->one_t, target_cmp);
	long k = 0;
	for (long i = 1; i < nt; i++)
		if (ctx->one_t[i].cell != ctx->one_t[k].cell)
			ctx->one_t[++k] = ctx->one_t[i];
	nt = k + 1;
	struct targets tg = { .t = ctx->one_t, .n = (int)nt, .lo = ctx->one_t[0].cell,
			      .bound = UINT64_MAX, .all = true,
			      .span = (unsigned)(ctx->one_t[nt - 1].cell - ctx->one_t[0].cell),
			      .gen = (uint16_t)(gen - 1) /* reset at the first pop */ };
	/* home's cell the count met is the plain loop's (a swept record) */
	ctx->node[met].stamp = 0;
	struct search s0 = home_layer(s, &tg);
	s0.gx = x0 + (x1 - x0) / 2;
	s0.gy = y0 + (y1 - y0) / 2;
	if (sk > 0) {
		/* from a wall past its ball: home entered from the ring d = K */
		const long ns = deep_entry_seeds(ctx, s, rg, home, n_home, sk);
		if (ns <= 0 || !queue_reserve(ctx, ns + 8))
			return 0;
		s0.seeds = ctx->seed_buf;
		s0.n_seeds = (int)ns;
	}
	int e0 = s->start;
	long ex0 = 0;
	(void)astar(ctx, &s0, &e0, &ex0);
	if (ctx->no_memory || ctx->gen != gen || tg.pops != tg.n)
		return -1;
	*ex += ex0;

	/* the doors, each from its best exit */
	const int64_t s1 = s->s1, s2 = s->s2;
	struct pq *q = &ctx->queue;
	q->heap_len = 0;
	q->stack_len = 0;
	if (!queue_reserve(ctx, nb + 1))
		return -1;
	const int wsh = wide ? DEEP_WIDE_SHIFT : DEEP_WALL_SHIFT;
	const uint64_t wall = UINT64_C(1) << wsh;
	const uint64_t g_end = UINT64_C(1) << (wide ? DEEP_WIDE_G_BITS : DEEP_G_BITS);
	for (long j = 0; j < nb; j++) {
		const int d = ctx->one_b[j], dy = d / w, dx = d - dy * w;
		int64_t best = INT64_MAX;
		int bdir = -1;
		for (int i = 0; i < dirs; i++) {
			const int p = door_exit(ctx, rg, start_exit, dx, dy, i, home, n_home);
			if (p < 0)
				continue;
			const int a = target_at(ctx->one_t, (int)nt, p);
			CHECK(a >= 0); /* every exit is a target */
			const int64_t v = ctx->one_t[a].g + (grid_nb_long(topo, i) ? s2 : s1);
			if (v < best) {
				best = v;
				bdir = i;
			}
		}
		const int64_t h = heuristic(topo, dx, dy, s->gx, s->gy, s1, s2);
		if ((uint64_t)best >= g_end || (uint64_t)(best + h) >= wall)
			return -1;
		/* past a ball, K blocked cells before home and d the K + 1st */
		const uint64_t nc = ((uint64_t)(sk + 1) << wsh) + (uint64_t)best;
		ctx->node[d].stamp = gen;
		ctx->node[d].dir = (uint8_t)bdir;
		ctx->gw[d] = nc;
		pq_sift_up(q, ctx->node, (int)q->heap_len++,
			   make_key(nc + ((uint64_t)(walls - 1 - sk) << wsh) + (uint64_t)h,
				    (uint32_t)((uint64_t)h >> s->hshift), d));
	}
	return nb;
}

/*
 * The count's first levels in closed form (astray path's deep goals in
 * rock).  Counted from a blocked goal through rock alone, w is the grid's
 * step distance d (deep_dist: the heuristic with both steps 1): every
 * route from a cell of d = k to the goal passes a cell of each d below k,
 * each a blocked cell entered, and some route of k steps keeps to the box
 * of its ends (in doubled columns on hex and diamond maps), so the map's
 * edges bend none.  So where no passable cell (nor
 * the start, from a wall) lies within d < D of the goal, every cell of
 * d < D has w = d.  deep_ball_reach finds D from the grid's passability
 * bits: rows outward from the goal's, each scanned outward from its column
 * a word at a time, both stopping at the least d found so far.  The count
 * then lists the ring d = B = D - 1 as its level B (records w = B), records
 * the ring d = B - 1 (so that it never steps back inside), and goes on from
 * there as before; the cells inside keep no record, and deep_loop's A*
 * reads their w as d.  Its answer is the one the whole count gives: every
 * w the A* reads is the same, so are its pops (docs/core.md, "Deep goals",
 * 5).  Without solid cells or a budget, and not where deep_plain would take
 * the count (it reads every counted record): astray path alone
 * (path_options.deep_doors), whose expansions then leave the ball out.
 */
static inline int deep_dist(enum grid_topology topo, int x, int y, int gx, int gy)
{
	return (int)heuristic(topo, x, y, gx, gy, 1, 1);
}

static inline int floor_half(int v)
{
	return v >= 0 ? v / 2 : -((1 - v) / 2);
}

/* The cells of row y with d <= b, from *x0 to *x1 on the map (*x0 > *x1:
 * none).  In the row, d grows with |dX|, the doubled column's distance on
 * hex and diamond maps (2x + (y & 1), the row's own half-cell shift in
 * it), the column's on square maps: the row holds |dX| <= a. */
static void deep_span(const struct path_ctx *ctx, enum grid_topology topo, int gx, int gy, int y, int b, int *x0,
		      int *x1)
{
	const int k = iabs(y - gy);
	int a = -1;
	switch (topo) {
	case GRID_SQUARE8:
	case GRID_DIAMOND4:
		a = k <= b ? b : -1;
		break;
	case GRID_SQUARE4:
		a = b - k;
		break;
	case GRID_HEX:
		a = k <= b ? 2 * b - k : -1;
		break;
	case GRID_DIAMOND8:
		a = 2 * b - k;
		break;
	}
	int lo = 0, hi = -1;
	if (a >= 0 && (topo == GRID_SQUARE8 || topo == GRID_SQUARE4)) {
		lo = gx - a;
		hi = gx + a;
	} else if (a >= 0) { /* -a <= 2 (x - gx) + p <= a */
		const int p = (y & 1) - (gy & 1);
		lo = gx - floor_half(a + p);
		hi = gx + floor_half(a - p);
	}
	*x0 = lo < 0 ? 0 : lo;
	*x1 = hi < ctx->w ? hi : ctx->w - 1;
}

/* The first passable cell of row y from x on to hi, or -1 (the row's bits:
 * bit x % 64 of word x / 64). */
static int row_next(const struct grid *g, int y, int x, int hi)
{
	const uint64_t *r = g->rows + (size_t)y * (size_t)g->row_words;
	for (; x <= hi; x = (x | 63) + 1) {
		const uint64_t word = r[x >> 6] >> (x & 63);
		if (word) {
			const int f = x + __builtin_ctzll(word);
			return f <= hi ? f : -1;
		}
	}
	return -1;
}

/* The last passable cell of row y from x back to lo, or -1. */
static int row_prev(const struct grid *g, int y, int x, int lo)
{
	const uint64_t *r = g->rows + (size_t)y * (size_t)g->row_words;
	for (; x >= lo; x = (x & ~63) - 1) {
		const uint64_t word = r[x >> 6] << (63 - (x & 63));
		if (word) {
			const int f = x - __builtin_clzll(word);
			return f >= lo ? f : -1;
		}
	}
	return -1;
}

/* The least d from (gx, gy) of a passable cell, or `best` if none is
 * nearer; 0 where the grid's bits do not describe its costs.  Rows outward
 * from the centre's while a row's least d (its offset; half of it on
 * diamond8) is below the best so far, each read outward from the centre's
 * column on either side, within the cells of d below the best. */
static int deep_ball_reach(const struct path_ctx *ctx, int gx, int gy, int best)
{
	const struct grid *g = ctx->grid;
	if (!g->rows || g->bits_of != g->cost)
		return 0;
	const enum grid_topology topo = g->topo;
	for (int k = 0; (topo == GRID_DIAMOND8 ? k / 2 : k) < best; k++) {
		if (gy - k < 0 && gy + k >= ctx->h)
			break;
		for (int side = 0; side < 2; side++) {
			const int y = side ? gy + k : gy - k;
			if (y < 0 || y >= ctx->h || (side && k == 0))
				continue;
			int x0, x1;
			deep_span(ctx, topo, gx, gy, y, best - 1, &x0, &x1);
			const int r = row_next(g, y, gx > x0 ? gx : x0, x1);
			const int l = row_prev(g, y, gx - 1 < x1 ? gx - 1 : x1, x0);
			if (r >= 0 && deep_dist(topo, r, y, gx, gy) < best)
				best = deep_dist(topo, r, y, gx, gy);
			if (l >= 0 && deep_dist(topo, l, y, gx, gy) < best)
				best = deep_dist(topo, l, y, gx, gy);
		}
	}
	return best;
}

/* The cells of d <= b on the map. */
static long deep_ball_cells(const struct path_ctx *ctx, enum grid_topology topo, int gx, int gy, int b)
{
	long n = 0;
	const int rows = topo == GRID_DIAMOND8 ? 2 * b : b;
	for (int y = gy - rows < 0 ? 0 : gy - rows; y <= gy + rows && y < ctx->h; y++) {
		int x0, x1;
		deep_span(ctx, topo, gx, gy, y, b, &x0, &x1);
		n += x1 >= x0 ? x1 - x0 + 1 : 0;
	}
	return n;
}

/* Cells row + x0 .. row + x1 into out[n..], or their deep_hi cleared
 * (out NULL); n past them. */
static long deep_run(struct path_ctx *ctx, int *out, long n, int row, int x0, int x1)
{
	for (int x = x0; x <= x1; x++) {
		if (out)
			out[n++] = row + x;
		else
			ctx->deep_hi[row + x] = 0;
	}
	return n;
}

/* The cells of the map with d = b (b >= 1) into out, row by row (at most
 * 8 b + 8: a row holds two runs, the span of d <= b less that of
 * d <= b - 1); their number.  With out NULL, the high bytes of their w
 * cleared instead (deep_hi: the count widened past the ring inside,
 * which it does not list). */
static long deep_ring(struct path_ctx *ctx, enum grid_topology topo, int gx, int gy, int b, int *out)
{
	const int w = ctx->w, rows = topo == GRID_DIAMOND8 ? 2 * b : b;
	long n = 0;
	for (int y = gy - rows < 0 ? 0 : gy - rows; y <= gy + rows && y < ctx->h; y++) {
		int x0, x1, i0, i1;
		deep_span(ctx, topo, gx, gy, y, b, &x0, &x1);
		deep_span(ctx, topo, gx, gy, y, b - 1, &i0, &i1);
		if (i0 > i1) { /* nothing of d < b in the row */
			i0 = x1 + 1;
			i1 = x1;
		}
		/* left of the span inside, then right of it */
		n = deep_run(ctx, out, n, y * w, x0, x1 < i0 - 1 ? x1 : i0 - 1);
		n = deep_run(ctx, out, n, y * w, i1 + 1 > x0 ? i1 + 1 : x0, x1);
	}
	return n;
}

/* The count goes wide (deep_widen), and with the goal's ball the ring
 * inside it too, which it records but does not list.  False without
 * memory. */
static bool deep_go_wide(struct path_ctx *ctx, enum grid_topology topo, const struct search *s, const int *list,
			 long len, int ball)
{
	if (!deep_widen(ctx, list, len))
		return false;
	if (ball)
		(void)deep_ring(ctx, topo, s->gx, s->gy, ball - 1, NULL);
	return true;
}

/*
 * From a wall: the start's own ball.  Where no passable cell lies within
 * d <= K of a blocked start (K = R - 1, R the least d of a passable cell,
 * below the goal's d), every route from the start enters the K blocked
 * cells of one ray to reach the ring d = K, and every route passes that
 * ring; so W = K + the least w on the ring, or on a region with a cell on
 * the ring d = R (stepped into at no cost from the ring beside it).  The
 * count from the goal stops at the first such cell it meets, at level L,
 * with W = L + K, where without the ball it went on through the start's
 * ball and, at its edge, flooded those regions whole to reach the start
 * itself.  The A* over the pair reads w' = W - d(start) inside the ball
 * (a lower bound: the start is a ray of d blocked cells away; consistent,
 * every step there enters a blocked cell) and L on every other cell the
 * count did not reach (their w is at least L).  With K = 0 and the start
 * beside a passable cell, every w it reads is the same as without; with
 * K > 0 the cells between read L, not their w, so a route may be another
 * of the same key.  deep_start_regions: the regions of the ring d = b
 * around the start (into out, at most START_REGIONS; 0 where more).
 */
#define START_REGIONS 16

static int deep_start_regions(struct path_ctx *ctx, const struct region *rg, enum grid_topology topo, int sx,
			      int sy, int b, int32_t *out)
{
	if (!one_grow((void **)&ctx->one_b, &ctx->one_b_cap, 8L * b + 8, sizeof *ctx->one_b))
		return 0;
	const long n = deep_ring(ctx, topo, sx, sy, b, ctx->one_b);
	int k = 0;
	for (long i = 0; i < n; i++) {
		const int c = ctx->one_b[i];
		if (!ctx->grid->cost[c])
			continue;
		const int32_t r = region_of(rg, c);
		int j = 0;
		while (j < k && out[j] != r)
			j++;
		if (j == k) {
			if (k == START_REGIONS)
				return 0;
			out[k++] = r;
		}
	}
	return k;
}

/* From a wall, the route's ray: from the ring cell the route past the
 * start's ball was seeded at (its chain from the goal ends there) back to
 * the start, by steps that each lower the cost on to the start by exactly
 * their own (the ball is rock: the grid's heuristic is that cost, and such
 * a step keeps to the box of its ends, on the map); each cell's dir
 * pointing on toward the start.  False if none is found (it always is). */
static bool deep_lay_ray(struct path_ctx *ctx, enum grid_topology topo, const struct search *s, int goal)
{
	struct node *node = ctx->node;
	const int w = ctx->w, sx = s->start % w, sy = s->start / w, dirs = grid_dir_count(topo);
	int c = goal;
	while (node[c].dir != DIR_NONE)
		c = step_cell(ctx, c, node[c].dir);
	while (c != s->start) {
		const int cy = c / w, cx = c - cy * w;
		const int64_t hc = heuristic(topo, cx, cy, sx, sy, s->s1, s->s2);
		int next = -1;
		for (int i = 0; i < dirs && next < 0; i++) {
			const int nx = cx + grid_nb_dx(topo, cy, i), ny = cy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)ctx->h ||
			    heuristic(topo, nx, ny, sx, sy, s->s1, s->s2) + (grid_nb_long(topo, i) ? s->s2 : s->s1) != hc)
				continue;
			node[c].dir = (uint8_t)i;
			next = ny * w + nx;
		}
		CHECK(next >= 0);
		if (next < 0)
			return false;
		c = next;
	}
	node[c].dir = DIR_NONE;
	return true;
}

static inline __attribute__((always_inline)) enum deep_status
deep_loop(struct path_ctx *ctx, const struct search *s, const struct region *rg, const bool plain,
	  const enum grid_topology topo, int *end, long *expanded_out)
{
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h, dirs = grid_dir_count(topo);
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp;
	const int64_t s1 = s->s1, s2 = s->s2;
	const int32_t home = region_of(rg, s->start);
	const uint8_t *solid = s->solid;
	const bool corners = !s->corner_cutting && (topo == GRID_SQUARE8 || topo == GRID_DIAMOND8);
	struct node *node = ctx->node;
	uint64_t *gw = ctx->gw;
	const uint16_t gen = ctx->gen;
	const int goal = s->goal;
	const long budget = s->budget;
	/* a blocked start (astray path --fallback from a wall): home is the
	 * start alone, which every route leaves at no cost into its passable
	 * neighbours, so no cell of its neighbours' regions has a smaller w */
	const bool home_cell = !cost[s->start];

	/* From a wall (astray path): the start's own ball (deep_start_regions) */
	const bool closed_form = s->doors && budget <= 0 && !solid;
	const int sx = s->start % w, sy = s->start / w;
	const int sg = deep_dist(topo, sx, sy, s->gx, s->gy);
	int32_t start_rg[START_REGIONS];
	int n_start_rg = 0, sk = 0;
	if (home_cell && closed_form && sg >= 2) {
		const int rs = deep_ball_reach(ctx, sx, sy, sg);
		if (rs > 0) {
			sk = rs - 1;
			n_start_rg = deep_start_regions(ctx, rg, topo, sx, sy, sk + 1, start_rg);
		}
	}

	/* home on the plain loop after the count: deep_plain, or where it
	 * declines deep_doors */
	const bool home_plain = plain && budget <= 0 && !s->extra && w > 1 && !home_cell;
	/* from a wall, home is the regions of the start's ball (and with K = 0
	 * the start), on the plain loop as well (deep_doors) */
	const bool wall_doors = plain && closed_form && !s->extra && w > 1 && home_cell && n_start_rg > 0;
	/* the count's first levels in closed form where they fit
	 * (deep_ball_reach): never where deep_plain would take the count (it
	 * reads every record; the ball's cells alone exceed its bound) */
	int ball = 0;
	if (closed_form && !cost[goal]) {
		const int b = deep_ball_reach(ctx, s->gx, s->gy, home_cell ? sg - sk : 2 * (w + hgt)) - 1;
		const int64_t dist = heuristic(topo, sx, sy, s->gx, s->gy, s1, s2) / s1; /* deep_plain's */
		if (b >= 2 && b < DEEP_WIDE_MAX &&
		    (!home_plain || deep_ball_cells(ctx, topo, s->gx, s->gy, b) > ONE_WALK_BASE + ONE_WALK_PER_STEP * dist))
			ball = b;
	}

	/* 1. the count */
	long len = 0, lo = 0;
	long cap = 1024 + 8 * (long)ball + 8;
	int *list = deep_list(ctx, cap);
	if (!list)
		return DEEP_NOT;
	int level = 0, walls = -1;
	long door_lo = 0, door_hi = 0; /* the last level of blocked cells taken: W - 1 at the end */
	bool wide = false;
	if (ball && ball + 1 > DEEP_WALLS_MAX) {
		wide = deep_widen(ctx, list, 0);
		if (!wide)
			ball = 0;
	}
	if (ball) {
		/* the ring inside recorded (the search never steps back past
		 * it), the ring d = B listed as level B */
		for (int b = ball - 1; b <= ball; b++) {
			len = deep_ring(ctx, topo, s->gx, s->gy, b, list);
			for (long k = 0; k < len; k++) {
				node[list[k]] = (struct node){ .pos = POS_COUNTED, .stamp = gen, .dir = DIR_NONE };
				deep_set_w(ctx, list[k], (unsigned)b, wide);
			}
		}
		level = ball;
	} else {
		node[goal] = (struct node){ .pos = POS_COUNTED, .stamp = gen, .dir = DIR_NONE, .aux = 0 };
		list[len++] = goal;
	}
	for (;;) {
		/* the level's passable cells: their neighbours join the level */
		for (long k = lo; k < len && walls < 0; k++) {
			const int c = list[k];
			if (!cost[c])
				continue;
			const int cy = c / w, cx = c - cy * w;
			for (int i = 0; i < dirs; i++) {
				const int nx = cx + grid_nb_dx(topo, cy, i), ny = cy + grid_nb_dy(topo, i);
				if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
					continue;
				const int u = ny * w + nx;
				if (node[u].stamp == gen)
					continue;
				if (!cost[u]) {
					if (solid && solid[u])
						continue;
				} else if (corners && grid_nb_long(topo, i) &&
					   ((topo == GRID_SQUARE8 && (!cost[cy * w + nx] || !cost[ny * w + cx])) ||
					    (topo == GRID_DIAMOND8 && !grid_diamond_flanks_open(cost, w, hgt, nx, ny, opp[i])))) {
					continue; /* the step u -> c cuts a corner */
				}
				if (len == cap) {
					cap *= 2;
					if (!(list = deep_list(ctx, cap)))
						return DEEP_NOT;
				}
				node[u] = (struct node){ .pos = POS_COUNTED, .stamp = gen, .dir = DIR_NONE };
				deep_set_w(ctx, u, (unsigned)level, wide);
				list[len++] = u;
				if (budget > 0 && len >= budget) {
					*expanded_out = len;
					return DEEP_BUDGET;
				}
				if (home_cell ? (cost[u] ? beside_start(rg, u, start_rg, n_start_rg)
							  : deep_dist(topo, nx, ny, sx, sy) <= sk)
					      : cost[u] && region_of(rg, u) == home) {
					walls = level;
					break;
				}
			}
		}
		if (walls >= 0)
			break;
		if (level + 1 > (wide ? DEEP_WIDE_MAX : DEEP_WALLS_MAX)) {
			if (budget > 0 || wide || !deep_go_wide(ctx, topo, s, list, len, ball)) {
				*expanded_out = len;
				return DEEP_THICK;
			}
			wide = true;
		}
		/* the level's blocked cells: their neighbours make the next level */
		const long hi = len;
		door_lo = lo;
		door_hi = hi;
		for (long k = lo; k < hi && walls < 0; k++) {
			const int c = list[k];
			if (cost[c])
				continue;
			const int cy = c / w, cx = c - cy * w;
			for (int i = 0; i < dirs; i++) {
				const int nx = cx + grid_nb_dx(topo, cy, i), ny = cy + grid_nb_dy(topo, i);
				if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
					continue;
				const int u = ny * w + nx;
				if (node[u].stamp == gen || (!cost[u] && solid && solid[u]))
					continue;
				if (len == cap) {
					cap *= 2;
					if (!(list = deep_list(ctx, cap)))
						return DEEP_NOT;
				}
				node[u] = (struct node){ .pos = POS_COUNTED, .stamp = gen, .dir = DIR_NONE };
				deep_set_w(ctx, u, (unsigned)(level + 1), wide);
				list[len++] = u;
				if (budget > 0 && len >= budget) {
					*expanded_out = len;
					return DEEP_BUDGET;
				}
				if (home_cell ? (cost[u] ? beside_start(rg, u, start_rg, n_start_rg)
							  : deep_dist(topo, nx, ny, sx, sy) <= sk)
					      : cost[u] && region_of(rg, u) == home) {
					walls = level + 1;
					break;
				}
			}
		}
		level++;
		if (walls >= 0)
			break;
		if (hi == len) {
			*expanded_out = len;
			return DEEP_NO_ROUTE; /* solid cells wall the goal off */
		}
		lo = hi;
	}
	/* from a wall: W is past the start's ball (L + K), and may need the
	 * wide key */
	const int met_level = walls;
	walls += sk;
	if (walls > DEEP_WIDE_MAX) {
		*expanded_out = len;
		return DEEP_THICK;
	}
	if (!wide && walls > DEEP_WALLS_MAX) {
		if (!deep_go_wide(ctx, topo, s, list, len, ball)) {
			*expanded_out = len;
			return DEEP_THICK;
		}
		wide = true;
	}
	if (walls < 2 && !home_cell)
		return DEEP_NOT; /* one blocked cell: fallback_near's answer */
	if (home_plain && !ball) {
		const enum deep_status ds = deep_plain(ctx, s, rg, walls, wide, len, list[len - 1], end, expanded_out);
		if (ds != DEEP_ASTAR)
			return ds;
	}

	/* 2. the A* over (blocked cells, g) */
	const int wsh = wide ? DEEP_WIDE_SHIFT : DEEP_WALL_SHIFT;
	const uint64_t wall = UINT64_C(1) << wsh;
	const uint64_t g_end = UINT64_C(1) << (wide ? DEEP_WIDE_G_BITS : DEEP_G_BITS);
	const uint64_t top = (uint64_t)walls;
	struct pq *q = &ctx->queue;
	long expanded = len;
	long seeded = 0;
	if ((home_plain || wall_doors) && s->doors) {
		seeded = deep_doors(ctx, s, rg, wall_doors ? start_rg : &home, wall_doors ? n_start_rg : 1, sk,
				    walls, wide, list, door_lo, door_hi, list[len - 1], &expanded);
		if (seeded < 0)
			return DEEP_AGAIN;
	}
	/* past the start's ball with home crossed to its doors: the A* over the
	 * pair never steps from rock into home (deep_entry_seeds' cells are
	 * the least cost of every such step with K blocked cells; with more it
	 * crosses more than W) */
	const bool skip_home = seeded > 0 && sk >= 1;
	/* from a wall past its ball: the ring d = K seeded, each cell at its
	 * ray's cost (the heuristic to the start: exact in rock), the ray laid
	 * after the goal's pop (deep_lay_ray) */
	const bool rays = sk >= 1;
	if (rays) {
		if (!seeded) {
			q->heap_len = 0;
			q->stack_len = 0;
		}
		if (!one_grow((void **)&ctx->one_b, &ctx->one_b_cap, 8L * sk + 8, sizeof *ctx->one_b) ||
		    !queue_reserve(ctx, q->heap_len + 8L * sk + 8))
			return DEEP_NOT;
		const long nr = deep_ring(ctx, topo, sx, sy, sk, ctx->one_b);
		for (long k = 0; k < nr; k++) {
			const int c = ctx->one_b[k], cy = c / w, cx = c - cy * w;
			const uint64_t rest = node[c].stamp == gen ? deep_w(ctx, c, wide) : (uint64_t)met_level;
			if ((uint64_t)sk + rest > top)
				continue; /* on no route through W blocked cells */
			const int64_t g = heuristic(topo, cx, cy, sx, sy, s1, s2);
			const int64_t h = heuristic(topo, cx, cy, s->gx, s->gy, s1, s2);
			if ((uint64_t)g >= g_end || (uint64_t)(g + h) >= wall)
				return DEEP_NOT;
			const uint64_t nc = ((uint64_t)sk << wsh) + (uint64_t)g;
			const qkey kc = make_key(nc + (rest << wsh) + (uint64_t)h, (uint32_t)((uint64_t)h >> s->hshift), c);
			if (skip_home && node[c].stamp == gen && node[c].pos >= 0) {
				/* a door of home's already queued, at K + 1 blocked cells */
				if (nc < gw[c]) {
					gw[c] = nc;
					node[c].dir = DIR_NONE;
					pq_sift_up(q, node, node[c].pos, kc);
				}
				continue;
			}
			node[c] = (struct node){ .pos = 0, .stamp = gen, .dir = DIR_NONE };
			deep_set_w(ctx, c, (unsigned)rest, wide);
			gw[c] = nc;
			pq_sift_up(q, node, (int)q->heap_len++, kc);
			seeded++;
		}
		if (!seeded)
			return DEEP_NOT;
	}
	if (!seeded) {
		q->heap_len = 0;
		q->stack_len = 0;
		const int64_t h = heuristic(topo, s->start % w, s->start / w, s->gx, s->gy, s1, s2);
		if ((uint64_t)h >= g_end)
			return DEEP_NOT;
		node[s->start] = (struct node){ .pos = 0, .stamp = gen, .dir = DIR_NONE };
		deep_set_w(ctx, s->start, (unsigned)walls, wide);
		gw[s->start] = 0;
		pq_sift_up(q, node, (int)q->heap_len++,
			   make_key(top << wsh | (uint64_t)h, (uint32_t)((uint64_t)h >> s->hshift), s->start));
	}
	while (q->heap_len > 0 || q->stack_len > 0) {
		const qkey uk = pq_pop(q, node);
		const int u = pq_cell(uk);
		const uint64_t tie_f = pq_f(uk); /* successors of this f go on the tie stack */
		node[u].pos = POS_CLOSED;
		expanded++;
		if (u == goal) {
			if (rays && !deep_lay_ray(ctx, topo, s, goal))
				return DEEP_NOT;
			*end = u;
			*expanded_out = expanded;
			return DEEP_FOUND;
		}
		if (budget > 0 && expanded >= budget) {
			*expanded_out = expanded;
			return DEEP_BUDGET;
		}
		if (!queue_room(ctx, dirs))
			return DEEP_NOT;
		const int uy = u / w, ux = u - uy * w;
		const uint64_t uc = gw[u];
		const bool u_open = cost[u] != 0;
		for (int i = 0; i < dirs; i++) {
			const int nx = ux + grid_nb_dx(topo, uy, i), ny = uy + grid_nb_dy(topo, i);
			if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)hgt)
				continue;
			const int v = ny * w + nx;
			const unsigned cv = cost[v];
			const int64_t step = grid_nb_long(topo, i) ? s2 : s1;
			uint64_t nc;
			if (cv) {
				if (skip_home && !u_open && beside_start(rg, v, start_rg, n_start_rg))
					continue; /* home is deep_doors' */
				if (u_open && corners && grid_nb_long(topo, i) &&
				    ((topo == GRID_SQUARE8 && (!cost[uy * w + nx] || !cost[ny * w + ux])) ||
				     (topo == GRID_DIAMOND8 && !grid_diamond_flanks_open(cost, w, hgt, ux, uy, i))))
					continue;
				nc = uc + (uint64_t)(step * (int64_t)cv);
				if (s->extra)
					nc += (uint64_t)s->extra[v] << s->extra_shift;
			} else {
				if (solid && solid[v])
					continue;
				nc = uc + wall + (uint64_t)step;
			}
			if ((nc & (wall - 1)) >= g_end)
				return DEEP_NOT;
			struct node *nv = &node[v];
			const bool fresh = nv->stamp != gen || nv->pos == POS_COUNTED;
			if (!fresh && (nv->pos == POS_CLOSED || nc >= gw[v]))
				continue;
			uint64_t rest = (uint64_t)met_level; /* W but from a wall's ball */
			if (!fresh || nv->stamp == gen) {
				rest = deep_w(ctx, v, wide);
			} else if (ball || sk) {
				const int d = deep_dist(topo, nx, ny, s->gx, s->gy);
				const int ds = sk ? deep_dist(topo, nx, ny, sx, sy) : 0;
				if (d < ball)
					rest = (uint64_t)d;
				else if (sk && ds <= sk)
					rest = (uint64_t)(walls - ds);
			}
			if ((nc >> wsh) + rest > top)
				continue; /* on no route through W blocked cells */
			const int64_t h = heuristic(topo, nx, ny, s->gx, s->gy, s1, s2);
			if ((nc & (wall - 1)) + (uint64_t)h >= wall)
				return DEEP_NOT;
			const qkey k = make_key(nc + (rest << wsh) + (uint64_t)h,
						(uint32_t)((uint64_t)h >> s->hshift), v);
			gw[v] = nc;
			nv->dir = opp[i];
			if (fresh) {
				nv->stamp = gen;
				deep_set_w(ctx, v, (unsigned)rest, wide);
				pq_push(q, node, k, tie_f, POS_STACK);
			} else if (nv->pos >= 0) {
				pq_sift_up(q, node, nv->pos, k);
			} /* else on the tie stack: its f is the least, so no lower g comes (consistency) */
		}
	}
	*end = s->start;
	*expanded_out = expanded;
	return DEEP_NO_ROUTE;
}

/* deep_loop compiled once per topology (the constant `topo`); `plain`:
 * without a budget, deep_plain may answer. */
static enum deep_status fallback_deep(struct path_ctx *ctx, const struct search *s, const struct region *rg,
				      bool plain, int *end, long *ex)
{
	switch (ctx->grid->topo) {
	case GRID_SQUARE4:
		return deep_loop(ctx, s, rg, plain, GRID_SQUARE4, end, ex);
	case GRID_SQUARE8:
		return deep_loop(ctx, s, rg, plain, GRID_SQUARE8, end, ex);
	case GRID_DIAMOND4:
		return deep_loop(ctx, s, rg, plain, GRID_DIAMOND4, end, ex);
	case GRID_DIAMOND8:
		return deep_loop(ctx, s, rg, plain, GRID_DIAMOND8, end, ex);
	case GRID_HEX:
		break;
	}
	return deep_loop(ctx, s, rg, plain, GRID_HEX, end, ex);
}

/* The distinct regions of the passable cells beside `cell` (at most 8) and
 * their cells in all; *touch is set when `other` is beside it. */
static long regions_beside(const struct path_ctx *ctx, const struct region *rg, int cell, int other,
			   int32_t seen[8], int *n, bool *touch)
{
	const uint8_t *cost = ctx->grid->cost;
	const enum grid_topology topo = ctx->grid->topo;
	const int w = ctx->w, y = cell / w, x = cell - y * w;
	long cells = 0;
	*n = 0;
	*touch = false;
	for (int i = 0; i < grid_dir_count(topo); i++) {
		const int nx = x + grid_nb_dx(topo, y, i), ny = y + grid_nb_dy(topo, i);
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)ctx->h)
			continue;
		const int v = ny * w + nx;
		*touch |= v == other;
		if (!cost[v])
			continue;
		const int32_t r = region_of(rg, v);
		int k = 0;
		while (k < *n && seen[k] != r)
			k++;
		if (k < *n)
			continue;
		seen[(*n)++] = r;
		cells += region_size(rg, v);
	}
	return cells;
}

/* Below this many cells the count's first flood is taken whatever the
 * layered search's first layer holds (use_deep_from_wall). */
#define DEEP_WALL_FIRST 65536

/*
 * Whether path_find may answer a blocked start through fallback_deep: the
 * layered search's key (automatic P, weight 1, current labels), no budget,
 * neither end solid, and a count that floods no more than that search
 * would.  The layered search's first layer is the start and the regions
 * beside it, settled whole unless the goal is in one of them (then it is
 * an A* toward the goal, and the count, which would flood the goal's
 * region first, is not used).  The count floods first the goal's region,
 * or for a blocked goal the regions beside it (unless the start is beside
 * the goal): it is used when that is at most DEEP_WALL_FIRST cells or at
 * most the layered search's first layer.  (Into a large room from two
 * walls above it the layered search takes 9 ms, where the count took 182
 * ms; from deep rock to deep rock on a 4096x4096 rooms level the count
 * 880 ms, where the layered search took 2.1 s: docs/perf-log.md,
 * thirty-sixth session.)
 */
static bool use_deep_from_wall(const struct path_ctx *ctx, const struct path_options *opt, const struct search *s,
			       int start, int goal)
{
	const uint8_t *cost = ctx->grid->cost;
	if (!(opt->fallback && !(opt->penalty > 0) && opt->budget <= 0 && opt->weight == 1.0 && opt->regions &&
	      !cost[start] && start != goal && !(s->solid && (s->solid[start] || s->solid[goal])) &&
	      region_current(opt->regions, cost, opt->corner_cutting)))
		return false;
	int32_t near_start[8], near_goal[8];
	int ns, ng;
	bool touch;
	const long first_layer = regions_beside(ctx, opt->regions, start, goal, near_start, &ns, &touch);
	if (touch)
		return true; /* the count meets the start among the goal's neighbours */
	long first_flood;
	if (cost[goal]) {
		const int32_t r = region_of(opt->regions, goal);
		for (int k = 0; k < ns; k++)
			if (near_start[k] == r)
				return false; /* no blocked cell on the way: A*'s */
		first_flood = region_size(opt->regions, goal);
	} else {
		first_flood = regions_beside(ctx, opt->regions, goal, start, near_goal, &ng, &touch);
	}
	return first_flood <= DEEP_WALL_FIRST || first_flood <= first_layer;
}

/* Whether path_find may answer through fallback_near. */
static bool use_near(const struct path_ctx *ctx, const struct path_options *opt, int start, int goal)
{
	const uint8_t *cost = ctx->grid->cost;
	return opt->fallback && !(opt->penalty > 0) && (opt->budget <= 0 || opt->near_exact) && opt->weight == 1.0 &&
	       opt->regions && region_current(opt->regions, cost, opt->corner_cutting) && cost[start] &&
	       (!cost[goal] || region_of(opt->regions, goal) != region_of(opt->regions, start));
}

/*
 * Hex and diamond: jump point search (jps_turned.c), by default where it
 * pays (ctx->turned_pays, decided once in path_create from the map's turn
 * share and size), or when asked for (opt.jps_always: `astray bench --mode
 * jps`, the tests).  Its route can differ from plain A*'s among equally
 * short ones (rules 7).  True when *out is the answer;
 * false when A* must answer (a route over terrain dearer than 1, or no
 * memory), with *expanded the jump points spent.
 */
static bool turned_find(struct path_ctx *ctx, int start, int goal, const struct path_options *opt,
			struct path_result *out, long *expanded)
{
	if (!(opt->jps_always || (ctx->turned_pays && ctx->grid->cost == ctx->grid->bits_of)) || opt->plain_astar || opt->weight != 1.0 || opt->corner_cutting || opt->fallback ||
	    opt->budget > 0 || opt->extra || !(ctx->grid->topo == GRID_HEX || grid_is_diamond(ctx->grid->topo)))
		return false;
	if (!ctx->turned)
		ctx->turned = jps_turned_create(ctx->grid);
	if (!ctx->turned)
		return false;
	const int *cells;
	int len;
	const enum jps_turned_status st = jps_turned_find(ctx->turned, start, goal, &cells, &len, expanded);
	if (st == JPS_TURNED_ASTAR)
		return false;
	if (st == JPS_TURNED_NO_ROUTE) {
		single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
		out->expanded = *expanded;
		return true;
	}
	*out = (struct path_result){ .status = PATH_FOUND, .cells = cells, .len = len, .end = goal,
				     .cost = route_cost(ctx, cells, len, 0.0, NULL), .steps = len - 1,
				     .expanded = *expanded, .reached = true, .first_blocked = -1 };
	return true;
}

enum path_status path_find(struct path_ctx *ctx, int start, int goal,
			   const struct path_options *opt, struct path_result *out)
{
	struct path_options defaults = path_options_default();
	if (!opt)
		opt = &defaults;
	memset(out, 0, sizeof *out);
	out->first_blocked = -1;
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
		ctx->node[start] = (struct node){ .pos = POS_CLOSED, .stamp = ctx->gen, .dir = DIR_NONE };
		ctx->gw[start] = 0;
		single_cell_result(ctx, start, goal, PATH_FOUND, out);
		return PATH_FOUND;
	}
	if (!opt->fallback && !cost[goal]) {
		single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
		return PATH_NO_ROUTE;
	}
	/* Without fallback or budget, a goal outside the start's region has
	 * no route: the labels say so without settling that region. */
	if (!opt->fallback && opt->budget <= 0 && opt->regions &&
	    region_current(opt->regions, cost, opt->corner_cutting) &&
	    region_of(opt->regions, goal) != region_of(opt->regions, start)) {
		single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
		return PATH_NO_ROUTE;
	}

	const double weight = opt->weight < 0 ? 0.0 : opt->weight;
	struct search s = {
		.start = start, .goal = goal, .gx = goal % ctx->w, .gy = goal / ctx->w,
		.wmode = weight == 1.0 ? W_ASTAR : weight == 0.0 ? W_DIJKSTRA : W_WEIGHTED,
		.weight = weight,
		.fallback = opt->fallback,
		.layered = opt->fallback && !(opt->penalty > 0),
		.corner_cutting = opt->corner_cutting,
		.budget = opt->budget,
		.stop = opt->budget > 0 ? opt->stop : NULL,
		.extra = opt->extra,
		.solid = opt->fallback ? opt->solid : NULL,
		.doors = opt->deep_doors,
	};
	choose_scale(ctx, opt, &s);
	ctx->s1 = s.s1;
	ctx->s2 = s.s2;
	const double penalty = opt->fallback && opt->penalty > 0 ? opt->penalty : 0.0;

	long expanded = 0;
	if (turned_find(ctx, start, goal, opt, out, &expanded))
		return out->status;
	if (use_jps(ctx, opt)) {
		enum path_status st = ctx->grid->topo == GRID_SQUARE4 ? jps4_search(ctx, start, goal, &s, &expanded)
								       : jps_search(ctx, start, goal, &s, &expanded);
		if (ctx->no_memory) {
			no_memory_result(out, expanded);
			return PATH_BAD_INPUT;
		}
		if (st == PATH_NO_ROUTE) {
			single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
			out->expanded = expanded;
			return PATH_NO_ROUTE;
		}
		if (jps_result(ctx, start, goal, expanded, out))
			return PATH_FOUND;
		new_generation(ctx);
	}

	/* Two or more blocked cells away (fallback_near's precheck says so), or
	 * from a blocked start (use_deep_from_wall): fallback_deep. */
	bool deep = false;
	if (use_near(ctx, opt, start, goal)) {
		const bool possible = near_possible(ctx, opt->regions, region_of(opt->regions, start), goal, s.solid);
		new_generation(ctx);
		if (possible) {
			int near_end = start;
			long near_ex = 0;
			/* Without a budget: the same answer by fallback_one, faster. */
			if (opt->budget <= 0) {
				if (fallback_one(ctx, &s, opt->regions, &near_end, &near_ex)) {
					build_result(ctx, start, goal, near_end, true, PATH_FOUND, expanded + near_ex,
						     penalty, opt->extra, out);
					return out->status;
				}
				new_generation(ctx);
				near_end = start;
				near_ex = 0;
			}
			const enum path_status nst = fallback_near(ctx, &s, opt->regions, &near_end, &near_ex);
			expanded += near_ex;
			if (nst == PATH_FOUND) {
				build_result(ctx, start, goal, near_end, true, nst, expanded, penalty, opt->extra, out);
				return out->status;
			}
			if (opt->near_only && s.budget > 0 && near_ex >= s.budget) {
				single_cell_result(ctx, start, goal, PATH_BUDGET, out);
				out->expanded = expanded;
				return PATH_BUDGET;
			}
			new_generation(ctx);
		} else {
			deep = !(s.solid && s.solid[goal]);
		}
	} else {
		deep = use_deep_from_wall(ctx, opt, &s, start, goal);
	}
	if (deep) {
		/* The same key, stopping near the goal; with a budget
		 * (near_exact), within it, or PATH_BUDGET at once with the start
		 * alone (the layered search would settle the start's region
		 * first), past 250 walls too (DEEP_THICK; without a budget
		 * fallback_deep answers those too, up to DEEP_WIDE_MAX).  From
		 * a blocked start (no budget) its A* over the pair answers: the
		 * plain loop needs a passable home. */
		int deep_end = start;
		long deep_ex = 0;
		enum deep_status ds = fallback_deep(ctx, &s, opt->regions, true, &deep_end, &deep_ex);
		if (ds == DEEP_AGAIN) {
			new_generation(ctx);
			deep_end = start;
			deep_ex = 0;
			ds = fallback_deep(ctx, &s, opt->regions, false, &deep_end, &deep_ex);
		}
		if (ds == DEEP_FOUND) {
			build_result(ctx, start, goal, deep_end, true, PATH_FOUND, expanded + deep_ex, penalty,
				     opt->extra, out);
			return out->status;
		}
		if (ds == DEEP_NO_ROUTE || ds == DEEP_BUDGET || (ds == DEEP_THICK && opt->budget > 0)) {
			const enum path_status dst = ds == DEEP_NO_ROUTE ? PATH_NO_ROUTE : PATH_BUDGET;
			single_cell_result(ctx, start, goal, dst, out);
			out->expanded = expanded + deep_ex;
			return dst;
		}
		new_generation(ctx);
	}

	/* Automatic P, weight 1, and current labels that put the goal in the
	 * start's region, or a budget smaller than that region: the layered
	 * search never leaves layer 0, and layer 0's pops are plain A*'s (the
	 * same keys and relaxation; its blocked neighbours only wait in the
	 * pending list, and the budget's best cell is a layer-0 cell): plain
	 * A* gives the same answer, budget or not, without the fallback's
	 * tests, and on square8 in the bucket ring (the far clicks of a mapped
	 * 4096x4096 level: docs/core.md). */
	if (s.layered && s.wmode == W_ASTAR && cost[start] && opt->regions &&
	    region_current(opt->regions, cost, opt->corner_cutting) &&
	    ((cost[goal] && region_of(opt->regions, goal) == region_of(opt->regions, start)) ||
	     (s.budget > 0 && region_size(opt->regions, start) > s.budget))) {
		s.fallback = false;
		s.layered = false;
		s.solid = NULL;
	}
	int end = start;
	long more = 0;
	enum path_status st = astar(ctx, &s, &end, &more);
	expanded += more;
	if (ctx->no_memory) {
		no_memory_result(out, expanded);
		return PATH_BAD_INPUT;
	}
	if (st == PATH_NO_ROUTE) {
		/* Without fallback, or with solid cells that wall the goal off:
		 * otherwise the fallback can enter every cell. */
		single_cell_result(ctx, start, goal, PATH_NO_ROUTE, out);
		out->expanded = expanded;
		return PATH_NO_ROUTE;
	}
	build_result(ctx, start, goal, end, opt->fallback, st, expanded, penalty, opt->extra, out);
	return out->status;
}

/*
 * path_flood's loop, compiled once per topology (the constant `topo`), so
 * that the neighbour arithmetic and corner rules of the other grids leave
 * the loop: diamond maps had made every topology's flood about 10% slower.
 */
static inline __attribute__((always_inline)) long flood_loop(struct path_ctx *ctx, int source,
							    const struct path_options *opt, bool reverse,
							    double max_cost, const enum grid_topology topo)
{
	new_generation(ctx);
	const struct grid *grid = ctx->grid;
	const uint8_t *cost = grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	const int dirs = grid_dir_count(topo);
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp; /* diamond: as square */
	const uint16_t *extra = opt->extra;
	const bool corner_cutting = opt->corner_cutting;
	struct node *node = ctx->node;
	uint64_t *gw = ctx->gw;
	const uint16_t gen = ctx->gen;
	long settled = 0;

	ctx->flood_source = source;
	node[source] = (struct node){ .pos = 0, .stamp = gen, .dir = DIR_NONE };
	gd_set(gw, source, 0.0);
	sift_up(ctx, ctx->queue.heap_len++, double_key(0.0, source));
	while (ctx->queue.heap_len > 0 || ctx->queue.stack_len > 0) {
		const int u = pq_cell(queue_peek(ctx));
		if (max_cost > 0 && gd_get(gw, u) > max_cost)
			break;
		if (!queue_room(ctx, dirs))
			break; /* no memory: the cells settled so far keep their distances */
		const uint64_t tie_f = pq_f(queue_pop(ctx));
		settled++;
		const int uy = u / w, ux = u - uy * w;
		const double ug = gd_get(gw, u);
		/* Reverse: the mover walks v -> u and pays for entering u (a
		 * blocked source, such as a closed door, counts as floor). */
		const unsigned cu = cost[u] ? cost[u] : 1;
		const double xu = extra ? (double)extra[u] : 0.0;
		for (int i = 0; i < dirs; i++) {
			int nx, ny;
			double step;
			if (grid_is_staggered(topo)) {
				nx = ux + grid_nb_dx(topo, uy, i);
				ny = uy + grid_nb_dy(topo, i);
				step = grid_nb_long(topo, i) ? GRID_SQRT2 : 1.0;
			} else {
				nx = ux + GRID_SQUARE_DX[i];
				ny = uy + GRID_SQUARE_DY[i];
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
			if (topo == GRID_DIAMOND8 && i >= 4 && !corner_cutting &&
			    !grid_diamond_flanks_open(cost, w, hgt, ux, uy, i))
				continue;
			const double ng = reverse ? ug + step * (double)cu + xu
						  : ug + step * (double)cost[v] + (extra ? (double)extra[v] : 0.0);
			struct node *nv = &node[v];
			if (nv->stamp != gen) {
				nv->stamp = gen;
				gd_set(gw, v, ng);
				nv->dir = opp[i];
				queue_push(ctx, double_key(ng, v), tie_f);
			} else if ((nv->pos >= 0 || nv->pos == POS_STACK) && ng < gd_get(gw, v)) {
				gd_set(gw, v, ng);
				nv->dir = opp[i];
				if (nv->pos >= 0)
					sift_up(ctx, nv->pos, double_key(ng, v));
			}
		}
	}
	return settled;
}

#define FLOOD_FOR(name, topo)                                                                          \
	static __attribute__((noinline)) long name(struct path_ctx *ctx, int source,                   \
						   const struct path_options *opt, bool reverse, double max_cost) \
	{                                                                                              \
		return flood_loop(ctx, source, opt, reverse, max_cost, topo);                          \
	}
FLOOD_FOR(flood_square4, GRID_SQUARE4)
FLOOD_FOR(flood_square8, GRID_SQUARE8)
FLOOD_FOR(flood_hex, GRID_HEX)
FLOOD_FOR(flood_diamond4, GRID_DIAMOND4)
FLOOD_FOR(flood_diamond8, GRID_DIAMOND8)
#undef FLOOD_FOR

long path_flood(struct path_ctx *ctx, int source, const struct path_options *opt,
		bool reverse, double max_cost)
{
	struct path_options defaults = path_options_default();
	if (!opt)
		opt = &defaults;
	if (!ctx || source < 0 || source >= ctx->n)
		return 0;
	switch (ctx->grid->topo) {
	case GRID_SQUARE4:
		return flood_square4(ctx, source, opt, reverse, max_cost);
	case GRID_SQUARE8:
		return flood_square8(ctx, source, opt, reverse, max_cost);
	case GRID_HEX:
		return flood_hex(ctx, source, opt, reverse, max_cost);
	case GRID_DIAMOND4:
		return flood_diamond4(ctx, source, opt, reverse, max_cost);
	case GRID_DIAMOND8:
		return flood_diamond8(ctx, source, opt, reverse, max_cost);
	}
	return 0;
}

double path_flood_distance(const struct path_ctx *ctx, int cell)
{
	if (!ctx || ctx->flood_source < 0 || cell < 0 || cell >= ctx->n || !closed(ctx, cell))
		return -1.0;
	return gd_get(ctx->gw, cell);
}

int path_flood_next(const struct path_ctx *ctx, int cell, const struct path_options *opt)
{
	(void)opt; /* the flood recorded each cell's downhill neighbour under its own options */
	if (path_flood_distance(ctx, cell) < 0)
		return -1;
	return parent_of(ctx, cell);
}

int path_route(const struct path_ctx *ctx, const int **cells)
{
	if (!ctx || ctx->route_len <= 0) {
		*cells = NULL;
		return 0;
	}
	*cells = (const int *)(const void *)ctx->queue.key;
	return ctx->route_len;
}

bool path_was_expanded(const struct path_ctx *ctx, int cell)
{
	return ctx && cell >= 0 && cell < ctx->n && closed(ctx, cell) && !(ctx->jps_via && ctx->node[cell].aux == 1);
}

/* The excess (plain A*'s expansions per route cell) below which a grid
 * searches plainly (near_straight): where the jump search's time crossed
 * plain A*'s on maps of scattered obstacles (docs/core.md). */
static double straight_excess(enum grid_topology topo)
{
	switch (topo) {
	case GRID_SQUARE8:
	case GRID_HEX:
		return 4.0;
	case GRID_SQUARE4:
		return 2.5;
	case GRID_DIAMOND4:
	case GRID_DIAMOND8:
		break;
	}
	return 1.5;
}

/*
 * Whether plain A* goes nearly straight on ctx's map: STRAIGHT_SAMPLES
 * queries between passable cells from d to 2d steps apart, d a quarter of
 * the map's larger side (at least 16, at most 256: the test's cost stays
 * under a few milliseconds on 4096x4096), picked by a fixed sequence (the
 * same map, the same choice), expand at most straight_excess times their routes' cells
 * in all (a query out of budget counted at its budget over its least
 * route), leaving out the one that expands most for its route: one query
 * in a pocket of obstacles may flood thousands of cells on a map where
 * the rest go straight (a diamond8 map of scattered 2x2 blocks: 42,158
 * expansions for 462 cells, against 1.0-2.9 a cell for the others).  Each
 * query's budget is twice its share of that, and more than one query in
 * four plus one out of budget ends the test (no): on a map where A*
 * wanders (rooms, caves, mazes) it costs two queries' budgets, a few
 * thousand expansions, and on an open map about the routes' cells.  A
 * query that finds no route within its budget (another region) is
 * skipped; the whole test spends at most the sixteen largest budgets.
 */
static bool near_straight(struct path_ctx *ctx)
{
	const struct grid *g = ctx->grid;
	const enum grid_topology topo = g->topo;
	const int w = g->w, h = g->h;
	const double most = straight_excess(topo);
	const int side = w > h ? w : h;
	const int64_t far = side / 4 < 16 ? 16 : side / 4 > 256 ? 256 : side / 4;
	uint64_t x = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(unsigned)w << 32 | (unsigned)h);
	long expanded = 0, cells = 0, worst_expanded = 0, worst_cells = 1;
	int found = 0, wandered = 0;
	/* all the test may spend, queries that find no route included (a map
	 * of many small sealed rooms would otherwise run a thousand of them) */
	long spent = 0;
	const long most_spent = (long)(STRAIGHT_SAMPLES * 2.0 * most * (double)(2 * far + 1));
	for (int tries = 0; tries < 64 * STRAIGHT_SAMPLES && found < STRAIGHT_SAMPLES; tries++) {
		int end[2];
		for (int k = 0; k < 2; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			end[k] = (int)(x % (uint64_t)ctx->n);
		}
		if (!g->cost[end[0]] || !g->cost[end[1]])
			continue;
		const int64_t steps = heuristic(topo, end[0] % w, end[0] / w, end[1] % w, end[1] / w, 1, 1);
		if (steps < far || steps > 2 * far)
			continue;
		struct path_options opt = path_options_default();
		opt.plain_astar = true;
		opt.budget = (long)(2.0 * most * (double)(steps + 1));
		struct path_result r;
		const enum path_status st = path_find(ctx, end[0], end[1], &opt, &r);
		spent += st == PATH_FOUND || st == PATH_NO_ROUTE ? r.expanded : opt.budget;
		if (spent > most_spent)
			return false;
		if (st == PATH_NO_ROUTE)
			continue;
		/* out of budget: counted at its budget over its least route */
		const long e = st == PATH_FOUND ? r.expanded : opt.budget;
		const long c = st == PATH_FOUND ? r.len : (long)steps + 1;
		expanded += e;
		cells += c;
		found++;
		/* out of budget on more than one query in four plus one (the
		 * first two, three of the first seven): A* wanders here; a map
		 * of rare pockets goes on */
		if (st != PATH_FOUND && 4 * ++wandered > found + 4)
			return false;
		/* the query of most expansions a cell so far */
		if ((double)e * (double)worst_cells > (double)worst_expanded * (double)c) {
			worst_expanded = e;
			worst_cells = c;
		}
	}
	if (found < STRAIGHT_SAMPLES)
		return false; /* too few pairs (a map of small regions): as before */
	expanded -= worst_expanded;
	cells -= worst_cells;
	return (double)expanded <= most * (double)cells;
}
