/*
 * test_play_finish.c - the end of a game on disk survives a stop at any
 * step (issue 33, item 10): the journal filed in DATA/games, the death
 * record beside it and the score are all written before the save slot is
 * removed, so a kill between two steps leaves the finished game in the
 * slot, and the next start ends it again without filing it or scoring it
 * twice.  A death record's temporary file left by a kill is removed at
 * the next start.  The stop is the test build's $ASTRAY_TEST_FINISH_STOP.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "level.h"
#include "play_save.h"
#include "scores.h"
#include "textfile.h"

/* Counts the files of dir/games whose names end in ext ("" counts all). */
static int count_games(const char *dir, const char *ext)
{
	char games[600];
	snprintf(games, sizeof games, "%s/%s", dir, PLAY_GAMES_DIR);
	DIR *d = opendir(games);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), el = strlen(ext);
		if (e->d_name[0] != '.' && len >= el && strcmp(e->d_name + len - el, ext) == 0)
			n++;
	}
	closedir(d);
	return n;
}

static void rm_tree(const char *dir)
{
	char games[600], path[1200];
	snprintf(games, sizeof games, "%s/%s", dir, PLAY_GAMES_DIR);
	DIR *d = opendir(games);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", games, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(games);
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* A game that ended (the player died on the first level); levels (one)
 * must outlive it. */
static struct game *ended_game(struct level **lv, const struct level **levels)
{
	char *text;
	size_t tl;
	assert_int_equal(textfile_read("levels/01-first-steps.lvl", &text, &tl), 0);
	struct diag_list d = { 0 };
	*lv = level_parse("levels/01-first-steps.lvl", text, tl, NULL, &d);
	free(text);
	diag_list_fini(&d);
	assert_non_null(*lv);
	levels[0] = *lv;
	struct game *g = game_create(levels, 1, NULL, 42);
	assert_non_null(g);
	g->over = true;
	g->player.hp = 0;
	g->player.gold = 17;
	return g;
}

/* The game ends, stopped right after `step`; then the next start (its
 * tidy, then the end of the finished game it finds in the slot). */
static void stop_after(const char *step)
{
	char dir[] = "/tmp/scale2-finish-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct level *lv;
	const struct level *levels[1];
	struct game *g = ended_game(&lv, levels);
	struct play_save s;
	memset(&s, 0, sizeof s);
	snprintf(s.data, sizeof s.data, "%s", dir);
	play_save_slot(dir, s.path, sizeof s.path);
	s.in_slot = true;
	snprintf(s.mode, sizeof s.mode, "campaign");
	FILE *f = fopen(s.path, "w");
	assert_non_null(f);
	fputs("a finished game's journal\n", f);
	assert_int_equal(fclose(f), 0);
	FILE *out = fopen("/dev/null", "w");
	assert_non_null(out);

	assert_int_equal(setenv("ASTRAY_TEST_FINISH_STOP", step, 1), 0);
	play_save_finish(&s, g, out);
	assert_int_equal(unsetenv("ASTRAY_TEST_FINISH_STOP"), 0);
	/* the kill: the slot still holds the finished game */
	if (access(s.path, F_OK) != 0)
		fail_msg("stopped after %s: the save was removed before the end was written", step);
	assert_int_equal(count_games(dir, ".jnl"), 1);
	/* and the record's temporary file a kill while writing it leaves */
	char tmp[700];
	snprintf(tmp, sizeof tmp, "%s/%s/19700101-000000-42.txt.tmp-AbC123", dir, PLAY_GAMES_DIR);
	f = fopen(tmp, "w");
	assert_non_null(f);
	fputs("half a record", f);
	assert_int_equal(fclose(f), 0);

	/* the next start */
	assert_true(play_save_tidy(dir) >= 1);
	assert_int_equal(access(tmp, F_OK), -1);
	play_save_finish(&s, g, out);
	assert_int_equal(access(s.path, F_OK), -1); /* the slot is free */
	if (count_games(dir, ".jnl") != 1 || count_games(dir, ".txt") != 1 || count_games(dir, "") != 2)
		fail_msg("stopped after %s: games/ holds %d journals and %d records of %d files, not one of each",
			 step, count_games(dir, ".jnl"), count_games(dir, ".txt"), count_games(dir, ""));
	struct score_list l;
	char err[600];
	assert_true(scores_load(dir, &l, err, sizeof err));
	if (l.n != 1)
		fail_msg("stopped after %s: %d scores for one game", step, l.n);
	assert_int_equal(l.v[0].seed, 42);
	scores_fini(&l);

	fclose(out);
	game_destroy(g);
	level_destroy(lv);
	rm_tree(dir);
}

static void test_stop_after_filing(void **state)
{
	(void)state;
	stop_after("filed");
}

static void test_stop_after_record(void **state)
{
	(void)state;
	stop_after("record");
}

static void test_stop_after_score(void **state)
{
	(void)state;
	stop_after("scored");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_after_filing),
		cmocka_unit_test(test_stop_after_record),
		cmocka_unit_test(test_stop_after_score),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
