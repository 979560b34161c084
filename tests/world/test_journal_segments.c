/*
 * test_journal_segments.c - a game that outgrows one journal file goes on
 * in the next segment (docs/journal.md, "Segments"): journal_record rolls
 * over past journal_set_segment_bytes, the segments chain back to the
 * first (journal_read_chain), a replay of the whole chain and a resume
 * from the snapshot end in the live game's state, the segments go with
 * the file when it is filed or set aside, and a kill at any write or
 * fsync of a game with rollovers leaves a save that resumes to exactly
 * the state a game never stopped had at that action (fork, then an I/O
 * hook that _exits at the k-th call).
 *
 * With ASTRAY_MARATHON=FILE (and ASTRAY_MARATHON_ACTIONS, default
 * 2,000,000) it only writes a marathon game of rests and moves on a small
 * level to FILE, as play saves its slot (real segment size, snapshots),
 * for tools/bench-marathon to resume and replay with the -O2 build.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "bestiary.h"
#include "game.h"
#include "journal.h"
#include "level.h"
#include "savefile.h"
#include "snapshot.h"

/* A room with no monsters: the player walks to and fro and waits. */
static const char room[] = "astray-level 1\n"
			   "name: Segments\n"
			   "topology: square8\n"
			   "map:\n"
			   "########\n"
			   "#......#\n"
			   "#..@...#\n"
			   "#.....>#\n"
			   "########\n";

struct ref {
	char *btext;
	size_t blen;
	struct bestiary b;
	struct level *lv;
	struct journal_level jl;
	long n;                  /* actions in the script */
	uint64_t *hash;          /* index k: after k actions */
	int *turn;
};

/* Action i of the script: east, west, wait, again and again. */
static struct action script(long i)
{
	struct action a;
	memset(&a, 0, sizeof a);
	switch (i % 3) {
	case 0:
		a.kind = ACT_MOVE;
		a.dir = GRID_E;
		break;
	case 1:
		a.kind = ACT_MOVE;
		a.dir = GRID_W;
		break;
	default:
		a.kind = ACT_WAIT;
	}
	return a;
}

static struct game *new_game(struct ref *r)
{
	struct game *g = game_create((const struct level *const *)&r->lv, 1, &r->b, 11);
	assert_non_null(g);
	return g;
}

static void ref_open(struct ref *r, long n, bool remember)
{
	memset(r, 0, sizeof *r);
	r->btext = level_read_file("levels/bestiary.txt", &r->blen);
	assert_non_null(r->btext);
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("levels/bestiary.txt", r->btext, r->blen, &r->b, &d));
	r->lv = level_parse("segments.lvl", room, sizeof room - 1, &r->b, &d);
	assert_non_null(r->lv);
	assert_int_equal(d.errors, 0);
	diag_list_fini(&d);
	r->jl.name = "segments.lvl";
	r->jl.text = room;
	r->jl.len = sizeof room - 1;
	r->n = n;
	if (!remember)
		return;
	r->hash = calloc((size_t)n + 1, sizeof *r->hash);
	r->turn = calloc((size_t)n + 1, sizeof *r->turn);
	struct game *g = new_game(r);
	for (long i = 0;; i++) {
		r->hash[i] = game_hash(g);
		r->turn[i] = g->turn;
		if (i == n)
			break;
		struct action a = script(i);
		game_act(g, &a);
		assert_false(g->over);
	}
	game_destroy(g);
}

static void ref_close(struct ref *r)
{
	level_destroy(r->lv);
	free(r->btext);
	free(r->hash);
	free(r->turn);
	memset(r, 0, sizeof *r);
}

static ssize_t plain_write(void *ud, int fd, const void *buf, size_t n)
{
	(void)ud;
	return write(fd, buf, n);
}

static int no_fsync(void *ud, int fd)
{
	(void)ud;
	(void)fd;
	return 0;
}

/* The tests need no durability against power cuts (the crash tests of
 * play have them): their syncs would only cost minutes on a loaded machine. */
static const struct savefile_io quick_io = { plain_write, no_fsync, NULL };

static struct journal_setup setup_of(const struct ref *r, const struct savefile_io *io)
{
	if (!io)
		io = &quick_io;
	struct journal_setup st = {
		.program = "test",
		.seed = 11,
		.bestiary_name = "levels/bestiary.txt",
		.bestiary_text = r->btext,
		.bestiary_len = r->blen,
		.levels = &r->jl,
		.n_levels = 1,
		.io = io,
	};
	st.options.ai_share = AI_SHARE_AUTO;
	return st;
}

static void make_temp_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/astray-segments-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char p[600];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Plays actions [from, to) of the script on g, journalled to j. */
static void play(struct journal *j, struct game *g, long from, long to)
{
	char err[DIAG_ERR_LEN];
	for (long i = from; i < to; i++) {
		struct action a = script(i);
		enum act_result res = game_act(g, &a);
		if (!journal_record(j, &a, res, g, err, sizeof err))
			fprintf(stderr, "%s\n", err);
	}
}

/* The saved game at path, resumed as play resumes it (its snapshot when it
 * is good, else the whole chain); *from gets the snapshot's action. */
static void resume_ok(const struct ref *r, const char *path, struct journal_data *d, struct journal_game *jg,
		      long *from)
{
	char err[DIAG_ERR_LEN], note[700], snap[300];
	assert_true(journal_read_file(path, d, err, sizeof err));
	assert_true(journal_start(d, jg, err, sizeof err));
	assert_true(snapshot_path(path, snap, sizeof snap));
	struct journal_replay rep;
	bool ok = journal_resume(d, jg, snap, -1, &rep, from, note, sizeof note, err, sizeof err);
	if (!ok)
		fprintf(stderr, "resume of %s: %s\n", path, err);
	assert_true(ok);
	assert_int_equal(rep.actions, d->n_actions);
	assert_true(d->n_actions <= r->n);
	assert_true(game_hash(jg->game) == r->hash[d->n_actions]);
	assert_int_equal(jg->game->turn, r->turn[d->n_actions]);
}

/* The whole chain at path replays, checksum by checksum, to the reference. */
static long replay_all_ok(const struct ref *r, const char *path)
{
	struct journal_data d;
	struct journal_game jg;
	struct journal_replay rep;
	char err[DIAG_ERR_LEN];
	assert_true(journal_read_file(path, &d, err, sizeof err));
	assert_true(journal_start(&d, &jg, err, sizeof err));
	bool ok = journal_replay_all(&d, jg.game, -1, &rep, err, sizeof err);
	if (!ok)
		fprintf(stderr, "replay of %s: %s\n", path, err);
	assert_true(ok);
	assert_int_equal(d.first_action, 0);
	assert_int_equal(rep.actions, d.n_actions);
	assert_true(rep.checks > d.n_actions / 16);
	assert_true(game_hash(jg.game) == r->hash[d.n_actions]);
	long n = d.n_actions;
	journal_game_fini(&jg);
	journal_data_fini(&d);
	return n;
}

#define SEG_BYTES 900 /* records after the header before a rollover: about 40 actions */

/* A game rolls over again and again; every segment is whole and under
 * its size; the last one alone resumes from its snapshot, and the chain
 * replays the whole game; resumed, it goes on rolling over. */
static void test_rollover_chain_resume(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, 600, true);
	char dir[64], path[128], seg[160];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	char err[DIAG_ERR_LEN];
	struct journal_setup st = setup_of(&r, NULL);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, SEG_BYTES);
	journal_snapshots(j, SNAPSHOT_EVERY);
	play(j, g, 0, 300);
	int segs = journal_segment(j);
	assert_true(segs >= 5);
	assert_null(journal_rollover_problem(j));
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	for (int k = 1; k < segs; k++) {
		assert_true(journal_segment_path(path, k, seg, sizeof seg));
		struct journal_data d;
		assert_true(journal_read_file(seg, &d, err, sizeof err));
		assert_int_equal(d.segment, k);
		assert_int_equal(d.format, k == 1 ? 1 : JOURNAL_FORMAT_SEGMENT);
		assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
		assert_true(d.size <= d.header_end + SEG_BYTES + 64);
		assert_true(d.checks[d.n_checks - 1].action == d.n_actions); /* it ends with its checksum */
		journal_data_fini(&d);
	}
	assert_true(journal_segment_path(path, segs, seg, sizeof seg));
	assert_false(exists(seg));

	/* resumed from the snapshot the rollover wrote: no segment before is read */
	struct journal_data d;
	struct journal_game jg;
	long from;
	resume_ok(&r, path, &d, &jg, &from);
	assert_int_equal(d.segment, segs);
	assert_true(from >= d.first_action && from > 0);
	assert_int_equal(d.loaded_from, segs);
	assert_int_equal(d.n_actions, 300);
	/* and plays on, rolling over again */
	j = journal_open_append(path, &d, &quick_io, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, SEG_BYTES);
	journal_snapshots(j, SNAPSHOT_EVERY);
	journal_resumed(j, jg.game, from);
	play(j, jg.game, 300, 600);
	assert_true(journal_segment(j) > segs);
	assert_true(journal_close(j, err, sizeof err));
	journal_game_fini(&jg);
	journal_data_fini(&d);

	/* without its snapshot the whole chain is replayed */
	char snap[160];
	assert_true(snapshot_path(path, snap, sizeof snap));
	assert_int_equal(unlink(snap), 0);
	resume_ok(&r, path, &d, &jg, &from);
	assert_int_equal(from, 0);
	assert_int_equal(d.loaded_from, 1);
	assert_int_equal(d.n_actions, 600);
	journal_game_fini(&jg);
	journal_data_fini(&d);
	assert_int_equal(replay_all_ok(&r, path), 600);

	/* filed elsewhere, its segments go with it and it replays there */
	char filed[160];
	snprintf(filed, sizeof filed, "%s/games-1.jnl", dir);
	assert_int_equal(link(path, filed), 0);
	int n = journal_segments_link(path, filed, false, err, sizeof err);
	assert_true(n >= segs);
	assert_int_equal(journal_segments_link(path, filed, false, err, sizeof err), n); /* again: nothing new */
	assert_int_equal(replay_all_ok(&r, filed), 600);
	assert_int_equal(journal_segments_remove(path), n);
	assert_true(journal_segment_path(path, 1, seg, sizeof seg));
	assert_false(exists(seg));
	assert_int_equal(replay_all_ok(&r, filed), 600);
	remove_dir(dir);
	ref_close(&r);
}

/* A chain that does not hold together is refused by name: a segment
 * missing, cut, of another game, or out of its place. */
static void test_broken_chain_is_named(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, 200, true);
	char dir[64], path[128], seg1[160], seg2[160], err[DIAG_ERR_LEN];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	struct journal_setup st = setup_of(&r, NULL);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, SEG_BYTES);
	play(j, g, 0, 200);
	assert_true(journal_segment(j) >= 3);
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	assert_true(journal_segment_path(path, 1, seg1, sizeof seg1));
	assert_true(journal_segment_path(path, 2, seg2, sizeof seg2));
	char aside[200];
	snprintf(aside, sizeof aside, "%s.away", seg1);

	struct journal_data d;
	struct journal_game jg;
	struct journal_replay rep;
	/* missing */
	assert_int_equal(rename(seg1, aside), 0);
	assert_true(journal_read_file(path, &d, err, sizeof err));
	assert_true(journal_start(&d, &jg, err, sizeof err));
	assert_false(journal_replay_all(&d, jg.game, -1, &rep, err, sizeof err));
	assert_non_null(strstr(err, "segment 1 of this game cannot be read"));
	assert_non_null(strstr(err, ".seg-1"));
	/* a later segment alone is not replayed from its middle */
	assert_false(journal_replay(&d, jg.game, -1, &rep, err, sizeof err));
	journal_game_fini(&jg);
	journal_data_fini(&d);
	/* out of its place: segment 2 where 1 should be */
	assert_int_equal(link(seg2, seg1), 0);
	assert_true(journal_read_file(path, &d, err, sizeof err));
	assert_false(journal_read_chain(&d, err, sizeof err));
	assert_non_null(strstr(err, "it is another segment"));
	journal_data_fini(&d);
	assert_int_equal(unlink(seg1), 0);
	/* cut short */
	size_t len;
	char *bytes = level_read_file(aside, &len);
	assert_non_null(bytes);
	FILE *f = fopen(seg1, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len - 5, f), len - 5);
	assert_int_equal(fclose(f), 0);
	assert_true(journal_read_file(path, &d, err, sizeof err));
	assert_false(journal_read_chain(&d, err, sizeof err));
	assert_non_null(strstr(err, "segment 1 of this game is not usable"));
	journal_data_fini(&d);
	/* another game's first segment (another seed) */
	struct journal_setup other = st;
	other.seed = 12;
	char opath[160];
	snprintf(opath, sizeof opath, "%s/other.jnl", dir);
	g = new_game(&r);
	j = journal_create(opath, &other, g, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, SEG_BYTES);
	play(j, g, 0, 80);
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	char oseg[200];
	assert_true(journal_segment_path(opath, 1, oseg, sizeof oseg));
	assert_int_equal(rename(oseg, seg1), 0);
	assert_true(journal_read_file(path, &d, err, sizeof err));
	assert_false(journal_read_chain(&d, err, sizeof err));
	assert_non_null(strstr(err, "belongs to another game"));
	journal_data_fini(&d);
	/* put back, it replays */
	assert_int_equal(rename(aside, seg1), 0);
	assert_int_equal(replay_all_ok(&r, path), 200);
	free(bytes);
	remove_dir(dir);
	ref_close(&r);
}

/* A format 1 file with a segment record, and a format 2 file without one,
 * are refused; a segment's file read alone says which segment it is. */
static void test_segment_header_rules(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, 120, true);
	char dir[64], path[128], err[DIAG_ERR_LEN];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	struct journal_setup st = setup_of(&r, NULL);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, SEG_BYTES);
	play(j, g, 0, 120);
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	size_t len;
	char *bytes = level_read_file(path, &len);
	assert_non_null(bytes);
	struct journal_data d;
	assert_true(journal_parse("seg.jnl", bytes, len, &d, err, sizeof err));
	assert_true(d.segment >= 2);
	assert_true(d.first_action > 0);
	assert_true(d.segment_at > 0 && d.segment_end > d.segment_at);
	/* the header's and the game's CRCs, which the reader joins from its
	 * records' (a level text is read once), are those of the bytes: the
	 * whole header, and the header without its first line and its
	 * segment record */
	assert_int_equal(d.header_crc, savefile_crc32(0, bytes, d.header_end));
	{
		const size_t l1 = (size_t)((const char *)memchr(bytes, '\n', len) - bytes) + 1;
		uint32_t game = savefile_crc32(0, bytes + l1, d.segment_at - l1);
		game = savefile_crc32(game, bytes + d.segment_end, d.header_end - d.segment_end);
		assert_int_equal(d.game_crc, game);
	}
	/* from memory there is no file to find the segments before by */
	assert_false(journal_read_chain(&d, err, sizeof err));
	assert_non_null(strstr(err, "read from memory"));
	journal_data_fini(&d);
	/* the same bytes called format 1: the first line's CRC is wrong, so
	 * rebuild it as the writer would */
	char *nl = memchr(bytes, '\n', len);
	assert_non_null(nl);
	char line[64];
	uint32_t crc = journal_crc(0, "astray-journal 1", 16);
	snprintf(line, sizeof line, "astray-journal 1 %08x\n", (unsigned)crc);
	size_t l1 = (size_t)(nl - bytes) + 1;
	assert_int_equal(strlen(line), l1);
	memcpy(bytes, line, l1);
	assert_false(journal_parse("seg1.jnl", bytes, len, &d, err, sizeof err));
	assert_non_null(strstr(err, "a segment record in a journal of format 1"));
	free(bytes);
	remove_dir(dir);
	ref_close(&r);
}

/* A snapshot comes at the first checksum past the monster turns' budget
 * (here 40: the room has no monsters, so an action counts one), long
 * before SNAPSHOT_EVERY; and it resumes. */
static void test_snapshot_by_work(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, 100, true);
	char dir[64], path[128], snap[160], err[DIAG_ERR_LEN];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	struct journal_setup st = setup_of(&r, NULL);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, SNAPSHOT_EVERY);
	journal_set_snapshot_work(j, 40);
	play(j, g, 0, 100);
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	assert_true(snapshot_path(path, snap, sizeof snap));
	size_t len;
	char *bytes = level_read_file(snap, &len);
	assert_non_null(bytes);
	struct snapshot_head h;
	assert_true(snapshot_parse(bytes, len, &h, err, sizeof err));
	assert_int_equal(h.action, 96); /* at 48 (48 turns past 0), then at 96 */
	free(bytes);
	struct journal_data d;
	struct journal_game jg;
	long from;
	resume_ok(&r, path, &d, &jg, &from);
	assert_int_equal(from, 96);
	journal_game_fini(&jg);
	journal_data_fini(&d);
	remove_dir(dir);
	ref_close(&r);
}

/* ---- kills at every write and fsync ---------------------------------------- */

struct killer {
	long calls;              /* counted so far */
	long at;                 /* _exit just before this call (0: never) */
};

static ssize_t kill_write(void *ud, int fd, const void *buf, size_t n)
{
	struct killer *k = ud;
	if (++k->calls == k->at)
		_exit(0);
	return write(fd, buf, n);
}

/* No real fsync: what a kill leaves is what was written (the kernel
 * keeps it), and on a loaded machine the syncs of ~600 games took minutes. */
static int kill_fsync(void *ud, int fd)
{
	struct killer *k = ud;
	if (++k->calls == k->at)
		_exit(0);
	(void)fd;
	return 0;
}

#define KILL_ACTIONS 90
#define KILL_SEG_BYTES 500 /* a rollover every 20 actions or so */

/* The game of the kill test, from its start, with the I/O killer: returns
 * the calls it made (when it was not killed). */
static long kill_game(struct ref *r, const char *path, long at)
{
	struct killer k = { 0, at };
	struct savefile_io io = { kill_write, kill_fsync, &k };
	struct journal_setup st = setup_of(r, &io);
	char err[DIAG_ERR_LEN];
	struct game *g = new_game(r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, KILL_SEG_BYTES);
	journal_snapshots(j, 64);
	play(j, g, 0, KILL_ACTIONS);
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	return k.calls;
}

/* A kill before any write or fsync of a game that rolls over several
 * times (so before, inside and after every rollover: the link, the new
 * segment's temporary file, its rename, the snapshot after) leaves a save
 * that resumes to the reference state of its action count, never fewer
 * actions than a kill before, whose chain replays whole, and which plays
 * on to the end of the script and rolls over again. */
static void test_kill_at_every_call(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, KILL_ACTIONS, true);
	char dir[64], path[128], err[DIAG_ERR_LEN];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	long calls = kill_game(&r, path, 0);
	remove_dir(dir);
	assert_true(calls > 60);
	long last = 0;
	int rolled = 0;
	for (long at = 1; at <= calls; at++) {
		make_temp_dir(dir, sizeof dir);
		snprintf(path, sizeof path, "%s/save.jnl", dir);
		fflush(NULL);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			kill_game(&r, path, at);
			_exit(0);
		}
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		if (!exists(path)) {
			assert_int_equal(last, 0); /* only before the header was in place */
			remove_dir(dir);
			continue;
		}
		struct journal_data d;
		struct journal_game jg;
		long from;
		resume_ok(&r, path, &d, &jg, &from);
		if (d.n_actions < last)
			fprintf(stderr, "kill at call %ld: %ld actions, %ld before\n", at, d.n_actions, last);
		assert_true(d.n_actions >= last);
		last = d.n_actions;
		rolled = d.segment > rolled ? d.segment : rolled;
		/* it plays on to the end, as play would after the resume */
		struct journal *j = journal_open_append(path, &d, &quick_io, err, sizeof err);
		if (!j)
			fprintf(stderr, "kill at call %ld: %s\n", at, err);
		assert_non_null(j);
		journal_set_segment_bytes(j, KILL_SEG_BYTES);
		journal_snapshots(j, 64);
		journal_resumed(j, jg.game, from);
		play(j, jg.game, d.n_actions, KILL_ACTIONS);
		assert_true(journal_close(j, err, sizeof err));
		journal_game_fini(&jg);
		journal_data_fini(&d);
		assert_int_equal(replay_all_ok(&r, path), KILL_ACTIONS);
		remove_dir(dir);
	}
	assert_int_equal(last, KILL_ACTIONS);
	assert_true(rolled >= 3);
	ref_close(&r);
}

/* ---- the snapshot written in the background ----------------------------------- */

/*
 * Kills for the background writer (journal_snapshots_background): the
 * calls of the game's own thread and of the writer's are counted apart,
 * so a kill lands at a given call of either, whatever the other is
 * doing.  The writer's calls are slowed (a millisecond each) so that the
 * game plays on while a snapshot is being written.
 */
struct bg_killer {
	pthread_t game;          /* the game's thread */
	atomic_long game_calls, writer_calls;
	long at;                 /* _exit just before this call of ... */
	bool writer;             /* ... the writer (else of the game's thread) */
	bool fail;               /* the writer's writes of its snapshot fail (ENOSPC) instead */
	bool fail_check;         /* ... or its writes of a checksum record */
};

static bool bg_call(struct bg_killer *k)
{
	bool writer = !pthread_equal(pthread_self(), k->game);
	long n = writer ? atomic_fetch_add(&k->writer_calls, 1) + 1 : atomic_fetch_add(&k->game_calls, 1) + 1;
	if (writer == k->writer && n == k->at)
		_exit(0);
	if (writer)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	return writer;
}

static ssize_t bg_write(void *ud, int fd, const void *buf, size_t n)
{
	struct bg_killer *k = ud;
	/* a record of the journal, or the snapshot's bytes */
	bool check = n > 2 && memcmp(buf, "c ", 2) == 0;
	if (bg_call(k) && (check ? k->fail_check : k->fail)) {
		errno = ENOSPC;
		return -1;
	}
	return write(fd, buf, n);
}

static int bg_fsync(void *ud, int fd)
{
	(void)fd;
	bg_call(ud);
	return 0;
}

/* The kill test's game with its snapshots in the background (one at
 * every checksum): returns the calls of the thread k counts. */
static long bg_game(struct ref *r, const char *path, struct bg_killer *k)
{
	k->game = pthread_self();
	struct savefile_io io = { bg_write, bg_fsync, k };
	struct journal_setup st = setup_of(r, &io);
	char err[DIAG_ERR_LEN];
	struct game *g = new_game(r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_set_segment_bytes(j, KILL_SEG_BYTES);
	journal_snapshots(j, 16);
	journal_snapshots_background(j, true);
	play(j, g, 0, KILL_ACTIONS);
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	return k->writer ? atomic_load(&k->writer_calls) : atomic_load(&k->game_calls);
}

/*
 * A kill at any call of the writer (its temporary file, its fsync, its
 * rename's folder sync), or of the game while a snapshot may be under
 * way, loses nothing: the save resumes to the reference state of its
 * action count (from the newest whole snapshot, or from the start), its
 * chain replays whole, and it plays on to the end.
 */
static void test_kill_while_the_writer_runs(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, KILL_ACTIONS, true);
	char dir[64], path[128], err[DIAG_ERR_LEN];
	for (int writer = 1; writer >= 0; writer--) {
		struct bg_killer k = { .at = 0, .writer = writer };
		make_temp_dir(dir, sizeof dir);
		snprintf(path, sizeof path, "%s/save.jnl", dir);
		long calls = bg_game(&r, path, &k);
		remove_dir(dir);
		assert_true(calls > (writer ? 12 : 60));
		int from_snapshot = 0;
		for (long at = 1; at <= calls; at++) {
			make_temp_dir(dir, sizeof dir);
			snprintf(path, sizeof path, "%s/save.jnl", dir);
			fflush(NULL);
			pid_t pid = fork();
			assert_true(pid >= 0);
			if (pid == 0) {
				struct bg_killer kk = { .at = at, .writer = writer };
				bg_game(&r, path, &kk);
				_exit(0);
			}
			int status;
			assert_int_equal(waitpid(pid, &status, 0), pid);
			assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
			if (!exists(path)) {
				remove_dir(dir);
				continue;
			}
			struct journal_data d;
			struct journal_game jg;
			long from;
			resume_ok(&r, path, &d, &jg, &from);
			from_snapshot += from > 0;
			struct journal *j = journal_open_append(path, &d, &quick_io, err, sizeof err);
			assert_non_null(j);
			journal_set_segment_bytes(j, KILL_SEG_BYTES);
			journal_snapshots(j, 16);
			journal_snapshots_background(j, true);
			journal_resumed(j, jg.game, from);
			play(j, jg.game, d.n_actions, KILL_ACTIONS);
			assert_true(journal_close(j, err, sizeof err));
			journal_game_fini(&jg);
			journal_data_fini(&d);
			assert_int_equal(replay_all_ok(&r, path), KILL_ACTIONS);
			remove_dir(dir);
		}
		assert_true(from_snapshot > 0); /* the snapshots were there to resume from */
	}
	ref_close(&r);
}

/*
 * A kill between a snapshot key's hash and its checksum record, both the
 * writer's (the game's thread waits for the record at its next one).
 * The kill comes in the writer's thread as it appends the record, the
 * hash taken: the save ends with the key's action and no checksum for
 * it, the snapshot is the one of the key before (the writer writes its
 * snapshot only once the checksum is in the journal and synced: renamed
 * before, it would be refused for want of its checksum, and the whole
 * game replayed), and the resume starts there, loses nothing and plays
 * on to the end.
 */
struct check_killer {
	pthread_t game;
	long action;             /* _exit as the writer appends the checksum of this action */
};

static ssize_t check_kill_write(void *ud, int fd, const void *buf, size_t n)
{
	struct check_killer *k = ud;
	char want[32];
	int len = snprintf(want, sizeof want, "c %ld ", k->action);
	if (!pthread_equal(pthread_self(), k->game) && n > (size_t)len && memcmp(buf, want, (size_t)len) == 0)
		_exit(0);
	return write(fd, buf, n);
}

static void test_kill_between_the_hash_and_its_checksum(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, KILL_ACTIONS, true);
	char dir[64], path[128], snap[160], err[DIAG_ERR_LEN];
	for (long at = 16; at <= 64; at += 16) {
		make_temp_dir(dir, sizeof dir);
		snprintf(path, sizeof path, "%s/save.jnl", dir);
		fflush(NULL);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct check_killer k = { .game = pthread_self(), .action = at };
			struct savefile_io io = { check_kill_write, no_fsync, &k };
			struct journal_setup st = setup_of(&r, &io);
			struct game *g = new_game(&r);
			struct journal *j = journal_create(path, &st, g, err, sizeof err);
			if (!j)
				_exit(2);
			journal_snapshots(j, 16);
			journal_snapshots_background(j, true);
			play(j, g, 0, KILL_ACTIONS);
			_exit(3); /* not killed */
		}
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		struct journal_data d;
		struct journal_game jg;
		long from;
		resume_ok(&r, path, &d, &jg, &from);
		/* the key's action is there, its checksum is not */
		assert_int_equal(d.n_actions, at);
		assert_true(d.n_checks > 0);
		assert_int_equal(d.checks[d.n_checks - 1].action, at - 16);
		/* the snapshot is the key's before (none before the first) */
		assert_true(snapshot_path(path, snap, sizeof snap));
		assert_int_equal(from, at - 16);
		assert_int_equal(exists(snap), at > 16);
		struct journal *j = journal_open_append(path, &d, &quick_io, err, sizeof err);
		assert_non_null(j);
		journal_snapshots(j, 16);
		journal_snapshots_background(j, true);
		journal_resumed(j, jg.game, from);
		play(j, jg.game, d.n_actions, KILL_ACTIONS);
		assert_true(journal_close(j, err, sizeof err));
		journal_game_fini(&jg);
		journal_data_fini(&d);
		assert_int_equal(replay_all_ok(&r, path), KILL_ACTIONS);
		/* and the snapshot then written is one a resume takes */
		resume_ok(&r, path, &d, &jg, &from);
		assert_true(from > at);
		journal_game_fini(&jg);
		journal_data_fini(&d);
		remove_dir(dir);
	}
	ref_close(&r);
}

/*
 * The writer's fsync after its checksum is the journal's: the snapshot
 * key no longer syncs, and once the writer is joined (at the next record
 * when it has finished) the actions up to its checksum count as durable
 * and the game's thread starts its own cadence (an fsync every 8
 * records) from there, as it did from the key's own fsync in line.
 */
static void test_writer_sync_counts(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, 40, true);
	char dir[64], path[128], err[DIAG_ERR_LEN];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/save.jnl", dir);
	struct journal_setup st = setup_of(&r, NULL);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, 16);
	journal_snapshots_background(j, true);
	play(j, g, 0, 16);
	assert_int_equal(journal_durable_actions(j), 8); /* the key of action 16 did not sync */
	while (journal_snapshot_writing(j))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	play(j, g, 16, 17);
	assert_int_equal(journal_durable_actions(j), 16); /* the writer's, and no sync of the game's at 17 */
	play(j, g, 17, 23);
	assert_int_equal(journal_durable_actions(j), 16);
	play(j, g, 23, 25);
	assert_int_equal(journal_durable_actions(j), 24); /* 8 records on: actions 17 to 24, as in line */
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	assert_int_equal(replay_all_ok(&r, path), 25);
	remove_dir(dir);
	ref_close(&r);
}

/*
 * The background snapshot is the file written in line, byte for byte;
 * the writer runs while the game goes on (a snapshot being written is
 * seen between two actions); and a writer that fails (a full disk) is
 * said by journal_snapshot_problem once it is joined, while the journal
 * itself goes on, whole.
 */
static void test_background_snapshot_same_file_and_failure(void **state)
{
	(void)state;
	struct ref r;
	ref_open(&r, 200, true);
	char dir[64], a[128], b[128], sa[160], sb[160], err[DIAG_ERR_LEN];
	make_temp_dir(dir, sizeof dir);
	snprintf(a, sizeof a, "%s/inline.jnl", dir);
	snprintf(b, sizeof b, "%s/bg.jnl", dir);
	struct bg_killer k = { .at = 0 };
	k.game = pthread_self();
	struct savefile_io slow = { bg_write, bg_fsync, &k };
	for (int bg = 0; bg <= 1; bg++) {
		struct journal_setup st = setup_of(&r, bg ? &slow : NULL);
		struct game *g = new_game(&r);
		struct journal *j = journal_create(bg ? b : a, &st, g, err, sizeof err);
		assert_non_null(j);
		journal_snapshots(j, 16);
		journal_snapshots_background(j, bg);
		bool seen_writing = false;
		for (long i = 0; i < 150; i++) {
			struct action act = script(i);
			enum act_result res = game_act(g, &act);
			assert_true(journal_record(j, &act, res, g, err, sizeof err));
			seen_writing |= journal_snapshot_writing(j);
		}
		assert_true(seen_writing == (bool)bg);
		/* in the background the snapshot keys' hashes were the writer's */
		long checks, waits;
		double wait_us, wait_max_us;
		journal_hash_waits(j, &checks, &waits, &wait_us, &wait_max_us);
		assert_int_equal(checks, bg ? 150 / 16 : 0);
		assert_true(waits <= checks && wait_max_us <= wait_us);
		assert_true(journal_close(j, err, sizeof err));
		game_destroy(g);
	}
	assert_true(snapshot_path(a, sa, sizeof sa) && snapshot_path(b, sb, sizeof sb));
	size_t la, lb, ja, jb;
	char *fa = savefile_read(sa, SNAPSHOT_MAX_BYTES, &la, err, sizeof err);
	char *fb = savefile_read(sb, SNAPSHOT_MAX_BYTES, &lb, err, sizeof err);
	char *ga = savefile_read(a, JOURNAL_MAX_BYTES, &ja, err, sizeof err);
	char *gb = savefile_read(b, JOURNAL_MAX_BYTES, &jb, err, sizeof err);
	assert_non_null(fa);
	assert_non_null(fb);
	assert_non_null(ga);
	assert_non_null(gb);
	assert_int_equal(la, lb);
	assert_memory_equal(fa, fb, la);
	assert_int_equal(ja, jb);
	assert_memory_equal(ga, gb, ja);
	free(fa);
	free(fb);
	free(ga);
	free(gb);

	/* the writer's writes of the snapshot fail (it takes more room than a
	 * record): said once it is joined, the journal goes on */
	struct bg_killer f = { .at = 0, .fail = true };
	f.game = pthread_self();
	struct savefile_io failing = { bg_write, bg_fsync, &f };
	snprintf(a, sizeof a, "%s/full.jnl", dir);
	struct journal_setup st = setup_of(&r, &failing);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(a, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, 16);
	journal_snapshots_background(j, true);
	bool told = false;
	for (long i = 0; i < 100; i++) {
		struct action act = script(i);
		enum act_result res = game_act(g, &act);
		assert_true(journal_record(j, &act, res, g, err, sizeof err));
		told |= journal_snapshot_problem(j) != NULL;
	}
	journal_snapshot_wait(j);
	assert_true(told);
	const char *why = journal_snapshot_problem(j);
	assert_non_null(why);
	assert_non_null(strstr(why, "No space left on device"));
	assert_true(journal_close(j, err, sizeof err));
	game_destroy(g);
	assert_true(snapshot_path(a, sa, sizeof sa));
	assert_false(exists(sa));
	assert_int_equal(replay_all_ok(&r, a), 100);

	/* the writer cannot append a checksum (a full disk): the journal
	 * fails at the next record, naming that checksum, keeps the actions
	 * before it whole, and no snapshot is written */
	struct bg_killer fc = { .at = 0, .fail_check = true };
	fc.game = pthread_self();
	struct savefile_io full_check = { bg_write, bg_fsync, &fc };
	snprintf(a, sizeof a, "%s/check.jnl", dir);
	st = setup_of(&r, &full_check);
	g = new_game(&r);
	j = journal_create(a, &st, g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, 16);
	journal_snapshots_background(j, true);
	long i = 0;
	for (; i < 100; i++) {
		struct action act = script(i);
		enum act_result res = game_act(g, &act);
		if (!journal_record(j, &act, res, g, err, sizeof err))
			break;
	}
	assert_int_equal(i, 16); /* action 17's record: after the checksum of 16 */
	assert_non_null(strstr(err, "writing the checksum after action 16 failed: No space left on device"));
	assert_string_equal(journal_failure_reason(j), "No space left on device");
	assert_false(journal_close(j, err, sizeof err));
	game_destroy(g);
	assert_true(snapshot_path(a, sa, sizeof sa));
	assert_false(exists(sa));
	struct journal_data d;
	assert_true(journal_read_file(a, &d, err, sizeof err));
	assert_int_equal(d.n_actions, 16);
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	assert_int_equal(d.checks[d.n_checks - 1].action, 0);
	journal_data_fini(&d);
	remove_dir(dir);
	ref_close(&r);
}

/* ---- the marathon writer (tools/bench-marathon) ------------------------------ */

static int marathon(const char *path, long n)
{
	struct ref r;
	ref_open(&r, n, false);
	char err[DIAG_ERR_LEN];
	unlink(path);
	char snap[4200];
	snapshot_path(path, snap, sizeof snap);
	unlink(snap);
	journal_segments_remove(path);
	struct journal_setup st = setup_of(&r, NULL);
	struct game *g = new_game(&r);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	if (!j) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	journal_set_segment_bytes(j, JOURNAL_SEGMENT_BYTES); /* as play's slot */
	journal_snapshots(j, SNAPSHOT_EVERY);
	for (long i = 0; i < n; i++) {
		struct action a = script(i);
		enum act_result res = game_act(g, &a);
		if (!journal_record(j, &a, res, g, err, sizeof err)) {
			fprintf(stderr, "action %ld: %s\n", i + 1, err);
			return 1;
		}
	}
	int segs = journal_segment(j);
	bool ok = journal_append_checksum(j, g, err, sizeof err) && journal_close(j, err, sizeof err);
	printf("marathon: file=%s actions=%ld segments=%d turn=%d hash=%016llx\n", path, n, segs, g->turn,
	       (unsigned long long)game_hash(g));
	game_destroy(g);
	ref_close(&r);
	if (!ok)
		fprintf(stderr, "%s\n", err);
	return ok ? 0 : 1;
}

int main(void)
{
	const char *m = getenv("ASTRAY_MARATHON");
	if (m && *m) {
		const char *n = getenv("ASTRAY_MARATHON_ACTIONS");
		return marathon(m, n && *n ? atol(n) : 2000000);
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollover_chain_resume),
		cmocka_unit_test(test_broken_chain_is_named),
		cmocka_unit_test(test_segment_header_rules),
		cmocka_unit_test(test_snapshot_by_work),
		cmocka_unit_test(test_kill_at_every_call),
		cmocka_unit_test(test_kill_while_the_writer_runs),
		cmocka_unit_test(test_kill_between_the_hash_and_its_checksum),
		cmocka_unit_test(test_writer_sync_counts),
		cmocka_unit_test(test_background_snapshot_same_file_and_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
