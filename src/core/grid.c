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
	/* written whole (bits_from_costs): 2 MiB each on 4096x4096, one huge page */
	g->rows = big_calloc((size_t)h * (size_t)g->row_words, sizeof *g->rows);
	g->cols = big_calloc((size_t)w * (size_t)g->col_words, sizeof *g->cols);
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
	g->bits_changes += ((*r & rb) != 0) != (cost != 0);
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

/* Bit i of the result is 1 where byte i of p[0..7] is not 0. */
static uint64_t nonzero8(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x;
	memcpy(&x, p, sizeof x);
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	/* each byte's top bit: set where the byte is not 0 */
	const uint64_t top = ((((x & low7) + low7) | x) >> 7) & 0x0101010101010101ULL;
	/* byte i's bit (at 8i) to bit 56 + i, with no carries between them */
	return (top * 0x0102040810204080ULL) >> 56;
#else
	uint64_t bits = 0;
	for (int i = 0; i < 8; i++)
		bits |= (uint64_t)(p[i] != 0) << i;
	return bits;
#endif
}

/* The 64x64 bit matrix a (bit j of a[i]: row i, column j) turned: bit j
 * of a[i] becomes bit i of a[j].  Six steps, each swapping the
 * off-diagonal blocks of every 2j x 2j block. */
static void transpose64(uint64_t a[64])
{
	uint64_t m = 0x00000000ffffffffULL;
	for (int j = 32; j != 0; j >>= 1, m ^= m << j)
		for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			const uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
			a[k] ^= t << j;
			a[k | j] ^= t;
		}
}

/*
 * The passability bits made again from bits_of, which holds every cell's
 * cost; every word written once, whole (no clear first).  A row's word is
 * eight bytes' tests at a time; the columns are the rows turned, 64 rows
 * by 64 columns at once (transpose64).  On a 4096x4096 level
 * grid_set_cost cell by cell took about 60 ms, the column bits a row
 * apart each.
 */
static void bits_from_costs(struct grid *g)
{
	g->bits_changes++;
	const uint8_t *costs = g->bits_of;
	const size_t w = (size_t)g->w;
	for (int y = 0; y < g->h; y++) {
		const uint8_t *row = costs + (size_t)y * w;
		uint64_t *bits = g->rows + (size_t)y * (size_t)g->row_words;
		for (int k = 0; k < g->row_words; k++) {
			const int x0 = k * 64, n = g->w - x0 < 64 ? g->w - x0 : 64;
			uint64_t word = 0;
			int i = 0;
			for (; i + 8 <= n; i += 8)
				word |= nonzero8(row + x0 + i) << i;
			for (; i < n; i++)
				word |= (uint64_t)(row[x0 + i] != 0) << i;
			bits[k] = word;
		}
	}
	uint64_t a[64];
	for (int k = 0; k < g->col_words; k++) {
		const int y0 = k * 64, n = g->h - y0 < 64 ? g->h - y0 : 64;
		for (int b = 0; b < g->row_words; b++) {
			for (int i = 0; i < 64; i++)
				a[i] = i < n ? g->rows[(size_t)(y0 + i) * (size_t)g->row_words + (size_t)b] : 0;
			transpose64(a);
			const int x0 = b * 64, m = g->w - x0 < 64 ? g->w - x0 : 64;
			for (int j = 0; j < m; j++)
				g->cols[(size_t)(x0 + j) * (size_t)g->col_words + (size_t)k] = a[j];
		}
	}
}

void grid_set_costs(struct grid *g, const uint8_t *costs)
{
	const size_t n = (size_t)g->w * (size_t)g->h;
	memcpy((void *)(uintptr_t)g->bits_of, costs, n);
	bits_from_costs(g);
}

void grid_set_costs_window(struct grid *g, const uint8_t *from, int from_w, int from_h, int x0, int y0)
{
	uint8_t *cost = (uint8_t *)(uintptr_t)g->bits_of;
	const int xa = x0 < 0 ? 0 : x0, xb = x0 + g->w < from_w ? x0 + g->w : from_w;
	for (int y = 0; y < g->h; y++) {
		uint8_t *row = cost + (size_t)y * (size_t)g->w;
		const int fy = y0 + y;
		if (fy < 0 || fy >= from_h || xa >= xb) {
			memset(row, 0, (size_t)g->w);
			continue;
		}
		memset(row, 0, (size_t)(xa - x0));
		memcpy(row + (xa - x0), from + (size_t)fy * (size_t)from_w + (size_t)xa, (size_t)(xb - xa));
		memset(row + (xb - x0), 0, (size_t)(x0 + g->w - xb));
	}
	bits_from_costs(g);
}

void grid_set_costs_mapped(struct grid *g, const uint8_t *from, const uint8_t map[256])
{
	const size_t n = (size_t)g->w * (size_t)g->h;
	uint8_t *cost = (uint8_t *)(uintptr_t)g->bits_of;
	for (size_t i = 0; i < n; i++)
		cost[i] = map[from[i]];
	bits_from_costs(g);
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
	return grid_heuristic_xy(g, grid_x(g, a), grid_y(g, a), grid_x(g, b), grid_y(g, b));
}

double grid_heuristic_xy(const struct grid *g, int ax, int ay, int bx, int by)
{
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
	case GRID_SQUARE8:
		return grid_square_heuristic(g->topo, ax - bx, ay - by);
	case GRID_HEX:
		break;
	}
	int dx = iabs((2 * ax + (ay & 1)) - (2 * bx + (by & 1))), dy = iabs(ay - by);
	return dy + (dx > dy ? (dx - dy) / 2 : 0);
}

int grid_step_distance(const struct grid *g, int a, int b)
{
	return grid_step_distance_xy(g, grid_x(g, a), grid_y(g, a), grid_x(g, b), grid_y(g, b));
}

int grid_step_distance_other(const struct grid *g, int ax, int ay, int bx, int by)
{
	int dx = iabs(ax - bx), dy = iabs(ay - by);
	if (g->topo == GRID_SQUARE8)
		return dx > dy ? dx : dy;
	if (grid_is_diamond(g->topo)) {
		int du, dv;
		diamond_uv(ax, ay, bx, by, &du, &dv);
		return g->topo == GRID_DIAMOND4 ? du + dv : du > dv ? du : dv;
	}
	return (int)grid_heuristic_xy(g, ax, ay, bx, by);
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
