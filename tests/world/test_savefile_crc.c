/*
 * test_savefile_crc.c - savefile_crc32, eight bytes at a time, is the
 * CRC-32 of zlib (IEEE, reflected 0xedb88320) computed bit by bit here: on
 * the check string, on a MiB of random bytes (which reads every entry of
 * its eight tables), at every length up to 300 and every offset up to 16
 * (the tail and an unaligned start), and when a CRC is continued over
 * pieces as the journal's records do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "savefile.h"

static uint32_t bitwise(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static void test_check_string(void **state)
{
	(void)state;
	assert_int_equal(savefile_crc32(0, "123456789", 9), 0xcbf43926u);
	assert_int_equal(savefile_crc32(0, "", 0), 0);
}

static void test_against_bitwise(void **state)
{
	(void)state;
	const size_t n = (size_t)1 << 20;
	unsigned char *b = malloc(n);
	assert_non_null(b);
	uint64_t s = 0x2545f4914f6cdd1dULL;
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		b[i] = (unsigned char)(s >> 32);
	}
	assert_int_equal(savefile_crc32(0, b, n), bitwise(0, b, n));
	for (size_t off = 0; off < 16; off++)
		for (size_t len = 0; len <= 300; len++)
			assert_int_equal(savefile_crc32(0, b + off, len), bitwise(0, b + off, len));
	/* continued over pieces of every length */
	for (size_t cut = 0; cut <= 40; cut++) {
		uint32_t c = savefile_crc32(0, b, cut);
		c = savefile_crc32(c, b + cut, 1000 - cut);
		assert_int_equal(c, bitwise(0, b, 1000));
	}
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_string),
		cmocka_unit_test(test_against_bitwise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
