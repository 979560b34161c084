/* test_fuzz_input.c - fuzz_input's corpus (tests/fuzz-corpus-input) through the real screens on a piped curses screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../fuzz_input.c"
#include "fuzz_corpus.h"

static void test_corpus(void **state)
{
	(void)state;
	fuzz_corpus_run("tests/fuzz-corpus-input", LLVMFuzzerTestOneInput, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
