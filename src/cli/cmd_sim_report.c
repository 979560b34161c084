/*
 * cmd_sim_report.c - `astray sim-report CSV...`: reads the files, has
 * sim_csv.c put every game of the per-game CSV that `astray sim --shard
 * I/N` (or --per-game --format csv) wrote back in its place by seed, and has
 * sim_write.c write the report a single run over those games prints.  The
 * per-game values are written exactly (put_exact in sim_write.c), so the
 * summaries come out the same to the last digit.  With --heatmap it also
 * adds up the heat counts files of the shards (`sim --heat-counts`,
 * heatmap.c) and draws the picture a single run draws (heat_render.c).
 * Errors name file:line.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "help.h"
#include "heat_render.h"
#include "heatmap.h"
#include "opt.h"
#include "sim.h"
#include "sim_csv.h"
#include "sim_report.h"
#include "sim_sweep.h"
#include "textfile.h"

struct report_args {
	struct opt_list files;
	int format;
	const char *heatmap;         /* --heatmap FILE.svg or "-", or NULL */
	int layer;                   /* enum sim_heat_layer */
	const char *sweep_plot;      /* --sweep-plot FILE.svg (sweep shards), or NULL */
	const char *sweep_metric;    /* --sweep-metric M[,M...], or NULL: killed */
};

static const char *const format_choices[] = { "table", "csv", "json", NULL };

#define ARG(field) offsetof(struct report_args, field)
static const struct opt report_opts[] = {
	{ .name = "format", .kind = OPT_CHOICE, .offset = ARG(format), .metavar = "F", .choices = format_choices,
	  .help = "table (default), csv or json, as astray sim" },
	{ .name = "heatmap", .kind = OPT_STRING, .offset = ARG(heatmap), .metavar = "FILE",
	  .help = "add up the heat counts files given (sim --heat-counts) and draw the heat map one run "
		  "over all their games draws: SVG to FILE, or text with - after the report" },
	{ .name = "layer", .kind = OPT_CHOICE, .offset = ARG(layer), .metavar = "L", .choices = sim_heat_layer_names,
	  .help = "the heat map's layer (default occupancy): occupancy, contact, deaths or blocked, as "
		  "astray sim" },
	{ .name = "sweep-plot", .kind = OPT_STRING, .offset = ARG(sweep_plot), .metavar = "FILE",
	  .help = "files of a sweep (sim --sweep ... --shard): the line plot sim --sweep-plot draws, to FILE" },
	{ .name = "sweep-metric", .kind = OPT_STRING, .offset = ARG(sweep_metric), .metavar = "M,...",
	  .help = "the metrics --sweep-plot draws (default killed)" },
};
#undef ARG

static void report_usage(FILE *out);

static const struct opt_command report_command = {
	"sim-report", report_opts, (int)(sizeof report_opts / sizeof report_opts[0]), report_usage
};

const struct opt_command *cmd_sim_report_opts(size_t *args_size)
{
	*args_size = sizeof(struct report_args);
	return &report_command;
}

static void report_usage(FILE *out)
{
	help_usage(out, "sim-report", (const char *const[]){ "CSV... [HEAT...] [options]", NULL });
	help_text(out, 0,
		  "\nMerges per-game CSV written by `astray sim --shard I/N`, or by --per-game --format csv, over "
		  "disjoint games, for example the jobs of a batch system on many machines, into the report one "
		  "run over all those games prints: the same summary, intervals and --compare verdicts, to the "
		  "last digit.  Games are placed by seed, so --shard slices of one run and runs over disjoint "
		  "--seed ranges merge alike; generated levels (--generate) merge into their run.  The seeds "
		  "must make one range, the same on every level and side; a game found twice or missing is an "
		  "error (exit 1), and so is a file played under other settings, whose config column differs: "
		  "another player, --turns, --set, bestiary or level file.  Time columns are merged like the "
		  "others when the files have them.\n"
		  "\n"
		  "  astray sim L.lvl --games 1000 --shard 1/2 > s1.csv   (on one machine)\n"
		  "  astray sim L.lvl --games 1000 --shard 2/2 > s2.csv   (on another)\n"
		  "  astray sim-report s1.csv s2.csv\n"
		  "  astray sim L.lvl --games 500 --seed 1001 --per-game --format csv > s3.csv\n"
		  "  astray sim-report s1.csv s2.csv s3.csv         (seeds 1..1500)\n"
		  "\n"
		  "Heat maps: each shard also writes its heat with --heat-counts FILE (one level); give those "
		  "files too (they are told from CSV by their first line) and --heatmap draws the same picture a "
		  "single run draws:\n"
		  "  astray sim L.lvl --games 1000 --shard 1/2 --heat-counts s1.heat > s1.csv\n"
		  "  astray sim L.lvl --games 1000 --shard 2/2 --heat-counts s2.heat > s2.csv\n"
		  "  astray sim-report s1.csv s2.csv s1.heat s2.heat --heatmap all.svg\n"
		  "\n"
		  "Sweeps: the shards of sim --sweep (per-game CSV with a sweep column first) merge per value into "
		  "the sweep's CSV, byte for byte the one a single run writes:\n"
		  "  astray sim L.lvl --sweep 'wolf.sight=2..20:2' --shard 1/2 > w1.csv\n"
		  "  astray sim-report w1.csv w2.csv --sweep-plot sight.svg");
	opt_print_help(out, &report_command);
}

/* The heat counts files read so far. */
struct heat_files {
	struct heatmap_counts **v;
	const char **names;
	int n;
};

static void heat_files_fini(struct heat_files *h)
{
	for (int i = 0; i < h->n; i++) {
		heatmap_counts_fini(h->v[i]);
		free(h->v[i]);
	}
	free(h->v);
	free(h->names);
}

static bool print_diags(struct diag_list *d, bool ok)
{
	cli_print_diags(stderr, d, false, false);
	diag_list_fini(d);
	return ok;
}

/* Reads one file into c, or into heat when it is a heat counts file
 * (its first line says so); false after reporting. */
static bool read_file(struct sim_csv *c, struct heat_files *heat, const char *path, int *n_csv)
{
	char *text = NULL;
	size_t len = 0;
	int e = textfile_read(path, &text, &len);
	if (e) {
		fputs("astray sim-report: ", stderr);
		cli_put_escaped(stderr, path);
		fprintf(stderr, ": %s\n", textfile_strerror(e));
		return false;
	}
	struct diag_list d = { 0 };
	bool ok;
	if (len >= 12 && memcmp(text, "astray-heat ", 12) == 0) {
		struct heatmap_counts *hc = calloc(1, sizeof *hc);
		struct heatmap_counts **v = realloc(heat->v, (size_t)(heat->n + 1) * sizeof *v);
		if (v)
			heat->v = v;
		const char **names = realloc(heat->names, (size_t)(heat->n + 1) * sizeof *names);
		if (names)
			heat->names = names;
		if (!hc || !v || !names) {
			free(hc);
			free(text);
			fprintf(stderr, "astray sim-report: out of memory\n");
			return false;
		}
		ok = heatmap_counts_parse(path, text, len, hc, &d);
		if (ok) {
			heat->v[heat->n] = hc;
			heat->names[heat->n++] = path;
		} else {
			free(hc);
		}
	} else {
		ok = sim_csv_add(c, path, text, len, &d);
		(*n_csv)++;
	}
	free(text);
	return print_diags(&d, ok);
}

/* Whether the merged heat counts are of the games the CSV holds: the
 * same level, seeds and sides; false after reporting. */
static bool heat_matches(const struct heatmap_counts *h, const struct sim_csv_result *res, const char *file)
{
	bool level = false;
	for (int l = 0; l < res->n_levels; l++)
		level |= strcmp(res->levels[l].file, h->run.level) == 0;
	char hs[64], cs[64];
	snprintf(hs, sizeof hs, "%llu..%llu", (unsigned long long)h->run.seed,
		 (unsigned long long)(h->run.seed + (uint64_t)h->run.games - 1));
	snprintf(cs, sizeof cs, "%llu..%llu", (unsigned long long)res->seed,
		 (unsigned long long)(res->seed + (uint64_t)res->games - 1));
	if (!level) {
		fputs("astray sim-report: ", stderr);
		cli_put_escaped(stderr, file);
		fprintf(stderr, ":%d: the heat counts are of ", h->line_of[0]);
		cli_put_escaped(stderr, h->run.level);
		fputs(", which no CSV file has games of\n", stderr);
	}
	else if (h->run.seed != res->seed || h->run.games != res->games)
		fprintf(stderr, "astray sim-report: the heat counts files cover the games with seeds %s, the CSV "
				"files seeds %s: give the heat counts of every shard and only those\n", hs, cs);
	else if (h->run.compare != res->compare) {
		fputs("astray sim-report: ", stderr);
		cli_put_escaped(stderr, file);
		fprintf(stderr, ": the heat counts are of %s, the CSV files of %s\n",
			h->run.compare ? "a --compare run (sides A and B)" : "a run without --compare",
			res->compare ? "a --compare run" : "a run without --compare");
	} else
		return true;
	return false;
}

/* Draws the merged heat as sim does; the exit status. */
static int draw(const struct report_args *a, const struct heatmap_counts *h)
{
	char title[3400];
	heat_render_title(title, sizeof title, &h->run, (enum sim_heat_layer)a->layer);
	const struct sim_heat *hb = h->run.compare ? &h->heat[1] : NULL;
	if (strcmp(a->heatmap, "-") == 0) {
		const char *nc = getenv("NO_COLOR");
		bool color = !(nc && *nc) && isatty(STDOUT_FILENO);
		fprintf(stdout, "\n%s\n", title);
		heat_render_text(stdout, &h->heat[0], hb, (enum sim_heat_layer)a->layer, color, h->run.start, h->monsters);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "astray sim-report: write error on standard output: %s\n", strerror(errno));
			return 1;
		}
		return 0;
	}
	FILE *f = fopen(a->heatmap, "w");
	if (!f) {
		fprintf(stderr, "astray sim-report: --heatmap %s: %s\n", a->heatmap, strerror(errno));
		return 1;
	}
	heat_render_svg(f, &h->heat[0], hb, (enum sim_heat_layer)a->layer, title, h->run.start, h->monsters);
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "astray sim-report: --heatmap %s: write error: %s\n", a->heatmap, strerror(errno));
		return 1;
	}
	return 0;
}

/* Whether the file at path is per-game CSV of a sweep (an unreadable file
 * is not: the ordinary reader reports it). */
static bool is_sweep(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	bool yes = textfile_read(path, &text, &len) == 0 && sim_sweep_is_csv(text, len);
	free(text);
	return yes;
}

int cmd_sim_report(int argc, char **argv)
{
	struct report_args a;
	memset(&a, 0, sizeof a);
	int status = opt_parse(&report_command, argc, argv, &a, &a.files, NULL);
	if (status < 0 && a.files.n == 0)
		status = opt_usage_error(&report_command, "give at least one per-game CSV file; "
					 "see astray sim-report --help");
	if (status < 0 && is_sweep(a.files.v[0])) {
		if (a.heatmap || a.format == 2)
			status = opt_usage_error(&report_command, "a sweep's files merge into CSV (no --heatmap, no --format json)");
		else
			status = sim_sweep_report(a.files.v, a.files.n, a.sweep_plot, a.sweep_metric ? a.sweep_metric : "killed");
	} else if (status < 0 && (a.sweep_plot || a.sweep_metric)) {
		status = opt_usage_error(&report_command, "--sweep-plot and --sweep-metric go with the files of a sweep "
					 "(astray sim --sweep ... --shard I/N)");
	}
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
	struct heat_files heat = { 0 };
	struct heatmap_counts merged;
	memset(&merged, 0, sizeof merged);
	int n_csv = 0;
	for (int i = 0; ok && i < a.files.n; i++)
		ok = read_file(c, &heat, a.files.v[i], &n_csv);
	if (ok && n_csv == 0) {
		fprintf(stderr, "astray sim-report: give at least one per-game CSV file (the heat counts files "
				"go with the CSV of the same shards)\n");
		ok = false;
	}
	if (ok && heat.n > 0 && !a.heatmap) {
		fprintf(stderr, "astray sim-report: %s is a heat counts file: draw it with --heatmap FILE.svg "
				"(or - for text)\n", heat.names[0]);
		ok = false;
	}
	if (ok && heat.n == 0 && a.heatmap) {
		fprintf(stderr, "astray sim-report: --heatmap needs the shards' heat counts: write them with "
				"astray sim ... --heat-counts FILE and give those files too\n");
		ok = false;
	}
	struct sim_csv_result res;
	struct diag_list d = { 0 };
	if (ok)
		ok = print_diags(&d, sim_csv_finish(c, &res, &d));
	if (ok && heat.n > 0)
		ok = print_diags(&d, heatmap_counts_merge((const struct heatmap_counts *const *)heat.v, heat.names,
							  heat.n, &merged, &d)) &&
		     heat_matches(&merged, &res, heat.names[0]);
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
				r.levels[l].settings[0] = res.levels[l].settings[0];
				r.levels[l].settings[1] = res.levels[l].settings[1];
			}
			r.n_levels = res.n_levels;
			r.games = res.games;
			r.seed = res.seed;
			r.compare = res.compare;
			memcpy(r.hidden, res.hidden, sizeof r.hidden);
			r.kind_names = res.kind_names;
			r.n_kinds = res.n_kinds;
			r.format = a.format;
			r.files = n_csv; /* the CSV files: the heat counts files are drawn, not reported */
			status = sim_report_print(&r);
			if (status == 0 && a.heatmap)
				status = draw(&a, &merged);
		}
	}
	heatmap_counts_fini(&merged);
	heat_files_fini(&heat);
	free(r.levels);
	sim_csv_destroy(c);
	opt_list_fini(&a.files);
	return status;
}
