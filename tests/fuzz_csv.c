/*
 * fuzz_csv.c - libFuzzer target for sim's per-game CSV as sim-report reads
 * it (sim_csv.c): any bytes give games or a refusal that names the file,
 * never a crash, a hang or a leak.  The input is cut at 0xFF bytes (never
 * in sim's output, which is ASCII and UTF-8) into up to four files, read
 * in order as sim-report reads the CSV of shards.  What merges is well
 * formed: levels with every game of every side, game i numbered i, the
 * same seeds on every level and side, one range from the first; the same
 * files read twice are refused (the same games twice); and the report
 * sim-report prints from them is written as a table, CSV and JSON (to
 * /dev/null) without error.  The corpus (tests/fuzz-corpus-csv) is real
 * sim output: levels, shards, --compare, --generate, --dungeon, --set.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "sim_csv.h"
#include "sim_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CSV_FILES 4
#define FUZZ_CSV_REPORT_GAMES 64 /* games (levels x games x sides) worth a printed report */

static const char *const fuzz_csv_names[FUZZ_CSV_FILES] = { "a.csv", "b.csv", "c.csv", "d.csv" };

/* The input cut at 0xFF: the files' starts and lengths; returns how many. */
static int fuzz_csv_split(const uint8_t *data, size_t size, const char **text, size_t *len)
{
	int n = 0;
	size_t at = 0;
	while (n < FUZZ_CSV_FILES) {
		const uint8_t *cut = n + 1 < FUZZ_CSV_FILES ? memchr(data + at, 0xFF, size - at) : NULL;
		size_t end = cut ? (size_t)(cut - data) : size;
		text[n] = (const char *)data + at;
		len[n] = end - at;
		n++;
		if (!cut)
			break;
		at = end + 1;
	}
	return n;
}

/* Reads the files (each `times` times, under its own name each time) and
 * finishes; a refusal must say why, naming the file when one is at fault. */
static bool fuzz_csv_read(struct sim_csv *c, const char *const *text, const size_t *len, int n, int times,
			  struct sim_csv_result *res, struct diag_list *d)
{
	char name[32];
	for (int t = 0; t < times; t++)
		for (int i = 0; i < n; i++) {
			snprintf(name, sizeof name, "%s%s", t ? "again-" : "", fuzz_csv_names[i]);
			if (!sim_csv_add(c, name, text[i], len[i], d)) {
				if (d->n == 0 || strcmp(d->items[d->n - 1].file, name) != 0)
					abort(); /* a refusal names the file */
				return false;
			}
		}
	bool ok = sim_csv_finish(c, res, d);
	if (!ok && d->n == 0)
		abort(); /* a refusal says why */
	return ok;
}

/* What merged is one run's games, whole. */
static void fuzz_csv_check(const struct sim_csv_result *r)
{
	if (r->n_levels < 1 || r->games < 1 || r->n_kinds < 0)
		abort();
	int sides = r->compare ? 2 : 1;
	const struct sim_game *first = r->levels[0].games[0];
	if (!first)
		abort();
	/* with a seed column the games' seeds are one range from r->seed;
	 * without one every seed is 0 and games go by number */
	bool seeded = r->games < 2 || first[1].seed != first[0].seed;
	if (seeded && r->seed != first[0].seed)
		abort();
	for (int l = 0; l < r->n_levels; l++) {
		if (!r->levels[l].file)
			abort();
		for (int s = 0; s < 2; s++) {
			const struct sim_game *g = r->levels[l].games[s];
			if ((s < sides) != (g != NULL))
				abort(); /* side B exactly under compare */
			for (int i = 0; g && i < r->games; i++)
				if (g[i].index != i || g[i].seed != first[i].seed ||
				    (seeded && g[i].seed - first[0].seed != (uint64_t)i))
					abort();
		}
	}
}

/* sim-report's report of r in each format, to /dev/null. */
static void fuzz_csv_print(const struct sim_csv_result *r, int files)
{
	struct sim_report rep;
	memset(&rep, 0, sizeof rep);
	struct sim_report_level levels[16];
	if (r->n_levels > 16)
		return;
	for (int l = 0; l < r->n_levels; l++) {
		levels[l] = (struct sim_report_level){ .file = r->levels[l].file,
						       .monsters = r->levels[l].monsters,
						       .games = { r->levels[l].games[0], r->levels[l].games[1] },
						       .settings = { r->levels[l].settings[0], r->levels[l].settings[1] } };
	}
	rep.levels = levels;
	rep.n_levels = r->n_levels;
	rep.games = r->games;
	rep.seed = r->seed;
	rep.compare = r->compare;
	memcpy(rep.hidden, r->hidden, sizeof rep.hidden);
	rep.kind_names = r->kind_names;
	rep.n_kinds = r->n_kinds;
	rep.files = files;
	/* the report goes to stdout: there, /dev/null for the while */
	fflush(stdout);
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	for (int f = 0; f < 3; f++) {
		rep.format = f;
		if (sim_report_print(&rep) != 0)
			abort(); /* what merged can be reported */
	}
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0)
		abort();
	close(saved);
	close(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text[FUZZ_CSV_FILES];
	size_t len[FUZZ_CSV_FILES];
	int n = fuzz_csv_split(data, size, text, len);
	struct diag_list d = { 0 };
	struct sim_csv_result res;
	struct sim_csv *c = sim_csv_create();
	if (!c)
		return 0;
	bool ok = fuzz_csv_read(c, text, len, n, 1, &res, &d);
	diag_list_fini(&d);
	if (ok) {
		fuzz_csv_check(&res);
		int sides = res.compare ? 2 : 1;
		if ((long)res.n_levels * res.games * sides <= FUZZ_CSV_REPORT_GAMES)
			fuzz_csv_print(&res, n);
		/* the same files twice: the same games twice, refused */
		struct sim_csv *twice = sim_csv_create();
		if (twice) {
			struct sim_csv_result r2;
			if (fuzz_csv_read(twice, text, len, n, 2, &r2, &d))
				abort();
			diag_list_fini(&d);
			sim_csv_destroy(twice);
		}
	}
	sim_csv_destroy(c);
	return 0;
}
