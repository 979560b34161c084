/* test_fuzz_items.c - the corpus of fuzz_items (tests/fuzz-corpus-items) replayed through its entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../fuzz_items.c"
#include "fuzz_corpus.h"

static void test_corpus(void **state)
{
	(void)state;
	fuzz_corpus_run("tests/fuzz-corpus-items", LLVMFuzzerTestOneInput, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
