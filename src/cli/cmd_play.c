/*
 * cmd_play.c - `astray [play] [LEVEL|DIR]... [options]`: finds the
 * campaign, loads and checks every level and the bestiary before the
 * screen changes (so every mistake is printed as file:line:col in a normal
 * terminal), refuses to start without a terminal, hands the game to the
 * UI, and prints the outcome and the seed once the terminal is restored.
 * The developer options --bench-keys N and --bench-preview N measure the
 * CPU time of one key press and of one travel preview.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bestiary.h"
#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "diag.h"
#include "dungeon.h"
#include "game.h"
#include "help.h"
#include "level.h"
#include "journal.h"
#include "opt.h"
#include "rng.h"
#include "savefile.h"
#include "scores.h"
#include "settings.h"
#include "play_save.h"
#include "stats.h"
#include "textfile.h"
#include "ui.h"
#include "ui_title.h"

#ifndef ASTRAY_DATADIR
#define ASTRAY_DATADIR "/usr/local/share/astray"
#endif

#define PLAY_DEFAULT_DELAY_MS 30   /* pause between travel steps */
#define PLAY_DEFAULT_MAP_MONSTERS 10

struct play_args {
	struct opt_list targets; /* LEVEL or DIR arguments, in order */
	struct opt_list sets;    /* KIND.KEY=VALUE */
	const char *bestiary;    /* --bestiary FILE, or NULL for the default */
	uint64_t seed;
	bool seeded;
	bool no_mouse;
	int delay_ms;
	int map_monsters;        /* monsters placed on a Moving AI .map */
	int bench_keys;          /* > 0: measure key presses instead of playing */
	const char *bench_script; /* the keys --bench-keys presses in turn (NULL: to and fro) */
	int bench_preview;       /* > 0: measure travel previews instead of playing */
	bool bench_mapped;       /* --bench-mapped: the previews' player knows the whole level */
	bool bench_exact;        /* --bench-exact: the previews' partial routes searched again without budget */
	bool bench_alone;        /* --bench-alone: the previews planned without the side search */
	int bench_pause;         /* --bench-pause MS: wall time after --bench-mapped's map before the first click */
	int bench_before;        /* --bench-before MS: wall time from the level's start to --bench-mapped's map */
	const char *bench_samples; /* --bench-samples FILE: each press's CPU time, one a line */
	bool dungeon;            /* --dungeon: generated levels instead of files */
	int dungeon_levels;      /* --depth N: levels in the dungeon (0: not given) */
	bool no_title;           /* --no-title: no title screen without level arguments */
	const char *data;        /* --data DIR: the data folder (saves, scores) */
	bool no_save;            /* --no-save: no journal, no resume, no score */
	bool resume;             /* the title's Continue was chosen: resume without asking */
	bool fresh;              /* the title's new game was chosen: file a saved game away, no question */
	bool in_dungeon;         /* playing --dungeon: its seed (any, 0 too) is a->seed */
	int dungeon_n;           /* and its number of levels */
	const char *record;      /* --record FILE: journal to FILE instead of the save slot */
	bool delay_given;        /* --delay was given: it beats the options file for this run */
	struct settings settings;/* the options file (DATA/options.txt), or the defaults */
	char settings_dir[4096]; /* the data folder that keeps it ("" with --no-save: not kept) */
	char settings_note[1024];/* why the options file was not used whole ("" when it was) */
};

#define STR(x) STR_(x)
#define STR_(x) #x
#define ARG(field) offsetof(struct play_args, field)
enum { OPT_SEED_ROW = 0 }; /* the row of --seed in play_opts */
static const struct opt play_opts[] = {
	[OPT_SEED_ROW] = { .name = "seed", .kind = OPT_SEED, .offset = ARG(seed), .metavar = "N",
			   .help = "replay a game: the seed is printed when a game ends" },
	{ .name = "no-mouse", .kind = OPT_FLAG, .offset = ARG(no_mouse),
	  .help = "leave the mouse to the terminal (text selection) for this run; O turns it off for good" },
	{ .name = "bestiary", .kind = OPT_STRING, .offset = ARG(bestiary), .metavar = "FILE",
	  .help = "monster kinds; by default bestiary.txt beside the levels, else levels/, the installed "
		  "one, or the one of the levels the program came with" },
	{ .name = "set", .kind = OPT_LIST, .offset = ARG(sets), .metavar = "KIND.KEY=VAL",
	  .help = "override one bestiary knob, an item knob as ITEM.KEY=VAL, or with rules.KEY=VAL one of the "
		  "game's (rules.arrival=0: no wandering monsters); repeatable" },
	{ .name = "monsters", .kind = OPT_INT, .offset = ARG(map_monsters), .metavar = "K", .lo = 0, .hi = 100000,
	  .help = "monsters placed on a .map level (default " STR(PLAY_DEFAULT_MAP_MONSTERS) ")" },
	{ .name = "delay", .kind = OPT_INT, .offset = ARG(delay_ms), .metavar = "MS", .lo = 0, .hi = 1000,
	  .help = "pause between travel steps for this run (default: the options file's, set with O; "
		  "0 is instant)" },
	{ .name = "dungeon", .kind = OPT_FLAG, .offset = ARG(dungeon),
	  .help = "play a dungeon of generated levels; the seed makes the dungeon" },
	{ .name = "depth", .kind = OPT_INT, .offset = ARG(dungeon_levels), .metavar = "N", .lo = 1,
	  .hi = DUNGEON_MAX_LEVELS,
	  .help = "with --dungeon: the number of levels (default " STR(DUNGEON_DEFAULT_LEVELS) ")" },
	{ .name = "no-title", .kind = OPT_FLAG, .offset = ARG(no_title),
	  .help = "without level arguments, play the campaign at once, with no title screen" },
	{ .name = "data", .kind = OPT_STRING, .offset = ARG(data), .metavar = "DIR",
	  .help = "the data folder: save, scores, finished games; by default "
		  "$XDG_DATA_HOME/astray, else ~/.local/share/astray" },
	{ .name = "no-save", .kind = OPT_FLAG, .offset = ARG(no_save),
	  .help = "play without saving (no resume, no score kept)" },
	{ .name = "record", .kind = OPT_STRING, .offset = ARG(record), .metavar = "FILE",
	  .help = "write this game's journal to FILE (a new file) instead of the save slot; "
		  "astray replay FILE shows it" },
	{ .name = "bench-keys", .kind = OPT_INT, .offset = ARG(bench_keys), .metavar = "N", .lo = 1, .hi = 1000000,
	  .help = "measure the CPU time of N key presses on an 80x24 screen (of the thread that handles "
		  "them); with --record FILE, saving as play saves, snapshots included: their writer's thread "
		  "counts in cpu_s_all, and a key's wait for the writer's checksum, in wall time, in waited "
		  "and wait_us" },
	{ .name = "bench-script", .kind = OPT_STRING, .offset = ARG(bench_script), .metavar = "KEYS",
	  .help = "with --bench-keys, press these keys in turn, from the first again when they run out; "
		  "default hhll.kj; oooooR> explores, rests and travels" },
	{ .name = "bench-samples", .kind = OPT_STRING, .offset = ARG(bench_samples), .metavar = "FILE",
	  .help = "with --bench-keys: also write each press's CPU time in microseconds to FILE, one a line" },
	{ .name = "bench-preview", .kind = OPT_INT, .offset = ARG(bench_preview), .metavar = "N", .lo = 1, .hi = 10000000,
	  .help = "measure the CPU time of N travel previews (cursor moves, clicks)" },
	{ .name = "bench-mapped", .kind = OPT_FLAG, .offset = ARG(bench_mapped),
	  .help = "with --bench-preview: the player learns the whole level's map before the first preview, as after "
		  "a scroll of magic mapping (clicks then plan round every wall)" },
	{ .name = "bench-pause", .kind = OPT_INT, .offset = ARG(bench_pause), .metavar = "MS", .lo = 0, .hi = 60000,
	  .help = "with --bench-mapped: wait MS ms after the map is learnt before the first click, as a "
		  "person looks at it first (the threads it starts work meanwhile)" },
	{ .name = "bench-before", .kind = OPT_INT, .offset = ARG(bench_before), .metavar = "MS", .lo = 0, .hi = 60000,
	  .help = "with --bench-mapped: wait MS ms between the level's start and the map, as a person "
		  "plays a while before reading the scroll; the threads the start begins work meanwhile" },
	{ .name = "bench-exact", .kind = OPT_FLAG, .offset = ARG(bench_exact),
	  .help = "with --bench-preview: search each click that got a partial route again without the "
		  "budget, and print what that exact search takes (seconds each on 4096x4096)" },
	{ .name = "bench-alone", .kind = OPT_FLAG, .offset = ARG(bench_alone),
	  .help = "with --bench-preview: plan every click on the key's thread alone, without the side "
		  "search a far click runs on a second core (the same routes), to compare" },
};
#undef ARG
#define N_PLAY_OPTS ((int)(sizeof play_opts / sizeof play_opts[0]))

static void play_usage(FILE *out);

static const struct opt_command play_command = { "play", play_opts, N_PLAY_OPTS, play_usage };

const struct opt_command *cmd_play_opts(size_t *args_size)
{
	*args_size = sizeof(struct play_args);
	return &play_command;
}

/* A growable list of file names (owned strings). */
struct names {
	char **v;
	int n, cap;
};

static void names_fini(struct names *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static bool names_add(struct names *l, const char *s)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 16;
		char **v = realloc(l->v, (size_t)cap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);
	if (!copy)
		return false;
	memcpy(copy, s, n);
	l->v[l->n++] = copy;
	return true;
}

static void play_usage(FILE *out)
{
	help_usage(out, "[play]",
		   (const char *const[]){ "[LEVEL|DIR]... [options]", "--dungeon [--seed S] [--depth N] [options]", NULL });
	help_textf(out, 0,
		   "\nPlays the campaign: the .lvl files of the installed campaign, %s/levels, in name order, "
		   "or the levels and folders given.  When the current folder is astray's source tree, the one "
		   "holding src/cli/main.c, the campaign is ./levels instead; from any other folder, with no "
		   "campaign installed, it is the one the program came with: the levels of the source tree it "
		   "was built in, or of the prefix it is installed in.  Without level arguments, in a "
		   "terminal, a title screen offers the saved game (with the turn it was saved at), a new "
		   "dungeon, a dungeon from a seed and the campaign (--no-title skips it).  --dungeon plays generated levels on mixed maps, harder with depth; "
		   "the same seed, the same dungeon.  A Moving AI .map plays as one square8 level with monsters "
		   "placed from the seed.",
		   ASTRAY_DATADIR);
	opt_print_help(out, &play_command);
	help_text(out, 0,
		  "\nIn the game, ? lists the keys.  Move with h j k l y u b n, the arrows or the numpad; left "
		  "click anywhere to travel there; right click describes a cell; O sets the options, "
		  "kept in the data folder's options.txt: animation speed, colours, the mouse and the route "
		  "under the pointer.\n"
		  "\n"
		  "exit status: 0 after a game, 1 when a level, the bestiary or the terminal is wrong, 2 bad "
		  "usage; stopped by signal N (Ctrl-C, kill...), it restores the terminal and then dies of that "
		  "signal (a shell shows 128+N); 129 on a hangup");
}

/*
 * The options file of the data folder (not with --no-save: then the
 * defaults, and O keeps nothing).  A broken file is said on stderr now
 * and on the first screen, and its good lines are used: never a reason
 * not to play.
 */
static void play_load_settings(struct play_args *a)
{
	settings_default(&a->settings);
	a->settings_dir[0] = a->settings_note[0] = '\0';
	char err[DIAG_ERR_LEN];
	if (a->no_save || a->bench_keys > 0 || a->bench_preview > 0 ||
	    !play_data_dir(a->data, a->settings_dir, sizeof a->settings_dir, err, sizeof err)) {
		a->settings_dir[0] = '\0';
		return;
	}
	if (!settings_load(a->settings_dir, &a->settings, a->settings_note, sizeof a->settings_note))
		cli_message(stderr, "astray", a->settings_note);
}

/* Returns -1 to go on, or an exit status (help printed, or a bad argument). */
static int parse_args(int argc, char **argv, struct play_args *a)
{
	bool given[N_PLAY_OPTS] = { false };
	a->delay_ms = PLAY_DEFAULT_DELAY_MS;
	a->map_monsters = PLAY_DEFAULT_MAP_MONSTERS;
	int status = opt_parse(&play_command, argc, argv, a, &a->targets, given);
	a->seeded = given[OPT_SEED_ROW];
	for (int i = 0; i < N_PLAY_OPTS; i++)
		if (given[i] && strcmp(play_opts[i].name, "delay") == 0)
			a->delay_given = true;
	return status;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds the .lvl files of dir in name order; false with a message on failure. */
static bool add_dir(struct names *files, const char *dir)
{
	int n;
	char **list = cli_level_files(dir, &n);
	if (!list) {
		fprintf(stderr, "astray: %s: %s\n", dir, strerror(errno));
		return false;
	}
	bool ok = true;
	for (int i = 0; i < n && ok; i++)
		ok = names_add(files, list[i]);
	cli_names_free(list, n);
	if (!ok)
		fprintf(stderr, "astray: out of memory\n");
	else if (n == 0)
		fprintf(stderr, "astray: %s: no .lvl files in this folder\n", dir);
	return ok && n > 0;
}

static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20);
	/* keep it short enough to retype */
	return s % 1000000000u;
}

/* Loads one level file; errors and warnings are printed.  NULL on error.
 * jl gets what the journal records of it; jl->text is then owned by the caller. */
static struct level *load_level(const char *path, const struct bestiary *b, const struct play_args *a,
				struct journal_level *jl)
{
	size_t len;
	char *text;
	int err = textfile_read(path, &text, &len);
	if (err) {
		fputs("astray: ", stderr);
		cli_put_escaped(stderr, path);
		fprintf(stderr, ": %s\n", textfile_strerror(err));
		return NULL;
	}
	struct diag_list diags = { 0 };
	struct level *lv;
	if (cli_ends_with(path, ".map")) {
		char glyph = 'g';
		if (!bestiary_find_glyph(b, glyph))
			glyph = b->n > 0 ? b->kinds[0].glyph : 'g';
		lv = level_from_movingai(path, text, len, a->seed, a->map_monsters, glyph, &diags);
		*jl = (struct journal_level){ .movingai = true, .monsters = a->map_monsters, .glyph = glyph,
					      .place_seed = a->seed };
	} else {
		lv = level_parse(path, text, len, b, &diags);
	}
	cli_print_diags(stderr, &diags, false, false);
	if (diags.errors && lv) {
		level_destroy(lv);
		lv = NULL;
	}
	diag_list_fini(&diags);
	jl->name = path;
	jl->text = text;
	jl->len = len;
	return lv;
}

/* The bestiary file (--bestiary, or the default one near the levels) read
 * and parsed; its text is kept for the journal (*text, caller frees).
 * Errors are printed.  False on error. */
static bool load_bestiary(const struct play_args *a, const char *near, struct bestiary *b, char **text,
			  size_t *len, char *name, size_t namesize)
{
	struct diag_list diags = { 0 };
	bool ok = false;
	*text = NULL;
	if (a->bestiary)
		snprintf(name, namesize, "%s", a->bestiary);
	if (!a->bestiary && !cli_bestiary_path(near, name, namesize)) {
		ok = cli_bestiary_load(near, b, &diags); /* prints where it looked */
	} else {
		int err = textfile_read(name, text, len);
		if (err)
			diag_add(&diags, DIAG_ERROR, name, 0, 0, "cannot read the bestiary: %s", strerror(err));
		else
			ok = bestiary_parse(name, *text, *len, b, &diags);
	}
	cli_print_diags(stderr, &diags, false, false);
	diag_list_fini(&diags);
	return ok;
}

/*
 * --bench-keys N: N key presses, each timed in CPU time.  With --record
 * FILE the game is saved as play saves it (the journal, its checksums,
 * and the snapshot beside it every SNAPSHOT_EVERY actions: FILE.snap), so
 * the figures include what saving costs; a game that ends makes way for
 * the next seed, journalled to FILE-2, FILE-3...
 */
static int run_bench(const struct level *const *levels, const struct bestiary *b,
		     const struct play_args *a, const struct journal_setup *setup)
{
	double *samples = malloc((size_t)a->bench_keys * sizeof *samples);
	if (!samples) {
		fprintf(stderr, "astray: out of memory\n");
		return 1;
	}
	int have = 0, games = 0, monsters = levels[0]->n_monsters;
	double all0 = clock_cpu_us(); /* every thread's, the snapshot writer's too */
	/* the checksums the writer took, and the keys' waits for them (wall time, not in the samples) */
	long checks = 0, waits = 0;
	double wait_us = 0, wait_max_us = 0;
	while (have < a->bench_keys) {
		/* a game that ends (the player dies) is replaced by the next seed;
		 * all the levels, as the journal names them (a dungeon's ten: with
		 * one, its start hashed otherwise and replay --verify refused it) */
		struct game *g = game_create(levels, setup->n_levels, b, a->seed + (uint64_t)games);
		if (!g) {
			fprintf(stderr, "astray: out of memory\n");
			free(samples);
			return 1;
		}
		char err[DIAG_ERR_LEN];
		struct play_save s;
		struct ui_hooks hooks;
		memset(&s, 0, sizeof s);
		if (a->record) {
			struct journal_setup one = *setup;
			one.seed = g->seed;
			if (games == 0)
				snprintf(s.path, sizeof s.path, "%s", a->record);
			else
				snprintf(s.path, sizeof s.path, "%s-%d", a->record, games + 1);
			s.in_slot = true; /* snapshots beside it, as the save slot has */
			if (!play_save_begin(&s, &one, g, err, sizeof err)) {
				fprintf(stderr, "astray: --bench-keys: %s\n", err);
				game_destroy(g);
				free(samples);
				return 1;
			}
			play_save_hooks(&s, &hooks);
		}
		int got = ui_bench_keys(g, a->bench_keys - have, a->bench_script, a->record ? &hooks : NULL,
					samples + have, err, sizeof err);
		if (s.j) {
			long c, w;
			double t, m;
			journal_hash_waits(s.j, &c, &w, &t, &m);
			checks += c;
			waits += w;
			wait_us += t;
			wait_max_us = m > wait_max_us ? m : wait_max_us;
			if (hooks.stopping)
				hooks.stopping(hooks.ud, g);
			char cerr[DIAG_ERR_LEN];
			if (!journal_close(s.j, cerr, sizeof cerr))
				fprintf(stderr, "astray: --bench-keys: %s\n", cerr);
			if (s.failed)
				fprintf(stderr, "astray: --bench-keys: saving failed: %s\n", s.failure);
		}
		game_destroy(g);
		games++;
		if (got < 0) {
			fprintf(stderr, "astray: --bench-keys: %s\n", err);
			free(samples);
			return 1;
		}
		if (got == 0 && games > 100) {
			fprintf(stderr, "astray: --bench-keys: every game ends before its first key\n");
			free(samples);
			return 1;
		}
		have += got;
	}
	if (a->bench_samples) {
		FILE *f = fopen(a->bench_samples, "w");
		if (!f) {
			fprintf(stderr, "astray: --bench-samples: %s: %s\n", a->bench_samples, strerror(errno));
			free(samples);
			return 1;
		}
		for (int i = 0; i < have; i++)
			fprintf(f, "%.1f\n", samples[i]);
		if (fclose(f) != 0) {
			fprintf(stderr, "astray: --bench-samples: %s: %s\n", a->bench_samples, strerror(errno));
			free(samples);
			return 1;
		}
	}
	double first = samples[0];
	struct stats_spread sp;
	stats_spread(samples, (size_t)have, &sp);
	printf("bench-keys: presses=%d games=%d monsters=%d map=%dx%d saving=%s terminal=80x24 cpu_us_mean=%.1f "
	       "cpu_us_p50=%.1f cpu_us_p95=%.1f cpu_us_max=%.1f cpu_us_first=%.1f cpu_s_all=%.2f writer_checks=%ld "
	       "waited=%ld wait_us_total=%.0f wait_us_max=%.0f\n",
	       have, games, monsters, levels[0]->w, levels[0]->h, a->record ? "on" : "off", sp.mean, sp.p50, sp.p95,
	       sp.max, first, (clock_cpu_us() - all0) / 1e6, checks, waits, wait_us, wait_max_us);
	free(samples);
	return 0;
}

/* The target of preview number i: in turn, a random cell of the map (mostly
 * never seen), a cell within 12 of the player, a cell within the player's
 * sight (often a known wall), and a cell of the border. */
static void preview_target(const struct game *g, struct rng *r, int i, int *x, int *y)
{
	int w = g->grid->w, h = g->grid->h, px = g->player.x, py = g->player.y;
	switch (i % 4) {
	case 0:
		*x = rng_range(r, 0, w - 1);
		*y = rng_range(r, 0, h - 1);
		break;
	case 1:
		*x = px + rng_range(r, -12, 12);
		*y = py + rng_range(r, -12, 12);
		break;
	case 2:
		*x = px + rng_range(r, -g->sight_radius, g->sight_radius);
		*y = py + rng_range(r, -g->sight_radius, g->sight_radius);
		break;
	default:
		if (rng_range(r, 0, 1)) {
			*x = rng_range(r, 0, w - 1);
			*y = rng_range(r, 0, 1) ? 0 : h - 1;
		} else {
			*x = rng_range(r, 0, 1) ? 0 : w - 1;
			*y = rng_range(r, 0, h - 1);
		}
	}
	grid_clamp(g->grid, x, y);
}

/*
 * --bench-preview N: N cursor previews (game_travel_plan, what a cursor
 * move or a click plans) on the first level, 16 per turn, the player taking
 * a step between turns (toward a random cell, or waiting), so per-turn
 * work (a distance map, say) is paid by the first preview of each turn and
 * counted.  Prints mean, p95 and worst, and the worst first-of-a-turn,
 * in CPU time of this process (clock_cpu_us, as --bench-keys); then a line
 * per kind of target (preview_target) with its own spread (and its wall
 * time's mean and worst, clock_us, and the searches the side search ran on
 * its second thread, whose CPU time the process's includes), how many got
 * the budget's partial route, and with --bench-exact for those the search
 * the exact answer needs (game_travel_exact, run after the timed plan and
 * not in its time): its expansions and CPU time.
 */
#define PREVIEWS_PER_TURN 16
#define PREVIEW_KINDS 4

struct preview_kind {
	double *us;      /* the plans' CPU times of this kind */
	int n, partial;  /* previews, and those that got PATH_BUDGET */
	int weighted;    /* previews whose whole route, to the goal or to where a walk toward a goal
	                    out of reach ends, came from weighted A* (rules 11) */
	int walked;      /* partial ones whose rest is planned as the player walks (rules 11) */
	int from_goal;   /* goals out of reach walked to deep_target's cut point, found from the
	                    goal's side (rules 11), not the fallback's own answer */
	double expanded; /* the plans' expansions, summed */
	double exact_expanded, exact_expanded_max, exact_us, exact_us_max; /* of the partial ones */
	uint64_t routes; /* FNV-1a of the statuses and cells: a change of any route shows */
	long side_rungs; /* the searches the side search ran to their end (game_travel.c) */
	double wall_us, wall_us_max; /* the plans' wall time (clock_us), summed, and the largest */
};

static void preview_kind_print(const struct preview_kind *k, int kind)
{
	static const char *const names[PREVIEW_KINDS] = { "far", "near", "sight", "border" };
	struct stats_spread sp;
	stats_spread(k->us, (size_t)k->n, &sp);
	const int p = k->partial > 0 ? k->partial : 1;
	printf("bench-preview-kind: kind=%s previews=%d cpu_us_mean=%.1f cpu_us_p95=%.1f cpu_us_max=%.1f "
	       "expanded_mean=%.0f partial=%d weighted=%d walked=%d from_goal=%d exact_expanded_mean=%.0f "
	       "exact_expanded_max=%.0f exact_cpu_us_mean=%.1f exact_cpu_us_max=%.1f routes=%016llx "
	       "wall_us_mean=%.1f wall_us_max=%.1f side_rungs=%ld\n",
	       names[kind], k->n, sp.mean, sp.p95, sp.max, k->n ? k->expanded / k->n : 0.0, k->partial,
	       k->weighted, k->walked, k->from_goal, k->exact_expanded / p, k->exact_expanded_max, k->exact_us / p, k->exact_us_max,
	       (unsigned long long)k->routes, k->n ? k->wall_us / k->n : 0.0, k->wall_us_max, k->side_rungs);
}

/* Waits ms ms of wall time (0: none), for the benchmarks' pauses. */
static void bench_sleep(int ms)
{
	if (ms > 0)
		nanosleep(&(struct timespec){ .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L }, NULL);
}

static int run_bench_preview(const struct level *const *levels, const struct bestiary *b,
			     const struct play_args *a)
{
	int n = a->bench_preview;
	double *samples = malloc(((size_t)n * 2 + PREVIEW_KINDS) * sizeof *samples);
	if (!samples) {
		fprintf(stderr, "astray: out of memory\n");
		return 1;
	}
	struct preview_kind kinds[PREVIEW_KINDS] = { { 0 } };
	for (int k = 0; k < PREVIEW_KINDS; k++) {
		kinds[k].us = samples + n + (size_t)k * (size_t)(n / PREVIEW_KINDS + 1);
		kinds[k].routes = 0xcbf29ce484222325ull;
	}
	struct rng r;
	rng_seed(&r, a->seed ^ 0x5eedu);
	int games = 0, turns = 0;
	double first_max = 0, setup_us = 0;
	struct game *g = NULL;
	for (int i = 0; i < n; i++) {
		if (!g || g->over) {
			game_destroy(g);
			double t0 = clock_cpu_us();
			g = game_create(levels, 1, b, a->seed + (uint64_t)games++);
			if (g && a->bench_alone)
				g->reach.side_off = true;
			if (g)
				game_prefault(g); /* as the play screen does */
			setup_us += clock_cpu_us() - t0;
			if (!g) {
				fprintf(stderr, "astray: out of memory\n");
				free(samples);
				return 1;
			}
			if (a->bench_mapped) {
				bench_sleep(a->bench_before);
				game_map_level(g, 0); /* as after a scroll of magic mapping */
				bench_sleep(a->bench_pause);
			}
		}
		if (i > 0 && i % PREVIEWS_PER_TURN == 0) {
			struct action act = { .kind = ACT_MOVE, .dir = (enum grid_dir)rng_range(&r, 0, GRID_DIR_COUNT - 1) };
			if (game_act(g, &act) == RESULT_NOTHING) {
				act.kind = ACT_WAIT;
				game_act(g, &act);
			}
			turns++;
		}
		int x, y;
		preview_target(g, &r, i, &x, &y);
		const int *cells;
		int len;
		const double w0 = clock_us();
		double t0 = clock_cpu_us();
		const enum path_status st = game_travel_plan(g, x, y, &cells, &len);
		samples[i] = clock_cpu_us() - t0;
		const double wall = clock_us() - w0;
		if (i % PREVIEWS_PER_TURN == 0 && samples[i] > first_max)
			first_max = samples[i];
		struct preview_kind *k = &kinds[i % PREVIEW_KINDS];
		k->us[k->n++] = samples[i];
		k->expanded += (double)g->reach.expanded;
		k->wall_us += wall;
		k->wall_us_max = wall > k->wall_us_max ? wall : k->wall_us_max;
		k->side_rungs += g->reach.side_rungs;
		if (st == PATH_BUDGET)
			k->partial++;
		if (st != PATH_BUDGET && g->reach.weight > 1.0)
			k->weighted++;
		if (st == PATH_BUDGET && g->reach.weight > 1.0)
			k->walked++;
		if (g->reach.out_of_reach)
			k->from_goal++;
		k->routes = (k->routes ^ (uint64_t)st) * 0x100000001b3ull;
		for (int c = 0; c < len; c++)
			k->routes = (k->routes ^ (uint64_t)(unsigned)cells[c]) * 0x100000001b3ull;
		if (st == PATH_BUDGET && a->bench_exact) {
			long ex;
			t0 = clock_cpu_us();
			game_travel_exact(g, x, y, &ex, &len);
			const double us = clock_cpu_us() - t0;
			k->exact_us += us;
			k->exact_us_max = us > k->exact_us_max ? us : k->exact_us_max;
			k->exact_expanded += (double)ex;
			k->exact_expanded_max = (double)ex > k->exact_expanded_max ? (double)ex : k->exact_expanded_max;
		}
	}
	int w = g->grid->w, h = g->grid->h;
	game_destroy(g);
	struct stats_spread sp;
	stats_spread(samples, (size_t)n, &sp);
	printf("bench-preview: map=%dx%d previews=%d turns=%d games=%d cpu_us_mean=%.1f cpu_us_p50=%.1f "
	       "cpu_us_p95=%.1f cpu_us_max=%.1f first_of_turn_us_max=%.1f game_create_ms=%.1f\n",
	       w, h, n, turns, games, sp.mean, sp.p50, sp.p95, sp.max, first_max, setup_us / 1e3 / games);
	for (int k = 0; k < PREVIEW_KINDS; k++)
		preview_kind_print(&kinds[k], k);
	free(samples);
	return 0;
}

static const char *outcome_word(enum ui_outcome o)
{
	switch (o) {
	case UI_QUIT: return "quit";
	case UI_DIED: return "died";
	case UI_WON: return "won";
	case UI_SIGNAL: return "interrupted";
	case UI_HANGUP: return "hangup";
	case UI_ERROR: return "error";
	}
	return "?";
}

/* The end of a game in words and key=value; `replay` prints the command
 * that plays the same game again (a dungeon prints its own line). */
static void print_outcome(const struct game *g, enum ui_outcome o, int signo, bool replay,
			  const struct play_args *a)
{
	const struct level *lv = game_level(g);
	/* the level's name (a .map's file name) and the killer's (the
	 * bestiary's) come from files: escaped, never sent raw */
	char name[4 * 1024 + 1], killer[4 * sizeof g->killer + 1];
	cli_escape(name, sizeof name, lv && lv->name ? lv->name : "?");
	cli_escape(killer, sizeof killer, g->killer[0] ? g->killer : "something");
	switch (o) {
	case UI_WON:
		printf("You escaped the last level after %d turn%s with %d gold.\n", g->turn,
		       g->turn == 1 ? "" : "s", g->player.gold);
		break;
	case UI_DIED:
		printf("You were killed by %s on %s (level %d of %d) on turn %d, with %d gold.\n",
		       killer, name, g->depth + 1, g->n_levels, g->turn,
		       g->player.gold);
		break;
	case UI_QUIT:
		printf("You left on %s (level %d of %d) on turn %d, with %d gold.\n", name,
		       g->depth + 1, g->n_levels, g->turn, g->player.gold);
		break;
	case UI_SIGNAL:
	case UI_HANGUP:
		printf("Stopped by %s on %s (level %d of %d), turn %d.\n",
		       o == UI_HANGUP ? "a hangup" : signo == SIGINT ? "Ctrl-C" : "a signal", name,
		       g->depth + 1, g->n_levels, g->turn);
		break;
	case UI_ERROR:
		break;
	}
	printf("seed=%llu outcome=%s turns=%d gold=%d depth=%d kills=%d\n",
	       (unsigned long long)g->seed, outcome_word(o), g->turn, g->player.gold, g->depth + 1,
	       g->player.kills);
	if (replay) {
		/* the command that plays the same game again, as it was started
		 * (a resumed game's start is in its journal: astray replay) */
		printf("Play it again: astray%s", a->targets.n ? " play" : " --no-title");
		for (int i = 0; i < a->targets.n; i++) {
			putchar(' ');
			cli_put_shell_word(stdout, a->targets.v[i]);
		}
		if (a->bestiary) {
			printf(" --bestiary ");
			cli_put_shell_word(stdout, a->bestiary);
		}
		for (int i = 0; i < a->sets.n; i++) {
			printf(" --set ");
			cli_put_shell_word(stdout, a->sets.v[i]);
		}
		printf(" --seed %llu\n", (unsigned long long)g->seed);
	}
	fflush(stdout);
}

/* ---- the dungeon mode and the title screen --------------------------- */

/* The campaign's folder: ./levels in astray's source tree, else the
 * installed one, else the levels that came with the program (the source
 * tree build/astray was built in, or the prefix it is installed in:
 * cli_program_levels), into buf; NULL if none is there.  Any other
 * levels/ folder of the current directory is not this game's. */
static const char *campaign_dir(char *buf, size_t size)
{
	if (bestiary_in_source_tree())
		return is_dir("levels") ? "levels" : NULL;
	if (is_dir(ASTRAY_DATADIR "/levels"))
		return ASTRAY_DATADIR "/levels";
	return cli_program_levels(buf, size);
}

static int play_session(const struct play_args *a, const struct level *const *levels, int n_levels,
			const struct bestiary *b, const struct journal_setup *setup);

/* The levels of a "dungeon-N" score mode (play_score_mode), else 0. */
static int play_dungeon_levels(const char *mode)
{
	if (strncmp(mode, "dungeon-", 8) != 0)
		return 0;
	char *end;
	long n = strtol(mode + 8, &end, 10);
	return *end == '\0' && n > 0 && n <= DUNGEON_MAX_LEVELS ? (int)n : 0;
}

static void print_dungeon_again(uint64_t seed, int n)
{
	printf("This dungeon again: astray play --dungeon --seed %llu", (unsigned long long)seed);
	if (n != DUNGEON_DEFAULT_LEVELS)
		printf(" --depth %d", n);
	printf("\n");
}

/*
 * --dungeon: the levels are generated from a->seed (dungeon.h, a stream of
 * their own), the game is played on a->seed's game stream, so the one seed
 * printed at the end replays both.  It is journalled like the campaign:
 * the journal holds the generated levels' texts, so a saved dungeon
 * resumes, scores and replays without the generator.  Returns the exit
 * status.
 */
static int play_dungeon(struct play_args *a)
{
	int n = a->dungeon_levels > 0 ? a->dungeon_levels : DUNGEON_DEFAULT_LEVELS;
	struct bestiary b;
	memset(&b, 0, sizeof b);
	char *btext = NULL, bname[4096] = "";
	size_t blen = 0;
	struct dungeon d;
	memset(&d, 0, sizeof d);
	struct journal_level *jl = NULL;
	int status = 1;
	char camp[CLI_PATH_MAX];
	if (!load_bestiary(a, campaign_dir(camp, sizeof camp), &b, &btext, &blen, bname, sizeof bname))
		goto out;
	for (int i = 0; i < a->sets.n; i++) {
		char err[DIAG_ERR_LEN];
		if (!bestiary_set(&b, a->sets.v[i], err, sizeof err)) {
			status = opt_usage_error(&play_command, "--set %s: %s", a->sets.v[i], err);
			goto out;
		}
	}
	char err[DIAG_ERR_LEN];
	if (!dungeon_create(a->seed, n, &b, &d, err, sizeof err)) {
		cli_message(stderr, "astray", err);
		goto out;
	}
	const struct level *const *levels = (const struct level *const *)d.levels;
	if (a->bench_keys == 0 && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "astray: play needs a terminal on stdin and stdout "
				"(for games without one, see astray sim --help)\n");
		goto out;
	}
	jl = calloc((size_t)d.n, sizeof *jl);
	if (!jl) {
		fprintf(stderr, "astray: out of memory\n");
		goto out;
	}
	for (int i = 0; i < d.n; i++) {
		size_t len = 0;
		char *t = dungeon_played_text(d.texts[i], &len);
		if (!t) {
			fprintf(stderr, "astray: out of memory\n");
			goto out;
		}
		jl[i] = (struct journal_level){ .name = "dungeon", .text = t, .len = len };
	}
	struct journal_setup setup = {
		.program = ASTRAY_VERSION, .seed = a->seed,
		.bestiary_name = bname, .bestiary_text = btext, .bestiary_len = blen,
		.sets = (const char *const *)a->sets.v, .n_sets = a->sets.n,
		.options = { .ai_share = AI_SHARE_AUTO, .all_hunt = false },
		.scored = a->sets.n > 0 || a->bestiary ? JOURNAL_SCORED_NO : JOURNAL_SCORED_YES,
		.levels = jl, .n_levels = d.n,
	};
	if (a->bench_keys > 0) {
		status = run_bench(levels, &b, a, &setup);
		goto out;
	}
	a->in_dungeon = true;
	a->dungeon_n = n;
	status = play_session(a, levels, d.n, &b, &setup);
out:
	for (int i = 0; jl && i < d.n; i++)
		free((char *)jl[i].text);
	free(jl);
	free(btext);
	dungeon_fini(&d);
	return status;
}

/*
 * The title screen, shown by a bare `astray` in a terminal.  Returns -1
 * when the player chose the campaign (the caller goes on as without the
 * title), or the exit status.  The high scores come from the data folder;
 * a list that cannot be read only leaves the entry out.
 */
static int play_title(struct play_args *a)
{
	struct score_list scores = { 0 };
	char dir[4096], err[DIAG_ERR_LEN];
	const char *data = play_data_dir(a->data, dir, sizeof dir, err, sizeof err) ? dir : NULL;
	if (!data || !scores_load(data, &scores, err, sizeof err))
		memset(&scores, 0, sizeof scores);
	/* offer only what can start, and say why the rest is missing: a
	 * dungeon needs a bestiary, the campaign its levels */
	char bpath[4096], why[1024] = "", cbuf[CLI_PATH_MAX];
	const char *camp = campaign_dir(cbuf, sizeof cbuf);
	bool no_dungeon = !a->bestiary && !cli_bestiary_path(camp, bpath, sizeof bpath);
	if (!camp && no_dungeon)
		snprintf(why, sizeof why,
			 "No campaign and no bestiary: this is not astray's source folder, nothing is installed "
			 "in %s/levels and no levels lie beside the program (make install puts them there).",
			 ASTRAY_DATADIR);
	else if (!camp)
		snprintf(why, sizeof why,
			 "No campaign: this is not astray's source folder, none is installed in %s/levels and "
			 "none lies beside the program.", ASTRAY_DATADIR);
	else if (no_dungeon)
		snprintf(why, sizeof why, "No dungeons: no bestiary.txt in %s (--bestiary FILE gives one).", camp);
	if (!why[0] && a->settings_note[0])
		snprintf(why, sizeof why, "%s", a->settings_note); /* a broken options file */
	const bool saved = data && !a->no_save && play_save_exists(data);
	char detail[80] = "";
	int other_rules = 0;
	if (saved)
		play_save_detail(data, detail, sizeof detail, &other_rules);
	struct ui_title_entries e = {
		.settings = &a->settings,
		.settings_dir = a->settings_dir[0] ? a->settings_dir : NULL,
		.can_continue = saved,
		.continue_detail = detail[0] ? detail : NULL,
		.continue_rules = other_rules,
		.scores = scores.v,
		.n_scores = scores.n,
		.mouse = !a->no_mouse && a->settings.mouse,
		.notice = why[0] ? why : NULL,
		.no_dungeon = no_dungeon,
		.no_campaign = camp == NULL,
	};
	uint64_t seed = a->seed;
	int signo = 0;
	enum ui_title_choice c = ui_title_run(&e, &seed, &signo, err, sizeof err);
	scores_fini(&scores);
	switch (c) {
	case TITLE_NEW_DUNGEON:
		a->fresh = true;
		return play_dungeon(a);
	case TITLE_SEEDED_DUNGEON:
		a->seed = seed;
		a->seeded = true;
		a->fresh = true;
		return play_dungeon(a);
	case TITLE_CAMPAIGN:
		a->fresh = true;
		return -1;
	case TITLE_CONTINUE:
		a->resume = true; /* play_session takes the saved game without asking */
		return -1;
	case TITLE_QUIT:
		return 0;
	case TITLE_SIGNAL:
		return 128 + signo;
	case TITLE_HANGUP:
		return 129;
	case TITLE_ERROR:
		cli_message(stderr, "astray", err);
		return 1;
	}
	return 1;
}

/*
 * The options that only make sense together: -1 when they agree, else the
 * usage error's status.  Checked before the save lock is taken, so a
 * mistyped command says what is wrong even while another game is saved.
 */
static int play_check_combinations(const struct play_args *a)
{
	if (a->dungeon && a->targets.n > 0)
		return opt_usage_error(&play_command, "--dungeon makes its own levels: give no LEVEL or DIR");
	if (!a->dungeon && a->dungeon_levels > 0)
		return opt_usage_error(&play_command, "--depth is the number of levels of --dungeon");
	if (a->bench_script && (a->bench_keys == 0 || !a->bench_script[0]))
		return opt_usage_error(&play_command, "--bench-script gives the keys of --bench-keys N: give both, "
						      "and at least one key");
	if (a->bench_samples && a->bench_keys == 0)
		return opt_usage_error(&play_command, "--bench-samples writes the times of --bench-keys N: give both");
	if (a->bench_pause > 0 && !a->bench_mapped)
		return opt_usage_error(&play_command, "--bench-pause waits after --bench-mapped's map: give it too");
	if (a->bench_before > 0 && !a->bench_mapped)
		return opt_usage_error(&play_command, "--bench-before waits before --bench-mapped's map: give it too");
	if ((a->bench_mapped || a->bench_exact || a->bench_alone) && a->bench_preview == 0)
		return opt_usage_error(&play_command, "--bench-mapped, --bench-exact and --bench-alone are for "
						      "--bench-preview N: give it too");
	return -1;
}

/*
 * Chooses the mode: --dungeon, or the title screen (no level arguments, a
 * terminal on both sides, no --no-title).  Returns -1 for the campaign or
 * the given levels, as without either; otherwise the exit status.
 */
static int play_mode(struct play_args *a)
{
	if (a->dungeon) {
		a->fresh = true; /* asked for a new dungeon: a saved game is filed away, not offered */
		return play_dungeon(a);
	}
	if (a->targets.n == 0 && !a->no_title && a->bench_keys == 0 && isatty(STDIN_FILENO) &&
	    isatty(STDOUT_FILENO))
		return play_title(a);
	return -1;
}

/*
 * Files a saved game away to DATA/games/ for a new game chosen on the
 * title screen.  False when the slot must be left alone (it could not be
 * read or moved: the message is printed and the new game is not saved
 * over it); out names where a resumable game went ("" if none); a game
 * found ended is filed as its end would have, and what was done goes to
 * ended (said after the new game: its screen would wipe it now).
 */
static bool play_file_saved_away(const char *data, const struct journal_setup *as_they_come, char *out,
				  size_t outsize, char *ended, size_t endedlen)
{
	struct play_resumed r;
	memset(&r, 0, sizeof r);
	char msg[2048], err[DIAG_ERR_LEN];
	out[0] = '\0';
	if (!play_save_exists(data))
		return true;
	switch (play_resume_load(data, as_they_come, &r, msg, sizeof msg)) {
	case PLAY_RESUME_READY: {
		uint64_t seed = r.jg.game->seed;
		play_resumed_fini(&r);
		if (!play_save_file_away(data, seed, out, outsize, err, sizeof err)) {
			cli_message(stderr, "astray", err);
			out[0] = '\0';
			return false;
		}
		return true;
	}
	case PLAY_RESUME_FINISHED:
		snprintf(ended, endedlen, "%s", msg);
		return true;
	case PLAY_RESUME_SET_ASIDE:
		cli_message(stderr, "astray", msg);
		return true;
	case PLAY_RESUME_FAILED:
		cli_message(stderr, "astray", msg);
		return false;
	}
	return false;
}

/* What was done with a saved game found ended (filed, scored), printed
 * where it stays: after the new game's screen, or instead of it. */
static void say_ended(const char *ended)
{
	if (!ended[0])
		return;
	fputs("The game saved before this one had ended; it is filed now:\n", stdout);
	cli_put_text(stdout, ended);
	if (ended[strlen(ended) - 1] != '\n')
		putchar('\n');
}

/* Saving cannot begin (a read-only data folder, a full disk): what
 * failed, and the two ways to play anyway. */
static void say_unsaveable(const char *what, const char *err)
{
	fprintf(stderr, "astray: %s: ", what);
	cli_put_escaped(stderr, err);
	fputs("\n(play without saving: --no-save; or keep the save in another folder: --data DIR)\n", stderr);
}

/*
 * Plays one game in the terminal: the saved one when there is one and the
 * player wants it, else a new one; journals it (unless --no-save) and
 * reports the end.  Returns the exit status.
 */
static int play_session(const struct play_args *a, const struct level *const *levels, int n_levels,
			const struct bestiary *b, const struct journal_setup *setup)
{
	struct play_save s;
	struct play_resumed r;
	memset(&s, 0, sizeof s);
	memset(&r, 0, sizeof r);
	char err[DIAG_ERR_LEN + 200] = "";
	if (!a->no_save && !play_data_dir(a->data, s.data, sizeof s.data, err, sizeof err)) {
		cli_message(stderr, "astray", err);
		return 1;
	}
	/* a kill during a write of the save leaves its temporary file: gone
	 * now, under the save lock that cmd_play took */
	if (!a->no_save && !a->record)
		play_save_tidy(s.data);
	/* what an old save (one with no `scored` record) is compared with:
	 * this run's levels, when this run would be scored */
	const struct journal_setup *as_they_come = setup->scored == JOURNAL_SCORED_YES ? setup : NULL;
	int resume = 0;
	char filed[PLAY_PATH] = "", kept[PLAY_PATH] = "";
	/* a saved game found ended (a stop at its very end): filed now, and
	 * said in the game (its first notice, the history) and after it,
	 * never only on the line-mode screen the game's screen wipes */
	char ended[2048] = "";
	if (a->record) {
		snprintf(s.path, sizeof s.path, "%s", a->record);
	} else if (!a->no_save) {
		bool keep_slot = false;
		char msg[2048];
		if (a->fresh) {
			/* a new game chosen on the title screen, beside its
			 * Continue entry: the saved game is filed away to
			 * games/ (never lost), without a line-mode question */
			keep_slot = !play_file_saved_away(s.data, as_they_come, filed, sizeof filed, ended,
							  sizeof ended);
			if (keep_slot) /* it could not be filed (a `games` that is a file...): said after the game too */
				play_save_slot(s.data, kept, sizeof kept);
		} else if (a->resume) {
			/* chosen on the title screen: no question; a save that
			 * cannot be resumed says why, and the player says whether
			 * a new game starts (rather than meet a fresh level and
			 * think the old game lost) */
			enum play_resume_status st = play_resume_load(s.data, as_they_come, &r, msg, sizeof msg);
			resume = st == PLAY_RESUME_READY;
			keep_slot = st == PLAY_RESUME_FAILED;
			if (st == PLAY_RESUME_FINISHED) {
				/* it had ended: filed now, said here and after the game */
				snprintf(ended, sizeof ended, "%s", msg);
				say_ended(ended);
			} else if (!resume) {
				cli_message(stderr, "astray", msg);
			}
			if (!resume && play_ask(stdin, stdout, "Start a new game?", true) != 1)
				return 0;
		} else if (a->targets.n > 0 && play_save_exists(s.data)) {
			/* levels named on the command line are what the player
			 * asked for: unless the player says otherwise they are
			 * played, unsaved, and the saved game waits untouched */
			enum play_resume_status st = play_resume_load(s.data, as_they_come, &r, msg, sizeof msg);
			if (st == PLAY_RESUME_READY) {
				cli_put_text(stdout, msg);
				putchar('\n');
				int yes = play_ask(stdin, stdout,
						   "You named levels: n plays them unsaved, keeping this save. Continue it?",
						   false);
				if (yes < 0)
					resume = -1;
				else if (yes == 1)
					resume = 1;
				else {
					play_resumed_fini(&r);
					memset(&r, 0, sizeof r);
					keep_slot = true;
					play_save_slot(s.data, kept, sizeof kept);
				}
			} else if (st == PLAY_RESUME_FINISHED) {
				snprintf(ended, sizeof ended, "%s", msg);
			} else {
				cli_message(stderr, "astray", msg);
				keep_slot = st == PLAY_RESUME_FAILED;
				if (play_ask(stdin, stdout, "Start a new game?", true) != 1)
					resume = -1;
			}
		} else {
			resume = play_resume_offer(s.data, as_they_come, &r, &keep_slot, ended, sizeof ended);
		}
		if (resume < 0) {
			/* no answer (Esc, end of input) or no new game wanted */
			say_ended(ended);
			fputs("Nothing was started.\n", stdout);
			return 1;
		}
		s.in_slot = !keep_slot;
		if (s.in_slot)
			play_save_slot(s.data, s.path, sizeof s.path);
		/* the slot holds another game: this one plays unsaved, and the
		 * status line says so for all of it (NOT SAVED) */
		s.unsaved = keep_slot;
	}
	struct game *own = NULL, *g;
	/* The high-score list compares like with like: the campaign and
	 * generated dungeons as they come, not a level of one's own or
	 * monsters tuned (setup->scored); a resumed game as it was decided
	 * when it began (its journal's `scored` record). */
	s.unscored = resume == 1 ? !r.scored : setup->scored != JOURNAL_SCORED_YES;
	if (resume == 1)
		snprintf(s.mode, sizeof s.mode, "%s", r.mode);
	else
		play_score_mode(setup->levels, setup->n_levels, s.mode, sizeof s.mode);
	if (resume == 1) {
		g = r.jg.game;
		if (!play_save_reopen(&s, &r, err, sizeof err)) {
			say_unsaveable("cannot go on saving the game", err);
			play_resumed_fini(&r);
			return 1;
		}
	} else {
		g = own = game_create(levels, n_levels, b, a->seed);
		if (!g) {
			say_ended(ended);
			fprintf(stderr, "astray: out of memory\n");
			return 1;
		}
		if (s.path[0] && !play_save_begin(&s, setup, g, err, sizeof err)) {
			say_ended(ended);
			say_unsaveable("cannot save the game", err);
			game_destroy(own);
			return 1;
		}
	}
	struct ui_hooks hooks;
	play_save_hooks(&s, &hooks);
	/* the first notice (kept in the history): an options file's
	 * trouble, a saved game found ended (its files' names are too long
	 * for the message rows: they follow the game's end lines) */
	char note[sizeof a->settings_note + 200];
	snprintf(note, sizeof note, "%s%s%s", a->settings_note, a->settings_note[0] && ended[0] ? " " : "",
		 ended[0] ? "The saved game had ended: it is filed in games/ (details when you leave)." : "");
	/* the options file, unless the command line says otherwise for this run */
	struct ui_options opt = { .mouse = !a->no_mouse && a->settings.mouse,
				  .step_delay_ms = a->delay_given ? a->delay_ms : a->settings.delay_ms,
				  .hooks = &hooks,
				  .settings = &a->settings,
				  .settings_dir = a->settings_dir[0] ? a->settings_dir : NULL,
				  .no_colour = !a->settings.colour,
				  .note = note[0] ? note : NULL };
	int signo = 0;
	enum ui_outcome o = ui_run(g, &opt, &signo, err, sizeof err);
	/* the terminal is restored: now it is safe to print */
	int status = o == UI_SIGNAL ? 128 + signo : o == UI_HANGUP ? 129 : 0;
	if (o == UI_ERROR) {
		cli_message(stderr, "astray", err);
		status = 1;
	} else {
		/* a dungeon's line plays it again, whatever its seed (0 too):
		 * the campaign's would play other levels */
		print_outcome(g, o, signo, !a->in_dungeon && resume != 1, a);
		if (a->in_dungeon)
			print_dungeon_again(a->seed, a->dungeon_n);
		else if (resume == 1 && play_dungeon_levels(s.mode) > 0)
			/* a continued dungeon: its seed made its levels and its play
			 * (play_dungeon), so the same line plays it again */
			print_dungeon_again(g->seed, play_dungeon_levels(s.mode));
	}
	say_ended(ended);
	if (filed[0]) {
		fputs("The game saved before this one is kept in ", stdout);
		cli_put_escaped(stdout, filed);
		fputs(" (astray replay shows it).\n", stdout);
	}
	if (kept[0]) {
		fputs("This game was not saved: the saved game in ", stdout);
		cli_put_escaped(stdout, kept);
		fputs(" waits for astray to continue it.\n", stdout);
	}
	if (g->over)
		play_save_finish(&s, g, stdout);
	else
		play_save_leave(&s, stdout);
	fflush(stdout);
	game_destroy(own);
	play_resumed_fini(&r);
	if (o == UI_SIGNAL && signo > 0) {
		/* the terminal is back, the game saved and the outcome printed:
		 * now die of the signal with its default action, so the parent
		 * sees it */
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, signo);
		signal(signo, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(signo);
	}
	return status;
}

/*
 * One game at a time per data folder: two programs resuming and
 * appending to one save.jnl would interleave two games into a journal
 * that replays as neither.  A POSIX record lock on DATA/save.lock, held
 * until the program ends (the kernel drops it on any exit).  Returns the
 * lock's descriptor, -1 when there is nothing to lock (no saving, or no
 * data folder: play_session reports that), or -2 when another program
 * holds it (the message is printed).
 */
static int lock_save_slot(const struct play_args *a)
{
	if (a->no_save || a->record || a->bench_keys > 0 || a->bench_preview > 0)
		return -1;
	char data[4096], err[DIAG_ERR_LEN], path[4200];
	if (!play_data_dir(a->data, data, sizeof data, err, sizeof err))
		return -1;
	snprintf(path, sizeof path, "%s/save.lock", data);
	/* O_NOFOLLOW: a link planted as the lock must not make a file appear
	 * where it points; O_NONBLOCK: nor a FIFO hang the start */
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd < 0 && (errno == ELOOP || errno == EINVAL)) {
		fputs("astray: ", stderr);
		cli_put_escaped(stderr, path);
		fputs(": not a file of its own (a symbolic link, a FIFO or a folder): the save lock is refused, "
		      "nothing is played (remove it, or play with --no-save or --data DIR)\n",
		      stderr);
		return -2;
	}
	if (fd < 0)
		return -1; /* a read-only folder: play_session says what fails */
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	if (fcntl(fd, F_SETLK, &fl) == 0)
		return fd;
	struct flock who = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	char pid[32] = "";
	if (fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK)
		snprintf(pid, sizeof pid, " (pid %ld)", (long)who.l_pid);
	close(fd);
	fprintf(stderr,
		"astray: another astray%s is playing a game saved in %s; one game at a time is saved there\n"
		"(finish that one first, or play with --no-save or --data DIR)\n",
		pid, data);
	return -2;
}

int cmd_play(int argc, char **argv)
{
	struct play_args a;
	memset(&a, 0, sizeof a);
	struct names files = { 0 };
	struct level **levels = NULL;
	struct journal_level *jlevels = NULL;
	char *bestiary_text = NULL, bestiary_name[4096] = "";
	size_t bestiary_len = 0;
	int n_levels = 0, status = 1, lock_fd = -1;
	struct bestiary b;
	memset(&b, 0, sizeof b);
	int r = parse_args(argc, argv, &a);
	if (r < 0)
		r = play_check_combinations(&a);
	if (r >= 0) {
		status = r;
		goto out;
	}
	if (!a.seeded)
		a.seed = fresh_seed();
	play_load_settings(&a);
	lock_fd = lock_save_slot(&a);
	if (lock_fd == -2)
		goto out;
	r = play_mode(&a);
	if (r >= 0) {
		status = r;
		goto out;
	}

	/* the campaign */
	const char *near = NULL;
	char camp_buf[CLI_PATH_MAX];
	if (a.targets.n == 0) {
		const char *dir = campaign_dir(camp_buf, sizeof camp_buf);
		if (!dir) {
			if (bestiary_in_source_tree())
				fprintf(stderr, "astray: no levels/ folder in this source tree (give a level or folder)\n");
			else
				fprintf(stderr, "astray: no campaign installed in %s/levels, nor beside the program "
						"(give a level or folder)\n", ASTRAY_DATADIR);
			goto out;
		}
		near = dir;
		if (!add_dir(&files, dir))
			goto out;
	}
	for (int i = 0; i < a.targets.n; i++) {
		if (!near)
			near = a.targets.v[i];
		if (is_dir(a.targets.v[i])) {
			if (!add_dir(&files, a.targets.v[i]))
				goto out;
		} else if (!names_add(&files, a.targets.v[i])) {
			fprintf(stderr, "astray: out of memory\n");
			goto out;
		}
	}

	/* the bestiary, then the overrides */
	if (!load_bestiary(&a, near, &b, &bestiary_text, &bestiary_len, bestiary_name, sizeof bestiary_name))
		goto out;
	for (int i = 0; i < a.sets.n; i++) {
		char err[DIAG_ERR_LEN];
		if (!bestiary_set(&b, a.sets.v[i], err, sizeof err)) {
			status = opt_usage_error(&play_command, "--set %s: %s", a.sets.v[i], err);
			goto out;
		}
	}

	/* every level, before the screen changes */
	levels = calloc((size_t)files.n + 1, sizeof *levels);
	jlevels = calloc((size_t)files.n + 1, sizeof *jlevels);
	if (!levels || !jlevels) {
		fprintf(stderr, "astray: out of memory\n");
		goto out;
	}
	int bad = 0;
	for (int i = 0; i < files.n; i++) {
		struct level *lv = load_level(files.v[i], &b, &a, &jlevels[n_levels]);
		if (lv)
			levels[n_levels++] = lv;
		else
			bad++;
		if (!lv) {
			free((char *)jlevels[n_levels].text);
			memset(&jlevels[n_levels], 0, sizeof jlevels[n_levels]);
		}
	}
	if (bad) {
		fprintf(stderr, "astray: %d level%s with errors: nothing was started\n", bad,
			bad == 1 ? "" : "s");
		goto out;
	}

	struct journal_setup setup = {
		.program = ASTRAY_VERSION, .seed = a.seed,
		.bestiary_name = bestiary_name, .bestiary_text = bestiary_text, .bestiary_len = bestiary_len,
		.sets = (const char *const *)a.sets.v, .n_sets = a.sets.n,
		.options = { .ai_share = AI_SHARE_AUTO, .all_hunt = false },
		/* the high-score list compares like with like: the campaign as
		 * it comes, not a level of one's own or monsters tuned */
		.scored = a.targets.n > 0 || a.sets.n > 0 || a.bestiary ? JOURNAL_SCORED_NO : JOURNAL_SCORED_YES,
		.levels = jlevels, .n_levels = n_levels,
	};
	if (a.bench_keys > 0) {
		status = run_bench((const struct level *const *)levels, &b, &a, &setup);
		goto out;
	}
	if (a.bench_preview > 0) {
		status = run_bench_preview((const struct level *const *)levels, &b, &a);
		goto out;
	}

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "astray: play needs a terminal on stdin and stdout "
				"(for games without one, see astray sim --help)\n");
		goto out;
	}

	status = play_session(&a, (const struct level *const *)levels, n_levels, &b, &setup);
out:
	for (int i = 0; i < n_levels; i++) {
		level_destroy(levels[i]);
		free((char *)jlevels[i].text);
	}
	free(levels);
	free(jlevels);
	free(bestiary_text);
	names_fini(&files);
	opt_list_fini(&a.targets);
	opt_list_fini(&a.sets);
	if (lock_fd >= 0)
		close(lock_fd);
	return status;
}
