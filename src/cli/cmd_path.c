/*
 * cmd_path.c - `astray path`: a designer's preview of one search.  It loads
 * a level, runs the same path_find the game and the monsters use, and
 * prints the map as the game draws it (hex and diamond in their doubled layout) with the
 * route, optionally the cells the search expanded, and one last line of
 * figures for scripts.  Colour is ANSI escapes (no curses), only on a
 * terminal and never with NO_COLOR set.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bestiary.h"
#include "cli.h"
#include "cmd.h"
#include "help.h"
#include "level.h"
#include "opt.h"
#include "path.h"
#include "textfile.h"

struct path_args {
	const char *level;
	int sx, sy, gx, gy;
	bool fallback, explored, corners;
	double weight;
	const char *bestiary;
};

#define ARG(field) offsetof(struct path_args, field)
static const struct opt path_opts[] = {
	{ .name = "fallback", .kind = OPT_FLAG, .offset = ARG(fallback),
	  .help = "what a click does: through walls at a penalty, the walk cut just before the first "
		  "wall; coordinates outside the map are clamped (without it they are an error)" },
	{ .name = "explored", .kind = OPT_FLAG, .offset = ARG(explored),
	  .help = "also mark every cell the search expanded" },
	{ .name = "weight", .kind = OPT_DOUBLE, .offset = ARG(weight), .metavar = "W", .lo = 0, .hi = 1000,
	  .help = "heuristic weight: 1 A* (default), above 1 weighted A*, 0 Dijkstra" },
	{ .name = "corners", .kind = OPT_FLAG, .offset = ARG(corners),
	  .help = "square8: allow diagonal steps past a wall corner" },
	{ .name = "bestiary", .kind = OPT_STRING, .offset = ARG(bestiary), .metavar = "FILE",
	  .help = "the bestiary for monster letters; by default the one beside the level, then "
		  "levels/bestiary.txt" },
};
#undef ARG

static void path_usage(FILE *out);

static const struct opt_command path_command = {
	"path", path_opts, (int)(sizeof path_opts / sizeof path_opts[0]), path_usage
};

static void path_usage(FILE *out)
{
	help_usage(out, "path",
		   (const char *const[]){ "LEVEL X,Y X,Y [--fallback] [--explored] [--weight W] [--corners] "
					  "[--bestiary FILE]", NULL });
	help_text(out, 0,
		  "\nFinds the route from the first cell to the second with the game's A* and prints the map as "
		  "the game draws it (hex and diamond maps in their doubled layout) with the route:\n"
		  "  S  the start          *  the cells between     E  where the walk ends\n"
		  "  X  the goal, when the walk does not reach it    :  a cell the search expanded\n"
		  "Cells are X,Y: column within the row and row, from 0 at the top left.");
	opt_print_help(out, &path_command);
	help_text(out, 0,
		  "\nThe last line is always exactly\n"
		  "  cost=C steps=N expanded=E reached=yes|no end=X,Y\n"
		  "with C printed as %.3f: the cost of the walk from the start to `end`, where the walk stops "
		  "(for an unreachable goal with --fallback, the cut point), N its steps and E the cells the "
		  "search expanded.  Colour only when standard output is a terminal and NO_COLOR is not set.\n"
		  "\n"
		  "exit status: 0 the figures were printed, 1 a bad level or a cell outside the map or on a wall "
		  "without --fallback, 2 bad usage");
}

/* What each mark looks like in colour. */
static const char *mark_colour(char c)
{
	switch (c) {
	case 'S':
	case 'E':
		return "\033[1;32m";
	case 'X':
		return "\033[1;31m";
	case '*':
		return "\033[1;33m";
	case ':':
		return "\033[34m";
	default:
		return NULL;
	}
}

/* Returns -1 when parsing went through, else the exit status. */
static int parse_args(int argc, char **argv, struct path_args *a)
{
	struct opt_list pos = { 0 };
	int status = opt_parse(&path_command, argc, argv, a, &pos, NULL);
	if (status < 0 && pos.n != 3) {
		if (pos.n > 3)
			fprintf(stderr, "astray path: unexpected argument '%s'\n", pos.v[3]);
		else
			fprintf(stderr, "astray path: expected LEVEL X,Y X,Y\n");
		if (pos.n < 3)
			path_usage(stderr);
		status = 2;
	}
	for (int i = 1; status < 0 && i < 3; i++) {
		if (!opt_parse_cell(pos.v[i], i == 1 ? &a->sx : &a->gx, i == 1 ? &a->sy : &a->gy)) {
			fprintf(stderr, "astray path: '%s' is not a cell (expected X,Y, e.g. 3,4)\n", pos.v[i]);
			status = 2;
		}
	}
	if (status < 0)
		a->level = pos.v[0];
	opt_list_fini(&pos);
	return status;
}

static struct level *load_level(const struct path_args *a)
{
	struct diag_list d = { 0 };
	struct bestiary *b = malloc(sizeof *b);
	bool have_b = false;
	if (b) {
		if (a->bestiary)
			have_b = bestiary_load_file(a->bestiary, b, &d);
		else {
			char p[4096];
			if (bestiary_default_path(a->level, p, sizeof p))
				have_b = bestiary_load_file(p, b, &d);
		}
	}
	struct level *lv = NULL;
	size_t len = 0;
	char *text;
	int err = textfile_read(a->level, &text, &len);
	if (err)
		diag_add(&d, DIAG_ERROR, a->level, 0, 0, "cannot read: %s", textfile_strerror(err));
	else if (cli_ends_with(a->level, ".map"))
		lv = level_from_movingai(a->level, text, len, 1, 0, 'g', &d);
	else if (!a->bestiary || have_b)
		lv = level_parse(a->level, text, len, have_b ? b : NULL, &d);
	cli_print_diags(stderr, &d, false, false);
	diag_list_fini(&d);
	free(text);
	free(b);
	return lv;
}

/* Checks or clamps one cell; false (after a message) when it cannot be used. */
static bool settle_cell(const struct grid *g, const char *what, bool fallback, int *x, int *y)
{
	if (grid_in_bounds(g, *x, *y))
		return true;
	if (!fallback) {
		fprintf(stderr, "astray path: the %s %d,%d is outside the map (%dx%d cells: 0,0 to %d,%d); --fallback clamps it\n",
			what, *x, *y, g->w, g->h, g->w - 1, g->h - 1);
		return false;
	}
	grid_clamp(g, x, y);
	return true;
}

int cmd_path(int argc, char **argv)
{
	struct path_args a;
	memset(&a, 0, sizeof a);
	a.weight = 1.0;
	int status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;

	struct level *lv = load_level(&a);
	if (!lv)
		return 1;
	struct grid *g = level_grid(lv);
	struct path_ctx *ctx = g ? path_create(g) : NULL;
	char *canvas = NULL;
	status = 1;
	if (!ctx) {
		fprintf(stderr, "astray path: out of memory\n");
		goto out;
	}
	if (!settle_cell(g, "start", a.fallback, &a.sx, &a.sy) || !settle_cell(g, "goal", a.fallback, &a.gx, &a.gy))
		goto out;
	int start = grid_index(g, a.sx, a.sy), goal = grid_index(g, a.gx, a.gy);
	/* Without --fallback a wall at either end has no route: say so, as the
	 * help promises, rather than print an empty one with exit 0. */
	if (!a.fallback && !grid_passable(g, start)) {
		fprintf(stderr, "astray path: the start %d,%d is %s (use --fallback to route from it anyway)\n", a.sx,
			a.sy, tile_info(level_tile(lv, a.sx, a.sy))->name);
		goto out;
	}
	if (!a.fallback && !grid_passable(g, goal)) {
		fprintf(stderr, "astray path: the goal %d,%d is %s (use --fallback to route as close as possible)\n",
			a.gx, a.gy, tile_info(level_tile(lv, a.gx, a.gy))->name);
		goto out;
	}
	struct path_options opt = path_options_default();
	opt.weight = a.weight;
	opt.corner_cutting = a.corners;
	opt.fallback = a.fallback;
	struct path_result r;
	enum path_status st = path_find(ctx, start, goal, &opt, &r);
	if (st == PATH_BAD_INPUT || r.len < 1) {
		fprintf(stderr, "astray path: the search refused these cells\n");
		goto out;
	}

	/* The map as the game draws it, then the marks over it. */
	int sw = grid_screen_width(g);
	canvas = malloc((size_t)sw * (size_t)g->h);
	if (!canvas) {
		fprintf(stderr, "astray path: out of memory\n");
		goto out;
	}
	memset(canvas, ' ', (size_t)sw * (size_t)g->h);
#define AT(x, y) canvas[(size_t)(y) * (size_t)sw + (size_t)(grid_is_staggered(g->topo) ? 2 * (x) + ((y) & 1) : (x))]
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++)
			AT(x, y) = tile_glyph(level_tile(lv, x, y));
	for (int i = 0; i < lv->n_items; i++)
		AT(lv->items[i].x, lv->items[i].y) = item_class_glyph((int)lv->items[i].kind);
	for (int i = 0; i < lv->n_monsters; i++)
		AT(lv->monsters[i].x, lv->monsters[i].y) = lv->monsters[i].glyph;
	AT(lv->player_x, lv->player_y) = '@';
	if (a.explored)
		for (int c = 0; c < g->w * g->h; c++)
			if (path_was_expanded(ctx, c))
				AT(grid_x(g, c), grid_y(g, c)) = ':';
	for (int i = 1; i + 1 < r.len; i++)
		AT(grid_x(g, r.cells[i]), grid_y(g, r.cells[i])) = '*';
	if (!r.reached)
		AT(a.gx, a.gy) = 'X';
	AT(grid_x(g, r.end), grid_y(g, r.end)) = 'E';
	AT(a.sx, a.sy) = 'S';
#undef AT

	const char *nc = getenv("NO_COLOR");
	bool colour = isatty(STDOUT_FILENO) && !(nc && *nc);
	for (int y = 0; y < g->h; y++) {
		const char *row = canvas + (size_t)y * (size_t)sw;
		int n = sw;
		while (n > 0 && row[n - 1] == ' ')
			n--;
		for (int i = 0; i < n; i++) {
			const char *esc = colour ? mark_colour(row[i]) : NULL;
			if (esc)
				printf("%s%c\033[0m", esc, row[i]);
			else
				putchar(row[i]);
		}
		putchar('\n');
	}
	printf("S start, E end of the walk, * route%s%s\n", r.reached ? "" : ", X goal not reached",
	       a.explored ? ", : expanded" : "");
	printf("cost=%.3f steps=%d expanded=%ld reached=%s end=%d,%d\n", r.cost, r.steps, r.expanded,
	       r.reached ? "yes" : "no", grid_x(g, r.end), grid_y(g, r.end));
	status = 0;
out:
	free(canvas);
	path_destroy(ctx);
	grid_destroy(g);
	level_destroy(lv);
	return status;
}
