/*
 * test_mind_breed.c - the breed mind (src/world/model/mind_breed.c, the
 * rules' monster_breed in game.c; docs/ai.md, "Mind: breed") on
 * constructed levels: an ooze that knows the player but is walled off out
 * of its sight buds every `breed` of its actions up to its kind's
 * breed_max (the slain counted), and the player hears it (on all five
 * grids); one in the
 * player's view never buds, nor one that never met the player; the buds
 * are whole monsters (they hunt, they are hashed and saved); a save
 * loaded after the buds goes on to the same hashes, and the same seed
 * gives the same game.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"

static const char kinds[] = "kind: ooze\nglyph: J\nhp: 5\ndamage: 0\nspeed: 100\nsight: 6\nmemory: 1000\n"
			    "behaviour: breed\nbreed: 3\nbreed_max: 4\n";

static struct game *make_game_on(struct fixture *f, const char *topology, const char *map, bool alert)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, kinds);
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, 7);
	assert_non_null(f->g);
	f->g->player.hp = 1000;
	if (alert)
		for (int i = 0; i < f->g->n_monsters; i++)
			ai_mind_alert(&f->g->monsters[i].mind, f->g->monsters[i].kind, f->g->player.x,
				      f->g->player.y, f->g->turn);
	return f->g;
}

static struct game *make_game(struct fixture *f, const char *map, bool alert)
{
	return make_game_on(f, "square8", map, alert);
}

static int alive(const struct game *g)
{
	int n = 0;
	for (int i = 0; i < g->n_monsters; i++)
		n += g->monsters[i].alive;
	return n;
}

/* The ooze in a closed cell of walls beside the player's room: it knows
 * where the player is, cannot reach it and is out of its sight. */
static const char walled[] = "############\n"
			     "#.....#....#\n"
			     "#..@..#.J..#\n"
			     "#.....#....#\n"
			     "#.....#...>#\n"
			     "############";

/* The same ooze in the player's room, in view. */
static const char open_room[] = "############\n"
				"#..........#\n"
				"#..@.....J.#\n"
				"#..........#\n"
				"#.........>#\n"
				"############";

static void test_unseen_buds_to_cap(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game(&f, walled, true);
	assert_int_equal(g->monster_cap, 4 + g->bestiary.rules.arrival_max); /* one on the map, room for three buds and the arrivals */
	for (int t = 0; t < 2; t++)
		act_wait(g);
	assert_int_equal(alive(g), 1); /* not yet: three of its actions */
	act_wait(g);
	assert_int_equal(alive(g), 2);
	assert_true(message_contains(g, "You hear a wet, tearing sound."));
	for (int t = 0; t < 30; t++)
		act_wait(g);
	assert_int_equal(g->n_monsters, 4); /* breed_max */
	assert_int_equal(alive(g), 4);
	/* the buds are whole: they know the player as their parent did, and
	 * stand on free cells of the sealed room */
	for (int i = 1; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		assert_true(m->mind.hunting);
		assert_int_equal(m->hp, 5);
		assert_int_equal(g->occupant[grid_index(g->grid, m->x, m->y)], i);
		assert_true(m->x > 6);
	}
	fixture_fini(&f);
}

/* The same on the other grids: a hex map written out, diamond ones
 * turned from the square map. */
static const char walled_hex[] = "# # # # # # # # # # # #\n"
				 " # . . . . . # . . . . #\n"
				 "# . . @ . . # . J . . #\n"
				 " # . . . . . # . . . . #\n"
				 "# . . . . . # . . . > #\n"
				 " # # # # # # # # # # # #";

static void test_every_grid(void **state)
{
	(void)state;
	const char *topos[] = { "square4", "hex", "diamond8", "diamond4" };
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		char *diamond = t >= 2 ? fixture_square_to_diamond(walled) : NULL;
		struct fixture f;
		struct game *g = make_game_on(&f, topos[t], t == 1 ? walled_hex : diamond ? diamond : walled, true);
		free(diamond);
		for (int i = 0; i < 30; i++)
			act_wait(g);
		if (g->n_monsters != 4)
			fprintf(stderr, "%s: %d oozes\n", topos[t], g->n_monsters);
		assert_int_equal(g->n_monsters, 4);
		assert_true(message_contains(g, "You hear a wet, tearing sound."));
		fixture_fini(&f);
	}
}

static void test_slain_count(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game(&f, walled, true);
	for (int t = 0; t < 3; t++)
		act_wait(g);
	assert_int_equal(g->n_monsters, 2);
	/* the player kills the bud (the rules' way: hit points, then dead) */
	struct monster *b = &g->monsters[1];
	b->alive = false;
	g->occupant[grid_index(g->grid, b->x, b->y)] = -1;
	g->ai.crowd[grid_index(g->grid, b->x, b->y)] = 0;
	game_maps_written(g); /* written by hand: hashed and saved again */
	for (int t = 0; t < 30; t++)
		act_wait(g);
	assert_int_equal(g->n_monsters, 4);
	assert_int_equal(alive(g), 3); /* the slain one still counts */
	fixture_fini(&f);
}

static void test_seen_never_buds(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game(&f, open_room, true);
	for (int t = 0; t < 30; t++)
		act_wait(g);
	assert_int_equal(g->n_monsters, 1);
	assert_false(message_contains(g, "splits"));
	fixture_fini(&f);
	/* one that never met the player does not bud either */
	g = make_game(&f, walled, false);
	for (int t = 0; t < 30; t++)
		act_wait(g);
	assert_int_equal(g->n_monsters, 1);
	fixture_fini(&f);
}

static void play(struct game *g, int from, int to, uint64_t *hashes)
{
	for (int i = from; i < to; i++) {
		act_wait(g);
		if (hashes)
			hashes[i] = game_hash(g);
	}
}

static void test_determinism(void **state)
{
	(void)state;
	uint64_t a[30] = { 0 }, b[30] = { 0 }, c[30] = { 0 };
	struct fixture f, f2;
	struct game *g = make_game(&f, walled, true);
	play(g, 0, 30, a);
	fixture_fini(&f);
	g = make_game(&f, walled, true);
	play(g, 0, 4, b);
	int saved_n = g->n_monsters;
	assert_int_equal(saved_n, 2);
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	play(g, 4, 30, b);
	assert_memory_equal(a, b, sizeof a);
	/* loaded into a game that has not bred yet */
	struct game *h = make_game(&f2, walled, true);
	char err[256];
	assert_true(game_state_load(h, bytes, len, err, sizeof err));
	assert_int_equal(h->n_monsters, saved_n);
	assert_int_equal(game_hash(h), a[3]);
	play(h, 4, 30, c);
	assert_int_equal(h->n_monsters, 4);
	for (int i = 4; i < 30; i++)
		assert_int_equal(c[i], a[i]);
	free(bytes);
	fixture_fini(&f2);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unseen_buds_to_cap),
		cmocka_unit_test(test_every_grid),
		cmocka_unit_test(test_slain_count),
		cmocka_unit_test(test_seen_never_buds),
		cmocka_unit_test(test_determinism),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
