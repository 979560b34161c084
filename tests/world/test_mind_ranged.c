/*
 * test_mind_ranged.c - the ranged mind (docs/ai.md, "Mind: ranged") and
 * the shot the rules carry out.  Constructed levels that must produce the
 * tactic: on an open map the archer walks to a firing spot (its route ends
 * there, the `r` overlay's tell) and holds the band [keep, range] while the
 * player waits, shooting; when the player steps toward it, it steps away;
 * cornered and adjacent, it bites; a monster on the line takes the shot
 * (the player does not) and a wall stops it; a reload spaces the shots;
 * pressed for its patience, it stands its ground (rules 15), where one
 * without patience is never caught on square4.  And one that must not:
 * with no line of sight there is no shot (it moves until it has one).  On all five grids where the map allows, square and
 * hex at least.  Then determinism: the same seed and actions give the same
 * hashes, and a save and load mid-game changes nothing that follows.
 *
 * ASTRAY_TEST_MIND_OFF=1 in the environment makes every kind a chaser
 * (behaviour chase): the tests of the tactic must then fail, which shows
 * they test the mind and not something else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"
#include "fov.h"

/* archer: the mind under test; post: a monster that stands still (never
 * hunts) and takes shots; straw: the same, killed by one. */
static const char KINDS[] = "kind: archer\nglyph: a\nhp: 5\ndamage: 1\nsight: 10\nmemory: 30\nhit: 100\n"
			    "behaviour: ranged\nrange: 4\nkeep: 2\n"
			    "kind: caster\nglyph: c\nhp: 5\ndamage: 1\nsight: 10\nmemory: 30\nhit: 100\n"
			    "behaviour: ranged\nrange: 4\nkeep: 2\nreload: 1\n"
			    "kind: sniper\nglyph: n\nhp: 5\ndamage: 1\nsight: 14\nmemory: 30\nhit: 100\n"
			    "behaviour: ranged\nrange: 12\nkeep: 2\n"
			    "kind: post\nglyph: p\nhp: 50\ndamage: 0\nsight: 0\n"
			    "kind: straw\nglyph: s\nhp: 1\ndamage: 0\nsight: 0\n"
			    "kind: goblin\nglyph: g\nhp: 6\ndamage: 2\nsight: 8\n"
			    "kind: skirmisher\nglyph: k\nhp: 5\ndamage: 1\nsight: 10\nmemory: 30\nhit: 100\n"
			    "behaviour: ranged\nrange: 4\nkeep: 2\npatience: 6\n"
			    "kind: runner\nglyph: r\nhp: 5\ndamage: 1\nsight: 10\nmemory: 30\nhit: 100\n"
			    "behaviour: ranged\nrange: 4\nkeep: 2\npatience: 0\n"
			    "rules:\nplayer_hit: 100\narrival: 0\nheal: 0\n"; /* every blow hits: the mind is under test */

enum { KEEP = 2, RANGE = 4 };

static struct game *ranged_game(struct fixture *f, const char *topo, const char *map, uint64_t seed)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, KINDS);
	if (getenv("ASTRAY_TEST_MIND_OFF")) {
		char err[128];
		for (int i = 0; i < f->b.n; i++) {
			char set[64];
			snprintf(set, sizeof set, "%s.behaviour=chase", f->b.kinds[i].name);
			assert_true(bestiary_set(&f->b, set, err, sizeof err));
		}
	}
	f->lv[0] = fixture_level(topo, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, seed);
	assert_non_null(f->g);
	return f->g;
}

static int mcell(const struct game *g, const struct monster *m)
{
	return grid_index(g->grid, m->x, m->y);
}
static int pcell(const struct game *g)
{
	return grid_index(g->grid, g->player.x, g->player.y);
}

static int dist(const struct game *g, const struct monster *m)
{
	return grid_step_distance(g->grid, mcell(g, m), pcell(g));
}

static bool sees(const struct game *g, int cell)
{
	return fov_line_of_sight(g->grid, g->opaque, grid_x(g->grid, cell), grid_y(g->grid, cell),
				 g->player.x, g->player.y, RANGE);
}

static struct monster *glyph_monster(struct game *g, char glyph)
{
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].kind->glyph == glyph)
			return &g->monsters[i];
	fail_msg("no monster '%c'", glyph);
	return NULL;
}

/* One mark on a constructed map. */
struct mark {
	int x, y;
	char glyph;
};

/* An open room of w x h cells on topo, walls round it, the exit in its
 * bottom-right wall cell, with the marks placed; staggered grids laid out
 * as the level format wants (cell (x, y) at column 2x + (y & 1)). */
static const char *room(char *buf, size_t size, const char *topo, int w, int h,
			const struct mark *marks, int n)
{
	bool stag = strcmp(topo, "square4") != 0 && strcmp(topo, "square8") != 0;
	size_t at = 0;
	for (int y = 0; y < h; y++) {
		int cols = stag ? 2 * w + 1 : w;
		char row[256];
		assert_true(cols < (int)sizeof row);
		memset(row, ' ', (size_t)cols);
		for (int x = 0; x < w; x++) {
			char c = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : '.';
			if (x == w - 1 && y == h - 1)
				c = '>';
			for (int i = 0; i < n; i++)
				if (marks[i].x == x && marks[i].y == y)
					c = marks[i].glyph;
			row[stag ? 2 * x + (y & 1) : x] = c;
		}
		assert_true(at + (size_t)cols + 2 < size);
		memcpy(buf + at, row, (size_t)cols);
		at += (size_t)cols;
		buf[at++] = '\n';
	}
	buf[at] = '\0';
	return buf;
}

static const char *const topos[] = { "square8", "square4", "hex", "diamond8", "diamond4" };

/* ---- the band --------------------------------------------------------- */

/*
 * On an open map the archer, 6 to 8 steps away, walks to the nearest cell
 * of the band that sees the player, along a route that ends there (what
 * the `r` overlay draws), then holds the band while the player waits: its
 * distance stays within [keep, range] and it shoots (never a melee blow).
 */
static void test_keeps_band_open(void **state)
{
	(void)state;
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		struct fixture f;
		char map[4096];
		/* 7 steps away; on diamond4 a step along a row is two */
		const struct mark marks[] = { { 4, 6, '@' },
					      { strcmp(topos[t], "diamond4") ? 11 : 8, 6, 'a' } };
		struct game *g = ranged_game(&f, topos[t],
					     room(map, sizeof map, topos[t], 18, 13, marks, 2), 3);
		struct monster *a = glyph_monster(g, 'a');
		int d0 = dist(g, a);
		if (d0 <= RANGE || d0 > a->kind->sight)
			fail_msg("%s: the archer starts %d steps away", topos[t], d0);
		act_wait(g);
		/* on its way: the route's end is its post, a firing cell */
		if (dist(g, a) > RANGE) {
			const struct mind *mi = &a->mind;
			assert_true(mi->route_len >= 2);
			assert_int_equal(mi->route[mi->route_len - 1], mi->post);
			int spot = mi->post;
			int sd = grid_step_distance(g->grid, spot, pcell(g));
			assert_true(sd >= KEEP && sd <= RANGE);
			assert_true(sees(g, spot));
		}
		int i = 0;
		while (dist(g, a) > RANGE && i++ < 12)
			act_wait(g);
		int held = mcell(g, a);
		for (int k = 0; k < 15; k++) {
			act_wait(g);
			int d = dist(g, a);
			if (d < KEEP || d > RANGE)
				fail_msg("%s: the archer left the band: distance %d", topos[t], d);
			assert_true(sees(g, mcell(g, a)));
			assert_int_equal(mcell(g, a), held); /* it holds its spot */
		}
		assert_true(g->damage_taken >= 10);
		assert_true(message_contains(g, "The archer shoots you"));
		assert_false(message_contains(g, "The archer hits you"));
		fixture_fini(&f);
	}
}

/*
 * When the player steps toward it, it steps away when it can: after each
 * of the player's steps east it is still at least `keep` steps away, it
 * has stepped away (east, or aside where that is as far), and it never
 * came to blows.
 */
static void test_backs_off(void **state)
{
	(void)state;
	static const char *const stepping[] = { "square8", "square4", "hex", "diamond8" };
	for (size_t t = 0; t < sizeof stepping / sizeof stepping[0]; t++) {
		struct fixture f;
		char map[4096];
		const struct mark marks[] = { { 3, 5, '@' }, { 6, 5, 'a' } };
		struct game *g = ranged_game(
			&f, stepping[t], room(map, sizeof map, stepping[t], 30, 11, marks, 2), 4);
		struct monster *a = glyph_monster(g, 'a');
		int x0 = a->x, backed = 0;
		for (int k = 0; k < 12; k++) {
			int before = mcell(g, a);
			act_move(g, GRID_E);
			int d = dist(g, a);
			if (d < KEEP)
				fail_msg("%s: step %d: the archer let the player come to %d",
					 stepping[t], k, d);
			backed += mcell(g, a) != before;
		}
		if (backed < 8)
			fail_msg("%s: the archer moved %d times in 12 of the player's steps",
				 stepping[t], backed);
		assert_true(a->x > x0);
		assert_false(message_contains(g, "The archer hits you"));
		fixture_fini(&f);
	}
}

/* Cornered in a dead end with the player next to it, it bites. */
static void test_cornered_bites(void **state)
{
	(void)state;
	static const char *const maps[][2] = {
		{ "square8", "#######\n#@..a##\n######>\n" },
		{ "hex", "# # # # # # #\n # @ . . a # #\n# # # # # # >\n" },
	};
	for (size_t t = 0; t < sizeof maps / sizeof maps[0]; t++) {
		struct fixture f;
		struct game *g = ranged_game(&f, maps[t][0], maps[t][1], 5);
		struct monster *a = glyph_monster(g, 'a');
		act_move(g, GRID_E);
		assert_true(message_contains(g, "The archer shoots you"));
		act_move(g, GRID_E);
		assert_int_equal(dist(g, a), 1);
		assert_int_equal(a->x, 4);
		assert_true(message_contains(g, "The archer hits you"));
		fixture_fini(&f);
	}
}

/* The player's step toward monster m: to the neighbour nearest it, the
 * first such in direction order (onto it, a blow). */
static void act_toward(struct game *g, const struct monster *m)
{
	int best = -1, best_d = 0;
	for (int d = 0; d < GRID_DIR_COUNT; d++) {
		int nx, ny;
		if (!grid_dir_step(g->grid, g->player.x, g->player.y, (enum grid_dir)d, &nx, &ny) ||
		    !grid_in_bounds(g->grid, nx, ny))
			continue;
		int c = grid_index(g->grid, nx, ny);
		if (!game_can_step(g, pcell(g), c))
			continue;
		int dd = grid_step_distance(g->grid, c, mcell(g, m));
		if (best < 0 || dd < best_d) {
			best = d;
			best_d = dd;
		}
	}
	assert_true(best >= 0);
	act_move(g, (enum grid_dir)best);
}

/*
 * Why rules 15: on square4 a player who walks at an archer never corners
 * it in a room.  One without patience (the runner) backs off for 80 of
 * the player's steps and is never struck, never bites and never stands.
 */
static void test_without_patience_never_caught(void **state)
{
	(void)state;
	struct fixture f;
	char map[4096];
	const struct mark marks[] = { { 3, 5, '@' }, { 7, 5, 'r' } };
	struct game *g =
		ranged_game(&f, "square4", room(map, sizeof map, "square4", 16, 11, marks, 2), 11);
	struct monster *r = glyph_monster(g, 'r');
	int moved = 0;
	for (int k = 0; k < 80; k++) {
		int before = mcell(g, r);
		act_toward(g, r);
		moved += mcell(g, r) != before;
	}
	assert_true(r->alive);
	assert_int_equal(r->hp, r->kind->hp);
	assert_true(moved >= 60);
	assert_int_equal(r->mind.pressed, 0); /* patience 0 counts nothing */
	assert_false(message_contains(g, "The runner hits you"));
	assert_false(message_contains(g, "stands its ground"));
	fixture_fini(&f);
}

/*
 * Rules 15: driven back for its patience (6) of its actions in a row, the
 * skirmisher stands its ground while the player presses it: the tell is
 * said once, it bites beside the player and the player's blows land.
 * A save made while it counts, loaded into another game, goes on to the
 * same hashes.
 */
static void test_pressed_stands(void **state)
{
	(void)state;
	struct fixture f1, f2, f3;
	char map[4096];
	const struct mark marks[] = { { 3, 5, '@' }, { 7, 5, 'k' } };
	room(map, sizeof map, "square4", 16, 11, marks, 2);
	struct game *g = ranged_game(&f1, "square4", map, 12);
	struct monster *a = glyph_monster(g, 'k');
	int backs = 0, k = 0, most = 0;
	void *bytes = NULL;
	size_t len = 0;
	while (!message_contains(g, "The skirmisher stands its ground!") && k++ < 40) {
		int before = mcell(g, a);
		act_toward(g, a);
		backs += mcell(g, a) != before && dist(g, a) >= KEEP;
		most = a->mind.pressed > most ? a->mind.pressed : most;
		if (!bytes && a->mind.pressed == 3)
			assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	}
	if (!message_contains(g, "The skirmisher stands its ground!"))
		fail_msg("no stand in %d steps (%d back-offs, pressed %d)", k, backs, a->mind.pressed);
	assert_true(backs >= 6);
	assert_int_equal(most, 7); /* counted to patience, then patience + 1 once it said so */
	/* it stands: the player's next blows land, and it bites back */
	int hp = a->hp;
	for (int i = 0; i < 6 && a->alive; i++)
		act_toward(g, a);
	assert_true(!a->alive || a->hp < hp);
	assert_true(message_contains(g, "The skirmisher hits you") || !a->alive);
	assert_true(message_contains(g, "You hit the skirmisher") || message_contains(g, "You kill the skirmisher"));

	/* the save made mid-count goes on as the game it came from */
	assert_non_null(bytes);
	struct game *g2 = ranged_game(&f2, "square4", map, 12);
	struct game *g3 = ranged_game(&f3, "square4", map, 99);
	char err[256] = "";
	if (!game_state_load(g3, bytes, len, err, sizeof err))
		fail_msg("the state does not load: %s", err);
	struct monster *a2 = glyph_monster(g2, 'k'), *a3 = glyph_monster(g3, 'k');
	while (a2->mind.pressed != 3 || game_hash(g2) != game_hash(g3)) {
		act_toward(g2, a2);
		assert_true(g2->turn <= g3->turn);
	}
	for (int i = 0; i < 30 && a2->alive && a3->alive; i++) {
		act_toward(g2, a2);
		act_toward(g3, a3);
		if (game_hash(g2) != game_hash(g3))
			fail_msg("the loaded game differs after %d steps", i);
	}
	free(bytes);
	fixture_fini(&f1);
	fixture_fini(&f2);
	fixture_fini(&f3);
}

/* ---- the shot ---------------------------------------------------------- */

/*
 * A monster on the line takes the shot and the player does not: the post
 * loses hit points, with a message; straw is killed, and the shot after
 * that reaches the player.  Cover works.
 */
static void test_monster_on_line_is_hit(void **state)
{
	(void)state;
	static const char *const maps[][2] = {
		{ "square8", "#########\n#@.p.a..#\n########>\n" },
		{ "square4", "#########\n#@.p.a..#\n########>\n" },
		{ "hex", "# # # # # # # # #\n # @ . p . a . . #\n# # # # # # # # >\n" },
		{ "diamond8",
		  "# # # # # # # # #\n # # # # # # # # #\n# @ . p . a . . #\n # # # # # # # # #\n# # # # # # # # >\n" },
	};
	for (size_t t = 0; t < sizeof maps / sizeof maps[0]; t++) {
		struct fixture f;
		struct game *g = ranged_game(&f, maps[t][0], maps[t][1], 6);
		struct monster *a = glyph_monster(g, 'a'), *p = glyph_monster(g, 'p');
		assert_true(dist(g, a) <= RANGE && dist(g, a) >= KEEP);
		for (int k = 0; k < 5; k++)
			act_wait(g);
		if (p->hp >= 50)
			fail_msg("%s: the post between was not hit", maps[t][0]);
		assert_int_equal(g->player.hp, PLAYER_HP);
		assert_int_equal(g->damage_taken, 0);
		assert_true(message_contains(g, "The archer's shot hits the post"));
		assert_true(p->alive);
		fixture_fini(&f);

		/* straw falls to the first shot, and then the line is free */
		char map[256];
		snprintf(map, sizeof map, "%s", maps[t][1]);
		*strchr(map, 'p') = 's';
		g = ranged_game(&f, maps[t][0], map, 6);
		struct monster *s = glyph_monster(g, 's');
		act_wait(g);
		assert_false(s->alive);
		assert_true(message_contains(g, "The archer's shot kills the straw"));
		assert_int_equal(g->damage_taken, 0);
		act_wait(g);
		assert_true(g->damage_taken > 0);
		assert_true(message_contains(g, "The archer shoots you"));
		fixture_fini(&f);
	}
}

/*
 * Where a shot stops (game_shot_stop, which the rules shoot with): at a
 * wall, at the first monster, at the target when the line is free; a line
 * past a border gets through when either cell is free, and a monster on a
 * border beside a wall is hit.
 */
static void test_shot_stops(void **state)
{
	(void)state;
	struct fixture f;
	/* square8: a wall at 4,1 and a post at 6,1 between the player and 8,1 */
	struct game *g =
		ranged_game(&f, "square8", "##########\n#@..#.p..#\n#........#\n#########>\n", 7);
	int from = grid_index(g->grid, 8, 1), hit;
	int p = glyph_monster(g, 'p') - g->monsters;
	assert_int_equal(game_shot_stop(g, from, pcell(g), &hit), grid_index(g->grid, 6, 1));
	assert_int_equal(hit, p);
	from = grid_index(g->grid, 5, 1);
	assert_int_equal(game_shot_stop(g, from, pcell(g), &hit), grid_index(g->grid, 4, 1));
	assert_int_equal(hit, -1);
	/* along row 2 the line is free */
	from = grid_index(g->grid, 8, 2);
	int to = grid_index(g->grid, 1, 2);
	assert_int_equal(game_shot_stop(g, from, to, &hit), to);
	assert_int_equal(hit, -1);
	/* 3,1 -> 1,2 passes the border of 2,1 and 2,2: free while one of them is */
	from = grid_index(g->grid, 3, 1);
	to = grid_index(g->grid, 1, 2);
	assert_int_equal(game_shot_stop(g, from, to, &hit), to);
	fixture_fini(&f);
	/* the same border with a wall on one side and a post on the other */
	g = ranged_game(&f, "square8", "######\n#.#.@#\n#.p..#\n#####>\n", 7);
	from = grid_index(g->grid, 3, 1);
	to = grid_index(g->grid, 1, 2);
	assert_int_equal(game_shot_stop(g, from, to, &hit), grid_index(g->grid, 2, 2));
	assert_int_equal(hit, glyph_monster(g, 'p') - g->monsters);
	fixture_fini(&f);
	/* hex: a wall, then a post, on one row */
	g = ranged_game(&f, "hex",
			"# # # # # # # # # #\n # @ . . # . p . . #\n# # # # # # # # # >\n", 7);
	from = grid_index(g->grid, 8, 1);
	assert_int_equal(game_shot_stop(g, from, pcell(g), &hit), grid_index(g->grid, 6, 1));
	assert_int_equal(hit, glyph_monster(g, 'p') - g->monsters);
	from = grid_index(g->grid, 5, 1);
	assert_int_equal(game_shot_stop(g, from, pcell(g), &hit), grid_index(g->grid, 4, 1));
	assert_int_equal(hit, -1);
	from = grid_index(g->grid, 3, 1);
	assert_int_equal(game_shot_stop(g, from, pcell(g), &hit), pcell(g));
	fixture_fini(&f);
}

/* ---- what must not happen ---------------------------------------------- */

/* Counts the shots decided, and those decided without a line of sight
 * (game.on_monster_act sees each decision before the rules carry it out). */
struct shot_watch {
	int shots, blind;
};

static void watch_shots(void *ud, const struct game *g, int i, struct ai_decision d)
{
	struct shot_watch *w = ud;
	if (d.act != AI_SHOOT)
		return;
	w->shots++;
	w->blind += !sees(g, mcell(g, &g->monsters[i]));
}

/*
 * No line of sight, no shot: the archer is told where the player is, round
 * a corner it cannot see past.  It decides no shot without a line to the
 * player, and no hit point is lost on a turn it began without one; it
 * moves until it has one, then shoots from within the band.
 */
static void test_no_line_no_shot(void **state)
{
	(void)state;
	static const char *const maps[][2] = {
		{ "square8",
		  "###########\n#@........#\n#########.#\n#########.#\n#########.#\n#########a#\n##########>\n" },
		{ "square4",
		  "###########\n#@........#\n#########.#\n#########.#\n#########.#\n#########a#\n##########>\n" },
		{ "hex",
		  "# # # # # # # # # # #\n # @ . . . . . . . . #\n# # # # # # # # # . #\n"
		  " # # # # # # # # # . #\n# # # # # # # # # a #\n # # # # # # # # # # >\n" },
	};
	for (size_t t = 0; t < sizeof maps / sizeof maps[0]; t++) {
		struct fixture f;
		struct game *g = ranged_game(&f, maps[t][0], maps[t][1], 8);
		struct monster *a = glyph_monster(g, 'a');
		assert_false(sees(g, mcell(g, a)));
		ai_mind_alert(&a->mind, a->kind, g->player.x, g->player.y, g->turn);
		struct shot_watch w = { 0, 0 };
		g->on_monster_act = watch_shots;
		g->on_monster_act_ud = &w;
		int start = mcell(g, a), shot_turn = -1;
		for (int k = 0; k < 20 && shot_turn < 0; k++) {
			bool line = sees(g, mcell(g, a));
			long hurt = g->damage_taken;
			act_wait(g);
			if (g->damage_taken > hurt) {
				if (!line)
					fail_msg("%s: shot without a line of sight on turn %d",
						 maps[t][0], g->turn);
				shot_turn = g->turn;
			}
		}
		assert_int_equal(w.blind, 0);
		assert_int_equal(w.shots, 1);
		assert_true(shot_turn > 0);
		assert_true(mcell(g, a) != start);
		assert_true(dist(g, a) >= KEEP && dist(g, a) <= RANGE);
		fixture_fini(&f);
	}
}

/* A shooter beyond the player's sight is not named: the player learns
 * only that something shoots; once seen, it is named. */
static void test_unseen_shooter(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = ranged_game(&f, "square8",
				     "###############\n#@.........n..#\n##############>\n", 10);
	struct monster *n = glyph_monster(g, 'n');
	assert_true(dist(g, n) > g->sight_radius && dist(g, n) <= 12);
	act_wait(g);
	assert_true(message_contains(g, "Something shoots you (1)."));
	assert_false(message_contains(g, "The sniper"));
	for (int k = 0; k < 2; k++)
		act_move(g, GRID_E);
	assert_true(dist(g, n) <= g->sight_radius);
	assert_true(message_contains(g, "The sniper shoots you (1)."));
	fixture_fini(&f);
}

/* A reload of 1: a shot every other action, and it holds its spot between. */
static void test_reload(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = ranged_game(&f, "square8", "##########\n#@..c....#\n#########>\n", 9);
	struct monster *c = glyph_monster(g, 'c');
	int here = mcell(g, c);
	for (int k = 0; k < 10; k++)
		act_wait(g);
	assert_int_equal(g->damage_taken, 5);
	assert_int_equal(mcell(g, c), here);
	fixture_fini(&f);
}

/* ---- determinism ------------------------------------------------------- */

static const char DET_MAP[] = "##################\n"
			      "#@.......#.......#\n"
			      "#..a.....#...c...#\n"
			      "#....##..+....g..#\n"
			      "#....#p........a.#\n"
			      "#................#\n"
			      "#################>\n";

static const enum grid_dir DET_MOVES[] = { GRID_E, GRID_E,  GRID_SE, GRID_E, GRID_S, GRID_E,
					   GRID_E, GRID_NE, GRID_E,  GRID_E, GRID_E, GRID_SE,
					   GRID_E, GRID_E,  GRID_W,  GRID_W, GRID_E, GRID_E,
					   GRID_E, GRID_E,  GRID_SE, GRID_E, GRID_E, GRID_E };
#define DET_N ((int)(sizeof DET_MOVES / sizeof DET_MOVES[0]))

static void det_act(struct game *g, int i)
{
	if (g->over)
		return;
	if (i % 3 == 2)
		act_wait(g);
	else
		act_move(g, DET_MOVES[i % DET_N]);
}

/* The same seed and actions give the same hash after every action; a
 * game saved half way and loaded into a new one goes on with the same
 * hashes as the original. */
static void test_determinism(void **state)
{
	(void)state;
	static const char *const det_topos[] = { "square8", "square4" };
	for (size_t t = 0; t < sizeof det_topos / sizeof det_topos[0]; t++) {
		struct fixture f1, f2;
		struct game *g1 = ranged_game(&f1, det_topos[t], DET_MAP, 21);
		struct game *g2 = ranged_game(&f2, det_topos[t], DET_MAP, 21);
		void *bytes = NULL;
		size_t len = 0;
		for (int i = 0; i < 40; i++) {
			det_act(g1, i);
			det_act(g2, i);
			assert_true(game_hash(g1) == game_hash(g2));
			if (i == 14)
				assert_int_equal(game_state_save(g1, &bytes, &len), GAME_STATE_OK);
		}
		assert_true(g1->damage_taken > 0);
		/* from the save at action 15 on, a loaded game plays the same */
		struct fixture f3;
		struct game *g3 = ranged_game(&f3, det_topos[t], DET_MAP, 99);
		char err[256] = "";
		if (!game_state_load(g3, bytes, len, err, sizeof err))
			fail_msg("the state does not load: %s", err);
		fixture_fini(&f2);
		struct game *g4 = ranged_game(&f2, det_topos[t], DET_MAP, 21);
		for (int i = 0; i < 15; i++)
			det_act(g4, i);
		assert_true(game_hash(g3) == game_hash(g4));
		for (int i = 15; i < 40; i++) {
			det_act(g3, i);
			det_act(g4, i);
			if (game_hash(g3) != game_hash(g4))
				fail_msg("%s: the loaded game differs after action %d",
					 det_topos[t], i);
		}
		assert_true(game_hash(g3) == game_hash(g1));
		free(bytes);
		fixture_fini(&f1);
		fixture_fini(&f2);
		fixture_fini(&f3);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keeps_band_open),
		cmocka_unit_test(test_backs_off),
		cmocka_unit_test(test_cornered_bites),
		cmocka_unit_test(test_without_patience_never_caught),
		cmocka_unit_test(test_pressed_stands),
		cmocka_unit_test(test_monster_on_line_is_hit),
		cmocka_unit_test(test_shot_stops),
		cmocka_unit_test(test_no_line_no_shot),
		cmocka_unit_test(test_unseen_shooter),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_determinism),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
