/*
 * heat_render.c - draws sim's heat for a person: one layer of struct
 * sim_heat (counts per cell, from sim.c or merged from counts files by
 * heatmap.c) as a standalone SVG picture or as text for a terminal, with
 * its title.  It owns the layout of cells on the page and the colour
 * scales; it counts nothing, reads no file and does not decide where the
 * output goes (the caller gives the stream: sim_write.c,
 * cmd_sim_report.c).
 */
#include "heat_render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grid.h"
#include "level.h"

/* The value of cell c: a's count, or b - a. */
static double value(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l, int c)
{
	return b ? b->v[l][c] - a->v[l][c] : a->v[l][c];
}

static bool is_blocked(const struct sim_heat *h, int c)
{
	return h->tiles[c] == TILE_WALL || h->tiles[c] == TILE_BEDROCK || h->tiles[c] == TILE_VOID;
}

/* The largest |value| over open cells; 0 when all are 0. */
static double scale_max(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l)
{
	double mx = 0;
	for (int c = 0; c < a->w * a->h; c++) {
		double v = fabs(value(a, b, l, c));
		if (v > mx)
			mx = v;
	}
	return mx;
}

/* Where v falls on the scale to mx: logarithmic, log(1 + |v|) / log(1 + mx),
 * signed, so that a few crowded cells do not wash out the rest. */
static double scaled(double v, double mx)
{
	if (!(mx > 0))
		return 0;
	double t = log1p(fabs(v)) / log1p(mx);
	return v < 0 ? -t : t;
}

/* The count at position t in [0, 1] of the scale to mx. */
static double unscaled(double t, double mx)
{
	return expm1(t * log1p(mx));
}

static bool check(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l)
{
	if (!a || a->w == 0 || (unsigned)l >= SIM_HEAT_COUNT)
		return false;
	return !b || (b->w == a->w && b->h == a->h);
}

/* Colour of t in [0, 1] (sequential: white, yellow, red) or [-1, 1]
 * (diverging: blue, white, red). */
static void colour(double t, bool diverging, int rgb[3])
{
	static const int white[3] = { 255, 255, 255 }, yellow[3] = { 253, 204, 76 },
			 red[3] = { 189, 0, 38 }, blue[3] = { 33, 102, 172 };
	const int *from = white, *to;
	double u;
	if (diverging) {
		to = t < 0 ? blue : red;
		u = fabs(t);
	} else if (t < 0.5) {
		to = yellow;
		u = t * 2;
	} else {
		from = yellow;
		to = red;
		u = (t - 0.5) * 2;
	}
	for (int k = 0; k < 3; k++)
		rgb[k] = (int)lround(from[k] + (to[k] - from[k]) * u);
}

void heat_render_xml_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = sim_utf8_seq(p);
		if (n == 0) {
			fputs("\xef\xbf\xbd", f);
			p++;
			continue;
		}
		if (n == 1 && *p < 0x20 && *p != '\t' && *p != '\n')
			fputs("\xef\xbf\xbd", f);
		else if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

/* Centre of cell (x, y) in pixels, s the cell width; *row the row step. */
static void centre(const struct sim_heat *h, int x, int y, double s, double *cx, double *cy)
{
	switch ((enum grid_topology)h->topo) {
	case GRID_HEX:
		*cx = (2 * x + (y & 1) + 1) * s / 2;
		*cy = s / sqrt(3.0) + y * s * sqrt(3.0) / 2;
		break;
	case GRID_SQUARE4:
	case GRID_SQUARE8:
		*cx = (x + 0.5) * s;
		*cy = (y + 0.5) * s;
		break;
	default: /* diamonds: staggered like hexes, half a cell per row */
		*cx = (2 * x + (y & 1) + 1) * s / 2;
		*cy = (y + 1) * s / 2;
		break;
	}
}

static void map_size(const struct sim_heat *h, double s, double *w, double *hh)
{
	switch ((enum grid_topology)h->topo) {
	case GRID_HEX:
		*w = (h->w + 0.5) * s;
		*hh = 2 * s / sqrt(3.0) + (h->h - 1) * s * sqrt(3.0) / 2;
		break;
	case GRID_SQUARE4:
	case GRID_SQUARE8:
		*w = h->w * s;
		*hh = h->h * s;
		break;
	default:
		*w = (h->w + 0.5) * s;
		*hh = (h->h + 1) * s / 2;
		break;
	}
}

/* One cell's shape, opened (the caller adds attributes and closes it). */
static void shape(FILE *f, const struct sim_heat *h, int x, int y, double s, double ox, double oy)
{
	double cx, cy;
	centre(h, x, y, s, &cx, &cy);
	cx += ox;
	cy += oy;
	switch ((enum grid_topology)h->topo) {
	case GRID_HEX: {
		double r = s / sqrt(3.0); /* pointy top: width s = r * sqrt 3 */
		fprintf(f, "<polygon points=\"");
		for (int k = 0; k < 6; k++) {
			double a = (60.0 * k - 90.0) * 3.14159265358979323846 / 180.0;
			fprintf(f, "%s%.2f,%.2f", k ? " " : "", cx + r * cos(a), cy + r * sin(a));
		}
		fprintf(f, "\"");
		break;
	}
	case GRID_SQUARE4:
	case GRID_SQUARE8:
		fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", cx - s / 2, cy - s / 2, s, s);
		break;
	default:
		fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\"", cx, cy - s / 2,
			cx + s / 2, cy, cx, cy + s / 2, cx - s / 2, cy);
		break;
	}
}

static void number(char *buf, size_t size, double v, bool sign)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, size, sign ? "%+.0f" : "%.0f", v);
	else
		snprintf(buf, size, sign ? "%+.3g" : "%.3g", v);
}

/* The terrain of open cells drawn over their colour: water, rubble, doors. */
static bool is_terrain(uint8_t t)
{
	return t == TILE_WATER || t == TILE_RUBBLE || t == TILE_DOOR;
}

/* Which marks the map has: terrain[t] for each tile, and monster starts. */
struct marks_seen {
	bool tile[TILE_COUNT];
	bool monsters;
};

static void marks_seen(const struct sim_heat *a, const char *monsters, struct marks_seen *m)
{
	memset(m, 0, sizeof *m);
	for (int c = 0; c < a->w * a->h; c++) {
		if (a->tiles[c] < TILE_COUNT)
			m->tile[a->tiles[c]] = true;
		m->monsters |= monsters && monsters[c];
	}
}

/* The patterns that draw water (blue waves) and rubble (brown stones)
 * over a cell's colour, sized to the cell. */
static void terrain_defs(FILE *f, double s, const struct marks_seen *m)
{
	double u = s / 2 < 3 ? 3 : s / 2, sw = s / 14 < 0.6 ? 0.6 : s / 14;
	if (m->tile[TILE_WATER])
		fprintf(f, "<pattern id=\"t-water\" patternUnits=\"userSpaceOnUse\" width=\"%.2f\" height=\"%.2f\">"
			   "<path d=\"M0,%.2f q%.2f,%.2f %.2f,0 t%.2f,0\" fill=\"none\" stroke=\"#1f5fbf\" stroke-opacity=\"0.75\" "
			   "stroke-width=\"%.2f\"/></pattern>\n",
			u, u / 1.5, u / 3, u / 4, -u / 4, u / 2, u / 2, sw);
	if (m->tile[TILE_RUBBLE])
		fprintf(f, "<pattern id=\"t-rubble\" patternUnits=\"userSpaceOnUse\" width=\"%.2f\" height=\"%.2f\">"
			   "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#6b4a1f\"/>"
			   "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#6b4a1f\"/></pattern>\n",
			u, u, u / 4, u / 4, sw * 1.6, u * 3 / 4, u * 3 / 4, sw * 1.2);
}

/* Terrain, then a monster's start, over cell (x, y) of the map at (ox, oy). */
static void cell_marks(FILE *f, const struct sim_heat *a, const char *monsters, int x, int y, double s, double ox,
		       double oy)
{
	int c = y * a->w + x;
	uint8_t t = a->tiles[c];
	double cx, cy;
	centre(a, x, y, s, &cx, &cy);
	cx += ox;
	cy += oy;
	if (t == TILE_WATER || t == TILE_RUBBLE) {
		shape(f, a, x, y, s, ox, oy);
		fprintf(f, " class=\"terrain\" fill=\"url(#t-%s)\" pointer-events=\"none\"/>\n",
			t == TILE_WATER ? "water" : "rubble");
	} else if (t == TILE_DOOR) { /* a brown door leaf across the cell */
		double d = s * 0.56;
		fprintf(f, "<rect class=\"terrain\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			   "fill=\"none\" stroke=\"#7a4a12\" stroke-width=\"%.2f\" pointer-events=\"none\"/>\n",
			cx - d / 2, cy - d / 2, d, d, s / 8 < 0.8 ? 0.8 : s / 8);
	}
	char g = monsters ? monsters[c] : 0;
	if (!g)
		return;
	if (s >= 7) {
		fprintf(f, "<text class=\"monster\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
			   "dominant-baseline=\"central\" font-size=\"%.1f\" font-weight=\"bold\" "
			   "font-family=\"monospace\" fill=\"#000000\" stroke=\"#ffffff\" stroke-width=\"%.2f\" "
			   "paint-order=\"stroke\"><title>%d,%d: a monster starts here (",
			cx, cy, s * 0.8, s / 8, x, y);
		char gs[2] = { g, 0 };
		heat_render_xml_text(f, gs);
		fputs(")</title>", f);
		heat_render_xml_text(f, gs);
		fputs("</text>\n", f);
	} else {
		fprintf(f, "<circle class=\"monster\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"#000000\"/>\n", cx,
			cy, s / 3 < 1 ? 1 : s / 3);
	}
}

/*
 * A large map drawn in blocks.  An SVG of one element per cell grows by
 * about 160 bytes a cell: 51 MB for an 800x400 map, which a viewer takes
 * many seconds to draw, and 2.6 GB for 4096x4096.  So a map of more than
 * HEAT_CELLS cells is drawn as blocks of bx x by cells (HEAT_CELLS
 * blocks at most), each a square of the picture: by rows make a block as
 * tall as bx columns are wide on the level's own layout (hex rows are
 * sqrt 3 / 2 of a column apart, diamond rows half a column).  A block
 * counts the sum of its cells' counts; it is drawn as an exit when it
 * holds one, as a wall (or void) when most of its cells are and nothing
 * was counted on it, else coloured by its count; the start's block is
 * ringed.  Terrain and monster starts are too small to
 * show and are left out; the title says what a block is.
 * heat_render_text draws such a map in the same blocks, a character each.
 */
#define HEAT_CELLS 40000L

struct blocks {
	struct sim_heat a, b; /* the blocks' heat (b only under --compare) */
	int bx, by;           /* cells of the level per block, across and down */
	int w, h;             /* the level's size in cells */
	int start;            /* the start's block, or -1 */
};

static void free_blocks(struct blocks *bl);

/* Rows per block for bx columns: a square block on the page. */
static int block_rows(int topo, int bx)
{
	const double row = topo == GRID_HEX ? sqrt(3.0) / 2
			   : topo == GRID_SQUARE4 || topo == GRID_SQUARE8 ? 1.0
			   : 0.5;
	const int by = (int)lround(bx / row);
	return by < 1 ? 1 : by;
}

/* The blocks of at most `cells` for heat a (and b), or false when a is
 * small enough as it is (or on no memory: then drawn whole). */
static bool make_blocks(const struct sim_heat *a, const struct sim_heat *b, int start, long cells,
			struct blocks *out)
{
	memset(out, 0, sizeof *out);
	if ((long)a->w * a->h <= cells)
		return false;
	int bx = 1, by = 1, w = a->w, h = a->h;
	for (;; bx++) {
		by = block_rows(a->topo, bx);
		w = (a->w + bx - 1) / bx;
		h = (a->h + by - 1) / by;
		if ((long)w * h <= cells)
			break;
	}
	const size_t n = (size_t)w * (size_t)h;
	struct sim_heat *hs[2] = { &out->a, b ? &out->b : NULL };
	const struct sim_heat *src[2] = { a, b };
	for (int k = 0; k < 2 && hs[k]; k++) {
		hs[k]->w = w;
		hs[k]->h = h;
		hs[k]->topo = GRID_SQUARE8;
		hs[k]->tiles = malloc(n);
		for (int l = 0; l < SIM_HEAT_COUNT; l++)
			hs[k]->v[l] = calloc(n, sizeof *hs[k]->v[l]);
		bool ok = hs[k]->tiles != NULL;
		for (int l = 0; l < SIM_HEAT_COUNT; l++)
			ok = ok && hs[k]->v[l];
		if (!ok) {
			sim_heat_fini(&out->a);
			sim_heat_fini(&out->b);
			return false;
		}
		for (int y = 0; y < a->h; y++)
			for (int x = 0; x < a->w; x++) {
				const int c = y * a->w + x, o = (y / by) * w + x / bx;
				for (int l = 0; l < SIM_HEAT_COUNT; l++)
					hs[k]->v[l][o] += src[k]->v[l][c];
			}
	}
	/* Each block's look: an exit when it holds one; else a wall (void)
	 * when most of its cells are walls (void) and nothing was counted on
	 * it, so the walls' shapes still show; else open, coloured. */
	int *tally = calloc(n * 3, sizeof *tally); /* open, void, wall */
	if (!tally) {
		free_blocks(out);
		return false;
	}
	memset(out->a.tiles, TILE_FLOOR, n);
	for (int y = 0; y < a->h; y++)
		for (int x = 0; x < a->w; x++) {
			const int c = y * a->w + x, o = (y / by) * w + x / bx;
			const uint8_t t = a->tiles[c];
			if (t == TILE_EXIT)
				out->a.tiles[o] = TILE_EXIT;
			tally[3 * o + (!is_blocked(a, c) ? 0 : t == TILE_VOID ? 1 : 2)]++;
		}
	for (size_t o = 0; o < n; o++) {
		if (out->a.tiles[o] == TILE_EXIT)
			continue;
		const int open = tally[3 * o], vd = tally[3 * o + 1], wall = tally[3 * o + 2];
		bool counted = false;
		for (int l = 0; l < SIM_HEAT_COUNT; l++)
			counted = counted || out->a.v[l][o] != 0 || (b && out->b.v[l][o] != 0);
		if (open == 0 || (!counted && vd + wall > open))
			out->a.tiles[o] = vd > wall ? TILE_VOID : TILE_WALL;
	}
	free(tally);
	if (b)
		memcpy(out->b.tiles, out->a.tiles, n);
	out->bx = bx;
	out->by = by;
	out->w = a->w;
	out->h = a->h;
	out->start = start >= 0 && start < a->w * a->h ? (start / a->w / by) * w + (start % a->w) / bx : -1;
	return true;
}

static void free_blocks(struct blocks *bl)
{
	sim_heat_fini(&bl->a);
	sim_heat_fini(&bl->b);
}

static int render_svg(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		      const char *title, int start, const char *monsters, const struct blocks *bl);

int heat_render_svg(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		    const char *title, int start, const char *monsters)
{
	if (!check(a, b, l))
		return -1;
	struct blocks bl;
	if (!make_blocks(a, b, start, HEAT_CELLS, &bl))
		return render_svg(f, a, b, l, title, start, monsters, NULL);
	const size_t size = strlen(title) + 200;
	char *t = malloc(size);
	if (!t) {
		free_blocks(&bl);
		return render_svg(f, a, b, l, title, start, monsters, NULL);
	}
	snprintf(t, size, "%s\neach square: %d x %d cells of the %dx%d map, counting their sum", title, bl.bx, bl.by,
		 a->w, a->h);
	const int rc = render_svg(f, &bl.a, b ? &bl.b : NULL, l, t, bl.start, NULL, &bl);
	free(t);
	free_blocks(&bl);
	return rc;
}

/* The level's cells a cell of the picture stands for, x,y or, drawn in
 * blocks (bl), x0-x1,y0-y1 of the level (w x h). */
static void cells_named(char *buf, size_t size, int x, int y, const struct blocks *bl, int w, int h)
{
	if (!bl) {
		snprintf(buf, size, "%d,%d", x, y);
		return;
	}
	const int x1 = (x + 1) * bl->bx - 1, y1 = (y + 1) * bl->by - 1;
	snprintf(buf, size, "%d-%d,%d-%d", x * bl->bx, x1 < w ? x1 : w - 1, y * bl->by, y1 < h ? y1 : h - 1);
}

static int render_svg(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		      const char *title, int start, const char *monsters, const struct blocks *bl)
{
	/* the level's size, for the names of its cells */
	const int level_w = bl ? bl->w : a->w, level_h = bl ? bl->h : a->h;
	struct marks_seen seen;
	marks_seen(a, monsters, &seen);
	bool row2 = seen.tile[TILE_WATER] || seen.tile[TILE_RUBBLE] || seen.tile[TILE_DOOR] ||
		    seen.tile[TILE_BEDROCK] || seen.monsters;
	int big = a->w > a->h ? a->w : a->h;
	double s = 960.0 / big;
	s = s > 24 ? 24 : s < 2 ? 2 : s;
	double mw, mh;
	map_size(a, s, &mw, &mh);
	/* The title's lines (split at '\n'), then the layer's meaning. */
	int lines = 1;
	for (const char *p = title; *p; p++)
		lines += *p == '\n';
	const double pad = 10, top = 40 + 16.0 * (lines - 1), legend = row2 ? 104 : 84;
	double width = mw + 2 * pad < 560 ? 560 : mw + 2 * pad, height = top + mh + legend;
	double mx = scale_max(a, b, l);
	bool div = b != NULL;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"13\">\n",
		width, height, width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	const char *line = title;
	for (int i = 0; i < lines; i++) {
		size_t n = strcspn(line, "\n");
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\"%s>", pad, 18 + 16.0 * i, i ? " font-size=\"12\"" : "");
		heat_render_xml_text(f, buf);
		fprintf(f, "</text>\n");
		line += n + (line[n] == '\n');
	}
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" fill=\"#444\">%s%s%s</text>\n", pad, top - 6,
		div ? "B minus A: " : "", sim_heat_layer_label(l), div ? " (blue: fewer under B, red: more)" : "");
	if (row2) {
		fprintf(f, "<defs>\n");
		terrain_defs(f, s, &seen);
		fprintf(f, "</defs>\n");
	}
	fprintf(f, "<g id=\"cells\" stroke=\"none\">\n");
	for (int y = 0; y < a->h; y++)
		for (int x = 0; x < a->w; x++) {
			int c = y * a->w + x;
			shape(f, a, x, y, s, pad, top);
			if (is_blocked(a, c)) {
				bool wall = a->tiles[c] != TILE_VOID;
				fprintf(f, " class=\"%s\" fill=\"%s\"/>\n", wall ? "wall" : "void",
					!wall ? "#d8d8d8" : a->tiles[c] == TILE_BEDROCK ? "#111111" : "#3a3a3a");
				continue;
			}
			double v = value(a, b, l, c);
			int rgb[3];
			colour(scaled(v, mx), div, rgb);
			char num[32];
			number(num, sizeof num, v, div);
			/* Exits are outlined so the picture reads against the level. */
			bool exit = a->tiles[c] == TILE_EXIT;
			char at[64];
			cells_named(at, sizeof at, x, y, bl, level_w, level_h);
			fprintf(f, " class=\"cell\" fill=\"#%02x%02x%02x\"%s><title>%s%s: %s</title></%s>\n", rgb[0],
				rgb[1], rgb[2], exit ? " stroke=\"#000000\" stroke-width=\"1.5\"" : "", at,
				exit ? " (exit)" : "", num, a->topo == GRID_SQUARE4 || a->topo == GRID_SQUARE8 ? "rect" : "polygon");
		}
	fprintf(f, "</g>\n");
	/* Terrain and monster starts over the colours, in a group of their own. */
	if (row2) {
		fprintf(f, "<g id=\"marks\">\n");
		for (int y = 0; y < a->h; y++)
			for (int x = 0; x < a->w; x++)
				if (is_terrain(a->tiles[y * a->w + x]) || (monsters && monsters[y * a->w + x]))
					cell_marks(f, a, monsters, x, y, s, pad, top);
		fprintf(f, "</g>\n");
	}
	/* The player's start: a ring over its cell, drawn after every cell so
	 * no neighbour covers it; at least 4 px across on a huge map. */
	if (start >= 0 && start < a->w * a->h) {
		double cx, cy, r = s * 0.32 < 4 ? 4 : s * 0.32;
		centre(a, start % a->w, start / a->w, s, &cx, &cy);
		char num[32];
		number(num, sizeof num, value(a, b, l, start), div);
		char at[64];
		cells_named(at, sizeof at, start % a->w, start / a->w, bl, level_w, level_h);
		fprintf(f, "<circle id=\"start\" class=\"start\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"none\" "
			   "stroke=\"#000000\" stroke-width=\"2\"><title>%s (player start%s): %s</title></circle>\n",
			cx + pad, cy + top, r, at, bl ? "'s block" : "", num);
	}
	/* The legend: the scale as a gradient with its ends and middle labelled. */
	double ly = top + mh + 16, lw = 300;
	fprintf(f, "<defs><linearGradient id=\"scale\">");
	for (int k = 0; k <= 10; k++) {
		double t = div ? -1 + k / 5.0 : k / 10.0;
		int rgb[3];
		colour(t, div, rgb);
		fprintf(f, "<stop offset=\"%d%%\" stop-color=\"#%02x%02x%02x\"/>", k * 10, rgb[0], rgb[1], rgb[2]);
	}
	fprintf(f, "</linearGradient></defs>\n<g id=\"legend\">\n"
		   "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"14\" fill=\"url(#scale)\" stroke=\"#666\"/>\n",
		pad, ly, lw);
	char lo[32], mid[32], hi[32];
	number(lo, sizeof lo, div ? -mx : 0, div);
	number(mid, sizeof mid, div ? 0 : floor(unscaled(0.5, mx) * 10 + 0.5) / 10, false);
	number(hi, sizeof hi, mx, div);
	if (mx > 0)
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n"
			   "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>\n",
			pad, ly + 30, lo, pad + lw / 2, ly + 30, mid, pad + lw, ly + 30, hi);
	else /* an all-zero layer: say so rather than label a scale from -0 to +0 */
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", pad, ly + 30,
			div ? "no difference: every cell counts the same under A and B"
			    : "nothing counted: every cell is 0 on this layer");
	/* Every mark, in a row of its own under the scale's labels. */
	double my = ly + 42;
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" fill=\"#444\">logarithmic scale</text>\n"
		   "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"#3a3a3a\"/>"
		   "<text x=\"%.0f\" y=\"%.0f\">wall</text>\n"
		   "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"#d8d8d8\"/>"
		   "<text x=\"%.0f\" y=\"%.0f\">void</text>\n"
		   "<rect x=\"%.0f\" y=\"%.0f\" width=\"11\" height=\"11\" fill=\"#ffffff\" stroke=\"#000000\" "
		   "stroke-width=\"1.5\"/><text x=\"%.0f\" y=\"%.0f\">exit</text>\n",
		pad + lw + 16, ly + 12, pad, my, pad + 16, my + 11, pad + 60, my, pad + 76, my + 11, pad + 120,
		my + 0.5, pad + 136, my + 11);
	if (start >= 0)
		fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\"/>"
			   "<text x=\"%.0f\" y=\"%.0f\">player start</text>\n",
			pad + 186, my + 6, pad + 196, my + 11);
	/* A second row for the terrain and the monsters the map has. */
	double mx2 = pad, my2 = my + 20;
	if (seen.tile[TILE_BEDROCK]) {
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"#111111\"/>"
			   "<text x=\"%.0f\" y=\"%.0f\">permanent wall</text>\n", mx2, my2, mx2 + 16, my2 + 11);
		mx2 += 120;
	}
	static const struct {
		int tile;
		const char *name;
	} terr[] = { { TILE_WATER, "water" }, { TILE_RUBBLE, "rubble" } };
	for (size_t i = 0; i < sizeof terr / sizeof terr[0]; i++) {
		if (!seen.tile[terr[i].tile])
			continue;
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"#ffffff\" stroke=\"#999\"/>"
			   "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"url(#t-%s)\"/>"
			   "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
			mx2, my2, mx2, my2, terr[i].name, mx2 + 16, my2 + 11, terr[i].name);
		mx2 += 70;
	}
	if (seen.tile[TILE_DOOR]) {
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"#7a4a12\" "
			   "stroke-width=\"2\"/><text x=\"%.0f\" y=\"%.0f\">door</text>\n",
			mx2 + 1.5, my2 + 1.5, mx2 + 16, my2 + 11);
		mx2 += 60;
	}
	if (seen.monsters)
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\" font-family=\"monospace\">g</text>"
			   "<text x=\"%.0f\" y=\"%.0f\">a monster's start (its kind's letter)</text>\n",
			mx2 + 2, my2 + 11, mx2 + 16, my2 + 11);
	fprintf(f, "</g>\n</svg>\n");
	return 0;
}

static int render_text(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		       bool color, int start, const char *monsters);

int heat_render_text(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		     bool color, int start, const char *monsters)
{
	if (!check(a, b, l))
		return -1;
	struct blocks bl;
	if (!make_blocks(a, b, start, HEAT_CELLS, &bl))
		return render_text(f, a, b, l, color, start, monsters);
	fprintf(f, "each character: %d x %d cells of the %dx%d map, counting their sum\n", bl.bx, bl.by, a->w, a->h);
	const int rc = render_text(f, &bl.a, b ? &bl.b : NULL, l, color, bl.start, NULL);
	free_blocks(&bl);
	return rc;
}

static int render_text(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		       bool color, int start, const char *monsters)
{
	double mx = scale_max(a, b, l);
	bool div = b != NULL, doubled = a->topo != GRID_SQUARE4 && a->topo != GRID_SQUARE8;
	for (int y = 0; y < a->h; y++) {
		int col = 0;
		for (int x = 0; x < a->w; x++) {
			int c = y * a->w + x;
			int want = doubled ? 2 * x + (y & 1) : x;
			for (; col < want; col++)
				fputc(' ', f);
			char ch;
			int rgb[3] = { 0, 0, 0 };
			bool tint = false;
			if (is_blocked(a, c)) {
				ch = a->tiles[c] == TILE_VOID ? ' ' : tile_glyph((enum tile)a->tiles[c]);
			} else {
				double v = value(a, b, l, c);
				int bin = (int)ceil(fabs(scaled(v, mx)) * 9);
				bin = bin > 9 ? 9 : bin;
				ch = bin == 0 ? '.' : div && v < 0 ? (char)('a' + bin - 1) : (char)('0' + bin);
				if (bin > 0) {
					colour(scaled(v, mx), div, rgb);
					tint = color;
				}
				/* Marks replace the count's character; the tint keeps it.
				 * Terrain shows where nothing was counted. */
				if (c == start)
					ch = '@';
				else if (a->tiles[c] == TILE_EXIT)
					ch = '>';
				else if (monsters && monsters[c])
					ch = monsters[c];
				else if (bin == 0 && is_terrain(a->tiles[c]))
					ch = tile_glyph((enum tile)a->tiles[c]);
			}
			if (tint)
				fprintf(f, "\033[48;2;%d;%d;%dm\033[30m%c\033[0m", rgb[0], rgb[1], rgb[2], ch);
			else
				fputc(ch, f);
			col++;
		}
		fputc('\n', f);
	}
	char hi[32];
	number(hi, sizeof hi, mx, false);
	if (!(mx > 0))
		fprintf(f, "%s%s:\n  %s; # wall\n", div ? "B minus A, " : "", sim_heat_layer_label(l),
			div ? "no difference on any cell (all .)" : "nothing counted on any cell (all .)");
	else if (div) /* two lines, so that the legend fits an 80-column terminal */
		fprintf(f, "B minus A, %s:\n  1..9 B higher, a..i A higher (log scale to %s); . no difference; # wall\n",
			sim_heat_layer_label(l), hi);
	else
		fprintf(f, "%s:\n  1..9 on a log scale to the largest count, %s; . none; # wall\n",
			sim_heat_layer_label(l), hi);
	struct marks_seen seen;
	marks_seen(a, monsters, &seen);
	bool exits = seen.tile[TILE_EXIT], st = start >= 0 && start < a->w * a->h;
	if (exits || st || seen.monsters)
		fprintf(f, "  %s%s%s%s%s (drawn instead of the cell's count)\n", st ? "@ the player's start" : "",
			exits && st ? ", " : "", exits ? "> exit" : "", seen.monsters && (exits || st) ? ", " : "",
			seen.monsters ? "a letter: a monster's start" : "");
	if (seen.tile[TILE_WATER] || seen.tile[TILE_RUBBLE] || seen.tile[TILE_DOOR] || seen.tile[TILE_BEDROCK]) {
		fputs("  terrain where nothing was counted:", f);
		static const int order[] = { TILE_WATER, TILE_RUBBLE, TILE_DOOR, TILE_BEDROCK };
		bool first = true;
		for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
			if (seen.tile[order[i]]) {
				fprintf(f, "%s %c %s", first ? "" : ",", tile_glyph((enum tile)order[i]),
					tile_info((enum tile)order[i])->name);
				first = false;
			}
		fputc('\n', f);
	}
	return 0;
}

void heat_render_title(char *buf, size_t size, const struct heatmap_run *run, enum sim_heat_layer l)
{
	/* the level, player and settings come from files (heat counts
	 * shards): escaped, the one line break kept */
	char raw[sizeof run->level + sizeof run->settings + sizeof run->kind + 200];
	int k = snprintf(raw, sizeof raw, "%s: %s%s%s%s, %d game%s, seed %llu%s\nplayer %s%s; ", run->level,
			 sim_heat_layer_name(l), run->kind[0] ? " of " : "", run->kind, run->kind[0] ? " only" : "",
			 run->games, run->games == 1 ? "" : "s",
			 (unsigned long long)run->seed, run->compare ? ", B minus A" : "", run->player,
			 run->chase ? ", --chase" : "");
	if (k > 0 && (size_t)k < sizeof raw)
		snprintf(raw + k, sizeof raw - (size_t)k, "%s%s%s%s", run->compare ? "A = " : "settings: ",
			 run->settings[0], run->compare ? "; B = " : "", run->compare ? run->settings[1] : "");
	cli_escape_text(buf, size, raw);
}
