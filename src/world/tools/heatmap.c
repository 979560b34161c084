/*
 * heatmap.c - heat counts files ("astray-heat 1"): the text that carries
 * the heat of one level's games (struct sim_heat, filled by sim.c) from
 * `sim --heat-counts` to `sim-report --heatmap`: its writer, its parser
 * (from memory, positions in every error) and the merge of the files of
 * several shards into one; and the hash that tells two versions of a
 * level apart.  It counts nothing, draws nothing (the picture is
 * heat_render.c's, in the command layer) and never prints.
 */
#include "heatmap.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "level.h"

uint64_t heatmap_text_hash(const char *text, size_t len)
{
	uint64_t h = 14695981039346656037ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* Terrain in a counts file: one character per tile (void is '_', so a
 * row never ends in spaces). */
static const char terrain_glyphs[TILE_COUNT] = {
	[TILE_VOID] = '_', [TILE_WALL] = '#', [TILE_FLOOR] = '.', [TILE_RUBBLE] = ',',
	[TILE_WATER] = '~', [TILE_DOOR] = '+', [TILE_EXIT] = '>', [TILE_BEDROCK] = '%',
};

static int terrain_tile(char ch)
{
	for (int t = 0; t < TILE_COUNT; t++)
		if (terrain_glyphs[t] == ch)
			return t;
	return -1;
}

/* The header keys, in the order they are written; line_of[] by index. */
enum counts_key {
	K_LEVEL, K_HASH, K_TOPOLOGY, K_SIZE, K_START, K_PLAYER, K_CHASE, K_TURNS, K_GAMES, K_SEED,
	K_SETTINGS, K_SETTINGS_A, K_SETTINGS_B, K_KIND, K_TERRAIN, K_COUNT_KEYS
};
static const char *const counts_keys[K_COUNT_KEYS] = {
	"level", "level-hash", "topology", "size", "start", "player", "chase", "turns", "games", "seed",
	"settings", "settings-a", "settings-b", "kind", "terrain",
};

static bool has_line_break(const char *s)
{
	return strpbrk(s, "\r\n") != NULL;
}

int heatmap_counts_write(FILE *f, const struct heatmap_run *run, const struct sim_heat *a,
			 const struct sim_heat *b, const char *monsters)
{
	if (!a || a->w == 0 || (run->compare && (!b || b->w != a->w || b->h != a->h)) || has_line_break(run->level) ||
	    has_line_break(run->settings[0]) || has_line_break(run->settings[1]) || has_line_break(run->kind))
		return -1;
	fprintf(f, "astray-heat 1\nlevel: %s\nlevel-hash: %016llx\ntopology: %s\nsize: %dx%d\n", run->level,
		(unsigned long long)run->level_hash, grid_topology_name((enum grid_topology)a->topo), a->w, a->h);
	if (run->start >= 0)
		fprintf(f, "start: %d,%d\n", run->start % a->w, run->start / a->w);
	else
		fprintf(f, "start: none\n");
	fprintf(f, "player: %s\nchase: %s\nturns: %d\ngames: %d\nseed: %llu\n", run->player,
		run->chase ? "yes" : "no", run->max_turns, run->games, (unsigned long long)run->seed);
	if (run->compare)
		fprintf(f, "settings-a: %s\nsettings-b: %s\n", run->settings[0], run->settings[1]);
	else
		fprintf(f, "settings: %s\n", run->settings[0]);
	if (run->kind[0])
		fprintf(f, "kind: %s\n", run->kind);
	fprintf(f, "terrain:\n");
	for (int y = 0; y < a->h; y++) {
		for (int x = 0; x < a->w; x++) {
			unsigned t = a->tiles[y * a->w + x];
			fputc(t < TILE_COUNT ? terrain_glyphs[t] : '#', f);
		}
		fputc('\n', f);
	}
	bool any = false;
	for (int c = 0; monsters && c < a->w * a->h && !any; c++)
		any = monsters[c] > ' ' && monsters[c] < 0x7f;
	if (any) {
		fprintf(f, "monsters:\n");
		for (int c = 0; c < a->w * a->h; c++)
			if (monsters[c] > ' ' && monsters[c] < 0x7f)
				fprintf(f, "%c %d %d\n", monsters[c], c % a->w, c / a->w);
	}
	fprintf(f, "counts:\n");
	const struct sim_heat *side[2] = { a, b };
	for (int l = 0; l < SIM_HEAT_COUNT; l++)
		for (int s = 0; s < (run->compare ? 2 : 1); s++)
			for (int c = 0; c < a->w * a->h; c++)
				if (side[s]->v[l][c] != 0)
					fprintf(f, "%s %c %d %d %.0f\n", sim_heat_layer_name((enum sim_heat_layer)l),
						"AB"[s], c % a->w, c / a->w, side[s]->v[l][c]);
	fprintf(f, "end\n");
	return 0;
}

void heatmap_counts_fini(struct heatmap_counts *c)
{
	if (!c)
		return;
	sim_heat_fini(&c->heat[0]);
	sim_heat_fini(&c->heat[1]);
	free(c->monsters);
	memset(c, 0, sizeof *c);
}

/* The parser's cursor: one line at a time, with its number. */
struct counts_reader {
	const char *file;
	const char *p, *end;
	int line;                 /* of the line last taken */
	const char *text;         /* that line, not terminated */
	size_t len;
	struct diag_list *d;
};

/* Takes the next line (without its "\n" or "\r\n"); false at the end. */
static bool next_line(struct counts_reader *r)
{
	if (r->p >= r->end)
		return false;
	const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	const char *stop = nl ? nl : r->end;
	r->text = r->p;
	r->len = (size_t)(stop - r->p);
	if (r->len > 0 && r->text[r->len - 1] == '\r')
		r->len--;
	r->p = nl ? nl + 1 : r->end;
	r->line++;
	return true;
}

/* Reports an error at the current line and column col; returns false. */
static bool fail(struct counts_reader *r, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(struct counts_reader *r, int col, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_add(r->d, DIAG_ERROR, r->file, r->line, col, "%s", msg);
	return false;
}

/* A whole decimal number in [lo, hi] from the len bytes at s. */
static bool parse_u64(const char *s, size_t len, uint64_t lo, uint64_t hi, uint64_t *out)
{
	if (len == 0 || len > 20)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || (len > 1 && i == 0 && s[0] == '0'))
			return false;
		unsigned dgt = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - dgt) / 10)
			return false;
		v = v * 10 + dgt;
	}
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* "A,B" or "AxB" (sep) of numbers in [lo, hi]. */
static bool parse_pair(const char *s, size_t len, char sep, uint64_t lo, uint64_t hi, int *a, int *b)
{
	const char *m = memchr(s, sep, len);
	uint64_t x, y;
	if (!m || !parse_u64(s, (size_t)(m - s), lo, hi, &x) ||
	    !parse_u64(m + 1, len - (size_t)(m - s) - 1, lo, hi, &y))
		return false;
	*a = (int)x;
	*b = (int)y;
	return true;
}

/* Copies a value of len bytes into buf (size bytes); false when too long
 * or holding a NUL or a carriage return (a line break, which the writer
 * could not write back). */
static bool copy_value(char *buf, size_t size, const char *s, size_t len)
{
	if (len >= size || memchr(s, '\0', len) || memchr(s, '\r', len))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return true;
}

/* One header line "key: value" into out; false after reporting. */
static bool header_line(struct counts_reader *r, struct heatmap_counts *out, int *w, int *h, int *topo,
			int *sx, int *sy)
{
	const char *colon = memchr(r->text, ':', r->len);
	size_t klen = colon ? (size_t)(colon - r->text) : 0;
	int k = 0;
	while (colon && k < K_COUNT_KEYS && !(strlen(counts_keys[k]) == klen && memcmp(counts_keys[k], r->text, klen) == 0))
		k++;
	if (!colon || k == K_COUNT_KEYS)
		return fail(r, 1, "expected a header line 'key: value' (level, level-hash, topology, size, start, "
				  "player, chase, turns, games, seed, settings or settings-a/-b, kind) or 'terrain:'");
	if (out->line_of[k])
		return fail(r, 1, "'%s' is given twice", counts_keys[k]);
	out->line_of[k] = r->line;
	const char *v = colon + 1;
	size_t vlen = r->len - klen - 1;
	if (k == K_TERRAIN) {
		if (vlen != 0)
			return fail(r, (int)klen + 2, "'terrain:' takes no value: the rows follow on the next lines");
		return true;
	}
	if (vlen == 0 || *v != ' ')
		return fail(r, (int)klen + 2, "expected ': ' and a value after '%s'", counts_keys[k]);
	v++;
	vlen--;
	int col = (int)klen + 3;
	char word[64];
	uint64_t n;
	struct heatmap_run *run = &out->run;
	switch ((enum counts_key)k) {
	case K_LEVEL:
		if (vlen == 0 || !copy_value(run->level, sizeof run->level, v, vlen))
			return fail(r, col, "the level's name is empty, too long or holds a NUL byte or a carriage return");
		return true;
	case K_HASH:
		run->level_hash = 0;
		for (size_t i = 0; i < vlen; i++) {
			int x = v[i] >= '0' && v[i] <= '9' ? v[i] - '0' : v[i] >= 'a' && v[i] <= 'f' ? v[i] - 'a' + 10 : -1;
			if (x < 0)
				vlen = 0;
			run->level_hash = run->level_hash << 4 | (uint64_t)(x < 0 ? 0 : x);
		}
		if (vlen != 16)
			return fail(r, col, "expected 16 hexadecimal digits (0-9, a-f)");
		return true;
	case K_TOPOLOGY: {
		enum grid_topology t;
		if (!copy_value(word, sizeof word, v, vlen) || !grid_topology_parse(word, &t))
			return fail(r, col, "unknown topology (expected square4, square8, hex, diamond4 or diamond8)");
		*topo = (int)t;
		return true;
	}
	case K_SIZE:
		if (!parse_pair(v, vlen, 'x', 1, LEVEL_MAX_SIDE, w, h))
			return fail(r, col, "expected WxH, each from 1 to %d", LEVEL_MAX_SIDE);
		return true;
	case K_START:
		if (vlen == 4 && memcmp(v, "none", 4) == 0) {
			*sx = *sy = -1;
			return true;
		}
		if (!parse_pair(v, vlen, ',', 0, LEVEL_MAX_SIDE - 1, sx, sy))
			return fail(r, col, "expected X,Y (the player's start) or 'none'");
		return true;
	case K_PLAYER: {
		enum sim_player p;
		if (!copy_value(word, sizeof word, v, vlen) || !sim_player_parse(word, &p))
			return fail(r, col, "unknown player (expected exit, flee, idle, fight or bot)");
		snprintf(run->player, sizeof run->player, "%s", sim_player_name(p));
		return true;
	}
	case K_CHASE:
		if (vlen == 3 && memcmp(v, "yes", 3) == 0)
			run->chase = true;
		else if (vlen == 2 && memcmp(v, "no", 2) == 0)
			run->chase = false;
		else
			return fail(r, col, "expected yes or no");
		return true;
	case K_TURNS:
		if (!parse_u64(v, vlen, 1, INT32_MAX, &n))
			return fail(r, col, "expected a whole number of turns from 1");
		run->max_turns = (int)n;
		return true;
	case K_GAMES:
		if (!parse_u64(v, vlen, 1, INT32_MAX, &n))
			return fail(r, col, "expected a whole number of games from 1");
		run->games = (int)n;
		return true;
	case K_SEED:
		if (!parse_u64(v, vlen, 0, UINT64_MAX, &n))
			return fail(r, col, "expected a seed from 0 to 18446744073709551615");
		run->seed = n;
		return true;
	case K_SETTINGS:
	case K_SETTINGS_A:
	case K_SETTINGS_B:
		if (!copy_value(run->settings[k == K_SETTINGS_B], sizeof run->settings[0], v, vlen))
			return fail(r, col, "the settings are too long or hold a NUL byte or a carriage return");
		return true;
	case K_KIND:
		if (vlen == 0 || !copy_value(run->kind, sizeof run->kind, v, vlen) || strpbrk(run->kind, " \t"))
			return fail(r, col, "expected the name of one monster kind (at most %d characters, no spaces)",
				    (int)sizeof run->kind - 1);
		return true;
	default:
		return false;
	}
}

/* One counts line "LAYER SIDE X Y COUNT"; *last is the previous cell's
 * place in the file's order.  False after reporting. */
static bool count_line(struct counts_reader *r, struct heatmap_counts *out, long long *last)
{
	char layer[16], side[4], xs[16], ys[16], ns[32], extra[2];
	char line[128];
	if (r->len >= sizeof line || memchr(r->text, '\0', r->len))
		return fail(r, 1, "expected 'LAYER SIDE X Y COUNT' (a line this long is not one)");
	memcpy(line, r->text, r->len);
	line[r->len] = '\0';
	if (sscanf(line, "%15s %3s %15s %15s %31s %1s", layer, side, xs, ys, ns, extra) != 5)
		return fail(r, 1, "expected 'LAYER SIDE X Y COUNT', five fields separated by spaces");
	enum sim_heat_layer l;
	if (!sim_heat_layer_parse(layer, &l))
		return fail(r, 1, "unknown layer '%s' (expected occupancy, contact, deaths or blocked)", layer);
	int s = strcmp(side, "A") == 0 ? 0 : strcmp(side, "B") == 0 ? 1 : -1;
	if (s < 0 || (s == 1 && !out->run.compare))
		return fail(r, (int)strlen(layer) + 2, "%s", out->run.compare ? "the side is A or B"
						: "the side is A (this file has no settings-b, so no side B)");
	const struct sim_heat *h = &out->heat[0];
	uint64_t x, y, n;
	if (!parse_u64(xs, strlen(xs), 0, (uint64_t)h->w - 1, &x) || !parse_u64(ys, strlen(ys), 0, (uint64_t)h->h - 1, &y))
		return fail(r, 1, "the cell is outside the map given by size");
	if (!parse_u64(ns, strlen(ns), 1, (uint64_t)1 << 53, &n))
		return fail(r, 1, "the count is a whole number from 1 to 2^53 (cells counting 0 are left out)");
	long long at = (((long long)l * 2 + s) * h->h + (long long)y) * h->w + (long long)x;
	if (at <= *last)
		return fail(r, 1, "this cell comes out of order or twice (lines go by layer, side, row, column; "
				  "each cell once)");
	*last = at;
	out->heat[s].v[l][y * (uint64_t)h->w + x] = (double)n;
	return true;
}

/* Sizes one side's heat; false on no memory. */
static bool heat_alloc(struct sim_heat *h, int w, int hh, int topo)
{
	size_t cells = (size_t)w * (size_t)hh;
	h->w = w;
	h->h = hh;
	h->topo = topo;
	h->tiles = calloc(cells, 1);
	bool ok = h->tiles != NULL;
	for (int l = 0; l < SIM_HEAT_COUNT; l++) {
		h->v[l] = calloc(cells, sizeof *h->v[l]);
		ok = ok && h->v[l];
	}
	return ok;
}

/* The lines "G X Y" after "monsters:" (a kind's letter where one starts),
 * up to the line after them, which is left in r.  False after reporting. */
static bool monster_lines(struct counts_reader *r, struct heatmap_counts *out)
{
	const struct sim_heat *h = &out->heat[0];
	out->monsters = calloc((size_t)h->w * (size_t)h->h, 1);
	if (!out->monsters) {
		diag_add(r->d, DIAG_ERROR, r->file, 0, 0, "out of memory");
		return false;
	}
	for (;;) {
		if (!next_line(r))
			return fail(r, 1, "the file ends before 'counts:'");
		if (r->len == 7 && memcmp(r->text, "counts:", 7) == 0)
			return true;
		const char *sp = r->len > 2 ? memchr(r->text + 2, ' ', r->len - 2) : NULL;
		uint64_t x, y;
		if (r->len < 5 || r->text[0] <= ' ' || r->text[0] >= 0x7f || r->text[1] != ' ' || !sp)
			return fail(r, 1, "expected 'G X Y': a monster kind's letter and the cell it starts on");
		if (!parse_u64(r->text + 2, (size_t)(sp - r->text - 2), 0, (uint64_t)h->w - 1, &x) ||
		    !parse_u64(sp + 1, r->len - (size_t)(sp + 1 - r->text), 0, (uint64_t)h->h - 1, &y))
			return fail(r, 3, "the cell is outside the map given by size");
		size_t c = (size_t)y * (size_t)h->w + (size_t)x;
		if (out->monsters[c])
			return fail(r, 1, "two monsters start on the cell %d,%d", (int)x, (int)y);
		out->monsters[c] = r->text[0];
	}
}

static bool parse_body(struct counts_reader *r, struct heatmap_counts *out)
{
	if (!next_line(r) || r->len != 13 || memcmp(r->text, "astray-heat 1", 13) != 0) {
		if (r->line == 0)
			r->line = 1;
		return fail(r, 1, "not a heat counts file: the first line must be 'astray-heat 1' (written by "
				  "astray sim --heat-counts)");
	}
	int w = 0, h = 0, topo = -1, sx = -1, sy = -1;
	out->run.start = -1;
	while (!out->line_of[K_TERRAIN]) {
		if (!next_line(r))
			return fail(r, 1, "the file ends before 'terrain:'");
		if (!header_line(r, out, &w, &h, &topo, &sx, &sy))
			return false;
	}
	static const enum counts_key needed[] = { K_LEVEL, K_HASH, K_TOPOLOGY, K_SIZE, K_START, K_PLAYER,
						  K_CHASE, K_TURNS, K_GAMES, K_SEED };
	for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
		if (!out->line_of[needed[i]])
			return fail(r, 1, "'%s:' is missing before 'terrain:'", counts_keys[needed[i]]);
	bool plain = out->line_of[K_SETTINGS] != 0, a = out->line_of[K_SETTINGS_A] != 0,
	     b = out->line_of[K_SETTINGS_B] != 0;
	if (plain ? a || b : !(a && b))
		return fail(r, 1, "give 'settings:' (one run) or both 'settings-a:' and 'settings-b:' "
				  "(--compare)");
	out->run.compare = !plain;
	if (sx >= w || sy >= h)
		return fail(r, 1, "the start cell lies outside the map given by size");
	/* The rows must be there before anything is sized: a short file
	 * cannot ask for a huge map. */
	if ((size_t)(r->end - r->p) < (size_t)h * ((size_t)w + 1) - 1)
		return fail(r, 1, "the terrain rows that size asks for are not all there");
	if (!heat_alloc(&out->heat[0], w, h, topo) || (out->run.compare && !heat_alloc(&out->heat[1], w, h, topo))) {
		diag_add(r->d, DIAG_ERROR, r->file, 0, 0, "out of memory");
		return false;
	}
	for (int y = 0; y < h; y++) {
		if (!next_line(r) || r->len != (size_t)w) {
			diag_add(r->d, DIAG_ERROR, r->file, r->line, 1,
				 "expected terrain row %d of %d: exactly %d characters (the width in size)", y + 1, h, w);
			return false;
		}
		for (int x = 0; x < w; x++) {
			int t = terrain_tile(r->text[x]);
			if (t < 0)
				return fail(r, x + 1, "unknown terrain character (expected # _ . , ~ + or >)");
			out->heat[0].tiles[y * w + x] = (uint8_t)t;
		}
	}
	if (out->run.compare)
		memcpy(out->heat[1].tiles, out->heat[0].tiles, (size_t)w * (size_t)h);
	if (sx >= 0) {
		uint8_t t = out->heat[0].tiles[sy * w + sx];
		if (t == TILE_WALL || t == TILE_BEDROCK || t == TILE_VOID) {
			r->line = out->line_of[K_START];
			return fail(r, 1, "the player's start is on a %s", t == TILE_VOID ? "void cell" : "wall");
		}
		out->run.start = sy * w + sx;
	}
	if (!next_line(r))
		return fail(r, 1, "expected 'monsters:' or 'counts:' after the terrain rows");
	if (r->len == 9 && memcmp(r->text, "monsters:", 9) == 0 && !monster_lines(r, out))
		return false;
	if (r->len != 7 || memcmp(r->text, "counts:", 7) != 0)
		return fail(r, 1, "expected %s", out->monsters ? "'counts:' after the monsters' lines"
							       : "'monsters:' or 'counts:' after the terrain rows");
	long long last = -1;
	for (;;) {
		if (!next_line(r))
			return fail(r, 1, "the file ends without 'end' (cut short?)");
		if (r->len == 3 && memcmp(r->text, "end", 3) == 0)
			break;
		if (!count_line(r, out, &last))
			return false;
	}
	while (next_line(r))
		if (r->len != 0)
			return fail(r, 1, "text after 'end'");
	return true;
}

bool heatmap_counts_parse(const char *file, const char *text, size_t len, struct heatmap_counts *out,
			  struct diag_list *d)
{
	memset(out, 0, sizeof *out);
	struct counts_reader r = { .file = file, .p = text, .end = text + len, .d = d };
	if (parse_body(&r, out))
		return true;
	heatmap_counts_fini(out);
	return false;
}

/* Whether a and b hold the same value of key k (one of the run's). */
static bool same_key(const struct heatmap_counts *a, const struct heatmap_counts *b, enum counts_key k,
		     char *va, char *vb, size_t size)
{
	const struct heatmap_run *x = &a->run, *y = &b->run;
	switch (k) {
	case K_LEVEL:
		snprintf(va, size, "%s", x->level);
		snprintf(vb, size, "%s", y->level);
		break;
	case K_HASH:
		snprintf(va, size, "%016llx", (unsigned long long)x->level_hash);
		snprintf(vb, size, "%016llx", (unsigned long long)y->level_hash);
		break;
	case K_TOPOLOGY:
		snprintf(va, size, "%s", grid_topology_name((enum grid_topology)a->heat[0].topo));
		snprintf(vb, size, "%s", grid_topology_name((enum grid_topology)b->heat[0].topo));
		break;
	case K_SIZE:
		snprintf(va, size, "%dx%d", a->heat[0].w, a->heat[0].h);
		snprintf(vb, size, "%dx%d", b->heat[0].w, b->heat[0].h);
		break;
	case K_PLAYER:
		snprintf(va, size, "%s", x->player);
		snprintf(vb, size, "%s", y->player);
		break;
	case K_CHASE:
		snprintf(va, size, "%s", x->chase ? "yes" : "no");
		snprintf(vb, size, "%s", y->chase ? "yes" : "no");
		break;
	case K_TURNS:
		snprintf(va, size, "%d", x->max_turns);
		snprintf(vb, size, "%d", y->max_turns);
		break;
	case K_KIND:
		snprintf(va, size, "%s", x->kind[0] ? x->kind : "(every kind)");
		snprintf(vb, size, "%s", y->kind[0] ? y->kind : "(every kind)");
		break;
	case K_SETTINGS:
	case K_SETTINGS_A:
	case K_SETTINGS_B:
		snprintf(va, size, "%s%s%s", x->compare ? "A = " : "", x->settings[0], x->compare ? "; B = " : "");
		snprintf(vb, size, "%s%s%s", y->compare ? "A = " : "", y->settings[0], y->compare ? "; B = " : "");
		if (x->compare)
			snprintf(va + strlen(va), size - strlen(va), "%s", x->settings[1]);
		if (y->compare)
			snprintf(vb + strlen(vb), size - strlen(vb), "%s", y->settings[1]);
		break;
	default:
		return true;
	}
	return strcmp(va, vb) == 0;
}

static int key_line(const struct heatmap_counts *c, enum counts_key k)
{
	if (k == K_SETTINGS || k == K_SETTINGS_A || k == K_SETTINGS_B)
		return c->line_of[K_SETTINGS] ? c->line_of[K_SETTINGS] : c->line_of[K_SETTINGS_A];
	if (k == K_KIND && !c->line_of[K_KIND])
		return c->line_of[K_TERRAIN]; /* no kind line: every kind; point at where it would be */
	return c->line_of[k];
}

/* The seed range [s, s + n) as words: "7..9" (wrapping modulo 2^64). */
static void seed_range(char *buf, size_t size, uint64_t s, int n)
{
	snprintf(buf, size, "%llu..%llu", (unsigned long long)s, (unsigned long long)(s + (uint64_t)n - 1));
}

/* Orders the parts by seed into order[] (order[0] holds game 0); false
 * with the reason in d when the ranges overlap, leave a gap or repeat. */
static bool chain_seeds(const struct heatmap_counts *const *parts, const char *const *files, int n, int *order,
			struct diag_list *d)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++) /* insertion sort by seed: the file count is small */
		for (int j = i; j > 0 && parts[order[j - 1]]->run.seed > parts[order[j]]->run.seed; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	/* Seeds go round modulo 2^64, so a range that wraps past 2^64 - 1
	 * sorts last but comes first: start after the widest gap between
	 * sorted neighbours (the one gap when the ranges join), so that a
	 * missing shard is reported as the smaller gap it leaves. */
	int at = 0;
	uint64_t widest = 0;
	for (int i = 0; i < n && n > 1; i++) {
		const struct heatmap_run *p = &parts[order[(i + n - 1) % n]]->run, *q = &parts[order[i]]->run;
		uint64_t gap = q->seed - (p->seed + (uint64_t)p->games);
		bool overlap = q->seed - p->seed < (uint64_t)p->games;
		if (!overlap && gap > widest) {
			widest = gap;
			at = i;
		}
	}
	if (at != 0) {
		int *tmp = malloc((size_t)n * sizeof *tmp);
		if (!tmp) {
			diag_add(d, DIAG_ERROR, files[0], 0, 0, "out of memory");
			return false;
		}
		for (int i = 0; i < n; i++)
			tmp[i] = order[(at + i) % n];
		memcpy(order, tmp, (size_t)n * sizeof *order);
		free(tmp);
	}
	for (int i = 1; i < n; i++) {
		const struct heatmap_counts *p = parts[order[i - 1]], *q = parts[order[i]];
		uint64_t end = p->run.seed + (uint64_t)p->run.games;
		if (q->run.seed == end)
			continue;
		char rp[64], rq[64];
		seed_range(rp, sizeof rp, p->run.seed, p->run.games);
		seed_range(rq, sizeof rq, q->run.seed, q->run.games);
		if (q->run.seed == p->run.seed)
			diag_add(d, DIAG_ERROR, files[order[i]], q->line_of[K_SEED], 1,
				 "the games with seeds %s are counted in %s too (the same shard given twice?)", rq,
				 files[order[i - 1]]);
		else if (q->run.seed - p->run.seed < (uint64_t)p->run.games)
			diag_add(d, DIAG_ERROR, files[order[i]], q->line_of[K_SEED], 1,
				 "the games with seeds %s overlap those of %s (seeds %s): each game must be counted once",
				 rq, files[order[i - 1]], rp);
		else
			diag_add(d, DIAG_ERROR, files[order[i]], q->line_of[K_SEED], 1,
				 "the games with seeds %llu..%llu are missing between %s (seeds %s) and this file "
				 "(seeds %s): a shard not given?",
				 (unsigned long long)end, (unsigned long long)(q->run.seed - 1), files[order[i - 1]], rp, rq);
		return false;
	}
	return true;
}

bool heatmap_counts_merge(const struct heatmap_counts *const *parts, const char *const *files, int n,
			  struct heatmap_counts *out, struct diag_list *d)
{
	memset(out, 0, sizeof *out);
	if (n < 1)
		return false;
	static const enum counts_key same[] = { K_LEVEL, K_HASH, K_TOPOLOGY, K_SIZE, K_PLAYER, K_CHASE, K_TURNS,
						K_SETTINGS, K_KIND };
	static const char *const why[] = {
		"another level", "another version of the level (its text differs)", "another topology",
		"another size", "another scripted player", "another --chase", "another --turns",
		"other settings", "another --heat-kind",
	};
	for (int i = 1; i < n; i++)
		for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
			char va[2200], vb[2200];
			if (same_key(parts[0], parts[i], same[k], va, vb, sizeof va))
				continue;
			diag_add(d, DIAG_ERROR, files[i], key_line(parts[i], same[k]), 1,
				 "%s '%.200s' differs from %.200s:%d ('%.200s'): these counts come from %s, not from "
				 "shards of one run",
				 counts_keys[same[k]], vb, files[0], key_line(parts[0], same[k]), va, why[k]);
			return false;
		}
	int *order = malloc((size_t)n * sizeof *order);
	if (!order) {
		diag_add(d, DIAG_ERROR, files[0], 0, 0, "out of memory");
		return false;
	}
	bool ok = chain_seeds(parts, files, n, order, d);
	long long games = 0;
	for (int i = 0; ok && i < n; i++)
		games += parts[i]->run.games;
	if (ok && games > INT32_MAX) {
		diag_add(d, DIAG_ERROR, files[order[n - 1]], 0, 0, "more than %d games in all", INT32_MAX);
		ok = false;
	}
	const struct heatmap_counts *first = ok ? parts[order[0]] : NULL;
	if (ok) {
		out->run = first->run;
		out->run.games = (int)games;
		memcpy(out->line_of, first->line_of, sizeof out->line_of);
		/* The terrain (a .map's exit moves with the seed) and the start
		 * come from the file holding game 0, as in a single run. */
		for (int s = 0; ok && s < (first->run.compare ? 2 : 1); s++) {
			ok = sim_heat_add(&out->heat[s], &first->heat[s]);
			for (int i = 1; ok && i < n; i++)
				ok = sim_heat_add(&out->heat[s], &parts[order[i]]->heat[s]);
		}
		size_t cells = (size_t)first->heat[0].w * (size_t)first->heat[0].h;
		if (ok && first->monsters) {
			out->monsters = malloc(cells);
			ok = out->monsters != NULL;
			if (ok)
				memcpy(out->monsters, first->monsters, cells);
		}
		if (!ok)
			diag_add(d, DIAG_ERROR, files[0], 0, 0, "out of memory");
	}
	free(order);
	if (!ok)
		heatmap_counts_fini(out);
	return ok;
}
