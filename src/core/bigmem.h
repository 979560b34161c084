/* bigmem.h - memory for the per-cell arrays of large maps, backed by huge pages where the system allows. */
#ifndef ASTRAY_BIGMEM_H
#define ASTRAY_BIGMEM_H

#include <stddef.h>

/*
 * As malloc and calloc (the memory is given back with free), but an array
 * of BIGMEM_MIN bytes or more is advised for transparent huge pages
 * (Linux MADV_HUGEPAGE) before anything touches it.  A 4096x4096 level's
 * arrays are hundreds of MB that loading a level writes whole; on a
 * virtual machine every first touch of a 4 KiB page costs a few
 * microseconds (about 3.4 ms a MiB measured, most of a resume), and one
 * fault of a 2 MiB page replaces 512 of them.  Only for arrays that are
 * written whole or densely: a sparse one would hold 2 MiB of memory for
 * each page it touches.  Where the advice is not taken (another system,
 * huge pages off) the memory is ordinary memory.
 */
#define BIGMEM_MIN ((size_t)2 << 20)
/* Where such an array starts: on a huge page's boundary, so that every
 * whole 2 MiB of it can be one (see bigmem.c). */
#define BIGMEM_ALIGN ((size_t)2 << 20)

void *big_malloc(size_t size);
void *big_calloc(size_t count, size_t size);

/*
 * Makes bytes [p, p + len) resident and writable now, keeping their
 * values (arrays a person's first moves would touch: path.c, ai.c).  The
 * loop writes one byte of every page back from user space: only that
 * takes all of a first touch's cost (on a virtual machine a
 * page the kernel filled still costs a few microseconds at its first
 * user write; 256 MiB: about 1.2 s by the loop alone there).  Where Linux
 * can fill the range in one call (MADV_POPULATE_WRITE, 5.14) that goes
 * first and the loop then finds the pages present (there: 70 + 220 ms).
 */
void big_populate(void *p, size_t len);

/* Whether the pages of [p, p + len) were advised (for the tests). */
int big_advised(const void *p, size_t len);

#endif
