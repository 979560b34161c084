/*
 * noise.c - how far a noise carries on a level.  A noise is one bounded
 * breadth-first flood from its cell over the cells a mover could walk
 * (grid_neighbours), out to its loudness in steps: walls damp it by making
 * it go round them, a closed door stops it.  The rules (game.c) make a
 * noise when the player or a monster fights, opens a door or hurries, and
 * tell each monster the flood reaches (ai_mind_hear); this file knows
 * nothing of monsters.  One flood per noise, never one per monster, and
 * its cost is the cells it reaches: the per-cell stamps of old floods are
 * told apart by a generation number instead of being cleared.
 *
 * Memory (issue 33, a 4096x4096 level within 2 GB of address space): two
 * bytes a cell, the stamps; they go round every 65,535 noises, when one
 * clearing of the level's stamps (32 MiB on the largest) costs a few ms.
 * The queue holds the cells one noise reaches, grown when a louder noise
 * needs more, never the level's size.
 */
#include "noise.h"

#include <stdlib.h>
#include <string.h>

#include "level.h"

struct noise {
	const struct grid *grid;
	uint16_t *stamp;        /* w*h: the generation of the flood that last reached the cell */
	uint16_t gen;           /* the current flood's generation */
	int *queue;             /* cap: the cells reached, in flood order */
	int cap;
};

#define NOISE_QUEUE_FIRST 1024 /* cells the queue holds before it first grows */

struct noise *noise_create(const struct grid *grid)
{
	struct noise *nz = calloc(1, sizeof *nz);
	if (!nz)
		return NULL;
	size_t n = (size_t)grid->w * (size_t)grid->h;
	nz->grid = grid;
	nz->stamp = calloc(n, sizeof *nz->stamp);
	nz->cap = n < NOISE_QUEUE_FIRST ? (int)n : NOISE_QUEUE_FIRST;
	nz->queue = malloc((size_t)nz->cap * sizeof *nz->queue);
	if (!nz->stamp || !nz->queue) {
		noise_destroy(nz);
		return NULL;
	}
	return nz;
}

void noise_destroy(struct noise *nz)
{
	if (!nz)
		return;
	free(nz->stamp);
	free(nz->queue);
	free(nz);
}

int noise_flood(struct noise *nz, const uint8_t *tiles, const uint8_t *open, int from, int loud,
		const int **cells)
{
	const struct grid *g = nz->grid;
	*cells = nz->queue;
	if (loud < 0 || from < 0 || from >= g->w * g->h || !grid_passable(g, from))
		return 0;
	if (++nz->gen == 0) {
		/* the generations went round: forget every old stamp once */
		memset(nz->stamp, 0, (size_t)g->w * (size_t)g->h * sizeof *nz->stamp);
		nz->gen = 1;
	}
	const uint16_t gen = nz->gen;
	int head = 0, tail = 0;
	nz->queue[tail++] = from;
	nz->stamp[from] = gen;
	for (int d = 0; d < loud && head < tail; d++) {
		int end = tail;
		for (; head < end; head++) {
			struct grid_step s[GRID_MAX_NEIGHBOURS];
			int n = grid_neighbours(g, nz->queue[head], false, s);
			for (int i = 0; i < n; i++) {
				int c = s[i].cell;
				if (nz->stamp[c] == gen)
					continue;
				nz->stamp[c] = gen;
				if (tiles[c] == TILE_DOOR && !open[c])
					continue; /* a closed door stops it */
				if (tail == nz->cap) {
					/* at most every cell is queued once */
					const long long want = 2LL * nz->cap,
						       all = (long long)g->w * g->h;
					const int cap = (int)(want < all ? want : all);
					int *q = realloc(nz->queue, (size_t)cap * sizeof *q);
					if (!q)
						return tail; /* no memory: the cells reached so far */
					nz->queue = q;
					nz->cap = cap;
					*cells = q;
				}
				nz->queue[tail++] = c;
			}
		}
	}
	return tail;
}
