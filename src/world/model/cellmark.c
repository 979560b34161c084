/*
 * cellmark.c - the block marks of the per-cell maps of the game state
 * (cellmark.h): allocation and wholesale resets.  Setting a mark is inline
 * in the header, for the rules' hot paths; reading the marks is
 * game_state.c's (the hash and the snapshot's delta).
 */
#include "cellmark.h"

#include <stdlib.h>
#include <string.h>

static size_t words_of(int blocks) { return ((size_t)blocks + 63) / 64; }

bool cellmark_init(struct cellmark *m, size_t cells)
{
	memset(m, 0, sizeof *m);
	int blocks = (int)((cells + CELLMARK_BLOCK - 1) >> CELLMARK_SHIFT);
	size_t w = words_of(blocks) + 1;
	m->dirty = calloc(w, sizeof *m->dirty);
	m->touched = calloc(w, sizeof *m->touched);
	m->sums = calloc((size_t)blocks + 1, sizeof *m->sums);
	if (!m->dirty || !m->touched || !m->sums) {
		cellmark_fini(m);
		return false;
	}
	m->blocks = blocks;
	m->cells = cells;
	cellmark_all_dirty(m);
	return true;
}

void cellmark_fini(struct cellmark *m)
{
	free(m->dirty);
	free(m->touched);
	free(m->sums);
	memset(m, 0, sizeof *m);
}

void cellmark_begin(struct cellmark *m)
{
	if (m->touched)
		memset(m->touched, 0, words_of(m->blocks) * sizeof *m->touched);
}

void cellmark_all_dirty(struct cellmark *m)
{
	if (m->dirty)
		memset(m->dirty, 0xff, words_of(m->blocks) * sizeof *m->dirty);
}
