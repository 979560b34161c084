/*
 * run_capture.h - run a shell command line and keep everything it writes to
 * stdout, for the suites that drive the real binary.
 */
#ifndef ASTRAY_TEST_RUN_CAPTURE_H
#define ASTRAY_TEST_RUN_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>


/* The program under test: $ASTRAY_BIN, or the sanitized build. */
const char *test_bin(void);

/* Runs `cmd` with /bin/sh; returns its stdout, NUL-terminated (caller
 * frees), and its exit status in *status (-1 when it did not exit). */
char *run_capture(const char *cmd, int *status);

#endif
