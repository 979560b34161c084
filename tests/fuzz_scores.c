/*
 * fuzz_scores.c - libFuzzer target for the high-score list parser: any
 * bytes give a list or a refusal naming the file and line, never a crash,
 * a hang or a leak; the good entries kept from a damaged list (of format 1
 * or 2) are well formed, each of a valid mode, and in order, and a list that parses writes back to text that
 * parses to the same entries.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scores.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_list(const struct score_list *l)
{
	for (int i = 0; i < l->n; i++) {
		const struct score_entry *e = &l->v[i];
		if (e->depth < 1 || e->turns < 0 || memchr(e->cause, '\0', sizeof e->cause) == NULL)
			abort();
		if (memchr(e->mode, '\0', sizeof e->mode) == NULL || !scores_mode_valid(e->mode, strlen(e->mode)))
			abort();
		if (strcmp(e->outcome, "won") && strcmp(e->outcome, "died") && strcmp(e->outcome, "quit"))
			abort();
		if (i > 0 && scores_compare(&l->v[i - 1], e) > 0)
			abort(); /* best first */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct score_list l;
	char err[600] = "";
	bool ok = scores_parse("fuzz.txt", (const char *)data, size, &l, err, sizeof err);
	if (!ok && strncmp(err, "fuzz.txt", 8) != 0)
		abort(); /* a refusal names the file */
	check_list(&l);
	if (ok) {
		size_t len;
		char *text = scores_format(&l, &len);
		if (text) {
			struct score_list back;
			if (!scores_parse("again.txt", text, len, &back, err, sizeof err) || back.n != l.n)
				abort();
			for (int i = 0; i < l.n; i++)
				if (scores_compare(&l.v[i], &back.v[i]) != 0 || strcmp(l.v[i].mode, back.v[i].mode) != 0)
					abort();
			scores_fini(&back);
			free(text);
		}
	}
	scores_fini(&l);
	return 0;
}
