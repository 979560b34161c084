/*
 * test_sim.c - `astray sim`: the scripted players on small maps made in
 * memory, the summaries and the --compare arithmetic on constructed games,
 * and the real binary (ASTRAY_BIN) for replay, CSV columns, JSON and
 * errors.  Binary tests skip when ASTRAY_BIN is not set; the JSON check
 * with python3 skips when python3 is absent; the Moving AI test skips when
 * ASTRAY_MAPS is absent.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "bestiary.h"
#include "gen.h"
#include "level.h"
#include "sim.h"
#include "stats.h"
#include "run_capture.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static const char bestiary_text[] =
	"kind: goblin\nglyph: g\nhp: 6\ndamage: 2\nspeed: 100\nsight: 8\nmemory: 10\n"
	"kind: rat\nglyph: r\nhp: 1\ndamage: 1\nspeed: 100\nsight: 6\nmemory: 5\n";

static void load_bestiary(struct bestiary *b)
{
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("test-bestiary", bestiary_text, strlen(bestiary_text), b, &d));
	diag_list_fini(&d);
}

static struct level *make_level(const struct bestiary *b, const char *map, const char *topo)
{
	char text[4096];
	snprintf(text, sizeof text, "astray-level 1\nname: sim test\ntopology: %s\nmap:\n%s", topo, map);
	struct diag_list d = { 0 };
	struct level *lv = level_parse("sim-test.lvl", text, strlen(text), b, &d);
	for (int i = 0; i < d.n; i++) {
		char buf[800];
		diag_format(&d.items[i], buf, sizeof buf);
		print_message("%s\n", buf);
	}
	diag_list_fini(&d);
	assert_non_null(lv);
	return lv;
}

static void play_one(const struct level *lv, const struct bestiary *b, enum sim_player p, int turns,
		     uint64_t seed, struct sim_game *out)
{
	struct sim_runner *r = sim_runner_create();
	assert_non_null(r);
	struct sim_level src = { .file = "sim-test.lvl", .fixed = lv };
	struct sim_options opt = { .player = p, .max_turns = turns };
	struct diag_list d = { 0 };
	assert_int_equal(sim_run_game(r, &src, b, seed, &opt, out, &d), 0);
	diag_list_fini(&d);
	sim_runner_destroy(r);
}

/* ---- the model -------------------------------------------------------- */

static void test_metric_table(void **state)
{
	(void)state;
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		const struct sim_metric_info *mi = sim_metric_info((enum sim_metric)m);
		assert_non_null(mi->name);
		assert_non_null(mi->higher);
		assert_non_null(mi->doc);
		assert_int_equal(sim_metric_find(mi->name), m);
		/* Time columns are named so and only they are. */
		assert_int_equal(mi->time, strncmp(mi->name, "time_", 5) == 0);
		assert_int_equal(mi->rate, m <= SIM_M_OUT_OF_TURNS || m == SIM_M_TIMEOUTS);
		/* A time column's verdict floor is stated; the others' is half their last digit. */
		assert_true(mi->time ? mi->floor > 0 : mi->floor == 0);
	}
	assert_int_equal(sim_metric_find("nosuch"), -1);
	enum sim_player p;
	assert_true(sim_player_parse("fight", &p));
	assert_int_equal(p, SIM_PLAYER_FIGHT);
	assert_false(sim_player_parse("dance", &p));
	assert_int_equal(sim_game_seed(41, 3), 44);
}

static void test_apply_settings(void **state)
{
	(void)state;
	struct bestiary b;
	char err[256];
	load_bestiary(&b);
	assert_true(sim_apply_settings(&b, "goblin.sight=6, goblin.memory=3,rat.speed=150", err, sizeof err));
	const struct monster_kind *g = bestiary_find_glyph(&b, 'g');
	assert_int_equal(g->sight, 6);
	assert_int_equal(g->memory, 3);
	assert_int_equal(bestiary_find_glyph(&b, 'r')->speed, 150);
	assert_true(sim_apply_settings(&b, "  ", err, sizeof err));
	assert_false(sim_apply_settings(&b, "troll.sight=1", err, sizeof err));
	assert_non_null(strstr(err, "troll"));
	assert_false(sim_apply_settings(&b, "goblin.sight=2 goblin.nosuch=1", err, sizeof err));
	assert_non_null(strstr(err, "nosuch"));
}

static void set_games(struct sim_game *g, int n, enum sim_metric m, const double *v)
{
	for (int i = 0; i < n; i++) {
		g[i].v[m] = v[i];
		g[i].index = i;
		g[i].trace = (uint64_t)i + 1; /* every game a distinct one */
	}
}

/*
 * --compare on constructed games: damage A = 10 12 9 11 13, B = 12 15 10
 * 14 15; per-game differences 2 3 1 3 2: mean 2.2, sd sqrt(0.7) = 0.836660,
 * t_{4,0.975} = 2.776445, half width 2.776445 * 0.836660 / sqrt 5 =
 * 1.038851: [1.161149, 3.238851], above 0, so B is higher.  Killed A = 1 0
 * 0 1 0, B = 1 1 0 1 0: differences 0 1 0 0 0, mean 0.2, sd sqrt(0.2),
 * half width 2.776445 * 0.447214 / sqrt 5 = 0.555289: [-0.355289,
 * 0.755289], which holds 0: noise.
 */
static void test_compare_constructed(void **state)
{
	(void)state;
	struct sim_game a[5], b[5];
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	set_games(a, 5, SIM_M_DAMAGE, (const double[]){ 10, 12, 9, 11, 13 });
	set_games(b, 5, SIM_M_DAMAGE, (const double[]){ 12, 15, 10, 14, 15 });
	set_games(a, 5, SIM_M_KILLED, (const double[]){ 1, 0, 0, 1, 0 });
	set_games(b, 5, SIM_M_KILLED, (const double[]){ 1, 1, 0, 1, 0 });
	set_games(a, 5, SIM_M_FIRST_CONTACT, (const double[]){ 4, NAN, 6, 8, NAN });
	set_games(b, 5, SIM_M_FIRST_CONTACT, (const double[]){ 3, 5, 5, NAN, NAN });

	struct sim_paired p;
	assert_int_equal(sim_compare_metric(a, b, 5, SIM_M_DAMAGE, &p), 5);
	NEAR(p.a, 11.0, 1e-12);
	NEAR(p.b, 13.2, 1e-12);
	NEAR(p.diff.mean, 2.2, 1e-12);
	NEAR(p.diff.sd, 0.836660, 1e-6);
	NEAR(p.diff.lo, 1.161149, 1e-5);
	NEAR(p.diff.hi, 3.238851, 1e-5);
	assert_int_equal(p.sign, 1);

	assert_int_equal(sim_compare_metric(a, b, 5, SIM_M_KILLED, &p), 5);
	NEAR(p.a, 0.4, 1e-12);
	NEAR(p.b, 0.6, 1e-12);
	NEAR(p.diff.mean, 0.2, 1e-12);
	NEAR(p.diff.lo, -0.355289, 1e-5);
	NEAR(p.diff.hi, 0.755289, 1e-5);
	assert_int_equal(p.sign, 0);

	/* Only games where both sides made contact pair up: 4-3 and 6-5. */
	assert_int_equal(sim_compare_metric(a, b, 5, SIM_M_FIRST_CONTACT, &p), 2);
	NEAR(p.diff.mean, -1.0, 1e-12);
	NEAR(p.diff.sd, 0.0, 1e-12);
	assert_int_equal(p.sign, -1);

	/* The summaries: Wilson for the rate, the bootstrap for the mean. */
	struct stats_summary s;
	assert_int_equal(sim_summarize(b, 5, SIM_M_KILLED, &s), 5);
	assert_int_equal(s.successes, 3);
	double lo, hi;
	stats_wilson(3, 5, stats_normal_quantile(0.975), &lo, &hi);
	NEAR(s.lo, lo, 1e-12);
	NEAR(s.hi, hi, 1e-12);
	assert_int_equal(sim_summarize(a, 5, SIM_M_FIRST_CONTACT, &s), 3);
	NEAR(s.mean, 6.0, 1e-12);
	struct stats_summary boot;
	stats_nonneg_ci((const double[]){ 4, 6, 8 }, 3, &boot);
	NEAR(s.lo, boot.lo, 0);
	NEAR(s.hi, boot.hi, 0);
	assert_true(s.lo >= 4 && s.hi <= 8);
}

/* The exit player walks the A* route and takes the stairs: 6 steps (6
 * turns) onto them, then '>' leaves the level before the monsters' turn. */
static void test_exit_player_escapes(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	struct level *lv = make_level(&b,
				      "#########\n"
				      "#@.....>#\n"
				      "#########\n", "square8");
	struct sim_game g;
	play_one(lv, &b, SIM_PLAYER_EXIT, 100, 1, &g);
	assert_int_equal(g.outcome, SIM_ESCAPED);
	NEAR(g.v[SIM_M_ESCAPED], 1, 0);
	NEAR(g.v[SIM_M_KILLED], 0, 0);
	NEAR(g.v[SIM_M_TURNS], 6, 0);
	NEAR(g.v[SIM_M_DAMAGE], 0, 0);
	assert_true(isnan(g.v[SIM_M_FIRST_CONTACT]));
	assert_true(isnan(g.v[SIM_M_EXPANDED_MEAN]));
	assert_int_equal(g.monsters, 0);
	/* Around a wall on square4: 6 steps, then '>'. */
	level_destroy(lv);
	lv = make_level(&b,
			"#######\n"
			"#@#..>#\n"
			"#...#.#\n"
			"#######\n", "square4");
	play_one(lv, &b, SIM_PLAYER_EXIT, 100, 1, &g);
	assert_int_equal(g.outcome, SIM_ESCAPED);
	NEAR(g.v[SIM_M_TURNS], 6, 0);
	level_destroy(lv);
}

/* A rat next to an idle player: contact at once, damage, a kill in the end. */
static void test_idle_player_killed(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	struct level *lv = make_level(&b,
				      "########\n"
				      "#@g...>#\n"
				      "########\n", "square8");
	struct sim_game g;
	play_one(lv, &b, SIM_PLAYER_IDLE, 500, 7, &g);
	assert_int_equal(g.outcome, SIM_KILLED);
	NEAR(g.v[SIM_M_KILLED], 1, 0);
	assert_true(g.v[SIM_M_DAMAGE] > 0);
	assert_false(isnan(g.v[SIM_M_FIRST_CONTACT]));
	assert_true(g.v[SIM_M_FIRST_CONTACT] <= 1);
	assert_true(g.v[SIM_M_TURNS] < 500);
	assert_int_equal(g.monsters, 1);
	/* Waiting with nothing around runs out of turns. */
	level_destroy(lv);
	lv = make_level(&b,
			"########\n"
			"#@....>#\n"
			"########\n", "square8");
	play_one(lv, &b, SIM_PLAYER_IDLE, 40, 7, &g);
	assert_int_equal(g.outcome, SIM_OUT_OF_TURNS);
	NEAR(g.v[SIM_M_TURNS], 40, 0);
	level_destroy(lv);
}

/* The fight player walks round the stairs to the rat, kills it (rat hp 1),
 * and only then goes back and takes the stairs. */
static void test_fight_player_kills(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	assert_true(sim_apply_settings(&b, "rat.sight=0", (char[64]){ 0 }, 64));
	struct level *lv = make_level(&b,
				      "###########\n"
				      "#.........#\n"
				      "#@..>....r#\n"
				      "###########\n", "square8");
	struct sim_game g;
	play_one(lv, &b, SIM_PLAYER_FIGHT, 60, 3, &g);
	NEAR(g.v[SIM_M_KILLS], 1, 0);
	assert_int_equal(g.outcome, SIM_ESCAPED);
	/* 7 steps to the rat's side (round the stairs), one attack, then 4
	 * steps back onto the stairs, and '>' ends the game before a turn is
	 * counted.  Straight over the stairs would have ended it after 4 turns
	 * with no kill. */
	NEAR(g.v[SIM_M_TURNS], 12, 0);
	level_destroy(lv);
}

/* Same seed, same game: every metric but the time ones. */
static void test_replay_same_seed(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	struct level *lv = make_level(&b,
				      "##############\n"
				      "#@...,,...#..#\n"
				      "#.##.##.#.#.g#\n"
				      "#....~~.r...>#\n"
				      "#.##.##.#.#..#\n"
				      "#....g.......#\n"
				      "##############\n", "square8");
	for (int p = 0; p < SIM_PLAYER_COUNT; p++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct sim_game g1, g2;
			play_one(lv, &b, (enum sim_player)p, 200, seed, &g1);
			play_one(lv, &b, (enum sim_player)p, 200, seed, &g2);
			assert_int_equal(g1.outcome, g2.outcome);
			for (int m = 0; m < SIM_METRIC_COUNT; m++) {
				if (sim_metric_info((enum sim_metric)m)->time)
					continue;
				assert_int_equal(isnan(g1.v[m]), isnan(g2.v[m]));
				if (!isnan(g1.v[m]))
					NEAR(g1.v[m], g2.v[m], 0);
			}
		}
	}
	level_destroy(lv);
}

/* The flee player ends farther from a chasing monster than an idle one. */
static void test_flee_player_keeps_away(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	struct level *lv = make_level(&b,
				      "##################\n"
				      "#................#\n"
				      "#.......@........#\n"
				      "#................#\n"
				      "#...g............#\n"
				      "#...............>#\n"
				      "##################\n", "square8");
	struct sim_game flee, idle;
	play_one(lv, &b, SIM_PLAYER_FLEE, 30, 5, &flee);
	play_one(lv, &b, SIM_PLAYER_IDLE, 30, 5, &idle);
	/* The idle player is reached first. */
	assert_false(isnan(idle.v[SIM_M_FIRST_CONTACT]));
	assert_true(isnan(flee.v[SIM_M_FIRST_CONTACT]) ||
		    flee.v[SIM_M_FIRST_CONTACT] > idle.v[SIM_M_FIRST_CONTACT]);
	level_destroy(lv);
}

/* The player's own stream: in an open room every route of 5 steps to the
 * far corner is a shortest one, and the exit player picks among them from
 * a stream seeded by the game's seed.  The same seed walks the same way;
 * other seeds walk other ways, all of the shortest length. */
static void test_player_stream_routes(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	struct level *lv = make_level(&b,
				      "#####\n"
				      "#@..#\n"
				      "#...#\n"
				      "#...#\n"
				      "#..>#\n"
				      "#####\n", "square4");
	struct sim_game g[12], again;
	for (int i = 0; i < 12; i++) {
		play_one(lv, &b, SIM_PLAYER_EXIT, 100, (uint64_t)i + 1, &g[i]);
		assert_int_equal(g[i].outcome, SIM_ESCAPED);
		NEAR(g[i].v[SIM_M_TURNS], 5, 0);
	}
	play_one(lv, &b, SIM_PLAYER_EXIT, 100, 5, &again);
	assert_true(again.trace == g[4].trace);
	/* 10 shortest routes: 12 seeds that took fewer than 3 would be a broken stream */
	assert_true(sim_distinct(g, 12, -1) >= 3);
	assert_true(sim_distinct(g, 12, SIM_M_TURNS) >= 3);
	level_destroy(lv);
}

/* One game played again and again: one distinct game, no interval. */
static void test_identical_games(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	struct level *lv = make_level(&b,
				      "#######\n"
				      "#@...>#\n"
				      "#######\n", "square4");
	struct sim_game g[8];
	for (int i = 0; i < 8; i++)
		play_one(lv, &b, SIM_PLAYER_EXIT, 100, (uint64_t)i * 7 + 1, &g[i]);
	assert_int_equal(sim_distinct(g, 8, -1), 1);
	struct stats_summary s;
	assert_int_equal(sim_summarize(g, 8, SIM_M_TURNS, &s), 8);
	NEAR(s.mean, 4, 0);
	assert_true(isnan(s.lo) && isnan(s.hi));
	assert_int_equal(sim_summarize(g, 8, SIM_M_ESCAPED, &s), 8);
	assert_true(isnan(s.lo) && isnan(s.hi));
	/* A pair of the same games under A and B: no interval either. */
	struct sim_paired p;
	assert_int_equal(sim_compare_metric(g, g, 8, SIM_M_TURNS, &p), 8);
	assert_int_equal(p.distinct, 1);
	assert_int_equal(p.sign, 0);
	level_destroy(lv);

	/* Half the games one game, half distinct: the interval is that of the distinct ones. */
	struct sim_game h[10];
	memset(h, 0, sizeof h);
	for (int i = 0; i < 10; i++) {
		h[i].v[SIM_M_DAMAGE] = i < 5 ? 3 : i;
		h[i].trace = i < 5 ? 99 : (uint64_t)i;
	}
	assert_int_equal(sim_distinct(h, 10, SIM_M_DAMAGE), 6);
	struct stats_summary wide, all;
	sim_summarize(h, 10, SIM_M_DAMAGE, &wide);
	for (int i = 0; i < 10; i++)
		h[i].trace = (uint64_t)i + 1000;
	sim_summarize(h, 10, SIM_M_DAMAGE, &all);
	NEAR(wide.mean, all.mean, 0);
	assert_true(wide.lo < all.lo && wide.hi > all.hi);
}

/* timeouts: a turn limit the player meant to avoid; lowest_hp: its worst moment. */
static void test_timeouts_lowest_hp(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	/* The exit is walled off: exit walks as far as it can and the limit comes. */
	struct level *lv = make_level(&b,
				      "#########\n"
				      "#@....#>#\n"
				      "#########\n", "square8");
	struct sim_game g;
	play_one(lv, &b, SIM_PLAYER_EXIT, 30, 1, &g);
	assert_int_equal(g.outcome, SIM_OUT_OF_TURNS);
	NEAR(g.v[SIM_M_TIMEOUTS], 1, 0);
	NEAR(g.v[SIM_M_LOWEST_HP], 30, 0); /* nothing touched it: the starting hit points */
	/* idle waits by design: its turn limit is no timeout */
	play_one(lv, &b, SIM_PLAYER_IDLE, 30, 1, &g);
	assert_int_equal(g.outcome, SIM_OUT_OF_TURNS);
	NEAR(g.v[SIM_M_TIMEOUTS], 0, 0);
	level_destroy(lv);
	/* killed: lowest 0 */
	lv = make_level(&b,
			"########\n"
			"#@g...>#\n"
			"########\n", "square8");
	play_one(lv, &b, SIM_PLAYER_IDLE, 500, 7, &g);
	assert_int_equal(g.outcome, SIM_KILLED);
	NEAR(g.v[SIM_M_LOWEST_HP], 0, 0);
	NEAR(g.v[SIM_M_TIMEOUTS], 0, 0);
	level_destroy(lv);
}

/* A goblin that flees when hurt, in a loop of corridors: the fight player
 * chased such a one round and round until the turn limit (issue 31).  It
 * now gives up a monster it gains no ground on and leaves: every game
 * ends, on every seed. */
static void test_fight_ends(void **state)
{
	(void)state;
	static const char text[] =
		"kind: goblin\nglyph: g\nhp: 30\ndamage: 0\nspeed: 100\nsight: 20\nmemory: 50\nflee: 0.9\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("test-bestiary", text, strlen(text), &b, &d));
	diag_list_fini(&d);
	struct level *lv = make_level(&b,
				      "###########\n"
				      "#@........#\n"
				      "#.#######.#\n"
				      "#.#######.#\n"
				      "#....g....#\n"
				      "#########>#\n"
				      "###########\n", "square4");
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct sim_game g;
		play_one(lv, &b, SIM_PLAYER_FIGHT, 1000, seed, &g);
		assert_int_not_equal(g.outcome, SIM_OUT_OF_TURNS);
		NEAR(g.v[SIM_M_TIMEOUTS], 0, 0);
		assert_true(g.v[SIM_M_TURNS] < 1000);
	}
	level_destroy(lv);
}


/* A Moving AI map: monsters placed from the seed, --chase makes them hunt. */
static void test_movingai_chase(void **state)
{
	(void)state;
	const char *maps = getenv("ASTRAY_MAPS");
	char path[4096];
	snprintf(path, sizeof path, "%s/random512-10-0.map", maps ? maps : "../shared/maps/movingai");
	size_t len = 0;
	char *text = level_read_file(path, &len);
	if (!text) {
		print_message("skipped: %s is absent\n", path);
		skip();
	}
	struct bestiary b;
	load_bestiary(&b);
	struct sim_runner *r = sim_runner_create();
	struct sim_level src = { .file = path, .map_text = text, .map_len = len, .map_monsters = 20,
				 .map_glyph = 'g' };
	struct sim_options opt = { .player = SIM_PLAYER_IDLE, .max_turns = 10, .chase = true };
	struct sim_game g1, g2;
	struct diag_list d = { 0 };
	assert_int_equal(sim_run_game(r, &src, &b, 11, &opt, &g1, &d), 0);
	assert_int_equal(sim_run_game(r, &src, &b, 11, &opt, &g2, &d), 0);
	diag_list_fini(&d);
	assert_int_equal(g1.monsters, 20);
	assert_true(g1.v[SIM_M_SEARCHES] > 0);
	assert_false(isnan(g1.v[SIM_M_AI_MS_MEAN]));
	assert_true(g1.v[SIM_M_AI_MS_P95] >= 0);
	NEAR(g1.v[SIM_M_EXPANDED_MEAN], g2.v[SIM_M_EXPANDED_MEAN], 0);
	NEAR(g1.v[SIM_M_SEARCHES], g2.v[SIM_M_SEARCHES], 0);
	sim_runner_destroy(r);
	free(text);
}

/* ---- the binary -------------------------------------------------------- */

/* The binary tests play a level of their own, written with its bestiary
 * beside it (where sim looks first) into a fresh folder by the group setup. */
static char level_dir[64];
static char level_path[128];
static char corridor_path[128];
static char still_path[128];     /* a level without monsters: every game the same */

static const char arena_text[] =
	"astray-level 1\nname: sim arena\ntopology: square8\nmap:\n"
	"####################\n"
	"#@.......#.........#\n"
	"#.######.#.######..#\n"
	"#.#....#...#....#..#\n"
	"#.#.g..#.,,#..r.#..#\n"
	"#...........~~.....#\n"
	"#..g.........#....>#\n"
	"####################\n";

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

static int setup_files(void **state)
{
	(void)state;
	char path[160];
	/* mkdtemp's template: the name ends in six capital X letters */
	int n = snprintf(level_dir, sizeof level_dir, "/tmp/astray-test-sim-");
	memset(level_dir + n, 'X', 6);
	level_dir[n + 6] = '\0';
	if (!mkdtemp(level_dir))
		return -1;
	snprintf(level_path, sizeof level_path, "%s/arena.lvl", level_dir);
	snprintf(path, sizeof path, "%s/bestiary.txt", level_dir);
	snprintf(corridor_path, sizeof corridor_path, "%s/b-corridor.lvl", level_dir);
	snprintf(still_path, sizeof still_path, "%s/still.lvl", level_dir);
	return write_file(level_path, arena_text) && write_file(path, bestiary_text) &&
	       write_file(still_path, "astray-level 1\nname: still\ntopology: square4\nmap:\n#######\n#@...>#\n#######\n") &&
	       write_file(corridor_path, "astray-level 1\nname: corridor\ntopology: hex\nmap:\n"
					     "# # # # # # #\n # @ . . r > #\n# # # # # # #\n")
		       ? 0 : -1;
}

static int teardown_files(void **state)
{
	(void)state;
	char path[160];
	snprintf(path, sizeof path, "%s/bestiary.txt", level_dir);
	remove(path);
	remove(level_path);
	remove(corridor_path);
	remove(still_path);
	remove(level_dir);
	return 0;
}

struct run {
	char *out;
	int status;
};

/* Runs `astray sim ARGS` (a shell fragment) and captures stdout. */
static struct run run_sim(const char *args)
{
	const char *bin = getenv("ASTRAY_BIN");
	char cmd[4096];
	int len = snprintf(cmd, sizeof cmd, "%s sim ", bin);
	/* @L stands for the test level, @D for its folder. */
	for (const char *a = args; *a && len < (int)sizeof cmd - 256; a++) {
		if (a[0] == '@' && (a[1] == 'L' || a[1] == 'D')) {
			len += snprintf(cmd + len, sizeof cmd - (size_t)len, "%s", a[1] == 'L' ? level_path : level_dir);
			a++;
		} else {
			cmd[len++] = *a;
		}
	}
	snprintf(cmd + len, sizeof cmd - (size_t)len, " 2>/dev/null");
	struct run r;
	r.out = run_capture(cmd, &r.status);
	return r;
}

#define BIN_SKIP()                                                       \
	do {                                                             \
		if (!getenv("ASTRAY_BIN")) {                             \
			print_message("skipped: ASTRAY_BIN is not set\n"); \
			skip();                                          \
		}                                                        \
	} while (0)

static void test_cli_same_seed_identical(void **state)
{
	(void)state;
	BIN_SKIP();
	static const char *const forms[] = {
		"@L --games 6 --seed 9 --player flee --no-time",
		"@L --games 6 --seed 9 --player exit --no-time --format csv --per-game",
		"@L --games 6 --seed 9 --player fight --no-time --format json --per-game",
		"@L --games 6 --seed 9 --no-time --compare 'goblin.sight=3' 'goblin.sight=9'",
	};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		struct run a = run_sim(forms[i]), b = run_sim(forms[i]);
		assert_int_equal(a.status, 0);
		assert_true(strlen(a.out) > 100);
		assert_string_equal(a.out, b.out);
		assert_null(strstr(a.out, "time_"));
		assert_null(strstr(a.out, "ms/turn"));
		free(a.out);
		free(b.out);
	}
}

/* Splits a CSV line (no quoted fields here) into fields; returns how many. */
static int csv_fields(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line;;) {
		if (n < max)
			f[n] = p;
		n++;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

/* Every line has the header's number of fields; returns the line count. */
static int csv_check(char *text, const char *header)
{
	char *save = NULL;
	int lines = 0, cols = 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[64];
		if (lines == 0) {
			assert_string_equal(line, header);
			char copy[1024];
			snprintf(copy, sizeof copy, "%s", line);
			cols = csv_fields(copy, f, 64);
		} else {
			assert_int_equal(csv_fields(line, f, 64), cols);
		}
		lines++;
	}
	return lines;
}

static void test_cli_csv_columns(void **state)
{
	(void)state;
	BIN_SKIP();
	char header[2048];
	/* The summary: one row per metric, then five per kind on the level
	 * (the arena has goblins and rats: both kinds of its bestiary). */
	struct run r = run_sim("@L --games 4 --format csv");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\n"));
	assert_non_null(strstr(r.out, ",goblin.damage,4,"));
	assert_non_null(strstr(r.out, ",rat.jams,4,"));
	assert_int_equal(csv_check(r.out, "level,metric,n,mean,sd,ci_lo,ci_hi,successes,time,distinct,distinct_games"),
			 1 + SIM_METRIC_COUNT + 2 * SIM_KIND_METRIC_COUNT);
	free(r.out);

	/* Per game: the documented columns, each kind's of the bestiary after
	 * the metrics, time columns last. */
	int len = snprintf(header, sizeof header, "level,game,seed,outcome,monsters,config");
	for (int pass = 0; pass < 2; pass++) {
		for (int m = 0; m < SIM_METRIC_COUNT; m++)
			if (sim_metric_info((enum sim_metric)m)->time == (pass == 1))
				len += snprintf(header + len, sizeof header - (size_t)len, ",%s",
						sim_metric_info((enum sim_metric)m)->name);
		for (int k = 0; k < 2 && pass == 0; k++)
			for (int km = 0; km < SIM_KIND_METRIC_COUNT; km++)
				len += snprintf(header + len, sizeof header - (size_t)len, ",%s.%s", k ? "rat" : "goblin",
						sim_kind_metric_info((enum sim_kind_metric)km)->name);
	}
	len += snprintf(header + len, sizeof header - (size_t)len, ",killer,topology,trace,settings");
	r = run_sim("@L --games 5 --seed 3 --format csv --per-game");
	assert_int_equal(r.status, 0);
	assert_int_equal(csv_check(r.out, header), 6);
	free(r.out);

	/* Without the time columns: the same text as --no-time gives. */
	r = run_sim("@L --games 5 --seed 3 --format csv --per-game");
	struct run nt = run_sim("@L --games 5 --seed 3 --format csv --per-game --no-time");
	char stripped[1 << 14] = "";
	size_t used = 0;
	char *save = NULL;
	int first_time = 0; /* the metrics that are not time */
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		first_time += !sim_metric_info((enum sim_metric)m)->time;
	for (char *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[64];
		int n = csv_fields(line, f, 64);
		int keep = 6 + first_time + 2 * SIM_KIND_METRIC_COUNT; /* the time columns, then killer, topology, trace and settings, come last */
		assert_int_equal(n, keep + (SIM_METRIC_COUNT - first_time) + 4);
		for (int k = 0; k < keep; k++)
			used += (size_t)snprintf(stripped + used, sizeof stripped - used, "%s%s", k ? "," : "", f[k]);
		used += (size_t)snprintf(stripped + used, sizeof stripped - used, ",%s,%s,%s,%s", f[n - 4], f[n - 3],
					 f[n - 2], f[n - 1]);
		used += (size_t)snprintf(stripped + used, sizeof stripped - used, "\n");
	}
	assert_string_equal(stripped, nt.out);
	free(r.out);
	free(nt.out);

	/* --compare: one row per metric with the paired interval. */
	r = run_sim("@L --games 5 --format csv --compare 'goblin.sight=3' 'goblin.sight=9'");
	assert_int_equal(r.status, 0);
	assert_int_equal(csv_check(r.out, "level,metric,n,a,b,diff,sd,ci_lo,ci_hi,excludes_zero,higher,time,"
					  "distinct,distinct_games,floor,practical"),
			 1 + SIM_METRIC_COUNT + 2 * SIM_KIND_METRIC_COUNT);
	free(r.out);
}

/* A folder stands for its .lvl files in name order, plus "all" rows. */
static void test_cli_folder(void **state)
{
	(void)state;
	BIN_SKIP();
	struct run r = run_sim("@D --games 1 --format csv --no-time");
	assert_int_equal(r.status, 0);
	char *first = strstr(r.out, "/arena.lvl,");
	char *second = strstr(r.out, "/b-corridor.lvl,");
	assert_non_null(first);
	assert_non_null(second);
	assert_true(first < second);
	assert_non_null(strstr(r.out, "\nall,killed,"));
	free(r.out);
}

static bool have_python(void)
{
	return system("command -v python3 >/dev/null 2>&1") == 0;
}

static void test_cli_json(void **state)
{
	(void)state;
	BIN_SKIP();
	static const char *const forms[] = {
		"@L --games 3 --format json --per-game",
		"@L @L --games 3 --format json",
		"@L --games 3 --format json --per-game --compare 'goblin.sight=3' 'goblin.sight=9'",
	};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		struct run r = run_sim(forms[i]);
		assert_int_equal(r.status, 0);
		/* The structure, by hand. */
		assert_int_equal(r.out[0], '{');
		assert_non_null(strstr(r.out, "\"format\": \"astray-sim 1\""));
		assert_non_null(strstr(r.out, "\"levels\": ["));
		assert_non_null(strstr(r.out, i == 2 ? "\"compare\": {" : "\"summary\": {"));
		for (int m = 0; m < SIM_METRIC_COUNT; m++) {
			char key[64];
			snprintf(key, sizeof key, "\"%s\": ", sim_metric_info((enum sim_metric)m)->name);
			assert_non_null(strstr(r.out, key));
		}
		assert_null(strstr(r.out, "nan"));
		if (i == 1)
			assert_non_null(strstr(r.out, "\"all\": {"));
		free(r.out);
		/* And a real parser, when there is one. */
		if (!have_python()) {
			print_message("note: python3 absent, JSON checked by structure only\n");
			continue;
		}
		char args[1024];
		snprintf(args, sizeof args, "%s | python3 -m json.tool >/dev/null", forms[i]);
		struct run py = run_sim(args);
		assert_int_equal(py.status, 0);
		free(py.out);
	}
}

static void test_cli_compare_table(void **state)
{
	(void)state;
	BIN_SKIP();
	struct run r = run_sim("@L --games 8 --player idle --chase "
				     "--compare 'goblin.damage=1,rat.damage=1' 'goblin.damage=5 rat.damage=5'");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "95% CI of B-A"));
	assert_non_null(strstr(r.out, "A = goblin.damage=1,rat.damage=1"));
	/* Five times the damage: a real difference, stated plainly. */
	assert_non_null(strstr(r.out, "A makes games last longer"));
	assert_non_null(strstr(r.out, "excludes 0"));
	free(r.out);
}

/* ---- --generate ----------------------------------------------------------- */

/* Same seed and game number: the same level and the same game; another seed: another level. */
static void test_generate_levels(void **state)
{
	(void)state;
	struct bestiary b;
	load_bestiary(&b);
	const enum grid_topology topos[] = { GRID_SQUARE8, GRID_HEX };
	struct sim_gen gen = { .topos = topos, .n_topos = 2, .w = 30, .h = 14, .depth = 2 };
	struct sim_level src = { .file = "gen", .gen = &gen };
	struct gen_result r1, r2, r3;
	char err[256];
	assert_true(sim_gen_make(&gen, &b, 0, 7, &r1, err, sizeof err));
	assert_true(sim_gen_make(&gen, &b, 0, 7, &r2, err, sizeof err));
	assert_true(sim_gen_make(&gen, &b, 0, 8, &r3, err, sizeof err));
	assert_int_equal(r1.len, r2.len);
	assert_memory_equal(r1.text, r2.text, r1.len);
	assert_true(r1.len != r3.len || memcmp(r1.text, r3.text, r1.len) != 0);
	gen_result_free(&r1);
	gen_result_free(&r2);
	gen_result_free(&r3);
	/* Topologies are taken in turn by game number. */
	for (int i = 0; i < 4; i++) {
		assert_true(sim_gen_make(&gen, &b, i, 7, &r1, err, sizeof err));
		assert_int_equal(r1.level->topo, topos[i % 2]);
		gen_result_free(&r1);
	}
	char name[128];
	sim_gen_name(&gen, 3, 42, name, sizeof name);
	assert_string_equal(name, "gen:hex:30x14:d2:42");

	struct sim_runner *r = sim_runner_create();
	struct sim_options opt = { .player = SIM_PLAYER_EXIT, .max_turns = 300 };
	struct sim_game g1, g2, g3;
	struct diag_list d = { 0 };
	assert_int_equal(sim_run_game_at(r, &src, &b, 1, 11, &opt, &g1, &d), 0);
	assert_int_equal(sim_run_game_at(r, &src, &b, 1, 11, &opt, &g2, &d), 0);
	assert_int_equal(g1.index, 1);
	for (int m = 0; m < SIM_METRIC_COUNT; m++) {
		if (sim_metric_info((enum sim_metric)m)->time)
			continue;
		if (isnan(g1.v[m]))
			assert_true(isnan(g2.v[m]));
		else
			assert_true(g1.v[m] == g2.v[m]);
	}
	/* Seeds 11..18 are eight different levels: not all the same game. */
	bool differ = false;
	for (uint64_t s = 12; s < 19; s++) {
		assert_int_equal(sim_run_game_at(r, &src, &b, 1, s, &opt, &g3, &d), 0);
		differ |= g3.v[SIM_M_TURNS] != g1.v[SIM_M_TURNS] || g3.monsters != g1.monsters;
	}
	assert_true(differ);
	diag_list_fini(&d);
	sim_runner_destroy(r);
}

/* The binary: per-game level names, --jobs and --shard give the same games,
 * and --compare of a setting with itself pairs every game with its twin. */
static void test_cli_generate(void **state)
{
	(void)state;
	BIN_SKIP();
	const char *base = "--generate square4,hex --size 30x12 --games 6 --seed 40 --no-time --per-game --format csv";
	char args[512];
	struct run a = run_sim(base);
	assert_int_equal(a.status, 0);
	assert_non_null(strstr(a.out, "\ngen:square4:30x12:d1:40,\"gen:square4,hex:30x12:d1\",0,40,"));
	assert_non_null(strstr(a.out, "\ngen:hex:30x12:d1:41,\"gen:square4,hex:30x12:d1\",1,41,"));
	assert_non_null(strstr(a.out, "\ngen:hex:30x12:d1:45,\"gen:square4,hex:30x12:d1\",5,45,"));
	snprintf(args, sizeof args, "%s --jobs 2", base);
	struct run b = run_sim(args);
	assert_int_equal(b.status, 0);
	assert_string_equal(a.out, b.out);
	free(b.out);
	snprintf(args, sizeof args, "%s --shard 2/2", base);
	b = run_sim(args);
	assert_int_equal(b.status, 0);
	assert_non_null(strstr(a.out, strchr(b.out, '\n') + 1)); /* the second half, byte for byte */
	free(b.out);
	free(a.out);
	a = run_sim("--generate square8 --size 30x12 --games 8 --no-time --format csv "
		    "--compare 'goblin.sight=5' 'goblin.sight=5'");
	assert_int_equal(a.status, 0);
	/* level,metric,n,a,b,diff,sd,...: every difference and its sd are exactly 0. */
	int rows = 0;
	for (char *line = strchr(a.out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		char metric[64];
		double av, bv, diff, sd;
		int n;
		if (sscanf(line + 1, "gen:square8:30x12:d1,%63[^,],%d,%lf,%lf,%lf,%lf", metric, &n, &av, &bv, &diff,
			   &sd) == 6) {
			assert_true(diff == 0 && sd == 0 && av == bv);
			rows++;
		}
	}
	assert_true(rows >= 10);
	free(a.out);
	static const char *const bad[] = {
		"@L --generate square8", "--generate nosuch", "--size 30x12", "--generate hex --size 3x3",
		"--generate hex --depth 0", "--generate hex --heatmap -",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		a = run_sim(bad[i]);
		if (a.status != 2)
			print_message("astray sim %s: exit %d, expected 2\n", bad[i], a.status);
		assert_int_equal(a.status, 2);
		free(a.out);
	}
}

/* --record: one journal per game, each verified by `astray replay --verify`;
 * a journal that cannot be written is an error, never dropped. */
static void test_cli_record(void **state)
{
	(void)state;
	BIN_SKIP();
	char dir[] = "/tmp/astray-sim-record-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char args[1024];
	snprintf(args, sizeof args, "@L --games 3 --seed 4 --player fight --no-time --jobs 2 --record %s", dir);
	struct run r = run_sim(args);
	assert_int_equal(r.status, 0);
	free(r.out);
	snprintf(args, sizeof args,
		 "--generate square8,hex --size 30x12 --games 2 --no-time --record %s "
		 "--set goblin.damage=1 --compare 'goblin.sight=3' 'goblin.sight=9'", dir);
	r = run_sim(args);
	assert_int_equal(r.status, 0);
	free(r.out);
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "n=0; for f in %s/*.jnl; do %s replay \"$f\" --verify >/dev/null 2>&1 || echo \"FAIL $f\"; n=$((n+1)); "
		 "done; echo \"n=$n\"",
		 dir, getenv("ASTRAY_BIN"));
	int st;
	char *out = run_capture(cmd, &st);
	print_message("%s", out);
	assert_string_equal(out, "n=7\n");
	free(out);
	snprintf(cmd, sizeof cmd, "ls %s", dir);
	out = run_capture(cmd, &st);
	assert_non_null(strstr(out, "gen-square8-30x12-d1-A-1.jnl"));
	assert_non_null(strstr(out, "gen-hex-30x12-d1-B-2.jnl"));
	free(out);
	/* The same games again: the journals exist, journal_create refuses to replace them. */
	snprintf(args, sizeof args, "@L --games 3 --seed 4 --player fight --no-time --record %s", dir);
	r = run_sim(args);
	assert_int_equal(r.status, 1);
	free(r.out);
	/* --force: the same journals written anew, and they replay; the rest of the folder kept */
	snprintf(cmd, sizeof cmd, "cp %s/arena-5.jnl %s/keep.txt && rm %s/arena-6.jnl", dir, dir, dir);
	free(run_capture(cmd, &st));
	snprintf(args, sizeof args, "@L --games 3 --seed 4 --player fight --no-time --jobs 2 --record %s --force", dir);
	r = run_sim(args);
	assert_int_equal(r.status, 0);
	free(r.out);
	snprintf(cmd, sizeof cmd,
		 "for f in %s/arena-*.jnl; do %s replay \"$f\" --verify >/dev/null 2>&1 || echo \"FAIL $f\"; done; "
		 "ls %s | wc -l",
		 dir, getenv("ASTRAY_BIN"), dir);
	out = run_capture(cmd, &st);
	assert_string_equal(out, "8\n"); /* 7 journals and keep.txt */
	free(out);
	r = run_sim("@L --games 1 --force");
	assert_int_equal(r.status, 2);
	free(r.out);
	snprintf(args, sizeof args, "@L --games 1 --chase --record %s", dir);
	r = run_sim(args);
	assert_int_equal(r.status, 2);
	free(r.out);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	free(run_capture(cmd, &st));
}

/* A level where every game is the same: one distinct game, said in words,
 * and no interval in any format. */
static void test_cli_identical_games(void **state)
{
	(void)state;
	BIN_SKIP();
	char args[512];
	snprintf(args, sizeof args, "%s --games 6 --no-time", still_path);
	struct run r = run_sim(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "  distinct games: 1 of 6\n"));
	assert_non_null(strstr(r.out, "Every game played out the same"));
	assert_non_null(strstr(r.out, "  turns                           6          4.0  -"));
	free(r.out);
	snprintf(args, sizeof args, "%s --games 6 --no-time --format json", still_path);
	r = run_sim(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"distinct_games\": 1,"));
	assert_non_null(strstr(r.out, "\"turns\": {\"n\": 6, \"mean\": 4, \"sd\": 0, \"ci_lo\": null, \"ci_hi\": null, "
				      "\"time\": false, \"distinct\": 1}"));
	free(r.out);
	snprintf(args, sizeof args, "%s --games 6 --no-time --format csv", still_path);
	r = run_sim(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ",turns,6,4,0,,,,0,1,1\n"));
	free(r.out);
	/* A setting of a kind no game had: said so. */
	snprintf(args, sizeof args, "%s --games 2 --no-time --set goblin.sight=3", still_path);
	r = run_sim(args);
	assert_non_null(strstr(r.out, "note: goblin.sight=3 changes nothing these games touched: no goblin took part"));
	free(r.out);
	snprintf(args, sizeof args, "%s --games 4 --no-time --compare goblin.sight=3 goblin.sight=9", still_path);
	r = run_sim(args);
	assert_non_null(strstr(r.out, "A and B played every game alike"));
	free(r.out);
}

/* A difference below a metric's floor is no verdict, however sure: B's
 * AI time is A's + 0.0001 ms in every game (an interval far from 0), under
 * the 0.01 ms floor; killed differs by a whole third and is reported. */
static void test_cli_floor(void **state)
{
	(void)state;
	BIN_SKIP();
	char path[192], text[4096];
	snprintf(path, sizeof path, "%s/floor.csv", level_dir);
	int len = snprintf(text, sizeof text, "level,side,game,seed,outcome,monsters,killed,time_ai_ms_mean,trace\n");
	for (int i = 0; i < 12; i++)
		for (int side = 0; side < 2; side++) {
			bool killed = side == 1 && i % 3 == 0;
			len += snprintf(text + len, sizeof text - (size_t)len, "x.lvl,%c,%d,%d,%s,1,%d,%.6f,%016x\n",
					side ? 'B' : 'A', i, i + 1, killed ? "killed" : "escaped", killed,
					0.1 + 0.001 * i + (side ? 0.0001 + 0.000001 * (i % 2) : 0), i * 2 + side + 1);
		}
	assert_true(write_file(path, text));
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s sim-report %s 2>&1", getenv("ASTRAY_BIN"), path);
	int st;
	char *out = run_capture(cmd, &st);
	print_message("%s", out);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "No practical difference in AI ms/turn mean: "));
	assert_non_null(strstr(out, "but is smaller than 0.01, the least that counts"));
	assert_non_null(strstr(out, "below the floor"));
	assert_non_null(strstr(out, "B catches the player more often: killed"));
	assert_non_null(strstr(out, "distinct games: 12 of 12 pairs"));
	free(out);
	snprintf(cmd, sizeof cmd, "%s sim-report %s --format csv 2>&1", getenv("ASTRAY_BIN"), path);
	out = run_capture(cmd, &st);
	assert_int_equal(st, 0);
	/* time_ai_ms_mean: excludes 0, higher B, a time column, 12 distinct pairs, floor 0.01, not practical */
	assert_non_null(strstr(out, ",1,B,1,12,12,0.01,0\n"));
	free(out);
	remove(path);
}

/* Every scripted player but idle ends its games on the campaign and on
 * generated levels: no timeouts, and every game that reached the turn
 * limit is counted as one (idle: none of its out-of-turns are). */
static void test_cli_no_livelock(void **state)
{
	(void)state;
	BIN_SKIP();
	static const char *const runs[] = {
		/* 35 of 200 games of fight on 02 hit the limit before (issue 31): 120 would show some */
		"levels/02-the-chase.lvl --games 120 --player fight --no-time --format csv",
		"levels/ --games 10 --player exit --no-time --format csv",
		"levels/ --games 10 --player fight --no-time --format csv",
		"levels/ --games 10 --player flee --no-time --format csv",
		"--generate square4,square8,hex,diamond4,diamond8 --games 5 --player fight --no-time --format csv",
		"--generate square4,square8,hex,diamond4,diamond8 --games 5 --player flee --no-time --format csv",
		"levels/01-first-steps.lvl --games 30 --player idle --turns 60 --no-time --format csv",
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		struct run r = run_sim(runs[i]);
		assert_int_equal(r.status, 0);
		bool idle = strstr(runs[i], "idle") != NULL;
		int rows = 0;
		/* each level's (and all's) timeouts row: 0 successes for the players that end their games;
		 * and, but for idle, no game out of turns either (test_timeouts_lowest_hp: one would be a timeout) */
		for (int key = 0; key < (idle ? 1 : 2); key++) {
			const char *name = key ? ",out_of_turns," : ",timeouts,";
			for (char *p = strstr(r.out, name); p; p = strstr(p + 1, name)) {
				char *f[16], line[256];
				char *eol = strchr(p, '\n');
				snprintf(line, sizeof line, "%.*s", (int)(eol - p), p);
				int n = csv_fields(line, f, 16);
				assert_true(n >= 8);
				if (strcmp(f[7], "0") != 0)
					print_message("astray sim %s: %s\n", runs[i], line);
				assert_string_equal(f[7], "0");
				rows++;
			}
		}
		assert_true(rows >= 1);
		/* and a game at the limit is out of turns: for idle that is all it can be */
		if (idle)
			assert_null(strstr(r.out, ",out_of_turns,30,0,"));
		free(r.out);
	}
}

static void test_cli_errors_and_help(void **state)
{
	(void)state;
	BIN_SKIP();
	struct run r = run_sim("--help");
	assert_int_equal(r.status, 0);
	for (int m = 0; m < SIM_METRIC_COUNT; m++)
		assert_non_null(strstr(r.out, sim_metric_info((enum sim_metric)m)->name));
	assert_non_null(strstr(r.out, "level,metric,n,mean,sd,ci_lo,ci_hi,successes,time"));
	assert_non_null(strstr(r.out, "--heat-kind KIND"));
	assert_non_null(strstr(r.out, "KIND.contacts"));
	free(r.out);
	/* One kind's heat: the title says which. */
	r = run_sim("@L --games 2 --no-time --heat-kind rat --heatmap -");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ": occupancy of rat only, 2 games, seed 1\n"));
	/* --kind is the same option */
	struct run k = run_sim("@L --games 2 --no-time --kind rat --heatmap -");
	assert_int_equal(k.status, 0);
	assert_string_equal(k.out, r.out);
	free(k.out);
	free(r.out);
	static const struct {
		const char *args;
		int status;
	} bad[] = {
		{ "", 2 },
		{ "@L --games 0", 2 },
		{ "@L --player dance", 2 },
		{ "@L --format xml", 2 },
		{ "@L --frobnicate", 2 },
		{ "@L --compare 'goblin.sight=2'", 2 },
		{ "@L --set troll.sight=2", 2 }, /* a bad option value: usage */
		{ "@L --compare 'goblin.sight=2' 'goblin.nosuch=1'", 2 },
		{ "no-such-level.lvl", 1 },
		{ "@L --heat-kind rat", 2 },                 /* no picture to restrict */
		{ "@L --heat-kind troll --heatmap -", 2 },   /* not in the bestiary */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = run_sim(bad[i].args);
		if (r.status != bad[i].status)
			print_message("astray sim %s: exit %d, expected %d\n", bad[i].args, r.status, bad[i].status);
		assert_int_equal(r.status, bad[i].status);
		assert_string_equal(r.out, "");
		free(r.out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_apply_settings),
		cmocka_unit_test(test_compare_constructed),
		cmocka_unit_test(test_exit_player_escapes),
		cmocka_unit_test(test_idle_player_killed),
		cmocka_unit_test(test_fight_player_kills),
		cmocka_unit_test(test_replay_same_seed),
		cmocka_unit_test(test_flee_player_keeps_away),
		cmocka_unit_test(test_movingai_chase),
		cmocka_unit_test(test_player_stream_routes),
		cmocka_unit_test(test_identical_games),
		cmocka_unit_test(test_timeouts_lowest_hp),
		cmocka_unit_test(test_fight_ends),
		cmocka_unit_test(test_cli_identical_games),
		cmocka_unit_test(test_cli_no_livelock),
		cmocka_unit_test(test_cli_floor),
		cmocka_unit_test(test_cli_same_seed_identical),
		cmocka_unit_test(test_cli_csv_columns),
		cmocka_unit_test(test_cli_folder),
		cmocka_unit_test(test_cli_json),
		cmocka_unit_test(test_cli_compare_table),
		cmocka_unit_test(test_cli_errors_and_help),
		cmocka_unit_test(test_generate_levels),
		cmocka_unit_test(test_cli_generate),
		cmocka_unit_test(test_cli_record),
	};
	return cmocka_run_group_tests(tests, setup_files, teardown_files);
}
