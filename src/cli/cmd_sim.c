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
#include <poll.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bestiary.h"
#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "diag.h"
#include "gen.h"
#include "heatmap.h"
#include "level.h"
#include "opt.h"
#include "sim.h"
#include "sim_report.h"
#include "stats.h"
#include "textfile.h"

enum sim_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

#define DEFAULT_GAMES 100
#define DEFAULT_TURNS 1000
#define DEFAULT_MAP_MONSTERS 10

/* --shard I/N: the I-th (1-based) of N slices of the games */
struct shard_arg {
	int i, n;
};

/* --monsters K[:KIND] */
struct monsters_arg {
	int n;                       /* K, -1 when not given */
	const char *kind;            /* the KIND, or NULL */
};

/* --size WxH */
struct size_arg {
	int w, h;                    /* 0 when not given */
};

#define MAX_GEN_TOPOS 16

struct sim_args {
	struct opt_list levels;
	const char *generate;        /* --generate T[,T...], or NULL */
	enum grid_topology gen_topos[MAX_GEN_TOPOS];
	int n_gen_topos;
	struct size_arg size;        /* --size WxH */
	int depth;                   /* --depth D, 0 when not given */
	const char *record;          /* --record DIR, or NULL */
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
	const char *heatmap;         /* --heatmap FILE.svg or "-", or NULL */
	const char *heat_counts;     /* --heat-counts FILE, or NULL */
	int layer;                   /* enum sim_heat_layer */
	int jobs;                    /* worker processes, 1 = none */
	struct shard_arg shard;      /* --shard I/N; n = 0 when not given */
};

/* One level's games: [0] the run (or setting A), [1] setting B of --compare. */
struct sim_level_run {
	struct sim_level src;
	struct level *parsed;        /* owned, for a .lvl */
	struct sim_gen gen;          /* --generate */
	char name[160];              /* the run's name for --generate */
	char *text;                  /* owned file text */
	uint64_t text_hash;          /* heatmap_text_hash of it */
	uint64_t config[2];          /* per side: run_config, the per-game CSV's config column */
	int monsters;                /* at the start of its first game */
	struct sim_game *games[2];
	struct sim_heat heat[2];     /* --heatmap: per side */
};

static const char *const format_choices[] = { "table", "csv", "json", NULL };

/* I/N with 1 <= I <= N <= 1000000. */
static bool parse_shard(const char *text, void *field)
{
	struct shard_arg *sh = field;
	const char *slash = strchr(text, '/');
	char num[32];
	long i, n;
	if (!slash || (size_t)(slash - text) >= sizeof num)
		return false;
	memcpy(num, text, (size_t)(slash - text));
	num[slash - text] = '\0';
	if (!cli_parse_long(num, 1, 1000000, &i) || !cli_parse_long(slash + 1, 1, 1000000, &n) || i > n)
		return false;
	sh->i = (int)i;
	sh->n = (int)n;
	return true;
}

static bool parse_size(const char *text, void *field)
{
	struct size_arg *s = field;
	char *end;
	errno = 0;
	long w = strtol(text, &end, 10);
	if (end == text || (*end != 'x' && *end != 'X') || errno)
		return false;
	const char *p = end + 1;
	long h = strtol(p, &end, 10);
	if (end == p || *end || errno || w < GEN_MIN_WIDTH || h < GEN_MIN_HEIGHT || w > LEVEL_MAX_SIDE ||
	    h > LEVEL_MAX_SIDE)
		return false;
	s->w = (int)w;
	s->h = (int)h;
	return true;
}

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
	{ .name = "heatmap", .kind = OPT_STRING, .offset = ARG(heatmap), .metavar = "FILE",
	  .help = "draw where things happened on the level (one LEVEL):\n"
		  "an SVG picture to FILE, or with - the same as text on\n"
		  "stdout (coloured; plain with NO_COLOR).  With --compare:\n"
		  "B minus A on one diverging scale" },
	{ .name = "heat-counts", .kind = OPT_STRING, .offset = ARG(heat_counts), .metavar = "FILE",
	  .help = "write the heat of every layer (both sides under\n"
		  "--compare) as counts to FILE, for astray sim-report\n"
		  "--heatmap to add up over --shard slices (one LEVEL)" },
	{ .name = "layer", .kind = OPT_CHOICE, .offset = ARG(layer), .metavar = "L", .choices = sim_heat_layer_names,
	  .help = "the heat map's layer (default occupancy):\n"
		  "  occupancy  monster actions taken on each cell\n"
		  "  contact    the player's cell at first contact\n"
		  "  deaths     the player's cell when killed\n"
		  "  blocked    waits of monsters blocked by another" },
	{ .name = "jobs", .kind = OPT_INT, .offset = ARG(jobs), .metavar = "N", .lo = 1, .hi = 256,
	  .help = "play the games in N worker processes; the output is\n"
		  "the same as with 1 (time columns aside)" },
	{ .name = "shard", .kind = OPT_CUSTOM, .offset = ARG(shard), .metavar = "I/N",
	  .parse = parse_shard, .want = "I/N with 1 <= I <= N",
	  .help = "play only the I-th of N equal slices of the games and\n"
		  "write their per-game CSV (implies --per-game --format\n"
		  "csv); astray sim-report merges the slices" },
	{ .name = "generate", .kind = OPT_STRING, .offset = ARG(generate), .metavar = "T[,T...]",
	  .help = "play on generated levels instead of LEVEL files: game i\n"
		  "on the level gen makes from seed S+i, topologies\n"
		  "(square4, square8, hex, ...) taken in turn" },
	{ .name = "size", .kind = OPT_CUSTOM, .offset = ARG(size), .metavar = "WxH",
	  .parse = parse_size, .want = "WxH (at least " STR(GEN_MIN_WIDTH) "x" STR(GEN_MIN_HEIGHT) ")",
	  .help = "--generate: the size of the levels (default: one screen\n"
		  "for each topology)" },
	{ .name = "depth", .kind = OPT_INT, .offset = ARG(depth), .metavar = "D", .lo = 1, .hi = GEN_MAX_DEPTH,
	  .help = "--generate: the depth of the levels (default 1)" },
	{ .name = "record", .kind = OPT_STRING, .offset = ARG(record), .metavar = "DIR",
	  .help = "write one journal per game into DIR (created if\n"
		  "missing), DIR/LEVEL-SEED.jnl (LEVEL-A-SEED.jnl and\n"
		  "LEVEL-B-SEED.jnl under --compare): watch one with\n"
		  "astray replay FILE" },
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
		char left[32], text[256];
		snprintf(left, sizeof left, "  %s", mi->name);
		snprintf(text, sizeof text, "%s%s%s", mi->time ? "* " : "", mi->rate ? "rate: " : "", mi->doc);
		opt_print_row(out, left, 23, text);
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
		"  per game: level,game,seed,outcome,monsters,config,<metrics> (--shard\n"
		"            writes it; config fingerprints the run's settings, so sim-report\n"
		"            merges only files of one run);\n"
		"            --generate adds run after level, --compare side (A/B) before game\n"
		"  compare:  level,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time\n"
		"level is the file, or \"all\" for every level together; a generated level is\n"
		"gen:TOPOLOGY:WxH:dD:SEED and run names the whole run, as the summary does.\n"
		"docs/sim.md has the rest.\n"
		"\n"
		"A tuner's workflow: do faster orcs kill the player more, and do they find\n"
		"it sooner or jam more?\n"
		"  astray sim levels/08-the-ogre-hall.lvl --games 400 --jobs 2 \\\n"
		"      --compare 'orc.speed=100' 'orc.speed=130' --heatmap deaths.svg \\\n"
		"      --layer deaths\n"
		"then read the verdict (killed, first contact, blocked_waits, stuck...) and\n"
		"open deaths.svg: red where the player fell more under B, blue less; the\n"
		"start is ringed, exits outlined.  For a generated dungeon, write it first:\n"
		"  astray gen --topology square8 --seed 11 --depth 3 -o d11.lvl\n"
		"Split a large sweep over machines with --shard I/N (or --seed ranges) and\n"
		"merge the CSV with astray sim-report (with --heat-counts, the heat map\n"
		"too); docs/sim.md has a GNU parallel recipe.\n");
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

/* Checks --generate's list against the LEVEL arguments; -1 or the exit status. */
static int parse_generate(struct sim_args *a)
{
	if (a->levels.n > 0)
		return opt_usage_error(&sim_command, "give LEVEL files or --generate, not both");
	if (a->heatmap || a->heat_counts)
		return opt_usage_error(&sim_command, "--%s draws one level: it cannot go with --generate",
				       a->heatmap ? "heatmap" : "heat-counts");
	const char *p = a->generate;
	for (;;) {
		size_t n = strcspn(p, ",");
		char word[32];
		enum grid_topology t;
		bool ok = n > 0 && n < sizeof word;
		if (ok) {
			memcpy(word, p, n);
			word[n] = '\0';
			ok = grid_topology_parse(word, &t);
		}
		if (!ok || !gen_supports(t))
			return opt_usage_error(&sim_command, "--generate: '%.*s' is not a topology the generator knows",
					       (int)n, p);
		if (a->n_gen_topos == MAX_GEN_TOPOS)
			return opt_usage_error(&sim_command, "--generate: at most %d topologies", MAX_GEN_TOPOS);
		a->gen_topos[a->n_gen_topos++] = t;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (a->depth == 0)
		a->depth = 1;
	return -1;
}

/* Returns -1 when parsed, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct sim_args *a)
{
	a->games = DEFAULT_GAMES;
	a->seed = 1;
	a->opt.player = SIM_PLAYER_EXIT;
	a->opt.max_turns = DEFAULT_TURNS;
	a->monsters.n = -1;
	a->jobs = 1;
	int status = opt_parse(&sim_command, argc, argv, a, &a->levels, NULL);
	if (status < 0 && a->generate)
		status = parse_generate(a);
	else if (status < 0 && (a->size.w || a->depth))
		status = opt_usage_error(&sim_command, "--size and --depth go with --generate");
	if (status < 0 && a->record && a->opt.chase)
		status = opt_usage_error(&sim_command, "--record cannot go with --chase: its hints to the monsters "
				       "are outside the rules, so a replay could not repeat them");
	if (status < 0 && a->levels.n == 0 && !a->generate)
		status = opt_usage_error(&sim_command, "give at least one level (.lvl or Moving AI .map); "
				       "see astray sim --help");
	if (status < 0 && a->heat_counts && strcmp(a->heat_counts, "-") == 0)
		status = opt_usage_error(&sim_command, "--heat-counts needs a file: standard output carries "
				       "the report (or the slice's CSV)");
	if (status < 0 && a->shard.n > 0) {
		if (a->heatmap)
			status = opt_usage_error(&sim_command, "--shard writes per-game CSV; write the slice's heat "
					       "with --heat-counts FILE and draw it with astray sim-report --heatmap");
		a->per_game = true;
		a->format = FORMAT_CSV;
	}
	return status;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

/* False with the message printed; *usage is 2 for a bad --set value, else
 * left alone. */
static bool load_bestiary(const struct sim_args *a, struct bestiary *b, int *usage)
{
	struct diag_list d = { 0 };
	bool ok = a->bestiary ? bestiary_load_file(a->bestiary, b, &d)
			      : bestiary_load_default(a->generate ? "." : a->levels.v[0], b, &d);
	cli_print_diags(stderr, &d, false, false);
	diag_list_fini(&d);
	if (!ok)
		return false;
	for (int i = 0; i < a->sets.n; i++) {
		char err[256];
		if (!bestiary_set(b, a->sets.v[i], err, sizeof err)) {
			*usage = opt_usage_error(&sim_command, "--set %s: %s", a->sets.v[i], err);
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

/* The one run of --generate; its first level is made now so a bad size is reported before any game. */
static bool load_generated(const struct sim_args *a, struct bestiary *b, struct sim_level_run *lr)
{
	lr->gen = (struct sim_gen){ .topos = a->gen_topos, .n_topos = a->n_gen_topos, .w = a->size.w,
				    .h = a->size.h, .depth = a->depth };
	size_t k = (size_t)snprintf(lr->name, sizeof lr->name, "gen:");
	for (int i = 0; i < a->n_gen_topos && k < sizeof lr->name; i++)
		k += (size_t)snprintf(lr->name + k, sizeof lr->name - k, "%s%s", i ? "," : "",
				      grid_topology_name(a->gen_topos[i]));
	if (k < sizeof lr->name && a->size.w)
		k += (size_t)snprintf(lr->name + k, sizeof lr->name - k, ":%dx%d", a->size.w, a->size.h);
	if (k < sizeof lr->name)
		snprintf(lr->name + k, sizeof lr->name - k, ":d%d", a->depth);
	lr->src.file = lr->name;
	lr->src.gen = &lr->gen;
	struct gen_params p = { .topo = a->gen_topos[0], .w = a->size.w, .h = a->size.h, .depth = a->depth,
				.seed = sim_game_seed(a->seed, 0), .bestiary = b };
	if (!p.w)
		gen_default_size(p.topo, &p.w, &p.h);
	struct gen_result res;
	char err[256];
	if (!gen_level(&p, &res, err, sizeof err)) {
		fprintf(stderr, "astray sim: --generate: %s\n", err);
		return false;
	}
	lr->monsters = res.level->n_monsters;
	gen_result_free(&res);
	return true;
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
		lr->text_hash = heatmap_text_hash(lr->text, len);
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
	lr->text_hash = heatmap_text_hash(lr->text, len);
	lr->src.fixed_text = lr->text;
	lr->src.fixed_len = len;
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
	int first, end;             /* the games played: all, or a --shard slice */
	bool hidden[SIM_METRIC_COUNT]; /* metrics not shown (sim-report: absent from its input) */
	int report_files;           /* sim-report: the CSV files merged; 0 for sim */
	char settings[2][1024];     /* words for the header */
};

static bool shown(const struct out_ctx *o, int m)
{
	return !o->hidden[m] && !(o->a->no_time && sim_metric_info((enum sim_metric)m)->time);
}

/* A per-game value for CSV and JSON: 10 significant digits, more when
 * needed to read back the same double, so that sim-report recomputes
 * exactly the summaries of the run; NaN -> `nan_text`. */
static void put_exact(FILE *f, double v, const char *nan_text)
{
	if (isnan(v) || isinf(v)) {
		fputs(nan_text, f);
		return;
	}
	char buf[40];
	for (int digits = 10; digits <= 17; digits++) {
		snprintf(buf, sizeof buf, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
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

/* A JSON string: valid UTF-8 passes as it is; a byte that is not part of
 * valid UTF-8 (a file name in another encoding) becomes U+FFFD, since a
 * JSON string is Unicode text and cannot carry raw bytes. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = sim_utf8_seq(p);
		if (n == 0) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
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

/* "seeds S..E", or where the seeds pass 2^64 - 1 and start again at 0,
 * "seeds S..18446744073709551615 and 0..E". */
static void describe_seeds(char *buf, size_t size, uint64_t first, int games)
{
	uint64_t last = sim_game_seed(first, games - 1);
	if (games == 1)
		snprintf(buf, size, "seed %llu", (unsigned long long)first);
	else if (last >= first)
		snprintf(buf, size, "seeds %llu..%llu", (unsigned long long)first, (unsigned long long)last);
	else if (first == UINT64_MAX && last == 0)
		snprintf(buf, size, "seeds %llu and 0", (unsigned long long)first);
	else if (first == UINT64_MAX)
		snprintf(buf, size, "seeds %llu and 0..%llu", (unsigned long long)first, (unsigned long long)last);
	else
		snprintf(buf, size, "seeds %llu..%llu and 0..%llu", (unsigned long long)first,
			 (unsigned long long)UINT64_MAX, (unsigned long long)last);
}

static void header_line(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	char seeds[128];
	describe_seeds(seeds, sizeof seeds, a->seed, a->games);
	if (o->report_files > 0) {
		fprintf(f, "astray sim-report: %d game%s per level (%s), merged from %d file%s\n", a->games,
			a->games == 1 ? "" : "s", seeds, o->report_files, o->report_files == 1 ? "" : "s");
		if (a->compare[0])
			fprintf(f, "compare (same seeds for both): A and B as in the files\n");
		return;
	}
	fprintf(f, "astray sim: player %s, %d game%s per level (%s), at most %d turns%s\n",
		sim_player_name(a->opt.player), a->games, a->games == 1 ? "" : "s", seeds, a->opt.max_turns,
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
	       m == SIM_M_FIRST_CONTACT || m == SIM_M_EXPANDED_MEAN || m == SIM_M_AI_MS_MEAN ||
	       m == SIM_M_OSCILLATIONS || m == SIM_M_STUCK || m == SIM_M_BLOCKED_WAITS;
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
		fprintf(f, "  No difference in %s: each game gives the same under A and B (mean %s).\n", mi->label,
			va);
	} else {
		fprintf(f, "  No clear difference in %s: %s (A) vs %s (B), difference B-A %s %s holds 0, could be noise.\n",
			mi->label, va, vb, d, ci);
	}
}

static const char *higher_side(const struct sim_paired *p)
{
	if (p->sign == 0 && p->diff.sd == 0 && p->diff.mean == 0)
		return "same in every game";
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
			 lr->monsters == 1 ? "" : "s",
			 cli_ends_with(lr->src.file, ".map") ? " placed from each seed" : "");
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

static void csv_game_rows(FILE *f, const struct out_ctx *o, const struct sim_level *src, const char *side,
			  uint64_t config, const struct sim_game *g)
{
	for (int i = o->first; i < o->end; i++) {
		char name[160];
		if (src->gen)
			sim_gen_name(src->gen, g[i].index, g[i].seed, name, sizeof name);
		csv_string(f, src->gen ? name : src->file);
		if (src->gen) {
			fputc(',', f);
			csv_string(f, src->file);
		}
		if (side)
			fprintf(f, ",%s", side);
		fprintf(f, ",%d,%llu,%s,%d,%016llx", g[i].index, (unsigned long long)g[i].seed,
			sim_outcome_name(g[i].outcome), g[i].monsters, (unsigned long long)config);
		for (int m = 0; m < SIM_METRIC_COUNT; m++) {
			if (!shown(o, m))
				continue;
			fputc(',', f);
			put_exact(f, g[i].v[m], "");
		}
		fputc('\n', f);
	}
}

static void print_csv(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	if (a->compare[0] && a->per_game) {
		/* --compare per game (a --shard included): the rows of both sides, for sim-report. */
		fprintf(f, "level%s,side,game,seed,outcome,monsters,config", a->generate ? ",run" : "");
		for (int m = 0; m < SIM_METRIC_COUNT; m++)
			if (shown(o, m))
				fprintf(f, ",%s", sim_metric_info((enum sim_metric)m)->name);
		fputc('\n', f);
		for (int l = 0; l < o->n_runs; l++)
			for (int s = 0; s < 2; s++)
				csv_game_rows(f, o, &o->runs[l].src, s ? "B" : "A", o->runs[l].config[s],
					      o->runs[l].games[s]);
	} else if (a->compare[0]) {
		fprintf(f, "level,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time\n");
		for (int l = 0; l < o->n_runs; l++)
			csv_compare_rows(f, o, o->runs[l].src.file, o->runs[l].games[0],
					 o->runs[l].games[1], a->games);
		if (o->n_runs > 1)
			csv_compare_rows(f, o, "all", o->all[0], o->all[1], o->n_all);
	} else if (a->per_game) {
		fprintf(f, "level%s,game,seed,outcome,monsters,config", a->generate ? ",run" : "");
		for (int m = 0; m < SIM_METRIC_COUNT; m++)
			if (shown(o, m))
				fprintf(f, ",%s", sim_metric_info((enum sim_metric)m)->name);
		fputc('\n', f);
		for (int l = 0; l < o->n_runs; l++)
			csv_game_rows(f, o, &o->runs[l].src, NULL, o->runs[l].config[0], o->runs[l].games[0]);
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
			put_exact(f, g[i].v[m], "null");
		}
		fputc('}', f);
	}
	fprintf(f, "\n    ]");
}

static void print_json(FILE *f, const struct out_ctx *o)
{
	const struct sim_args *a = o->a;
	bool cmp = a->compare[0] != NULL;
	if (o->report_files > 0) {
		/* sim-report: the run's settings are not in per-game CSV. */
		fprintf(f, "{\n  \"format\": \"astray-sim 1\",\n  \"report_files\": %d,\n  \"games\": %d,\n"
			   "  \"seed\": %llu,\n  \"time\": %s,\n",
			o->report_files, a->games, (unsigned long long)a->seed, a->no_time ? "false" : "true");
	} else {
		fprintf(f, "{\n  \"format\": \"astray-sim 1\",\n  \"player\": \"%s\",\n  \"games\": %d,\n"
			   "  \"seed\": %llu,\n  \"max_turns\": %d,\n  \"chase\": %s,\n  \"time\": %s,\n",
			sim_player_name(a->opt.player), a->games, (unsigned long long)a->seed,
			a->opt.max_turns, a->opt.chase ? "true" : "false", a->no_time ? "false" : "true");
	}
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

int sim_report_print(const struct sim_report *r)
{
	struct sim_args a;
	memset(&a, 0, sizeof a);
	a.games = r->games;
	a.seed = r->seed;
	a.format = r->format;
	a.no_time = true;
	if (r->compare) {
		a.compare[0] = "A";
		a.compare[1] = "B";
	}
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		if (!r->hidden[m] && sim_metric_info((enum sim_metric)m)->time)
			a.no_time = false;
	struct sim_level_run *runs = calloc((size_t)(r->n_levels > 0 ? r->n_levels : 1), sizeof *runs);
	struct out_ctx o = { .a = &a, .runs = runs, .n_runs = r->n_levels, .first = 0, .end = r->games,
			     .report_files = r->files > 0 ? r->files : 1 };
	int sides = r->compare ? 2 : 1, status = 1;
	size_t total = (size_t)r->n_levels * (size_t)r->games;
	for (int s = 0; s < sides; s++)
		o.all[s] = calloc(total ? total : 1, sizeof *o.all[s]);
	if (!runs || !o.all[0] || (sides == 2 && !o.all[1])) {
		fprintf(stderr, "astray sim-report: out of memory\n");
		goto done;
	}
	memcpy(o.hidden, r->hidden, sizeof o.hidden);
	for (int l = 0; l < r->n_levels; l++) {
		runs[l].src.file = r->levels[l].file;
		runs[l].monsters = r->levels[l].monsters;
		for (int s = 0; s < sides; s++) {
			runs[l].games[s] = o.all[s] + (size_t)l * (size_t)r->games;
			memcpy(runs[l].games[s], r->levels[l].games[s], (size_t)r->games * sizeof(struct sim_game));
		}
	}
	o.n_all = (int)total;
	if (a.format == FORMAT_CSV)
		print_csv(stdout, &o);
	else if (a.format == FORMAT_JSON)
		print_json(stdout, &o);
	else
		print_table(stdout, &o);
	status = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	if (status)
		fprintf(stderr, "astray sim-report: write error on standard output: %s\n", strerror(errno));
done:
	free(o.all[0]);
	free(o.all[1]);
	free(runs);
	return status;
}

/* The games this run plays: [*first, *end) of 0..games-1 (a --shard slice). */
static void game_range(const struct sim_args *a, int *first, int *end)
{
	*first = 0;
	*end = a->games;
	if (a->shard.n > 0) {
		*first = (int)((long long)(a->shard.i - 1) * a->games / a->shard.n);
		*end = (int)((long long)a->shard.i * a->games / a->shard.n);
	}
}

/* Whether the games count heat: for a picture or for a counts file. */
static bool wants_heat(const struct sim_args *a)
{
	return a->heatmap || a->heat_counts;
}

/*
 * The per-game CSV's config column: a fingerprint of everything besides
 * the seed that a game depends on (the scripted player, --turns, --chase,
 * --monsters, --generate's size and depth, every knob of every kind after
 * --bestiary, --set and the side's --compare settings, and the level
 * file's text), so that sim-report refuses to merge files of different
 * runs as one.  The time columns and --jobs are not in it.
 */
static uint64_t run_config(const struct sim_args *a, const struct bestiary *b, uint64_t level_hash)
{
	char text[256 + BESTIARY_MAX_KINDS * 320]; /* a kind's line is under 320 bytes: no cut */
	int head = snprintf(text, sizeof text, "astray-sim-config 1\nplayer %d\nturns %d\nchase %d\nmonsters %d %s\n"
			    "size %dx%d\ndepth %d\nlevel %016llx\n", (int)a->opt.player, a->opt.max_turns,
			    a->opt.chase ? 1 : 0, a->monsters.n, a->monsters.kind ? a->monsters.kind : "-",
			    a->size.w, a->size.h, a->depth, (unsigned long long)level_hash);
	size_t n = head > 0 && (size_t)head < sizeof text ? (size_t)head : 0;
	n += bestiary_describe(b, text + n, sizeof text - n);
	return heatmap_text_hash(text, n < sizeof text ? n : sizeof text - 1);
}

/* What the games of a run share: the levels, the two settings. */
struct play_ctx {
	const struct sim_args *a;
	struct sim_level_run *runs;
	int n_runs;
	int sides;
	struct bestiary side[2];
	struct sim_record rec[2];    /* --record, per side */
};

/* One finished game, as a worker sends it to the parent. */
struct wire_game {
	int level, side;
	struct sim_game g;
};

/*
 * Plays game i of every level and side this worker owns (i in [first,
 * end), i - first = k modulo jobs) into runs[].games and heat, calling
 * done() after each game.  Returns 0, or 1 after reporting the error.
 */
static int play_games(struct play_ctx *pc, int first, int end, int k, int jobs,
		      void (*done)(void *ud, int level, int side, const struct sim_game *g), void *ud)
{
	const struct sim_args *a = pc->a;
	struct sim_runner *runner = sim_runner_create();
	if (!runner) {
		fprintf(stderr, "astray sim: out of memory\n");
		return 1;
	}
	int status = 0;
	for (int l = 0; l < pc->n_runs && status == 0; l++) {
		for (int i = first + k; i < end && status == 0; i += jobs) {
			for (int s = 0; s < pc->sides; s++) {
				struct diag_list d = { 0 };
				struct sim_game *g = &pc->runs[l].games[s][i];
				sim_runner_set_heat(runner, wants_heat(a) ? &pc->runs[l].heat[s] : NULL);
				sim_runner_set_record(runner, a->record ? &pc->rec[s] : NULL);
				if (sim_run_game_at(runner, &pc->runs[l].src, &pc->side[s], i,
						    sim_game_seed(a->seed, i), &a->opt, g, &d) != 0) {
					cli_print_diags(stderr, &d, true, false);
					if (d.n == 0)
						fprintf(stderr, "astray sim: %s: out of memory\n", pc->runs[l].src.file);
					diag_list_fini(&d);
					status = 1;
					break;
				}
				diag_list_fini(&d);
				g->level = l;
				g->index = i;
				done(ud, l, s, g);
			}
		}
	}
	sim_runner_destroy(runner);
	return status;
}

static void progress_done(void *ud, int level, int side, const struct sim_game *g)
{
	(void)level;
	(void)side;
	(void)g;
	progress_step(ud);
}

/* Writes all of buf to fd; false on an error. */
static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

struct worker_out {
	int fd;
	bool failed;
};

static void worker_done(void *ud, int level, int side, const struct sim_game *g)
{
	struct worker_out *w = ud;
	struct wire_game wg = { .level = level, .side = side, .g = *g };
	if (!w->failed && !write_all(w->fd, &wg, sizeof wg))
		w->failed = true;
}

/* A worker process: plays its share, sends each game, then its heat. */
static int worker_main(struct play_ctx *pc, int first, int end, int k, int jobs, int fd)
{
	struct worker_out w = { .fd = fd };
	int status = play_games(pc, first, end, k, jobs, worker_done, &w);
	struct wire_game mark = { .level = -1 };
	if (status == 0 && !w.failed)
		w.failed = !write_all(fd, &mark, sizeof mark);
	for (int l = 0; status == 0 && wants_heat(pc->a) && l < pc->n_runs; l++)
		for (int s = 0; s < pc->sides; s++) {
			const struct sim_heat *h = &pc->runs[l].heat[s];
			int dims[3] = { h->w, h->h, h->topo };
			size_t cells = (size_t)h->w * (size_t)h->h;
			bool ok = write_all(fd, dims, sizeof dims);
			if (cells > 0) {
				ok = ok && write_all(fd, h->tiles, cells);
				for (int layer = 0; layer < SIM_HEAT_COUNT; layer++)
					ok = ok && write_all(fd, h->v[layer], cells * sizeof(double));
			}
			w.failed |= !ok;
		}
	close(fd);
	if (w.failed && status == 0)
		fprintf(stderr, "astray sim: worker: cannot send results: %s\n", strerror(errno));
	return status || w.failed ? 1 : 0;
}

struct buffer {
	char *p;
	size_t n, cap;
};

/* Takes a worker's stream apart: games into place, heat added. */
static bool absorb(struct play_ctx *pc, const struct buffer *b)
{
	size_t at = 0;
	for (;;) {
		struct wire_game wg;
		if (b->n - at < sizeof wg)
			return false;
		memcpy(&wg, b->p + at, sizeof wg);
		at += sizeof wg;
		if (wg.level < 0)
			break;
		if (wg.level >= pc->n_runs || wg.side < 0 || wg.side >= pc->sides || wg.g.index < 0 ||
		    wg.g.index >= pc->a->games)
			return false;
		pc->runs[wg.level].games[wg.side][wg.g.index] = wg.g;
	}
	for (int l = 0; wants_heat(pc->a) && l < pc->n_runs; l++)
		for (int s = 0; s < pc->sides; s++) {
			int dims[3];
			if (b->n - at < sizeof dims)
				return false;
			memcpy(dims, b->p + at, sizeof dims);
			at += sizeof dims;
			size_t cells = (size_t)dims[0] * (size_t)dims[1];
			if (cells == 0)
				continue;
			if (b->n - at < cells * (1 + SIM_HEAT_COUNT * sizeof(double)))
				return false;
			struct sim_heat h = { .w = dims[0], .h = dims[1], .topo = dims[2],
					      .tiles = (uint8_t *)(b->p + at) };
			at += cells;
			double *layers[SIM_HEAT_COUNT];
			for (int layer = 0; layer < SIM_HEAT_COUNT; layer++) {
				layers[layer] = malloc(cells * sizeof(double));
				if (layers[layer])
					memcpy(layers[layer], b->p + at, cells * sizeof(double));
				h.v[layer] = layers[layer];
				at += cells * sizeof(double);
			}
			bool ok = true;
			for (int layer = 0; layer < SIM_HEAT_COUNT; layer++)
				ok = ok && layers[layer];
			ok = ok && sim_heat_add(&pc->runs[l].heat[s], &h);
			for (int layer = 0; layer < SIM_HEAT_COUNT; layer++)
				free(layers[layer]);
			if (!ok)
				return false;
		}
	return at == b->n;
}

/*
 * --jobs N: forks N workers, each playing every N-th game of the slice and
 * sending its results through a pipe; the parent puts every game in its
 * place by (level, side, index) and adds up the heat, so the output does
 * not depend on which worker played what (counts are whole numbers, exact
 * in any order).  Returns 0, or 1 after reporting.
 */
static int play_parallel(struct play_ctx *pc, int first, int end, struct progress *pr)
{
	int jobs = pc->a->jobs;
	pid_t *pid = calloc((size_t)jobs, sizeof *pid);
	struct pollfd *fds = calloc((size_t)jobs, sizeof *fds);
	struct buffer *buf = calloc((size_t)jobs, sizeof *buf);
	int status = 0, open_fds = 0;
	if (!pid || !fds || !buf) {
		fprintf(stderr, "astray sim: out of memory\n");
		status = 1;
		goto done;
	}
	fflush(stdout);
	fflush(stderr);
	for (int k = 0; k < jobs; k++) {
		int p[2];
		fds[k].fd = -1;
		if (pipe(p) != 0 || (pid[k] = fork()) < 0) {
			fprintf(stderr, "astray sim: cannot start worker %d: %s\n", k + 1, strerror(errno));
			status = 1;
			break;
		}
		if (pid[k] == 0) {
			close(p[0]);
			for (int j = 0; j < k; j++)
				if (fds[j].fd >= 0)
					close(fds[j].fd);
			_exit(worker_main(pc, first, end, k, jobs, p[1]));
		}
		close(p[1]);
		fds[k].fd = p[0];
		fds[k].events = POLLIN;
		open_fds++;
	}
	long games_seen = 0;
	while (open_fds > 0) {
		if (poll(fds, (nfds_t)jobs, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "astray sim: poll: %s\n", strerror(errno));
			status = 1;
			break;
		}
		for (int k = 0; k < jobs; k++) {
			if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			struct buffer *b = &buf[k];
			if (b->cap - b->n < 65536) {
				size_t cap = b->cap ? 2 * b->cap : 1 << 20;
				char *grown = realloc(b->p, cap);
				if (!grown) {
					fprintf(stderr, "astray sim: out of memory\n");
					status = 1;
					close(fds[k].fd);
					fds[k].fd = -1;
					open_fds--;
					continue;
				}
				b->p = grown;
				b->cap = cap;
			}
			ssize_t r = read(fds[k].fd, b->p + b->n, b->cap - b->n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(fds[k].fd);
				fds[k].fd = -1;
				open_fds--;
				continue;
			}
			b->n += (size_t)r;
		}
		/* Progress: the games in the streams so far (heat comes last). */
		long seen = 0;
		for (int k = 0; k < jobs; k++)
			seen += (long)(buf[k].n / sizeof(struct wire_game));
		for (; games_seen < seen && games_seen < pr->total; games_seen++)
			progress_step(pr);
	}
	for (int k = 0; k < jobs; k++) {
		int ws = 0;
		if (pid[k] <= 0)
			continue;
		while (waitpid(pid[k], &ws, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
			status = 1; /* the worker said why on stderr */
			continue;
		}
		if (status == 0 && !absorb(pc, &buf[k])) {
			fprintf(stderr, "astray sim: worker %d sent incomplete results\n", k + 1);
			status = 1;
		}
	}
done:
	for (int k = 0; buf && k < jobs; k++)
		free(buf[k].p);
	free(buf);
	free(fds);
	free(pid);
	return status;
}

/* Whether the --heatmap (or --heat-counts) file can be written: its folder exists and takes
 * files (the message printed when not).  The file itself is written only
 * after the games, so a run that fails leaves no half picture. */
static bool heatmap_path_writable(const char *opt, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "astray sim: --%s %s: the folder %s: %s\n", opt, path, dir, strerror(errno));
		return false;
	}
	return true;
}

/* What the heat of games [first, end) of the one level is of, for its
 * title and its counts file. */
static void heat_run(const struct sim_args *a, const struct sim_level_run *lr, int first, int end,
		     struct heatmap_run *run)
{
	memset(run, 0, sizeof *run);
	snprintf(run->level, sizeof run->level, "%s", lr->src.file);
	run->level_hash = lr->text_hash;
	run->games = end - first;
	run->seed = sim_game_seed(a->seed, first);
	snprintf(run->player, sizeof run->player, "%s", sim_player_name(a->opt.player));
	run->chase = a->opt.chase;
	run->max_turns = a->opt.max_turns;
	run->compare = a->compare[0] != NULL;
	describe_settings(run->settings[0], sizeof run->settings[0], a, a->compare[0]);
	if (run->compare)
		describe_settings(run->settings[1], sizeof run->settings[1], a, a->compare[1]);
	/* A .lvl starts the player on one cell; a .map places it anew each game. */
	run->start = lr->parsed ? lr->parsed->player_y * lr->parsed->w + lr->parsed->player_x : -1;
}

static int write_heatmap(const struct sim_args *a, struct sim_level_run *lr)
{
	const struct sim_heat *ha = &lr->heat[0], *hb = a->compare[0] ? &lr->heat[1] : NULL;
	/* Two lines: what is drawn, then the run's settings, so a picture
	 * opened later still says which change it shows. */
	struct heatmap_run run;
	char title[3400];
	heat_run(a, lr, 0, a->games, &run);
	heatmap_title(title, sizeof title, &run, (enum sim_heat_layer)a->layer);
	if (strcmp(a->heatmap, "-") == 0) {
		const char *nc = getenv("NO_COLOR");
		bool color = !(nc && *nc) && isatty(STDOUT_FILENO);
		fprintf(stdout, "\n%s\n", title);
		heatmap_write_text(stdout, ha, hb, (enum sim_heat_layer)a->layer, color, run.start);
		return 0;
	}
	FILE *f = fopen(a->heatmap, "w");
	if (!f) {
		fprintf(stderr, "astray sim: %s: %s\n", a->heatmap, strerror(errno));
		return 1;
	}
	int rc = heatmap_write_svg(f, ha, hb, (enum sim_heat_layer)a->layer, title, run.start);
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "astray sim: %s: write error: %s\n", a->heatmap, strerror(errno));
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr, "astray sim: %s: no games to draw\n", a->heatmap);
		return 1;
	}
	return 0;
}

/* Writes --heat-counts for the one level's games [first, end); 0 or 1 after reporting. */
static int write_heat_counts(const struct sim_args *a, struct sim_level_run *lr, int first, int end)
{
	if (end <= first) {
		fprintf(stderr, "astray sim: --heat-counts %s: this slice has no games (--shard %d/%d of %d games): "
				"nothing to count\n", a->heat_counts, a->shard.i, a->shard.n, a->games);
		return 1;
	}
	struct heatmap_run run;
	heat_run(a, lr, first, end, &run);
	FILE *f = fopen(a->heat_counts, "w");
	if (!f) {
		fprintf(stderr, "astray sim: --heat-counts %s: %s\n", a->heat_counts, strerror(errno));
		return 1;
	}
	int rc = heatmap_counts_write(f, &run, &lr->heat[0], a->compare[0] ? &lr->heat[1] : NULL);
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "astray sim: --heat-counts %s: write error: %s\n", a->heat_counts, strerror(errno));
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr, "astray sim: --heat-counts %s: a level name or setting holds a line break, "
				"which the counts file cannot carry\n", a->heat_counts);
		return 1;
	}
	return 0;
}

/* The results to stdout; 0, or 1 after reporting a write error. */
static int finish_output(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "astray sim: write error on standard output: %s\n",
		errno ? strerror(errno) : "unknown error");
	return 1;
}

/* Splits a --compare settings list as sim_apply_settings does, appending copies to list. */
static bool split_settings(const char *p, char ***list, int *n, int *cap)
{
	for (;;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		if (!*p)
			return true;
		size_t k = strcspn(p, " ,\t");
		char one[256];
		snprintf(one, sizeof one, "%.*s", (int)(k < sizeof one ? k : sizeof one - 1), p);
		if (!push_name(list, n, cap, one))
			return false;
		p += k;
	}
}

/* Everything --record keeps the same for every game: the bestiary's text and each side's overrides. */
struct record_ctx {
	char *bestiary_text;
	char bestiary_path[4096];
	char **sets[2];
	int n_sets[2];
};

static bool record_prepare(const struct sim_args *a, struct play_ctx *pc, struct record_ctx *rc)
{
	if (mkdir(a->record, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "astray sim: --record %s: %s\n", a->record, strerror(errno));
		return false;
	}
	const char *path = a->bestiary;
	if (!path)
		path = bestiary_default_path(a->generate ? "." : a->levels.v[0], rc->bestiary_path,
					     sizeof rc->bestiary_path);
	size_t len = 0;
	int err = path ? textfile_read(path, &rc->bestiary_text, &len) : ENOENT;
	if (err) {
		fprintf(stderr, "astray sim: --record: the bestiary %s: %s\n", path ? path : "", strerror(err));
		return false;
	}
	for (int s = 0; s < pc->sides; s++) {
		int cap = 0;
		bool ok = true;
		for (int i = 0; ok && i < a->sets.n; i++)
			ok = push_name(&rc->sets[s], &rc->n_sets[s], &cap, a->sets.v[i]);
		if (ok && a->compare[0])
			ok = split_settings(a->compare[s], &rc->sets[s], &rc->n_sets[s], &cap);
		if (!ok) {
			fprintf(stderr, "astray sim: out of memory\n");
			return false;
		}
		pc->rec[s] = (struct sim_record){
			.dir = a->record, .program = ASTRAY_VERSION, .bestiary_name = path,
			.bestiary_text = rc->bestiary_text, .bestiary_len = len,
			.sets = (const char *const *)rc->sets[s], .n_sets = rc->n_sets[s],
			.side = a->compare[0] ? (s ? "B" : "A") : NULL,
		};
	}
	return true;
}

static int run(const struct sim_args *a)
{
	struct record_ctx recx = { 0 };
	struct bestiary base;
	int status = 1, n_files = 0;
	char **files = NULL;
	if (a->generate) {
		files = calloc(1, sizeof *files);
		n_files = 1;
	} else {
		files = expand_levels(a, &n_files);
	}
	if (!files)
		return 1;
	struct sim_level_run *runs = calloc((size_t)n_files, sizeof *runs);
	struct out_ctx o = { .a = a, .runs = runs, .n_runs = n_files };
	struct play_ctx pc = { .a = a, .runs = runs, .n_runs = n_files, .sides = a->compare[0] ? 2 : 1 };
	char glyph = 0;
	if (!runs) {
		fprintf(stderr, "astray sim: out of memory\n");
		goto done;
	}
	if (wants_heat(a) && n_files != 1) {
		status = opt_usage_error(&sim_command, "--%s draws one level: give one LEVEL",
					 a->heatmap ? "heatmap" : "heat-counts");
		goto done;
	}
	if (a->heatmap && strcmp(a->heatmap, "-") != 0 && !heatmap_path_writable("heatmap", a->heatmap))
		goto done; /* said before the games, not after they were all played */
	if (a->heat_counts && !heatmap_path_writable("heat-counts", a->heat_counts))
		goto done;
	if (!load_bestiary(a, &base, &status))
		goto done;
	for (int s = 0; s < pc.sides; s++) {
		char err[256];
		pc.side[s] = base;
		const char *extra = a->compare[0] ? a->compare[s] : NULL;
		if (extra && !sim_apply_settings(&pc.side[s], extra, err, sizeof err)) {
			status = opt_usage_error(&sim_command, "--compare %s: %s", s ? "B" : "A", err);
			goto done;
		}
		describe_settings(o.settings[s], sizeof o.settings[s], a, extra);
	}
	bool any_map = false;
	for (int l = 0; l < n_files && !a->generate; l++)
		any_map |= cli_ends_with(files[l], ".map");
	if (a->monsters.n >= 0 && !any_map)
		fprintf(stderr, "astray sim: note: --monsters applies to .map files; .lvl files keep their own monsters\n");
	if (any_map && !monster_glyph(a, &base, &glyph))
		goto done;
	if (a->generate && !load_generated(a, &base, &runs[0]))
		goto done;
	for (int l = 0; l < n_files && !a->generate; l++)
		if (!load_level(a, &base, glyph, &runs[l], files[l]))
			goto done;

	for (int l = 0; l < n_files; l++)
		for (int s = 0; s < pc.sides; s++)
			runs[l].config[s] = run_config(a, &pc.side[s], runs[l].text_hash);
	if (a->record && !record_prepare(a, &pc, &recx))
		goto done;
	size_t total = (size_t)n_files * (size_t)a->games;
	for (int s = 0; s < pc.sides; s++) {
		o.all[s] = calloc(total, sizeof *o.all[s]);
		if (!o.all[s]) {
			fprintf(stderr, "astray sim: out of memory\n");
			goto done;
		}
	}
	for (int l = 0; l < n_files; l++)
		for (int s = 0; s < pc.sides; s++)
			runs[l].games[s] = o.all[s] + (size_t)l * (size_t)a->games;
	int first, end;
	game_range(a, &first, &end);
	struct progress pr = { .tty = isatty(STDERR_FILENO) != 0, .start = clock_ms(),
			       .total = (long)n_files * (end - first) * pc.sides };
	int played = a->jobs > 1 && end - first > 1 ? play_parallel(&pc, first, end, &pr)
						      : play_games(&pc, first, end, 0, 1, progress_done, &pr);
	progress_end(&pr);
	if (played != 0)
		goto done;
	o.n_all = (int)total;
	o.first = first;
	o.end = end;
	if (a->format == FORMAT_CSV)
		print_csv(stdout, &o);
	else if (a->format == FORMAT_JSON)
		print_json(stdout, &o);
	else
		print_table(stdout, &o);
	status = a->heatmap ? write_heatmap(a, &runs[0]) : 0;
	if (status == 0 && a->heat_counts)
		status = write_heat_counts(a, &runs[0], first, end);
	if (finish_output() != 0)
		status = 1;
done:
	for (int l = 0; runs && l < n_files; l++) {
		level_destroy(runs[l].parsed);
		free(runs[l].text);
		sim_heat_fini(&runs[l].heat[0]);
		sim_heat_fini(&runs[l].heat[1]);
	}
	cli_names_free(files, n_files);
	free(recx.bestiary_text);
	cli_names_free(recx.sets[0], recx.n_sets[0]);
	cli_names_free(recx.sets[1], recx.n_sets[1]);
	free(o.all[0]);
	free(o.all[1]);
	free(runs);
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
