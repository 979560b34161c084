/*
 * test_mind_track.c - the track mind (mind_track.c, docs/ai.md "Mind:
 * track") and the scent it follows (game.c): the player's cells carry the
 * turn it last stood there, water none; a tracker that lost sight of the
 * player follows the trail round a corner it cannot see past and reaches
 * the player where a chaser with the same memory gives up; water breaks
 * the trail; the tell ("follows your trail") is said when the player sees
 * it; a tracker walks back to where it lost the player once its memory
 * ran out; and with the trail at its default (scent 0) a tracker is a
 * chaser, move for move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

/* A game on one level with these kinds. */
static struct game *game_with(struct fixture *f, const char *kinds, const char *topology, const char *map,
			      uint64_t seed)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, kinds);
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, seed);
	assert_non_null(f->g);
	return f->g;
}

static int cell(const struct game *g, int x, int y) { return grid_index(g->grid, x, y); }

static int dist(const struct game *g, const struct monster *m)
{
	return grid_step_distance(g->grid, cell(g, m->x, m->y), cell(g, g->player.x, g->player.y));
}

/* The hound sees far but forgets at once (memory 0); harmless, so the
 * test sees contact without a death. */
static const char tracker[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 20\nmemory: 0\n"
			      "behaviour: track\nscent: 40\n";
static const char chaser[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 20\nmemory: 0\n";

/* An L of corridor: the player walks east, then south round the corner
 * out of the hound's sight. */
static const char corner_map[] = "#############\n"
				 "#h..@.......#\n"
				 "###########.#\n"
				 "###########.#\n"
				 "###########.#\n"
				 "###########.#\n"
				 "###########.#\n"
				 "###########.#\n"
				 "###########>#\n";
struct outcome {
	bool contact;       /* the hound came next to the player */
	bool blind_track;   /* it followed the trail on a turn it did not see the player */
	int final_dist;
	int final_y;
};

/* The player walks the L to (11, 7) and waits there. */
static struct outcome walk_the_l(const char *kinds, const char *map)
{
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8", map, 7);
	struct monster *m = &g->monsters[0];
	struct outcome o = { 0 };
	for (int i = 0; i < 7; i++)
		act_move(g, GRID_E);
	for (int i = 0; i < 6; i++) {
		act_move(g, GRID_S);
		o.blind_track |= m->mind.tracking && !m->mind.saw_player;
	}
	assert_int_equal(g->player.x, 11);
	assert_int_equal(g->player.y, 7);
	for (int i = 0; i < 25 && !g->over; i++) {
		act_wait(g);
		o.blind_track |= m->mind.tracking && !m->mind.saw_player;
		o.contact |= dist(g, m) <= 1;
	}
	o.contact |= g->first_contact_turn >= 0;
	o.final_dist = dist(g, m);
	o.final_y = m->y;
	fixture_fini(&f);
	return o;
}

static void test_follows_round_the_corner(void **state)
{
	(void)state;
	struct outcome t = walk_the_l(tracker, corner_map);
	assert_true(t.blind_track);
	assert_true(t.contact);
	assert_int_equal(t.final_dist, 1);
	/* the same hound as a chaser gives up where it lost sight */
	struct outcome c = walk_the_l(chaser, corner_map);
	assert_false(c.contact);
	assert_false(c.blind_track);
	assert_true(c.final_dist > 3);
	assert_int_equal(c.final_y, 1);
}

/* A nose without eyes (sight 0) one step behind the player along a
 * corridor with a pool: it follows the trail to the water and no
 * farther, even standing next to the player in the water; with floor
 * instead of water it follows the player to the end and bites (it bites
 * what its nose finds: the player's cell is the freshest of the trail). */
static const char nose_only[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 1\nsight: 0\nmemory: 0\n"
				"behaviour: track\nscent: 40\n";

static struct outcome wade(const char *map)
{
	struct fixture f;
	struct game *g = game_with(&f, nose_only, "square8", map, 7);
	struct monster *m = &g->monsters[0];
	struct outcome o = { 0 };
	while (g->player.x < 10 && !g->over) {
		act_move(g, GRID_E);
		o.blind_track |= m->mind.tracking;
	}
	for (int i = 0; i < 20 && !g->over; i++)
		act_wait(g);
	o.contact = g->damage_taken > 0; /* it bit */
	o.final_dist = dist(g, m);
	o.final_y = m->x; /* how far east it came */
	fixture_fini(&f);
	return o;
}

static void test_water_breaks_the_trail(void **state)
{
	(void)state;
	struct outcome dry = wade("############\n#h@........#\n###########>\n");
	assert_true(dry.blind_track);
	assert_true(dry.contact);
	assert_int_equal(dry.final_dist, 1);
	struct outcome wet = wade("############\n#h@...~....#\n###########>\n");
	assert_true(wet.blind_track); /* it followed the trail down to the water */
	assert_false(wet.contact);
	assert_int_equal(wet.final_y, 5); /* at the water's edge */
	/* the scent itself: none on the water, fresh stamps on both sides */
	struct fixture f;
	struct game *g = game_with(&f, nose_only, "square8", "############\n#h@...~....#\n###########>\n", 7);
	for (int i = 0; i < 8; i++)
		act_move(g, GRID_E);
	assert_int_equal(g->player.x, 10);
	assert_int_equal(g->scent[cell(g, 6, 1)], -1);
	assert_true(g->scent[cell(g, 5, 1)] >= 0);
	assert_true(g->scent[cell(g, 7, 1)] > g->scent[cell(g, 5, 1)] + 1);
	assert_int_equal(g->scent[cell(g, 10, 1)], g->turn);
	assert_int_equal(g->scent[cell(g, 1, 1)], -1); /* never stood there */
	fixture_fini(&f);
}

/* The trail goes stale: a hound to which only a trail of the last turn
 * is fresh (scent 1), three steps behind the player, loses it at the
 * corner as a chaser would. */
static void test_stale_trail_is_lost(void **state)
{
	(void)state;
	static const char short_nose[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 20\nmemory: 0\n"
					 "behaviour: track\nscent: 1\n";
	struct outcome o = walk_the_l(short_nose, corner_map);
	assert_false(o.contact);
	assert_int_equal(o.final_y, 1);
}

/* The tell: the player sees a hound that cannot see the player (its sight
 * is 1) pick up the trail. */
static void test_trail_tell(void **state)
{
	(void)state;
	static const char nose[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 1\nmemory: 0\n"
				   "behaviour: track\nscent: 40\n";
	struct fixture f;
	struct game *g = game_with(&f, nose, "square8", "##########\n#h@......#\n#########>\n", 3);
	struct monster *m = &g->monsters[0];
	act_move(g, GRID_E);
	act_move(g, GRID_E);
	assert_true(m->mind.tracking);
	assert_false(m->mind.saw_player);
	assert_true(message_contains(g, "The hound sniffs the ground and follows your trail."));
	char what[128];
	game_describe(g, m->x, m->y, what, sizeof what);
	assert_non_null(strstr(what, "following your trail"));
	/* it keeps one step behind, on the trail */
	for (int i = 0; i < 4; i++) {
		act_move(g, GRID_E);
		assert_true(dist(g, m) <= 2);
	}
	fixture_fini(&f);
}

/* Its route in the `r` overlay is the trail ahead of it: cells the
 * player walked, stamps rising. */
static void test_route_is_the_trail(void **state)
{
	(void)state;
	static const char nose[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 0\nmemory: 0\n"
				   "behaviour: track\nscent: 40\n";
	struct fixture f;
	struct game *g = game_with(&f, nose, "square8", "##############\n#h@..........#\n#############>\n", 3);
	struct monster *m = &g->monsters[0];
	for (int i = 0; i < 6; i++)
		act_move(g, GRID_E);
	const struct mind *mi = &m->mind;
	assert_true(mi->tracking);
	assert_true(mi->route_len >= 3);
	for (int j = 1; j < mi->route_len; j++) {
		assert_true(g->scent[mi->route[j]] >= 0);
		if (j > 1)
			assert_true(g->scent[mi->route[j]] > g->scent[mi->route[j - 1]]);
	}
	fixture_fini(&f);
}

/* Memory out before it reached the corner: a chaser stops; the tracker
 * walks on to where it last saw the player (the scent there is fresh)
 * and picks the trail up from there. */
static void test_walks_back_to_the_trail(void **state)
{
	(void)state;
	static const char slow[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 20\nmemory: 0\nspeed: 50\n"
				   "behaviour: track\nscent: 60\n";
	struct fixture f;
	struct game *g = game_with(&f, slow, "square8", corner_map, 7);
	struct monster *m = &g->monsters[0];
	for (int i = 0; i < 7; i++)
		act_move(g, GRID_E);
	for (int i = 0; i < 6; i++)
		act_move(g, GRID_S);
	for (int i = 0; i < 40 && dist(g, m) > 1; i++)
		act_wait(g);
	assert_int_equal(dist(g, m), 1);
	fixture_fini(&f);
}

/* scent 0: the track mind leaves every action to the chase rule, so the
 * game is the chaser's, hash for hash. */
static void test_no_scent_is_a_chaser(void **state)
{
	(void)state;
	static const char off[] = "kind: hound\nglyph: h\nhp: 50\ndamage: 0\nsight: 20\nmemory: 0\n"
				  "behaviour: track\nscent: 0\n";
	struct fixture a, b;
	struct game *ga = game_with(&a, off, "square8", corner_map, 7);
	struct game *gb = game_with(&b, chaser, "square8", corner_map, 7);
	for (int i = 0; i < 30; i++) {
		enum grid_dir d = i < 7 ? GRID_E : i < 13 ? GRID_S : GRID_DIR_COUNT;
		if (d == GRID_DIR_COUNT) {
			act_wait(ga);
			act_wait(gb);
		} else {
			act_move(ga, d);
			act_move(gb, d);
		}
		assert_int_equal(ga->monsters[0].x, gb->monsters[0].x);
		assert_int_equal(ga->monsters[0].y, gb->monsters[0].y);
	}
	fixture_fini(&a);
	fixture_fini(&b);
}

/* On a hex map too: round a bend, out of sight. */
static void test_hex_trail(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = game_with(&f, tracker, "hex",
				   "# # # # # # # # # # #\n"
				   " # h . . @ . . . . . #\n"
				   "# # # # # # # # # . #\n"
				   " # # # # # # # # . # #\n"
				   "# # # # # # # # . # #\n"
				   " # # # # # # # # . # #\n"
				   "# # # # # # # # > # #\n",
				   5);
	struct monster *m = &g->monsters[0];
	bool blind = false;
	for (int i = 0; i < 5; i++)
		act_move(g, GRID_E);
	static const enum grid_dir down[] = { GRID_SW, GRID_SW, GRID_SW, GRID_SE };
	for (size_t i = 0; i < sizeof down / sizeof down[0]; i++) {
		assert_int_equal(act_move(g, down[i]), RESULT_ACTED);
		blind |= m->mind.tracking && !m->mind.saw_player;
	}
	for (int i = 0; i < 20 && dist(g, m) > 1; i++) {
		act_wait(g);
		blind |= m->mind.tracking && !m->mind.saw_player;
	}
	assert_true(blind);
	assert_int_equal(dist(g, m), 1);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follows_round_the_corner),
		cmocka_unit_test(test_water_breaks_the_trail),
		cmocka_unit_test(test_stale_trail_is_lost),
		cmocka_unit_test(test_trail_tell),
		cmocka_unit_test(test_route_is_the_trail),
		cmocka_unit_test(test_walks_back_to_the_trail),
		cmocka_unit_test(test_no_scent_is_a_chaser),
		cmocka_unit_test(test_hex_trail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
