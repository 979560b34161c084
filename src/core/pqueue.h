/* pqueue.h - the open list of the A* searches: a 4-ary heap, a tie stack, a bucket ring. */
#ifndef ASTRAY_PQUEUE_H
#define ASTRAY_PQUEUE_H

/*
 * Written once, used by path.c (path_find) and route.c (flood_route), each
 * of which includes this header once, after defining:
 *   PQ_RECORD       its per-cell record type, with an int32_t member `pos`
 *                   (the cell's slot in the heap while it is there; the
 *                   other values are the user's codes, see below);
 *   PQ_RING_SLOTS   buckets in its ring, a multiple of 64;
 *   PQ_RING_CHUNK   ints per list chunk: a link, then PQ_RING_CHUNK - 1 cells.
 * Everything is static inline, so that the search loops inline the queue
 * as if it were written in them (each loop is specialised by constants
 * its callers pass, and so is the queue code inlined in it).
 *
 * A key is one 128-bit unsigned integer: f in the high 64 bits, then the
 * user's tie-breaker, then the cell in the low 32.  Keys are unique (a cell
 * is queued once), so the order in which cells come out is the order of
 * their keys, whatever the queue's history: the heap, the tie stack and
 * the ring below change the cost of a pop, never its result.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(PQ_RECORD) || !defined(PQ_RING_SLOTS) || !defined(PQ_RING_CHUNK)
#error "define PQ_RECORD, PQ_RING_SLOTS and PQ_RING_CHUNK before including pqueue.h"
#endif

__extension__ typedef unsigned __int128 pq_key;

#define PQ_HEAP_D 4 /* children per heap node */

static inline int pq_cell(pq_key k) { return (int)(uint32_t)k; }
static inline uint64_t pq_f(pq_key k) { return (uint64_t)(k >> 64); }

/*
 * The heap and the tie stack share one array of cap keys: the heap from
 * the front, key[0 .. heap_len), the stack from the end, key[cap -
 * stack_len .. cap), its top at key[cap - stack_len].  The lengths are
 * long, not int: the loops store int32_t records all the time, and by
 * C's aliasing rules such a store may change an int, so the compiler
 * would load an int length again after each; a long it keeps in a register.
 */
struct pq {
	pq_key *key;    /* cap keys */
	long cap;
	long heap_len;
	long stack_len;
};

static inline void pq_clear(struct pq *q)
{
	q->heap_len = 0;
	q->stack_len = 0;
}

static inline bool pq_empty(const struct pq *q) { return q->heap_len == 0 && q->stack_len == 0; }

/* Gives the queue room for `cap` keys (at least its present size): the
 * heap keeps the front of the array and the tie stack moves to the new
 * end, so records that find heap keys by index and stacked ones by a
 * code stay right.  False, the queue as it was, when there is no memory. */
static inline bool pq_resize(struct pq *q, long cap)
{
	pq_key *key = realloc(q->key, (size_t)cap * sizeof *key);
	if (!key)
		return false;
	memmove(key + cap - q->stack_len, key + q->cap - q->stack_len, (size_t)q->stack_len * sizeof *key);
	q->key = key;
	q->cap = cap;
	return true;
}

/* Puts e at heap slot i, or above it while it beats its parent. */
static inline void pq_sift_up(struct pq *q, PQ_RECORD *rec, int i, pq_key e)
{
	pq_key *heap = q->key;
	while (i > 0) {
		int p = (i - 1) / PQ_HEAP_D;
		if (!(e < heap[p]))
			break;
		heap[i] = heap[p];
		rec[pq_cell(heap[i])].pos = i;
		i = p;
	}
	heap[i] = e;
	rec[pq_cell(e)].pos = i;
}

/* Puts e at heap slot i, or below it while a child beats it; the least of
 * four children is found without branches when all four exist. */
static inline void pq_sift_down(struct pq *q, PQ_RECORD *rec, int i, pq_key e)
{
	pq_key *heap = q->key;
	const int len = (int)q->heap_len;
	for (;;) {
		int c = PQ_HEAP_D * i + 1;
		if (c >= len)
			break;
		int m;
		pq_key km;
		if (c + 3 < len) {
			const pq_key k0 = heap[c], k1 = heap[c + 1], k2 = heap[c + 2], k3 = heap[c + 3];
			const bool b01 = k1 < k0, b23 = k3 < k2;
			const int a = c + b01, b = c + 2 + b23;
			const pq_key ka = b01 ? k1 : k0, kb = b23 ? k3 : k2;
			const bool bab = kb < ka;
			m = bab ? b : a;
			km = bab ? kb : ka;
		} else {
			m = c;
			km = heap[c];
			for (int k = c + 1; k < len; k++)
				if (heap[k] < km) {
					m = k;
					km = heap[k];
				}
		}
		if (!(km < e))
			break;
		heap[i] = km;
		rec[pq_cell(km)].pos = i;
		i = m;
	}
	heap[i] = e;
	rec[pq_cell(e)].pos = i;
}

/* Makes key[0 .. heap_len) a heap (Floyd). */
static inline void pq_heapify(struct pq *q, PQ_RECORD *rec)
{
	const long m = q->heap_len;
	for (int i = m > 1 ? (int)((m - 2) / PQ_HEAP_D) : -1; i >= 0; i--)
		pq_sift_down(q, rec, i, q->key[i]);
}

static inline pq_key *pq_stack_top(const struct pq *q) { return &q->key[q->cap - q->stack_len]; }

/*
 * The tie stack: a key whose f equals tie_f (the f just popped) and which
 * beats the stack's top goes on the stack instead of the heap, its cell's
 * pos set to `stacked` (the user's code).  The stack stays sorted (each
 * entry beats the ones below it), so the queue's least key is the better
 * of the stack's top and the heap's: the order is exactly the heap's, and
 * the successors along a route whose f holds cost O(1) to push and pop.
 * With a consistent heuristic no stacked key can improve, so the stack
 * needs no decrease-key.  A tie_f no key has (UINT64_MAX) keeps the stack
 * out of use.
 */
static inline void pq_push(struct pq *q, PQ_RECORD *rec, pq_key k, uint64_t tie_f, int32_t stacked)
{
	if (pq_f(k) == tie_f && (q->stack_len == 0 || k < *pq_stack_top(q))) {
		q->stack_len++;
		*pq_stack_top(q) = k;
		rec[pq_cell(k)].pos = stacked;
		return;
	}
	pq_sift_up(q, rec, (int)q->heap_len++, k);
}

/* Whether the least key is the stack's top (one of the two is non-empty). */
static inline bool pq_stack_first(const struct pq *q)
{
	return q->stack_len > 0 && (q->heap_len == 0 || *pq_stack_top(q) < q->key[0]);
}

/* The least key of the stack and the heap, left in place (one must be non-empty). */
static inline pq_key pq_peek(const struct pq *q)
{
	return pq_stack_first(q) ? *pq_stack_top(q) : q->key[0];
}

/* Removes and returns the least key of the stack and the heap (one must be
 * non-empty).  The cell's pos is left to the caller. */
static inline pq_key pq_pop(struct pq *q, PQ_RECORD *rec)
{
	pq_key top;
	if (pq_stack_first(q)) {
		top = *pq_stack_top(q);
		q->stack_len--;
	} else {
		top = q->key[0];
		q->heap_len--;
		if (q->heap_len > 0)
			pq_sift_down(q, rec, 0, q->key[q->heap_len]);
	}
	return top;
}

/*
 * The bucket ring.  With a consistent heuristic no key pushed has an f
 * below the f just popped, nor above it by more than the dearest step, so
 * the open cells can be sorted into buckets of f (the user chooses the
 * width): only the lowest bucket, the current one, is ordered (the heap
 * and the stack above); the others are unsorted lists of cells in a ring
 * of PQ_RING_SLOTS slots, drained into the heap when their turn comes.
 * Every key in the current bucket is below every key elsewhere, so the
 * order is exactly the heap's, from a heap a small fraction of the size.
 *
 * The lists hold cells in chunks from `pool` (a chunk's int 0 links the
 * list's previous chunk).  A listed cell's pos is PQ_RING_POS(slot); a cell
 * that improves into another bucket is listed again and its pos changes,
 * so its old entry is known to be stale and skipped.  Or, by entry (the
 * constant `by_entry` of pq_ring_add and pq_ring_drain): a listed cell's
 * pos is PQ_RING_ENTRY(its entry's index), and the user overwrites the old
 * entry of a cell listed again with -1, so the drain reads no record.  A
 * key beyond the ring, or a pool run dry, is the user's to handle (it gives
 * the ring up).
 */
#define PQ_RING_POS(slot) (-2 - (slot))
#define PQ_RING_ENTRY(e) (-2 - (e)) /* its own inverse: the entry of such a pos */

struct pq_ring {
	int32_t *pool;                      /* pool_chunks chunks of PQ_RING_CHUNK ints */
	int pool_chunks;
	int head[PQ_RING_SLOTS];            /* newest chunk of each slot's list, -1: empty */
	uint64_t used[PQ_RING_SLOTS / 64];  /* bit r: head[r] >= 0 */
	int fill[PQ_RING_SLOTS];            /* cells in that chunk */
	int last[PQ_RING_SLOTS];            /* the cell listed last in each slot (for prefetching) */
	int free_chunk;                     /* chunks given back, linked through int 0 */
	int next_chunk;                     /* chunks never used start here */
	uint64_t bucket;                    /* the current bucket */
	bool on;                            /* false: given up, the heap holds every open cell */
};

/* An empty ring whose current bucket is `bucket`. */
static inline void pq_ring_reset(struct pq_ring *rg, uint64_t bucket, bool on)
{
	rg->on = on;
	rg->bucket = bucket;
	rg->free_chunk = -1;
	rg->next_chunk = 0;
	for (int r = 0; r < PQ_RING_SLOTS; r++)
		rg->head[r] = -1;
	for (int i = 0; i < PQ_RING_SLOTS / 64; i++)
		rg->used[i] = 0;
}

/*
 * The next used slot after the current bucket's, as a distance in [1,
 * PQ_RING_SLOTS); PQ_RING_SLOTS when every slot is empty.  By the bit map,
 * a word at a time: on a maze the used slots lie dozens apart and half the
 * expansions end a bucket.  The last word looked at is the current slot's
 * own, its bits below it (the current bucket's cells are never listed).
 */
static inline int pq_ring_next(const struct pq_ring *rg)
{
	const uint64_t q = rg->bucket;
	const int b = (int)((q + 1) % PQ_RING_SLOTS);
	int i = b / 64;
	uint64_t bits = rg->used[i] & (UINT64_MAX << (b % 64));
	for (int k = 0; k < PQ_RING_SLOTS / 64; k++) {
		if (bits) {
			const int r = i * 64 + __builtin_ctzll(bits);
			return (int)(((unsigned)r - (unsigned)(q % PQ_RING_SLOTS)) % PQ_RING_SLOTS);
		}
		i = (i + 1) % (PQ_RING_SLOTS / 64);
		bits = rg->used[i];
	}
	bits = rg->used[i] & ~(UINT64_MAX << (b % 64));
	if (bits) {
		const int r = i * 64 + __builtin_ctzll(bits);
		return (int)(((unsigned)r - (unsigned)(q % PQ_RING_SLOTS)) % PQ_RING_SLOTS);
	}
	return PQ_RING_SLOTS;
}

/* Lists `cell` in slot r, its pos PQ_RING_POS(r), or by entry (the
 * constant `by_entry`) PQ_RING_ENTRY of its entry's index in the pool (the
 * user keeps that apart from its other pos values); false when the pool
 * has no chunk left. */
static inline __attribute__((always_inline)) bool pq_ring_add(struct pq_ring *rg, PQ_RECORD *rec, int r, int cell,
							       const bool by_entry)
{
	int32_t *pool = rg->pool;
	int c = rg->head[r];
	if (c < 0 || rg->fill[r] == PQ_RING_CHUNK - 1) {
		int nc = rg->free_chunk;
		if (nc >= 0)
			rg->free_chunk = pool[(size_t)nc * PQ_RING_CHUNK];
		else if (rg->next_chunk < rg->pool_chunks)
			nc = rg->next_chunk++;
		else
			return false;
		pool[(size_t)nc * PQ_RING_CHUNK] = c;
		rg->head[r] = nc;
		rg->fill[r] = 0;
		rg->used[r / 64] |= UINT64_C(1) << (r % 64);
		c = nc;
	}
	const int e = c * PQ_RING_CHUNK + 1 + rg->fill[r]++;
	pool[e] = cell;
	rg->last[r] = cell;
	rec[cell].pos = by_entry ? PQ_RING_ENTRY(e) : PQ_RING_POS(r);
	return true;
}

/*
 * Empties slot r: its live cells are appended to the heap's array, not in
 * heap order (the caller sorts or heapifies), each with the key
 * key_of(env, cell); the chunks are given back.  Newest first or oldest
 * first within a chunk, as the constant `newest_first` says (the chunks go
 * newest first).  Which entries are live, as the constant `by_entry` says:
 * false, a cell whose pos is still its slot's code (a cell listed again
 * elsewhere has another), and its pos is set to its place in the array;
 * true, every entry but the -1 of a cell listed again (path.c's plain
 * ring, whose pos names the entry), each entry taken overwritten with -1
 * and no record read or written.  key_of is a constant too, so it is
 * inlined here.
 */
static inline __attribute__((always_inline)) void
pq_ring_drain(struct pq_ring *rg, struct pq *q, PQ_RECORD *rec, int r, const bool newest_first,
	      const bool by_entry, pq_key (*key_of)(const void *env, int cell), const void *env)
{
	int32_t *pool = rg->pool;
	const int32_t code = PQ_RING_POS(r);
	int m = (int)q->heap_len;
	for (int c = rg->head[r], k = rg->fill[r]; c >= 0; k = PQ_RING_CHUNK - 1) {
		int32_t *e = pool + (size_t)c * PQ_RING_CHUNK;
		for (int j = 0; j < k; j++) {
			const int at = newest_first ? k - j : 1 + j;
			const int cell = e[at];
			if (by_entry ? cell >= 0 : rec[cell].pos == code) {
				q->key[m] = key_of(env, cell);
				if (by_entry)
					e[at] = -1;
				else
					rec[cell].pos = m;
				m++;
			}
		}
		const int next = e[0];
		pool[(size_t)c * PQ_RING_CHUNK] = rg->free_chunk;
		rg->free_chunk = c;
		c = next;
	}
	rg->head[r] = -1;
	rg->used[r / 64] &= ~(UINT64_C(1) << (r % 64));
	q->heap_len = m;
}

#endif
