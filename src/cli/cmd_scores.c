/*
 * cmd_scores.c - `astray scores [--data DIR] [--limit N]`: prints the
 * high-score list of the data folder ($XDG_DATA_HOME/astray, by default
 * ~/.local/share/astray), best first.  Exit 0 (an empty or missing list
 * says so), 1 when the list cannot be read, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "savefile.h"
#include "scores.h"

static void scores_usage(FILE *out)
{
	fprintf(out,
		"usage: astray scores [--data DIR] [--limit N]\n"
		"\n"
		"Prints the high-score list, best first: rank, score, deepest level, turns,\n"
		"outcome, date (UTC), seed and what ended the game.  Score: gold, 50 per\n"
		"kill, 100 per level left behind, 500 for escaping the dungeon.\n"
		"\n"
		"options:\n"
		"  --data DIR     the data folder (default $XDG_DATA_HOME/astray, else\n"
		"                 ~/.local/share/astray)\n"
		"  --limit N      print at most N entries (default: all, at most %d are kept)\n"
		"  --help         this text\n",
		SCORES_MAX);
}

/* "--opt=value" or "--opt value": the value of option `name` at argv[*i], or NULL (not this option). */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];
	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

int cmd_scores(int argc, char **argv)
{
	const char *data = NULL;
	long limit = SCORES_MAX;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val;
		bool missing = false;
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			scores_usage(stdout);
			return 0;
		} else if ((val = option_value(argc, argv, &i, "--data", &missing)) != NULL) {
			if (!*val) {
				fprintf(stderr, "astray scores: --data needs a folder\n");
				return 2;
			}
			data = val;
		} else if ((val = option_value(argc, argv, &i, "--limit", &missing)) != NULL) {
			char *end;
			long v = strtol(val, &end, 10);
			if (*val < '0' || *val > '9' || *end || v < 1 || v > SCORES_MAX) {
				fprintf(stderr, "astray scores: --limit '%s': expected 1 to %d\n", val, SCORES_MAX);
				return 2;
			}
			limit = v;
		} else if (missing) {
			fprintf(stderr, "astray scores: %s needs a value (see astray scores --help)\n", arg);
			return 2;
		} else {
			fprintf(stderr, "astray scores: unexpected '%s' (see astray scores --help)\n", arg);
			return 2;
		}
	}
	char dir[4096];
	if (!data) {
		data = savefile_data_dir(dir, sizeof dir, getenv("XDG_DATA_HOME"), getenv("HOME"));
		if (!data) {
			fprintf(stderr, "astray scores: no data folder: set HOME or XDG_DATA_HOME, or give --data DIR\n");
			return 1;
		}
	}
	struct score_list l;
	char err[1200];
	if (!scores_load(data, &l, err, sizeof err)) {
		fprintf(stderr, "astray scores: %s\n", err);
		return 1;
	}
	if (l.n == 0) {
		printf("No scores yet in %s.\n", data);
		scores_fini(&l);
		return 0;
	}
	printf("%4s %7s %5s %6s %-7s %-10s %-20s %s\n", "rank", "score", "depth", "turns", "outcome", "date", "seed",
	       "cause");
	for (int i = 0; i < l.n && i < limit; i++) {
		const struct score_entry *e = &l.v[i];
		char date[32] = "?";
		time_t t = (time_t)e->date;
		struct tm tm;
		if (gmtime_r(&t, &tm))
			strftime(date, sizeof date, "%Y-%m-%d", &tm);
		printf("%4d %7ld %5d %6d %-7s %-10s %-20llu %s\n", i + 1, e->score, e->depth, e->turns, e->outcome, date,
		       (unsigned long long)e->seed, e->cause);
	}
	scores_fini(&l);
	return 0;
}
