/*
 * test_save.c - saving while playing, through the real program in a
 * pseudo-terminal: a game whose terminal is closed (hangup) resumes at the
 * same turn with the same screen, and plays on exactly as a game never
 * stopped; a damaged save is moved aside with a message naming it, never
 * deleted; a death files the journal, writes the death record and lands
 * on the high-score list.  Every game uses --data on a fresh folder.
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
#include <unistd.h>

#include <cmocka.h>

#include "pty_driver.h"

#define SQUARE "tests/levels/e2e/square.lvl"
#define DEATH "tests/levels/e2e/death.lvl"
#define ROWS 24
#define COLS 80

struct fixture {
	char data[64];      /* the --data folder */
	struct pty p;
	bool running;
};

static const char *bin(void)
{
	const char *b = getenv("ASTRAY_BIN");
	return b && *b ? b : "build/san/astray";
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->data, sizeof f->data, "/tmp/astray-save-test-XXXXXX");
	if (!mkdtemp(f->data)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (f->running)
		pty_close(&f->p);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", f->data);
	int rc = system(cmd);
	free(f);
	return rc == 0 ? 0 : -1;
}

static void fail_dump(struct fixture *f, const char *what)
{
	char buf[8192];
	pty_dump(&f->p, buf, sizeof buf);
	print_error("%s\n%s", what, buf);
	fail();
}

/* Starts `astray play LEVEL --seed 7 --data DIR [extra...]`. */
static void start(struct fixture *f, const char *level, const char *const extra[])
{
	char *argv[20];
	int n = 0;
	argv[n++] = (char *)bin();
	argv[n++] = (char *)"play";
	argv[n++] = (char *)level;
	argv[n++] = (char *)"--seed";
	argv[n++] = (char *)"7";
	argv[n++] = (char *)"--data";
	argv[n++] = f->data;
	for (int i = 0; extra && extra[i] && n < 19; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	if (f->running)
		pty_close(&f->p);
	assert_true(pty_start(&f->p, ROWS, COLS, argv));
	f->running = true;
}

static void stop(struct fixture *f)
{
	pty_close(&f->p);
	f->running = false;
}

/* The turn number on the status line, or -1. */
static int turn_of(struct fixture *f)
{
	int row, col;
	if (!pty_find(&f->p, "Turn ", &row, &col))
		return -1;
	char line[1024];
	pty_row(&f->p, row, line, sizeof line);
	return atoi(line + col + 5);
}

static void wait_turn(struct fixture *f, int turn)
{
	char want[32], what[64];
	snprintf(want, sizeof want, "Turn %d ", turn); /* the status line: "Turn 5  Gold 0" */
	if (pty_wait_text(&f->p, want, WAIT_MS) && turn_of(f) == turn)
		return;
	snprintf(what, sizeof what, "turn %d never came", turn);
	fail_dump(f, what);
}

/* Each key a move of one turn (the test level has no monsters), played
 * and the frame whole before the next. */
static void play_keys(struct fixture *f, const char *keys)
{
	for (const char *k = keys; *k; k++) {
		int t = turn_of(f);
		char s[2] = { *k, 0 };
		if (!pty_send_idle(&f->p, s) || turn_of(f) != t + 1) {
			char what[64];
			snprintf(what, sizeof what, "key %c did not take one turn from turn %d", *k, t);
			fail_dump(f, what);
		}
	}
}

/* The map rows and the status line (the message rows 0-1 are left out:
 * which messages count as new differs after a resume, by design). */
static void screen_of(struct fixture *f, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int r = 2; r < ROWS && at + 1 < size; r++) {
		char line[512];
		pty_row(&f->p, r, line, sizeof line);
		int w = snprintf(buf + at, size - at, "%s\n", line);
		if (w < 0)
			break;
		at += (size_t)w < size - at ? (size_t)w : size - at - 1;
	}
}

static bool file_has(const char *path, const char *text)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Runs a command; its standard output into out. */
static int run(const char *cmd, char *out, size_t size)
{
	FILE *fp = popen(cmd, "r");
	if (!fp)
		return -1;
	size_t n = fread(out, 1, size - 1, fp);
	out[n] = '\0';
	int st = pclose(fp);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Plays, closes the terminal, starts again, resumes: same turn, same
 * screen; then plays on and ends where a game never stopped ends. */
static void test_hangup_then_resume_is_the_same_game(void **state)
{
	struct fixture *f = *state;
	static const char first[] = "llllj", second[] = "jlkh";
	char before[4096], after[4096], resumed[4096], straight[4096], path[256];

	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	play_keys(f, first);
	screen_of(f, before, sizeof before);
	pty_hangup(&f->p); /* the terminal window is closed */
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	assert_true(exists(path));

	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Continue it?", WAIT_MS))
		fail_dump(f, "no offer to continue the saved game");
	assert_true(pty_find(&f->p, "turn 5", NULL, NULL));
	pty_answer(&f->p, "y\r");
	wait_turn(f, 5);
	if (!pty_wait_idle(&f->p, WAIT_MS))
		fail_dump(f, "the resumed game did not go idle");
	screen_of(f, after, sizeof after);
	assert_string_equal(before, after);

	play_keys(f, second);
	screen_of(f, resumed, sizeof resumed);
	pty_send(&f->p, "Q");
	if (!pty_wait_text(&f->p, "game is saved", WAIT_MS))
		fail_dump(f, "the quit question does not say the game is saved");
	pty_send(&f->p, "y");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "The game is saved in"));
	stop(f);

	/* the same keys in one go, without saving */
	start(f, SQUARE, (const char *const[]){ "--no-save", NULL });
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the unsaved game did not start");
	play_keys(f, first);
	play_keys(f, second);
	screen_of(f, straight, sizeof straight);
	assert_string_equal(resumed, straight);
	stop(f);

	/* the journal verifies, and ends where the player left */
	char cmd[512], out[2048];
	snprintf(cmd, sizeof cmd, "%s replay %s --verify", bin(), path);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "turn=9 "));
	assert_non_null(strstr(out, "outcome=unfinished"));
}

/* A save that is not a journal: a message naming the problem and the
 * file, the file kept as save.jnl.damaged-1, and a new game. */
static void test_damaged_save_is_set_aside(void **state)
{
	struct fixture *f = *state;
	char path[256], aside[256];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	snprintf(aside, sizeof aside, "%s/save.jnl.damaged-1", f->data);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("not a journal at all\n", fp);
	fclose(fp);

	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "cannot be resumed", WAIT_MS))
		fail_dump(f, "no message about the damaged save");
	if (!pty_wait_text(&f->p, "Start a new game?", WAIT_MS))
		fail_dump(f, "no offer of a new game");
	assert_true(pty_log_has(&f->p, "save.jnl.damaged-1"));
	assert_true(file_has(aside, "not a journal at all"));
	pty_answer(&f->p, "\r");
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "no new game after the damaged save");
	play_keys(f, "l");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	/* the new game took the slot; the damaged file is still there */
	assert_true(file_has(path, "astray-journal 1"));
	assert_true(file_has(aside, "not a journal at all"));
}

/* A FIFO (or any file that is not a regular one) in the save's place
 * never hangs the game: opening it for reading used to wait for a writer
 * for ever, with `q` dead.  A FIFO as save.jnl is refused, named and kept
 * aside; a FIFO as save.jnl.snap costs the snapshot, not the game. */
static void test_fifo_in_the_data_folder_does_not_hang(void **state)
{
	struct fixture *f = *state;
	char path[256], snap[256], aside[256];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	snprintf(snap, sizeof snap, "%s/save.jnl.snap", f->data);
	snprintf(aside, sizeof aside, "%s/save.jnl.damaged-1", f->data);
	assert_int_equal(mkfifo(path, 0600), 0);
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "not a regular file (a FIFO)", WAIT_MS))
		fail_dump(f, "a FIFO as the save: no message (a hang?)");
	assert_true(pty_log_has(&f->p, "save.jnl"));
	if (!pty_wait_text(&f->p, "Start a new game?", WAIT_MS))
		fail_dump(f, "no offer of a new game");
	pty_answer(&f->p, "\r");
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "no new game after the FIFO");
	play_keys(f, "ll");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	struct stat st;
	assert_int_equal(lstat(aside, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_true(file_has(path, "astray-journal 1"));

	/* the snapshot's place: the game resumes by its journal */
	unlink(snap);
	assert_int_equal(mkfifo(snap, 0600), 0);
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Continue it?", WAIT_MS))
		fail_dump(f, "a FIFO as the snapshot: no offer to continue (a hang?)");
	pty_answer(&f->p, "y\r");
	wait_turn(f, 2);
	play_keys(f, "h");
	pty_send(&f->p, "Q");
	if (!pty_wait_text(&f->p, "game is saved", WAIT_MS))
		fail_dump(f, "Q does not ask to quit");
	pty_send(&f->p, "y");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	char cmd[512], out[2048];
	snprintf(cmd, sizeof cmd, "%s replay %s --verify", bin(), path);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "turn=3 "));
}

/* A marathon game fills its save: the journal stops at its cap (the test
 * build lowers it with ASTRAY_TEST_JOURNAL_MAX; play's is what the reader
 * takes), says so before and when it does, and never says "The game is
 * saved" for a file its reader would refuse: what was saved resumes. */
static void test_full_save_says_so_and_resumes(void **state)
{
	struct fixture *f = *state;
	char path[256], cap[32];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	/* the header's size: a game of one key */
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(unlink(path), 0);
	snprintf(cap, sizeof cap, "%lld", (long long)st.st_size + 400);
	setenv("ASTRAY_TEST_JOURNAL_MAX", cap, 1);
	setenv("ASTRAY_TEST_JOURNAL_SEGMENT", "0", 1); /* no rollover: the cap itself is under test */
	start(f, SQUARE, NULL);
	unsetenv("ASTRAY_TEST_JOURNAL_MAX");
	unsetenv("ASTRAY_TEST_JOURNAL_SEGMENT");
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	play_keys(f, "l");
	if (!pty_wait_text(&f->p, "The save is nearly full", WAIT_MS))
		fail_dump(f, "no warning that the save is nearly full");
	int turn = 1;
	while (!pty_find(&f->p, "SAVING FAILED (the save is full)", NULL, NULL) && turn < 60)
		play_keys(f, turn++ % 2 ? "h" : "l");
	if (!pty_find(&f->p, "SAVING FAILED (the save is full)", NULL, NULL))
		fail_dump(f, "the save never filled");
	if (!pty_wait_text(&f->p, "NOT SAVED", WAIT_MS))
		fail_dump(f, "no NOT SAVED on the status line");
	pty_send(&f->p, "Q");
	if (!pty_wait_text(&f->p, "SAVING FAILED: the game is kept only up to where it failed", WAIT_MS))
		fail_dump(f, "the quit question does not say saving failed");
	pty_send(&f->p, "y");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "the save is full"));
	assert_false(pty_log_has(&f->p, "The game is saved in"));
	stop(f);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= atoll(cap));

	/* what was saved is a good save: offered, and it verifies */
	char cmd[512], out[2048];
	snprintf(cmd, sizeof cmd, "%s replay %s --verify", bin(), path);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "unchecked=0 "));
	int saved = atoi(strstr(out, "turn=") + 5);
	assert_true(saved > 1 && saved < turn);
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Continue it?", WAIT_MS))
		fail_dump(f, "the full save is not offered");
	pty_answer(&f->p, "y\r");
	wait_turn(f, saved);
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
}

/* A new game whose old save cannot be filed into games/ (here `games` is
 * a file) keeps the old save and plays unsaved: the status line says NOT
 * SAVED for all of it, the quit question says why, and the end says where
 * the old save waits.  Before, nothing on the screen said so. */
static void test_unsaved_new_game_says_so(void **state)
{
	struct fixture *f = *state;
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	play_keys(f, "l");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	char games[256], cmd[512], out[2048];
	snprintf(games, sizeof games, "%s/games", f->data);
	FILE *fp = fopen(games, "w");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	char *argv[] = { (char *)bin(), (char *)"play", (char *)"--dungeon", (char *)"--seed", (char *)"3",
			 (char *)"--data", f->data, NULL };
	assert_true(pty_start(&f->p, ROWS, COLS, argv));
	f->running = true;
	if (!pty_wait_text(&f->p, "NOT SAVED", WAIT_MS))
		fail_dump(f, "an unsaved game without NOT SAVED");
	pty_send(&f->p, "Q");
	if (!pty_wait_text(&f->p, "This game is NOT SAVED", WAIT_MS))
		fail_dump(f, "the quit question does not say the game is not saved");
	pty_send(&f->p, "y");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "This game was not saved: the saved game in"));
	stop(f);
	/* the old save is untouched */
	snprintf(cmd, sizeof cmd, "%s replay %s/save.jnl --verify", bin(), f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "turn=1 "));
}

/* A level whose name holds escape sequences (a .map is named by its file
 * name): the end lines after the game show them escaped, and the "Play
 * it again" command quotes the name so that a shell takes it back as it
 * is; nothing of it reaches the terminal raw (it used to retitle the
 * terminal and turn the text red). */
static void test_end_lines_escape_a_crafted_name(void **state)
{
	struct fixture *f = *state;
	char level[256];
	snprintf(level, sizeof level, "%s/evil\033]0;pwned\007\033[31m.map", f->data);
	FILE *fp = fopen(level, "w");
	assert_non_null(fp);
	fputs("type octile\nheight 6\nwidth 8\nmap\n", fp);
	for (int r = 0; r < 6; r++)
		fputs("........\n", fp);
	assert_int_equal(fclose(fp), 0);
	start(f, level, (const char *const[]){ "--no-save", "--set", "goblin.damage=0", NULL });
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	if (!pty_log_has(&f->p, "You left on evil\\x1b]0;pwned\\x07\\x1b[31m.map (level 1 of 1)") ||
	    !pty_log_has(&f->p, "/evil\\x1b]0;pwned\\x07\\x1b[31m.map' --set goblin.damage=0 --seed 7") ||
	    !pty_log_has(&f->p, "Play it again: astray play $'/tmp/"))
		fail_dump(f, "the end lines do not show the name escaped and quoted");
	assert_false(pty_log_has(&f->p, "\033]0;pwned"));
	assert_false(pty_log_has(&f->p, "\033[31m.map")); /* curses may turn red itself */
	stop(f);
}

/* A death: the end line names the killer, the journal leaves the save
 * slot with its death record beside it; a game on other levels or with
 * --set is not scored. */
static void test_death_files_the_game_and_scores_it(void **state)
{
	struct fixture *f = *state;
	start(f, DEATH, (const char *const[]){ "--set", "goblin.damage=1000", NULL });
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	for (int i = 0; i < 10 && !pty_find(&f->p, "Enter leaves", NULL, NULL); i++)
		pty_send_idle(&f->p, ".");
	if (!pty_find(&f->p, "killed by a goblin", NULL, NULL))
		fail_dump(f, "the end line does not name the killer");
	pty_send(&f->p, "\r");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "You were killed by a goblin"));
	/* a level of one's own with --set: recorded, but kept off the list
	 * that compares campaign and dungeon games */
	assert_true(pty_log_has(&f->p, "Not scored: the high-score list is for the campaign"));
	stop(f);

	char path[256], cmd[512], out[4096];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	assert_false(exists(path));
	snprintf(cmd, sizeof cmd, "cat %s/games/*-7.txt", f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "Killed by a goblin on E2E Death"));
	assert_non_null(strstr(out, "The goblin hits you"));
	snprintf(cmd, sizeof cmd, "%s replay %s/games/*-7.jnl --verify", bin(), f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "outcome=died"));
	snprintf(cmd, sizeof cmd, "%s scores --data %s", bin(), f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "No scores yet"));
}

/* Levels named on the command line with a game saved: the question says
 * so and defaults to no; then the named level plays, unsaved, and the
 * saved game waits in the slot, untouched. */
static void test_declined_save_is_kept(void **state)
{
	struct fixture *f = *state;
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	play_keys(f, "ll");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	/* the level named again: it is what the player asked for, so saying
	 * no (the default) plays it unsaved and the saved game waits */
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "keeping this save. Continue it? [y/N]", WAIT_MS))
		fail_dump(f, "no offer to continue");
	pty_answer(&f->p, "\r");
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "no new game after declining");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "This game was not saved: the saved game in"));
	stop(f);
	char path[256], cmd[512], out[1024];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	assert_true(exists(path));
	snprintf(cmd, sizeof cmd, "ls %s/games/*.jnl 2>/dev/null | wc -l", f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_int_equal(atoi(out), 0);
}

/* `astray play --no-title` on the campaign: continues the saved game at
 * turn `turn`, walks it onto the stairs of tests/levels/e2e/square.lvl
 * (from 1,4: two steps down), takes them (its only level: a victory) and
 * leaves; returns with the program ended. */
static void resume_and_win(struct fixture *f, int turn)
{
	char *argv[] = { (char *)bin(), (char *)"play", (char *)"--no-title", (char *)"--seed", (char *)"7",
			 (char *)"--data", f->data, NULL };
	if (f->running)
		pty_close(&f->p);
	assert_true(pty_start(&f->p, ROWS, COLS, argv));
	f->running = true;
	if (!pty_wait_text(&f->p, "Continue it?", WAIT_MS))
		fail_dump(f, "no offer to continue");
	pty_answer(&f->p, "y\r");
	wait_turn(f, turn);
	play_keys(f, "jj");
	pty_send(&f->p, ">");
	if (!pty_wait_text(&f->p, "Enter leaves", WAIT_MS))
		fail_dump(f, "no victory");
	pty_send(&f->p, "\r");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
}

/* A level of one's own is not scored, and no more so when it was saved
 * and resumed from the campaign's command line: the journal says how the
 * game began (a `scored 0` record).  A save from before that record
 * (taken out here) is judged by its levels: not the campaign's, so not
 * scored either. */
static void test_resumed_own_level_is_not_scored(void **state)
{
	struct fixture *f = *state;
	char path[256], cmd[512], out[4096];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	for (int old = 0; old < 2; old++) {
		start(f, SQUARE, NULL);
		if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
			fail_dump(f, "the game did not start");
		play_keys(f, "bb");
		pty_send(&f->p, "Qy");
		assert_true(pty_wait_exit(&f->p, WAIT_MS));
		stop(f);
		assert_true(file_has(path, "\nscored 0 "));
		if (old) {
			/* as a save made before the record: the line taken out (every
			 * other record keeps its own CRC) */
			snprintf(cmd, sizeof cmd, "sed -i '/^scored /d' '%s'", path);
			assert_int_equal(run(cmd, out, sizeof out), 0);
			assert_false(file_has(path, "\nscored "));
		}
		resume_and_win(f, 2);
		if (!pty_log_has(&f->p, "You escaped"))
			fail_dump(f, "the end line does not say the escape");
		if (!pty_log_has(&f->p, "Not scored: the high-score list is for the campaign"))
			fail_dump(f, old ? "an old save of one's own level was scored" : "a resumed own level was scored");
		stop(f);
		snprintf(cmd, sizeof cmd, "%s scores --data %s", bin(), f->data);
		assert_int_equal(run(cmd, out, sizeof out), 0);
		assert_non_null(strstr(out, "No scores yet"));
		assert_false(exists(path));
	}
}

/* Starts `astray play --no-title --seed 7 --data DIR`: the campaign, with
 * the line-mode offer of a saved game first. */
static void start_campaign(struct fixture *f)
{
	char *argv[] = { (char *)bin(), (char *)"play", (char *)"--no-title", (char *)"--seed", (char *)"7",
			 (char *)"--data", f->data, NULL };
	if (f->running)
		pty_close(&f->p);
	assert_true(pty_start(&f->p, ROWS, COLS, argv));
	f->running = true;
}

/* A game stopped at its very end (killed after its journal was filed,
 * before the slot was freed) is ended again at the next start: what was
 * done with it is said on the new game's screen, kept in its history (P)
 * and printed again after it, where it stays.  It used to be printed in
 * line mode just before the game's screen wiped it (or, from the title's
 * new game, not at all). */
static void test_finished_then_killed_game_is_said(void **state)
{
	struct fixture *f = *state;
	setenv("ASTRAY_TEST_FINISH_STOP", "filed", 1);
	start(f, DEATH, (const char *const[]){ "--set", "goblin.damage=1000", NULL });
	unsetenv("ASTRAY_TEST_FINISH_STOP");
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	for (int i = 0; i < 10 && !pty_find(&f->p, "Enter leaves", NULL, NULL); i++)
		pty_send_idle(&f->p, ".");
	pty_send(&f->p, "\r");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	char path[256];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	assert_true(exists(path)); /* the stop: the finished game is still in the slot */

	start_campaign(f);
	if (!pty_wait_text(&f->p, "The saved game had ended: it is filed in games/", WAIT_MS))
		fail_dump(f, "the new game's screen does not say the saved game had ended");
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	pty_send_idle(&f->p, "\033"); /* past any --More-- */
	pty_send(&f->p, "P");
	if (!pty_wait_text(&f->p, "Message history", WAIT_MS) ||
	    !pty_wait_text(&f->p, "The saved game had ended: it is filed in games/", WAIT_MS))
		fail_dump(f, "the history does not keep the word on the ended game");
	pty_send_idle(&f->p, "\033");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	/* after the game's end lines, where the screen cannot wipe it */
	const char *left = strstr(f->p.log, "You left on");
	const char *said = left ? strstr(left, "The game saved before this one had ended; it is filed now:") : NULL;
	if (!said || !strstr(said, "its record in"))
		fail_dump(f, "the end lines do not say what was done with the ended game");
	stop(f);
}

/* The screen's rows from..to-1, each trimmed, joined by one space: a
 * text wrapped over rows reads as one line again. */
static void rows_joined(struct fixture *f, int from, int to, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int r = from; r < to; r++) {
		char line[512];
		pty_row(&f->p, r, line, sizeof line);
		char *a = line, *e = line + strlen(line);
		while (*a == ' ')
			a++;
		while (e > a && e[-1] == ' ')
			e--;
		if (e == a)
			continue;
		int w = snprintf(buf + at, size - at, "%s%.*s", at ? " " : "", (int)(e - a), a);
		if (w < 0 || (size_t)w >= size - at)
			break;
		at += (size_t)w;
	}
}

/* Waits until the rows from..to-1, joined, hold text. */
static bool wait_joined(struct fixture *f, int from, int to, const char *text)
{
	char buf[8192];
	for (int i = 0; i < WAIT_MS / 50; i++) {
		pty_wait_idle(&f->p, 50);
		rows_joined(f, from, to, buf, sizeof buf);
		if (strstr(buf, text))
			return true;
	}
	return false;
}

/* A failed snapshot (here a folder stands where it goes) is said whole:
 * wrapped over the message rows and paged with --More--, not cut at the
 * width; and it is in the history (P). */
static void test_snapshot_failure_is_said_whole(void **state)
{
	struct fixture *f = *state;
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	play_keys(f, "l");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	char snap[256];
	snprintf(snap, sizeof snap, "%s/save.jnl.snap", f->data);
	/* quitting kept a snapshot where the player left: a folder takes its place */
	assert_int_equal(unlink(snap), 0);
	assert_int_equal(mkdir(snap, 0700), 0);
	snprintf(snap, sizeof snap, "%s/save.jnl.snap/in-the-way", f->data);
	assert_int_equal(mkdir(snap, 0700), 0);
	/* resumed without a snapshot: one is written at once, and fails */
	start_campaign(f);
	if (!pty_wait_text(&f->p, "Continue it?", WAIT_MS))
		fail_dump(f, "no offer to continue");
	pty_answer(&f->p, "y\r");
	wait_turn(f, 1);
	pty_send(&f->p, "h");
	if (!pty_wait_text(&f->p, "Snapshot failed", WAIT_MS))
		fail_dump(f, "no word of the failed snapshot");
	if (!pty_wait_text(&f->p, "--More--", WAIT_MS))
		fail_dump(f, "the long notice is not paged");
	pty_send(&f->p, " ");
	if (!wait_joined(f, 0, 2, "whole journal (the game itself is saved)"))
		fail_dump(f, "the notice's end never showed");
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	pty_send(&f->p, "P");
	if (!pty_wait_text(&f->p, "Message history", WAIT_MS) ||
	    !wait_joined(f, 1, ROWS, "Snapshot failed (the game is still saved): ") ||
	    !wait_joined(f, 1, ROWS, "whole journal (the game itself is saved)"))
		fail_dump(f, "the history does not keep the failed snapshot whole");
	pty_send_idle(&f->p, "\033");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	assert_true(pty_log_has(&f->p, "The game is saved in"));
}

/* A data folder where no save can be written: the message says how to
 * play anyway (--no-save, or another --data folder).  A user's read-only
 * folder (mode 0500); root writes into any folder, so as root a folder of
 * /proc, where nothing can be created, stands in for it. */
static void test_read_only_data_folder_says_no_save(void **state)
{
	struct fixture *f = *state;
	char folder[128];
	if (geteuid() != 0) {
		snprintf(folder, sizeof folder, "%s/ro", f->data);
		assert_int_equal(mkdir(folder, 0500), 0);
	} else {
		snprintf(folder, sizeof folder, "/proc/self/fdinfo");
	}
	char *argv[] = { (char *)bin(), (char *)"play", (char *)SQUARE, (char *)"--data", folder, NULL };
	assert_true(pty_start(&f->p, ROWS, COLS, argv));
	f->running = true;
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	if (!pty_log_has(&f->p, "astray: cannot save the game: ") || !pty_log_has(&f->p, "--no-save"))
		fail_dump(f, "the message does not say --no-save");
	assert_true(WIFEXITED(f->p.status));
	assert_int_equal(WEXITSTATUS(f->p.status), 1);
	stop(f);
	/* and it plays with --no-save */
	char *argv2[] = { (char *)bin(), (char *)"play", (char *)SQUARE, (char *)"--data", folder, (char *)"--no-save",
			  NULL };
	assert_true(pty_start(&f->p, ROWS, COLS, argv2));
	f->running = true;
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start with --no-save");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	if (geteuid() != 0)
		chmod(folder, 0700); /* for the teardown's rm */
}

/* A marathon game goes on in segments (the test build rolls over every
 * 200 bytes of records with ASTRAY_TEST_JOURNAL_SEGMENT): the save is
 * save.jnl and save.jnl.seg-1, -2..., it verifies whole, resumes at its
 * turn, and when the game ends its segments are filed with it. */
static void test_marathon_save_rolls_over(void **state)
{
	struct fixture *f = *state;
	char path[256], seg[300], cmd[700], out[4096];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	setenv("ASTRAY_TEST_JOURNAL_SEGMENT", "200", 1);
	start(f, SQUARE, NULL);
	if (!pty_wait_text(&f->p, "Turn 0", WAIT_MS))
		fail_dump(f, "the game did not start");
	play_keys(f, "bb"); /* to 1,4, two steps above the exit */
	for (int i = 0; i < 14; i++)
		play_keys(f, "lh");
	pty_send(&f->p, "Qy");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
	stop(f);
	snprintf(seg, sizeof seg, "%s.seg-2", path);
	assert_true(exists(seg));
	assert_true(file_has(path, "astray-journal 2 "));
	snprintf(cmd, sizeof cmd, "%s replay %s --verify", bin(), path);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, " actions=30 "));
	assert_non_null(strstr(out, " turn=30 "));
	resume_and_win(f, 30);
	unsetenv("ASTRAY_TEST_JOURNAL_SEGMENT");
	if (!pty_log_has(&f->p, "You escaped"))
		fail_dump(f, "no escape");
	stop(f);
	assert_false(exists(path));
	snprintf(seg, sizeof seg, "%s.seg-1", path);
	assert_false(exists(seg));
	/* filed with its segments: it replays from games/ */
	snprintf(cmd, sizeof cmd, "ls %s/games/*.jnl.seg-1 | wc -l", f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_int_equal(atoi(out), 1);
	snprintf(cmd, sizeof cmd, "%s replay %s/games/*.jnl --verify", bin(), f->data);
	assert_int_equal(run(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, " outcome=won "));
	assert_non_null(strstr(out, " actions=33 "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hangup_then_resume_is_the_same_game, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_save_is_set_aside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_in_the_data_folder_does_not_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(test_end_lines_escape_a_crafted_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_save_says_so_and_resumes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsaved_new_game_says_so, setup, teardown),
		cmocka_unit_test_setup_teardown(test_death_files_the_game_and_scores_it, setup, teardown),
		cmocka_unit_test_setup_teardown(test_declined_save_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resumed_own_level_is_not_scored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_finished_then_killed_game_is_said, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_failure_is_said_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_data_folder_says_no_save, setup, teardown),
		cmocka_unit_test_setup_teardown(test_marathon_save_rolls_over, setup, teardown),
	};
	return cmocka_run_group_tests_name("save", tests, NULL, NULL);
}
