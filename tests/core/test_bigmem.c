/*
 * test_bigmem.c - big_malloc and big_calloc: memory as malloc's and
 * calloc's (zeroed, freed by free), and an array of BIGMEM_MIN bytes or
 * more advised for huge pages (its mapping's VmFlags say "hg") where the
 * system has them, which a plain malloc's is not.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zeroed_and_usable),
		cmocka_unit_test(test_advised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
