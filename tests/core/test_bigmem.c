/*
 * test_bigmem.c - big_malloc and big_calloc: memory as malloc's and
 * calloc's (zeroed, freed by free), and an array of BIGMEM_MIN bytes or
 * more advised for huge pages (its mapping's VmFlags say "hg") where the
 * system has them, which a plain malloc's is not, and starting on a 2 MiB
 * boundary (so that all its whole 2 MiB ranges can be huge pages);
 * big_populate makes an array resident and keeps its values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bigmem.h"

/* Whether this system offers transparent huge pages to advised memory. */
static bool thp_offered(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!f)
		return false;
	char line[256] = "";
	bool ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
	fclose(f);
	return ok;
}

static void test_zeroed_and_usable(void **state)
{
	(void)state;
	const size_t n = BIGMEM_MIN * 2 + 12345;
	unsigned char *p = big_calloc(n, 1);
	assert_non_null(p);
	for (size_t i = 0; i < n; i += 4093)
		assert_int_equal(p[i], 0);
	assert_int_equal(p[n - 1], 0);
	memset(p, 7, n);
	assert_int_equal(p[n / 2], 7);
	free(p);
	int *q = big_malloc(100 * sizeof *q); /* small: an ordinary block */
	assert_non_null(q);
	q[99] = 1;
	free(q);
	assert_null(big_calloc(SIZE_MAX / 2, 4)); /* the product overflows */
}

static void test_advised(void **state)
{
	(void)state;
	const size_t n = BIGMEM_MIN * 4;
	void *big = big_calloc(n, 1), *plain = malloc(n);
	assert_non_null(big);
	assert_non_null(plain);
	int b = big_advised(big, n), p = big_advised(plain, n);
	if (b < 0) {
		/* no /proc/self/smaps: nothing to check but the memory */
		print_message("no /proc/self/smaps here: the advice is not checked\n");
	} else if (thp_offered()) {
		assert_int_equal(b, 1);
		assert_int_equal(p, 0);
	}
	free(big);
	free(plain);
}

static long minor_faults(void)
{
	struct rusage r;
	assert_int_equal(getrusage(RUSAGE_SELF, &r), 0);
	return r.ru_minflt;
}

/* After big_populate, writing every page of the array faults no more
 * (a no-op would leave 16 huge-page faults here, or 8,192 small ones),
 * and what the array held before is still there. */
static void test_populate(void **state)
{
	(void)state;
	const size_t n = BIGMEM_MIN * 8 + 4321;
	unsigned char *p = big_calloc(n, 1);
	assert_non_null(p);
	for (size_t i = 0; i < n; i += 65537)
		p[i] = (unsigned char)(i % 251 + 1);
	p[n - 1] = 9;
	big_populate(p, n);
	big_populate(NULL, 10); /* nothing to do */
	big_populate(p, 0);
	long before = minor_faults();
	for (size_t i = 0; i < n; i += 4096)
		p[i] = p[i];
	long faults = minor_faults() - before;
	assert_in_range(faults, 0, 2);
	for (size_t i = 0; i < n; i += 65537)
		assert_int_equal(p[i], i % 251 + 1);
	assert_int_equal(p[n - 1], 9);
	assert_int_equal(p[1], 0);
	free(p);
}

/* Every large array starts on a huge page's boundary (malloc's start 16
 * bytes past a page, which left their first 2 MiB to small pages), and
 * big_calloc's is zero even where the memory was written before (a
 * block malloc reuses: its pages are dropped, not rewritten). */
static void test_aligned_and_zeroed_again(void **state)
{
	(void)state;
	const size_t sizes[] = { BIGMEM_MIN, BIGMEM_MIN + 17, BIGMEM_MIN * 4 + 4095, BIGMEM_MIN * 3 };
	for (int round = 0; round < 3; round++)
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			const size_t n = sizes[k];
			unsigned char *a = big_malloc(n);
			assert_non_null(a);
			assert_int_equal((uintptr_t)a % BIGMEM_ALIGN, 0);
			memset(a, 0xab, n);
			free(a);
			unsigned char *z = big_calloc(n, 1);
			assert_non_null(z);
			assert_int_equal((uintptr_t)z % BIGMEM_ALIGN, 0);
			for (size_t i = 0; i < n; i += 997)
				assert_int_equal(z[i], 0);
			assert_int_equal(z[n - 1], 0);
			memset(z, 0xcd, n); /* dirty for the next round's reuse */
			free(z);
		}
	unsigned char *small = big_malloc(100);
	assert_non_null(small);
	free(small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zeroed_and_usable),
		cmocka_unit_test(test_advised),
		cmocka_unit_test(test_populate),
		cmocka_unit_test(test_aligned_and_zeroed_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
