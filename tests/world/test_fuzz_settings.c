/* test_fuzz_settings.c - the corpus of fuzz_settings (tests/fuzz-corpus-settings) replayed through its entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../fuzz_settings.c"
#include "fuzz_corpus.h"

static void test_corpus(void **state)
{
	(void)state;
	fuzz_corpus_run("tests/fuzz-corpus-settings", LLVMFuzzerTestOneInput, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
