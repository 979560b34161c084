/*
 * cmd_sim_report.c - `astray sim-report CSV...`: reads the files, has
 * sim_csv.c put every game of the per-game CSV that `astray sim --shard
 * I/N` (or --per-game --format csv) wrote back in its place by seed, and has
 * cmd_sim.c write the report a single run over those games prints.  The
 * per-game values are written exactly (put_exact in cmd_sim.c), so the
 * summaries come out the same to the last digit.  Errors name file:line.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "opt.h"
#include "sim.h"
#include "sim_csv.h"
#include "sim_report.h"
#include "textfile.h"

struct report_args {
	struct opt_list files;
	int format;
};

static const char *const format_choices[] = { "table", "csv", "json", NULL };

#define ARG(field) offsetof(struct report_args, field)
static const struct opt report_opts[] = {
	{ .name = "format", .kind = OPT_CHOICE, .offset = ARG(format), .metavar = "F", .choices = format_choices,
	  .help = "table (default), csv or json, as astray sim" },
};
#undef ARG

static void report_usage(FILE *out);

static const struct opt_command report_command = {
	"sim-report", report_opts, (int)(sizeof report_opts / sizeof report_opts[0]), report_usage
};

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: astray sim-report CSV... [options]\n"
		"\n"
		"Merges per-game CSV written by `astray sim --shard I/N` (or --per-game\n"
		"--format csv) over disjoint games, for example the jobs of a batch system\n"
		"on many machines, into the report one run over all those games prints:\n"
		"the same summary, intervals and --compare verdicts, to the last digit.\n"
		"Games are placed by seed, so --shard slices of one run and runs over\n"
		"disjoint --seed ranges merge alike; generated levels (--generate) merge\n"
		"into their run.  The seeds must make one range, the same on every level\n"
		"and side; a game found twice or missing is an error (exit 1).  Time\n"
		"columns are merged like the others when the files have them.\n"
		"\n"
		"  astray sim L.lvl --games 1000 --shard 1/2 > s1.csv   (on one machine)\n"
		"  astray sim L.lvl --games 1000 --shard 2/2 > s2.csv   (on another)\n"
		"  astray sim-report s1.csv s2.csv\n"
		"  astray sim L.lvl --games 500 --seed 1001 --per-game --format csv > s3.csv\n"
		"  astray sim-report s1.csv s2.csv s3.csv         (seeds 1..1500)\n"
		"\n"
		"options:\n");
	opt_print_help(out, &report_command);
}

/* Reads one file into c; false after reporting. */
static bool read_file(struct sim_csv *c, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int e = textfile_read(path, &text, &len);
	if (e) {
		fprintf(stderr, "astray sim-report: %s: %s\n", path, strerror(e));
		return false;
	}
	struct diag_list d = { 0 };
	bool ok = sim_csv_add(c, path, text, len, &d);
	cli_print_diags(stderr, &d, false, false);
	diag_list_fini(&d);
	free(text);
	return ok;
}

int cmd_sim_report(int argc, char **argv)
{
	struct report_args a;
	memset(&a, 0, sizeof a);
	int status = opt_parse(&report_command, argc, argv, &a, &a.files, NULL);
	if (status < 0 && a.files.n == 0)
		status = opt_usage_error(&report_command, "give at least one per-game CSV file; "
					 "see astray sim-report --help");
	if (status >= 0) {
		opt_list_fini(&a.files);
		return status;
	}
	struct sim_csv *c = sim_csv_create();
	struct sim_report r;
	memset(&r, 0, sizeof r);
	status = 1;
	bool ok = c != NULL;
	if (!c)
		fprintf(stderr, "astray sim-report: out of memory\n");
	for (int i = 0; ok && i < a.files.n; i++)
		ok = read_file(c, a.files.v[i]);
	struct sim_csv_result res;
	struct diag_list d = { 0 };
	if (ok && !sim_csv_finish(c, &res, &d)) {
		cli_print_diags(stderr, &d, false, false);
		ok = false;
	}
	diag_list_fini(&d);
	if (ok) {
		r.levels = calloc((size_t)res.n_levels, sizeof *r.levels);
		if (!r.levels) {
			fprintf(stderr, "astray sim-report: out of memory\n");
		} else {
			for (int l = 0; l < res.n_levels; l++) {
				r.levels[l].file = res.levels[l].file;
				r.levels[l].monsters = res.levels[l].monsters;
				r.levels[l].games[0] = res.levels[l].games[0];
				r.levels[l].games[1] = res.levels[l].games[1];
			}
			r.n_levels = res.n_levels;
			r.games = res.games;
			r.seed = res.seed;
			r.compare = res.compare;
			memcpy(r.hidden, res.hidden, sizeof r.hidden);
			r.format = a.format;
			r.files = a.files.n;
			status = sim_report_print(&r);
		}
	}
	free(r.levels);
	sim_csv_destroy(c);
	opt_list_fini(&a.files);
	return status;
}
