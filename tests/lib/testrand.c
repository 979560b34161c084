/*
 * testrand.c - xorshift32 (13, 17, 5) for the suites that make random maps
 * and queries: a fixed algorithm, so a seed gives the same test everywhere.
 */
#include "testrand.h"

uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}
