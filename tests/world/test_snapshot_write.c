/*
 * test_snapshot_write.c - what a snapshot costs less to write and must
 * write the same: savefile_crc32, eight bytes a step, gives the standard
 * CRC-32 however a long input is cut into pieces and carried from one to
 * the next (test_savefile_crc checks it against a bitwise CRC), and
 * snapshot_write with the journal's kept buffer and the checksum's
 * hash handed in writes byte for byte the file it writes on its own
 * (fresh buffer, hash computed), on the first snapshot and on later ones
 * made in the same buffer, which load back to the same game.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "savefile.h"
#include "snapshot.h"

static void test_crc_long_inputs(void **state)
{
	(void)state;
	assert_int_equal(savefile_crc32(0, "123456789", 9), 0xcbf43926u);
	const size_t n = 300005; /* not a multiple of 8 */
	unsigned char *b = malloc(n);
	assert_non_null(b);
	uint32_t s = 12345;
	for (size_t i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		b[i] = (unsigned char)(s >> 16);
	}
	/* cut into pieces, each carrying the CRC before it: the same CRC */
	for (size_t piece = 1000; piece <= 70000; piece += 23000) {
		uint32_t chained = 0;
		for (size_t at = 0; at < n; at += piece)
			chained = savefile_crc32(chained, b + at, n - at < piece ? n - at : piece);
		assert_int_equal(savefile_crc32(0, b, n), chained);
	}
	/* a CRC carried into a long input, and an odd start */
	uint32_t head = savefile_crc32(0, b, 13);
	uint32_t split = 0;
	for (size_t at = 13; at < n; at += 999)
		split = savefile_crc32(at == 13 ? head : split, b + at, n - at < 999 ? n - at : 999);
	assert_int_equal(savefile_crc32(head, b + 13, n - 13), split);
	b[n / 2] ^= 1;
	assert_int_not_equal(savefile_crc32(0, b, n), split);
	free(b);
}

static const char MAP[] = "####################\n"
			  "#@.....s...........#\n"
			  "#..###.....g.......#\n"
			  "#..#s#.........b...#\n"
			  "#..................>\n"
			  "####################\n";

static char *slurp(const char *path, size_t *len)
{
	char err[256];
	char *t = savefile_read(path, SNAPSHOT_MAX_BYTES + 4096, len, err, sizeof err);
	assert_non_null(t);
	return t;
}

static void assert_same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *ta = slurp(a, &la), *tb = slurp(b, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(ta, tb, la);
	free(ta);
	free(tb);
}

static void test_kept_buffer_same_bytes(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", MAP, 11);
	char dir[] = "/tmp/astray-snapwrite-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char own[64], kept[64];
	snprintf(own, sizeof own, "%s/own.snap", dir);
	snprintf(kept, sizeof kept, "%s/kept.snap", dir);
	const struct savefile_io io = { 0 };
	struct snapshot_buf buf = { 0 };
	char err[512];
	for (int round = 0; round < 4; round++) {
		for (int k = 0; k < 3; k++)
			act_move(g, round % 2 ? GRID_W : GRID_E);
		bool written = false;
		assert_true(snapshot_write(&io, own, 0x1234abcdu, 10 + round, g, NULL, NULL, 0, &written, NULL, err,
					   sizeof err));
		assert_true(written);
		uint64_t h = game_hash(g);
		assert_true(snapshot_write(&io, kept, 0x1234abcdu, 10 + round, g, &h, &buf, 0, &written, NULL, err,
					   sizeof err));
		assert_true(written);
		assert_non_null(buf.bytes); /* kept for the next one */
		assert_same_file(own, kept);
		/* the file names its hash and loads back to this game */
		size_t len;
		char *t = slurp(kept, &len);
		struct snapshot_head head;
		assert_true(snapshot_parse(t, len, &head, err, sizeof err));
		assert_true(head.hash == h);
		struct fixture f2;
		struct game *g2 = fixture_game(&f2, "square8", MAP, 11);
		assert_true(game_state_load(g2, t + head.state_at, head.state_len, err, sizeof err));
		assert_true(game_hash(g2) == h);
		fixture_fini(&f2);
		free(t);
	}
	snapshot_buf_free(&buf);
	assert_null(buf.bytes);
	unlink(own);
	unlink(kept);
	rmdir(dir);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_long_inputs),
		cmocka_unit_test(test_kept_buffer_same_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
