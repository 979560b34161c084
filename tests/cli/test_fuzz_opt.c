/* test_fuzz_opt.c - the corpus of fuzz_opt (tests/fuzz-corpus-opt: command lines of the docs' examples and their errors) replayed through its entry point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../fuzz_opt.c"
#include "fuzz_corpus.h"

static void test_corpus(void **state)
{
	(void)state;
	fuzz_corpus_run("tests/fuzz-corpus-opt", LLVMFuzzerTestOneInput, 20);
}

/* Every command's table is reachable by its first byte, and the room the
 * target gives its arguments holds the largest. */
static void test_tables(void **state)
{
	(void)state;
	const char *names[FUZZ_OPT_COMMANDS] = { "play", "check", "path", "sim", "sim-report",
						 "bench", "gen", "replay", "scores", "edit" };
	for (int i = 0; i < FUZZ_OPT_COMMANDS; i++) {
		size_t size = 0;
		const struct opt_command *cmd = fuzz_opt_tables[i](&size);
		assert_non_null(cmd);
		assert_string_equal(cmd->name, names[i]);
		assert_true(size > 0 && size <= FUZZ_OPT_ROOM);
		assert_true(cmd->n_opts > 0);
		for (int k = 0; k < cmd->n_opts; k++)
			assert_true(cmd->opts[k].offset < size);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
