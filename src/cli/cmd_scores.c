/*
 * cmd_scores.c - `astray scores [--data DIR] [--limit N]`: prints the
 * high-score list of the data folder ($XDG_DATA_HOME/astray, by default
 * ~/.local/share/astray), best first.  Exit 0 (an empty or missing list
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
	int limit;               /* entries printed at most */
};

#define ARG(field) offsetof(struct scores_args, field)
static const struct opt scores_opts[] = {
	{ .name = "data", .kind = OPT_STRING, .offset = ARG(data), .metavar = "DIR",
	  .help = "the data folder; by default $XDG_DATA_HOME/astray, else ~/.local/share/astray" },
	{ .name = "limit", .kind = OPT_INT, .offset = ARG(limit), .metavar = "N", .lo = 1, .hi = SCORES_MAX,
	  .help = "print at most N entries (default: all that are kept)" },
};
#undef ARG

static void scores_usage(FILE *out);

static const struct opt_command scores_command = {
	"scores", scores_opts, (int)(sizeof scores_opts / sizeof scores_opts[0]), scores_usage
};

static void scores_usage(FILE *out)
{
	help_usage(out, "scores", (const char *const[]){ "[--data DIR] [--limit N]", NULL });
	help_textf(out, 0,
		   "\nPrints the high-score list, best first: rank, score, deepest level, turns, outcome, date "
		   "(UTC), seed and what ended the game.  Score: gold, 50 per kill, 100 per level left behind, "
		   "500 for escaping the dungeon.  At most %d entries are kept.",
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
