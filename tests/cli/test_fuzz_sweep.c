/* test_fuzz_sweep.c - the corpus of fuzz_sweep (tests/fuzz-corpus-sweep: specs of each form, real sweep shards) replayed through its entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../fuzz_sweep.c"
#include "fuzz_corpus.h"

static void test_corpus(void **state)
{
	(void)state;
	fuzz_corpus_run("tests/fuzz-corpus-sweep", LLVMFuzzerTestOneInput, 9);
}

/* The shards the corpus holds are a real sweep: sim-report reads them. */
static void test_shards_report(void **state)
{
	(void)state;
	FILE *f = fopen("tests/fuzz-corpus-sweep/shards-two", "rb");
	assert_non_null(f);
	static uint8_t buf[1 << 16];
	const size_t size = fread(buf, 1, sizeof buf, f);
	fclose(f);
	const uint8_t *cut = memchr(buf, 0xFF, size), *cut2 = cut ? memchr(cut + 1, 0xFF, size - (size_t)(cut + 1 - buf)) : NULL;
	assert_non_null(cut2);
	const char *files[2] = { "build/test-sweep-a.csv", "build/test-sweep-b.csv" };
	const uint8_t *from[2] = { cut + 1, cut2 + 1 };
	const size_t len[2] = { (size_t)(cut2 - cut - 1), size - (size_t)(cut2 + 1 - buf) };
	for (int i = 0; i < 2; i++) {
		FILE *o = fopen(files[i], "wb");
		assert_non_null(o);
		assert_int_equal(fwrite(from[i], 1, len[i], o), len[i]);
		assert_int_equal(fclose(o), 0);
	}
	/* the report to /dev/null, and then one shard twice: the same games
	 * twice, refused (its message to /dev/null too) */
	const char *twice[2] = { files[0], files[0] };
	fflush(stdout);
	fflush(stderr);
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(out >= 0 && err >= 0 && null >= 0);
	assert_true(dup2(null, STDOUT_FILENO) >= 0 && dup2(null, STDERR_FILENO) >= 0);
	const int rc = sim_sweep_report(files, 2, NULL, NULL), rc_twice = sim_sweep_report(twice, 2, NULL, NULL);
	fflush(stdout);
	fflush(stderr);
	assert_true(dup2(out, STDOUT_FILENO) >= 0 && dup2(err, STDERR_FILENO) >= 0);
	close(out);
	close(err);
	close(null);
	assert_int_equal(rc, 0);
	assert_int_equal(rc_twice, 1);
	for (int i = 0; i < 2; i++)
		unlink(files[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_shards_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
