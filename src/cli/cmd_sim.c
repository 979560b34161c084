/*
 * cmd_sim.c - the command `astray sim`: its options and --help, the
 * checks between them, and the run in order: load (sim_load.c), play
 * (sim_workers.c), write (sim_write.c).  It decides the exit status;
 * the games themselves are sim.c's, which never prints.  docs/sim.md
 * describes every column; --help lists them from the same table.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ai.h"
#include "bestiary.h"
#include "cli.h"
#include "cmd.h"
#include "dungeon.h"
#include "gen.h"
#include "help.h"
#include "level.h"
#include "opt.h"
#include "sim.h"
#include "sim_cmd.h"
#include "sim_sweep.h"

#define DEFAULT_GAMES 100
#define DEFAULT_TURNS 1000
#define DEFAULT_DUNGEON_TURNS 2000 /* per level of --dungeon */

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
	  .help = "game i (0-based) uses seed S+i (default 1); the same seeds on every level and for both "
		  "sides of --compare" },
	{ .name = "player", .kind = OPT_CUSTOM, .offset = ARG(opt.player), .metavar = "P",
	  .parse = parse_player, .want = "exit, flee, idle, fight or bot",
	  .help = "the scripted player (default exit):\n"
		  "exit\twalks the A* route to the nearest exit, attacking a monster in the way; takes the "
		  "stairs\n"
		  "flee\tsteps to the cell farthest from the nearest seen monster (waits when none is seen); "
		  "takes the stairs\n"
		  "idle\twaits every turn\n"
		  "fight\twalks to the nearest monster and attacks it, round the stairs; with none left, takes "
		  "them\n"
		  "bot\tplays as a careful player from what the player knows: explores, fights from corridors, "
		  "shoots with a sling or bow it finds, but not at what a few blows finish, and picks "
		  "its ammunition up, strews caltrops before a dear fight and behind it when it runs, zaps a "
		  "wand of digging for a much shorter way to the stairs, drinks when low, rests when safe, "
		  "flees to the stairs when outmatched, descends once the level is explored (docs/sim.md)" },
	{ .name = "turns", .kind = OPT_INT, .offset = ARG(opt.max_turns), .metavar = "T", .lo = 1, .hi = 100000000,
	  .help = "a game still going at turn T is out of turns (default " STR(DEFAULT_TURNS) "; with "
		  "--dungeon " STR(DEFAULT_DUNGEON_TURNS) " per level)" },
	{ .name = "format", .kind = OPT_CHOICE, .offset = ARG(format), .metavar = "F", .choices = format_choices,
	  .help = "table (default), csv or json" },
	{ .name = "per-game", .kind = OPT_FLAG, .offset = ARG(per_game),
	  .help = "one row per game as well (csv: instead of the summary)" },
	{ .name = "no-time", .kind = OPT_FLAG, .offset = ARG(no_time),
	  .help = "leave out the wall-clock columns, so runs can be diffed" },
	{ .name = "chase", .kind = OPT_FLAG, .offset = ARG(opt.chase),
	  .help = "every monster is told where the player is before each of the player's actions, so all "
		  "of them hunt (scale runs on maps larger than any sight radius)" },
	{ .name = "set", .kind = OPT_LIST, .offset = ARG(sets), .metavar = "KIND.KEY=VALUE",
	  .help = "override a bestiary knob, an item knob of levels/items.txt as ITEM.KEY=VALUE, or with "
		  "rules.KEY=VALUE one of the game's (growth, to-hit, arrivals, healing); repeatable" },
	{ .name = "bestiary", .kind = OPT_STRING, .offset = ARG(bestiary), .metavar = "FILE",
	  .help = "the bestiary; by default the one beside the first level, in levels/, the installed "
		  "one, or the one of the levels the program came with" },
	{ .name = "monsters", .kind = OPT_CUSTOM, .offset = ARG(monsters), .metavar = "K[:KIND]",
	  .parse = parse_monsters, .want = "K or K:KIND",
	  .help = "monsters placed on a .map; default " STR(SIM_DEFAULT_MAP_MONSTERS) " of the first kind" },
	{ .name = "heatmap", .kind = OPT_STRING, .offset = ARG(heatmap), .metavar = "FILE",
	  .help = "draw where things happened on the level (one LEVEL): an SVG picture to FILE, or with - "
		  "the same as text on stdout (coloured; plain with NO_COLOR).  With --compare: B minus A on "
		  "one diverging scale" },
	{ .name = "heat-counts", .kind = OPT_STRING, .offset = ARG(heat_counts), .metavar = "FILE",
	  .help = "write the heat of every layer, of both sides under --compare, as counts to FILE for "
		  "astray sim-report --heatmap to add up over --shard slices (one LEVEL)" },
	{ .name = "layer", .kind = OPT_CHOICE, .offset = ARG(layer), .metavar = "L", .choices = sim_heat_layer_names,
	  .help = "the heat map's layer (default occupancy):\n"
		  "occupancy\tmonster actions taken on each cell\n"
		  "contact\tthe player's cell at first contact\n"
		  "deaths\tthe player's cell when killed\n"
		  "blocked\twaits of monsters blocked by another" },
	{ .name = "heat-kind", .kind = OPT_STRING, .offset = ARG(heat_kind), .metavar = "KIND",
	  .help = "the heat of one monster kind, named as in --set: occupancy and blocked count its "
		  "monsters only, contact the player's cell at its first contact of each game, deaths where "
		  "its blow killed the player; the picture's title names it.  The same as --kind" },
	{ .name = "kind", .kind = OPT_STRING, .offset = ARG(heat_kind), .metavar = "KIND",
	  .help = "the heat map of one monster kind: the same as --heat-kind" },
	{ .name = "jobs", .kind = OPT_INT, .offset = ARG(jobs), .metavar = "N", .lo = 1, .hi = 256,
	  .help = "play the games in N worker processes; the output is the same as with 1 (time columns "
		  "aside)" },
	{ .name = "shard", .kind = OPT_CUSTOM, .offset = ARG(shard), .metavar = "I/N",
	  .parse = parse_shard, .want = "I/N with 1 <= I <= N",
	  .help = "play only the I-th of N equal slices of the games and write their per-game CSV: it "
		  "implies --per-game --format csv.  astray sim-report merges the slices" },
	{ .name = "generate", .kind = OPT_STRING, .offset = ARG(generate), .metavar = "T[,T...]",
	  .help = "play on generated levels instead of LEVEL files: game i on the level gen makes from "
		  "seed S+i, topologies (square4, square8, hex, ...) taken in turn" },
	{ .name = "size", .kind = OPT_CUSTOM, .offset = ARG(size), .metavar = "WxH",
	  .parse = parse_size, .want = "WxH (at least " STR(GEN_MIN_WIDTH) "x" STR(GEN_MIN_HEIGHT) ")",
	  .help = "--generate: the size of the levels; by default one screen for each topology" },
	{ .name = "dungeon", .kind = OPT_FLAG, .offset = ARG(dungeon),
	  .help = "each game plays a whole generated dungeon, the one play --dungeon --seed makes from the "
		  "game's seed; going down the last stairs is an escape (a win).  Not with LEVEL, --generate, "
		  "--heatmap or --heat-counts" },
	{ .name = "depth", .kind = OPT_INT, .offset = ARG(depth), .metavar = "D", .lo = 1, .hi = GEN_MAX_DEPTH,
	  .help = "--generate: the depth of the levels (default 1); --dungeon: its number of levels "
		  "(default " STR(DUNGEON_DEFAULT_LEVELS) ")" },
	{ .name = "record", .kind = OPT_STRING, .offset = ARG(record), .metavar = "DIR",
	  .help = "write one journal per game into DIR, created if missing: DIR/LEVEL-SEED.jnl, or "
		  "LEVEL-A-SEED.jnl and LEVEL-B-SEED.jnl under --compare; watch one with astray replay FILE.  "
		  "A journal of the same name already there is an error, unless --force" },
	{ .name = "force", .kind = OPT_FLAG, .offset = ARG(force),
	  .help = "--record: replace the journals of the same names that DIR already holds (other files "
		  "in DIR are left as they are)" },
	{ .name = "compare", .kind = OPT_PAIR, .offset = ARG(compare), .metavar = "'A' 'B'",
	  .help = "run every game under settings A and under settings B, each a list of KIND.KEY=VALUE "
		  "separated by spaces or commas (on top of --set), and report B-A with a paired 95% "
		  "interval" },
	{ .name = "sweep", .kind = OPT_STRING, .offset = ARG(sweep), .metavar = "KNOB=VALUES",
	  .help = "play the same seeds once per value of one knob (VALUES: LO..HI:STEP or V1,V2,...), each "
		  "value added to --set, and write one CSV: setting,value,level,metric,mean,lo,hi,n.  With "
		  "--per-game or --shard: the per-game CSV with a sweep column first, which astray sim-report "
		  "merges into the same CSV" },
	{ .name = "sweep-plot", .kind = OPT_STRING, .offset = ARG(sweep_plot), .metavar = "FILE",
	  .help = "--sweep: an SVG line plot to FILE of each --sweep-metric against the value, its 95% "
		  "interval as a band (of all levels together when there are several)" },
	{ .name = "sweep-metric", .kind = OPT_STRING, .offset = ARG(sweep_metric), .metavar = "M,...",
	  .help = "the metrics --sweep-plot draws, one panel each (default killed; with --dungeon escaped,depth); "
		  "a metric or KIND.METRIC" },
};
#undef ARG

static void sim_usage(FILE *out);

static const struct opt_command sim_command = {
	"sim", sim_opts, (int)(sizeof sim_opts / sizeof sim_opts[0]), sim_usage
};

const struct opt_command *cmd_sim_opts(size_t *args_size)
{
	*args_size = sizeof(struct sim_args);
	return &sim_command;
}

static void sim_usage(FILE *out)
{
	help_usage(out, "sim", (const char *const[]){ "LEVEL... [options]", "--dungeon [--depth N] [options]", NULL });
	help_text(out, 0,
		  "\nPlays headless games with a scripted player, using the same game code as play, and reports "
		  "how the monsters did with 95% confidence intervals.  LEVEL is a .lvl file, a folder (its .lvl "
		  "files in name order) or a Moving AI .map (player, exit and monsters are then placed from each "
		  "game's seed).  Each level is played on its own: taking its exit is an escape, there is no "
		  "next level.  With --dungeon each game is a whole dungeon instead: its levels one after "
		  "another, an escape from the last one a win; depth says where each game ended.");
	opt_print_help(out, &sim_command);
	help_text(out, 0, "\nmetrics (CSV columns and JSON keys; * = wall clock, differs run to run):");
	int col = 0;
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		int len = (int)strlen(sim_metric_info((enum sim_metric)m)->name);
		col = len > col ? len : col;
	}
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		char left[32], text[256];
		snprintf(left, sizeof left, "  %s", mi->name);
		snprintf(text, sizeof text, "%s%s%s", mi->time ? "* " : "", mi->rate ? "rate: " : "", mi->doc);
		help_row(out, left, 2 + col + 2, text);
	}
	help_text(out, 0, "\nper kind, KIND.METRIC for every kind of the bestiary: empty where the game has none of "
			  "it, and the summaries count the games that have it:");
	for (int m = 0; m < SIM_KIND_METRIC_COUNT; m++) {
		const struct sim_kind_metric_info *ki = sim_kind_metric_info((enum sim_kind_metric)m);
		char left[40];
		snprintf(left, sizeof left, "  KIND.%s", ki->name);
		help_row(out, left, 2 + col + 2, ki->doc);
	}
	help_text(out, 0,
		  "\nRates get Wilson intervals; other means (never negative) a seeded bootstrap percentile "
		  "interval over games, which stays inside the values' range; p95 is the nearest-rank 95th "
		  "percentile within a game, averaged over games.  AI time is the monsters' part of game_act "
		  "(perception, searches, moves, attacks) per game turn, as the game measures it; the player's "
		  "move, FOV and the scripted player's own route are not counted.  Games with the same trace "
		  "(positions and hit points, turn by turn) are one game: distinct_games counts them, each "
		  "interval is as wide as the distinct games allow, and none is given when every game is the "
		  "same.  --compare verdicts ignore a difference below its metric's floor (0.01 ms for time "
		  "columns).  The scripted players break ties from a stream of their own, seeded by the game's "
		  "seed; every player but idle ends its games (timeouts counts those it did not).\n"
		  "\n"
		  "CSV columns:\n"
		  "summary:\tlevel,metric,n,mean,sd,ci_lo,ci_hi,successes,time, then the columns distinct and "
		  "distinct_games\n"
		  "per game:\tlevel,game,seed,outcome,monsters,config,<metrics>,<per kind>,<time metrics>,"
		  "killer,topology,trace,settings, which --shard writes; config "
		  "fingerprints the run's settings, so sim-report merges only files of one run, and settings "
		  "words them for its header; --generate adds "
		  "run after level, --compare side (A/B) before game, --sweep sweep first\n"
		  "compare:\tlevel,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time, then "
		  "distinct,distinct_games,floor,practical\n"
		  "sweep:\tsetting,value,level,metric,mean,lo,hi,n\n"
		  "JSON: docs/sim.schema.json lists every key.\n"
		  "level is the file, or \"all\" for every level together; a generated level is "
		  "gen:TOPOLOGY:WxH:dD:SEED and run names the whole run, as the summary does.  docs/sim.md has "
		  "the rest.\n"
		  "\n"
		  "A tuner's workflow: do faster orcs kill the player more, and do they find it sooner or jam "
		  "more?\n"
		  "  astray sim levels/08-the-ogre-hall.lvl --games 400 --jobs 2 \\\n"
		  "      --compare 'orc.speed=100' 'orc.speed=130' --heatmap deaths.svg \\\n"
		  "      --layer deaths\n"
		  "then read the verdict (killed, first contact, blocked_waits, stuck...) and open deaths.svg: "
		  "red where the player fell more under B, blue less; the start is ringed, exits outlined.  For a "
		  "generated dungeon, write it first:\n"
		  "  astray gen --topology square8 --seed 11 --depth 3 -o d11.lvl\n"
		  "Split a large sweep over machines with --shard I/N (or --seed ranges) and merge the CSV with "
		  "astray sim-report (with --heat-counts, the heat map too); docs/sim.md has a GNU parallel "
		  "recipe.");
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
		if (a->n_gen_topos == SIM_MAX_GEN_TOPOS)
			return opt_usage_error(&sim_command, "--generate: at most %d topologies", SIM_MAX_GEN_TOPOS);
		a->gen_topos[a->n_gen_topos++] = t;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (a->depth == 0)
		a->depth = 1;
	return -1;
}

/* Checks --dungeon against the other options; -1 or the exit status. */
static int parse_dungeon(struct sim_args *a)
{
	if (a->levels.n > 0 || a->generate)
		return opt_usage_error(&sim_command, "--dungeon makes its own levels: give no LEVEL or --generate");
	if (a->size.w)
		return opt_usage_error(&sim_command, "--size goes with --generate; a dungeon sizes its own levels");
	if (a->heatmap || a->heat_counts)
		return opt_usage_error(&sim_command, "--%s draws one level: it cannot go with --dungeon",
				       a->heatmap ? "heatmap" : "heat-counts");
	if (a->depth == 0)
		a->depth = DUNGEON_DEFAULT_LEVELS;
	if (a->opt.max_turns == 0)
		a->opt.max_turns = DEFAULT_DUNGEON_TURNS * a->depth;
	return -1;
}

/* Returns -1 when parsed, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct sim_args *a)
{
	a->games = DEFAULT_GAMES;
	a->seed = 1;
	a->opt.player = SIM_PLAYER_EXIT;
	a->monsters.n = -1;
	a->jobs = 1;
	int status = opt_parse(&sim_command, argc, argv, a, &a->levels, NULL);
	if (status < 0 && a->dungeon)
		status = parse_dungeon(a);
	else if (status < 0 && a->generate)
		status = parse_generate(a);
	else if (status < 0 && (a->size.w || a->depth))
		status = opt_usage_error(&sim_command, "--size and --depth go with --generate");
	if (status < 0 && a->force && !a->record)
		status = opt_usage_error(&sim_command, "--force goes with --record: it replaces the journals "
				       "that DIR already holds");
	if (status < 0 && a->record && a->opt.chase)
		status = opt_usage_error(&sim_command, "--record cannot go with --chase: its hints to the monsters "
				       "are outside the rules, so a replay could not repeat them");
	if (a->opt.max_turns == 0)
		a->opt.max_turns = DEFAULT_TURNS;
	if (status < 0 && a->levels.n == 0 && !a->generate && !a->dungeon)
		status = opt_usage_error(&sim_command, "give at least one level (.lvl or Moving AI .map); "
				       "see astray sim --help");
	if (status < 0 && a->heat_kind && !a->heatmap && !a->heat_counts)
		status = opt_usage_error(&sim_command, "--kind (--heat-kind) picks the heat of one kind: give --heatmap or "
				       "--heat-counts too");
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
/* The run                                                             */

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

/* The results to stdout; 0, or 1 after reporting a write error. */
static int finish_output(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "astray sim: write error on standard output: %s\n",
		errno ? strerror(errno) : "unknown error");
	return 1;
}

/* The memory this run may use: the machine's, or less under a limit of
 * its address space ($ASTRAY_TEST_MEMORY, bytes, in the test build). */
static double memory_allowed(void)
{
	double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < mem)
		mem = (double)rl.rlim_cur;
#ifdef ASTRAY_CHECKS
	const char *test = getenv("ASTRAY_TEST_MEMORY");
	if (test && *test)
		mem = strtod(test, NULL);
#endif
	return mem > 0 ? mem : 1e9;
}

/* About what a monster costs while its game is played: its record, its
 * route buffer and its share of the minds' and crowds' tables. */
#define SIM_MONSTER_BYTES (sizeof(struct monster) + AI_ROUTE_MAX * sizeof(int) + 512)

/*
 * Whether the per-game rows of --games (n_files levels, each side of a
 * --compare) and the monsters of --monsters (one game at a time in each
 * of --jobs processes) fit in half the memory this run may use; else
 * says so with the figures, before anything is reserved, and sets
 * *status.
 */
static bool fits_memory(const struct sim_args *a, int n_files, int sides, int *status)
{
	double mem = memory_allowed(), half = mem / 2;
	double row = (double)sizeof(struct sim_game) * sides * (n_files > 0 ? n_files : 1);
	double rows = row * a->games;
	if (rows > half) {
		*status = opt_usage_error(&sim_command,
					  "--games %d needs about %.1f GB for its per-game rows (%d level%s x %d "
					  "bytes%s); at most %.0f here (half of the %.1f GB this run may use)",
					  a->games, rows / 1e9, n_files, n_files == 1 ? "" : "s",
					  (int)sizeof(struct sim_game), sides > 1 ? " x 2 for --compare" : "",
					  half / row, mem / 1e9);
		return false;
	}
	int jobs = a->jobs > 1 ? a->jobs : 1;
	double mon = (double)SIM_MONSTER_BYTES * jobs;
	if (a->monsters.n > 0 && mon * a->monsters.n > half) {
		*status = opt_usage_error(&sim_command,
					  "--monsters %d needs about %.1f GB (%d bytes a monster%s); at most %.0f here "
					  "(half of the %.1f GB this run may use)",
					  a->monsters.n, mon * a->monsters.n / 1e9, (int)SIM_MONSTER_BYTES,
					  jobs > 1 ? ", in each of the --jobs processes" : "", half / mon, mem / 1e9);
		return false;
	}
	return true;
}

/* Loads, plays and writes, in that order; the exit status.  With sweep,
 * the games go to sim_sweep_take as value vi instead of the report. */
static int run(const struct sim_args *a, struct sim_sweep_out *sweep, int vi)
{
	struct sim_record_ctx recx = { 0 };
	struct bestiary base;
	int status = 1, n_files = 0;
	char **files = NULL;
	if (a->generate || a->dungeon) {
		files = calloc(1, sizeof *files);
		n_files = 1;
	} else {
		files = sim_load_files(a, &n_files);
	}
	if (!files)
		return 1;
	struct sim_level_run *runs = calloc((size_t)n_files, sizeof *runs);
	struct sim_out o = { .a = a, .runs = runs, .n_runs = n_files };
	struct sim_play pc = { .a = a, .runs = runs, .n_runs = n_files, .sides = a->compare[0] ? 2 : 1,
			       .heat_kind = -1 };
	char glyph = 0;
	if (!runs) {
		fprintf(stderr, "astray sim: out of memory\n");
		goto done;
	}
	if (!fits_memory(a, n_files, pc.sides, &status))
		goto done; /* said before the games, not after hours of them */
	if (sim_wants_heat(a) && n_files != 1) {
		status = opt_usage_error(&sim_command, "--%s draws one level: give one LEVEL",
					 a->heatmap ? "heatmap" : "heat-counts");
		goto done;
	}
	if (a->heatmap && strcmp(a->heatmap, "-") != 0 && !sim_write_path_ok("heatmap", a->heatmap))
		goto done; /* said before the games, not after they were all played */
	if (a->heat_counts && !sim_write_path_ok("heat-counts", a->heat_counts))
		goto done;
	if (!sim_load_bestiary(a, &sim_command, &base, &status))
		goto done;
	if (a->heat_kind) {
		const struct monster_kind *k = bestiary_find_name(&base, a->heat_kind);
		if (!k) {
			char names[BESTIARY_MAX_KINDS * 33] = "";
			size_t used = 0;
			for (int i = 0; i < base.n && used < sizeof names; i++)
				used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
							 base.kinds[i].name);
			status = opt_usage_error(&sim_command, "--kind: no kind '%s' in the bestiary (its kinds: %s)",
						 a->heat_kind, names);
			goto done;
		}
		pc.heat_kind = (int)(k - base.kinds);
	}
	o.n_kinds = base.n;
	for (int k = 0; k < base.n; k++)
		snprintf(o.kind_names[k], sizeof o.kind_names[k], "%s", base.kinds[k].name);
	for (int s = 0; s < pc.sides; s++) {
		char err[DIAG_ERR_LEN];
		pc.side[s] = base;
		const char *extra = a->compare[0] ? a->compare[s] : NULL;
		if (extra && !sim_apply_settings(&pc.side[s], extra, err, sizeof err)) {
			status = opt_usage_error(&sim_command, "--compare %s: %s", s ? "B" : "A", err);
			goto done;
		}
		sim_write_settings(o.settings[s], sizeof o.settings[s], a, extra);
	}
	if (!sim_load_bestiary_file(a, o.bestiary, sizeof o.bestiary, &o.bestiary_hash))
		o.bestiary[0] = '\0';
	sim_write_run_words(&o);
	bool any_map = false;
	for (int l = 0; l < n_files && !a->generate && !a->dungeon; l++)
		any_map |= cli_ends_with(files[l], ".map");
	if (a->monsters.n >= 0 && !any_map)
		fprintf(stderr, "astray sim: note: --monsters applies to .map files; .lvl files keep their own monsters\n");
	if (any_map && !sim_load_monster_glyph(a, &base, &glyph))
		goto done;
	if (a->generate && !sim_load_generated(a, &base, &runs[0]))
		goto done;
	if (a->dungeon && !sim_load_dungeon(a, &base, &runs[0]))
		goto done;
	for (int l = 0; l < n_files && !a->generate && !a->dungeon; l++)
		if (!sim_load_level(a, &base, glyph, &runs[l], files[l]))
			goto done;

	for (int l = 0; l < n_files; l++)
		for (int s = 0; s < pc.sides; s++)
			runs[l].config[s] = sim_load_config(a, &pc.side[s], runs[l].text_hash);
	if (a->record && !sim_load_record(a, &pc, &recx))
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
	if (sim_workers_play(&pc, first, end) != 0)
		goto done;
	o.n_all = (int)total;
	o.first = first;
	o.end = end;
	if (sweep) {
		status = sim_sweep_take(sweep, vi, &o);
		goto done;
	}
	sim_write_report(stdout, &o);
	status = a->heatmap ? sim_write_heatmap(a, &runs[0]) : 0;
	if (status == 0 && a->heat_counts)
		status = sim_write_heat_counts(a, &runs[0], first, end);
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
	sim_load_record_fini(&recx);
	free(o.all[0]);
	free(o.all[1]);
	free(runs);
	return status;
}

/* Checks --sweep against the other options; -1 or the exit status. */
static int check_sweep(const struct sim_args *a)
{
	if (!a->sweep)
		return a->sweep_plot || a->sweep_metric
			       ? opt_usage_error(&sim_command, "--%s goes with --sweep", a->sweep_plot ? "sweep-plot" : "sweep-metric")
			       : -1;
	if (a->compare[0])
		return opt_usage_error(&sim_command, "--sweep compares many values: it cannot go with --compare");
	if (a->heatmap || a->heat_counts)
		return opt_usage_error(&sim_command, "--sweep writes a table of figures: it cannot go with --%s",
				       a->heatmap ? "heatmap" : "heat-counts");
	if (a->record)
		return opt_usage_error(&sim_command, "--sweep cannot go with --record (record one value with --set)");
	if (a->format == FORMAT_JSON)
		return opt_usage_error(&sim_command, "--sweep writes CSV (--format csv)");
	if (a->sweep_plot && a->per_game)
		return opt_usage_error(&sim_command, "--sweep-plot draws the summaries: with --per-game or --shard, "
				       "draw it with astray sim-report --sweep-plot");
	if (a->sweep_metric) {
		for (const char *p = a->sweep_metric;;) {
			size_t n = strcspn(p, ",");
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), p);
			if (!sim_sweep_metric_ok(name))
				return opt_usage_error(&sim_command, "--sweep-metric: '%s' is not a metric (astray sim --help "
						       "lists them, KIND.METRIC for a kind's)", name);
			if (!p[n])
				break;
			p += n + 1;
		}
		if (!a->sweep_plot)
			return opt_usage_error(&sim_command, "--sweep-metric picks what --sweep-plot draws: give "
					       "--sweep-plot FILE.svg too");
	}
	return -1;
}

/* --sweep: the whole run once per value, the value's --set added last;
 * every value's --set is checked before any game.  The exit status. */
static int run_sweep(const struct sim_args *a)
{
	struct sim_sweep_spec *spec = calloc(1, sizeof *spec);
	const char **sets = calloc((size_t)a->sets.n + 1, sizeof *sets);
	char err[256];
	int status = 1;
	struct sim_sweep_out *out = NULL;
	if (!spec || !sets) {
		fprintf(stderr, "astray sim: out of memory\n");
		goto done;
	}
	if (!sim_sweep_parse(a->sweep, spec, err, sizeof err)) {
		status = opt_usage_error(&sim_command, "--sweep %s: %s", a->sweep, err);
		goto done;
	}
	for (int i = 0; i < a->sets.n; i++)
		sets[i] = a->sets.v[i];
	struct sim_args b = *a;
	b.sets.v = sets;
	b.sets.n = a->sets.n + 1;
	b.sweep = NULL;
	for (int i = 0; i < spec->n; i++) {
		struct bestiary check;
		sets[a->sets.n] = spec->set[i];
		if (!sim_load_bestiary(&b, &sim_command, &check, &status))
			goto done;
	}
	const char *metrics = a->sweep_metric ? a->sweep_metric : a->dungeon ? "escaped,depth" : "killed";
	out = sim_sweep_out_create(spec, stdout, a->per_game, a->sweep_plot ? metrics : NULL);
	if (!out) {
		fprintf(stderr, "astray sim: out of memory\n");
		goto done;
	}
	status = 0;
	for (int i = 0; i < spec->n && status == 0; i++) {
		sets[a->sets.n] = spec->set[i];
		status = run(&b, out, i);
	}
	if (status == 0)
		status = finish_output();
	if (status == 0 && a->sweep_plot) {
		struct sim_sweep_about about = { .games = a->games, .seed = a->seed };
		snprintf(about.player, sizeof about.player, "%s", sim_player_name(a->opt.player));
		if (a->dungeon)
			snprintf(about.level, sizeof about.level, "dungeons of %d levels", a->depth);
		else if (a->generate)
			snprintf(about.level, sizeof about.level, "generated %s, depth %d", a->generate, a->depth);
		else if (a->levels.n == 1)
			cli_escape(about.level, sizeof about.level, a->levels.v[0]);
		else
			snprintf(about.level, sizeof about.level, "all levels together");
		struct sim_args plain = *a;
		plain.compare[0] = NULL;
		sim_write_settings(about.settings, sizeof about.settings, &plain, NULL);
		status = sim_sweep_plot(out, a->sweep_plot, &about, "astray sim");
	}
done:
	sim_sweep_out_destroy(out);
	free(sets);
	free(spec);
	return status;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_args a;
	memset(&a, 0, sizeof a);
	int status = parse_args(argc, argv, &a);
	if (status < 0)
		status = check_sweep(&a);
	if (status < 0 && a.sweep)
		status = run_sweep(&a);
	else if (status < 0)
		status = run(&a, NULL, 0);
	opt_list_fini(&a.levels);
	opt_list_fini(&a.sets);
	return status;
}
