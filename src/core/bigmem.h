/* bigmem.h - large arrays (per-cell maps of big levels) that cost little at their first touch. */
#ifndef ASTRAY_BIGMEM_H
#define ASTRAY_BIGMEM_H

#include <stddef.h>

/*
 * malloc and calloc for an array of n elements of `size` bytes; one of at
 * least BIGMEM_MIN bytes is asked to be backed by huge pages where the
 * system offers them (Linux transparent huge pages, madvise mode).  A page
 * is first touched when first written: with 4 KiB pages a 64 MiB map took
 * 200-220 ms of CPU at its first writes on the test machine (a fault every
 * 4 KiB, each about 13 us on its virtual machine), with 2 MiB pages 4 ms.
 * The memory is freed with free(); its contents are those of malloc and
 * calloc.  NULL on overflow or when the memory is not there.
 */
#define BIGMEM_MIN ((size_t)4 << 20)
void *bigmem_malloc(size_t n, size_t size);
void *bigmem_calloc(size_t n, size_t size);

#endif
