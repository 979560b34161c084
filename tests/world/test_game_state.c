/*
 * test_game_state.c - the state table (game_state.c): the hash, the saved
 * bytes and their loading are made from one list of fields, so a change of
 * any field changes the hash, survives a save and a load, and the loaded
 * game hashes as the saved one.  Fields the hash once missed (the player's
 * damage, the sight radius, the killer, the activity, the monsters' minds,
 * the player's map memory, the AI's crowd knob; the scent, the last
 * noise, sleep, wandering and tracking) are checked by name.  A
 * state of another rules version is refused naming both versions; so is
 * a journal, by journal_start.  The occupant map and the crowd costs are
 * made from the monsters on load, and a state whose monsters collide is
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "ai_internal.h"
#include "game_internal.h"
#include "journal.h"
#include "textfile.h"

static const char MAP[] = "##########\n"
			  "#@.......#\n"
			  "#..###...#\n"
			  "#..#s#..b#\n"
			  "#........>\n"
			  "##########\n";

/* One change of one field, made and undone. */
struct change {
	const char *name;
	void (*apply)(struct game *g, int sign);
};

static int cell(const struct game *g, int x, int y) { return grid_index(g->grid, x, y); }

/* The crowd knob set as the AI sets it (ai.c, crowd_fill): its value on
 * every alive monster's cell. */
static void crowd_set(struct game *g, int value)
{
	g->ai.crowd_value = value;
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive)
			g->ai.crowd[cell(g, g->monsters[i].x, g->monsters[i].y)] = (uint16_t)value;
}

#define CHANGE(field_name, stmt)                                                                             \
	static void change_##field_name(struct game *g, int sign) { (void)sign; stmt; }
CHANGE(player_damage, g->player.damage += sign)
CHANGE(player_regen, g->player.regen += sign)
CHANGE(sight_radius, g->sight_radius += sign)
CHANGE(last_hurt_turn, g->last_hurt_turn += sign)
CHANGE(level_serial, g->level_serial += sign)
CHANGE(seed, g->seed += (uint64_t)(int64_t)sign)
CHANGE(killer, g->killer[0] = sign > 0 ? 'x' : '\0')
CHANGE(travel_goal, g->travel.goal_x += sign)
CHANGE(travel_stopped, g->travel.stopped = (enum travel_stop)((int)g->travel.stopped + sign))
CHANGE(travel_partial, g->travel.partial = sign > 0)
CHANGE(message_turn, g->messages[0].turn += sign)
CHANGE(message_stamp, g->message_stamp += (unsigned)sign)
CHANGE(monster_memory, g->monsters[0].mind.memory_left += sign)
CHANGE(monster_repath, g->monsters[0].mind.next_repath += sign)
CHANGE(monster_commit, g->monsters[0].mind.commit_until += sign)
CHANGE(monster_seen, g->monsters[0].seen = !g->monsters[0].seen)
CHANGE(monster_dist, g->monster_dist[0] += sign)
CHANGE(noticed, g->noticed[0] = (uint8_t)!g->noticed[0])
CHANGE(tile, g->tiles[cell(g, 2, 2)] = (uint8_t)(sign > 0 ? TILE_RUBBLE : TILE_FLOOR))
CHANGE(visible, g->visible[cell(g, 8, 1)] = (uint8_t)!g->visible[cell(g, 8, 1)])
CHANGE(known, g->known[cell(g, 8, 1)] = (uint8_t)(g->known[cell(g, 8, 1)] + sign))
CHANGE(opaque, g->opaque[cell(g, 2, 2)] = (uint8_t)!g->opaque[cell(g, 2, 2)])
CHANGE(known_version, g->known_version += (unsigned)sign)
CHANGE(ai_due, g->ai.due += sign)
CHANGE(crowd_value, crowd_set(g, g->ai.crowd_value + sign))
CHANGE(scent, g->scent[cell(g, 8, 1)] += sign)
CHANGE(noise_cell, g->noise_cell = sign > 0 ? cell(g, 2, 1) : -1)
CHANGE(noise_turn, g->noise_turn += sign)
CHANGE(noise_loud, g->noise_loud += sign)
CHANGE(monster_asleep, g->monsters[0].mind.asleep = !g->monsters[0].mind.asleep)
CHANGE(monster_wander, g->monsters[0].mind.wander = sign > 0 ? cell(g, 2, 1) : -1)
CHANGE(monster_tracking, g->monsters[0].mind.tracking = !g->monsters[0].mind.tracking)
CHANGE(monster_trail, g->monsters[0].mind.trail += sign)
CHANGE(player_xp, g->player.xp += sign)
CHANGE(player_xlevel, g->player.xlevel += sign)
CHANGE(player_hit_bonus, g->player.hit_bonus += sign)
CHANGE(player_damage_bonus, g->player.damage_bonus += sign)
CHANGE(player_armour, g->player.armour += sign)
CHANGE(combat_rng, g->combat.s[0] += (uint64_t)(int64_t)sign)
CHANGE(arrive_rng, g->arrive.s[1] += (uint64_t)(int64_t)sign)
CHANGE(level_turn, g->level_turn += sign)

static const struct change changes[] = {
#define C(n) { #n, change_##n }
	C(player_damage), C(player_regen), C(sight_radius), C(last_hurt_turn), C(level_serial),
	C(seed), C(killer), C(travel_goal), C(travel_stopped), C(travel_partial), C(message_turn), C(message_stamp),
	C(monster_memory), C(monster_repath), C(monster_commit), C(monster_seen), C(monster_dist),
	C(noticed), C(tile), C(visible), C(known), C(opaque), C(known_version), C(ai_due), C(crowd_value),
	C(scent), C(noise_cell), C(noise_turn), C(noise_loud), C(monster_asleep), C(monster_wander),
	C(monster_tracking), C(monster_trail), C(player_xp), C(player_xlevel), C(player_hit_bonus),
	C(player_damage_bonus), C(player_armour), C(combat_rng), C(arrive_rng), C(level_turn),
#undef C
};

/* A game a few turns in, with a monster that has a mind to change. */
static struct game *played(struct fixture *f)
{
	struct game *g = fixture_game(f, "square8", MAP, 5);
	for (int i = 0; i < 3; i++)
		act_move(g, GRID_E);
	assert_true(g->n_monsters >= 1);
	return g;
}

static void test_every_field_in_hash(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = played(&f);
	uint64_t h0 = game_hash(g);
	assert_true(game_hash(g) == h0);
	for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
		changes[i].apply(g, +1);
		game_maps_written(g);
		if (game_hash(g) == h0)
			fail_msg("a change of %s leaves the hash as it was", changes[i].name);
		changes[i].apply(g, -1);
		game_maps_written(g);
		if (game_hash(g) != h0)
			fail_msg("undoing a change of %s does not give the hash back", changes[i].name);
	}
	fixture_fini(&f);
}

/* Each changed field is saved and loaded: a fresh game of the same level
 * loads the bytes, hashes as the changed game, and saves the same bytes. */
static void test_every_field_saved_and_loaded(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = played(&f);
	for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
		changes[i].apply(g, +1);
		game_maps_written(g);
		void *bytes = NULL, *again = NULL;
		size_t len = 0, len2 = 0;
		assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
		struct game *h = game_create(f.levels, f.n, &f.b, 99);
		assert_non_null(h);
		char err[256] = "";
		if (!game_state_load(h, bytes, len, err, sizeof err))
			fail_msg("%s: the state does not load: %s", changes[i].name, err);
		if (game_hash(h) != game_hash(g))
			fail_msg("%s: the loaded game hashes otherwise", changes[i].name);
		assert_int_equal(game_state_save(h, &again, &len2), GAME_STATE_OK);
		assert_int_equal(len, len2);
		assert_memory_equal(bytes, again, len);
		free(bytes);
		free(again);
		game_destroy(h);
		changes[i].apply(g, -1);
		game_maps_written(g);
	}
	fixture_fini(&f);
}

/* A state saved under other rules: refused, both versions named. */
static void test_state_of_other_rules_refused(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = played(&f);
	void *bytes = NULL;
	size_t len = 0;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	assert_true(len > 16);
	uint8_t *b = bytes;
	assert_int_equal(b[8], GAME_RULES); /* after the magic, little-endian */
	b[8] = 1;
	struct game *h = game_create(f.levels, f.n, &f.b, 99);
	char err[256] = "", want[128];
	assert_false(game_state_load(h, bytes, len, err, sizeof err));
	snprintf(want, sizeof want, "rules version 1; this program plays version %d", GAME_RULES);
	if (!strstr(err, want))
		fail_msg("message \"%s\" does not name both versions", err);
	game_destroy(h);
	free(bytes);
	fixture_fini(&f);
}

/* Journals of older rules: the golden journal as it was before version 2
 * (rules 1) and the campaign and hex journals of the hunt (rules 3, the
 * version before growth, combat rolls and arrivals): read, their version
 * told, and refused by journal_start with both versions named.  A journal
 * written now records this version. */
static void test_journal_of_other_rules_refused(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		int rules;
	} old[] = {
		{ "tests/golden/rules1/hex-options.jnl", 1 },
		{ "tests/golden/rules3/hex-options.jnl", 3 },
		{ "tests/golden/rules3/campaign.jnl", 3 },
	};
	for (size_t i = 0; i < sizeof old / sizeof old[0]; i++) {
		struct journal_data d;
		char err[1200] = "", want[160];
		assert_true(journal_read_file(old[i].path, &d, err, sizeof err));
		assert_int_equal(d.rules, old[i].rules);
		assert_false(journal_rules_match(&d, err, sizeof err));
		struct journal_game jg;
		assert_false(journal_start(&d, &jg, err, sizeof err));
		snprintf(want, sizeof want, "rules version %d (astray test) and this astray plays rules version %d",
			 old[i].rules, GAME_RULES);
		if (!strstr(err, want))
			fail_msg("%s: message \"%s\" does not name both versions", old[i].path, err);
		journal_data_fini(&d);
	}

	struct journal_data d;
	char err[1200] = "";
	assert_true(journal_read_file("tests/golden/journal/hex-options.jnl", &d, err, sizeof err));
	assert_int_equal(d.rules, GAME_RULES);
	assert_true(journal_rules_match(&d, err, sizeof err));
	journal_data_fini(&d);
}

/* A w x h room of floor with pillars, the player in a corner, a few
 * monsters and the exit far away (malloc'ed text). */
static char *big_map(int w, int h)
{
	char *m = malloc((size_t)(w + 1) * (size_t)h + 1);
	assert_non_null(m);
	char *p = m;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			char c = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : (x % 7 == 3 && y % 5 == 2) ? '#' : '.';
			if (x == 2 && y == 2)
				c = '@';
			else if (x == w - 2 && y == h - 2)
				c = '>';
			else if (c == '.' && x % 61 == 30 && y % 43 == 21)
				c = 's';
			*p++ = c;
		}
		*p++ = '\n';
	}
	*p = '\0';
	return m;
}

/*
 * On a large level the hash and the snapshot cost what play changed: a
 * snapshot after a few dozen actions holds the blocks written since the
 * level began, far less than a byte a cell (every per-cell map whole took
 * 30 bytes a cell before); and it loads onto a fresh game, a game that has
 * played on, and a game of another seed, each hashing as the saved one.
 * Every hash in the test build also checks its cached blocks against the
 * cells (game_state.c), so a write the rules did not mark fails here.
 */
/* The box of the cells set in visible[], found by reading every cell (as
 * game.c's fov_box: {1, 1, 0, 0} when none is set). */
static void visible_box_read(const struct game *g, int box[4])
{
	box[0] = box[1] = 1;
	box[2] = box[3] = 0;
	for (int y = 0; y < g->grid->h; y++)
		for (int x = 0; x < g->grid->w; x++) {
			if (!g->visible[(size_t)y * (size_t)g->grid->w + (size_t)x])
				continue;
			if (box[0] > box[2]) {
				box[0] = box[2] = x;
				box[1] = box[3] = y;
			}
			box[0] = x < box[0] ? x : box[0];
			box[2] = x > box[2] ? x : box[2];
			box[1] = y < box[1] ? y : box[1];
			box[3] = y > box[3] ? y : box[3];
		}
}

/* A load finds the box of what is visible from the blocks it laid alone
 * (game_state.c, visible_box): the box every cell gives. */
static void assert_visible_box(const struct game *g)
{
	int box[4];
	visible_box_read(g, box);
	assert_true(box[0] <= box[2]); /* something is in view */
	assert_memory_equal(g->fov_box, box, sizeof box);
}

static void test_large_level_state_is_a_delta(void **state)
{
	(void)state;
	const int w = 600, h = 400;
	char *map = big_map(w, h);
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 5);
	uint64_t h0 = game_hash(g);
	for (int i = 0; i < 40; i++) {
		act_move(g, i % 3 == 0 ? GRID_S : GRID_E);
		if (i % 8 == 0)
			assert_true(game_hash(g) != h0);
	}
	void *bytes = NULL;
	size_t len = 0;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	if (len > (size_t)w * (size_t)h)
		fail_msg("a state of %zu bytes for %d cells: the maps are saved whole", len, w * h);
	char err[256] = "";
	/* a fresh game of the same seed */
	struct game *a = game_create(f.levels, f.n, &f.b, 5);
	assert_true(game_state_load(a, bytes, len, err, sizeof err));
	assert_true(game_hash(a) == game_hash(g));
	/* a game that played on: taken back to the level's start first */
	struct game *b = game_create(f.levels, f.n, &f.b, 5);
	for (int i = 0; i < 12; i++)
		act_move(b, GRID_SE);
	assert_true(game_state_load(b, bytes, len, err, sizeof err));
	assert_true(game_hash(b) == game_hash(g));
	/* another seed: the level begins otherwise, so it is made again */
	struct game *c = game_create(f.levels, f.n, &f.b, 77);
	assert_true(game_state_load(c, bytes, len, err, sizeof err));
	assert_true(game_hash(c) == game_hash(g));
	assert_visible_box(a);
	assert_visible_box(b);
	assert_visible_box(c);
	/* all three play on alike */
	for (int i = 0; i < 20; i++) {
		act_move(g, GRID_E);
		act_move(a, GRID_E);
		act_move(b, GRID_E);
		act_move(c, GRID_E);
	}
	assert_true(game_hash(a) == game_hash(g));
	assert_true(game_hash(b) == game_hash(g));
	assert_true(game_hash(c) == game_hash(g));
	game_destroy(a);
	game_destroy(b);
	game_destroy(c);
	free(bytes);
	free(map);
	fixture_fini(&f);
}

/* The copy's bytes (game_state_copy_save_into) against game_state_save's
 * of g now; returns the copy's bytes (caller frees). */
static void *copy_bytes(const struct game_state_copy *c, size_t *len)
{
	void *buf = NULL;
	size_t cap = 0;
	assert_int_equal(game_state_copy_save_into(c, 0, &buf, &cap, len), GAME_STATE_OK);
	return buf;
}

/*
 * A snapshot written in the background saves a copy taken on the key
 * (game_state_capture): its bytes are game_state_save's of the game as it
 * was then, byte for byte, however the game plays on before the copy is
 * saved (the copy shares nothing the game writes), and the copy's
 * buffers, kept from one capture to the next, leave nothing of the one
 * before.  The copy hashes as game_hash did the game at the capture
 * (game_state_copy_hash: the checksum of a snapshot key, taken on the
 * writer's thread).  On a level of many blocks (only the touched ones are
 * copied) and on the small one with every field of the table changed.
 */
static void test_copy_saves_the_same_bytes(void **state)
{
	(void)state;
	const int w = 600, h = 400;
	char *map = big_map(w, h);
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 5);
	struct game_state_copy *c = game_state_copy_new();
	assert_non_null(c);
	for (int round = 0; round < 6; round++) {
		void *want = NULL;
		size_t want_len = 0, got_len = 0;
		assert_int_equal(game_state_save(g, &want, &want_len), GAME_STATE_OK);
		assert_int_equal(game_state_capture(g, c), GAME_STATE_OK);
		assert_int_equal(game_state_copy_turn(c), g->turn);
		const uint64_t want_hash = game_hash(g);
		/* the game plays on before the copy is saved and hashed */
		for (int i = 0; i < 9; i++)
			act_move(g, (round + i) % 3 == 0 ? GRID_S : GRID_E);
		assert_true(game_hash(g) != want_hash);
		assert_true(game_state_copy_hash(c) == want_hash);
		void *got = copy_bytes(c, &got_len);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
		free(got);
		free(want);
	}
	game_state_copy_free(c);
	free(map);
	fixture_fini(&f);

	g = played(&f);
	c = game_state_copy_new();
	assert_non_null(c);
	for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
		changes[i].apply(g, +1);
		game_maps_written(g);
		void *want = NULL;
		size_t want_len = 0, got_len = 0;
		assert_int_equal(game_state_save(g, &want, &want_len), GAME_STATE_OK);
		/* the hash taken before the capture in half the cases, after it
		 * in the others: the capture leaves the game's own hash as it was */
		const uint64_t before = i % 2 ? game_hash(g) : 0;
		assert_int_equal(game_state_capture(g, c), GAME_STATE_OK);
		const uint64_t want_hash = i % 2 ? before : game_hash(g);
		assert_true(game_hash(g) == want_hash);
		changes[i].apply(g, -1);
		game_maps_written(g);
		if (game_state_copy_hash(c) != want_hash)
			fail_msg("%s: the copy hashes otherwise", changes[i].name);
		void *got = copy_bytes(c, &got_len);
		if (got_len != want_len || memcmp(got, want, want_len) != 0)
			fail_msg("%s: the copy saves other bytes", changes[i].name);
		free(got);
		free(want);
	}
	game_state_copy_free(c);
	fixture_fini(&f);
}

static int bits_set(const uint64_t *bits, int blocks)
{
	int n = 0;
	for (int b = 0; b < blocks; b++)
		n += cellmark_bit(bits, b);
	return n;
}

/*
 * The first hash of a game made or loaded reads only the blocks the level
 * or the load wrote (issue 33, resume): the maps game_level_load fills
 * with one value (nothing seen, remembered or smelled, nothing open, no
 * hazard, all assumed open floor) have their other blocks' hashes from
 * that value, and a loaded state marks the blocks it lays and no others.
 * The test build's hash checks every such hash against the block's
 * cells, so a wrong value or a block the level wrote unmarked fails here.
 */
static void test_first_hash_reads_what_changed(void **state)
{
	(void)state;
	const int w = 600, h = 400;
	char *map = big_map(w, h);
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 5);
	struct game *a = game_create(f.levels, f.n, &f.b, 5); /* not hashed yet */
	static const enum game_map uniform[] = { MAP_HAZARD, MAP_OPEN, MAP_VISIBLE, MAP_REMEMBERED, MAP_KNOWN, MAP_SCENT };
	for (size_t k = 0; k < sizeof uniform / sizeof uniform[0]; k++) {
		const struct cellmark *m = &a->marks[uniform[k]];
		assert_true(m->blocks > 200);
		/* only the blocks the first sight and the scent wrote */
		if (bits_set(m->dirty, m->blocks) > bits_set(m->touched, m->blocks))
			fail_msg("map %d: %d of %d blocks to hash, %d written", (int)uniform[k],
				 bits_set(m->dirty, m->blocks), m->blocks, bits_set(m->touched, m->blocks));
	}
	uint64_t h0 = game_hash(g);
	for (int i = 0; i < 30; i++)
		act_move(g, i % 3 == 0 ? GRID_S : GRID_E);
	void *bytes = NULL;
	size_t len = 0;
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	char err[256] = "";
	assert_true(game_hash(a) == h0);
	assert_true(game_state_load(a, bytes, len, err, sizeof err));
	for (size_t k = 0; k < sizeof uniform / sizeof uniform[0]; k++) {
		const struct cellmark *m = &a->marks[uniform[k]];
		if (bits_set(m->dirty, m->blocks) > bits_set(m->touched, m->blocks))
			fail_msg("map %d after a load: %d of %d blocks to hash, %d laid", (int)uniform[k],
				 bits_set(m->dirty, m->blocks), m->blocks, bits_set(m->touched, m->blocks));
	}
	assert_true(game_hash(a) == game_hash(g));
	for (int i = 0; i < 10; i++) {
		act_move(g, GRID_E);
		act_move(a, GRID_E);
	}
	assert_true(game_hash(a) == game_hash(g));
	game_destroy(a);
	free(bytes);
	free(map);
	fixture_fini(&f);
}

/* The per-cell maps a game makes only when first used (issue 33): none
 * of them exists on a level of over 2^20 cells where nothing used it. */
static void assert_lazy(const struct game *g)
{
	assert_null(g->reach.ctx);          /* the player's distance map: travel previews */
	assert_null(g->travel.cells);       /* a travel route */
	assert_int_equal(g->travel.room, 0);
	assert_false(mind_stairs_ready(g->ai.stairs)); /* the way to the stairs: pack and ambush minds */
	assert_true(g->ai.share_need > AI_SHARE_MIN);   /* a large level, where ... */
	assert_null(g->ai.near);                         /* ... the near flood serves a goal that moved */
}

/*
 * The travel route, the player's distance map, the way to the stairs and
 * the AI's near flood are made at their first use, not with the level: a game on a large
 * level that walks, saves and loads never makes them; travel makes the
 * route only as long as it is, and a state with a route loads it.
 */
static void test_maps_made_when_first_used(void **state)
{
	(void)state;
	const int w = 1100, h = 1000; /* over 2^20 cells: the near flood is lazy there */
	char *map = big_map(w, h);
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 5);
	assert_lazy(g);
	for (int i = 0; i < 30; i++)
		act_move(g, i % 3 == 0 ? GRID_S : GRID_E);
	assert_lazy(g);
	void *bytes = NULL;
	size_t len = 0;
	char err[256] = "";
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	struct game *a = game_create(f.levels, f.n, &f.b, 5);
	assert_true(game_state_load(a, bytes, len, err, sizeof err));
	assert_lazy(a);
	free(bytes);
	/* travel: the route is as long as it needs, far less than the level */
	assert_int_equal(act_travel(g, 40, 12), RESULT_ACTED);
	assert_non_null(g->reach.ctx);
	assert_non_null(g->travel.cells);
	assert_true(g->travel.len > 1);
	assert_true(g->travel.room >= g->travel.len);
	if (g->travel.room > 1024)
		fail_msg("a route of %d cells took room for %d", g->travel.len, g->travel.room);
	/* a state in mid-travel loads onto a game that has no route yet */
	assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
	struct game *b = game_create(f.levels, f.n, &f.b, 5);
	assert_true(game_state_load(b, bytes, len, err, sizeof err));
	assert_true(game_hash(b) == game_hash(g));
	assert_true(b->travel.len == g->travel.len && b->travel.room >= b->travel.len);
	for (int i = 0; i < 5; i++) {
		act_travel_step(g);
		act_travel_step(b);
	}
	assert_true(game_hash(b) == game_hash(g));
	free(bytes);
	game_destroy(a);
	game_destroy(b);
	free(map);
	fixture_fini(&f);
}

/*
 * A loaded state's grid and AI regions are made from what the state
 * changed on the level as it began (game_grid_from_tiles): the costs of
 * every cell as the saved game's (dug rubble, a wall, caltrops), the
 * passability bits with them, and the regions those of the loaded grid
 * as the reference flood labels them (a closed cell splits a region
 * here); with nothing changed, the level's own labels.
 */
static void test_grid_and_regions_after_load(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = played(&f);
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	int *ref = malloc(n * sizeof *ref);
	assert_non_null(ref);
	for (int k = 0; k < 2; k++) {
		if (k == 1) {
			game_tile_set(g, cell(g, 3, 2), TILE_RUBBLE); /* dug */
			game_tile_set(g, cell(g, 4, 4), TILE_WALL);   /* (4, 3) cut off */
			g->hazard[cell(g, 7, 1)] = 3;                 /* caltrops */
			game_maps_written(g);
			grid_set_cost(g->grid, cell(g, 7, 1), (uint8_t)(g->grid->cost[cell(g, 7, 1)] + 3));
		}
		void *bytes = NULL;
		size_t len = 0;
		char err[256] = "";
		assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
		struct game *h = game_create(f.levels, f.n, &f.b, 99);
		assert_non_null(h);
		assert_true(game_state_load(h, bytes, len, err, sizeof err));
		assert_memory_equal(h->grid->cost, g->grid->cost, n);
		assert_memory_equal(h->grid->rows, g->grid->rows,
				    (size_t)g->grid->h * (size_t)g->grid->row_words * sizeof *g->grid->rows);
		assert_memory_equal(h->grid->cols, g->grid->cols,
				    (size_t)g->grid->w * (size_t)g->grid->col_words * sizeof *g->grid->cols);
		const int regions = level_grid_regions_flood(h->grid, ref);
		assert_int_equal(h->ai.regions, regions);
		assert_memory_equal(h->ai.region, ref, n * sizeof *ref);
		if (k == 1) {
			assert_int_equal(h->grid->cost[cell(g, 3, 2)], tile_info(TILE_RUBBLE)->cost);
			assert_true(ref[cell(g, 4, 3)] >= 0 && ref[cell(g, 4, 3)] != ref[cell(g, 1, 1)]);
		}
		free(bytes);
		game_destroy(h);
	}
	free(ref);
	fixture_fini(&f);
}

/*
 * The occupant map is not a field (rules 7): it is the monsters' places.
 * A loaded game has the saved one's map cell for cell, made from its
 * monsters; a state whose monsters share a cell, or stand on the player,
 * is refused rather than loaded into a map that would hold one of them.
 */
static void test_occupants_made_from_the_monsters(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = played(&f);
	assert_true(g->n_monsters >= 2);
	size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	void *bytes = NULL;
	size_t len = 0;
	char err[256] = "";
	const int knob = g->ai.crowd_value;
	for (int value = 0; value <= 7; value += 7) { /* the crowd costs too, with the knob at 0 and 7 */
		crowd_set(g, value);
		assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
		struct game *h = game_create(f.levels, f.n, &f.b, 99);
		assert_non_null(h);
		assert_true(game_state_load(h, bytes, len, err, sizeof err));
		assert_memory_equal(h->occupant, g->occupant, n * sizeof *g->occupant);
		assert_memory_equal(h->ai.crowd, g->ai.crowd, n * sizeof *g->ai.crowd);
		assert_int_equal(game_hash(h), game_hash(g));
		free(bytes);
		game_destroy(h);
	}
	crowd_set(g, knob);
	struct game *h;

	/* monster 1 saved on monster 0's cell; then on the player's */
	struct monster *m = &g->monsters[1];
	int x = m->x, y = m->y;
	const int at[2][2] = { { g->monsters[0].x, g->monsters[0].y }, { g->player.x, g->player.y } };
	for (int k = 0; k < 2; k++) {
		m->x = at[k][0];
		m->y = at[k][1];
		assert_int_equal(game_state_save(g, &bytes, &len), GAME_STATE_OK);
		h = game_create(f.levels, f.n, &f.b, 99);
		assert_non_null(h);
		err[0] = '\0';
		if (game_state_load(h, bytes, len, err, sizeof err))
			fail_msg("a state with monster 1 on %s's cell loads", k ? "the player" : "monster 0");
		assert_non_null(strstr(err, "malformed"));
		free(bytes);
		game_destroy(h);
	}
	m->x = x;
	m->y = y;
	fixture_fini(&f);
}

/*
 * cellmark_next_touched walks the touched blocks as a test of every bit
 * does: on a map of 300 blocks (five words of bits, the last one partly
 * used) with no block, one, the first and last of each word, and random
 * sets of blocks touched.
 */
static void test_next_touched_block(void **state)
{
	(void)state;
	enum { BLOCKS = 300 };
	struct cellmark m;
	assert_true(cellmark_init(&m, (size_t)BLOCKS * CELLMARK_BLOCK - 5));
	assert_int_equal(m.blocks, BLOCKS);
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	for (int round = 0; round < 40; round++) {
		cellmark_begin(&m);
		if (round == 1)
			cellmark_set(&m, 0);
		else if (round == 2)
			cellmark_set(&m, (BLOCKS - 1) * CELLMARK_BLOCK);
		else if (round == 3)
			for (int b = 0; b < BLOCKS; b += 64) {
				cellmark_set(&m, b * CELLMARK_BLOCK);
				if (b + 63 < BLOCKS)
					cellmark_set(&m, (b + 63) * CELLMARK_BLOCK + 7);
			}
		else if (round > 3)
			for (int k = 0; k < round; k++) {
				seed ^= seed << 13;
				seed ^= seed >> 7;
				seed ^= seed << 17;
				cellmark_set(&m, (int)(seed % ((uint64_t)BLOCKS * CELLMARK_BLOCK - 5)));
			}
		int want = 0, got = cellmark_next_touched(&m, 0);
		for (;;) {
			while (want < BLOCKS && !cellmark_bit(m.touched, want))
				want++;
			assert_int_equal(got, want);
			if (want == BLOCKS)
				break;
			want++;
			got = cellmark_next_touched(&m, got + 1);
		}
	}
	cellmark_fini(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_in_hash),
		cmocka_unit_test(test_every_field_saved_and_loaded),
		cmocka_unit_test(test_state_of_other_rules_refused),
		cmocka_unit_test(test_journal_of_other_rules_refused),
		cmocka_unit_test(test_large_level_state_is_a_delta),
		cmocka_unit_test(test_copy_saves_the_same_bytes),
		cmocka_unit_test(test_first_hash_reads_what_changed),
		cmocka_unit_test(test_grid_and_regions_after_load),
		cmocka_unit_test(test_maps_made_when_first_used),
		cmocka_unit_test(test_occupants_made_from_the_monsters),
		cmocka_unit_test(test_next_touched_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
