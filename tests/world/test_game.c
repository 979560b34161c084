/*
 * test_game.c - the rules without a terminal: energy and turn order,
 * combat, potions, gold, doors, stairs and winning, death, travel through
 * the fallback (cut points, monsters coming into view, getting hurt), hex
 * directions, determinism, and the invariants the test build checks (a
 * broken state aborts the next game_act).  Levels and the bestiary come
 * from strings.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_game_fixture.h"

#include "fov.h"
#include "game_internal.h"
#include "path.h"
#include "textfile.h"

static int dist4(int ax, int ay, int bx, int by) { return abs(ax - bx) + abs(ay - by); }

/* Whether a living monster the player sees stands next to the player. */
static bool visible_adjacent(const struct game *g)
{
	int pc = grid_index(g->grid, g->player.x, g->player.y);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (m->alive && m->seen && grid_is_adjacent(g->grid, pc, grid_index(g->grid, m->x, m->y)))
			return true;
	}
	return false;
}

/* The player remembers the whole level (for tests about the true map). */
static void reveal_all(struct game *g)
{
	int n = g->grid->w * g->grid->h;
	for (int i = 0; i < n; i++) {
		g->remembered[i] = 1;
		g->known[i] = g->grid->cost[i];
	}
	game_maps_written(g); /* written by hand: hashed and saved again */
	g->known_version++;
}

/* Speed 200 moves twice a turn, speed 50 every other turn; rubble and
 * water make the player's move last 2 and 3 turns. */
/* A description longer than one message is said whole, over several
 * messages split at spaces (two campaign levels lost their hints' ends). */
static void test_long_description_said_whole(void **state)
{
	(void)state;
	struct fixture f;
	memset(&f, 0, sizeof f);
	fixture_bestiary(&f.b, fixture_kinds);
	f.lv[0] = fixture_level("square4", "#####\n#@.>#\n#####", &f.b);
	assert_non_null(f.lv[0]);
	char desc[700] = "";
	for (int i = 0; strlen(desc) < 600; i++) {
		char word[32];
		snprintf(word, sizeof word, "%sword%d", i ? " " : "", i);
		strcat(desc, word);
	}
	strcat(desc, " end.");
	free(f.lv[0]->description);
	f.lv[0]->description = strdup(desc);
	f.levels[0] = f.lv[0];
	f.g = game_create(f.levels, 1, &f.b, 1);
	assert_non_null(f.g);
	char said[1400] = "";
	int n = 0;
	for (int i = GAME_MESSAGES - 1; i >= 0; i--) {
		const struct message *m = game_message(f.g, i);
		if (!m || strncmp(m->text, "word", 4) != 0)
			continue;
		assert_true(strlen(m->text) < GAME_MESSAGE_LEN);
		if (said[0])
			strcat(said, " ");
		strcat(said, m->text);
		n++;
	}
	assert_true(n >= 4);
	assert_string_equal(said, desc);
	fixture_fini(&f);
}

static void test_energy_and_turn_order(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square4",
				      "################\n"
				      "#@.............#\n"
				      "#,~............#\n"
				      "#s............b#\n"
				      "###############>\n", 1);
	struct monster *slug = game_monster_at(g, 1, 3), *bat = game_monster_at(g, 14, 3);
	assert_non_null(slug);
	assert_non_null(bat);
	int bat0 = dist4(bat->x, bat->y, 1, 1);
	assert_int_equal(act_wait(g), RESULT_ACTED);
	assert_int_equal(g->turn, 1);
	assert_int_equal(dist4(bat->x, bat->y, 1, 1), bat0 - 2);
	assert_int_equal(slug->y, 3); /* energy 50: not yet */
	assert_int_equal(act_wait(g), RESULT_ACTED);
	assert_int_equal(g->turn, 2);
	assert_int_equal(dist4(slug->x, slug->y, 1, 1), 1); /* moved once, now adjacent */
	assert_int_equal(dist4(bat->x, bat->y, 1, 1), bat0 - 4);
	fixture_fini(&f);

	/* rubble costs two turns, water three: a speed-100 goblin moves that often */
	g = fixture_game(&f, "square4",
			 "##################\n"
			 "#@,~............g#\n"
			 "#################>\n", 1);
	struct monster *gob = game_monster_at(g, 16, 1);
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	assert_int_equal(g->turn, 2);
	assert_int_equal(gob->x, 14);
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	assert_int_equal(g->turn, 5);
	assert_int_equal(gob->x, 11);
	/* a move with no meaning takes no time */
	assert_int_equal(act_move(g, GRID_NE), RESULT_NOTHING);
	assert_int_equal(act_move(g, GRID_N), RESULT_NOTHING);
	assert_int_equal(g->turn, 5);
	fixture_fini(&f);
}

static void test_combat(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "#######\n"
				      "#@d...#\n"
				      "#.....#\n"
				      "######>\n", 7);
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	assert_int_equal(g->player.kills, 1);
	assert_null(game_monster_at(g, 2, 1));
	assert_true(message_contains(g, "You kill the dummy"));
	assert_int_equal(g->player.x, 1); /* a bump attacks, it does not move */
	fixture_fini(&f);

	g = fixture_game(&f, "square8",
			 "#######\n"
			 "#@g...#\n"
			 "#.....#\n"
			 "######>\n", 7);
	struct monster *gob = game_monster_at(g, 2, 1);
	assert_int_equal(act_wait(g), RESULT_ACTED);
	int lost = PLAYER_HP - g->player.hp;
	assert_true(lost >= 1 && lost <= 2); /* damage 2: 1..2 */
	assert_int_equal(g->damage_taken, lost);
	assert_true(message_contains(g, "The goblin hits you"));
	assert_int_equal(g->first_contact_turn, 1);
	int hits = 0;
	while (gob->alive && hits < 20) {
		act_move(g, GRID_E);
		hits++;
	}
	assert_false(gob->alive);
	assert_true(hits >= 2 && hits <= 3); /* 6 hp, player damage 2..4 */
	assert_int_equal(g->occupant[grid_index(g->grid, 2, 1)], -1);
	fixture_fini(&f);
}

static void test_potions_and_gold(void **state)
{
	(void)state;
	struct fixture f;
	/* only potions of healing: the '!' is one */
	static const char *const sets[] = { "vigour.freq=0", "sleep.freq=0", "poison.freq=0", NULL };
	struct game *g = fixture_game_set(&f, "square4",
					  "#######\n"
					  "#@!$..#\n"
					  "######>\n", 3, sets);
	int potion = grid_index(g->grid, 2, 1);
	struct action quaff = { .kind = ACT_QUAFF };
	assert_int_equal(game_act(g, &quaff), RESULT_NOTHING);
	assert_true(message_contains(g, "You have no potions"));
	act_move(g, GRID_E);
	assert_int_equal(g->player.hp, PLAYER_HP);
	assert_int_equal(g->items[potion], 0); /* into the pack, not drunk */
	assert_int_equal(g->player.potions, 1);
	assert_true(message_contains(g, "(q quaffs)"));
	int t = g->turn;
	assert_int_equal(game_act(g, &quaff), RESULT_NOTHING); /* unhurt: kept, no time */
	assert_int_equal(g->turn, t);
	assert_int_equal(g->player.potions, 1);
	g->player.hp = 5;
	assert_int_equal(game_act(g, &quaff), RESULT_ACTED);
	assert_int_equal(g->player.hp, 5 + POTION_HEAL);
	assert_int_equal(g->player.potions, 0);
	assert_int_equal(g->player.potions_drunk, 1);
	assert_true(message_contains(g, "You drink "));
	assert_true(message_contains(g, "It was a potion of healing"));
	act_move(g, GRID_E);
	assert_true(g->player.gold >= 10 && g->player.gold <= 30);
	assert_int_equal(g->items[grid_index(g->grid, 3, 1)], 0);
	assert_true(message_contains(g, "gold"));
	fixture_fini(&f);
}

/*
 * The walls of what is seen are seen (issue 30): standing in an 8x4 room, the player sees and remembers every cell of the room's
 * wall at once, on every grid (before, the top wall showed one cell a
 * step), and travel plans over it: the wall is known.  A monster in the
 * room and the player see each other (clear cells keep the line rule).
 */
/* Square rows as hex text: cells two columns apart, odd rows half a cell
 * to the right.  Returns malloc'ed text. */
static char *hex_text(const char *square)
{
	char *out = malloc(strlen(square) * 2 + 64), *o = out;
	assert_non_null(out);
	int row = 0;
	bool start = true;
	for (const char *p = square; *p; p++) {
		if (*p == '\n') {
			*o++ = '\n';
			row++;
			start = true;
			continue;
		}
		if (start && (row & 1))
			*o++ = ' ';
		else if (!start)
			*o++ = ' ';
		start = false;
		*o++ = *p;
	}
	*o = 0;
	return out;
}

/* Whether cell c touches a floor cell on the screen (one step of the
 * eight-way grid; six neighbours on hex). */
static bool touches_floor(const struct game *g, int c)
{
	enum grid_topology t = g->grid->topo;
	enum grid_topology tt = t == GRID_SQUARE4 ? GRID_SQUARE8 : t == GRID_DIAMOND4 ? GRID_DIAMOND8 : t;
	struct grid *touch = grid_create(g->grid->w, g->grid->h, tt);
	bool yes = false;
	for (int d = 0; d < g->grid->w * g->grid->h && !yes; d++)
		yes = g->tiles[d] == TILE_FLOOR && grid_step_distance(touch, c, d) == 1;
	grid_destroy(touch);
	return yes;
}

static void test_room_wall_seen_at_once(void **state)
{
	(void)state;
	static const char room[] = "##########\n"
				   "#........#\n"
				   "#...@....#\n"
				   "#........#\n"
				   "#.......g#\n"
				   "#########>\n";
	static const char *const topos[] = { "square8", "square4", "hex", "diamond8", "diamond4" };
	for (int t = 0; t < 5; t++) {
		bool diamond = t >= 3;
		char *text = diamond ? fixture_square_to_diamond(room) : t == 2 ? hex_text(room) : NULL;
		struct fixture f;
		struct game *g = fixture_game(&f, topos[t], text ? text : room, 3);
		int seen_walls = 0;
		for (int v = 0; v < 6; v++)
			for (int u = 0; u < 10; u++) {
				if (u > 0 && u < 9 && v > 0 && v < 5)
					continue; /* the floor */
				if (u == 9 && v == 5)
					continue; /* the stairs: a clear cell, seen or not by the line */
				int x = u, y = v;
				if (diamond)
					fixture_diamond_cell(6, u, v, &x, &y);
				int c = grid_index(g->grid, x, y);
				if (!touches_floor(g, c))
					continue; /* a hex map's corner touches only walls */
				if (!g->visible[c] || !g->remembered[c] || g->known[c] != 0)
					fail_msg("%s: wall (%d,%d) not seen at once", topos[t], u, v);
				seen_walls++;
			}
		assert_true(seen_walls >= 10 * 2 + 4 * 2 - 3);
		struct monster *gob = NULL;
		for (int i = 0; i < g->n_monsters; i++)
			gob = &g->monsters[i];
		assert_non_null(gob);
		bool player_sees = g->visible[grid_index(g->grid, gob->x, gob->y)] != 0;
		bool gob_sees = fov_line_of_sight(g->grid, g->opaque, gob->x, gob->y, g->player.x, g->player.y,
						  g->sight_radius);
		assert_int_equal(player_sees, gob_sees);
		fixture_fini(&f);
		free(text);
	}
}

/* Plurals (issue 30): a win in one turn says "1 turn", not "1 turns";
 * and "There are stairs down here" is said on stepping onto them. */
static void test_win_in_one_turn_singular(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "####\n#@>#\n####\n", 3);
	act_move(g, GRID_E);
	assert_true(message_contains(g, "There are stairs down here"));
	struct action a = { .kind = ACT_DESCEND };
	assert_int_equal(game_act(g, &a), RESULT_WON);
	assert_int_equal(g->turn, 1);
	assert_true(message_contains(g, "in 1 turn!"));
	assert_false(message_contains(g, "1 turns"));
	fixture_fini(&f);
}

/* A closed door blocks sight (the player's and a monster's) until it is walked into. */
static void test_doors(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "#########\n"
				      "#@.+...g#\n"
				      "########>\n", 3);
	int door = grid_index(g->grid, 3, 1), beyond = grid_index(g->grid, 4, 1);
	struct monster *gob = game_monster_at(g, 7, 1);
	assert_true(g->visible[door]); /* the door itself is seen */
	assert_false(g->visible[beyond]);
	assert_false(gob->seen);
	act_move(g, GRID_E);
	assert_false(gob->mind.hunting); /* it cannot see through the door */
	assert_int_equal(gob->x, 7);
	act_move(g, GRID_E); /* into the door: it opens and the player steps in */
	assert_int_equal(g->player.x, 3);
	assert_true(g->open[door]);
	assert_true(message_contains(g, "You open the door"));
	assert_true(g->visible[beyond]);
	assert_true(gob->seen);
	assert_true(gob->mind.hunting);
	char buf[128];
	game_describe(g, 3, 1, buf, sizeof buf);
	assert_string_equal(buf, "you (30/30 hp, level 1, 0/15 xp, 0 gold)");
	act_move(g, GRID_W);
	game_describe(g, 3, 1, buf, sizeof buf);
	assert_string_equal(buf, "an open door");
	fixture_fini(&f);
}

static void test_exit_and_winning(void **state)
{
	(void)state;
	struct fixture f;
	memset(&f, 0, sizeof f);
	fixture_bestiary(&f.b, fixture_kinds);
	f.lv[0] = fixture_level("square8", "#####\n#@.>#\n#####", &f.b);
	f.lv[1] = fixture_level("hex", "# # # # # #\n # @ . > . #\n# # # # # #", &f.b);
	f.levels[0] = f.lv[0];
	f.levels[1] = f.lv[1];
	f.g = game_create(f.levels, 2, &f.b, 11);
	struct game *g = f.g;
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	g->player.gold = 17;
	/* stepping onto the stairs only says so: '>' takes them */
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	assert_int_equal(g->depth, 0);
	assert_true(message_contains(g, "press > to descend"));
	struct action down = { .kind = ACT_DESCEND };
	assert_int_equal(game_act(g, &down), RESULT_NEW_LEVEL);
	assert_int_equal(g->depth, 1);
	assert_int_equal(g->grid->topo, GRID_HEX);
	assert_int_equal(g->player.x, 1);
	assert_int_equal(g->player.y, 1);
	assert_int_equal(g->player.gold, 17); /* the player carries on */
	assert_true(message_contains(g, "stairs to level 2 of 2"));
	assert_int_equal(act_move(g, GRID_N), RESULT_NOTHING); /* no north on hex */
	assert_true(message_contains(g, "no north on a hex map"));
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	assert_int_equal(act_move(g, GRID_E), RESULT_ACTED);
	g->player.kills = 1;
	assert_int_equal(game_act(g, &down), RESULT_WON);
	assert_true(g->over);
	assert_true(g->won);
	assert_true(message_contains(g, "win"));
	assert_true(message_contains(g, "and 1 kill in")); /* not "1 kills" */
	assert_int_equal(act_wait(g), RESULT_NOTHING); /* over is over */
	fixture_fini(&f);

	/* ACT_DESCEND only on stairs */
	g = fixture_game(&f, "square8", "#####\n#@.>#\n#####", 1);
	struct action d = { .kind = ACT_DESCEND };
	assert_int_equal(game_act(g, &d), RESULT_NOTHING);
	assert_true(message_contains(g, "no stairs here"));
	fixture_fini(&f);
}

static void test_death(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "######\n#@k..#\n#####>", 1);
	assert_int_equal(act_wait(g), RESULT_DIED);
	assert_true(g->over);
	assert_false(g->won);
	assert_int_equal(g->player.hp, 0);
	assert_true(message_contains(g, "You die"));
	assert_int_equal(act_wait(g), RESULT_NOTHING);
	fixture_fini(&f);
}

/* Every step of a chasing monster lies on an optimal route to the player. */
static void test_monster_approaches_optimally(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "############\n"
				      "#@....#....#\n"
				      "#.....#,...#\n"
				      "#..~~~~~~..#\n"
				      "#..~~~~~~.g#\n"
				      "###########>\n", 5);
	g->player.hp = 1000;
	struct path_ctx *ref = path_create(g->grid);
	struct path_options opt = path_options_default();
	int pc = grid_index(g->grid, 1, 1);
	path_flood(ref, pc, &opt, true, 0);
	struct monster *gob = game_monster_at(g, 10, 4);
	assert_true(fov_line_of_sight(g->grid, g->opaque, 10, 4, 1, 1, 20)); /* it sees over the water */
	int at = grid_index(g->grid, gob->x, gob->y);
	double total = path_flood_distance(ref, at);
	int turns = 0;
	while (!grid_is_adjacent(g->grid, at, pc) && turns < 50) {
		act_wait(g);
		turns++;
		int now = grid_index(g->grid, gob->x, gob->y);
		if (now == at)
			continue; /* still paying for a step into water or rubble */
		assert_true(grid_is_adjacent(g->grid, at, now));
		double step = (gob->x != grid_x(g->grid, at) && gob->y != grid_y(g->grid, at)) ? GRID_SQRT2 : 1.0;
		step *= g->grid->cost[now];
		assert_true(fabs(path_flood_distance(ref, at) - (path_flood_distance(ref, now) + step)) < 1e-9);
		at = now;
	}
	assert_true(turns < 50);
	assert_true(total > 8);
	assert_true(g->ai.stats.searches >= 1);
	path_destroy(ref);
	fixture_fini(&f);
}

/* Travel toward a wall through the fallback stops when a monster comes into view. */
static void test_travel_stops_for_monster(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "################\n"
				      "#@.............#\n"
				      "#..............#\n"
				      "#########.######\n"
				      "#.........d....#\n"
				      "###############>\n", 2);
	struct monster *d = game_monster_at(g, 10, 4);
	assert_false(d->seen);
	/* (15,1) is the wall, but the player has not seen it yet */
	assert_int_equal(act_travel(g, 15, 1), RESULT_ACTED);
	assert_false(message_contains(g, "as close as you can"));
	int n = 1;
	while (g->travel.active && n < 100) {
		act_travel_step(g);
		n++;
	}
	assert_int_equal(g->travel.stopped, TRAVEL_MONSTER);
	assert_true(d->seen);
	assert_true(g->player.x < 14);
	assert_true(message_contains(g, "dummy comes into view"));
	/* the dummy is news once: going on from here, it stops nobody again,
	 * and the wall seen on the way makes the walk stop at the cut point (14,1) */
	travel_all(g, 15, 1);
	assert_true(message_contains(g, "as close as you can"));
	assert_int_equal(g->travel.stopped, TRAVEL_ARRIVED);
	assert_int_equal(g->player.x, 14);
	assert_int_equal(g->player.y, 1);
	fixture_fini(&f);
}

/* A click on a wall or into a sealed vault walks to the cut point; a click
 * on the adjacent wall says why nothing happens; a click on the player waits. */
static void test_travel_cut_point(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "##########\n"
				      "#@.......#\n"
				      "#........#\n"
				      "#...######\n"
				      "#...#....#\n"
				      "#...######\n"
				      "#########>\n", 2);
	reveal_all(g);
	struct path_ctx *ref = path_create(g->grid);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	struct path_result r;
	int goal = grid_index(g->grid, 6, 4);
	assert_int_equal(path_find(ref, grid_index(g->grid, 1, 1), goal, &opt, &r), PATH_FALLBACK);
	int cut = r.end;
	/* the cursor's preview: the same walk, and planning it changes nothing */
	{
		uint64_t before = game_hash(g);
		const int *cells;
		int len;
		assert_int_equal(game_travel_plan(g, 6, 4, &cells, &len), PATH_FALLBACK);
		assert_int_equal(len, r.len);
		assert_int_equal(cells[0], grid_index(g->grid, 1, 1));
		assert_int_equal(cells[len - 1], cut);
		assert_true(game_hash(g) == before);
		assert_int_equal(game_travel_plan(g, 3, 4, &cells, &len), PATH_FOUND);
		assert_int_equal(cells[len - 1], grid_index(g->grid, 3, 4));
	}
	travel_all(g, 6, 4);
	assert_int_equal(g->travel.stopped, TRAVEL_ARRIVED);
	assert_int_equal(grid_index(g->grid, g->player.x, g->player.y), cut);
	assert_true(cut != grid_index(g->grid, 1, 1));
	path_destroy(ref);

	/* next to a wall, clicking it: no time passes, a message says why */
	int t = g->turn;
	int px = g->player.x, py = g->player.y;
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_adjacent(g->grid, grid_index(g->grid, px, py), s), wall = -1;
	for (int i = 0; i < n && wall < 0; i++)
		if (!grid_passable(g->grid, s[i].cell))
			wall = s[i].cell;
	assert_true(wall >= 0);
	assert_int_equal(act_travel(g, grid_x(g->grid, wall), grid_y(g->grid, wall)), RESULT_NOTHING);
	assert_int_equal(g->turn, t);
	assert_true(message_contains(g, "cannot get any closer"));

	/* a click on the player waits a turn; one outside the map is clamped */
	assert_int_equal(act_travel(g, px, py), RESULT_ACTED);
	assert_int_equal(g->turn, t + 1);
	assert_int_equal(g->player.x, px);
	travel_all(g, -50, -50);
	assert_int_equal(g->player.x, 1);
	assert_int_equal(g->player.y, 1);
	fixture_fini(&f);
}

static void test_travel_stops_when_hurt(void **state)
{
	(void)state;
	struct fixture f;
	/* the goblin in its niche only ever strikes the passer-by: it does not
	 * come closer, it hurts */
	struct game *g = fixture_game(&f, "square4",
				      "#######\n"
				      "#@....#\n"
				      "##g####\n"
				      "######>\n", 4);
	assert_true(game_monster_at(g, 2, 2)->seen);
	travel_all(g, 5, 1);
	assert_int_equal(g->travel.stopped, TRAVEL_HURT);
	assert_true(g->player.hp < PLAYER_HP);
	assert_int_equal(g->player.x, 2);
	fixture_fini(&f);

	/* a bat that comes closer stops travel before it can strike */
	g = fixture_game(&f, "square8",
			 "#####################\n"
			 "#b.@...............>#\n"
			 "#####################\n", 4);
	travel_all(g, 18, 1);
	assert_int_equal(g->travel.stopped, TRAVEL_MONSTER);
	assert_true(message_contains(g, "bat comes closer"));
	fixture_fini(&f);
}


/* ---- play over the player's knowledge ------------------------------- */

static const char maze_map[] = "###########\n"
			       "#@#.......#\n"
			       "#.#.#####.#\n"
			       "#.#.#...#.#\n"
			       "#.#.#.#.#.#\n"
			       "#...#.#...#\n"
			       "#####.#####\n"
			       "#.....#...#\n"
			       "#.#######.#\n"
			       "#.........#\n"
			       "##########>\n";

/* The preview to the maze's far corner, unseen, is the route of the
 * free-space assumption (cells never seen are open): as long as that
 * route, through walls the player has not seen, and shorter than the true
 * one; travel replans as the walls come into view and arrives. */
static void test_travel_plans_over_knowledge(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", maze_map, 1);
	int n = g->grid->w * g->grid->h, goal = grid_index(g->grid, 9, 9), start = grid_index(g->grid, 1, 1);
	assert_false(g->remembered[goal]);
	/* the free-space grid: remembered cells as they are, the rest open */
	struct grid *free = grid_create(g->grid->w, g->grid->h, g->grid->topo);
	for (int i = 0; i < n; i++)
		grid_set_cost(free, i, g->remembered[i] ? g->grid->cost[i] : 1);
	struct path_ctx *fctx = path_create(free), *tctx = path_create(g->grid);
	struct path_options opt = path_options_default();
	struct path_result fr, tr;
	assert_int_equal(path_find(fctx, start, goal, &opt, &fr), PATH_FOUND);
	assert_int_equal(path_find(tctx, start, goal, &opt, &tr), PATH_FOUND);
	const int *cells;
	int len;
	uint64_t before = game_hash(g);
	assert_int_equal(game_travel_plan(g, 9, 9, &cells, &len), PATH_FOUND);
	assert_true(game_hash(g) == before);
	assert_int_equal(len, fr.len); /* the free-space route's length */
	assert_true(len < tr.len);      /* not the maze's solution */
	int unseen_walls = 0;
	for (int j = 0; j < len; j++) {
		assert_true(free->cost[cells[j]] != 0); /* no wall the player knows */
		unseen_walls += !grid_passable(g->grid, cells[j]);
	}
	assert_true(unseen_walls > 0); /* it walks into walls it has not seen */
	/* travel: each step replans as walls come into view; it gets there */
	int replans = 0, acts = 0;
	assert_int_equal(act_travel(g, 9, 9), RESULT_ACTED);
	while (g->travel.active && acts++ < 500) {
		int len0 = g->travel.len;
		act_travel_step(g);
		replans += g->travel.len != len0;
	}
	assert_int_equal(g->travel.stopped, TRAVEL_ARRIVED);
	assert_int_equal(grid_index(g->grid, g->player.x, g->player.y), goal);
	assert_true(replans > 0);
	path_destroy(fctx);
	path_destroy(tctx);
	grid_destroy(free);
	fixture_fini(&f);
}

/* Cost of walking cells[0..len) on grid fr (entering costs, square8 diagonals sqrt 2). */
static double walk_cost(const struct grid *fr, const int *cells, int len)
{
	double c = 0;
	for (int i = 1; i < len; i++) {
		int dx = grid_x(fr, cells[i]) - grid_x(fr, cells[i - 1]);
		int dy = grid_y(fr, cells[i]) - grid_y(fr, cells[i - 1]);
		double step = fr->topo == GRID_SQUARE8 && dx && dy ? GRID_SQRT2 : 1.0;
		c += step * fr->cost[cells[i]];
	}
	return c;
}

/* The previews answered from the player's distance map agree with the
 * bounded search over the free-space grid on every cell of the map: the
 * same status, the same cost, the same end cost for walls (the fallback's
 * cut), a legal walk from the player; a second round (answered from the
 * same map) gives the same routes, and planning changes no game state. */
static void test_preview_distance_map(void **state)
{
	(void)state;
	static const char *const maps[][2] = {
		{ "square8", "############\n"
			     "#@..,,~~#..#\n"
			     "#.##.#..#..#\n"
			     "#..#.#.##..#\n"
			     "##.#...#...#\n"
			     "#..,.###.#.#\n"
			     "#.#......#>#\n"
			     "############\n" },
		{ "square4", "##########\n"
			     "#@...#...#\n"
			     "#.##.#.#.#\n"
			     "#..#...#.#\n"
			     "#.~~~#.#>#\n"
			     "##########\n" },
		{ "hex", "# # # # # # # #\n"
			 " # @ . , . # . #\n"
			 "# . # # . # . #\n"
			 " # . . . ~ . > #\n"
			 "# # # # # # # #\n" },
	};
	for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
		struct fixture f;
		struct game *g = fixture_game(&f, maps[m][0], maps[m][1], 1);
		int n = g->grid->w * g->grid->h, start = grid_index(g->grid, g->player.x, g->player.y);
		struct grid *fr = grid_create(g->grid->w, g->grid->h, g->grid->topo);
		for (int i = 0; i < n; i++)
			grid_set_cost(fr, i, g->remembered[i] ? g->grid->cost[i] : 1);
		struct path_ctx *ref = path_create(fr);
		struct path_options opt = path_options_default();
		opt.fallback = true;
		uint64_t before = game_hash(g);
		int mapped = 0;
		for (int round = 0; round < 2; round++)
			for (int c = 0; c < n; c++) {
				struct path_result r;
				enum path_status want = path_find(ref, start, c, &opt, &r);
				double want_cost = walk_cost(fr, r.cells, r.len);
				const int *cells;
				int len;
				enum path_status got = game_travel_plan(g, grid_x(fr, c), grid_y(fr, c), &cells, &len);
				assert_int_equal(got, want);
				assert_true(len >= 1);
				assert_int_equal(cells[0], start);
				for (int i = 1; i < len; i++) {
					assert_true(grid_is_adjacent(fr, cells[i - 1], cells[i]));
					assert_true(fr->cost[cells[i]] != 0);
				}
				assert_true(fabs(walk_cost(fr, cells, len) - want_cost) < 1e-9);
				mapped += g->reach.source == start;
			}
		assert_true(mapped > 0);
		assert_true(game_hash(g) == before);
		path_destroy(ref);
		grid_destroy(fr);
		fixture_fini(&f);
	}
}

/* Stairs on the way stop travel and a run; stairs as the destination are
 * arrived at; neither descends. */
static void test_stairs_stop_travel(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "########\n#@.>...#\n########\n", 1);
	travel_all(g, 5, 1);
	assert_int_equal(g->travel.stopped, TRAVEL_STAIRS);
	assert_int_equal(g->player.x, 3);
	assert_int_equal(g->depth, 0);
	assert_false(g->over);
	assert_true(message_contains(g, "press > to descend"));
	act_move(g, GRID_W);
	travel_all(g, 3, 1);
	assert_int_equal(g->travel.stopped, TRAVEL_ARRIVED);
	assert_int_equal(g->player.x, 3);
	act_move(g, GRID_W);
	act_move(g, GRID_W);
	struct action run = { .kind = ACT_RUN, .dir = GRID_E };
	assert_int_equal(game_act(g, &run), RESULT_ACTED);
	while (g->travel.active)
		act_travel_step(g);
	assert_int_equal(g->travel.stopped, TRAVEL_STAIRS);
	assert_int_equal(g->player.x, 3);
	assert_false(g->over);
	fixture_fini(&f);
}

/* Regeneration; resting heals and stops at full health, or when a monster
 * comes into view. */
static void test_rest(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "######\n#@...#\n#####>\n", 1);
	struct action rest = { .kind = ACT_REST };
	assert_int_equal(game_act(g, &rest), RESULT_NOTHING); /* unhurt */
	g->player.hp = PLAYER_HP - 3;
	assert_int_equal(game_act(g, &rest), RESULT_ACTED);
	int acts = 0;
	while (g->travel.active && acts++ < 1000)
		act_travel_step(g);
	assert_int_equal(g->travel.stopped, TRAVEL_DONE);
	assert_int_equal(g->player.hp, PLAYER_HP);
	assert_true(g->turn >= 3 * PLAYER_REGEN_TURNS && g->turn < 4 * PLAYER_REGEN_TURNS);
	assert_true(message_contains(g, "You feel rested"));
	fixture_fini(&f);

	/* a goblin far down the corridor sees the player first and comes */
	g = fixture_game(&f, "square8", "#######################\n#@...................g#\n######################>\n", 1);
	g->player.hp = 5;
	assert_int_equal(game_act(g, &rest), RESULT_ACTED);
	acts = 0;
	while (g->travel.active && acts++ < 1000)
		act_travel_step(g);
	assert_int_equal(g->travel.stopped, TRAVEL_MONSTER);
	assert_true(message_contains(g, "goblin comes into view"));
	assert_false(visible_adjacent(g));
	fixture_fini(&f);
}

/* Equal messages merge; the count says how many. */
static void test_messages_merge(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "#####\n#@.>#\n#####", 1);
	int n0 = g->n_messages;
	for (int i = 0; i < 3; i++)
		act_move(g, GRID_N);
	assert_int_equal(g->n_messages, n0 + 1);
	assert_string_equal(game_message(g, 0)->text, "There is a wall in the way.");
	assert_int_equal(game_message(g, 0)->count, 3);
	act_move(g, GRID_N); /* still the newest: merged again */
	assert_int_equal(game_message(g, 0)->count, 4);
	game_message_add(g, "Something else.");
	act_move(g, GRID_N);
	assert_int_equal(game_message(g, 0)->count, 1);
	assert_int_equal(g->n_messages, n0 + 3);
	fixture_fini(&f);
}

/* Travel stops for news only: a monster seen before that does not come
 * closer lets it pass; it never steps next to a visible monster. */
static void test_travel_news_only(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "############\n"
				      "#@.........#\n"
				      "#..........#\n"
				      "#.....d....#\n"
				      "###########>\n", 1);
	assert_true(game_monster_at(g, 6, 3)->seen);
	travel_all(g, 10, 1);
	assert_int_equal(g->travel.stopped, TRAVEL_ARRIVED);
	assert_int_equal(g->player.x, 10);
	/* a route through the dummy's side: the travel stops before the step next to it */
	travel_all(g, 1, 3);
	assert_int_equal(g->travel.stopped, TRAVEL_MONSTER);
	assert_true(message_contains(g, "dummy is near"));
	assert_false(visible_adjacent(g));
	fixture_fini(&f);
}

/* A wounded monster that flees but stays in view no longer blocks
 * autoexplore for good (issue 30): `o` lets a fleeing monster be; one
 * that does not flee still stops it, and says what to do. */
static void test_explore_past_fleeing_monster(void **state)
{
	(void)state;
	struct fixture f;
	memset(&f, 0, sizeof f);
	fixture_bestiary(&f.b, "kind: rat\nglyph: r\nhp: 4\ndamage: 1\nsight: 20\nflee: 0.5\n");
	f.lv[0] = fixture_level("square8",
				"##############\n"
				"#@...........#\n"
				"#........r...#\n"
				"#............#\n"
				"######.#######\n"
				"     #.#      \n"
				"     #.#      \n"
				"     #>#      \n",
				&f.b);
	f.levels[0] = f.lv[0];
	f.n = 1;
	f.g = game_create(f.levels, 1, &f.b, 5);
	struct game *g = f.g;
	assert_non_null(g);
	struct monster *rat = game_monster_at(g, 9, 2);
	assert_non_null(rat);
	assert_true(rat->seen);
	struct action ex = { .kind = ACT_EXPLORE };
	/* unhurt, it does not flee: no exploring, and the way out is said */
	rat->mind.asleep = false;
	assert_int_equal(game_act(g, &ex), RESULT_NOTHING);
	assert_true(message_contains(g, "cannot explore with a rat in view: fight it or get out of its sight"));
	/* wounded, it flees (below half its hp) and stays in view */
	rat->hp = 1;
	rat->mind.fleeing = true;
	assert_int_equal(game_act(g, &ex), RESULT_ACTED);
	assert_true(g->travel.active || g->player.x != 1 || g->player.y != 1);
	fixture_fini(&f);
}

/* Autoexplore does not start with a monster in view (each press would
 * step where the player did not choose while it follows); it does once
 * the monster is gone. */
static void test_explore_not_with_monster_in_view(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "############\n"
				      "#@.........#\n"
				      "#.d........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "#..........#\n"
				      "############\n"
				      "           >\n", 1);
	assert_true(game_monster_at(g, 2, 2)->seen);
	struct action ex = { .kind = ACT_EXPLORE };
	int turn = g->turn;
	assert_int_equal(game_act(g, &ex), RESULT_NOTHING);
	assert_int_equal(g->turn, turn);
	assert_int_equal(g->player.x, 1);
	assert_int_equal(g->player.y, 1);
	assert_false(g->travel.active);
	assert_true(message_contains(g, "cannot explore with a dummy in view"));
	act_move(g, GRID_SE); /* the dummy has 1 hp */
	assert_null(game_monster_at(g, 2, 2));
	assert_int_equal(game_act(g, &ex), RESULT_ACTED);
	assert_true(g->travel.active);
	fixture_fini(&f);
}

/* A run stops where a side opens (a junction). */
static void test_run_stops_at_junction(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "#########\n"
				      "#@......#\n"
				      "####.####\n"
				      "####.####\n"
				      "########>\n", 1);
	struct action run = { .kind = ACT_RUN, .dir = GRID_E };
	assert_int_equal(game_act(g, &run), RESULT_ACTED);
	while (g->travel.active)
		act_travel_step(g);
	assert_int_equal(g->player.x, 4);
	assert_int_equal(g->travel.stopped, TRAVEL_ARRIVED);
	fixture_fini(&f);
}

/* Autoexplore on every campaign level (its monsters left out): it ends
 * with its message, having seen every cell the player can reach. */
static void test_autoexplore_campaign(void **state)
{
	(void)state;
	static const char *const files[] = {
		"levels/01-first-steps.lvl", "levels/02-the-chase.lvl", "levels/03-hex-arena.lvl",
		"levels/04-the-mire.lvl",    "levels/05-the-vault.lvl", "levels/06-the-labyrinth.lvl",
		"levels/07-the-deep.lvl",    "levels/08-the-ogre-hall.lvl",
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		char *text;
		size_t tl;
		assert_int_equal(textfile_read(files[k], &text, &tl), 0);
		struct diag_list d = { 0 };
		struct level *lv = level_parse(files[k], text, tl, NULL, &d);
		free(text);
		diag_list_fini(&d);
		assert_non_null(lv);
		const struct level *levels[1] = { lv };
		struct game *g = game_create(levels, 1, NULL, 1);
		assert_non_null(g);
		struct action ex = { .kind = ACT_EXPLORE };
		int acts = 0;
		while (acts++ < 20000) {
			if (!g->travel.active && game_act(g, &ex) != RESULT_ACTED)
				break;
			while (g->travel.active && acts++ < 20000)
				act_travel_step(g);
			if (g->travel.stopped == TRAVEL_DONE)
				break;
		}
		assert_int_equal(g->travel.stopped, TRAVEL_DONE);
		assert_true(message_contains(g, "nothing left to explore"));
		struct path_ctx *ctx = path_create(g->grid);
		struct path_options opt = path_options_default();
		int pc = grid_index(g->grid, g->player.x, g->player.y), n = g->grid->w * g->grid->h;
		path_flood(ctx, pc, &opt, false, 0);
		for (int c = 0; c < n; c++)
			if (path_flood_distance(ctx, c) >= 0 && !g->remembered[c]) {
				print_error("%s: cell %d,%d reachable but never seen\n", files[k], c % g->grid->w,
					    c / g->grid->w);
				fail();
			}
		path_destroy(ctx);
		game_destroy(g);
		level_destroy(lv);
	}
}

/* Every campaign level's description reaches the player whole on
 * entering, however long (two were cut at 159 characters). */
static void test_descriptions_whole(void **state)
{
	(void)state;
	static const char *const files[] = {
		"levels/01-first-steps.lvl", "levels/02-the-chase.lvl",      "levels/03-hex-arena.lvl",
		"levels/03a-the-diamond-lattice.lvl", "levels/04-the-mire.lvl", "levels/04a-the-diamond-halls.lvl",
		"levels/05-the-vault.lvl",   "levels/06-the-labyrinth.lvl", "levels/07-the-deep.lvl",
		"levels/08-the-ogre-hall.lvl",
	};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		char *text;
		size_t tl;
		assert_int_equal(textfile_read(files[k], &text, &tl), 0);
		struct diag_list d = { 0 };
		struct level *lv = level_parse(files[k], text, tl, NULL, &d);
		free(text);
		diag_list_fini(&d);
		assert_non_null(lv);
		assert_non_null(lv->description);
		const struct level *levels[1] = { lv };
		struct game *g = game_create(levels, 1, NULL, 1);
		assert_non_null(g);
		/* the messages after "You enter ...", oldest first, joined by spaces */
		char said[4 * GAME_MESSAGE_LEN] = "";
		int enter = g->n_messages - 1;
		while (enter >= 0 && strncmp(game_message(g, enter)->text, "You enter ", 10) != 0)
			enter--;
		assert_true(enter >= 0);
		for (int i = enter - 1; i >= 0; i--) {
			if (said[0])
				strcat(said, " ");
			strcat(said, game_message(g, i)->text);
		}
		if (strcmp(said, lv->description) != 0) {
			print_error("%s: said \"%s\"\n", files[k], said);
			fail();
		}
		game_destroy(g);
		level_destroy(lv);
	}
}

static void test_hex_directions(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "hex",
				      "# # # # # # #\n"
				      " # . . . . . #\n"
				      "# . . @ . . #\n"
				      " # . . . . . #\n"
				      "# # # # # # >\n", 1);
	static const enum grid_dir six[] = { GRID_NE, GRID_E, GRID_SE, GRID_SW, GRID_W, GRID_NW };
	for (int y = 1; y <= 3; y++) {
		for (int i = 0; i < 6; i++) {
			int nx, ny;
			assert_true(grid_dir_step(g->grid, 3, y, six[i], &nx, &ny));
			assert_true(grid_is_adjacent(g->grid, grid_index(g->grid, 3, y), grid_index(g->grid, nx, ny)));
			for (int j = 0; j < i; j++) {
				int ox, oy;
				grid_dir_step(g->grid, 3, y, six[j], &ox, &oy);
				assert_false(ox == nx && oy == ny);
			}
		}
	}
	int nx, ny;
	assert_false(grid_dir_step(g->grid, 3, 2, GRID_N, &nx, &ny));
	assert_false(grid_dir_step(g->grid, 3, 2, GRID_S, &nx, &ny));
	/* screen sense: NE from an even row goes to the cell up and to the right on screen */
	grid_dir_step(g->grid, 3, 2, GRID_NE, &nx, &ny);
	int c0, r0, c1, r1;
	grid_cell_to_screen(g->grid, 3, 2, &c0, &r0);
	grid_cell_to_screen(g->grid, nx, ny, &c1, &r1);
	assert_int_equal(c1 - c0, 1);
	assert_int_equal(r1 - r0, -1);
	assert_int_equal(act_move(g, GRID_NE), RESULT_ACTED);
	assert_int_equal(act_move(g, GRID_SE), RESULT_ACTED);
	assert_int_equal(g->player.x, 4);
	assert_int_equal(g->player.y, 2);
	fixture_fini(&f);
}

/* Plays a game with pseudo-random actions; returns its final hash. */
static uint64_t play_script(uint64_t game_seed, uint64_t script_seed, int acts)
{
	struct fixture f;
	struct game *g = fixture_game(&f, "square8",
				      "####################\n"
				      "#@....!....#.....g.#\n"
				      "#..g.......+...$...#\n"
				      "#.....,,,..#....~~.#\n"
				      "#..$....~..###+#####\n"
				      "#.....b.......s....#\n"
				      "###################>\n", game_seed);
	struct rng script;
	rng_seed(&script, script_seed);
	for (int i = 0; i < acts && !g->over; i++) {
		int k = rng_range(&script, 0, 9);
		if (k < 6) {
			act_move(g, (enum grid_dir)rng_range(&script, 0, 7));
		} else if (k < 7) {
			act_wait(g);
		} else if (k < 8) {
			act_travel(g, rng_range(&script, -2, 21), rng_range(&script, -2, 8));
		} else {
			act_travel_step(g);
		}
	}
	uint64_t h = game_hash(g);
	fixture_fini(&f);
	return h;
}

static void test_determinism(void **state)
{
	(void)state;
	for (uint64_t s = 1; s <= 5; s++) {
		uint64_t a = play_script(s, 100 + s, 300);
		uint64_t b = play_script(s, 100 + s, 300);
		assert_true(a == b);
	}
	/* the hash sees the state: a different script leaves a different game */
	assert_true(play_script(1, 101, 300) != play_script(1, 102, 300));
	/* the rng replays from its seed */
	struct rng r1, r2;
	rng_seed(&r1, 42);
	rng_seed(&r2, 42);
	for (int i = 0; i < 100; i++)
		assert_true(rng_next(&r1) == rng_next(&r2));
	for (int i = 0; i < 1000; i++) {
		int v = rng_range(&r1, -3, 3);
		assert_true(v >= -3 && v <= 3);
	}
}

static void test_messages_ring(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", "#####\n#@.>#\n#####", 1);
	for (int i = 0; i < GAME_MESSAGES + 50; i++)
		game_message_add(g, "message %d", i);
	assert_string_equal(game_message(g, 0)->text, "message 249");
	assert_string_equal(game_message(g, GAME_MESSAGES - 1)->text, "message 50");
	assert_null(game_message(g, GAME_MESSAGES));
	char buf[64];
	game_describe(g, 3, 1, buf, sizeof buf);
	assert_non_null(strstr(buf, "stairs down"));
	fixture_fini(&f);
}

/* ---- invariants ------------------------------------------------------- */

/* Two dummies (sight 0: they only ever wait) beside the player. */
static const char invariant_map[] = "#######\n"
				    "#@.d.d#\n"
				    "######>\n";

static void corrupt_nothing(struct game *g) { (void)g; }

/* Dummy 1 moved onto dummy 0's cell without the occupant map knowing. */
static void corrupt_shared_cell(struct game *g)
{
	g->monsters[1].x = g->monsters[0].x;
}

/* Dummy 0 moved into the wall above it, occupant map and all. */
static void corrupt_monster_in_wall(struct game *g)
{
	struct monster *m = &g->monsters[0];
	g->occupant[grid_index(g->grid, m->x, m->y)] = -1;
	m->y = 0;
	g->occupant[grid_index(g->grid, m->x, m->y)] = 0;
	game_maps_written(g); /* written by hand: hashed and saved again */
}

static void corrupt_player_in_wall(struct game *g)
{
	g->player.y = 0;
}

static void corrupt_energy(struct game *g)
{
	g->monsters[0].energy = -1000000;
}

/* Runs corrupt(g) and one wait in a child process (the fixture's game,
 * copied by fork); returns the child's wait status.  The child's stderr
 * (the broken invariant's text) goes to /dev/null. */
static int invariant_child(struct game *g, void (*corrupt)(struct game *))
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		corrupt(g);
		act_wait(g);
		_exit(0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* A state the rules must never reach aborts the next game_act in the
 * test build (CHECK); the untouched state acts normally. */
static void test_invariants_checked(void **state)
{
	(void)state;
#ifndef ASTRAY_CHECKS
	skip(); /* the test build defines ASTRAY_CHECKS; without it there are no checks */
#endif
	static void (*const broken[])(struct game *) = {
		corrupt_shared_cell, corrupt_monster_in_wall, corrupt_player_in_wall, corrupt_energy,
	};
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", invariant_map, 1);
	assert_int_equal(g->n_monsters, 2);
	int st = invariant_child(g, corrupt_nothing);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
		st = invariant_child(g, broken[i]);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGABRT);
	}
	assert_int_equal(act_wait(g), RESULT_ACTED); /* the parent's game is untouched */
	fixture_fini(&f);
}

/* game_known_stairs by a scan of every cell: the nearest remembered exit,
 * the first in index order of the nearest. */
static bool stairs_by_scan(const struct game *g, int *x, int *y)
{
	const int n = g->grid->w * g->grid->h, here = grid_index(g->grid, g->player.x, g->player.y);
	int best = -1, best_d = 0;
	for (int c = 0; c < n; c++) {
		if (!g->remembered[c] || game_tile_known(g, c) != TILE_EXIT)
			continue;
		int d = grid_step_distance(g->grid, here, c);
		if (best < 0 || d < best_d) {
			best = c;
			best_d = d;
		}
	}
	if (best < 0)
		return false;
	*x = grid_x(g->grid, best);
	*y = grid_y(g->grid, best);
	return true;
}

/*
 * `>` away from the stairs goes to the nearest remembered one, which
 * game_known_stairs finds in the blocks of remembered[] written since the
 * level began (a 4096x4096 level's first `>` read 16.8 M cells): on an
 * 80x60 level (five blocks of 1,024 cells) with exits in four of them,
 * remembered one at a time (as sight and magic mapping write them,
 * marked), it answers as the scan of every cell does.
 */
static void test_known_stairs_by_blocks(void **state)
{
	(void)state;
	enum { W = 80, H = 60 };
	static const int exits[][2] = { { 70, 5 }, { 10, 30 }, { 60, 50 }, { 40, 58 }, { 78, 13 } };
	char *map = malloc((size_t)(W + 1) * H + 1);
	assert_non_null(map);
	char *p = map;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++)
			*p++ = x == 0 || y == 0 || x == W - 1 || y == H - 1 ? '#' : '.';
		*p++ = '\n';
	}
	*p = '\0';
	map[1 * (W + 1) + 1] = '@';
	for (size_t i = 0; i < sizeof exits / sizeof exits[0]; i++)
		map[exits[i][1] * (W + 1) + exits[i][0]] = '>';
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 3);
	free(map);
	int x, y, rx, ry;
	assert_false(game_known_stairs(g, &x, &y)); /* none in sight of 1,1 */
	assert_false(stairs_by_scan(g, &rx, &ry));
	const int order[] = { 3, 2, 4, 0, 1 };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		int c = grid_index(g->grid, exits[order[i]][0], exits[order[i]][1]);
		assert_int_equal(g->tiles[c], TILE_EXIT);
		g->remembered[c] = 1;
		game_mark(g, MAP_REMEMBERED, c);
		assert_true(stairs_by_scan(g, &rx, &ry));
		assert_true(game_known_stairs(g, &x, &y));
		assert_int_equal(x, rx);
		assert_int_equal(y, ry);
	}
	/* the player walks: the nearest changes, both still agree */
	for (int k = 0; k < 30; k++) {
		assert_int_equal(act_move(g, k < 20 ? GRID_S : GRID_E), RESULT_ACTED);
		assert_true(stairs_by_scan(g, &rx, &ry));
		assert_true(game_known_stairs(g, &x, &y));
		assert_int_equal(x, rx);
		assert_int_equal(y, ry);
	}
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy_and_turn_order),
		cmocka_unit_test(test_long_description_said_whole),
		cmocka_unit_test(test_combat),
		cmocka_unit_test(test_potions_and_gold),
		cmocka_unit_test(test_room_wall_seen_at_once),
		cmocka_unit_test(test_win_in_one_turn_singular),
		cmocka_unit_test(test_doors),
		cmocka_unit_test(test_exit_and_winning),
		cmocka_unit_test(test_death),
		cmocka_unit_test(test_monster_approaches_optimally),
		cmocka_unit_test(test_travel_stops_for_monster),
		cmocka_unit_test(test_travel_cut_point),
		cmocka_unit_test(test_travel_stops_when_hurt),
		cmocka_unit_test(test_travel_plans_over_knowledge),
		cmocka_unit_test(test_preview_distance_map),
		cmocka_unit_test(test_stairs_stop_travel),
		cmocka_unit_test(test_rest),
		cmocka_unit_test(test_messages_merge),
		cmocka_unit_test(test_travel_news_only),
		cmocka_unit_test(test_run_stops_at_junction),
		cmocka_unit_test(test_explore_not_with_monster_in_view),
		cmocka_unit_test(test_explore_past_fleeing_monster),
		cmocka_unit_test(test_descriptions_whole),
		cmocka_unit_test(test_autoexplore_campaign),
		cmocka_unit_test(test_hex_directions),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_messages_ring),
		cmocka_unit_test(test_invariants_checked),
		cmocka_unit_test(test_known_stairs_by_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
