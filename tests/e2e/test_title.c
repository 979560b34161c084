/*
 * test_title.c - the title screen of a bare `astray` ($ASTRAY_BIN, the
 * sanitized build) in a pseudo-terminal, as a player meets it: the menu
 * appears; Enter on "New dungeon" starts a generated dungeon whose first
 * level (map and status line) is drawn; "Dungeon from a seed" takes typed
 * digits and plays that seed's dungeon (the same first level as
 * `play --dungeon --seed`); a click on an entry chooses it; q leaves the
 * terminal as it was; the high scores appear only when there are some;
 * a resize redraws.  Each test runs with its own empty data folder.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_driver.h"
#include "run_capture.h"

struct title_test {
	struct pty p;
	char data[64];    /* XDG_DATA_HOME for this test */
};

static const char *bin(void)
{
	const char *b = getenv("ASTRAY_BIN");
	return b && *b ? b : "build/san/astray";
}

static void fail_dump(struct title_test *t, const char *what)
{
	char buf[8192];
	pty_dump(&t->p, buf, sizeof buf);
	print_error("%s\n%s", what, buf);
	fail();
}

static void expect(struct title_test *t, const char *text)
{
	if (!pty_wait_text(&t->p, text, WAIT_MS)) {
		char what[160];
		snprintf(what, sizeof what, "never saw \"%s\"", text);
		fail_dump(t, what);
	}
}

static int setup(void **state)
{
	struct title_test *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	snprintf(t->data, sizeof t->data, "/tmp/astray-title-XXXXXX");
	if (!mkdtemp(t->data))
		return -1;
	setenv("XDG_DATA_HOME", t->data, 1); /* the child inherits it */
	setenv("ASTRAY_PTY_KEEP_DATA_HOME", "1", 1);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct title_test *t = *state;
	pty_close(&t->p);
	/* the folder is this test's own mkdtemp one: saves, games/, scores */
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->data);
	if (strncmp(t->data, "/tmp/astray-title-", 18) == 0 && system(cmd) != 0)
		print_error("could not remove %s\n", t->data);
	unsetenv("XDG_DATA_HOME");
	unsetenv("ASTRAY_PTY_KEEP_DATA_HOME");
	free(t);
	return 0;
}

/* Starts argv (NULL-terminated after the binary) in a rows x cols terminal. */
static void start(struct title_test *t, int rows, int cols, const char *arg1, const char *arg2)
{
	char *argv[] = { (char *)bin(), (char *)arg1, (char *)arg2, NULL };
	if (!arg1)
		argv[1] = NULL;
	else if (!arg2)
		argv[2] = NULL;
	assert_true(pty_start(&t->p, rows, cols, argv));
}

/* The screen whole: the program has drawn it and waits for a key (not
 * for a prompt on stdin: those write no idle marker). */
static void settle(struct title_test *t)
{
	if (!pty_wait_idle(&t->p, WAIT_MS))
		fail_dump(t, "the program did not go idle");
}

static void start_title(struct title_test *t)
{
	start(t, 24, 80, NULL, NULL);
	expect(t, "New dungeon");
	settle(t);
	expect(t, "Quit");
}

/* The status line: the last row that says "HP ". */
static bool status_line(struct title_test *t, char *buf, size_t size)
{
	for (int r = t->p.rows - 1; r >= 0; r--) {
		pty_row(&t->p, r, buf, size);
		if (strstr(buf, "HP "))
			return true;
	}
	return false;
}

/* The game is on: the status line and the player on the map. */
static void expect_game(struct title_test *t, char *status, size_t size)
{
	expect(t, "HP 30/30");
	expect(t, "@");
	settle(t);
	assert_true(status_line(t, status, size));
}

/* Q y leaves a game; the program exits 0 with the terminal restored.
 * A level's opening messages may wait behind --More--, which takes a key
 * each: Q is sent until the question comes. */
static void quit_game(struct title_test *t)
{
	bool asked = false;
	for (int i = 0; i < 6 && !asked; i++) {
		pty_send_idle(&t->p, "Q");
		asked = pty_find(&t->p, "Really quit", NULL, NULL);
	}
	if (!asked)
		fail_dump(t, "Q never asked to quit");
	pty_send(&t->p, "y");
	if (!pty_wait_exit(&t->p, WAIT_MS))
		fail_dump(t, "the program did not exit after Q y");
	assert_true(WIFEXITED(t->p.status));
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
	assert_false(t->p.altscreen);
	assert_true(t->p.cursor_visible);
}

/* The seed the game printed at its end (seed=N), "" if none. */
static const char *seed_of(struct title_test *t, char *seed, size_t size)
{
	seed[0] = '\0';
	const char *at = t->p.log ? strstr(t->p.log, "seed=") : NULL;
	if (at && size >= 32)
		sscanf(at + 5, "%31[0-9]", seed);
	return seed;
}

static void test_menu(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	expect(t, "Dungeon from a seed");
	expect(t, "The campaign");
	expect(t, "Quit");
	int row, col;
	assert_false(pty_find(&t->p, "Continue", &row, &col));     /* no saved game offered */
	assert_false(pty_find(&t->p, "High scores", &row, &col));  /* no scores yet */
	assert_true(t->p.altscreen);
	/* the cursor starts on New dungeon */
	assert_true(pty_find(&t->p, "> New dungeon", &row, &col));
	pty_send(&t->p, "j");
	expect(t, "> Dungeon from a seed");
	pty_send(&t->p, "\033OA"); /* up, as xterm sends it in keypad mode (kcuu1) */
	expect(t, "> New dungeon");
	pty_send(&t->p, "k"); /* wraps to the bottom */
	expect(t, "> Quit");
	/* a letter not taken says why: no saved game, no scores, no entry */
	pty_send(&t->p, "c");
	expect(t, "There is no saved game to continue.");
	pty_send(&t->p, "H");
	expect(t, "There are no high scores yet");
	pty_send(&t->p, "x");
	expect(t, "'x' picks nothing");
	expect(t, "> Quit"); /* and nothing else moved */
}

static void test_new_dungeon(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_send(&t->p, "\r");
	char status[256];
	expect_game(t, status, sizeof status);
	if (!strstr(status, "(1/10)"))
		fail_dump(t, "the status line does not say level 1 of 10");
	quit_game(t);
	assert_true(pty_log_has(&t->p, "outcome=quit"));
	assert_true(pty_log_has(&t->p, "This dungeon again: astray play --dungeon --seed "));
}

/* A dungeon is saved like the campaign: quit, and the next start offers
 * it on the title; its journal replays; a new game chosen on the title
 * files the saved one away to games/ instead of asking in line mode. */
static void test_dungeon_saved(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_send(&t->p, "\r");
	char status[256];
	expect_game(t, status, sizeof status);
	/* past any --More--, then two turns of waiting (apart: ESC . at once
	 * is Alt-.) */
	pty_send_idle(&t->p, "\033");
	pty_send(&t->p, "..");
	if (!pty_wait_text(&t->p, "Turn 2", WAIT_MS))
		fail_dump(t, "two waits did not make turn 2");
	assert_true(status_line(t, status, sizeof status));
	quit_game(t);
	assert_true(pty_log_has(&t->p, "The game is saved in"));
	pty_close(&t->p);

	char cmd[512];
	int st = -1;
	snprintf(cmd, sizeof cmd, "%s replay --verify %s/astray/save.jnl", bin(), t->data);
	char *out = run_capture(cmd, &st);
	if (st != 0 || !strstr(out, "outcome=unfinished"))
		print_error("%s\n", out);
	assert_int_equal(st, 0);
	free(out);

	start_title(t);
	expect(t, "> Continue saved game  turn 2"); /* the turn it was saved at */
	pty_send(&t->p, "\r");
	char again[256];
	expect_game(t, again, sizeof again);
	expect(t, "Welcome back"); /* the replayed log is history, not news */
	settle(t);
	int mr, mc;
	assert_false(pty_find(&t->p, "--More--", &mr, &mc));
	assert_string_equal(status, again); /* the same dungeon level and turn */
	quit_game(t);
	/* a continued dungeon still says how to play it again */
	char line[96], seed[32];
	snprintf(line, sizeof line, "This dungeon again: astray play --dungeon --seed %s",
		 seed_of(t, seed, sizeof seed));
	if (!pty_log_has(&t->p, line))
		fail_dump(t, "a continued dungeon did not end with \"This dungeon again\"");
	pty_close(&t->p);

	start_title(t);
	pty_send(&t->p, "n"); /* New dungeon, though a game is saved: asked first */
	expect(t, "A game is saved. Start a new dungeon instead?");
	pty_send(&t->p, "y");
	expect_game(t, status, sizeof status);
	quit_game(t);
	assert_true(pty_log_has(&t->p, "The game saved before this one is kept in"));
	assert_false(pty_log_has(&t->p, "Continue it?"));
	snprintf(cmd, sizeof cmd, "ls %s/astray/games | grep -c '[.]jnl$'", t->data);
	out = run_capture(cmd, &st);
	assert_string_equal(out, "1\n");
	free(out);
}

/* Two programs on one data folder would interleave two games in one
 * save.jnl: the second is refused with the first's pid while the first
 * plays, and starts once the first has ended. */
static void test_one_game_per_data_folder(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	struct pty second;
	memset(&second, 0, sizeof second);
	char *argv[] = { (char *)bin(), NULL };
	assert_true(pty_start(&second, 24, 80, argv));
	if (!pty_wait_exit(&second, WAIT_MS)) {
		pty_close(&second);
		fail_dump(t, "the second astray did not stop");
	}
	assert_true(WIFEXITED(second.status));
	assert_int_equal(WEXITSTATUS(second.status), 1);
	char pid[48];
	snprintf(pid, sizeof pid, "another astray (pid %ld)", (long)t->p.pid);
	bool named = pty_log_has(&second, pid);
	assert_false(second.altscreen);
	pty_close(&second);
	assert_true(named);
	pty_send(&t->p, "q");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
	pty_close(&t->p);
	start_title(t); /* the lock went with the first program */
	pty_send(&t->p, "q");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
}

/* The title shows `entry`; Continue says `why` it cannot resume and asks
 * whether a new game starts; n leaves with 0 and the terminal as it was. */
static void continue_refused(struct title_test *t, const char *entry, const char *why)
{
	start_title(t);
	expect(t, entry);
	pty_send(&t->p, "\r");
	expect(t, why);
	expect(t, "Start a new game?");
	pty_answer(&t->p, "n\r");
	if (!pty_wait_exit(&t->p, WAIT_MS))
		fail_dump(t, "n did not end the program");
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
	assert_false(t->p.altscreen);
}

/* Continue on a save that cannot be resumed says why and asks before a
 * new game starts; the damaged file is kept. */
static void test_continue_damaged_save_asks(void **state)
{
	struct title_test *t = *state;
	char path[160];
	snprintf(path, sizeof path, "%s/astray", t->data);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/astray/save.jnl", t->data);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("junkjunkjunk\n", f);
	fclose(f);
	continue_refused(t, "> Continue saved game", "cannot be resumed");
	char cmd[256];
	int st = -1;
	snprintf(cmd, sizeof cmd, "cat %s/astray/save.jnl.damaged-1", t->data);
	char *out = run_capture(cmd, &st);
	assert_string_equal(out, "junkjunkjunk\n");
	free(out);
}

/* A save of other rules says so beside Continue, before it is chosen;
 * chosen, it is kept under a name with its rules. */
static void test_continue_other_rules(void **state)
{
	struct title_test *t = *state;
	char cmd[512];
	int st = -1;
	snprintf(cmd, sizeof cmd, "mkdir -p %s/astray && cp tests/golden/rules1/hex-options.jnl %s/astray/save.jnl",
		 t->data, t->data);
	free(run_capture(cmd, &st));
	assert_int_equal(st, 0);
	/* a new game asks in words that fit: it cannot be resumed, it is kept */
	start_title(t);
	pty_send(&t->p, "n");
	expect(t, "A game of rules version 1 is saved, which this astray cannot resume.");
	pty_send(&t->p, "x");
	expect(t, "The saved game stays as it is.");
	pty_send(&t->p, "q");
	if (!pty_wait_exit(&t->p, WAIT_MS))
		fail_dump(t, "q did not end the program");
	pty_close(&t->p);
	continue_refused(t, "> Continue saved game  rules 1: kept, not resumed", "played under rules version 1");
	snprintf(cmd, sizeof cmd, "cmp tests/golden/rules1/hex-options.jnl %s/astray/save.jnl.rules1-1", t->data);
	free(run_capture(cmd, &st));
	assert_int_equal(st, 0);
}

/* A FIFO in the save's place: the title comes up (its look at the save
 * must not wait for a writer), with no word beside Continue; chosen, it
 * is refused as not a regular file. */
static void test_fifo_save(void **state)
{
	struct title_test *t = *state;
	char path[160];
	snprintf(path, sizeof path, "%s/astray", t->data);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/astray/save.jnl", t->data);
	assert_int_equal(mkfifo(path, 0600), 0);
	continue_refused(t, "> Continue saved game", "not a regular file");
	int row, col;
	assert_false(pty_find(&t->p, "turn", &row, &col));
}

static void test_seed_entry(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_send(&t->p, "d");
	expect(t, "Seed:");
	pty_send(&t->p, "4x");    /* a letter is not part of a number: said, not taken */
	expect(t, "'x' is not a digit");
	pty_send(&t->p, "2");     /* the next key takes the word away */
	expect(t, "Seed: 42");
	if (!pty_wait_gone(&t->p, "is not a digit", WAIT_MS))
		fail_dump(t, "the word on the x stayed");
	pty_send(&t->p, "9\177"); /* Backspace takes the 9 back */
	if (!pty_wait_gone(&t->p, "Seed: 429", WAIT_MS))
		fail_dump(t, "Backspace did not erase");
	pty_send(&t->p, "\r");
	char status[256];
	expect_game(t, status, sizeof status);
	quit_game(t);
	assert_true(pty_log_has(&t->p, "seed=42 outcome=quit"));
	assert_true(pty_log_has(&t->p, "--dungeon --seed 42"));
	pty_close(&t->p);

	/* the same dungeon, asked for on the command line: the same first level */
	start(t, 24, 80, "--dungeon", "--seed=42");
	char again[256];
	expect_game(t, again, sizeof again);
	assert_string_equal(status, again);
	quit_game(t);
}

/* The largest seed has 20 digits, and the entry takes them all: a seed
 * copied from a game's end is the seed played.  A digit past it is
 * refused with a word why, never dropped unseen. */
static void test_seed_entry_largest(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_send(&t->p, "d");
	expect(t, "Seed:");
	pty_send(&t->p, "18446744073709551615");
	expect(t, "Seed: 18446744073709551615");
	pty_send(&t->p, "7");
	expect(t, "Not taken: the largest seed is 18446744073709551615.");
	int row, col;
	assert_false(pty_find(&t->p, "Seed: 184467440737095516157", &row, &col));
	pty_send(&t->p, "\r");
	char status[256];
	expect_game(t, status, sizeof status);
	quit_game(t);
	assert_true(pty_log_has(&t->p, "seed=18446744073709551615 outcome=quit"));
	assert_true(pty_log_has(&t->p, "This dungeon again: astray play --dungeon --seed 18446744073709551615\r\n"));
}

/* Seed 0 is a seed like any other: the end line plays that dungeon
 * again (it printed the campaign's "Play it again" line). */
static void test_dungeon_seed_zero_again(void **state)
{
	struct title_test *t = *state;
	start(t, 24, 80, "--dungeon", "--seed=0");
	char status[256];
	expect_game(t, status, sizeof status);
	if (!strstr(status, "(1/10)"))
		fail_dump(t, "--dungeon --seed 0 did not start a dungeon");
	quit_game(t);
	assert_true(pty_log_has(&t->p, "seed=0 outcome=quit"));
	if (!pty_log_has(&t->p, "This dungeon again: astray play --dungeon --seed 0\r\n"))
		fail_dump(t, "no \"This dungeon again\" line for seed 0");
	assert_false(pty_log_has(&t->p, "Play it again"));
}

static void test_seed_escape(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_send(&t->p, "d");
	expect(t, "Seed:");
	pty_send(&t->p, "\033");
	if (!pty_wait_gone(&t->p, "Seed:", WAIT_MS))
		fail_dump(t, "Esc did not leave the seed prompt");
	pty_send(&t->p, "d\r"); /* Enter on no digits: back to the menu with a word why */
	expect(t, "A seed is a number");
	pty_send(&t->p, "q");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
}

static void test_quit_leaves_terminal_clean(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_send(&t->p, "q");
	if (!pty_wait_exit(&t->p, WAIT_MS))
		fail_dump(t, "q did not quit");
	assert_true(WIFEXITED(t->p.status));
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
	assert_true(pty_log_has(&t->p, "\033[?1049h"));
	assert_true(pty_log_has(&t->p, "\033[?1049l"));
	assert_false(t->p.altscreen);
	assert_true(t->p.cursor_visible);
	assert_false(pty_log_has(&t->p, "outcome=")); /* no game was played */
}

static void test_click_campaign(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	int row, col;
	assert_true(pty_find(&t->p, "The campaign", &row, &col));
	pty_click(&t->p, 0, col + 3, row, true); /* press, then release */
	char status[256];
	expect_game(t, status, sizeof status);
	if (!strstr(status, "First Steps"))
		fail_dump(t, "a click on the campaign did not start the campaign's first level");
	quit_game(t);
	assert_false(pty_log_has(&t->p, "This dungeon again"));
}

static void test_click_quit(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	int row, col;
	assert_true(pty_find(&t->p, "Quit", &row, &col));
	pty_click(&t->p, 0, col, row, false); /* one write: CLICKED */
	if (!pty_wait_exit(&t->p, WAIT_MS))
		fail_dump(t, "a click on Quit did not quit");
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
	assert_false(t->p.altscreen);
}

/* The pointer resting on an entry chooses it, as the arrows do (the
 * title asks the terminal for its motion, mode 1003, and turns it off at
 * the end); Enter then acts on it. */
static void test_pointer_chooses_entry(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	assert_true(pty_log_has(&t->p, "\033[?1003h"));
	int row, col;
	assert_true(pty_find(&t->p, "Options", &row, &col));
	pty_hover(&t->p, col + 2, row);
	expect(t, "> Options");
	pty_send(&t->p, "\r");
	expect(t, "> Animation");
	pty_send(&t->p, "q");
	expect(t, "New dungeon");
	assert_true(pty_find(&t->p, "Quit", &row, &col));
	pty_hover(&t->p, col + 1, row);
	expect(t, "> Quit");
	pty_send(&t->p, "\r");
	if (!pty_wait_exit(&t->p, WAIT_MS))
		fail_dump(t, "Enter on the entry under the pointer did not quit");
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
	assert_true(pty_log_has(&t->p, "\033[?1003l"));
	assert_false(t->p.altscreen);
}

static void test_scores_shown(void **state)
{
	struct title_test *t = *state;
	char path[160];
	snprintf(path, sizeof path, "%s/astray", t->data);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/astray/scores.txt", t->data);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("astray-scores 1\n", f);
	for (int i = 0; i < 6; i++)
		fprintf(f, "%d %d 100 %d 1700000000 died killed by rat number %d\n", 900 - 100 * i, 3, 7000 + i, i + 1);
	fclose(f);
	start_title(t);
	expect(t, "High scores");
	pty_send(&t->p, "h");
	expect(t, "rat number 1");
	expect(t, "rat number 5");
	settle(t);
	int row, col;
	assert_false(pty_find(&t->p, "rat number 6", &row, &col)); /* the top five */
	assert_true(pty_find(&t->p, "seed 7000", &row, &col));
	pty_send(&t->p, " ");
	expect(t, "New dungeon");
	pty_send(&t->p, "q");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
}

/* Lists by mode (format 2): the title opens on the list "New dungeon"
 * plays into (dungeons of 10 levels); Tab shows the next, wrapping from
 * the last to the first (the campaign's). */
static void test_scores_by_mode(void **state)
{
	struct title_test *t = *state;
	char path[160];
	snprintf(path, sizeof path, "%s/astray", t->data);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/astray/scores.txt", t->data);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("astray-scores 2\n"
	      "900 3 100 1 1700000000 died campaign killed by a campaign rat\n"
	      "700 10 2000 2 1700000000 won dungeon-10 escaped the ten\n"
	      "3000 9 900 3 1700000000 died dungeon-25 killed by a deep troll\n",
	      f);
	fclose(f);
	start_title(t);
	expect(t, "High scores");
	pty_send(&t->p, "h");
	expect(t, "High scores: dungeons of 10 levels");
	expect(t, "escaped the ten");
	settle(t);
	int row, col;
	assert_false(pty_find(&t->p, "deep troll", &row, &col)); /* another list */
	pty_send(&t->p, "\t");
	expect(t, "High scores: dungeons of 25 levels");
	expect(t, "deep troll");
	pty_send(&t->p, "\t");
	expect(t, "High scores: the campaign");
	expect(t, "campaign rat");
	pty_send(&t->p, " ");
	expect(t, "New dungeon");
	pty_send(&t->p, "q");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
}

static void test_resize(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	pty_resize(&t->p, 14, 50);
	expect(t, "A S T R A Y"); /* no room for the big name */
	expect(t, "The campaign");
	pty_resize(&t->p, 6, 30);
	expect(t, "too small");
	expect(t, "30x6, need 40x10"); /* the size, the need and the way out */
	expect(t, "q quits");
	pty_resize(&t->p, 30, 100);
	expect(t, "The campaign");
	if (!pty_wait_gone(&t->p, "too small", WAIT_MS))
		fail_dump(t, "the notice stayed after growing");
	pty_send(&t->p, "\033");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
}

/* --no-title and level arguments go straight to the game. */
static void test_no_title(void **state)
{
	struct title_test *t = *state;
	start(t, 24, 80, "--no-title", "--seed=1");
	char status[256];
	expect_game(t, status, sizeof status);
	settle(t);
	int row, col;
	assert_false(pty_find(&t->p, "New dungeon", &row, &col));
	quit_game(t);
}

static void test_sigterm(void **state)
{
	struct title_test *t = *state;
	start_title(t);
	kill(t->p.pid, SIGTERM);
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(t->p.status), 128 + SIGTERM);
	assert_false(t->p.altscreen);
	assert_true(t->p.cursor_visible);
}

/* Makes DATA/astray/save.jnl by playing two turns of a dungeon and quitting. */
static void make_saved_game(struct title_test *t)
{
	start_title(t);
	pty_send(&t->p, "\r");
	char status[256];
	expect_game(t, status, sizeof status);
	pty_send_idle(&t->p, "\033");
	pty_send(&t->p, "..");
	if (!pty_wait_text(&t->p, "Turn 2", WAIT_MS))
		fail_dump(t, "two waits did not make turn 2");
	quit_game(t);
	pty_close(&t->p);
}

/* A new game beside a saved one asks first, one key, no by default:
 * Enter, Esc or a click keep the saved game (Continue still offered and
 * nothing filed away); y starts the new game. */
static void test_new_game_asks_first(void **state)
{
	struct title_test *t = *state;
	make_saved_game(t);
	start_title(t);
	expect(t, "> Continue saved game");
	const char *keep[] = { "\r", "\033", "x" };
	const char *entry[] = { "n", "t", "d" };
	for (int i = 0; i < 3; i++) {
		pty_send(&t->p, entry[i]);
		expect(t, "A game is saved. Start");
		expect(t, "[y/N]");
		settle(t);
		pty_send(&t->p, keep[i]);
		expect(t, "The saved game is kept: Continue plays it.");
		settle(t);
		if (pty_find(&t->p, "HP 30/30", NULL, NULL) || pty_find(&t->p, "Seed:", NULL, NULL))
			fail_dump(t, "a new game started without a yes");
	}
	/* a click on the question is a no as well */
	pty_send(&t->p, "n");
	expect(t, "[y/N]");
	settle(t);
	pty_click(&t->p, 0, 5, 5, false);
	expect(t, "The saved game is kept");
	char cmd[256];
	int st = -1;
	snprintf(cmd, sizeof cmd, "ls %s/astray/games 2>/dev/null | grep -c '[.]jnl$'", t->data);
	char *out = run_capture(cmd, &st);
	assert_string_equal(out, "0\n"); /* nothing filed away */
	free(out);
	/* the seed entry asks before the digits */
	pty_send(&t->p, "d");
	expect(t, "Start a dungeon from a seed instead?");
	pty_send(&t->p, "y");
	expect(t, "Seed:");
	pty_send(&t->p, "\033");
	if (!pty_wait_gone(&t->p, "Seed:", WAIT_MS))
		fail_dump(t, "Esc did not leave the seed prompt");
	pty_send(&t->p, "t");
	expect(t, "Start the campaign instead?");
	pty_send(&t->p, "Y");
	char status[256];
	expect_game(t, status, sizeof status);
	if (!strstr(status, "First Steps"))
		fail_dump(t, "y did not start the campaign");
	quit_game(t);
	assert_true(pty_log_has(&t->p, "The game saved before this one is kept in"));
}

/* Starts the program at exe (argv[0]) from a fresh temporary folder
 * `away` (the caller removes it), so that its current folder is not
 * astray's source tree. */
static void start_away(struct title_test *t, const char *exe, char *away, size_t size)
{
	char here[4096];
	assert_non_null(getcwd(here, sizeof here));
	snprintf(away, size, "/tmp/astray-title-cwd-XXXXXX");
	assert_non_null(mkdtemp(away));
	assert_int_equal(chdir(away), 0);
	char *argv[] = { (char *)exe, NULL };
	bool started = pty_start(&t->p, 24, 50, argv);
	assert_int_equal(chdir(here), 0);
	assert_true(started);
}

static void remove_tree(const char *dir)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (strncmp(dir, "/tmp/astray-title-cwd-", 22) == 0 && system(cmd) != 0)
		print_error("could not remove %s\n", dir);
}

/* Outside the source tree, with no campaign installed and none beside
 * the program (a copy of it in a folder of its own), the title offers
 * only what can start (a saved game, the scores, Quit) and says why. */
static void test_title_without_campaign(void **state)
{
	struct title_test *t = *state;
	struct stat st;
	if (stat("/usr/local/share/astray/levels", &st) == 0) {
		print_message("a campaign is installed: the missing campaign cannot be shown\n");
		skip();
	}
	char exe[4096], lone[160], away[64], cmd[8400];
	assert_non_null(realpath(bin(), exe));
	snprintf(lone, sizeof lone, "/tmp/astray-title-cwd-XXXXXX");
	assert_non_null(mkdtemp(lone));
	snprintf(cmd, sizeof cmd, "mkdir '%s/bin' && cp '%s' '%s/bin/astray'", lone, exe, lone);
	assert_int_equal(system(cmd), 0);
	snprintf(exe, sizeof exe, "%s/bin/astray", lone);
	start_away(t, exe, away, sizeof away);
	remove_tree(away);
	expect(t, "Quit");
	expect(t, "No campaign and no bestiary");
	expect(t, "make install");
	settle(t);
	int row, col;
	assert_false(pty_find(&t->p, "New dungeon", &row, &col));
	assert_false(pty_find(&t->p, "The campaign", &row, &col));
	assert_false(pty_find(&t->p, "Dungeon from a seed", &row, &col));
	/* a key that chose them before does nothing now */
	pty_send(&t->p, "n");
	settle(t);
	assert_false(pty_find(&t->p, "HP ", &row, &col));
	pty_send(&t->p, "q");
	assert_true(pty_wait_exit(&t->p, WAIT_MS));
	remove_tree(lone);
	assert_int_equal(WEXITSTATUS(t->p.status), 0);
	assert_false(pty_log_has(&t->p, "no bestiary.txt found")); /* nothing failed after the title */
}

/* The program run from any other folder finds the levels it came with
 * (the source tree it was built in): the title offers the dungeons and
 * the campaign, and the campaign starts at its first level. */
static void test_title_from_another_folder(void **state)
{
	struct title_test *t = *state;
	char exe[4096], away[64];
	assert_non_null(realpath(bin(), exe));
	start_away(t, exe, away, sizeof away);
	remove_tree(away);
	expect(t, "New dungeon");
	expect(t, "The campaign");
	settle(t);
	int row, col;
	assert_false(pty_find(&t->p, "No campaign", &row, &col));
	/* the campaign is the one of the tree: its first level */
	assert_true(pty_find(&t->p, "The campaign", &row, &col));
	pty_click(&t->p, 0, col, row, false);
	expect(t, "First Steps");
	quit_game(t);
}

/* At 40 to 60 columns the title wraps its lines rather than cut them:
 * the tagline and the hint show to their last word. */
static void test_title_wraps(void **state)
{
	struct title_test *t = *state;
	static const int widths[] = { 40, 48, 60 };
	for (int i = 0; i < 3; i++) {
		start(t, 24, widths[i], NULL, NULL);
		expect(t, "New dungeon");
		settle(t);
		char what[96];
		snprintf(what, sizeof what, "at %d columns the title lost words", widths[i]);
		if (!pty_find(&t->p, "maps", NULL, NULL) || !pty_find(&t->p, "quits", NULL, NULL))
			fail_dump(t, what);
		pty_send(&t->p, "q");
		assert_true(pty_wait_exit(&t->p, WAIT_MS));
		pty_close(&t->p);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_menu), T(test_new_dungeon), T(test_dungeon_saved), T(test_one_game_per_data_folder),
		T(test_continue_damaged_save_asks),
		T(test_continue_other_rules),
		T(test_fifo_save),
		T(test_seed_entry), T(test_seed_escape), T(test_seed_entry_largest), T(test_dungeon_seed_zero_again),
		T(test_quit_leaves_terminal_clean), T(test_click_campaign), T(test_click_quit),
		T(test_pointer_chooses_entry),
		T(test_scores_shown), T(test_scores_by_mode), T(test_resize), T(test_no_title), T(test_sigterm),
		T(test_new_game_asks_first), T(test_title_without_campaign),
		T(test_title_from_another_folder), T(test_title_wraps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
