/*
 * test_heat_render.c - sim's heat drawn for a person (heat_render.c): the
 * SVG is well-formed XML (checked by the small checker below: python3 and
 * xmllint are not guaranteed where the tests run), valid UTF-8 even from
 * a file name that is not, and holds exactly one cell element per map
 * cell; the terminal text puts the right glyph on every cell, plain or
 * coloured; the player's start and the exits are marked and named in the
 * legend; the title says what is drawn, of which games and settings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "grid.h"
#include "heat_render.h"
#include "heatmap.h"
#include "level.h"
#include "sim.h"

/* ---- a small XML well-formedness check --------------------------------- */

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
	       (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

/* An entity reference at p ("&amp;" ...): its length, or 0. */
static size_t entity(const char *p)
{
	static const char *const names[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strncmp(p, names[i], strlen(names[i])) == 0)
			return strlen(names[i]);
	return 0;
}

/*
 * Well-formed for the subset an SVG writer uses: one XML declaration,
 * elements properly nested with matching names, attributes name="value"
 * without '<' and with '&' only in entities, text likewise, valid UTF-8
 * throughout, one root element.  Counts start tags with class="K" for
 * each K in classes[].
 */
static bool xml_well_formed(const char *s, const char *const *classes, int n_classes, int *counts)
{
	for (const unsigned char *u = (const unsigned char *)s; *u;) {
		int n = sim_utf8_seq(u);
		if (n == 0)
			return false;
		u += n;
	}
	char stack[64][32];
	int depth = 0, roots = 0;
	const char *p = s;
	if (strncmp(p, "<?xml ", 6) == 0) {
		p = strstr(p, "?>");
		if (!p)
			return false;
		p += 2;
	}
	while (*p) {
		if (*p != '<') {
			if (*p == '&') {
				size_t e = entity(p);
				if (!e)
					return false;
				p += e;
			} else {
				if (depth == 0 && *p != '\n' && *p != ' ')
					return false; /* text outside the root */
				p++;
			}
			continue;
		}
		p++;
		bool closing = *p == '/';
		if (closing)
			p++;
		char name[32];
		size_t len = 0;
		if (!name_char(*p, true))
			return false;
		while (name_char(*p, false) && len < sizeof name - 1)
			name[len++] = *p++;
		name[len] = '\0';
		if (closing) {
			if (*p != '>' || depth == 0 || strcmp(stack[depth - 1], name) != 0)
				return false;
			depth--;
			p++;
			continue;
		}
		/* attributes */
		char seen[16][32];
		int n_seen = 0;
		for (;;) {
			while (*p == ' ' || *p == '\n')
				p++;
			if (*p == '>' || (*p == '/' && p[1] == '>'))
				break;
			char an[32];
			size_t al = 0;
			if (!name_char(*p, true))
				return false;
			while (name_char(*p, false) && al < sizeof an - 1)
				an[al++] = *p++;
			an[al] = '\0';
			for (int i = 0; i < n_seen; i++)
				if (strcmp(seen[i], an) == 0)
					return false; /* an attribute twice */
			if (n_seen < 16)
				strcpy(seen[n_seen++], an);
			if (*p++ != '=' || *p++ != '"')
				return false;
			const char *v = p;
			while (*p && *p != '"') {
				if (*p == '<')
					return false;
				if (*p == '&') {
					size_t e = entity(p);
					if (!e)
						return false;
					p += e;
				} else {
					p++;
				}
			}
			if (*p != '"')
				return false;
			for (int k = 0; k < n_classes; k++)
				if (strcmp(an, "class") == 0 && (size_t)(p - v) == strlen(classes[k]) &&
				    strncmp(v, classes[k], (size_t)(p - v)) == 0)
					counts[k]++;
			p++;
		}
		if (depth == 0)
			roots++;
		if (*p == '/') {
			p += 2;
			continue;
		}
		p++;
		if (depth == 64)
			return false;
		strcpy(stack[depth++], name);
	}
	return depth == 0 && roots == 1;
}

static void test_checker_itself(void **state)
{
	(void)state;
	const char *const cls[] = { "c" };
	int k[1] = { 0 };
	assert_true(xml_well_formed("<a x=\"1\"><b class=\"c\"/>t&amp;u</a>\n", cls, 1, k));
	assert_int_equal(k[0], 1);
	assert_false(xml_well_formed("<a><b></a></b>", cls, 1, k));
	assert_false(xml_well_formed("<a>x & y</a>", cls, 1, k));
	assert_false(xml_well_formed("<a x=\"<\"/>", cls, 1, k));
	assert_false(xml_well_formed("<a x=\"1\" x=\"2\"/>", cls, 1, k));
	assert_false(xml_well_formed("<a/><b/>", cls, 1, k));
	assert_false(xml_well_formed("<a>\xff</a>", cls, 1, k));
	assert_false(xml_well_formed("<a>", cls, 1, k));
}

/* ---- the pictures ------------------------------------------------------ */

/* A w x h heat from a map of '#', ' ' and '.', with counts from `digits`
 * (a digit per cell, '.' for 0). */
static void make_heat(struct sim_heat *h, int w, int hh, int topo, const char *map, const char *digits,
		      enum sim_heat_layer l)
{
	memset(h, 0, sizeof *h);
	h->w = w;
	h->h = hh;
	h->topo = topo;
	h->tiles = malloc((size_t)(w * hh));
	for (int i = 0; i < SIM_HEAT_COUNT; i++)
		h->v[i] = calloc((size_t)(w * hh), sizeof(double));
	for (int c = 0; c < w * hh; c++) {
		h->tiles[c] = map[c] == '#' ? TILE_WALL : map[c] == ' ' ? TILE_VOID : map[c] == '>' ? TILE_EXIT : TILE_FLOOR;
		h->v[l][c] = digits[c] >= '0' && digits[c] <= '9' ? digits[c] - '0' : 0;
	}
}

static char *svg_start(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		       const char *title, int start)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_svg(f, a, b, l, title, start, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *svg_of(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		    const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_svg(f, a, b, l, title, -1, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void check_svg(const char *svg, int cells, int walls, int voids)
{
	const char *const cls[] = { "cell", "wall", "void" };
	int k[3] = { 0, 0, 0 };
	assert_true(xml_well_formed(svg, cls, 3, k));
	assert_int_equal(k[0], cells);
	assert_int_equal(k[1], walls);
	assert_int_equal(k[2], voids);
	assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_non_null(strstr(svg, "id=\"legend\""));
}

static void test_svg_square(void **state)
{
	(void)state;
	struct sim_heat h;
	const char *map = "######...######", *digits = "......139......";
	make_heat(&h, 5, 3, GRID_SQUARE8, map, digits, SIM_HEAT_OCCUPANCY);
	/* A title with markup, a quote and bytes that are not UTF-8. */
	char *svg = svg_of(&h, NULL, SIM_HEAT_OCCUPANCY, "a&b <c> \"d\" \xff\xfe caf\xc3\xa9");
	check_svg(svg, 3, 12, 0);
	assert_non_null(strstr(svg, "a&amp;b &lt;c&gt; &quot;d&quot; \xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9"));
	/* The counts are in the cells' titles, the largest at the scale's end. */
	assert_non_null(strstr(svg, "<title>1,1: 1</title>"));
	assert_non_null(strstr(svg, "<title>3,1: 9</title>"));
	assert_non_null(strstr(svg, ">9</text>"));
	assert_null(strstr(svg, "nothing counted"));
	free(svg);
	/* Another layer of the same heat is all zeros: still one element a
	 * cell, and the legend says there is nothing rather than 0 to 0. */
	svg = svg_of(&h, NULL, SIM_HEAT_DEATHS, "t");
	check_svg(svg, 3, 12, 0);
	assert_non_null(strstr(svg, ">nothing counted: every cell is 0 on this layer</text>"));
	free(svg);
	sim_heat_fini(&h);
	/* An exit is outlined (still one element) and named in its tooltip;
	 * a title of two lines is two text elements, both before the map. */
	make_heat(&h, 5, 3, GRID_SQUARE4, "######..>######", "......13.......", SIM_HEAT_OCCUPANCY);
	svg = svg_of(&h, NULL, SIM_HEAT_OCCUPANCY, "L.lvl: occupancy\nA: goblin.sight=3  B: <x>");
	check_svg(svg, 3, 12, 0);
	assert_non_null(strstr(svg, "stroke=\"#000000\" stroke-width=\"1.5\"><title>3,1 (exit): 0</title>"));
	assert_non_null(strstr(svg, ">exit</text>"));
	const char *l1 = strstr(svg, ">L.lvl: occupancy</text>"), *l2 = strstr(svg, ">A: goblin.sight=3  B: &lt;x&gt;</text>");
	assert_non_null(l1);
	assert_non_null(l2);
	assert_true(l1 < l2 && l2 < strstr(svg, "id=\"cells\""));
	free(svg);
	sim_heat_fini(&h);
}

static void test_svg_hex_and_diff(void **state)
{
	(void)state;
	struct sim_heat a, b;
	/* hex, 4 x 2, with a void cell */
	make_heat(&a, 4, 2, GRID_HEX, "#.. #..#", ".12..3..", SIM_HEAT_BLOCKED);
	make_heat(&b, 4, 2, GRID_HEX, "#.. #..#", ".31..3..", SIM_HEAT_BLOCKED);
	char *svg = svg_of(&a, NULL, SIM_HEAT_BLOCKED, "hex");
	check_svg(svg, 4, 3, 1);
	int polygons = 0;
	for (const char *q = svg; (q = strstr(q, "<polygon")) != NULL; q++)
		polygons++;
	assert_int_equal(polygons, 8); /* every cell a hexagon */
	free(svg);
	/* B - A: +2 at (1,0), -1 at (2,0), 0 elsewhere; signed labels. */
	svg = svg_of(&a, &b, SIM_HEAT_BLOCKED, "diff");
	check_svg(svg, 4, 3, 1);
	assert_non_null(strstr(svg, "<title>1,0: +2</title>"));
	assert_non_null(strstr(svg, "<title>2,0: -1</title>"));
	assert_non_null(strstr(svg, "B minus A"));
	assert_null(strstr(svg, "no difference"));
	free(svg);
	/* B equal to A: a picture of no difference, said in words. */
	svg = svg_of(&a, &a, SIM_HEAT_BLOCKED, "same");
	check_svg(svg, 4, 3, 1);
	assert_non_null(strstr(svg, ">no difference: every cell counts the same under A and B</text>"));
	assert_null(strstr(svg, ">+0</text>"));
	free(svg);
	/* A size mismatch or an empty heat is refused. */
	struct sim_heat empty = { 0 };
	FILE *f = fopen("/dev/null", "w");
	assert_int_equal(heat_render_svg(f, &empty, NULL, SIM_HEAT_OCCUPANCY, "x", -1, NULL), -1);
	struct sim_heat c;
	make_heat(&c, 2, 2, GRID_HEX, "....", "....", SIM_HEAT_BLOCKED);
	assert_int_equal(heat_render_svg(f, &a, &c, SIM_HEAT_OCCUPANCY, "x", -1, NULL), -1);
	fclose(f);
	sim_heat_fini(&a);
	sim_heat_fini(&b);
	sim_heat_fini(&c);
}

static char *text_start(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l, bool color,
			int start)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_text(f, a, b, l, color, start, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *text_of(const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l, bool color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_text(f, a, b, l, color, -1, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_text(void **state)
{
	(void)state;
	struct sim_heat a, b;
	/* Counts 0, 1, 9 on a log scale to 9: '.', '3' (log 2 / log 10 of 9
	 * ninths, rounded up), '9'. */
	make_heat(&a, 5, 3, GRID_SQUARE4, "######...######", "......019......", SIM_HEAT_CONTACT);
	char *t = text_of(&a, NULL, SIM_HEAT_CONTACT, false);
	assert_true(strncmp(t, "#####\n#.39#\n#####\n", 18) == 0);
	assert_null(strchr(t, '\033'));
	free(t);
	t = text_of(&a, NULL, SIM_HEAT_CONTACT, true);
	assert_non_null(strstr(t, "\033[48;2;"));
	free(t);
	/* Hex rows at doubled columns; B - A with letters where A is higher. */
	make_heat(&b, 5, 3, GRID_SQUARE4, "######...######", "......910......", SIM_HEAT_CONTACT);
	t = text_of(&a, &b, SIM_HEAT_CONTACT, false);
	assert_true(strncmp(t, "#####\n#9.i#\n#####\n", 18) == 0);
	/* The legend fits 80 columns even with the longest layer label. */
	for (const char *line = t; *line; line = strchr(line, '\n') + 1)
		assert_true(strcspn(line, "\n") <= 80);
	free(t);
	t = text_of(&a, &b, SIM_HEAT_BLOCKED, false);
	for (const char *line = t; *line; line = strchr(line, '\n') + 1)
		assert_true(strcspn(line, "\n") <= 80);
	free(t);
	/* All zero: the legend line says so. */
	t = text_of(&a, NULL, SIM_HEAT_DEATHS, false);
	assert_non_null(strstr(t, "#...#\n"));
	assert_non_null(strstr(t, "nothing counted on any cell"));
	free(t);
	t = text_of(&a, &a, SIM_HEAT_CONTACT, true);
	assert_non_null(strstr(t, "B minus A, player's cell at first contact:\n  no difference on any cell (all .); # wall\n"));
	assert_null(strchr(t, '\033'));
	free(t);
	sim_heat_fini(&a);
	sim_heat_fini(&b);
	make_heat(&a, 3, 2, GRID_HEX, "#.##.#", ".9..9.", SIM_HEAT_CONTACT);
	t = text_of(&a, NULL, SIM_HEAT_CONTACT, false);
	assert_true(strncmp(t, "# 9 #\n # 9 #\n", 13) == 0);
	free(t);
	sim_heat_fini(&a);
}

/* The player's start is ringed (SVG) or '@' (text), exits '>' in text;
 * the legend names each mark only when the map has it. */
static void test_marks(void **state)
{
	(void)state;
	struct sim_heat h;
	make_heat(&h, 5, 3, GRID_SQUARE8, "######..>######", "......19.......", SIM_HEAT_OCCUPANCY);
	char *svg = svg_start(&h, NULL, SIM_HEAT_OCCUPANCY, "t", 6);
	check_svg(svg, 3, 12, 0); /* still one element a cell: the ring is no cell */
	const char *ring = strstr(svg, "<circle id=\"start\" class=\"start\"");
	assert_non_null(ring);
	assert_true(ring > strstr(svg, "<title>3,1 (exit)")); /* on top of every cell */
	assert_non_null(strstr(svg, "<title>1,1 (player start): 1</title>"));
	assert_non_null(strstr(svg, ">player start</text>"));
	assert_non_null(strstr(svg, ">exit</text>"));
	assert_non_null(strstr(svg, ">wall</text>"));
	free(svg);
	svg = svg_of(&h, NULL, SIM_HEAT_OCCUPANCY, "t"); /* no start: no ring, no legend entry */
	assert_null(strstr(svg, "<circle"));
	assert_null(strstr(svg, "player start"));
	free(svg);
	char *t = text_start(&h, NULL, SIM_HEAT_OCCUPANCY, false, 6);
	assert_true(strncmp(t, "#####\n#@9>#\n#####\n", 18) == 0);
	assert_non_null(strstr(t, "\n  @ the player's start, > exit (drawn instead of the cell's count)\n"));
	free(t);
	/* In colour the mark keeps its count's tint. */
	t = text_start(&h, NULL, SIM_HEAT_OCCUPANCY, true, 6);
	assert_non_null(strstr(t, "m\033[30m@\033[0m"));
	free(t);
	sim_heat_fini(&h);
	make_heat(&h, 5, 3, GRID_SQUARE8, "######...######", "......19.......", SIM_HEAT_OCCUPANCY);
	t = text_start(&h, NULL, SIM_HEAT_OCCUPANCY, false, -1);
	assert_null(strstr(t, "player's start"));
	assert_null(strchr(t, '>'));
	free(t);
	sim_heat_fini(&h);
}

/* Water, rubble, doors and bedrock are drawn over their count, and each
 * monster's start carries its letter; the legend names only what the map
 * has.  Text shows the terrain where nothing was counted. */
static void test_terrain_and_monsters(void **state)
{
	(void)state;
	struct sim_heat h;
	make_heat(&h, 6, 3, GRID_SQUARE8, "#######....#######", ".......1..........", SIM_HEAT_OCCUPANCY);
	h.tiles[8] = TILE_WATER;
	h.tiles[9] = TILE_RUBBLE;
	h.tiles[10] = TILE_DOOR;
	h.tiles[0] = TILE_BEDROCK;
	char mons[18] = { 0 };
	mons[7] = 'g';
	mons[8] = '<'; /* markup in a glyph is escaped */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_svg(f, &h, NULL, SIM_HEAT_OCCUPANCY, "t", -1, mons), 0);
	assert_int_equal(fclose(f), 0);
	check_svg(buf, 4, 14, 0); /* the marks are no cells */
	assert_non_null(strstr(buf, "class=\"terrain\" fill=\"url(#t-water)\""));
	assert_non_null(strstr(buf, "class=\"terrain\" fill=\"url(#t-rubble)\""));
	assert_non_null(strstr(buf, "<pattern id=\"t-water\""));
	assert_non_null(strstr(buf, "stroke=\"#7a4a12\"")); /* the door */
	assert_non_null(strstr(buf, "<title>1,1: a monster starts here (g)</title>g</text>"));
	assert_non_null(strstr(buf, "(&lt;)</title>&lt;</text>"));
	assert_non_null(strstr(buf, "fill=\"#111111\"/>")); /* bedrock, darker than a wall */
	static const char *const names[] = { ">water</text>", ">rubble</text>", ">door</text>", ">permanent wall</text>",
					     ">a monster's start (its kind's letter)</text>" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_non_null(strstr(buf, names[i]));
	assert_true(strstr(buf, "id=\"marks\"") > strstr(buf, "id=\"cells\""));
	free(buf);
	/* A plain map has none of it. */
	buf = svg_of(&h, NULL, SIM_HEAT_DEATHS, "t");
	assert_null(strstr(buf, "a monster starts"));
	free(buf);
	struct sim_heat plain;
	make_heat(&plain, 5, 3, GRID_SQUARE8, "######...######", "......19.......", SIM_HEAT_OCCUPANCY);
	buf = svg_of(&plain, NULL, SIM_HEAT_OCCUPANCY, "t");
	assert_null(strstr(buf, "water"));
	assert_null(strstr(buf, "id=\"marks\""));
	free(buf);
	sim_heat_fini(&plain);
	/* Text: the letter replaces the count, terrain shows where it is 0. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_text(f, &h, NULL, SIM_HEAT_OCCUPANCY, false, -1, mons), 0);
	assert_int_equal(fclose(f), 0);
	assert_true(strncmp(buf, "%#####\n#g<,+#\n######\n", 21) == 0);
	assert_non_null(strstr(buf, "a letter: a monster's start"));
	assert_non_null(strstr(buf, "terrain where nothing was counted: ~ shallow water, , rubble, + door, % permanent wall\n"));
	free(buf);
	sim_heat_fini(&h);
}

/* Two lines: what is drawn and of which games; then the player and the
 * settings of each side. */
static void test_title(void **state)
{
	(void)state;
	struct heatmap_run r;
	memset(&r, 0, sizeof r);
	snprintf(r.level, sizeof r.level, "levels/x.lvl");
	r.games = 1;
	r.seed = 7;
	snprintf(r.player, sizeof r.player, "exit");
	snprintf(r.settings[0], sizeof r.settings[0], "goblin.sight=3");
	char t[3400];
	heat_render_title(t, sizeof t, &r, SIM_HEAT_DEATHS);
	assert_string_equal(t, "levels/x.lvl: deaths, 1 game, seed 7\nplayer exit; settings: goblin.sight=3");
	r.games = 40;
	r.chase = true;
	r.compare = true;
	snprintf(r.settings[1], sizeof r.settings[1], "goblin.sight=9");
	heat_render_title(t, sizeof t, &r, SIM_HEAT_OCCUPANCY);
	assert_string_equal(t, "levels/x.lvl: occupancy, 40 games, seed 7, B minus A\n"
			       "player exit, --chase; A = goblin.sight=3; B = goblin.sight=9");
	/* A buffer too small is cut, never overrun. */
	char small[16];
	heat_render_title(small, sizeof small, &r, SIM_HEAT_OCCUPANCY);
	assert_int_equal(strlen(small), sizeof small - 1);
}


/* A map of more than 40,000 cells is drawn in blocks: at most 40,000
 * elements, each block counting the sum of its cells, a wall where most
 * of its cells are walls and nothing was counted, the exit's block
 * outlined, the start's ringed, and the title saying what a block is;
 * the text the same, a character a block. */
static void test_large_map_in_blocks(void **state)
{
	(void)state;
	const int w = 300, h = 200; /* 60,000 cells: blocks of 2 x 2 */
	char *map = malloc((size_t)(w * h)), *digits = malloc((size_t)(w * h));
	assert_non_null(map);
	assert_non_null(digits);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			/* walls in the left half's even columns' 2x2 blocks of
			 * columns 0-99; floor elsewhere; one count per row */
			map[y * w + x] = x < 100 && (x / 2) % 2 == 0 ? '#' : '.';
			digits[y * w + x] = x == 150 ? '3' : '.';
		}
	map[7 * w + 201] = '>';
	struct sim_heat a;
	make_heat(&a, w, h, GRID_SQUARE8, map, digits, SIM_HEAT_OCCUPANCY);
	char *svg = svg_start(&a, NULL, SIM_HEAT_OCCUPANCY, "big", 5 * w + 3);
	const char *const cls[] = { "cell", "wall", "void" };
	int k[3] = { 0, 0, 0 };
	assert_true(xml_well_formed(svg, cls, 3, k));
	/* 150 x 100 blocks: of the 50 block columns left of x 100, 25 are walls */
	assert_int_equal(k[0] + k[1] + k[2], 150 * 100);
	assert_int_equal(k[1], 25 * 100);
	assert_int_equal(k[2], 0);
	assert_non_null(strstr(svg, "each square: 2 x 2 cells of the 300x200 map, counting their sum"));
	/* the column of 3s: each block of it holds two cells, 6 */
	assert_non_null(strstr(svg, "<title>150-151,0-1: 6</title>"));
	assert_non_null(strstr(svg, "<title>200-201,6-7 (exit): 0</title>"));
	assert_non_null(strstr(svg, "<title>2-3,4-5 (player start's block): 0</title>"));
	free(svg);
	/* the text: 100 rows of 150 characters, under a line saying so */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heat_render_text(f, &a, NULL, SIM_HEAT_OCCUPANCY, false, 5 * w + 3, NULL), 0);
	assert_int_equal(fclose(f), 0);
	assert_true(strncmp(buf, "each character: 2 x 2 cells of the 300x200 map, counting their sum\n", 66) == 0);
	const char *row = strchr(buf, '\n') + 1;
	assert_int_equal((int)strcspn(row, "\n"), 150);
	assert_true(strncmp(row, "#.#.", 4) == 0);
	assert_int_equal(row[75], '9'); /* the largest count: the top of the scale */
	free(buf);
	sim_heat_fini(&a);
	free(map);
	free(digits);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_itself),
		cmocka_unit_test(test_svg_square),
		cmocka_unit_test(test_svg_hex_and_diff),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_terrain_and_monsters),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_large_map_in_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
