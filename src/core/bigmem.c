/*
 * bigmem.c - per-cell arrays on huge pages (bigmem.h).
 *
 * A large array starts on a 2 MiB boundary (posix_memalign), so all of
 * it but its last part lies in 2 MiB aligned ranges: a huge page is made
 * only where such a range lies within the advised pages, and malloc's
 * own large blocks start 16 bytes past a 4 KiB page, which left the
 * first 2 MiB of every array (512 small faults, 6-8 ms on this project's
 * virtual machine) and all of a 2-4 MiB one to small pages.  The advice
 * is given before the first touch, so the first write of each 2 MiB of
 * it faults once.  big_calloc's zeros: a fresh mapping is zero already;
 * memory malloc had before is given back to the system page by page
 * (MADV_DONTNEED: an anonymous page read after it is a zero page) rather
 * than written, so an array that play fills sparsely stays unresident.
 */
/* madvise and MADV_HUGEPAGE are outside strict POSIX.  Guarded: the fuzz
 * build of the UI passes -D_DEFAULT_SOURCE (curses). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include "bigmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

static void advise(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	if (!p || len < BIGMEM_MIN)
		return;
	const size_t page = page_size();
	/* the whole pages inside the array: a page shared with a neighbour
	 * keeps what its owner made of it */
	const uintptr_t first = ((uintptr_t)p + page - 1) / page * page;
	const uintptr_t end = ((uintptr_t)p + len) / page * page;
	if (first < end)
		(void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

/* A block of size bytes, on a 2 MiB boundary when it is large. */
static void *big_block(size_t size)
{
	if (size < BIGMEM_MIN)
		return malloc(size);
	void *p = NULL;
	if (posix_memalign(&p, BIGMEM_ALIGN, size) != 0)
		return NULL;
	return p;
}

void *big_malloc(size_t size)
{
	void *p = big_block(size);
	advise(p, size);
	return p;
}

void *big_calloc(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size)
		return NULL;
	const size_t n = count * size;
	if (n < BIGMEM_MIN)
		return calloc(count, size);
	unsigned char *p = big_block(n);
	if (!p)
		return NULL;
	size_t done = 0;
#ifdef MADV_DONTNEED
	/* the whole pages: dropped (zero when next read), not written; p is
	 * on a page boundary */
	const size_t page = page_size(), whole = n / page * page;
	if ((uintptr_t)p % page == 0 && whole > 0 && madvise(p, whole, MADV_DONTNEED) == 0)
		done = whole;
#endif
	memset(p + done, 0, n - done);
	advise(p, n);
	return p;
}

void big_populate(void *p, size_t len)
{
	if (!p || len == 0)
		return;
	const size_t page = page_size();
#ifdef MADV_POPULATE_WRITE
	const uintptr_t first = ((uintptr_t)p + page - 1) / page * page, end = (uintptr_t)p + len;
	if (first < end && end - first >= page)
		(void)madvise((void *)first, (end - first) / page * page, MADV_POPULATE_WRITE);
#endif
	volatile unsigned char *v = p;
	for (size_t i = 0; i < len; i += page)
		v[i] = v[i];
	v[len - 1] = v[len - 1];
}

int big_advised(const void *p, size_t len)
{
	/* /proc/self/smaps: the mapping holding p says "VmFlags: ... hg" */
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	const uintptr_t at = (uintptr_t)p + len / 2;
	char line[512];
	int in = 0, found = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = at >= lo && at < hi;
			continue;
		}
		if (in && strncmp(line, "VmFlags:", 8) == 0) {
			found = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}
