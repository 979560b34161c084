/*
 * check.c - what a failed CHECK does in the test build: say which
 * invariant broke, where, and abort so the sanitizer prints the stack.
 * Release builds have no CHECKs and do not call it.
 */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef ASTRAY_CHECKS
void check_failed(const char *file, int line, const char *cond)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, cond);
	abort();
}
#endif
