/*
 * test_fatal_signal.c - a crash while playing gives the terminal back.  The
 * sanitizer build ($ASTRAY_BIN) has a crash hook (ui_screen.c, compiled
 * in with ASTRAY_TEST_CRASH): Ctrl-] fails the way $ASTRAY_TEST_CRASH
 * says.  Each fatal signal (SIGSEGV from a real fault, SIGBUS, SIGFPE,
 * SIGILL from a trap, SIGABRT from abort and from a failed CHECK, UBSan
 * told to abort) must leave the alternate screen, turn mouse reports off,
 * show the cursor and put the cooked modes back, and the program must die
 * of that same signal.  With AddressSanitizer's own handlers (a SEGV, a
 * heap overflow), its report must show on the restored screen.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "run_capture.h"

#define CRASH_WAIT 15000 /* ms: an ASan report is symbolized before the exit */
#define SQUARE "tests/levels/e2e/square.lvl"

/* ASan's handlers off, so the signal's default action decides the exit. */
#define NO_ASAN_HANDLERS "detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0"

/* Starts a game with the hook set to `how` and ASAN_OPTIONS to `asan`,
 * checks that the mouse is on, and presses Ctrl-]. */
static void crash_start(struct pty *p, const char *how, const char *asan)
{
	char *saved = getenv("ASAN_OPTIONS") ? strdup(getenv("ASAN_OPTIONS")) : NULL;
	setenv("ASTRAY_TEST_CRASH", how, 1);
	setenv("ASAN_OPTIONS", asan, 1);
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)SQUARE, (char *)"--seed", (char *)"1", NULL };
	bool started = pty_start(p, 24, 80, argv);
	unsetenv("ASTRAY_TEST_CRASH");
	if (saved) {
		setenv("ASAN_OPTIONS", saved, 1);
		free(saved);
	} else {
		unsetenv("ASAN_OPTIONS");
	}
	assert_true(started);
	if (!pty_wait_text(p, "Turn 0", CRASH_WAIT))
		pty_fail(p, "the game did not start");
	assert_true(p->altscreen);
	assert_true(pty_log_has(p, "\033[?1006;1000h")); /* SGR mouse reports on */
	assert_true(pty_log_has(p, "\033[?1003h"));      /* and the pointer's motion */
	pty_send(p, "\035");                              /* Ctrl-] */
	if (!pty_wait_exit(p, CRASH_WAIT))
		pty_fail(p, "the crash hook did not end the program");
}

/* The terminal as the shell wants it back. */
static void crash_check_restored(struct pty *p)
{
	assert_false(p->altscreen);
	assert_true(pty_log_has(p, "\033[?1049l"));       /* the alternate screen left */
	assert_true(pty_log_has(p, "\033[?1006;1000l"));  /* mouse reports off */
	assert_true(pty_log_has(p, "\033[?1003l"));       /* the pointer's motion too */
	assert_true(p->cursor_visible);
	struct termios t;
	assert_int_equal(tcgetattr(p->fd, &t), 0);
	assert_true(t.c_lflag & ECHO);
	assert_true(t.c_lflag & ICANON);
	assert_true(t.c_iflag & ICRNL);                   /* curses' nonl undone */
}

static void crash_by_signal(const char *how, int sig)
{
	struct pty p;
	memset(&p, 0, sizeof p);
	crash_start(&p, how, NO_ASAN_HANDLERS);
	crash_check_restored(&p);
	if (!WIFSIGNALED(p.status) || WTERMSIG(p.status) != sig) {
		char what[160];
		snprintf(what, sizeof what, "%s: exit status %#x, not death by signal %d", how, p.status, sig);
		pty_fail(&p, what);
	}
	pty_close(&p);
}

static void test_segv_from_a_real_fault(void **state)
{
	(void)state;
	crash_by_signal("SEGV", SIGSEGV);
}

static void test_bus_fpe_ill(void **state)
{
	(void)state;
	crash_by_signal("BUS", SIGBUS);
	crash_by_signal("FPE", SIGFPE);
	crash_by_signal("ILL", SIGILL);
}

static void test_abort_and_failed_check(void **state)
{
	(void)state;
	crash_by_signal("ABRT", SIGABRT);
	crash_by_signal("CHECK", SIGABRT);
}

/* UBSan ends the program after its report: the test build tells it to abort. */
static void test_ubsan_error(void **state)
{
	(void)state;
	crash_by_signal("UBSAN", SIGABRT);
}

/* With AddressSanitizer's handlers on (the test build's default), ours
 * runs first and passes the signal on: ASan's report shows on the
 * restored screen and ASan decides the exit. */
static void crash_with_asan_report(const char *how, const char *report)
{
	struct pty p;
	memset(&p, 0, sizeof p);
	crash_start(&p, how, "detect_leaks=0");
	crash_check_restored(&p);
	/* the report came after the alternate screen was left */
	const char *left = memmem(p.log, p.log_len, "\033[?1049l", 8);
	assert_non_null(left);
	size_t rest = p.log_len - (size_t)(left - p.log);
	if (!memmem(left, rest, report, strlen(report)))
		pty_fail(&p, "no AddressSanitizer report after the terminal was restored");
	assert_true(WIFEXITED(p.status) || WIFSIGNALED(p.status));
	assert_false(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0);
	pty_close(&p);
}

static void test_asan_segv_report_on_restored_screen(void **state)
{
	(void)state;
	crash_with_asan_report("SEGV", "AddressSanitizer: SEGV");
}

static void test_asan_heap_overflow_report_on_restored_screen(void **state)
{
	(void)state;
	crash_with_asan_report("ASAN", "heap-buffer-overflow");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	/* no core files from the crashes in the source tree */
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segv_from_a_real_fault),
		cmocka_unit_test(test_bus_fpe_ill),
		cmocka_unit_test(test_abort_and_failed_check),
		cmocka_unit_test(test_ubsan_error),
		cmocka_unit_test(test_asan_segv_report_on_restored_screen),
		cmocka_unit_test(test_asan_heap_overflow_report_on_restored_screen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
