/*
 * test_sim_behaviour.c - the behaviour metrics of `astray sim`
 * (oscillations, stuck actions, blocked waits, longest jam) on constructed
 * actions fed to the observer, each with a case that must produce it and
 * one that must not, then on real games in a corridor; and the heat-map
 * counts of a constructed game, cell by cell.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bestiary.h"
#include "game.h"
#include "grid.h"
#include "level.h"
#include "sim.h"

/* A 10 x 1 corridor with two monsters, enough of a struct game for the observer. */
struct fake {
	struct game g;
	struct monster m[2];
	int occupant[10];
	int route[2][16];
	struct grid *grid;
	struct sim_runner *r;
};

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof *f);
	f->grid = grid_create(10, 1, GRID_SQUARE4);
	assert_non_null(f->grid);
	for (int i = 0; i < 10; i++) {
		grid_set_cost(f->grid, i, 1);
		f->occupant[i] = -1;
	}
	f->g.grid = f->grid;
	f->g.monsters = f->m;
	f->g.n_monsters = 2;
	f->g.occupant = f->occupant;
	for (int i = 0; i < 2; i++) {
		f->m[i].alive = true;
		f->m[i].mind.hunting = true;
		f->m[i].mind.route = f->route[i];
		f->m[i].mind.route_cap = 16;
	}
	f->r = sim_runner_create();
	assert_non_null(f->r);
	assert_true(sim_behaviour_begin(f->r, 2));
}

static void fake_fini(struct fake *f)
{
	sim_runner_destroy(f->r);
	grid_destroy(f->grid);
}

/* Puts monster i on cell x with target tx (its mind) and updates occupant. */
static void place(struct fake *f, int i, int x, int tx)
{
	for (int c = 0; c < 10; c++)
		if (f->occupant[c] == i)
			f->occupant[c] = -1;
	f->m[i].x = x;
	f->m[i].y = 0;
	f->m[i].mind.target_x = tx;
	f->m[i].mind.target_y = 0;
	f->occupant[x] = i;
}

/* Monster i steps from its cell to x (the observer sees it first). */
static void step(struct fake *f, int i, int x)
{
	sim_behaviour_act(f->r, &f->g, i, (struct ai_decision){ .act = AI_STEP, .cell = x });
	place(f, i, x, f->m[i].mind.target_x);
}

static void wait_(struct fake *f, int i)
{
	sim_behaviour_act(f->r, &f->g, i, (struct ai_decision){ .act = AI_WAIT, .cell = -1 });
}

static long count(struct fake *f, int k)
{
	long c[4];
	sim_behaviour_counts(f->r, c);
	return c[k];
}

static void test_oscillation(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	/* A-B-A-B toward a target that does not move: two returns. */
	place(&f, 0, 3, 9);
	step(&f, 0, 4);
	step(&f, 0, 3);
	step(&f, 0, 4);
	assert_int_equal(count(&f, 0), 2);
	/* Must not: the same moves while the target moved each time. */
	assert_true(sim_behaviour_begin(f.r, 2));
	place(&f, 0, 3, 9);
	step(&f, 0, 4);
	f.m[0].mind.target_x = 0;
	step(&f, 0, 3);
	f.m[0].mind.target_x = 9;
	step(&f, 0, 4);
	assert_int_equal(count(&f, 0), 0);
	/* Must not: a straight walk. */
	assert_true(sim_behaviour_begin(f.r, 2));
	place(&f, 0, 0, 9);
	for (int x = 1; x < 9; x++)
		step(&f, 0, x);
	assert_int_equal(count(&f, 0), 0);
	fake_fini(&f);
}

static void test_stuck(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	/* Waiting SIM_STUCK_K + 3 times while hunting: the (K+1)th action and
	 * each after it is no closer than K actions before. */
	place(&f, 0, 2, 9);
	for (int k = 0; k < SIM_STUCK_K + 3; k++)
		wait_(&f, 0);
	assert_int_equal(count(&f, 1), 3);
	/* Must not: walking toward the target, or waiting without a target. */
	assert_true(sim_behaviour_begin(f.r, 2));
	place(&f, 0, 0, 9);
	for (int x = 1; x <= 9 - 1; x++)
		step(&f, 0, x);
	f.m[0].mind.hunting = false;
	for (int k = 0; k < 2 * SIM_STUCK_K; k++)
		wait_(&f, 0);
	assert_int_equal(count(&f, 1), 0);
	fake_fini(&f);
}

static void test_blocked_waits(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	/* Monster 0 at 2 routes 2-3-4; monster 1 holds 3: blocked, three times. */
	place(&f, 0, 2, 9);
	place(&f, 1, 3, 9);
	int *rt = f.m[0].mind.route;
	rt[0] = 2;
	rt[1] = 3;
	rt[2] = 4;
	f.m[0].mind.route_len = 3;
	wait_(&f, 0);
	wait_(&f, 0);
	wait_(&f, 0);
	assert_int_equal(count(&f, 2), 3);
	assert_int_equal(count(&f, 3), 3);
	/* The jam breaks; a later jam of 1 keeps the longest at 3. */
	place(&f, 1, 5, 9);
	wait_(&f, 0); /* waits with its next cell free: not blocked */
	place(&f, 1, 3, 9);
	wait_(&f, 0);
	assert_int_equal(count(&f, 2), 4);
	assert_int_equal(count(&f, 3), 3);
	/* Must not: the next cell held by nobody, or not hunting. */
	assert_true(sim_behaviour_begin(f.r, 2));
	place(&f, 1, 7, 9);
	wait_(&f, 0);
	place(&f, 1, 3, 9);
	f.m[0].mind.hunting = false;
	wait_(&f, 0);
	assert_int_equal(count(&f, 2), 0);
	fake_fini(&f);
}

static const char bestiary_text[] =
	"kind: goblin\nglyph: g\nhp: 6\ndamage: 2\nspeed: 100\nsight: 12\nmemory: 10\ncrowd: 4\n";

static struct level *make_level(const struct bestiary *b, const char *map)
{
	char text[1024];
	snprintf(text, sizeof text, "astray-level 1\nname: t\ntopology: square4\nmap:\n%s", map);
	struct diag_list d = { 0 };
	struct level *lv = level_parse("t.lvl", text, strlen(text), b, &d);
	diag_list_fini(&d);
	assert_non_null(lv);
	return lv;
}

static void play(const struct level *lv, const struct bestiary *b, struct sim_heat *heat,
		 struct sim_game *out)
{
	struct sim_runner *r = sim_runner_create();
	assert_non_null(r);
	sim_runner_set_heat(r, heat);
	struct sim_level src = { .file = "t.lvl", .fixed = lv };
	struct sim_options opt = { .player = SIM_PLAYER_IDLE, .max_turns = 200 };
	struct diag_list d = { 0 };
	assert_int_equal(sim_run_game(r, &src, b, 3, &opt, out, &d), 0);
	diag_list_fini(&d);
	sim_runner_destroy(r);
}

/* Real games: two goblins in a one-wide corridor jam, one does not. */
static void test_corridor_games(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("b", bestiary_text, strlen(bestiary_text), &b, &d));
	diag_list_fini(&d);
	struct level *two = make_level(&b, "##########\n#>@....gg#\n##########\n");
	struct level *one = make_level(&b, "##########\n#>@....g.#\n##########\n");
	struct sim_game g;
	play(two, &b, NULL, &g);
	assert_int_equal(g.outcome, SIM_KILLED);
	assert_true(g.v[SIM_M_BLOCKED_WAITS] > 5);
	assert_true(g.v[SIM_M_LONGEST_JAM] > 5);
	assert_true(g.v[SIM_M_OSCILLATIONS] == 0);
	play(one, &b, NULL, &g);
	assert_true(g.v[SIM_M_BLOCKED_WAITS] == 0);
	assert_true(g.v[SIM_M_LONGEST_JAM] == 0);
	assert_true(g.v[SIM_M_STUCK] == 0);
	assert_true(g.v[SIM_M_OSCILLATIONS] == 0);
	level_destroy(two);
	level_destroy(one);
}

/*
 * Heat counts, exactly: one goblin three cells from an idle player in a
 * corridor.  It walks 7 -> 6 -> 5 -> 4 (one action on each of 7, 6, 5)
 * and then attacks from 4 every turn until the player dies (bites may
 * miss).  Occupancy: 1, 1, 1 and one action a turn on 4 for the rest of
 * the game; contact and death on the player's cell 3; nothing blocked.
 */
static void test_heat_counts(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("b", bestiary_text, strlen(bestiary_text), &b, &d));
	diag_list_fini(&d);
	struct level *lv = make_level(&b, "##########\n#>.@...g.#\n##########\n");
	struct sim_heat heat = { 0 };
	struct sim_game g;
	play(lv, &b, &heat, &g);
	assert_int_equal(heat.w, 10);
	assert_int_equal(heat.h, 3);
	assert_int_equal(g.outcome, SIM_KILLED);
	const double *occ = heat.v[SIM_HEAT_OCCUPANCY];
	int row = 10;
	assert_true(occ[row + 7] == 1 && occ[row + 6] == 1 && occ[row + 5] == 1);
	assert_true(occ[row + 4] == g.v[SIM_M_TURNS] - 3);
	double total = 0;
	for (int c = 0; c < 30; c++)
		total += occ[c];
	assert_true(total == g.v[SIM_M_TURNS]); /* one action a turn, speed 100 */
	assert_true(heat.v[SIM_HEAT_CONTACT][row + 3] == 1);
	assert_true(heat.v[SIM_HEAT_DEATHS][row + 3] == 1);
	for (int c = 0; c < 30; c++)
		assert_true(heat.v[SIM_HEAT_BLOCKED][c] == 0);
	assert_int_equal(heat.tiles[0], TILE_WALL);
	assert_int_equal(heat.tiles[row + 1], TILE_EXIT);
	/* A second game adds to the same heat; merging adds like playing. */
	struct sim_heat sum = { 0 };
	assert_true(sim_heat_add(&sum, &heat));
	assert_true(sim_heat_add(&sum, &heat));
	assert_true(sum.v[SIM_HEAT_OCCUPANCY][row + 4] == 2 * (g.v[SIM_M_TURNS] - 3));
	play(lv, &b, &heat, &g);
	assert_true(heat.v[SIM_HEAT_OCCUPANCY][row + 4] == 2 * (g.v[SIM_M_TURNS] - 3));
	enum sim_heat_layer l;
	assert_true(sim_heat_layer_parse("blocked", &l) && l == SIM_HEAT_BLOCKED);
	assert_false(sim_heat_layer_parse("nosuch", &l));
	sim_heat_fini(&sum);
	sim_heat_fini(&heat);
	level_destroy(lv);
}

/*
 * Per kind, constructed: the damage the player took since a monster acted
 * is that monster's kind's; a blow, a shot or ending next to the player is
 * a contact; a blocked wait a jam; a dead monster a death.  Must not: a
 * monster of a kind the game's bestiary does not hold counts nowhere.
 */
static void test_kind_counts(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	f.g.bestiary.n = 2;
	snprintf(f.g.bestiary.kinds[0].name, sizeof f.g.bestiary.kinds[0].name, "rat");
	snprintf(f.g.bestiary.kinds[1].name, sizeof f.g.bestiary.kinds[1].name, "orc");
	f.m[0].kind = &f.g.bestiary.kinds[0];
	f.m[1].kind = &f.g.bestiary.kinds[1];
	f.g.player.x = 0; /* the player on cell 0 */
	place(&f, 0, 2, 0);
	place(&f, 1, 5, 0);
	f.m[0].mind.route[0] = 2;
	step(&f, 0, 1);                       /* ends next to the player: a contact */
	sim_behaviour_act(f.r, &f.g, 0, (struct ai_decision){ .act = AI_ATTACK, .cell = 0 });
	f.g.damage_taken += 3;                /* the rat's blow */
	sim_behaviour_act(f.r, &f.g, 1, (struct ai_decision){ .act = AI_SHOOT, .cell = 0 });
	f.g.damage_taken += 2;                /* the orc's shot */
	f.m[1].mind.route[0] = 5;
	f.m[1].mind.route[1] = 4;
	f.m[1].mind.route_len = 2;
	f.m[1].mind.route_pos = 0;
	place(&f, 0, 4, 0);                   /* the rat holds the orc's next cell */
	wait_(&f, 1);                         /* a blocked wait: the orc's jam */
	f.m[0].alive = false;
	uint32_t k[SIM_KINDS][SIM_KIND_METRIC_COUNT];
	sim_kind_counts(f.r, &f.g, k);
	assert_int_equal(k[0][SIM_K_MONSTERS], 1);
	assert_int_equal(k[0][SIM_K_CONTACTS], 2);
	assert_int_equal(k[0][SIM_K_DAMAGE], 3);
	assert_int_equal(k[0][SIM_K_DEATHS], 1);
	assert_int_equal(k[0][SIM_K_JAMS], 0);
	assert_int_equal(k[1][SIM_K_MONSTERS], 1);
	assert_int_equal(k[1][SIM_K_CONTACTS], 1);
	assert_int_equal(k[1][SIM_K_DAMAGE], 2);
	assert_int_equal(k[1][SIM_K_DEATHS], 0);
	assert_int_equal(k[1][SIM_K_JAMS], 1);
	assert_int_equal(count(&f, 2), 1);
	/* Must not: a kind outside the bestiary counts nowhere. */
	struct monster_kind stray = { .name = "stray" };
	assert_true(sim_behaviour_begin(f.r, 2));
	f.m[1].kind = &stray;
	wait_(&f, 1);
	f.g.damage_taken += 4;
	sim_kind_counts(f.r, &f.g, k);
	assert_int_equal(k[1][SIM_K_JAMS] + k[0][SIM_K_JAMS], 0);
	assert_int_equal(k[0][SIM_K_DAMAGE] + k[1][SIM_K_DAMAGE], 0);
	assert_int_equal(k[1][SIM_K_MONSTERS], 0);
	fake_fini(&f);
}

/* Per kind, played: a rat bites an idle player while an orc jams behind
 * it; the kinds' figures add up to the game's. */
static void test_kind_game(void **state)
{
	(void)state;
	static const char two_kinds[] =
		"kind: rat\nglyph: r\nhp: 30\ndamage: 2\nspeed: 100\nsight: 12\nmemory: 10\ncrowd: 4\n\n"
		"kind: orc\nglyph: o\nhp: 6\ndamage: 5\nspeed: 100\nsight: 12\nmemory: 10\ncrowd: 4\n\n"
		"kind: bat\nglyph: b\nhp: 6\ndamage: 5\nspeed: 100\nsight: 12\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("b", two_kinds, strlen(two_kinds), &b, &d));
	diag_list_fini(&d);
	struct level *lv = make_level(&b, "##########\n#>@....ro#\n##########\n");
	struct sim_game g;
	play(lv, &b, NULL, &g);
	assert_int_equal(g.outcome, SIM_KILLED);
	assert_true(sim_game_value(&g, sim_kind_col(0, SIM_K_DAMAGE)) == g.v[SIM_M_DAMAGE]);
	assert_true(sim_game_value(&g, sim_kind_col(1, SIM_K_DAMAGE)) == 0);
	assert_true(sim_game_value(&g, sim_kind_col(0, SIM_K_CONTACTS)) > 5);
	assert_true(sim_game_value(&g, sim_kind_col(1, SIM_K_CONTACTS)) == 0);
	assert_true(sim_game_value(&g, sim_kind_col(1, SIM_K_JAMS)) == g.v[SIM_M_BLOCKED_WAITS]);
	assert_true(g.v[SIM_M_BLOCKED_WAITS] > 5);
	assert_true(sim_game_value(&g, sim_kind_col(0, SIM_K_MONSTERS)) == 1);
	assert_true(sim_game_value(&g, sim_kind_col(1, SIM_K_DEATHS)) == 0);
	/* the bat is not on the level: its columns are undefined */
	for (int km = 0; km < SIM_KIND_METRIC_COUNT; km++)
		assert_true(isnan(sim_game_value(&g, sim_kind_col(2, (enum sim_kind_metric)km))));
	struct stats_summary s;
	assert_int_equal(sim_summarize_col(&g, 1, sim_kind_col(2, SIM_K_DAMAGE), &s), 0);
	level_destroy(lv);
}

/* --heat-kind: only the kind's heat.  The rat bites, the orc jams behind
 * it: the rat's heat has the contact and the death and no blocked wait,
 * the orc's the blocked waits and neither contact nor death; the two
 * occupancies add up to every kind's. */
static void test_heat_kind(void **state)
{
	(void)state;
	static const char two_kinds[] =
		"kind: rat\nglyph: r\nhp: 30\ndamage: 2\nspeed: 100\nsight: 12\nmemory: 10\ncrowd: 4\n\n"
		"kind: orc\nglyph: o\nhp: 6\ndamage: 5\nspeed: 100\nsight: 12\nmemory: 10\ncrowd: 4\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("b", two_kinds, strlen(two_kinds), &b, &d));
	diag_list_fini(&d);
	struct level *lv = make_level(&b, "##########\n#>@....ro#\n##########\n");
	struct sim_heat heat[3] = { { 0 } };
	for (int k = -1; k < 2; k++) {
		struct sim_runner *r = sim_runner_create();
		assert_non_null(r);
		sim_runner_set_heat(r, &heat[k + 1]);
		sim_runner_set_heat_kind(r, k);
		struct sim_level src = { .file = "t.lvl", .fixed = lv };
		struct sim_options opt = { .player = SIM_PLAYER_IDLE, .max_turns = 200 };
		struct sim_game g;
		assert_int_equal(sim_run_game(r, &src, &b, 3, &opt, &g, &d), 0);
		assert_int_equal(g.outcome, SIM_KILLED);
		sim_runner_destroy(r);
	}
	double sum[3][SIM_HEAT_COUNT] = { { 0 } };
	for (int i = 0; i < 3; i++)
		for (int l = 0; l < SIM_HEAT_COUNT; l++)
			for (int c = 0; c < 30; c++)
				sum[i][l] += heat[i].v[l][c];
	assert_true(sum[0][SIM_HEAT_OCCUPANCY] == sum[1][SIM_HEAT_OCCUPANCY] + sum[2][SIM_HEAT_OCCUPANCY]);
	assert_true(sum[1][SIM_HEAT_OCCUPANCY] > 0 && sum[2][SIM_HEAT_OCCUPANCY] > 0);
	assert_true(sum[0][SIM_HEAT_BLOCKED] > 5);
	assert_true(sum[1][SIM_HEAT_BLOCKED] == 0);                        /* the rat never waits for the orc */
	assert_true(sum[2][SIM_HEAT_BLOCKED] == sum[0][SIM_HEAT_BLOCKED]);
	assert_true(heat[0].v[SIM_HEAT_CONTACT][10 + 2] == 1 && heat[1].v[SIM_HEAT_CONTACT][10 + 2] == 1);
	assert_true(sum[2][SIM_HEAT_CONTACT] == 0);                        /* the orc never reaches the player */
	assert_true(heat[0].v[SIM_HEAT_DEATHS][10 + 2] == 1 && heat[1].v[SIM_HEAT_DEATHS][10 + 2] == 1);
	assert_true(sum[2][SIM_HEAT_DEATHS] == 0);                         /* the rat's blow killed */
	for (int i = 0; i < 3; i++)
		sim_heat_fini(&heat[i]);
	level_destroy(lv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oscillation),
		cmocka_unit_test(test_stuck),
		cmocka_unit_test(test_blocked_waits),
		cmocka_unit_test(test_corridor_games),
		cmocka_unit_test(test_heat_counts),
		cmocka_unit_test(test_kind_counts),
		cmocka_unit_test(test_kind_game),
		cmocka_unit_test(test_heat_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
