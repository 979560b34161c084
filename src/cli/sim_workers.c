/*
 * sim_workers.c - plays the games of `astray sim`: in this process, or
 * with --jobs N in N worker processes that each play every N-th game and
 * send their results back through a pipe, put in place by (level, side,
 * game) so the output does not depend on who played what.  It shows the
 * progress on a terminal; it loads nothing and writes no report.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "diag.h"
#include "sim.h"
#include "sim_cmd.h"

/* Progress on a terminal: games done and the time left. */
struct progress {
	bool tty;
	double start, last;   /* ms */
	bool shown;
	long done, total;
};

static double clock_ms(void)
{
	return clock_us() / 1e3;
}

/* Shown only after a second, on a terminal, at most ten times a second. */
static void progress_step(struct progress *p)
{
	p->done++;
	if (!p->tty)
		return;
	double now = clock_ms();
	if (now - p->start < 1000.0 || (p->shown && now - p->last < 100.0 && p->done < p->total))
		return;
	double eta = (now - p->start) / (double)p->done * (double)(p->total - p->done) / 1e3;
	fprintf(stderr, "\rastray sim: %ld/%ld games, %.0f s left   ", p->done, p->total, eta);
	fflush(stderr);
	p->shown = true;
	p->last = now;
}

static void progress_end(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%60s\r", "");
}

/* One finished game, as a worker sends it to the parent. */
struct wire_game {
	int level, side;
	struct sim_game g;
};

/*
 * Plays game i of every level and side this worker owns (i in [first,
 * end), i - first = k modulo jobs) into runs[].games and heat, calling
 * done() after each game.  Returns 0, or 1 after reporting the error.
 */
static int play_games(struct sim_play *pc, int first, int end, int k, int jobs,
		      void (*done)(void *ud, int level, int side, const struct sim_game *g), void *ud)
{
	const struct sim_args *a = pc->a;
	struct sim_runner *runner = sim_runner_create();
	if (!runner) {
		fprintf(stderr, "astray sim: out of memory\n");
		return 1;
	}
	int status = 0;
	for (int l = 0; l < pc->n_runs && status == 0; l++) {
		for (int i = first + k; i < end && status == 0; i += jobs) {
			for (int s = 0; s < pc->sides; s++) {
				struct diag_list d = { 0 };
				struct sim_game *g = &pc->runs[l].games[s][i];
				sim_runner_set_heat(runner, sim_wants_heat(a) ? &pc->runs[l].heat[s] : NULL);
				sim_runner_set_heat_kind(runner, pc->heat_kind);
				sim_runner_set_record(runner, a->record ? &pc->rec[s] : NULL);
				if (sim_run_game_at(runner, &pc->runs[l].src, &pc->side[s], i,
						    sim_game_seed(a->seed, i), &a->opt, g, &d) != 0) {
					cli_print_diags(stderr, &d, true, false);
					if (d.n == 0)
						fprintf(stderr, "astray sim: %s: out of memory\n", pc->runs[l].src.file);
					diag_list_fini(&d);
					status = 1;
					break;
				}
				diag_list_fini(&d);
				g->level = l;
				g->index = i;
				done(ud, l, s, g);
			}
		}
	}
	sim_runner_destroy(runner);
	return status;
}

static void progress_done(void *ud, int level, int side, const struct sim_game *g)
{
	(void)level;
	(void)side;
	(void)g;
	progress_step(ud);
}

/* Writes all of buf to fd; false on an error. */
static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

struct worker_out {
	int fd;
	bool failed;
};

static void worker_done(void *ud, int level, int side, const struct sim_game *g)
{
	struct worker_out *w = ud;
	struct wire_game wg = { .level = level, .side = side, .g = *g };
	if (!w->failed && !write_all(w->fd, &wg, sizeof wg))
		w->failed = true;
}

/* A worker process: plays its share, sends each game, then its heat. */
static int worker_main(struct sim_play *pc, int first, int end, int k, int jobs, int fd)
{
	struct worker_out w = { .fd = fd };
	int status = play_games(pc, first, end, k, jobs, worker_done, &w);
	struct wire_game mark = { .level = -1 };
	if (status == 0 && !w.failed)
		w.failed = !write_all(fd, &mark, sizeof mark);
	for (int l = 0; status == 0 && sim_wants_heat(pc->a) && l < pc->n_runs; l++)
		for (int s = 0; s < pc->sides; s++) {
			const struct sim_heat *h = &pc->runs[l].heat[s];
			int dims[3] = { h->w, h->h, h->topo };
			size_t cells = (size_t)h->w * (size_t)h->h;
			bool ok = write_all(fd, dims, sizeof dims);
			if (cells > 0) {
				ok = ok && write_all(fd, h->tiles, cells);
				for (int layer = 0; layer < SIM_HEAT_COUNT; layer++)
					ok = ok && write_all(fd, h->v[layer], cells * sizeof(double));
			}
			w.failed |= !ok;
		}
	close(fd);
	if (w.failed && status == 0)
		fprintf(stderr, "astray sim: worker: cannot send results: %s\n", strerror(errno));
	return status || w.failed ? 1 : 0;
}

struct buffer {
	char *p;
	size_t n, cap;
};

/* Takes a worker's stream apart: games into place, heat added. */
static bool absorb(struct sim_play *pc, const struct buffer *b)
{
	size_t at = 0;
	for (;;) {
		struct wire_game wg;
		if (b->n - at < sizeof wg)
			return false;
		memcpy(&wg, b->p + at, sizeof wg);
		at += sizeof wg;
		if (wg.level < 0)
			break;
		if (wg.level >= pc->n_runs || wg.side < 0 || wg.side >= pc->sides || wg.g.index < 0 ||
		    wg.g.index >= pc->a->games)
			return false;
		pc->runs[wg.level].games[wg.side][wg.g.index] = wg.g;
	}
	for (int l = 0; sim_wants_heat(pc->a) && l < pc->n_runs; l++)
		for (int s = 0; s < pc->sides; s++) {
			int dims[3];
			if (b->n - at < sizeof dims)
				return false;
			memcpy(dims, b->p + at, sizeof dims);
			at += sizeof dims;
			size_t cells = (size_t)dims[0] * (size_t)dims[1];
			if (cells == 0)
				continue;
			if (b->n - at < cells * (1 + SIM_HEAT_COUNT * sizeof(double)))
				return false;
			struct sim_heat h = { .w = dims[0], .h = dims[1], .topo = dims[2],
					      .tiles = (uint8_t *)(b->p + at) };
			at += cells;
			double *layers[SIM_HEAT_COUNT];
			for (int layer = 0; layer < SIM_HEAT_COUNT; layer++) {
				layers[layer] = malloc(cells * sizeof(double));
				if (layers[layer])
					memcpy(layers[layer], b->p + at, cells * sizeof(double));
				h.v[layer] = layers[layer];
				at += cells * sizeof(double);
			}
			bool ok = true;
			for (int layer = 0; layer < SIM_HEAT_COUNT; layer++)
				ok = ok && layers[layer];
			ok = ok && sim_heat_add(&pc->runs[l].heat[s], &h);
			for (int layer = 0; layer < SIM_HEAT_COUNT; layer++)
				free(layers[layer]);
			if (!ok)
				return false;
		}
	return at == b->n;
}

/*
 * --jobs N: forks N workers, each playing every N-th game of the slice and
 * sending its results through a pipe; the parent puts every game in its
 * place by (level, side, index) and adds up the heat, so the output does
 * not depend on which worker played what (counts are whole numbers, exact
 * in any order).  Returns 0, or 1 after reporting.
 */
static int play_parallel(struct sim_play *pc, int first, int end, struct progress *pr)
{
	int jobs = pc->a->jobs;
	pid_t *pid = calloc((size_t)jobs, sizeof *pid);
	struct pollfd *fds = calloc((size_t)jobs, sizeof *fds);
	struct buffer *buf = calloc((size_t)jobs, sizeof *buf);
	int status = 0, open_fds = 0;
	if (!pid || !fds || !buf) {
		fprintf(stderr, "astray sim: out of memory\n");
		status = 1;
		goto done;
	}
	fflush(stdout);
	fflush(stderr);
	for (int k = 0; k < jobs; k++) {
		int p[2];
		fds[k].fd = -1;
		if (pipe(p) != 0 || (pid[k] = fork()) < 0) {
			fprintf(stderr, "astray sim: cannot start worker %d: %s\n", k + 1, strerror(errno));
			status = 1;
			break;
		}
		if (pid[k] == 0) {
			close(p[0]);
			for (int j = 0; j < k; j++)
				if (fds[j].fd >= 0)
					close(fds[j].fd);
			_exit(worker_main(pc, first, end, k, jobs, p[1]));
		}
		close(p[1]);
		fds[k].fd = p[0];
		fds[k].events = POLLIN;
		open_fds++;
	}
	long games_seen = 0;
	while (open_fds > 0) {
		if (poll(fds, (nfds_t)jobs, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "astray sim: poll: %s\n", strerror(errno));
			status = 1;
			break;
		}
		for (int k = 0; k < jobs; k++) {
			if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			struct buffer *b = &buf[k];
			if (b->cap - b->n < 65536) {
				size_t cap = b->cap ? 2 * b->cap : 1 << 20;
				char *grown = realloc(b->p, cap);
				if (!grown) {
					fprintf(stderr, "astray sim: out of memory\n");
					status = 1;
					close(fds[k].fd);
					fds[k].fd = -1;
					open_fds--;
					continue;
				}
				b->p = grown;
				b->cap = cap;
			}
			ssize_t r = read(fds[k].fd, b->p + b->n, b->cap - b->n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(fds[k].fd);
				fds[k].fd = -1;
				open_fds--;
				continue;
			}
			b->n += (size_t)r;
		}
		/* Progress: the games in the streams so far (heat comes last). */
		long seen = 0;
		for (int k = 0; k < jobs; k++)
			seen += (long)(buf[k].n / sizeof(struct wire_game));
		for (; games_seen < seen && games_seen < pr->total; games_seen++)
			progress_step(pr);
	}
	for (int k = 0; k < jobs; k++) {
		int ws = 0;
		if (pid[k] <= 0)
			continue;
		while (waitpid(pid[k], &ws, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
			status = 1; /* the worker said why on stderr */
			continue;
		}
		if (status == 0 && !absorb(pc, &buf[k])) {
			fprintf(stderr, "astray sim: worker %d sent incomplete results\n", k + 1);
			status = 1;
		}
	}
done:
	for (int k = 0; buf && k < jobs; k++)
		free(buf[k].p);
	free(buf);
	free(fds);
	free(pid);
	return status;
}

int sim_workers_play(struct sim_play *pc, int first, int end)
{
	struct progress pr = { .tty = isatty(STDERR_FILENO) != 0, .start = clock_ms(),
			       .total = (long)pc->n_runs * (end - first) * pc->sides };
	int played = pc->a->jobs > 1 && end - first > 1 ? play_parallel(pc, first, end, &pr)
							: play_games(pc, first, end, 0, 1, progress_done, &pr);
	progress_end(&pr);
	return played;
}
