/*
 * cmd_play.c - `astray [play] [LEVEL|DIR]... [options]`: finds the
 * campaign, loads and checks every level and the bestiary before the
 * screen changes (so every mistake is printed as file:line:col in a normal
 * terminal), refuses to start without a terminal, hands the game to the
 * UI, and prints the outcome and the seed once the terminal is restored.
 * The hidden --bench-keys N measures the CPU time of one key press.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bestiary.h"
#include "cli.h"
#include "cmd.h"
#include "diag.h"
#include "game.h"
#include "level.h"
#include "ui.h"

#ifndef ASTRAY_DATADIR
#define ASTRAY_DATADIR "/usr/local/share/astray"
#endif

#define PLAY_DEFAULT_DELAY_MS 30   /* pause between travel steps */
#define PLAY_DEFAULT_MAP_MONSTERS 10

struct play_args {
	const char **targets;    /* LEVEL or DIR arguments, in order */
	int n_targets;
	const char **sets;       /* KIND.KEY=VALUE */
	int n_sets;
	const char *bestiary;    /* --bestiary FILE, or NULL for the default */
	uint64_t seed;
	bool seeded;
	bool mouse;
	int delay_ms;
	int map_monsters;        /* monsters placed on a Moving AI .map */
	int bench_keys;          /* > 0: measure key presses instead of playing */
};

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
	fprintf(out,
		"usage: astray [play] [LEVEL|DIR]... [options]\n"
		"\n"
		"Plays the campaign: the .lvl files of ./levels in name order (or of the\n"
		"installed %s/levels), or the levels and folders given.  A Moving AI .map\n"
		"plays as one square8 level with monsters placed from the seed.\n"
		"\n"
		"options:\n"
		"  --seed N             replay a game: the seed is printed when a game ends\n"
		"  --no-mouse           leave the mouse to the terminal (text selection)\n"
		"  --bestiary FILE      monster kinds (default: bestiary.txt beside the levels)\n"
		"  --set KIND.KEY=VAL   override one bestiary knob (repeatable)\n"
		"  --monsters K         monsters placed on a .map level (default %d)\n"
		"  --delay MS           pause between travel steps (default %d)\n"
		"  --bench-keys N       measure the CPU time of N key presses on an 80x24 screen\n"
		"  --help               this text\n"
		"\n"
		"In the game, ? lists the keys.  Move with h j k l y u b n, the arrows or the\n"
		"numpad; left click anywhere to travel there; right click describes a cell.\n",
		ASTRAY_DATADIR, PLAY_DEFAULT_MAP_MONSTERS, PLAY_DEFAULT_DELAY_MS);
}

/* Returns -1 to go on, or an exit status (help printed, or a bad argument). */
static int parse_args(int argc, char **argv, struct play_args *a)
{
	a->delay_ms = PLAY_DEFAULT_DELAY_MS;
	a->map_monsters = PLAY_DEFAULT_MAP_MONSTERS;
	a->mouse = true;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		long n;
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			play_usage(stdout);
			return 0;
		} else if (strcmp(arg, "--no-mouse") == 0) {
			a->mouse = false;
			continue;
		} else if (arg[0] == '-' && arg[1] == '-' && arg[2] == '\0') {
			for (i++; i < argc; i++)
				a->targets[a->n_targets++] = argv[i];
			break;
		} else if (arg[0] != '-' || arg[1] == '\0') {
			a->targets[a->n_targets++] = arg;
			continue;
		}
		if (!val) {
			fprintf(stderr, "astray play: %s needs a value (see astray play --help)\n", arg);
			return 1;
		}
		i++;
		if (strcmp(arg, "--seed") == 0) {
			if (!cli_parse_seed(val, &a->seed)) {
				fprintf(stderr, "astray play: --seed '%s': expected a number\n", val);
				return 1;
			}
			a->seeded = true;
		} else if (strcmp(arg, "--bestiary") == 0) {
			a->bestiary = val;
		} else if (strcmp(arg, "--set") == 0) {
			a->sets[a->n_sets++] = val;
		} else if (strcmp(arg, "--monsters") == 0) {
			if (!cli_parse_long(val, 0, 100000, &n)) {
				fprintf(stderr, "astray play: --monsters '%s': expected 0 to 100000\n", val);
				return 1;
			}
			a->map_monsters = (int)n;
		} else if (strcmp(arg, "--delay") == 0) {
			if (!cli_parse_long(val, 0, 1000, &n)) {
				fprintf(stderr, "astray play: --delay '%s': expected 0 to 1000 ms\n", val);
				return 1;
			}
			a->delay_ms = (int)n;
		} else if (strcmp(arg, "--bench-keys") == 0) {
			if (!cli_parse_long(val, 1, 1000000, &n)) {
				fprintf(stderr, "astray play: --bench-keys '%s': expected 1 to 1000000\n", val);
				return 1;
			}
			a->bench_keys = (int)n;
		} else {
			fprintf(stderr, "astray play: unknown option '%s' (see astray play --help)\n", arg);
			return 1;
		}
	}
	return -1;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int only_levels(const struct dirent *e)
{
	return e->d_name[0] != '.' && ends_with(e->d_name, ".lvl");
}

/* Adds the .lvl files of dir in name order; false with a message on failure. */
static bool add_dir(struct names *files, const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, only_levels, alphasort);
	if (n < 0) {
		fprintf(stderr, "astray: %s: %s\n", dir, strerror(errno));
		return false;
	}
	bool ok = true;
	for (int i = 0; i < n; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/",
			 list[i]->d_name);
		ok = ok && names_add(files, path);
		free(list[i]);
	}
	free(list);
	if (ok && n == 0) {
		fprintf(stderr, "astray: %s: no .lvl files in this folder\n", dir);
		return false;
	}
	if (!ok)
		fprintf(stderr, "astray: out of memory\n");
	return ok;
}

static void print_diags(const struct diag_list *d)
{
	for (int i = 0; i < d->n; i++) {
		char line[1024];
		diag_format(&d->items[i], line, sizeof line);
		fprintf(stderr, "%s\n", line);
	}
}

static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20);
	/* keep it short enough to retype */
	return s % 1000000000u;
}

/* Loads one level file; errors and warnings are printed.  NULL on error. */
static struct level *load_level(const char *path, const struct bestiary *b, const struct play_args *a)
{
	size_t len;
	char *text = level_read_file(path, &len);
	if (!text) {
		fprintf(stderr, "astray: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	struct diag_list diags = { 0 };
	struct level *lv;
	if (ends_with(path, ".map")) {
		char glyph = 'g';
		if (!bestiary_find_glyph(b, glyph))
			glyph = b->n > 0 ? b->kinds[0].glyph : 'g';
		lv = level_from_movingai(path, text, len, a->seed, a->map_monsters, glyph, &diags);
	} else {
		lv = level_parse(path, text, len, b, &diags);
	}
	print_diags(&diags);
	if (diags.errors && lv) {
		level_destroy(lv);
		lv = NULL;
	}
	diag_list_fini(&diags);
	free(text);
	return lv;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int run_bench(const struct level *const *levels, const struct bestiary *b,
		     const struct play_args *a)
{
	double *samples = malloc((size_t)a->bench_keys * sizeof *samples);
	if (!samples) {
		fprintf(stderr, "astray: out of memory\n");
		return 1;
	}
	int have = 0, games = 0, monsters = levels[0]->n_monsters;
	while (have < a->bench_keys) {
		/* a game that ends (the player dies) is replaced by the next seed */
		struct game *g = game_create(levels, 1, b, a->seed + (uint64_t)games);
		if (!g) {
			fprintf(stderr, "astray: out of memory\n");
			free(samples);
			return 1;
		}
		char err[256];
		int got = ui_bench_keys(g, a->bench_keys - have, samples + have, err, sizeof err);
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
	double sum = 0;
	for (int i = 0; i < have; i++)
		sum += samples[i];
	qsort(samples, (size_t)have, sizeof *samples, compare_double);
	printf("bench-keys: presses=%d games=%d monsters=%d terminal=80x24 cpu_us_mean=%.1f "
	       "cpu_us_p50=%.1f cpu_us_p95=%.1f cpu_us_max=%.1f\n",
	       have, games, monsters, sum / have, samples[have / 2],
	       samples[(int)(0.95 * (have - 1))], samples[have - 1]);
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

static void print_outcome(const struct game *g, enum ui_outcome o, int signo)
{
	const struct level *lv = game_level(g);
	const char *name = lv && lv->name ? lv->name : "?";
	switch (o) {
	case UI_WON:
		printf("You escaped the last level after %d turns with %d gold.\n", g->turn,
		       g->player.gold);
		break;
	case UI_DIED:
		printf("You died on %s (level %d of %d) on turn %d, with %d gold.\n", name,
		       g->depth + 1, g->n_levels, g->turn, g->player.gold);
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
	printf("Replay with --seed %llu.\n", (unsigned long long)g->seed);
	fflush(stdout);
}

int cmd_play(int argc, char **argv)
{
	struct play_args a;
	memset(&a, 0, sizeof a);
	const char **targets = calloc((size_t)argc + 1, sizeof *targets);
	const char **sets = calloc((size_t)argc + 1, sizeof *sets);
	struct names files = { 0 };
	struct level **levels = NULL;
	int n_levels = 0, status = 1;
	struct game *g = NULL;
	struct bestiary b;
	memset(&b, 0, sizeof b);
	if (!targets || !sets) {
		fprintf(stderr, "astray: out of memory\n");
		goto out;
	}
	a.targets = targets;
	a.sets = sets;
	int r = parse_args(argc, argv, &a);
	if (r >= 0) {
		status = r;
		goto out;
	}
	if (!a.seeded)
		a.seed = fresh_seed();

	/* the campaign */
	const char *near = NULL;
	if (a.n_targets == 0) {
		const char *dir = is_dir("levels") ? "levels" : ASTRAY_DATADIR "/levels";
		if (!is_dir(dir)) {
			fprintf(stderr, "astray: no levels/ folder here and none installed in %s\n", dir);
			goto out;
		}
		near = dir;
		if (!add_dir(&files, dir))
			goto out;
	}
	for (int i = 0; i < a.n_targets; i++) {
		if (!near)
			near = a.targets[i];
		if (is_dir(a.targets[i])) {
			if (!add_dir(&files, a.targets[i]))
				goto out;
		} else if (!names_add(&files, a.targets[i])) {
			fprintf(stderr, "astray: out of memory\n");
			goto out;
		}
	}

	/* the bestiary, then the overrides */
	struct diag_list diags = { 0 };
	bool ok = a.bestiary ? bestiary_load_file(a.bestiary, &b, &diags)
			     : bestiary_load_default(near, &b, &diags);
	print_diags(&diags);
	diag_list_fini(&diags);
	if (!ok)
		goto out;
	for (int i = 0; i < a.n_sets; i++) {
		char err[256];
		if (!bestiary_set(&b, a.sets[i], err, sizeof err)) {
			fprintf(stderr, "astray: --set %s: %s\n", a.sets[i], err);
			goto out;
		}
	}

	/* every level, before the screen changes */
	levels = calloc((size_t)files.n + 1, sizeof *levels);
	if (!levels) {
		fprintf(stderr, "astray: out of memory\n");
		goto out;
	}
	int bad = 0;
	for (int i = 0; i < files.n; i++) {
		struct level *lv = load_level(files.v[i], &b, &a);
		if (lv)
			levels[n_levels++] = lv;
		else
			bad++;
	}
	if (bad) {
		fprintf(stderr, "astray: %d level%s with errors: nothing was started\n", bad,
			bad == 1 ? "" : "s");
		goto out;
	}

	if (a.bench_keys > 0) {
		status = run_bench((const struct level *const *)levels, &b, &a);
		goto out;
	}

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "astray: play needs a terminal on stdin and stdout "
				"(for games without one, see astray sim --help)\n");
		goto out;
	}

	g = game_create((const struct level *const *)levels, n_levels, &b, a.seed);
	if (!g) {
		fprintf(stderr, "astray: out of memory\n");
		goto out;
	}
	struct ui_options opt = { .mouse = a.mouse, .step_delay_ms = a.delay_ms };
	char err[256] = "";
	int signo = 0;
	enum ui_outcome o = ui_run(g, &opt, &signo, err, sizeof err);
	/* the terminal is restored: now it is safe to print */
	if (o == UI_ERROR) {
		fprintf(stderr, "astray: %s\n", err);
		goto out;
	}
	print_outcome(g, o, signo);
	status = o == UI_SIGNAL ? 128 + signo : o == UI_HANGUP ? 129 : 0;
out:
	game_destroy(g);
	for (int i = 0; i < n_levels; i++)
		level_destroy(levels[i]);
	free(levels);
	names_fini(&files);
	free(targets);
	free(sets);
	return status;
}
