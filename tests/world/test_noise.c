/*
 * test_noise.c - noise, sleep and wandering (noise.c, game.c, ai.c;
 * docs/ai.md "Noise, sleep and wandering"): the flood carries a noise
 * round walls for as many steps as it is loud and stops at a closed door;
 * a fight wakes a sleeper within that distance but not one behind a wall
 * or a closed door beyond it; a sleeper does not hunt a player who stays
 * away (and is described as asleep), wakes when the player comes next to
 * it and strikes; a monster that sees the player from afar says it
 * noticed; a noise sends an awake wanderer or tracker to look
 * while a monster of today's kinds (no sleep, no wander) stays deaf; the
 * `sleep` knob draws from the game's seed; a wanderer walks; --chase's
 * alert and all_hunt wake everyone; and the games replay: the same seed
 * gives the same hash, and a save loaded mid-game plays on to the same
 * hash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "noise.h"

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

/* a punching bag next to the player; sleepers; a chaser of today */
static const char kinds[] = "kind: bag\nglyph: d\nhp: 10000\ndamage: 0\nsight: 0\n"
			    "kind: sleeper\nglyph: s\nhp: 5\ndamage: 1\nsight: 20\nsleep: 100\nhit: 100\n"
			    "kind: goblin\nglyph: g\nhp: 5\ndamage: 1\nsight: 20\nhit: 100\n"
			    "kind: walker\nglyph: w\nhp: 5\ndamage: 1\nsight: 3\nwander: 1\nmemory: 30\nhit: 100\n"
			    "kind: hound\nglyph: h\nhp: 5\ndamage: 1\nsight: 20\nmemory: 30\nbehaviour: track\nhit: 100\n"
			    "scent: 40\nrules:\nplayer_hit: 100\narrival: 0\nheal: 0\n"; /* every blow hits */

static struct monster *at(struct game *g, int x, int y)
{
	struct monster *m = game_monster_at(g, x, y);
	assert_non_null(m);
	return m;
}

/* The flood itself: steps along legal moves, round walls, stopped by a
 * closed door, nothing past its loudness. */
static void test_flood(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8",
				   "###########\n"
				   "#@....#...#\n"
				   "#.##.+#...#\n"
				   "#.....#...#\n"
				   "##########>\n",
				   1);
	const int *cells;
	int n = noise_flood(g->noise, g->tiles, g->open, cell(g, 1, 1), 2, &cells);
	assert_int_equal(cells[0], cell(g, 1, 1));
	bool seen[64] = { false };
	for (int i = 0; i < n; i++) {
		assert_true(cells[i] < 64);
		seen[cells[i]] = true;
	}
	assert_true(seen[cell(g, 3, 1)]);       /* two steps east */
	assert_true(seen[cell(g, 1, 3)]);       /* two steps south */
	assert_false(seen[cell(g, 4, 1)]);      /* three */
	assert_false(seen[cell(g, 2, 3)]);      /* three, round the wall: no corner cutting */
	n = noise_flood(g->noise, g->tiles, g->open, cell(g, 1, 1), 20, &cells);
	memset(seen, 0, sizeof seen);
	for (int i = 0; i < n; i++)
		seen[cells[i]] = true;
	assert_true(seen[cell(g, 5, 3)]);
	assert_false(seen[cell(g, 5, 2)]); /* the closed door */
	assert_false(seen[cell(g, 8, 2)]); /* the room behind it */
	g->open[cell(g, 5, 2)] = 1;
	game_maps_written(g); /* written by hand: hashed and saved again */
	n = noise_flood(g->noise, g->tiles, g->open, cell(g, 1, 1), 20, &cells);
	memset(seen, 0, sizeof seen);
	for (int i = 0; i < n; i++)
		seen[cells[i]] = true;
	assert_true(seen[cell(g, 5, 2)]);
	assert_false(seen[cell(g, 8, 2)]); /* still a wall between */
	assert_int_equal(noise_flood(g->noise, g->tiles, g->open, cell(g, 0, 0), 5, &cells), 0); /* a wall */
	fixture_fini(&f);
}

/* A noise louder than the queue's first size (1024 cells) on an open
 * map: the queue grows and holds every cell within reach, once; and
 * 70,000 noises, past the 16-bit stamps' turn (65,535), each reach the
 * same cells in the same order. */
static void test_queue_grows_and_stamps_go_round(void **state)
{
	(void)state;
	struct grid *gr = grid_create(61, 61, GRID_SQUARE8);
	assert_non_null(gr);
	for (int c = 0; c < 61 * 61; c++)
		grid_set_cost(gr, c, 1);
	uint8_t tiles[61 * 61], open[61 * 61];
	memset(tiles, TILE_FLOOR, sizeof tiles);
	memset(open, 0, sizeof open);
	struct noise *nz = noise_create(gr);
	assert_non_null(nz);
	const int *cells;
	const int mid = grid_index(gr, 30, 30);
	/* square8, no walls: every cell within 30 king's steps, the whole map */
	assert_int_equal(noise_flood(nz, tiles, open, mid, 30, &cells), 61 * 61);
	bool seen[61 * 61] = { false };
	for (int i = 0; i < 61 * 61; i++) {
		assert_false(seen[cells[i]]);
		seen[cells[i]] = true;
	}
	int first[25];
	const int n = noise_flood(nz, tiles, open, mid, 2, &cells);
	assert_int_equal(n, 25);
	memcpy(first, cells, sizeof first);
	for (int k = 0; k < 70000; k++) {
		assert_int_equal(noise_flood(nz, tiles, open, mid, 2, &cells), 25);
		if (k % 997 == 0 || k >= 65530)
			assert_memory_equal(cells, first, sizeof first);
	}
	noise_destroy(nz);
	grid_destroy(gr);
}

/* The player hits the bag: the sleeper along the corridor (within
 * NOISE_FIGHT steps) wakes and comes to look; the one beyond a wall (near
 * as the crow flies, far round it) and the one behind a closed door sleep
 * on. */
static void test_fight_wakes_within_the_flood(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8",
				   "################\n"
				   "#@d......s.....#\n"
				   "#.##+###########\n"
				   "#.#...#.s......#\n"
				   "#.#.s.#........#\n"
				   "#.#####........#\n"
				   "#.............>#\n"
				   "################\n",
				   1);
	struct monster *near = at(g, 9, 1), *walled = at(g, 8, 3), *doored = at(g, 4, 4);
	assert_true(near->mind.asleep && walled->mind.asleep && doored->mind.asleep);
	char what[128];
	game_describe(g, 9, 1, what, sizeof what);
	assert_non_null(strstr(what, "sleeper"));
	assert_non_null(strstr(what, "asleep"));
	act_move(g, GRID_E); /* a blow at the bag */
	assert_int_equal(g->noise_cell, cell(g, 1, 1));
	assert_int_equal(g->noise_loud, NOISE_FIGHT);
	assert_false(near->mind.asleep);
	assert_true(walled->mind.asleep);
	assert_true(doored->mind.asleep);
	assert_true(message_contains(g, "The sleeper wakes up."));
	/* woken, it comes: it sees the player down the corridor */
	assert_true(near->mind.hunting);
	assert_true(near->x < 9);
	for (int i = 0; i < 10; i++)
		act_wait(g);
	assert_true(walled->mind.asleep);
	assert_true(doored->mind.asleep);
	assert_int_equal(walled->x, 8);
	assert_int_equal(doored->x, 4);
	fixture_fini(&f);
}

/* A sleeper in plain view does not hunt a player who keeps away (waits
 * or walks: walking is silent); next to it, it wakes and strikes (the
 * status count); a goblin that sees the player from afar says it noticed. */
static void test_sleeper_ignores_a_quiet_player(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8",
				   "##########\n"
				   "#@.......#\n"
				   "#......s.#\n"
				   "#########>\n",
				   1);
	struct monster *m = at(g, 7, 2);
	for (int i = 0; i < 10; i++)
		act_wait(g);
	for (int i = 0; i < 4; i++)
		act_move(g, GRID_E);
	assert_true(m->mind.asleep);
	assert_false(m->mind.hunting);
	assert_int_equal(m->x, 7);
	assert_int_equal(game_noticed_by(g), 0);
	act_move(g, GRID_E); /* (6,1): next to it */
	assert_false(m->mind.asleep);
	assert_true(m->mind.hunting);
	assert_true(message_contains(g, "The sleeper hits you")); /* the blow is the tell */
	assert_false(message_contains(g, "notices you"));
	assert_int_equal(game_noticed_by(g), 1);
	fixture_fini(&f);
	/* a goblin of today that sees the player from afar notices it */
	g = game_with(&f, kinds, "square8",
		      "##########\n"
		      "#@.......#\n"
		      "#......g.#\n"
		      "#########>\n",
		      1);
	assert_int_equal(game_noticed_by(g), 0);
	act_wait(g);
	assert_true(message_contains(g, "The goblin notices you!"));
	assert_int_equal(game_noticed_by(g), 1);
	fixture_fini(&f);
}

/* A door opened is heard: an awake wanderer (or a tracker) round the
 * corner goes to look at the door; a goblin of today (no sleep, no
 * wander) does not move. */
static void test_noise_sends_the_restless_to_look(void **state)
{
	(void)state;
	static const char *const who[] = { "walker", "hound", "goblin" };
	static const char glyphs[] = "whg";
	for (int k = 0; k < 3; k++) {
		char map[256];
		snprintf(map, sizeof map,
			 "############\n"
			 "#@+........#\n"
			 "###.########\n"
			 "###.########\n"
			 "###..%c######\n"
			 "###########>\n",
			 glyphs[k]);
		struct fixture f;
		struct game *g = game_with(&f, kinds, "square8", map, 1);
		struct monster *m = at(g, 5, 4);
		act_move(g, GRID_E); /* opens the door at (2,1) */
		assert_true(message_contains(g, "You open the door."));
		assert_int_equal(g->noise_cell, cell(g, 2, 1));
		if (k < 2) {
			assert_true(m->mind.hunting);
			assert_int_equal(m->mind.target_x, 2);
			assert_int_equal(m->mind.target_y, 1);
			for (int i = 0; i < 4; i++)
				act_wait(g);
			assert_true(m->y < 4);
		} else {
			assert_false(m->mind.hunting);
			for (int i = 0; i < 4; i++)
				act_wait(g);
			assert_int_equal(m->y, 4);
		}
		(void)who;
		fixture_fini(&f);
	}
}

/* Running is heard a little (NOISE_HURRY): a sleeper three steps from a
 * run wakes, one that the player walks past at the same distance does not. */
static void test_running_is_heard(void **state)
{
	(void)state;
	static const char map[] = "############\n"
				  "#@.........#\n"
				  "#..........#\n"
				  "#..........#\n"
				  "#.....s....#\n"
				  "###########>\n";
	for (int run = 0; run < 2; run++) {
		struct fixture f;
		struct game *g = game_with(&f, kinds, "square8", map, 1);
		struct monster *m = at(g, 6, 4);
		if (run) {
			struct action a = { .kind = ACT_RUN, .dir = GRID_E };
			game_act(g, &a);
			while (g->travel.active && g->player.x < 6)
				act_travel_step(g);
		} else {
			for (int i = 0; i < 5; i++)
				act_move(g, GRID_E);
		}
		assert_int_equal(g->player.y, 1);
		if (run)
			assert_false(m->mind.asleep);
		else
			assert_true(m->mind.asleep);
		fixture_fini(&f);
	}
}

/* The sleep knob draws from the game's seed at level load: 100 all, 0
 * none, 50 some, the same ones for the same seed. */
static void test_sleep_knob(void **state)
{
	(void)state;
	static const char map[] = "##########\n"
				  "#@.......#\n"
				  "#........#\n"
				  "#.ssssss.#\n"
				  "#.ssssss.#\n"
				  "#########>\n";
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8", map, 1);
	for (int i = 0; i < g->n_monsters; i++)
		assert_true(g->monsters[i].mind.asleep);
	fixture_fini(&f);
	unsigned pattern[2] = { 0, 0 };
	for (int rep = 0; rep < 2; rep++) {
		memset(&f, 0, sizeof f);
		fixture_bestiary(&f.b, kinds);
		bestiary_find_name(&f.b, "sleeper")->sleep = 50;
		f.lv[0] = fixture_level("square8", map, &f.b);
		f.levels[0] = f.lv[0];
		f.n = 1;
		f.g = game_create(f.levels, 1, &f.b, 42);
		for (int i = 0; i < f.g->n_monsters; i++)
			pattern[rep] |= (unsigned)f.g->monsters[i].mind.asleep << i;
		fixture_fini(&f);
	}
	assert_int_equal(pattern[0], pattern[1]);
	assert_true(pattern[0] != 0 && pattern[0] != (1u << 12) - 1);
	/* 0: none sleeps, and no number is drawn for it */
	memset(&f, 0, sizeof f);
	fixture_bestiary(&f.b, kinds);
	bestiary_find_name(&f.b, "sleeper")->sleep = 0;
	f.lv[0] = fixture_level("square8", map, &f.b);
	f.levels[0] = f.lv[0];
	f.n = 1;
	f.g = game_create(f.levels, 1, &f.b, 42);
	struct rng fresh;
	rng_seed(&fresh, 42);
	assert_true(fresh.s[0] == f.g->rng.s[0] && fresh.s[1] == f.g->rng.s[1]);
	for (int i = 0; i < f.g->n_monsters; i++)
		assert_false(f.g->monsters[i].mind.asleep);
	fixture_fini(&f);
}

/* --chase's alert (ai_mind_alert) and all_hunt wake sleepers: the scale
 * runs still make every monster hunt. */
static void test_chase_wakes(void **state)
{
	(void)state;
	static const char map[] = "####################\n"
				  "#@.................#\n"
				  "#................s.#\n"
				  "###################>\n";
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8", map, 1);
	struct monster *m = &g->monsters[0];
	ai_mind_alert(&m->mind, m->kind, g->player.x, g->player.y, g->turn);
	act_wait(g);
	assert_false(m->mind.asleep);
	assert_true(m->x < 17);
	fixture_fini(&f);
	g = game_with(&f, kinds, "square8", map, 1);
	m = &g->monsters[0];
	g->ai.all_hunt = true;
	act_wait(g);
	assert_false(m->mind.asleep);
	assert_true(m->mind.hunting);
	assert_true(m->x < 17);
	fixture_fini(&f);
}

/* A wanderer that has not seen the player walks about (its route is a
 * plan to a cell drawn from the game's numbers); a goblin of today waits. */
static void test_wanderer_walks(void **state)
{
	(void)state;
	static const char map[] = "####################\n"
				  "#@#................#\n"
				  "#.#........w.......#\n"
				  "#.#................#\n"
				  "#.#................#\n"
				  "#.##################\n"
				  "#..................>\n"
				  "####################\n";
	struct fixture f;
	struct game *g = game_with(&f, kinds, "square8", map, 3);
	struct monster *m = &g->monsters[0];
	int moved = 0, x = m->x, y = m->y;
	for (int i = 0; i < 30; i++) {
		act_wait(g);
		moved += m->x != x || m->y != y;
		x = m->x;
		y = m->y;
		assert_false(m->mind.hunting);
	}
	assert_true(moved >= 10);
	char what[128];
	g->visible[cell(g, m->x, m->y)] = g->remembered[cell(g, m->x, m->y)] = 1; /* as if in view */
	game_maps_written(g); /* written by hand: hashed and saved again */
	game_describe(g, m->x, m->y, what, sizeof what);
	assert_non_null(strstr(what, "wandering"));
	fixture_fini(&f);
}

/* Same seed, same game; a save in the middle loads into a fresh game that
 * plays on to the same hash (sleepers, wanderers, a tracker, noise). */
static void test_determinism_and_save(void **state)
{
	(void)state;
	static const char map[] = "######################\n"
				  "#@....+.....s...w....#\n"
				  "#.....#..........h...#\n"
				  "#..d..#....~~~.......#\n"
				  "#.....+.....s....w...#\n"
				  "#####################>\n";
	static const enum action_kind script_kinds[] = { ACT_MOVE, ACT_MOVE, ACT_RUN, ACT_WAIT, ACT_MOVE };
	uint64_t hashes[2][80];
	struct fixture f[2];
	struct game *gs[2];
	void *mid = NULL;
	size_t mid_len = 0;
	for (int r = 0; r < 2; r++) {
		gs[r] = game_with(&f[r], kinds, "square8", map, 11);
		struct rng script;
		rng_seed(&script, 5);
		for (int i = 0; i < 80; i++) {
			struct action a = { .kind = script_kinds[rng_range(&script, 0, 4)],
					    .dir = (enum grid_dir)rng_range(&script, 0, 7) };
			game_act(gs[r], &a);
			while (gs[r]->travel.active && !gs[r]->over)
				act_travel_step(gs[r]);
			hashes[r][i] = game_hash(gs[r]);
			if (r == 0 && i == 39)
				assert_int_equal(game_state_save(gs[r], &mid, &mid_len), GAME_STATE_OK);
		}
	}
	for (int i = 0; i < 80; i++)
		assert_true(hashes[0][i] == hashes[1][i]);
	/* load the save of action 40 and replay actions 41..80 */
	struct game *h = game_create(f[0].levels, f[0].n, &f[0].b, 99);
	char err[256] = "";
	assert_true(game_state_load(h, mid, mid_len, err, sizeof err));
	assert_true(game_hash(h) == hashes[0][39]);
	struct rng script;
	rng_seed(&script, 5);
	for (int i = 0; i < 80; i++) {
		struct action a = { .kind = script_kinds[rng_range(&script, 0, 4)],
				    .dir = (enum grid_dir)rng_range(&script, 0, 7) };
		if (i < 40)
			continue;
		game_act(h, &a);
		while (h->travel.active && !h->over)
			act_travel_step(h);
		assert_true(game_hash(h) == hashes[0][i]);
	}
	game_destroy(h);
	free(mid);
	fixture_fini(&f[0]);
	fixture_fini(&f[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_queue_grows_and_stamps_go_round),
		cmocka_unit_test(test_fight_wakes_within_the_flood),
		cmocka_unit_test(test_sleeper_ignores_a_quiet_player),
		cmocka_unit_test(test_noise_sends_the_restless_to_look),
		cmocka_unit_test(test_running_is_heard),
		cmocka_unit_test(test_sleep_knob),
		cmocka_unit_test(test_chase_wakes),
		cmocka_unit_test(test_wanderer_walks),
		cmocka_unit_test(test_determinism_and_save),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
