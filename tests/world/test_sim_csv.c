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
		{ "level,game\nL,0\nL,0\n", 3, "appears twice" },
		{ "level,game\n\"L,0\n", 2, "broken quoting" },
		{ "level,game\nL,-1\n", 2, "game '-1'" },
		{ "level,side,game\nL,C,0\n", 2, "side 'C'" },
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
