/*
 * test_mind_dig.c - the dig mind (docs/ai.md, "Mind: dig"; DESIGN section
 * 4, rule 6): a digger reaches a player sealed in a room by digging one of
 * its walls into rubble, never standing on a wall, on square4, square8 and
 * hex maps, while a chaser on the same map stays out; it digs neither a
 * permanent wall ('%') nor the map's edge; it walks round when the way
 * round costs less than its `dig` knob says a wall does; the player hears
 * what it does not see and its memory keeps a dug wall it did not see;
 * and games with digging are deterministic and survive a save and a load
 * in the middle of a dig.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai.h"

/* damage 0: the player outlives every test; sight 20: every monster sees
 * across these maps; memory 100: it keeps hunting behind walls */
static const char KINDS[] = "kind: hulk\nglyph: U\nhp: 30\ndamage: 0\nsight: 20\nmemory: 100\n"
			    "behaviour: dig\ndig: 3\ndig_turns: 2\n"
			    "kind: goblin\nglyph: g\nhp: 6\ndamage: 0\nsight: 20\nmemory: 100\n";

/* What the monsters decided, checked as they decide it. */
struct watch {
	int digs;       /* AI_DIG decisions */
	int attacks;    /* AI_ATTACK decisions */
	int bad;        /* a dig at a cell that is not a diggable wall next to it, or a step into a blocked cell */
};

static void observe(void *ud, const struct game *g, int i, struct ai_decision d)
{
	struct watch *w = ud;
	const struct monster *m = &g->monsters[i];
	int here = grid_index(g->grid, m->x, m->y);
	if (d.act == AI_DIG) {
		w->digs++;
		int x = grid_x(g->grid, d.cell), y = grid_y(g->grid, d.cell);
		if (!grid_is_adjacent(g->grid, here, d.cell) ||
		    !tile_diggable((enum tile)g->tiles[d.cell], g->grid->w, g->grid->h, x, y))
			w->bad++;
	} else if (d.act == AI_STEP && !grid_passable(g->grid, d.cell)) {
		w->bad++;
	} else if (d.act == AI_ATTACK) {
		w->attacks++;
	}
}

/* Square rows as the level format writes them on a staggered topology
 * (hex, diamond): cells two columns apart, odd rows one column in. */
static char *staggered(const char *rows)
{
	size_t n = strlen(rows);
	char *out = malloc(3 * n + 2);
	assert_non_null(out);
	size_t k = 0;
	int y = 0;
	bool start = true;
	for (size_t i = 0; i < n; i++) {
		if (rows[i] == '\n') {
			out[k++] = '\n';
			y++;
			start = true;
			continue;
		}
		if (start && (y & 1))
			out[k++] = ' ';
		else if (!start)
			out[k++] = ' ';
		out[k++] = rows[i];
		start = false;
	}
	out[k] = '\0';
	return out;
}

static struct game *dig_game(struct fixture *f, const char *topology, const char *rows, uint64_t seed,
			     struct watch *w)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, KINDS);
	enum grid_topology topo;
	assert_true(grid_topology_parse(topology, &topo));
	char *map = grid_is_staggered(topo) ? staggered(rows) : NULL;
	f->lv[0] = fixture_level(topology, map ? map : rows, &f->b);
	free(map);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, seed);
	assert_non_null(f->g);
	f->g->ai.all_hunt = true; /* every monster knows where the player is */
	if (w) {
		memset(w, 0, sizeof *w);
		f->g->on_monster_act = observe;
		f->g->on_monster_act_ud = w;
	}
	return f->g;
}

static int count_tiles(const struct game *g, enum tile t)
{
	int n = 0;
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		n += g->tiles[c] == t;
	return n;
}

static bool said(const struct game *g, const char *needle)
{
	for (int i = 0; game_message(g, i); i++)
		if (strstr(game_message(g, i)->text, needle))
			return true;
	return false;
}

/* Waits until a monster attacked the player or `turns` actions passed;
 * every action, no monster stands on a cell that is not passable (nor on
 * a wall tile). */
static void wait_for_contact(struct game *g, struct watch *w, int turns)
{
	for (int i = 0; i < turns && !w->attacks; i++) {
		act_wait(g);
		for (int k = 0; k < g->n_monsters; k++) {
			const struct monster *m = &g->monsters[k];
			int c = grid_index(g->grid, m->x, m->y);
			assert_true(grid_passable(g->grid, c));
			assert_true(g->tiles[c] != TILE_WALL && g->tiles[c] != TILE_BEDROCK);
		}
	}
}

/* The player sealed in a room with the exit; the monster outside. */
static const char SEALED[] = "##########\n"
			     "#X.......#\n"
			     "#........#\n"
			     "#..####..#\n"
			     "#..#@>#..#\n"
			     "#..####..#\n"
			     "#........#\n"
			     "##########";

static char *with_monster(const char *rows, char glyph)
{
	char *s = strdup(rows);
	assert_non_null(s);
	*strchr(s, 'X') = glyph;
	return s;
}

static void test_digs_into_sealed_room(void **state)
{
	(void)state;
	static const char *const topologies[] = { "square8", "square4", "hex" };
	for (size_t t = 0; t < sizeof topologies / sizeof topologies[0]; t++) {
		struct fixture f;
		struct watch w;
		char *rows = with_monster(SEALED, 'U');
		struct game *g = dig_game(&f, topologies[t], rows, 7, &w);
		free(rows);
		int walls = count_tiles(g, TILE_WALL);
		wait_for_contact(g, &w, 200);
		assert_true(w.attacks > 0);    /* it got in and reached the player */
		assert_int_equal(w.bad, 0);
		assert_true(w.digs >= 2);      /* dig_turns 2 per wall */
		/* what it dug is rubble now: walls of the room, never the edge */
		int dug = count_tiles(g, TILE_RUBBLE);
		assert_true(dug >= 1 && dug <= 2);
		assert_int_equal(count_tiles(g, TILE_WALL), walls - dug);
		for (int c = 0; c < g->grid->w * g->grid->h; c++) {
			if (g->tiles[c] != TILE_RUBBLE)
				continue;
			int x = grid_x(g->grid, c), y = grid_y(g->grid, c);
			assert_true(x >= 3 && x <= 6 && y >= 3 && y <= 5);
			assert_int_equal(g->grid->cost[c], 2); /* entered at rubble's cost */
			assert_int_equal(g->opaque[c], 0);
		}
		/* the player saw the breach: its memory holds the rubble */
		const struct monster *m = &g->monsters[0];
		assert_true(grid_is_adjacent(g->grid, grid_index(g->grid, m->x, m->y),
					     grid_index(g->grid, g->player.x, g->player.y)));
		assert_true(said(g, "You hear digging."));
		assert_true(said(g, "The hulk digs through the wall."));
		fixture_fini(&f);
	}
}

/* The same room with a chaser outside: it never gets in, nothing is dug. */
static void test_chaser_stays_out(void **state)
{
	(void)state;
	static const char *const topologies[] = { "square8", "hex" };
	for (size_t t = 0; t < sizeof topologies / sizeof topologies[0]; t++) {
		struct fixture f;
		struct watch w;
		char *rows = with_monster(SEALED, 'g');
		struct game *g = dig_game(&f, topologies[t], rows, 7, &w);
		free(rows);
		int walls = count_tiles(g, TILE_WALL);
		wait_for_contact(g, &w, 100);
		assert_int_equal(w.attacks, 0);
		assert_int_equal(w.digs, 0);
		assert_int_equal(count_tiles(g, TILE_WALL), walls);
		assert_int_equal(count_tiles(g, TILE_RUBBLE), 0);
		fixture_fini(&f);
	}
}

/* A room of permanent walls keeps the digger out; so does the map's edge,
 * the only way from its pocket to the player's. */
static void test_permanent_walls(void **state)
{
	(void)state;
	static const char VAULT[] = "##########\n"
				    "#U.......#\n"
				    "#........#\n"
				    "#..%%%%..#\n"
				    "#..%@>%..#\n"
				    "#..%%%%..#\n"
				    "#........#\n"
				    "##########";
	/* the pockets touch only through the edge column x = 0 */
	static const char EDGE[] = "%%%%%%%\n"
				   "#U%%%%%\n"
				   "#%%%%%%\n"
				   "#@.>%%%\n"
				   "%%%%%%%";
	static const char *const maps[] = { VAULT, EDGE };
	static const char *const topologies[] = { "square8", "square4", "hex" };
	for (size_t i = 0; i < 2; i++)
		for (size_t t = 0; t < sizeof topologies / sizeof topologies[0]; t++) {
			struct fixture f;
			struct watch w;
			struct game *g = dig_game(&f, topologies[t], maps[i], 3, &w);
			int x0 = g->monsters[0].x, y0 = g->monsters[0].y;
			int walls = count_tiles(g, TILE_WALL), rock = count_tiles(g, TILE_BEDROCK);
			wait_for_contact(g, &w, 60);
			assert_int_equal(w.attacks, 0);
			assert_int_equal(w.digs, 0);
			assert_int_equal(w.bad, 0);
			assert_int_equal(count_tiles(g, TILE_WALL), walls);
			assert_int_equal(count_tiles(g, TILE_BEDROCK), rock);
			assert_int_equal(count_tiles(g, TILE_RUBBLE), 0);
			if (i == 1) { /* nowhere to go: it stays in its pocket */
				assert_int_equal(g->monsters[0].x, x0);
				assert_int_equal(g->monsters[0].y, y0);
			}
			fixture_fini(&f);
		}
}

/*
 * The `dig` knob is what a wall costs its plans.  Through the wall at
 * x = 3 the player is 5 steps away (one of them a wall); round the wall's
 * end, 9.  On square4 it digs when 5 + dig < 9, and walks round otherwise.
 */
static void test_prefers_open_route(void **state)
{
	(void)state;
	static const char MAP[] = "#########\n"
				  "#U.#..@.#\n"
				  "#..#....#\n"
				  "#......>#\n"
				  "#########";
	static const struct {
		double dig;
		bool digs;
	} cases[] = { { 2, true }, { 3.5, true }, { 4.5, false }, { 10, false } };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fixture f;
		struct watch w;
		struct game *g = dig_game(&f, "square4", MAP, 1, &w);
		bestiary_find_name(&g->bestiary, "hulk")->dig = cases[i].dig;
		wait_for_contact(g, &w, 60);
		assert_true(w.attacks > 0);
		assert_int_equal(w.bad, 0);
		assert_int_equal(w.digs > 0, cases[i].digs);
		assert_int_equal(count_tiles(g, TILE_RUBBLE), cases[i].digs ? 1 : 0);
		fixture_fini(&f);
	}
}

/* A digger with dig 0 is a chaser: it walks round. */
static void test_dig_zero_walks(void **state)
{
	(void)state;
	struct fixture f;
	struct watch w;
	char *rows = with_monster(SEALED, 'U');
	struct game *g = dig_game(&f, "square8", rows, 7, &w);
	free(rows);
	bestiary_find_name(&g->bestiary, "hulk")->dig = 0;
	wait_for_contact(g, &w, 60);
	assert_int_equal(w.digs, 0);
	assert_int_equal(w.attacks, 0);
	assert_int_equal(count_tiles(g, TILE_RUBBLE), 0);
	fixture_fini(&f);
}

/* Resting in the sealed room: the digging it hears stops the rest. */
static void test_digging_stops_rest(void **state)
{
	(void)state;
	struct fixture f;
	char *rows = with_monster(SEALED, 'U');
	struct game *g = dig_game(&f, "square8", rows, 7, NULL);
	free(rows);
	g->player.hp = 5;
	struct action rest = { .kind = ACT_REST };
	assert_int_equal(game_act(g, &rest), RESULT_ACTED);
	for (int i = 0; i < 100 && g->travel.active; i++)
		act_travel_step(g);
	assert_false(g->travel.active);
	assert_int_equal(g->travel.stopped, TRAVEL_HEARD);
	assert_true(said(g, "You stop: you hear digging."));
	fixture_fini(&f);
}

/* A wall the player saw and no longer sees is still a wall to it after it
 * was dug: the map shows and travel plans what the player knows. */
static void test_memory_does_not_leak(void **state)
{
	(void)state;
	/* the player looks down the corridor at the wall at 9,1, then steps
	 * round the corner, out of its sight, while the hulk, walled in
	 * beyond it, digs it */
	static const char MAP[] = "############\n"
				  "#.@......#.#\n"
				  "#.######.%U#\n"
				  "#>######.###\n"
				  "############";
	struct fixture f;
	struct game *g = dig_game(&f, "square8", MAP, 1, NULL);
	int wall = grid_index(g->grid, 9, 1);
	assert_true(g->visible[wall] && g->remembered[wall]);
	g->ai.all_hunt = false;
	struct monster *m = &g->monsters[0];
	act_move(g, GRID_W); /* 1,1 */
	act_move(g, GRID_S); /* 1,2: the corridor is out of sight */
	assert_false(g->visible[wall]);
	/* the hulk is told to dig there: it hunts a cell beyond the wall */
	ai_mind_alert(&m->mind, m->kind, 8, 1, g->turn);
	for (int i = 0; i < 10 && g->tiles[wall] != TILE_RUBBLE; i++)
		act_wait(g);
	assert_int_equal(g->tiles[wall], TILE_RUBBLE);
	assert_false(g->visible[wall]);
	assert_int_equal(g->known[wall], 0);               /* its memory: a wall */
	assert_int_equal(game_tile_known(g, wall), TILE_WALL);
	char buf[128];
	game_describe(g, 9, 1, buf, sizeof buf);
	assert_string_equal(buf, "wall (remembered)");
	assert_true(said(g, "You hear digging."));         /* unseen: heard ... */
	assert_false(said(g, "digs through"));
	act_move(g, GRID_N);                               /* ... until it looks again */
	act_move(g, GRID_E);
	assert_true(g->visible[wall]);
	assert_int_equal(g->known[wall], 2);
	assert_int_equal(game_tile_known(g, wall), TILE_RUBBLE);
	fixture_fini(&f);
}

/* Same seed, same play: equal hashes every action; a state saved while a
 * wall is half dug (and one saved after a breach, whose grid must be made
 * from the tiles again) loads into a fresh game that then plays on
 * exactly as the original. */
static void test_deterministic_and_saved_mid_dig(void **state)
{
	(void)state;
	static const char *const topologies[] = { "square8", "hex" };
	for (size_t t = 0; t < sizeof topologies / sizeof topologies[0]; t++) {
		char *rows = with_monster(SEALED, 'U');
		struct fixture fa, fb;
		struct game *a = dig_game(&fa, topologies[t], rows, 11, NULL);
		struct game *b = dig_game(&fb, topologies[t], rows, 11, NULL);
		for (int i = 0; i < 60; i++) {
			act_wait(a);
			act_wait(b);
			assert_true(game_hash(a) == game_hash(b));
		}
		fixture_fini(&fb);
		fixture_fini(&fa);

		for (int when = 0; when < 2; when++) {
			a = dig_game(&fa, topologies[t], rows, 11, NULL);
			const struct monster *m = &a->monsters[0];
			/* when 0: the first turn of work done, the wall still there;
			 * 1: the first wall dug */
			int i = 0;
			while (i++ < 200 && (when == 0 ? m->mind.timer != 1 : count_tiles(a, TILE_RUBBLE) == 0))
				act_wait(a);
			assert_true(i < 200);
			if (when == 0)
				assert_true(m->mind.post >= 0 && a->tiles[m->mind.post] == TILE_WALL);
			void *bytes;
			size_t len;
			assert_int_equal(game_state_save(a, &bytes, &len), GAME_STATE_OK);
			b = dig_game(&fb, topologies[t], rows, 11, NULL);
			char err[128];
			assert_true(game_state_load(b, bytes, len, err, sizeof err));
			free(bytes);
			assert_true(game_hash(a) == game_hash(b));
			for (int c = 0; c < a->grid->w * a->grid->h; c++)
				assert_int_equal(a->grid->cost[c], b->grid->cost[c]);
			for (int k = 0; k < 30; k++) {
				act_wait(a);
				act_wait(b);
				assert_true(game_hash(a) == game_hash(b));
			}
			assert_true(count_tiles(b, TILE_RUBBLE) >= 1);
			fixture_fini(&fb);
			fixture_fini(&fa);
		}
		free(rows);
	}
}

/* On a large level a far digger keeps its route while the goal moves a
 * little (less than AI_STALE_DIST from where it planned toward), as the
 * chase keeps its flood; past that, or near the goal, it plans again. */
static void test_large_level_keeps_route(void **state)
{
	(void)state;
	const int w = 200, h = 200;
	char *text = malloc((size_t)(w + 1) * h + 1);
	assert_non_null(text);
	size_t n = 0;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			text[n++] = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : (x == 100 && y > 20) ? '#' : '.';
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[100 * (w + 1) + 180] = '@';
	text[150 * (w + 1) + 180] = '>';
	text[100 * (w + 1) + 20] = 'U';
	struct fixture f;
	struct game *g = dig_game(&f, "square8", text, 1, NULL);
	free(text);
	g->ai.all_hunt = false;
	assert_true(g->ai.share_need > AI_SHARE_MIN);
	struct monster *m = &g->monsters[0];
	ai_mind_alert(&m->mind, m->kind, 180, 100, g->turn);
	act_wait(g);
	assert_int_equal(g->ai.stats.searches, 1);
	/* told of cells up to 20 away from the first: it keeps its route */
	for (int i = 1; i <= 4; i++) {
		ai_mind_alert(&m->mind, m->kind, 180, 100 + 5 * i, g->turn);
		act_wait(g);
	}
	assert_int_equal(g->ai.stats.searches, 1);
	assert_int_equal(m->mind.route_goal, grid_index(g->grid, 180, 100));
	/* 40 away: it plans again, toward the new cell */
	ai_mind_alert(&m->mind, m->kind, 180, 140, g->turn);
	act_wait(g);
	assert_int_equal(g->ai.stats.searches, 2);
	assert_int_equal(m->mind.route_goal, grid_index(g->grid, 180, 140));
	/* near the goal every move of it is a new plan */
	ai_mind_alert(&m->mind, m->kind, m->x + 10, m->y, g->turn);
	act_wait(g);
	long s0 = g->ai.stats.searches;
	ai_mind_alert(&m->mind, m->kind, m->x + 10, m->y + 1, g->turn);
	act_wait(g);
	assert_int_equal(g->ai.stats.searches, s0 + 1);
	fixture_fini(&f);
}

/* A 200x200 level (a large one) with the player at (180, 100), a goblin
 * at (20, 50) that makes the shared flood when it plans (it acts first),
 * a digger at (20, 100), both told where the player is; with `wall` a
 * wall down x = 100 from y = 21 to the bottom, so the walk round it is
 * long; with `blocker` an idle goblin at (25, 100), on the digger's way. */
static struct game *far_game(struct fixture *f, bool wall, bool blocker)
{
	const int w = 200, h = 200;
	char *text = malloc((size_t)(w + 1) * h + 1);
	assert_non_null(text);
	size_t n = 0;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			text[n++] = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#'
				    : (wall && x == 100 && y > 20)       ? '#'
									 : '.';
		text[n++] = '\n';
	}
	text[n - 1] = 0;
	text[100 * (w + 1) + 180] = '@';
	text[150 * (w + 1) + 180] = '>';
	text[50 * (w + 1) + 20] = 'g';
	text[100 * (w + 1) + 20] = 'U';
	if (blocker)
		text[100 * (w + 1) + 25] = 'g';
	struct game *g = dig_game(f, "square8", text, 1, NULL);
	free(text);
	g->ai.all_hunt = false;
	g->ai.share = AI_SHARE_ALWAYS;
	assert_true(g->ai.share_need > AI_SHARE_MIN);
	struct monster *gob = game_monster_at(g, 20, 50), *u = game_monster_at(g, 20, 100);
	assert_non_null(gob);
	assert_non_null(u);
	ai_mind_alert(&gob->mind, gob->kind, 180, 100, g->turn);
	ai_mind_alert(&u->mind, u->kind, 180, 100, g->turn);
	return g;
}

/* Rules 6 (docs/ai.md, "Far from the goal, no search across the level"):
 * on a large level a digger far from its goal whose walk on the shared
 * flood costs no more than `dig` + h / 8 over the straight distance walks
 * it, with no search of its own; with a long way round it searches (and
 * plans to dig through the wall). */
static void test_far_digger_walks_flood(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = far_game(&f, false, false);
	struct monster *u = game_monster_at(g, 20, 100);
	act_wait(g);
	assert_true(g->ai.stats.floods >= 1);
	assert_int_equal(g->ai.stats.searches - g->ai.stats.floods, 0);
	assert_int_equal(u->x, 21); /* straight on toward the player */
	assert_int_equal(u->y, 100);
	fixture_fini(&f);

	g = far_game(&f, true, false);
	u = game_monster_at(g, 20, 100);
	act_wait(g);
	assert_true(g->ai.stats.searches - g->ai.stats.floods >= 1);
	/* its route ends at the wall it will dig (x = 100), not round it */
	int last = u->mind.route[u->mind.route_len - 1];
	assert_int_equal(grid_x(g->grid, last), 100);
	assert_false(grid_passable(g->grid, last));
	fixture_fini(&f);
}

/* Rules 6: a far digger whose next step is held goes round the monster in
 * its way with no search across the level (before, a search with crowd
 * costs toward its goal). */
static void test_far_digger_goes_round(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = far_game(&f, true, true);
	struct monster *u = game_monster_at(g, 20, 100), *b = game_monster_at(g, 25, 100);
	assert_non_null(b);
	for (int i = 0; i < 4; i++)
		act_wait(g);
	assert_int_equal(u->x, 24); /* before the blocker, on its route */
	assert_int_equal(u->y, 100);
	long expanded = g->ai.stats.expanded, searches = g->ai.stats.searches - g->ai.stats.floods;
	act_wait(g);
	assert_false(u->x == 24 && u->y == 100); /* round it */
	assert_int_equal(b->x, 25);
	assert_true(g->ai.stats.searches - g->ai.stats.floods - searches <= 1);
	assert_true(g->ai.stats.expanded - expanded <= AI_REJOIN_BUDGET);
	fixture_fini(&f);
}

/* The shipped bestiary's diggers are diggers, and the defaults dig not. */
static void test_bestiary_kinds(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("levels/bestiary.txt", &b, &d));
	diag_list_fini(&d);
	const char glyphs[] = "mU";
	for (int i = 0; glyphs[i]; i++) {
		const struct monster_kind *k = bestiary_find_glyph(&b, glyphs[i]);
		assert_non_null(k);
		assert_int_equal(k->behaviour, MIND_DIG);
		assert_true(k->dig > 0);
		assert_true(k->dig_turns >= 1);
	}
	for (int i = 0; i < b.n; i++)
		if (b.kinds[i].behaviour != MIND_DIG)
			assert_true(b.kinds[i].dig == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digs_into_sealed_room),
		cmocka_unit_test(test_chaser_stays_out),
		cmocka_unit_test(test_permanent_walls),
		cmocka_unit_test(test_prefers_open_route),
		cmocka_unit_test(test_dig_zero_walks),
		cmocka_unit_test(test_digging_stops_rest),
		cmocka_unit_test(test_memory_does_not_leak),
		cmocka_unit_test(test_deterministic_and_saved_mid_dig),
		cmocka_unit_test(test_large_level_keeps_route),
		cmocka_unit_test(test_far_digger_walks_flood),
		cmocka_unit_test(test_far_digger_goes_round),
		cmocka_unit_test(test_bestiary_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
