/*
 * test_crash.c - crash safety of saving, through the real program (the -O2
 * build/astray, as users run it) in a pseudo-terminal.  An LD_PRELOAD shim
 * (tests/shim/failio.c, built as build/shim/failio.so) counts the calls
 * that put the save on disk (writes to files, fsync, rename, link) and
 * kills the program just before the k-th one, or makes every write from
 * the k-th on fail with ENOSPC (a full disk).  A shim and not a hook in the
 * program: nothing in src/ knows about faults, and the binary tested is the
 * one installed.
 *
 * A short game (two levels with no monsters: to the stairs, down - which
 * writes a snapshot - and moves, then Q) is played once to count its
 * calls, then once for every k: after a kill the save on disk must be a
 * prefix of the uninterrupted game's save, and starting astray again must
 * offer it at exactly the turn a full replay of it reaches (a kill loses
 * nothing that was written: every write is a whole record; a snapshot cut
 * short, or left as a temporary file, is not used), or offer nothing when
 * the kill came before the save existed.  A full disk is shown on the game's screen, said again after
 * the game, and leaves the save that was there before intact.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "pty_driver.h"

#define CAMPAIGN "tests/levels/crash" /* two steps to the stairs, then a room */
#define BIN "build/astray"
#define SHIM "build/shim/failio.so"
#define KEYS "lll>llllljjjhhhkkkl" /* moves of one turn; '>' goes down (no turn: a level change) */
#define ROWS 24
#define COLS 80

struct fixture {
	char dir[64];             /* everything of the test */
	char *ref;                /* the uninterrupted game's save */
	size_t ref_len;
	long calls;               /* the calls the shim counted in it */
};

static char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(fp);
	if (b) {
		b[n] = '\0';
		*len = (size_t)n;
	}
	return b;
}

static void fail_dump(struct pty *p, const char *what, long k)
{
	char buf[8192];
	pty_dump(p, buf, sizeof buf);
	print_error("k=%ld: %s\n%s", k, what, buf);
	fail();
}


/* Starts astray play on CAMPAIGN with data folder `data`, through the shim
 * when mode is not NULL (or when log is not NULL: counting only). */
static void start(struct pty *p, const char *data, const char *mode, long at, const char *log)
{
	char *argv[] = { (char *)BIN, (char *)"play", (char *)CAMPAIGN, (char *)"--seed", (char *)"7",
			 (char *)"--data", (char *)data, NULL };
	assert_true(pty_start_shim(p, ROWS, COLS, argv, SHIM, mode, at, log));
}

/* Plays KEYS (each waits for its turn, or for the program's death), then
 * quits; returns when the program has exited. */
static void play_and_quit(struct pty *p, long k)
{
	if (!pty_wait_text(p, "Turn 0", WAIT_MS) && !pty_wait_exit(p, 0))
		fail_dump(p, "the game did not start", k);
	pty_play_keys(p, KEYS, WAIT_MS);
	if (!p->exited) {
		pty_dismiss_more(p); /* messages waiting for a key of their own */
		pty_send(p, "Q");
		pty_wait_text(p, "(y/n)", WAIT_MS);
		pty_send(p, "y");
	}
	if (!pty_wait_exit(p, WAIT_MS))
		fail_dump(p, "the program did not end", k);
}

/* Complete action records in a journal's bytes. */
static int actions_in(const char *b, size_t len)
{
	int n = 0;
	for (size_t i = 0; i + 2 < len; i++)
		if (b[i] == '\n' && b[i + 1] == 'a' && b[i + 2] == ' ' && memchr(b + i + 1, '\n', len - i - 1))
			n++;
	return n;
}

/* Quits the game on screen: the messages a resume shows may wait behind
 * --More--, which takes a key of its own. */
static void dismiss_more(struct pty *p)
{
	pty_dismiss_more(p);
}

static void quit(struct pty *p, long k)
{
	dismiss_more(p);
	pty_send(p, "Q");
	if (!pty_wait_text(p, "(y/n)", WAIT_MS))
		fail_dump(p, "no quit question", k);
	pty_send(p, "y");
	if (!pty_wait_exit(p, WAIT_MS))
		fail_dump(p, "it did not quit", k);
}

/* The game turn a full replay of the journal at path reaches (replay --verify). */
static int replayed_turn(const char *path, long k)
{
	char cmd[400], out[2000];
	snprintf(cmd, sizeof cmd, "%s replay '%s' --verify 2>&1", BIN, path);
	FILE *fp = popen(cmd, "r");
	assert_non_null(fp);
	size_t n = fread(out, 1, sizeof out - 1, fp);
	out[n] = '\0';
	int st = pclose(fp);
	const char *t = strstr(out, " turn=");
	if (st != 0 || !t) {
		print_error("k=%ld: %s: %s\n", k, cmd, out);
		fail();
	}
	return atoi(t + 6);
}

/*
 * Starts astray again on data: when a save is there it must be offered at
 * turn `turn` (-1: no save, a new game starts at once); accepts it and
 * checks the game screen shows that turn, then quits.
 */
static void resume_at(const char *data, int turn, long k)
{
	struct pty p;
	start(&p, data, NULL, 0, NULL);
	if (turn < 0) {
		if (!pty_wait_text(&p, "Turn 0", WAIT_MS))
			fail_dump(&p, "no save, yet no new game", k);
	} else {
		char want[64];
		snprintf(want, sizeof want, "turn %d,", turn);
		if (!pty_wait_text(&p, "Continue it?", WAIT_MS) || !pty_find(&p, want, NULL, NULL))
			fail_dump(&p, want, k);
		pty_answer(&p, "y\r");
		snprintf(want, sizeof want, "Turn %d", turn);
		if (!pty_wait_text(&p, want, WAIT_MS))
			fail_dump(&p, want, k);
	}
	quit(&p, k);
	pty_close(&p);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->dir, sizeof f->dir, "/tmp/astray-crash-test-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", f->dir);
	int rc = system(cmd);
	free(f->ref);
	free(f);
	return rc == 0 ? 0 : -1;
}

/* Which thread's calls the shim counts (FAILIO_THREAD): "main" (the
 * game's), "other" (the snapshot writer's) or NULL (every call).  The
 * game's calls come in one order, and so do the writer's, but the two
 * interleave as the machine runs them: a kill at the k-th call of one
 * thread lands at the same point of that thread every time. */
static void count_thread(const char *which)
{
	if (which)
		setenv("FAILIO_THREAD", which, 1);
	else
		unsetenv("FAILIO_THREAD");
}

/* The uninterrupted game, through the shim counting (the calls of
 * count_thread's thread). */
static void reference(struct fixture *f)
{
	char data[128], log[128], path[160];
	snprintf(data, sizeof data, "%s/ref", f->dir);
	snprintf(log, sizeof log, "%s/ref.log", f->dir);
	mkdir(data, 0700);
	struct pty p;
	start(&p, data, NULL, 0, log);
	play_and_quit(&p, 0);
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
	pty_close(&p);
	snprintf(path, sizeof path, "%s/save.jnl", data);
	free(f->ref);
	f->ref = read_file(path, &f->ref_len);
	assert_non_null(f->ref);
	assert_int_equal(actions_in(f->ref, f->ref_len), (int)strlen(KEYS));
	snprintf(path, sizeof path, "%s/save.jnl.snap", data);
	struct stat st;
	assert_int_equal(stat(path, &st), 0); /* the level change wrote one */
	size_t len;
	char *l = read_file(log, &len);
	assert_non_null(l);
	f->calls = 0;
	for (size_t i = 0; i < len; i++)
		f->calls += l[i] == '\n';
	free(l);
	unlink(log);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", data);
	assert_int_equal(system(cmd), 0);
}

/* A kill at the k-th call of the thread count_thread names; returns the
 * actions the save kept (-1: no save). */
static int kill_at(struct fixture *f, long k, const char *which)
{
	char data[128], path[160];
	snprintf(data, sizeof data, "%s/%s%ld", f->dir, which, k);
	mkdir(data, 0700);
	struct pty p;
	start(&p, data, "kill", k, NULL);
	play_and_quit(&p, k);
	if (!WIFSIGNALED(p.status) || WTERMSIG(p.status) != SIGKILL)
		fail_dump(&p, "the shim did not kill it", k);
	pty_close(&p);
	snprintf(path, sizeof path, "%s/save.jnl", data);
	size_t len;
	char *b = read_file(path, &len);
	int kept = -1, turn = -1;
	if (b) {
		/* what a kill leaves is what was written: a prefix of the whole save */
		assert_true(len <= f->ref_len);
		assert_memory_equal(b, f->ref, len);
		kept = actions_in(b, len);
		turn = replayed_turn(path, k);
		free(b);
	}
	resume_at(data, turn, k);
	return kept;
}

static void test_kill_at_every_call(void **state)
{
	struct fixture *f = *state;
	/* the game's own calls: a later kill never loses what an earlier one kept */
	count_thread("main");
	reference(f);
	assert_true(f->calls >= (long)strlen(KEYS)); /* at least a write per action */
	int last = -1;
	for (long k = 1; k <= f->calls; k++) {
		int kept = kill_at(f, k, "main");
		assert_true(kept >= last);
		last = kept;
	}
	assert_int_equal(last, (int)strlen(KEYS));
	/* the snapshot writer's calls (the level change's snapshot and the
	 * quit's: its temporary file, fsync, rename, the folder's fsync),
	 * whatever the game was doing meanwhile */
	count_thread("other");
	reference(f);
	assert_true(f->calls >= 6); /* two snapshots */
	for (long k = 1; k <= f->calls; k++)
		assert_true(kill_at(f, k, "other") >= 0);
	count_thread(NULL);
}

static void test_full_disk(void **state)
{
	struct fixture *f = *state;
	count_thread(NULL);
	reference(f);
	/* a disk full from the middle of the game on: shown at once, said after the game */
	char data[128], path[160];
	snprintf(data, sizeof data, "%s/full", f->dir);
	mkdir(data, 0700);
	struct pty p;
	start(&p, data, "full", f->calls / 2, NULL);
	if (!pty_wait_text(&p, "Turn 0", WAIT_MS))
		fail_dump(&p, "the game did not start", 0);
	bool shown = false;
	for (const char *c = KEYS; *c; c++) {
		int t = pty_turn(&p);
		char s[2] = { *c, 0 };
		pty_send(&p, s);
		char want[32];
		snprintf(want, sizeof want, "Turn %d ", t + 1);
		pty_wait_text(&p, *c == '>' ? "(2/2)" : want, WAIT_MS);
		shown = shown || pty_find(&p, "SAVING FAILED (No space left on device)", NULL, NULL);
	}
	if (!shown)
		fail_dump(&p, "the full disk was not shown", 0);
	/* and it stays said: on the status line, whatever came after, and in
	 * the quit question, which no longer claims the game is saved */
	if (!pty_find(&p, "NOT SAVED", NULL, NULL))
		fail_dump(&p, "no standing NOT SAVED on the status line", 0);
	dismiss_more(&p);
	pty_send(&p, "Q");
	if (!pty_wait_text(&p, "SAVING FAILED: the game is kept only up to where it failed", WAIT_MS))
		fail_dump(&p, "the quit question does not say saving failed", 0);
	if (pty_find(&p, "The game is saved", NULL, NULL))
		fail_dump(&p, "the quit question still says the game is saved", 0);
	pty_send(&p, "n");
	/* in 40 columns the question wraps onto the message rows, (y/n) and all */
	pty_resize(&p, 16, 40);
	pty_send(&p, "Q");
	if (!pty_wait_text(&p, "kept only up to where it failed. (y/n)", WAIT_MS))
		fail_dump(&p, "the quit question is cut in 40 columns", 0);
	pty_send(&p, "n");
	quit(&p, 0);
	if (!pty_log_has(&p, "saving failed") || !pty_log_has(&p, "No space left on device"))
		fail_dump(&p, "not said again after the game, with its reason", 0);
	pty_close(&p);
	snprintf(path, sizeof path, "%s/save.jnl", data);
	size_t len;
	char *b = read_file(path, &len);
	assert_non_null(b);
	assert_memory_equal(b, f->ref, len); /* only whole records, as the uninterrupted game wrote them */
	assert_true(actions_in(b, len) < (int)strlen(KEYS));
	int kept = replayed_turn(path, 0);
	free(b);
	resume_at(data, kept, 0);

	/* a saved game resumed on a disk that is full: the save stays exactly as it was */
	b = read_file(path, &len);
	assert_non_null(b);
	start(&p, data, "full", 1, NULL);
	char want[64];
	snprintf(want, sizeof want, "Turn %d", kept);
	if (!pty_wait_text(&p, "Continue it?", WAIT_MS))
		fail_dump(&p, "no offer", 0);
	pty_answer(&p, "y\r");
	if (!pty_wait_text(&p, want, WAIT_MS))
		fail_dump(&p, want, 0);
	dismiss_more(&p);
	pty_send(&p, "l");
	if (!pty_wait_text(&p, "SAVING FAILED", WAIT_MS))
		fail_dump(&p, "the full disk was not shown after a resume", 0);
	quit(&p, 0);
	pty_close(&p);
	size_t len2;
	char *after = read_file(path, &len2);
	assert_non_null(after);
	assert_int_equal(len2, len);
	assert_memory_equal(after, b, len);
	free(after);
	free(b);
	resume_at(data, kept, 0);
}

int main(void)
{
	if (access(SHIM, R_OK) != 0 || access(BIN, X_OK) != 0) {
		fprintf(stderr, "test_crash: %s and %s are built by make test\n", SHIM, BIN);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kill_at_every_call, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_disk, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
