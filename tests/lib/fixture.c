/*
 * fixture.c - the game fixtures of the world suites (test_game_fixture.h), compiled once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_game_fixture.h"

void fixture_bestiary(struct bestiary *b, const char *text)
{
	struct diag_list d = { 0 };
	bool ok = bestiary_parse("test-bestiary", text, strlen(text), b, &d);
	for (int i = 0; i < d.n; i++) {
		char buf[800];
		diag_format(&d.items[i], buf, sizeof buf);
		fprintf(stderr, "%s\n", buf);
	}
	diag_list_fini(&d);
	assert_true(ok);
}

struct level *fixture_level(const char *topology, const char *map, const struct bestiary *b)
{
	size_t cap = strlen(map) + 256;
	char *text = malloc(cap);
	assert_non_null(text);
	int n = snprintf(text, cap, "astray-level 1\nname: test\ntopology: %s\nmap:\n%s\n", topology, map);
	struct diag_list d = { 0 };
	struct level *lv = level_parse("test.lvl", text, (size_t)n, b, &d);
	for (int i = 0; i < d.n; i++) {
		char buf[800];
		diag_format(&d.items[i], buf, sizeof buf);
		fprintf(stderr, "%s\n", buf);
	}
	diag_list_fini(&d);
	free(text);
	assert_non_null(lv);
	return lv;
}

/* The even column offset that puts square cell (0, h - 1) at column 0. */
static int diamond_offset(int h)
{
	return (h - 1) + ((h - 1) & 1);
}

void fixture_diamond_cell(int h, int u, int v, int *x, int *y)
{
	int col = u - v + diamond_offset(h);
	*y = u + v;
	*x = (col - (*y & 1)) / 2;
}

char *fixture_square_to_diamond(const char *square)
{
	int w = 0, h = 0;
	for (const char *p = square; *p;) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);
		if (len > w)
			w = len;
		h++;
		p = e ? e + 1 : p + len;
	}
	int rows = w + h - 1, cols = w - 1 + diamond_offset(h) + 1;
	char *out = malloc((size_t)rows * (size_t)(cols + 1) + 1);
	assert_non_null(out);
	for (int r = 0; r < rows; r++) {
		memset(out + r * (cols + 1), ' ', (size_t)cols);
		out[r * (cols + 1) + cols] = '\n';
	}
	out[rows * (cols + 1)] = '\0';
	int v = 0;
	for (const char *p = square; *p; v++) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);
		for (int u = 0; u < len; u++)
			out[(u + v) * (cols + 1) + u - v + diamond_offset(h)] = p[u];
		p = e ? e + 1 : p + len;
	}
	/* trailing spaces are void anyway; keep the rows as they are */
	return out;
}

/* Every blow hits (hit 100, rules.player_hit 100), no monster arrives or
 * heals: a test of something else sees exactly what it sets up.  The
 * tests of chance, arrivals and healing set those knobs themselves. */
const char fixture_kinds[] =
	"kind: goblin\nglyph: g\nhp: 6\ndamage: 2\nsight: 20\nmemory: 10\nhit: 100\n"
	"kind: dummy\nglyph: d\nhp: 1\ndamage: 0\nsight: 0\nhit: 100\n"
	"kind: slug\nglyph: s\nhp: 5\ndamage: 1\nspeed: 50\nsight: 20\nhit: 100\n"
	"kind: bat\nglyph: b\nhp: 5\ndamage: 1\nspeed: 200\nsight: 20\nhit: 100\n"
	"kind: killer\nglyph: k\nhp: 50\ndamage: 200\nsight: 20\nhit: 100\n"
	"kind: watcher\nglyph: w\nhp: 5\ndamage: 0\nsight: 20\nmemory: 0\nhit: 100\n"
	"rules:\nplayer_hit: 100\narrival: 0\nheal: 0\n";

struct game *fixture_game(struct fixture *f, const char *topology, const char *map, uint64_t seed)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, fixture_kinds);
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, seed);
	assert_non_null(f->g);
	return f->g;
}

struct game *fixture_game_set(struct fixture *f, const char *topology, const char *map, uint64_t seed,
			      const char *const *sets)
{
	memset(f, 0, sizeof *f);
	fixture_bestiary(&f->b, fixture_kinds);
	for (int i = 0; sets && sets[i]; i++) {
		char err[512];
		if (!bestiary_set(&f->b, sets[i], err, sizeof err))
			fail_msg("--set %s: %s", sets[i], err);
	}
	f->lv[0] = fixture_level(topology, map, &f->b);
	f->levels[0] = f->lv[0];
	f->n = 1;
	f->g = game_create(f->levels, 1, &f->b, seed);
	assert_non_null(f->g);
	return f->g;
}

void fixture_fini(struct fixture *f)
{
	game_destroy(f->g);
	for (int i = 0; i < 4; i++)
		level_destroy(f->lv[i]);
	memset(f, 0, sizeof *f);
}

enum act_result act_move(struct game *g, enum grid_dir d)
{
	struct action a = { .kind = ACT_MOVE, .dir = d };
	return game_act(g, &a);
}

enum act_result act_wait(struct game *g)
{
	struct action a = { .kind = ACT_WAIT };
	return game_act(g, &a);
}

enum act_result act_travel(struct game *g, int x, int y)
{
	struct action a = { .kind = ACT_TRAVEL, .x = x, .y = y };
	return game_act(g, &a);
}

enum act_result act_travel_step(struct game *g)
{
	struct action a = { .kind = ACT_TRAVEL_STEP };
	return game_act(g, &a);
}

int travel_all(struct game *g, int x, int y)
{
	int n = 0;
	if (act_travel(g, x, y) == RESULT_ACTED)
		n++;
	while (g->travel.active && n < 10000) {
		if (act_travel_step(g) != RESULT_ACTED)
			break;
		n++;
	}
	return n;
}

bool message_contains(const struct game *g, const char *needle)
{
	for (int i = 0; i < 10; i++) {
		const struct message *m = game_message(g, i);
		if (!m)
			break;
		if (strstr(m->text, needle))
			return true;
	}
	return false;
}

char *fixture_floor_map(enum grid_topology topo, int w, int h)
{
	const bool stag = grid_is_staggered(topo);
	const size_t row = stag ? (size_t)2 * w + 2 : (size_t)w + 1;
	char *m = malloc(row * (size_t)h + 1);
	assert_non_null(m);
	char *p = m;
	for (int y = 0; y < h; y++) {
		if (stag && (y & 1))
			*p++ = ' ';
		for (int x = 0; x < w; x++) {
			*p++ = x == 1 && y == 1 ? '@' : x == w - 2 && y == h - 2 ? '>' : '.';
			if (stag && x < w - 1)
				*p++ = ' ';
		}
		*p++ = '\n';
	}
	*p = '\0';
	return m;
}
