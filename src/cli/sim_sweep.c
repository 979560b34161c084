/*
 * sim_sweep.c - sweeps: `astray sim LEVEL... --sweep 'wolf.sight=2..20:2'`
 * plays the same seeds once per value of one knob and writes one tidy
 * CSV (a row per value, level and metric: mean, interval, n) and, with
 * --sweep-plot, an SVG line plot of chosen metrics against the value
 * with their interval bands.  The games are sim's own (cmd_sim.c runs
 * the whole run once per value, the value added to --set), and the
 * summaries are sim.c's (sim_summarize_col), so each value's figures are
 * exactly those of a separate run with that --set.  Shards write the
 * per-game CSV with a `sweep` column first; sim_sweep_report splits
 * such files by value and merges each value's games with sim_csv.c as
 * sim-report merges any run, then writes the same rows and plot.
 */
#include "sim_sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "heat_render.h"
#include "sim_cmd.h"
#include "sim_csv.h"
#include "textfile.h"

/* ------------------------------------------------------------------ */
/* The values                                                          */

/* A whole finite number from the n bytes at s. */
static bool parse_num(const char *s, size_t n, double *out)
{
	char buf[40];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end || errno || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static bool add_value(struct sim_sweep_spec *out, double v, const char *text, size_t tlen, char *err,
		      size_t errlen)
{
	if (out->n == SIM_SWEEP_MAX) {
		snprintf(err, errlen, "at most %d values in one sweep", SIM_SWEEP_MAX);
		return false;
	}
	char t[32], set[128];
	if (tlen >= sizeof t) {
		/* cut short, its text would set another value than v */
		snprintf(err, errlen, "'%.*s': a value has at most %d characters", (int)tlen, text, (int)sizeof t - 1);
		return false;
	}
	for (int i = 0; i < out->n; i++)
		if (out->v[i] == v) {
			snprintf(err, errlen, "the value %.*s is given twice", (int)tlen, text);
			return false;
		}
	out->v[out->n] = v;
	snprintf(t, sizeof t, "%.*s", (int)tlen, text);
	snprintf(set, sizeof set, "%s=%s", out->key, t);
	memcpy(out->text[out->n], t, sizeof t);
	memcpy(out->set[out->n], set, sizeof set);
	out->n++;
	return true;
}

bool sim_sweep_parse(const char *spec, struct sim_sweep_spec *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	const char *eq = strchr(spec, '=');
	size_t klen = eq ? (size_t)(eq - spec) : 0;
	if (!eq || klen == 0 || klen >= sizeof out->key || !memchr(spec, '.', klen) ||
	    strcspn(spec, " \t,") < klen) {
		snprintf(err, errlen, "expected KIND.KEY=LO..HI[:STEP] or KIND.KEY=V1,V2,... (a knob as --set "
				      "names it, then its values)");
		return false;
	}
	memcpy(out->key, spec, klen);
	out->key[klen] = '\0';
	const char *vals = eq + 1, *dots = strstr(vals, "..");
	if (dots) {
		const char *colon = strchr(dots + 2, ':');
		double lo, hi, step = 1;
		size_t hlen = colon ? (size_t)(colon - dots - 2) : strlen(dots + 2);
		if (!parse_num(vals, (size_t)(dots - vals), &lo) || !parse_num(dots + 2, hlen, &hi) ||
		    (colon && !parse_num(colon + 1, strlen(colon + 1), &step))) {
			snprintf(err, errlen, "'%s': expected LO..HI or LO..HI:STEP, each a number", vals);
			return false;
		}
		if (!(step > 0) || hi < lo) {
			snprintf(err, errlen, "'%s': the range must rise (LO <= HI) by a STEP above 0", vals);
			return false;
		}
		if ((hi - lo) / step >= SIM_SWEEP_MAX) {
			snprintf(err, errlen, "'%s' makes more than %d values", vals, SIM_SWEEP_MAX);
			return false;
		}
		/* lo + i * step, not a running sum, so that 0.1 steps stay exact
		 * to the digits printed; hi is taken when a step lands on it. */
		for (int i = 0;; i++) {
			double v = lo + i * step;
			if (v > hi + step * 1e-9)
				break;
			if (fabs(v - hi) <= step * 1e-9)
				v = hi;
			/* the value is the one its text sets (0.1 + 2 * 0.1 prints as
			 * 0.3, and 0.3 is what the games get) */
			char t[32];
			int tl = snprintf(t, sizeof t, "%.10g", v);
			v = strtod(t, NULL);
			if (out->n > 0 && v == out->v[out->n - 1]) {
				snprintf(err, errlen, "'%s': a STEP so fine that two values print alike (%s): at most "
						      "10 digits a value", vals, t);
				return false;
			}
			if (!add_value(out, v, t, (size_t)tl, err, errlen))
				return false;
		}
		return true;
	}
	for (const char *p = vals;;) {
		size_t n = strcspn(p, ",");
		double v;
		if (!parse_num(p, n, &v)) {
			snprintf(err, errlen, "'%.*s' is not a number (values: V1,V2,... or LO..HI:STEP)", (int)n, p);
			return false;
		}
		if (!add_value(out, v, p, n, err, errlen))
			return false;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* Rising, as a range and sim-report's merge give them. */
	for (int i = 1; i < out->n; i++)
		for (int j = i; j > 0 && out->v[j - 1] > out->v[j]; j--) {
			double t = out->v[j];
			out->v[j] = out->v[j - 1];
			out->v[j - 1] = t;
			char tt[32], ts[128];
			memcpy(tt, out->text[j], sizeof tt);
			memcpy(out->text[j], out->text[j - 1], sizeof tt);
			memcpy(out->text[j - 1], tt, sizeof tt);
			memcpy(ts, out->set[j], sizeof ts);
			memcpy(out->set[j], out->set[j - 1], sizeof ts);
			memcpy(out->set[j - 1], ts, sizeof ts);
		}
	return true;
}

bool sim_sweep_metric_ok(const char *name)
{
	if (sim_metric_find(name) >= 0)
		return true;
	const char *dot = strrchr(name, '.');
	return dot && dot > name && sim_kind_metric_find(dot + 1) >= 0;
}

/* ------------------------------------------------------------------ */
/* The rows                                                            */

struct point {
	double mean, lo, hi;
	int n;
	bool rate;
};

struct sim_sweep_out {
	const struct sim_sweep_spec *spec;
	FILE *f;
	bool per_game;
	bool header_done;
	int n_metrics;
	char metric[SIM_SWEEP_MAX_METRICS][64];
	struct point pts[SIM_SWEEP_MAX][SIM_SWEEP_MAX_METRICS]; /* of the plotted level, per value */
	bool have[SIM_SWEEP_MAX];
};

struct sim_sweep_out *sim_sweep_out_create(const struct sim_sweep_spec *spec, FILE *f, bool per_game,
					   const char *metrics)
{
	struct sim_sweep_out *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->spec = spec;
	s->f = f;
	s->per_game = per_game;
	for (const char *p = metrics; p && *p && s->n_metrics < SIM_SWEEP_MAX_METRICS;) {
		size_t n = strcspn(p, ",");
		snprintf(s->metric[s->n_metrics++], sizeof s->metric[0], "%.*s", (int)(n < 63 ? n : 63), p);
		p += n + (p[n] == ',');
	}
	return s;
}

void sim_sweep_out_destroy(struct sim_sweep_out *s)
{
	free(s);
}

/* What the summaries are of: the levels of one value, as sim or sim-report has them. */
struct games_view {
	const char *const *names;
	struct sim_game *const *games;
	int n_levels, n_games;
	const bool *hidden;             /* per metric: left out */
	const char (*kinds)[32];
	int n_kinds;
};

/* The number of column col's name into buf. */
static bool col_name(const struct games_view *v, int col, char *buf, size_t size, bool *rate)
{
	*rate = false;
	if (col < SIM_METRIC_COUNT) {
		if (v->hidden[col])
			return false;
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)col);
		snprintf(buf, size, "%s", mi->name);
		*rate = mi->rate;
		return true;
	}
	int k = (col - SIM_METRIC_COUNT) / SIM_KIND_METRIC_COUNT, km = (col - SIM_METRIC_COUNT) % SIM_KIND_METRIC_COUNT;
	if (k >= v->n_kinds)
		return false;
	snprintf(buf, size, "%s.%s", v->kinds[k], sim_kind_metric_info((enum sim_kind_metric)km)->name);
	return true;
}

static void put_num(FILE *f, double v)
{
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.10g", v);
}

/* The rows of one level's games (name) for value vi; keeps the plotted
 * metrics when keep. */
static void level_rows(struct sim_sweep_out *s, int vi, const struct games_view *v, const char *name,
		       const struct sim_game *g, int n, bool keep)
{
	int cols = SIM_METRIC_COUNT + v->n_kinds * SIM_KIND_METRIC_COUNT;
	for (int col = 0; col < cols; col++) {
		char mname[80];
		bool rate;
		struct stats_summary sum;
		if (!col_name(v, col, mname, sizeof mname, &rate) || sim_summarize_col(g, n, col, &sum) < 0 ||
		    (col >= SIM_METRIC_COUNT && sum.n == 0))
			continue;
		cli_csv_field(s->f, s->spec->key);
		fputc(',', s->f);
		cli_csv_field(s->f, s->spec->text[vi]);
		fputc(',', s->f);
		cli_csv_field(s->f, name);
		fputc(',', s->f);
		cli_csv_field(s->f, mname);
		fputc(',', s->f);
		put_num(s->f, sum.mean);
		fputc(',', s->f);
		put_num(s->f, sum.lo);
		fputc(',', s->f);
		put_num(s->f, sum.hi);
		fprintf(s->f, ",%d\n", sum.n);
		for (int m = 0; keep && m < s->n_metrics; m++)
			if (strcmp(s->metric[m], mname) == 0) {
				s->pts[vi][m] = (struct point){ sum.mean, sum.lo, sum.hi, sum.n, rate };
				s->have[vi] = true;
			}
	}
}

/* Every level's rows, then "all" of them together when there are several. */
static int view_rows(struct sim_sweep_out *s, int vi, const struct games_view *v)
{
	if (!s->header_done) {
		fputs("setting,value,level,metric,mean,lo,hi,n\n", s->f);
		s->header_done = true;
	}
	for (int m = 0; m < s->n_metrics; m++)
		s->pts[vi][m] = (struct point){ NAN, NAN, NAN, 0, false };
	for (int l = 0; l < v->n_levels; l++)
		level_rows(s, vi, v, v->names[l], v->games[l], v->n_games, v->n_levels == 1);
	if (v->n_levels > 1) {
		size_t total = (size_t)v->n_levels * (size_t)v->n_games;
		struct sim_game *all = malloc(total * sizeof *all);
		if (!all) {
			fprintf(stderr, "astray sim: out of memory\n");
			return 1;
		}
		for (int l = 0; l < v->n_levels; l++)
			memcpy(all + (size_t)l * (size_t)v->n_games, v->games[l], (size_t)v->n_games * sizeof *all);
		level_rows(s, vi, v, "all", all, (int)total, true);
		free(all);
	}
	return 0;
}

/* Each line of the per-game CSV in buf with the sweep column first: the
 * header once (the first value's), then every value's rows. */
static void prefix_lines(struct sim_sweep_out *s, int vi, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	bool header = true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (header) {
			if (!s->header_done)
				fprintf(s->f, "sweep,%.*s\n", (int)n, p);
			s->header_done = true;
			header = false;
		} else if (n > 0) {
			cli_csv_field(s->f, s->spec->set[vi]);
			fprintf(s->f, ",%.*s\n", (int)n, p);
		}
		p += n + 1;
	}
}

int sim_sweep_take(struct sim_sweep_out *s, int vi, const struct sim_out *o)
{
	if (s->per_game) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m) {
			fprintf(stderr, "astray sim: out of memory\n");
			return 1;
		}
		sim_write_report(m, o);
		bool bad = ferror(m) != 0;
		if (fclose(m) != 0 || bad) {
			free(buf);
			fprintf(stderr, "astray sim: out of memory\n");
			return 1;
		}
		prefix_lines(s, vi, buf, len);
		free(buf);
		return 0;
	}
	const char *names[o->n_runs];
	struct sim_game *games[o->n_runs];
	bool hidden[SIM_METRIC_COUNT];
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		hidden[m] = o->hidden[m] || (o->a->no_time && sim_metric_info((enum sim_metric)m)->time);
	for (int l = 0; l < o->n_runs; l++) {
		names[l] = o->runs[l].src.file;
		games[l] = o->runs[l].games[0];
	}
	struct games_view v = { names, games, o->n_runs, o->a->games, hidden,
				(const char (*)[32])o->kind_names, o->n_kinds };
	return view_rows(s, vi, &v);
}

/* ------------------------------------------------------------------ */
/* The plot                                                            */

/* Tick step for a range: 1, 2 or 5 times a power of ten, about 5 ticks. */
static double tick_step(double range)
{
	if (!(range > 0))
		return 1;
	double raw = range / 5, p = pow(10, floor(log10(raw))), r = raw / p;
	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
}

/* One panel: metric m against the value, its top-left corner at (x0, y0). */
static void panel(FILE *f, const struct sim_sweep_out *s, int m, double x0, double y0, double w, double h)
{
	const struct sim_sweep_spec *sp = s->spec;
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	bool rate = false;
	int shown = 0;
	for (int i = 0; i < sp->n; i++) {
		const struct point *p = &s->pts[i][m];
		if (!s->have[i] || isnan(p->mean))
			continue;
		shown++;
		rate |= p->rate;
		xmin = fmin(xmin, sp->v[i]);
		xmax = fmax(xmax, sp->v[i]);
		double lo = isnan(p->lo) ? p->mean : p->lo, hi = isnan(p->hi) ? p->mean : p->hi;
		ymin = fmin(ymin, fmin(lo, p->mean));
		ymax = fmax(ymax, fmax(hi, p->mean));
	}
	fprintf(f, "<g class=\"panel\" id=\"panel-%d\">\n", m);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">", x0, y0 - 8);
	heat_render_xml_text(f, s->metric[m]);
	fprintf(f, "%s</text>\n", rate ? " (rate)" : "");
	if (shown == 0) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">no game defines this metric at any value</text>\n</g>\n", x0 + 10,
			y0 + h / 2);
		return;
	}
	if (rate) {
		ymin = 0;
		ymax = 1;
	} else {
		if (ymin > 0)
			ymin = 0; /* counts and times from 0, so that sizes compare */
		if (ymax <= ymin)
			ymax = ymin + 1;
	}
	if (xmax <= xmin) {
		xmin -= 1;
		xmax += 1;
	}
	double ys = tick_step(ymax - ymin);
	ymax = ceil(ymax / ys - 1e-9) * ys;
	ymin = floor(ymin / ys + 1e-9) * ys;
#define PX(v) (x0 + ((v) - xmin) / (xmax - xmin) * w)
#define PY(v) (y0 + h - ((v) - ymin) / (ymax - ymin) * h)
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", x0,
		y0, w, h);
	for (double t = ymin; t <= ymax + ys * 1e-6; t += ys) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%.10g</text>\n",
			x0, PY(t), x0 + w, PY(t), x0 - 5, PY(t) + 4, fabs(t) < ys * 1e-6 ? 0 : t);
	}
	/* x ticks: at each value when there are few, else round steps */
	double xs = tick_step(xmax - xmin);
	int nt = sp->n <= 12 ? sp->n : (int)floor((xmax + xs * 1e-6 - ceil(xmin / xs - 1e-9) * xs) / xs) + 1;
	for (int k = 0; k < nt; k++) {
		double t = sp->n <= 12 ? sp->v[k] : ceil(xmin / xs - 1e-9) * xs + k * xs;
		if (t < xmin || t > xmax)
			continue;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%.10g</text>\n",
			PX(t), y0 + h, PX(t), y0 + h + 4, PX(t), y0 + h + 16, fabs(t) < xs * 1e-6 ? 0 : t);
	}
	/* The band: the intervals' tops left to right, then their bottoms back. */
	int order[SIM_SWEEP_MAX], n = 0;
	for (int i = 0; i < sp->n; i++)
		if (s->have[i] && !isnan(s->pts[i][m].mean))
			order[n++] = i;
	for (int i = 1; i < n; i++) /* by value: a list may come in any order */
		for (int j = i; j > 0 && sp->v[order[j - 1]] > sp->v[order[j]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	fprintf(f, "<polygon class=\"band\" fill=\"#9ecae1\" fill-opacity=\"0.6\" stroke=\"none\" points=\"");
	for (int k = 0; k < n; k++) {
		const struct point *p = &s->pts[order[k]][m];
		fprintf(f, "%s%.1f,%.1f", k ? " " : "", PX(sp->v[order[k]]), PY(isnan(p->hi) ? p->mean : p->hi));
	}
	for (int k = n - 1; k >= 0; k--) {
		const struct point *p = &s->pts[order[k]][m];
		fprintf(f, " %.1f,%.1f", PX(sp->v[order[k]]), PY(isnan(p->lo) ? p->mean : p->lo));
	}
	fprintf(f, "\"/>\n<polyline class=\"mean\" fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\" points=\"");
	for (int k = 0; k < n; k++)
		fprintf(f, "%s%.1f,%.1f", k ? " " : "", PX(sp->v[order[k]]), PY(s->pts[order[k]][m].mean));
	fprintf(f, "\"/>\n");
	for (int k = 0; k < n; k++) {
		const struct point *p = &s->pts[order[k]][m];
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#08519c\"><title>", PX(sp->v[order[k]]),
			PY(p->mean));
		heat_render_xml_text(f, sp->set[order[k]]);
		fprintf(f, ": %.4g [%.4g, %.4g], n = %d</title></circle>\n", p->mean, p->lo, p->hi, p->n);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">", x0 + w / 2, y0 + h + 32);
	heat_render_xml_text(f, sp->key);
	fprintf(f, "</text>\n</g>\n");
#undef PX
#undef PY
}

int sim_sweep_plot(const struct sim_sweep_out *s, const char *path, const struct sim_sweep_about *about,
		   const char *prog)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: --sweep-plot %s: %s\n", prog, path, strerror(errno));
		return 1;
	}
	const double left = 60, pw = 560, ph = 220, gap = 80, top = 78;
	double width = left + pw + 30, height = top + s->n_metrics * (ph + gap) - gap + 60;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		   "font-family=\"sans-serif\" font-size=\"13\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
		width, height, width, height);
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"15\">");
	char line[1400];
	snprintf(line, sizeof line, "Sweep of %s over %d values: %s", s->spec->key, s->spec->n, about->level);
	heat_render_xml_text(f, line);
	fprintf(f, "</text>\n<text x=\"10\" y=\"38\" font-size=\"12\">");
	snprintf(line, sizeof line, "%d games per value, seeds %llu..%llu (the same at every value)%s%s", about->games,
		 (unsigned long long)about->seed, (unsigned long long)(about->seed + (uint64_t)about->games - 1),
		 about->player[0] ? ", player " : "", about->player);
	heat_render_xml_text(f, line);
	fprintf(f, "</text>\n<text x=\"10\" y=\"54\" font-size=\"12\">");
	snprintf(line, sizeof line, "%s%s; line: mean, band: its 95%% interval", about->settings[0] ? "other settings: " : "",
		 about->settings[0] ? about->settings : "no other settings");
	heat_render_xml_text(f, line);
	fprintf(f, "</text>\n");
	for (int m = 0; m < s->n_metrics; m++)
		panel(f, s, m, left, top + m * (ph + gap), pw, ph);
	fprintf(f, "</svg>\n");
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "%s: --sweep-plot %s: write error: %s\n", prog, path, strerror(errno));
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* sim-report: sweep shards                                            */

bool sim_sweep_is_csv(const char *text, size_t len)
{
	return len >= 6 && memcmp(text, "sweep,", 6) == 0;
}

/* One value's merge. */
struct group {
	char set[128];                  /* the sweep column: "wolf.sight=4" */
	double v;
	struct sim_csv *csv;
	struct sim_csv_result res;
};

/* The sweep field at the start of line p (n bytes); its length, or 0 when
 * it is not one (quoted, or no comma after it). */
static size_t sweep_field(const char *p, size_t n)
{
	const char *c = memchr(p, ',', n);
	if (!c || c == p || *p == '"')
		return 0;
	return (size_t)(c - p);
}

static struct group *find_group(struct group **gs, int *ng, const char *set, size_t n, bool *oom)
{
	for (int i = 0; i < *ng; i++)
		if (strlen((*gs)[i].set) == n && memcmp((*gs)[i].set, set, n) == 0)
			return &(*gs)[i];
	struct group *grown = realloc(*gs, (size_t)(*ng + 1) * sizeof *grown);
	if (!grown) {
		*oom = true;
		return NULL;
	}
	*gs = grown;
	struct group *g = &grown[(*ng)++];
	memset(g, 0, sizeof *g);
	snprintf(g->set, sizeof g->set, "%.*s", (int)(n < sizeof g->set - 1 ? n : sizeof g->set - 1), set);
	g->csv = sim_csv_create();
	*oom = g->csv == NULL;
	return g;
}

/* Splits one file into its values' groups; false after reporting. */
static bool split_file(const char *path, const char *text, size_t len, struct group **gs, int *ng)
{
	if (!sim_sweep_is_csv(text, len)) {
		fputs("astray sim-report: ", stderr);
		cli_put_escaped(stderr, path);
		fprintf(stderr, ":1:1: error: not per-game CSV of a sweep (its header does not start with 'sweep'), "
				"and the other files are: give the files of one sweep\n");
		return false;
	}
	/* First pass: the values this file has, so that every group gets a copy. */
	const char *end = text + len;
	const char *body = memchr(text, '\n', len);
	body = body ? body + 1 : end;
	int lineno = 1;
	for (const char *p = body; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n > 0 && !(n == 1 && *p == '\r')) {
			size_t k = sweep_field(p, n);
			bool oom = false;
			if (k == 0) {
				fputs("astray sim-report: ", stderr);
				cli_put_escaped(stderr, path);
				fprintf(stderr, ":%d:1: error: expected the sweep's setting (KIND.KEY=VALUE) and a comma first\n",
					lineno + 1);
				return false;
			}
			if (!find_group(gs, ng, p, k, &oom) || oom) {
				fprintf(stderr, "astray sim-report: out of memory\n");
				return false;
			}
		}
		p += n + 1;
	}
	/* Then each group reads the file with the other groups' rows blank,
	 * so that sim_csv.c's messages give the file's own line numbers. */
	size_t hlen = (size_t)(body - text) - 6;
	for (int gi = 0; gi < *ng; gi++) {
		struct group *g = &(*gs)[gi];
		char *copy = malloc(len + 1);
		if (!copy) {
			fprintf(stderr, "astray sim-report: out of memory\n");
			return false;
		}
		size_t out = 0;
		memcpy(copy, text + 6, hlen);
		out = hlen;
		bool any = false;
		for (const char *p = body; p < end;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			size_t k = n > 0 ? sweep_field(p, n) : 0;
			if (k > 0 && k == strlen(g->set) && memcmp(p, g->set, k) == 0) {
				memcpy(copy + out, p + k + 1, n - k - 1);
				out += n - k - 1;
				any = true;
			}
			copy[out++] = '\n';
			p += n + 1;
		}
		struct diag_list d = { 0 };
		bool ok = !any || sim_csv_add(g->csv, path, copy, out, &d);
		free(copy);
		cli_print_diags(stderr, &d, false, false);
		diag_list_fini(&d);
		if (!ok)
			return false;
	}
	return true;
}

/* The key and value of each group ("wolf.sight=4"); false after
 * reporting when they are not of one knob or a value is not a number. */
static bool groups_spec(struct group *gs, int ng, struct sim_sweep_spec *spec)
{
	memset(spec, 0, sizeof *spec);
	for (int i = 0; i < ng; i++) {
		const char *eq = strchr(gs[i].set, '=');
		double v;
		if (!eq || !parse_num(eq + 1, strlen(eq + 1), &v)) {
			fprintf(stderr, "astray sim-report: the sweep setting '%s' is not KIND.KEY=NUMBER\n", gs[i].set);
			return false;
		}
		if (i == 0)
			snprintf(spec->key, sizeof spec->key, "%.*s", (int)(eq - gs[i].set), gs[i].set);
		else if (strlen(spec->key) != (size_t)(eq - gs[i].set) || memcmp(spec->key, gs[i].set, strlen(spec->key)) != 0) {
			fprintf(stderr, "astray sim-report: the files sweep both %s and %.*s: give the files of one sweep\n",
				spec->key, (int)(eq - gs[i].set), gs[i].set);
			return false;
		}
		gs[i].v = v;
	}
	/* in rising order of value, as a range gives them */
	for (int i = 1; i < ng; i++)
		for (int j = i; j > 0 && gs[j - 1].v > gs[j].v; j--) {
			struct group t = gs[j];
			gs[j] = gs[j - 1];
			gs[j - 1] = t;
		}
	char err[200];
	for (int i = 0; i < ng; i++)
		if (!add_value(spec, gs[i].v, strchr(gs[i].set, '=') + 1, strlen(strchr(gs[i].set, '=') + 1), err,
			       sizeof err)) {
			fprintf(stderr, "astray sim-report: %s\n", err);
			return false;
		}
	return true;
}

int sim_sweep_report(const char *const *files, int n, const char *plot, const char *metrics)
{
	struct group *gs = NULL;
	int ng = 0, status = 1;
	struct sim_sweep_spec *spec = calloc(1, sizeof *spec);
	struct sim_sweep_out *s = NULL;
	bool ok = spec != NULL;
	for (int i = 0; ok && i < n; i++) {
		char *text = NULL;
		size_t len = 0;
		int e = textfile_read(files[i], &text, &len);
		if (e) {
			fputs("astray sim-report: ", stderr);
			cli_put_escaped(stderr, files[i]);
			fprintf(stderr, ": %s\n", textfile_strerror(e));
			ok = false;
		} else {
			ok = split_file(files[i], text, len, &gs, &ng);
		}
		free(text);
	}
	if (ok && ng == 0) {
		fprintf(stderr, "astray sim-report: the sweep files hold no games\n");
		ok = false;
	}
	ok = ok && groups_spec(gs, ng, spec);
	for (int i = 0; ok && i < ng; i++) {
		struct diag_list d = { 0 };
		ok = sim_csv_finish(gs[i].csv, &gs[i].res, &d);
		if (!ok)
			fprintf(stderr, "astray sim-report: the games of %s:\n", gs[i].set);
		cli_print_diags(stderr, &d, false, false);
		diag_list_fini(&d);
	}
	/* Every value on the same levels and seeds, or the comparison is not one. */
	for (int i = 1; ok && i < ng; i++) {
		const struct sim_csv_result *a = &gs[0].res, *b = &gs[i].res;
		bool same = a->games == b->games && a->seed == b->seed && a->n_levels == b->n_levels && !a->compare &&
			    !b->compare;
		for (int l = 0; same && l < a->n_levels; l++)
			same = strcmp(a->levels[l].file, b->levels[l].file) == 0;
		if (!same) {
			fprintf(stderr, "astray sim-report: %s has %d games per level from seed %llu on %d level%s, %s %d "
					"from seed %llu on %d: a sweep plays the same levels and seeds at every value (a "
					"shard of one value missing?)\n",
				gs[i].set, b->games, (unsigned long long)b->seed, b->n_levels, b->n_levels == 1 ? "" : "s",
				gs[0].set, a->games, (unsigned long long)a->seed, a->n_levels);
			ok = false;
		}
	}
	if (ok)
		s = sim_sweep_out_create(spec, stdout, false, metrics);
	ok = ok && s;
	for (int i = 0; ok && i < ng; i++) {
		const struct sim_csv_result *r = &gs[i].res;
		const char *names[r->n_levels];
		struct sim_game *games[r->n_levels];
		for (int l = 0; l < r->n_levels; l++) {
			names[l] = r->levels[l].file;
			games[l] = r->levels[l].games[0];
		}
		struct games_view v = { names, games, r->n_levels, r->games, r->hidden, r->kind_names, r->n_kinds };
		ok = view_rows(s, i, &v) == 0;
	}
	if (ok && fflush(stdout) == 0 && !ferror(stdout))
		status = 0;
	else if (ok)
		fprintf(stderr, "astray sim-report: write error on standard output: %s\n", strerror(errno));
	if (status == 0 && plot) {
		struct sim_sweep_about about = { .games = gs[0].res.games, .seed = gs[0].res.seed };
		if (gs[0].res.n_levels == 1)
			cli_escape(about.level, sizeof about.level, gs[0].res.levels[0].file);
		else
			snprintf(about.level, sizeof about.level, "all levels together");
		/* the files' own words for the first value, its KEY=VALUE (added last) taken off */
		const char *w = gs[0].res.n_levels > 0 ? gs[0].res.levels[0].settings[0] : NULL;
		size_t wl = w ? strlen(w) : 0, sl = strlen(gs[0].set);
		if (w && wl >= sl && strcmp(w + wl - sl, gs[0].set) == 0) {
			wl -= sl;
			while (wl > 0 && w[wl - 1] == ' ')
				wl--;
			snprintf(about.settings, sizeof about.settings, "%.*s%s", (int)wl, w,
				 wl >= 2 && w[wl - 1] == ';' ? " the bestiary as read" : "");
		} else {
			snprintf(about.settings, sizeof about.settings, "as in the %d merged file%s (written before per-game "
				 "CSV carried its settings)", n, n == 1 ? "" : "s");
		}
		status = sim_sweep_plot(s, plot, &about, "astray sim-report");
	}
	for (int i = 0; i < ng; i++)
		sim_csv_destroy(gs[i].csv);
	free(gs);
	free(spec);
	sim_sweep_out_destroy(s);
	return status;
}
