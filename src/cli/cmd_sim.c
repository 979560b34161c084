/*
 * cmd_sim.c - `astray sim`: the command line of the headless simulation.
 * It parses the options, loads the bestiary and the levels, runs the games
 * through sim.c (which plays them and never prints), shows progress on a
 * terminal, and writes the results as a table, CSV or JSON.  docs/sim.md
 * describes every column; --help lists them from the same table.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bestiary.h"
#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "diag.h"
#include "level.h"
#include "opt.h"
#include "sim.h"
#include "stats.h"
#include "textfile.h"

enum sim_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

#define DEFAULT_GAMES 100
#define DEFAULT_TURNS 1000
#define DEFAULT_MAP_MONSTERS 10

/* --monsters K[:KIND] */
struct monsters_arg {
	int n;                       /* K, -1 when not given */
	const char *kind;            /* the KIND, or NULL */
};

struct sim_args {
	struct opt_list levels;
	int games;
	uint64_t seed;
	struct sim_options opt;
	int format;                  /* enum sim_format */
	struct opt_list sets;        /* --set, in order */
	const char *bestiary;        /* --bestiary FILE or NULL */
	struct monsters_arg monsters;
	const char *compare[2];      /* --compare A B, or NULL */
	bool per_game;
	bool no_time;
};

/* One level's games: [0] the run (or setting A), [1] setting B of --compare. */
struct sim_level_run {
	struct sim_level src;
	struct level *parsed;        /* owned, for a .lvl */
	char *text;                  /* owned file text */
	int monsters;                /* at the start of its first game */
	struct sim_game *games[2];
};

static const char *const format_choices[] = { "table", "csv", "json", NULL };

static bool parse_player(const char *text, void *field)
{
	return sim_player_parse(text, (enum sim_player *)field);
}

/* K or K:KIND, K from 0 to 1000000 and KIND not empty. */
static bool parse_monsters(const char *text, void *field)
{
	struct monsters_arg *m = field;
	const char *colon = strchr(text, ':');
	char num[32];
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	long n;
	if (len >= sizeof num || (colon && !colon[1]))
		return false;
	memcpy(num, text, len);
	num[len] = '\0';
	if (!cli_parse_long(num, 0, 1000000, &n))
		return false;
	m->n = (int)n;
	m->kind = colon ? colon + 1 : NULL;
	return true;
}

#define STR(x) STR_(x)
#define STR_(x) #x
#define ARG(field) offsetof(struct sim_args, field)
static const struct opt sim_opts[] = {
	{ .name = "games", .kind = OPT_INT, .offset = ARG(games), .metavar = "N", .lo = 1, .hi = 100000000,
	  .help = "games per level (default " STR(DEFAULT_GAMES) ")" },
	{ .name = "seed", .kind = OPT_SEED, .offset = ARG(seed), .metavar = "S",
	  .help = "game i (0-based) uses seed S+i (default 1); the same\n"
		  "seeds on every level and for both sides of --compare" },
	{ .name = "player", .kind = OPT_CUSTOM, .offset = ARG(opt.player), .metavar = "P",
	  .parse = parse_player, .want = "exit, flee, idle or fight",
	  .help = "the scripted player (default exit):\n"
		  "  exit   walks the A* route to the nearest exit,\n"
		  "         attacking a monster in the way; takes the\n"
		  "         stairs\n"
		  "  flee   steps to the cell farthest from the nearest\n"
		  "         seen monster (waits when none is seen); takes\n"
		  "         the stairs\n"
		  "  idle   waits every turn\n"
		  "  fight  walks to the nearest monster and attacks it,\n"
		  "         round the stairs; with none left, takes them" },
	{ .name = "turns", .kind = OPT_INT, .offset = ARG(opt.max_turns), .metavar = "T", .lo = 1, .hi = 100000000,
	  .help = "a game still going at turn T is out of turns\n"
		  "(default " STR(DEFAULT_TURNS) ")" },
	{ .name = "format", .kind = OPT_CHOICE, .offset = ARG(format), .metavar = "F", .choices = format_choices,
	  .help = "table (default), csv or json" },
	{ .name = "per-game", .kind = OPT_FLAG, .offset = ARG(per_game),
	  .help = "one row per game as well (csv: instead of the summary)" },
	{ .name = "no-time", .kind = OPT_FLAG, .offset = ARG(no_time),
	  .help = "leave out the wall-clock columns, so runs can be diffed" },
	{ .name = "chase", .kind = OPT_FLAG, .offset = ARG(opt.chase),
	  .help = "every monster is told where the player is before\n"
		  "each of the player's actions, so all of them hunt\n"
		  "(scale runs on maps larger than any sight radius)" },
	{ .name = "set", .kind = OPT_LIST, .offset = ARG(sets), .metavar = "KIND.KEY=VALUE",
	  .help = "override a bestiary knob (repeatable)" },
	{ .name = "bestiary", .kind = OPT_STRING, .offset = ARG(bestiary), .metavar = "FILE",
	  .help = "the bestiary (default: beside the first level, levels/,\n"
		  "or the installed one)" },
	{ .name = "monsters", .kind = OPT_CUSTOM, .offset = ARG(monsters), .metavar = "K[:KIND]",
	  .parse = parse_monsters, .want = "K or K:KIND",
	  .help = "monsters placed on a .map (default " STR(DEFAULT_MAP_MONSTERS) " of the first\n"
		  "kind)" },
	{ .name = "compare", .kind = OPT_PAIR, .offset = ARG(compare), .metavar = "'A' 'B'",
	  .help = "run every game under settings A and under settings B\n"
		  "(each a list of KIND.KEY=VALUE separated by spaces or\n"
		  "commas, on top of --set) and report B-A with a paired\n"
		  "95% interval" },
};
#undef ARG

static void sim_usage(FILE *out);

static const struct opt_command sim_command = {
	"sim", sim_opts, (int)(sizeof sim_opts / sizeof sim_opts[0]), sim_usage
};

static void sim_usage(FILE *out)
{
	fprintf(out,
		"usage: astray sim LEVEL... [options]\n"
		"\n"
		"Plays headless games with a scripted player, using the same game code as\n"
		"play, and reports how the monsters did with 95%% confidence intervals.\n"
		"LEVEL is a .lvl file, a folder (its .lvl files in name order) or a Moving AI\n"
		".map (player, exit and monsters are then placed from each game's seed).\n"
		"Each level is played on its own: taking its exit is an escape, there is no\n"
		"next level.\n"
		"\n"
		"options:\n");
	opt_print_help(out, &sim_command);
	fprintf(out,
		"\n"
		"metrics (CSV columns and JSON keys; * = wall clock, differs run to run):\n");
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		fprintf(out, "  %-20s %s%s%s\n", mi->name, mi->time ? "* " : "", mi->rate ? "rate: " : "",
			mi->doc);
	}
	fprintf(out,
		"\n"
		"Rates get Wilson intervals; other means (never negative) a seeded bootstrap\n"
		"percentile interval over games, which stays inside the values' range;\n"
		"p95 is the nearest-rank 95th percentile within a game, averaged over games.\n"
		"AI time is the monsters' part of game_act (perception, searches, moves,\n"
		"attacks) per game turn, as the game measures it; the player's move, FOV and\n"
		"the scripted player's own route are not counted.\n"
		"\n"
		"CSV columns:\n"
		"  summary:  level,metric,n,mean,sd,ci_lo,ci_hi,successes,time\n"
		"  per game: level,game,seed,outcome,monsters,<metrics>\n"
		"  compare:  level,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time\n"
		"level is the file, or \"all\" for every level together.  docs/sim.md has the rest.\n");
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

/* Returns -1 when parsed, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct sim_args *a)
{
	a->games = DEFAULT_GAMES;
	a->seed = 1;
	a->opt.player = SIM_PLAYER_EXIT;
	a->opt.max_turns = DEFAULT_TURNS;
	a->monsters.n = -1;
	int status = opt_parse(&sim_command, argc, argv, a, &a->levels, NULL);
	if (status < 0 && a->levels.n == 0)
		status = opt_usage_error(&sim_command, "give at least one level (.lvl or Moving AI .map); "
				       "see astray sim --help");
	return status;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static bool load_bestiary(const struct sim_args *a, struct bestiary *b)
{
	struct diag_list d = { 0 };
	bool ok = a->bestiary ? bestiary_load_file(a->bestiary, b, &d)
			      : bestiary_load_default(a->levels.v[0], b, &d);
	cli_print_diags(stderr, &d, false, false);
	diag_list_fini(&d);
	if (!ok)
		return false;
	for (int i = 0; i < a->sets.n; i++) {
		char err[256];
		if (!bestiary_set(b, a->sets.v[i], err, sizeof err)) {
			fprintf(stderr, "astray sim: --set %s: %s\n", a->sets.v[i], err);
			return false;
		}
	}
	return true;
}

/* The glyph of --monsters K:KIND (a name or a letter), or the first kind. */
static bool monster_glyph(const struct sim_args *a, struct bestiary *b, char *glyph)
{
	if (!a->monsters.kind) {
		if (b->n == 0) {
			fprintf(stderr, "astray sim: the bestiary has no monster kinds\n");
			return false;
		}
		*glyph = b->kinds[0].glyph;
		return true;
	}
	const struct monster_kind *k = bestiary_find_name(b, a->monsters.kind);
	if (!k && strlen(a->monsters.kind) == 1)
		k = bestiary_find_glyph(b, a->monsters.kind[0]);
	if (!k) {
		fprintf(stderr, "astray sim: --monsters: unknown monster kind '%s'\n", a->monsters.kind);
		return false;
	}
	*glyph = k->glyph;
	return true;
}

/* Appends `path` (copied) to out; false on no memory. */
static bool push_name(char ***out, int *n, int *cap, const char *path)
{
	if (*n == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		char **grown = realloc(*out, (size_t)nc * sizeof *grown);
		if (!grown)
			return false;
		*out = grown;
		*cap = nc;
	}
	char *copy = strdup(path);
	if (copy)
		(*out)[(*n)++] = copy;
	return copy != NULL;
}

/*
 * The level files to run: each argument, a folder standing for its .lvl
 * files in name order (the campaign order).  The names are owned by the
 * array (cli_names_free).  NULL on error, already reported.
 */
static char **expand_levels(const struct sim_args *a, int *n_out)
{
	char **out = NULL;
	int n = 0, cap = 0;
	bool ok = true;
	for (int i = 0; ok && i < a->levels.n; i++) {
		const char *arg = a->levels.v[i];
		struct stat st;
		if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
			ok = push_name(&out, &n, &cap, arg);
			if (!ok)
				fprintf(stderr, "astray sim: out of memory\n");
			continue;
		}
		int k = 0;
		char **names = cli_level_files(arg, &k);
		if (!names || k == 0) {
			fprintf(stderr, "astray sim: %s: %s\n", arg, names ? "no .lvl files in this folder" : strerror(errno));
			ok = false;
		}
		for (int j = 0; ok && j < k; j++)
			ok = push_name(&out, &n, &cap, names[j]);
		if (names && !ok)
			fprintf(stderr, "astray sim: out of memory\n");
		cli_names_free(names, k);
	}
	if (!ok) {
		cli_names_free(out, n);
		return NULL;
	}
	*n_out = n;
	return out;
}

static bool load_level(const struct sim_args *a, struct bestiary *b, char glyph,
		       struct sim_level_run *lr, const char *file)
{
	size_t len = 0;
	struct diag_list d = { 0 };
	int err = textfile_read(file, &lr->text, &len);
	if (err) {
		fprintf(stderr, "astray sim: %s: %s\n", file, strerror(err));
		return false;
	}
	lr->src.file = file;
	if (cli_ends_with(file, ".map")) {
		lr->src.map_text = lr->text;
		lr->src.map_len = len;
		lr->src.map_monsters = a->monsters.n >= 0 ? a->monsters.n : DEFAULT_MAP_MONSTERS;
		lr->src.map_glyph = glyph;
		/* Load it once now so a bad map is reported before any game. */
		struct level *probe = level_from_movingai(file, lr->text, len, sim_game_seed(a->seed, 0),
							  lr->src.map_monsters, glyph, &d);
		lr->monsters = probe ? probe->n_monsters : 0;
		level_destroy(probe);
		cli_print_diags(stderr, &d, true, false);
		bool ok = probe != NULL;
		diag_list_fini(&d);
		return ok;
	}
	lr->parsed = level_parse(file, lr->text, len, b, &d);
	cli_print_diags(stderr, &d, true, false);
	diag_list_fini(&d);
	if (!lr->parsed)
		return false;
	lr->src.fixed = lr->parsed;
	lr->monsters = lr->parsed->n_monsters;
	return true;
}

/* ------------------------------------------------------------------ */
/* Running, with progress on a terminal                                */

struct progress {
	bool tty;
	double start, last;   /* ms */
	bool shown;
	long done, total;
};

static double clock_ms(void)
{
	return clock_us() / 1e3;
}

/* Shown only after a second, on a terminal, at most ten times a second. */
static void progress_step(struct progress *p)
{
	p->done++;
	if (!p->tty)
		return;
	double now = clock_ms();
	if (now - p->start < 1000.0 || (p->shown && now - p->last < 100.0 && p->done < p->total))
		return;
	double eta = (now - p->start) / (double)p->done * (double)(p->total - p->done) / 1e3;
	fprintf(stderr, "\rastray sim: %ld/%ld games, %.0f s left   ", p->done, p->total, eta);
	fflush(stderr);
	p->shown = true;
	p->last = now;
}

static void progress_end(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%60s\r", "");
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

struct out_ctx {
	const struct sim_args *a;
	struct sim_level_run *runs;
	int n_runs;
	struct sim_game *all[2];    /* every level's games together, for "all" */
	int n_all;
	char settings[2][1024];     /* words for the header */
};

static bool shown(const struct out_ctx *o, int m)
{
	return !(o->a->no_time && sim_metric_info((enum sim_metric)m)->time);
}

/* A number for CSV and JSON: shortest exact-enough form; NaN -> `nan_text`. */
static void put_num(FILE *f, double v, const char *nan_text)
{
	if (isnan(v) || isinf(v))
		fputs(nan_text, f);
	else
		fprintf(f, "%.10g", v);
}

static void csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Formats v with `dec` decimals ("-" for NaN); `sign` forces a + on
 * positives.  A value too small for those decimals keeps three significant
 * digits, so a real but small difference never reads as 0. */
static const char *fmt(char *buf, size_t size, double v, int dec, bool sign)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (v != 0 && fabs(v) < 0.5 * pow(10.0, -dec))
		snprintf(buf, size, sign ? "%+.3g" : "%.3g", v);
	else
		snprintf(buf, size, sign ? "%+.*f" : "%.*f", dec, v);
	return buf;
}

static const char *fmt_ci(char *buf, size_t size, double lo, double hi, int dec, bool sign)
{
	char l[64], h[64];
	if (isnan(lo) || isnan(hi))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%s, %s]", fmt(l, sizeof l, lo, dec, sign), fmt(h, sizeof h, hi, dec, sign));
	return buf;
}

static void header_line(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	fprintf(f, "astray sim: player %s, %d game%s per level (seeds %llu..%llu), at most %d turns%s\n",
		sim_player_name(a->opt.player), a->games, a->games == 1 ? "" : "s",
		(unsigned long long)a->seed,
		(unsigned long long)sim_game_seed(a->seed, a->games - 1), a->opt.max_turns,
		a->opt.chase ? ", monsters told where the player is (--chase)" : "");
	if (a->compare[0]) {
		fprintf(f, "compare (same seeds for both): A = %s\n", o->settings[0]);
		fprintf(f, "                               B = %s\n", o->settings[1]);
	} else {
		fprintf(f, "settings: %s\n", o->settings[0]);
	}
}

static void table_summary(FILE *f, const struct out_ctx *o, const char *title,
			  const struct sim_game *g, int n)
{
	char m1[64], c1[160];
	fprintf(f, "\n%s\n", title);
	fprintf(f, "  %-26s %6s %12s  %-24s\n", "metric", "n", "mean", "95% CI");
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		struct stats_summary s;
		if (sim_summarize(g, n, (enum sim_metric)m, &s) < 0)
			continue;
		char label[64];
		snprintf(label, sizeof label, "%s%s", mi->label, mi->time ? " *" : "");
		fprintf(f, "  %-26s %6d %12s  %-24s", label, s.n, fmt(m1, sizeof m1, s.mean, mi->decimals, false),
			fmt_ci(c1, sizeof c1, s.lo, s.hi, mi->decimals, false));
		if (mi->rate)
			fprintf(f, " %ld of %d", s.successes, s.n);
		fputc('\n', f);
	}
}

static void table_per_game(FILE *f, const struct out_ctx *o, const struct sim_level_run *lr,
			   const struct sim_game *g, int n)
{
	fprintf(f, "\n%s: games\n  %5s %20s %-12s %8s", lr->src.file, "game", "seed", "outcome", "monsters");
	for (int m = SIM_M_TURNS; m < SIM_METRIC_COUNT; m++)
		if (shown(o, m))
			fprintf(f, " %*s", (int)strlen(sim_metric_info((enum sim_metric)m)->name),
				sim_metric_info((enum sim_metric)m)->name);
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		char b[64];
		fprintf(f, "  %5d %20llu %-12s %8d", g[i].index, (unsigned long long)g[i].seed,
			sim_outcome_name(g[i].outcome), g[i].monsters);
		for (int m = SIM_M_TURNS; m < SIM_METRIC_COUNT; m++) {
			if (!shown(o, m))
				continue;
			const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
			if (isnan(g[i].v[m]))
				snprintf(b, sizeof b, "-");
			else
				snprintf(b, sizeof b, "%.6g", g[i].v[m]);
			fprintf(f, " %*s", (int)strlen(mi->name), b);
		}
		fputc('\n', f);
	}
}

/* Metrics that get a verdict line whether or not the difference is clear. */
static bool headline(int m)
{
	return m == SIM_M_KILLED || m == SIM_M_ESCAPED || m == SIM_M_DAMAGE ||
	       m == SIM_M_FIRST_CONTACT || m == SIM_M_EXPANDED_MEAN || m == SIM_M_AI_MS_MEAN;
}

static void verdict_line(FILE *f, int m, const struct sim_paired *p)
{
	const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
	int dec = mi->decimals;
	char va[64], vb[64], d[64], ci[160];
	fmt(va, sizeof va, p->a, dec, false);
	fmt(vb, sizeof vb, p->b, dec, false);
	fmt(d, sizeof d, p->diff.mean, dec, true);
	fmt_ci(ci, sizeof ci, p->diff.lo, p->diff.hi, dec, true);
	if (p->n < 2) {
		fprintf(f, "  %s: too few paired games to tell (n = %d).\n", mi->label, p->n);
	} else if (p->sign != 0) {
		fprintf(f, "  %s %s: %s %s (A) vs %s (B), difference B-A %s %s excludes 0.\n",
			p->sign > 0 ? "B" : "A", mi->higher, mi->label, va, vb, d, ci);
	} else if (p->diff.sd == 0 && p->diff.mean == 0) {
		fprintf(f, "  No difference in %s: %s in every game under both.\n", mi->label, va);
	} else {
		fprintf(f, "  No clear difference in %s: %s (A) vs %s (B), difference B-A %s %s holds 0, could be noise.\n",
			mi->label, va, vb, d, ci);
	}
}

static const char *higher_side(const struct sim_paired *p)
{
	return p->sign > 0 ? "B higher" : p->sign < 0 ? "A higher" : "no clear difference";
}

static void table_compare(FILE *f, const struct out_ctx *o, const char *title,
			  const struct sim_game *ga, const struct sim_game *gb, int n)
{
	struct sim_paired p[SIM_METRIC_COUNT];
	fprintf(f, "\n%s\n", title);
	fprintf(f, "  %-26s %6s %11s %11s %11s  %-26s %s\n", "metric", "n", "A", "B", "B-A",
		"95% CI of B-A", "");
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		char va[64], vb[64], d[64], ci[160], label[64];
		if (sim_compare_metric(ga, gb, n, (enum sim_metric)m, &p[m]) < 0)
			continue;
		snprintf(label, sizeof label, "%s%s", mi->label, mi->time ? " *" : "");
		fprintf(f, "  %-26s %6d %11s %11s %11s  %-26s %s\n", label, p[m].n,
			fmt(va, sizeof va, p[m].a, mi->decimals, false),
			fmt(vb, sizeof vb, p[m].b, mi->decimals, false),
			fmt(d, sizeof d, p[m].diff.mean, mi->decimals, true),
			fmt_ci(ci, sizeof ci, p[m].diff.lo, p[m].diff.hi, mi->decimals, true),
			p[m].n >= 2 ? higher_side(&p[m]) : "");
	}
	fprintf(f, "  verdict:\n");
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		if (headline(m) || (p[m].sign != 0 && p[m].n >= 2))
			verdict_line(f, m, &p[m]);
	}
}

static void print_table(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	char title[1200];
	header_line(f, o);
	for (int l = 0; l < o->n_runs; l++) {
		const struct sim_level_run *lr = &o->runs[l];
		snprintf(title, sizeof title, "%s (%d monster%s%s)", lr->src.file, lr->monsters,
			 lr->monsters == 1 ? "" : "s", lr->src.fixed ? "" : " placed from each seed");
		if (a->per_game && !a->compare[0])
			table_per_game(f, o, lr, lr->games[0], a->games);
		if (a->compare[0])
			table_compare(f, o, title, lr->games[0], lr->games[1], a->games);
		else
			table_summary(f, o, title, lr->games[0], a->games);
	}
	if (o->n_runs > 1) {
		snprintf(title, sizeof title, "all %d levels together (%d games)", o->n_runs, o->n_all);
		if (a->compare[0])
			table_compare(f, o, title, o->all[0], o->all[1], o->n_all);
		else
			table_summary(f, o, title, o->all[0], o->n_all);
	}
	if (!a->no_time)
		fprintf(f, "\n* wall clock: differs from run to run (--no-time leaves it out)\n");
}

static void csv_summary_rows(FILE *f, const struct out_ctx *o, const char *level,
			     const struct sim_game *g, int n)
{
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		struct stats_summary s;
		if (sim_summarize(g, n, (enum sim_metric)m, &s) < 0)
			continue;
		csv_string(f, level);
		fprintf(f, ",%s,%d,", mi->name, s.n);
		put_num(f, s.mean, "");
		fputc(',', f);
		put_num(f, s.sd, "");
		fputc(',', f);
		put_num(f, s.lo, "");
		fputc(',', f);
		put_num(f, s.hi, "");
		fputc(',', f);
		if (mi->rate)
			fprintf(f, "%ld", s.successes);
		fprintf(f, ",%d\n", mi->time ? 1 : 0);
	}
}

static void csv_compare_rows(FILE *f, const struct out_ctx *o, const char *level,
			     const struct sim_game *ga, const struct sim_game *gb, int n)
{
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		struct sim_paired p;
		if (sim_compare_metric(ga, gb, n, (enum sim_metric)m, &p) < 0)
			continue;
		csv_string(f, level);
		fprintf(f, ",%s,%d,", mi->name, p.n);
		const double v[] = { p.a, p.b, p.diff.mean, p.diff.sd, p.diff.lo, p.diff.hi };
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
			put_num(f, v[k], "");
			fputc(',', f);
		}
		fprintf(f, "%d,%s,%d\n", p.sign != 0, p.sign > 0 ? "B" : p.sign < 0 ? "A" : "",
			mi->time ? 1 : 0);
	}
}

static void csv_game_rows(FILE *f, const struct out_ctx *o, const char *level,
			  const struct sim_game *g, int n)
{
	for (int i = 0; i < n; i++) {
		csv_string(f, level);
		fprintf(f, ",%d,%llu,%s,%d", g[i].index, (unsigned long long)g[i].seed,
			sim_outcome_name(g[i].outcome), g[i].monsters);
		for (int m = 0; m < SIM_METRIC_COUNT; m++) {
			if (!shown(o, m))
				continue;
			fputc(',', f);
			put_num(f, g[i].v[m], "");
		}
		fputc('\n', f);
	}
}

static void print_csv(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	if (a->compare[0]) {
		fprintf(f, "level,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time\n");
		for (int l = 0; l < o->n_runs; l++)
			csv_compare_rows(f, o, o->runs[l].src.file, o->runs[l].games[0],
					 o->runs[l].games[1], a->games);
		if (o->n_runs > 1)
			csv_compare_rows(f, o, "all", o->all[0], o->all[1], o->n_all);
	} else if (a->per_game) {
		fprintf(f, "level,game,seed,outcome,monsters");
		for (int m = 0; m < SIM_METRIC_COUNT; m++)
			if (shown(o, m))
				fprintf(f, ",%s", sim_metric_info((enum sim_metric)m)->name);
		fputc('\n', f);
		for (int l = 0; l < o->n_runs; l++)
			csv_game_rows(f, o, o->runs[l].src.file, o->runs[l].games[0], a->games);
	} else {
		fprintf(f, "level,metric,n,mean,sd,ci_lo,ci_hi,successes,time\n");
		for (int l = 0; l < o->n_runs; l++)
			csv_summary_rows(f, o, o->runs[l].src.file, o->runs[l].games[0], a->games);
		if (o->n_runs > 1)
			csv_summary_rows(f, o, "all", o->all[0], o->n_all);
	}
}

static void json_summary(FILE *f, const struct out_ctx *o, const struct sim_game *g, int n)
{
	bool first = true;
	fprintf(f, "{");
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		struct stats_summary s;
		if (sim_summarize(g, n, (enum sim_metric)m, &s) < 0)
			continue;
		fprintf(f, "%s\n      \"%s\": {\"n\": %d, \"mean\": ", first ? "" : ",", mi->name, s.n);
		put_num(f, s.mean, "null");
		fprintf(f, ", \"sd\": ");
		put_num(f, s.sd, "null");
		fprintf(f, ", \"ci_lo\": ");
		put_num(f, s.lo, "null");
		fprintf(f, ", \"ci_hi\": ");
		put_num(f, s.hi, "null");
		if (mi->rate)
			fprintf(f, ", \"successes\": %ld", s.successes);
		fprintf(f, ", \"time\": %s}", mi->time ? "true" : "false");
		first = false;
	}
	fprintf(f, "\n    }");
}

static void json_compare(FILE *f, const struct out_ctx *o, const struct sim_game *ga,
			 const struct sim_game *gb, int n)
{
	bool first = true;
	fprintf(f, "{");
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (!shown(o, m))
			continue;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		struct sim_paired p;
		if (sim_compare_metric(ga, gb, n, (enum sim_metric)m, &p) < 0)
			continue;
		fprintf(f, "%s\n      \"%s\": {\"n\": %d", first ? "" : ",", mi->name, p.n);
		const char *keys[] = { "a", "b", "diff", "sd", "ci_lo", "ci_hi" };
		const double v[] = { p.a, p.b, p.diff.mean, p.diff.sd, p.diff.lo, p.diff.hi };
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
			fprintf(f, ", \"%s\": ", keys[k]);
			put_num(f, v[k], "null");
		}
		fprintf(f, ", \"excludes_zero\": %s, \"higher\": %s, \"time\": %s}",
			p.sign != 0 ? "true" : "false",
			p.sign > 0 ? "\"B\"" : p.sign < 0 ? "\"A\"" : "null", mi->time ? "true" : "false");
		first = false;
	}
	fprintf(f, "\n    }");
}

static void json_games(FILE *f, const struct out_ctx *o, const struct sim_game *g, int n)
{
	fprintf(f, "[");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s\n      {\"game\": %d, \"seed\": %llu, \"outcome\": \"%s\", \"monsters\": %d",
			i ? "," : "", g[i].index, (unsigned long long)g[i].seed,
			sim_outcome_name(g[i].outcome), g[i].monsters);
		for (int m = 0; m < SIM_METRIC_COUNT; m++) {
			if (!shown(o, m))
				continue;
			fprintf(f, ", \"%s\": ", sim_metric_info((enum sim_metric)m)->name);
			put_num(f, g[i].v[m], "null");
		}
		fputc('}', f);
	}
	fprintf(f, "\n    ]");
}

static void print_json(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	bool cmp = a->compare[0] != NULL;
	fprintf(f, "{\n  \"format\": \"astray-sim 1\",\n  \"player\": \"%s\",\n  \"games\": %d,\n"
		   "  \"seed\": %llu,\n  \"max_turns\": %d,\n  \"chase\": %s,\n  \"time\": %s,\n",
		sim_player_name(a->opt.player), a->games, (unsigned long long)a->seed,
		a->opt.max_turns, a->opt.chase ? "true" : "false", a->no_time ? "false" : "true");
	fprintf(f, "  \"settings\": [");
	for (int i = 0; i < a->sets.n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_string(f, a->sets.v[i]);
	}
	fprintf(f, "],\n");
	if (cmp) {
		fprintf(f, "  \"compare\": {\"a\": ");
		json_string(f, a->compare[0]);
		fprintf(f, ", \"b\": ");
		json_string(f, a->compare[1]);
		fprintf(f, "},\n");
	}
	fprintf(f, "  \"levels\": [");
	for (int l = 0; l < o->n_runs; l++) {
		const struct sim_level_run *lr = &o->runs[l];
		fprintf(f, "%s\n   {\"level\": ", l ? "," : "");
		json_string(f, lr->src.file);
		fprintf(f, ", \"monsters\": %d,\n    \"%s\": ", lr->monsters, cmp ? "compare" : "summary");
		if (cmp)
			json_compare(f, o, lr->games[0], lr->games[1], a->games);
		else
			json_summary(f, o, lr->games[0], a->games);
		if (a->per_game) {
			fprintf(f, ",\n    \"games%s\": ", cmp ? "_a" : "");
			json_games(f, o, lr->games[0], a->games);
			if (cmp) {
				fprintf(f, ",\n    \"games_b\": ");
				json_games(f, o, lr->games[1], a->games);
			}
		}
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]");
	if (o->n_runs > 1) {
		fprintf(f, ",\n  \"all\": {\"games\": %d,\n    \"%s\": ", o->n_all, cmp ? "compare" : "summary");
		if (cmp)
			json_compare(f, o, o->all[0], o->all[1], o->n_all);
		else
			json_summary(f, o, o->all[0], o->n_all);
		fprintf(f, "}");
	}
	fprintf(f, "\n}\n");
}

/* ------------------------------------------------------------------ */

static void describe_settings(char *buf, size_t size, const struct sim_args *a, const char *extra)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < a->sets.n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "", a->sets.v[i]);
	if (extra && *extra && used < size)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "", extra);
	if (used == 0)
		snprintf(buf, size, "the bestiary as read");
}

static int run(const struct sim_args *a)
{
	struct bestiary base, side[2];
	int status = 1, n_files = 0;
	char **files = expand_levels(a, &n_files);
	if (!files)
		return 1;
	struct sim_level_run *runs = calloc((size_t)n_files, sizeof *runs);
	struct sim_runner *runner = sim_runner_create();
	struct out_ctx o = { .a = a, .runs = runs, .n_runs = n_files };
	int sides = a->compare[0] ? 2 : 1;
	char glyph = 0;
	if (!runs || !runner) {
		fprintf(stderr, "astray sim: out of memory\n");
		goto done;
	}
	if (!load_bestiary(a, &base))
		goto done;
	for (int s = 0; s < sides; s++) {
		char err[256];
		side[s] = base;
		const char *extra = a->compare[0] ? a->compare[s] : NULL;
		if (extra && !sim_apply_settings(&side[s], extra, err, sizeof err)) {
			fprintf(stderr, "astray sim: --compare %s: %s\n", s ? "B" : "A", err);
			goto done;
		}
		describe_settings(o.settings[s], sizeof o.settings[s], a, extra);
	}
	bool any_map = false;
	for (int l = 0; l < n_files; l++)
		any_map |= cli_ends_with(files[l], ".map");
	if (a->monsters.n >= 0 && !any_map)
		fprintf(stderr, "astray sim: note: --monsters applies to .map files; .lvl files keep their own monsters\n");
	if (any_map && !monster_glyph(a, &base, &glyph))
		goto done;
	for (int l = 0; l < n_files; l++)
		if (!load_level(a, &base, glyph, &runs[l], files[l]))
			goto done;

	size_t total = (size_t)n_files * (size_t)a->games;
	for (int s = 0; s < sides; s++) {
		o.all[s] = calloc(total, sizeof *o.all[s]);
		if (!o.all[s]) {
			fprintf(stderr, "astray sim: out of memory\n");
			goto done;
		}
	}
	struct progress pr = { .tty = isatty(STDERR_FILENO) != 0, .start = clock_ms(),
			       .total = (long)total * sides };
	for (int l = 0; l < n_files; l++) {
		for (int s = 0; s < sides; s++)
			runs[l].games[s] = o.all[s] + (size_t)l * (size_t)a->games;
		for (int i = 0; i < a->games; i++) {
			for (int s = 0; s < sides; s++) {
				struct diag_list d = { 0 };
				struct sim_game *g = &runs[l].games[s][i];
				if (sim_run_game(runner, &runs[l].src, &side[s], sim_game_seed(a->seed, i),
						 &a->opt, g, &d) != 0) {
					progress_end(&pr);
					cli_print_diags(stderr, &d, true, false);
					if (d.n == 0)
						fprintf(stderr, "astray sim: %s: out of memory\n", files[l]);
					diag_list_fini(&d);
					goto done;
				}
				diag_list_fini(&d);
				g->level = l;
				g->index = i;
				progress_step(&pr);
			}
		}
	}
	progress_end(&pr);
	o.n_all = (int)total;
	if (a->format == FORMAT_CSV)
		print_csv(stdout, &o);
	else if (a->format == FORMAT_JSON)
		print_json(stdout, &o);
	else
		print_table(stdout, &o);
	status = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
done:
	for (int l = 0; runs && l < n_files; l++) {
		level_destroy(runs[l].parsed);
		free(runs[l].text);
	}
	cli_names_free(files, n_files);
	free(o.all[0]);
	free(o.all[1]);
	free(runs);
	sim_runner_destroy(runner);
	return status;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_args a;
	memset(&a, 0, sizeof a);
	int status = parse_args(argc, argv, &a);
	if (status < 0)
		status = run(&a);
	opt_list_fini(&a.levels);
	opt_list_fini(&a.sets);
	return status;
}
