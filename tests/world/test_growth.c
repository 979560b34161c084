/*
 * test_growth.c - the rules of a run worth replaying (rules version 4):
 * experience and levels, to-hit and damage rolls from the combat stream,
 * wandering arrivals that grow with the time a level is held and stop
 * with rules.arrival=0, monsters' healing, rest stopped by an arrival
 * heard, and a state with arrivals saved and loaded whole.  Levels and
 * the bestiary come from strings (the fixture's kinds, whose rules block
 * makes every blow hit and no monster arrive; each test sets the knobs it
 * is about with --set, as a tuner would).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

/* A game on one level from the fixture's kinds with `sets` applied
 * (NULL-terminated "KIND.KEY=VALUE" or "rules.KEY=VALUE"). */
static struct game *game_with(struct fixture *f, const char *map, uint64_t seed, const char *const *sets)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, fixture_kinds);
	char err[256];
	for (int i = 0; sets && sets[i]; i++)
		if (!bestiary_set(&f->b, sets[i], err, sizeof err))
			fail_msg("%s: %s", sets[i], err);
	f->lv[0] = fixture_level("square8", map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, seed);
	assert_non_null(f->g);
	return f->g;
}

/* Experience: a kill gives the kind's xp; level 2 at xp_base, level 3 at
 * 3 x xp_base; each level adds level_hp to max hp and hp, and every
 * level_damage levels one point of damage. */
static void test_level_up(void **state)
{
	(void)state;
	static const char *const sets[] = { "dummy.xp=14", "watcher.xp=31", NULL };
	struct fixture f;
	struct game *g = game_with(&f, "#######\n#@d...#\n#.w...#\n######>\n", 1, sets);
	assert_int_equal(g->player.xlevel, 1);
	assert_int_equal(game_xp_for_level(g, 1), 0);
	assert_int_equal(game_xp_for_level(g, 2), 15);
	assert_int_equal(game_xp_for_level(g, 3), 45);
	assert_int_equal(game_xp_for_level(g, 4), 90);
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED); /* kills the dummy (1 hp) */
	assert_int_equal(g->player.kills, 1);
	assert_int_equal(g->player.xp, 14);
	assert_int_equal(g->player.xlevel, 1); /* one short of 15 */
	assert_true(message_contains(g, "You kill the dummy (+14 xp)."));
	assert_int_equal(g->player.max_hp, PLAYER_HP);
	int damage0 = g->player.damage;
	/* the watcher (5 hp, damage 0): 31 xp more, 45 in all: level 3 at once */
	while (game_monster_at(g, 2, 2) && g->turn < 50)
		act_move(g, GRID_SE);
	assert_null(game_monster_at(g, 2, 2));
	assert_int_equal(g->player.xp, 45);
	assert_int_equal(g->player.xlevel, 3);
	assert_int_equal(g->player.max_hp, PLAYER_HP + 2 * g->bestiary.rules.level_hp);
	assert_int_equal(g->player.hp, g->player.max_hp);
	assert_int_equal(g->player.damage, damage0 + 1); /* level_damage 2: at level 3 */
	assert_true(message_contains(g, "You feel stronger: level 2, 35 hp."));
	assert_true(message_contains(g, "You feel stronger: level 3, 40 hp, harder blows."));
	fixture_fini(&f);

	/* the level's knob caps it */
	static const char *const capped[] = { "dummy.xp=1000", "rules.level_max=2", NULL };
	g = game_with(&f, "#######\n#@d...#\n######>\n", 1, capped);
	act_move(g, GRID_E);
	assert_int_equal(g->player.xlevel, 2);
	fixture_fini(&f);
}

/* A fight's record: the monster's and the player's hp after each of n
 * blows at a sturdy monster, and how many blows and bites missed. */
struct fight {
	int hp[2][40];
	int player_misses, monster_misses;
};

static void fight(uint64_t seed, struct fight *out)
{
	static const char *const sets[] = { "rules.player_hit=50", "slug.hit=50", "slug.hp=1000", "slug.speed=100",
					    NULL };
	struct fixture f;
	struct game *g = game_with(&f, "#######\n#@s...#\n######>\n", seed, sets);
	g->player.hp = g->player.max_hp = 1000;
	memset(out, 0, sizeof *out);
	struct monster *m = game_monster_at(g, 2, 1);
	assert_non_null(m);
	for (int i = 0; i < 40; i++) {
		unsigned stamp = g->message_stamp;
		assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
		out->hp[0][i] = m->hp;
		out->hp[1][i] = g->player.hp;
		for (int k = 0; game_message(g, k) && game_message(g, k)->stamp > stamp; k++) {
			const struct message *msg = game_message(g, k);
			if (strstr(msg->text, "You miss the slug."))
				out->player_misses += msg->count; /* merged misses count each */
			if (strstr(msg->text, "The slug misses you."))
				out->monster_misses += msg->count;
		}
	}
	fixture_fini(&f);
}

/* To-hit and damage are rolled from the seeded combat stream: the same
 * seed fights the same fight, another seed another; at 50% both sides
 * miss, and a hit takes 1..damage. */
static void test_combat_rolls(void **state)
{
	(void)state;
	struct fight a, b, c;
	fight(7, &a);
	fight(7, &b);
	fight(8, &c);
	assert_memory_equal(&a, &b, sizeof a);
	assert_memory_not_equal(&a, &c, sizeof a);
	assert_true(a.player_misses >= 5 && a.player_misses <= 35);
	assert_true(a.monster_misses >= 5 && a.monster_misses <= 35);
	int prev = 1000;
	for (int i = 0; i < 40; i++) {
		int d = prev - a.hp[0][i];
		assert_true(d >= 0 && d <= PLAYER_DAMAGE);
		prev = a.hp[0][i];
	}
	/* hit 100 never misses; armour takes points off a monster's chance */
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "#######\n#@g...#\n######>\n", 1);
	const struct monster_kind *gob = game_monster_at(g, 2, 1)->kind;
	assert_int_equal(game_monster_hit_chance(g, gob), 100);
	g->player.armour = 30;
	assert_int_equal(game_monster_hit_chance(g, gob), 70);
	g->player.armour = 200;
	assert_int_equal(game_monster_hit_chance(g, gob), 5); /* never hopeless */
	g->player.hit_bonus = -300;
	assert_int_equal(game_player_hit_chance(g, gob), 5);
	/* the cursor tells the odds */
	g->player.hit_bonus = -20;
	g->player.armour = 30;
	char buf[200];
	game_describe(g, 2, 1, buf, sizeof buf);
	if (!strstr(buf, "; you hit 80%, it hits 70%)"))
		fail_msg("describe: \"%s\"", buf);
	fixture_fini(&f);
}

/* Arrivals on a wide room where the player sits unharmed: counts those in
 * turns [0, t) and [t, 2t). */
static void arrivals(uint64_t seed, const char *const *sets, int t, int *first, int *second)
{
	struct fixture f;
	struct game *g = game_with(&f,
				   "##################################\n"
				   "#@...............................#\n"
				   "#................................#\n"
				   "#................................#\n"
				   "#................................#\n"
				   "#################################>\n",
				   seed, sets);
	g->player.hp = g->player.max_hp = 1000000;
	int own = g->n_monsters;
	while (g->turn < t && !g->over)
		act_wait(g);
	*first = g->arrivals;
	while (g->turn < 2 * t && !g->over)
		act_wait(g);
	*second = g->arrivals - *first;
	assert_int_equal(g->n_monsters, own + g->arrivals);
	/* each came from the kinds of depth 1 (rats, bats, goblins; the
	 * fixture has bats and goblins) */
	for (int i = own; i < g->n_monsters; i++)
		assert_true(g->monsters[i].kind->glyph == 'b' || g->monsters[i].kind->glyph == 'g');
	fixture_fini(&f);
}

/* The longer a level is held, the more arrive; arrival=0 stops them. */
static void test_arrivals_grow(void **state)
{
	(void)state;
	static const char *const sets[] = { "rules.arrival=50", "rules.arrival_ramp=100", "rules.arrival_max=64",
					    "goblin.damage=0", "bat.damage=0", NULL };
	int first = 0, second = 0;
	for (uint64_t s = 1; s <= 12; s++) {
		int a, b;
		arrivals(s, sets, 100, &a, &b);
		first += a;
		second += b;
	}
	/* expected 7.5 and 12.5 a game: 90 and 150 */
	assert_true(first > 40);
	assert_true(second > first + first / 4);
	static const char *const none[] = { "rules.arrival=0", NULL };
	int a, b;
	arrivals(3, none, 500, &a, &b);
	assert_int_equal(a + b, 0);
	/* arrival_max caps a level */
	static const char *const capped[] = { "rules.arrival=1000", "rules.arrival_max=3", "goblin.damage=0",
					      "bat.damage=0", NULL };
	arrivals(3, capped, 200, &a, &b);
	assert_int_equal(a + b, 3);
}

/* A rest is stopped by an arrival the player hears, with the reason. */
static void test_rest_stops_for_arrival(void **state)
{
	(void)state;
	static const char *const sets[] = { "rules.arrival=1000", "rules.arrival_ramp=1", NULL };
	struct fixture f;
	/* every cell out of sight (past 8 steps) is within hearing (16) */
	struct game *g = game_with(&f, "##################\n#@...............#\n#################>\n", 5, sets);
	g->player.hp = 5;
	struct action rest = { .kind = ACT_REST };
	assert_int_equal(game_act(g, &rest), RESULT_ACTED);
	int acts = 0;
	while (g->travel.active && acts++ < 1000)
		act_travel_step(g);
	assert_int_equal(g->travel.stopped, TRAVEL_HEARD);
	assert_true(message_contains(g, "You hear something coming."));
	assert_true(message_contains(g, "You stop: you hear something coming."));
	assert_int_equal(g->arrivals, 1);
	fixture_fini(&f);
}

/* A hurt monster regains 1 hp every `heal` turns; 0 never. */
static void test_monsters_heal(void **state)
{
	(void)state;
	static const char *const sets[] = { "rules.heal=5", "watcher.heal=0", "dummy.heal=2", "dummy.hp=10", NULL };
	struct fixture f;
	struct game *g = game_with(&f, "########\n#@....w#\n#.....d#\n#######>\n", 1, sets);
	struct monster *w = game_monster_at(g, 6, 1), *d = game_monster_at(g, 6, 2);
	w->hp = 1;
	d->hp = 1;
	while (g->turn < 10)
		act_wait(g);
	assert_int_equal(w->hp, 1 + 2); /* turns 5 and 10: the rules' heal */
	assert_int_equal(d->hp, 1 + 5); /* its own heal, every 2 turns */
	while (g->turn < 40)
		act_wait(g);
	assert_int_equal(w->hp, 5); /* healed up to its kind's hp, no further */
	fixture_fini(&f);

	static const char *const never[] = { "rules.heal=0", NULL };
	g = game_with(&f, "########\n#@....w#\n#######>\n", 1, never);
	w = game_monster_at(g, 6, 1);
	w->hp = 2;
	while (g->turn < 100)
		act_wait(g);
	assert_int_equal(w->hp, 2);
	fixture_fini(&f);
}

/* A state with arrivals (monsters past the level's own) saves and loads
 * into a fresh game of the same level whole: the same hash, and the two
 * play on alike. */
static void test_state_with_arrivals(void **state)
{
	(void)state;
	static const char *const sets[] = { "rules.arrival=200", "rules.arrival_ramp=10", NULL };
	const char *map = "##################################\n"
			  "#@...............................#\n"
			  "#.................g..............#\n"
			  "#################################>\n";
	struct fixture a, b;
	struct game *ga = game_with(&a, map, 11, sets);
	struct game *gb = game_with(&b, map, 11, sets);
	ga->player.hp = ga->player.max_hp = 100000;
	while (ga->arrivals < 3 && ga->turn < 2000)
		act_wait(ga);
	assert_true(ga->arrivals >= 3);
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(ga, &bytes, &len), GAME_STATE_OK);
	char err[200];
	assert_true(game_state_load(gb, bytes, len, err, sizeof err));
	free(bytes);
	assert_int_equal(gb->n_monsters, ga->n_monsters);
	assert_true(game_hash(ga) == game_hash(gb));
	for (int i = 0; i < 30; i++) {
		act_wait(ga);
		act_wait(gb);
	}
	assert_true(game_hash(ga) == game_hash(gb));
	fixture_fini(&a);
	fixture_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_up),
		cmocka_unit_test(test_combat_rolls),
		cmocka_unit_test(test_arrivals_grow),
		cmocka_unit_test(test_rest_stops_for_arrival),
		cmocka_unit_test(test_monsters_heal),
		cmocka_unit_test(test_state_with_arrivals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
