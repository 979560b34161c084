/*
 * test_mind_swarm.c - the swarm mind (src/world/model/mind_swarm.c;
 * docs/ai.md, "Mind: swarm") on constructed levels: four ants that see
 * the player from four sides (on all five grids) hang back, then rush it
 * together once all four are near ("The ants hang back, gathering.", "The ants swarm in!"),
 * two or more beside it at once; three (one too few near, a fourth alive
 * but sealed away) with no patience hold their distance for forty turns
 * and never come beside it, where three chasers would; with a patience
 * they hold, then rush all the same (rules 14), and those near that
 * would hold for ever come with them; three that are all the
 * swarm left alive rush at once, with no holding; the player who walks
 * up to a holding ant sees it back off; and the determinism: the same
 * seed gives the same hashes, a save loaded mid-game goes on to them,
 * also one saved while the ants count their patience.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"

/* Harmless ants: four near rush, fewer hold four turns away. */
static const char kinds[] = "kind: ant\nglyph: a\nhp: 30\ndamage: 0\nspeed: 100\nsight: 12\nmemory: 30\n"
			    "crowd: 2\nbehaviour: swarm\nswarm: 4\ngather: 4\n";

/* patience: the ants' (bestiary key), or -1 for the default */
static struct game *make_game_patience(struct fixture *f, const char *topology, const char *map, int mind,
				       int patience)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, kinds);
	bestiary_find_name(&f->b, "ant")->behaviour = mind;
	if (patience >= 0)
		bestiary_find_name(&f->b, "ant")->patience = patience;
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, 7);
	assert_non_null(f->g);
	f->g->player.hp = 1000;
	return f->g;
}

static struct game *make_game(struct fixture *f, const char *topology, const char *map, int mind)
{
	return make_game_patience(f, topology, map, mind, -1);
}

/* Ants beside the player now. */
static int beside(const struct game *g)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g->grid, grid_index(g->grid, g->player.x, g->player.y), false, s), k = 0;
	for (int i = 0; i < n; i++)
		k += g->occupant[s[i].cell] >= 0;
	return k;
}

/* An open hall, the player in its middle, ants on four sides (the fourth
 * left out by `three`). */
static const char four[] = "###################\n"
			   "#........a........#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#a.......@.......a#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#.................#\n"
			   "#........a.......>#\n"
			   "###################";

/* The hall on a hex grid, written out (odd rows shifted half a cell). */
static const char four_hex[] = "# # # # # # # # # # # # # # # # # # #\n"
			       " # . . . . . . . . a . . . . . . . . #\n"
			       "# . . . . . . . . . . . . . . . . . #\n"
			       " # . . . . . . . . . . . . . . . . . #\n"
			       "# . . . . . . . . . . . . . . . . . #\n"
			       " # . . . . . . . . . . . . . . . . . #\n"
			       "# . . . . . . . . . . . . . . . . . #\n"
			       " # . . . . . . . . . . . . . . . . . #\n"
			       "# a . . . . . . . @ . . . . . . . a #\n"
			       " # . . . . . . . . . . . . . . . . . #\n"
			       "# . . . . . . . . . . . . . . . . . #\n"
			       " # . . . . . . . . . . . . . . . . . #\n"
			       "# . . . . . . . . . . . . . . . . . #\n"
			       " # . . . . . . . . . . . . . . . . . #\n"
			       "# . . . . . . . . . . . . . . . . . #\n"
			       " # . . . . . . . . a . . . . . . . > #\n"
			       "# # # # # # # # # # # # # # # # # # #";

static const char three[] = "###################\n"
			    "#........a........#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#a.......@.......a#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#.................#\n"
			    "#................>#\n"
			    "###################";

/* Three in the hall and a fourth alive in a sealed cell on the right: the
 * swarm could still gather, so the three hold. */
static const char three_sealed[] = "#####################\n"
				   "#........a........#a#\n"
				   "#.................###\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#a.......@.......a#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#.................#\n"
				   "#................>#\n"
				   "###################";

static void test_four_rush_together(void **state)
{
	(void)state;
	const char *topos[] = { "square8", "square4", "diamond8", "diamond4", "hex" };
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		struct fixture f;
		char *diamond = t == 2 || t == 3 ? fixture_square_to_diamond(four) : NULL;
		const char *map = t == 4 ? four_hex : four;
		struct game *g = make_game(&f, topos[t], diamond ? diamond : map, MIND_SWARM);
		free(diamond);
		int most = 0, first = -1;
		bool held = false;
		for (int turn = 0; turn < 30; turn++) {
			act_wait(g);
			held = held || message_contains(g, "The ants hang back, gathering.");
			int b = beside(g);
			if (b > 0 && first < 0)
				first = turn;
			if (b > most)
				most = b;
		}
		assert_true(held);
		assert_true(message_contains(g, "The ants swarm in!"));
		/* together: two or more beside the player at once, within a
		 * few turns of the first one's arrival */
		if (most < 2)
			fprintf(stderr, "%s: at most %d ants beside the player\n", topos[t], most);
		assert_true(first >= 0);
		assert_true(most >= 2);
		fixture_fini(&f);
	}
}

/* The nearest ant's steps from the player, the sealed one left out. */
static int nearest(const struct game *g)
{
	int near = 99;
	for (int i = 0; i < g->n_monsters; i++) {
		if (g->monsters[i].x > 18)
			continue;
		int d = grid_step_distance(g->grid, grid_index(g->grid, g->monsters[i].x, g->monsters[i].y),
					   grid_index(g->grid, g->player.x, g->player.y));
		if (d < near)
			near = d;
	}
	return near;
}

static void test_three_hold_back(void **state)
{
	(void)state;
	for (int mind = MIND_SWARM; mind >= MIND_CHASE; mind -= MIND_SWARM - MIND_CHASE) {
		struct fixture f;
		struct game *g = make_game_patience(&f, "square8", three_sealed, mind, 0);
		assert_int_equal(g->n_monsters, 4);
		int ever = 0;
		for (int turn = 0; turn < 40; turn++) {
			act_wait(g);
			int b = beside(g);
			if (b > ever)
				ever = b;
		}
		const int near_end = nearest(g);
		if (mind == MIND_SWARM) {
			/* too few: they wait four turns off, never beside it */
			assert_int_equal(ever, 0);
			assert_int_equal(near_end, 4);
			assert_true(message_contains(g, "The ants hang back, gathering."));
			assert_false(message_contains(g, "The ants swarm in!"));
		} else {
			/* the same map with chasers: they come and bite */
			assert_true(ever >= 2);
		}
		fixture_fini(&f);
	}
}

/* Rules 14: with a patience of 10 the same three hold, then give up
 * waiting and come to bite. */
static void test_patience_runs_out(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game_patience(&f, "square8", three_sealed, MIND_SWARM, 10);
	int first = -1;
	bool rushed = false;
	for (int turn = 0; turn < 40; turn++) {
		act_wait(g);
		rushed = rushed || message_contains(g, "The ants swarm in!");
		if (turn == 8) {
			/* still holding, four turns off */
			assert_int_equal(nearest(g), 4);
			assert_true(message_contains(g, "The ants hang back, gathering."));
			assert_false(message_contains(g, "The ants swarm in!"));
		}
		if (beside(g) > 0 && first < 0)
			first = turn;
	}
	assert_true(rushed);
	assert_true(first > 8);
	assert_true(beside(g) >= 1);
	fixture_fini(&f);
}

/* Rules 14: a member near the player joins one that rushes out of
 * patience.  Five needed; two ants (patience 6) and two beetles (patience
 * 0: alone they would hold for ever) near, a fifth ant sealed away: the
 * ants give up waiting and the beetles come with them. */
static const char two_kinds[] = "kind: ant\nglyph: a\nhp: 30\ndamage: 0\nspeed: 100\nsight: 12\nmemory: 30\n"
				"crowd: 2\nbehaviour: swarm\nswarm: 5\ngather: 4\npatience: 6\n"
				"kind: beetle\nglyph: b\nhp: 30\ndamage: 0\nspeed: 100\nsight: 12\nmemory: 30\n"
				"crowd: 2\nbehaviour: swarm\nswarm: 5\ngather: 4\npatience: 0\n";

static void test_near_ones_join_the_impatient(void **state)
{
	(void)state;
	/* three_sealed with beetles west and east and an ant south */
	char map[sizeof three_sealed];
	memcpy(map, three_sealed, sizeof map);
	char *row = strstr(map, "#a.......@.......a#");
	assert_non_null(row);
	row[1] = row[17] = 'b';
	row = strstr(map, "#................>#");
	assert_non_null(row);
	row[9] = 'a';
	struct fixture f;
	memset(&f, 0, sizeof f);
	fixture_bestiary(&f.b, two_kinds);
	f.lv[0] = fixture_level("square8", map, &f.b);
	f.levels[0] = f.lv[0];
	f.n = 1;
	f.g = game_create(f.levels, 1, &f.b, 7);
	assert_non_null(f.g);
	struct game *g = f.g;
	g->player.hp = 1000;
	assert_int_equal(g->n_monsters, 5);
	int beetles = 0;
	bool rushed = false;
	for (int turn = 0; turn < 30; turn++) {
		act_wait(g);
		if (turn == 4)
			assert_int_equal(beside(g), 0); /* all four hold */
		rushed = rushed || message_contains(g, "swarm in!");
	}
	assert_true(rushed);
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].kind->glyph == 'b' &&
		    grid_step_distance(g->grid, grid_index(g->grid, g->monsters[i].x, g->monsters[i].y),
				       grid_index(g->grid, g->player.x, g->player.y)) == 1)
			beetles++;
	assert_int_equal(beetles, 2);
	fixture_fini(&f);
}

/* Rules 14: three ants that are all the swarm left alive can never be four:
 * they rush at once, with no holding. */
static void test_too_few_alive_rush(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game(&f, "square8", three, MIND_SWARM);
	int most = 0, first = -1;
	for (int turn = 0; turn < 20; turn++) {
		act_wait(g);
		int b = beside(g);
		if (b > 0 && first < 0)
			first = turn;
		most = b > most ? b : most;
	}
	assert_false(message_contains(g, "The ants hang back, gathering."));
	/* eight cells off at the start: beside the player within ten turns */
	assert_true(first >= 0 && first < 10);
	assert_true(most >= 2);
	fixture_fini(&f);
}

/* Walking at a holding ant drives it back: it keeps its distance. */
static void test_holding_ant_backs_off(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game_patience(&f, "square8", three_sealed, MIND_SWARM, 0);
	for (int turn = 0; turn < 12; turn++)
		act_wait(g);
	int x0 = g->player.x;
	for (int i = 0; i < 3; i++)
		act_move(g, GRID_E);
	assert_int_equal(g->player.x, x0 + 3);
	act_wait(g);
	/* the ant to the east backed off: none is nearer than 3 turns */
	assert_true(nearest(g) >= 3);
	assert_int_equal(beside(g), 0);
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
	uint64_t a[40] = { 0 }, b[40] = { 0 }, c[40] = { 0 };
	struct fixture f, f2;
	struct game *g = make_game(&f, "square8", four, MIND_SWARM);
	play(g, 0, 40, a);
	fixture_fini(&f);
	g = make_game(&f, "square8", four, MIND_SWARM);
	play(g, 0, 20, b);
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	play(g, 20, 40, b);
	assert_memory_equal(a, b, sizeof a);
	struct game *h = make_game(&f2, "square8", four, MIND_SWARM);
	char err[256];
	assert_true(game_state_load(h, bytes, len, err, sizeof err));
	assert_int_equal(game_hash(h), a[19]);
	play(h, 20, 40, c);
	for (int i = 20; i < 40; i++)
		assert_int_equal(c[i], a[i]);
	free(bytes);
	fixture_fini(&f2);
	fixture_fini(&f);
}

/* A save made while the ants count their patience goes on to the same
 * rush: the count is in the state. */
static void test_patience_in_the_save(void **state)
{
	(void)state;
	uint64_t a[40] = { 0 }, c[40] = { 0 };
	struct fixture f, f2;
	struct game *g = make_game_patience(&f, "square8", three_sealed, MIND_SWARM, 10);
	play(g, 0, 8, a);
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	play(g, 8, 40, a);
	assert_true(message_contains(g, "The ants swarm in!"));
	struct game *h = make_game_patience(&f2, "square8", three_sealed, MIND_SWARM, 10);
	char err[256];
	assert_true(game_state_load(h, bytes, len, err, sizeof err));
	assert_int_equal(game_hash(h), a[7]);
	play(h, 8, 40, c);
	for (int i = 8; i < 40; i++)
		assert_int_equal(c[i], a[i]);
	free(bytes);
	fixture_fini(&f2);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_rush_together),
		cmocka_unit_test(test_three_hold_back),
		cmocka_unit_test(test_patience_runs_out),
		cmocka_unit_test(test_too_few_alive_rush),
		cmocka_unit_test(test_near_ones_join_the_impatient),
		cmocka_unit_test(test_holding_ant_backs_off),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_patience_in_the_save),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
