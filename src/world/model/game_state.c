/*
 * game_state.c - the play state as one table of fields, from which its
 * hash, its bytes (a snapshot) and their loading are all made.
 *
 * state_walk lists every field of the state once, in a fixed order, with
 * the range a loaded value must lie in; it runs in one of three modes:
 * SAVE appends each field to a byte buffer, LOAD reads it back (every
 * value range-checked, so damaged bytes never crash), HASH folds it into a
 * 64-bit checksum.  A new field is one line in state_walk (a monster's, one
 * line in MONSTER_FIELDS) and so can be left out of none of the three.  Per-cell maps (tiles, doors, memory,
 * the scent stamps, items) are listed with state_map, which
 * HASH takes by blocks in words and SAVE as the blocks changed since the
 * level began.
 *
 * The encoding: fixed-width little-endian integers, so equal states give
 * equal bytes and equal hashes on every machine.  What is a pure cache is
 * left out and rebuilt: the search contexts, the player's distance map
 * (reach), the region map, the occupant map (made from the monsters'
 * places: occupants_load) and the crowd costs (the crowd knob on those
 * places: crowd_load).  The AI's shared flood is not a pure cache (a
 * monster uses a flood that is current even when it would not start one,
 * and a flood settled in steps is only as far along as its callers took
 * it), so its goal and its settled cells are kept and the flood is settled
 * again to exactly that point on load: a flood settles cells in one fixed
 * order, so settling until those cells are settled gives the same flood.
 * A flood moved by flood_shift (levels of more than AI_SHARE_MIN *
 * AI_SHARE_CELLS passable cells) has distances summed along other routes
 * than a fresh one and cannot be rebuilt bit for bit: such a state is not
 * saved (GAME_STATE_UNSAVABLE).  The hash takes the flood's goal and its
 * settled count, not the list.
 */
#include "game_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE_MAGIC 0x32617473u /* "sta2": the state of rules version 2 and later */

enum state_mode { STATE_SAVE, STATE_LOAD, STATE_HASH };

struct state_io {
	enum state_mode mode;
	uint8_t *out;             /* SAVE: the bytes so far (malloc'ed) */
	size_t n, cap;            /* SAVE: bytes written, allocated; LOAD: input size */
	bool oom;                 /* SAVE: an allocation failed */
	const uint8_t *in;        /* LOAD: the bytes */
	size_t at;                /* LOAD: next byte to read */
	bool bad;                 /* LOAD: ran past the end or met a value out of range */
	uint64_t h;               /* HASH: the checksum so far */
	bool copy;                /* HASH of a captured copy: its maps' sums were made current at the capture,
				   * and it holds only the touched blocks' cells (not checked against them) */
	size_t depth_at;          /* LOAD: where the depth is read (for the message when it is bad) */
};

/* ---- the primitives: one field, in whichever mode ---------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/*
 * HASH of a per-cell map of n elements of `size` bytes (1, 2 or 4): their
 * values packed little-endian into 64-bit words, whatever the machine's
 * byte order, the words mixed into four lanes (so the multiplications do
 * not wait on each other), the lanes then into the hash.
 */
static uint64_t words_hash(uint64_t seed, const void *cells, size_t n, int size)
{
	uint64_t lane[4] = { seed, seed ^ 1, seed ^ 2, seed ^ 3 };
	const size_t per = (size_t)(8 / size); /* elements a word */
	const uint8_t *b8 = cells;
	const uint16_t *b16 = cells;
	const uint32_t *b32 = cells;
	size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* The words are the bytes as they lie in memory.  The lanes are four
	 * scalars here: kept as the array, gcc -O2 ran this loop at a fifth
	 * of the speed (64 MB in 20 ms against 4), the same hash. */
	uint64_t l0 = lane[0], l1 = lane[1], l2 = lane[2], l3 = lane[3];
	for (const uint8_t *p = b8; i + 4 * per <= n; i += 4 * per, p += 32) {
		uint64_t w0, w1, w2, w3;
		memcpy(&w0, p, 8);
		memcpy(&w1, p + 8, 8);
		memcpy(&w2, p + 16, 8);
		memcpy(&w3, p + 24, 8);
		l0 = mix(l0, w0);
		l1 = mix(l1, w1);
		l2 = mix(l2, w2);
		l3 = mix(l3, w3);
	}
	lane[0] = l0;
	lane[1] = l1;
	lane[2] = l2;
	lane[3] = l3;
#endif
	for (; i + 4 * per <= n; i += 4 * per)
		for (size_t l = 0; l < 4; l++) {
			size_t at = i + l * per;
			uint64_t w;
			if (size == 1) {
				w = 0;
				for (size_t k = 0; k < 8; k++)
					w |= (uint64_t)b8[at + k] << (8 * k);
			} else if (size == 2) {
				w = (uint64_t)b16[at] | (uint64_t)b16[at + 1] << 16 | (uint64_t)b16[at + 2] << 32 |
				    (uint64_t)b16[at + 3] << 48;
			} else {
				w = (uint64_t)b32[at] | (uint64_t)b32[at + 1] << 32;
			}
			lane[l] = mix(lane[l], w);
		}
	/* the rest, packed into words as above */
	for (int l = 0; i < n; l = (l + 1) & 3) {
		uint64_t w = 0;
		for (size_t k = 0; k < per && i < n; k++, i++)
			w |= (uint64_t)(size == 1 ? b8[i] : size == 2 ? b16[i] : b32[i]) << (8 * (size_t)size * k);
		lane[l] = mix(lane[l], w);
	}
	uint64_t h = mix(seed, n);
	for (int l = 0; l < 4; l++)
		h = mix(h, lane[l]);
	return h;
}

static void hash_words(struct state_io *io, const void *cells, size_t n, int size)
{
	io->h = words_hash(io->h, cells, n, size);
}

/* Room for n more bytes: false (and oom) when the memory is not there. */
static __attribute__((noinline)) bool out_grow(struct state_io *io, size_t n)
{
	if (io->oom)
		return false;
	size_t cap = io->cap ? io->cap : 65536;
	while (cap < io->n + n)
		cap *= 2;
	uint8_t *q = realloc(io->out, cap);
	if (!q) {
		io->oom = true;
		return false;
	}
	io->out = q;
	io->cap = cap;
	return true;
}

/* Appends n bytes (nothing once out of memory: cap stops growing). */
static inline void out_bytes(struct state_io *io, const void *p, size_t n)
{
	if (io->n + n > io->cap && !out_grow(io, n))
		return;
	memcpy(io->out + io->n, p, n);
	io->n += n;
}

static uint64_t in_u64(struct state_io *io)
{
	if (io->bad || io->n - io->at < 8) {
		io->bad = true;
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)io->in[io->at + (size_t)i] << (8 * i);
	io->at += 8;
	return v;
}

/* A 64-bit word as it is (seeds, the generator's state, magic numbers). */
static void state_u64(struct state_io *io, uint64_t *v)
{
	switch (io->mode) {
	case STATE_SAVE: {
		uint8_t b[8];
		for (int i = 0; i < 8; i++)
			b[i] = (uint8_t)(*v >> (8 * i));
		out_bytes(io, b, 8);
		break;
	}
	case STATE_LOAD:
		*v = in_u64(io);
		break;
	case STATE_HASH:
		io->h = mix(io->h, *v);
		break;
	}
}

/* SAVE's encoding of an integer at b: zigzag (a small value of either
 * sign is small), then seven bits a byte, low first, the top bit set on
 * every byte but the last.  Returns the byte after it (at most 10). */
static inline uint8_t *put_zigzag(uint8_t *b, long long v)
{
	uint64_t u = (uint64_t)v;
	uint64_t z = u << 1 ^ (uint64_t)-(int64_t)(u >> 63);
	while (z >= 0x80) {
		*b++ = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	*b++ = (uint8_t)z;
	return b;
}

/* An integer that must lie in [lo, hi] when loaded (out of range marks
 * the input bad and gives lo).  Every integer field goes through it, by
 * way of STATE_INT, whatever its C type. */
static void state_ll(struct state_io *io, long long *v, long long lo, long long hi)
{
	/* SAVE and LOAD: zigzag, then seven bits a byte, low first (a small
	 * value of either sign takes one byte: the monsters' fields were 8
	 * bytes each); HASH: the 64-bit value, as ever */
	uint64_t u = (uint64_t)*v;
	if (io->mode == STATE_HASH) {
		state_u64(io, &u);
		return;
	}
	if (io->mode == STATE_SAVE) {
		/* straight into the buffer (a snapshot writes millions of these) */
		if (io->cap - io->n < 10 && !out_grow(io, 10))
			return;
		io->n = (size_t)(put_zigzag(io->out + io->n, *v) - io->out);
		return;
	}
	uint64_t z = 0;
	for (int shift = 0;; shift += 7) {
		if (io->bad || io->at >= io->n || shift > 63) {
			io->bad = true;
			break;
		}
		uint8_t c = io->in[io->at++];
		z |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			break;
	}
	u = z >> 1 ^ (uint64_t)-(int64_t)(z & 1);
	long long x = (long long)u;
	if (io->bad || x < lo || x > hi) {
		io->bad = true;
		x = lo;
	}
	*v = x;
}

/*
 * LOAD of one integer, as state_ll reads it, inline: the monsters' fields
 * and routes are most of a large level's state (67,000 monsters: two
 * million fields, each a call and a switch on the mode in state_ll).
 * A value of at most ten bytes that lies in [lo, hi] is read here; any
 * other (the end of the input near, a malformed or out of range value)
 * is left to state_ll from the same byte, so a damaged state fails as
 * it did, at the same byte.
 */
static inline long long load_ll(struct state_io *io, long long lo, long long hi)
{
	if (!io->bad && io->n - io->at >= 10) {
		const uint8_t *p = io->in + io->at;
		uint64_t z = 0;
		unsigned k = 0;
		for (; k < 10; k++) {
			z |= (uint64_t)(p[k] & 0x7f) << (7 * k);
			if (!(p[k] & 0x80))
				break;
		}
		if (k < 10) {
			const long long x = (long long)(z >> 1 ^ (uint64_t)-(int64_t)(z & 1));
			if (x >= lo && x <= hi) {
				io->at += k + 1;
				return x;
			}
		}
	}
	long long v = 0;
	state_ll(io, &v, lo, hi);
	return v;
}

/* Any integer lvalue (int, long, unsigned, bool, an enum, uint8_t...):
 * SAVE and HASH take its value, LOAD assigns the checked value back. */
/* HASH is state_ll's mix of the value, done here: a checksum of a large
 * level hashes two million of them, and the two calls a field took were
 * a third of its monsters' part. */
#define STATE_INT(io, lvalue, lo, hi)                                                                        \
	do {                                                                                                 \
		long long state_v_ = (long long)(lvalue);                                                    \
		if ((io)->mode == STATE_HASH) {                                                              \
			(io)->h = mix((io)->h, (uint64_t)state_v_);                                          \
			break;                                                                               \
		}                                                                                            \
		state_ll((io), &state_v_, (lo), (hi));                                                       \
		if ((io)->mode == STATE_LOAD)                                                                \
			(lvalue) = state_v_;                                                                 \
	} while (0)

/*
 * SAVE of n values at once, as n STATE_INTs would write them (the same
 * bytes): one test of the room for them, then put_zigzag each.  Of long
 * longs (a monster's fields) or of ints (a list of cells).
 */
static void save_lls(struct state_io *io, const long long *v, size_t n)
{
	if (io->cap - io->n < 10 * n && !out_grow(io, 10 * n))
		return;
	uint8_t *b = io->out + io->n;
	for (size_t k = 0; k < n; k++)
		b = put_zigzag(b, v[k]);
	io->n = (size_t)(b - io->out);
}

static void save_ints(struct state_io *io, const int *v, size_t n)
{
	if (io->cap - io->n < 10 * n && !out_grow(io, 10 * n))
		return;
	uint8_t *b = io->out + io->n;
	for (size_t k = 0; k < n; k++)
		b = put_zigzag(b, v[k]);
	io->n = (size_t)(b - io->out);
}

/* A value that must equal `want` (a size or a count the game already has):
 * LOAD marks the input bad when it differs. */
static void state_expect(struct state_io *io, long long want)
{
	long long v = want;
	state_ll(io, &v, want, want);
}

/* A per-cell byte map of n cells, whole; LOAD checks each byte < limit
 * (256: any). */
static void state_cells_u8(struct state_io *io, uint8_t *cells, size_t n, unsigned limit)
{
	switch (io->mode) {
	case STATE_SAVE:
		out_bytes(io, cells, n);
		break;
	case STATE_LOAD:
		if (io->bad || io->n - io->at < n) {
			io->bad = true;
			return;
		}
		memcpy(cells, io->in + io->at, n);
		io->at += n;
		for (size_t i = 0; i < n && limit < 256; i++)
			if (cells[i] >= limit) {
				io->bad = true;
				return;
			}
		break;
	case STATE_HASH:
		hash_words(io, cells, n, 1);
		break;
	}
}

/* A per-cell int map of n cells, each in [lo, hi]. */
static void state_cells_int(struct state_io *io, int *cells, size_t n, int lo, int hi)
{
	if (io->mode == STATE_HASH) {
		hash_words(io, cells, n, 4);
		return;
	}
	if (io->mode == STATE_SAVE) {
		save_ints(io, cells, n);
		return;
	}
	for (size_t i = 0; i < n && !io->bad; i++)
		cells[i] = (int)load_ll(io, lo, hi);
}

/* A string field of `size` bytes: its text, then zeros (what follows the
 * NUL in the struct is whatever was there before, not state).  LOAD ends
 * it with a NUL whatever the bytes say. */
static void state_text(struct state_io *io, char *text, size_t size)
{
	switch (io->mode) {
	case STATE_SAVE: {
		char buf[GAME_MESSAGE_LEN > 64 ? GAME_MESSAGE_LEN : 64] = { 0 };
		size_t n = strnlen(text, size);
		if (size > sizeof buf)
			size = sizeof buf;
		if (n >= size)
			n = size - 1;
		memcpy(buf, text, n);
		out_bytes(io, buf, size);
		break;
	}
	case STATE_LOAD:
		if (io->bad || io->n - io->at < size) {
			io->bad = true;
			return;
		}
		memcpy(text, io->in + io->at, size);
		io->at += size;
		text[size - 1] = '\0';
		break;
	case STATE_HASH:
		hash_words(io, text, strnlen(text, size), 1);
		break;
	}
}

/* ---- the marked per-cell maps (cellmark.h) ------------------------------- */

/*
 * A map of enum game_map: n cells of `size` bytes (1, 2 or 4; an int map
 * is 4), each in [lo, hi] when loaded.  Its hash is made of the hashes of
 * its blocks of CELLMARK_BLOCK cells, in order, each a function of the
 * block's cells alone: only the blocks written since the last hash are
 * read again.  A snapshot keeps only the blocks written since the level
 * began (touched), each as its index and its cells (little-endian, `size`
 * bytes each); its loader lays them on the level as game_level_load makes
 * it (game_state_load sees to that).
 */
struct state_map {
	struct cellmark *mark;   /* NULL or not set up: every block hashed, the whole map saved */
	void *cells;
	size_t n;
	int size;
	long long lo, hi;
};

static long long cell_get(const struct state_map *m, size_t i)
{
	switch (m->size) {
	case 1:
		return ((const uint8_t *)m->cells)[i];
	case 2:
		return ((const uint16_t *)m->cells)[i];
	default:
		return ((const int *)m->cells)[i];
	}
}

static void cell_put(const struct state_map *m, size_t i, long long v)
{
	switch (m->size) {
	case 1:
		((uint8_t *)m->cells)[i] = (uint8_t)v;
		break;
	case 2:
		((uint16_t *)m->cells)[i] = (uint16_t)v;
		break;
	default:
		((int *)m->cells)[i] = (int)v;
	}
}

static size_t block_len(const struct state_map *m, int b)
{
	size_t first = (size_t)b << CELLMARK_SHIFT;
	return m->n - first < CELLMARK_BLOCK ? m->n - first : CELLMARK_BLOCK;
}

static uint64_t block_hash(const struct state_map *m, int b)
{
	size_t first = (size_t)b << CELLMARK_SHIFT;
	return words_hash(0x9e3779b97f4a7c15ULL, (const uint8_t *)m->cells + first * (size_t)m->size, block_len(m, b),
			  m->size);
}

/*
 * A block's hash through `memo`: a block whose cells all hold one value
 * (most blocks of most maps: nothing seen, nothing dropped, no scent) has
 * the hash of any such block of its length, so the map's first hash after
 * a load (every block, 16,384 of them a map on 4096x4096) hashes each
 * such value once.  The test, each cell equal to the one after it, is one
 * memcmp and stops at the first difference.
 */
struct block_memo {
	bool have;
	size_t len;
	uint8_t value[4];
	uint64_t hash;
};

static uint64_t block_hash_memo(const struct state_map *m, int b, struct block_memo *memo)
{
	const size_t size = (size_t)m->size, len = block_len(m, b);
	const uint8_t *p = (const uint8_t *)m->cells + ((size_t)b << CELLMARK_SHIFT) * size;
	if (len < 2 || memcmp(p, p + size, (len - 1) * size) != 0)
		return block_hash(m, b);
	if (memo->have && memo->len == len && memcmp(memo->value, p, size) == 0)
		return memo->hash;
	memo->have = true;
	memo->len = len;
	memcpy(memo->value, p, size);
	memo->hash = block_hash(m, b);
	return memo->hash;
}

static bool marked(const struct state_map *m)
{
	return m->mark && m->mark->dirty && m->mark->cells == m->n;
}

void game_map_uniform(struct game *g, enum game_map which, int size, long long value)
{
	struct cellmark *k = &g->marks[which];
	uint8_t cells[CELLMARK_BLOCK * 4];
	struct state_map m = { .mark = k, .cells = cells, .n = CELLMARK_BLOCK, .size = size };
	if (!k->dirty || k->blocks == 0 || size < 1 || size > 4)
		return;
	for (size_t i = 0; i < CELLMARK_BLOCK; i++)
		cell_put(&m, i, value);
	const size_t last = k->cells - ((size_t)(k->blocks - 1) << CELLMARK_SHIFT); /* cells of the last block */
	const uint64_t full = words_hash(0x9e3779b97f4a7c15ULL, cells, CELLMARK_BLOCK, size),
		       tail = words_hash(0x9e3779b97f4a7c15ULL, cells, last, size);
	for (int b = 0; b < k->blocks; b++) {
		if (cellmark_bit(k->touched, b))
			continue; /* written since it was set up: hashed from its cells */
		k->sums[b] = b == k->blocks - 1 ? tail : full;
		k->dirty[b >> 6] &= ~(1ULL << (b & 63));
	}
}

/* The sums of a marked map's dirty blocks taken again (the part of its
 * hash that reads cells: only the blocks written since the last time). */
static void map_sums(const struct state_map *m)
{
	const int blocks = (int)((m->n + CELLMARK_BLOCK - 1) >> CELLMARK_SHIFT);
	struct block_memo memo = { .have = false };
	struct cellmark *k = m->mark;
	for (int w = 0; w < (blocks + 63) / 64; w++) {
		uint64_t d = k->dirty[w];
		while (d) {
			int b = w * 64 + __builtin_ctzll(d);
			d &= d - 1;
			if (b < blocks)
				k->sums[b] = block_hash_memo(m, b, &memo);
		}
		k->dirty[w] = 0;
	}
#ifdef ASTRAY_CHECKS
	/* a write that did not mark its cell leaves a stale sum */
	for (int b = 0; b < blocks; b++)
		CHECK(k->sums[b] == block_hash(m, b));
#endif
}

static void map_hash(struct state_io *io, const struct state_map *m)
{
	const int blocks = (int)((m->n + CELLMARK_BLOCK - 1) >> CELLMARK_SHIFT);
	uint64_t h = mix(io->h, m->n);
	if (!marked(m)) {
		struct block_memo memo = { .have = false };
		for (int b = 0; b < blocks; b++)
			h = mix(h, block_hash_memo(m, b, &memo));
		io->h = h;
		return;
	}
	if (!io->copy)
		map_sums(m);
	const uint64_t *sums = m->mark->sums;
	for (int b = 0; b < blocks; b++)
		h = mix(h, sums[b]);
	io->h = h;
}

/*
 * The cells of [first, first + len) other than bg: their count, and each
 * as its offset in the block (two bytes) and its value (`size` bytes,
 * little-endian) into buf (room for every cell).  On a little-endian
 * machine eight bytes of cells are compared with bg's at once and a word
 * of background cells is passed over: a map of a 4096x4096 level that
 * holds a few changed cells a block (as the crowd costs of its 67,000
 * monsters did until rules 8) took 20-34 ms of a snapshot with cell_get's
 * switch on every cell.
 */
static size_t put_other(uint8_t *buf, size_t n, size_t i, long long v, size_t size)
{
	buf[n++] = (uint8_t)i;
	buf[n++] = (uint8_t)(i >> 8);
	for (size_t q = 0; q < size; q++)
		buf[n++] = (uint8_t)((uint64_t)v >> (8 * q));
	return n;
}

static size_t block_others(const struct state_map *m, size_t first, size_t len, long long bg, uint8_t *buf,
			   size_t *bytes)
{
	const size_t size = (size_t)m->size, per = 8 / size;
	const uint8_t *cells = (const uint8_t *)m->cells + first * size;
	size_t others = 0, n = 0, i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t pattern = 0;
	for (size_t k = 0; k < per; k++)
		pattern |= ((uint64_t)bg & (size == 8 ? ~0ULL : (1ULL << (8 * size)) - 1)) << (8 * size * k);
	for (; i + per <= len; i += per) {
		uint64_t w;
		memcpy(&w, cells + i * size, 8);
		if (w == pattern)
			continue;
		for (size_t k = 0; k < per; k++) {
			long long v = cell_get(m, first + i + k);
			if (v != bg) {
				others++;
				n = put_other(buf, n, i + k, v, size);
			}
		}
	}
#endif
	for (; i < len; i++) {
		long long v = cell_get(m, first + i);
		if (v != bg) {
			others++;
			n = put_other(buf, n, i, v, size);
		}
	}
	*bytes = n;
	return others;
}

/* A raw block: every cell, `size` bytes little-endian (on a little-endian
 * machine the bytes as they lie in memory). */
static void block_raw(struct state_io *io, const struct state_map *m, size_t first, size_t len, uint8_t *buf)
{
	const size_t size = (size_t)m->size;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)buf;
	out_bytes(io, (const uint8_t *)m->cells + first * size, len * size);
#else
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		uint64_t v = (uint64_t)cell_get(m, first + i);
		for (size_t k = 0; k < size; k++)
			buf[n++] = (uint8_t)(v >> (8 * k));
	}
	out_bytes(io, buf, n);
#endif
}

/*
 * A block is saved raw (mode 0: its cells) or sparse (mode 1: a background
 * value, a count, then each other cell as its offset in the block, two
 * bytes, and its value), whichever is shorter: a map that moving monsters
 * mark (the scent stamps; the occupants and crowd costs did before rules 7
 * and 8) changes a few cells in each of many blocks of 1,024.
 */
static void map_save(struct state_io *io, const struct state_map *m)
{
	const int blocks = (int)((m->n + CELLMARK_BLOCK - 1) >> CELLMARK_SHIFT);
	const bool all = !marked(m);
	const size_t size = (size_t)m->size;
	long long count = 0;
	for (int b = 0; b < blocks; b++)
		count += all || cellmark_bit(m->mark->touched, b);
	state_ll(io, &count, 0, blocks);
	uint8_t buf[CELLMARK_BLOCK * 6];
	for (int b = 0; b < blocks && !io->oom; b++) {
		if (!all && !cellmark_bit(m->mark->touched, b))
			continue;
		long long at = b;
		state_ll(io, &at, 0, blocks - 1);
		size_t first = (size_t)b << CELLMARK_SHIFT, len = block_len(m, b);
		long long bg = cell_get(m, first);
		size_t bytes, others = block_others(m, first, len, bg, buf, &bytes);
		long long mode = others * (2 + size) + 16 < len * size;
		state_ll(io, &mode, 0, 1);
		if (mode) {
			long long k = (long long)others;
			state_ll(io, &bg, m->lo, m->hi);
			state_ll(io, &k, 0, (long long)len);
			out_bytes(io, buf, bytes);
		} else {
			block_raw(io, m, first, len, buf);
		}
	}
}

/* One value of `size` bytes, little-endian, at p: checked against the map's range. */
static bool value_at(const struct state_map *m, const uint8_t *p, long long *v)
{
	uint64_t u = 0;
	for (int k = 0; k < m->size; k++)
		u |= (uint64_t)p[k] << (8 * k);
	*v = m->size == 4 ? (long long)(int32_t)(uint32_t)u : (long long)u;
	return *v >= m->lo && *v <= m->hi;
}

static void map_load(struct state_io *io, const struct state_map *m)
{
	const int blocks = (int)((m->n + CELLMARK_BLOCK - 1) >> CELLMARK_SHIFT);
	const size_t size = (size_t)m->size;
	long long count = 0, last = -1;
	state_ll(io, &count, 0, blocks);
	for (long long j = 0; j < count && !io->bad; j++) {
		long long b = 0, mode = 0, bg = 0, others = 0;
		state_ll(io, &b, last + 1, blocks - 1); /* in increasing order, each once */
		if (io->bad)
			return;
		last = b;
		size_t first = (size_t)b << CELLMARK_SHIFT, len = block_len(m, (int)b);
		state_ll(io, &mode, 0, 1);
		if (mode) {
			state_ll(io, &bg, m->lo, m->hi);
			state_ll(io, &others, 0, (long long)len);
		}
		size_t bytes = mode ? (size_t)others * (2 + size) : len * size;
		if (io->bad || io->n - io->at < bytes) {
			io->bad = true;
			return;
		}
		const uint8_t *p = io->in + io->at;
		long long v;
		if (mode) {
			for (size_t i = 0; i < len; i++)
				cell_put(m, first + i, bg);
			size_t prev = 0;
			for (size_t i = 0; i < (size_t)others; i++, p += 2 + size) {
				size_t off = (size_t)p[0] | (size_t)p[1] << 8;
				/* increasing offsets inside the block, none the background */
				if (off >= len || (i > 0 && off <= prev) || !value_at(m, p + 2, &v) || v == bg) {
					io->bad = true;
					return;
				}
				prev = off;
				cell_put(m, first + off, v);
			}
		} else {
			for (size_t i = 0; i < len; i++, p += size) {
				if (!value_at(m, p, &v)) {
					io->bad = true;
					return;
				}
				cell_put(m, first + i, v);
			}
		}
		io->at += bytes;
		if (marked(m))
			cellmark_range(m->mark, (int)first, (int)(first + len - 1));
	}
	/* the blocks not listed are as the level began (game_state_load makes
	 * it so): their sums, where clean, still hold */
}

static void state_map(struct state_io *io, struct game *g, enum game_map which, void *cells, int size, long long lo,
		      long long hi)
{
	struct state_map m = { .mark = &g->marks[which], .cells = cells, .n = (size_t)g->grid->w * (size_t)g->grid->h,
			       .size = size, .lo = lo, .hi = hi };
	switch (io->mode) {
	case STATE_SAVE:
		map_save(io, &m);
		break;
	case STATE_LOAD:
		map_load(io, &m);
		break;
	case STATE_HASH:
		map_hash(io, &m);
		break;
	}
}

/* ---- the table ---------------------------------------------------------- */

/*
 * A monster's fields, listed once: its place and health, its mind (before
 * the mind's route, a list of cells of its own), then the game's
 * per-monster entries.  X(lvalue, lo, hi) for each, in the order they are
 * saved.  The monsters are most of a large level's state (67,000 on a
 * 4096x4096 level: two million fields), so SAVE takes each monster's
 * fields as one array (save_lls) instead of a call and a switch on the
 * mode for each field, and HASH as one word (monster_hash).
 */
#define MONSTER_FIELDS(X)                                                                                    \
	X(m->x, 0, g->grid->w - 1)                                                                          \
	X(m->y, 0, g->grid->h - 1)                                                                          \
	X(m->hp, -big, big)                                                                                 \
	X(m->energy, -big, big)                                                                             \
	X(m->alive, 0, 1)                                                                                   \
	X(m->seen, 0, 1)                                                                                    \
	X(m->was_seen, 0, 1)                                                                                \
	X(mi->hunting, 0, 1)                                                                                \
	X(mi->target_x, -big, big)                                                                          \
	X(mi->target_y, -big, big)                                                                          \
	X(mi->memory_left, INT32_MIN, INT32_MAX)                                                            \
	X(mi->fleeing, 0, 1)                                                                                \
	X(mi->next_repath, INT32_MIN, INT32_MAX)                                                            \
	X(mi->route_len, 0, mi->route_cap)                                                                  \
	X(mi->route_pos, 0, mi->route_cap)                                                                  \
	X(mi->last_seen_turn, INT32_MIN, INT32_MAX)                                                         \
	X(mi->route_goal, -1, cells - 1)                                                                    \
	X(mi->route_stuck, 0, 1)                                                                            \
	X(mi->commit_until, INT32_MIN, INT32_MAX)                                                           \
	X(mi->saw_player, 0, 1)                                                                             \
	X(mi->sighted, 0, 1)                                                                                \
	X(mi->post, -1, cells - 1)                                                                          \
	X(mi->timer, INT32_MIN, INT32_MAX)                                                                  \
	X(mi->pressed, 0, 1001)                                                                             \
	X(mi->asleep, 0, 1)                                                                                 \
	X(mi->wander, -1, cells - 1)                                                                        \
	X(mi->tracking, 0, 1)                                                                               \
	X(mi->trail, -1, INT32_MAX)                                                                         \
	X(mi->waited, 0, INT32_MAX)
/* after the mind's route */
#define MONSTER_GAME_FIELDS(X)                                                                               \
	X(g->monster_dist[i], INT32_MIN, INT32_MAX)                                                         \
	X(g->noticed[i], 0, 1)

#define FIELD_LOAD(lvalue, lo, hi) (lvalue) = load_ll(io, lo, hi);
#define FIELD_VALUE(lvalue, lo, hi) (long long)(lvalue),
#define FIELD_COUNT(lvalue, lo, hi) +1

/*
 * A monster's part of the hash (rules 9): its kind and fields in four
 * lanes (value k into lane k mod 4), its route's cells by words_hash, each
 * from a fixed seed, then all of it mixed into one word that the state's
 * hash takes.  Nothing in it waits on the hash of the monsters before, and
 * a lane's multiplications wait only on its own: a checksum of a
 * 4096x4096 level's 67,000 monsters was one chain of 2.4 million dependent
 * multiplications, 9-10 ms, when each field was mixed into the state's
 * hash in turn; now 6-7 ms.
 */
#define FIELD_LANE(lvalue, lo, hi)                                                                           \
	lane[k & 3] = mix(lane[k & 3], (uint64_t)(long long)(lvalue));                                       \
	k++;

static uint64_t monster_hash(const struct game *g, int i)
{
	const long long big = 1LL << 40;
	const int cells = g->grid->w * g->grid->h;
	const struct monster *m = &g->monsters[i];
	const struct mind *mi = &m->mind;
	(void)big;
	(void)cells;
	uint64_t lane[4] = { 0x6d6f6e7374657273ULL, 1, 2, 3 }; /* "monsters" */
	unsigned k = 0;
	FIELD_LANE(m->kind ? m->kind - g->bestiary.kinds : 0, 0, 0)
	MONSTER_FIELDS(FIELD_LANE)
	MONSTER_GAME_FIELDS(FIELD_LANE)
	uint64_t h = mix(lane[0], lane[1]) ^ mix(lane[2], lane[3]);
	return mi->route_len ? mix(h, words_hash(0x726f757465ULL /* "route" */, mi->route, (size_t)mi->route_len, 4))
			     : h;
}

static void walk_monster(struct state_io *io, struct game *g, int i, int cells)
{
	const long long big = 1LL << 40;
	struct monster *m = &g->monsters[i];
	struct mind *mi = &m->mind;
	if (io->mode == STATE_LOAD) {
		const long long kind = load_ll(io, 0, g->bestiary.n - 1);
		m->kind = &g->bestiary.kinds[kind];
		MONSTER_FIELDS(FIELD_LOAD)
		state_cells_int(io, mi->route, (size_t)mi->route_len, 0, cells - 1);
		MONSTER_GAME_FIELDS(FIELD_LOAD)
		return;
	}
	if (io->mode == STATE_HASH) {
		io->h = mix(io->h, monster_hash(g, i));
		return;
	}
	(void)big;
	const long long head[] = { m->kind ? (long long)(m->kind - g->bestiary.kinds) : 0, MONSTER_FIELDS(FIELD_VALUE) };
	_Static_assert(sizeof head / sizeof head[0] == 1 MONSTER_FIELDS(FIELD_COUNT), "one value a field");
	const long long tail[] = { MONSTER_GAME_FIELDS(FIELD_VALUE) };
	save_lls(io, head, sizeof head / sizeof head[0]);
	state_cells_int(io, mi->route, (size_t)mi->route_len, 0, cells - 1);
	save_lls(io, tail, sizeof tail / sizeof tail[0]);
}

/* The AI's shared flood: its goal, whether it finished, and (SAVE, LOAD)
 * the cells it settled, in index order; LOAD settles a new flood to that
 * point (see the top of this file). */
static void walk_flood(struct state_io *io, struct game *g, int cells)
{
	struct ai *ai = &g->ai;
	int goal = ai->flood_goal;
	STATE_INT(io, goal, -1, cells - 1);
	if (io->mode == STATE_LOAD)
		ai->flood_goal = -1;
	if (goal < 0 || io->bad)
		return;
	long long finished = io->mode == STATE_LOAD ? 0 : flood_finished(ai->flood);
	long long settled = io->mode == STATE_LOAD ? 0 : flood_settled_count(ai->flood);
	state_ll(io, &finished, 0, 1);
	state_ll(io, &settled, 0, cells);
	if (io->mode == STATE_HASH)
		return;
	if (io->mode == STATE_SAVE) {
		for (int i = 0; i < cells; i++)
			if (flood_settled(ai->flood, i)) {
				long long c = i;
				state_ll(io, &c, 0, cells - 1);
			}
		return;
	}
	struct flood_options opt = flood_options_default();
	opt.reverse = true; /* as ai.c floods: toward the goal */
	if (io->bad || !flood_begin(ai->flood, goal, &opt)) {
		io->bad = true;
		return;
	}
	for (long long i = 0; i < settled && !io->bad; i++) {
		long long c = 0;
		state_ll(io, &c, 0, cells - 1);
		if (!io->bad) {
			int cell = (int)c;
			flood_settle(ai->flood, &cell, 1);
		}
	}
	if (finished)
		flood_settle(ai->flood, NULL, 0);
	if (!io->bad && flood_settled_count(ai->flood) != settled)
		io->bad = true;
	ai->flood_goal = goal;
}

/*
 * The occupant map is not in the table: it is the monsters' places (an
 * alive monster i on cell c is occupant[c] == i, every other cell is -1),
 * so the monsters' fields hash and save it.  LOAD takes the level's own
 * monsters off it before it reads theirs (occupants_clear: the map is
 * game_level_load's, consistent with them), then puts every alive monster
 * on it (occupants_load), refusing two on a cell, one on the player or on
 * a cell it cannot stand on.
 */
static void occupants_clear(struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!grid_in_bounds(g->grid, m->x, m->y))
			continue;
		int c = grid_index(g->grid, m->x, m->y);
		if (g->occupant[c] == i) {
			g->occupant[c] = -1;
			game_mark(g, MAP_OCCUPANT, c);
			g->ai.crowd[c] = 0;
		}
	}
}

static bool occupants_load(struct game *g)
{
	int pc = grid_index(g->grid, g->player.x, g->player.y);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive)
			continue;
		int c = grid_index(g->grid, m->x, m->y);
		if (g->occupant[c] >= 0 || c == pc || !grid_passable(g->grid, c))
			return false;
		g->occupant[c] = i;
		game_mark(g, MAP_OCCUPANT, c);
	}
	return true;
}

/* The crowd costs likewise (ai.h, ai_cell_held): the crowd knob on every
 * cell an alive monster holds, 0 elsewhere.  occupants_clear took the
 * level's own monsters' costs off with them; this puts the loaded
 * monsters' on, once the knob is read. */
static void crowd_load(struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (m->alive)
			g->ai.crowd[grid_index(g->grid, m->x, m->y)] = (uint16_t)g->ai.crowd_value;
	}
}

#ifdef ASTRAY_CHECKS
/* The test build: the crowd costs are the knob on the occupants' cells
 * and 0 elsewhere (what leaving them out of the hash rests on). */
static bool crowd_derived(const struct game *g)
{
	size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	for (size_t c = 0; c < n; c++)
		if (g->ai.crowd[c] != (g->occupant[c] >= 0 ? g->ai.crowd_value : 0))
			return false;
	return true;
}

/* The test build: the occupant map is what the monsters say, and nothing
 * else (what leaving it out of the hash and the snapshot rests on). */
static bool occupants_derived(const struct game *g)
{
	size_t n = (size_t)g->grid->w * (size_t)g->grid->h, held = 0, alive = 0;
	for (size_t c = 0; c < n; c++) {
		int i = g->occupant[c];
		if (i < 0)
			continue;
		if (i >= g->n_monsters || !g->monsters[i].alive ||
		    grid_index(g->grid, g->monsters[i].x, g->monsters[i].y) != (int)c)
			return false;
		held++;
	}
	for (int i = 0; i < g->n_monsters; i++)
		alive += g->monsters[i].alive;
	return held == alive;
}
#endif

/*
 * Every field of the play state, once.  The depth, the level's size and
 * the monster count come first (state_load reads them first to load the
 * level they need); everything after is the level as play changed it, the
 * player, the activity, the messages and the AI.  Bounds are for LOAD.
 */
static void state_walk(struct state_io *io, struct game *g)
{
	const long long big = 1LL << 40;
	const int cells = g->grid->w * g->grid->h;
	STATE_INT(io, g->level_serial, 0, INT32_MAX);
	STATE_INT(io, g->turn, 0, INT32_MAX);
	state_u64(io, &g->seed);
	state_u64(io, &g->rng.s[0]);
	state_u64(io, &g->rng.s[1]);
	state_u64(io, &g->combat.s[0]);
	state_u64(io, &g->combat.s[1]);
	state_u64(io, &g->arrive.s[0]);
	state_u64(io, &g->arrive.s[1]);
	STATE_INT(io, g->level_turn, 0, g->turn);
	STATE_INT(io, g->over, 0, 1);
	STATE_INT(io, g->won, 0, 1);
	STATE_INT(io, g->sight_radius, 0, 1 << 16);
	STATE_INT(io, g->last_hurt_turn, -1, INT32_MAX);
	STATE_INT(io, g->first_contact_turn, -1, INT32_MAX);
	STATE_INT(io, g->damage_taken, 0, big);
	state_text(io, g->killer, sizeof g->killer);

	struct player *p = &g->player;
	STATE_INT(io, p->x, 0, g->grid->w - 1);
	STATE_INT(io, p->y, 0, g->grid->h - 1);
	STATE_INT(io, p->hp, -big, big);
	STATE_INT(io, p->max_hp, 0, big);
	STATE_INT(io, p->damage, 0, big);
	STATE_INT(io, p->energy, -big, big);
	STATE_INT(io, p->gold, 0, big);
	STATE_INT(io, p->kills, 0, big);
	STATE_INT(io, p->potions_drunk, 0, big);
	STATE_INT(io, p->potions, 0, big);
	STATE_INT(io, p->regen, 0, big);
	STATE_INT(io, p->xp, 0, INT32_MAX);
	STATE_INT(io, p->xlevel, 1, g->bestiary.rules.level_max);
	STATE_INT(io, p->hit_bonus, -1000, 1000);
	STATE_INT(io, p->damage_bonus, -1000, 1000);
	STATE_INT(io, p->armour, -1000, 1000);

	/* the pack, equipment and what the player knows of items (game_items.c) */
	const int kinds = g->bestiary.items.n;
	for (int i = 0; i < PACK_SLOTS; i++) {
		STATE_INT(io, g->pack[i].kind, -1, kinds - 1);
		STATE_INT(io, g->pack[i].qty, 0, 255);
	}
	STATE_INT(io, g->wielded, -1, PACK_SLOTS - 1);
	STATE_INT(io, g->worn, -1, PACK_SLOTS - 1);
	state_cells_u8(io, g->identified, ITEMS_MAX, 2);
	state_cells_u8(io, g->looks, ITEMS_MAX, ITEM_LOOKS);
	STATE_INT(io, g->items_used, 0, INT32_MAX);

	state_map(io, g, MAP_TILES, g->tiles, 1, 0, TILE_COUNT - 1);
	state_map(io, g, MAP_HAZARD, g->hazard, 1, 0, 255);
	/* not a field: the grid's costs and the AI's regions are made from
	 * the tiles (dug walls), before the flood below is rebuilt on them */
	if (io->mode == STATE_LOAD && !io->bad && !game_grid_from_tiles(g))
		io->bad = true;
	state_map(io, g, MAP_OPEN, g->open, 1, 0, 255);
	state_map(io, g, MAP_ITEMS, g->items, 1, 0, kinds);
	state_map(io, g, MAP_ITEM_QTY, g->item_qty, 1, 0, 255);
	state_map(io, g, MAP_VISIBLE, g->visible, 1, 0, 1);
	state_map(io, g, MAP_REMEMBERED, g->remembered, 1, 0, 255);
	state_map(io, g, MAP_KNOWN, g->known, 1, 0, 255);
	state_map(io, g, MAP_OPAQUE, g->opaque, 1, 0, 255);
	STATE_INT(io, g->known_version, 0, UINT32_MAX);
	/* not a field: the occupant map is made from the monsters' places
	 * (occupants_load); it was hashed and saved whole, and 67,000 moving
	 * monsters made every checksum read all of it (rules 7) */
	state_map(io, g, MAP_SCENT, g->scent, 4, -1, INT32_MAX);
	STATE_INT(io, g->noise_cell, -1, cells - 1);
	STATE_INT(io, g->noise_turn, 0, INT32_MAX);
	STATE_INT(io, g->noise_loud, 0, INT32_MAX);
	if (io->mode == STATE_LOAD)
		occupants_clear(g);
	for (int i = 0; i < g->n_monsters && !io->bad; i++)
		walk_monster(io, g, i, cells);
	if (io->mode == STATE_LOAD && !io->bad && !occupants_load(g))
		io->bad = true;

	struct travel *t = &g->travel;
	STATE_INT(io, t->active, 0, 1);
	STATE_INT(io, t->mode, MODE_TRAVEL, MODE_RUN);
	STATE_INT(io, t->goal_x, -big, big);
	STATE_INT(io, t->goal_y, -big, big);
	STATE_INT(io, t->len, 0, t->cap);
	STATE_INT(io, t->pos, 0, t->cap);
	STATE_INT(io, t->partial, 0, 1);
	STATE_INT(io, t->stopped, TRAVEL_NONE, TRAVEL_HEARD);
	STATE_INT(io, t->known_version, 0, UINT32_MAX);
	STATE_INT(io, t->dir, 0, 7);
	STATE_INT(io, t->sides, INT32_MIN, INT32_MAX);
	if (io->mode == STATE_LOAD && !io->bad && !game_travel_room(g, t->len))
		io->bad = true; /* no memory for the route */
	if (!io->bad)
		state_cells_int(io, t->cells, (size_t)t->len, 0, cells - 1);

	STATE_INT(io, g->n_messages, 0, INT32_MAX);
	STATE_INT(io, g->message_stamp, 0, UINT32_MAX);
	for (int i = 0; i < GAME_MESSAGES; i++) {
		struct message *msg = &g->messages[i];
		STATE_INT(io, msg->turn, INT32_MIN, INT32_MAX);
		STATE_INT(io, msg->count, 0, INT32_MAX);
		STATE_INT(io, msg->stamp, 0, UINT32_MAX);
		state_text(io, msg->text, sizeof msg->text);
	}

	struct ai *ai = &g->ai;
	STATE_INT(io, ai->share, AI_SHARE_AUTO, AI_SHARE_ALWAYS);
	STATE_INT(io, ai->all_hunt, 0, 1);
	STATE_INT(io, ai->crowd_value, 0, 65535);
	STATE_INT(io, ai->due, 0, INT32_MAX);
	STATE_INT(io, ai->goal, -1, cells - 1);
	state_expect(io, ai->share_need);
	/* not a field: the crowd costs are the crowd knob on the monsters'
	 * cells (crowd_load); hashed whole, they were 12 ms of every checksum
	 * on a 4096x4096 level with 67,000 monsters (rules 8) */
	if (io->mode == STATE_LOAD && !io->bad)
		crowd_load(g);
	walk_flood(io, g, cells);
}

/* What a state starts with: the magic, the rules version, the sizes the
 * encoding depends on, then what decides the level to load. */
static void state_head(struct state_io *io, struct game *g)
{
	uint64_t magic = STATE_MAGIC, rules = GAME_RULES;
	state_u64(io, &magic);
	if (magic != STATE_MAGIC)
		io->bad = true;
	state_u64(io, &rules); /* 8 bytes after the magic, whatever the version: named when it differs */
	if (rules != GAME_RULES)
		io->bad = true;
	state_expect(io, GAME_MESSAGES);
	state_expect(io, GAME_MESSAGE_LEN);
	state_expect(io, AI_ROUTE_MAX);
	io->depth_at = io->at;
	STATE_INT(io, g->depth, 0, g->n_levels - 1);
	/* with the depth, what makes the level as it begins (the items' kinds
	 * are drawn from the seed): the per-cell maps are saved against it */
	state_u64(io, &g->seed);
}

/* The level's size and its monsters: the level's own (those
 * game_level_load placed), then breeders' buds and wandering arrivals in
 * the order they came (up to monster_cap); LOAD takes the saved count and
 * gives the monsters past the level's their route buffers before
 * walk_monster reads them. */
static void state_sizes(struct state_io *io, struct game *g)
{
	state_expect(io, g->grid->w);
	state_expect(io, g->grid->h);
	int n = g->n_monsters;
	STATE_INT(io, n, 0, g->monster_cap);
	STATE_INT(io, g->arrivals, 0, g->monster_cap);
	if (io->mode == STATE_LOAD && !io->bad) {
		for (int i = g->n_monsters; i < n; i++)
			ai_mind_init(&g->ai, &g->monsters[i].mind, i);
		g->n_monsters = n;
	}
}

/* ---- the three uses ------------------------------------------------------ */

/* After a load: the box of the cells set in visible[], which the next
 * field of view clears (game.c, fov_clear). */
static void visible_box(struct game *g)
{
	int w = g->grid->w, h = g->grid->h;
	int *b = g->fov_box;
	b[0] = b[1] = 1;
	b[2] = b[3] = 0;
	/* visible[] is clear where the level began (game_map_uniform): only
	 * the blocks touched since (those the load laid) can hold a set cell,
	 * and on a large level they are a few of thousands */
	const struct cellmark *k = &g->marks[MAP_VISIBLE];
	const size_t n = (size_t)w * (size_t)h;
	if (k->touched && k->cells == n) {
		for (int blk = cellmark_next_touched(k, 0); blk < k->blocks; blk = cellmark_next_touched(k, blk + 1)) {
			const size_t first = (size_t)blk << CELLMARK_SHIFT;
			const size_t end = n - first < CELLMARK_BLOCK ? n : first + CELLMARK_BLOCK;
			for (size_t c = first; c < end; c++) {
				const uint8_t *p = memchr(g->visible + c, 1, end - c);
				if (!p)
					break;
				c = (size_t)(p - g->visible);
				const int x = (int)(c % (size_t)w), y = (int)(c / (size_t)w);
				if (b[0] > b[2]) {
					b[0] = b[2] = x;
					b[1] = b[3] = y;
				}
				b[0] = x < b[0] ? x : b[0];
				b[2] = x > b[2] ? x : b[2];
				b[1] = y < b[1] ? y : b[1];
				b[3] = y > b[3] ? y : b[3];
			}
		}
		return;
	}
	for (int y = 0; y < h; y++) {
		const uint8_t *row = g->visible + (size_t)y * (size_t)w;
		const uint8_t *first = memchr(row, 1, (size_t)w);
		if (!first)
			continue;
		int x = (int)(first - row);
		if (b[0] > b[2]) {
			b[0] = b[2] = x;
			b[1] = y;
		}
		b[3] = y;
		for (int i = w - 1; i >= x; i--)
			if (row[i]) {
				b[2] = i > b[2] ? i : b[2];
				break;
			}
		b[0] = x < b[0] ? x : b[0];
	}
}

void game_maps_written(struct game *g)
{
	for (int m = 0; m < GAME_MAPS; m++) {
		struct cellmark *k = &g->marks[m];
		if (k->dirty && k->cells > 0)
			cellmark_range(k, 0, (int)k->cells - 1);
	}
	g->level_fresh = false;
}

/* HASH mode reads every field and writes none (but the maps' sums, a
 * cache of their blocks' hashes) */
static uint64_t hash_walk(const struct game *g, bool copy)
{
	struct state_io io = { .mode = STATE_HASH, .h = 0xcbf29ce484222325ULL, .copy = copy };
	struct game *w = (struct game *)g;
	state_head(&io, w);
	state_sizes(&io, w);
	state_walk(&io, w);
	return io.h;
}

uint64_t game_hash(const struct game *g)
{
#ifdef ASTRAY_CHECKS
	CHECK(occupants_derived(g));
	CHECK(crowd_derived(g));
#endif
	return hash_walk(g, false);
}

enum game_state_status game_state_save_into(const struct game *g, size_t at, void **buf, size_t *cap, size_t *len)
{
	*len = 0;
	if (g->ai.flood_goal >= 0 && g->ai.share_need > AI_SHARE_MIN)
		return GAME_STATE_UNSAVABLE;
	/* SAVE mode reads every field and writes none */
	struct state_io io = { .mode = STATE_SAVE, .out = *buf, .cap = *buf ? *cap : 0 };
	/* room for the caller's part, which the caller writes itself */
	if (at > io.cap)
		(void)out_grow(&io, at);
	if (!io.oom)
		io.n = at;
	struct game *w = (struct game *)g;
	state_head(&io, w);
	state_sizes(&io, w);
	state_walk(&io, w);
	uint64_t magic = STATE_MAGIC;
	state_u64(&io, &magic);
	*buf = io.out;
	*cap = io.cap;
	if (io.oom)
		return GAME_STATE_NO_MEMORY;
	*len = io.n - at;
	return GAME_STATE_OK;
}

enum game_state_status game_state_save(const struct game *g, void **out, size_t *len)
{
	void *buf = NULL;
	size_t cap = 0;
	enum game_state_status st = game_state_save_into(g, 0, &buf, &cap, len);
	if (st != GAME_STATE_OK) {
		free(buf);
		buf = NULL;
		*len = 0;
	}
	*out = buf;
	return st;
}

bool game_state_load(struct game *g, const void *bytes, size_t len, char *err, size_t errlen)
{
	struct state_io io = { .mode = STATE_LOAD, .in = bytes, .n = len };
	int depth0 = g->depth;
	uint64_t seed0 = g->seed;
	state_head(&io, g);
	if (io.bad) {
		g->seed = seed0;
		if (io.at >= 16 && io.n >= 16) {
			/* the magic read, then the rules version: name both */
			uint64_t rules = 0;
			for (int i = 0; i < 8; i++)
				rules |= (uint64_t)((const uint8_t *)bytes)[8 + i] << (8 * i);
			if (rules != GAME_RULES) {
				snprintf(err, errlen, "a game state of rules version %llu; this program plays version %d",
					 (unsigned long long)rules, GAME_RULES);
				return false;
			}
		}
		snprintf(err, errlen, io.depth_at > 0 && io.at > io.depth_at ? "a level outside the campaign"
									    : "not a game state of this program");
		return false;
	}
	int depth = g->depth;
	g->depth = depth0;
	/* the per-cell maps come as the blocks changed since the level began
	 * (state_map): they are laid on the level as it began, so a game that
	 * played on since is taken back there first */
	if ((depth != g->depth || !g->level_fresh || g->seed != seed0) && !game_level_load(g, depth)) {
		snprintf(err, errlen, "out of memory loading level %d", depth + 1);
		return false;
	}
	/* from here the level is written (the blocks laid, the grid's costs
	 * from them): a load that fails leaves it to be made again */
	g->level_fresh = false;
	state_sizes(&io, g);
	if (io.bad) {
		snprintf(err, errlen, "the level's size or its monsters differ from the campaign's");
		return false;
	}
	state_walk(&io, g);
	uint64_t magic = 0;
	state_u64(&io, &magic);
	if (magic != STATE_MAGIC || io.at != io.n)
		io.bad = true;
	if (io.bad) {
		snprintf(err, errlen, "a malformed game state (byte %zu)", io.at);
		return false;
	}
	g->reach.source = -1; /* rebuilt from known[] on the next preview or plan */
	g->reach.labels_ok = false; /* the same */
	g->reach.open_squares_ok = false; /* the same */
	g->reach.trees_ok = false;  /* the same */
	game_trees_drop(g);         /* a peeling of the known[] before */
	visible_box(g);
	g->level_fresh = false;
	return true;
}

/* ---- a private copy of what SAVE reads (a snapshot written in the background) ---- */

/*
 * What game_state_save and game_hash read of a game, copied: the game's
 * own fields (a shallow copy of struct game), and, behind its pointers,
 * what SAVE and HASH follow: the grid's size, the monsters, their routes,
 * the per-monster distances and marks, the travel route, and of each
 * saved per-cell map the blocks touched since the level began (the rest
 * of the map is never read by SAVE: map_save lists only touched blocks)
 * with the touched bits, and its blocks' sums (HASH reads no cell of a
 * marked map but through them: the capture takes the sums of the blocks
 * written since the last hash on the game itself, as game_hash would,
 * 0.1-0.5 ms on a 4096x4096 level, and copies them, 128 KB a map).
 * Every other pointer of the copy is NULL, so a new field that SAVE or
 * HASH follows and that this copy forgot fails at once in the tests
 * (test_game_state: the bytes and the hash of a copy against
 * game_state_save's and game_hash's).
 * The buffers are kept from one capture to the next: a 4096x4096 level's
 * maps are 200 MB of address space, of which only the touched blocks'
 * pages are ever made resident.
 */
struct copy_map {
	void *cells;              /* the map's size; only the touched blocks hold its cells */
	size_t bytes;             /* allocated */
	uint64_t *touched;        /* the touched bits as they were */
	size_t words;             /* allocated */
	uint64_t *clean;          /* as many bits, all clear: the copy's dirty bits (its sums are current) */
	size_t clean_bytes;       /* allocated */
	uint64_t *sums;           /* the blocks' sums as they were, made current (HASH reads them) */
	size_t sums_bytes;        /* allocated */
};

struct game_state_copy {
	struct game g;            /* the game's fields; its pointers redirected to the copies below */
	struct grid grid;
	enum game_state_status status; /* of the capture */
	bool whole;               /* a current flood: the state was saved at the capture, into bytes */
	int turn;                 /* the game turn then */
	uint64_t hash;            /* whole: the state's hash, taken at the capture */
	uint8_t *bytes;
	size_t bytes_cap, bytes_len;
	struct monster *monsters;
	size_t monsters_cap;
	int *routes;
	size_t routes_cap;
	int *dist;
	size_t dist_cap;
	uint8_t *noticed;
	size_t noticed_cap;
	int *travel;
	size_t travel_cap;
	struct copy_map maps[GAME_MAPS];
};

struct game_state_copy *game_state_copy_new(void)
{
	struct game_state_copy *c = calloc(1, sizeof *c);
	if (c)
		c->status = GAME_STATE_NO_MEMORY; /* nothing captured yet */
	return c;
}

void game_state_copy_free(struct game_state_copy *c)
{
	if (!c)
		return;
	free(c->bytes);
	free(c->monsters);
	free(c->routes);
	free(c->dist);
	free(c->noticed);
	free(c->travel);
	for (int m = 0; m < GAME_MAPS; m++) {
		free(c->maps[m].cells);
		free(c->maps[m].touched);
		free(c->maps[m].clean);
		free(c->maps[m].sums);
	}
	free(c);
}

/* *p holds at least n bytes (its old content is not kept), room for
 * `reserve` when it must grow (so a count that grows by one now and then,
 * as the monsters do by arrivals, does not fault in a new buffer each
 * time); false on no memory. */
static bool room_for(void **p, size_t *cap, size_t n, size_t reserve, bool zeroed)
{
	if (*cap >= n && *p)
		return true;
	if (reserve < n)
		reserve = n;
	free(*p);
	*p = zeroed ? calloc(reserve ? reserve : 1, 1) : malloc(reserve ? reserve : 1);
	*cap = *p ? reserve : 0;
	return *p != NULL;
}

/* The saved part of map `which` (cells of `size` bytes) into the copy;
 * returns where the copy's game reads it, NULL on no memory. */
static void *copy_map(struct game_state_copy *c, const struct game *g, enum game_map which, const void *cells,
		      size_t size)
{
	struct copy_map *cm = &c->maps[which];
	const struct cellmark *k = &g->marks[which];
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	const struct state_map m = { .mark = (struct cellmark *)k, .cells = (void *)cells, .n = n, .size = (int)size };
	/* calloc'ed: the pages of blocks never touched are never made resident */
	if (!room_for(&cm->cells, &cm->bytes, n * size, 0, true))
		return NULL;
	struct cellmark *ck = &c->g.marks[which];
	if (!marked(&m)) {
		memcpy(cm->cells, cells, n * size); /* SAVE takes such a map whole */
		memset(ck, 0, sizeof *ck);
		return cm->cells;
	}
	const size_t words = ((size_t)k->blocks + 63) / 64;
	if (!room_for((void **)&cm->touched, &cm->words, words * sizeof(uint64_t), 0, false) ||
	    !room_for((void **)&cm->clean, &cm->clean_bytes, words * sizeof(uint64_t), 0, true) ||
	    !room_for((void **)&cm->sums, &cm->sums_bytes, (size_t)k->blocks * sizeof(uint64_t), 0, false))
		return NULL;
	memcpy(cm->touched, k->touched, words * sizeof(uint64_t));
	/* the hash's part that reads cells, on the game's own map (only the
	 * blocks written since the last hash: what game_hash would take
	 * now), so that the copy's hash needs only the sums */
	map_sums(&m);
	memcpy(cm->sums, k->sums, (size_t)k->blocks * sizeof(uint64_t));
	for (size_t w = 0; w < words; w++)
		for (uint64_t d = k->touched[w]; d; d &= d - 1) {
			size_t b = w * 64 + (size_t)__builtin_ctzll(d), first = b << CELLMARK_SHIFT;
			if (first < n)
				memcpy((uint8_t *)cm->cells + first * size, (const uint8_t *)cells + first * size,
				       block_len(&m, (int)b) * size);
		}
	/* SAVE reads the touched bits, HASH the sums (none dirty) */
	*ck = (struct cellmark){
		.dirty = cm->clean, .touched = cm->touched, .sums = cm->sums, .blocks = k->blocks, .cells = k->cells
	};
	return cm->cells;
}

static enum game_state_status capture(const struct game *g, struct game_state_copy *c)
{
	if (g->ai.flood_goal >= 0 && g->ai.share_need > AI_SHARE_MIN)
		return GAME_STATE_UNSAVABLE;
	c->whole = false;
	c->turn = g->turn;
	if (g->ai.flood_goal >= 0) {
		/* a current flood (a level of few passable cells: the state is
		 * small): SAVE reads the flood's settled cells, saved now */
		c->whole = true;
		c->hash = game_hash(g);
		return game_state_save_into(g, 0, (void **)&c->bytes, &c->bytes_cap, &c->bytes_len);
	}
#ifdef ASTRAY_CHECKS
	/* game_hash's checks, on the game: the copy has no occupant map */
	CHECK(occupants_derived(g));
	CHECK(crowd_derived(g));
#endif
	c->g = *g;
	struct game *w = &c->g;
	c->grid = *g->grid;
	w->grid = &c->grid;
	const size_t n = (size_t)g->n_monsters, most = (size_t)g->monster_cap;
	if (!room_for((void **)&c->monsters, &c->monsters_cap, n * sizeof *c->monsters, most * sizeof *c->monsters,
		      false) ||
	    !room_for((void **)&c->dist, &c->dist_cap, n * sizeof *c->dist, most * sizeof *c->dist, false) ||
	    !room_for((void **)&c->noticed, &c->noticed_cap, n, most, false))
		return GAME_STATE_NO_MEMORY;
	memcpy(c->dist, g->monster_dist, n * sizeof *c->dist);
	if (n)
		memcpy(c->noticed, g->noticed, n);
	/* room for every route at its longest (a mind's route_cap,
	 * AI_ROUTE_MAX: ai_mind_init), so that one pass over the monsters
	 * (9 MB on a 4096x4096 level) copies each with its route: 2.5 ms
	 * against 2.9 for a copy of them all, a pass to count the routes and
	 * one to copy them (medians of 25 captures each, interleaved).  Only
	 * the pages used are ever resident. */
	if (!room_for((void **)&c->routes, &c->routes_cap, n * AI_ROUTE_MAX * sizeof(int),
		      most * AI_ROUTE_MAX * sizeof(int), false))
		return GAME_STATE_NO_MEMORY;
	const size_t room = c->routes_cap / sizeof(int);
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		const struct monster *from = &g->monsters[i];
		struct monster *to = &c->monsters[i];
		memcpy(to, from, sizeof *to);
		/* the kinds are the bestiary's, which lies in struct game: the copy's own */
		if (from->kind)
			to->kind = w->bestiary.kinds + (from->kind - g->bestiary.kinds);
		size_t len = (size_t)from->mind.route_len;
		if (len > room - at)
			return GAME_STATE_NO_MEMORY; /* never: a route is at most route_cap cells */
		if (len)
			memcpy(c->routes + at, from->mind.route, len * sizeof(int));
		to->mind.route = len ? c->routes + at : NULL;
		at += len;
	}
	w->monsters = c->monsters;
	w->monster_dist = c->dist;
	w->noticed = c->noticed;
	const size_t tlen = g->travel.len > 0 ? (size_t)g->travel.len : 0;
	if (!room_for((void **)&c->travel, &c->travel_cap, tlen * sizeof(int), tlen * sizeof(int) * 2, false))
		return GAME_STATE_NO_MEMORY;
	if (tlen)
		memcpy(c->travel, g->travel.cells, tlen * sizeof(int));
	w->travel.cells = c->travel;
	/* the saved per-cell maps (state_walk's state_map lines) */
	if (!(w->tiles = copy_map(c, g, MAP_TILES, g->tiles, 1)) ||
	    !(w->hazard = copy_map(c, g, MAP_HAZARD, g->hazard, 1)) ||
	    !(w->open = copy_map(c, g, MAP_OPEN, g->open, 1)) ||
	    !(w->items = copy_map(c, g, MAP_ITEMS, g->items, 1)) ||
	    !(w->item_qty = copy_map(c, g, MAP_ITEM_QTY, g->item_qty, 1)) ||
	    !(w->visible = copy_map(c, g, MAP_VISIBLE, g->visible, 1)) ||
	    !(w->remembered = copy_map(c, g, MAP_REMEMBERED, g->remembered, 1)) ||
	    !(w->known = copy_map(c, g, MAP_KNOWN, g->known, 1)) ||
	    !(w->opaque = copy_map(c, g, MAP_OPAQUE, g->opaque, 1)) ||
	    !(w->scent = copy_map(c, g, MAP_SCENT, g->scent, sizeof *g->scent)))
		return GAME_STATE_NO_MEMORY;
	/* what SAVE never follows: NULL, so a forgotten one fails in the tests */
	w->occupant = NULL;
	w->path = NULL;
	w->noise = NULL;
	w->reach = (struct reach){ .source = -1 };
	memset(&w->marks[MAP_OCCUPANT], 0, sizeof w->marks[MAP_OCCUPANT]);
	struct ai *ai = &w->ai;
	ai->path = NULL;
	ai->flood = ai->near = NULL;
	ai->crowd = ai->want = NULL;
	ai->region = ai->want_turn = ai->route_cells = ai->push_who = ai->push_to = NULL;
	ai->solid = NULL;
	ai->tried = NULL;
	ai->ranged = NULL;
	ai->stairs = NULL;
	ai->pack = NULL;
	ai->ambush = NULL;
	ai->cplan = NULL;
	return GAME_STATE_OK;
}

enum game_state_status game_state_capture(const struct game *g, struct game_state_copy *c)
{
	c->status = capture(g, c);
	return c->status;
}

enum game_state_status game_state_copy_save_into(const struct game_state_copy *c, size_t at, void **buf,
						 size_t *cap, size_t *len)
{
	*len = 0;
	if (c->status != GAME_STATE_OK)
		return c->status;
	if (c->whole) {
		if (*cap < at + c->bytes_len || !*buf) {
			void *q = realloc(*buf, at + c->bytes_len);
			if (!q)
				return GAME_STATE_NO_MEMORY;
			*buf = q;
			*cap = at + c->bytes_len;
		}
		memcpy((uint8_t *)*buf + at, c->bytes, c->bytes_len);
		*len = c->bytes_len;
		return GAME_STATE_OK;
	}
	return game_state_save_into(&c->g, at, buf, cap, len);
}

int game_state_copy_turn(const struct game_state_copy *c) { return c->whole ? c->turn : c->g.turn; }

uint64_t game_state_copy_hash(const struct game_state_copy *c)
{
	if (c->status != GAME_STATE_OK)
		return 0;
	return c->whole ? c->hash : hash_walk(&c->g, true);
}
