/*
 * route.c - flood_route: an A* from a settled cell to the source of a
 * finished reverse flood, under extra costs (crowding), whose heuristic is
 * the flood's distance sharpened near the source by the crowd potential
 * (flood.h gives the contract; flood.c makes the flood it reads).
 *
 * Parts, in order: the crowd potential (crowd_make, a small Dijkstra from
 * the source under the crowd costs); the queue (a 4-ary heap with a tie
 * stack, behind a bucket ring over f); the search loops (route_loop in
 * doubles, specialised three ways, and route_fixed in compact units);
 * flood_route, which picks the loop and reads the route back; and
 * flood_detour, the same search cut at a horizon around its start.
 */
#include "flood.h"
#include "flood_internal.h"

#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool route_create(struct flood_ctx *f)
{
	f->route = calloc(1, sizeof *f->route);
	if (!f->route)
		return false;
	f->route->users = 1;
	f->route->n = f->n;
	f->crowd.slot = calloc(CROWD_SLOTS, sizeof *f->crowd.slot);
	f->crowd.cell = malloc((size_t)CROWD_CELLS * sizeof *f->crowd.cell);
	f->crowd.extra = malloc((size_t)CROWD_CELLS * sizeof *f->crowd.extra);
	f->crowd.heap = malloc(((size_t)CROWD_CELLS * GRID_MAX_NEIGHBOURS + 1) * sizeof *f->crowd.heap);
	return f->crowd.slot && f->crowd.cell && f->crowd.extra && f->crowd.heap;
}

/* Makes the per-cell arrays of the search on the first search (40 bytes a
 * cell: on a 4096x4096 level 670 MB, which a context that only floods
 * never takes, and contexts may share).  False: no memory. */
static bool route_ready(struct flood_ctx *f)
{
	struct route_search *r = f->route;
	const size_t n = (size_t)f->n;
	if (!r->node) {
		struct a_node *node = calloc(n, sizeof *node);
		/* on a small map all it can need at once, else a start (keys_reserve) */
		const int keys = f->n <= PRETOUCH_ROUTE_CELLS || f->n < KEYS_FIRST ? f->n : KEYS_FIRST;
		pq_key *key = calloc((size_t)keys, sizeof *key);
		const int chunks = f->n / 8 + 1 < RING_CHUNKS ? f->n / 8 + 1 : RING_CHUNKS;
		int32_t *pool = malloc((size_t)chunks * RCHUNK * sizeof *pool);
		if (!node || !key || !pool) {
			free(node);
			free(key);
			free(pool);
			return false;
		}
		r->node = node;
		r->queue.key = key;
		r->queue.cap = keys;
		r->ring.pool = pool;
		r->ring.pool_chunks = chunks;
	}
	return true;
}

bool route_pretouch(struct flood_ctx *f)
{
	if (!route_ready(f))
		return false;
	const size_t n = (size_t)f->n;
	pages_touch(f->route->node, n * sizeof *f->route->node);
	pages_touch(f->route->queue.key, (size_t)f->route->queue.cap * sizeof *f->route->queue.key);
	return true;
}

static void search_release(struct route_search *r)
{
	if (!r || --r->users > 0)
		return;
	free(r->node);
	free(r->ring.pool);
	free(r->queue.key);
	free(r);
}

void route_destroy(struct flood_ctx *f)
{
	search_release(f->route);
	f->route = NULL;
	free(f->crowd.slot);
	free(f->crowd.cell);
	free(f->crowd.extra);
	free(f->crowd.heap);
}

bool flood_share_search(struct flood_ctx *f, struct flood_ctx *with)
{
	if (!f || !with || f == with || f->n != with->n)
		return false;
	if (f->route == with->route)
		return true;
	search_release(f->route);
	f->route = with->route;
	f->route->users++;
	return true;
}

size_t route_memory(const struct flood_ctx *f)
{
	const struct route_search *r = f->route;
	size_t own = (size_t)CROWD_CELLS * (sizeof *f->crowd.cell + sizeof *f->crowd.extra +
					    GRID_MAX_NEIGHBOURS * sizeof *f->crowd.heap) +
		     sizeof *f->crowd.heap + (size_t)CROWD_SLOTS * sizeof *f->crowd.slot;
	/* a shared search counts in full for each context that shares it */
	if (r && r->node)
		own += sizeof *r + (size_t)r->n * sizeof *r->node + (size_t)r->queue.cap * sizeof *r->queue.key +
		       (size_t)r->ring.pool_chunks * RCHUNK * sizeof *r->ring.pool;
	return own;
}

/* The flood's distance of v, a lower bound where it has not settled v;
 * negative when v cannot reach the source. */
static inline double flood_h(const struct flood_ctx *f, int32_t v, double lo)
{
	return is_settled(f, v) ? dist_of(f, v) : lo;
}

/* The crowd Dijkstra's heap: 4-ary, of keys that order its cells by
 * distance, then by index (one unsigned 128-bit compare: the IEEE bits of
 * the non-negative distance above the cell).  Keys are unique, so the
 * cells come out in the order of their keys whatever the heap's shape. */
#define C_HEAP_D 4

static inline akey c_key(double g, int32_t cell)
{
	uint64_t b;
	memcpy(&b, &g, sizeof b);
	return (akey)b << 64 | (uint32_t)cell;
}

static inline double c_dist(akey k)
{
	const uint64_t b = (uint64_t)(k >> 64);
	double g;
	memcpy(&g, &b, sizeof g);
	return g;
}

static void c_push(struct flood_ctx *f, double g, int32_t cell)
{
	akey *h = f->crowd.heap;
	int i = f->crowd.heap_len++;
	const akey e = c_key(g, cell);
	while (i > 0) {
		const int p = (i - 1) / C_HEAP_D;
		if (!(e < h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

static akey c_pop(struct flood_ctx *f)
{
	akey *h = f->crowd.heap;
	const akey top = h[0], e = h[--f->crowd.heap_len];
	const int n = f->crowd.heap_len;
	int i = 0;
	for (;;) {
		const int l = C_HEAP_D * i + 1;
		if (l >= n)
			break;
		int m = l;
		for (int j = l + 1; j < l + C_HEAP_D && j < n; j++)
			m = h[j] < h[m] ? j : m;
		if (!(h[m] < e))
			break;
		h[i] = h[m];
		i = m;
	}
	if (n > 0)
		h[i] = e;
	return top;
}

/* The slot of v in the crowd table of the current gen, NULL if none. */
static inline const struct crowd_slot *crowd_get(const struct flood_ctx *f, int32_t v)
{
	const uint32_t gen = f->crowd.gen;
	for (uint32_t i = ((uint32_t)v * 0x9E3779B1u) >> 18;; i = (i + 1) & (CROWD_SLOTS - 1)) {
		const struct crowd_slot *s = &f->crowd.slot[i];
		if (s->state >> 1 != gen)
			return NULL;
		if (s->cell == v)
			return s;
	}
}

/* The slot of v, taken (state 0, to be set) when it has none. */
static inline struct crowd_slot *crowd_put(struct flood_ctx *f, int32_t v)
{
	const uint32_t gen = f->crowd.gen;
	for (uint32_t i = ((uint32_t)v * 0x9E3779B1u) >> 18;; i = (i + 1) & (CROWD_SLOTS - 1)) {
		struct crowd_slot *s = &f->crowd.slot[i];
		if (s->state >> 1 != gen) {
			s->cell = v;
			s->state = 0;
			return s;
		}
		if (s->cell == v)
			return s;
	}
}

/* Whether v is in R (settled by the crowd Dijkstra: state in_r), with its
 * crowd distance then in *d. */
static inline bool crowd_in_r(const struct flood_ctx *f, int32_t v, uint32_t in_r, double *d)
{
	if ((uint32_t)(v - f->crowd.first_cell) > (uint32_t)f->crowd.cell_span)
		return false;
	const struct crowd_slot *s = crowd_get(f, v);
	if (!s || s->state != in_r)
		return false;
	*d = s->dist;
	return true;
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
	if (++f->crowd.gen > 0x7FFFFFFFu) {
		memset(f->crowd.slot, 0, (size_t)CROWD_SLOTS * sizeof *f->crowd.slot);
		f->crowd.gen = 1;
	}
	const uint32_t queued = f->crowd.gen << 1, done = queued | 1u;
	f->crowd.count = 0;
	f->crowd.heap_len = 0;
	/* R's span is known at the end: until then crowd_in_r looks everywhere */
	f->crowd.first_cell = 0;
	f->crowd.cell_span = f->n;
	struct crowd_slot *s0 = crowd_put(f, f->run.source);
	s0->dist = 0.0;
	s0->state = queued;
	c_push(f, 0.0, f->run.source);
	int32_t nb[GRID_MAX_NEIGHBOURS];
	bool dg[GRID_MAX_NEIGHBOURS];
	/* R's cells' neighbours, listed once for both passes */
	int32_t rnb[CROWD_CELLS][GRID_MAX_NEIGHBOURS];
	int rk[CROWD_CELLS];
	while (f->crowd.heap_len > 0 && f->crowd.count < CROWD_CELLS) {
		const akey ek = c_pop(f);
		const struct { double g; int32_t cell; } e = { c_dist(ek), (int32_t)(uint32_t)ek };
		const int32_t v = e.cell;
		struct crowd_slot *sv = crowd_put(f, v); /* queued, so found */
		if (sv->state == done || e.g > sv->dist)
			continue;
		sv->state = done;
		const uint16_t xv = extra ? extra[v] : 0;
		const int r = f->crowd.count;
		f->crowd.cell[r] = v;
		f->crowd.extra[f->crowd.count++] = xv;
		const unsigned m = gc[v] ? gc[v] : 1u;
		const int k = legal_neighbours(f, v, nb, dg);
		memcpy(rnb[r], nb, (size_t)k * sizeof *nb);
		rk[r] = k;
		for (int i = 0; i < k; i++) {
			const int32_t u = nb[i];
			struct crowd_slot *su = crowd_put(f, u);
			if (su->state == done)
				continue;
			const double key =
				codes ? e.g + (double)((uint64_t)m * (dg[i] ? f->dist.sqrt2 : 1u << CBITS) +
						       ((uint64_t)xv << CBITS))
				      : e.g + f->queue.edge_cost[2u * m + (dg[i] ? 1u : 0u)] + (double)xv;
			if (su->state != queued || key < su->dist) {
				su->state = queued;
				su->dist = key;
				c_push(f, key, u);
			}
		}
	}
	/* cdelta: over the cells of R a cell outside may step to */
	double delta = HUGE_VAL;
	for (int r = 0; r < f->crowd.count; r++) {
		const int32_t b = f->crowd.cell[r];
		const int k = rk[r];
		bool edge = false;
		for (int i = 0; i < k && !edge; i++) {
			const struct crowd_slot *sn = crowd_get(f, rnb[r][i]);
			edge = !sn || sn->state != done;
		}
		if (!edge)
			continue;
		const double hb = !codes ? flood_h(f, b, lo)
				  : f->dist.code[b] < CNONE ? (double)((uint64_t)f->moves.uniform * f->dist.code[b]) : -1.0;
		const double cb = crowd_get(f, b)->dist; /* b is in R */
		if (hb >= 0 && cb - hb < delta)
			delta = cb - hb;
	}
	f->crowd.delta = delta < 0 ? 0 : delta;
	int32_t rmin = f->run.source, rmax = f->run.source;
	for (int r = 0; r < f->crowd.count; r++) {
		rmin = f->crowd.cell[r] < rmin ? f->crowd.cell[r] : rmin;
		rmax = f->crowd.cell[r] > rmax ? f->crowd.cell[r] : rmax;
	}
	f->crowd.first_cell = rmin;
	f->crowd.cell_span = rmax - rmin;
	f->crowd.valid = true;
	f->crowd.epoch = f->run.epoch;
	f->crowd.settled = f->run.settled;
	f->crowd.bound = lo;
	f->crowd.extra_array = extra;
	f->crowd.in_code = codes;
}

/* Whether the potential still holds: the same flood (no cell settled since,
 * so the same h), the same extra array, and no cell of R cheaper now. */
static bool crowd_valid(const struct flood_ctx *f, const uint16_t *extra, double lo, bool codes)
{
	if (!f->crowd.valid || f->crowd.epoch != f->run.epoch || f->crowd.settled != f->run.settled || f->crowd.bound != lo ||
	    f->crowd.extra_array != extra || f->crowd.in_code != codes)
		return false;
	if (extra)
		for (int r = 0; r < f->crowd.count; r++)
			if (extra[f->crowd.cell[r]] < f->crowd.extra[r])
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

static inline void a_up(struct flood_ctx *f, int i, akey e)
{
	pq_sift_up(&f->route->queue, f->route->node, i, e);
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
	double cv;
	if (crowd_in_r(f, v, in_r, &cv)) {
		if (cv < hv)
			hv = cv;
	} else if (delta == HUGE_VAL) {
		return -1.0; /* R holds every cell that reaches the source */
	}
	return hv;
}


/* route_fixed's potential of v in compact units (see route_h);
 * UINT64_MAX when v is not to be queued. */
static inline uint64_t route_hc(const struct flood_ctx *f, const struct rpot *p, int32_t v)
{
	const uint32_t code = f->dist.code[v];
	if (code >= CNONE)
		return UINT64_MAX; /* cannot reach the source */
	uint64_t h = p->cdelta == UINT64_MAX ? UINT64_MAX : p->mult * code + p->cdelta;
	double cv;
	if (crowd_in_r(f, v, p->in_r, &cv) && (uint64_t)cv < h)
		h = (uint64_t)cv;
	return h;
}

/* route_fixed's key: f, then the larger g (to 32 bits: g never passes f,
 * and f passes CLIMIT only in keys never popped), then the smaller cell. */
static inline akey a_key_codes(uint64_t fv, uint64_t gv, int32_t cell)
{
	const uint32_t g32 = gv > UINT32_MAX ? UINT32_MAX : (uint32_t)gv;
	return (akey)fv << 64 | (akey)((uint64_t)(UINT32_MAX - g32) << 32 | (uint32_t)cell);
}

/* What a drained cell's key is made from, for pq_ring_drain. */
struct drain_env {
	const struct flood_ctx *f;
	const struct rpot *p;
};

static inline akey drain_key(const void *env, int cell)
{
	const struct drain_env *e = env;
	const struct flood_ctx *f = e->f;
	const struct rpot *p = e->p;
	if (p->codes) {
		const uint64_t gv = f->route->node[cell].gc;
		return a_key_codes(gv + route_hc(f, p, cell), gv, cell);
	}
	const double gv = f->route->node[cell].g;
	return a_key(gv + route_h(f, cell, p->lo, p->delta, p->in_r), gv, cell);
}

/* Grows the queue to hold `need` keys (never past the n cells: a cell has
 * at most one key in the heap or the stack).  The tie stack, at the top of
 * the array, moves to the new top; records find heap keys by index and
 * stacked ones by a code, so none changes.  False, and the search starved
 * (it then finds nothing), when there is no memory. */
static bool keys_reserve(struct route_search *r, long need)
{
	struct pq *q = &r->queue;
	if (need <= q->cap)
		return true;
	if (r->starved)
		return false;
	long cap = q->cap;
	while (cap < need)
		cap *= 2;
	if (cap > r->n)
		cap = r->n;
	if (!pq_resize(q, cap)) {
		r->starved = true;
		return false;
	}
	return true;
}

/* Appends slot r's live cells to the heap (unordered) and frees its chunks;
 * with no memory for them, empties the ring (the search has starved). */
static void r_drain(struct flood_ctx *f, int r, const struct rpot *p)
{
	struct route_search *rs = f->route;
	const long listed = (long)rs->ring.next_chunk * (RCHUNK - 1);
	if (!keys_reserve(rs, rs->queue.heap_len + rs->queue.stack_len + (listed < rs->n ? listed : rs->n))) {
		pq_ring_reset(&rs->ring, rs->ring.bucket, false);
		return;
	}
	const struct drain_env env = { f, p };
	pq_ring_drain(&rs->ring, &rs->queue, rs->node, r, false, false, drain_key, &env);
}

/* The current bucket is used up: the next slot with a cell becomes the heap. */
static bool r_advance(struct flood_ctx *f, const struct rpot *p)
{
	struct pq_ring *rg = &f->route->ring;
	while (f->route->queue.heap_len == 0) {
		const int d = pq_ring_next(rg);
		if (d == RRING)
			break;
		rg->bucket += (uint64_t)d;
		r_drain(f, (int)(rg->bucket % RRING), p);
	}
	pq_heapify(&f->route->queue, f->route->node);
	return f->route->queue.heap_len > 0;
}

/* Gives up the ring: every listed cell goes to the heap. */
static void r_flush(struct flood_ctx *f, const struct rpot *p)
{
	for (int r = 0; r < RRING; r++)
		if (f->route->ring.head[r] >= 0)
			r_drain(f, r, p);
	pq_heapify(&f->route->queue, f->route->node);
	f->route->ring.on = false;
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

static __attribute__((noinline)) void a_unstack(struct flood_ctx *f, int32_t v)
{
	akey *const base = pq_stack_top(&f->route->queue);
	int i = 0;
	while (a_cell(base[i]) != v)
		i++;
	for (; i > 0; i--)
		base[i] = base[i - 1];
	f->route->queue.stack_len--;
}

/* Removes the least key of the tie stack and the heap; returns its cell. */
static inline int32_t a_take(struct flood_ctx *f)
{
	const akey k = pq_pop(&f->route->queue, f->route->node);
	f->route->tie_f = pq_f(k);
	return pq_cell(k);
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
	if (f->route->ring.on) {
		if (q > f->route->ring.bucket) {
			const int r = (int)(q % RRING);
			if (pos == PQ_RING_POS(r))
				return; /* still in the same list: its key is made when drained */
			if (q - f->route->ring.bucket < RRING && pq_ring_add(&f->route->ring, f->route->node, r, v, false))
				return;
			r_flush(f, p);
			if (pos != INT32_MIN)
				return; /* the flush queued it, with its new g */
			pos = INT32_MIN;
		}
	}
	if (pos >= 0) {
		a_up(f, pos, k);
	} else {
		struct pq *qu = &f->route->queue;
		if (__builtin_expect(qu->heap_len + qu->stack_len >= qu->cap, 0) &&
		    !keys_reserve(f->route, qu->heap_len + qu->stack_len + 1))
			return; /* starved: flood_route and flood_detour find nothing */
		pq_push(qu, f->route->node, k, f->route->tie_f, A_STACKED);
	}
}

/* A lower bound of the distance to the source of a cell the flood has not
 * settled: the smallest key still queued (every unsettled cell is at least
 * that far); negative when the flood is over, so the cell cannot reach it. */
static double unsettled_bound(const struct flood_ctx *f)
{
	if (f->run.finished)
		return f->run.max_dist > 0 ? f->run.max_dist : -1.0;
	double lo = -1.0;
	for (int i = 0; i < f->queue.active_count; i++) {
		double k = f->queue.head_key[f->queue.active[i]];
		if (lo < 0 || k < lo)
			lo = k;
	}
	return lo;
}

/* The cell before v on flood_route's search tree; -1 at the start. */
static int32_t a_parent(const struct flood_ctx *f, int32_t v)
{
	const unsigned d = f->route->node[v].tag & A_NO_DIR;
	if (d == A_NO_DIR)
		return -1;
	if (grid_is_square(f->grid->topo))
		return v - f->moves.delta[d];
	const int w = f->grid->w, vy = v / w;
	if (grid_is_diamond(f->grid->topo)) {
		const int py = vy - GRID_DIAMOND_DY[d];
		return py * w + v - vy * w - GRID_DIAMOND_DX[py & 1][d];
	}
	const int py = vy - GRID_HEX_DY[d];
	return py * w + v - vy * w - GRID_HEX_DX[py & 1][d];
}

/*
 * The head of a turn of both route loops (route_loop and route_fixed):
 * the next cell off the queue (the ring's next bucket becomes the heap
 * when the current one is used up), closed (`closed` is this search's
 * closed tag), while the records around the likely next cell are fetched.
 * -1 when nothing is left; with `fixed`, -2 when the key popped passes
 * CLIMIT (route_fixed then gives up, the cell left as it was).  The
 * constants square, plain and in_code choose what to fetch: a square
 * grid's rows, compact distances or doubles, and for the plain loops the
 * records beside and the extra costs.
 */
static inline __attribute__((always_inline)) int32_t
route_take(struct flood_ctx *f, const struct rpot *p, const uint16_t *extra, struct a_node *an,
	   uint32_t closed, int w, const bool fixed, const bool square, const bool plain, const bool in_code)
{
	struct pq *q = &f->route->queue;
	if (q->heap_len == 0 && q->stack_len == 0 && !(f->route->ring.on && r_advance(f, p)))
		return -1;
	const int32_t u = a_take(f);
	if (fixed && f->route->tie_f > CLIMIT)
		return -2;
	an[u].tag = closed << A_DIR_BITS | (an[u].tag & A_NO_DIR);
	if (square && (q->stack_len > 0 || q->heap_len > 0)) {
		/* the likely next cell: fetch its neighbours' records meanwhile */
		const int32_t t = a_cell(q->stack_len > 0 ? *pq_stack_top(q) : q->key[0]);
		if (t > w && t < f->n - w) {
			if (in_code) {
				__builtin_prefetch(&f->dist.code[t - w]);
				__builtin_prefetch(&f->dist.code[t + w]);
			} else {
				__builtin_prefetch(&f->dist.value[t - w]);
				__builtin_prefetch(&f->dist.value[t]);
				__builtin_prefetch(&f->dist.value[t + w]);
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
	return u;
}

/*
 * flood_route's A* loop, from the queue flood_route set up, specialised by
 * the constant `mode`.  A hot loop, about 140 lines: the three modes'
 * tests of a neighbour are interleaved so that each specialisation keeps
 * only its own.  ROUTE_GENERAL serves every case.  The plain modes
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
	const int w = g->w, h = g->h, goal = f->run.source;
	const bool square = plain || grid_is_square(g->topo);
	const bool diamond = !plain && grid_is_diamond(g->topo);
	const uint32_t open = f->route->gen << 1, closed = open | 1u;
	struct a_node *an = f->route->node;
	const uint32_t *cdist = f->dist.code;
	const double *dist = f->dist.value;
	const int32_t rlo = f->crowd.first_cell;
	const uint32_t rspan = (uint32_t)f->crowd.cell_span;
	const double eo = f->queue.edge_cost[2u * f->moves.uniform], ed = f->queue.edge_cost[2u * f->moves.uniform + 1u];
	const struct rpot pot = { .lo = lo, .delta = delta, .in_r = in_r };
	long exp = 0;
	bool found = false;
	for (;;) {
		const int32_t u = route_take(f, &pot, extra, an, closed, w, false, square, plain,
					     plain ? compact : f->dist.in_code);
		if (u < 0)
			break;
		exp++;
		if (u == goal) {
			found = true;
			break;
		}
		const double gu = an[u].g;
		unsigned moves;
		int uy = 0, ux = 0;
		const int8_t *ox = GRID_SQUARE_DX, *oy = GRID_SQUARE_DY;
		if (square) {
			moves = f->moves.bits[u];
		} else {
			uy = u / w;
			ux = u - uy * w;
			moves = 0;
			if (diamond) {
				ox = GRID_DIAMOND_DX[uy & 1];
				oy = GRID_DIAMOND_DY;
				for (int i = 0; i < grid_dir_count(g->topo); i++) {
					int vx = ux + ox[i], vy = uy + oy[i];
					if ((unsigned)vx < (unsigned)w && (unsigned)vy < (unsigned)h && gc[vy * w + vx] &&
					    (i < 4 || f->run.corner_cutting || grid_diamond_flanks_open(gc, w, h, ux, uy, i)))
						moves |= 1u << i;
				}
			}
			ox = diamond ? ox : GRID_HEX_DX[uy & 1];
			oy = diamond ? oy : GRID_HEX_DY;
			for (int i = 0; i < 6 && !diamond; i++) {
				int vx = ux + ox[i], vy = uy + oy[i];
				if ((unsigned)vx < (unsigned)w && (unsigned)vy < (unsigned)h && gc[vy * w + vx])
					moves |= 1u << i;
			}
		}
		if (!plain && !gc[goal]) {
			/* a blocked source (floor to the flood) may be entered too */
			uy = u / w;
			ux = u - uy * w;
			const int dirs = square ? (g->topo == GRID_SQUARE8 ? 8 : 4) : grid_dir_count(g->topo);
			for (int i = 0; i < dirs; i++) {
				const int vx = ux + ox[i], vy = uy + oy[i];
				if ((unsigned)vx >= (unsigned)w || (unsigned)vy >= (unsigned)h || vy * w + vx != goal)
					continue;
				if (square && i >= 4 && !f->run.corner_cutting && (!gc[uy * w + vx] || !gc[vy * w + ux]))
					continue;
				if (diamond && i >= 4 && !f->run.corner_cutting && !grid_diamond_flanks_open(gc, w, h, ux, uy, i))
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
			 * f->moves.uniform.  The rest of the loop then sees the same
			 * cells, in the same order, as the general one.
			 */
			unsigned work = 0;
#pragma GCC unroll 8
			for (int i = 0; i < 8; i++) {
				const int32_t v = u + (f->moves.delta[i] & -(int32_t)(moves >> i & 1u));
				const uint32_t st = an[v].tag >> A_DIR_BITS;
				const double e = compact ? (i >= 4 ? ed : eo) : f->queue.edge_cost[2u * gc[v] + (i >= 4 ? 1u : 0u)];
				const double gv = gu + e + (double)extra[v];
				gvs[i] = gv;
				work |= (unsigned)((st != closed) & ((st != open) | (gv < an[v].g))) << i;
			}
			moves = work;
		}
		while (moves) {
			const int i = __builtin_ctz(moves);
			moves &= moves - 1;
			const int32_t v = square ? u + f->moves.delta[i] : (uy + oy[i]) * w + ux + ox[i];
			const uint32_t st = an[v].tag >> A_DIR_BITS;
			double gv;
			struct a_node *nv = &an[v];
			if (plain) {
				gv = gvs[i];
			} else {
				if (st == closed)
					continue;
				const unsigned m = gc[v] ? gc[v] : 1u;
				gv = gu + f->queue.edge_cost[2u * m + ((square || diamond) && i >= 4 ? 1u : 0u)] +
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
				double cv;
				if ((uint32_t)(v - rlo) <= rspan && crowd_in_r(f, v, in_r, &cv) && cv < hv)
					hv = cv;
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
	const int w = f->grid->w, goal = f->run.source;
	const uint32_t agen = f->route->gen, open = agen << 1, closed = open | 1u;
	struct a_node *an = f->route->node;
	const uint64_t eo = p->mult << CBITS, ed = p->mult * f->dist.sqrt2;
	int32_t step[8];
	memcpy(step, f->moves.delta, sizeof step);
	long exp = 0;
	int res = FIXED_NO_ROUTE;
	uint64_t last_f = 0; /* the f popped before */
	for (;;) {
		const int32_t u = route_take(f, p, extra, an, closed, w, true, true, true, true);
		if (u < 0) {
			if (u == -2)
				res = FIXED_GAVE_UP;
			break;
		}
		/* The potential is exactly consistent in compact units: no f
		 * popped is below the one before. */
		CHECK(f->route->tie_f >= last_f);
		last_f = f->route->tie_f;
		exp++;
		if (u == goal) {
			res = FIXED_FOUND;
			break;
		}
		const uint64_t gu = an[u].gc;
		const unsigned moves = f->moves.bits[u];
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
	(void)last_f;
	*exp_out = exp;
	return res;
}

/* Empties the queue and the ring and starts a search from `start`, whose
 * key is k0 in bucket q0. */
static void route_start(struct flood_ctx *f, int32_t start, akey k0, uint64_t q0)
{
	if (++f->route->gen > A_GEN_LIMIT) {
		for (int c = 0; c < f->n; c++)
			f->route->node[c].tag = 0;
		f->route->gen = 1;
	}
	pq_clear(&f->route->queue);
	f->route->starved = false;
	f->route->tie_f = UINT64_MAX;
	f->route->node[start] = (struct a_node){ .gc = 0, .pos = 0, .tag = f->route->gen << 1 << A_DIR_BITS | A_NO_DIR };
	f->route->queue.key[f->route->queue.heap_len++] = k0;
	/* the ring starts empty, its current bucket that of the start */
	pq_ring_reset(&f->route->ring, q0, true);
}

int flood_route(struct flood_ctx *f, int start, const uint16_t *extra, int *out, int cap,
		double *cost, long *expanded)
{
	if (expanded)
		*expanded = 0;
	if (!f || !f->run.reverse || !flood_settled(f, start) || !route_ready(f))
		return -1;
	const struct grid *g = f->grid;
	const int goal = f->run.source;
	const double lo = unsettled_bound(f);
	const bool plain = grid_is_square(g->topo) && f->run.whole && f->run.finished && g->cost[goal] && extra;
	long exp = 0;
	bool found = false, codes = false;
	if (plain && f->dist.in_code) {
		if (!crowd_valid(f, extra, lo, true))
			crowd_make(f, extra, lo, true);
		const struct rpot p = { .lo = lo,
					.in_r = f->crowd.gen << 1 | 1u,
					.codes = true,
					.cdelta = f->crowd.delta == HUGE_VAL ? UINT64_MAX : (uint64_t)f->crowd.delta,
					.mult = f->moves.uniform };
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
		const uint32_t in_r = f->crowd.gen << 1 | 1u;
		const double delta = f->crowd.delta;
		double h0 = dist_of(f, start) + delta;
		double cs;
		if (crowd_in_r(f, start, in_r, &cs) && cs < h0)
			h0 = cs;
		route_start(f, start, a_key(h0, 0.0, start), r_bucket(h0));
		long more = 0;
		if (plain)
			found = f->dist.in_code ? route_plain_compact(f, extra, lo, delta, in_r, &more)
					   : route_plain_doubles(f, extra, lo, delta, in_r, &more);
		else
			found = route_general(f, extra, lo, delta, in_r, &more);
		exp += more;
	}
	if (expanded)
		*expanded = exp;
	if (!found || f->route->starved)
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
			const uint64_t gc = f->route->node[goal].gc;
			const uint64_t b = ((uint32_t)gc & CMASK) * (uint64_t)f->dist.sqrt2_inverse & CMASK;
			*cost = (double)((gc - b * f->dist.sqrt2) >> CBITS) + (double)b * GRID_SQRT2;
		} else {
			*cost = f->route->node[goal].g;
		}
	}
	return len;
}

/* legal_neighbours with the direction of each step (its index in the
 * grid's direction tables, which a_parent reads back) instead of its length. */
static int detour_neighbours(const struct flood_ctx *f, int32_t v, int32_t out[GRID_MAX_NEIGHBOURS],
			     uint8_t dir[GRID_MAX_NEIGHBOURS])
{
	const struct grid *g = f->grid;
	int k = 0;
	if (grid_is_square(g->topo)) {
		unsigned m = f->moves.bits[v];
		while (m) {
			const int i = __builtin_ctz(m);
			m &= m - 1;
			out[k] = v + f->moves.delta[i];
			dir[k++] = (uint8_t)i;
		}
		return k;
	}
	const int w = g->w, vy = v / w, vx = v - vy * w;
	const bool diamond = grid_is_diamond(g->topo);
	const int8_t *dx = diamond ? GRID_DIAMOND_DX[vy & 1] : GRID_HEX_DX[vy & 1];
	const int8_t *dy = diamond ? GRID_DIAMOND_DY : GRID_HEX_DY;
	for (int i = 0; i < grid_dir_count(g->topo); i++) {
		const int nx = vx + dx[i], ny = vy + dy[i];
		if ((unsigned)nx >= (unsigned)w || (unsigned)ny >= (unsigned)g->h || !g->cost[ny * w + nx])
			continue;
		if (diamond && i >= 4 && !f->run.corner_cutting && !grid_diamond_flanks_open(g->cost, w, g->h, vx, vy, i))
			continue;
		out[k] = ny * w + nx;
		dir[k++] = (uint8_t)i;
	}
	return k;
}

/*
 * flood_detour: flood_route's search cut at a horizon (see flood.h).  The
 * cells within `horizon` steps of the start (grid_step_distance) are
 * searched as flood_route searches the map, with the same potential P; a
 * cell at the horizon, or the goal, is not expanded but ends the search
 * when it comes off the queue, so the route ends at the one that
 * minimises its cost plus P, the least the rest can cost.  The crowd
 * potential matters: with the flood distance alone a horizon next to the
 * ring of monsters round the goal looks as good as one past it, and
 * monsters there went back and forth (oscillations 6 -> 108 a game with
 * 1,000 chasers on random512).  The search is in doubles and the ring is
 * off (a few hundred cells: the heap alone); ties as flood_route's loop
 * in doubles.
 */
int flood_detour(struct flood_ctx *f, int start, const uint16_t *extra, int horizon, int *out, int cap,
		 double *cost, double *bound, long *expanded)
{
	if (expanded)
		*expanded = 0;
	if (!f || !f->run.reverse || !flood_settled(f, start) || horizon < 1 || !route_ready(f))
		return -1;
	const struct grid *g = f->grid;
	const int goal = f->run.source;
	if (!g->cost[goal])
		return -1; /* a blocked source: flood_route's general loop enters it */
	const double lo = unsettled_bound(f);
	if (!crowd_valid(f, extra, lo, false))
		crowd_make(f, extra, lo, false);
	const uint32_t in_r = f->crowd.gen << 1 | 1u;
	const double delta = f->crowd.delta;
	const double h0 = route_h(f, start, lo, delta, in_r);
	if (h0 < 0)
		return -1;
	route_start(f, start, a_key(h0, 0.0, start), r_bucket(h0));
	f->route->ring.on = false;
	const struct rpot pot = { .lo = lo, .delta = delta, .in_r = in_r };
	const uint32_t open = f->route->gen << 1, closed = open | 1u;
	struct a_node *an = f->route->node;
	const bool square8 = g->topo == GRID_SQUARE8;
	const int w = g->w, sy = start / w, sx = start - sy * w;
	long exp = 0;
	int32_t end = -1;
	double end_f = 0.0;
	int32_t nb[GRID_MAX_NEIGHBOURS];
	uint8_t dir[GRID_MAX_NEIGHBOURS];
	while (!pq_empty(&f->route->queue)) {
		const akey k = pq_pop(&f->route->queue, an);
		f->route->tie_f = pq_f(k);
		const int32_t u = pq_cell(k);
		an[u].tag = closed << A_DIR_BITS | (an[u].tag & A_NO_DIR);
		exp++;
		int steps;
		if (square8) {
			const int uy = u / w, ux = u - uy * w;
			const int ax = ux > sx ? ux - sx : sx - ux, ay = uy > sy ? uy - sy : sy - uy;
			steps = ax > ay ? ax : ay;
		} else {
			steps = grid_step_distance(g, start, u);
		}
		if (u == goal || steps >= horizon) {
			end = u;
			memcpy(&end_f, &(uint64_t){ pq_f(k) }, sizeof end_f);
			break;
		}
		const double gu = an[u].g;
		const int nk = detour_neighbours(f, u, nb, dir);
		for (int i = 0; i < nk; i++) {
			const int32_t v = nb[i];
			const uint32_t st = an[v].tag >> A_DIR_BITS;
			if (st == closed)
				continue;
			const double gv = gu + f->queue.edge_cost[2u * g->cost[v] + (dir[i] >= 4 && g->topo != GRID_HEX ? 1u : 0u)] +
					  (extra ? (double)extra[v] : 0.0);
			if (st == open && !(gv < an[v].g))
				continue;
			const double hv = route_h(f, v, lo, delta, in_r);
			if (hv < 0)
				continue;
			an[v].g = gv;
			an[v].tag = open << A_DIR_BITS | dir[i];
			const double fv = gv + hv;
			r_push(f, v, r_bucket(fv), a_key(fv, gv, v), st == open ? an[v].pos : INT32_MIN, &pot);
		}
	}
	if (expanded)
		*expanded = exp;
	if (end < 0 || f->route->starved)
		return -1;
	int len = 0;
	for (int32_t c = end; c >= 0; c = a_parent(f, c))
		len++;
	int i = len;
	for (int32_t c = end; c >= 0; c = a_parent(f, c))
		if (--i < cap)
			out[i] = c;
	if (cost)
		*cost = an[end].g;
	if (bound)
		*bound = end_f;
	return len;
}
