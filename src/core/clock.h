/* clock.h - the one clock of astray: monotonic microseconds, for timing only. */
#ifndef ASTRAY_CLOCK_H
#define ASTRAY_CLOCK_H

#include <time.h>

/*
 * Microseconds on the monotonic clock, from an unspecified start.  Only
 * for measuring (bench, sim's time columns, the AI's cost counters):
 * nothing decides anything by it, so games replay bit for bit.
 */
static inline double clock_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

#endif
