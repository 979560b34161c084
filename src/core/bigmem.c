/*
 * bigmem.c - large arrays backed by huge pages where the system has them
 * (bigmem.h).  Only advice: where madvise or MADV_HUGEPAGE is missing, or
 * the system says no, the array is an ordinary one.  The advice covers the
 * whole 2 MiB pages inside the array (malloc does not align a large block
 * to them; its first and last part keep small pages).
 */
/* madvise and MADV_HUGEPAGE are outside strict POSIX (as in path.c). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

static void advise(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	if (!p || len < BIGMEM_MIN)
		return;
	uintptr_t first = ((uintptr_t)p + huge - 1) & ~(huge - 1), end = ((uintptr_t)p + len) & ~(huge - 1);
	if (first < end)
		(void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

void *bigmem_malloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = malloc(n * size);
	advise(p, n * size);
	return p;
}

void *bigmem_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = calloc(n, size);
	advise(p, n * size);
	return p;
}
