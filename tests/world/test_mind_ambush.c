/*
 * test_mind_ambush.c - the ambush mind (src/world/model/mind_ambush.c;
 * docs/ai.md, "Mind: ambush") on constructed levels of every topology: a
 * spider that has not seen the player goes to a lair beside the gap on
 * the player's way to the stairs, out of the player's sight, lies in wait
 * there, and springs ("... from its lair") when the player comes near,
 * then hunts and bites; with behaviour chase the same spider stays where
 * it was until it sees the player, so the test holds the mind.  One that
 * sees the player first does not lie in wait: it hunts at once.  The
 * cursor says "lying in wait".  And the determinism: a game replayed from
 * its seed gives the same hashes, and a save loaded mid-game goes on to
 * the same hash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"
#include "fov.h"

static const char kinds[] = "kind: spider\nglyph: s\nhp: 10\ndamage: 2\nsight: 6\nmemory: 12\n"
			    "behaviour: ambush\nambush: 2\n"
			    "kind: dummy\nglyph: d\nhp: 1\ndamage: 0\nsight: 0\n";

static struct game *make_game(struct fixture *f, const char *topology, const char *map, int mind)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, kinds);
	bestiary_find_name(&f->b, "spider")->behaviour = mind;
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, 3);
	assert_non_null(f->g);
	f->g->player.hp = f->g->player.max_hp = 1000;
	return f->g;
}

static int cell_at(const struct game *g, int x, int y)
{
	return grid_index(g->grid, x, y);
}

static int player_cell_of(const struct game *g)
{
	return cell_at(g, g->player.x, g->player.y);
}

static bool player_sees(const struct game *g, const struct monster *m)
{
	return fov_line_of_sight(g->grid, g->opaque, g->player.x, g->player.y, m->x, m->y,
				 PLAYER_SIGHT);
}

/* Two rooms and a gap in the wall between them; the stairs in the east
 * room, the spider there, out of the player's sight. */
static const char gap_square[] = "###############\n"
				 "#.....#.....s.#\n"
				 "#.....#.......#\n"
				 "#..@..........#\n"
				 "#.....#.......#\n"
				 "#.....#......>#\n"
				 "###############";

static const char gap_hex[] = "# # # # # # # # # # # # # # #\n"
			      " # . . . . . # . . . . . s . #\n"
			      "# . . . . . # . . . . . . . #\n"
			      " # . . @ . . . . . . . . . . #\n"
			      "# . . . . . # . . . . . . . #\n"
			      " # . . . . . # . . . . . . > #\n"
			      "# # # # # # # # # # # # # # #";

/*
 * Waits `settle` turns, then walks the player toward the gap at
 * (gap_x, gap_y), one step at a time by travel.  Returns whether the
 * spider lay in wait (in a lair near the gap, out of the player's sight,
 * not hunting, with its post where it stands) before it sprang, and
 * *sprang whether it then came out saying so and bit the player.
 */
static bool ambush_plays(struct game *g, int gap_x, int gap_y, int settle, bool *sprang)
{
	struct monster *s = &g->monsters[0];
	const int gap = cell_at(g, gap_x, gap_y), start = cell_at(g, s->x, s->y);
	for (int t = 0; t < settle; t++)
		act_wait(g);
	int lair = cell_at(g, s->x, s->y);
	bool waiting = !s->mind.hunting && s->mind.post == lair && s->mind.timer > 0 &&
		       lair != start && grid_step_distance(g->grid, lair, gap) <= 4 &&
		       !player_sees(g, s) && !g->visible[lair];
	*sprang = false;
	bool said = false;
	int hp0 = g->player.hp;
	/* the player walks to the gap, a step a turn, and stands to fight */
	for (int t = 0; t < 30 && !g->over; t++) {
		bool was_hunting = s->mind.hunting;
		int from = player_cell_of(g);
		if (from != gap && !s->mind.hunting) {
			struct action a = { .kind = ACT_TRAVEL, .x = gap_x, .y = gap_y };
			game_act(g, &a);
		} else {
			act_wait(g);
		}
		said = said || message_contains(g, "from its lair");
		if (!was_hunting && s->mind.hunting) {
			/* it struck when the player came within `ambush` (2) cells */
			int d = grid_step_distance(g->grid, player_cell_of(g), lair);
			if (waiting && d > 3)
				fprintf(stderr, "sprang at %d cells\n", d);
			assert_true(!waiting || d <= 3);
		}
		if (!waiting && !s->mind.hunting)
			assert_false(said);
	}
	*sprang = said && g->player.hp < hp0 && s->mind.hunting;
	return waiting;
}

static void run_gap(const char *topology, const char *map, int gap_x, int gap_y)
{
	for (int mind = MIND_AMBUSH; mind >= MIND_CHASE; mind -= MIND_AMBUSH - MIND_CHASE) {
		struct fixture f;
		struct game *g = make_game(&f, topology, map, mind);
		bool sprang;
		bool waited = ambush_plays(g, gap_x, gap_y, 20, &sprang);
		if (mind == MIND_AMBUSH) {
			if (!waited || !sprang)
				fprintf(stderr, "%s: waited %d sprang %d\n", topology, waited,
					sprang);
			assert_true(waited);
			assert_true(sprang);
		} else {
			/* a chaser that has not seen the player stays put */
			assert_false(waited);
			assert_false(sprang);
		}
		fixture_fini(&f);
	}
}

static void test_waits_at_the_gap(void **state)
{
	(void)state;
	run_gap("square8", gap_square, 6, 3);
	run_gap("square4", gap_square, 6, 3);
	run_gap("hex", gap_hex, 6, 3);
	char *diamond = fixture_square_to_diamond(gap_square);
	int x, y;
	fixture_diamond_cell(7, 6, 3, &x, &y);
	run_gap("diamond4", diamond, x, y);
	run_gap("diamond8", diamond, x, y);
	free(diamond);
}

/* The spider sees the player from across the room at the start: it does
 * not go to lie in wait, it hunts, and nothing drops from a lair. */
static const char seen_square[] = "###############\n"
				  "#.....#.......#\n"
				  "#...s.#.......#\n"
				  "#.............#\n"
				  "#.....#.......#\n"
				  "#.@...#......>#\n"
				  "###############";

static const char seen_hex[] = "# # # # # # # # # # # # # # #\n"
			       " # . . . . . # . . . . . . . #\n"
			       "# . . . s . # . . . . . . . #\n"
			       " # . . . . . . . . . . . . . #\n"
			       "# . . . . . # . . . . . . . #\n"
			       " # . @ . . . # . . . . . . > #\n"
			       "# # # # # # # # # # # # # # #";

static void run_seen(const char *topology, const char *map)
{
	struct fixture f;
	struct game *g = make_game(&f, topology, map, MIND_AMBUSH);
	struct monster *s = &g->monsters[0];
	int d0 = grid_step_distance(g->grid, cell_at(g, s->x, s->y), player_cell_of(g));
	assert_true(d0 > 2);
	act_wait(g);
	if (!s->mind.hunting)
		fprintf(stderr, "%s: the spider does not hunt\n", topology);
	assert_true(s->mind.hunting);
	assert_int_equal(s->mind.post, -1);
	assert_int_equal(s->mind.timer, 0);
	assert_true(grid_step_distance(g->grid, cell_at(g, s->x, s->y), player_cell_of(g)) < d0);
	for (int t = 0; t < 6; t++)
		act_wait(g);
	assert_true(g->player.hp < g->player.max_hp); /* it came and bit */
	for (int i = 0; i < 10; i++) {
		const struct message *m = game_message(g, i);
		assert_true(!m || !strstr(m->text, "lair"));
	}
	fixture_fini(&f);
}

static void test_seen_first_hunts(void **state)
{
	(void)state;
	run_seen("square8", seen_square);
	run_seen("square4", seen_square);
	run_seen("hex", seen_hex);
	char *diamond = fixture_square_to_diamond(seen_square);
	run_seen("diamond4", diamond);
	run_seen("diamond8", diamond);
	free(diamond);
}

/* One who sees it first (the player sees farther than the spider) finds
 * it lying in wait, and the cursor says so. */
static void test_cursor_says_lying_in_wait(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = make_game(&f, "square8", gap_square, MIND_AMBUSH);
	struct monster *s = &g->monsters[0];
	for (int t = 0; t < 20; t++)
		act_wait(g);
	assert_true(s->mind.timer > 0);
	g->visible[cell_at(g, s->x, s->y)] = 1; /* as if seen from farther than it sees */
	g->remembered[cell_at(g, s->x, s->y)] = 1;
	game_maps_written(g); /* written by hand: hashed and saved again */
	char what[128];
	game_describe(g, s->x, s->y, what, sizeof what);
	assert_non_null(strstr(what, "lying in wait"));
	fixture_fini(&f);
}

/* ---- determinism ---------------------------------------------------------- */

static const char arena[] = "#######################\n"
			    "#.....#.......#.......>#\n"
			    "#.....#...s...#........#\n"
			    "#..@..........+........#\n"
			    "#.....#.......#....s...#\n"
			    "#.....#.s.....#........#\n"
			    "#######################";

static void play(struct game *g, int from, int to, uint64_t *hashes)
{
	for (int i = from; i < to && !g->over; i++) {
		if (i % 4 == 3)
			act_wait(g);
		else
			act_move(g, i < 40 ? GRID_E : GRID_W);
		if (hashes)
			hashes[i] = game_hash(g);
	}
}

static void test_determinism(void **state)
{
	(void)state;
	uint64_t a[60] = { 0 }, b[60] = { 0 }, c[60] = { 0 };
	struct fixture f;
	struct game *g = make_game(&f, "square8", arena, MIND_AMBUSH);
	play(g, 0, 60, a);
	bool any_waited = false;
	fixture_fini(&f);
	g = make_game(&f, "square8", arena, MIND_AMBUSH);
	for (int i = 0; i < 30; i++) {
		play(g, i, i + 1, b);
		for (int k = 0; k < g->n_monsters; k++)
			any_waited = any_waited || g->monsters[k].mind.timer > 0;
	}
	assert_true(any_waited);
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	play(g, 30, 60, b);
	assert_memory_equal(a, b, sizeof a);
	struct fixture f2;
	struct game *h = make_game(&f2, "square8", arena, MIND_AMBUSH);
	char err[256];
	assert_true(game_state_load(h, bytes, len, err, sizeof err));
	assert_int_equal(game_hash(h), a[29]);
	play(h, 30, 60, c);
	for (int i = 30; i < 60; i++)
		assert_int_equal(c[i], a[i]);
	free(bytes);
	fixture_fini(&f2);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits_at_the_gap),
		cmocka_unit_test(test_seen_first_hunts),
		cmocka_unit_test(test_cursor_says_lying_in_wait),
		cmocka_unit_test(test_determinism),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
