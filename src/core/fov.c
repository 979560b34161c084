/*
 * fov.c - line of sight and field of view on square, hex and diamond grids.
 *
 * One rule serves both the player's view and a monster's sight check, so
 * "the player sees the monster" and "the monster sees the player" can never
 * disagree: b is in view from a when their distance is within the radius
 * and the straight segment between the two cell centres, sampled once per
 * step (at every integer of the major axis on square maps, at every 1/N of
 * the way on hex maps, N the hex distance; a diamond map is sampled as the
 * square map it is turned from, in u = (X + Y) / 2, v = (Y - X) / 2),
 * meets no sight-blocking cell
 * strictly between them.  A sample that falls exactly on the border of two
 * cells is blocked only when both are.  The samples of a->b and b->a are the
 * same points, computed from the same integers, and the border rule does
 * not depend on direction: the view is symmetric by construction.  The end
 * cells themselves are not tested, so walls and closed doors at the edge of
 * the view are seen.
 *
 * fov_line_cells lists those same samples, for what travels along a line
 * (a shot stops at the first sample with no clear cell).
 *
 * fov_compute tests every cell of the radius' bounding box: O(r^3) steps,
 * a few thousand for the player's radius, no allocation and no state.
 * It then adds the walls of what is seen (fov_wall_seen): a wall or closed
 * door touching a clear cell in view is seen, as in Brogue CE and DCSS,
 * so the far end of a room's wall shows with its floor, not one cell a
 * step.  Clear cells - where anyone can stand - are in view by the
 * symmetric line alone, so who sees whom stays symmetric.
 * It knows nothing of games: opacity comes in as an array.
 */
#include "fov.h"

#include <math.h>
#include <stdlib.h>

static bool opaque_at(const struct grid *g, const uint8_t *opaque, int x, int y)
{
	return !grid_in_bounds(g, x, y) || opaque[grid_index(g, x, y)] != 0;
}

/* A cell of a diamond map in its square coordinates (u, v): X = u - v,
 * Y = u + v, and X - (Y & 1) is even. */
static bool opaque_uv(const struct grid *g, const uint8_t *opaque, int u, int v)
{
	const int X = u - v, Y = u + v;
	if (Y < 0 || X < 0)
		return true;
	return opaque_at(g, opaque, (X - (Y & 1)) / 2, Y);
}

/* A cell's opacity at square-sampling coordinates: the cell itself on
 * square maps, (u, v) on diamond maps. */
static bool opaque_sq(const struct grid *g, const uint8_t *opaque, int x, int y)
{
	return grid_is_diamond(g->topo) ? opaque_uv(g, opaque, x, y) : opaque_at(g, opaque, x, y);
}

/* Floor division with a non-negative remainder (d > 0). */
static void floordiv(long n, long d, long *q, long *r)
{
	long qq = n / d, rr = n % d;
	if (rr < 0) {
		rr += d;
		qq -= 1;
	}
	*q = qq;
	*r = rr;
}

/*
 * The samples of a square line from (ax, ay) to (bx, by), n the larger of
 * |dx| and |dy|: sample i (0 < i < n) lies at major coordinate a + i and
 * minor coordinate minor_origin + (minor_delta * i) / n.  It falls in the
 * cell (x1, y1) (returns 1), or on the border of (x1, y1) and the next cell
 * on the minor axis, (x2, y2) (returns 2).  fov_line_of_sight and
 * fov_line_cells both read the line here, so they cannot disagree.
 */
struct square_line {
	int ax, ay, n;
	bool x_major;
	int major_sign, minor_delta, minor_origin;
};

static inline void square_line_init(struct square_line *l, int ax, int ay, int bx, int by)
{
	int dx = bx - ax, dy = by - ay;
	int adx = abs(dx), ady = abs(dy);
	l->ax = ax;
	l->ay = ay;
	l->n = adx > ady ? adx : ady;
	l->x_major = adx >= ady;
	l->major_sign = l->x_major ? (dx > 0 ? 1 : -1) : (dy > 0 ? 1 : -1);
	l->minor_delta = l->x_major ? dy : dx;
	l->minor_origin = l->x_major ? ay : ax;
}

static inline int square_line_sample(const struct square_line *l, int i, int *x1, int *y1, int *x2, int *y2)
{
	long q, r;
	floordiv((long)l->minor_delta * i, l->n, &q, &r);
	int major = (l->x_major ? l->ax : l->ay) + l->major_sign * i;
	int lo = l->minor_origin + (int)q;
	int hi = 2 * r > l->n ? lo + 1 : lo; /* past the middle: the next cell */
	*x1 = l->x_major ? major : hi;
	*y1 = l->x_major ? hi : major;
	if (2 * r != l->n)
		return 1;
	*x2 = l->x_major ? major : lo + 1;
	*y2 = l->x_major ? lo + 1 : major;
	return 2;
}

static bool square_clear(const struct grid *g, const uint8_t *opaque, int ax, int ay, int bx, int by)
{
	struct square_line l;
	square_line_init(&l, ax, ay, bx, by);
	for (int i = 1; i < l.n; i++) {
		int x1, y1, x2 = 0, y2 = 0;
		if (square_line_sample(&l, i, &x1, &y1, &x2, &y2) == 1) {
			if (opaque_sq(g, opaque, x1, y1))
				return false;
		} else if (opaque_sq(g, opaque, x1, y1) && opaque_sq(g, opaque, x2, y2)) {
			return false;
		}
	}
	return true;
}

/* Odd-r offset <-> cube coordinates (q + r + s = 0). */
static void hex_to_cube(int x, int y, long *q, long *r)
{
	*q = x - (y - (y & 1)) / 2;
	*r = y;
}

static void cube_to_hex(long q, long r, int *x, int *y)
{
	*y = (int)r;
	*x = (int)(q + (r - (r & 1)) / 2);
}

/* Rounds the fractional cube point (fq, fr, fs) to the cell that holds it. */
static void cube_round(double fq, double fr, double fs, long *q, long *r)
{
	double rq = (double)lround(fq), rr = (double)lround(fr), rs = (double)lround(fs);
	double eq = rq > fq ? rq - fq : fq - rq;
	double er = rr > fr ? rr - fr : fr - rr;
	double es = rs > fs ? rs - fs : fs - rs;
	if (eq > er && eq > es)
		rq = -rr - rs;
	else if (er > es)
		rr = -rq - rs;
	*q = (long)rq;
	*r = (long)rr;
}

/* Sample i (0 < i < n) of the hex line from a to b (cube coordinates
 * aq, ar, deltas dq, dr): the cell it falls in (returns 1), or the two
 * cells whose border it lies on (returns 2). */
static inline int hex_line_sample(long aq, long ar, long dq, long dr, int n, int i, int *x1, int *y1, int *x2,
				  int *y2)
{
	/* The nudge separates a sample lying on a border into the two cells it
	 * touches; +e and -e are the same pair whichever way the line runs. */
	const double e = 1e-6;
	/* numerators over n: exact integers, equal from both ends */
	long nq = aq * n + dq * i, nr = ar * n + dr * i;
	double fq = (double)nq / n, fr = (double)nr / n, fs = -fq - fr;
	long q1, r1, q2, r2;
	cube_round(fq + e, fr + 2 * e, fs - 3 * e, &q1, &r1);
	cube_round(fq - e, fr - 2 * e, fs + 3 * e, &q2, &r2);
	cube_to_hex(q1, r1, x1, y1);
	if (q1 == q2 && r1 == r2)
		return 1;
	cube_to_hex(q2, r2, x2, y2);
	return 2;
}

static bool hex_clear(const struct grid *g, const uint8_t *opaque, int ax, int ay, int bx, int by, int n)
{
	long aq, ar, bq, br;
	hex_to_cube(ax, ay, &aq, &ar);
	hex_to_cube(bx, by, &bq, &br);
	for (int i = 1; i < n; i++) {
		int x1, y1, x2 = 0, y2 = 0;
		int k = hex_line_sample(aq, ar, bq - aq, br - ar, n, i, &x1, &y1, &x2, &y2);
		bool b1 = opaque_at(g, opaque, x1, y1);
		if (k == 1) {
			if (b1)
				return false;
		} else if (b1 && opaque_at(g, opaque, x2, y2)) {
			return false;
		}
	}
	return true;
}

bool fov_line_of_sight(const struct grid *g, const uint8_t *opaque, int ax, int ay, int bx, int by,
		       int radius)
{
	if (radius < 0 || !grid_in_bounds(g, ax, ay) || !grid_in_bounds(g, bx, by))
		return false;
	/* a cheap box test before the exact distance (a diamond's corner step
	 * moves two rows) */
	const int rows = grid_is_diamond(g->topo) ? 2 * radius : radius;
	if (abs(bx - ax) > radius + 1 || abs(by - ay) > rows)
		return false;
	int n = grid_step_distance_xy(g, ax, ay, bx, by);
	if (n > radius)
		return false;
	if (g->topo == GRID_HEX)
		return hex_clear(g, opaque, ax, ay, bx, by, n);
	if (grid_is_diamond(g->topo)) {
		/* the square map it is turned from */
		const int aX = 2 * ax + (ay & 1), bX = 2 * bx + (by & 1);
		return square_clear(g, opaque, (aX + ay) / 2, (ay - aX) / 2, (bX + by) / 2, (by - bX) / 2);
	}
	return square_clear(g, opaque, ax, ay, bx, by);
}

/* The cell at square-sampling coordinates (the cell itself on square
 * maps, (u, v) on diamond maps), or -1 outside the map. */
static int cell_sq(const struct grid *g, int x, int y)
{
	if (grid_is_diamond(g->topo)) {
		const int X = x - y, Y = x + y;
		if (Y < 0 || X < 0)
			return -1;
		x = (X - (Y & 1)) / 2;
		y = Y;
	}
	return grid_in_bounds(g, x, y) ? grid_index(g, x, y) : -1;
}

static int cell_at(const struct grid *g, int x, int y)
{
	return grid_in_bounds(g, x, y) ? grid_index(g, x, y) : -1;
}

int fov_line_cells(const struct grid *g, int ax, int ay, int bx, int by, struct fov_sample *out, int cap)
{
	if (!grid_in_bounds(g, ax, ay) || !grid_in_bounds(g, bx, by))
		return -1;
	int count = 0;
	if (g->topo == GRID_HEX) {
		int n = grid_step_distance_xy(g, ax, ay, bx, by);
		long aq, ar, bq, br;
		hex_to_cube(ax, ay, &aq, &ar);
		hex_to_cube(bx, by, &bq, &br);
		for (int i = 1; i < n; i++, count++) {
			int x1, y1, x2 = 0, y2 = 0;
			int k = hex_line_sample(aq, ar, bq - aq, br - ar, n, i, &x1, &y1, &x2, &y2);
			if (count < cap)
				out[count] = (struct fov_sample){ { cell_at(g, x1, y1), k == 2 ? cell_at(g, x2, y2) : -1 },
								 k };
		}
		return count;
	}
	if (grid_is_diamond(g->topo)) {
		/* the square map it is turned from, as fov_line_of_sight */
		const int aX = 2 * ax + (ay & 1), bX = 2 * bx + (by & 1);
		int au = (aX + ay) / 2, av = (ay - aX) / 2, bu = (bX + by) / 2, bv = (by - bX) / 2;
		ax = au;
		ay = av;
		bx = bu;
		by = bv;
	}
	struct square_line l;
	square_line_init(&l, ax, ay, bx, by);
	for (int i = 1; i < l.n; i++, count++) {
		int x1, y1, x2 = 0, y2 = 0;
		int k = square_line_sample(&l, i, &x1, &y1, &x2, &y2);
		if (count < cap)
			out[count] = (struct fov_sample){ { cell_sq(g, x1, y1), k == 2 ? cell_sq(g, x2, y2) : -1 }, k };
	}
	return count;
}

/* The neighbours a wall is seen from: every cell that touches it on the
 * screen, so the grid's moves do not matter (square4 as square8, diamond4
 * as diamond8). */
static enum grid_topology touch_topology(enum grid_topology t)
{
	return t == GRID_SQUARE4 ? GRID_SQUARE8 : t == GRID_DIAMOND4 ? GRID_DIAMOND8 : t;
}

bool fov_wall_seen(const struct grid *g, const uint8_t *opaque, const uint8_t *visible, int x, int y)
{
	if (!grid_in_bounds(g, x, y) || !opaque[grid_index(g, x, y)])
		return false;
	const enum grid_topology t = touch_topology(g->topo);
	const int n = grid_dir_count(t);
	for (int i = 0; i < n; i++) {
		const int nx = x + grid_nb_dx(t, y, i), ny = y + grid_nb_dy(t, i);
		if (!grid_in_bounds(g, nx, ny))
			continue;
		const int c = grid_index(g, nx, ny);
		if (visible[c] && !opaque[c])
			return true;
	}
	return false;
}

void fov_compute(const struct grid *g, const uint8_t *opaque, int ox, int oy, int radius,
		 uint8_t *visible)
{
	if (radius < 0 || !grid_in_bounds(g, ox, oy))
		return;
	const int rows = grid_is_diamond(g->topo) ? 2 * radius : radius;
	int x0 = ox - radius - 1, x1 = ox + radius + 1, y0 = oy - rows, y1 = oy + rows;
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 >= g->w)
		x1 = g->w - 1;
	if (y1 >= g->h)
		y1 = g->h - 1;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (fov_line_of_sight(g, opaque, ox, oy, x, y, radius))
				visible[grid_index(g, x, y)] = 1;
	/* The wall rule: a wall or closed door that touches a clear cell in
	 * view is seen, so a room's whole wall shows at once.  Only opaque
	 * cells are added (what the first pass marked clear decides), so
	 * whether a clear cell is in view - where a monster can stand - is
	 * still the symmetric line test alone.  The walls lie at most one
	 * step (two rows on a diamond map) outside the box. */
	const int wy = grid_is_diamond(g->topo) ? 2 : 1;
	int wx0 = x0 - 1 < 0 ? 0 : x0 - 1, wx1 = x1 + 1 >= g->w ? g->w - 1 : x1 + 1;
	int wy0 = y0 - wy < 0 ? 0 : y0 - wy, wy1 = y1 + wy >= g->h ? g->h - 1 : y1 + wy;
	for (int y = wy0; y <= wy1; y++)
		for (int x = wx0; x <= wx1; x++) {
			const int c = grid_index(g, x, y);
			if (opaque[c] && !visible[c] && fov_wall_seen(g, opaque, visible, x, y))
				visible[c] = 1; /* opaque: it cannot reveal another */
		}
}
