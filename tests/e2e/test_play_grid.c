/*
 * test_play_grid.c - a player is told which grid a level uses ($ASTRAY_BIN,
 * built with the sanitizers, in a pseudo-terminal): entering a hex,
 * diamond or square4 level says so on the notice row beside the entry
 * messages, a square8 level says nothing unless the level before was
 * another grid, and the help (?) lists the move keys of the level's own
 * grid only, its title naming the grid.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "run_capture.h"


static void start(struct pty *p, const char *level)
{
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)level, (char *)"--seed", (char *)"1",
			 (char *)"--no-save", (char *)"--bestiary", (char *)"levels/bestiary.txt", NULL };
	assert_true(pty_start(p, 24, 80, argv));
	if (!pty_wait_text(p, "Turn 0", WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, "the game did not start");
}

static void quit(struct pty *p)
{
	pty_wait_idle(p, WAIT_MS); /* the frame whole: a --More-- on it shows */
	for (int i = 0; i < 10 && pty_find(p, "--More--", NULL, NULL); i++)
		pty_send_idle(p, " ");
	pty_send(p, "Q");
	if (!pty_wait_text(p, "Really quit", WAIT_MS))
		pty_fail(p, "no quit question");
	pty_send(p, "y");
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_true(WIFEXITED(p->status));
	assert_int_equal(WEXITSTATUS(p->status), 0);
	pty_close(p);
}

/* Opens the help; every string of want must show on its first page and
 * none of refuse; then returns to the map. */
static void help_shows(struct pty *p, const char *const *want, const char *const *refuse)
{
	pty_send(p, "?");
	if (!pty_wait_text(p, "astray - keys", WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, "? did not open the help");
	for (; want && *want; want++)
		if (!pty_find(p, *want, NULL, NULL))
			pty_fail(p, *want);
	for (; refuse && *refuse; refuse++)
		if (pty_find(p, *refuse, NULL, NULL))
			pty_fail(p, *refuse);
	pty_send(p, "x");
	if (!pty_wait_text(p, "Turn 0", WAIT_MS))
		pty_fail(p, "the help did not return to the map");
}

static void test_hex(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/hex.lvl");
	if (!pty_wait_text(&p, "This level is a hex map: y u up, h l sideways, b n down", WAIT_MS))
		pty_fail(&p, "entering a hex level does not say so");
	/* the entry message is still there beside it */
	if (!pty_find(&p, "You enter E2E Hex", NULL, NULL))
		pty_fail(&p, "the entry message is gone");
	const char *want[] = { "(this level is a hex map)", "y u up, h l sideways, b n down", "numpad 7 9 4 6 1 3",
			       NULL };
	const char *refuse[] = { "numpad 1-9", "diamond", "square4", NULL };
	help_shows(&p, want, refuse);
	quit(&p);
}

/* On a hex map with no border, up from the top row (k and the arrow key,
 * which pick between the two steps up) is the edge of the map: said, and
 * nothing read outside the map (the sanitized build aborted there). */
static void test_hex_edge(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/hex-edge.lvl");
	pty_send(&p, "k");
	if (!pty_wait_text(&p, "The edge of the map.", WAIT_MS))
		pty_fail(&p, "k on the top row is not the edge of the map");
	pty_send(&p, "\033[A");
	if (!pty_wait_text(&p, "The edge of the map. (x2)", WAIT_MS))
		pty_fail(&p, "the up arrow on the top row is not the edge of the map");
	quit(&p);
}

static void test_diamond4(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/diamond4.lvl");
	if (!pty_wait_text(&p, "This level is a diamond4 map: y u b n move", WAIT_MS))
		pty_fail(&p, "entering a diamond4 level does not say so");
	const char *want[] = { "(this level is a diamond4 map)", "y u b n   numpad 7 9 1 3", "no other steps",
			       NULL };
	const char *refuse[] = { "numpad 1-9", "corner steps", "hex", NULL };
	help_shows(&p, want, refuse);
	quit(&p);
}

static void test_diamond8(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/diamond8.lvl");
	if (!pty_wait_text(&p, "This level is a diamond8 map: y u b n diagonally, h j k l straight", WAIT_MS))
		pty_fail(&p, "entering a diamond8 level does not say so");
	const char *want[] = { "(this level is a diamond8 map)", "h l k j   numpad 4 6 8 2", "corner steps",
			       NULL };
	const char *refuse[] = { "numpad 1-9", "no other steps", "hex", NULL };
	help_shows(&p, want, refuse);
	quit(&p);
}

/* Square8, the grid every roguelike player expects: not said on the
 * first level; the help lists the eight keys. */
static void test_square8_quiet(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/square.lvl");
	if (!pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "the game did not go idle");
	if (pty_find(&p, "This level is", NULL, NULL))
		pty_fail(&p, "a square8 level said its grid");
	const char *want[] = { "h j k l y u b n   arrows   numpad 1-9", NULL };
	const char *refuse[] = { "(this level is", "hex", "diamond", NULL };
	help_shows(&p, want, refuse);
	quit(&p);
}

static void write_level(const char *dir, const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Down the stairs: square8, hex (said), square8 again (said: the grid
 * changed back), each level's help its own. */
static void test_said_on_each_level(void **state)
{
	(void)state;
	char dir[64] = "/tmp/astray-grid-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	write_level(dir, "1.lvl",
		    "astray-level 1\nname: First Square\ntopology: square8\nmap:\n#####\n#@>.#\n#####\n");
	write_level(dir, "2.lvl",
		    "astray-level 1\nname: The Hex\ntopology: hex\nmap:\n# # # # #\n # @ > . #\n# # # # #\n");
	write_level(dir, "3.lvl",
		    "astray-level 1\nname: Last Square\ntopology: square8\nmap:\n#####\n#@.>#\n#####\n");
	struct pty p;
	start(&p, dir);
	if (!pty_wait_idle(&p, WAIT_MS) || pty_find(&p, "This level is", NULL, NULL))
		pty_fail(&p, "the first square8 level said its grid");
	pty_send(&p, "l");
	if (!pty_wait_text(&p, "Turn 1", WAIT_MS))
		pty_fail(&p, "no step to the stairs");
	pty_send(&p, ">");
	if (!pty_wait_text(&p, "This level is a hex map", WAIT_MS))
		pty_fail(&p, "going down to a hex level did not say so");
	pty_send(&p, "?");
	if (!pty_wait_text(&p, "(this level is a hex map)", WAIT_MS))
		pty_fail(&p, "the help on the hex level is not the hex one");
	pty_send(&p, "x");
	pty_send(&p, "l");
	if (!pty_wait_text(&p, "Turn 2", WAIT_MS))
		pty_fail(&p, "no step to the hex stairs");
	pty_send(&p, ">");
	if (!pty_wait_text(&p, "This level is a square8 map", WAIT_MS))
		pty_fail(&p, "back on square8 after a hex level: not said");
	quit(&p);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_hex_edge),
		cmocka_unit_test(test_diamond4),
		cmocka_unit_test(test_diamond8),
		cmocka_unit_test(test_square8_quiet),
		cmocka_unit_test(test_said_on_each_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
