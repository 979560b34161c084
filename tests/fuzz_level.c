/*
 * fuzz_level.c - libFuzzer target for the level and bestiary parsers (and
 * sim-report's per-game CSV reader, sim_csv.c): any
 * bytes must give either a level or a list of errors, never a crash, a hang
 * or a leak; the editor's tolerant parse (level_parse_partial) and the
 * editor on what it reads, too.  A level that parses is also analysed and written back, and
 * the written text must parse again.  Inputs are capped (make fuzz passes
 * -max_len) so one case stays fast.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bestiary.h"
#include "editor.h"
#include "level.h"
#include "sim_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct diag_list d = { 0 };
	struct bestiary b;
	bool have_b = bestiary_parse("fuzz.txt", text, size, &b, &d);
	struct level *lv = level_parse("fuzz.lvl", text, size, have_b ? &b : NULL, &d);
	if (lv) {
		level_analyse(lv, NULL, &d);
		size_t len;
		char *out = level_write(lv, &len);
		if (out) {
			struct level *again = level_parse("again.lvl", out, len, NULL, &d);
			if (!again)
				abort(); /* what we write must read back */
			level_destroy(again);
			free(out);
		}
	}
	level_destroy(lv);
	struct level *m = level_from_movingai("fuzz.map", text, size, size, (int)(size % 4), 'g', &d);
	level_destroy(m);
	/* astray edit's way into a broken file: the level as far as it reads,
	 * in the editor with its errors and the file's comments, diagnosed and
	 * written */
	struct level *part = level_parse_partial("fuzz.lvl", text, size, NULL, &d);
	if (part) {
		struct editor *ed = editor_create(part, NULL, "fuzz.lvl");
		if (ed && editor_set_file_diags(ed, &d, part->map_line) && editor_keep_comments(ed, text, size)) {
			(void)editor_diags(ed);
			size_t wl;
			free(editor_write(ed, &wl));
		}
		editor_destroy(ed);
		level_destroy(part);
	}
	/* sim-report's reader of per-game CSV: the bytes as one file, twice
	 * (a repeated game must be refused, not crash), then the check. */
	struct sim_csv *csv = sim_csv_create();
	if (csv) {
		struct sim_csv_result res;
		if (sim_csv_add(csv, "fuzz.csv", text, size, &d))
			sim_csv_add(csv, "again.csv", text, size, &d);
		sim_csv_finish(csv, &res, &d);
		sim_csv_destroy(csv);
	}
	diag_list_fini(&d);
	return 0;
}
