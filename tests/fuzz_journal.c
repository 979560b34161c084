/*
 * fuzz_journal.c - libFuzzer target for the journal reader: any bytes must
 * give either a refusal with a message or a journal whose good part is
 * consistent (records before good_end, as many offsets as actions), and a
 * journal that reads is rebuilt into a game and replayed (its first 2000
 * actions) without a crash, a hang or a leak.  Inputs are capped (make
 * fuzz passes -max_len), so one case stays fast.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the title's peek at the same bytes (the file's head and tail) */
	int rules;
	long turn;
	bool peeked = journal_peek_text((const char *)data, size, &rules, &turn);
	if (rules < 1 || turn < -1 || (!peeked && (rules != 1 || turn != -1)))
		abort();
	struct journal_data d;
	char err[1200];
	err[0] = '\0';
	if (!journal_parse("fuzz.jnl", (const char *)data, size, &d, err, sizeof err)) {
		if (strncmp(err, "fuzz.jnl: ", 10) != 0 || d.buf)
			abort(); /* a refusal names the file and keeps nothing */
		return 0;
	}
	if (d.good_end > d.size || d.header_end > d.good_end || d.n_levels < 1 ||
	    (d.tail == JOURNAL_TAIL_CLEAN) != (d.good_end == d.size))
		abort();
	/* a whole journal in the peek's window: its last checksum's turn */
	if (d.tail == JOURNAL_TAIL_CLEAN && d.n_checks > 0 && size <= 4096 &&
	    (!peeked || turn != d.checks[d.n_checks - 1].turn))
		abort();
	for (long i = 0; i < d.n_actions; i++)
		if (d.action_offsets[i] < d.header_end || d.action_offsets[i] >= d.good_end ||
		    (i > 0 && d.action_offsets[i] <= d.action_offsets[i - 1]))
			abort();
	struct journal_game jg;
	if (journal_start(&d, &jg, err, sizeof err)) {
		struct journal_replay r;
		journal_replay(&d, jg.game, 2000, &r, err, sizeof err);
		journal_game_fini(&jg);
	}
	journal_data_fini(&d);
	return 0;
}
