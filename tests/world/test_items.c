/*
 * test_items.c - the item catalogue (levels/items.txt: its parse, errors
 * with positions, --set, the built-in copy) and the rules of items on
 * constructed levels: picking up and a full pack, potions, identification
 * and per-game looks, teleport, magic mapping, digging (a monster's route
 * opens), caltrops (monsters' costs), closing doors, wielding and wearing
 * (the bonuses, loud armour waking a sleeper), the sling's shot stopping
 * at a wall and its stone landing there, throwing; and a journal of a
 * game that uses every action kind of the items replays and verifies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"
#include "test_game_fixture.h"
#include "textfile.h"

/* ---- the catalogue ------------------------------------------------------- */

static void test_catalogue_file_is_builtin(void **state)
{
	(void)state;
	struct item_catalogue file, builtin;
	struct diag_list d = { 0 };
	assert_true(items_load_file("levels/items.txt", &file, &d));
	assert_int_equal(d.n, 0);
	items_default(&builtin);
	assert_true(builtin.n >= 15);
	static char a[65536], b[65536];
	items_describe(&file, a, sizeof a);
	items_describe(&builtin, b, sizeof b);
	/* src/world/model/items_builtin.inc is levels/items.txt, made with
	 *   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' \
	 *       levels/items.txt > src/world/model/items_builtin.inc */
	assert_string_equal(a, b);
	/* what the issue asks for is there */
	const char *const want[] = { "healing", "teleport", "mapping", "digging", "sling", "stone", "axe", "plate",
				     "caltrops" };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_true(items_find(&file, want[i], strlen(want[i])) >= 0);
	int potions = 0;
	for (int i = 0; i < file.n; i++)
		potions += file.kinds[i].cls == ITEM_POTION;
	assert_true(potions >= 3);
	/* the description reads back to the same catalogue */
	struct item_catalogue back;
	assert_true(items_parse("back", a, strlen(a), &back, NULL));
	assert_int_equal(back.n, file.n);
	assert_memory_equal(back.kinds, file.kinds, sizeof file.kinds[0] * (size_t)file.n);
	diag_list_fini(&d);
}

/* The first diagnostic's text as file:line:col: error: msg. */
static void first_diag(const char *text, char *out, size_t size)
{
	struct item_catalogue c;
	struct diag_list d = { 0 };
	assert_false(items_parse("t.txt", text, strlen(text), &c, &d));
	assert_true(d.n > 0);
	diag_format(&d.items[0], out, size);
	diag_list_fini(&d);
}

static void test_parse_errors_have_positions(void **state)
{
	(void)state;
	char m[600];
	first_diag("item: a\nclass: ring\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:2:8: error: unknown class 'ring': expected one of potion, gold, scroll"));
	first_diag("item: a\nclass: potion\neffect: fly\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:3:9: error: unknown effect 'fly'"));
	assert_non_null(strstr(m, "teleport"));
	first_diag("item: a\nclass: potion\namount: lots\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:3:9: error: bad value 'lots' for 'amount': expected a whole number"));
	first_diag("class: potion\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:1:1: error: 'class' before any 'item:' line"));
	first_diag("item: a\nclass: potion\ncolour: red\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:3:1: error: unknown key 'colour' (expected one of: item, class"));
	first_diag("item: a\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:1:1: error: item 'a' has no 'class:'"));
	first_diag("item: bow\nclass: weapon\nammo: rock\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:3:7: error: item 'bow' fires 'rock', which is not an item of class ammo"));
	first_diag("item: a\nclass: potion\nitem: a\nclass: potion\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:3:7: error: item 'a' is defined twice"));
	first_diag("item: a\nclass: potion\n\tdepth: 2\n", m, sizeof m);
	assert_non_null(strstr(m, "t.txt:3:1: error: tab character"));
	first_diag("", m, sizeof m);
	assert_non_null(strstr(m, "no items"));
}

static void test_set_reaches_items(void **state)
{
	(void)state;
	struct bestiary b;
	fixture_bestiary(&b, fixture_kinds);
	char err[600];
	int h = items_find(&b.items, "healing", 7);
	assert_true(h >= 0);
	assert_true(bestiary_set(&b, "healing.amount=20", err, sizeof err));
	assert_int_equal(b.items.kinds[h].amount, 20);
	assert_true(bestiary_set(&b, "goblin.hp=9", err, sizeof err)); /* monsters still first */
	assert_false(bestiary_set(&b, "healing.amount=nine", err, sizeof err));
	assert_non_null(strstr(err, "bad value 'nine' for 'amount'"));
	assert_false(bestiary_set(&b, "healing.colour=1", err, sizeof err));
	assert_non_null(strstr(err, "unknown key 'colour'"));
	assert_false(bestiary_set(&b, "sling.ammo=healing", err, sizeof err));
	assert_non_null(strstr(err, "not an item of class ammo"));
	assert_false(bestiary_set(&b, "nothing.hp=1", err, sizeof err));
	assert_non_null(strstr(err, "or an item of the catalogue"));
}

/* ---- the rules ------------------------------------------------------------ */

/* Puts qty of the kind named id into the pack (as if picked up); its slot. */
static int give(struct game *g, const char *id, int qty)
{
	int k = items_find(&g->bestiary.items, id, strlen(id));
	assert_true(k >= 0);
	int s = game_pack_room(g, k);
	assert_true(s >= 0);
	if (g->pack[s].kind == k) {
		g->pack[s].qty += qty;
	} else {
		g->pack[s].kind = k;
		g->pack[s].qty = qty;
	}
	return s;
}

static enum act_result act(struct game *g, enum action_kind kind, int x, int y, enum grid_dir dir)
{
	struct action a = { .kind = kind, .x = x, .y = y, .dir = dir };
	return game_act(g, &a);
}

static int kind_of(const struct game *g, const char *id)
{
	return items_find(&g->bestiary.items, id, strlen(id));
}

static void test_pickup_and_full_pack(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square4", "#######\n#@?(..#\n######>\n", 1);
	act_move(g, GRID_E);
	act_move(g, GRID_E);
	assert_int_equal(g->items[grid_index(g->grid, 2, 1)], 0);
	assert_int_equal(g->items[grid_index(g->grid, 3, 1)], 0);
	assert_int_equal(game_pack_total(g), 2 + 1 + 8); /* a scroll, 8 stones: slots + their counts */
	/* a drop and ',' pick it up again */
	assert_int_equal(act(g, ACT_DROP, 1, 0, GRID_N), RESULT_ACTED);
	assert_true(g->items[grid_index(g->grid, 3, 1)] != 0);
	assert_int_equal(act(g, ACT_PICKUP, 0, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(act(g, ACT_PICKUP, 0, 0, GRID_N), RESULT_NOTHING);
	assert_true(message_contains(g, "nothing here to pick up"));
	/* fill every letter: the next item stays on the floor, and says why */
	for (int s = 0; s < PACK_SLOTS; s++)
		if (g->pack[s].kind < 0) {
			g->pack[s].kind = kind_of(g, "sword");
			g->pack[s].qty = 1;
		}
	int c = grid_index(g->grid, 4, 1);
	g->items[c] = (uint8_t)(1 + kind_of(g, "axe"));
	g->item_qty[c] = 1;
	game_maps_written(g); /* written by hand: hashed and saved again */
	act_move(g, GRID_E);
	assert_int_equal(g->items[c], 1 + kind_of(g, "axe"));
	assert_true(message_contains(g, "your pack is full"));
	assert_int_equal(act(g, ACT_PICKUP, 0, 0, GRID_N), RESULT_NOTHING);
	fixture_fini(&f);
}

static void test_potions_identify(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square4", "######\n#@...>\n######\n", 7);
	int h = kind_of(g, "healing"), p = kind_of(g, "poison");
	char before[128], after[128];
	game_item_name(g, h, 1, before, sizeof before);
	assert_non_null(strstr(before, "potion"));
	assert_null(strstr(before, "healing")); /* unknown: a look */
	assert_false(g->identified[h]);
	int s = give(g, "healing", 2);
	g->player.hp = 10;
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->player.hp, 10 + g->bestiary.items.kinds[h].amount);
	assert_true(g->identified[h]);
	game_item_name(g, h, 1, after, sizeof after);
	assert_string_equal(after, "a potion of healing");
	assert_int_equal(g->pack[s].qty, 1);
	assert_true(message_contains(g, "It was a potion of healing"));
	/* poison hurts but never kills */
	g->player.hp = 3;
	s = give(g, "poison", 1);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->player.hp, 1);
	assert_true(g->identified[p]);
	assert_int_equal(g->pack[s].kind, -1);
	/* sleep: the turns pass */
	int t = g->turn;
	s = give(g, "sleep", 1);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	assert_true(g->turn - t >= 1 + g->bestiary.items.kinds[kind_of(g, "sleep")].amount);
	/* vigour raises the maximum */
	int max = g->player.max_hp;
	s = give(g, "vigour", 1);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->player.max_hp, max + g->bestiary.items.kinds[kind_of(g, "vigour")].amount);
	fixture_fini(&f);
}

/* What a right click tells of an item (game_item_about): the catalogue's
 * numbers for a known kind, nothing but "use it to learn" for an unknown
 * one, and what it says follows --set. */
static void test_item_about(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square4", "######\n#@...>\n######\n", 7);
	char buf[320];
	int h = kind_of(g, "healing");
	game_item_about(g, h, buf, sizeof buf);
	assert_non_null(strstr(buf, "Unknown: drink it"));
	assert_null(strstr(buf, "heals")); /* nothing leaks before it is known */
	g->identified[h] = 1;
	game_item_about(g, h, buf, sizeof buf);
	char want[64];
	snprintf(want, sizeof want, "heals %d hp", g->bestiary.items.kinds[h].amount);
	assert_non_null(strstr(buf, want));
	int stone = kind_of(g, "stone");
	game_item_about(g, stone, buf, sizeof buf);
	assert_non_null(strstr(buf, "fired from a sling (f)"));
	assert_non_null(strstr(buf, "breaks half the time"));
	g->bestiary.items.kinds[stone].brk = 25;
	game_item_about(g, stone, buf, sizeof buf);
	assert_non_null(strstr(buf, "breaks 1 time in 4"));
	g->bestiary.items.kinds[stone].brk = 0;
	game_item_about(g, stone, buf, sizeof buf);
	assert_null(strstr(buf, "breaks"));
	game_item_about(g, kind_of(g, "sling"), buf, sizeof buf);
	assert_non_null(strstr(buf, "f fires stones up to 8 steps"));
	game_item_about(g, kind_of(g, "plate"), buf, sizeof buf);
	assert_non_null(strstr(buf, "loud"));
	game_item_about(g, kind_of(g, "leather"), buf, sizeof buf);
	assert_null(strstr(buf, "loud"));
	game_item_about(g, kind_of(g, "caltrops"), buf, sizeof buf);
	assert_non_null(strstr(buf, "more a cell"));
	game_item_about(g, -1, buf, sizeof buf);
	assert_string_equal(buf, "");
	fixture_fini(&f);
}

/* Each game draws its own looks: over a few seeds, healing looks different. */
static void test_looks_per_game(void **state)
{
	(void)state;
	char first[128] = "";
	bool differ = false;
	for (uint64_t seed = 1; seed <= 8 && !differ; seed++) {
		struct fixture f;
		struct game *g = fixture_game(&f, "square4", "####\n#@>#\n####\n", seed);
		char name[128];
		game_item_name(g, kind_of(g, "healing"), 1, name, sizeof name);
		if (seed == 1)
			snprintf(first, sizeof first, "%s", name);
		else
			differ = strcmp(first, name) != 0;
		/* two kinds of a class never share a look */
		char other[128];
		game_item_name(g, kind_of(g, "poison"), 1, other, sizeof other);
		assert_string_not_equal(name, other);
		fixture_fini(&f);
	}
	assert_true(differ);
}

static void test_teleport_and_mapping(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "##################\n"
				      "#@...............#\n"
				      "#................#\n"
				      "########.#########\n"
				      "#................#\n"
				      "#...............>#\n"
				      "##################\n",
				      11);
	int n = g->grid->w * g->grid->h, remembered = 0, unknown = 0;
	for (int c = 0; c < n; c++) {
		remembered += g->remembered[c];
		unknown += g->known[c] != g->grid->cost[c];
	}
	/* the hash taken now leaves every block clean: the test build's hash
	 * below checks each clean block's sum against its cells, so a block
	 * the scroll writes without marking it fails there */
	(void)game_hash(g);
	const unsigned version = g->known_version;
	int s = give(g, "mapping", 1);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	(void)game_hash(g);
	assert_true(unknown > 0);
	assert_int_equal(g->known_version - version, (unsigned)unknown); /* a version a cell learnt */
	int now = 0;
	for (int c = 0; c < n; c++)
		now += g->remembered[c];
	assert_true(now > remembered);
	assert_int_equal(now, n); /* every cell of this map is wall or floor */
	assert_true(g->remembered[grid_index(g->grid, 16, 5)]);
	int from = grid_index(g->grid, g->player.x, g->player.y);
	s = give(g, "teleport", 1);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	int to = grid_index(g->grid, g->player.x, g->player.y);
	assert_true(grid_step_distance(g->grid, from, to) >= g->bestiary.items.kinds[kind_of(g, "teleport")].amount);
	assert_true(grid_passable(g->grid, to));
	fixture_fini(&f);
}

/* A wand of digging opens the wall between the player and a goblin that
 * had no way round: the goblin comes at once. */
static void test_digging_opens_a_route(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square4",
				      "#########\n"
				      "#@..#..g#\n"
				      "#####..>#\n"
				      "#########\n",
				      5);
	struct monster *gob = &g->monsters[0];
	for (int i = 0; i < 5; i++)
		act(g, ACT_WAIT, 0, 0, GRID_N);
	assert_true(gob->x >= 5); /* no way through */
	act_move(g, GRID_E);
	act_move(g, GRID_E);
	int wall = grid_index(g->grid, 4, 1);
	assert_false(grid_passable(g->grid, wall));
	int s = give(g, "digging", 2);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_E), RESULT_ACTED);
	assert_int_equal(g->tiles[wall], TILE_RUBBLE);
	assert_true(grid_passable(g->grid, wall));
	assert_int_equal(g->pack[s].qty, 1); /* a charge spent */
	assert_true(g->identified[g->pack[s].kind]);
	/* the goblin's route goes through the rubble now */
	int pc = grid_index(g->grid, g->player.x, g->player.y);
	bool adjacent = false;
	for (int i = 0; i < 12 && !adjacent && !g->over; i++) {
		act(g, ACT_WAIT, 0, 0, GRID_N);
		adjacent = gob->alive && grid_is_adjacent(g->grid, pc, grid_index(g->grid, gob->x, gob->y));
	}
	assert_true(adjacent);
	/* the edge of the map stops the bolt */
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	assert_true(message_contains(g, "too hard to dig"));
	fixture_fini(&f);
}

static void test_caltrops_raise_costs(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "#######\n#.....#\n#..@..#\n#.....#\n######>\n", 2);
	int k = kind_of(g, "caltrops");
	const struct item_def *d = &g->bestiary.items.kinds[k];
	int s = give(g, "caltrops", 2);
	assert_int_equal(act(g, ACT_USE, s, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->pack[s].qty, 1);
	int next = grid_index(g->grid, 4, 2), far = grid_index(g->grid, 1, 1);
	assert_int_equal(g->grid->cost[next], 1 + d->amount);
	assert_int_equal(g->grid->cost[far], 1);
	assert_int_equal(g->hazard[next], d->amount);
	char what[200];
	game_describe(g, 4, 2, what, sizeof what);
	assert_non_null(strstr(what, "caltrops"));
	fixture_fini(&f);
}

static void test_close_door(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square4", "#######\n#@+...#\n######>\n", 2);
	assert_int_equal(act(g, ACT_CLOSE, 0, 0, GRID_E), RESULT_NOTHING);
	assert_true(message_contains(g, "already closed"));
	act_move(g, GRID_E); /* opens it, stands in it */
	act_move(g, GRID_E);
	int door = grid_index(g->grid, 2, 1);
	assert_true(g->open[door]);
	assert_int_equal(act(g, ACT_CLOSE, 0, 0, GRID_W), RESULT_ACTED);
	assert_false(g->open[door]);
	assert_true(g->opaque[door]);
	assert_int_equal(act(g, ACT_CLOSE, 0, 0, GRID_E), RESULT_NOTHING);
	assert_true(message_contains(g, "no door there"));
	fixture_fini(&f);
}

static void test_wield_and_wear(void **state)
{
	(void)state;
	struct fixture f;
	/* a goblin sleeping soundly four steps away */
	static const char *const sets[] = { "goblin.sleep=100", NULL };
	struct game *g = fixture_game_set(&f, "square4", "##########\n#@......g#\n#########>\n", 3, sets);
	assert_true(g->monsters[0].mind.asleep);
	int axe = give(g, "axe", 1), plate = give(g, "plate", 1);
	const struct item_def *a = &g->bestiary.items.kinds[kind_of(g, "axe")];
	assert_int_equal(act(g, ACT_WIELD, axe, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->wielded, axe);
	assert_int_equal(g->player.hit_bonus, a->hit);
	assert_int_equal(g->player.damage_bonus, a->damage);
	assert_true(a->hit < 0 && a->damage > 0); /* the trade-off */
	assert_int_equal(act(g, ACT_WIELD, plate, 0, GRID_N), RESULT_NOTHING);
	assert_int_equal(act(g, ACT_WEAR, plate, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->player.armour, g->bestiary.items.kinds[kind_of(g, "plate")].armour);
	/* plate is loud: a step wakes the sleeper */
	act_move(g, GRID_E);
	assert_false(g->monsters[0].mind.asleep);
	assert_int_equal(act(g, ACT_WEAR, -1, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->player.armour, 0);
	assert_int_equal(act(g, ACT_WIELD, -1, 0, GRID_N), RESULT_ACTED);
	assert_int_equal(g->player.hit_bonus, 0);
	assert_int_equal(g->player.damage_bonus, 0);
	assert_int_equal(g->wielded, -1);
	fixture_fini(&f);
}

/* The shots' and throws' yard: a wall at (5, 1) on the player's row, a dummy at (7, 3). */
static const char shot_yard[] = "##########\n"
				"#@...#...#\n"
				"#........#\n"
				"#......d.#\n"
				"#########>\n";

/* The sling's stone stops at a wall and lands before it; at a monster it hits or misses and lands there. */
static void test_sling_shots(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", shot_yard, 4);
	assert_int_equal(act(g, ACT_FIRE, 3, 1, GRID_N), RESULT_NOTHING);
	assert_true(message_contains(g, "no launcher"));
	char why[GAME_MESSAGE_LEN];
	assert_int_equal(game_pack_ammo(g, g->wielded), -1);
	game_fire_none(g, why, sizeof why);
	assert_non_null(strstr(why, "no launcher"));
	int sling = give(g, "sling", 1);
	assert_int_equal(act(g, ACT_WIELD, sling, 0, GRID_N), RESULT_ACTED);
	/* a sling and no stones: f says so before any aim (ui_pack.c), as firing does */
	assert_int_equal(game_pack_ammo(g, g->wielded), -1);
	game_fire_none(g, why, sizeof why);
	assert_string_equal(why, "You have no stones to fire from your sling.");
	assert_int_equal(act(g, ACT_FIRE, 3, 1, GRID_N), RESULT_NOTHING);
	assert_true(message_contains(g, why));
	int stones = give(g, "stone", 3);
	assert_int_equal(game_pack_ammo(g, g->wielded), stones);
	g->bestiary.items.kinds[kind_of(g, "stone")].brk = 0; /* every stone lands (test_ammo_breaks) */
	int total = game_pack_total(g);
	/* at a cell behind the wall at (5, 1): the stone stops there */
	assert_int_equal(act(g, ACT_FIRE, 7, 1, GRID_N), RESULT_ACTED);
	assert_int_equal(game_pack_total(g), total - 1);
	int stone = kind_of(g, "stone");
	assert_int_equal(g->items[grid_index(g->grid, 4, 1)], 1 + stone);
	assert_true(message_contains(g, "hits the wall"));
	/* at the dummy: hit or miss, the stone lies at or near it */
	const struct monster *m = &g->monsters[0];
	int hp = m->hp;
	assert_int_equal(act(g, ACT_FIRE, m->x, m->y, GRID_N), RESULT_ACTED);
	assert_true(m->hp < hp || !m->alive || message_contains(g, "misses the dummy"));
	int near = 0;
	for (int y = 2; y <= 3; y++)
		for (int x = 5; x <= 8; x++)
			near += g->items[grid_index(g->grid, x, y)] == 1 + stone;
	assert_true(near >= 1);
	/* out of range */
	give(g, "stone", 1);
	g->bestiary.items.kinds[g->pack[sling].kind].range = 2;
	assert_int_equal(act(g, ACT_FIRE, 7, 3, GRID_N), RESULT_NOTHING);
	assert_true(message_contains(g, "Out of range"));
	/* throwing by hand flies the other way */
	int s = give(g, "stone", 1);
	assert_int_equal(act(g, ACT_THROW, s, 0, GRID_S), RESULT_ACTED);
	fixture_fini(&f);
}

static enum act_result throw_at(struct game *g, int slot, int x, int y)
{
	struct action a = { .kind = ACT_THROW_AT, .item = slot, .x = x, .y = y };
	return game_act(g, &a);
}

/* A throw by hand at a cell (ACT_THROW_AT): any cell within the kind's
 * range in steps, off the eight lines too; the piece lands at the cell, or
 * at the wall before it; a monster on the line is hit or missed; out of
 * range, the player's own cell, a non-ammunition slot and an empty one
 * take no time and say why. */
static void test_throw_at_a_cell(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", shot_yard, 4);
	int s = give(g, "stone", 6), stone = kind_of(g, "stone");
	g->bestiary.items.kinds[stone].brk = 0;
	const int range = g->bestiary.items.kinds[stone].range;
	assert_int_equal(game_throw_range(g, s), range);
	/* a knight's move away, on no line a direction reaches */
	int turn = g->turn;
	assert_int_equal(throw_at(g, s, 3, 2), RESULT_ACTED);
	assert_true(g->turn > turn);
	assert_int_equal(g->pack[s].qty, 5);
	assert_int_equal(g->items[grid_index(g->grid, 3, 2)], 1 + stone);
	assert_true(message_contains(g, "You throw the stone."));
	/* behind the wall at (5, 1): it stops at the wall, lying before it */
	assert_int_equal(throw_at(g, s, 6, 1), RESULT_ACTED);
	assert_int_equal(g->items[grid_index(g->grid, 4, 1)], 1 + stone);
	assert_true(message_contains(g, "hits the wall"));
	/* out of range: no time, no stone spent */
	turn = g->turn;
	assert_int_equal(throw_at(g, s, 1 + range + 1, 3), RESULT_NOTHING);
	char said[96];
	snprintf(said, sizeof said, "Out of range: %d steps, and thrown stones fly %d.", range + 1, range);
	assert_true(message_contains(g, said));
	assert_int_equal(g->pack[s].qty, 4);
	assert_int_equal(throw_at(g, s, 1, 1), RESULT_NOTHING);
	assert_true(message_contains(g, "other than your own"));
	assert_int_equal(throw_at(g, s, -3, 40), RESULT_NOTHING);
	int potion = give(g, "healing", 1);
	assert_int_equal(throw_at(g, potion, 3, 2), RESULT_NOTHING);
	assert_true(message_contains(g, "Only ammunition"));
	assert_int_equal(game_throw_range(g, potion), 0);
	assert_int_equal(throw_at(g, 15, 3, 2), RESULT_NOTHING);
	assert_true(message_contains(g, "You have no item p."));
	assert_int_equal(throw_at(g, -1, 3, 2), RESULT_NOTHING);
	assert_int_equal(throw_at(g, PACK_SLOTS, 3, 2), RESULT_NOTHING);
	assert_true(message_contains(g, "No such item"));
	assert_int_equal(g->turn, turn);
	fixture_fini(&f);
}

/* A monster off every line a direction reaches is hit (the throw can
 * reach it) within a few throws: a tough dummy two right and one down. */
static void test_throw_at_hits_off_the_lines(void **state)
{
	(void)state;
	const char *const sets[] = { "dummy.hp=10000", NULL };
	struct fixture f;
	struct game *g = fixture_game_set(&f, "square4",
					  "#######\n"
					  "#@....#\n"
					  "#..d..#\n"
					  "######>\n",
					  9, sets);
	int s = give(g, "stone", 20);
	const struct monster *m = &g->monsters[0];
	assert_int_equal(m->x, 3);
	assert_int_equal(m->y, 2);
	int hits = 0;
	for (int i = 0; i < 20; i++) {
		int hp = m->hp;
		assert_int_equal(throw_at(g, s, m->x, m->y), RESULT_ACTED);
		hits += m->hp < hp;
		assert_true(m->hp < hp || message_contains(g, "misses the dummy"));
	}
	assert_true(hits >= 5); /* 60% a throw: 20 throws with under 5 hits is 1 in 60,000 */
	assert_true(g->items_used >= 20);
	fixture_fini(&f);
}

/* Stones on the floor, counted over the whole level. */
static int stones_lying(const struct game *g)
{
	int stone = kind_of(g, "stone"), n = 0;
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		if (g->items[c] == 1 + stone)
			n += g->item_qty[c];
	return n;
}

/* The newest message about the stone ("The stone hits..."), NULL none. */
static const char *stone_message(const struct game *g)
{
	for (int i = 0; i < 10; i++) {
		const struct message *m = game_message(g, i);
		if (!m)
			break;
		if (strncmp(m->text, "The stone ", 10) == 0)
			return m->text;
	}
	return NULL;
}

/* Fires `shots` stones at a tough dummy beside the player, with the
 * stone's `break` set to brk; counts the hits (each said) and checks
 * that every stone that hit broke (brk 100) or lies on the floor (brk 0),
 * and that the message says which. */
static void shots_with_break(const char *brk, bool breaks)
{
	const char *const sets[] = { "dummy.hp=10000", "sling.hit=100", brk, NULL };
	struct fixture f;
	struct game *g = fixture_game_set(&f, "square4",
					  "#######\n"
					  "#@d...#\n"
					  "######>\n",
					  9, sets);
	int sling = give(g, "sling", 1);
	const int shots = 12;
	give(g, "stone", shots);
	assert_int_equal(act(g, ACT_WIELD, sling, 0, GRID_N), RESULT_ACTED);
	const struct monster *m = &g->monsters[0];
	int hits = 0, misses = 0;
	for (int i = 0; i < shots; i++) {
		int before = stones_lying(g), hp = m->hp;
		assert_int_equal(act(g, ACT_FIRE, m->x, m->y, GRID_N), RESULT_ACTED);
		const char *said = stone_message(g);
		assert_non_null(said);
		if (m->hp < hp) {
			hits++;
			assert_non_null(strstr(said, "hits the dummy"));
			assert_int_equal(strstr(said, "and breaks") != NULL, breaks);
			assert_int_equal(stones_lying(g), before + (breaks ? 0 : 1));
		} else {
			misses++;
			assert_non_null(strstr(said, "misses the dummy"));
			assert_int_equal(stones_lying(g), before + 1); /* a miss never breaks */
		}
	}
	assert_true(hits >= shots / 2);
	assert_int_equal(stones_lying(g), misses + (breaks ? 0 : hits));
	fixture_fini(&f);
}

/* A stone that hits breaks with its kind's `break` percent: always at 100, never at 0. */
static void test_ammo_breaks(void **state)
{
	(void)state;
	shots_with_break("stone.break=100", true);
	shots_with_break("stone.break=0", false);
}

/* ---- a journal of every item action replays ------------------------------- */

static char *level_text(const char *map, size_t *len)
{
	char *t = malloc(strlen(map) + 128);
	assert_non_null(t);
	*len = (size_t)sprintf(t, "astray-level 1\nname: items\ntopology: square8\nmap:\n%s", map);
	return t;
}

static void test_journal_of_items_replays(void **state)
{
	(void)state;
	static const char map[] = "###############\n"
				   "#@!?/)[(}!?)(.#\n"
				   "#.............#\n"
				   "#......+......#\n"
				   "#######.#######\n"
				   "#.....d......>#\n"
				   "###############\n";
	static const char *const sets[] = { "sling.freq=100", "healing.amount=5", NULL };
	size_t len;
	char *text = level_text(map, &len);
	struct bestiary b;
	fixture_bestiary(&b, fixture_kinds);
	char err[1200] = "";
	for (int i = 0; sets[i]; i++)
		assert_true(bestiary_set(&b, sets[i], err, sizeof err));
	struct diag_list d = { 0 };
	struct level *lv = level_parse("items.lvl", text, len, &b, &d);
	assert_non_null(lv);
	diag_list_fini(&d);
	const struct level *levels[1] = { lv };
	struct game *g = game_create(levels, 1, &b, 77);
	assert_non_null(g);
	struct journal_level jl = { .name = "items.lvl", .text = text, .len = len };
	struct journal_setup st = { .program = "test", .seed = 77, .bestiary_name = "fixture",
				    .bestiary_text = fixture_kinds, .bestiary_len = strlen(fixture_kinds),
				    .sets = sets, .n_sets = 2, .levels = &jl, .n_levels = 1 };
	char path[] = "/tmp/items-test-journal-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	struct journal *j = journal_create(path, &st, g, err, sizeof err);
	if (!j)
		fail_msg("%s", err);
	struct action acts[80];
	int n = 0;
	for (int i = 0; i < 12; i++)
		acts[n++] = (struct action){ .kind = ACT_MOVE, .dir = GRID_E };
	for (int s = 0; s < PACK_SLOTS; s++)
		acts[n++] = (struct action){ .kind = ACT_USE, .x = s, .dir = GRID_S };
	acts[n++] = (struct action){ .kind = ACT_FIRE, .x = 6, .y = 5 };
	acts[n++] = (struct action){ .kind = ACT_THROW, .x = 5, .dir = GRID_S };
	acts[n++] = (struct action){ .kind = ACT_THROW_AT, .item = 5, .x = 3, .y = 3 };
	acts[n++] = (struct action){ .kind = ACT_THROW_AT, .item = 99, .x = 3, .y = 3 }; /* kept as -1 */
	acts[n++] = (struct action){ .kind = ACT_WEAR, .x = -1 };
	acts[n++] = (struct action){ .kind = ACT_WIELD, .x = -1 };
	acts[n++] = (struct action){ .kind = ACT_DROP, .x = 3 };
	acts[n++] = (struct action){ .kind = ACT_PICKUP };
	acts[n++] = (struct action){ .kind = ACT_QUAFF };
	acts[n++] = (struct action){ .kind = ACT_CLOSE, .dir = GRID_S };
	bool used[ACT_THROW_AT + 1] = { false };
	for (int i = 0; i < n && !g->over; i++) {
		enum act_result r = game_act(g, &acts[i]);
		used[acts[i].kind] = true;
		assert_true(journal_record(j, &acts[i], r, g, err, sizeof err));
	}
	assert_true(journal_append_checksum(j, g, err, sizeof err));
	assert_true(journal_close(j, err, sizeof err));
	for (int k = ACT_PICKUP; k <= ACT_CLOSE; k++)
		assert_true(used[k]);
	assert_true(used[ACT_THROW_AT]);
	assert_true(g->items_used > 3);
	uint64_t want = game_hash(g);

	struct journal_data jd;
	assert_true(journal_read_file(path, &jd, err, sizeof err));
	assert_non_null(jd.items_text);
	/* the throws at a cell read back with their slots and cells */
	int throws = 0;
	for (long k = 0; k < jd.n_actions; k++)
		if (jd.actions[k].kind == ACT_THROW_AT) {
			assert_int_equal(jd.actions[k].item, throws == 0 ? 5 : -1);
			assert_int_equal(jd.actions[k].x, 3);
			assert_int_equal(jd.actions[k].y, 3);
			throws++;
		}
	assert_int_equal(throws, 2);
	struct journal_game jg;
	if (!journal_start(&jd, &jg, err, sizeof err))
		fail_msg("%s", err);
	struct journal_replay rep;
	if (!journal_replay(&jd, jg.game, -1, &rep, err, sizeof err))
		fail_msg("%s", err);
	assert_true(rep.checks >= 2);
	assert_int_equal(rep.drift, -1);
	assert_true(game_hash(jg.game) == want);
	/* the replayed catalogue carries the overrides */
	assert_int_equal(jg.game->bestiary.items.kinds[kind_of(jg.game, "healing")].amount, 5);
	journal_game_fini(&jg);
	journal_data_fini(&jd);
	unlink(path);
	game_destroy(g);
	level_destroy(lv);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue_file_is_builtin),
		cmocka_unit_test(test_parse_errors_have_positions),
		cmocka_unit_test(test_set_reaches_items),
		cmocka_unit_test(test_pickup_and_full_pack),
		cmocka_unit_test(test_potions_identify),
		cmocka_unit_test(test_item_about),
		cmocka_unit_test(test_looks_per_game),
		cmocka_unit_test(test_teleport_and_mapping),
		cmocka_unit_test(test_digging_opens_a_route),
		cmocka_unit_test(test_caltrops_raise_costs),
		cmocka_unit_test(test_close_door),
		cmocka_unit_test(test_wield_and_wear),
		cmocka_unit_test(test_sling_shots),
		cmocka_unit_test(test_ammo_breaks),
		cmocka_unit_test(test_throw_at_a_cell),
		cmocka_unit_test(test_throw_at_hits_off_the_lines),
		cmocka_unit_test(test_journal_of_items_replays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
