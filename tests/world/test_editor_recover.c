/*
 * test_editor_recover.c - what a rescue of unsaved changes leaves beside
 * a level, and how the next start tidies it (editor.h, recovery files):
 * LEVEL.recover's name; whether a text is a whole file as the editor
 * writes it; the temporary files of a rescue or a save cut short
 * (removed when empty or a copy of LEVEL.recover or LEVEL, made
 * LEVEL.recover when whole and there is none, kept and named otherwise,
 * never deleted when they may be the only copy); an older LEVEL.recover
 * set aside, never replaced; and a restore over the level as one undo
 * step (editor_replace) with the mark that says whether it is in effect.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "editor.h"
#include "level.h"

/* A level as the editor writes it (level_write's layout). */
static const char WHOLE[] = "astray-level 1\n"
			    "name: Rescued\n"
			    "topology: square8\n"
			    "map:\n"
			    "#####\n"
			    "#@.>#\n"
			    "#####\n";

struct dir {
	char path[64];
	char level[128];
	char recover[128];
};

static void make_dir(struct dir *d)
{
	snprintf(d->path, sizeof d->path, "/tmp/astray-recover-XXXXXX");
	assert_non_null(mkdtemp(d->path));
	snprintf(d->level, sizeof d->level, "%s/l.lvl", d->path);
	snprintf(d->recover, sizeof d->recover, "%s/l.lvl.recover", d->path);
}

static void remove_dir(struct dir *d)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* The file's bytes, NUL-terminated; NULL when it does not exist. */
static char *get(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void leftover(const struct dir *d, const char *tail, char *buf, size_t size)
{
	snprintf(buf, size, "%s.tmp-%s", d->recover, tail);
}

static void test_recover_path(void **state)
{
	(void)state;
	char buf[32];
	assert_true(editor_recover_path("levels/a.lvl", buf, sizeof buf));
	assert_string_equal(buf, "levels/a.lvl.recover");
	assert_false(editor_recover_path("a-name-much-too-long-for-it.lvl", buf, sizeof buf));
}

/* The editor's own text is whole; cut anywhere, it is not. */
static void test_text_complete(void **state)
{
	(void)state;
	size_t n = strlen(WHOLE);
	assert_true(editor_text_complete(WHOLE, n));
	/* cut anywhere but at the end of a map row, it is not; cut at the end
	 * of a row it is a shorter map, which nothing tells apart (it is then
	 * restored as it is, and nothing is deleted) */
	size_t map = (size_t)(strstr(WHOLE, "map:\n") - WHOLE) + 5;
	int whole_cuts = 0;
	for (size_t cut = 0; cut < n; cut++) {
		bool row_end = cut > map && WHOLE[cut - 1] == '\n';
		if (!row_end)
			assert_false(editor_text_complete(WHOLE, cut));
		else
			whole_cuts += editor_text_complete(WHOLE, cut);
	}
	assert_int_equal(whole_cuts, 2);
	/* the last newline missing */
	assert_false(editor_text_complete(WHOLE, n - 1));
	/* a file from elsewhere (a comment between the keys, which a save
	 * would move up) is not the editor's text; comments under the first
	 * line are kept by a save, so such a file is */
	static const char COMMENTED[] = "astray-level 1\nname: R\n; hand made\ntopology: square8\nmap:\n#####\n#@.>#\n#####\n";
	assert_false(editor_text_complete(COMMENTED, strlen(COMMENTED)));
	static const char ON_TOP[] = "astray-level 1\n; hand made\nname: R\ntopology: square8\nmap:\n#####\n#@.>#\n#####\n";
	assert_true(editor_text_complete(ON_TOP, strlen(ON_TOP)));
	/* a level with errors the editor wrote (no exit) is whole all the same */
	static const char NO_EXIT[] = "astray-level 1\nname: R\ntopology: square8\nmap:\n#####\n#@..#\n#####\n";
	assert_true(editor_text_complete(NO_EXIT, strlen(NO_EXIT)));
}

/* An empty leftover (stopped before it wrote) goes, and is said. */
static void test_tidy_empty_removed(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	char tmp[200], report[1000] = "";
	leftover(&d, "a1b2c3", tmp, sizeof tmp);
	put(tmp, "", 0);
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 0);
	assert_false(exists(tmp));
	assert_non_null(strstr(report, "Removed"));
	assert_non_null(strstr(report, "empty"));
	remove_dir(&d);
}

/* A whole leftover with no LEVEL.recover is the recovery: it becomes it. */
static void test_tidy_whole_becomes_recover(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	char tmp[200], report[1000] = "";
	leftover(&d, "Zz9_x1", tmp, sizeof tmp);
	put(tmp, WHOLE, strlen(WHOLE));
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 0);
	assert_false(exists(tmp));
	char *text = get(d.recover);
	assert_non_null(text);
	assert_string_equal(text, WHOLE);
	free(text);
	assert_non_null(strstr(report, "it is now"));
	remove_dir(&d);
}

/* A cut leftover may be the only copy: kept and named, never adopted. */
static void test_tidy_cut_kept(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	char tmp[200], report[1000] = "";
	leftover(&d, "qwerty", tmp, sizeof tmp);
	put(tmp, WHOLE, strlen(WHOLE) - 4);
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 1);
	assert_true(exists(tmp));
	assert_false(exists(d.recover));
	assert_non_null(strstr(report, tmp));
	assert_non_null(strstr(report, "kept"));
	/* asked again, it is still there and still said */
	report[0] = '\0';
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 1);
	assert_true(exists(tmp));
	assert_non_null(strstr(report, tmp));
	remove_dir(&d);
}

/* Beside a LEVEL.recover: a copy of it goes; a whole one that differs is
 * kept (it may be the newer), and LEVEL.recover is left as it was. */
static void test_tidy_beside_recover(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	static const char OTHER[] = "astray-level 1\nname: Other\ntopology: square8\nmap:\n#####\n#@>.#\n#####\n";
	put(d.recover, OTHER, strlen(OTHER));
	char same[200], differs[200], report[2000] = "";
	leftover(&d, "AAAAAA", same, sizeof same);
	leftover(&d, "BBBBBB", differs, sizeof differs);
	put(same, OTHER, strlen(OTHER));
	put(differs, WHOLE, strlen(WHOLE));
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 1);
	assert_false(exists(same));
	assert_true(exists(differs));
	char *text = get(d.recover);
	assert_string_equal(text, OTHER);
	free(text);
	assert_non_null(strstr(report, "the same as"));
	assert_non_null(strstr(report, differs));
	remove_dir(&d);
}

/* A save killed before its rename (LEVEL.tmp-XXXXXX, LEVEL still old):
 * whole, it holds changes LEVEL has not, so it becomes the recovery; a
 * copy of LEVEL goes. */
static void test_tidy_save_leftover(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	static const char OLD[] = "astray-level 1\nname: Old\ntopology: square8\nmap:\n#####\n#@>.#\n#####\n";
	put(d.level, OLD, strlen(OLD));
	char saved[200], copy[200], report[2000] = "";
	snprintf(saved, sizeof saved, "%s.tmp-x1y2z3", d.level);
	snprintf(copy, sizeof copy, "%s.tmp-a1b2c3", d.level);
	put(saved, WHOLE, strlen(WHOLE));
	put(copy, OLD, strlen(OLD));
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 0);
	assert_false(exists(saved));
	assert_false(exists(copy));
	char *text = get(d.recover);
	assert_non_null(text);
	assert_string_equal(text, WHOLE);
	free(text);
	text = get(d.level);
	assert_string_equal(text, OLD);
	free(text);
	assert_non_null(strstr(report, "whole save"));
	assert_non_null(strstr(report, "the same as"));
	remove_dir(&d);
}

/* Other files, and names that only look alike, are not touched. */
static void test_tidy_leaves_others(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	char near[200], report[1000] = "";
	snprintf(near, sizeof near, "%s.tmp-short", d.recover); /* five characters, not mkstemp's six */
	put(near, "", 0);
	char other[200];
	snprintf(other, sizeof other, "%s/m.lvl.recover.tmp-abcdef", d.path); /* another level's */
	put(other, "", 0);
	assert_int_equal(editor_recover_tidy(d.level, report, sizeof report), 0);
	assert_true(exists(near));
	assert_true(exists(other));
	assert_string_equal(report, "");
	/* a folder that cannot be read says so */
	assert_int_equal(editor_recover_tidy("/nonexistent-astray-dir/l.lvl", report, sizeof report), -1);
	assert_non_null(strstr(report, "/nonexistent-astray-dir"));
	remove_dir(&d);
}

/* An older LEVEL.recover goes to the first free LEVEL.recover.N, whole. */
static void test_set_aside(void **state)
{
	(void)state;
	struct dir d;
	make_dir(&d);
	char aside[200], err[300], first[200];
	snprintf(first, sizeof first, "%s.1", d.recover);
	put(first, "taken", 5);
	put(d.recover, WHOLE, strlen(WHOLE));
	assert_true(editor_recover_set_aside(d.recover, aside, sizeof aside, err, sizeof err));
	char want[200];
	snprintf(want, sizeof want, "%s.2", d.recover);
	assert_string_equal(aside, want);
	assert_false(exists(d.recover));
	char *text = get(aside);
	assert_string_equal(text, WHOLE);
	free(text);
	text = get(first);
	assert_string_equal(text, "taken");
	free(text);
	/* nothing to set aside: an error, nothing made */
	assert_false(editor_recover_set_aside(d.recover, aside, sizeof aside, err, sizeof err));
	assert_non_null(strstr(err, d.recover));
	remove_dir(&d);
}

static struct level *parse(const char *text)
{
	struct diag_list d = { 0 };
	struct level *lv = level_parse("t.lvl", text, strlen(text), NULL, &d);
	diag_list_fini(&d);
	assert_non_null(lv);
	return lv;
}

/* A restore over the level as one undo step: z gives back the level's
 * own text, Z the restored one (header and size too); the mark says
 * whether the restore is in effect, and forgets it once a new edit
 * after an undo drops it. */
static void test_replace_and_mark(void **state)
{
	(void)state;
	static const char OLD[] = "astray-level 1\nname: Old\ntopology: square8\nmap:\n#####\n#@>.#\n#####\n";
	static const char NEW[] = "astray-level 1\nname: New\ntopology: square8\nauthor: me\nmap:\n"
				  "######\n#@..>#\n#.~~.#\n######\n";
	struct level *old = parse(OLD), *neu = parse(NEW);
	struct editor *ed = editor_create(old, NULL, "t.lvl");
	assert_non_null(ed);
	size_t n;
	char *before = editor_write(ed, &n), err[200];
	assert_true(editor_past_mark(ed)); /* no mark yet */
	assert_int_equal(editor_replace(ed, neu, err, sizeof err), 1);
	editor_set_mark(ed);
	assert_true(editor_modified(ed));
	assert_int_equal(editor_width(ed), 6);
	assert_int_equal(editor_glyph(ed, 2, 2), '~');
	char *after = editor_write(ed, &n);
	assert_non_null(strstr(after, "name: New\n"));
	assert_non_null(strstr(after, "author: me\n"));
	assert_true(editor_past_mark(ed));
	assert_true(editor_undo(ed));
	assert_false(editor_modified(ed));
	assert_false(editor_past_mark(ed));
	char *again = editor_write(ed, &n);
	assert_string_equal(again, before);
	free(again);
	assert_true(editor_redo(ed));
	assert_true(editor_past_mark(ed));
	again = editor_write(ed, &n);
	assert_string_equal(again, after);
	free(again);
	/* edits on top keep it in effect */
	assert_int_equal(editor_paint(ed, 1, 2, '#'), 1);
	assert_true(editor_past_mark(ed));
	/* undone past it, then a new edit: dropped for good */
	assert_true(editor_undo(ed));
	assert_true(editor_undo(ed));
	assert_int_equal(editor_paint(ed, 2, 1, '#'), 1);
	assert_int_equal(editor_paint(ed, 3, 1, '#'), 1);
	assert_false(editor_past_mark(ed));
	/* another topology is refused, nothing changed */
	struct level *hex = parse("astray-level 1\nname: H\ntopology: hex\nmap:\n# # # #\n # @ > #\n# # # #\n");
	int steps = editor_undo_count(ed);
	assert_int_equal(editor_replace(ed, hex, err, sizeof err), -1);
	assert_non_null(strstr(err, "hex"));
	assert_int_equal(editor_undo_count(ed), steps);
	level_destroy(hex);
	free(before);
	free(after);
	editor_destroy(ed);
	level_destroy(old);
	level_destroy(neu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recover_path),
		cmocka_unit_test(test_text_complete),
		cmocka_unit_test(test_tidy_empty_removed),
		cmocka_unit_test(test_tidy_whole_becomes_recover),
		cmocka_unit_test(test_tidy_cut_kept),
		cmocka_unit_test(test_tidy_beside_recover),
		cmocka_unit_test(test_tidy_save_leftover),
		cmocka_unit_test(test_tidy_leaves_others),
		cmocka_unit_test(test_set_aside),
		cmocka_unit_test(test_replace_and_mark),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
