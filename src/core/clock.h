/* clock.h - the clocks of astray: monotonic and CPU-time microseconds, for timing only. */
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

/*
 * Microseconds of CPU time of this process (page faults included), for
 * the benchmarks of one screen or one action (play --bench-keys and
 * --bench-preview): other programs on a shared machine do not count.
 */
static inline double clock_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

#endif
