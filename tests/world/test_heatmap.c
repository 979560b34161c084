/*
 * test_heatmap.c - heat counts files (heatmap.c): they write, read back
 * and merge exactly, and bad ones are refused with file and line.  The
 * pictures are tests/cli/test_heat_render.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "grid.h"
#include "heatmap.h"
#include "level.h"
#include "sim.h"

/* A w x h heat from a map of '#', ' ' and '.', with counts from `digits`
 * (a digit per cell, '.' for 0). */
static void make_heat(struct sim_heat *h, int w, int hh, int topo, const char *map, const char *digits,
		      enum sim_heat_layer l)
{
	memset(h, 0, sizeof *h);
	h->w = w;
	h->h = hh;
	h->topo = topo;
	h->tiles = malloc((size_t)(w * hh));
	for (int i = 0; i < SIM_HEAT_COUNT; i++)
		h->v[i] = calloc((size_t)(w * hh), sizeof(double));
	for (int c = 0; c < w * hh; c++) {
		h->tiles[c] = map[c] == '#' ? TILE_WALL : map[c] == ' ' ? TILE_VOID : map[c] == '>' ? TILE_EXIT : TILE_FLOOR;
		h->v[l][c] = digits[c] >= '0' && digits[c] <= '9' ? digits[c] - '0' : 0;
	}
}

/* ---- heat counts files --------------------------------------------------- */

static struct heatmap_run sample_run(bool compare, uint64_t seed, int games)
{
	struct heatmap_run r;
	memset(&r, 0, sizeof r);
	snprintf(r.level, sizeof r.level, "levels/x.lvl");
	r.level_hash = 0x0123456789abcdefULL;
	r.games = games;
	r.seed = seed;
	snprintf(r.player, sizeof r.player, "exit");
	r.max_turns = 1000;
	r.compare = compare;
	snprintf(r.settings[0], sizeof r.settings[0], "goblin.sight=3");
	if (compare)
		snprintf(r.settings[1], sizeof r.settings[1], "goblin.sight=9");
	r.start = 6;
	return r;
}

static char *counts_text(const struct heatmap_run *r, const struct sim_heat *a, const struct sim_heat *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(heatmap_counts_write(f, r, a, b, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Parses text expecting failure; returns the first message formatted. */
static void expect_refused(const char *text, const char *want)
{
	struct heatmap_counts c;
	struct diag_list d = { 0 };
	bool ok = heatmap_counts_parse("h.heat", text, strlen(text), &c, &d);
	char msg[600] = "";
	if (d.n > 0)
		diag_format(&d.items[0], msg, sizeof msg);
	if (ok || !strstr(msg, want))
		fail_msg("parse of:\n%s\ngave %s '%s', wanted '%s'", text, ok ? "ok" : "error", msg, want);
	diag_list_fini(&d);
}

static void test_counts_round_trip(void **state)
{
	(void)state;
	struct sim_heat a, b;
	make_heat(&a, 5, 3, GRID_HEX, "######. >######", "......19.......", SIM_HEAT_OCCUPANCY);
	make_heat(&b, 5, 3, GRID_HEX, "######. >######", "......9........", SIM_HEAT_DEATHS);
	a.tiles[8] = TILE_EXIT;
	b.tiles[8] = TILE_EXIT;
	a.v[SIM_HEAT_BLOCKED][6] = 123456789012.0;
	struct heatmap_run r = sample_run(true, 18446744073709551615ULL, 7);
	char *text = counts_text(&r, &a, &b);
	assert_non_null(strstr(text, "astray-heat 1\nlevel: levels/x.lvl\nlevel-hash: 0123456789abcdef\n"));
	assert_non_null(strstr(text, "\nterrain:\n#####\n#._>#\n#####\ncounts:\n"));
	assert_non_null(strstr(text, "\nblocked A 1 1 123456789012\n"));
	struct heatmap_counts c;
	struct diag_list d = { 0 };
	assert_true(heatmap_counts_parse("h.heat", text, strlen(text), &c, &d));
	assert_int_equal(d.n, 0);
	assert_int_equal(c.heat[0].w, 5);
	assert_int_equal(c.heat[0].topo, GRID_HEX);
	assert_memory_equal(c.heat[0].tiles, a.tiles, 15);
	for (int l = 0; l < SIM_HEAT_COUNT; l++) {
		assert_memory_equal(c.heat[0].v[l], a.v[l], 15 * sizeof(double));
		assert_memory_equal(c.heat[1].v[l], b.v[l], 15 * sizeof(double));
	}
	assert_int_equal(c.run.start, 6);
	assert_true(c.run.seed == 18446744073709551615ULL);
	assert_string_equal(c.run.settings[1], "goblin.sight=9");
	/* One kind's heat says so, and reads back. */
	struct heatmap_run rk = r;
	snprintf(rk.kind, sizeof rk.kind, "wolf");
	char *kt = counts_text(&rk, &a, &b);
	assert_non_null(strstr(kt, "\nsettings-b: goblin.sight=9\nkind: wolf\nterrain:\n"));
	struct heatmap_counts ck;
	assert_true(heatmap_counts_parse("k.heat", kt, strlen(kt), &ck, &d));
	assert_string_equal(ck.run.kind, "wolf");
	heatmap_counts_fini(&ck);
	free(kt);
	assert_null(strstr(text, "kind:"));
	/* Monster starts: a section of their own, read back cell by cell. */
	char mons[15] = { 0 };
	mons[6] = 'g';
	mons[7] = 'W';
	char *mt = NULL;
	size_t mlen = 0;
	FILE *mf = open_memstream(&mt, &mlen);
	assert_non_null(mf);
	assert_int_equal(heatmap_counts_write(mf, &r, &a, &b, mons), 0);
	assert_int_equal(fclose(mf), 0);
	assert_non_null(strstr(mt, "\n#####\nmonsters:\ng 1 1\nW 2 1\ncounts:\n"));
	struct heatmap_counts cm;
	assert_true(heatmap_counts_parse("m.heat", mt, strlen(mt), &cm, &d));
	assert_non_null(cm.monsters);
	assert_memory_equal(cm.monsters, mons, 15);
	heatmap_counts_fini(&cm);
	free(mt);
	expect_refused("astray-heat 1\nlevel: x\nlevel-hash: 0123456789abcdef\ntopology: square8\nsize: 2x1\n"
		       "start: none\nplayer: exit\nchase: no\nturns: 9\ngames: 1\nseed: 1\nsettings: s\nterrain:\n"
		       "..\nmonsters:\ng 5 0\ncounts:\nend\n",
		       "h.heat:16:3: error: the cell is outside the map given by size");
	expect_refused("astray-heat 1\nlevel: x\nlevel-hash: 0123456789abcdef\ntopology: square8\nsize: 2x1\n"
		       "start: none\nplayer: exit\nchase: no\nturns: 9\ngames: 1\nseed: 1\nsettings: s\nterrain:\n"
		       "..\nmonsters:\ng 1 0\nh 1 0\ncounts:\nend\n",
		       "h.heat:17:1: error: two monsters start on the cell 1,0");
	/* Written again, the same bytes. */
	char *again = counts_text(&c.run, &c.heat[0], &c.heat[1]);
	assert_string_equal(again, text);
	free(again);
	heatmap_counts_fini(&c);
	/* CRLF line ends read the same. */
	char crlf[4096] = "";
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			strcat(crlf, "\r");
		strncat(crlf, p, 1);
	}
	assert_true(heatmap_counts_parse("h.heat", crlf, strlen(crlf), &c, &d));
	heatmap_counts_fini(&c);
	free(text);
	/* A name with a line break cannot be written. */
	snprintf(r.level, sizeof r.level, "a\nb");
	FILE *f = fopen("/dev/null", "w");
	assert_int_equal(heatmap_counts_write(f, &r, &a, &b, NULL), -1);
	fclose(f);
	sim_heat_fini(&a);
	sim_heat_fini(&b);
}

/* Replaces the first `from` in text by `to` (into buf). */
static const char *edit(char *buf, size_t size, const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	assert_non_null(at);
	snprintf(buf, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return buf;
}

static void test_counts_refused(void **state)
{
	(void)state;
	struct sim_heat a;
	make_heat(&a, 5, 3, GRID_SQUARE8, "######..>######", "......19.......", SIM_HEAT_OCCUPANCY);
	struct heatmap_run r = sample_run(false, 1, 10);
	char *text = counts_text(&r, &a, NULL);
	char buf[4096];
	expect_refused("", "h.heat:1:1: error: not a heat counts file");
	expect_refused("level,game,seed\n", "h.heat:1:1: error: not a heat counts file");
	expect_refused(edit(buf, sizeof buf, text, "size: 5x3", "size: 5x0"), "h.heat:5:7: error: expected WxH");
	expect_refused(edit(buf, sizeof buf, text, "size: 5x3", "size: 4096x4096"),
		       "h.heat:13:1: error: the terrain rows that size asks for are not all there");
	expect_refused(edit(buf, sizeof buf, text, "topology: square8", "topology: octagon"),
		       "h.heat:4:11: error: unknown topology");
	expect_refused(edit(buf, sizeof buf, text, "player: exit", "player: run"), "h.heat:7:9: error: unknown player");
	expect_refused(edit(buf, sizeof buf, text, "games: 10", "games: 0"), "h.heat:10:8: error: expected a whole number");
	expect_refused(edit(buf, sizeof buf, text, "seed: 1\n", "seed: 18446744073709551616\n"), "h.heat:11:7: error");
	expect_refused(edit(buf, sizeof buf, text, "chase: no\n", ""), "'chase:' is missing");
	expect_refused(edit(buf, sizeof buf, text, "chase: no\n", "chase: no\nchase: no\n"), "h.heat:9:1: error: 'chase' is given twice");
	expect_refused(edit(buf, sizeof buf, text, "chase: no\n", "colour: red\n"), "h.heat:8:1: error: expected a header line");
	expect_refused(edit(buf, sizeof buf, text, "settings: goblin.sight=3", "settings-a: x"), "settings-b");
	expect_refused(edit(buf, sizeof buf, text, "terrain:\n", "kind: two words\nterrain:\n"),
		       "h.heat:13:7: error: expected the name of one monster kind");
	expect_refused(edit(buf, sizeof buf, text, "terrain:\n", "kind: wolf\nkind: wolf\nterrain:\n"),
		       "h.heat:14:1: error: 'kind' is given twice");
	expect_refused(edit(buf, sizeof buf, text, "start: 1,1", "start: 0,0"), "h.heat:6:1: error: the player's start is on a wall");
	expect_refused(edit(buf, sizeof buf, text, "start: 1,1", "start: 9,1"), "outside the map");
	expect_refused(edit(buf, sizeof buf, text, "#..>#", "#..>"), "h.heat:15:1: error: expected terrain row 2 of 3");
	expect_refused(edit(buf, sizeof buf, text, "#..>#", "#.X>#"), "h.heat:15:3: error: unknown terrain character");
	expect_refused(edit(buf, sizeof buf, text, "occupancy A 1 1 1\n", "occupancy A 1 1 0\n"), "h.heat:18:1: error: the count");
	expect_refused(edit(buf, sizeof buf, text, "occupancy A 1 1 1\n", "occupancy B 1 1 1\n"), "no side B");
	expect_refused(edit(buf, sizeof buf, text, "occupancy A 1 1 1\n", "occupancy A 7 1 1\n"), "outside the map");
	expect_refused(edit(buf, sizeof buf, text, "occupancy A 1 1 1\n", "crowd A 1 1 1\n"), "unknown layer 'crowd'");
	expect_refused(edit(buf, sizeof buf, text, "occupancy A 1 1 1\n", "occupancy A 1 1\n"), "five fields");
	expect_refused(edit(buf, sizeof buf, text, "occupancy A 1 1 1\noccupancy A 2 1 9\n", "occupancy A 2 1 9\noccupancy A 1 1 1\n"),
		       "h.heat:19:1: error: this cell comes out of order or twice");
	expect_refused(edit(buf, sizeof buf, text, "end\n", ""), "the file ends without 'end' (cut short?)");
	expect_refused(edit(buf, sizeof buf, text, "end\n", "end\nmore\n"), "h.heat:21:1: error: text after 'end'");
	free(text);
	sim_heat_fini(&a);
}

/* Parses a counts file written from run r and heat a (b under compare). */
static void parsed(struct heatmap_counts *c, const struct heatmap_run *r, const struct sim_heat *a,
		   const struct sim_heat *b)
{
	char *text = counts_text(r, a, b);
	struct diag_list d = { 0 };
	assert_true(heatmap_counts_parse("x", text, strlen(text), c, &d));
	free(text);
}

static void expect_merge(const struct heatmap_counts *const *parts, int n, const char *want)
{
	static const char *const names[] = { "s1.heat", "s2.heat", "s3.heat" };
	struct heatmap_counts out;
	struct diag_list d = { 0 };
	bool ok = heatmap_counts_merge(parts, names, n, &out, &d);
	char msg[800] = "";
	if (d.n > 0)
		diag_format(&d.items[0], msg, sizeof msg);
	if (want ? ok || !strstr(msg, want) : !ok)
		fail_msg("merge gave %s '%s', wanted '%s'", ok ? "ok" : "error", msg, want ? want : "ok");
	heatmap_counts_fini(&out);
	diag_list_fini(&d);
}

static void test_counts_merge(void **state)
{
	(void)state;
	struct sim_heat a1, a2, a3;
	make_heat(&a1, 5, 3, GRID_SQUARE8, "######..>######", "......12.......", SIM_HEAT_OCCUPANCY);
	make_heat(&a2, 5, 3, GRID_SQUARE8, "######>..######", "......3.4......", SIM_HEAT_OCCUPANCY);
	make_heat(&a3, 5, 3, GRID_SQUARE8, "######..>######", "........5......", SIM_HEAT_OCCUPANCY);
	struct heatmap_counts c1, c2, c3;
	struct heatmap_run r1 = sample_run(false, 18446744073709551614ULL, 2), r2 = sample_run(false, 0, 3),
			   r3 = sample_run(false, 3, 5);
	r2.start = 7;
	parsed(&c1, &r1, &a1, NULL);
	parsed(&c2, &r2, &a2, NULL);
	parsed(&c3, &r3, &a3, NULL);
	/* Seeds 2^64-2, 2^64-1 | 0..2 | 3..7, given in any order: game 0 is
	 * in c1, so its terrain (exit at 3,1) and start (1,1) are kept. */
	const struct heatmap_counts *parts[3] = { &c3, &c1, &c2 };
	static const char *const names[] = { "s3.heat", "s1.heat", "s2.heat" };
	struct heatmap_counts m;
	struct diag_list d = { 0 };
	assert_true(heatmap_counts_merge(parts, names, 3, &m, &d));
	assert_int_equal(m.run.games, 10);
	assert_true(m.run.seed == 18446744073709551614ULL);
	assert_int_equal(m.run.start, 6);
	assert_int_equal(m.heat[0].tiles[8], TILE_EXIT);
	assert_int_equal(m.heat[0].tiles[6], TILE_FLOOR);
	assert_true(m.heat[0].v[SIM_HEAT_OCCUPANCY][6] == 4 && m.heat[0].v[SIM_HEAT_OCCUPANCY][7] == 2);
	assert_true(m.heat[0].v[SIM_HEAT_OCCUPANCY][8] == 9);
	heatmap_counts_fini(&m);
	/* A gap, an overlap, the same shard twice. */
	const struct heatmap_counts *gap[2] = { &c1, &c3 };
	expect_merge(gap, 2, "s2.heat:11:1: error: the games with seeds 0..2 are missing between s1.heat");
	const struct heatmap_counts *twice[2] = { &c2, &c2 };
	expect_merge(twice, 2, "are counted in s1.heat too (the same shard given twice?)");
	struct heatmap_counts c4;
	struct heatmap_run r4 = sample_run(false, 2, 3);
	parsed(&c4, &r4, &a3, NULL);
	const struct heatmap_counts *over[2] = { &c2, &c4 };
	expect_merge(over, 2, "s2.heat:11:1: error: the games with seeds 2..4 overlap those of s1.heat (seeds 0..2)");
	heatmap_counts_fini(&c4);
	/* Another version of the level, other options, the other kind of run. */
	static const struct {
		int field;
		const char *want;
	} diffs[] = {
		{ 0, "s2.heat:2:1: error: level 'levels/y.lvl' differs from s1.heat:2 ('levels/x.lvl'): these counts come from another level" },
		{ 1, "s2.heat:3:1: error: level-hash 'fedcba9876543210' differs" },
		{ 2, "s2.heat:7:1: error: player 'flee' differs from s1.heat:7 ('exit')" },
		{ 3, "s2.heat:9:1: error: turns '50' differs" },
		{ 4, "s2.heat:12:1: error: settings 'A = goblin.sight=3; B = goblin.sight=9' differs from s1.heat:12 ('goblin.sight=3')" },
		{ 5, "s2.heat:8:1: error: chase 'yes' differs" },
		/* --heat-kind: one kind's heat does not add to every kind's, nor to another kind's */
		{ 6, "s2.heat:13:1: error: kind 'wolf' differs from s1.heat:13 ('(every kind)'): these counts come "
		     "from another --heat-kind" },
	};
	for (size_t k = 0; k < sizeof diffs / sizeof diffs[0]; k++) {
		struct heatmap_run r = sample_run(diffs[k].field == 4, 3, 5);
		if (diffs[k].field == 0)
			snprintf(r.level, sizeof r.level, "levels/y.lvl");
		if (diffs[k].field == 1)
			r.level_hash = 0xfedcba9876543210ULL;
		if (diffs[k].field == 2)
			snprintf(r.player, sizeof r.player, "flee");
		if (diffs[k].field == 3)
			r.max_turns = 50;
		if (diffs[k].field == 5)
			r.chase = true;
		if (diffs[k].field == 6)
			snprintf(r.kind, sizeof r.kind, "wolf");
		parsed(&c4, &r, &a3, diffs[k].field == 4 ? &a3 : NULL);
		const struct heatmap_counts *two[2] = { &c2, &c4 };
		expect_merge(two, 2, diffs[k].want);
		heatmap_counts_fini(&c4);
	}
	struct sim_heat small;
	make_heat(&small, 4, 3, GRID_SQUARE8, "#####..#####", "............", SIM_HEAT_OCCUPANCY);
	parsed(&c4, &r3, &small, NULL);
	const struct heatmap_counts *sizes[2] = { &c2, &c4 };
	expect_merge(sizes, 2, "s2.heat:5:1: error: size '4x3' differs from s1.heat:5 ('5x3')");
	heatmap_counts_fini(&c4);
	sim_heat_fini(&small);
	heatmap_counts_fini(&c1);
	heatmap_counts_fini(&c2);
	heatmap_counts_fini(&c3);
	sim_heat_fini(&a1);
	sim_heat_fini(&a2);
	sim_heat_fini(&a3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_round_trip),
		cmocka_unit_test(test_counts_refused),
		cmocka_unit_test(test_counts_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
