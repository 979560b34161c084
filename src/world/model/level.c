/*
 * level.c - level files (DESIGN section 5): parse from memory with every
 * mistake reported at its line and column, write back, import Moving AI
 * maps, and the designer's analysis behind `astray check` (regions the
 * player cannot reach).  It never prints and never exits: problems go to a
 * diag_list and the caller decides what to show.  The search lives in
 * path.c; the connectivity here is a plain flood over grid_neighbours.
 */
#include "level.h"

#include "bigmem.h"
#include "region.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movingai.h"
#include "textfile.h"

/* Past this many errors in one file the parser stops adding them: one
 * shifted block of a huge map must not bury the rest under a million lines. */
#define LEVEL_MAX_ERRORS 100
/* More one-cell regions than this are summed up in one warning. */
#define LEVEL_SINGLES_LISTED 3

static const struct tile_info tile_table[TILE_COUNT] = {
	[TILE_VOID] = { ' ', "void", 0, true },
	[TILE_WALL] = { '#', "wall", 0, true },
	[TILE_FLOOR] = { '.', "floor", 1, false },
	[TILE_RUBBLE] = { ',', "rubble", 2, false },
	[TILE_WATER] = { '~', "shallow water", 3, false },
	[TILE_DOOR] = { '+', "door", 1, true },
	[TILE_EXIT] = { '>', "exit", 1, false },
	[TILE_BEDROCK] = { '%', "permanent wall", 0, true },
};

const struct tile_info *tile_info(enum tile t)
{
	if ((unsigned)t >= TILE_COUNT)
		t = TILE_VOID;
	return &tile_table[t];
}

char tile_glyph(enum tile t)
{
	return tile_info(t)->glyph;
}

/* What a map character means.  Everything not listed is an error. */
enum glyph_class {
	G_BAD = 0,
	G_TILE,     /* terrain only */
	G_PLAYER,   /* '@' on floor */
	G_ITEM,     /* an item's class glyph on floor: ! $ ? / ) [ ( } (items.h) */
	G_MONSTER,  /* a letter on floor */
};

struct glyph_entry {
	unsigned char cls;  /* enum glyph_class */
	unsigned char tile; /* enum tile under it */
};

/* Every byte's meaning; a zero entry (G_BAD) is an error.  One lookup per
 * map character keeps a 4096x4096 map fast to read. */
#define M(c) [c] = { G_MONSTER, TILE_FLOOR }
static const struct glyph_entry glyph_table[256] = {
	[' '] = { G_TILE, TILE_VOID },
	['#'] = { G_TILE, TILE_WALL },
	['%'] = { G_TILE, TILE_BEDROCK },
	['.'] = { G_TILE, TILE_FLOOR },
	[','] = { G_TILE, TILE_RUBBLE },
	['~'] = { G_TILE, TILE_WATER },
	['+'] = { G_TILE, TILE_DOOR },
	['>'] = { G_TILE, TILE_EXIT },
	['@'] = { G_PLAYER, TILE_FLOOR },
	['!'] = { G_ITEM, TILE_FLOOR },
	['$'] = { G_ITEM, TILE_FLOOR },
	['?'] = { G_ITEM, TILE_FLOOR },
	['/'] = { G_ITEM, TILE_FLOOR },
	[')'] = { G_ITEM, TILE_FLOOR },
	['['] = { G_ITEM, TILE_FLOOR },
	['('] = { G_ITEM, TILE_FLOOR },
	['}'] = { G_ITEM, TILE_FLOOR },
	M('a'), M('b'), M('c'), M('d'),
	M('e'), M('f'), M('g'), M('h'),
	M('i'), M('j'), M('k'), M('l'),
	M('m'), M('n'), M('o'), M('p'),
	M('q'), M('r'), M('s'), M('t'),
	M('u'), M('v'), M('w'), M('x'),
	M('y'), M('z'), M('A'), M('B'),
	M('C'), M('D'), M('E'), M('F'),
	M('G'), M('H'), M('I'), M('J'),
	M('K'), M('L'), M('M'), M('N'),
	M('O'), M('P'), M('Q'), M('R'),
	M('S'), M('T'), M('U'), M('V'),
	M('W'), M('X'), M('Y'), M('Z'),
};
#undef M

static struct glyph_entry classify(unsigned char c)
{
	return glyph_table[c];
}

/* ---- the parser's state ------------------------------------------------ */

struct parser {
	const char *file;
	struct diag_list *diags;
	int errors;
	bool stopped;        /* the error cap was hit */
	bool oom;
};

static void vperr(struct parser *p, const char *code, int line, int col, int x, int y, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

/* One error: `code` is its stable name (levels/FORMAT.md), (x, y) the map
 * cell it is about or -1, -1. */
static void vperr(struct parser *p, const char *code, int line, int col, int x, int y, const char *fmt, va_list ap)
{
	p->errors++;
	if (p->stopped)
		return;
	if (p->errors > LEVEL_MAX_ERRORS) {
		p->stopped = true;
		diag_add_cell(p->diags, DIAG_ERROR, "too-many-errors", p->file, line, col, -1, -1,
			      "too many errors (%d); stopping here", LEVEL_MAX_ERRORS);
		return;
	}
	if (!diag_addv(p->diags, DIAG_ERROR, code, p->file, line, col, x, y, fmt, ap))
		p->oom = true;
}

static void perr(struct parser *p, const char *code, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void perr(struct parser *p, const char *code, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vperr(p, code, line, col, -1, -1, fmt, ap);
	va_end(ap);
}

static void perr_cell(struct parser *p, const char *code, int line, int col, int x, int y, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static void perr_cell(struct parser *p, const char *code, int line, int col, int x, int y, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vperr(p, code, line, col, x, y, fmt, ap);
	va_end(ap);
}

/* Walks the text one line at a time; the one place that counts lines. */
struct cursor {
	const char *text;
	size_t len, pos;
	int line;            /* number of the line last returned */
};

/* The next line without its newline (LF or CRLF).  False at the end. */
static bool next_line(struct cursor *c, const char **start, size_t *n)
{
	if (c->pos >= c->len)
		return false;
	const char *s = c->text + c->pos;
	const char *nl = memchr(s, '\n', c->len - c->pos);
	size_t k = nl ? (size_t)(nl - s) : c->len - c->pos;
	c->pos += k + (nl ? 1 : 0);
	if (k > 0 && s[k - 1] == '\r')
		k--;
	*start = s;
	*n = k;
	c->line++;
	return true;
}

/* A byte that is never allowed in a level file, wherever it is: reports it
 * at (line, col) and returns false; true for an allowed byte. */
static bool check_byte(struct parser *p, int line, int col, unsigned char c)
{
	if (c == '\t')
		perr(p, "tab", line, col, "tab character (use spaces: a tab has no fixed width)");
	else if (c == 0)
		perr(p, "nul-byte", line, col, "NUL byte (level files are plain ASCII text)");
	else if (c >= 0x80)
		perr(p, "non-ascii", line, col, "non-ASCII byte 0x%02X (level files are plain ASCII text)", c);
	else if (c < 0x20 || c == 0x7f)
		perr(p, "control-char", line, col, "control character 0x%02X (level files are plain ASCII text)", c);
	else
		return true;
	return false;
}

/* Checks a header or comment line; reports its first bad byte only. */
static bool check_bytes(struct parser *p, int line, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!check_byte(p, line, (int)i + 1, (unsigned char)s[i]))
			return false;
	return true;
}

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ')
			return false;
	return true;
}

static char *dup_range(const char *s, size_t n)
{
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, s, n);
		r[n] = '\0';
	}
	return r;
}

/* ---- header ---------------------------------------------------------- */

enum header_key { KEY_NAME, KEY_TOPOLOGY, KEY_AUTHOR, KEY_DESCRIPTION, KEY_SEALED, KEY_COUNT };

static const char *const header_keys[KEY_COUNT] = {
	[KEY_NAME] = "name",
	[KEY_TOPOLOGY] = "topology",
	[KEY_AUTHOR] = "author",
	[KEY_DESCRIPTION] = "description",
	[KEY_SEALED] = "sealed",
};

struct header {
	int seen_line[KEY_COUNT];   /* line where each key was given, 0 = not yet */
	char *value[KEY_COUNT];
	int value_col[KEY_COUNT];   /* text column where each value starts */
	bool topology_ok;
	enum grid_topology topo;
	int map_line;               /* line of "map:", 0 = none */
	int last_line;
};

/* One header line (already byte-checked, not blank, not a comment). */
static void header_line(struct parser *p, struct header *h, int line, const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	size_t key_start = i;
	while (i < n && s[i] != ':')
		i++;
	if (i == n) {
		perr(p, "header-syntax", line, (int)key_start + 1,
		     "expected 'key: value' (keys: name, topology, author, description, sealed) or 'map:'");
		return;
	}
	size_t key_end = i;
	while (key_end > key_start && s[key_end - 1] == ' ')
		key_end--;
	/* The value: after the colon, up to a comment ("; ..." after a space), trimmed. */
	size_t v = i + 1;
	while (v < n && s[v] == ' ')
		v++;
	size_t vend = v;
	for (size_t j = v; j < n; j++) {
		if (s[j] == ';' && (j == v || s[j - 1] == ' '))
			break;
		vend = j + 1;
	}
	while (vend > v && s[vend - 1] == ' ')
		vend--;

	size_t klen = key_end - key_start;
	const char *key = s + key_start;
	if (klen == 3 && memcmp(key, "map", 3) == 0) {
		if (vend > v)
			perr(p, "map-line-text", line, (int)v + 1, "nothing may follow 'map:' on its line (the map starts on the next line)");
		h->map_line = line;
		return;
	}
	int k = 0;
	while (k < KEY_COUNT && !(strlen(header_keys[k]) == klen && memcmp(header_keys[k], key, klen) == 0))
		k++;
	if (k == KEY_COUNT) {
		perr(p, "unknown-key", line, (int)key_start + 1,
		     "unknown key '%.*s' (expected name, topology, author, description, sealed or map)",
		     (int)(klen > 40 ? 40 : klen), key);
		return;
	}
	if (h->seen_line[k]) {
		perr(p, "repeated-key", line, (int)key_start + 1, "repeated key '%s' (first given on line %d)",
		     header_keys[k], h->seen_line[k]);
		return;
	}
	h->seen_line[k] = line;
	if (vend == v) {
		perr(p, "empty-value", line, (int)key_end + 2 > (int)n ? (int)n + 1 : (int)key_end + 2,
		     "'%s:' needs a value", header_keys[k]);
		return;
	}
	if (k == KEY_TOPOLOGY) {
		char buf[16];
		size_t vl = vend - v;
		if (vl < sizeof buf) {
			memcpy(buf, s + v, vl);
			buf[vl] = '\0';
			h->topology_ok = grid_topology_parse(buf, &h->topo);
		}
		if (!h->topology_ok)
			perr(p, "unknown-topology", line, (int)v + 1, "unknown topology '%.*s' (expected square4, square8, hex, diamond4 or diamond8)",
			     (int)(vend - v > 40 ? 40 : vend - v), s + v);
		return;
	}
	h->value_col[k] = (int)v + 1;
	h->value[k] = dup_range(s + v, vend - v);
	if (!h->value[k])
		p->oom = true;
}

/* ---- map ------------------------------------------------------------- */

struct row {
	size_t off;   /* offset of the row's first byte in the text */
	int len;      /* bytes, without the newline */
	int line;     /* file line */
};

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* "r rat, g goblin, ..." or "none" for the unknown-monster message. */
static void known_monsters(const struct bestiary *b, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < b->n && used + 1 < size; i++) {
		int k = snprintf(buf + used, size - used, "%s%c", i ? " " : "", b->kinds[i].glyph);
		if (k < 0)
			break;
		used += (size_t)k;
	}
	if (b->n == 0)
		snprintf(buf, size, "none");
}

static bool push_monster(struct level *lv, int *cap, char glyph, int x, int y)
{
	if (lv->n_monsters == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		struct level_monster *m = realloc(lv->monsters, (size_t)nc * sizeof *m);
		if (!m)
			return false;
		lv->monsters = m;
		*cap = nc;
	}
	lv->monsters[lv->n_monsters++] = (struct level_monster){ glyph, x, y };
	return true;
}

static bool push_item(struct level *lv, int *cap, enum item_kind kind, int x, int y)
{
	if (lv->n_items == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		struct level_item *m = realloc(lv->items, (size_t)nc * sizeof *m);
		if (!m)
			return false;
		lv->items = m;
		*cap = nc;
	}
	lv->items[lv->n_items++] = (struct level_item){ kind, x, y };
	return true;
}

/* The first layout error of staggered row y, at text column `col` (from 1)
 * where the byte ch sits between two cells' columns: a row shifted whole
 * (its first cell is already off) or a stray cell inside it.  Either way
 * the row's cells from there on are read half a cell to the left (see
 * parse_cells), so one stray shows one error, not a missing start or exit. */
static void layout_error(struct parser *p, const char *kind, int line, int col, int x, int y, unsigned char ch,
			 bool first_in_row)
{
	int parity = y & 1;
	const char *cols = parity ? "2, 4, 6, ..." : "1, 3, 5, ...";
	if (classify(ch).cls == G_BAD)
		perr_cell(p, "layout-between", line, col, x, y,
			  "'%c' at column %d, between %s cells (only spaces go between cells)", ch, col, kind);
	else if (first_in_row)
		perr_cell(p, "layout-shift", line, col, x, y,
			  "%s row %d is shifted by one column: its first cell '%c' is at column %d, but an %s row's "
			  "cells sit at columns %s (%s)",
			  kind, y, ch, col, parity ? "odd" : "even", cols,
			  parity ? "add a space at the start of the row" : "remove the space at the start of the row");
	else
		perr_cell(p, "layout-stray", line, col, x, y,
			  "stray %s cell '%c' at column %d, between two cells: map row %d is %s, so its cells sit at "
			  "columns %s; the rest of the row is read half a cell to the left (is there one cell too many?)",
			  kind, ch, col, y, parity ? "odd" : "even", cols);
}

/* Fills lv->tiles and the lists from the rows; reports every bad character. */
static void parse_cells(struct parser *p, struct level *lv, const char *text, const struct row *rows,
			const struct bestiary *b)
{
	/* hex and diamond maps share the staggered layout and its errors */
	bool hex = grid_is_staggered(lv->topo);
	const char *kind = lv->topo == GRID_HEX ? "hex" : "diamond";
	int mcap = 0, icap = 0;
	int player_line = 0, player_col = 0, exits = 0;
	for (int y = 0; y < lv->h && !p->oom; y++) {
		const unsigned char *s = (const unsigned char *)text + rows[y].off;
		int parity = y & 1;
		/* off: a layout error was found in this row; the cells at the
		 * wrong column after it are read at x = c / 2, half a cell to
		 * the left, where that cell is still void */
		bool off = false, byte_reported = false, seen_cell = false;
		uint8_t *trow = lv->tiles + (size_t)y * (size_t)lv->w;
		int row_len = rows[y].len;
		if (!hex && row_len > lv->w)
			row_len = lv->w;
		for (int c = 0; c < row_len; c++) {
			if (!hex) {
				/* a square row's runs of plain terrain, without the
				 * staggered layout's tests (16.8 million cells on a
				 * 4096x4096 level, read at every resume) */
				for (; c < row_len; c++) {
					const struct glyph_entry run = glyph_table[s[c]];
					if (run.cls != G_TILE || run.tile == TILE_EXIT)
						break;
					trow[c] = run.tile;
				}
				if (c == row_len)
					break;
			}
			unsigned char ch = s[c];
			/* the common case first: terrain in a cell's column */
			if (!off && (!hex || (c & 1) == parity)) {
				struct glyph_entry fast = glyph_table[ch];
				int fx = hex ? (c - parity) >> 1 : c;
				if (fast.cls == G_TILE && fast.tile != TILE_EXIT && fx < lv->w) {
					trow[fx] = fast.tile;
					seen_cell |= ch != ' ';
					continue;
				}
			} else if (ch == ' ') {
				continue;
			}
			int line = rows[y].line, col = c + 1;
			if (ch == ' ')
				continue;
			if (ch == '\t' || ch == 0 || ch >= 0x80 || ch < 0x20 || ch == 0x7f) {
				if (!byte_reported)
					check_byte(p, line, col, ch);
				byte_reported = true;
				continue;
			}
			int x = c;
			if (hex) {
				x = (c - parity) / 2;
				if ((c & 1) != parity) {
					x = c / 2;
					if (!off) {
						layout_error(p, kind, line, col, x, y, ch, !seen_cell);
						off = true;
						if (classify(ch).cls == G_BAD)
							continue; /* reported as between cells */
					}
				}
				if (off && (x >= lv->w || trow[x] != TILE_VOID))
					continue; /* first come, first read in a row read off */
			}
			seen_cell = true;
			if (x >= lv->w)
				break; /* past the width limit, already reported */
			struct glyph_entry g = classify(ch);
			switch ((enum glyph_class)g.cls) {
			case G_BAD:
				perr_cell(p, "unknown-glyph", line, col, x, y,
					  "unknown glyph '%c' (expected one of # %% . , ~ + @ > and the items ! $ ? / ) [ ( }, a space or a monster letter)",
					  ch);
				continue;
			case G_TILE:
				if (g.tile == TILE_EXIT)
					exits++;
				break;
			case G_PLAYER:
				if (player_line) {
					perr_cell(p, "two-players", line, col, x, y,
						  "a second player start '@' (the first is at line %d, column %d; a level has exactly one)",
						  player_line, player_col);
				} else {
					player_line = line;
					player_col = col;
					lv->player_x = x;
					lv->player_y = y;
				}
				break;
			case G_ITEM:
				if (!push_item(lv, &icap, (enum item_kind)item_class_of_glyph((char)ch), x, y))
					p->oom = true;
				break;
			case G_MONSTER:
				if (b && !bestiary_find_glyph(b, (char)ch)) {
					char known[2 * BESTIARY_MAX_KINDS + 8];
					known_monsters(b, known, sizeof known);
					perr_cell(p, "unknown-monster", line, col, x, y,
						  "unknown monster '%c': no kind in the bestiary has this letter (known: %s)", ch,
						  known);
					continue;
				}
				if (!push_monster(lv, &mcap, (char)ch, x, y))
					p->oom = true;
				break;
			}
			trow[x] = g.tile;
		}
	}
	if (!player_line)
		perr(p, "no-player", lv->map_line - 1, 1, "no player start: put exactly one '@' on the map");
	if (!exits)
		perr(p, "no-exit", lv->map_line - 1, 1, "no exit: put at least one '>' on the map");
}

/*
 * The header's `sealed: X,Y X,Y ...`: one cell in each region the designer
 * walled off on purpose (check then notes it instead of warning).
 */
/* One decimal coordinate, digits only, at most 9 of them (so a number
 * too large for an int is refused, never wrapped). */
static bool parse_coord(const char *s, size_t n, int *out)
{
	if (n == 0 || n > 9)
		return false;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* "X,Y" exactly, each a coordinate. */
static bool parse_cell(const char *s, size_t n, int *x, int *y)
{
	const char *comma = memchr(s, ',', n);
	if (!comma)
		return false;
	size_t k = (size_t)(comma - s);
	return parse_coord(s, k, x) && parse_coord(comma + 1, n - k - 1, y);
}

static void parse_sealed(struct parser *p, struct level *lv, const char *v, int line, int col0)
{
	int cap = 0;
	const char *s = v;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		const char *tok = s;
		while (*s && *s != ' ')
			s++;
		int col = col0 + (int)(tok - v), x = 0, y = 0;
		int tl = (int)(s - tok);
		if (!parse_cell(tok, (size_t)tl, &x, &y)) {
			perr(p, "sealed-syntax", line, col, "bad cell '%.*s' in 'sealed:' (expected X,Y cells like 12,4)", tl > 20 ? 20 : tl, tok);
			continue;
		}
		if (x < 0 || y < 0 || x >= lv->w || y >= lv->h) {
			perr(p, "sealed-outside", line, col, "sealed cell %d,%d is outside the map (%dx%d cells)", x, y, lv->w, lv->h);
			continue;
		}
		if (tile_info(level_tile(lv, x, y))->cost == 0) {
			perr(p, "sealed-blocked", line, col, "sealed cell %d,%d is blocked (%s): name a cell you can stand on inside the sealed region",
			     x, y, tile_info(level_tile(lv, x, y))->name);
			continue;
		}
		if (lv->n_sealed == cap) {
			int nc = cap ? 2 * cap : 4;
			struct level_cell *c = realloc(lv->sealed, (size_t)nc * sizeof *c);
			if (!c) {
				p->oom = true;
				return;
			}
			lv->sealed = c;
			cap = nc;
		}
		lv->sealed[lv->n_sealed++] = (struct level_cell){ x, y };
	}
}

void level_destroy(struct level *lv)
{
	if (!lv)
		return;
	free(lv->sealed);
	free(lv->file);
	free(lv->name);
	free(lv->author);
	free(lv->description);
	free(lv->tiles);
	free(lv->items);
	free(lv->monsters);
	free(lv);
}

/* The first line that is not blank or a comment: "astray-level 1".  True
 * when it was that line (any version, reported if not 1); false when it is
 * something else, reported, and to be read as a header line anyway. */
static bool magic_line(struct parser *p, int line, const char *s, size_t n, size_t i)
{
	static const char magic[] = "astray-level";
	size_t ml = sizeof magic - 1;
	if (n - i >= ml && memcmp(s + i, magic, ml) == 0) {
		size_t j = i + ml;
		while (j < n && s[j] == ' ')
			j++;
		size_t vend = j;
		while (vend < n && s[vend] != ' ' && s[vend] != ';')
			vend++;
		if (!(vend - j == 1 && s[j] == '1'))
			perr(p, "bad-version", line, (int)j + 1, "unsupported format version '%.*s' (this astray reads 'astray-level 1')",
			     (int)(vend - j > 20 ? 20 : vend - j), s + j);
		return true;
	}
	perr(p, "no-magic", line, (int)i + 1, "expected 'astray-level 1' as the first line");
	return false;
}

/* The header: the magic line, key: value lines and comments, up to "map:";
 * then the keys that are missing.  False when there is no "map:" line
 * (reported): the parse ends there. */
static bool parse_header(struct parser *p, struct cursor *cur, struct header *h)
{
	const char *s;
	size_t n;
	bool magic_seen = false;
	while (!h->map_line && next_line(cur, &s, &n)) {
		int line = cur->line;
		h->last_line = line;
		if (line == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
			perr(p, "bom", 1, 1, "UTF-8 byte-order mark at the start (save the file as plain ASCII, without a BOM)");
			s += 3;
			n -= 3;
		}
		/* A bad byte is reported and the line still read, so that one
		 * tab does not also make its key look missing. */
		check_bytes(p, line, s, n);
		size_t i = 0;
		while (i < n && s[i] == ' ')
			i++;
		if (i == n || s[i] == ';')
			continue;
		if (!magic_seen) {
			magic_seen = true;
			if (magic_line(p, line, s, n, i))
				continue;
		}
		header_line(p, h, line, s, n);
	}

	if (!magic_seen && !h->map_line)
		perr(p, "no-magic", 1, 1, "expected 'astray-level 1' as the first line (the file has only blank lines and comments)");
	int end_line = h->last_line > 0 ? h->last_line : 1;
	int pos_line = h->map_line ? h->map_line : end_line;
	if (!h->seen_line[KEY_NAME])
		perr(p, "no-name", pos_line, 1, "missing 'name:' in the header (every level has a name)");
	if (!h->seen_line[KEY_TOPOLOGY])
		perr(p, "no-topology", pos_line, 1, "missing 'topology:' in the header (square4, square8, hex, diamond4 or diamond8)");
	if (!h->map_line) {
		perr(p, "no-map", end_line, 1, "no 'map:' line (the map follows a line 'map:' after the header)");
		return false;
	}
	return true;
}

/* The map rows: every line after "map:", less trailing blank lines, into
 * *rows (owned).  Returns their number; 0 when there are none (reported)
 * or on no memory (p->oom). */
static int collect_rows(struct parser *p, struct cursor *cur, int map_line, struct row **rows)
{
	const char *s;
	size_t n;
	int nrows = 0, rcap = 0;
	while (next_line(cur, &s, &n)) {
		if (nrows == rcap) {
			int nc = rcap ? 2 * rcap : 64;
			struct row *r = realloc(*rows, (size_t)nc * sizeof *r);
			if (!r) {
				p->oom = true;
				return 0;
			}
			*rows = r;
			rcap = nc;
		}
		(*rows)[nrows++] = (struct row){ (size_t)(s - cur->text), n > INT32_MAX ? INT32_MAX : (int)n, cur->line };
	}
	while (nrows > 0 && is_blank(cur->text + (*rows)[nrows - 1].off, (size_t)(*rows)[nrows - 1].len))
		nrows--;
	if (nrows == 0)
		perr(p, "empty-map", map_line, 1, "the map is empty (draw it on the lines after 'map:')");
	return nrows;
}

/* The map's size in cells: its rows, and its widest row in cells; each
 * side past LEVEL_MAX_SIDE is reported once and cut to it. */
static void measure(struct parser *p, const struct row *rows, int nrows, bool hex, int *width, int *height)
{
	*height = nrows;
	if (*height > LEVEL_MAX_SIDE) {
		perr(p, "too-tall", rows[LEVEL_MAX_SIDE].line, 1, "the map has %d rows; at most %d are allowed", *height,
		     LEVEL_MAX_SIDE);
		*height = LEVEL_MAX_SIDE;
	}
	*width = 0;
	bool wide_reported = false;
	for (int y = 0; y < *height; y++) {
		int parity = hex ? (y & 1) : 0;
		int cells = hex ? (rows[y].len > parity ? (rows[y].len - parity + 1) / 2 : 0) : rows[y].len;
		if (cells > LEVEL_MAX_SIDE) {
			if (!wide_reported)
				perr(p, "too-wide", rows[y].line, hex ? 2 * LEVEL_MAX_SIDE + parity + 1 : LEVEL_MAX_SIDE + 1,
				     "the map is %d cells wide here; at most %d are allowed", cells, LEVEL_MAX_SIDE);
			wide_reported = true;
			cells = LEVEL_MAX_SIDE;
		}
		if (cells > *width)
			*width = cells;
	}
	if (*width == 0)
		*width = 1;
}

/* The level from the measured rows: its tiles, things and sealed cells.
 * NULL on no memory (p->oom); errors in the map are reported, not fatal here. */
static struct level *build_level(struct parser *p, const struct header *h, const char *text,
				 const struct row *rows, int nrows, const struct bestiary *b)
{
	enum grid_topology topo = h->topology_ok ? h->topo : GRID_SQUARE8;
	int width, height;
	measure(p, rows, nrows, grid_is_staggered(topo), &width, &height);
	struct level *lv = calloc(1, sizeof *lv);
	if (!lv) {
		p->oom = true;
		return NULL;
	}
	lv->topo = topo;
	lv->w = width;
	lv->h = height;
	lv->map_line = rows[0].line;
	lv->player_x = lv->player_y = -1;
	lv->tiles = big_calloc((size_t)width * (size_t)height, 1); /* TILE_VOID is 0 */
	if (!lv->tiles) {
		p->oom = true;
		return lv;
	}
	parse_cells(p, lv, text, rows, b);
	if (h->value[KEY_SEALED])
		parse_sealed(p, lv, h->value[KEY_SEALED], h->seen_line[KEY_SEALED], h->value_col[KEY_SEALED]);
	return lv;
}

/* Hands the header's strings to lv, or frees both on any error. */
static struct level *finish_level(struct parser *p, struct header *h, struct level *lv)
{
	if (p->errors || p->oom || !lv) {
		for (int k = 0; k < KEY_COUNT; k++)
			free(h->value[k]);
		level_destroy(lv);
		return NULL;
	}
	lv->file = strdup(p->file);
	lv->name = h->value[KEY_NAME];
	lv->author = h->value[KEY_AUTHOR];
	lv->description = h->value[KEY_DESCRIPTION];
	free(h->value[KEY_SEALED]);
	if (!lv->file) {
		diag_add_cell(p->diags, DIAG_ERROR, "out-of-memory", p->file, 0, 0, -1, -1, "out of memory");
		level_destroy(lv);
		return NULL;
	}
	return lv;
}

static void partial_shifted_rows(struct parser *p, struct level *lv, const char *text, const struct row *rows,
				 const struct bestiary *b);

/* Causes first: a missing start or exit is often what another error
 * brings (a bad glyph, a row read off), so those two come after the rest,
 * which are in order of position. */
static int parse_rank(const struct diag *d)
{
	return strcmp(d->code, "no-player") == 0 || strcmp(d->code, "no-exit") == 0;
}

/* The parse both level_parse and level_parse_partial run: the header,
 * the rows, the level built from them and the diagnostics sorted; with
 * `partial`, a staggered row shifted by one column is read half a cell
 * off.  The level, or NULL; h keeps the header's values. */
static struct level *parse_body(struct parser *p, struct header *h, const char *text, size_t len,
				const struct bestiary *b, bool partial)
{
	int first_diag = p->diags->n;
	struct row *rows = NULL;
	struct level *lv = NULL;
	if (len == 0 || !text) {
		perr(p, "empty-file", 1, 1, "empty file (a level starts with the line 'astray-level 1')");
		return NULL;
	}
	struct cursor cur = { text, len, 0, 0 };
	if (parse_header(p, &cur, h)) {
		int nrows = collect_rows(p, &cur, h->map_line, &rows);
		if (nrows > 0)
			lv = build_level(p, h, text, rows, nrows, b);
		if (partial && lv && lv->tiles)
			partial_shifted_rows(p, lv, text, rows, b);
	}
	if (!p->stopped)
		diag_sort_ranked(p->diags, first_diag, parse_rank);
	if (p->oom)
		diag_add_cell(p->diags, DIAG_ERROR, "out-of-memory", p->file, 0, 0, -1, -1, "out of memory");
	free(rows);
	return lv;
}

struct level *level_parse(const char *file, const char *text, size_t len, const struct bestiary *b,
			  struct diag_list *diags)
{
	struct diag_list scratch = { 0 };
	if (!diags) {
		struct level *lv0 = level_parse(file, text, len, b, &scratch);
		diag_list_fini(&scratch);
		return lv0;
	}
	struct parser p = { file ? file : "<level>", diags, 0, false, false };
	struct header h = { 0 };
	struct level *lv = parse_body(&p, &h, text, len, b, false);
	return finish_level(&p, &h, lv);
}

/*
 * For level_parse_partial: on a staggered map the parser reads nothing of
 * a row after its first cell at the wrong column (a row shifted by one
 * space).  Here such cells are read into the cell half a cell away,
 * x = col / 2, where that cell is still void, so the designer sees the
 * row as it was meant, to fix its shift: its terrain, and its things too
 * (items, monsters of a kind the bestiary has, and the start when the
 * rest of the map has none), each on floor.  The diagnostics stay those
 * of the text.
 */
static void partial_shifted_rows(struct parser *p, struct level *lv, const char *text, const struct row *rows,
				 const struct bestiary *b)
{
	if (!grid_is_staggered(lv->topo))
		return;
	int icap = lv->n_items, mcap = lv->n_monsters; /* a push at the count grows the list */
	for (int y = 0; y < lv->h; y++) {
		const unsigned char *r = (const unsigned char *)text + rows[y].off;
		uint8_t *trow = lv->tiles + (size_t)y * (size_t)lv->w;
		for (int c = 0; c < rows[y].len; c++) {
			struct glyph_entry g = classify(r[c]);
			int x = c / 2;
			if ((c & 1) == (y & 1) || g.cls == G_BAD || r[c] == ' ' || x >= lv->w || trow[x] != TILE_VOID)
				continue;
			switch ((enum glyph_class)g.cls) {
			case G_PLAYER:
				if (lv->player_x >= 0)
					continue; /* a second start stays out, as elsewhere */
				lv->player_x = x;
				lv->player_y = y;
				break;
			case G_ITEM:
				if (!push_item(lv, &icap, (enum item_kind)item_class_of_glyph((char)r[c]), x, y)) {
					p->oom = true;
					return;
				}
				break;
			case G_MONSTER:
				if (b && !bestiary_find_glyph(b, (char)r[c]))
					continue;
				if (!push_monster(lv, &mcap, (char)r[c], x, y)) {
					p->oom = true;
					return;
				}
				break;
			default:
				break;
			}
			trow[x] = g.tile;
		}
	}
}

/*
 * level_parse for the editor: the same parse and the same diagnostics, but
 * the level comes back as far as it could be read even with errors.  What
 * an error stopped stays void (a bad glyph, an unknown monster); a row
 * shifted by one column, terrain and things, is read half a cell off (see
 * partial_shifted_rows); a second start is floor; a bad `sealed:` cell is left
 * out; a missing or unknown topology reads as square8 and a missing name
 * leaves name NULL.  NULL only when there is no map to show (no 'map:'
 * line, an empty map) or on no memory.
 */
struct level *level_parse_partial(const char *file, const char *text, size_t len,
				  const struct bestiary *b, struct diag_list *diags)
{
	struct parser p = { file ? file : "<level>", diags, 0, false, false };
	struct header h = { 0 };
	struct level *lv = parse_body(&p, &h, text, len, b, true);
	if (!lv && (len == 0 || !text))
		return NULL;
	if (lv && !p.oom && lv->tiles) {
		lv->file = strdup(p.file);
		lv->name = h.value[KEY_NAME];
		lv->author = h.value[KEY_AUTHOR];
		lv->description = h.value[KEY_DESCRIPTION];
		free(h.value[KEY_SEALED]);
		if (lv->file)
			return lv;
		diag_add_cell(diags, DIAG_ERROR, "out-of-memory", p.file, 0, 0, -1, -1, "out of memory");
		level_destroy(lv);
		return NULL;
	}
	for (int k = 0; k < KEY_COUNT; k++)
		free(h.value[k]);
	level_destroy(lv);
	return NULL;
}

char *level_read_file(const char *path, size_t *len)
{
	char *text;
	size_t n;
	int err = textfile_read(path, &text, &n);
	if (err) {
		errno = err;
		return NULL;
	}
	if (len)
		*len = n;
	return text;
}

/* ---- writing --------------------------------------------------------- */

int level_screen_width(const struct level *lv)
{
	return grid_is_staggered(lv->topo) ? 2 * lv->w : lv->w;
}

/* Appends a header value with control characters turned into spaces. */
static size_t put_value(char *out, const char *key, const char *value)
{
	size_t n = 0;
	size_t kl = strlen(key);
	memcpy(out, key, kl);
	n += kl;
	out[n++] = ':';
	out[n++] = ' ';
	for (const char *v = value; *v; v++)
		out[n++] = ((unsigned char)*v < 0x20 || (unsigned char)*v >= 0x7f) ? ' ' : *v;
	out[n++] = '\n';
	return n;
}

char *level_write(const struct level *lv, size_t *len)
{
	bool hex = grid_is_staggered(lv->topo);
	int sw = hex ? 2 * lv->w : lv->w;
	size_t head = 64 + strlen(lv->name ? lv->name : "") + (lv->author ? strlen(lv->author) + 16 : 0) +
		      (lv->description ? strlen(lv->description) + 16 : 0);
	head += (size_t)lv->n_sealed * 24 + 16;
	size_t total = head + (size_t)lv->h * ((size_t)sw + 1) + 1;
	char *out = malloc(total);
	char *canvas = malloc((size_t)sw * (size_t)lv->h);
	if (!out || !canvas) {
		free(out);
		free(canvas);
		return NULL;
	}
	size_t n = 0;
	n += (size_t)sprintf(out + n, "astray-level 1\n");
	n += put_value(out + n, "name", lv->name ? lv->name : "untitled");
	n += put_value(out + n, "topology", grid_topology_name(lv->topo));
	if (lv->author)
		n += put_value(out + n, "author", lv->author);
	if (lv->description)
		n += put_value(out + n, "description", lv->description);
	if (lv->n_sealed > 0) {
		n += (size_t)sprintf(out + n, "sealed:");
		for (int i = 0; i < lv->n_sealed; i++)
			n += (size_t)sprintf(out + n, " %d,%d", lv->sealed[i].x, lv->sealed[i].y);
		out[n++] = '\n';
	}
	n += (size_t)sprintf(out + n, "map:\n");

	memset(canvas, ' ', (size_t)sw * (size_t)lv->h);
#define CANVAS(x, y) canvas[(size_t)(y) * (size_t)sw + (size_t)(hex ? 2 * (x) + ((y) & 1) : (x))]
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			CANVAS(x, y) = tile_glyph(level_tile(lv, x, y));
	for (int i = 0; i < lv->n_items; i++)
		CANVAS(lv->items[i].x, lv->items[i].y) = item_class_glyph((int)lv->items[i].kind);
	for (int i = 0; i < lv->n_monsters; i++)
		CANVAS(lv->monsters[i].x, lv->monsters[i].y) = lv->monsters[i].glyph;
	if (lv->player_x >= 0 && lv->player_y >= 0)
		CANVAS(lv->player_x, lv->player_y) = '@';
#undef CANVAS

	/* Rows without trailing spaces, except that the map keeps its width:
	 * if no row reaches the last cell column, the first row is written full. */
	int widest = 0;
	int *lens = malloc((size_t)lv->h * sizeof *lens);
	if (!lens) {
		free(out);
		free(canvas);
		return NULL;
	}
	for (int y = 0; y < lv->h; y++) {
		const char *r = canvas + (size_t)y * (size_t)sw;
		int l = sw;
		while (l > 0 && r[l - 1] == ' ')
			l--;
		lens[y] = l;
		int cells = hex ? (l > (y & 1) ? (l - (y & 1) + 1) / 2 : 0) : l;
		if (cells > widest)
			widest = cells;
	}
	if (widest < lv->w)
		lens[0] = hex ? 2 * (lv->w - 1) + 1 : lv->w;
	for (int y = 0; y < lv->h; y++) {
		memcpy(out + n, canvas + (size_t)y * (size_t)sw, (size_t)lens[y]);
		n += (size_t)lens[y];
		out[n++] = '\n';
	}
	out[n] = '\0';
	free(lens);
	free(canvas);
	if (len)
		*len = n;
	return out;
}

/* ---- grids and regions ----------------------------------------------- */

struct grid *level_grid(const struct level *lv)
{
	struct grid *g = grid_create(lv->w, lv->h, lv->topo);
	if (!g)
		return NULL;
	/* every cell's cost through its tile's, the bits made once */
	uint8_t cost[256];
	for (int t = 0; t < 256; t++)
		cost[t] = tile_info((enum tile)t)->cost;
	grid_set_costs_mapped(g, lv->tiles, cost);
	return g;
}

void level_cell_position(const struct level *lv, int x, int y, int *line, int *col)
{
	*line = lv->map_line ? lv->map_line + y : 0;
	*col = (grid_is_staggered(lv->topo) ? 2 * x + (y & 1) : x) + 1;
}

/* Labels the connected passable cells of g; out[i] = region or -1.  The
 * regions are numbered in the order of their first cells, as the flood
 * below (level_grid_regions_flood, kept for the tests) numbers them; the
 * scan of region.c labels a row's runs of open cells at once and needs no
 * stack (a 4096x4096 level: 64 MiB less, and several times faster). */
int level_grid_regions(const struct grid *g, int *out)
{
	return (int)region_label(g, g->cost, false, out);
}

int level_grid_regions_flood(const struct grid *g, int *out)
{
	int cells = g->w * g->h;
	int *stack = malloc((size_t)cells * sizeof *stack);
	if (!stack)
		return -1;
	for (int i = 0; i < cells; i++)
		out[i] = -1;
	int regions = 0;
	for (int i = 0; i < cells; i++) {
		if (out[i] >= 0 || !grid_passable(g, i))
			continue;
		int top = 0;
		stack[top++] = i;
		out[i] = regions;
		if (grid_is_square(g->topo)) {
			/* Without corner cutting a diagonal step needs both cells
			 * beside it open, so it never joins what orthogonal steps
			 * do not: the four orthogonal neighbours are enough. */
			const int w = g->w;
			while (top > 0) {
				const int c = stack[--top], x = c % w;
				const int nb[4] = { c - w, x > 0 ? c - 1 : -1, x < w - 1 ? c + 1 : -1, c + w };
				for (int j = 0; j < 4; j++) {
					const int v = nb[j];
					if (v >= 0 && v < cells && out[v] < 0 && g->cost[v]) {
						out[v] = regions;
						stack[top++] = v;
					}
				}
			}
			regions++;
			continue;
		}
		while (top > 0) {
			int c = stack[--top];
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			int k = grid_neighbours(g, c, false, nb);
			for (int j = 0; j < k; j++) {
				if (out[nb[j].cell] < 0) {
					out[nb[j].cell] = regions;
					stack[top++] = nb[j].cell;
				}
			}
		}
		regions++;
	}
	free(stack);
	return regions;
}

int level_regions(const struct level *lv, int *out)
{
	struct grid *g = level_grid(lv);
	if (!g)
		return -1;
	int r = level_grid_regions(g, out);
	grid_destroy(g);
	return r;
}

static const char *monster_name(const struct bestiary *b, char glyph)
{
	const struct monster_kind *k = b ? bestiary_find_glyph(b, glyph) : NULL;
	return k ? k->name : "monster";
}

/* Whether the monster of letter `glyph` digs (behaviour dig with dig > 0). */
static bool monster_digs(const struct bestiary *b, char glyph)
{
	const struct monster_kind *k = b ? bestiary_find_glyph(b, glyph) : NULL;
	return k && k->behaviour == MIND_DIG && k->dig > 0;
}

/* Region labels as for a digger: the walls it can dig count as open, the
 * permanent ones ('%', the map's edge) and void stay shut.  NULL on no
 * memory. */
static int *dig_regions(const struct level *lv)
{
	struct grid *g = level_grid(lv);
	int *out = g ? malloc((size_t)lv->w * (size_t)lv->h * sizeof *out) : NULL;
	if (out) {
		for (int y = 0, c = 0; y < lv->h; y++)
			for (int x = 0; x < lv->w; x++, c++)
				if (tile_diggable(level_tile(lv, x, y), lv->w, lv->h, x, y))
					grid_set_cost(g, c, tile_info(TILE_RUBBLE)->cost);
		if (level_grid_regions(g, out) < 0) {
			free(out);
			out = NULL;
		}
	}
	grid_destroy(g);
	return out;
}

/* Region labels as if the cells of a diamond4 level touched at their
 * corners too (diamond8's corner steps, past any wall corner): what this
 * joins to the start and diamond4 does not is cut off only by corners.
 * NULL on no memory. */
static int *corner_regions(const struct level *lv)
{
	struct level wide = *lv;
	wide.topo = GRID_DIAMOND8;
	struct grid *g = level_grid(&wide);
	int cells = lv->w * lv->h;
	int *out = g ? malloc((size_t)cells * sizeof *out) : NULL;
	int *stack = out ? malloc((size_t)cells * sizeof *stack) : NULL;
	if (!stack) {
		free(out);
		grid_destroy(g);
		return NULL;
	}
	for (int i = 0; i < cells; i++)
		out[i] = -1;
	for (int i = 0, regions = 0; i < cells; i++) {
		if (out[i] >= 0 || !grid_passable(g, i))
			continue;
		int top = 0;
		stack[top++] = i;
		out[i] = regions;
		while (top > 0) {
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			int k = grid_neighbours(g, stack[--top], true, nb);
			for (int j = 0; j < k; j++)
				if (out[nb[j].cell] < 0) {
					out[nb[j].cell] = regions;
					stack[top++] = nb[j].cell;
				}
		}
		regions++;
	}
	free(stack);
	grid_destroy(g);
	return out;
}

int level_analyse(const struct level *lv, const struct bestiary *b, struct diag_list *diags)
{
	struct grid *g = level_grid(lv);
	if (!g) {
		diag_add_cell(diags, DIAG_ERROR, "out-of-memory", lv->file ? lv->file : "<level>", 0, 0, -1, -1,
			      "out of memory");
		return 1;
	}
	const int errors = level_analyse_grid(lv, g, b, diags);
	grid_destroy(g);
	return errors;
}

int level_analyse_grid(const struct level *lv, const struct grid *g, const struct bestiary *b,
		       struct diag_list *diags)
{
	const char *file = lv->file ? lv->file : "<level>";
	int errors = 0, first_diag = diags->n;
	int cells = lv->w * lv->h;
	int *region = malloc((size_t)cells * sizeof *region);
	int nreg = region ? level_grid_regions(g, region) : -1;
	int *size = nreg >= 0 ? calloc((size_t)nreg + 1, sizeof *size) : NULL;
	int *first = nreg >= 0 ? malloc(((size_t)nreg + 1) * sizeof *first) : NULL;
	if (nreg < 0 || !size || !first) {
		diag_add_cell(diags, DIAG_ERROR, "out-of-memory", file, 0, 0, -1, -1, "out of memory");
		free(region);
		free(size);
		free(first);
		return 1;
	}
	for (int r = 0; r < nreg; r++)
		first[r] = -1;
	/* by runs of one label: a row's cells mostly share theirs, and an
	 * increment a cell of one counter waits on the one before (on
	 * 4096x4096 a tenth of an editor stroke) */
	for (int i = 0; i < cells;) {
		const int r = region[i];
		int j = i + 1;
		while (j < cells && region[j] == r)
			j++;
		if (r >= 0) {
			size[r] += j - i;
			if (first[r] < 0)
				first[r] = i;
		}
		i = j;
	}
	int line, col;
	bool has_player = lv->player_x >= 0 && lv->player_y >= 0 && lv->player_x < lv->w && lv->player_y < lv->h;
	int home = has_player ? region[lv->player_y * lv->w + lv->player_x] : -1;

	/* Regions sealed on purpose: size[] is negated to mark them. */
	for (int i = 0; i < lv->n_sealed; i++) {
		const struct level_cell *c = &lv->sealed[i];
		int r = (c->x < lv->w && c->y < lv->h) ? region[c->y * lv->w + c->x] : -1;
		if (r < 0 || size[r] < 0)
			continue;
		level_cell_position(lv, c->x, c->y, &line, &col);
		if (r == home)
			diag_add_cell(diags, DIAG_WARNING, "sealed-reachable", file, line, col, c->x, c->y,
				      "sealed cell %d,%d is not sealed: the player can reach it", c->x, c->y);
		else {
			diag_add_cell(diags, DIAG_NOTE, "sealed-region", file, line, col, c->x, c->y,
				 "region of %d cell%s sealed on purpose (header 'sealed:'): its monsters and items stay out of reach",
				 size[r], plural(size[r]));
			size[r] = -size[r];
		}
	}
	/* On diamond4 the cells of one row touch only at their corners: what
	 * diamond8's corner steps would join to the start is cut off only by
	 * that, and the messages say so. */
	int *wide = NULL;
	if (lv->topo == GRID_DIAMOND4 && has_player)
		wide = corner_regions(lv);
	int wide_home = wide ? wide[lv->player_y * lv->w + lv->player_x] : -1;
	static const char corner_why[] =
		": on diamond4 a step crosses an edge of the diamond (up-left, up-right, down-left or down-right), "
		"and the cells of one row touch only at their corners, so a corridor straight across a row "
		"cannot be walked (draw it zig-zag over two rows)";
	static const char corner_short[] = " (joined to the start only at cell corners: diamond4, see above)";
	bool why_told = false;
	/* Regions of one cell are summed up in one line when there are many. */
	int singles = 0, singles_corner = 0, first_single = -1;
	for (int r = 0; r < nreg; r++)
		if (r != home && size[r] == 1)
			singles++;
	bool sum_singles = singles > LEVEL_SINGLES_LISTED;
	for (int i = 0; i < cells && wide; i++)
		if (lv->tiles[i] == TILE_EXIT && region[i] != home && wide[i] == wide_home)
			why_told = true; /* the exit's error explains it; errors come first */
	for (int r = 0; r < nreg; r++) {
		if (r == home || size[r] < 0)
			continue;
		int x = first[r] % lv->w, y = first[r] / lv->w;
		bool corner = wide && wide[first[r]] == wide_home;
		const char *why = corner ? (why_told ? corner_short : corner_why) : "";
		why_told |= corner;
		if (sum_singles && size[r] == 1) {
			if (first_single < 0)
				first_single = first[r];
			singles_corner += corner;
			continue;
		}
		level_cell_position(lv, x, y, &line, &col);
		diag_add_cell(diags, DIAG_WARNING, "region-unreachable", file, line, col, x, y,
			      "region of %d cell%s unreachable from the player start (cell %d,%d is one of them)%s",
			      size[r], plural(size[r]), x, y, why);
	}
	if (first_single >= 0) {
		int x = first_single % lv->w, y = first_single / lv->w;
		level_cell_position(lv, x, y, &line, &col);
		diag_add_cell(diags, DIAG_WARNING, "regions-single", file, line, col, x, y,
			      "%d floor cells stand alone, each a region of 1 cell unreachable from the player start "
			      "(the first is %d,%d)%s",
			      singles, x, y, singles_corner < singles ? "" : why_told ? corner_short : corner_why);
	}
	for (const uint8_t *t = lv->tiles, *end = lv->tiles + cells;
	     (t = memchr(t, TILE_EXIT, (size_t)(end - t))) != NULL; t++) {
		const int i = (int)(t - lv->tiles);
		if (region[i] == home)
			continue;
		int x = i % lv->w, y = i / lv->w;
		level_cell_position(lv, x, y, &line, &col);
		diag_add_cell(diags, DIAG_ERROR, "exit-unreachable", file, line, col, x, y,
			      "exit '>' at %d,%d cannot be reached from the player start%s", x, y,
			      wide && wide[i] == wide_home ? corner_why : "");
		errors++;
	}
	free(wide);
	int *dig = NULL; /* made for the first digger walled off, if any */
	bool dig_tried = false;
	for (int i = 0; i < lv->n_monsters; i++) {
		const struct level_monster *m = &lv->monsters[i];
		int mc = m->y * lv->w + m->x, mr = region[mc];
		if (mr < 0 || mr == home || size[mr] < 0)
			continue;
		level_cell_position(lv, m->x, m->y, &line, &col);
		if (monster_digs(b, m->glyph) && has_player) {
			/* a digger walled off by walls it can dig comes through them */
			if (!dig_tried) {
				dig = dig_regions(lv);
				dig_tried = true;
			}
			if (dig && dig[mc] == dig[lv->player_y * lv->w + lv->player_x])
				continue;
			if (dig) {
				diag_add_cell(diags, DIAG_WARNING, "monster-unreachable", file, line, col, m->x, m->y,
					 "%s '%c' at %d,%d can never reach the player, even digging (walled off by "
					 "permanent walls: '%%' or the map's edge)",
					 monster_name(b, m->glyph), m->glyph, m->x, m->y);
				continue;
			}
		}
		diag_add_cell(diags, DIAG_WARNING, "monster-unreachable", file, line, col, m->x, m->y,
			 "%s '%c' at %d,%d can never reach the player (walled off in a region of %d cell%s)",
			 monster_name(b, m->glyph), m->glyph, m->x, m->y, size[mr], plural(size[mr]));
	}
	for (int i = 0; i < lv->n_items; i++) {
		const struct level_item *it = &lv->items[i];
		int ir = region[it->y * lv->w + it->x];
		if (ir < 0 || ir == home || size[ir] < 0)
			continue;
		level_cell_position(lv, it->x, it->y, &line, &col);
		diag_add_cell(diags, DIAG_WARNING, "item-unreachable", file, line, col, it->x, it->y,
			      "%s '%c' at %d,%d cannot be reached from the player start",
			 item_class_name((int)it->kind), item_class_glyph((int)it->kind), it->x, it->y);
	}
	int sw = level_screen_width(lv);
	if (sw > 80 || lv->h > 24) {
		diag_add_cell(diags, DIAG_NOTE, "map-scrolls", file, lv->map_line, lv->map_line ? 1 : 0, -1, -1,
			 "the map is %dx%d cells (%d columns on screen), larger than 80x24: it will scroll",
			 lv->w, lv->h, sw);
	}
	free(dig);
	free(region);
	free(size);
	free(first);
	diag_sort_severity(diags, first_diag); /* errors first: what stops play */
	return errors;
}

/* ---- Moving AI import ------------------------------------------------ */

/* splitmix64: a small, explicit-state generator for the seeded placement. */
static uint64_t mix_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int mix_below(uint64_t *state, int n)
{
	return (int)(mix_next(state) % (uint64_t)n);
}

static int monster_order(const void *a, const void *b)
{
	const struct level_monster *p = a, *q = b;
	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	return (p->x > q->x) - (p->x < q->x);
}

/* Line number of the "map" line of a .map text (0 if none). */
static int movingai_map_line(const char *text, size_t len)
{
	struct cursor c = { text, len, 0, 0 };
	const char *s;
	size_t n;
	while (next_line(&c, &s, &n)) {
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n == 3 && memcmp(s, "map", 3) == 0)
			return c.line;
	}
	return 0;
}

/*
 * A `height N` or `width N` header line of a .map whose N (digits, any
 * count) is past LEVEL_MAX_SIDE: reported at the number with the limit,
 * true.  The reader of the format (movingai.c) takes sides up to 65536
 * and calls a larger one an unexpected line; a level is at most
 * LEVEL_MAX_SIDE a side, and the designer should read that.
 */
static bool movingai_side_too_large(const char *fname, const char *text, size_t len, struct diag_list *diags)
{
	struct cursor c = { text, len, 0, 0 };
	const char *s;
	size_t n;
	while (next_line(&c, &s, &n)) {
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n == 3 && memcmp(s, "map", 3) == 0)
			return false;
		size_t kl = n > 6 && memcmp(s, "height", 6) == 0 ? 6 : n > 5 && memcmp(s, "width", 5) == 0 ? 5 : 0;
		if (kl == 0 || (s[kl] != ' ' && s[kl] != '\t'))
			continue;
		size_t at = kl;
		while (at < n && (s[at] == ' ' || s[at] == '\t'))
			at++;
		size_t end = at;
		long long v = 0;
		while (end < n && s[end] >= '0' && s[end] <= '9') {
			if (v <= LEVEL_MAX_SIDE)
				v = v * 10 + (s[end] - '0');
			end++;
		}
		if (end == at || end != n || v <= LEVEL_MAX_SIDE)
			continue; /* not a number, or one that fits: the reader judges it */
		diag_add(diags, DIAG_ERROR, fname, c.line, (int)at + 1, "%s %.*s%s is too large (at most %d)",
			 kl == 6 ? "height" : "width", (int)(end - at > 24 ? 24 : end - at), s + at,
			 end - at > 24 ? "..." : "", LEVEL_MAX_SIDE);
		return true;
	}
	return false;
}

struct level *level_from_movingai(const char *file, const char *text, size_t len, uint64_t seed,
				  int n_monsters, char monster_glyph, struct diag_list *diags)
{
	const char *fname = file ? file : "<map>";
	char err[DIAG_ERR_LEN];
	if (movingai_side_too_large(fname, text ? text : "", text ? len : 0, diags))
		return NULL;
	struct grid *g = movingai_parse_map(text ? text : "", text ? len : 0, err, sizeof err);
	if (!g) {
		int line = 0, used = 0;
		if (sscanf(err, "line %d: %n", &line, &used) == 1 && used > 0)
			diag_add(diags, DIAG_ERROR, fname, line, 0, "%s", err + used);
		else
			diag_add(diags, DIAG_ERROR, fname, 0, 0, "%s", err);
		return NULL;
	}
	if (g->w > LEVEL_MAX_SIDE || g->h > LEVEL_MAX_SIDE) {
		diag_add(diags, DIAG_ERROR, fname, 0, 0, "the map is %dx%d; at most %dx%d is allowed", g->w, g->h,
			 LEVEL_MAX_SIDE, LEVEL_MAX_SIDE);
		grid_destroy(g);
		return NULL;
	}
	int cells = g->w * g->h;
	struct level *lv = calloc(1, sizeof *lv);
	int *region = malloc((size_t)cells * sizeof *region);
	int *members = malloc((size_t)cells * sizeof *members);
	uint8_t *taken = calloc((size_t)cells, 1);
	int nreg = region ? level_grid_regions(g, region) : -1;
	int *size = nreg > 0 ? calloc((size_t)nreg, sizeof *size) : NULL;
	if (!lv || !region || !members || !taken || nreg < 0 || (nreg > 0 && !size)) {
		diag_add_cell(diags, DIAG_ERROR, "out-of-memory", fname, 0, 0, -1, -1, "out of memory");
		goto fail;
	}
	lv->topo = GRID_SQUARE8;
	lv->w = g->w;
	lv->h = g->h;
	lv->map_line = movingai_map_line(text, len) + 1;
	lv->tiles = malloc((size_t)cells);
	lv->file = strdup(fname);
	const char *base = strrchr(fname, '/');
	lv->name = strdup(base ? base + 1 : fname);
	if (!lv->tiles || !lv->file || !lv->name) {
		diag_add_cell(diags, DIAG_ERROR, "out-of-memory", fname, 0, 0, -1, -1, "out of memory");
		goto fail;
	}
	for (int i = 0; i < cells; i++) {
		lv->tiles[i] = g->cost[i] ? TILE_FLOOR : TILE_WALL;
		if (region[i] >= 0)
			size[region[i]]++;
	}
	int best = -1;
	for (int r = 0; r < nreg; r++)
		if (best < 0 || size[r] > size[best])
			best = r;
	if (best < 0 || size[best] < 2) {
		diag_add(diags, DIAG_ERROR, fname, 0, 0,
			 "no region of at least 2 passable cells to hold the player and an exit");
		goto fail;
	}
	int nm = 0;
	for (int i = 0; i < cells; i++)
		if (region[i] == best)
			members[nm++] = i;

	uint64_t rng = seed;
	int p = members[mix_below(&rng, nm)];
	taken[p] = 1;
	lv->player_x = p % g->w;
	lv->player_y = p / g->w;
	int e;
	do
		e = members[mix_below(&rng, nm)];
	while (taken[e]);
	taken[e] = 1;
	lv->tiles[e] = TILE_EXIT;
	if (n_monsters > nm - 2)
		n_monsters = nm - 2;
	if (n_monsters > 0) {
		lv->monsters = malloc((size_t)n_monsters * sizeof *lv->monsters);
		if (!lv->monsters) {
			diag_add_cell(diags, DIAG_ERROR, "out-of-memory", fname, 0, 0, -1, -1, "out of memory");
			goto fail;
		}
		/* Draws with rejection while the region is mostly free, so the
		 * placement depends only on the seed and the map. */
		for (int i = 0; i < n_monsters; i++) {
			int m;
			do
				m = members[mix_below(&rng, nm)];
			while (taken[m]);
			taken[m] = 1;
			lv->monsters[lv->n_monsters++] = (struct level_monster){ monster_glyph, m % g->w, m / g->w };
		}
	}
	/* In scan order, as level_parse lists them, so a written and re-read
	 * level has its monsters in the same order. */
	if (lv->n_monsters > 1)
		qsort(lv->monsters, (size_t)lv->n_monsters, sizeof *lv->monsters, monster_order);
	grid_destroy(g);
	free(region);
	free(members);
	free(taken);
	free(size);
	return lv;
fail:
	grid_destroy(g);
	free(region);
	free(members);
	free(taken);
	free(size);
	level_destroy(lv);
	return NULL;
}
