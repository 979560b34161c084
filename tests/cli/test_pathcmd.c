/*
 * test_pathcmd.c - `astray path` as a designer runs it: the real binary
 * (ASTRAY_BIN, the sanitized build in make test) against the golden files
 * tests/golden/path-*.txt, whose first line is "args: ..." and the rest the
 * exact output; then the error cases and their exit status.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "pty_check.h"
#include "run_capture.h"

/* The "route: blocked K cost C" of `astray path ... --fallback --time`
 * (standard error): the whole route's key, without its cell count. */
static void route_key(const char *args, int *blocked, double *cost)
{
	char cmd[2048];
	int status;
	snprintf(cmd, sizeof cmd, "NO_COLOR=1 %s %s --time 2>&1 >/dev/null", test_bin(), args);
	char *err = run_capture(cmd, &status);
	assert_int_equal(status, 0);
	const char *line = strstr(err, "route: ");
	assert_non_null(line);
	assert_int_equal(sscanf(line, "route: blocked %d cost %lf", blocked, cost), 2);
	free(err);
}

/* Runs the command line; returns its stdout (caller frees) and exit status. */
static char *run(const char *args, int *status)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "NO_COLOR=1 %s %s 2>/dev/null", test_bin(), args);
	return run_capture(cmd, status);
}

static void test_goldens(void **state)
{
	(void)state;
	DIR *d = opendir("tests/golden");
	assert_non_null(d);
	struct dirent *e;
	int n = 0, hex = 0, diamond = 0, fallback = 0, deep = 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "path-", 5) != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "tests/golden/%s", e->d_name);
		size_t len;
		char *golden = level_read_file(path, &len);
		assert_non_null(golden);
		assert_true(strncmp(golden, "args: ", 6) == 0);
		char *nl = strchr(golden, '\n');
		assert_non_null(nl);
		*nl = '\0';
		char args[1024];
		snprintf(args, sizeof args, "path %s", golden + 6);
		int status;
		char *out = run(args, &status);
		if (status != 0 || strcmp(out, nl + 1) != 0) {
			print_error("%s (status %d):\n--- expected\n%s--- got\n%s", path, status, nl + 1, out);
			fail();
		}
		/* the last line is exactly the figures */
		char *last = out + strlen(out) - 1;
		while (last > out && last[-1] != '\n')
			last--;
		double cost;
		int steps, ex, ey, used = 0;
		long expanded;
		char reached[4];
		assert_int_equal(sscanf(last, "cost=%lf steps=%d expanded=%ld reached=%3[a-z] end=%d,%d\n%n", &cost, &steps,
					&expanded, reached, &ex, &ey, &used), 6);
		assert_int_equal((size_t)used, strlen(last));
		hex += strstr(golden, "hex") != NULL;
		diamond += strstr(golden, "diamond") != NULL;
		fallback += strstr(golden, "--fallback") != NULL;
		if (strstr(golden, "--fallback")) {
			/* without the region labels: the same route, never fewer
			 * expansions; --time writes only to standard error.  A goal
			 * two or more blocked cells away may take another route of
			 * the same key (fallback_deep's tie rule): the same blocked
			 * cells and cost of the whole route */
			char more[1100];
			snprintf(more, sizeof more, "%s --no-regions", args);
			char *old = run(more, &status);
			assert_int_equal(status, 0);
			char *old_last = old + strlen(old) - 1;
			while (old_last > old && old_last[-1] != '\n')
				old_last--;
			double old_cost;
			int old_steps, ox, oy;
			long old_expanded;
			char old_reached[4];
			assert_int_equal(sscanf(old_last, "cost=%lf steps=%d expanded=%ld reached=%3[a-z] end=%d,%d",
						&old_cost, &old_steps, &old_expanded, old_reached, &ox, &oy), 6);
			int kb, old_kb;
			double kc, old_kc;
			route_key(args, &kb, &kc);
			route_key(more, &old_kb, &old_kc);
			assert_int_equal(kb, old_kb);
			assert_true(kc == old_kc);
			if ((size_t)(old_last - old) != (size_t)(last - out) || memcmp(old, out, (size_t)(last - out)) ||
			    old_cost != cost || old_steps != steps || ox != ex || oy != ey) {
				assert_true(kb >= 2);
				deep++;
			}
			assert_string_equal(old_reached, reached);
			assert_true(old_expanded >= expanded);
			free(old);
			snprintf(more, sizeof more, "%s --time", args);
			old = run(more, &status);
			assert_int_equal(status, 0);
			assert_string_equal(old, out);
			free(old);
		}
		free(out);
		free(golden);
		n++;
	}
	closedir(d);
	assert_true(n >= 10);
	assert_true(hex >= 3);
	assert_true(diamond >= 6); /* drawn in the doubled layout, same last line */
	assert_true(fallback >= 3);
	print_message("%d goldens, %d with the fallback, %d of them on another route of the same key\n", n, fallback,
		      deep);
}

static void test_errors_and_usage(void **state)
{
	(void)state;
	int st;
	char *out = run("path tests/levels/path/square.lvl 1,1 40,3", &st);
	assert_int_equal(st, 1); /* outside the map without --fallback */
	assert_string_equal(out, "");
	free(out);
	free(run("path tests/levels/path/square.lvl 0,0 3,3", &st));
	assert_int_equal(st, 1); /* start on a wall */
	out = run("path tests/levels/path/square.lvl 1,1 0,0", &st);
	assert_int_equal(st, 1); /* goal on a wall: no route, and no empty one printed */
	assert_string_equal(out, "");
	free(out);
	free(run("path tests/levels/errors/no-exit.lvl 1,1 2,1", &st));
	assert_int_equal(st, 1); /* a level with errors */
	free(run("path tests/levels/path/square.lvl 1,1", &st));
	assert_int_equal(st, 2);
	free(run("path tests/levels/path/square.lvl 1,1 x,y", &st));
	assert_int_equal(st, 2);
	free(run("path tests/levels/path/square.lvl 1,1 2,2 --weight -1", &st));
	assert_int_equal(st, 2);
	free(run("path tests/levels/path/square.lvl 1,1 2,2 --bogus", &st));
	assert_int_equal(st, 2);
	out = run("path --help", &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "cost=C steps=N expanded=E reached=yes|no end=X,Y"));
	free(out);
	/* no escape codes when stdout is not a terminal */
	out = run("path tests/levels/path/hex.lvl 1,1 11,4", &st);
	assert_int_equal(st, 0);
	assert_null(strchr(out, '\033'));
	free(out);
}

/* `path --as KIND`: the goldens tests/golden/plan-*.txt, each the exact
 * output of its args; the last line's figures, and what each mind must
 * show: the digger reaches the closed room through a wall it digs, the
 * chaser cannot, the pack member and the archer take a post. */
static void test_plan_goldens(void **state)
{
	(void)state;
	DIR *d = opendir("tests/golden");
	assert_non_null(d);
	struct dirent *e;
	int n = 0, staggered = 0, dug = 0, sealed = 0, posts = 0, fled = 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "plan-", 5) != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "tests/golden/%s", e->d_name);
		size_t len;
		char *golden = level_read_file(path, &len);
		assert_non_null(golden);
		assert_true(strncmp(golden, "args: ", 6) == 0);
		char *nl = strchr(golden, '\n');
		assert_non_null(nl);
		*nl = '\0';
		char args[1024];
		snprintf(args, sizeof args, "path %s", golden + 6);
		int status;
		char *out = run(args, &status);
		if (status != 0 || strcmp(out, nl + 1) != 0) {
			print_error("%s (status %d):\n--- expected\n%s--- got\n%s", path, status, nl + 1, out);
			fail();
		}
		char *last = out + strlen(out) - 1;
		while (last > out && last[-1] != '\n')
			last--;
		char kind[32], mind[16], struck[4], post[16], sees[4];
		int steps, ndug, ex, ey, turns, used = 0;
		assert_int_equal(sscanf(last, "kind=%31s mind=%15s steps=%d dug=%d struck=%3[a-z] end=%d,%d post=%15s "
					"sees=%3[a-z] turns=%d\n%n",
					kind, mind, &steps, &ndug, struck, &ex, &ey, post, sees, &turns, &used), 10);
		assert_int_equal((size_t)used, strlen(last));
		assert_true(turns > 0 && steps >= 0);
		/* S on the monster's cell, @ on the player's */
		assert_non_null(strchr(nl + 1, 'S'));
		assert_non_null(strchr(nl + 1, '@'));
		staggered += strstr(golden, "hex") != NULL || strstr(golden, "diamond") != NULL;
		if (strstr(e->d_name, "square8-dig")) {
			assert_string_equal(mind, "dig");
			assert_true(ndug >= 1);
			assert_string_equal(struck, "yes");
			assert_non_null(strchr(nl + 1, '='));
			dug++;
		}
		if (strstr(e->d_name, "chase-sealed")) {
			assert_int_equal(ndug, 0);
			assert_string_equal(struck, "no");
			sealed++;
		}
		if (strstr(e->d_name, "flee")) {
			/* hurt, it runs: it ends farther from the player (8,5) than it began (6,5) */
			assert_string_equal(struck, "no");
			assert_true(steps >= 3);
			assert_true(abs(ex - 8) > 2);
			assert_non_null(strstr(out, "(hurt: it flees)"));
			fled++;
		}
		if (strstr(e->d_name, "pack") || strstr(e->d_name, "ranged")) {
			assert_true(strcmp(post, "none") != 0);
			posts++;
		}
		free(out);
		free(golden);
		n++;
	}
	closedir(d);
	assert_true(n >= 8);
	assert_true(staggered >= 3);
	assert_int_equal(dug, 1);
	assert_int_equal(sealed, 1);
	assert_true(posts >= 3);
	assert_int_equal(fled, 1);
}

static void test_plan_errors(void **state)
{
	(void)state;
	int st;
	const char *lvl = "tests/levels/path/plan.lvl";
	char args[512];
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 2,2 14,4 --as dragon", lvl);
	free(run(args, &st));
	assert_int_equal(st, 2); /* no such kind */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 0,0 14,4 --as goblin", lvl);
	free(run(args, &st));
	assert_int_equal(st, 1); /* on a wall */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 2,2 17,6 --as goblin", lvl);
	free(run(args, &st));
	assert_int_equal(st, 1); /* the exit */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 2,2 40,4 --as goblin", lvl);
	free(run(args, &st));
	assert_int_equal(st, 1); /* outside */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 2,2 14,4 --as goblin --fallback", lvl);
	free(run(args, &st));
	assert_int_equal(st, 2); /* the kind's own settings only */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 2,2 14,4 --sight", lvl);
	free(run(args, &st));
	assert_int_equal(st, 2); /* --sight needs --as */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 6,5 8,5 --as wolf --hurt", lvl);
	free(run(args, &st));
	assert_int_equal(st, 1); /* a wolf never flees */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 6,5 8,5 --hurt", lvl);
	free(run(args, &st));
	assert_int_equal(st, 2); /* --hurt needs --as */
	/* the letter names the kind as well as the name */
	snprintf(args, sizeof args, "path --bestiary levels/bestiary.txt %s 1,1 9,5 --as g", lvl);
	char *out = run(args, &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "kind=goblin mind=chase"));
	free(out);
}


/* The n-th line of text (0 first), without its newline, into buf. */
static void nth_line(const char *text, int n, char *buf, size_t size)
{
	for (int i = 0; i < n && text; i++) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	assert_non_null(text);
	size_t len = strcspn(text, "\n");
	assert_true(len < size);
	memcpy(buf, text, len);
	buf[len] = '\0';
}

static int count_lines(const char *text)
{
	int n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* A map of more than 250,000 cells prints the box round the route, 3
 * cells beyond it, each row the same as in the whole map (--whole),
 * which is what a smaller map prints. */
static void test_large_map_cropped(void **state)
{
	(void)state;
	char dir[64], level[96];
	assert_true(pty_data_make(dir, sizeof dir, "path-big"));
	snprintf(level, sizeof level, "%s/big.lvl", dir);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "gen --topology hex --size 600x450 --seed 3 -o %s", level);
	int st;
	free(run(cmd, &st));
	assert_int_equal(st, 0);
	snprintf(cmd, sizeof cmd, "path %s 100,100 140,121 --fallback", level);
	char *cut = run(cmd, &st);
	assert_int_equal(st, 0);
	snprintf(cmd, sizeof cmd, "path %s 100,100 140,121 --fallback --whole", level);
	char *whole = run(cmd, &st);
	assert_int_equal(st, 0);
	assert_true(pty_data_remove(dir));
	int x0, x1, y0, y1;
	assert_int_equal(sscanf(cut, "columns %d-%d and rows %d-%d of the 600x450 map", &x0, &x1, &y0, &y1), 4);
	/* the route's box holds both ends; 3 cells more each way */
	assert_true(x0 <= 97 && x1 >= 143 && y0 <= 97 && y1 >= 124);
	assert_true(x1 - x0 < 120 && y1 - y0 < 80);
	assert_int_equal(count_lines(cut), 1 + (y1 - y0 + 1) + 2);
	assert_int_equal(count_lines(whole), 450 + 2);
	assert_true(strncmp(whole, "columns", 7) != 0);
	char a[4096], b[4096];
	for (int y = y0; y <= y1; y++) {
		nth_line(cut, 1 + y - y0, a, sizeof a);
		nth_line(whole, y, b, sizeof b);
		/* hex rows in the doubled layout: the box's columns 2 x0 to 2 x1 + 1 */
		char want[4096];
		size_t from = 2 * (size_t)x0, n = strlen(b) > from ? strlen(b) - from : 0;
		if (n > 2 * (size_t)(x1 - x0) + 2)
			n = 2 * (size_t)(x1 - x0) + 2;
		memcpy(want, b + from, n);
		while (n > 0 && want[n - 1] == ' ')
			n--;
		want[n] = '\0';
		assert_string_equal(a, want);
	}
	assert_non_null(strchr(cut, 'S'));
	/* the same last lines */
	nth_line(cut, count_lines(cut) - 1, a, sizeof a);
	nth_line(whole, count_lines(whole) - 1, b, sizeof b);
	assert_string_equal(a, b);
	assert_true(strncmp(a, "cost=", 5) == 0);
	free(cut);
	free(whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens),
		cmocka_unit_test(test_errors_and_usage),
		cmocka_unit_test(test_plan_goldens),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_large_map_cropped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
