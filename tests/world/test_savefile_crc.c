/*
 * test_savefile_crc.c - savefile_crc32, eight bytes at a time, is the
 * CRC-32 of zlib (IEEE, reflected 0xedb88320) computed bit by bit here: on
 * the check string, on a MiB of random bytes (which reads every entry of
 * its eight tables), at every length up to 300 and every offset up to 16
 * (the tail and an unaligned start), and when a CRC is continued over
 * pieces as the journal's records do; savefile_crc32_combine gives the
 * CRC of two pieces from theirs, at every cut and for long pieces.
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

static void test_combine(void **state)
{
	(void)state;
	const size_t n = 5000;
	unsigned char *b = malloc(n);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 131 + (i >> 5));
	const uint32_t whole = bitwise(0, b, n);
	for (size_t cut = 0; cut <= n; cut += cut < 70 ? 1 : 613) {
		uint32_t a = savefile_crc32(0, b, cut), c = savefile_crc32(0, b + cut, n - cut);
		assert_int_equal(savefile_crc32_combine(a, c, n - cut), whole);
	}
	/* three pieces, as a record's line, its block and its newline */
	uint32_t x = savefile_crc32(0, b, 17), y = savefile_crc32(0, b + 17, 4000), z = savefile_crc32(0, b + 4017, 1);
	assert_int_equal(savefile_crc32_combine(savefile_crc32_combine(x, y, 4000), z, 1), bitwise(0, b, 4018));
	assert_int_equal(savefile_crc32_combine(x, 0, 0), x);
	free(b);
	/* a long second piece: 3 MiB of zeros and ones (len2's high bits) */
	const size_t big = (size_t)3 << 20;
	unsigned char *z3 = calloc(big, 1);
	assert_non_null(z3);
	z3[big / 2] = 1;
	uint32_t head = savefile_crc32(0, "head", 4);
	assert_int_equal(savefile_crc32_combine(head, savefile_crc32(0, z3, big), big), savefile_crc32(head, z3, big));
	free(z3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_string),
		cmocka_unit_test(test_against_bitwise),
		cmocka_unit_test(test_combine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
