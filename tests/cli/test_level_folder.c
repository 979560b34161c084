/*
 * test_level_folder.c - a level kept in a folder of its own, with no
 * bestiary beside it, run from that folder: check, path, sim, play and
 * the editor's bench take the bestiary of the levels the program came
 * with (cli_bestiary_path), as the title's dungeons do; and a copy of
 * the program with no levels beside it says where it looked.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pty_check.h"
#include "run_capture.h"

struct folder {
	char dir[64];          /* a fresh folder under /tmp (pty_data_make) */
	char exe[PATH_MAX];    /* the program, by its whole path */
};

static int setup(void **state)
{
	struct folder *f = calloc(1, sizeof *f);
	assert_non_null(f);
	assert_non_null(realpath(test_bin(), f->exe));
	assert_true(pty_data_make(f->dir, sizeof f->dir, "folder"));
	/* the campaign's first level, and the same with its rat made a
	 * letter no bestiary has */
	char cmd[PATH_MAX + 256];
	snprintf(cmd, sizeof cmd, "cp levels/01-first-steps.lvl '%s/lone.lvl' && "
		 "sed 's/\\.r\\./.Z./' levels/01-first-steps.lvl > '%s/stranger.lvl'", f->dir, f->dir);
	assert_int_equal(system(cmd), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct folder *f = *state;
	if (!pty_data_remove(f->dir))
		print_error("could not remove %s\n", f->dir);
	free(f);
	return 0;
}

/* Runs `astray ARGS` (exe: the program's whole path) in the folder;
 * standard output and error together. */
static char *run_in(const struct folder *f, const char *exe, const char *args, int *status)
{
	char cmd[2 * PATH_MAX + 512];
	snprintf(cmd, sizeof cmd, "cd '%s' && NO_COLOR=1 '%s' %s 2>&1", f->dir, exe, args);
	return run_capture(cmd, status);
}

/* `astray ARGS` in the folder: it exits with `status` (-1: anything but
 * 0), finds the bestiary, and prints `want`. */
static void expect_run(const struct folder *f, const char *args, int status, const char *want)
{
	int got;
	char *out = run_in(f, f->exe, args, &got);
	if (status < 0)
		assert_int_not_equal(got, 0);
	else
		assert_int_equal(got, status);
	assert_null(strstr(out, "no bestiary"));
	assert_null(strstr(out, "needs a bestiary"));
	if (!strstr(out, want))
		fail_msg("astray %s did not print '%s':\n%s", args, want, out);
	free(out);
}

static void test_check_finds_the_bestiary(void **state)
{
	struct folder *f = *state;
	expect_run(f, "check lone.lvl", 0, "0 errors");
	/* the monster letters are checked: with the bestiary found, the
	 * unknown one is an error at its cell */
	expect_run(f, "check stranger.lvl", -1, "stranger.lvl:18:");
	expect_run(f, "check stranger.lvl", -1, "'Z'");
}

static void test_path_as_a_monster(void **state)
{
	/* the rat at 18,10 plans toward the player's start */
	expect_run(*state, "path lone.lvl 18,10 3,3 --as rat", 0, "kind=rat mind=chase");
}

static void test_sim_and_play(void **state)
{
	expect_run(*state, "sim lone.lvl --games 2 --no-time", 0, "rat");
	expect_run(*state, "play lone.lvl --seed 1 --bench-preview 4", 0, "bench-preview:");
}

/* A copy of the program in a folder with no levels beside it finds no
 * bestiary, and says where it looked and how to give one. */
static void test_lone_program_says_where_it_looked(void **state)
{
	struct folder *f = *state;
	char cmd[2 * PATH_MAX + 64], lone[PATH_MAX + 32];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/bin' && cp '%s' '%s/bin/astray'", f->dir, f->exe, f->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(lone, sizeof lone, "%s/bin/astray", f->dir);
	int status;
	char *out = run_in(f, lone, "sim lone.lvl --games 1 --no-time", &status);
	if (access("/usr/local/share/astray/levels/bestiary.txt", F_OK) == 0) {
		print_message("a bestiary is installed: the lone program finds it\n");
		assert_int_equal(status, 0);
	} else {
		assert_int_not_equal(status, 0);
		assert_non_null(strstr(out, "lone.lvl: error: no bestiary.txt found"));
		assert_non_null(strstr(out, "beside the program"));
		assert_non_null(strstr(out, "--bestiary FILE"));
	}
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_finds_the_bestiary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_as_a_monster, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sim_and_play, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lone_program_says_where_it_looked, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
