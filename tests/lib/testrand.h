/* testrand.h - the tests' random numbers: xorshift32, the same stream on every machine. */
#ifndef ASTRAY_TESTRAND_H
#define ASTRAY_TESTRAND_H

#include <stdint.h>

/* The next number of the xorshift32 stream in *s (a nonzero state). */
uint32_t rnd(uint32_t *s);

#endif
