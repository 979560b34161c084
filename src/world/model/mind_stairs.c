/*
 * mind_stairs.c - what the minds read of the lie of the land: the player's
 * likely way to the stairs, and which cells are narrow places.  The way is
 * a field of distances toward the nearest stairs '>' (every stairs cell a
 * source; mind_field.c's Dijkstra over the whole level), begun the first
 * time a mind asks on a level, settled only as far as the questions need
 * (out to the cell asked about) and kept for the level: the stairs and the
 * terrain costs do not change in play (doors are passable in the grid; a
 * rule that changes a cell's cost must call mind_stairs_forget).  One
 * field serves every monster: the pack's cut-off and the ambusher's
 * chokepoint walk downhill along it from the player's cell.  A pure
 * cache: not in the state table, made again after a load.
 */
#include "ai_internal.h"

#include <math.h>
#include <stdlib.h>

#include "clock.h"
#include "level.h"

struct mind_stairs {
	struct mind_field field; /* toward the nearest stairs, over the whole level; made at the first question */
	int *exits;              /* the stairs cells, when the field is made */
	bool ready;              /* field's buffers made */
	bool made;               /* the field is current */
};

/* Nothing per cell until a mind first asks (issue 33: the field's 16 bytes
 * a cell and the stairs list, 268 MB on 4096x4096 where it held 4 bytes a
 * cell, that a level whose minds never ask about the stairs never needs). */
struct mind_stairs *mind_stairs_create(const struct grid *g)
{
	(void)g;
	return calloc(1, sizeof(struct mind_stairs));
}

bool mind_stairs_ready(const struct mind_stairs *s)
{
	return s && s->ready;
}

void mind_stairs_destroy(struct mind_stairs *s)
{
	if (!s)
		return;
	mind_field_fini(&s->field);
	free(s->exits);
	free(s);
}

void mind_stairs_forget(struct mind_stairs *s)
{
	if (s)
		s->made = false;
}

int mind_stairs_next(struct ai *ai, const struct ai_view *v, int cell)
{
	struct mind_stairs *s = ai->stairs;
	if (!s)
		return -1;
	if (!s->made) {
		const int cells = v->grid->w * v->grid->h;
		if (!s->ready) {
			if (!mind_field_init(&s->field, cells)) {
				mind_field_fini(&s->field);
				return -1;
			}
			s->ready = true;
		}
		int n = 0;
		for (int c = 0; c < cells; c++)
			n += v->tiles[c] == TILE_EXIT;
		free(s->exits);
		s->exits = malloc((n > 0 ? (size_t)n : 1) * sizeof *s->exits);
		if (!s->exits)
			return -1;
		n = 0;
		for (int c = 0; c < cells; c++)
			if (v->tiles[c] == TILE_EXIT)
				s->exits[n++] = c;
		mind_field_begin(&s->field, v->grid, 0, -1, s->exits, n, -1);
		s->made = true;
	}
	/* settled only as far as the questions need: the cells nearer the
	 * stairs than `cell` (its way down runs through them alone) */
	if (!mind_field_settled(&s->field, v->grid, cell)) {
		double t0 = clock_us();
		long settled = mind_field_settle(&s->field, v->grid, cell);
		ai_count_flood(ai, settled, clock_us() - t0);
	}
	return mind_field_next(&s->field, v->grid, cell, NULL);
}

/*
 * A narrow place: a doorway, or a cell whose open neighbours, taken round
 * it in a circle by the short steps of the topology (the four orthogonal
 * steps of a square grid, the six of hex, the four edge steps of a
 * diamond grid), fall into two or more runs parted by walls or the map's
 * edge: walls on two sides, as in a corridor of one cell's width, a gap
 * in a wall, a crossing.  A cell beside one wall, in a room's corner or
 * at the end of a dead end has one run and is not narrow.
 */
bool mind_narrow(const struct ai_view *v, int cell)
{
	const struct grid *g = v->grid;
	if (v->tiles[cell] == TILE_DOOR)
		return true;
	/* rows of grid.h's expansion tables, in circular order */
	static const int8_t square[4] = { 0, 2, 3, 1 };    /* N E S W */
	static const int8_t hex[6] = { 1, 5, 4, 0, 2, 3 }; /* E SE SW W NW NE */
	static const int8_t diamond[4] = { 0, 2, 3, 1 };   /* NE SE SW NW */
	const int8_t *ring = g->topo == GRID_HEX        ? hex
			     : grid_is_diamond(g->topo) ? diamond
							: square;
	const int n = g->topo == GRID_HEX ? 6 : 4;
	const int x = grid_x(g, cell), y = grid_y(g, cell);
	bool open[6];
	for (int k = 0; k < n; k++) {
		int nx = x + grid_nb_dx(g->topo, y, ring[k]), ny = y + grid_nb_dy(g->topo, ring[k]);
		open[k] = grid_in_bounds(g, nx, ny) && grid_passable(g, grid_index(g, nx, ny));
	}
	int runs = 0;
	for (int k = 0; k < n; k++)
		runs += open[k] && !open[(k + n - 1) % n];
	return runs >= 2;
}
