/* pty_check.h - what the end-to-end suites share on top of the pty driver. */
#ifndef ASTRAY_PTY_CHECK_H
#define ASTRAY_PTY_CHECK_H

#include "pty_driver.h"

/* Fails the running cmocka test with `what` and the whole screen. */
_Noreturn void pty_fail(struct pty *p, const char *what);

/* The turn counter of the game's status line ("Turn N"), or -1 when no
 * status line is on the screen. */
int pty_turn(struct pty *p);

/* Starts argv in a rows x cols pty through the LD_PRELOAD fault shim
 * `shim` (tests/shim/failio.c) when mode is not NULL (FAILIO_MODE=mode,
 * FAILIO_AT=at) or log is not NULL (FAILIO_LOG=log: counting only),
 * else as it is; the environment is as before when it returns. */
bool pty_start_shim(struct pty *p, int rows, int cols, char *const argv[], const char *shim,
		    const char *mode, long at, const char *log);

/* Sends each key of `keys` and waits (up to wait_ms) for it to be played:
 * the turn counter one up, for '>' the second level's "(2/2)", or the
 * program's exit (which ends the keys). */
void pty_play_keys(struct pty *p, const char *keys, int wait_ms);

/* Pages through the --More-- prompts on the screen, a space each, until
 * none shows: each time until the screen has changed, as build/astray
 * writes no idle markers (a page of the test build is whole once
 * pty_wait_idle returns). */
void pty_dismiss_more(struct pty *p);

/* The program under test: $ASTRAY_BIN, else build/san/astray. */
const char *pty_bin(void);

/* A whole small file (up to 64 KiB), NUL-terminated, caller frees; NULL
 * when it cannot be opened. */
char *pty_slurp(const char *path);

/* Fails the running test with the screen unless `text` shows within ms. */
void pty_expect(struct pty *p, const char *text, int ms);

/* A suite's state when each test plays in a data folder of its own:
 * pty_data_setup makes the folder (cmocka setup), pty_data_teardown
 * closes the program if it runs and removes the folder. */
struct pty_data_test {
	char data[64];
	struct pty p;
	bool running;
};
int pty_data_setup(void **state);
int pty_data_teardown(void **state);

/* A fresh, empty data folder /tmp/astray-TAG-test-XXXXXX, its name in
 * buf; false when it cannot be made. */
bool pty_data_make(char *buf, size_t size, const char *tag);

/* Removes the data folder and everything in it; false when rm fails. */
bool pty_data_remove(const char *dir);

#endif
