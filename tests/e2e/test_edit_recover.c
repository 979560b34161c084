/*
 * test_edit_recover.c - `astray edit` ($ASTRAY_BIN) in a pseudo-terminal
 * after a session was stopped with unsaved changes: the next start asks
 * (before the screen, as play asks about a saved game) whether to restore
 * LEVEL.recover; y opens the changes as unsaved edits of LEVEL (one undo
 * step: z shows LEVEL as saved) and s writes LEVEL and removes
 * LEVEL.recover (kept while the restore is undone); n opens LEVEL and keeps
 * LEVEL.recover; --recover and --discard-recover decide without asking; a
 * recovery with errors still opens; what a rescue cut short left is
 * adopted when whole and kept and named when not; a second rescue keeps
 * an older LEVEL.recover as LEVEL.recover.1; astray edit LEVEL.recover
 * still edits that file.  Also: void cells are drawn as a dim '_' with a
 * legend line.
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <dirent.h>

#include "pty_check.h"
#include "pty_driver.h"

#define FIXTURE "tests/levels/e2e/square.lvl" /* start 3,2; exit 1,6 */
#define BESTIARY "tests/levels/bestiary.txt"
#define QUESTION "Restore them as unsaved changes of the level?"

struct ed {
	struct pty p;
	char dir[64];
	char file[128];
	char recover[160];
	char *orig;        /* the fixture's text */
	int ox, oy;        /* screen position of map cell 0,0 */
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void setup_dir(struct ed *e)
{
	memset(e, 0, sizeof *e);
	snprintf(e->dir, sizeof e->dir, "/tmp/astray-edrec-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->file, sizeof e->file, "%s/s.lvl", e->dir);
	snprintf(e->recover, sizeof e->recover, "%s.recover", e->file);
	e->orig = pty_slurp(FIXTURE);
	assert_non_null(e->orig);
	put(e->file, e->orig);
}

static void finish(struct ed *e)
{
	pty_close(&e->p);
	free(e->orig);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", e->dir);
	assert_int_equal(system(cmd), 0);
}

/* astray edit FILE [extra] in the pty, not waiting for anything. */
static void run(struct ed *e, const char *file, const char *extra)
{
	char *argv[] = { (char *)pty_bin(), (char *)"edit", (char *)file, (char *)"--bestiary",
			 (char *)BESTIARY, (char *)extra, NULL };
	assert_true(pty_start(&e->p, 24, 80, argv));
}

/* The editor's screen is up: find the map by the start's row "#..@". */
static void wait_editor(struct ed *e)
{
	/* the map may be drawn after the panel; build/astray writes no idle
	 * markers, so the start's row itself is waited for */
	int row, col;
	if (!pty_wait_text(&e->p, "Palette", WAIT_MS) || !pty_wait_text(&e->p, "#..@", WAIT_MS) ||
	    !pty_find(&e->p, "#..@", &row, &col))
		pty_fail(&e->p, "no start on the screen");
	e->ox = col;
	e->oy = row - 2;
}

static void wait_cell(struct ed *e, int x, int y, char c, const char *what)
{
	if (!pty_wait_char_at(&e->p, (uint32_t)(unsigned char)c, e->oy + y, e->ox + x, WAIT_MS))
		pty_fail(&e->p, what);
}

static void wait_text(struct ed *e, const char *text, const char *what)
{
	if (!pty_wait_text(&e->p, text, WAIT_MS))
		pty_fail(&e->p, what);
}

/* q (y when it asks), exit 0; `said` (may be NULL) must be in what it wrote. */
static void quit(struct ed *e, bool unsaved, const char *said)
{
	pty_send(&e->p, "q");
	if (unsaved) {
		wait_text(e, "Unsaved changes", "q did not ask");
		pty_send(&e->p, "y");
	}
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	assert_true(WIFEXITED(e->p.status));
	assert_int_equal(WEXITSTATUS(e->p.status), 0);
	if (said && !pty_log_has(&e->p, said))
		pty_fail(&e->p, said);
	pty_close(&e->p);
}

/* A session paints water right of the start and is stopped by SIGTERM:
 * LEVEL.recover holds the change. */
static void stopped_session(struct ed *e)
{
	run(e, e->file, NULL);
	wait_editor(e);
	pty_send(&e->p, "l~");
	wait_cell(e, 4, 2, '~', "the '~' key did not paint");
	kill(e->p.pid, SIGTERM);
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	assert_true(WIFSIGNALED(e->p.status));
	pty_close(&e->p);
	char *text = pty_slurp(e->recover);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n#..@~......#####...#\n"));
	free(text);
}

/* y (Enter): the changes open as unsaved edits of LEVEL; s writes LEVEL,
 * keeps the old one as LEVEL~ and removes LEVEL.recover. */
static void test_restore_then_save(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "the start did not offer the recovery");
	assert_true(pty_find(&e.p, "s.lvl.recover holds the unsaved changes", NULL, NULL));
	pty_answer(&e.p, "\r");
	wait_editor(&e);
	wait_cell(&e, 4, 2, '~', "the restored change is not on the map");
	wait_text(&e, "[modified]", "the restored changes do not count as unsaved");
	wait_text(&e, "Restored", "no word of the restore");
	/* LEVEL itself is untouched until s */
	char *text = pty_slurp(e.file);
	assert_string_equal(text, e.orig);
	free(text);
	/* the restore is one undo step: z shows the level as saved */
	pty_send(&e.p, "z");
	wait_cell(&e, 4, 2, '.', "z did not show the level as saved");
	if (!pty_wait_gone(&e.p, "[modified]", WAIT_MS))
		pty_fail(&e.p, "the restore undone still counts as unsaved");
	/* saved so, LEVEL.recover is kept: it holds what is not saved */
	pty_send(&e.p, "s");
	wait_text(&e, "without the restored changes", "a save with the restore undone did not say so");
	assert_true(exists(e.recover));
	pty_send(&e.p, "Z");
	wait_cell(&e, 4, 2, '~', "Z did not bring the restored change back");
	pty_send(&e.p, "s");
	wait_text(&e, "its .recover file is removed", "the save did not remove the recovery file");
	assert_false(exists(e.recover));
	text = pty_slurp(e.file);
	assert_non_null(strstr(text, "\n#..@~......#####...#\n"));
	free(text);
	char old[200];
	snprintf(old, sizeof old, "%s~", e.file);
	text = pty_slurp(old);
	assert_non_null(strstr(text, "\n#..@.......#####...#\n")); /* the level before the restore */
	free(text);
	quit(&e, false, NULL);
	finish(&e);
}

/* n: LEVEL opens as it is, LEVEL.recover is kept byte for byte and the
 * editor says where it is; quitting leaves both. */
static void test_decline_keeps(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	char *before = pty_slurp(e.recover);
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "the start did not offer the recovery");
	pty_answer(&e.p, "n\r");
	wait_editor(&e);
	wait_cell(&e, 4, 2, '.', "declined, the map is not LEVEL's");
	wait_text(&e, "s.lvl.recover is kept", "declined, the editor does not say where the changes are");
	quit(&e, false, NULL);
	char *after = pty_slurp(e.recover);
	assert_non_null(after);
	assert_string_equal(after, before);
	free(after);
	char *text = pty_slurp(e.file);
	assert_string_equal(text, e.orig);
	free(text);
	free(before);
	finish(&e);
}

/* Restored, then q without saving: LEVEL.recover stays for next time. */
static void test_restore_quit_keeps(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	run(&e, e.file, "--recover");
	wait_editor(&e); /* no question with --recover */
	wait_cell(&e, 4, 2, '~', "--recover did not restore the change");
	quit(&e, true, "still holds the restored changes");
	assert_true(exists(e.recover));
	char *text = pty_slurp(e.file);
	assert_string_equal(text, e.orig);
	free(text);
	finish(&e);
}

/* --discard-recover removes it without asking; --recover with none fails. */
static void test_discard_and_missing(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	run(&e, e.file, "--discard-recover");
	wait_editor(&e);
	wait_cell(&e, 4, 2, '.', "discarded, the map is not LEVEL's");
	assert_false(exists(e.recover));
	quit(&e, false, NULL);
	run(&e, e.file, "--recover");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_true(WIFEXITED(e.p.status));
	assert_int_equal(WEXITSTATUS(e.p.status), 1);
	assert_true(pty_log_has(&e.p, "there is no"));
	pty_close(&e.p);
	finish(&e);
}

/* A recovery with errors opens with them listed, as a broken file does,
 * and its map is saved into LEVEL. */
static void test_broken_recovery_opens(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	put(e.recover, "astray-level 1\nname: Broken\ntopology: square8\nmap:\n#######\n#..@*>#\n#######\n");
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "the start did not offer a broken recovery");
	pty_answer(&e.p, "y\r");
	if (!pty_wait_text(&e.p, "Palette", WAIT_MS))
		pty_fail(&e.p, "a broken recovery did not open");
	wait_text(&e, "unknown glyph", "the recovery's error is not listed");
	wait_text(&e, "Restored", "no word of the restore");
	pty_send(&e.p, "s");
	wait_text(&e, "is removed", "the save did not remove the recovery file");
	quit(&e, false, NULL);
	assert_false(exists(e.recover));
	char *text = pty_slurp(e.file);
	assert_non_null(strstr(text, "name: Broken\n"));
	assert_non_null(strstr(text, "\n#..@ >#\n")); /* the bad glyph left out, as void */
	free(text);
	finish(&e);
}

/* A whole rescue left as LEVEL.recover.tmp-XXXXXX (stopped before the
 * rename) becomes the recovery; a cut one is kept and named. */
static void test_leftovers(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	char tmp[220], cut[220];
	snprintf(tmp, sizeof tmp, "%s.tmp-Ab12Cd", e.recover);
	assert_int_equal(rename(e.recover, tmp), 0);
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "a whole leftover was not offered as the recovery");
	assert_true(pty_find(&e.p, "it is now", NULL, NULL));
	pty_answer(&e.p, "n\r");
	wait_editor(&e);
	quit(&e, false, NULL);
	assert_false(exists(tmp));
	assert_true(exists(e.recover));
	/* a cut one beside it: kept, and said on the screen */
	char *whole = pty_slurp(e.recover);
	whole[strlen(whole) - 9] = '\0';
	snprintf(cut, sizeof cut, "%s.tmp-Zz99yy", e.recover);
	put(cut, whole);
	free(whole);
	run(&e, e.file, "--discard-recover");
	wait_editor(&e);
	wait_text(&e, "s.lvl.recover.tmp-Zz99yy is left", "a cut leftover was not named");
	quit(&e, false, NULL);
	assert_true(exists(cut));
	assert_false(exists(e.recover));
	finish(&e);
}

/* A rescue really killed in its middle (the crash tests' shim kills the
 * program just before its k-th write, fsync or rename; the plain build,
 * as ASan does not run under LD_PRELOAD): before the write it leaves an
 * empty temporary file, which the next start removes; before the rename
 * a whole one, which the next start offers as the recovery. */
#define PLAIN_BIN "build/astray"
#define SHIM "build/shim/failio.so"
static void killed_rescue(struct ed *e, int at)
{
	char num[16];
	snprintf(num, sizeof num, "%d", at);
	setenv("LD_PRELOAD", SHIM, 1);
	setenv("FAILIO_MODE", "kill", 1);
	setenv("FAILIO_AT", num, 1);
	char *argv[] = { (char *)PLAIN_BIN, (char *)"edit", e->file, (char *)"--bestiary", (char *)BESTIARY, NULL };
	bool ok = pty_start(&e->p, 24, 80, argv);
	unsetenv("LD_PRELOAD");
	unsetenv("FAILIO_MODE");
	unsetenv("FAILIO_AT");
	assert_true(ok);
	wait_editor(e);
	pty_send(&e->p, "l~");
	wait_cell(e, 4, 2, '~', "the '~' key did not paint");
	pty_hangup(&e->p);
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	assert_true(WIFSIGNALED(e->p.status));
	assert_int_equal(WTERMSIG(e->p.status), SIGKILL);
	pty_close(&e->p);
	assert_false(exists(e->recover));
}

/* How many leftovers of a rescue are beside e's level; the last one's name in name. */
static int count_leftovers(const struct ed *e, char *name, size_t size)
{
	DIR *d = opendir(e->dir);
	assert_non_null(d);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "s.lvl.recover.tmp-", 18) == 0) {
			snprintf(name, size, "%s", de->d_name);
			n++;
		}
	closedir(d);
	return n;
}

static void test_rescue_killed_midway(void **state)
{
	(void)state;
	if (access(SHIM, F_OK) != 0 || access(PLAIN_BIN, X_OK) != 0) {
		print_message("skipped: needs %s and %s (make build/astray %s)\n", SHIM, PLAIN_BIN, SHIM);
		skip();
	}
	struct ed e;
	setup_dir(&e);
	char name[200];
	killed_rescue(&e, 1); /* before the write */
	assert_int_equal(count_leftovers(&e, name, sizeof name), 1);
	run(&e, e.file, NULL);
	wait_editor(&e); /* nothing to offer */
	wait_text(&e, "Removed", "the empty leftover was not said");
	quit(&e, false, NULL);
	assert_int_equal(count_leftovers(&e, name, sizeof name), 0);
	killed_rescue(&e, 3); /* write, fsync, then the rename */
	assert_int_equal(count_leftovers(&e, name, sizeof name), 1);
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "a whole rescue killed before its rename was not offered");
	pty_answer(&e.p, "y\r");
	wait_editor(&e);
	wait_cell(&e, 4, 2, '~', "the rescued change is not on the map");
	pty_send(&e.p, "s");
	wait_text(&e, "its .recover file is removed", "the save did not remove the recovery file");
	quit(&e, false, NULL);
	assert_int_equal(count_leftovers(&e, name, sizeof name), 0);
	assert_false(exists(e.recover));
	char *text = pty_slurp(e.file);
	assert_non_null(strstr(text, "\n#..@~......#####...#\n"));
	free(text);
	finish(&e);
}

/* A save (s) killed just before its rename leaves LEVEL as it was and the
 * new text in LEVEL.tmp-XXXXXX: the next start makes it the recovery and
 * offers it.  The save's counted calls: the link of LEVEL~, the write,
 * the fsync, then the rename. */
static void test_save_killed_midway(void **state)
{
	(void)state;
	if (access(SHIM, F_OK) != 0 || access(PLAIN_BIN, X_OK) != 0) {
		print_message("skipped: needs %s and %s (make build/astray %s)\n", SHIM, PLAIN_BIN, SHIM);
		skip();
	}
	struct ed e;
	setup_dir(&e);
	setenv("LD_PRELOAD", SHIM, 1);
	setenv("FAILIO_MODE", "kill", 1);
	setenv("FAILIO_AT", "4", 1);
	char *argv[] = { (char *)PLAIN_BIN, (char *)"edit", e.file, (char *)"--bestiary", (char *)BESTIARY, NULL };
	bool ok = pty_start(&e.p, 24, 80, argv);
	unsetenv("LD_PRELOAD");
	unsetenv("FAILIO_MODE");
	unsetenv("FAILIO_AT");
	assert_true(ok);
	wait_editor(&e);
	pty_send(&e.p, "l~s");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_true(WIFSIGNALED(e.p.status));
	assert_int_equal(WTERMSIG(e.p.status), SIGKILL);
	pty_close(&e.p);
	char *text = pty_slurp(e.file);
	assert_string_equal(text, e.orig); /* the rename never happened */
	free(text);
	DIR *d = opendir(e.dir);
	assert_non_null(d);
	int left = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		left += strncmp(de->d_name, "s.lvl.tmp-", 10) == 0;
	closedir(d);
	assert_int_equal(left, 1);
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "a save killed before its rename was not offered");
	assert_true(pty_find(&e.p, "whole save", NULL, NULL));
	pty_answer(&e.p, "\r");
	wait_editor(&e);
	wait_cell(&e, 4, 2, '~', "the change of the killed save is not on the map");
	quit(&e, true, NULL);
	assert_true(exists(e.recover));
	finish(&e);
}

/* The older LEVEL.recover (`older`, freed here) was set aside as
 * LEVEL.recover.1, and the new rescue holds `row`; ends the test. */
static void check_set_aside(struct ed *e, char *older, const char *row)
{
	char aside[220];
	snprintf(aside, sizeof aside, "%s.1", e->recover);
	char *kept = pty_slurp(aside);
	assert_non_null(kept);
	assert_string_equal(kept, older);
	char *newer = pty_slurp(e->recover);
	assert_non_null(newer);
	assert_non_null(strstr(newer, row));
	free(kept);
	free(newer);
	free(older);
	finish(e);
}

/* Declined, then stopped again: the new changes go to LEVEL.recover and
 * the older ones are kept as LEVEL.recover.1, not replaced. */
static void test_second_rescue_keeps_older(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	char *older = pty_slurp(e.recover);
	run(&e, e.file, NULL);
	wait_text(&e, QUESTION, "the start did not offer the recovery");
	pty_answer(&e.p, "n\r");
	wait_editor(&e);
	pty_send(&e.p, "l,");
	wait_cell(&e, 4, 2, ',', "the ',' key did not paint");
	kill(e.p.pid, SIGTERM);
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_true(pty_log_has(&e.p, "are kept as"));
	pty_close(&e.p);
	check_set_aside(&e, older, "\n#..@,......#####...#\n");
}

/* Restored, the restore undone and another change made, then stopped:
 * the session no longer holds LEVEL.recover's changes, so they are kept
 * as LEVEL.recover.1 and the new rescue (without them) is LEVEL.recover. */
static void test_undone_restore_rescue_keeps(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	char *older = pty_slurp(e.recover);
	run(&e, e.file, "--recover");
	wait_editor(&e);
	wait_cell(&e, 4, 2, '~', "--recover did not restore the change");
	pty_send(&e.p, "z");
	wait_cell(&e, 4, 2, '.', "z did not undo the restore");
	pty_send(&e.p, "ll,");
	wait_cell(&e, 5, 2, ',', "the ',' key did not paint");
	kill(e.p.pid, SIGTERM);
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	pty_close(&e.p);
	check_set_aside(&e, older, "\n#..@.,.....#####...#\n");
}

/* astray edit LEVEL.recover edits that file itself, as before. */
static void test_edit_recover_file_itself(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	stopped_session(&e);
	run(&e, e.recover, NULL);
	wait_editor(&e);
	wait_cell(&e, 4, 2, '~', "the recovery file did not open as it is");
	pty_send(&e.p, "ll+s");
	wait_text(&e, "Saved", "s did not save");
	quit(&e, false, NULL);
	char *text = pty_slurp(e.recover);
	assert_non_null(strstr(text, "\n#..@~+.....#####...#\n"));
	free(text);
	text = pty_slurp(e.file);
	assert_string_equal(text, e.orig);
	free(text);
	finish(&e);
}

/* Void cells are drawn as '_' (dim), so a hex map's shape shows, and the
 * panel says what '_' is. */
static void test_void_drawn(void **state)
{
	(void)state;
	struct ed e;
	setup_dir(&e);
	put(e.file, "astray-level 1\nname: Void Hex\ntopology: hex\nmap:\n"
		    "    # # # #\n"
		    "   # . . . #\n"
		    "  # . @ . > #\n"
		    "   # . . . #\n"
		    "    # # # #\n");
	run(&e, e.file, NULL);
	if (!pty_wait_text(&e.p, "Palette", WAIT_MS))
		pty_fail(&e.p, "the editor did not start");
	wait_text(&e, "_ void: no cell", "no legend line for void");
	int row, col;
	/* row 2 "  # . @ . > #": cell 0 (column 0) is void, cell 1 the wall
	 * (waited for: the map may be drawn after the panel) */
	if (!pty_wait_text(&e.p, "_ # . @ . > #", WAIT_MS) || !pty_find(&e.p, "_ # . @ . > #", &row, &col))
		pty_fail(&e.p, "the void cell of row 2 is not drawn as _");
	/* row 0: cells 0 and 1 void, then walls; between cells stays blank */
	char line[128];
	pty_row(&e.p, row - 2, line, sizeof line);
	if (strncmp(line + col, "_ _ # # # #", 11) != 0)
		pty_fail(&e.p, "row 0's void cells are not drawn as _");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restore_then_save),
		cmocka_unit_test(test_decline_keeps),
		cmocka_unit_test(test_restore_quit_keeps),
		cmocka_unit_test(test_discard_and_missing),
		cmocka_unit_test(test_broken_recovery_opens),
		cmocka_unit_test(test_leftovers),
		cmocka_unit_test(test_rescue_killed_midway),
		cmocka_unit_test(test_save_killed_midway),
		cmocka_unit_test(test_second_rescue_keeps_older),
		cmocka_unit_test(test_undone_restore_rescue_keeps),
		cmocka_unit_test(test_edit_recover_file_itself),
		cmocka_unit_test(test_void_drawn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
