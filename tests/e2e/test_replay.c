/*
 * test_replay.c - `astray play --record FILE` and `astray replay FILE`
 * through the real program in a pseudo-terminal: a recorded game verifies;
 * the viewer plays it, pauses, single-steps, goes faster and slower, shows
 * the routes, reveals the whole level (--reveal, v), survives a terminal
 * too small and a resize, quits, and gives the terminal back; SIGTERM and a closed terminal during a replay give it
 * back too.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_driver.h"

#define SQUARE "tests/levels/e2e/square.lvl"
#define KEYS "llllljjjhhhkkkl" /* one turn each on SQUARE */

struct fixture {
	char dir[64];
	char file[128];           /* the recorded journal */
};

static const char *bin(void)
{
	const char *b = getenv("ASTRAY_BIN");
	return b && *b ? b : "build/san/astray";
}

static void fail_dump(struct pty *p, const char *what)
{
	char buf[8192];
	pty_dump(p, buf, sizeof buf);
	print_error("%s\n%s", what, buf);
	fail();
}

static void need(struct pty *p, const char *text)
{
	if (!pty_wait_text(p, text, WAIT_MS)) {
		char what[200];
		snprintf(what, sizeof what, "'%s' never showed", text);
		fail_dump(p, what);
	}
}

/* "REPLAY STATE X/N": X, or -1. */
static long shown_action(struct pty *p)
{
	int row, col;
	if (!pty_find(p, "REPLAY ", &row, &col))
		return -1;
	char line[1024];
	pty_row(p, row, line, sizeof line);
	const char *s = line + col + 7;
	while (*s && *s != ' ')
		s++;
	return atol(s);
}

/* Records KEYS with play --record into f->file, then quits. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->dir, sizeof f->dir, "/tmp/astray-replay-test-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->file, sizeof f->file, "%s/game.jnl", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", f->dir);
	int rc = system(cmd);
	free(f);
	return rc == 0 ? 0 : -1;
}

/* play --record into f->file, on SQUARE, until its first turn shows. */
static void record_start(struct pty *p, const struct fixture *f)
{
	char *argv[] = { (char *)bin(), (char *)"play", (char *)SQUARE, (char *)"--seed", (char *)"7",
			 (char *)"--record", (char *)f->file, NULL };
	assert_true(pty_start(p, 24, 80, argv));
	need(p, "Turn 0");
}

/* Q, y: the recording ends and the program with it. */
static void record_quit(struct pty *p)
{
	pty_send(p, "Q");
	need(p, "(y/n)");
	pty_send(p, "y");
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_true(WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0);
}

/* replay --verify of f->file: its exit status, its output in out. */
static int verify(const struct fixture *f, char *out, size_t size)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "%s replay %s --verify 2>&1", bin(), f->file);
	FILE *fp = popen(cmd, "r");
	assert_non_null(fp);
	size_t n = fread(out, 1, size - 1, fp);
	out[n] = '\0';
	const int rc = pclose(fp);
	if (rc != 0)
		print_error("%s\n", out);
	return rc;
}

static void record(struct fixture *f)
{
	struct pty p;
	record_start(&p, f);
	for (const char *c = KEYS; *c; c++) {
		char s[2] = { *c, 0 }, want[32];
		pty_send(&p, s);
		snprintf(want, sizeof want, "Turn %d ", (int)(c - KEYS) + 1);
		need(&p, want);
	}
	record_quit(&p);
	if (!pty_log_has(&p, "The game is recorded in"))
		fail_dump(&p, "play --record did not say where the game is");
	pty_close(&p);
	/* it verifies, every action of it */
	char out[2000];
	assert_int_equal(verify(f, out, sizeof out), 0);
	char want[64];
	snprintf(want, sizeof want, "actions=%d ", (int)strlen(KEYS));
	if (!strstr(out, want))
		print_error("%s lacks %s\n", out, want);
	assert_non_null(strstr(out, want));
}

static void start_replay(struct pty *p, const struct fixture *f, int rows, int cols)
{
	char *argv[] = { (char *)bin(), (char *)"replay", (char *)f->file, NULL };
	assert_true(pty_start(p, rows, cols, argv));
	need(p, "REPLAY ");
}

static void test_viewer_keys(void **state)
{
	struct fixture *f = *state;
	record(f);
	struct pty p;
	start_replay(&p, f, 24, 80);
	need(&p, "REPLAY PLAYING");
	need(&p, "200ms");
	pty_send(&p, " ");
	need(&p, "REPLAY PAUSED");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	long at = shown_action(&p);
	assert_true(at >= 0);
	/* paused: it stays.  The viewer wakes from its wait for a key on a
	 * timer, stepping when it plays: once it has woken and gone idle
	 * again, a replay that still played would have stepped. */
	assert_true(pty_wait_next_idle(&p, WAIT_MS));
	assert_int_equal(shown_action(&p), at);
	assert_true(pty_send_idle(&p, "."));
	assert_int_equal(shown_action(&p), at + 1);
	pty_send(&p, "+");
	need(&p, "100ms");
	pty_send(&p, "--");
	need(&p, "400ms");
	pty_send(&p, "r");
	need(&p, "[routes]");
	/* too small, then large again */
	pty_resize(&p, 8, 30);
	need(&p, "Terminal too small");
	pty_resize(&p, 24, 80);
	need(&p, "REPLAY PAUSED");
	/* on to the end */
	pty_send(&p, "++ ");
	need(&p, "REPLAY END");
	char want[32];
	snprintf(want, sizeof want, "%d/%d", (int)strlen(KEYS), (int)strlen(KEYS));
	need(&p, want);
	pty_send(&p, "q");
	assert_true(pty_wait_exit(&p, WAIT_MS));
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
	assert_false(p.altscreen);
	assert_true(p.cursor_visible);
	pty_close(&p);
}

/* --reveal: the whole level, the vault the player never sees inside too;
 * v turns it off and on; the replay still plays to the same end. */
static void test_reveal(void **state)
{
	struct fixture *f = *state;
	record(f);
	struct pty p;
	char *argv[] = { (char *)bin(), (char *)"replay", f->file, (char *)"--reveal", NULL };
	assert_true(pty_start(&p, 24, 80, argv));
	pty_send(&p, " ");
	need(&p, "REPLAY PAUSED");
	need(&p, "ms ALL  Space");
	need(&p, "#...#...#"); /* the sealed vault's inside, then the room beyond it */
	pty_send(&p, "v");
	need(&p, "ms  Space");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	int row, col;
	if (pty_find(&p, "#...#...#", &row, &col))
		fail_dump(&p, "the vault's inside shows without reveal");
	pty_send(&p, "v");
	need(&p, "ms ALL  Space");
	need(&p, "#...#...#");
	pty_send(&p, "++ ");
	char want[32];
	snprintf(want, sizeof want, "REPLAY END %d/%d", (int)strlen(KEYS), (int)strlen(KEYS));
	need(&p, want);
	need(&p, "#...#...#");
	pty_send(&p, "q");
	assert_true(pty_wait_exit(&p, WAIT_MS));
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
	pty_close(&p);
	/* and with --verify it is refused: there is nothing to show */
	char cmd[300];
	snprintf(cmd, sizeof cmd, "%s replay %s --verify --reveal 2>/dev/null", bin(), f->file);
	int rc = system(cmd);
	assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
}

static void test_sigterm_and_hangup_restore(void **state)
{
	struct fixture *f = *state;
	record(f);
	struct pty p;
	start_replay(&p, f, 24, 80);
	pty_send(&p, " ");
	need(&p, "REPLAY PAUSED");
	assert_true(p.altscreen);
	kill(p.pid, SIGTERM);
	assert_true(pty_wait_exit(&p, WAIT_MS));
	assert_true(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 128 + SIGTERM);
	assert_false(p.altscreen);
	assert_true(p.cursor_visible);
	pty_close(&p);

	start_replay(&p, f, 24, 80);
	pty_hangup(&p);
	assert_true(pty_wait_exit(&p, WAIT_MS));
	assert_true(WIFEXITED(p.status) || (WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGHUP));
	pty_close(&p);
}

/*
 * A key that stops travel is an action of its own (ACT_STOP, recorded as
 * `a x`): a game quit right after such a stop verifies, where before the
 * checksum written at the quit (travel stopped) was not the replay's
 * (travel still under way, as the journal had no stop).
 */
static void test_stopped_travel_verifies(void **state)
{
	struct fixture *f = *state;
	struct pty p;
	record_start(&p, f);
	/* the cursor 8 cells right, Enter travels there, and a key at once
	 * (already waiting when the first step is shown) stops it */
	pty_send(&p, "_L\rz");
	need(&p, "You stop: you pressed a key.");
	record_quit(&p);
	pty_close(&p);
	char out[2000];
	assert_int_equal(verify(f, out, sizeof out), 0);
	assert_non_null(strstr(out, "outcome=unfinished"));
	FILE *jf = fopen(f->file, "r");
	assert_non_null(jf);
	char line[256];
	bool stop = false;
	while (fgets(line, sizeof line, jf))
		stop = stop || strncmp(line, "a x ", 4) == 0;
	fclose(jf);
	assert_true(stop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_viewer_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_and_hangup_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reveal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stopped_travel_verifies, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
