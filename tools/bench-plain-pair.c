/* bench-plain-pair.c - plain square8 A* of an older path.c (its names
 * renamed A_path_*) and of this tree in one process, query by query: CPU
 * time per expansion of each, their ratio, and a check that both give the
 * same expansions and routes.  Built and run by tools/bench-plain-pair. */
#include "movingai.h"
#include "path.h"
#include "grid.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

struct path_ctx *A_path_create(const struct grid *g);
void A_path_destroy(struct path_ctx *ctx);
enum path_status A_path_find(struct path_ctx *ctx, int start, int goal, const struct path_options *opt,
			     struct path_result *out);

static double tcpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	if (!f) { perror(p); exit(2); }
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int every = atoi(argv[1]), rep = atoi(argv[2]);
	for (int a = 3; a < argc; a++) {
		char mp[1024];
		size_t sl, ml;
		char *st = slurp(argv[a], &sl);
		snprintf(mp, sizeof mp, "%s", argv[a]);
		mp[strlen(mp) - 5] = 0;
		char *mt = slurp(mp, &ml);
		char err[256];
		struct grid *g = movingai_parse_map(mt, ml, err, sizeof err);
		struct movingai_scenario *sc;
		int ns = movingai_parse_scen(st, sl, &sc, err, sizeof err);
		struct path_ctx *ca = A_path_create(g), *cb = path_create(g);
		struct path_options opt = path_options_default();
		opt.plain_astar = true;
		int nq = 0;
		for (int i = 0; i < ns; i += every) nq++;
		double *ba = malloc(sizeof(double) * (size_t)nq), *bb = malloc(sizeof(double) * (size_t)nq);
		double *ratio = malloc(sizeof(double) * (size_t)nq);
		long *ex = malloc(sizeof(long) * (size_t)nq);
		int bad = 0;
		for (int r = 0; r < rep; r++) {
			int q = 0;
			for (int i = 0; i < ns; i += every, q++) {
				int s = sc[i].sy * g->w + sc[i].sx, t = sc[i].gy * g->w + sc[i].gx;
				struct path_result ra, rb;
				double ta, tb, t0;
				if ((r + q) % 2 == 0) {
					t0 = tcpu(); A_path_find(ca, s, t, &opt, &ra); ta = tcpu() - t0;
					t0 = tcpu(); path_find(cb, s, t, &opt, &rb); tb = tcpu() - t0;
				} else {
					t0 = tcpu(); path_find(cb, s, t, &opt, &rb); tb = tcpu() - t0;
					t0 = tcpu(); A_path_find(ca, s, t, &opt, &ra); ta = tcpu() - t0;
				}
				if (ra.expanded != rb.expanded || ra.len != rb.len || ra.status != rb.status ||
				    (ra.len > 0 && memcmp(ra.cells, rb.cells, sizeof(int) * (size_t)ra.len)))
					bad++;
				if (r == 0) { ba[q] = ta; bb[q] = tb; ex[q] = ra.expanded; }
				else { if (ta < ba[q]) ba[q] = ta; if (tb < bb[q]) bb[q] = tb; }
			}
		}
		double sa = 0, sb = 0; long te = 0;
		for (int q = 0; q < nq; q++) { sa += ba[q]; sb += bb[q]; te += ex[q]; ratio[q] = ba[q] / bb[q]; }
		qsort(ratio, (size_t)nq, sizeof *ratio, cmpd);
		const char *name = strrchr(mp, '/') ? strrchr(mp, '/') + 1 : mp;
		printf("%-20s q=%d exp=%ld A=%.2f B=%.2f pooled_A/B=%.3f median_A/B=%.3f mismatch=%d\n", name, nq, te,
		       sa / (double)te, sb / (double)te, sa / sb, ratio[nq / 2], bad);
		A_path_destroy(ca); path_destroy(cb);
		grid_destroy(g);
		free(sc); free(st); free(mt); free(ba); free(bb); free(ratio); free(ex);
	}
	return 0;
}
