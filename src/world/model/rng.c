/*
 * rng.c - the game's random numbers: xoroshiro128+ seeded through splitmix64.
 * The state lives in the caller's struct rng (no globals), so every game and
 * every simulation replays bit for bit from its seed.  Nothing here reads the
 * clock or the environment.
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;
	r->s[0] = splitmix64(&x);
	r->s[1] = splitmix64(&x);
	if (r->s[0] == 0 && r->s[1] == 0) /* the one state xoroshiro cannot leave */
		r->s[1] = 1;
}

static uint64_t rotl(uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
	uint64_t s0 = r->s[0], s1 = r->s[1];
	uint64_t out = s0 + s1;
	s1 ^= s0;
	r->s[0] = rotl(s0, 24) ^ s1 ^ (s1 << 16);
	r->s[1] = rotl(s1, 37);
	return out;
}

/* Uniform in [lo, hi] without modulo bias: the top 53 bits (the best of
 * xoroshiro128+), rejecting the incomplete top slice. */
int rng_range(struct rng *r, int lo, int hi)
{
	if (hi <= lo)
		return lo;
	const uint64_t range = 1ULL << 53;
	uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
	uint64_t limit = range - range % span;
	uint64_t v;
	do
		v = rng_next(r) >> 11;
	while (v >= limit);
	return (int)((int64_t)lo + (int64_t)(v % span));
}
