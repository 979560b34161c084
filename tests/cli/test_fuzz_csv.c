/* test_fuzz_csv.c - the corpus of fuzz_csv (tests/fuzz-corpus-csv, real sim output) replayed through its entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../fuzz_csv.c"
#include "fuzz_corpus.h"

static void test_corpus(void **state)
{
	(void)state;
	fuzz_corpus_run("tests/fuzz-corpus-csv", LLVMFuzzerTestOneInput, 11);
}

/* The target's cut into files and its checks see real merges: two shards
 * of one run, given in either order, merge into the run's 8 games from
 * seed 100; the same shard twice is refused, naming the second file. */
static void test_shards_merge_through_the_target(void **state)
{
	(void)state;
	char *text = NULL;
	size_t size = 0;
	FILE *f = fopen("tests/fuzz-corpus-csv/shards-2-then-1.csv", "rb");
	assert_non_null(f);
	char buf[1 << 16];
	size = fread(buf, 1, sizeof buf, f);
	fclose(f);
	text = buf;
	const char *files[FUZZ_CSV_FILES];
	size_t len[FUZZ_CSV_FILES];
	assert_int_equal(fuzz_csv_split((const uint8_t *)text, size, files, len), 2);
	struct sim_csv *c = sim_csv_create();
	struct diag_list d = { 0 };
	struct sim_csv_result res;
	assert_true(fuzz_csv_read(c, files, len, 2, 1, &res, &d));
	assert_int_equal(res.n_levels, 1);
	assert_int_equal(res.games, 8);
	assert_int_equal(res.seed, 100);
	fuzz_csv_check(&res);
	sim_csv_destroy(c);
	/* the second shard twice */
	const char *same[2] = { files[1], files[1] };
	size_t same_len[2] = { len[1], len[1] };
	c = sim_csv_create();
	assert_false(fuzz_csv_read(c, same, same_len, 2, 1, &res, &d));
	assert_true(d.n > 0);
	assert_non_null(strstr(d.items[d.n - 1].msg, "appears twice"));
	assert_string_equal(d.items[d.n - 1].file, "b.csv");
	diag_list_fini(&d);
	sim_csv_destroy(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_shards_merge_through_the_target),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
