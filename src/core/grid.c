/*
 * grid.c - the shape of a map: cells, neighbours, step costs, heuristics and
 * the staggered (hex, diamond) screen layout.  It knows nothing of terrain names, games, files or
 * curses: a cell is only an entering-cost multiplier (0 = blocked).  The
 * search itself lives in path.c, which may use faster inlined versions of
 * the neighbour rules here; tests hold the two to the same answers.
 */
#include "grid.h"

#include "bigmem.h"

#include <stdlib.h>
#include <string.h>

static const char *const topology_names[] = {
	[GRID_SQUARE4] = "square4",
	[GRID_SQUARE8] = "square8",
	[GRID_HEX] = "hex",
	[GRID_DIAMOND4] = "diamond4",
	[GRID_DIAMOND8] = "diamond8",
};

struct grid *grid_create(int w, int h, enum grid_topology topo)
{
	if (w <= 0 || h <= 0 || (long long)w * h > (1LL << 28))
		return NULL;
	struct grid *g = malloc(sizeof *g);
	if (!g)
		return NULL;
	g->w = w;
	g->h = h;
	g->topo = topo;
	g->row_words = (w + 63) / 64;
	g->col_words = (h + 63) / 64;
	g->cost = big_calloc((size_t)w * (size_t)h, 1);
	g->rows = calloc((size_t)h * (size_t)g->row_words, sizeof *g->rows);
	g->cols = calloc((size_t)w * (size_t)g->col_words, sizeof *g->cols);
	g->bits_of = g->cost;
	if (!g->cost || !g->rows || !g->cols) {
		grid_destroy(g);
		return NULL;
	}
	return g;
}

void grid_destroy(struct grid *g)
{
	if (!g)
		return;
	free((void *)(uintptr_t)g->bits_of);
	free(g->rows);
	free(g->cols);
	free(g);
}

void grid_set_cost(struct grid *g, int cell, uint8_t cost)
{
	((uint8_t *)(uintptr_t)g->bits_of)[cell] = cost;
	const int y = cell / g->w, x = cell - y * g->w;
	uint64_t *r = &g->rows[(size_t)y * (size_t)g->row_words + (size_t)(x >> 6)];
	uint64_t *c = &g->cols[(size_t)x * (size_t)g->col_words + (size_t)(y >> 6)];
	const uint64_t rb = 1ull << (x & 63), cb = 1ull << (y & 63);
	if (cost) {
		*r |= rb;
		*c |= cb;
	} else {
		*r &= ~rb;
		*c &= ~cb;
	}
}

void grid_fill(struct grid *g, uint8_t cost)
{
	for (int i = 0; i < g->w * g->h; i++)
		grid_set_cost(g, i, cost);
}

void grid_set_costs(struct grid *g, const uint8_t *costs)
{
	const size_t n = (size_t)g->w * (size_t)g->h;
	memcpy((void *)(uintptr_t)g->bits_of, costs, n);
	memset(g->rows, 0, (size_t)g->h * (size_t)g->row_words * sizeof *g->rows);
	memset(g->cols, 0, (size_t)g->w * (size_t)g->col_words * sizeof *g->cols);
	for (int y = 0; y < g->h; y++) {
		const uint8_t *row = costs + (size_t)y * (size_t)g->w;
		uint64_t *bits = g->rows + (size_t)y * (size_t)g->row_words;
		for (int x = 0; x < g->w; x++)
			bits[x >> 6] |= (uint64_t)(row[x] != 0) << (x & 63);
	}
	for (int x = 0; x < g->w; x++) {
		uint64_t *bits = g->cols + (size_t)x * (size_t)g->col_words;
		for (int y = 0; y < g->h; y++)
			bits[y >> 6] |= (uint64_t)(costs[(size_t)y * (size_t)g->w + (size_t)x] != 0) << (y & 63);
	}
}

const char *grid_topology_name(enum grid_topology topo)
{
	if ((unsigned)topo >= sizeof topology_names / sizeof topology_names[0])
		return "unknown";
	return topology_names[topo];
}

bool grid_topology_parse(const char *s, enum grid_topology *out)
{
	for (size_t i = 0; i < sizeof topology_names / sizeof topology_names[0]; i++) {
		if (strcmp(s, topology_names[i]) == 0) {
			*out = (enum grid_topology)i;
			return true;
		}
	}
	return false;
}

static const char *const dir_names[GRID_DIR_COUNT] = {
	"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"
};

const char *grid_dir_name(enum grid_dir d)
{
	return (unsigned)d < GRID_DIR_COUNT ? dir_names[d] : "nowhere";
}

/* Screen offsets of the eight directions, in columns and rows as drawn. */
static const int8_t screen_dx[GRID_DIR_COUNT] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int8_t screen_dy[GRID_DIR_COUNT] = { -1, -1, 0, 1, 1, 1, 0, -1 };

bool grid_dir_offset(enum grid_topology topo, enum grid_dir d, int *dcol, int *drow)
{
	if ((unsigned)d >= GRID_DIR_COUNT)
		return false;
	int dx = screen_dx[d], dy = screen_dy[d];
	switch (topo) {
	case GRID_SQUARE4:
		if (dx != 0 && dy != 0)
			return false;
		break;
	case GRID_SQUARE8:
		break;
	case GRID_HEX:
		if (dx == 0)
			return false;   /* no N or S */
		if (dy == 0)
			dx *= 2;        /* E and W are two text columns away */
		break;
	case GRID_DIAMOND4:
	case GRID_DIAMOND8:
		if (dx == 0 || dy == 0) {
			if (topo == GRID_DIAMOND4)
				return false;   /* corner steps: diamond8 only */
			dx *= 2;                /* two columns or two rows away */
			dy *= 2;
		}
		break;
	}
	*dcol = dx;
	*drow = dy;
	return true;
}

bool grid_dir_step(const struct grid *g, int x, int y, enum grid_dir d, int *nx, int *ny)
{
	int dc, dr;
	if (!grid_dir_offset(g->topo, d, &dc, &dr))
		return false;
	if (grid_is_staggered(g->topo)) {
		int col = 2 * x + (y & 1) + dc, row = y + dr;
		*nx = (col - (row & 1)) / 2;
		*ny = row;
		return true;
	}
	*nx = x + dc;
	*ny = y + dr;
	return true;
}

/* Diamond rows in expansion order; `corners` applies the corner rule to
 * passable targets, `all` keeps blocked ones (grid_adjacent). */
static int diamond_steps(const struct grid *g, int x, int y, bool all, bool corners, struct grid_step out[])
{
	int n = 0;
	for (int i = 0; i < grid_dir_count(g->topo); i++) {
		int nx = x + GRID_DIAMOND_DX[y & 1][i], ny = y + GRID_DIAMOND_DY[i];
		if (!grid_in_bounds(g, nx, ny) || (!all && !g->cost[grid_index(g, nx, ny)]))
			continue;
		if (i >= 4 && corners && !grid_diamond_flanks_open(g->cost, g->w, g->h, x, y, i))
			continue;
		out[n++] = (struct grid_step){ grid_index(g, nx, ny), i < 4 ? 1.0 : GRID_SQRT2 };
	}
	return n;
}

int grid_adjacent(const struct grid *g, int cell, struct grid_step out[])
{
	int x = grid_x(g, cell), y = grid_y(g, cell), n = 0;
	if (grid_is_diamond(g->topo))
		return diamond_steps(g, x, y, true, false, out);
	if (g->topo == GRID_HEX) {
		for (int i = 0; i < 6; i++) {
			int nx = x + GRID_HEX_DX[y & 1][i], ny = y + GRID_HEX_DY[i];
			if (grid_in_bounds(g, nx, ny))
				out[n++] = (struct grid_step){ grid_index(g, nx, ny), 1.0 };
		}
		return n;
	}
	int dirs = g->topo == GRID_SQUARE8 ? 8 : 4;
	for (int i = 0; i < dirs; i++) {
		int nx = x + GRID_SQUARE_DX[i], ny = y + GRID_SQUARE_DY[i];
		if (grid_in_bounds(g, nx, ny))
			out[n++] = (struct grid_step){ grid_index(g, nx, ny), i < 4 ? 1.0 : GRID_SQRT2 };
	}
	return n;
}

int grid_neighbours(const struct grid *g, int cell, bool corner_cutting, struct grid_step out[])
{
	int x = grid_x(g, cell), y = grid_y(g, cell), n = 0;
	if (grid_is_diamond(g->topo))
		return diamond_steps(g, x, y, false, !corner_cutting, out);
	if (g->topo == GRID_HEX) {
		for (int i = 0; i < 6; i++) {
			int nx = x + GRID_HEX_DX[y & 1][i], ny = y + GRID_HEX_DY[i];
			if (grid_in_bounds(g, nx, ny) && g->cost[grid_index(g, nx, ny)])
				out[n++] = (struct grid_step){ grid_index(g, nx, ny), 1.0 };
		}
		return n;
	}
	int dirs = g->topo == GRID_SQUARE8 ? 8 : 4;
	if (x > 0 && y > 0 && x < g->w - 1 && y < g->h - 1) {
		/* inside the border (nearly every cell of a large map, and the
		 * crowd's monsters ask for theirs every turn): the same steps in
		 * the same order, without the bounds tests */
		const int w = g->w;
		const uint8_t *c = g->cost + cell;
		const bool nn = c[-w], ww = c[-1], ee = c[1], ss = c[w];
		if (nn)
			out[n++] = (struct grid_step){ cell - w, 1.0 };
		if (ww)
			out[n++] = (struct grid_step){ cell - 1, 1.0 };
		if (ee)
			out[n++] = (struct grid_step){ cell + 1, 1.0 };
		if (ss)
			out[n++] = (struct grid_step){ cell + w, 1.0 };
		if (dirs == 4)
			return n;
		if (c[-w - 1] && (corner_cutting || (ww && nn)))
			out[n++] = (struct grid_step){ cell - w - 1, GRID_SQRT2 };
		if (c[-w + 1] && (corner_cutting || (ee && nn)))
			out[n++] = (struct grid_step){ cell - w + 1, GRID_SQRT2 };
		if (c[w - 1] && (corner_cutting || (ww && ss)))
			out[n++] = (struct grid_step){ cell + w - 1, GRID_SQRT2 };
		if (c[w + 1] && (corner_cutting || (ee && ss)))
			out[n++] = (struct grid_step){ cell + w + 1, GRID_SQRT2 };
		return n;
	}
	for (int i = 0; i < dirs; i++) {
		int nx = x + GRID_SQUARE_DX[i], ny = y + GRID_SQUARE_DY[i];
		if (!grid_in_bounds(g, nx, ny) || !g->cost[grid_index(g, nx, ny)])
			continue;
		if (i >= 4 && !corner_cutting &&
		    (!g->cost[grid_index(g, nx, y)] || !g->cost[grid_index(g, x, ny)]))
			continue;
		out[n++] = (struct grid_step){ grid_index(g, nx, ny), i < 4 ? 1.0 : GRID_SQRT2 };
	}
	return n;
}

bool grid_is_adjacent(const struct grid *g, int a, int b)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_adjacent(g, a, s);
	for (int i = 0; i < n; i++)
		if (s[i].cell == b)
			return true;
	return false;
}

static int iabs(int v) { return v < 0 ? -v : v; }

/* |du| and |dv| between two diamond cells, u = (X + Y) / 2, v = (Y - X) / 2
 * with X = 2x + (y & 1) (X + Y is always even). */
static void diamond_uv(int ax, int ay, int bx, int by, int *du, int *dv)
{
	const int dX = (2 * ax + (ay & 1)) - (2 * bx + (by & 1)), dY = ay - by;
	*du = iabs(dX + dY) / 2;
	*dv = iabs(dY - dX) / 2;
}

double grid_heuristic(const struct grid *g, int a, int b)
{
	int ax = grid_x(g, a), ay = grid_y(g, a), bx = grid_x(g, b), by = grid_y(g, b);
	switch (g->topo) {
	case GRID_DIAMOND4:
	case GRID_DIAMOND8: {
		int du, dv;
		diamond_uv(ax, ay, bx, by, &du, &dv);
		if (g->topo == GRID_DIAMOND4)
			return du + dv;
		int lo = du < dv ? du : dv, hi = du < dv ? dv : du;
		return hi + (GRID_SQRT2 - 1.0) * lo;
	}
	case GRID_SQUARE4:
		return iabs(ax - bx) + iabs(ay - by);
	case GRID_SQUARE8: {
		int dx = iabs(ax - bx), dy = iabs(ay - by);
		int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
		return hi + (GRID_SQRT2 - 1.0) * lo;
	}
	case GRID_HEX:
		break;
	}
	int dx = iabs((2 * ax + (ay & 1)) - (2 * bx + (by & 1))), dy = iabs(ay - by);
	return dy + (dx > dy ? (dx - dy) / 2 : 0);
}

int grid_step_distance(const struct grid *g, int a, int b)
{
	int ax = grid_x(g, a), ay = grid_y(g, a), bx = grid_x(g, b), by = grid_y(g, b);
	int dx = iabs(ax - bx), dy = iabs(ay - by);
	if (g->topo == GRID_SQUARE8)
		return dx > dy ? dx : dy;
	if (grid_is_diamond(g->topo)) {
		int du, dv;
		diamond_uv(ax, ay, bx, by, &du, &dv);
		return g->topo == GRID_DIAMOND4 ? du + dv : du > dv ? du : dv;
	}
	return (int)grid_heuristic(g, a, b);
}

void grid_cell_to_screen(const struct grid *g, int x, int y, int *col, int *row)
{
	*col = grid_is_staggered(g->topo) ? 2 * x + (y & 1) : x;
	*row = y;
}

int grid_screen_width(const struct grid *g)
{
	return grid_is_staggered(g->topo) ? 2 * g->w : g->w;
}

void grid_clamp(const struct grid *g, int *x, int *y)
{
	if (*x < 0)
		*x = 0;
	if (*x >= g->w)
		*x = g->w - 1;
	if (*y < 0)
		*y = 0;
	if (*y >= g->h)
		*y = g->h - 1;
}

bool grid_screen_to_cell(const struct grid *g, int col, int row, int *x, int *y)
{
	bool exact = row >= 0 && row < g->h;
	int r = row < 0 ? 0 : row >= g->h ? g->h - 1 : row;
	if (!grid_is_staggered(g->topo)) {
		int cx = col;
		exact = exact && cx >= 0 && cx < g->w;
		grid_clamp(g, &cx, &r);
		*x = cx;
		*y = r;
		return exact;
	}
	int parity = r & 1;
	int first = parity, last = 2 * (g->w - 1) + parity; /* text columns of the row's cells */
	int c = col;
	if (c < first) {
		c = first;
		exact = false;
	} else if (c > last) {
		c = last;
		exact = false;
	} else if ((c & 1) != parity) {
		c = c - 1 >= first ? c - 1 : c + 1;
		exact = false;
	}
	*x = (c - parity) / 2;
	*y = r;
	return exact;
}
