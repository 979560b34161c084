/*
 * sim_csv.c - the reader of sim's per-game CSV (written by cmd_sim.c with
 * --per-game --format csv or --shard I/N): the header names the columns
 * (level, an optional side, game, seed, outcome, monsters, then metric
 * names, any subset), each row one game.  Games are kept by level, side
 * and number so shards can come in any order; a game met twice is an
 * error.  It parses from memory and never prints (make fuzz covers it).
 */
#include "sim_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole decimal number in [lo, hi]. */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	if (*s == '\0' || *s == ' ' || *s == '+')
		return false;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* One level as it is being read: games by number, for each side. */
struct level_acc {
	char *file;
	struct sim_game *games[2];
	unsigned char *have[2];    /* 1 where game i of that side was read */
	int cap;                   /* slots in games[] */
	int n[2];                  /* games read per side */
};

struct sim_csv {
	struct level_acc *levels;
	int n_levels, cap_levels;
	bool compare;
	bool any;                   /* a header was read */
	bool hidden[SIM_METRIC_COUNT];
	int ncols;                  /* columns of the header */
	int col_kind[64 + SIM_METRIC_COUNT]; /* what each column is: below, or a metric */
	struct sim_csv_level *view;  /* sim_csv_finish's levels */
};

enum { COL_LEVEL = -1, COL_SIDE = -2, COL_GAME = -3, COL_SEED = -4, COL_OUTCOME = -5, COL_MONSTERS = -6 };

/* Splits one CSV line (quotes as sim writes them) into fields, in place;
 * returns the number of fields or -1 on a broken quote. */
static int split_csv(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return -1;
		if (*p == '"') {
			char *out = ++p;
			f[n++] = out;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					*out++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*out++ = *p++;
				}
			}
			*out = '\0';
			if (*p == '\0')
				return n;
			if (*p != ',')
				return -1;
			p++;
			continue;
		}
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			return n;
		*c = '\0';
		p = c + 1;
	}
}

static bool read_header(struct sim_csv *rd, char **f, int n, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		int kind;
	} fixed[] = { { "level", COL_LEVEL }, { "side", COL_SIDE }, { "game", COL_GAME },
		      { "seed", COL_SEED }, { "outcome", COL_OUTCOME }, { "monsters", COL_MONSTERS } };
	bool seen[SIM_METRIC_COUNT] = { false }, side = false, game = false, level = false;
	if (n > (int)(sizeof rd->col_kind / sizeof rd->col_kind[0])) {
		snprintf(err, errlen, "too many columns");
		return false;
	}
	for (int i = 0; i < n; i++) {
		int kind = 0;
		bool found = false;
		for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
			if (strcmp(f[i], fixed[k].name) == 0) {
				kind = fixed[k].kind;
				found = true;
			}
		if (!found) {
			int m = sim_metric_find(f[i]);
			if (m < 0) {
				snprintf(err, errlen, "unknown column '%.60s' (expected the per-game CSV of astray sim)", f[i]);
				return false;
			}
			kind = m;
			seen[m] = true;
		}
		side |= kind == COL_SIDE;
		game |= kind == COL_GAME;
		level |= kind == COL_LEVEL;
		rd->col_kind[i] = kind;
	}
	if (!game || !level) {
		snprintf(err, errlen, "not per-game CSV: no level and game columns (write it with "
				      "astray sim --shard I/N or --per-game --format csv)");
		return false;
	}
	bool hidden[SIM_METRIC_COUNT];
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		hidden[m] = !seen[m];
	if (rd->any && (side != rd->compare || memcmp(hidden, rd->hidden, sizeof hidden) != 0)) {
		snprintf(err, errlen, "its columns differ from the first file's (mixed runs?)");
		return false;
	}
	rd->compare = side;
	memcpy(rd->hidden, hidden, sizeof hidden);
	rd->ncols = n;
	rd->any = true;
	return true;
}

static struct level_acc *find_level(struct sim_csv *rd, const char *file)
{
	for (int i = 0; i < rd->n_levels; i++)
		if (strcmp(rd->levels[i].file, file) == 0)
			return &rd->levels[i];
	if (rd->n_levels == rd->cap_levels) {
		int cap = rd->cap_levels ? 2 * rd->cap_levels : 8;
		struct level_acc *grown = realloc(rd->levels, (size_t)cap * sizeof *grown);
		if (!grown)
			return NULL;
		rd->levels = grown;
		rd->cap_levels = cap;
	}
	struct level_acc *l = &rd->levels[rd->n_levels];
	memset(l, 0, sizeof *l);
	l->file = strdup(file);
	if (!l->file)
		return NULL;
	rd->n_levels++;
	return l;
}

static bool grow_games(struct level_acc *l, int index)
{
	if (index < l->cap)
		return true;
	int cap = l->cap ? l->cap : 64;
	while (cap <= index)
		cap *= 2;
	for (int s = 0; s < 2; s++) {
		struct sim_game *g = realloc(l->games[s], (size_t)cap * sizeof *g);
		if (g)
			l->games[s] = g;
		unsigned char *h = realloc(l->have[s], (size_t)cap);
		if (h) {
			memset(h + l->cap, 0, (size_t)(cap - l->cap));
			l->have[s] = h;
		}
		if (!g || !h)
			return false;
	}
	l->cap = cap;
	return true;
}

static bool parse_number(const char *s, double *out)
{
	if (*s == '\0') {
		*out = NAN;
		return true;
	}
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return *end == '\0' && errno == 0 && isfinite(*out);
}

static bool read_row(struct sim_csv *rd, char **f, int n, char *err, size_t errlen)
{
	if (n != rd->ncols) {
		snprintf(err, errlen, "%d fields, the header has %d", n, rd->ncols);
		return false;
	}
	struct sim_game g;
	memset(&g, 0, sizeof g);
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		g.v[m] = NAN;
	const char *level = NULL;
	int side = 0;
	for (int i = 0; i < n; i++) {
		int kind = rd->col_kind[i];
		long v;
		switch (kind) {
		case COL_LEVEL:
			level = f[i];
			break;
		case COL_SIDE:
			if (strcmp(f[i], "A") != 0 && strcmp(f[i], "B") != 0) {
				snprintf(err, errlen, "side '%.20s' (expected A or B)", f[i]);
				return false;
			}
			side = f[i][0] == 'B';
			break;
		case COL_GAME:
			if (!parse_long(f[i], 0, 100000000, &v)) {
				snprintf(err, errlen, "game '%.20s' (expected a game number)", f[i]);
				return false;
			}
			g.index = (int)v;
			break;
		case COL_SEED: {
			char *end;
			errno = 0;
			unsigned long long seed = strtoull(f[i], &end, 10);
			if (*f[i] == '\0' || *f[i] == '-' || *end != '\0' || errno != 0) {
				snprintf(err, errlen, "seed '%.30s' (expected 0 to 2^64-1)", f[i]);
				return false;
			}
			g.seed = seed;
			break;
		}
		case COL_OUTCOME: {
			int o = 0;
			while (o < SIM_OUTCOME_COUNT && strcmp(sim_outcome_name((enum sim_outcome)o), f[i]) != 0)
				o++;
			if (o == SIM_OUTCOME_COUNT) {
				snprintf(err, errlen, "outcome '%.20s' (expected escaped, killed or out_of_turns)", f[i]);
				return false;
			}
			g.outcome = (enum sim_outcome)o;
			break;
		}
		case COL_MONSTERS:
			if (!parse_long(f[i], 0, 100000000, &v)) {
				snprintf(err, errlen, "monsters '%.20s' (expected a count)", f[i]);
				return false;
			}
			g.monsters = (int)v;
			break;
		default:
			if (!parse_number(f[i], &g.v[kind])) {
				snprintf(err, errlen, "%s '%.30s' (expected a number or nothing)",
					 sim_metric_info((enum sim_metric)kind)->name, f[i]);
				return false;
			}
			break;
		}
	}
	struct level_acc *l = find_level(rd, level);
	if (!l || !grow_games(l, g.index)) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	if (l->have[side][g.index]) {
		snprintf(err, errlen, "game %d of %.200s%s appears twice (overlapping shards?)", g.index, level,
			 rd->compare ? (side ? " side B" : " side A") : "");
		return false;
	}
	g.level = (int)(l - rd->levels);
	l->games[side][g.index] = g;
	l->have[side][g.index] = 1;
	l->n[side]++;
	return true;
}

bool sim_csv_finish(struct sim_csv *rd, struct sim_csv_result *out, struct diag_list *d)
{
	int sides = rd->compare ? 2 : 1, games = -1;
	char msg[400];
	memset(out, 0, sizeof *out);
	free(rd->view);
	rd->view = calloc((size_t)(rd->n_levels ? rd->n_levels : 1), sizeof *rd->view);
	if (!rd->view) {
		diag_add(d, DIAG_ERROR, "sim-report", 0, 0, "out of memory");
		return false;
	}
	for (int i = 0; i < rd->n_levels; i++) {
		struct level_acc *l = &rd->levels[i];
		for (int s = 0; s < sides; s++) {
			/* The games must be 0..n-1 with none missing: one run's games. */
			int first_gap = -1;
			for (int k = 0; k < l->n[s] && first_gap < 0; k++)
				if (k >= l->cap || !l->have[s][k])
					first_gap = k;
			if (first_gap >= 0) {
				snprintf(msg, sizeof msg, "game %d is missing (a shard not given?)", first_gap);
				diag_add(d, DIAG_ERROR, l->file, 0, 0, "%s%s", rd->compare ? (s ? "side B: " : "side A: ") : "", msg);
				return false;
			}
			if (games >= 0 && l->n[s] != games) {
				diag_add(d, DIAG_ERROR, l->file, 0, 0, "has %d games, %.200s has %d: every level needs the same games",
					 l->n[s], rd->levels[0].file, games);
				return false;
			}
			games = l->n[s];
		}
		rd->view[i].file = l->file;
		rd->view[i].monsters = l->games[0][0].monsters;
		rd->view[i].games[0] = l->games[0];
		rd->view[i].games[1] = rd->compare ? l->games[1] : NULL;
	}
	if (rd->n_levels == 0 || games <= 0) {
		diag_add(d, DIAG_ERROR, "sim-report", 0, 0, "no games in the files");
		return false;
	}
	out->levels = rd->view;
	out->n_levels = rd->n_levels;
	out->games = games;
	out->seed = rd->levels[0].games[0][0].seed;
	out->compare = rd->compare;
	memcpy(out->hidden, rd->hidden, sizeof out->hidden);
	return true;
}

/* Reads one file's text from memory. */
bool sim_csv_add(struct sim_csv *rd, const char *file, const char *text, size_t len, struct diag_list *d)
{
	char *copy = malloc(len + 1);
	char **f = malloc((64 + SIM_METRIC_COUNT) * sizeof *f);
	bool ok = copy && f, header = true;
	char err[400];
	if (!ok) {
		diag_add(d, DIAG_ERROR, file, 0, 0, "out of memory");
		free(copy);
		free(f);
		return false;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	char *p = copy;
	int lineno = 0;
	while (ok && p < copy + len) {
		char *nl = memchr(p, '\n', (size_t)(copy + len - p));
		char *end = nl ? nl : copy + len;
		lineno++;
		if (memchr(p, '\0', (size_t)(end - p))) {
			diag_add(d, DIAG_ERROR, file, lineno, (int)((char *)memchr(p, '\0', (size_t)(end - p)) - p) + 1,
				 "a NUL byte");
			ok = false;
			break;
		}
		if (end > p && end[-1] == '\r')
			end[-1] = '\0';
		*end = '\0';
		if (*p != '\0') {
			int n = split_csv(p, f, 64 + SIM_METRIC_COUNT);
			if (n < 0) {
				snprintf(err, sizeof err, "broken quoting or too many fields");
				ok = false;
			} else {
				ok = header ? read_header(rd, f, n, err, sizeof err) : read_row(rd, f, n, err, sizeof err);
			}
			if (!ok)
				diag_add(d, DIAG_ERROR, file, lineno, 1, "%s", err);
			header = false;
		}
		p = end + 1;
	}
	if (ok && header) {
		diag_add(d, DIAG_ERROR, file, 0, 0, "empty (expected per-game CSV with a header)");
		ok = false;
	}
	free(f);
	free(copy);
	return ok;
}

struct sim_csv *sim_csv_create(void)
{
	return calloc(1, sizeof(struct sim_csv));
}

void sim_csv_destroy(struct sim_csv *rd)
{
	if (!rd)
		return;
	for (int i = 0; i < rd->n_levels; i++) {
		free(rd->levels[i].file);
		for (int s = 0; s < 2; s++) {
			free(rd->levels[i].games[s]);
			free(rd->levels[i].have[s]);
		}
	}
	free(rd->levels);
	free(rd->view);
	free(rd);
}
