/* clock.h - the clocks of astray: microseconds, monotonic or of this process's CPU, for timing only. */
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
 * Microseconds of CPU time this process has used (page faults included),
 * for the figures named cpu_us (the editor's refresh, the key-press and
 * preview benchmarks): unlike clock_us, the time a shared machine gives
 * to other programs does not count.  Measuring only, as clock_us.
 */
static inline double clock_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/*
 * Microseconds of CPU time of the calling thread: what handling a key
 * costs the thread that handles it, without the snapshot writer's thread
 * (journal.c), which runs beside it.  Measuring only, as clock_us.
 */
static inline double clock_thread_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

#endif
