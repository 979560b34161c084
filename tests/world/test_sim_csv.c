/*
 * test_sim_csv.c - the reader of sim's per-game CSV (sim-report): games
 * put in place from files in any order, quoted names, missing metrics,
 * and every error with its file and line.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim_csv.h"

static const char head[] = "level,game,seed,outcome,monsters,killed,damage,first_contact\n";

static bool add(struct sim_csv *c, const char *file, const char *text, struct diag_list *d)
{
	return sim_csv_add(c, file, text, strlen(text), d);
}

static void test_merge(void **state)
{
	(void)state;
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	char a[512], b[512];
	snprintf(a, sizeof a, "%s\"x,\"\"y\"\".lvl\",2,9,killed,3,1,30,4\r\n", head);
	snprintf(b, sizeof b, "%s\"x,\"\"y\"\".lvl\",0,7,escaped,3,0,2.5,\n\"x,\"\"y\"\".lvl\",1,8,out_of_turns,3,0,0,\n",
		 head);
	assert_true(add(c, "b.csv", a, &d));
	assert_true(add(c, "a.csv", b, &d));
	struct sim_csv_result r;
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(d.n, 0);
	assert_int_equal(r.n_levels, 1);
	assert_int_equal(r.games, 3);
	assert_string_equal(r.levels[0].file, "x,\"y\".lvl");
	assert_int_equal(r.seed, 7);
	assert_false(r.compare);
	const struct sim_game *g = r.levels[0].games[0];
	assert_int_equal(g[0].outcome, SIM_ESCAPED);
	assert_true(g[0].v[SIM_M_DAMAGE] == 2.5);
	assert_true(isnan(g[0].v[SIM_M_FIRST_CONTACT]));
	assert_true(g[2].v[SIM_M_FIRST_CONTACT] == 4);
	assert_int_equal(g[2].index, 2);
	assert_true(isnan(g[1].v[SIM_M_TURNS])); /* absent column */
	assert_true(r.hidden[SIM_M_TURNS]);
	assert_false(r.hidden[SIM_M_KILLED]);
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

/* A quoted field that holds newlines (a level's file name) is one field
 * of one record, whose lines count for the line numbers after it. */
static void test_newline_in_field(void **state)
{
	(void)state;
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	char a[512];
	snprintf(a, sizeof a, "%s\"a\nb\r\n.lvl\",0,7,escaped,3,0,2.5,\n\"a\nb\r\n.lvl\",1,8,killed,3,1,4,2\r\n", head);
	assert_true(add(c, "a.csv", a, &d));
	struct sim_csv_result r;
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(d.n, 0);
	assert_int_equal(r.n_levels, 1);
	assert_int_equal(r.games, 2);
	assert_string_equal(r.levels[0].file, "a\nb\r\n.lvl");
	assert_int_equal(r.levels[0].games[0][1].outcome, SIM_KILLED);
	sim_csv_destroy(c);
	diag_list_fini(&d);

	/* the line of an error after such a record is the file's line */
	c = sim_csv_create();
	snprintf(a, sizeof a, "%s\"a\nb.lvl\",0,7,escaped,3,0,2.5,\nL,x,8,killed,3,1,4,2\n", head);
	assert_false(add(c, "b.csv", a, &d));
	assert_int_equal(d.n, 1);
	assert_int_equal(d.items[0].line, 4);
	sim_csv_destroy(c);
	diag_list_fini(&d);

	/* a quote never closed is refused at its record's first line */
	c = sim_csv_create();
	snprintf(a, sizeof a, "%s\"a\nb.lvl,0,7,escaped,3,0,2.5,\n", head);
	assert_false(add(c, "c.csv", a, &d));
	assert_int_equal(d.n, 1);
	assert_int_equal(d.items[0].line, 2);
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

/* Each bad input: the message and where it points. */
static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} cases[] = {
		{ "level,metric,n\n", 1, "unknown column 'metric'" },
		{ "level,seed\n", 1, "no level and game columns" },
		{ "level,game,outcome\nL,0,won\n", 2, "outcome 'won'" },
		{ "level,game,killed\nL,0,x\n", 2, "killed 'x'" },
		{ "level,game,killed\nL,0\n", 2, "2 fields, the header has 3" },
		{ "level,game\n\"L,0\n", 2, "broken quoting" },
		{ "level,game\nL,-1\n", 2, "game '-1'" },
		{ "level,side,game\nL,C,0\n", 2, "side 'C'" },
		/* per-kind columns: whole counts, all five of a kind, each once */
		{ "level,game,wolf.monsters,wolf.contacts,wolf.damage,wolf.deaths,wolf.jams\nL,0,2,1.5,0,0,0\n", 2,
		  "wolf.contacts '1.5' (expected a whole count or nothing)" },
		{ "level,game,wolf.monsters,wolf.contacts,wolf.damage,wolf.deaths,wolf.jams\nL,0,2,-1,0,0,0\n", 2,
		  "wolf.contacts '-1'" },
		{ "level,game,wolf.monsters,wolf.contacts,wolf.damage,wolf.deaths\n", 1,
		  "no column wolf.jams: each kind has one for each of" },
		{ "level,game,wolf.jams,wolf.jams\n", 1, "the column 'wolf.jams' appears twice" },
		{ "level,game,.jams\n", 1, "unknown column '.jams'" },
		{ "level,game,wolf.bites\n", 1, "unknown column 'wolf.bites'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sim_csv *c = sim_csv_create();
		struct diag_list d = { 0 };
		assert_false(add(c, "f.csv", cases[i].text, &d));
		assert_int_equal(d.n, 1);
		assert_int_equal(d.items[0].line, cases[i].line);
		if (!strstr(d.items[0].msg, cases[i].msg))
			print_message("case %zu: %s\n", i, d.items[0].msg);
		assert_non_null(strstr(d.items[0].msg, cases[i].msg));
		sim_csv_destroy(c);
		diag_list_fini(&d);
	}
	/* A game twice: found when the files are put together, at the second
	 * place with the first named. */
	{
		struct sim_csv *c = sim_csv_create();
		struct diag_list d = { 0 };
		struct sim_csv_result r;
		assert_true(add(c, "f.csv", "level,game\nL,0\nL,0\n", &d));
		assert_false(sim_csv_finish(c, &r, &d));
		assert_int_equal(d.n, 1);
		assert_non_null(strstr(d.items[0].msg, "game 0 of L appears twice (also at f.csv:"));
		assert_string_equal(d.items[0].file, "f.csv");
		assert_true(d.items[0].line == 2 || d.items[0].line == 3);
		sim_csv_destroy(c);
		diag_list_fini(&d);
	}
	/* A gap, and an empty input. */
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	struct sim_csv_result r;
	assert_true(add(c, "f.csv", "level,game\nL,0\nL,2\n", &d));
	assert_false(sim_csv_finish(c, &r, &d));
	assert_non_null(strstr(d.items[0].msg, "game 1 is missing"));
	sim_csv_destroy(c);
	diag_list_fini(&d);
	c = sim_csv_create();
	assert_false(add(c, "f.csv", "", &d));
	assert_non_null(strstr(d.items[0].msg, "empty"));
	assert_false(sim_csv_add(c, "n.csv", "level,game\nL,\0", 14, &d));
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

/* Per-kind columns: read back as sim wrote them, an empty kind absent
 * from its game; two files must name the same kinds in the same order. */
static void test_kinds(void **state)
{
	(void)state;
	static const char kh[] = "level,game,seed,killed,rat.monsters,rat.contacts,rat.damage,rat.deaths,rat.jams,"
				 "orc.monsters,orc.contacts,orc.damage,orc.deaths,orc.jams\n";
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	char a[512], b[512];
	snprintf(a, sizeof a, "%sL,0,5,1,2,7,12,1,3,,,,,\n", kh);
	snprintf(b, sizeof b, "%sL,1,6,0,1,0,0,0,0,4,9,4294967295,0,2\n", kh);
	assert_true(add(c, "a.csv", a, &d));
	assert_true(add(c, "b.csv", b, &d));
	struct sim_csv_result r;
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(r.n_kinds, 2);
	assert_string_equal(r.kind_names[0], "rat");
	assert_string_equal(r.kind_names[1], "orc");
	const struct sim_game *g = r.levels[0].games[0];
	assert_true(sim_game_value(&g[0], sim_kind_col(0, SIM_K_DAMAGE)) == 12);
	assert_true(sim_game_value(&g[0], sim_kind_col(0, SIM_K_JAMS)) == 3);
	assert_true(isnan(sim_game_value(&g[0], sim_kind_col(1, SIM_K_CONTACTS)))); /* no orc in game 0 */
	assert_true(sim_game_value(&g[1], sim_kind_col(1, SIM_K_DAMAGE)) == 4294967295.0);
	assert_true(sim_game_value(&g[1], sim_kind_col(0, SIM_K_CONTACTS)) == 0);
	struct stats_summary s;
	assert_int_equal(sim_summarize_col(g, 2, sim_kind_col(1, SIM_K_JAMS), &s), 1);
	assert_true(s.mean == 2);
	sim_csv_destroy(c);
	/* Another bestiary's kinds (or order): refused at the header. */
	c = sim_csv_create();
	assert_true(add(c, "a.csv", a, &d));
	static const char swapped[] = "level,game,seed,killed,orc.monsters,orc.contacts,orc.damage,orc.deaths,"
				      "orc.jams,rat.monsters,rat.contacts,rat.damage,rat.deaths,rat.jams\n";
	assert_false(add(c, "c.csv", swapped, &d));
	assert_int_equal(d.items[d.n - 1].line, 1);
	assert_non_null(strstr(d.items[d.n - 1].msg, "per-kind columns name other kinds"));
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

/* With seeds, games are placed by seed: disjoint --seed ranges merge like
 * --shard slices, and the merged run starts at the lowest seed. */
static void test_seed_ranges(void **state)
{
	(void)state;
	static const char h[] = "level,game,seed,outcome,monsters,damage\n";
	char a[512], b[512];
	/* run 1: --seed 10 --games 2; run 2: --seed 12 --games 3 (its games 0..2) */
	snprintf(a, sizeof a, "%sL,0,12,escaped,4,12\nL,1,13,escaped,4,13\nL,2,14,killed,4,14\n", h);
	snprintf(b, sizeof b, "%sL,0,10,escaped,5,10\nL,1,11,escaped,5,11\n", h);
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	struct sim_csv_result r;
	assert_true(add(c, "late.csv", a, &d));
	assert_true(add(c, "early.csv", b, &d));
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(r.games, 5);
	assert_int_equal(r.seed, 10);
	assert_int_equal(r.levels[0].monsters, 5); /* game 0 is seed 10's */
	for (int i = 0; i < 5; i++) {
		assert_int_equal(r.levels[0].games[0][i].index, i);
		assert_int_equal(r.levels[0].games[0][i].seed, 10 + i);
		assert_true(r.levels[0].games[0][i].v[SIM_M_DAMAGE] == 10 + i);
	}
	sim_csv_destroy(c);
	/* Seeds that wrap past 2^64 - 1 are still one range, from its start. */
	c = sim_csv_create();
	assert_true(add(c, "w.csv",
			"level,game,seed\nL,2,1\nL,0,18446744073709551615\nL,1,0\n", &d));
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(r.games, 3);
	assert_true(r.seed == UINT64_MAX);
	assert_int_equal(r.levels[0].games[0][2].seed, 1);
	sim_csv_destroy(c);
	/* A hole between the ranges, and a level with other seeds. */
	c = sim_csv_create();
	assert_true(add(c, "h.csv", "level,game,seed\nL,0,10\nL,1,11\nL,0,14\n", &d));
	assert_false(sim_csv_finish(c, &r, &d));
	assert_non_null(strstr(d.items[d.n - 1].msg, "the games with seeds 12..13 are missing"));
	sim_csv_destroy(c);
	c = sim_csv_create();
	assert_true(add(c, "h.csv", "level,game,seed\nL,0,10\nL,1,11\nM,0,11\nM,1,12\n", &d));
	assert_false(sim_csv_finish(c, &r, &d));
	assert_non_null(strstr(d.items[d.n - 1].msg, "has 2 games (from seed 11), L has 2 (from seed 10)"));
	sim_csv_destroy(c);
	/* The same seed twice, from two files. */
	c = sim_csv_create();
	assert_true(add(c, "x.csv", "level,game,seed\nL,0,10\nL,1,11\n", &d));
	assert_true(add(c, "y.csv", "level,game,seed\nL,0,11\n", &d));
	assert_false(sim_csv_finish(c, &r, &d));
	assert_non_null(strstr(d.items[d.n - 1].msg, "the game with seed 11 of L appears twice (also at "));
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

/* The config column: files of one run merge; a game of another run (other
 * settings) is refused where it is read, with the row it differs from;
 * the two sides of --compare have their own. */
static void test_config(void **state)
{
	(void)state;
	static const char h[] = "level,side,game,seed,outcome,monsters,config\n";
	struct diag_list d = { 0 };
	struct sim_csv_result r;
	struct sim_csv *c = sim_csv_create();
	char a[512], b[512];
	snprintf(a, sizeof a, "%sL,A,0,1,killed,2,00000000000000a1\nL,B,0,1,killed,2,00000000000000b2\n", h);
	snprintf(b, sizeof b, "%sL,A,1,2,escaped,2,00000000000000a1\nL,B,1,2,killed,2,00000000000000b2\n", h);
	assert_true(add(c, "s1.csv", a, &d));
	assert_true(add(c, "s2.csv", b, &d));
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(r.games, 2);
	assert_true(r.compare);
	sim_csv_destroy(c);

	/* side B of the second file was played under other settings */
	c = sim_csv_create();
	snprintf(b, sizeof b, "%sL,A,1,2,escaped,2,00000000000000a1\nL,B,1,2,killed,2,00000000000000b3\n", h);
	assert_true(add(c, "s1.csv", a, &d));
	assert_false(add(c, "s2.csv", b, &d));
	assert_string_equal(d.items[d.n - 1].file, "s2.csv");
	assert_int_equal(d.items[d.n - 1].line, 3);
	assert_non_null(strstr(d.items[d.n - 1].msg, "side B: this game of L was played under other settings than "
							 "s1.csv:3 (config 00000000000000b3, not 00000000000000b2)"));
	sim_csv_destroy(c);

	/* not 16 hex digits; a file with the column and one without */
	c = sim_csv_create();
	assert_false(add(c, "f.csv", "level,game,config\nL,0,12345\n", &d));
	assert_non_null(strstr(d.items[d.n - 1].msg, "config '12345' (expected 16 hexadecimal digits)"));
	sim_csv_destroy(c);
	c = sim_csv_create();
	assert_true(add(c, "f.csv", "level,game,config\nL,0,0123456789abcdef\n", &d));
	assert_false(add(c, "g.csv", "level,game\nL,1\n", &d));
	assert_non_null(strstr(d.items[d.n - 1].msg, "its columns differ from the first file's"));
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

/* --generate: the run column groups the games, each keeping its own level
 * name; game i must be on the topology a single run gives game i. */
static void test_generated(void **state)
{
	(void)state;
	static const char h[] = "level,run,game,seed\n";
	char a[512];
	snprintf(a, sizeof a,
		 "%sgen:hex:39x23:d1:6,\"gen:square4,hex:d1\",1,6\n"
		 "gen:square4:79x23:d1:5,\"gen:square4,hex:d1\",0,5\n"
		 "gen:hex:39x23:d1:4,\"gen:square4,hex:d1\",1,4\n"
		 "gen:square4:79x23:d1:3,\"gen:square4,hex:d1\",0,3\n", h);
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	struct sim_csv_result r;
	assert_true(add(c, "g.csv", a, &d));
	assert_true(sim_csv_finish(c, &r, &d));
	assert_int_equal(r.n_levels, 1);
	assert_string_equal(r.levels[0].file, "gen:square4,hex:d1");
	assert_int_equal(r.games, 4);
	assert_int_equal(r.seed, 3);
	sim_csv_destroy(c);
	/* Seeds 4..5 from another --seed: game 0 (seed 4) would be square4. */
	snprintf(a, sizeof a,
		 "%sgen:square4:79x23:d1:4,\"gen:square4,hex:d1\",0,4\n"
		 "gen:hex:39x23:d1:5,\"gen:square4,hex:d1\",1,5\n"
		 "gen:square4:79x23:d1:3,\"gen:square4,hex:d1\",0,3\n", h);
	c = sim_csv_create();
	assert_true(add(c, "g.csv", a, &d));
	assert_false(sim_csv_finish(c, &r, &d));
	assert_int_equal(d.items[d.n - 1].line, 2);
	assert_non_null(strstr(d.items[d.n - 1].msg,
			       "gen:square4:79x23:d1:4 is game 1 of the merged run from seed 3, which a single run "
			       "plays on hex: with --generate, start each --seed range a multiple of 2 games"));
	sim_csv_destroy(c);
	diag_list_fini(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_newline_in_field),
		cmocka_unit_test(test_seed_ranges),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
