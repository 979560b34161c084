/* check.h - invariant checks: on in the test build, compiled out of release builds. */
#ifndef ASTRAY_CHECK_H
#define ASTRAY_CHECK_H

/*
 * CHECK(cond) states an invariant that holds whatever the input (the open
 * list's order, a popped cell's g, two monsters never in one cell).  The
 * sanitizer build defines ASTRAY_CHECKS and a false CHECK aborts with its
 * file, line and text; the release build compiles it to nothing (the
 * condition behind `0 &&` is compiled, so it cannot rot, and never run), so it
 * costs nothing there and still cannot rot.  Bad input is never a
 * CHECK: it is an error returned as a value.  Keep CHECKs out of the hot
 * loops' innermost statements even so: the sanitizer build runs the tests.
 */
#ifdef ASTRAY_CHECKS
void check_failed(const char *file, int line, const char *cond) __attribute__((noreturn));
#define CHECK(cond) ((cond) ? (void)0 : check_failed(__FILE__, __LINE__, #cond))
#else
#define CHECK(cond) ((void)(0 && (cond)))
#endif

#endif
