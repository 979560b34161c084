/*
 * test_messages.c - the message rows say what holds now (issue 30;
 * $ASTRAY_BIN, built with the sanitizers, in a pseudo-terminal): "There
 * are stairs down here" shows while the player stands on them and not
 * after stepping off; no message of a level left behind shows on the
 * next; an unknown key has one wording ("Unknown key"); the grid hint
 * said on entering a hex level is in the history (P) too.
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

static void write_level(const char *dir, const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Sends keys and waits for the turn counter to read `turn`. */
static void play(struct pty *p, const char *keys, const char *want, const char *what)
{
	pty_send(p, keys);
	if (!pty_wait_text(p, want, WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, what);
}

static void test_messages_hold_now(void **state)
{
	(void)state;
	char dir[64] = "/tmp/astray-msg-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	write_level(dir, "1.lvl",
		    "astray-level 1\nname: Upper Hall\ntopology: square8\nmap:\n######\n#@>..#\n######\n");
	write_level(dir, "2.lvl",
		    "astray-level 1\nname: Lower Hall\ntopology: square8\nmap:\n######\n#@..>#\n######\n");
	char *argv[] = { (char *)test_bin(), (char *)"play", dir, (char *)"--seed", (char *)"1",
			 (char *)"--no-save", NULL };
	struct pty p;
	assert_true(pty_start(&p, 24, 80, argv));
	if (!pty_wait_text(&p, "Turn 0", WAIT_MS) || !pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "the game did not start");
	pty_dismiss_more(&p);
	play(&p, "~", "Unknown key '~'", "~ did not say it is an unknown key");
	play(&p, "l", "Turn 1 ", "no step onto the stairs");
	if (!pty_find(&p, "There are stairs down here", NULL, NULL))
		pty_fail(&p, "on the stairs, nothing says so");
	play(&p, "l", "Turn 2 ", "no step off the stairs");
	if (pty_find(&p, "There are stairs down here", NULL, NULL))
		pty_fail(&p, "off the stairs, the screen still says they are here");
	play(&p, "h", "Turn 3 ", "no step back onto the stairs");
	play(&p, ">", "Lower Hall", "> did not go down");
	pty_dismiss_more(&p);
	if (!pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "the new level did not settle");
	if (pty_find(&p, "There are stairs down here", NULL, NULL) || pty_find(&p, "Upper Hall", NULL, NULL))
		pty_fail(&p, "a message of the level left behind shows on the next");
	play(&p, "l", "Turn 4 ", "no step on the new level");
	if (pty_find(&p, "There are stairs down here", NULL, NULL) || pty_find(&p, "Upper Hall", NULL, NULL))
		pty_fail(&p, "a message of the level left behind shows after a step");
	pty_send(&p, "Q");
	if (!pty_wait_text(&p, "Really quit", WAIT_MS))
		pty_fail(&p, "no quit question");
	pty_send(&p, "y");
	assert_true(pty_wait_exit(&p, WAIT_MS));
	pty_close(&p);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_grid_hint_in_history(void **state)
{
	(void)state;
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)"tests/levels/e2e/hex.lvl", (char *)"--seed",
			 (char *)"1", (char *)"--no-save", NULL };
	struct pty p;
	assert_true(pty_start(&p, 24, 80, argv));
	if (!pty_wait_text(&p, "This level is a hex map", WAIT_MS) || !pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "the hex hint was not said");
	pty_dismiss_more(&p);
	play(&p, "l", "Turn 1 ", "no step");
	play(&p, "P", "Message history", "P did not open the history");
	if (!pty_find(&p, "This level is a hex map: y u up", NULL, NULL))
		pty_fail(&p, "the grid hint is not in the history");
	/* after the entry message, as it was said */
	int r_hint, r_enter;
	if (!pty_find(&p, "You enter E2E Hex", &r_enter, NULL) ||
	    !pty_find(&p, "This level is a hex map", &r_hint, NULL) || r_hint <= r_enter)
		pty_fail(&p, "the grid hint is not after the entry message");
	pty_send_idle(&p, "x");
	pty_send(&p, "Q");
	if (!pty_wait_text(&p, "Really quit", WAIT_MS))
		pty_fail(&p, "no quit question");
	pty_send(&p, "y");
	assert_true(pty_wait_exit(&p, WAIT_MS));
	pty_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_messages_hold_now),
		cmocka_unit_test(test_grid_hint_in_history),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
