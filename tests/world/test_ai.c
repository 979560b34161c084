/*
 * test_ai.c - the monster AI and its knobs, each on a small map: sight 0
 * never hunts, memory 0 forgets at once, a finite P presses against the
 * wall where the automatic P takes the detour, a crowd cost sends a second
 * monster down the other corridor (on a large level, round a blocker
 * within its horizon, and a walled-in one waits without a search), a
 * budget yields a partial path, a far plan on a large level is weighted
 * and bounded and its wanderers draw goals in turn, fleeing
 * increases the distance, repath and weight change the work; the shared
 * flood chooses moves as good as one search per monster on random maps;
 * and the cost per turn at scale, printed (never asserted: time is noise).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"
#include "ai_internal.h"
#include "fov.h"
#include "gen.h"
#include "game_internal.h"
#include "level.h"
#include "path.h"

static struct monster_kind *kind(struct game *g, const char *name)
{
	struct monster_kind *k = bestiary_find_name(&g->bestiary, name);
	assert_non_null(k);
	return k;
}

/* The monster knows where the player is, as if it had just seen it. */
static void force_hunt(struct game *g, struct monster *m)
{
	ai_mind_alert(&m->mind, m->kind, g->player.x, g->player.y, g->turn);
}

static void test_sight_zero_never_hunts(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "########\n#@..g..#\n#######>", 1);
	kind(g, "goblin")->sight = 0;
	struct monster *m = game_monster_at(g, 4, 1);
	for (int i = 0; i < 5; i++)
		act_wait(g);
	assert_false(m->mind.hunting);
	assert_int_equal(m->x, 4);
	assert_int_equal(g->player.hp, PLAYER_HP);
	assert_int_equal(g->ai.stats.searches, 0);
	/* with its sight back it hunts at once */
	kind(g, "goblin")->sight = 8;
	act_wait(g);
	assert_true(m->mind.hunting);
	assert_int_equal(m->x, 3);
	fixture_fini(&f);
}

/* A monster notices a player it sees on its own turn: a goblin following
 * a route toward a remembered place, due to replan only every 5 turns,
 * turns toward the player the turn it sees it, not when its schedule
 * comes round; and one that could see the player at the start of a turn
 * is hunting it after its move, on square and hex maps. */
static void test_notices_on_its_own_turn(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "#################\n"
				      "#@.....g........#\n"
				      "################>\n", 1);
	kind(g, "goblin")->repath = 5;
	kind(g, "goblin")->sight = 0;
	struct monster *m = game_monster_at(g, 7, 1);
	while (g->turn % 5 != 4)
		act_wait(g);
	ai_mind_alert(&m->mind, m->kind, 15, 1, g->turn); /* heads east, for a place it remembers */
	act_wait(g);
	assert_int_equal(m->x, 8);
	assert_true(m->mind.route_len > 0);
	assert_true(g->turn < m->mind.next_repath - 1); /* not due for turns */
	kind(g, "goblin")->sight = 20; /* now it sees the player, in the west */
	act_wait(g);
	assert_true(m->mind.hunting);
	assert_int_equal(m->mind.target_x, 1);
	assert_int_equal(m->x, 7); /* it turned at once */
	act_wait(g);
	assert_int_equal(m->x, 6);
	fixture_fini(&f);

	/* two cells away, in the open, on each topology: hunting after its first turn */
	static const char *const open_maps[][2] = {
		{ "square8", "#######\n#.....#\n#.@.g.#\n#.....#\n######>\n" },
		{ "square4", "#######\n#.....#\n#.@.g.#\n#.....#\n######>\n" },
		{ "hex", "# # # # # #\n # . . . . #\n# . @ . g #\n # . . . . #\n# # # # # >\n" },
	};
	for (size_t i = 0; i < sizeof open_maps / sizeof open_maps[0]; i++) {
		g = fixture_game(&f, open_maps[i][0], open_maps[i][1], 1);
		m = &g->monsters[0];
		assert_false(m->mind.hunting);
		int d0 = grid_step_distance(g->grid, grid_index(g->grid, m->x, m->y),
					    grid_index(g->grid, g->player.x, g->player.y));
		act_wait(g);
		assert_true(m->mind.hunting);
		assert_true(grid_step_distance(g->grid, grid_index(g->grid, m->x, m->y),
					       grid_index(g->grid, g->player.x, g->player.y)) < d0);
		fixture_fini(&f);
	}
}

static const char memory_map[] =
	"###########\n"
	"#g.....@..#\n"
	"#######.###\n"
	"#######.###\n"
	"##########>";

static void test_memory(void **state)
{
	(void)state;
	for (int memory = 0; memory <= 10; memory += 10) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square8", memory_map, 1);
		kind(g, "goblin")->memory = memory;
		struct monster *m = game_monster_at(g, 1, 1);
		act_wait(g);
		assert_true(m->mind.hunting);
		assert_int_equal(m->x, 2);
		act_move(g, GRID_S); /* out of its sight */
		assert_false(fov_line_of_sight(g->grid, g->opaque, m->x, m->y, 7, 2, 8));
		if (memory == 0) {
			assert_false(m->mind.hunting); /* forgets at once */
			assert_int_equal(m->x, 2);
		} else {
			assert_true(m->mind.hunting); /* heads for where it last saw the player */
			assert_int_equal(m->x, 3);
			assert_int_equal(m->mind.target_x, 7);
			assert_int_equal(m->mind.target_y, 1);
		}
		fixture_fini(&f);
	}
}

/* The player is behind one wall; the way round is long. */
static const char detour_map[] =
	"#####################\n"
	"#.........@.........#\n"
	"###################.#\n"
	"#.........g.........#\n"
	"####################>";

static void test_penalty(void **state)
{
	(void)state;
	for (int finite = 0; finite <= 1; finite++) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square4", detour_map, 1);
		g->player.hp = 1000;
		struct monster_kind *k = kind(g, "goblin");
		k->memory = 1000;
		k->penalty = finite ? 2 : 0;
		struct monster *m = game_monster_at(g, 10, 3);
		assert_false(fov_line_of_sight(g->grid, g->opaque, 10, 3, 10, 1, 20));
		force_hunt(g, m);
		int max_x = m->x;
		for (int i = 0; i < 25; i++) {
			act_wait(g);
			if (m->x > max_x)
				max_x = m->x;
		}
		if (finite) {
			/* gives up the detour: pressed against the wall below the player */
			assert_int_equal(m->x, 10);
			assert_int_equal(m->y, 3);
			assert_true(g->ai.stats.fallbacks >= 1);
			assert_int_equal(g->player.hp, 1000);
		} else {
			/* takes the detour and reaches the player */
			assert_int_equal(max_x, 19);
			assert_int_equal(m->y, 1);
			assert_true(g->player.hp < 1000);
			assert_int_equal(g->ai.stats.fallbacks, 0);
		}
		fixture_fini(&f);
	}
}

/* A slug blocks the short corridor: with a crowd cost the goblin behind it
 * goes round by the other corridor; with none it waits behind. */
static const char corridors_map[] =
	"###########\n"
	"#..@......#\n"
	"#.#######.#\n"
	"#s#######.#\n"
	"#g........#\n"
	"##########>";

static void test_crowd(void **state)
{
	(void)state;
	/* the same with the crowd replan made by the shared flood's route
	 * search (ALWAYS) and by path_find (NEVER) */
	for (int share = 0; share < 2; share++) {
		for (int crowd = 0; crowd <= 20; crowd += 20) {
			struct fixture f;
			struct game *g = fixture_game(&f, "square4", corridors_map, 1);
			g->ai.share = share ? AI_SHARE_NEVER : AI_SHARE_ALWAYS;
			g->bestiary.rules.crowd = CROWD_DETOUR; /* the detour rule (test_crowd.c: pass) */
			g->player.hp = 1000;
			kind(g, "goblin")->crowd = crowd;
			kind(g, "goblin")->memory = 1000;
			kind(g, "slug")->sight = 0; /* it stays where it is */
			struct monster *m = game_monster_at(g, 1, 4);
			force_hunt(g, m);
			int max_x = m->x;
			for (int i = 0; i < 14; i++) {
				act_wait(g);
				if (m->x > max_x)
					max_x = m->x;
			}
			if (crowd) {
				assert_int_equal(max_x, 9); /* the other corridor */
				assert_true(m->y <= 2);
			} else {
				assert_int_equal(m->x, 1); /* waits behind the slug */
				assert_int_equal(m->y, 4);
			}
			if (share)
				assert_int_equal(g->ai.stats.floods, 0);
			else
				assert_true(g->ai.stats.floods > 0);
			fixture_fini(&f);
		}
	}
}

/*
 * Crowds on a large level (more than AI_SHARE_MIN x AI_SHARE_CELLS
 * passable cells): a blocked exact kind plans its detour within the steps
 * it will take before replanning (flood_detour), and one whose every
 * neighbour is held waits without a search.  An open 200x200 map: goblin
 * A has a dummy right in front of it on the way to the player, goblin B
 * is walled in by eight dummies (which never hunt, so never move).
 */
static void crowd_large_level(int lookahead)
{
	const int w = 200, h = 200, reach = lookahead * AI_CROWD_COMMIT, box = 2 * reach + 1;
	char *text = malloc((size_t)(w + 1) * h + 1);
	size_t n = 0;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			text[n++] = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : '.';
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[100 * (w + 1) + 180] = '@';
	text[150 * (w + 1) + 180] = '>';
	text[100 * (w + 1) + 20] = 'g';
	text[100 * (w + 1) + 21] = 'd';
	text[50 * (w + 1) + 20] = 'g';
	for (int y = 49; y <= 51; y++)
		for (int x = 19; x <= 21; x++)
			if (x != 20 || y != 50)
				text[y * (w + 1) + x] = 'd';
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", text, 1);
	free(text);
	g->ai.share = AI_SHARE_ALWAYS;
	g->bestiary.rules.crowd = CROWD_DETOUR; /* the detour rule (test_crowd.c: pass) */
	g->player.hp = 100000;
	kind(g, "goblin")->memory = 1000;
	kind(g, "goblin")->crowd = 4;
	kind(g, "goblin")->lookahead = lookahead;
	assert_true(g->ai.share_need > AI_SHARE_MIN);
	struct monster *a = game_monster_at(g, 20, 100), *b = game_monster_at(g, 20, 50);
	assert_non_null(a);
	assert_non_null(b);
	force_hunt(g, a);
	force_hunt(g, b);
	act_wait(g);
	/* A went round the dummy, on a detour that looks `reach` steps ahead */
	assert_int_equal(a->x, 21);
	assert_true(a->y == 99 || a->y == 101);
	assert_true(a->mind.route_len >= 2 && a->mind.route_len <= reach + 1);
	/* B waited, and only A searched (besides the flood) */
	assert_int_equal(b->x, 20);
	assert_int_equal(b->y, 50);
	assert_int_equal(g->ai.stats.searches - g->ai.stats.floods, 1);
	long passable = 0;
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		passable += g->grid->cost[c] != 0;
	/* the flood settles every passable cell; the detour a box x box square at most */
	assert_true(g->ai.stats.expanded > passable && g->ai.stats.expanded - passable <= box * box);
	for (int i = 0; i < 6; i++)
		act_wait(g);
	assert_int_equal(b->x, 20);
	assert_int_equal(b->y, 50);
	assert_int_equal(g->ai.stats.searches - g->ai.stats.floods, 1);
	assert_true(a->x >= 27 && abs(a->y - 100) <= 1);
	fixture_fini(&f);
}

/* The default lookahead, 3: a goblin's detour looks 24 steps ahead. */
static void test_crowd_large_level(void **state)
{
	(void)state;
	crowd_large_level(3);
}

/* The `lookahead` knob: with 1 the detour looks 8 steps ahead, in a
 * 17x17 box, and still goes round. */
static void test_crowd_lookahead_knob(void **state)
{
	(void)state;
	crowd_large_level(1);
}

static void test_budget_partial_path(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "##############################\n"
				      "#@...........................#\n"
				      "#..........######............#\n"
				      "#...............#............#\n"
				      "#...............#...........g#\n"
				      "#############################>", 1);
	g->player.hp = 1000;
	kind(g, "goblin")->budget = 6;
	struct monster *m = game_monster_at(g, 28, 4);
	force_hunt(g, m);
	int pc = grid_index(g->grid, 1, 1);
	double h0 = grid_heuristic(g->grid, grid_index(g->grid, m->x, m->y), pc);
	act_wait(g);
	assert_true(g->ai.stats.budget_hits >= 1);
	assert_true(g->ai.stats.expanded <= 6 * g->ai.stats.searches + 1);
	assert_int_equal(m->mind.route_goal, pc);
	assert_true(m->mind.route_len > 1);
	assert_true(m->mind.route[m->mind.route_len - 1] != pc); /* partial */
	assert_true(grid_heuristic(g->grid, grid_index(g->grid, m->x, m->y), pc) < h0); /* and it moved on */
	fixture_fini(&f);
}

static void test_flee(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "###############\n"
				      "#.............#\n"
				      "#....@.g......#\n"
				      "#.............#\n"
				      "##############>", 1);
	kind(g, "goblin")->flee = 0.5;
	struct monster *m = game_monster_at(g, 7, 2);
	m->hp = 2;
	int pc = grid_index(g->grid, 5, 2);
	double d = grid_heuristic(g->grid, grid_index(g->grid, m->x, m->y), pc);
	for (int i = 0; i < 4; i++) {
		act_wait(g);
		double now = grid_heuristic(g->grid, grid_index(g->grid, m->x, m->y), pc);
		assert_true(now > d);
		assert_true(m->mind.fleeing);
		d = now;
	}
	assert_int_equal(g->player.hp, PLAYER_HP);
	/* healthy again, it comes back */
	m->hp = 6;
	act_wait(g);
	assert_false(m->mind.fleeing);
	assert_true(grid_heuristic(g->grid, grid_index(g->grid, m->x, m->y), pc) < d);
	fixture_fini(&f);
}

/* repath N: one search every N turns toward a moving player; a larger weight expands\n * fewer cells where the heuristic underestimates (terrain in the way). */
static void test_repath_and_weight(void **state)
{
	(void)state;
	long searches[2], expanded[2];
	for (int i = 0; i < 2; i++) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square8",
					      "####################\n"
					      "#.@................#\n"
					      "#..................#\n"
					      "#.................g#\n"
					      "###################>", 1);
		kind(g, "goblin")->repath = i == 0 ? 1 : 4;
		g->ai.share = AI_SHARE_NEVER;
		for (int t = 0; t < 12; t++)
			act_move(g, t % 2 ? GRID_E : GRID_W);
		searches[i] = g->ai.stats.searches;
		fixture_fini(&f);
	}
	assert_int_equal(searches[0], 12);
	assert_true(searches[1] <= 4);
	for (int i = 0; i < 2; i++) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square8",
					      "##############################\n"
					      "#@.........~~~~~~............#\n"
					      "#..........~~~~~~............#\n"
					      "#..........~~~~~~............#\n"
					      "#..........~~~~~~...........g#\n"
					      "#############################>", 1);
		kind(g, "goblin")->weight = i == 0 ? 1.0 : 3.0;
		force_hunt(g, game_monster_at(g, 28, 4));
		act_wait(g);
		expanded[i] = g->ai.stats.expanded;
		fixture_fini(&f);
	}
	/* The water band makes the heuristic underestimate by up to 12, so exact
	 * A* widens its search before crossing; weight 3 heads through. */
	print_message("weight 1 expanded %ld, weight 3 expanded %ld\n", expanded[0], expanded[1]);
	assert_true(2 * expanded[1] <= expanded[0]);
}

/*
 * A goal in the monster's own region is reachable: with automatic P and no
 * budget its search leaves the fallback out (jump point search answers this
 * uniform map), and expands what path_find without the fallback does; a
 * finite P keeps the fallback.
 */
static void test_reachable_goal_skips_fallback(void **state)
{
	(void)state;
	static const char map[] = "##############################\n"
				  "#@...........#...............#\n"
				  "#.......#....................#\n"
				  "#.......................#....#\n"
				  "#...........................g#\n"
				  "#############################>";
	for (int c = 0; c < 2; c++) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square8", map, 1);
		g->ai.share = AI_SHARE_NEVER;
		kind(g, "goblin")->penalty = c == 0 ? 0.0 : 3.0;
		struct monster *m = game_monster_at(g, 28, 4);
		assert_non_null(m);
		force_hunt(g, m);
		const int from = grid_index(g->grid, m->x, m->y);
		const int to = grid_index(g->grid, g->player.x, g->player.y);
		struct path_ctx *p = path_create(g->grid);
		struct path_options o = path_options_default();
		struct path_result plain, fb;
		assert_int_equal(path_find(p, from, to, &o, &plain), PATH_FOUND);
		o.fallback = true;
		o.penalty = kind(g, "goblin")->penalty;
		path_find(p, from, to, &o, &fb);
		assert_true(fb.expanded != plain.expanded);
		act_wait(g);
		assert_int_equal(g->ai.stats.searches, 1);
		assert_int_equal(g->ai.stats.expanded, c == 0 ? plain.expanded : fb.expanded);
		path_destroy(p);
		fixture_fini(&f);
	}
}

/*
 * Far plans (rules 9): on a large level a monster's own search toward a
 * goal farther than AI_FAR_PLAN is a weighted A* (AI_FAR_WEIGHT) within
 * AI_FAR_BUDGET expansions; within AI_FAR_PLAN, and on a level that is
 * not large, it is the exact search.  A 700x60 map strewn with rubble
 * (no jump search) with a wall across it, open at the bottom: a goblin
 * beyond it, the player on the other
 * side, no shared flood.  Its route is the reference search's, cell for
 * cell (the far one expands fewer cells than the exact search).
 */
static void far_plan_case(int w, int gx, bool want_far)
{
	const int h = 60;
	char *text = malloc((size_t)(w + 1) * h + 1);
	size_t n = 0;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			text[n++] = x == 0 || y == 0 || x == w - 1 || y == h - 1 || (x == 40 && y < h - 6) ? '#'
				    : (x * 7 + y * 3) % 11 == 0					      ? ','
												      : '.';
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[10 * (w + 1) + 20] = '@';
	text[(h - 2) * (w + 1) + 2] = '>';
	text[10 * (w + 1) + gx] = 'g';
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", text, 1);
	free(text);
	g->ai.share = AI_SHARE_NEVER;
	g->player.hp = 100000;
	assert_int_equal(g->ai.share_need > AI_SHARE_MIN, w >= 600);
	struct monster *m = game_monster_at(g, gx, 10);
	assert_non_null(m);
	force_hunt(g, m);
	const int from = grid_index(g->grid, m->x, m->y), to = grid_index(g->grid, g->player.x, g->player.y);
	assert_int_equal(grid_heuristic(g->grid, from, to) > AI_FAR_PLAN, gx - 20 > AI_FAR_PLAN);
	struct path_ctx *p = path_create(g->grid);
	struct path_options o = path_options_default();
	struct path_result exact, far;
	assert_int_equal(path_find(p, from, to, &o, &exact), PATH_FOUND);
	/* the result's cells live in the context: keep the exact route's */
	int *exact_cells = malloc((size_t)exact.len * sizeof *exact_cells);
	memcpy(exact_cells, exact.cells, (size_t)exact.len * sizeof *exact_cells);
	o.weight = AI_FAR_WEIGHT;
	o.budget = AI_FAR_BUDGET;
	assert_int_equal(path_find(p, from, to, &o, &far), PATH_FOUND);
	assert_true(far.expanded < exact.expanded);
	const struct path_result *want = want_far ? &far : &exact;
	const int *cells = want_far ? far.cells : exact_cells;
	act_wait(g);
	assert_int_equal(g->ai.stats.searches, 1);
	assert_int_equal(g->ai.stats.expanded, want->expanded);
	const int len = want->len < AI_ROUTE_MAX ? want->len : AI_ROUTE_MAX;
	assert_int_equal(m->mind.route_len, len);
	for (int i = 0; i < len; i++)
		assert_int_equal(m->mind.route[i], cells[i]);
	assert_int_equal(grid_index(g->grid, m->x, m->y), cells[1]); /* and it took the first step */
	free(exact_cells);
	path_destroy(p);
	fixture_fini(&f);
}

static void test_far_plan(void **state)
{
	(void)state;
	far_plan_case(700, 680, true);  /* large, 660 away: far */
	far_plan_case(700, 260, false); /* large, 240 away: exact */
	far_plan_case(500, 480, false); /* 460 away, but not a large level: exact */
}

/*
 * A wanderer's route on a large level (rules 10): its straight walk from
 * where it planned toward its goal (ai.c, wander_walk), each cell the
 * neighbour of the one before that is nearest the goal, strictly nearer
 * than it; on an open map it ends at the goal.  The part still ahead of
 * it is checked (the route's start is behind it).
 */
static void check_walk(const struct game *g, const struct monster *m)
{
	const struct mind *mi = &m->mind;
	if (mi->wander < 0)
		return;
	assert_int_equal(mi->route_goal, mi->wander);
	assert_true(mi->route_len >= 2);
	assert_int_equal(mi->route[mi->route_pos], grid_index(g->grid, m->x, m->y));
	for (int j = 1; j < mi->route_len; j++) {
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int n = grid_neighbours(g->grid, mi->route[j - 1], false, s);
		double best = grid_heuristic(g->grid, mi->route[j - 1], mi->wander);
		bool legal = false;
		for (int k = 0; k < n; k++) {
			double d = grid_heuristic(g->grid, s[k].cell, mi->wander);
			legal = legal || s[k].cell == mi->route[j];
			if (d < best)
				best = d;
		}
		assert_true(legal);
		assert_true(grid_heuristic(g->grid, mi->route[j], mi->wander) == best);
	}
	assert_false(mi->route_stuck);
	assert_int_equal(mi->route[mi->route_len - 1], mi->wander);
}

/*
 * Wanderers on a large level (rules 9): one with no goal draws its next
 * when the turn plus its monster number is a multiple of AI_WANDER_EVERY,
 * and waits on the others; on a small level every one draws at once.
 * Eight bats far from the player, spaced apart, on an open map of 200x200
 * (large) and of 100x100 (not), over the first AI_WANDER_EVERY turns.
 */
static void wanderers_case(int size, bool large)
{
	char *text = malloc((size_t)(size + 1) * size + 1);
	size_t n = 0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++)
			text[n++] = x == 0 || y == 0 || x == size - 1 || y == size - 1 ? '#' : '.';
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[(size - 10) * (size + 1) + size - 10] = '@';
	text[(size - 1) * (size + 1) + size - 2] = '>';
	for (int i = 0; i < 8; i++)
		text[(10 + 5 * i) * (size + 1) + 10] = 'b';
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", text, 1);
	free(text);
	assert_int_equal(g->ai.share_need > AI_SHARE_MIN, large);
	assert_int_equal(g->n_monsters, 8);
	kind(g, "bat")->wander = 1;
	int x0[8], y0[8];
	for (int i = 0; i < 8; i++) {
		x0[i] = g->monsters[i].x;
		y0[i] = g->monsters[i].y;
		assert_true(g->monsters[i].kind->wander);
		assert_int_equal(g->monsters[i].mind.wander, -1);
	}
	bool drawn[8] = { false };
	int drew = 0;
	for (int t = 1; t <= AI_WANDER_EVERY; t++) {
		act_wait(g);
		assert_int_equal(g->turn, t);
		int now = 0;
		for (int i = 0; i < 8; i++) {
			const struct monster *m = &g->monsters[i];
			const bool slot = !large || (t + i) % AI_WANDER_EVERY == 0;
			assert_false(m->mind.hunting);
			if (slot && !drawn[i]) { /* its turn: it drew a goal and set off */
				assert_true(m->mind.wander >= 0);
				drawn[i] = true;
				now++;
			}
			if (!drawn[i]) /* not yet: it waited where it was */
				assert_true(m->mind.wander < 0 && m->x == x0[i] && m->y == y0[i]);
		}
		/* on a large level 8 bats draw one turn each, else all on turn 1 */
		assert_int_equal(now, large ? 8 / AI_WANDER_EVERY + (t <= 8 % AI_WANDER_EVERY) : t == 1 ? 8 : 0);
		drew += now;
		/* a search for each goal drawn; on a large level none (rules
		 * 10: the straight walk) */
		if (t == 1)
			assert_int_equal(g->ai.stats.searches, large ? 0 : now);
		for (int i = 0; i < 8 && large; i++)
			check_walk(g, &g->monsters[i]);
	}
	assert_int_equal(drew, 8);
	if (large)
		assert_int_equal(g->ai.stats.searches, 0);
	fixture_fini(&f);
}

static void test_wanderers_staggered(void **state)
{
	(void)state;
	wanderers_case(200, true);
	wanderers_case(100, false);
}

/*
 * A large level's region labels are left to their first reader
 * (ai_regions), and what it reads then is the grid as it is: a sealed
 * cell its own region until a wall beside it is dug, after which the
 * labels split the cells as the reference flood labels the grid.
 */
static struct game *sealed_cell_game(struct fixture *f, int size)
{
	char *text = malloc((size_t)(size + 1) * size + 1);
	assert_non_null(text);
	size_t n = 0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++) {
			bool ring = x >= 29 && x <= 31 && y >= 29 && y <= 31 && !(x == 30 && y == 30);
			text[n++] = x == 0 || y == 0 || x == size - 1 || y == size - 1 || ring ? '#' : '.';
		}
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[(size - 10) * (size + 1) + size - 10] = '@';
	text[(size - 1) * (size + 1) + size - 2] = '>';
	struct game *g = fixture_game(f, "square8", text, 1);
	free(text);
	return g;
}

static void test_regions_labelled_when_first_read(void **state)
{
	(void)state;
	const int size = 200;
	const size_t cells = (size_t)size * (size_t)size;
	int *ref = malloc(cells * sizeof *ref);
	assert_non_null(ref);
	for (int dig = 0; dig < 2; dig++) {
		struct fixture f;
		struct game *g = sealed_cell_game(&f, size);
		assert_true(g->ai.share_need > AI_SHARE_MIN);
		assert_true(g->ai.region_later); /* not labelled by the load */
		const int inside = grid_index(g->grid, 30, 30), outside = grid_index(g->grid, 100, 100);
		if (dig)
			game_tile_set(g, grid_index(g->grid, 31, 30), TILE_FLOOR); /* before any reader */
		assert_true(g->ai.region_later);
		const int *region = ai_regions(&g->ai, g->grid);
		assert_false(g->ai.region_later);
		assert_true((region[inside] == region[outside]) == (dig == 1));
		assert_int_equal(level_grid_regions_flood(g->grid, ref), g->ai.regions);
		for (size_t c = 0; c < cells; c++)
			assert_true((region[c] == region[inside]) == (ref[c] == ref[inside]));
		assert_ptr_equal(ai_regions(&g->ai, g->grid), region); /* labelled once */
		fixture_fini(&f);
	}
	free(ref);
}

/*
 * A wanderer's goal on a large level (rules 10) is any passable cell
 * drawn, its region not asked: a bat walled in on its own cell draws a
 * goal outside, its walk ends where it stands, and it waits.
 */
static void test_wanderer_walled_in(void **state)
{
	(void)state;
	const int size = 200;
	char *text = malloc((size_t)(size + 1) * size + 1);
	size_t n = 0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++) {
			bool ring = x >= 29 && x <= 31 && y >= 29 && y <= 31 && !(x == 30 && y == 30);
			text[n++] = x == 0 || y == 0 || x == size - 1 || y == size - 1 || ring ? '#' : '.';
		}
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[(size - 10) * (size + 1) + size - 10] = '@';
	text[(size - 1) * (size + 1) + size - 2] = '>';
	text[30 * (size + 1) + 30] = 'b';
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", text, 1);
	free(text);
	assert_true(g->ai.share_need > AI_SHARE_MIN);
	kind(g, "bat")->wander = 1;
	const struct monster *b = &g->monsters[0];
	const int here = grid_index(g->grid, b->x, b->y);
	for (int t = 0; t < AI_WANDER_EVERY; t++)
		act_wait(g);
	const int goal = b->mind.route_goal;
	assert_true(goal > 0 && goal != here && grid_passable(g->grid, goal));
	assert_int_not_equal(ai_regions(&g->ai, g->grid)[goal], ai_regions(&g->ai, g->grid)[here]);
	assert_int_equal(grid_index(g->grid, b->x, b->y), here);
	assert_int_equal(b->mind.wander, -1);
	assert_int_equal(g->ai.stats.searches, 0);
	fixture_fini(&f);
}

/*
 * A wanderer whose next cell another monster holds, on a large level
 * (rules 10): it gives up its goal and waits, with no search (a hunter
 * would search a detour).  A bat on an open 200x200 map walks toward its
 * goal; then its next cell is shown held (a copy of the occupant map).
 */
static void test_wanderer_held(void **state)
{
	(void)state;
	const int size = 200;
	char *text = malloc((size_t)(size + 1) * size + 1);
	size_t n = 0;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++)
			text[n++] = x == 0 || y == 0 || x == size - 1 || y == size - 1 ? '#' : '.';
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[(size - 10) * (size + 1) + size - 10] = '@';
	text[(size - 1) * (size + 1) + size - 2] = '>';
	text[30 * (size + 1) + 30] = 'b';
	text[100 * (size + 1) + 30] = 'g';
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", text, 1);
	free(text);
	assert_true(g->ai.share_need > AI_SHARE_MIN);
	kind(g, "bat")->wander = 1;
	struct monster *b = &g->monsters[0];
	assert_int_equal(b->kind, kind(g, "bat"));
	for (int t = 0; t < 4 * AI_WANDER_EVERY && !(b->mind.wander >= 0 && b->mind.route_len >= 2 &&
						     b->mind.route_pos + 1 < b->mind.route_len);
	     t++)
		act_wait(g);
	assert_true(b->mind.wander >= 0);
	check_walk(g, b);
	const int cells = g->grid->w * g->grid->h;
	int *held = malloc((size_t)cells * sizeof *held);
	memcpy(held, g->occupant, (size_t)cells * sizeof *held);
	const int next = b->mind.route[b->mind.route_pos + 1], here = grid_index(g->grid, b->x, b->y);
	held[next] = 1;
	struct ai_view v = { .grid = g->grid, .opaque = g->opaque, .occupant = held, .monsters = g->monsters,
			     .n_monsters = g->n_monsters, .player_x = g->player.x, .player_y = g->player.y,
			     .turn = g->turn, .tiles = g->tiles, .scent = g->scent, .rng = &g->rng,
			     .crowd_rule = g->bestiary.rules.crowd };
	const long searches = g->ai.stats.searches;
	struct ai_decision d = ai_decide(&g->ai, &v, 0, &b->mind);
	assert_int_equal(d.act, AI_WAIT);
	assert_int_equal(b->mind.wander, -1);
	assert_int_equal(g->ai.stats.searches, searches);
	/* free, it steps on */
	held[next] = -1;
	b->mind.wander = b->mind.route_goal;
	d = ai_decide(&g->ai, &v, 0, &b->mind);
	assert_int_equal(d.act, AI_STEP);
	assert_int_equal(d.cell, next);
	assert_int_not_equal(d.cell, here);
	assert_int_equal(g->ai.stats.searches, searches);
	free(held);
	fixture_fini(&f);
}

/* ---- shared flood against one search per monster ------------------------ */

/* A random level as text: walls, rubble and water, one player, one exit. */
static char *random_level_text(struct rng *r, enum grid_topology topo, int w, int h, int walls)
{
	char *cells = malloc((size_t)w * h);
	for (int i = 0; i < w * h; i++) {
		int v = rng_range(r, 0, 99);
		cells[i] = v < walls ? '#' : v < walls + 8 ? ',' : v < walls + 14 ? '~' : '.';
	}
	cells[rng_range(r, 0, w * h - 1)] = '@';
	for (;;) {
		int e = rng_range(r, 0, w * h - 1);
		if (cells[e] != '@') {
			cells[e] = '>';
			break;
		}
	}
	size_t cap = (size_t)(2 * w + 4) * h + 128;
	char *text = malloc(cap);
	size_t n = 0;
	for (int y = 0; y < h; y++) {
		if (topo == GRID_HEX && (y & 1))
			text[n++] = ' ';
		for (int x = 0; x < w; x++) {
			if (topo == GRID_HEX && x > 0)
				text[n++] = ' ';
			text[n++] = cells[y * w + x];
		}
		text[n++] = '\n';
	}
	text[n] = 0;
	free(cells);
	return text;
}

/* The cost of one step from a to b (a legal move), as the search counts it. */
static double step_cost(const struct grid *g, int a, int b)
{
	bool diagonal = g->topo == GRID_SQUARE8 && grid_x(g, a) != grid_x(g, b) && grid_y(g, a) != grid_y(g, b);
	return (diagonal ? GRID_SQRT2 : 1.0) * g->cost[b];
}

/* Checks a monster's latest move: it waited (paying for a slow step), or
 * took a step that starts an optimal route (distance drops by its cost). */
static void check_optimal_move(const struct game *g, const struct path_ctx *ref, int from, int to)
{
	if (from == to)
		return;
	double df = path_flood_distance(ref, from), dt = path_flood_distance(ref, to);
	assert_true(dt >= 0);
	assert_true(fabs(df - (dt + step_cost(g->grid, from, to))) < 1e-9);
}

/*
 * Shared and per-monster plans may differ between equally short routes
 * (the flood's downhill tie order is not A*'s), and two equally short
 * routes can take different numbers of turns (a diagonal and a water step
 * cost alike but not the same time), so this compares COSTS, not cells or
 * turns: one monster at a time (monsters cannot get in each other's way),
 * the player waiting, and every move of either method must start an optimal
 * route to the player (an independent reverse flood measures it), and both
 * must end next to the player.  A monster that cannot reach the player
 * searches on its own in both methods (fallback), so there the cells must
 * be equal turn by turn.
 */
static void test_shared_equals_per_monster(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 2024);
	static const char *const names[] = { "square4", "square8", "hex" };
	int compared = 0, unreachable = 0, differed = 0;
	long floods = 0;
	for (int t = 0; t < 3; t++) {
		for (int map = 0; map < 5; map++) {
			char *text = random_level_text(&r, (enum grid_topology)t, 24, 16, map < 3 ? 22 : 40);
			struct bestiary b;
			fixture_bestiary(&b, fixture_kinds);
			struct level *lv = fixture_level(names[t], text, &b);
			free(text);
			/* start monsters on random free cells */
			struct level_monster spots[8];
			int n_spots = 0;
			while (n_spots < 8) {
				int x = rng_range(&r, 0, lv->w - 1), y = rng_range(&r, 0, lv->h - 1);
				enum tile tl = level_tile(lv, x, y);
				if ((tl == TILE_FLOOR || tl == TILE_RUBBLE || tl == TILE_WATER) &&
				    !(x == lv->player_x && y == lv->player_y))
					spots[n_spots++] = (struct level_monster){ 'g', x, y };
			}
			for (int s = 0; s < n_spots; s++) {
				lv->monsters = &spots[s];
				lv->n_monsters = 1;
				const struct level *levels[1] = { lv };
				struct game *ga = game_create(levels, 1, &b, 5), *gb = game_create(levels, 1, &b, 5);
				ga->ai.share = AI_SHARE_ALWAYS;
				gb->ai.share = AI_SHARE_NEVER;
				ga->player.hp = gb->player.hp = 100000;
				kind(ga, "goblin")->memory = kind(gb, "goblin")->memory = 100000;
				struct monster *ma = &ga->monsters[0], *mb = &gb->monsters[0];
				force_hunt(ga, ma);
				force_hunt(gb, mb);
				struct path_ctx *ref = path_create(ga->grid);
				struct path_options opt = path_options_default();
				int pc = grid_index(ga->grid, ga->player.x, ga->player.y);
				path_flood(ref, pc, &opt, true, 0);
				bool reach = path_flood_distance(ref, grid_index(ga->grid, ma->x, ma->y)) >= 0;
				bool diverged = false;
				for (int turn = 0; turn < 120; turn++) {
					int a0 = grid_index(ga->grid, ma->x, ma->y), b0 = grid_index(gb->grid, mb->x, mb->y);
					act_wait(ga);
					act_wait(gb);
					int a1 = grid_index(ga->grid, ma->x, ma->y), b1 = grid_index(gb->grid, mb->x, mb->y);
					if (reach) {
						check_optimal_move(ga, ref, a0, a1);
						check_optimal_move(gb, ref, b0, b1);
						diverged |= a1 != b1;
					} else {
						assert_int_equal(a1, b1);
					}
					compared++;
				}
				if (reach) {
					assert_true(grid_is_adjacent(ga->grid, grid_index(ga->grid, ma->x, ma->y), pc));
					assert_true(grid_is_adjacent(gb->grid, grid_index(gb->grid, mb->x, mb->y), pc));
					floods += ga->ai.stats.floods;
				}
				unreachable += !reach;
				differed += diverged;
				assert_int_equal(gb->ai.stats.floods, 0);
				path_destroy(ref);
				game_destroy(ga);
				game_destroy(gb);
			}
			lv->monsters = NULL;
			lv->n_monsters = 0;
			level_destroy(lv);
		}
	}
	assert_true(floods > 0);
	print_message("shared vs per-monster: %d monster-turns compared, %d monsters unreachable, "
		      "%d took a different but equally short route\n", compared, unreachable, differed);
}

/*
 * The shared flood also serves a goal that is not the player's cell (a
 * place the monster was told of, or remembers): blind monsters (sight 0)
 * hunting a random cell, one at a time, with the flood (ALWAYS) and with
 * their own searches (NEVER); every move starts an optimal route to that
 * cell, and both arrive there (or stand biting the player, when it is in
 * the way).
 */
static void test_shared_remembered_goal(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 99);
	static const char *const names[] = { "square4", "square8", "hex" };
	int arrived = 0;
	long floods = 0;
	for (int t = 0; t < 3; t++) {
		for (int map = 0; map < 4; map++) {
			char *text = random_level_text(&r, (enum grid_topology)t, 20, 14, 25);
			struct bestiary b;
			fixture_bestiary(&b, fixture_kinds);
			struct level *lv = fixture_level(names[t], text, &b);
			free(text);
			for (int s = 0; s < 4; s++) {
				int cell[2];
				for (int k = 0; k < 2; k++) {
					for (;;) {
						int x = rng_range(&r, 0, lv->w - 1), y = rng_range(&r, 0, lv->h - 1);
						enum tile tl = level_tile(lv, x, y);
						if ((tl == TILE_FLOOR || tl == TILE_RUBBLE || tl == TILE_WATER) &&
						    !(x == lv->player_x && y == lv->player_y)) {
							cell[k] = y * lv->w + x;
							break;
						}
					}
				}
				struct level_monster spot = { 'g', cell[0] % lv->w, cell[0] / lv->w };
				lv->monsters = &spot;
				lv->n_monsters = 1;
				const struct level *levels[1] = { lv };
				struct game *ga = game_create(levels, 1, &b, 5), *gb = game_create(levels, 1, &b, 5);
				struct game *gs[2] = { ga, gb };
				ga->ai.share = AI_SHARE_ALWAYS;
				gb->ai.share = AI_SHARE_NEVER;
				struct path_ctx *ref = path_create(ga->grid);
				struct path_options opt = path_options_default();
				path_flood(ref, cell[1], &opt, true, 0);
				bool reach = path_flood_distance(ref, cell[0]) >= 0 && cell[0] != cell[1];
				for (int k = 0; k < 2; k++) {
					struct game *g = gs[k];
					g->player.hp = 100000;
					kind(g, "goblin")->memory = 100000;
					kind(g, "goblin")->sight = 0;
					struct monster *m = &g->monsters[0];
					m->mind.hunting = true;
					m->mind.target_x = cell[1] % g->grid->w;
					m->mind.target_y = cell[1] / g->grid->w;
					m->mind.last_seen_turn = g->turn;
					m->mind.memory_left = 100000;
					for (int turn = 0; turn < 400 && m->mind.hunting && reach; turn++) {
						int a0 = grid_index(g->grid, m->x, m->y);
						act_wait(g);
						int a1 = grid_index(g->grid, m->x, m->y);
						check_optimal_move(g, ref, a0, a1);
						if (a1 == cell[1]) {
							arrived++;
							break;
						}
					}
					/* it arrives, unless the player stands in its way (then it bites) */
					int at = grid_index(g->grid, m->x, m->y);
					if (reach && at != cell[1])
						assert_true(grid_is_adjacent(g->grid, at, grid_index(g->grid, g->player.x, g->player.y)));
				}
				if (reach)
					floods += ga->ai.stats.floods;
				assert_int_equal(gb->ai.stats.floods, 0);
				path_destroy(ref);
				game_destroy(ga);
				game_destroy(gb);
			}
			lv->monsters = NULL;
			lv->n_monsters = 0;
			level_destroy(lv);
		}
	}
	assert_true(floods > 0);
	assert_true(arrived > 20);
}

/*
 * A large level (more than AI_SHARE_MIN * AI_SHARE_CELLS passable cells),
 * where the shared flood runs to its end and follows a moving player with
 * flood_shift: one hunter at a time, the player stepping at random, and
 * every move must start an optimal route to the player's new cell (an
 * independent reverse flood measures it).  The floods must have settled
 * fewer cells than whole floods would (the shifts happened).
 */
static void test_shared_moving_goal_large(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 77);
	int moves = 0, near_moves = 0, far_moves = 0;
	long settled = 0, floods = 0, whole = 0;
	for (int run = 0; run < 4; run++) {
		char *text = random_level_text(&r, GRID_SQUARE8, 250, 170, 12);
		struct bestiary b;
		fixture_bestiary(&b, fixture_kinds);
		struct level *lv = fixture_level("square8", text, &b);
		free(text);
		struct level_monster spot;
		for (;;) {
			int x = rng_range(&r, 0, lv->w - 1), y = rng_range(&r, 0, lv->h - 1);
			/* far from the player, or near it (within the near flood) */
			int md = abs(x - lv->player_x) + abs(y - lv->player_y);
			if (level_tile(lv, x, y) == TILE_FLOOR && (run % 2 ? md > 15 && md < 35 : md > 100)) {
				spot = (struct level_monster){ 'g', x, y };
				break;
			}
		}
		lv->monsters = &spot;
		lv->n_monsters = 1;
		const struct level *levels[1] = { lv };
		struct game *g = game_create(levels, 1, &b, 9);
		g->ai.share = AI_SHARE_ALWAYS;
		g->ai.all_hunt = true;
		g->player.hp = 100000;
		kind(g, "goblin")->memory = 100000;
		assert_true(g->ai.share_need > AI_SHARE_MIN);
		struct monster *m = &g->monsters[0];
		force_hunt(g, m);
		struct path_ctx *ref = path_create(g->grid);
		struct path_options opt = path_options_default();
		long passable = 0;
		for (int c = 0; c < g->grid->w * g->grid->h; c++)
			passable += g->grid->cost[c] != 0;
		for (int turn = 0; turn < 40; turn++) {
			int from = grid_index(g->grid, m->x, m->y);
			/* a step onto floor (one turn: a slower one would let the
			 * monster move several times), or a wait */
			int t0 = g->turn;
			for (int tries = 0; tries < 16 && g->turn == t0; tries++) {
				enum grid_dir d = (enum grid_dir)rng_range(&r, 0, GRID_DIR_COUNT - 1);
				int nx, ny;
				if (grid_dir_step(g->grid, g->player.x, g->player.y, d, &nx, &ny) &&
				    grid_in_bounds(g->grid, nx, ny) && g->grid->cost[grid_index(g->grid, nx, ny)] == 1)
					act_move(g, d);
			}
			if (g->turn == t0)
				act_wait(g);
			assert_int_equal(g->turn, t0 + 1);
			int to = grid_index(g->grid, m->x, m->y);
			int pc = grid_index(g->grid, g->player.x, g->player.y);
			path_flood(ref, pc, &opt, true, 0);
			/* near the goal: an optimal step toward it (the near
			 * flood); farther: toward the whole flood's source,
			 * which stays near the goal */
			double d = path_flood_distance(ref, from);
			int src = g->ai.flood_goal;
			assert_true(src >= 0);
			double stale = path_flood_distance(ref, src);
			assert_true(stale >= 0 && stale < AI_STALE_DIST + 1e-9);
			if (d > AI_NEAR_DIST + 1e-9 && src != pc) {
				path_flood(ref, src, &opt, true, 0);
				far_moves += from != to;
			} else {
				near_moves += from != to;
			}
			check_optimal_move(g, ref, from, to);
			moves += from != to;
		}
		settled += g->ai.stats.expanded;
		floods += g->ai.stats.floods;
		whole += g->ai.stats.floods * passable;
		path_destroy(ref);
		game_destroy(g);
		lv->monsters = NULL;
		lv->n_monsters = 0;
		level_destroy(lv);
	}
	assert_true(moves > 60);
	assert_true(near_moves > 10 && far_moves > 10);
	assert_true(floods > 60);
	assert_true(settled < whole / 4);
	print_message("shared flood on a large level, moving player: %d moves checked (%d near the player, %d "
		      "toward the kept flood's source), %ld floods settled %ld cells (%ld for whole floods)\n",
		      moves, near_moves, far_moves, floods, settled, whole);
}

/* ---- cost at scale, printed -------------------------------------------- */

static double cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Runs `turns` random-walk turns with every monster hunting; prints AI ms per turn. */
static void scale_run(const char *label, struct level *lv, const struct bestiary *b, int turns)
{
	const struct level *levels[1] = { lv };
	struct game *g = game_create(levels, 1, b, 77);
	assert_non_null(g);
	g->player.hp = g->player.max_hp = 1 << 30;
	kind(g, "goblin")->memory = 1 << 20;
	g->ai.all_hunt = true; /* chasing: all of them know where the player is */
	struct rng r;
	rng_seed(&r, 3);
	double *ms = calloc((size_t)turns, sizeof *ms), sum = 0, cpu = 0;
	int n = 0;
	for (int t = 0; t < turns; t++) {
		double c0 = cpu_us();
		enum act_result res = RESULT_NOTHING;
		for (int tries = 0; tries < 8 && res == RESULT_NOTHING; tries++)
			res = act_move(g, (enum grid_dir)rng_range(&r, 0, 7));
		if (res == RESULT_NOTHING)
			act_wait(g);
		cpu += cpu_us() - c0;
		ms[n] = g->ai.stats.last_ai_us / 1000.0;
		sum += ms[n++];
	}
	qsort(ms, (size_t)n, sizeof *ms, cmp_double);
	print_message("%-34s monsters=%4d turns=%d ai_ms_mean=%.3f ai_ms_p95=%.3f act_cpu_ms_mean=%.3f "
		      "searches=%ld floods=%ld\n",
		      label, g->n_monsters, n, sum / n, ms[(int)(0.95 * (n - 1))], cpu / n / 1000.0,
		      g->ai.stats.searches, g->ai.stats.floods);
	free(ms);
	game_destroy(g);
}

static void test_scale_printed(void **state)
{
	(void)state;
	const char *dir = getenv("ASTRAY_MAPS");
	if (!dir)
		dir = "../shared/maps/movingai";
	static const char *const maps[] = { "random512-10-0.map", "8room_000.map" };
	bool full_run = getenv("ASTRAY_SCALE") != NULL;
	struct bestiary b;
	fixture_bestiary(&b, fixture_kinds);
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, maps[i]);
		size_t len;
		char *text = level_read_file(path, &len);
		if (!text) {
			print_message("skipped: %s not found (set ASTRAY_MAPS)\n", path);
			continue;
		}
		/* The full run (1,000 monsters) is for an optimised build:
		 * ASTRAY_SCALE=1.  The sanitiser suite runs a short one. */
		bool full = getenv("ASTRAY_SCALE") != NULL;
		static const int counts[] = { 10, 100, 1000 };
		for (int c = 0; c < (full ? 3 : 2); c++) {
			struct diag_list d = { 0 };
			struct level *lv = level_from_movingai(path, text, len, 42, counts[c], 'g', &d);
			diag_list_fini(&d);
			assert_non_null(lv);
			scale_run(maps[i], lv, &b, full ? 100 : 5);
			level_destroy(lv);
		}
		free(text);
	}
	/* one key press on an 80x24 level with 20 monsters chasing */
	struct rng r;
	rng_seed(&r, 8);
	char *map = malloc(81 * 24 + 1);
	size_t n = 0;
	for (int y = 0; y < 24; y++) {
		for (int x = 0; x < 80; x++) {
			bool edge = x == 0 || y == 0 || x == 79 || y == 23;
			char ch = edge ? '#' : (x % 10 == 5 && y % 6 != 3) ? '#' : '.';
			if (!edge && ch == '.' && rng_range(&r, 0, 99) < 4)
				ch = '#';
			map[n++] = ch;
		}
		map[n++] = '\n';
	}
	map[n - 1] = 0;
	map[1 * 81 + 1] = '@';
	map[22 * 81 + 78] = '>';
	for (int k = 0; k < 20; k++)
		map[(2 + (k % 10) * 2) * 81 + 40 + (k / 10) * 30 + (k % 3)] = 'g';
	struct level *lv = fixture_level("square8", map, &b);
	free(map);
	scale_run("80x24 level, key presses", lv, &b, full_run ? 500 : 50);
	level_destroy(lv);
}

/* ai_can_step, whose square maps' inside cells it answers without listing
 * the steps, says what grid_neighbours lists (no corner cutting): every
 * pair of cells of small random maps of each topology, walls and all. */
static void test_can_step_is_the_neighbours(void **state)
{
	(void)state;
	const enum grid_topology topos[] = { GRID_SQUARE8, GRID_SQUARE4, GRID_HEX, GRID_DIAMOND8, GRID_DIAMOND4 };
	unsigned s = 12345;
	long yes = 0, no = 0;
	for (int round = 0; round < 40; round++) {
		enum grid_topology t = topos[round % 5];
		s = s * 1103515245u + 12345u;
		int w = 1 + (int)(s >> 16) % 9;
		s = s * 1103515245u + 12345u;
		int h = 1 + (int)(s >> 16) % 9;
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		for (int c = 0; c < w * h; c++) {
			s = s * 1103515245u + 12345u;
			grid_set_cost(g, c, (s >> 16) % 100 < 30 ? 0 : (uint8_t)(1 + (s >> 20) % 3));
		}
		for (int a = 0; a < w * h; a++) {
			struct grid_step n[GRID_MAX_NEIGHBOURS];
			int k = grid_neighbours(g, a, false, n);
			for (int b = 0; b < w * h; b++) {
				bool listed = false;
				for (int i = 0; i < k; i++)
					listed = listed || n[i].cell == b;
				assert_int_equal(ai_can_step(g, a, b), listed);
				yes += listed;
				no += !listed;
			}
		}
		grid_destroy(g);
	}
	assert_true(yes > 500 && no > 5000);
}

/* A wanderer's draw is rng_range's over the wander range: the same value
 * and the stream left the same, draw after draw. */
static void test_wander_draw_is_rng_range(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct rng a, b;
		rng_seed(&a, seed);
		rng_seed(&b, seed);
		int lo = 0, hi = 0;
		for (int i = 0; i < 100000; i++) {
			int x = ai_wander_draw(&a), y = rng_range(&b, -WANDER_RANGE, WANDER_RANGE);
			assert_int_equal(x, y);
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		assert_true(a.s[0] == b.s[0] && a.s[1] == b.s[1]);
		assert_int_equal(lo, -WANDER_RANGE);
		assert_int_equal(hi, WANDER_RANGE);
	}
}

/* Counts the decisions a tool watches (game.on_monster_act): with the
 * hook set the turn loop asks ai_decide for every action, ai_idles none. */
static void count_decision(void *ud, const struct game *g, int monster, struct ai_decision d)
{
	(void)g;
	(void)monster;
	long *n = ud;
	n[0]++;
	n[1] += d.act == AI_WAIT;
}

/* ai_idles changes nothing in play: a game whose every action is asked
 * of ai_decide (a watched one) and the same game played with ai_idles
 * hash the same after every key, on a generated level large enough for
 * the large-level rules (the wanderers' turns to draw a goal) and on a
 * small one, the real bestiary's sleepers, chasers and wanderers. */
static void test_idles_change_nothing(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list diags = { 0 };
	assert_true(bestiary_load_file("levels/bestiary.txt", &b, &diags));
	diag_list_fini(&diags);
	static const enum grid_dir keys[] = { GRID_W, GRID_W, GRID_E, GRID_E, GRID_N, GRID_S };
	const int sides[2][2] = { { 400, 300 }, { 80, 40 } };
	for (int s = 0; s < 2; s++) {
		struct gen_params p = { .topo = GRID_SQUARE8, .w = sides[s][0], .h = sides[s][1], .depth = 6,
					.seed = 5 + (uint64_t)s, .style = GEN_STYLE_MIXED, .bestiary = &b };
		struct gen_result r;
		char err[200];
		assert_true(gen_level(&p, &r, err, sizeof err));
		const struct level *levels[1] = { r.level };
		struct game *watched = game_create(levels, 1, &b, 3), *plain = game_create(levels, 1, &b, 3);
		assert_non_null(watched);
		assert_non_null(plain);
		if (s == 0)
			assert_true(watched->ai.share_need > AI_SHARE_MIN && watched->n_monsters > 100);
		long seen[2] = { 0, 0 };
		watched->on_monster_act = count_decision;
		watched->on_monster_act_ud = seen;
		watched->player.hp = plain->player.hp = 1000000;
		watched->player.max_hp = plain->player.max_hp = 1000000;
		for (int k = 0; k < 96 && !watched->over; k++) {
			enum act_result a = act_move(watched, keys[k % 6]), b2 = act_move(plain, keys[k % 6]);
			if (a != RESULT_ACTED) {
				a = act_wait(watched);
				b2 = act_wait(plain);
			}
			assert_int_equal(a, b2);
			assert_true(game_hash(watched) == game_hash(plain));
		}
		print_message("idles: %ld decisions, %ld waits\n", seen[0], seen[1]);
		assert_true(seen[1] > (s == 0 ? 1000 : 50)); /* many waits, each decided in the watched game */
		game_destroy(watched);
		game_destroy(plain);
		gen_result_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sight_zero_never_hunts),
		cmocka_unit_test(test_notices_on_its_own_turn),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_penalty),
		cmocka_unit_test(test_crowd),
		cmocka_unit_test(test_crowd_large_level),
		cmocka_unit_test(test_crowd_lookahead_knob),
		cmocka_unit_test(test_budget_partial_path),
		cmocka_unit_test(test_flee),
		cmocka_unit_test(test_repath_and_weight),
		cmocka_unit_test(test_reachable_goal_skips_fallback),
		cmocka_unit_test(test_far_plan),
		cmocka_unit_test(test_wanderers_staggered),
		cmocka_unit_test(test_wanderer_held),
		cmocka_unit_test(test_wanderer_walled_in),
		cmocka_unit_test(test_shared_equals_per_monster),
		cmocka_unit_test(test_shared_remembered_goal),
		cmocka_unit_test(test_shared_moving_goal_large),
		cmocka_unit_test(test_scale_printed),
		cmocka_unit_test(test_regions_labelled_when_first_read),
		cmocka_unit_test(test_can_step_is_the_neighbours),
		cmocka_unit_test(test_wander_draw_is_rng_range),
		cmocka_unit_test(test_idles_change_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
