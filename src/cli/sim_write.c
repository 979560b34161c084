/*
 * sim_write.c - writes what the games of `astray sim` gave: the report as
 * a table, CSV or JSON (also for `astray sim-report`, which hands it the
 * games it merged), the --heatmap picture and the --heat-counts file.  It
 * reads the games and never plays one (sim_workers.c); docs/sim.md
 * describes every column.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dungeon.h"
#include "gen.h"
#include "heat_render.h"
#include "heatmap.h"
#include "sim.h"
#include "sim_cmd.h"
#include "sim_report.h"
#include "stats.h"

/* ------------------------------------------------------------------ */
/* The report: table, CSV and JSON                                     */

#define SIM_MAX_NOTES 16     /* notes on settings that change nothing, at most */

static bool shown(const struct sim_out *o, int m)
{
	return !o->hidden[m] && !(o->a->no_time && sim_metric_info((enum sim_metric)m)->time);
}

/* A column of the report (sim_kind_col): a metric, then each kind's. */
struct col {
	char name[48];       /* "killed", "wolf.damage" */
	char label[64];      /* "killed", "wolf damage dealt" */
	const char *higher;  /* for a verdict: "catches the player more often" */
	char who[40];        /* who is higher in a verdict: "" or "'s wolf" */
	int decimals;
	bool rate, time, kind;
	int id;              /* the column (sim_kind_col) */
	double floor;        /* the least difference a verdict reports (sim_metric_info.floor, else
	                        half the table's last digit) */
};

static int n_cols(const struct sim_out *o)
{
	return SIM_METRIC_COUNT + o->n_kinds * SIM_KIND_METRIC_COUNT;
}

/* The column at place i of the report (0 .. n_cols - 1): the metrics
 * that are not time, each kind's, then the time metrics, so that the time
 * columns stay last. */
static int col_at(const struct sim_out *o, int i)
{
	int n_plain = 0;
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		n_plain += !sim_metric_info((enum sim_metric)m)->time;
	if (i >= n_plain && i < n_plain + o->n_kinds * SIM_KIND_METRIC_COUNT)
		return SIM_METRIC_COUNT + (i - n_plain);
	bool time = i >= n_plain;
	int k = time ? i - n_plain - o->n_kinds * SIM_KIND_METRIC_COUNT : i;
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		if (sim_metric_info((enum sim_metric)m)->time == time && k-- == 0)
			return m;
	return -1;
}

/* Fills c for the column at place i (col_at); false when it is not shown. */
static bool col_info(const struct sim_out *o, int i, struct col *c)
{
	memset(c, 0, sizeof *c);
	int col = col_at(o, i);
	c->id = col;
	if (col < SIM_METRIC_COUNT) {
		if (!shown(o, col))
			return false;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)col);
		snprintf(c->name, sizeof c->name, "%s", mi->name);
		snprintf(c->label, sizeof c->label, "%s", mi->label);
		c->higher = mi->higher;
		c->decimals = mi->decimals;
		c->rate = mi->rate;
		c->time = mi->time;
		c->floor = mi->floor > 0 ? mi->floor : 0.5 * pow(10.0, -mi->decimals);
		return true;
	}
	int k = (col - SIM_METRIC_COUNT) / SIM_KIND_METRIC_COUNT;
	const struct sim_kind_metric_info *ki =
		sim_kind_metric_info((enum sim_kind_metric)((col - SIM_METRIC_COUNT) % SIM_KIND_METRIC_COUNT));
	snprintf(c->name, sizeof c->name, "%.31s.%s", o->kind_names[k], ki->name);
	snprintf(c->label, sizeof c->label, "%.31s %s", o->kind_names[k], ki->label);
	snprintf(c->who, sizeof c->who, "'s %.31s", o->kind_names[k]);
	c->higher = ki->higher;
	c->decimals = 2;
	c->kind = true;
	c->floor = 0.5 * pow(10.0, -c->decimals);
	return true;
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

/* Whether no game played (either side) had a monster of kind k. */
static bool kind_absent(const struct sim_out *o, int k)
{
	int sides = o->a->compare[0] ? 2 : 1;
	for (int l = 0; l < o->n_runs; l++)
		for (int s = 0; s < sides; s++)
			for (int i = o->first; i < o->end; i++)
				if (o->runs[l].games[s] && o->runs[l].games[s][i].kinds[k][SIM_K_MONSTERS] > 0)
					return false;
	return true;
}

/* The settings that change nothing these games touched, one sentence
 * each into note[] (at most max): every KIND.KEY=VALUE of --set or of a
 * --compare list whose KIND is a monster kind no game had.  (A setting of
 * an item, or of a kind that took part, may still change nothing; the
 * --compare table then says "A and B played every game alike".) */
static int untouched_settings(const struct sim_out *o, char note[][200], int max)
{
	const struct sim_args *a = o->a;
	const char *lists[SIM_MAX_NOTES + 2];
	int n_lists = 0, n = 0;
	for (int i = 0; i < a->sets.n && n_lists < SIM_MAX_NOTES; i++)
		lists[n_lists++] = a->sets.v[i];
	for (int s = 0; s < 2; s++)
		if (a->compare[s])
			lists[n_lists++] = a->compare[s];
	for (int li = 0; li < n_lists; li++) {
		const char *p = lists[li];
		while (*p && n < max) {
			p += strspn(p, " ,\t");
			size_t len = strcspn(p, " ,\t"), klen = strcspn(p, ".");
			if (len == 0)
				break;
			for (int k = 0; klen < len && k < o->n_kinds; k++)
				if (strlen(o->kind_names[k]) == klen && strncmp(p, o->kind_names[k], klen) == 0 &&
				    kind_absent(o, k)) {
					snprintf(note[n++], 200, "%.*s changes nothing these games touched: no %s took part in any game",
						 (int)(len < 120 ? len : 120), p, o->kind_names[k]);
					break;
				}
			p += len;
		}
	}
	return n;
}

static void header_line(FILE *f, const struct sim_out *o)
{
	const struct sim_args *a = o->a;
	char seeds[128];
	describe_seeds(seeds, sizeof seeds, a->seed, a->games);
	if (o->report_files > 0) {
		fprintf(f, "astray sim-report: %d game%s per level (%s), merged from %d file%s\n", a->games,
			a->games == 1 ? "" : "s", seeds, o->report_files, o->report_files == 1 ? "" : "s");
		if (a->compare[0] && o->run_words[0][0] && o->run_words[1][0]) {
			fprintf(f, "compare (same seeds for both): A = %s\n", o->run_words[0]);
			fprintf(f, "                               B = %s\n", o->run_words[1]);
		} else if (a->compare[0]) {
			fprintf(f, "compare (same seeds for both): A and B as in the files (written before they carried "
				   "their settings)\n");
		} else if (o->run_words[0][0]) {
			fprintf(f, "settings: %s\n", o->run_words[0]);
		}
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
	if (o->bestiary[0]) {
		fprintf(f, "bestiary: ");
		cli_put_escaped(f, o->bestiary);
		fprintf(f, " (text hash %016llx)\n", (unsigned long long)o->bestiary_hash);
	}
}

/* How many distinct games (or pairs of games) the n played: a line
 * always, and a sentence when all or most of them are one game again
 * (docs/sim.md, "Statistics"). */
static void table_distinct(FILE *f, int d, int n, bool pairs)
{
	if (d < 0 || n < 1)
		return;
	fprintf(f, "  distinct games: %d of %d%s\n", d, n, pairs ? " pairs (A, B)" : "");
	if (n > 1 && d == 1)
		fprintf(f, "  Every game played out the same: the seeds change nothing here, so no interval is given.\n");
	else if (n > 1 && 2 * d < n)
		fprintf(f, "  Most games repeat another: each interval is only as wide as %d distinct games allow.\n", d);
}

static void table_summary(FILE *f, const struct sim_out *o, const char *title,
			  const struct sim_game *g, int n)
{
	char m1[64], c1[160];
	fprintf(f, "\n%s\n", title);
	table_distinct(f, sim_distinct(g, n, -1), n, false);
	fprintf(f, "  %-26s %6s %12s  %-24s\n", "metric", "n", "mean", "95% CI");
	bool kinds = false;
	for (int m = 0; m < n_cols(o); m++) {
		struct col mi;
		struct stats_summary s;
		if (!col_info(o, m, &mi) || sim_summarize_col(g, n, mi.id, &s) < 0 || (mi.kind && s.n == 0))
			continue;
		if (mi.kind && !kinds) {
			fprintf(f, "  per kind, over the games that have it:\n");
			kinds = true;
		}
		char label[72];
		snprintf(label, sizeof label, "%s%s", mi.label, mi.time ? " *" : "");
		fprintf(f, "  %-26s %6d %12s  %-24s", label, s.n, fmt(m1, sizeof m1, s.mean, mi.decimals, false),
			fmt_ci(c1, sizeof c1, s.lo, s.hi, mi.decimals, false));
		if (mi.rate)
			fprintf(f, " %ld of %d", s.successes, s.n);
		int d = sim_distinct(g, n, mi.id);
		if (d >= 0 && d < s.n)
			fprintf(f, " (%d distinct)", d);
		fputc('\n', f);
	}
}

static void table_per_game(FILE *f, const struct sim_out *o, const struct sim_level_run *lr,
			   const struct sim_game *g, int n)
{
	fputc('\n', f);
	cli_put_escaped(f, lr->src.file);
	fprintf(f, ": games\n  %5s %20s %-12s %8s", "game", "seed", "outcome", "monsters");
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

/* Whether a paired difference is one to report: its interval excludes 0
 * (over at least 2 distinct pairs) and its size reaches the column's floor. */
static bool practical(const struct col *mi, const struct sim_paired *p)
{
	return p->sign != 0 && p->n >= 2 && fabs(p->diff.mean) >= mi->floor;
}

static void verdict_line(FILE *f, const struct col *mi, const struct sim_paired *p)
{
	int dec = mi->decimals;
	char va[64], vb[64], d[64], ci[160], fl[64];
	fmt(va, sizeof va, p->a, dec, false);
	fmt(vb, sizeof vb, p->b, dec, false);
	fmt(d, sizeof d, p->diff.mean, dec, true);
	fmt_ci(ci, sizeof ci, p->diff.lo, p->diff.hi, dec, true);
	snprintf(fl, sizeof fl, "%g", mi->floor);
	if (p->n < 2) {
		fprintf(f, "  %s: too few paired games to tell (n = %d).\n", mi->label, p->n);
	} else if (p->diff.sd == 0 && p->diff.mean == 0) {
		fprintf(f, "  No difference in %s: each game gives the same under A and B (mean %s).\n", mi->label,
			va);
	} else if (p->distinct < 2) {
		fprintf(f, "  Cannot tell for %s: %s (A) vs %s (B), but every pair of games is the same pair again, "
			   "so the difference %s has no interval.\n", mi->label, va, vb, d);
	} else if (p->sign != 0 && !practical(mi, p)) {
		fprintf(f, "  No practical difference in %s: %s (A) vs %s (B), difference B-A %s %s excludes 0 "
			   "but is smaller than %s, the least that counts (docs/sim.md).\n",
			mi->label, va, vb, d, ci, fl);
	} else if (p->sign != 0) {
		fprintf(f, "  %s%s %s: %s %s (A) vs %s (B), difference B-A %s %s excludes 0.\n",
			p->sign > 0 ? "B" : "A", mi->who, mi->higher, mi->label, va, vb, d, ci);
	} else {
		fprintf(f, "  No clear difference in %s: %s (A) vs %s (B), difference B-A %s %s holds 0, could be noise.\n",
			mi->label, va, vb, d, ci);
	}
}

static const char *higher_side(const struct col *mi, const struct sim_paired *p)
{
	if (p->diff.sd == 0 && p->diff.mean == 0)
		return "same in every game";
	if (p->sign != 0 && !practical(mi, p))
		return "below the floor";
	return p->sign > 0 ? "B higher" : p->sign < 0 ? "A higher" : "no clear difference";
}

/* Whether A and B played every game alike (each pair the same trace). */
static bool same_games(const struct sim_game *ga, const struct sim_game *gb, int n)
{
	for (int i = 0; i < n; i++)
		if (ga[i].trace != gb[i].trace)
			return false;
	return n > 0;
}

static void table_compare(FILE *f, const struct sim_out *o, const char *title,
			  const struct sim_game *ga, const struct sim_game *gb, int n)
{
	int cols = n_cols(o);
	struct sim_paired *p = calloc((size_t)cols, sizeof *p);
	bool *done = calloc((size_t)cols, sizeof *done), kinds = false;
	if (!p || !done) {
		free(p);
		free(done);
		fprintf(f, "\n%s\n  out of memory\n", title);
		return;
	}
	fprintf(f, "\n%s\n", title);
	table_distinct(f, sim_distinct_pairs(ga, gb, n, -1), n, true);
	if (same_games(ga, gb, n))
		fprintf(f, "  A and B played every game alike: the settings change nothing these games touched.\n");
	fprintf(f, "  %-26s %6s %11s %11s %11s  %-26s %s\n", "metric", "n", "A", "B", "B-A",
		"95% CI of B-A", "");
	for (int m = 0; m < cols; m++) {
		struct col mi;
		char va[64], vb[64], d[64], ci[160], label[72];
		if (!col_info(o, m, &mi) || sim_compare_col(ga, gb, n, mi.id, &p[m]) < 0 || (mi.kind && p[m].n == 0))
			continue;
		done[m] = true;
		if (mi.kind && !kinds) {
			fprintf(f, "  per kind, over the games that have it:\n");
			kinds = true;
		}
		snprintf(label, sizeof label, "%s%s", mi.label, mi.time ? " *" : "");
		fprintf(f, "  %-26s %6d %11s %11s %11s  %-26s %s\n", label, p[m].n,
			fmt(va, sizeof va, p[m].a, mi.decimals, false),
			fmt(vb, sizeof vb, p[m].b, mi.decimals, false),
			fmt(d, sizeof d, p[m].diff.mean, mi.decimals, true),
			fmt_ci(ci, sizeof ci, p[m].diff.lo, p[m].diff.hi, mi.decimals, true),
			p[m].n >= 2 ? higher_side(&mi, &p[m]) : "");
	}
	fprintf(f, "  verdict:\n");
	for (int m = 0; m < cols; m++) {
		struct col mi;
		if (!done[m] || !col_info(o, m, &mi))
			continue;
		if ((mi.id < SIM_METRIC_COUNT && headline(mi.id)) || practical(&mi, &p[m]))
			verdict_line(f, &mi, &p[m]);
	}
	free(p);
	free(done);
}

/* --dungeon: on which level the games that did not win ended, one line per outcome (the
 * difficulty contract's histogram, docs/sim.md). */
static void table_depths(FILE *f, const struct sim_game *g, int n, int levels)
{
	static const enum sim_outcome ends[] = { SIM_KILLED, SIM_OUT_OF_TURNS };
	for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
		fprintf(f, "  %s by depth:", ends[k] == SIM_KILLED ? "deaths" : "out of turns");
		int any = 0;
		for (int d = 1; d <= levels; d++) {
			int c = 0;
			for (int i = 0; i < n; i++)
				c += g[i].outcome == ends[k] && (int)g[i].v[SIM_M_DEPTH] == d;
			if (c > 0)
				fprintf(f, " %d:%d", d, c);
			any += c;
		}
		fprintf(f, "%s\n", any ? "" : " none");
	}
}

static void print_table(FILE *f, const struct sim_out *o)
{
	const struct sim_args *a = o->a;
	char title[17000], name[16400], note[SIM_MAX_NOTES][200];
	header_line(f, o);
	int notes = untouched_settings(o, note, SIM_MAX_NOTES);
	for (int i = 0; i < notes; i++)
		fprintf(f, "note: %s.\n", note[i]);
	for (int l = 0; l < o->n_runs; l++) {
		const struct sim_level_run *lr = &o->runs[l];
		cli_escape(name, sizeof name, lr->src.file);
		snprintf(title, sizeof title, "%s (%d monster%s%s)", name, lr->monsters,
			 lr->monsters == 1 ? "" : "s",
			 cli_ends_with(lr->src.file, ".map") ? " placed from each seed" : "");
		if (lr->src.dungeon > 0)
			snprintf(title, sizeof title, "%s (dungeons of %d levels, the game's seed makes each)",
				 lr->src.file, lr->src.dungeon);
		if (a->per_game && !a->compare[0])
			table_per_game(f, o, lr, lr->games[0], a->games);
		if (a->compare[0])
			table_compare(f, o, title, lr->games[0], lr->games[1], a->games);
		else
			table_summary(f, o, title, lr->games[0], a->games);
		if (lr->src.dungeon > 0 && !a->compare[0])
			table_depths(f, lr->games[0], a->games, lr->src.dungeon);
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

static void csv_summary_rows(FILE *f, const struct sim_out *o, const char *level,
			     const struct sim_game *g, int n)
{
	int games = sim_distinct(g, n, -1);
	for (int m = 0; m < n_cols(o); m++) {
		struct col c, *mi = &c;
		struct stats_summary s;
		if (!col_info(o, m, &c) || sim_summarize_col(g, n, c.id, &s) < 0 || (c.kind && s.n == 0))
			continue;
		cli_csv_field(f, level);
		fputc(',', f);
		cli_csv_field(f, mi->name);
		fprintf(f, ",%d,", s.n);
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
		/* appended: the distinct games among n (the interval's), and of the level */
		fprintf(f, ",%d,%d,%d\n", mi->time ? 1 : 0, sim_distinct(g, n, c.id), games);
	}
}

static void csv_compare_rows(FILE *f, const struct sim_out *o, const char *level,
			     const struct sim_game *ga, const struct sim_game *gb, int n)
{
	int games = sim_distinct_pairs(ga, gb, n, -1);
	for (int m = 0; m < n_cols(o); m++) {
		struct col c, *mi = &c;
		struct sim_paired p;
		if (!col_info(o, m, &c) || sim_compare_col(ga, gb, n, c.id, &p) < 0 || (c.kind && p.n == 0))
			continue;
		cli_csv_field(f, level);
		fputc(',', f);
		cli_csv_field(f, mi->name);
		fprintf(f, ",%d,", p.n);
		const double v[] = { p.a, p.b, p.diff.mean, p.diff.sd, p.diff.lo, p.diff.hi };
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
			put_num(f, v[k], "");
			fputc(',', f);
		}
		fprintf(f, "%d,%s,%d,%d,%d,", p.sign != 0, p.sign > 0 ? "B" : p.sign < 0 ? "A" : "",
			mi->time ? 1 : 0, p.distinct, games);
		put_num(f, mi->floor, "");
		fprintf(f, ",%d\n", practical(mi, &p));
	}
}

/* The topology game g was played on, for its per-game row: the level's,
 * a generated game's own, a dungeon's level where the game ended; "" when
 * not known (sim-report, whose rows come from files). */
static const char *game_topology(const struct sim_level *src, const struct sim_game *g)
{
	if (src->fixed)
		return grid_topology_name(src->fixed->topo);
	if (src->map_text)
		return grid_topology_name(GRID_SQUARE8); /* level_from_movingai */
	if (src->gen && src->gen->n_topos > 0)
		return grid_topology_name(src->gen->topos[g->index % src->gen->n_topos]);
	if (src->dungeon > 0) {
		struct gen_params *plan = calloc((size_t)src->dungeon, sizeof *plan);
		int d = isnan(g->v[SIM_M_DEPTH]) ? 1 : (int)g->v[SIM_M_DEPTH];
		d = d < 1 ? 1 : d > src->dungeon ? src->dungeon : d;
		const char *t = plan && dungeon_plan(g->seed, src->dungeon, plan) ? grid_topology_name(plan[d - 1].topo) : "";
		free(plan);
		return t;
	}
	return "";
}

static void csv_game_rows(FILE *f, const struct sim_out *o, const struct sim_level *src, const char *side,
			  uint64_t config, const struct sim_game *g)
{
	for (int i = o->first; i < o->end; i++) {
		char name[160];
		if (src->gen)
			sim_gen_name(src->gen, g[i].index, g[i].seed, name, sizeof name);
		cli_csv_field(f, src->gen ? name : src->file);
		if (src->gen) {
			fputc(',', f);
			cli_csv_field(f, src->file);
		}
		if (side)
			fprintf(f, ",%s", side);
		fprintf(f, ",%d,%llu,%s,%d,%016llx", g[i].index, (unsigned long long)g[i].seed,
			sim_outcome_name(g[i].outcome), g[i].monsters, (unsigned long long)config);
		for (int m = 0; m < n_cols(o); m++) {
			struct col c;
			if (!col_info(o, m, &c))
				continue;
			fputc(',', f);
			put_exact(f, sim_game_value(&g[i], c.id), "");
		}
		fputc(',', f); /* the killer's kind, after every metric (appended in rules 4) */
		cli_csv_field(f, g[i].killer);
		fputc(',', f); /* the topology, after the killer (appended in issue 31) */
		fputs(game_topology(src, &g[i]), f);
		fprintf(f, ",%016llx", (unsigned long long)g[i].trace); /* appended: the game's trace */
		fputc(',', f); /* and the side's settings in words, for sim-report's header (appended) */
		cli_csv_field(f, o->run_words[side && side[0] == 'B']);
		fputc('\n', f);
	}
}

/* The per-game header's metric columns, each kind's after them. */
static void csv_header_cols(FILE *f, const struct sim_out *o)
{
	for (int m = 0; m < n_cols(o); m++) {
		struct col c;
		if (col_info(o, m, &c)) {
			fputc(',', f);
			cli_csv_field(f, c.name);
		}
	}
	fputs(",killer,topology,trace,settings\n", f);
}

static void print_csv(FILE *f, const struct sim_out *o)
{
	const struct sim_args *a = o->a;
	char note[SIM_MAX_NOTES][200];
	int notes = untouched_settings(o, note, SIM_MAX_NOTES);
	for (int i = 0; i < notes; i++) /* the CSV has no place for words: they go beside it */
		fprintf(stderr, "astray %s: note: %s\n", o->report_files ? "sim-report" : "sim", note[i]);
	if (a->compare[0] && a->per_game) {
		/* --compare per game (a --shard included): the rows of both sides, for sim-report. */
		fprintf(f, "level%s,side,game,seed,outcome,monsters,config", a->generate ? ",run" : "");
		csv_header_cols(f, o);
		for (int l = 0; l < o->n_runs; l++)
			for (int s = 0; s < 2; s++)
				csv_game_rows(f, o, &o->runs[l].src, s ? "B" : "A", o->runs[l].config[s],
					      o->runs[l].games[s]);
	} else if (a->compare[0]) {
		fprintf(f, "level,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time,distinct,distinct_games,floor,"
			   "practical\n");
		for (int l = 0; l < o->n_runs; l++)
			csv_compare_rows(f, o, o->runs[l].src.file, o->runs[l].games[0],
					 o->runs[l].games[1], a->games);
		if (o->n_runs > 1)
			csv_compare_rows(f, o, "all", o->all[0], o->all[1], o->n_all);
	} else if (a->per_game) {
		fprintf(f, "level%s,game,seed,outcome,monsters,config", a->generate ? ",run" : "");
		csv_header_cols(f, o);
		for (int l = 0; l < o->n_runs; l++)
			csv_game_rows(f, o, &o->runs[l].src, NULL, o->runs[l].config[0], o->runs[l].games[0]);
	} else {
		fprintf(f, "level,metric,n,mean,sd,ci_lo,ci_hi,successes,time,distinct,distinct_games\n");
		for (int l = 0; l < o->n_runs; l++)
			csv_summary_rows(f, o, o->runs[l].src.file, o->runs[l].games[0], a->games);
		if (o->n_runs > 1)
			csv_summary_rows(f, o, "all", o->all[0], o->n_all);
	}
}

static void json_summary(FILE *f, const struct sim_out *o, const struct sim_game *g, int n)
{
	bool first = true;
	fprintf(f, "{");
	for (int m = 0; m < n_cols(o); m++) {
		struct col c, *mi = &c;
		struct stats_summary s;
		if (!col_info(o, m, &c) || sim_summarize_col(g, n, c.id, &s) < 0 || (c.kind && s.n == 0))
			continue;
		fprintf(f, "%s\n      ", first ? "" : ",");
		json_string(f, mi->name);
		fprintf(f, ": {\"n\": %d, \"mean\": ", s.n);
		put_num(f, s.mean, "null");
		fprintf(f, ", \"sd\": ");
		put_num(f, s.sd, "null");
		fprintf(f, ", \"ci_lo\": ");
		put_num(f, s.lo, "null");
		fprintf(f, ", \"ci_hi\": ");
		put_num(f, s.hi, "null");
		if (mi->rate)
			fprintf(f, ", \"successes\": %ld", s.successes);
		fprintf(f, ", \"time\": %s, \"distinct\": %d}", mi->time ? "true" : "false", sim_distinct(g, n, c.id));
		first = false;
	}
	fprintf(f, "\n    }");
}

static void json_compare(FILE *f, const struct sim_out *o, const struct sim_game *ga,
			 const struct sim_game *gb, int n)
{
	bool first = true;
	fprintf(f, "{");
	for (int m = 0; m < n_cols(o); m++) {
		struct col c, *mi = &c;
		struct sim_paired p;
		if (!col_info(o, m, &c) || sim_compare_col(ga, gb, n, c.id, &p) < 0 || (c.kind && p.n == 0))
			continue;
		fprintf(f, "%s\n      ", first ? "" : ",");
		json_string(f, mi->name);
		fprintf(f, ": {\"n\": %d", p.n);
		const char *keys[] = { "a", "b", "diff", "sd", "ci_lo", "ci_hi" };
		const double v[] = { p.a, p.b, p.diff.mean, p.diff.sd, p.diff.lo, p.diff.hi };
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
			fprintf(f, ", \"%s\": ", keys[k]);
			put_num(f, v[k], "null");
		}
		fprintf(f, ", \"excludes_zero\": %s, \"higher\": %s, \"time\": %s, \"distinct\": %d, \"floor\": ",
			p.sign != 0 ? "true" : "false",
			p.sign > 0 ? "\"B\"" : p.sign < 0 ? "\"A\"" : "null", mi->time ? "true" : "false", p.distinct);
		put_num(f, mi->floor, "null");
		fprintf(f, ", \"practical\": %s}", practical(mi, &p) ? "true" : "false");
		first = false;
	}
	fprintf(f, "\n    }");
}

static void json_games(FILE *f, const struct sim_out *o, const struct sim_level *src, const struct sim_game *g,
		       int n)
{
	fprintf(f, "[");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s\n      {\"game\": %d, \"seed\": %llu, \"outcome\": \"%s\", \"monsters\": %d",
			i ? "," : "", g[i].index, (unsigned long long)g[i].seed,
			sim_outcome_name(g[i].outcome), g[i].monsters);
		for (int m = 0; m < n_cols(o); m++) {
			struct col c;
			/* a kind the game does not have is left out, not null */
			if (!col_info(o, m, &c) || (c.kind && isnan(sim_game_value(&g[i], c.id))))
				continue;
			fprintf(f, ", ");
			json_string(f, c.name);
			fprintf(f, ": ");
			put_exact(f, sim_game_value(&g[i], c.id), "null");
		}
		fprintf(f, ", \"killer\": \"%s\"", g[i].killer); /* a kind's name: letters, digits, - and _ */
		/* where the game was played: its own level (a generated one's name) and topology */
		char name[160];
		if (src->gen)
			sim_gen_name(src->gen, g[i].index, g[i].seed, name, sizeof name);
		fprintf(f, ", \"level\": ");
		json_string(f, src->gen ? name : src->file);
		fprintf(f, ", \"topology\": \"%s\", \"trace\": \"%016llx\"}", game_topology(src, &g[i]),
			(unsigned long long)g[i].trace);
	}
	fprintf(f, "\n    ]");
}

static void print_json(FILE *f, const struct sim_out *o)
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
	char note[SIM_MAX_NOTES][200];
	int notes = untouched_settings(o, note, SIM_MAX_NOTES);
	fprintf(f, "  \"notes\": [");
	for (int i = 0; i < notes; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_string(f, note[i]);
	}
	fprintf(f, "],\n");
	bool words = o->run_words[0][0] && (!cmp || o->run_words[1][0]);
	if (cmp) {
		fprintf(f, "  \"compare\": {\"a\": ");
		json_string(f, o->report_files > 0 && words ? o->run_words[0] : a->compare[0]);
		fprintf(f, ", \"b\": ");
		json_string(f, o->report_files > 0 && words ? o->run_words[1] : a->compare[1]);
		fprintf(f, "},\n");
	}
	if (o->bestiary[0]) {
		fprintf(f, "  \"bestiary\": ");
		json_string(f, o->bestiary);
		fprintf(f, ",\n  \"bestiary_hash\": \"%016llx\",\n", (unsigned long long)o->bestiary_hash);
	}
	if (words) { /* each side's whole setting in words, as the table's header and the CSV carry it */
		fprintf(f, "  \"run_settings\": [");
		json_string(f, o->run_words[0]);
		if (cmp) {
			fprintf(f, ", ");
			json_string(f, o->run_words[1]);
		}
		fprintf(f, "],\n");
	}
	fprintf(f, "  \"levels\": [");
	for (int l = 0; l < o->n_runs; l++) {
		const struct sim_level_run *lr = &o->runs[l];
		fprintf(f, "%s\n   {\"level\": ", l ? "," : "");
		json_string(f, lr->src.file);
		fprintf(f, ", \"monsters\": %d, \"distinct_games\": %d,\n    \"%s\": ", lr->monsters,
			cmp ? sim_distinct_pairs(lr->games[0], lr->games[1], a->games, -1)
			    : sim_distinct(lr->games[0], a->games, -1),
			cmp ? "compare" : "summary");
		if (cmp)
			json_compare(f, o, lr->games[0], lr->games[1], a->games);
		else
			json_summary(f, o, lr->games[0], a->games);
		if (a->per_game) {
			fprintf(f, ",\n    \"games%s\": ", cmp ? "_a" : "");
			json_games(f, o, &lr->src, lr->games[0], a->games);
			if (cmp) {
				fprintf(f, ",\n    \"games_b\": ");
				json_games(f, o, &lr->src, lr->games[1], a->games);
			}
		}
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]");
	if (o->n_runs > 1) {
		fprintf(f, ",\n  \"all\": {\"games\": %d, \"distinct_games\": %d,\n    \"%s\": ", o->n_all,
			cmp ? sim_distinct_pairs(o->all[0], o->all[1], o->n_all, -1) : sim_distinct(o->all[0], o->n_all, -1),
			cmp ? "compare" : "summary");
		if (cmp)
			json_compare(f, o, o->all[0], o->all[1], o->n_all);
		else
			json_summary(f, o, o->all[0], o->n_all);
		fprintf(f, "}");
	}
	fprintf(f, "\n}\n");
}

void sim_write_report(FILE *f, const struct sim_out *o)
{
	if (o->a->format == FORMAT_CSV)
		print_csv(f, o);
	else if (o->a->format == FORMAT_JSON)
		print_json(f, o);
	else
		print_table(f, o);
}

/* ------------------------------------------------------------------ */
/* sim-report's games, written as sim writes them                      */

void sim_write_settings(char *buf, size_t size, const struct sim_args *a, const char *extra)
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

void sim_write_run_words(struct sim_out *o)
{
	const struct sim_args *a = o->a;
	char best[600] = "";
	if (o->bestiary[0]) {
		char esc[512];
		cli_escape(esc, sizeof esc, o->bestiary);
		snprintf(best, sizeof best, "; bestiary %s (text hash %016llx)", esc, (unsigned long long)o->bestiary_hash);
	}
	for (int s = 0; s < (a->compare[0] ? 2 : 1); s++) {
		char words[sizeof o->run_words[0]];
		snprintf(words, sizeof words, "player %s; at most %d turns%s%s; %s", sim_player_name(a->opt.player),
			 a->opt.max_turns, a->opt.chase ? "; --chase" : "", best, o->settings[s]);
		memcpy(o->run_words[s], words, sizeof words);
	}
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
	struct sim_out o = { .a = &a, .runs = runs, .n_runs = r->n_levels, .first = 0, .end = r->games,
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
	o.n_kinds = r->n_kinds;
	for (int k = 0; k < r->n_kinds; k++)
		snprintf(o.kind_names[k], sizeof o.kind_names[k], "%s", r->kind_names[k]);
	for (int s = 0; s < sides && r->n_levels > 0; s++)
		if (r->levels[0].settings[s])
			snprintf(o.run_words[s], sizeof o.run_words[s], "%s", r->levels[0].settings[s]);
	for (int l = 0; l < r->n_levels; l++) {
		runs[l].src.file = r->levels[l].file;
		runs[l].monsters = r->levels[l].monsters;
		for (int s = 0; s < sides; s++) {
			runs[l].games[s] = o.all[s] + (size_t)l * (size_t)r->games;
			memcpy(runs[l].games[s], r->levels[l].games[s], (size_t)r->games * sizeof(struct sim_game));
		}
	}
	o.n_all = (int)total;
	sim_write_report(stdout, &o);
	status = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	if (status)
		fprintf(stderr, "astray sim-report: write error on standard output: %s\n", strerror(errno));
done:
	free(o.all[0]);
	free(o.all[1]);
	free(runs);
	return status;
}

/* ------------------------------------------------------------------ */
/* The heat of the one level                                           */

/* Whether the --heatmap (or --heat-counts) file can be written: its folder exists and takes
 * files (the message printed when not).  The file itself is written only
 * after the games, so a run that fails leaves no half picture. */
bool sim_write_path_ok(const char *opt, const char *path)
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
	/* escaped as the CSV writes it, so that sim-report matches the two */
	cli_escape(run->level, sizeof run->level, lr->src.file);
	run->level_hash = lr->text_hash;
	run->games = end - first;
	run->seed = sim_game_seed(a->seed, first);
	snprintf(run->player, sizeof run->player, "%s", sim_player_name(a->opt.player));
	run->chase = a->opt.chase;
	run->max_turns = a->opt.max_turns;
	run->compare = a->compare[0] != NULL;
	sim_write_settings(run->settings[0], sizeof run->settings[0], a, a->compare[0]);
	if (run->compare)
		sim_write_settings(run->settings[1], sizeof run->settings[1], a, a->compare[1]);
	/* A .lvl starts the player on one cell; a .map places it anew each game. */
	run->start = lr->parsed ? lr->parsed->player_y * lr->parsed->w + lr->parsed->player_x : -1;
	snprintf(run->kind, sizeof run->kind, "%s", a->heat_kind ? a->heat_kind : "");
}

/* Where the monsters of a .lvl start: w * h kind glyphs, 0 elsewhere
 * (owned); NULL for a .map, whose monsters are placed anew each game. */
static char *monster_starts(const struct sim_level_run *lr)
{
	const struct level *lv = lr->parsed;
	char *m = lv ? calloc((size_t)lv->w * (size_t)lv->h, 1) : NULL;
	for (int i = 0; m && i < lv->n_monsters; i++)
		m[lv->monsters[i].y * lv->w + lv->monsters[i].x] = lv->monsters[i].glyph;
	return m;
}

int sim_write_heatmap(const struct sim_args *a, const struct sim_level_run *lr)
{
	const struct sim_heat *ha = &lr->heat[0], *hb = a->compare[0] ? &lr->heat[1] : NULL;
	/* Two lines: what is drawn, then the run's settings, so a picture
	 * opened later still says which change it shows. */
	struct heatmap_run run;
	char title[3400];
	heat_run(a, lr, 0, a->games, &run);
	heat_render_title(title, sizeof title, &run, (enum sim_heat_layer)a->layer);
	if (strcmp(a->heatmap, "-") == 0) {
		const char *nc = getenv("NO_COLOR");
		bool color = !(nc && *nc) && isatty(STDOUT_FILENO);
		fprintf(stdout, "\n%s\n", title);
		char *mons = monster_starts(lr);
		heat_render_text(stdout, ha, hb, (enum sim_heat_layer)a->layer, color, run.start, mons);
		free(mons);
		return 0;
	}
	FILE *f = fopen(a->heatmap, "w");
	if (!f) {
		fprintf(stderr, "astray sim: %s: %s\n", a->heatmap, strerror(errno));
		return 1;
	}
	char *mons = monster_starts(lr);
	int rc = heat_render_svg(f, ha, hb, (enum sim_heat_layer)a->layer, title, run.start, mons);
	free(mons);
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
int sim_write_heat_counts(const struct sim_args *a, const struct sim_level_run *lr, int first, int end)
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
	char *mons = monster_starts(lr);
	int rc = heatmap_counts_write(f, &run, &lr->heat[0], a->compare[0] ? &lr->heat[1] : NULL, mons);
	free(mons);
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "astray sim: --heat-counts %s: write error: %s\n", a->heat_counts, strerror(errno));
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr, "astray sim: --heat-counts %s: a setting holds a line break (level names are written escaped), "
				"which the counts file cannot carry\n", a->heat_counts);
		return 1;
	}
	return 0;
}

