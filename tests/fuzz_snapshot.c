/*
 * fuzz_snapshot.c - libFuzzer target for the snapshot reader: any bytes
 * through snapshot_parse (the file's head line and CRC) and through
 * game_state_load into a game on a small fixed level (the state itself,
 * whose CRC a fuzzer could not forge), which must refuse them with a
 * message or load a state that plays on (a few waits and moves) without a
 * crash, a hang or a leak.  tests/fuzz-corpus-snapshot holds real states
 * and a real snapshot file as seeds; make test replays them
 * (tests/world/test_fuzz_snapshot.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "game.h"
#include "level.h"
#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz_level[] =
	"astray-level 1\nname: fuzz\ntopology: square8\nmap:\n"
	"##########\n#@..+..g.#\n#..#,,~..#\n#.!#..$.>#\n##########\n";
static const char fuzz_bestiary[] = "kind: goblin\nglyph: g\nhp: 6\ndamage: 2\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot_head h;
	char err[600];
	if (snapshot_parse((const char *)data, size, &h, err, sizeof err) &&
	    (h.state_at > size || h.state_len != size - h.state_at))
		abort(); /* a head that parses describes the bytes that follow it */
	struct diag_list diags = { 0 };
	struct bestiary b;
	if (!bestiary_parse("fuzz", fuzz_bestiary, sizeof fuzz_bestiary - 1, &b, &diags))
		abort();
	struct level *lv = level_parse("fuzz.lvl", fuzz_level, sizeof fuzz_level - 1, &b, &diags);
	if (!lv)
		abort();
	diag_list_fini(&diags);
	const struct level *levels[] = { lv };
	struct game *g = game_create(levels, 1, &b, 1);
	if (!g)
		abort();
	if (game_state_load(g, data, size, err, sizeof err)) {
		for (int i = 0; i < 6 && !g->over; i++) {
			struct action a = { .kind = i % 2 ? ACT_WAIT : ACT_MOVE, .dir = (enum grid_dir)(i % 8) };
			game_act(g, &a);
		}
	} else if (!err[0]) {
		abort(); /* a refusal says why */
	}
	game_destroy(g);
	level_destroy(lv);
	return 0;
}
