/* rng.h - the game's random numbers: xoroshiro128+, explicit state, explicit seed. */
#ifndef ASTRAY_RNG_H
#define ASTRAY_RNG_H

#include <stdint.h>

/* The whole state of one generator; the caller owns it (no globals). */
struct rng { uint64_t s[2]; };

/* Seeds r from `seed` through splitmix64; equal seeds give equal streams. */
void rng_seed(struct rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t rng_next(struct rng *r);
/* Uniform in [lo, hi], without modulo bias; lo when hi <= lo. */
int rng_range(struct rng *r, int lo, int hi);

#endif
