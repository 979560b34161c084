/*
 * test_bigmem.c - large arrays advised into huge pages (bigmem.h): they
 * hold what malloc and calloc give (calloc's zeros, every byte writable
 * and kept), a size that overflows is refused, and on a Linux system with
 * transparent huge pages an array of BIGMEM_MIN or more carries the advice
 * (the "hg" flag of its mapping in /proc/self/smaps) while a small one
 * does not ask for it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bigmem.h"

static void test_calloc_zero_and_kept(void **state)
{
	(void)state;
	const size_t n = BIGMEM_MIN * 3 / sizeof(int) + 77;
	int *a = bigmem_calloc(n, sizeof *a);
	assert_non_null(a);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(a[i], 0);
	for (size_t i = 0; i < n; i++)
		a[i] = (int)(i * 2654435761u);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(a[i], (int)(i * 2654435761u));
	free(a);
	uint8_t *b = bigmem_malloc(BIGMEM_MIN + 5, 1);
	assert_non_null(b);
	memset(b, 0xa5, BIGMEM_MIN + 5);
	assert_int_equal(b[0], 0xa5);
	assert_int_equal(b[BIGMEM_MIN + 4], 0xa5);
	free(b);
	uint16_t *c = bigmem_calloc(10, sizeof *c); /* small: an ordinary array */
	assert_non_null(c);
	for (int i = 0; i < 10; i++)
		assert_int_equal(c[i], 0);
	free(c);
}

static void test_overflow_refused(void **state)
{
	(void)state;
	assert_null(bigmem_malloc(SIZE_MAX / 2, 4));
	assert_null(bigmem_calloc(SIZE_MAX / 2, 4));
}

/* Whether the mapping that holds p is advised into huge pages ("hg" in its
 * VmFlags line); -1: no /proc/self/smaps or p in none of its mappings. */
static int advised_huge(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	int in = 0, found = -1;
	const uintptr_t at = (uintptr_t)p;
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

static void test_large_arrays_advised(void **state)
{
	(void)state;
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char mode[128] = "";
	if (thp) {
		if (!fgets(mode, sizeof mode, thp))
			mode[0] = '\0';
		fclose(thp);
	}
	const size_t n = BIGMEM_MIN * 4;
	uint8_t *big = bigmem_calloc(n, 1), *small = bigmem_calloc(4096, 1);
	assert_non_null(big);
	assert_non_null(small);
	/* the middle of the large array is in whole 2 MiB pages */
	int h = advised_huge(big + n / 2);
	if (strstr(mode, "[never]") == NULL && (strstr(mode, "[madvise]") || strstr(mode, "[always]")))
		assert_int_equal(h, 1);
	/* else: no huge pages here; the array is an ordinary one, checked above */
	free(big);
	free(small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calloc_zero_and_kept),
		cmocka_unit_test(test_overflow_refused),
		cmocka_unit_test(test_large_arrays_advised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
