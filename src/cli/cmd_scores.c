/*
 * cmd_scores.c - `astray scores [--data DIR] [--mode MODE] [--limit N]`:
 * prints the high-score lists of the data folder ($XDG_DATA_HOME/astray,
 * by default ~/.local/share/astray), one list per mode (the campaign, a
 * dungeon of N levels), each best first, or the one list --mode names.  Exit 0 (an empty or missing list
 * says so), 1 when the list cannot be read, 2 on bad usage.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "help.h"
#include "opt.h"
#include "savefile.h"
#include "scores.h"

struct scores_args {
	const char *data;        /* --data DIR, or NULL for the default folder */
	int limit;               /* entries printed at most, in each list */
	const char *mode;        /* --mode MODE: only that list, or NULL for every list */
};

#define ARG(field) offsetof(struct scores_args, field)
static const struct opt scores_opts[] = {
	{ .name = "data", .kind = OPT_STRING, .offset = ARG(data), .metavar = "DIR",
	  .help = "the data folder; by default $XDG_DATA_HOME/astray, else ~/.local/share/astray" },
	{ .name = "limit", .kind = OPT_INT, .offset = ARG(limit), .metavar = "N", .lo = 1, .hi = SCORES_MAX,
	  .help = "print at most N entries of each list (default: all that are kept)" },
	{ .name = "mode", .kind = OPT_STRING, .offset = ARG(mode), .metavar = "MODE",
	  .help = "print only the list of MODE: campaign, dungeon-N (a dungeon of N levels, as play --dungeon "
		  "--depth N), or unknown (entries from before the lists by mode)" },
};
#undef ARG

static void scores_usage(FILE *out);

static const struct opt_command scores_command = {
	"scores", scores_opts, (int)(sizeof scores_opts / sizeof scores_opts[0]), scores_usage
};

const struct opt_command *cmd_scores_opts(size_t *args_size)
{
	*args_size = sizeof(struct scores_args);
	return &scores_command;
}

static void scores_usage(FILE *out)
{
	help_usage(out, "scores", (const char *const[]){ "[--data DIR] [--mode MODE] [--limit N]", NULL });
	help_textf(out, 0,
		   "\nPrints the high-score lists, one per mode, so a game is compared only with games of the "
		   "same mode and length: the campaign, then dungeons by their number of levels (a 10-level "
		   "dungeon is one list, a 25-level one another), then games from before the lists were kept "
		   "apart.  Each list is best first: wins above every other end, then the higher score, then "
		   "fewer turns.  A line gives rank, score, deepest level, turns, outcome, date (UTC), seed and "
		   "what ended the game.  Score: gold, 50 per kill, 100 per level left behind, 500 for escaping "
		   "the dungeon.  At most %d entries are kept in each list.",
		   SCORES_MAX);
	opt_print_help(out, &scores_command);
	help_text(out, 0,
		  "\nexit status: 0 the list was printed (or is empty), 1 it cannot be read, 2 bad usage");
}

int cmd_scores(int argc, char **argv)
{
	struct scores_args a = { .data = NULL, .limit = SCORES_MAX };
	struct opt_list rest = { 0 };
	int status = opt_parse(&scores_command, argc, argv, &a, &rest, NULL);
	if (status < 0 && rest.n > 0)
		status = opt_usage_error(&scores_command, "unexpected '%s' (see astray scores --help)", rest.v[0]);
	opt_list_fini(&rest);
	if (status >= 0)
		return status;
	if (a.data && !*a.data)
		return opt_usage_error(&scores_command, "--data needs a folder");
	if (a.mode && !scores_mode_valid(a.mode, strlen(a.mode)))
		return opt_usage_error(&scores_command,
				       "--mode '%s': expected campaign, dungeon-N (N levels) or unknown", a.mode);
	const char *data = a.data;
	int limit = a.limit;
	char dir[4096];
	if (!data) {
		data = savefile_data_dir(dir, sizeof dir, getenv("XDG_DATA_HOME"), getenv("HOME"));
		if (!data) {
			fprintf(stderr, "astray scores: no data folder: set HOME or XDG_DATA_HOME, or give --data DIR\n");
			return 1;
		}
	}
	struct score_list l;
	char err[DIAG_ERR_LEN];
	if (!scores_load(data, &l, err, sizeof err)) {
		cli_message(stderr, "astray scores", err);
		return 1;
	}
	if (l.skipped > 0)
		fprintf(stderr, "astray scores: warning: %s; %d malformed line%s left out, the rest shown\n", err,
			l.skipped, l.skipped == 1 ? "" : "s");
	if (l.n == 0) {
		printf("No scores yet in %s.\n", data);
		scores_fini(&l);
		return 0;
	}
	char modes[64][SCORES_MODE_LEN];
	int n_modes = scores_modes(&l, modes, 64), shown = 0;
	for (int m = 0; m < n_modes; m++) {
		if (a.mode && strcmp(a.mode, modes[m]) != 0)
			continue;
		char title[128];
		scores_mode_title(modes[m], title, sizeof title);
		printf("%sHigh scores of %s (%s):\n", shown++ ? "\n" : "", title, modes[m]);
		printf("%4s %7s %5s %6s %-7s %-10s %-20s %s\n", "rank", "score", "depth", "turns", "outcome", "date",
		       "seed", "cause");
		for (int i = 0, rank = 0; i < l.n && rank < limit; i++) {
			const struct score_entry *e = &l.v[i];
			if (strcmp(e->mode, modes[m]) != 0)
				continue;
			rank++;
			char date[32] = "?";
			time_t t = (time_t)e->date;
			struct tm tm;
			if (gmtime_r(&t, &tm))
				strftime(date, sizeof date, "%Y-%m-%d", &tm);
			printf("%4d %7ld %5d %6d %-7s %-10s %-20llu %s\n", rank, e->score, e->depth, e->turns, e->outcome,
			       date, (unsigned long long)e->seed, e->cause);
		}
	}
	if (a.mode && !shown) {
		printf("No scores of %s yet in %s (lists:", a.mode, data);
		for (int m = 0; m < n_modes; m++)
			printf(" %s", modes[m]);
		printf(").\n");
	}
	scores_fini(&l);
	return 0;
}
