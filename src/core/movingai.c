/*
 * movingai.c - the Moving AI Lab benchmark formats, parsed from memory: a
 * .map becomes a square8 grid, a .scen becomes an array of scenarios.  It
 * reads no files (the caller does) and prints nothing; errors come back as
 * "line N: message".  The quirks it accepts are those the shipped files
 * have: CRLF line ends, a missing final newline, tab or space separators,
 * `version 1` or `version 1.0`, blank lines, and a map field that may carry
 * a folder (only its file name is kept).
 */
#include "movingai.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cursor over the text that hands out lines without their "\r\n". */
struct lines {
	const char *p, *end;
	int line;                 /* 1-based number of the line last returned */
};

static bool next_line(struct lines *ls, const char **s, size_t *n)
{
	if (ls->p >= ls->end)
		return false;
	const char *nl = memchr(ls->p, '\n', (size_t)(ls->end - ls->p));
	const char *stop = nl ? nl : ls->end;
	*s = ls->p;
	*n = (size_t)(stop - ls->p);
	if (*n > 0 && (*s)[*n - 1] == '\r')
		(*n)--;
	ls->p = nl ? nl + 1 : ls->end;
	ls->line++;
	return true;
}

static void fail(char *err, size_t errlen, int line, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return;
	int k = snprintf(err, errlen, "line %d: ", line);
	if (k < 0 || (size_t)k >= errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	va_end(ap);
}

/* "key value" header line: true with the value parsed when the key matches. */
static bool header_int(const char *s, size_t n, const char *key, int *val)
{
	size_t kl = strlen(key);
	if (n <= kl || strncmp(s, key, kl) != 0 || (s[kl] != ' ' && s[kl] != '\t'))
		return false;
	char buf[32];
	size_t i = kl;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	size_t m = n - i;
	if (m == 0 || m >= sizeof buf)
		return false;
	memcpy(buf, s + i, m);
	buf[m] = '\0';
	char *endp;
	errno = 0;
	long v = strtol(buf, &endp, 10);
	while (*endp == ' ' || *endp == '\t')
		endp++;
	if (errno || *endp || v <= 0 || v > 65536)
		return false;
	*val = (int)v;
	return true;
}

static bool is_line(const char *s, size_t n, const char *word)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == strlen(word) && memcmp(s, word, n) == 0;
}

struct grid *movingai_parse_map(const char *text, size_t len, char *err, size_t errlen)
{
	struct lines ls = { text, text + len, 0 };
	const char *s;
	size_t n;
	int w = 0, h = 0, value = 0;
	bool typed = false;

	/* Header: type, height, width in any order, then "map". */
	for (;;) {
		if (!next_line(&ls, &s, &n)) {
			fail(err, errlen, ls.line, "end of file before the 'map' line");
			return NULL;
		}
		if (n == 0)
			continue;
		if (is_line(s, n, "map"))
			break;
		if (n >= 5 && strncmp(s, "type", 4) == 0 && (s[4] == ' ' || s[4] == '\t')) {
			size_t i = 4;
			while (i < n && (s[i] == ' ' || s[i] == '\t'))
				i++;
			if (typed) {
				fail(err, errlen, ls.line, "repeated 'type' line");
				return NULL;
			}
			if (!is_line(s + i, n - i, "octile")) {
				fail(err, errlen, ls.line, "map type '%.*s' (expected octile)",
				     (int)(n - i > 40 ? 40 : n - i), s + i);
				return NULL;
			}
			typed = true;
		} else if (header_int(s, n, "height", &value) || header_int(s, n, "width", &value)) {
			int *slot = s[0] == 'h' ? &h : &w;
			if (*slot > 0) {
				fail(err, errlen, ls.line, "repeated '%s' line", s[0] == 'h' ? "height" : "width");
				return NULL;
			}
			*slot = value;
			continue;
		} else {
			fail(err, errlen, ls.line,
			     "unexpected header line (expected type octile, height H, width W or map)");
			return NULL;
		}
	}
	if (!typed || w <= 0 || h <= 0) {
		fail(err, errlen, ls.line, "header lacks %s before 'map'",
		     !typed ? "'type octile'" : h <= 0 ? "'height H'" : "'width W'");
		return NULL;
	}
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	if (!g) {
		fail(err, errlen, ls.line, "cannot hold a %d x %d map", w, h);
		return NULL;
	}
	for (int y = 0; y < h; y++) {
		if (!next_line(&ls, &s, &n)) {
			fail(err, errlen, ls.line + 1, "map has %d rows, the header says %d", y, h);
			grid_destroy(g);
			return NULL;
		}
		if (n != (size_t)w) {
			fail(err, errlen, ls.line, "row has %zu cells, the header says width %d", n, w);
			grid_destroy(g);
			return NULL;
		}
		for (int x = 0; x < w; x++)
			grid_set_cost(g, y * w + x, (s[x] == '.' || s[x] == 'G' || s[x] == 'S') ? 1 : 0);
	}
	/* Anything after the rows must be blank. */
	while (next_line(&ls, &s, &n)) {
		for (size_t i = 0; i < n; i++) {
			if (s[i] != ' ' && s[i] != '\t') {
				fail(err, errlen, ls.line, "text after the %d map rows", h);
				grid_destroy(g);
				return NULL;
			}
		}
	}
	return g;
}

/* Splits a line into at most `max` whitespace-separated fields, in place
 * in a copy (buf); returns the field count. */
static int split(const char *s, size_t n, char *buf, size_t buflen, char **fields, int max)
{
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	int k = 0;
	char *p = buf;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (k == max)
			return max + 1;
		fields[k++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return k;
}

static bool parse_int(const char *s, int *out)
{
	char *endp;
	errno = 0;
	long v = strtol(s, &endp, 10);
	if (errno || *endp || endp == s || v < -1000000000L || v > 1000000000L)
		return false;
	*out = (int)v;
	return true;
}

int movingai_parse_scen(const char *text, size_t len, struct movingai_scenario **out,
			char *err, size_t errlen)
{
	struct lines ls = { text, text + len, 0 };
	const char *s;
	size_t n;
	*out = NULL;

	bool versioned = false;
	while (next_line(&ls, &s, &n)) {
		if (n == 0)
			continue;
		char buf[64];
		char *f[3];
		int k = split(s, n, buf, sizeof buf, f, 2);
		if (k == 2 && strcmp(f[0], "version") == 0 &&
		    (strcmp(f[1], "1") == 0 || strcmp(f[1], "1.0") == 0)) {
			versioned = true;
			break;
		}
		fail(err, errlen, ls.line, "expected 'version 1' or 'version 1.0'");
		return -1;
	}
	if (!versioned) {
		fail(err, errlen, ls.line, "empty scenario file (expected 'version 1')");
		return -1;
	}

	int count = 0, cap = 0;
	struct movingai_scenario *arr = NULL;
	while (next_line(&ls, &s, &n)) {
		size_t i = 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			continue;
		char buf[1024];
		char *f[10];
		if (n >= sizeof buf) {
			fail(err, errlen, ls.line, "line of %zu bytes (at most %zu)", n, sizeof buf - 1);
			free(arr);
			return -1;
		}
		int k = split(s, n, buf, sizeof buf, f, 9);
		if (k != 9) {
			fail(err, errlen, ls.line, "%d fields (expected 9: bucket map width height "
						   "startx starty goalx goaly optimal)", k > 9 ? 10 : k);
			free(arr);
			return -1;
		}
		struct movingai_scenario sc;
		memset(&sc, 0, sizeof sc);
		const char *base = strrchr(f[1], '/');
		base = base ? base + 1 : f[1];
		const char *bs = strrchr(base, '\\');
		base = bs ? bs + 1 : base;
		if (strlen(base) >= sizeof sc.map) {
			fail(err, errlen, ls.line, "map name too long");
			free(arr);
			return -1;
		}
		strcpy(sc.map, base);
		char *endp;
		errno = 0;
		sc.optimal = strtod(f[8], &endp);
		if (!parse_int(f[0], &sc.bucket) || !parse_int(f[2], &sc.map_w) ||
		    !parse_int(f[3], &sc.map_h) || !parse_int(f[4], &sc.sx) ||
		    !parse_int(f[5], &sc.sy) || !parse_int(f[6], &sc.gx) ||
		    !parse_int(f[7], &sc.gy) || errno || *endp || endp == f[8] ||
		    !isfinite(sc.optimal) || sc.optimal < 0) {
			fail(err, errlen, ls.line, "a field is not a number");
			free(arr);
			return -1;
		}
		if (sc.map_w <= 0 || sc.map_h <= 0 || sc.sx < 0 || sc.sy < 0 || sc.gx < 0 ||
		    sc.gy < 0 || sc.sx >= sc.map_w || sc.gx >= sc.map_w || sc.sy >= sc.map_h ||
		    sc.gy >= sc.map_h) {
			fail(err, errlen, ls.line, "start or goal outside the %d x %d map",
			     sc.map_w, sc.map_h);
			free(arr);
			return -1;
		}
		if (count == cap) {
			int ncap = cap ? cap * 2 : 256;
			struct movingai_scenario *na = realloc(arr, (size_t)ncap * sizeof *na);
			if (!na) {
				fail(err, errlen, ls.line, "out of memory");
				free(arr);
				return -1;
			}
			arr = na;
			cap = ncap;
		}
		arr[count++] = sc;
	}
	*out = arr;
	return count;
}

bool movingai_cost_matches(double cost, double optimal)
{
	return fabs(cost - optimal) <= 0.006 + 1e-5 * optimal;
}

static int turn_offset(int sq_h)
{
	return (sq_h - 1 + 1) & ~1;
}

int movingai_turned_cell(const struct grid *d, int sq_h, int u, int v)
{
	const int X = u - v + turn_offset(sq_h), Y = u + v;
	return grid_index(d, (X - (Y & 1)) / 2, Y);
}

struct grid *movingai_turn_diamond(const struct grid *sq, enum grid_topology topo)
{
	const int off = turn_offset(sq->h);
	/* rows 0 .. w + h - 2; the widest text column is w - 1 + off */
	struct grid *d = grid_create((sq->w - 1 + off) / 2 + 1, sq->w + sq->h - 1, topo);
	if (!d)
		return NULL;
	for (int v = 0; v < sq->h; v++)
		for (int u = 0; u < sq->w; u++)
			grid_set_cost(d, movingai_turned_cell(d, sq->h, u, v), sq->cost[grid_index(sq, u, v)]);
	return d;
}
