/* cellmark.h - which blocks of a per-cell map were written: since its hash was last taken, and since the level began. */
#ifndef ASTRAY_CELLMARK_H
#define ASTRAY_CELLMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A per-cell map of the game state (tiles, memory, occupants...) is cut
 * into blocks of CELLMARK_BLOCK cells in index order.  Whoever writes a
 * cell of a marked map marks it (cellmark_set): two bits of its block are
 * set, `dirty` (the hash of the block, kept in sums[], must be taken
 * again) and `touched` (the block differs, or may differ, from what it was
 * when the level began: a snapshot keeps only those).  game_state.c reads
 * and clears them; the test build checks every clean block's sum against
 * its cells, so a write that forgot its mark fails the tests.
 */
#define CELLMARK_SHIFT 10
#define CELLMARK_BLOCK (1 << CELLMARK_SHIFT)

struct cellmark {
	uint64_t *dirty;   /* a bit a block: its sum is stale (all set after init) */
	uint64_t *touched; /* a bit a block: written since cellmark_begin */
	uint64_t *sums;    /* a word a block: the hash of its cells, where dirty is clear */
	int blocks;        /* blocks of the map */
	size_t cells;      /* cells of the map */
};

/* For a map of `cells` cells: every block dirty, none touched.  False on no memory. */
bool cellmark_init(struct cellmark *m, size_t cells);
void cellmark_fini(struct cellmark *m); /* a zeroed struct does nothing */
/* The level begins now: no block touched (the sums stay as they are). */
void cellmark_begin(struct cellmark *m);
/* Every block dirty (its cells were written wholesale, as by a load). */
void cellmark_all_dirty(struct cellmark *m);

static inline bool cellmark_bit(const uint64_t *bits, int block)
{
	return bits[block >> 6] >> (block & 63) & 1;
}

/* The first block at or after `block` written since cellmark_begin, or
 * m->blocks when there is none: a map that held one value where the level
 * began can differ from it only in these (game_known_stairs, visible_box). */
static inline int cellmark_next_touched(const struct cellmark *m, int block)
{
	while (block < m->blocks) {
		const uint64_t bits = m->touched[block >> 6] >> (block & 63);
		if (bits) {
			block += __builtin_ctzll(bits);
			return block < m->blocks ? block : m->blocks;
		}
		block = (block | 63) + 1;
	}
	return m->blocks;
}

/* Cell `cell` was written.  A map never set up (NULL) is not marked. */
static inline void cellmark_set(struct cellmark *m, int cell)
{
	if (!m || !m->dirty)
		return;
	unsigned b = (unsigned)cell >> CELLMARK_SHIFT;
	uint64_t bit = 1ULL << (b & 63);
	m->dirty[b >> 6] |= bit;
	m->touched[b >> 6] |= bit;
}

/* Cells first..last (inclusive, first <= last) were written. */
static inline void cellmark_range(struct cellmark *m, int first, int last)
{
	if (!m || !m->dirty)
		return;
	for (unsigned b = (unsigned)first >> CELLMARK_SHIFT; b <= (unsigned)last >> CELLMARK_SHIFT; b++) {
		uint64_t bit = 1ULL << (b & 63);
		m->dirty[b >> 6] |= bit;
		m->touched[b >> 6] |= bit;
	}
}

#endif
