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
#include "clock.h"
#include "cmd.h"
#include "editor.h"
#include "fov.h"
#include "help.h"
#include "level.h"
#include "opt.h"
#include "path.h"
#include "region.h"
#include "textfile.h"

struct path_args {
	const char *level;
	int sx, sy, gx, gy;
	bool fallback, explored, corners;
	double weight;
	const char *bestiary;
	const char *as;          /* --as KIND: a monster of KIND plans, from the first cell to the player at the second */
	bool sight;              /* --sight: with --as, mark what it sees from its start */
	bool hurt;               /* --hurt: with --as, it plans as when hurt below its flee share */
	bool time;               /* --time: the labels' and the search's CPU time (and again) on standard error */
	bool no_regions;         /* --no-regions: the fallback without region labels (the reference) */
	bool whole;              /* --whole: the whole map, however large */
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
		  "levels/bestiary.txt of the source folder, the installed one, or the one of the levels "
		  "the program came with" },
	{ .name = "as", .kind = OPT_STRING, .offset = ARG(as), .metavar = "KIND",
	  .help = "plan as a monster of KIND (a name or letter of the bestiary) standing on the first cell "
		  "would, hunting the player on the second: its mind, costs, corner rule and sight, played "
		  "by the game's own AI (below)" },
	{ .name = "sight", .kind = OPT_FLAG, .offset = ARG(sight),
	  .help = "with --as: also mark with ' every cell it sees from the first cell" },
	{ .name = "hurt", .kind = OPT_FLAG, .offset = ARG(hurt),
	  .help = "with --as: it plans as when hurt below its flee share (the flee key): it runs "
		  "from the player along the safety map; a kind with flee 0 never flees" },
	{ .name = "time", .kind = OPT_FLAG, .offset = ARG(time),
	  .help = "also print on standard error the CPU time of labelling the map's regions and of the "
		  "search, in ms (the wall time beside it), and of the same search run again at once (its "
		  "memory touched, as in a game); with --fallback also the whole route past the cut "
		  "point: its blocked cells, cost and cells" },
	{ .name = "whole", .kind = OPT_FLAG, .offset = ARG(whole),
	  .help = "print the whole map: a map of more than 250,000 cells is otherwise cut to the "
		  "box round what is marked, 3 cells beyond it" },
	{ .name = "no-regions", .kind = OPT_FLAG, .offset = ARG(no_regions),
	  .help = "developer: with --fallback, search without the region labels, settling the whole "
		  "start region when the goal is outside it (the same answer, the old way; for timing)" },
};
#undef ARG

static void path_usage(FILE *out);

static const struct opt_command path_command = {
	"path", path_opts, (int)(sizeof path_opts / sizeof path_opts[0]), path_usage
};

const struct opt_command *cmd_path_opts(size_t *args_size)
{
	*args_size = sizeof(struct path_args);
	return &path_command;
}

static void path_usage(FILE *out)
{
	help_usage(out, "path",
		   (const char *const[]){ "LEVEL X,Y X,Y [--fallback] [--explored] [--weight W] [--corners] "
					  "[--bestiary FILE] [--time] [--whole] [--no-regions]",
					  "LEVEL X,Y X,Y --as KIND [--sight] [--hurt] [--bestiary FILE] [--whole]", NULL });
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
		  "With --as KIND the plan is the monster's own: a monster of KIND is put on the first cell "
		  "and the player on the second, and the game's AI plays the level as the editor's monster "
		  "plans do (`r` in astray edit).  The player waits, no blow hurts and the level's other "
		  "monsters play too, until the monster has struck or stood still for a while.  The map "
		  "shows\n"
		  "  S  the monster's cell   *  its walk   E  where it ends   =  a wall it digs\n"
		  "  &  the post its mind holds (pack, ambush, ranged)   @  the player\n"
		  "With --hurt it starts below its flee share and runs, as a hurt monster does.  The last line "
		  "is exactly\n"
		  "  kind=K mind=M steps=N dug=D struck=yes|no end=X,Y post=X,Y|none\n"
		  "  sees=yes|no turns=T\n"
		  "on one line (sees: whether it sees the player from the first cell within its sight).\n"
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
	if (status < 0 && a->as && (a->fallback || a->explored || a->corners || a->weight != 1.0)) {
		fprintf(stderr, "astray path: --as plans with the kind's own settings: --fallback, --explored, "
			"--weight and --corners do not go with it\n");
		status = 2;
	}
	if (status < 0 && (a->sight || a->hurt) && !a->as) {
		fprintf(stderr, "astray path: --%s goes with --as KIND\n", a->sight ? "sight" : "hurt");
		status = 2;
	}
	if (status < 0)
		a->level = pos.v[0];
	opt_list_fini(&pos);
	return status;
}

/* The level, and in *bestiary the bestiary it was read with (owned; NULL
 * when there is none). */
static struct level *load_level(const struct path_args *a, struct bestiary **bestiary)
{
	struct diag_list d = { 0 };
	struct bestiary *b = malloc(sizeof *b);
	bool have_b = false;
	*bestiary = NULL;
	if (b) {
		if (a->bestiary)
			have_b = bestiary_load_file(a->bestiary, b, &d);
		else {
			char p[4096];
			if (cli_bestiary_path(a->level, p, sizeof p))
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
	if (have_b)
		*bestiary = b;
	else
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

/*
 * The part of the map printed: the whole of a map of up to PATH_WHOLE_CELLS
 * cells (any level that fits a few screens), else the box round the cells
 * marked (the route or walk, its ends, what was expanded), PATH_MARGIN
 * cells beyond it, so that a 4096x4096 level prints the neighbourhood of
 * its route rather than 16 MB of map; --whole prints all of it.
 */
#define PATH_WHOLE_CELLS 250000L
#define PATH_MARGIN 3

struct box {
	int x0, y0, x1, y1; /* cells, inclusive; x0 > x1 while empty */
};

static void box_add(struct box *b, const struct grid *g, int cell)
{
	const int x = grid_x(g, cell), y = grid_y(g, cell);
	if (b->x0 > b->x1) {
		*b = (struct box){ x, y, x, y };
		return;
	}
	b->x0 = x < b->x0 ? x : b->x0;
	b->x1 = x > b->x1 ? x : b->x1;
	b->y0 = y < b->y0 ? y : b->y0;
	b->y1 = y > b->y1 ? y : b->y1;
}

/* The box printed: the whole map, or the marks' box with its margin,
 * saying so on a line of its own before the map. */
static struct box print_box(const struct grid *g, struct box marks, bool whole)
{
	const struct box all = { 0, 0, g->w - 1, g->h - 1 };
	if (whole || (long)g->w * g->h <= PATH_WHOLE_CELLS || marks.x0 > marks.x1)
		return all;
	struct box b = { marks.x0 - PATH_MARGIN, marks.y0 - PATH_MARGIN, marks.x1 + PATH_MARGIN,
			 marks.y1 + PATH_MARGIN };
	b.x0 = b.x0 < 0 ? 0 : b.x0;
	b.y0 = b.y0 < 0 ? 0 : b.y0;
	b.x1 = b.x1 >= g->w ? g->w - 1 : b.x1;
	b.y1 = b.y1 >= g->h ? g->h - 1 : b.y1;
	if (b.x0 == 0 && b.y0 == 0 && b.x1 == g->w - 1 && b.y1 == g->h - 1)
		return all;
	printf("columns %d-%d and rows %d-%d of the %dx%d map: what is marked and %d cells round it "
	       "(--whole prints all of it)\n",
	       b.x0, b.x1, b.y0, b.y1, g->w, g->h, PATH_MARGIN);
	return b;
}

/* Prints the box of a canvas of g's screen width, in colour when asked. */
static void print_canvas(const struct grid *g, const char *canvas, struct box b, bool colour)
{
	const int sw = grid_screen_width(g);
	const bool staggered = grid_is_staggered(g->topo);
	const int c0 = staggered ? 2 * b.x0 : b.x0, c1 = staggered ? 2 * b.x1 + 2 : b.x1 + 1;
	for (int y = b.y0; y <= b.y1; y++) {
		const char *row = canvas + (size_t)y * (size_t)sw + c0;
		int n = (c1 < sw ? c1 : sw) - c0;
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
}

static bool use_colour(void)
{
	const char *nc = getenv("NO_COLOR");
	return isatty(STDOUT_FILENO) && !(nc && *nc);
}

/* The kind --as names: a name, or a letter. */
static struct monster_kind *find_kind(struct bestiary *b, const char *as)
{
	struct monster_kind *k = bestiary_find_name(b, as);
	for (int i = 0; !k && as[0] && !as[1] && i < b->n; i++)
		if (b->kinds[i].glyph == as[0])
			k = &b->kinds[i];
	return k;
}

/* A cell for --as: on the map and one a monster or the player can stand on. */
static bool plan_cell(const struct level *lv, const char *what, int x, int y)
{
	if (x < 0 || y < 0 || x >= lv->w || y >= lv->h) {
		fprintf(stderr, "astray path: the %s %d,%d is outside the map (%dx%d cells: 0,0 to %d,%d)\n", what, x, y,
			lv->w, lv->h, lv->w - 1, lv->h - 1);
		return false;
	}
	enum tile t = level_tile(lv, x, y);
	if (tile_info(t)->cost == 0) {
		fprintf(stderr, "astray path: the %s %d,%d is %s: nothing stands there\n", what, x, y, tile_info(t)->name);
		return false;
	}
	if (t == TILE_EXIT) {
		fprintf(stderr, "astray path: the %s %d,%d is the exit: the plan needs the level's exit in place "
			"(pick a cell beside it)\n", what, x, y);
		return false;
	}
	return true;
}

/*
 * `path --as KIND`: the editor's monster plans (editor_monster_plan: the
 * game's AI playing the level in a scratch game) on a copy of the level
 * with a KIND on the start and the player on the goal.
 */
static int plan_as(const struct path_args *a, const struct level *lv, struct bestiary *b)
{
	if (!b) {
		fprintf(stderr, "astray path: --as needs a bestiary (none beside the level or the program: use --bestiary FILE)\n");
		return 1;
	}
	struct monster_kind *k = find_kind(b, a->as);
	if (!k) {
		fprintf(stderr, "astray path: no kind '%s' in the bestiary (known:", a->as);
		for (int i = 0; i < b->n; i++)
			fprintf(stderr, " %s", b->kinds[i].name);
		fprintf(stderr, ")\n");
		return 2;
	}
	if (a->hurt) {
		if (k->flee <= 0) {
			fprintf(stderr, "astray path: the %s never flees (its flee is 0 in the bestiary): --hurt "
				"shows nothing\n", k->name);
			return 1;
		}
		/* The flee rule is hp < flee x full hp: a share above 1 makes it
		 * hold from the first turn, as for a monster hurt below its
		 * share, and nothing else reads it.  b is this command's copy. */
		k->flee = 2.0;
	}
	if (!plan_cell(lv, "start", a->sx, a->sy) || !plan_cell(lv, "goal", a->gx, a->gy))
		return 1;
	if (a->sx == a->gx && a->sy == a->gy) {
		fprintf(stderr, "astray path: the start and the goal are the same cell\n");
		return 1;
	}
	int status = 1;
	char *canvas = NULL;
	uint8_t *opaque = NULL, *seen = NULL;
	struct grid *g = NULL;
	struct editor *ed = editor_create(lv, b, a->level);
	if (!ed || editor_paint(ed, a->gx, a->gy, '@') < 0 || editor_paint(ed, a->sx, a->sy, k->glyph) < 0)
		goto oom;
	const struct level *plv = editor_level(ed);
	g = plv ? level_grid(plv) : NULL;
	if (!g)
		goto oom;
	int n = editor_monster_plans(ed);
	struct editor_monster_plan plan;
	bool found = false;
	for (int i = 0; i < n && !found; i++)
		found = editor_monster_plan(ed, i, &plan) && plan.x == a->sx && plan.y == a->sy;
	if (!found) {
		fprintf(stderr, "astray path: the level has no plan for the %s at %d,%d (it needs an exit and a "
			"known kind)\n", k->name, a->sx, a->sy);
		goto out;
	}
	bool cut = false;
	int turns = editor_monster_plan_turns(ed, &cut);

	/* what it sees from its cell, within its sight */
	size_t cells = (size_t)g->w * (size_t)g->h;
	opaque = malloc(cells);
	seen = calloc(cells, 1);
	int sw = grid_screen_width(g);
	canvas = malloc((size_t)sw * (size_t)g->h);
	if (!opaque || !seen || !canvas)
		goto oom;
	for (size_t c = 0; c < cells; c++)
		opaque[c] = tile_info((enum tile)plv->tiles[c])->blocks_sight;
	if (k->sight > 0)
		fov_compute(g, opaque, a->sx, a->sy, k->sight, seen);
	bool sees = seen[grid_index(g, a->gx, a->gy)] != 0;

	memset(canvas, ' ', (size_t)sw * (size_t)g->h);
#define AT(x, y) canvas[(size_t)(y) * (size_t)sw + (size_t)(grid_is_staggered(g->topo) ? 2 * (x) + ((y) & 1) : (x))]
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			char c = editor_glyph(ed, x, y);
			AT(x, y) = a->sight && seen[grid_index(g, x, y)] && c == '.' ? '\'' : c;
		}
	struct box marks = { 1, 0, 0, 0 };
	for (int i = 1; i < plan.walk_len; i++) {
		AT(grid_x(g, plan.walk[i]), grid_y(g, plan.walk[i])) = '*';
		box_add(&marks, g, plan.walk[i]);
	}
	for (int i = 0; i < plan.n_dug; i++) {
		AT(grid_x(g, plan.dug[i]), grid_y(g, plan.dug[i])) = '=';
		box_add(&marks, g, plan.dug[i]);
	}
	if (plan.post >= 0) {
		AT(grid_x(g, plan.post), grid_y(g, plan.post)) = '&';
		box_add(&marks, g, plan.post);
	}
	int end = plan.walk_len > 0 ? plan.walk[plan.walk_len - 1] : grid_index(g, a->sx, a->sy);
	AT(grid_x(g, end), grid_y(g, end)) = 'E';
	AT(a->gx, a->gy) = '@';
	AT(a->sx, a->sy) = 'S';
	box_add(&marks, g, end);
	box_add(&marks, g, grid_index(g, a->gx, a->gy));
	box_add(&marks, g, grid_index(g, a->sx, a->sy));
#undef AT
	print_canvas(g, canvas, print_box(g, marks, a->whole), use_colour());
	printf("S the %s%s, * its walk, E where it ends, = a wall it digs, & its post, @ the player%s\n", k->name,
	       a->hurt ? " (hurt: it flees)" : "", a->sight ? ", ' what it sees" : "");
	if (plan.asleep)
		printf("it is still asleep at the end (a kind that may sleep)\n");
	if (cut)
		printf("the plan was cut short after %d turn%s (the level's monsters' work limit)\n", turns,
		       turns == 1 ? "" : "s");
	char post[32] = "none";
	if (plan.post >= 0)
		snprintf(post, sizeof post, "%d,%d", grid_x(g, plan.post), grid_y(g, plan.post));
	printf("kind=%s mind=%s steps=%d dug=%d struck=%s end=%d,%d post=%s sees=%s turns=%d\n", k->name,
	       bestiary_mind_name(plan.mind), plan.walk_len > 0 ? plan.walk_len - 1 : 0, plan.n_dug,
	       plan.strike >= 0 ? "yes" : "no", grid_x(g, end), grid_y(g, end), post, sees ? "yes" : "no", turns);
	status = 0;
	goto out;
oom:
	fprintf(stderr, "astray path: out of memory\n");
out:
	free(canvas);
	free(opaque);
	free(seen);
	grid_destroy(g);
	editor_destroy(ed);
	return status;
}

int cmd_path(int argc, char **argv)
{
	struct path_args a;
	memset(&a, 0, sizeof a);
	a.weight = 1.0;
	int status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;

	struct bestiary *b = NULL;
	struct level *lv = load_level(&a, &b);
	if (!lv) {
		free(b);
		return 1;
	}
	if (a.as) {
		status = plan_as(&a, lv, b);
		level_destroy(lv);
		free(b);
		return status;
	}
	free(b);
	struct grid *g = level_grid(lv);
	struct path_ctx *ctx = g ? path_create(g) : NULL;
	struct region *regions = NULL;
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
	/* a goal deep in rock: the start's region on the plain A* loop (the
	 * same blocked cells and cost as the game's search, sooner) */
	opt.deep_doors = true;
	/* The fallback answers a goal outside the start's region from the
	 * region labels, as the game does, rather than settling that region. */
	double cpu0 = clock_cpu_us(), wall0 = clock_us();
	if (a.fallback && !a.no_regions) {
		regions = region_create(g, a.corners);
		if (!regions) {
			fprintf(stderr, "astray path: out of memory\n");
			goto out;
		}
		opt.regions = regions;
	}
	double cpu1 = clock_cpu_us(), wall1 = clock_us();
	struct path_result r;
	enum path_status st = path_find(ctx, start, goal, &opt, &r);
	if (a.time) {
		/* The same search again, its memory now touched (a game's
		 * contexts live as long as the level): the same answer. */
		const double cpu2 = clock_cpu_us(), wall2 = clock_us();
		st = path_find(ctx, start, goal, &opt, &r);
		fprintf(stderr,
			"time: regions %.3f ms cpu (%.3f wall), search %.3f ms cpu (%.3f wall), "
			"again %.3f ms cpu (%.3f wall)\n",
			(cpu1 - cpu0) / 1e3, (wall1 - wall0) / 1e3, (cpu2 - cpu1) / 1e3, (wall2 - wall1) / 1e3,
			(clock_cpu_us() - cpu2) / 1e3, (clock_us() - wall2) / 1e3);
		/* With the fallback, the whole route past the cut point: its
		 * blocked cells and cost (routes of equal key are equally good) */
		const int *route;
		const int rlen = a.fallback ? path_route(ctx, &route) : 0;
		if (rlen > 0) {
			double rcost = 0.0;
			for (int i = 1; i < rlen; i++)
				rcost += grid_heuristic(g, route[i - 1], route[i]) *
					 (g->cost[route[i]] ? (double)g->cost[route[i]] : 1.0);
			fprintf(stderr, "route: blocked %d cost %.3f cells %d\n", r.blocked_crossed, rcost, rlen);
		}
	}
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
	struct box marks = { 1, 0, 0, 0 };
	if (a.explored)
		for (int c = 0; c < g->w * g->h; c++)
			if (path_was_expanded(ctx, c)) {
				AT(grid_x(g, c), grid_y(g, c)) = ':';
				box_add(&marks, g, c);
			}
	for (int i = 1; i + 1 < r.len; i++) {
		AT(grid_x(g, r.cells[i]), grid_y(g, r.cells[i])) = '*';
		box_add(&marks, g, r.cells[i]);
	}
	if (!r.reached)
		AT(a.gx, a.gy) = 'X';
	AT(grid_x(g, r.end), grid_y(g, r.end)) = 'E';
	AT(a.sx, a.sy) = 'S';
	box_add(&marks, g, goal);
	box_add(&marks, g, r.end);
	box_add(&marks, g, start);
#undef AT

	print_canvas(g, canvas, print_box(g, marks, a.whole), use_colour());
	printf("S start, E end of the walk, * route%s%s\n", r.reached ? "" : ", X goal not reached",
	       a.explored ? ", : expanded" : "");
	printf("cost=%.3f steps=%d expanded=%ld reached=%s end=%d,%d\n", r.cost, r.steps, r.expanded,
	       r.reached ? "yes" : "no", grid_x(g, r.end), grid_y(g, r.end));
	status = 0;
out:
	free(canvas);
	region_destroy(regions);
	path_destroy(ctx);
	grid_destroy(g);
	level_destroy(lv);
	return status;
}
