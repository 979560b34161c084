/* bench-plain-pair.c - plain square8 A* of two revisions of the core (A:
 * the older, B: this tree) in one process, query by query: CPU time per
 * expansion of each, their ratio, and a check that both give the same
 * expansions and routes.  Each revision's core and
 * tools/bench-plain-pair-shim.c are compiled against its own headers and
 * their names renamed A_ or B_ (tools/bench-plain-pair), so the two may
 * differ in any struct. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *A_shim_load(const char *map, size_t len);
int A_shim_scen(void *s, const char *text, size_t len, int **cells);
long A_shim_find(void *s, int start, int goal, uint64_t *hash);
void A_shim_free(void *s);
void *B_shim_load(const char *map, size_t len);
int B_shim_scen(void *s, const char *text, size_t len, int **cells);
long B_shim_find(void *s, int start, int goal, uint64_t *hash);
void B_shim_free(void *s);

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
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
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
	if (argc < 4) {
		fprintf(stderr, "usage: pair EVERY ROUNDS MAP.scen...\n");
		return 2;
	}
	int every = atoi(argv[1]), rep = atoi(argv[2]);
	for (int a = 3; a < argc; a++) {
		char mp[1024];
		size_t sl, ml;
		char *st = slurp(argv[a], &sl);
		snprintf(mp, sizeof mp, "%s", argv[a]);
		mp[strlen(mp) - 5] = 0;
		char *mt = slurp(mp, &ml);
		void *sa = A_shim_load(mt, ml), *sb = B_shim_load(mt, ml);
		int *cells;
		int ns = sa && sb ? B_shim_scen(sb, st, sl, &cells) : -1;
		if (ns <= 0) {
			fprintf(stderr, "%s: cannot read the map or its scenarios\n", argv[a]);
			return 2;
		}
		int nq = 0;
		for (int i = 0; i < ns; i += every) nq++;
		double *ba = malloc(sizeof(double) * (size_t)nq), *bb = malloc(sizeof(double) * (size_t)nq);
		double *ratio = malloc(sizeof(double) * (size_t)nq);
		long *ex = malloc(sizeof(long) * (size_t)nq);
		int bad = 0;
		for (int r = 0; r < rep; r++) {
			int q = 0;
			for (int i = 0; i < ns; i += every, q++) {
				int s = cells[2 * i], t = cells[2 * i + 1];
				uint64_t ha, hb;
				long ea, eb;
				double ta, tb, t0;
				if ((r + q) % 2 == 0) {
					t0 = tcpu(); ea = A_shim_find(sa, s, t, &ha); ta = tcpu() - t0;
					t0 = tcpu(); eb = B_shim_find(sb, s, t, &hb); tb = tcpu() - t0;
				} else {
					t0 = tcpu(); eb = B_shim_find(sb, s, t, &hb); tb = tcpu() - t0;
					t0 = tcpu(); ea = A_shim_find(sa, s, t, &ha); ta = tcpu() - t0;
				}
				if (ea != eb || ha != hb)
					bad++;
				if (r == 0) { ba[q] = ta; bb[q] = tb; ex[q] = ea; }
				else { if (ta < ba[q]) ba[q] = ta; if (tb < bb[q]) bb[q] = tb; }
			}
		}
		double ta = 0, tb = 0; long te = 0;
		for (int q = 0; q < nq; q++) { ta += ba[q]; tb += bb[q]; te += ex[q]; ratio[q] = ba[q] / bb[q]; }
		qsort(ratio, (size_t)nq, sizeof *ratio, cmpd);
		const char *name = strrchr(mp, '/') ? strrchr(mp, '/') + 1 : mp;
		printf("%-20s q=%d exp=%ld A=%.2f B=%.2f pooled_A/B=%.3f median_A/B=%.3f mismatch=%d\n", name, nq, te,
		       ta / (double)te, tb / (double)te, ta / tb, ratio[nq / 2], bad);
		fflush(stdout);
		A_shim_free(sa); B_shim_free(sb);
		free(cells); free(st); free(mt); free(ba); free(bb); free(ratio); free(ex);
	}
	return 0;
}
