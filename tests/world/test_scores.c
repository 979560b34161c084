/*
 * test_scores.c - the high-score list: its order, its file format read
 * back, entries made from finished games, the cap, a damaged list kept
 * aside, a failing write that leaves the old list, and two processes
 * adding entries at the same time (none is lost).
 */
#include <dirent.h>
#include <errno.h>
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

#include "test_game_fixture.h"

#include "savefile.h"
#include "scores.h"

static void make_temp_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/astray-scores-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char p[600];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static struct score_entry entry(long score, int turns, long long date, const char *cause)
{
	struct score_entry e;
	memset(&e, 0, sizeof e);
	e.score = score;
	e.depth = 2;
	e.turns = turns;
	e.seed = (uint64_t)score * 1000 + (uint64_t)turns;
	e.date = date;
	snprintf(e.outcome, sizeof e.outcome, "died");
	snprintf(e.cause, sizeof e.cause, "%s", cause);
	snprintf(e.mode, sizeof e.mode, "dungeon-10");
	return e;
}

static void test_value_and_order(void **state)
{
	(void)state;
	assert_int_equal(scores_value(28, 4, 3, false), 28 + 200 + 300);
	assert_int_equal(scores_value(0, 0, 8, true), 800 + 500);
	struct score_entry a = entry(100, 50, 10, "x"), b = entry(100, 40, 20, "x"), c = entry(200, 90, 30, "x");
	assert_true(scores_compare(&c, &a) < 0);  /* higher score first */
	assert_true(scores_compare(&b, &a) < 0);  /* then fewer turns */
	struct score_entry d = entry(100, 50, 5, "x");
	assert_true(scores_compare(&d, &a) < 0);  /* then the earlier date */
	assert_int_equal(scores_compare(&a, &a), 0);
}

static void test_format_round_trip(void **state)
{
	(void)state;
	struct score_entry v[3] = { entry(300, 10, 1764000000, "killed by a goblin on level 2"),
				    entry(200, 20, 1764000001, "escaped the dungeon"),
				    entry(100, 30, 1764000002, "left on level 1") };
	snprintf(v[0].outcome, sizeof v[0].outcome, "won"); /* wins first: the order as given */
	v[1].seed = UINT64_MAX;
	struct score_list l = { .v = v, .n = 3 }, back;
	size_t len;
	char *text = scores_format(&l, &len);
	assert_non_null(text);
	char err[400];
	assert_true(scores_parse("s.txt", text, len, &back, err, sizeof err));
	assert_int_equal(back.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(scores_compare(&back.v[i], &v[i]), 0);
		assert_string_equal(back.v[i].outcome, v[i].outcome);
		assert_true(back.v[i].seed == v[i].seed);
		assert_int_equal(back.v[i].depth, v[i].depth);
	}
	scores_fini(&back);
	free(text);
	/* malformed lists name the line */
	static const char bad1[] = "astray-scores 1\n10 1 2 3 4 died killed\nnonsense\n";
	assert_false(scores_parse("s.txt", bad1, sizeof bad1 - 1, &back, err, sizeof err));
	assert_non_null(strstr(err, "s.txt:3: a malformed entry"));
	assert_int_equal(back.n, 1); /* the good entry around it is kept */
	assert_int_equal(back.skipped, 1);
	scores_fini(&back);
	static const char bad2[] = "astray-scores 3\n";
	assert_false(scores_parse("s.txt", bad2, sizeof bad2 - 1, &back, err, sizeof err));
	assert_non_null(strstr(err, "not an astray score list"));
	static const char bad3[] = "astray-scores 1\n10 1 2 3 4 died killed";
	assert_false(scores_parse("s.txt", bad3, sizeof bad3 - 1, &back, err, sizeof err));
	assert_non_null(strstr(err, "s.txt:2: the last line has no end"));
	scores_fini(&back);
	static const char bad4[] = "astray-scores 1\n10 1 2 3 4 drowned killed\n";
	assert_false(scores_parse("s.txt", bad4, sizeof bad4 - 1, &back, err, sizeof err));
	scores_fini(&back);
}

/* One bad line hides no good score: load shows the rest (skipped says how
 * many lines were left out); the next add sets the file aside as it was
 * and starts the new list from its good entries. */
static void test_bad_line_keeps_good_entries(void **state)
{
	(void)state;
	char dir[64], path[128], err[600], aside[256];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/" SCORES_FILE, dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("astray-scores 1\n167 2 80 9 1700000000 died killed by a goblin\ngarbage line\n", fp);
	fclose(fp);
	struct score_list l;
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 1);
	assert_int_equal(l.skipped, 1);
	assert_non_null(strstr(err, ":3: a malformed entry"));
	scores_fini(&l);
	struct score_entry e = entry(5, 5, 5, "killed by a bat on level 1");
	snprintf(e.mode, sizeof e.mode, SCORES_UNKNOWN); /* on the old entries' list */
	int rank = 0;
	assert_true(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 2); /* below the 167 kept from the damaged list */
	assert_non_null(strstr(aside, "scores.txt.damaged-1"));
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 2);
	assert_int_equal(l.skipped, 0);
	assert_int_equal(l.v[0].score, 167);
	scores_fini(&l);
	remove_dir(dir);
}

static void test_entry_from_games(void **state)
{
	(void)state;
	struct fixture f;
	/* a killer next to the player: it dies at once */
	struct game *g = fixture_game(&f, "square4", "#####\n#@k>#\n#####", 1);
	struct action wait = { .kind = ACT_WAIT };
	for (int i = 0; i < 5 && !g->over; i++)
		game_act(g, &wait);
	assert_true(g->over);
	struct score_entry e;
	scores_entry_from_game(g, 1764000000, &e);
	assert_string_equal(e.outcome, "died");
	assert_string_equal(e.cause, "killed by a killer on level 1");
	assert_int_equal(e.depth, 1);
	assert_int_equal(e.turns, g->turn);
	assert_true(e.seed == 1);
	fixture_fini(&f);
	/* the stairs next to the player on the only level, taken: a win */
	g = fixture_game(&f, "square4", "#####\n#@>.#\n#####", 2);
	struct action east = { .kind = ACT_MOVE, .dir = 2 }, down = { .kind = ACT_DESCEND };
	game_act(g, &east);
	game_act(g, &down);
	assert_true(g->won);
	scores_entry_from_game(g, 0, &e);
	assert_string_equal(e.outcome, "won");
	assert_string_equal(e.cause, "escaped the dungeon");
	assert_int_equal(e.score, scores_value(0, 0, 1, true));
	fixture_fini(&f);
	/* a game left running */
	g = fixture_game(&f, "square4", "######\n#@..>#\n######", 3);
	scores_entry_from_game(g, 0, &e);
	assert_string_equal(e.outcome, "quit");
	assert_string_equal(e.cause, "left on level 1");
	fixture_fini(&f);
}

/* A symbolic link planted as scores.lock is refused: opened with
 * O_CREAT it used to make an empty file appear wherever it pointed. */
static void test_lock_link_is_refused(void **state)
{
	(void)state;
	char dir[64], err[600], aside[300], lock[200], target[200];
	make_temp_dir(dir, sizeof dir);
	snprintf(lock, sizeof lock, "%s/scores.lock", dir);
	snprintf(target, sizeof target, "%s/planted", dir);
	assert_int_equal(symlink(target, lock), 0);
	struct score_entry e = entry(10, 5, 1, "killed by a rat on level 1");
	int rank;
	assert_false(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_non_null(strstr(err, "scores.lock: a symbolic link: refused"));
	struct stat st;
	assert_true(lstat(target, &st) != 0 && errno == ENOENT);
	unlink(lock);
	/* a FIFO there is refused too, at once */
	assert_int_equal(mkfifo(lock, 0600), 0);
	assert_false(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_non_null(strstr(err, "scores.lock: not a regular file"));
	unlink(lock);
	assert_true(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 1);
	remove_dir(dir);
}

static void test_add_rank_and_cap(void **state)
{
	(void)state;
	char dir[64], err[600], aside[300];
	make_temp_dir(dir, sizeof dir);
	struct score_list l;
	assert_true(scores_load(dir, &l, err, sizeof err)); /* no list yet: empty */
	assert_int_equal(l.n, 0);
	scores_fini(&l);
	int rank;
	for (int i = 0; i < SCORES_MAX + 10; i++) {
		struct score_entry e = entry(10 * (i % 37), i, i, "killed by a rat on level 1");
		assert_true(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
		assert_string_equal(aside, "");
	}
	struct score_entry best = entry(100000, 1, 1, "escaped the dungeon");
	assert_true(scores_add(dir, &best, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 1);
	struct score_entry worst = entry(0, 1000000, 1, "killed by a rat on level 1");
	assert_true(scores_add(dir, &worst, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 0); /* did not make the list */
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, SCORES_MAX);
	for (int i = 1; i < l.n; i++)
		assert_true(scores_compare(&l.v[i - 1], &l.v[i]) <= 0);
	assert_int_equal(l.v[0].score, 100000);
	scores_fini(&l);
	remove_dir(dir);
}

static void test_damaged_list_is_kept(void **state)
{
	(void)state;
	char dir[64], path[128], err[600], aside[300];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/" SCORES_FILE, dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("this is not a score list\n", fp);
	fclose(fp);
	struct score_list l;
	assert_false(scores_load(dir, &l, err, sizeof err));
	assert_non_null(strstr(err, "not an astray score list"));
	struct score_entry e = entry(5, 5, 5, "killed by a bat on level 1");
	int rank;
	assert_true(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 1);
	assert_non_null(strstr(aside, "scores.txt.damaged-1"));
	size_t len;
	char *kept = level_read_file(aside, &len);
	assert_non_null(kept);
	assert_string_equal(kept, "this is not a score list\n");
	free(kept);
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 1);
	scores_fini(&l);
	remove_dir(dir);
}

static ssize_t failing_write(void *ud, int fd, const void *buf, size_t n)
{
	(void)ud;
	(void)fd;
	(void)buf;
	(void)n;
	errno = ENOSPC;
	return -1;
}

static void test_failing_write_keeps_old_list(void **state)
{
	(void)state;
	char dir[64], err[600], aside[300];
	make_temp_dir(dir, sizeof dir);
	struct score_entry e = entry(5, 5, 5, "killed by a bat on level 1");
	assert_true(scores_add(dir, &e, NULL, NULL, aside, sizeof aside, err, sizeof err));
	struct savefile_io io = { failing_write, NULL, NULL };
	struct score_entry e2 = entry(50, 5, 5, "killed by an orc on level 2");
	assert_false(scores_add(dir, &e2, &io, NULL, aside, sizeof aside, err, sizeof err));
	assert_non_null(strstr(err, "No space left"));
	struct score_list l;
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].score, 5);
	scores_fini(&l);
	remove_dir(dir);
}

/* Four processes add 20 entries each at the same time: all 80 are there. */
static void test_games_ending_at_once(void **state)
{
	(void)state;
	char dir[64], err[600];
	make_temp_dir(dir, sizeof dir);
	enum { KIDS = 4, EACH = 20 };
	pid_t kids[KIDS];
	for (int k = 0; k < KIDS; k++) {
		kids[k] = fork();
		assert_true(kids[k] >= 0);
		if (kids[k] == 0) {
			for (int i = 0; i < EACH; i++) {
				struct score_entry e = entry(1000 + k * EACH + i, i, k, "killed by a wolf on level 3");
				char aside[300], msg[600];
				if (!scores_add(dir, &e, NULL, NULL, aside, sizeof aside, msg, sizeof msg))
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int k = 0; k < KIDS; k++) {
		int st;
		assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	struct score_list l;
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, KIDS * EACH);
	for (int i = 0; i < l.n; i++)
		assert_int_equal(l.v[i].score, 1000 + KIDS * EACH - 1 - i);
	scores_fini(&l);
	remove_dir(dir);
}

/* One list per mode: each ranks, caps and orders its own entries; wins
 * stand above deaths whatever their score; modes are shown campaign,
 * dungeons by length, unknown. */
static void test_lists_by_mode(void **state)
{
	(void)state;
	struct score_entry won = entry(600, 900, 1, "escaped the dungeon"), died = entry(2000, 50, 2, "killed");
	snprintf(won.outcome, sizeof won.outcome, "won");
	assert_true(scores_compare(&won, &died) < 0); /* a win above a richer death */
	struct score_entry quick = won;
	quick.turns = 300;
	assert_true(scores_compare(&quick, &won) < 0); /* equal wins: fewer turns first */

	char dir[64], err[600], aside[300];
	make_temp_dir(dir, sizeof dir);
	int rank;
	static const char *const modes[] = { "dungeon-25", "campaign", "dungeon-10", "dungeon-3" };
	for (int i = 0; i < SCORES_MAX + 5; i++)
		for (int m = 0; m < 4; m++) {
			struct score_entry e = entry(10 * i + m, i, i, "killed by a rat on level 1");
			snprintf(e.mode, sizeof e.mode, "%s", modes[m]);
			assert_true(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
			assert_int_equal(rank, 1); /* each the best of its own list */
		}
	/* a 10-level win below the 25-level deaths' scores still ranks first in its list */
	struct score_entry w = entry(50, 400, 9, "escaped the dungeon");
	snprintf(w.outcome, sizeof w.outcome, "won");
	assert_true(scores_add(dir, &w, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 1);
	struct score_list l;
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 4 * SCORES_MAX); /* each list capped on its own */
	char got[8][SCORES_MODE_LEN];
	assert_int_equal(scores_modes(&l, got, 8), 4);
	assert_string_equal(got[0], "campaign");
	assert_string_equal(got[1], "dungeon-3");
	assert_string_equal(got[2], "dungeon-10");
	assert_string_equal(got[3], "dungeon-25");
	int in10 = 0;
	for (int i = 0; i < l.n; i++) {
		if (i > 0)
			assert_true(scores_compare(&l.v[i - 1], &l.v[i]) <= 0);
		if (strcmp(l.v[i].mode, "dungeon-10") == 0 && in10++ == 0)
			assert_string_equal(l.v[i].outcome, "won"); /* its first */
	}
	assert_int_equal(in10, SCORES_MAX);
	scores_fini(&l);
	char title[128];
	scores_mode_title("dungeon-10", title, sizeof title);
	assert_string_equal(title, "dungeons of 10 levels");
	scores_mode_title("campaign", title, sizeof title);
	assert_string_equal(title, "the campaign");
	remove_dir(dir);
}

/* A list of format 1 (before the lists by mode) still reads: its entries
 * form the list of mode unknown, and the next add keeps every one of
 * them, in format 2.  No score is lost. */
static void test_old_format_kept(void **state)
{
	(void)state;
	char dir[64], path[128], err[600], aside[300];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/" SCORES_FILE, dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("astray-scores 1\n167 2 80 9 1700000000 died killed by a goblin on level 2\n"
	      "600 1 2 262688054 1700000100 won escaped the dungeon\n",
	      fp);
	fclose(fp);
	struct score_list l;
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 2);
	assert_int_equal(l.skipped, 0);
	assert_string_equal(l.v[0].mode, SCORES_UNKNOWN);
	assert_string_equal(l.v[0].outcome, "won");
	scores_fini(&l);
	struct score_entry e = entry(10, 5, 5, "killed by a bat on level 1");
	snprintf(e.mode, sizeof e.mode, "campaign");
	int rank;
	assert_true(scores_add(dir, &e, NULL, &rank, aside, sizeof aside, err, sizeof err));
	assert_int_equal(rank, 1);
	assert_string_equal(aside, ""); /* an old list is not damaged */
	assert_true(scores_load(dir, &l, err, sizeof err));
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0].mode, "campaign");
	assert_string_equal(l.v[1].mode, SCORES_UNKNOWN);
	assert_int_equal(l.v[1].score, 600);
	assert_string_equal(l.v[2].cause, "killed by a goblin on level 2");
	scores_fini(&l);
	size_t len;
	char *text = savefile_read(path, 1 << 20, &len, err, sizeof err);
	assert_non_null(text);
	assert_true(strncmp(text, "astray-scores 2\n", 16) == 0);
	assert_non_null(strstr(text, " won unknown escaped the dungeon\n"));
	free(text);
	/* a format-2 line needs its mode */
	static const char bad[] = "astray-scores 2\n10 1 2 3 4 died camp@ign killed\n10 1 2 3 4 died campaign\n";
	assert_false(scores_parse("s.txt", bad, sizeof bad - 1, &l, err, sizeof err));
	assert_int_equal(l.skipped, 2);
	scores_fini(&l);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_and_order),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_entry_from_games),
		cmocka_unit_test(test_add_rank_and_cap),
		cmocka_unit_test(test_lock_link_is_refused),
		cmocka_unit_test(test_damaged_list_is_kept),
		cmocka_unit_test(test_bad_line_keeps_good_entries),
		cmocka_unit_test(test_failing_write_keeps_old_list),
		cmocka_unit_test(test_games_ending_at_once),
		cmocka_unit_test(test_lists_by_mode),
		cmocka_unit_test(test_old_format_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
