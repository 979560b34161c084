/*
 * test_mind_pack.c - the pack mind (src/world/model/mind_pack.c; docs/ai.md,
 * "Mind: pack") on constructed levels of every topology: two jackals that
 * see the player from one side of a pillar end beside it on both sides
 * and say so ("The jackals spread out."), where chasers queue on one side;
 * in a dead-end corridor only one can reach, the other waits behind and
 * nothing is said; in a corridor whose way to the stairs a loop reaches,
 * the one left over runs round, cuts the way off and bites from there;
 * two that could both go round do not take turns at it.  Each positive case
 * runs again with behaviour chase and must then fail, so the tests hold
 * the mind and not the map.  The `r` overlay draws a member's route: it
 * leads to its post.  And the determinism: a game replayed from its seed
 * gives the same hashes, and a save loaded mid-game goes on to the same
 * hash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"

/* Harmless jackals that remember long enough to walk round a loop. */
static const char kinds[] =
	"kind: jackal\nglyph: j\nhp: 20\ndamage: 0\nspeed: 120\nsight: 10\nmemory: 60\n"
	"crowd: 2\nbehaviour: pack\npack: 4\n"
	"kind: dummy\nglyph: d\nhp: 1\ndamage: 0\nsight: 0\n";

static struct game *make_game(struct fixture *f, const char *topology, const char *map, int mind)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, kinds);
	bestiary_find_name(&f->b, "jackal")->behaviour = mind;
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, 7);
	assert_non_null(f->g);
	return f->g;
}

/* A level on any topology: square maps as they are, diamond ones turned
 * from the square map, hex ones written out. */
struct level_text {
	const char *topology;
	const char *map;
};

static int player_cell_of(const struct game *g)
{
	return grid_index(g->grid, g->player.x, g->player.y);
}

/* Free neighbours of the player held by a jackal, and free ones in all. */
static void sides(const struct game *g, int *held, int *open)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g->grid, player_cell_of(g), false, s);
	*held = *open = 0;
	for (int i = 0; i < n; i++) {
		(*open)++;
		int occ = g->occupant[s[i].cell];
		*held += occ >= 0 && g->monsters[occ].kind->glyph == 'j';
	}
}

static bool said_spread(const struct game *g)
{
	return message_contains(g, "The jackals spread out.");
}

/* ---- the pillar: two sides, where chasers come by one -------------------- */

static const char pillar_square[] = "##########\n"
				    "#.......>#\n"
				    "#.######.#\n"
				    "#.######.#\n"
				    "#.jj.@...#\n"
				    "##########";

static const char pillar_hex[] = "# # # # # # # # # #\n"
				 " # . . . . . . . > #\n"
				 "# . # # # # # # . #\n"
				 " # . # # # # # # . #\n"
				 "# . j j . @ . . . #\n"
				 " # # # # # # # # # #";

/* Waits until both sides are held or `turns` pass; whether the tell was said. */
static bool wait_for_sides(struct game *g, int turns, int *held, int *open)
{
	bool said = false;
	for (int t = 0; t < turns; t++) {
		act_wait(g);
		said = said || said_spread(g);
		sides(g, held, open);
		if (*held == *open)
			break;
	}
	return said;
}

static void run_pillar(const char *topology, const char *map)
{
	for (int mind = MIND_PACK; mind >= MIND_CHASE; mind--) {
		struct fixture f;
		struct game *g = make_game(&f, topology, map, mind);
		int held, open;
		bool said = wait_for_sides(g, 40, &held, &open);
		assert_int_equal(open, 2); /* the player stands between the pillar and the wall */
		if (mind == MIND_PACK) {
			/* one jackal on each side of the player */
			if (held != 2)
				fprintf(stderr, "%s: %d of %d sides held\n", topology, held, open);
			assert_int_equal(held, 2);
			assert_true(said);
		} else {
			/* chasers come by the short side and queue there */
			assert_int_equal(held, 1);
			assert_false(said);
		}
		fixture_fini(&f);
	}
}

static void test_pillar_two_sides(void **state)
{
	(void)state;
	run_pillar("square8", pillar_square);
	run_pillar("square4", pillar_square);
	run_pillar("hex", pillar_hex);
	char *diamond = fixture_square_to_diamond(pillar_square);
	run_pillar("diamond4", diamond);
	run_pillar("diamond8", diamond);
	free(diamond);
}

/* ---- the dead end: only one can reach ------------------------------------ */

static const char dead_end_square[] = "##########\n"
				      "#@..jj..>#\n"
				      "##########";

static const char dead_end_hex[] = "# # # # # # # # # #\n"
				   " # @ . . j j . . > #\n"
				   "# # # # # # # # # #";

static void run_dead_end(const char *topology, const char *map)
{
	struct fixture f;
	struct game *g = make_game(&f, topology, map, MIND_PACK);
	bool said = false;
	for (int t = 0; t < 20; t++) {
		act_wait(g);
		said = said || said_spread(g);
	}
	int held, open;
	sides(g, &held, &open);
	assert_int_equal(open, 1);
	assert_int_equal(held, 1);
	/* the other waits right behind the first, hunting; no pack spread */
	assert_false(said);
	int pc = player_cell_of(g), behind = 0;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		int d = grid_step_distance(g->grid, grid_index(g->grid, m->x, m->y), pc);
		assert_true(m->mind.hunting);
		assert_true(d <= 2);
		behind += d == 2;
	}
	assert_int_equal(behind, 1);
	fixture_fini(&f);
}

static void test_dead_end_one_reaches(void **state)
{
	(void)state;
	run_dead_end("square8", dead_end_square);
	run_dead_end("square4", dead_end_square);
	run_dead_end("hex", dead_end_hex);
	char *diamond = fixture_square_to_diamond(dead_end_square);
	run_dead_end("diamond4", diamond);
	run_dead_end("diamond8", diamond);
	free(diamond);
}

/* ---- the corridor: the one left over cuts the way to the stairs --------- */

static const char corridor_square[] = "#####################\n"
				      "#...................#\n"
				      "#.#################.#\n"
				      "#..jj.@............>#\n"
				      "#####################";

static const char corridor_hex[] = "# # # # # # # # # # # # # # # # # # # # #\n"
				   " # . . . . . . . . . . . . . . . . . . . #\n"
				   "# . # # # # # # # # # # # # # # # # # . #\n"
				   " # . . j j . @ . . . . . . . . . . . . > #\n"
				   "# # # # # # # # # # # # # # # # # # # # #";

/* Whether some jackal stands on the way from the player to the stairs
 * (a cell as far from both as the line between them: the corridor). */
static bool way_cut(const struct game *g, int stairs)
{
	int pc = player_cell_of(g), dp = grid_step_distance(g->grid, pc, stairs);
	for (int i = 0; i < g->n_monsters; i++) {
		int c = grid_index(g->grid, g->monsters[i].x, g->monsters[i].y);
		int dc = grid_step_distance(g->grid, c, stairs);
		if (g->monsters[i].alive && dc < dp &&
		    grid_step_distance(g->grid, c, pc) + dc == dp)
			return true;
	}
	return false;
}

static int find_stairs(const struct game *g)
{
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		if (g->tiles[c] == TILE_EXIT)
			return c;
	fail();
	return -1;
}

static void run_corridor(const char *topology, const char *map)
{
	for (int mind = MIND_PACK; mind >= MIND_CHASE; mind--) {
		struct fixture f;
		struct game *g = make_game(&f, topology, map, mind);
		int stairs = find_stairs(g), px = g->player.x;
		bool cut = false, said = false;
		int held = 0, open = 0;
		for (int t = 0; t < 60 && held < 2; t++) {
			act_wait(g);
			said = said || said_spread(g);
			cut = cut || way_cut(g, stairs);
			sides(g, &held, &open);
		}
		assert_int_equal(open, 2);
		if (mind == MIND_PACK) {
			/* one went round the loop, came down the way to the
			 * stairs and now bites from that side */
			if (!cut)
				fprintf(stderr, "%s: the way to the stairs stays open\n", topology);
			assert_true(cut);
			assert_int_equal(held, 2);
			assert_true(said);
		} else {
			assert_false(cut);
			assert_int_equal(held, 1);
		}
		assert_int_equal(g->player.x, px); /* the player never moved */
		fixture_fini(&f);
	}
}

static void test_corridor_cut_off(void **state)
{
	(void)state;
	run_corridor("square8", corridor_square);
	run_corridor("square4", corridor_square);
	run_corridor("hex", corridor_hex);
	char *diamond = fixture_square_to_diamond(corridor_square);
	run_corridor("diamond4", diamond);
	run_corridor("diamond8", diamond);
	free(diamond);
}

/* ---- no dithering: two members that could go round settle who goes ---- */

/* The player in the mouth of a corridor between two pillars, one jackal
 * beside it and two a step off: one of those two goes round the pillar
 * to the other side and keeps going.  (Members taken in order of their
 * distance to any post handed the far side to each in turn, and both went
 * back and forth.) */
static const char mouth_square[] = "##########################\n"
				   "#........................#\n"
				   "#..####......####........#\n"
				   "#..####......####j.......#\n"
				   "#...............@jj......#\n"
				   "#..####......####........#\n"
				   "#..####......####........#\n"
				   "#........................#\n"
				   "#######################>##";

static void test_no_dithering(void **state)
{
	(void)state;
	static const char *const topologies[] = { "square8", "square4" };
	for (size_t k = 0; k < sizeof topologies / sizeof topologies[0]; k++) {
		struct fixture f;
		struct game *g = make_game(&f, topologies[k], mouth_square, MIND_PACK);
		int held, open;
		wait_for_sides(g, 30, &held, &open);
		assert_int_equal(open, 2);
		assert_int_equal(held, 2);
		fixture_fini(&f);
	}
}

/* ---- the tell: the route to the post is the one the overlay draws -------- */

static void test_route_leads_to_post(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game(&f, "square8", pillar_square, MIND_PACK);
	int checked = 0;
	for (int t = 0; t < 20; t++) {
		act_wait(g);
		for (int i = 0; i < g->n_monsters; i++) {
			const struct mind *mi = &g->monsters[i].mind;
			int here = grid_index(g->grid, g->monsters[i].x, g->monsters[i].y);
			if (mi->post < 0 || mi->post == here)
				continue;
			/* what ui_draw_routes draws: from its cell on, to the post */
			assert_true(mi->route_len >= 2);
			assert_int_equal(mi->route[mi->route_pos], here);
			assert_int_equal(mi->route[mi->route_len - 1], mi->post);
			for (int j = mi->route_pos; j + 1 < mi->route_len; j++)
				assert_true(
					grid_is_adjacent(g->grid, mi->route[j], mi->route[j + 1]));
			checked++;
		}
	}
	assert_true(checked > 5);
	fixture_fini(&f);
}

/* ---- determinism ---------------------------------------------------------- */

static const char arena[] = "####################\n"
			    "#j.......#.........#\n"
			    "#..####..#..####...#\n"
			    "#..#..#......#..#..#\n"
			    "#..####..@...####..#\n"
			    "#........#.......j.#\n"
			    "#.j...####.....#...#\n"
			    "#.....#....j...#..>#\n"
			    "####################";

static const enum grid_dir script[] = { GRID_E, GRID_E, GRID_S, GRID_W, GRID_N,
					GRID_N, GRID_W, GRID_S, GRID_E, GRID_N };

static void play(struct game *g, int from, int to, uint64_t *hashes)
{
	for (int i = from; i < to && !g->over; i++) {
		if (i % 3 == 2)
			act_wait(g);
		else
			act_move(g, script[i % (int)(sizeof script / sizeof script[0])]);
		if (hashes)
			hashes[i] = game_hash(g);
	}
}

static void test_determinism(void **state)
{
	(void)state;
	uint64_t a[60] = { 0 }, b[60] = { 0 };
	struct fixture f;
	struct game *g = make_game(&f, "square8", arena, MIND_PACK);
	g->player.hp = 1000;
	play(g, 0, 60, a);
	assert_true(g->ai.stats.searches > 0);
	fixture_fini(&f);
	g = make_game(&f, "square8", arena, MIND_PACK);
	g->player.hp = 1000;
	play(g, 0, 60, b);
	assert_memory_equal(a, b, sizeof a);

	/* a save loaded mid-game goes on to the same hashes */
	play(g, 0, 0, NULL);
	fixture_fini(&f);
	g = make_game(&f, "square8", arena, MIND_PACK);
	g->player.hp = 1000;
	play(g, 0, 30, NULL);
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	play(g, 30, 60, b);
	struct fixture f2;
	struct game *h = make_game(&f2, "square8", arena, MIND_PACK);
	char err[256];
	assert_true(game_state_load(h, bytes, len, err, sizeof err));
	assert_int_equal(game_hash(h), a[29]);
	uint64_t c[60] = { 0 };
	play(h, 30, 60, c);
	for (int i = 30; i < 60; i++) {
		assert_int_equal(b[i], a[i]);
		assert_int_equal(c[i], a[i]);
	}
	free(bytes);
	fixture_fini(&f2);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pillar_two_sides),
		cmocka_unit_test(test_dead_end_one_reaches),
		cmocka_unit_test(test_corridor_cut_off),
		cmocka_unit_test(test_no_dithering),
		cmocka_unit_test(test_route_leads_to_post),
		cmocka_unit_test(test_determinism),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
