/*
 * test_save_strays.c - what a kill in the middle of a snapshot leaves, and
 * the next start, through the real program (the -O2 build/astray, as users
 * run it) in a pseudo-terminal with the LD_PRELOAD shim of the crash tests
 * (tests/shim/failio.c, build/shim/failio.so).
 *
 * A short game (tests/levels/crash: two steps to the stairs, down - which
 * writes the first snapshot - and a few moves, then Q) is played once with
 * the shim counting, to find the snapshot's rename; then again with the
 * shim killing the program just before that rename, which leaves the
 * snapshot's temporary file (save.jnl.snap.tmp-XXXXXX) and no snapshot.
 * The next start must remove the temporary file before it offers the save,
 * resume at the turn a full replay reaches, and, since that resume had to
 * replay the whole journal, keep a snapshot at once (the next resume
 * starts from it).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
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

#include "pty_check.h"
#include "pty_driver.h"

#define CAMPAIGN "tests/levels/crash"
#define BIN "build/astray"
#define SHIM "build/shim/failio.so"
#define KEYS "lll>lllll" /* '>' goes down: a level change, a snapshot */

static void fail_dump(struct pty *p, const char *what)
{
	char buf[8192];
	pty_dump(p, buf, sizeof buf);
	print_error("%s\n%s", what, buf);
	fail();
}

static void start(struct pty *p, const char *data, const char *mode, long at, const char *log)
{
	char *argv[] = { (char *)BIN, (char *)"play", (char *)CAMPAIGN, (char *)"--seed", (char *)"7",
			 (char *)"--data", (char *)data, NULL };
	assert_true(pty_start_shim(p, 24, 80, argv, SHIM, mode, at, log));
}


static void dismiss_more(struct pty *p)
{
	pty_dismiss_more(p);
}

/* Plays KEYS (each waits for its turn, or the program's death), then quits. */
static void play_and_quit(struct pty *p)
{
	if (!pty_wait_text(p, "Turn 0", WAIT_MS) && !pty_wait_exit(p, 0))
		fail_dump(p, "the game did not start");
	pty_play_keys(p, KEYS, WAIT_MS);
	if (!p->exited) {
		dismiss_more(p);
		pty_send(p, "Q");
		pty_wait_text(p, "(y/n)", WAIT_MS);
		pty_send(p, "y");
	}
	if (!pty_wait_exit(p, WAIT_MS))
		fail_dump(p, "the program did not end");
}

/* How many files of dir are named PREFIX followed by six characters. */
static int count_temps(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	struct dirent *e;
	size_t len = strlen(prefix);
	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, len) == 0 && strlen(e->d_name) == len + 6;
	closedir(d);
	return n;
}

/* The output of a command (at most size - 1 bytes); asserts it exits 0. */
static void run(const char *cmd, char *out, size_t size)
{
	FILE *fp = popen(cmd, "r");
	assert_non_null(fp);
	size_t n = fread(out, 1, size - 1, fp);
	out[n] = '\0';
	int st = pclose(fp);
	if (st != 0)
		print_error("%s: %s\n", cmd, out);
	assert_int_equal(st, 0);
}

static void test_kill_mid_snapshot(void **state)
{
	(void)state;
	char dir[64] = "/tmp/astray-strays-e2e-XXXXXX", data[128], log[128], path[192], cmd[512], out[2000];
	assert_non_null(mkdtemp(dir));

	/* counted once, to find the snapshot's rename (the journal is linked,
	 * never renamed): the snapshot writer's thread's calls only, which come
	 * in one order whatever the game's thread does meanwhile */
	setenv("FAILIO_THREAD", "other", 1);
	snprintf(data, sizeof data, "%s/ref", dir);
	snprintf(log, sizeof log, "%s/ref.log", dir);
	mkdir(data, 0700);
	struct pty p;
	start(&p, data, NULL, 0, log);
	play_and_quit(&p);
	pty_close(&p);
	FILE *fp = fopen(log, "r");
	assert_non_null(fp);
	long k = -1, n;
	char what[32];
	while (k < 0 && fscanf(fp, "%ld %31s", &n, what) == 2)
		if (strcmp(what, "rename") == 0)
			k = n;
	fclose(fp);
	assert_true(k > 0);

	/* killed just before it: the temporary file stays, no snapshot */
	snprintf(data, sizeof data, "%s/kill", dir);
	mkdir(data, 0700);
	start(&p, data, "kill", k, NULL);
	play_and_quit(&p);
	unsetenv("FAILIO_THREAD");
	if (!WIFSIGNALED(p.status) || WTERMSIG(p.status) != SIGKILL)
		fail_dump(&p, "the shim did not kill it");
	pty_close(&p);
	assert_int_equal(count_temps(data, "save.jnl.snap.tmp-"), 1);
	snprintf(path, sizeof path, "%s/save.jnl.snap", data);
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof path, "%s/save.jnl", data);
	snprintf(cmd, sizeof cmd, "%s replay '%s' --verify 2>&1", BIN, path);
	run(cmd, out, sizeof out);
	const char *t = strstr(out, " turn=");
	assert_non_null(t);
	int turn = atoi(t + 6);

	/* the next start: gone before the save is offered; the resume (a full
	 * replay) keeps a snapshot at once */
	start(&p, data, NULL, 0, NULL);
	if (!pty_wait_text(&p, "Continue it?", WAIT_MS))
		fail_dump(&p, "no save offered");
	if (count_temps(data, "save.jnl.snap.tmp-") != 0)
		fail_dump(&p, "the temporary file is still there");
	pty_answer(&p, "y\r");
	char want[32];
	snprintf(want, sizeof want, "Turn %d", turn);
	if (!pty_wait_text(&p, want, WAIT_MS))
		fail_dump(&p, want);
	/* the snapshot comes at once when the journal ends with the level
	 * change's checksum, else with the next action's record: the kill came
	 * in the snapshot writer's thread, while the game's may have played on
	 * past the level change.  One step, then the writer is given time. */
	dismiss_more(&p);
	pty_send(&p, "l");
	snprintf(want, sizeof want, "Turn %d", turn + 1);
	if (!pty_wait_text(&p, want, WAIT_MS))
		fail_dump(&p, want);
	snprintf(path, sizeof path, "%s/save.jnl.snap", data);
	for (int waited = 0; access(path, F_OK) != 0 && waited < WAIT_MS; waited += 20)
		nanosleep(&(struct timespec){ 0, 20 * 1000000 }, NULL);
	if (access(path, F_OK) != 0)
		fail_dump(&p, "no snapshot after a resume that replayed the whole journal");
	dismiss_more(&p);
	pty_send(&p, "Q");
	if (!pty_wait_text(&p, "(y/n)", WAIT_MS))
		fail_dump(&p, "no quit question");
	pty_send(&p, "y");
	assert_true(pty_wait_exit(&p, WAIT_MS));
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
	pty_close(&p);
	/* and the next resume starts from it */
	snprintf(path, sizeof path, "%s/save.jnl", data);
	snprintf(cmd, sizeof cmd, "%s replay '%s' --verify --resume 2>&1", BIN, path);
	run(cmd, out, sizeof out);
	const char *s = strstr(out, "snapshot=");
	assert_non_null(s);
	assert_true(atol(s + 9) > 0);

	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	if (access(SHIM, R_OK) != 0 || access(BIN, X_OK) != 0) {
		fprintf(stderr, "test_save_strays: %s and %s are built by make test\n", SHIM, BIN);
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kill_mid_snapshot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
