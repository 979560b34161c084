/* bench-deep-pair.c - `astray path --fallback` queries on one level, by two
 * revisions of the core (A: the older, B: this tree) in one process: each
 * query's CPU time warm ("again": run twice, the second timed), their
 * ratio, and whether both give the same route and walk's end (the
 * expansions are printed).  Built by tools/bench-deep-pair with the shim of bench-plain-pair. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *A_shim_load_costs(int w, int h, const char *topo, const unsigned char *costs);
long A_shim_fallback(void *s, int start, int goal, uint64_t *hash, int *end);
void A_shim_free(void *s);
void *B_shim_load_costs(int w, int h, const char *topo, const unsigned char *costs);
long B_shim_fallback(void *s, int start, int goal, uint64_t *hash, int *end);
void B_shim_free(void *s);

static double tcpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* DESIGN section 5's glyphs as the game costs them: walls, void and
 * permanent walls 0, rubble 2, water 3, anything else on floor 1. */
static unsigned char glyph_cost(int c)
{
	return c == '#' || c == ' ' || c == '%' ? 0 : c == ',' ? 2 : c == '~' ? 3 : 1;
}

/* The level's map as cost bytes (square: a column a cell; hex and diamond:
 * cell x of row y at column 2x + (y & 1)); its topology in topo. */
static unsigned char *read_level(const char *path, int *w, int *h, char *topo, size_t topo_len)
{
	FILE *f = fopen(path, "r");
	if (!f) { perror(path); exit(2); }
	static char line[1 << 16];
	char **rows = NULL;
	int n = 0, cap = 0, in_map = 0;
	snprintf(topo, topo_len, "square8");
	while (fgets(line, sizeof line, f)) {
		size_t l = strlen(line);
		while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r'))
			line[--l] = 0;
		if (!in_map) {
			if (strncmp(line, "topology:", 9) == 0)
				sscanf(line + 9, " %31s", topo);
			in_map = strcmp(line, "map:") == 0;
			continue;
		}
		if (n == cap) { cap = cap ? 2 * cap : 1024; rows = realloc(rows, sizeof *rows * (size_t)cap); }
		rows[n++] = strdup(line);
	}
	fclose(f);
	const int doubled = strcmp(topo, "hex") == 0 || strncmp(topo, "diamond", 7) == 0;
	int width = 0;
	for (int y = 0; y < n; y++) {
		int l = (int)strlen(rows[y]);
		int cw = doubled ? (l - (y & 1) + 1) / 2 : l;
		if (cw > width) width = cw;
	}
	unsigned char *c = calloc((size_t)width * (size_t)n, 1);
	for (int y = 0; y < n; y++) {
		int l = (int)strlen(rows[y]);
		for (int x = 0; x < width; x++) {
			int col = doubled ? 2 * x + (y & 1) : x;
			c[(size_t)y * (size_t)width + (size_t)x] = col < l ? glyph_cost(rows[y][col]) : 0;
		}
		free(rows[y]);
	}
	free(rows);
	*w = width;
	*h = n;
	return c;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: pair-deep LEVEL ROUNDS SX,SY GX,GY...\n");
		return 2;
	}
	int w, h;
	char topo[32];
	unsigned char *costs = read_level(argv[1], &w, &h, topo, sizeof topo);
	const int rounds = atoi(argv[2]);
	int sx, sy;
	if (sscanf(argv[3], "%d,%d", &sx, &sy) != 2) return 2;
	const int nq = argc - 4;
	void *sa = A_shim_load_costs(w, h, topo, costs), *sb = B_shim_load_costs(w, h, topo, costs);
	if (!sa || !sb) { fprintf(stderr, "cannot make the grids\n"); return 2; }
	double *ta = calloc((size_t)(nq * rounds), sizeof *ta), *tb = calloc((size_t)(nq * rounds), sizeof *tb);
	long *ea = calloc((size_t)nq, sizeof *ea), *eb = calloc((size_t)nq, sizeof *eb);
	int *same = calloc((size_t)nq, sizeof *same), *endb = calloc((size_t)nq, sizeof *endb);
	for (int q = 0; q < nq; q++) same[q] = 1;
	const int start = sy * w + sx;
	for (int r = 0; r < rounds; r++) {
		for (int q = 0; q < nq; q++) {
			int gx, gy;
			if (sscanf(argv[4 + q], "%d,%d", &gx, &gy) != 2) return 2;
			const int goal = gy * w + gx;
			uint64_t ha, hb;
			int enda, end2;
			for (int k = 0; k < 2; k++) {
				double t0;
				if ((r + q + k) % 2 == 0) {
					A_shim_fallback(sa, start, goal, &ha, &enda);
					t0 = tcpu();
					ea[q] = A_shim_fallback(sa, start, goal, &ha, &enda);
					ta[q * rounds + r] = tcpu() - t0;
				} else {
					B_shim_fallback(sb, start, goal, &hb, &end2);
					t0 = tcpu();
					eb[q] = B_shim_fallback(sb, start, goal, &hb, &end2);
					tb[q * rounds + r] = tcpu() - t0;
					endb[q] = end2;
				}
			}
			if (ha != hb || enda != end2)
				same[q] = 0;
		}
	}
	printf("level=%s topology=%s %dx%d start=%d,%d rounds=%d (CPU ms warm, min/median; A old, B new)\n", argv[1],
	       topo, w, h, sx, sy, rounds);
	for (int q = 0; q < nq; q++) {
		qsort(ta + q * rounds, (size_t)rounds, sizeof *ta, cmpd);
		qsort(tb + q * rounds, (size_t)rounds, sizeof *tb, cmpd);
		const double ma = ta[q * rounds + rounds / 2], mb = tb[q * rounds + rounds / 2];
		printf("%-10s A=%.1f/%.1f B=%.1f/%.1f median_A/B=%.2f min_A/B=%.2f exp_A=%ld exp_B=%ld end_B=%d,%d route=%s "
		       "ns_per_exp_B=%.0f\n",
		       argv[4 + q], ta[q * rounds], ma, tb[q * rounds], mb, ma / mb, ta[q * rounds] / tb[q * rounds], ea[q],
		       eb[q], endb[q] % w, endb[q] / w, same[q] ? "same" : "OTHER", tb[q * rounds] * 1e6 / (double)eb[q]);
	}
	A_shim_free(sa);
	B_shim_free(sb);
	free(costs);
	return 0;
}
