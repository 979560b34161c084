/*
 * test_play_scored.c - play_journal_scored: whether a resumed game counts
 * for the high-score list.  A journal with a `scored` record is what was
 * decided when the game began, whatever this run plays; one without (a
 * save from before the record) counts only when it holds no --set and
 * its bestiary and levels are exactly this run's campaign, or its levels
 * are all generated ones with that bestiary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "play_save.h"

static const char BESTIARY[] = "goblin\nglyph: g\n";
static const char L1[] = "astray-level 1\nname: one\n", L2[] = "astray-level 1\nname: two\n";

static struct journal_level lv(const char *name, const char *text)
{
	return (struct journal_level){ .name = name, .text = text, .len = strlen(text) };
}

/* The run's campaign: two levels and the bestiary. */
struct campaign {
	struct journal_level levels[2];
	struct journal_setup setup;
};

static const struct journal_setup *campaign(struct campaign *c)
{
	c->levels[0] = lv("levels/01.lvl", L1);
	c->levels[1] = lv("levels/02.lvl", L2);
	c->setup = (struct journal_setup){ .bestiary_text = BESTIARY, .bestiary_len = strlen(BESTIARY),
					   .levels = c->levels, .n_levels = 2, .scored = JOURNAL_SCORED_YES };
	return &c->setup;
}

/* An old journal (no record) of the given levels with the given bestiary. */
static struct journal_data old_save(struct journal_level *levels, int n, const char *bestiary)
{
	struct journal_data d;
	memset(&d, 0, sizeof d);
	d.scored = JOURNAL_SCORED_UNKNOWN;
	d.bestiary_text = bestiary;
	d.bestiary_len = strlen(bestiary);
	d.levels = levels;
	d.n_levels = n;
	return d;
}

static void test_the_record_decides(void **state)
{
	(void)state;
	struct campaign c;
	struct journal_level mine[] = { lv("my.lvl", "astray-level 1\nname: mine\n") };
	struct journal_data d = old_save(mine, 1, "another bestiary");
	d.scored = JOURNAL_SCORED_YES;
	assert_true(play_journal_scored(&d, NULL));
	assert_true(play_journal_scored(&d, campaign(&c)));
	struct journal_level same[] = { lv("levels/01.lvl", L1), lv("levels/02.lvl", L2) };
	d = old_save(same, 2, BESTIARY);
	d.scored = JOURNAL_SCORED_NO; /* the campaign's levels, but begun with --bestiary, say */
	assert_false(play_journal_scored(&d, campaign(&c)));
}

static void test_old_saves(void **state)
{
	(void)state;
	struct campaign c;
	/* the campaign as it comes: scored */
	struct journal_level same[] = { lv("/usr/share/astray/levels/01.lvl", L1), lv("x", L2) };
	struct journal_data d = old_save(same, 2, BESTIARY);
	assert_true(play_journal_scored(&d, campaign(&c)));
	/* ... but not when this run has no campaign to compare with */
	assert_false(play_journal_scored(&d, NULL));
	/* with --set overrides */
	const char *sets[] = { "goblin.hp=1" };
	d.sets = sets;
	d.n_sets = 1;
	assert_false(play_journal_scored(&d, campaign(&c)));
	/* another bestiary */
	d = old_save(same, 2, "goblin\nglyph: g\nhp: 99\n");
	assert_false(play_journal_scored(&d, campaign(&c)));
	/* a level of one's own, alone or among the campaign's */
	struct journal_level mine[] = { lv("levels/01.lvl", L1), lv("mine.lvl", "astray-level 1\nname: mine\n") };
	d = old_save(mine, 2, BESTIARY);
	assert_false(play_journal_scored(&d, campaign(&c)));
	d = old_save(same, 1, BESTIARY); /* the campaign's first level alone */
	assert_false(play_journal_scored(&d, campaign(&c)));
	/* a Moving AI map */
	struct journal_level map[] = { lv("levels/01.lvl", L1), lv("levels/02.lvl", L2) };
	map[1].movingai = true;
	d = old_save(map, 2, BESTIARY);
	assert_false(play_journal_scored(&d, campaign(&c)));
	/* a generated dungeon with the campaign's bestiary: scored; with another: not */
	struct journal_level gen[] = { lv("dungeon", "astray-level 1\nname: D1\n"), lv("dungeon", L2),
				       lv("dungeon", L1) };
	d = old_save(gen, 3, BESTIARY);
	assert_true(play_journal_scored(&d, campaign(&c)));
	d = old_save(gen, 3, "other");
	assert_false(play_journal_scored(&d, campaign(&c)));
	struct journal_level half[] = { lv("dungeon", L1), lv("mine.lvl", "astray-level 1\nname: mine\n") };
	d = old_save(half, 2, BESTIARY);
	assert_false(play_journal_scored(&d, campaign(&c)));
}

/* The score list a game goes on: a generated dungeon of N levels (every
 * level "dungeon") is the list dungeon-N, anything else the campaign's. */
static void test_score_mode(void **state)
{
	(void)state;
	struct journal_level dungeon[3] = { { .name = "dungeon" }, { .name = "dungeon" }, { .name = "dungeon" } };
	char mode[24];
	play_score_mode(dungeon, 3, mode, sizeof mode);
	assert_string_equal(mode, "dungeon-3");
	play_score_mode(dungeon, 1, mode, sizeof mode);
	assert_string_equal(mode, "dungeon-1");
	struct journal_level campaign[2] = { { .name = "levels/01-first-steps.lvl" }, { .name = "dungeon" } };
	play_score_mode(campaign, 2, mode, sizeof mode);
	assert_string_equal(mode, "campaign");
	dungeon[1].movingai = true;
	play_score_mode(dungeon, 3, mode, sizeof mode);
	assert_string_equal(mode, "campaign");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_record_decides),
		cmocka_unit_test(test_old_saves),
		cmocka_unit_test(test_score_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
