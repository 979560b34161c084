/*
 * sim_csv.c - the reader of sim's per-game CSV (written by sim_write.c with
 * --per-game --format csv or --shard I/N): the header names the columns
 * (level, optional run and side, game, seed, outcome, monsters, config,
 * then metric names, any subset), each row one game.  The config column
 * fingerprints what the games were played under besides the seed (player,
 * turns, monsters, the bestiary after the settings, the level's text), so
 * that files of two different runs never merge into one report.  Games are kept by level
 * (or run, for generated levels) and side, then put in order by seed, so
 * shards and seed ranges can come in any order; a game met twice or
 * missing is an error.  It parses from memory and never prints (make fuzz
 * covers it).
 */
#include "sim_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Columns a file may have: the fixed ones, every metric, five per kind. */
#define SIM_CSV_MAX_COLS (64 + SIM_METRIC_COUNT + SIM_KINDS * SIM_KIND_METRIC_COUNT)

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

/* One game as read: where it came from, for messages. */
struct row {
	struct sim_game g;
	int file;                  /* index into sim_csv.files */
	int line;                  /* 1-based */
	char *name;                /* the generated level's own name (the level column under a run
				      column), or NULL */
};

/* One level (or --generate run) as it is being read: its games, per side, in the order read. */
struct level_acc {
	char *file;
	bool has_config[2];        /* a row of this side gave its config (below) */
	uint64_t config[2];
	int config_file[2], config_line[2]; /* where that row was */
	struct row *rows[2];
	int n[2], cap[2];
	struct sim_game *games[2]; /* sim_csv_finish's games, in game order */
	char *settings[2];         /* the side's settings column, from its first row (owned) */
};

struct sim_csv {
	struct level_acc *levels;
	int n_levels, cap_levels;
	char **files;               /* the file names given to sim_csv_add, for messages */
	int n_files, cap_files;
	bool compare;
	bool seeds;                 /* the files have a seed column: games are placed by seed */
	bool configs;               /* the files have a config column: a level's side has one config */
	bool traces;                /* the files have a trace column; without it every game counts as
	                               distinct (files of older versions) */
	bool any;                   /* a header was read */
	bool hidden[SIM_METRIC_COUNT];
	int ncols;                  /* columns of the header */
	int col_kind[SIM_CSV_MAX_COLS]; /* what each column is: below, or a column (sim_kind_col) */
	char kind_names[SIM_KINDS][32]; /* the kinds of the KIND.METRIC columns, in order */
	int n_kinds;
	struct sim_csv_level *view;  /* sim_csv_finish's levels */
};

enum { COL_LEVEL = -1, COL_SIDE = -2, COL_GAME = -3, COL_SEED = -4, COL_OUTCOME = -5, COL_MONSTERS = -6,
       COL_RUN = -7, COL_CONFIG = -8, COL_KILLER = -9, COL_TOPOLOGY = -10, COL_TRACE = -11, COL_SETTINGS = -12 };

/* Splits one CSV record (quotes as sim writes them; a quoted field may
 * hold newlines) into fields, in place;
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

/*
 * A per-kind column "KIND.METRIC": its column (sim_kind_col) with KIND
 * added to names[] when new (has[] marks the metrics each kind has); -1
 * when the name is not of that form, -2 with the reason in err.
 */
static int kind_column(const char *col, char names[SIM_KINDS][32], int *n, unsigned has[SIM_KINDS], char *err,
		       size_t errlen)
{
	const char *dot = strrchr(col, '.');
	int km = dot ? sim_kind_metric_find(dot + 1) : -1;
	size_t len = dot ? (size_t)(dot - col) : 0;
	if (km < 0 || len == 0 || len >= sizeof names[0])
		return -1;
	int k = 0;
	while (k < *n && !(strlen(names[k]) == len && strncmp(names[k], col, len) == 0))
		k++;
	if (k == *n) {
		if (*n == SIM_KINDS) {
			snprintf(err, errlen, "more than %d kinds in the per-kind columns", SIM_KINDS);
			return -2;
		}
		memcpy(names[k], col, len);
		names[k][len] = '\0';
		has[k] = 0;
		(*n)++;
	}
	if (has[k] & 1u << km) {
		snprintf(err, errlen, "the column '%.60s' appears twice", col);
		return -2;
	}
	has[k] |= 1u << km;
	return sim_kind_col(k, (enum sim_kind_metric)km);
}

static bool read_header(struct sim_csv *rd, char **f, int n, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		int kind;
	} fixed[] = { { "level", COL_LEVEL }, { "side", COL_SIDE }, { "game", COL_GAME },
		      { "seed", COL_SEED }, { "outcome", COL_OUTCOME }, { "monsters", COL_MONSTERS },
		      { "run", COL_RUN }, { "config", COL_CONFIG }, { "killer", COL_KILLER },
		      { "topology", COL_TOPOLOGY }, { "trace", COL_TRACE }, { "settings", COL_SETTINGS } };
	bool seen[SIM_METRIC_COUNT] = { false }, side = false, game = false, level = false, seed = false,
	     config = false, trace = false;
	char names[SIM_KINDS][32];
	unsigned has[SIM_KINDS] = { 0 };
	int n_kinds = 0;
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
			if (m < 0 && (m = kind_column(f[i], names, &n_kinds, has, err, errlen)) == -2)
				return false;
			if (m < 0) {
				snprintf(err, errlen, "unknown column '%.60s' (expected the per-game CSV of astray sim)", f[i]);
				return false;
			}
			kind = m;
			if (m < SIM_METRIC_COUNT)
				seen[m] = true;
		}
		side |= kind == COL_SIDE;
		game |= kind == COL_GAME;
		level |= kind == COL_LEVEL;
		seed |= kind == COL_SEED;
		config |= kind == COL_CONFIG;
		trace |= kind == COL_TRACE;
		rd->col_kind[i] = kind;
	}
	if (!game || !level) {
		snprintf(err, errlen, "not per-game CSV: no level and game columns (write it with "
				      "astray sim --shard I/N or --per-game --format csv)");
		return false;
	}
	for (int k = 0; k < n_kinds; k++)
		for (int km = 0; km < SIM_KIND_METRIC_COUNT; km++)
			if (!(has[k] & 1u << km)) {
				snprintf(err, errlen, "no column %s.%s: each kind has one for each of monsters, contacts, "
						      "damage, deaths and jams", names[k],
					 sim_kind_metric_info((enum sim_kind_metric)km)->name);
				return false;
			}
	bool hidden[SIM_METRIC_COUNT];
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		hidden[m] = !seen[m];
	bool kinds_differ = n_kinds != rd->n_kinds;
	for (int k = 0; k < n_kinds && !kinds_differ; k++)
		kinds_differ = strcmp(names[k], rd->kind_names[k]) != 0;
	if (rd->any && (side != rd->compare || seed != rd->seeds || config != rd->configs || trace != rd->traces ||
			memcmp(hidden, rd->hidden, sizeof hidden) != 0 || kinds_differ)) {
		snprintf(err, errlen, "its columns differ from the first file's (mixed runs?%s)",
			 kinds_differ ? " its per-kind columns name other kinds: another bestiary" : "");
		return false;
	}
	memcpy(rd->kind_names, names, sizeof names);
	rd->n_kinds = n_kinds;
	rd->compare = side;
	rd->seeds = seed;
	rd->configs = config;
	rd->traces = trace;
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

/* Appends a row to one side of l; false on no memory. */
static bool push_row(struct level_acc *l, int side, const struct row *r)
{
	if (l->n[side] == l->cap[side]) {
		int cap = l->cap[side] ? 2 * l->cap[side] : 64;
		struct row *grown = realloc(l->rows[side], (size_t)cap * sizeof *grown);
		if (!grown)
			return false;
		l->rows[side] = grown;
		l->cap[side] = cap;
	}
	l->rows[side][l->n[side]++] = *r;
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

static bool read_row(struct sim_csv *rd, char **f, int n, int line, char *err, size_t errlen)
{
	if (n != rd->ncols) {
		snprintf(err, errlen, "%d fields, the header has %d", n, rd->ncols);
		return false;
	}
	struct sim_game g;
	memset(&g, 0, sizeof g);
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		g.v[m] = NAN;
	const char *level = NULL, *run = NULL, *settings = NULL;
	int side = 0;
	uint64_t config = 0;
	for (int i = 0; i < n; i++) {
		int kind = rd->col_kind[i];
		long v;
		switch (kind) {
		case COL_LEVEL:
			level = f[i];
			break;
		case COL_RUN:
			run = f[i];
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
		case COL_CONFIG: {
			char *end;
			errno = 0;
			config = strtoull(f[i], &end, 16);
			if (strlen(f[i]) != 16 || *end != '\0' || errno != 0 || f[i][0] == '-' || f[i][0] == '+' ||
			    f[i][0] == ' ') {
				snprintf(err, errlen, "config '%.30s' (expected 16 hexadecimal digits)", f[i]);
				return false;
			}
			break;
		}
		case COL_KILLER: {
			/* a kind's name (bestiary: letters, digits, - and _), or nothing */
			size_t kl = strlen(f[i]);
			bool ok = kl < sizeof g.killer;
			for (size_t k = 0; k < kl && ok; k++) {
				char c = f[i][k];
				ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
				     c == '_';
			}
			if (!ok) {
				snprintf(err, errlen, "killer '%.40s' (expected a monster kind's name or nothing)", f[i]);
				return false;
			}
			memcpy(g.killer, f[i], kl + 1);
			break;
		}
		case COL_SETTINGS: /* words for the report's header: kept from a side's first row */
			settings = f[i];
			break;
		case COL_TOPOLOGY: { /* where the game was played: checked, not kept (sim-report writes no rows) */
			enum grid_topology t;
			if (f[i][0] && !grid_topology_parse(f[i], &t)) {
				snprintf(err, errlen, "topology '%.20s' (expected square4, square8, hex, diamond4 or diamond8)",
					 f[i]);
				return false;
			}
			break;
		}
		case COL_TRACE: {
			char *end;
			errno = 0;
			g.trace = strtoull(f[i], &end, 16);
			if (strlen(f[i]) != 16 || *end != '\0' || errno != 0 || f[i][0] == '-' || f[i][0] == '+' ||
			    f[i][0] == ' ') {
				snprintf(err, errlen, "trace '%.30s' (expected 16 hexadecimal digits)", f[i]);
				return false;
			}
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
			if (kind >= SIM_METRIC_COUNT) {
				int k = (kind - SIM_METRIC_COUNT) / SIM_KIND_METRIC_COUNT;
				int km = (kind - SIM_METRIC_COUNT) % SIM_KIND_METRIC_COUNT;
				if (*f[i] != '\0' && !parse_long(f[i], 0, UINT32_MAX, &v)) {
					snprintf(err, errlen, "%s.%s '%.30s' (expected a whole count or nothing)",
						 rd->kind_names[k], sim_kind_metric_info((enum sim_kind_metric)km)->name, f[i]);
					return false;
				}
				g.kinds[k][km] = *f[i] != '\0' ? (uint32_t)v : 0;
				break;
			}
			if (!parse_number(f[i], &g.v[kind])) {
				snprintf(err, errlen, "%s '%.30s' (expected a number or nothing)",
					 sim_metric_info((enum sim_metric)kind)->name, f[i]);
				return false;
			}
			break;
		}
	}
	if (!rd->traces) /* no trace: a key of its own for each game and side, so every one is distinct */
		g.trace = (g.seed ^ (uint64_t)g.index << 40) * 0x9e3779b97f4a7c15ULL + (uint64_t)side;
	/* Under --generate every game has its own level; the run column names
	 * the run they make up, the block a single run's summary prints. */
	struct level_acc *l = find_level(rd, run ? run : level);
	struct row r = { .g = g, .file = rd->n_files - 1, .line = line, .name = NULL };
	if (l)
		r.g.level = (int)(l - rd->levels);
	if (l && rd->configs) {
		/* every game of a level's side was played under one config */
		if (!l->has_config[side]) {
			l->has_config[side] = true;
			l->config[side] = config;
			l->config_file[side] = rd->n_files - 1;
			l->config_line[side] = line;
		} else if (l->config[side] != config) {
			snprintf(err, errlen,
				 "%sthis game of %.80s was played under other settings than %.80s:%d (config %016llx, "
				 "not %016llx): another run's file?", rd->compare ? (side ? "side B: " : "side A: ") : "",
				 l->file, rd->files[l->config_file[side]], l->config_line[side],
				 (unsigned long long)config, (unsigned long long)l->config[side]);
			return false;
		}
	}
	if (l && settings && !l->settings[side] && !(l->settings[side] = strdup(settings))) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	if (l && run && strcmp(run, level) != 0)
		r.name = strdup(level);
	if (!l || (run && strcmp(run, level) != 0 && !r.name) || !push_row(l, side, &r)) {
		free(r.name);
		snprintf(err, errlen, "out of memory");
		return false;
	}
	return true;
}

static int cmp_seed(const void *pa, const void *pb)
{
	uint64_t a = ((const struct row *)pa)->g.seed, b = ((const struct row *)pb)->g.seed;
	return (a > b) - (a < b);
}

static int cmp_index(const void *pa, const void *pb)
{
	int a = ((const struct row *)pa)->g.index, b = ((const struct row *)pb)->g.index;
	return (a > b) - (a < b);
}

/* The i-th topology (cycling) of a --generate run's name "gen:T1,T2,...:..."
 * into *t (not terminated) and *len; the list's length, or 0 when run is
 * not such a name. */
static int run_topology(const char *run, int i, const char **t, size_t *len)
{
	if (strncmp(run, "gen:", 4) != 0)
		return 0;
	const char *list = run + 4;
	size_t list_len = strcspn(list, ":");
	int n = 1;
	for (size_t k = 0; k < list_len; k++)
		n += list[k] == ',';
	const char *p = list;
	for (int k = i % n; k > 0; k--)
		p = strchr(p, ',') + 1;
	*t = p;
	*len = strcspn(p, ",:");
	return n;
}

/*
 * Puts side s of l in game order into l->games[s] and numbers the games.
 * With a seed column the games are placed by seed, so that --shard slices
 * and disjoint --seed ranges merge alike: their seeds must be one range
 * S, S+1, ... (modulo 2^64, as sim counts them) and the game with seed
 * S + i becomes game i, as in a single run from --seed S.  Without seeds
 * the game numbers must be 0..n-1.  Under --generate (a run column) game
 * i must also be on the topology a single run gives game i.  Sets *base
 * to S (0 without seeds); false with the reason in d.
 */
static bool order_side(struct sim_csv *rd, struct level_acc *l, int s, uint64_t *base, struct diag_list *d)
{
	struct row *r = l->rows[s];
	int n = l->n[s];
	const char *side = rd->compare ? (s ? "side B: " : "side A: ") : "";
	if (n == 0) {
		diag_add(d, DIAG_ERROR, l->file, 0, 0, "%sno games (every level needs both sides)", side);
		return false;
	}
	qsort(r, (size_t)n, sizeof *r, rd->seeds ? cmp_seed : cmp_index);
	for (int k = 1; k < n; k++) {
		bool twice = rd->seeds ? r[k].g.seed == r[k - 1].g.seed : r[k].g.index == r[k - 1].g.index;
		if (!twice)
			continue;
		if (rd->seeds)
			diag_add(d, DIAG_ERROR, rd->files[r[k].file], r[k].line, 1,
				 "%sthe game with seed %llu of %.200s appears twice (also at %.200s:%d): overlapping "
				 "shards or seed ranges?", side, (unsigned long long)r[k].g.seed, l->file,
				 rd->files[r[k - 1].file], r[k - 1].line);
		else
			diag_add(d, DIAG_ERROR, rd->files[r[k].file], r[k].line, 1,
				 "%sgame %d of %.200s appears twice (also at %.200s:%d): overlapping shards?", side,
				 r[k].g.index, l->file, rd->files[r[k - 1].file], r[k - 1].line);
		return false;
	}
	int start = 0;
	if (rd->seeds) {
		/* One range has exactly one place, cyclically, where the next seed is not one more. */
		int gaps = 0, first_gap = -1;
		for (int k = 0; k < n; k++) {
			if (r[(k + 1) % n].g.seed - r[k].g.seed == 1)
				continue;
			gaps++;
			start = (k + 1) % n;
			if (k + 1 < n && first_gap < 0)
				first_gap = k;
		}
		if (gaps > 1) {
			unsigned long long lo = r[first_gap].g.seed + 1, hi = r[first_gap + 1].g.seed - 1;
			if (lo == hi)
				diag_add(d, DIAG_ERROR, l->file, 0, 0,
					 "%sthe game with seed %llu is missing (a shard or seed range not given?)", side, lo);
			else
				diag_add(d, DIAG_ERROR, l->file, 0, 0,
					 "%sthe games with seeds %llu..%llu are missing (a shard or seed range not given?)",
					 side, lo, hi);
			return false;
		}
	} else {
		for (int k = 0; k < n; k++)
			if (r[k].g.index != k) {
				diag_add(d, DIAG_ERROR, l->file, 0, 0, "%sgame %d is missing (a shard not given?)", side, k);
				return false;
			}
	}
	*base = rd->seeds ? r[start].g.seed : 0;
	free(l->games[s]);
	l->games[s] = calloc((size_t)n, sizeof *l->games[s]);
	if (!l->games[s]) {
		diag_add(d, DIAG_ERROR, l->file, 0, 0, "out of memory");
		return false;
	}
	for (int i = 0; i < n; i++) {
		const struct row *ri = &r[(start + i) % n];
		const char *t;
		size_t len;
		int topos = ri->name ? run_topology(l->file, i, &t, &len) : 0;
		if (topos > 0 && !(strncmp(ri->name, "gen:", 4) == 0 && strncmp(ri->name + 4, t, len) == 0 &&
				   ri->name[4 + len] == ':')) {
			diag_add(d, DIAG_ERROR, rd->files[ri->file], ri->line, 1,
				 "%s%.200s is game %d of the merged run from seed %llu, which a single run plays on "
				 "%.*s: with --generate, start each --seed range a multiple of %d games after the first",
				 side, ri->name, i, (unsigned long long)*base, (int)len, t, topos);
			return false;
		}
		l->games[s][i] = ri->g;
		l->games[s][i].index = i;
	}
	return true;
}

bool sim_csv_finish(struct sim_csv *rd, struct sim_csv_result *out, struct diag_list *d)
{
	int sides = rd->compare ? 2 : 1;
	memset(out, 0, sizeof *out);
	free(rd->view);
	rd->view = calloc((size_t)(rd->n_levels ? rd->n_levels : 1), sizeof *rd->view);
	if (!rd->view) {
		diag_add(d, DIAG_ERROR, "sim-report", 0, 0, "out of memory");
		return false;
	}
	if (rd->n_levels == 0) {
		diag_add(d, DIAG_ERROR, "sim-report", 0, 0, "no games in the files");
		return false;
	}
	uint64_t first_base = 0;
	for (int i = 0; i < rd->n_levels; i++) {
		struct level_acc *l = &rd->levels[i];
		for (int s = 0; s < sides; s++) {
			uint64_t base;
			if (!order_side(rd, l, s, &base, d))
				return false;
			if (i == 0 && s == 0) {
				first_base = base;
				continue;
			}
			/* A single run plays the same seeds on every level and side. */
			int n0 = rd->levels[0].n[0];
			if (l->n[s] != n0 || base != first_base) {
				char these[64] = "", those[64] = "";
				if (rd->seeds) {
					snprintf(these, sizeof these, " (from seed %llu)", (unsigned long long)base);
					snprintf(those, sizeof those, " (from seed %llu)", (unsigned long long)first_base);
				}
				diag_add(d, DIAG_ERROR, l->file, 0, 0,
					 "%shas %d game%s%s, %.200s%s has %d%s: a single run plays the same games on "
					 "every level%s", rd->compare ? (s ? "side B " : "side A ") : "", l->n[s],
					 l->n[s] == 1 ? "" : "s", these, rd->levels[0].file,
					 rd->compare ? " side A" : "", n0, those, rd->compare ? " and side" : "");
				return false;
			}
		}
		rd->view[i].file = l->file;
		rd->view[i].monsters = l->games[0][0].monsters;
		rd->view[i].games[0] = l->games[0];
		rd->view[i].games[1] = rd->compare ? l->games[1] : NULL;
		rd->view[i].settings[0] = l->settings[0];
		rd->view[i].settings[1] = rd->compare ? l->settings[1] : NULL;
	}
	out->levels = rd->view;
	out->n_levels = rd->n_levels;
	out->games = rd->levels[0].n[0];
	out->seed = first_base;
	out->compare = rd->compare;
	memcpy(out->hidden, rd->hidden, sizeof out->hidden);
	out->kind_names = (const char (*)[32])rd->kind_names;
	out->n_kinds = rd->n_kinds;
	return true;
}

/* Reads one file's text from memory. */
bool sim_csv_add(struct sim_csv *rd, const char *file, const char *text, size_t len, struct diag_list *d)
{
	char *copy = malloc(len + 1);
	char **f = malloc(SIM_CSV_MAX_COLS * sizeof *f);
	bool ok = copy && f, header = true;
	char err[DIAG_ERR_LEN];
	if (!ok) {
		diag_add(d, DIAG_ERROR, file, 0, 0, "out of memory");
		free(copy);
		free(f);
		return false;
	}
	if (rd->n_files == rd->cap_files) {
		int cap = rd->cap_files ? 2 * rd->cap_files : 8;
		char **grown = realloc(rd->files, (size_t)cap * sizeof *grown);
		if (grown) {
			rd->files = grown;
			rd->cap_files = cap;
		}
	}
	char *name = rd->n_files < rd->cap_files ? strdup(file) : NULL;
	if (!name) {
		diag_add(d, DIAG_ERROR, file, 0, 0, "out of memory");
		free(copy);
		free(f);
		return false;
	}
	rd->files[rd->n_files++] = name;
	memcpy(copy, text, len);
	copy[len] = '\0';
	char *p = copy;
	int lineno = 0;
	while (ok && p < copy + len) {
		/* a record ends at a newline outside quotes: a quoted field
		 * (a level's name) may hold newlines, and its record then
		 * spans lines (lineno is its first; `lines` counts them) */
		char *end = p;
		bool quoted = false;
		int lines = 1;
		for (; end < copy + len && (quoted || *end != '\n'); end++) {
			if (*end == '"')
				quoted = !quoted;
			else if (*end == '\n')
				lines++;
		}
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
			int n = split_csv(p, f, SIM_CSV_MAX_COLS);
			if (n < 0) {
				snprintf(err, sizeof err, "broken quoting or too many fields");
				ok = false;
			} else {
				ok = header ? read_header(rd, f, n, err, sizeof err) : read_row(rd, f, n, lineno, err, sizeof err);
			}
			if (!ok)
				diag_add(d, DIAG_ERROR, file, lineno, 1, "%s", err);
			header = false;
		}
		p = end + 1;
		lineno += lines - 1;
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
			free(rd->levels[i].settings[s]);
			for (int k = 0; k < rd->levels[i].n[s]; k++)
				free(rd->levels[i].rows[s][k].name);
			free(rd->levels[i].rows[s]);
			free(rd->levels[i].games[s]);
		}
	}
	for (int i = 0; i < rd->n_files; i++)
		free(rd->files[i]);
	free(rd->files);
	free(rd->levels);
	free(rd->view);
	free(rd);
}
