/*
 * editor_tools.c - the drawing tools of `astray edit`: paint one cell, a
 * line as a mover of the map's topology steps (square, hex in cube
 * coordinates, diamond in turned square ones), a rectangle (outline or
 * filled) and a flood fill, each one undo step made of editor_set_cell's
 * changes.  What a change means to the undo history is editor.c's.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdint.h>
#include <stdlib.h>

/* Runs one edit as its own undo step (inside an open group, as part of it). */
#define EDIT_BEGIN(ed, glyph)                      \
	if (!editor_glyph_ok((ed), (glyph)))        \
		return -1;                          \
	editor_begin(ed);                           \
	int changed = 0, r_;                        \
	(void)r_
#define EDIT_CELL(ed, x, y, glyph)                         \
	do {                                               \
		r_ = editor_set_cell((ed), (x), (y), (glyph)); \
		if (r_ < 0) {                              \
			editor_end(ed);                    \
			return -1;                         \
		}                                          \
		changed += r_;                             \
	} while (0)

int editor_paint(struct editor *ed, int x, int y, char glyph)
{
	EDIT_BEGIN(ed, glyph);
	EDIT_CELL(ed, x, y, glyph);
	editor_end(ed);
	return changed;
}

/* Odd-r offset to cube coordinates (q, r) and back: a hex line is a
 * straight line in cube space, rounded to the nearest cell at each step. */
static void hex_to_cube(int x, int y, int *q, int *r)
{
	*q = x - (y - (y & 1)) / 2;
	*r = y;
}

static void hex_round(double fq, double fr, int *x, int *y)
{
	double fs = -fq - fr;
	double rq = (double)(long)(fq + (fq < 0 ? -0.5 : 0.5));
	double rr = (double)(long)(fr + (fr < 0 ? -0.5 : 0.5));
	double rs = (double)(long)(fs + (fs < 0 ? -0.5 : 0.5));
	double dq = rq > fq ? rq - fq : fq - rq, dr = rr > fr ? rr - fr : fr - rr;
	double ds = rs > fs ? rs - fs : fs - rs;
	if (dq > dr && dq > ds)
		rq = -rr - rs;
	else if (dr > ds)
		rr = -rq - rs;
	int r = (int)rr;
	*x = (int)rq + (r - (r & 1)) / 2;
	*y = r;
}

/* Diamond cell (x, y), at text column X = 2x + (y & 1) and row Y = y, in
 * the turned square coordinates u = (X + Y) / 2, v = (Y - X) / 2 (X + Y
 * is always even), and back; line_cell maps a line point to its cell. */
static void cell_to_uv(int x, int y, int *u, int *v)
{
	int col = 2 * x + (y & 1);
	*u = (col + y) / 2;
	*v = (y - col) / 2;
}

static void line_cell(bool diamond, int a, int b, int *x, int *y)
{
	if (!diamond) {
		*x = a;
		*y = b;
		return;
	}
	int col = a - b, row = a + b;
	*y = row;
	*x = (col - (row & 1)) / 2;
}

int editor_line(struct editor *ed, int x0, int y0, int x1, int y1, char glyph)
{
	if (glyph == '@') {
		/* one start: it goes where the line (a drag) ends */
		if (x1 < 0 || y1 < 0 || x1 >= ed->w || y1 >= ed->h)
			return 0;
		return editor_paint(ed, x1, y1, glyph);
	}
	if (x0 < 0 || y0 < 0 || x0 >= ed->w || y0 >= ed->h)
		return 0;
	x1 = x1 < 0 ? 0 : x1 >= ed->w ? ed->w - 1 : x1;
	y1 = y1 < 0 ? 0 : y1 >= ed->h ? ed->h - 1 : y1;
	EDIT_BEGIN(ed, glyph);
	if (ed->topo == GRID_HEX) {
		int q0, r0, q1, r1;
		hex_to_cube(x0, y0, &q0, &r0);
		hex_to_cube(x1, y1, &q1, &r1);
		int dq = q1 - q0, dr = r1 - r0, ds = -dq - dr;
		int n = dq < 0 ? -dq : dq;
		if ((dr < 0 ? -dr : dr) > n)
			n = dr < 0 ? -dr : dr;
		if ((ds < 0 ? -ds : ds) > n)
			n = ds < 0 ? -ds : ds;
		for (int i = 0; i <= n; i++) {
			double t = n ? (double)i / n : 0;
			int x, y;
			/* the nudge keeps ties on one side, the same every time */
			hex_round(q0 + dq * t + 1e-6, r0 + dr * t + 2e-6, &x, &y);
			EDIT_CELL(ed, x, y, glyph);
		}
	} else {
		/*
		 * Bresenham in (a, b): the cell itself on square maps, on diamond
		 * maps u = (X + Y) / 2, v = (Y - X) / 2 of its text position (X, Y),
		 * where the diamond steps are the square ones turned 45 degrees.
		 * The 4-connected topologies add the edge-step cell of each
		 * diagonal step.
		 */
		bool dia = grid_is_diamond(ed->topo);
		bool four = ed->topo == GRID_SQUARE4 || ed->topo == GRID_DIAMOND4;
		int a0 = x0, b0 = y0, a1 = x1, b1 = y1;
		if (dia) {
			cell_to_uv(x0, y0, &a0, &b0);
			cell_to_uv(x1, y1, &a1, &b1);
		}
		int dx = a1 > a0 ? a1 - a0 : a0 - a1, sx = a0 < a1 ? 1 : -1;
		int dy = b1 > b0 ? -(b1 - b0) : -(b0 - b1), sy = b0 < b1 ? 1 : -1;
		int err = dx + dy, a = a0, b = b0, x, y;
		for (;;) {
			line_cell(dia, a, b, &x, &y);
			EDIT_CELL(ed, x, y, glyph);
			if (a == a1 && b == b1)
				break;
			int e2 = 2 * err;
			bool mx = e2 >= dy, my = e2 <= dx;
			if (mx && my && four) {
				line_cell(dia, a + sx, b, &x, &y);
				EDIT_CELL(ed, x, y, glyph);
			}
			if (mx) {
				err += dy;
				a += sx;
			}
			if (my) {
				err += dx;
				b += sy;
			}
		}
	}
	editor_end(ed);
	return changed;
}

int editor_rect(struct editor *ed, int x0, int y0, int x1, int y1, char glyph, bool filled)
{
	if (glyph == '@')
		return editor_paint(ed, x0, y0, glyph);
	EDIT_BEGIN(ed, glyph);
	int xa = x0 < x1 ? x0 : x1, xb = x0 < x1 ? x1 : x0;
	int ya = y0 < y1 ? y0 : y1, yb = y0 < y1 ? y1 : y0;
	for (int y = ya < 0 ? 0 : ya; y <= yb && y < ed->h; y++) {
		for (int x = xa < 0 ? 0 : xa; x <= xb && x < ed->w; x++) {
			if (!filled && y != ya && y != yb && x != xa && x != xb)
				continue;
			EDIT_CELL(ed, x, y, glyph);
		}
	}
	editor_end(ed);
	return changed;
}

int editor_fill(struct editor *ed, int x, int y, char glyph)
{
	if (glyph == '@')
		return editor_paint(ed, x, y, glyph);
	if (!editor_glyph_ok(ed, glyph))
		return -1;
	if (x < 0 || y < 0 || x >= ed->w || y >= ed->h)
		return 0;
	char from = ed->glyphs[y * ed->w + x];
	if (from == glyph)
		return 0;
	int cells = ed->w * ed->h;
	int *stack = malloc((size_t)cells * sizeof *stack);
	uint8_t *seen = calloc((size_t)cells, 1);
	if (!stack || !seen) {
		free(stack);
		free(seen);
		return -1;
	}
	editor_begin(ed);
	int changed = 0, top = 0;
	bool oom = false;
	stack[top++] = y * ed->w + x;
	seen[y * ed->w + x] = 1;
	while (top > 0 && !oom) {
		int c = stack[--top], cx = c % ed->w, cy = c / ed->w;
		int r = editor_set_cell(ed, cx, cy, glyph);
		if (r < 0) {
			oom = true;
			break;
		}
		changed += r;
		/* the edge neighbours: the first 4 rows of the square and
		 * diamond tables, all 6 of hex */
		int n = ed->topo == GRID_HEX ? 6 : 4;
		for (int k = 0; k < n; k++) {
			int nx = cx + grid_nb_dx(ed->topo, cy, k);
			int ny = cy + grid_nb_dy(ed->topo, k);
			if (nx < 0 || ny < 0 || nx >= ed->w || ny >= ed->h)
				continue;
			int v = ny * ed->w + nx;
			if (seen[v] || ed->glyphs[v] != from)
				continue;
			seen[v] = 1;
			stack[top++] = v;
		}
	}
	editor_end(ed);
	free(stack);
	free(seen);
	return oom ? -1 : changed;
}
