/*
 * test_crowd.c - the crowd rule `pass` (src/world/model/crowd.c; docs/ai.md,
 * "Crowds: priority passing"): a corridor of hunters moves as one, each
 * pushed monster spends its own move, hunters never trade places, a
 * monster that hunts nothing is swapped past where its kind allows it,
 * the turn's plan gives a freed cell to the monster that waited longest,
 * and the rules' crowd key brings back the detour rule.  The test build
 * checks the planner rule (a step enters only the cell the plan returned)
 * on every monster action of every game here (game.c, run_monsters).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"

static struct monster_kind *kind(struct game *g, const char *name)
{
	struct monster_kind *k = bestiary_find_name(&g->bestiary, name);
	assert_non_null(k);
	return k;
}

/* Six goblins in a corridor, the one farthest from the player first in
 * the monsters' order (it acts first each turn). */
static const char corridor_map[] =
	"############\n"
	"#gggggg...@#\n"
	"###########>";

static void corridor_turn(enum crowd_rule rule, int *moved, int *energy_min, int *energy_max)
{
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", corridor_map, 1);
	g->ai.share = AI_SHARE_ALWAYS;
	g->bestiary.rules.crowd = (int)rule;
	g->player.hp = 1000;
	int x0[6];
	assert_int_equal(g->n_monsters, 6);
	for (int i = 0; i < 6; i++) {
		x0[i] = g->monsters[i].x;
		ai_mind_alert(&g->monsters[i].mind, g->monsters[i].kind, g->player.x, g->player.y, g->turn);
	}
	assert_true(x0[0] < x0[5]);
	act_wait(g);
	*moved = 0;
	*energy_min = 1000;
	*energy_max = -1000;
	for (int i = 0; i < 6; i++) {
		const struct monster *m = &g->monsters[i];
		assert_true(m->x - x0[i] == 0 || m->x - x0[i] == 1); /* never more than one step */
		*moved += m->x - x0[i];
		if (m->energy < *energy_min)
			*energy_min = m->energy;
		if (m->energy > *energy_max)
			*energy_max = m->energy;
	}
	fixture_fini(&f);
}

static void test_corridor_flows(void **state)
{
	(void)state;
	int moved, lo, hi;
	/* pass: the first goblin pushes the five ahead of it on, so the
	 * whole file moves in one turn, each on its own move and energy */
	corridor_turn(CROWD_PASS, &moved, &lo, &hi);
	assert_int_equal(moved, 6);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 0);
	/* detour (rules version 4): each waits for the one ahead, which
	 * acts after it: only the front goblin moves on the first turn */
	corridor_turn(CROWD_DETOUR, &moved, &lo, &hi);
	assert_int_equal(moved, 1);
}

/* A goblin behind a dummy that hunts nothing, in a corridor one cell wide. */
static const char swap_map[] =
	"###\n"
	"#g#\n"
	"#d#\n"
	"#.#\n"
	"#.#\n"
	"#@#\n"
	"##>";

static void test_swaps_idle_monster(void **state)
{
	(void)state;
	for (int swap = 0; swap <= 1; swap++) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square4", swap_map, 1);
		g->ai.share = AI_SHARE_ALWAYS;
		g->player.hp = 1000;
		kind(g, "dummy")->swap = swap;
		struct monster *gob = game_monster_at(g, 1, 1), *dum = game_monster_at(g, 1, 2);
		assert_non_null(gob);
		assert_non_null(dum);
		ai_mind_alert(&gob->mind, gob->kind, g->player.x, g->player.y, g->turn);
		act_wait(g);
		if (swap) {
			/* they traded cells, each paying its own move */
			assert_int_equal(gob->y, 2);
			assert_int_equal(dum->y, 1);
			assert_int_equal(dum->energy, 0);
			act_wait(g);
			assert_int_equal(gob->y, 3);
			assert_false(dum->mind.hunting);
		} else {
			for (int i = 0; i < 12; i++)
				act_wait(g);
			assert_int_equal(gob->y, 1); /* no way past: it waits */
			assert_int_equal(dum->y, 2);
		}
		fixture_fini(&f);
	}
}

/* A room of goblins round an idle player: over many turns no two hunters
 * ever trade places in one turn (a swap gains nothing for the crowd). */
static const char room_map[] =
	"############\n"
	"#g.g.g.g.g.#\n"
	"#.g.g.g.g..#\n"
	"#g.g....g.g#\n"
	"#....@.....#\n"
	"#g.g.g..g.g#\n"
	"#.g.g.g.g..#\n"
	"###########>";

static void test_hunters_never_trade(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", room_map, 3);
	g->ai.share = AI_SHARE_ALWAYS;
	g->player.hp = 100000;
	kind(g, "goblin")->damage = 0;
	kind(g, "goblin")->swap = 2; /* pushing aside allowed too */
	int n = g->n_monsters, moves = 0;
	assert_true(n >= 20);
	int *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
	assert_non_null(x);
	assert_non_null(y);
	for (int t = 0; t < 40; t++) {
		for (int i = 0; i < n; i++) {
			x[i] = g->monsters[i].x;
			y[i] = g->monsters[i].y;
		}
		act_wait(g);
		for (int i = 0; i < n; i++) {
			const struct monster *a = &g->monsters[i];
			moves += a->x != x[i] || a->y != y[i];
			for (int j = i + 1; j < n; j++) {
				const struct monster *b = &g->monsters[j];
				assert_false(a->x == x[j] && a->y == y[j] && b->x == x[i] && b->y == y[i]);
			}
		}
	}
	assert_true(moves >= n / 2); /* they did move in to the player */
	free(x);
	free(y);
	fixture_fini(&f);
}

/* Two goblins beside each other want the one cell nearer the player, F
 * (3,2): goblin A above it acts first (index 0), goblin B left of it acts
 * second.  The turn's plan
 * (rules 6) gives F to the one that waited longer, whatever order they
 * act in; with equal waits, to the lower index. */
static const char funnel_map[] =
	"########\n"
	"##.g####\n"
	"#.g...@#\n"
	"#######>";

static void funnel_turn(int b_waited, bool *a_on_f, bool *b_on_f)
{
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", funnel_map, 1);
	g->ai.share = AI_SHARE_ALWAYS;
	g->player.hp = 1000;
	struct monster *a = game_monster_at(g, 3, 1), *b = game_monster_at(g, 2, 2);
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b); /* A acts first */
	ai_mind_alert(&a->mind, a->kind, g->player.x, g->player.y, g->turn);
	ai_mind_alert(&b->mind, b->kind, g->player.x, g->player.y, g->turn);
	b->mind.waited = b_waited;
	act_wait(g);
	*a_on_f = a->x == 3 && a->y == 2;
	*b_on_f = b->x == 3 && b->y == 2;
	/* the other one waited where it stood */
	assert_true(*a_on_f ? b->x == 2 && b->y == 2 : a->x == 3 && a->y == 1);
	fixture_fini(&f);
}

static void test_longest_waiter_first(void **state)
{
	(void)state;
	bool a_on_f, b_on_f;
	funnel_turn(5, &a_on_f, &b_on_f);
	assert_true(b_on_f); /* B waited 5 actions: F is its, though A acts first */
	assert_false(a_on_f);
	funnel_turn(0, &a_on_f, &b_on_f);
	assert_true(a_on_f); /* equal waits and distances: the lower index */
	assert_false(b_on_f);
}

/* The front (rules 7): three goblins attack the player from the west,
 * a fourth stands behind them, at B (2,3).  Every cell nearer the
 * player than B is held by one that attacks and stays, while the cells
 * east of the player are free: the fourth walks round the attackers to a
 * free cell beside the player instead of queueing behind one for the
 * rest of the fight, and never steps back onto a cell it left. */
static const char front_map[] =
	"#########\n"
	"#.......#\n"
	"#..g....#\n"
	"#.gg@...#\n"
	"#..g....#\n"
	"#.......#\n"
	"########>";

static void test_front_walks_round(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", front_map, 1);
	g->ai.share = AI_SHARE_ALWAYS;
	g->player.hp = 100000;
	kind(g, "goblin")->damage = 0;
	assert_int_equal(g->n_monsters, 4);
	struct monster *b = game_monster_at(g, 2, 3);
	assert_non_null(b);
	for (int i = 0; i < g->n_monsters; i++)
		ai_mind_alert(&g->monsters[i].mind, g->monsters[i].kind, g->player.x, g->player.y, g->turn);
	int px = g->player.x, py = g->player.y, prev_x = -1, prev_y = -1, turns = 0;
	while (turns < 8 && !(abs(b->x - px) <= 1 && abs(b->y - py) <= 1)) {
		int x = b->x, y = b->y;
		act_wait(g);
		turns++;
		if (b->x != x || b->y != y) {
			assert_false(b->x == prev_x && b->y == prev_y); /* no A-B-A */
			prev_x = x;
			prev_y = y;
		}
	}
	assert_true(abs(b->x - px) <= 1 && abs(b->y - py) <= 1);
	assert_true(b->x > 2); /* it went round, past the attackers */
	assert_true(turns <= 5);
	/* the attackers stayed where they were */
	assert_non_null(game_monster_at(g, 3, 2));
	assert_non_null(game_monster_at(g, 3, 3));
	assert_non_null(game_monster_at(g, 3, 4));
	fixture_fini(&f);
}

/* The front first (rules 8): three goblins attack the player from the
 * west; W at (5,2) waits behind them for the cell (6,1) that leads round
 * the top to the free side, and a file in the corridor of row 1 wants it
 * too: its head F1 (5,1) stands nearer by the front, and its rearmost
 * goblin (3,1), outside the front's reach, waited longer than W.  Planned by
 * waits alone, the rearmost pulled the file on (priority inheritance)
 * and its head took (6,1), turn after turn; the front's agents are
 * planned first, so W, which waited longer than F1, takes it. */
static const char front_first_map[] =
	"###########\n"
	"#..ggg....#\n"
	"#####gg...#\n"
	"#.....g@..#\n"
	"#.....g...#\n"
	"#.........#\n"
	"##########>";

static void test_front_planned_first(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", front_first_map, 1);
	g->ai.share = AI_SHARE_ALWAYS;
	g->player.hp = 100000;
	kind(g, "goblin")->damage = 0;
	assert_int_equal(g->n_monsters, 7);
	struct monster *rear = game_monster_at(g, 3, 1), *head = game_monster_at(g, 5, 1), *w = game_monster_at(g, 5, 2);
	assert_non_null(rear);
	assert_non_null(head);
	assert_non_null(w);
	for (int i = 0; i < g->n_monsters; i++)
		ai_mind_alert(&g->monsters[i].mind, g->monsters[i].kind, g->player.x, g->player.y, g->turn);
	rear->mind.waited = 5;
	w->mind.waited = 1;
	act_wait(g);
	assert_int_equal(w->x, 6); /* W took the way round */
	assert_int_equal(w->y, 1);
	assert_int_equal(head->x, 5); /* the file's head waits for it */
	assert_int_equal(head->y, 1);
	/* the attackers stayed where they were */
	assert_non_null(game_monster_at(g, 6, 2));
	assert_non_null(game_monster_at(g, 6, 3));
	assert_non_null(game_monster_at(g, 6, 4));
	fixture_fini(&f);
}

/* Two corridors from a room of 20 goblins to the player's room, the lower
 * one 4 steps longer (a dip through row 6). */
static const char lopsided_map[] =
	"########################\n"
	"#gggg##############....#\n"
	"#gggg..................#\n"
	"#gggg##############..@.#\n"
	"#gggg.....####.........#\n"
	"#gggg####.####.####....#\n"
	"#########......####...>#\n"
	"###################....#\n"
	"########################";

/* How many goblins walk the longer corridor (stand on its dip) in 30
 * turns with the goblins' congestion knob set to `congestion`. */
static int lopsided_long_way(int congestion)
{
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", lopsided_map, 1);
	g->ai.share = AI_SHARE_ALWAYS;
	g->player.hp = 100000;
	kind(g, "goblin")->damage = 0;
	kind(g, "goblin")->congestion = congestion;
	assert_int_equal(g->n_monsters, 20);
	bool dip[20] = { false };
	for (int i = 0; i < g->n_monsters; i++)
		ai_mind_alert(&g->monsters[i].mind, g->monsters[i].kind, g->player.x, g->player.y, g->turn);
	for (int t = 0; t < 30; t++) {
		act_wait(g);
		for (int i = 0; i < g->n_monsters; i++)
			dip[i] |= g->monsters[i].y == 6 && g->monsters[i].x >= 10 && g->monsters[i].x <= 13;
	}
	int n = 0;
	for (int i = 0; i < 20; i++)
		n += dip[i];
	fixture_fini(&f);
	return n;
}

/* The congestion knob splits the crowd: with it, the queue in the short
 * corridor sends part of the goblins down the longer one. */
static void test_congestion_splits(void **state)
{
	(void)state;
	int plain = lopsided_long_way(0), split = lopsided_long_way(100);
	print_message("goblins down the longer corridor: knob 0: %d, knob 100: %d\n", plain, split);
	assert_true(split >= plain + 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corridor_flows),
		cmocka_unit_test(test_swaps_idle_monster),
		cmocka_unit_test(test_hunters_never_trade),
		cmocka_unit_test(test_longest_waiter_first),
		cmocka_unit_test(test_front_walks_round),
		cmocka_unit_test(test_front_planned_first),
		cmocka_unit_test(test_congestion_splits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
