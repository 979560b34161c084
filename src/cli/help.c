/*
 * help.c - lays out every --help: the synopsis, paragraphs, definition
 * lists, samples and the rows of options and commands, all wrapped by one
 * rule at one width (HELP_WIDTH), so no text places its own line breaks
 * and none can fight the wrapping.  The texts themselves are the
 * commands' (each cmd_*.c, and main.c's list of commands); the options'
 * rows come from their tables through opt.c.  It only writes to the
 * stream it is given.
 */
#include "help.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HELP_TERM_MAX 22 /* a definition list's text column is at most this far past its terms */

/* Columns of n bytes of UTF-8 text: continuation bytes take none. */
static int columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* What a line break may not split: one word, or the words from an
 * opening '(' or '[' to the word that closes it, or of a `code span`. */
struct unit {
	const char *start, *end;  /* its bytes, without the spaces around it */
	int gap;                  /* columns of the spaces before it */
	int width;                /* its columns */
	int words;
};

/*
 * The unit that starts after the spaces at p (before end); false when
 * only spaces are left.  A parenthetical (or code span) wider than
 * `room` columns could not stay on any line: it falls apart into words.
 */
static bool next_unit(const char *p, const char *end, int room, struct unit *u)
{
	const char *s = p;
	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return false;
	const char *q = s, *first_end = NULL, *last_end = s;
	int depth = 0, words = 0;
	bool code = false;
	while (q < end) {
		for (; q < end && *q != ' '; q++) {
			if (*q == '(' || *q == '[')
				depth++;
			else if ((*q == ')' || *q == ']') && depth > 0)
				depth--;
			else if (*q == '`')
				code = !code;
		}
		words++;
		last_end = q;
		if (!first_end)
			first_end = q;
		if (depth == 0 && !code)
			break;
		while (q < end && *q == ' ')
			q++;
	}
	u->start = s;
	u->gap = columns(p, (size_t)(s - p));
	u->end = last_end;
	u->words = words;
	u->width = columns(s, (size_t)(last_end - s));
	if (words > 1 && u->width > room) {
		u->end = first_end;
		u->words = 1;
		u->width = columns(s, (size_t)(first_end - s));
	}
	return true;
}

/*
 * Writes the paragraph s[0..n), its first line from column `at` (the
 * caller is there), the others from column `indent`, each line as many
 * units as fit in HELP_WIDTH (at least one).  When the last line would
 * hold one word only, the line before gives it its last unit, if that
 * leaves it two words (one after a row's left column) and both fit.
 */
static void wrap(FILE *out, const char *s, size_t n, int at, int indent)
{
	const char *p = s, *end = s + n;
	int room = HELP_WIDTH - indent;
	struct unit u, w;
	bool first = true;
	while (next_unit(p, end, room, &u)) {
		if (!first)
			fprintf(out, "%*s", indent, "");
		int col = at, words = 0, units = 0, last_words = 0, last_width = 0;
		const char *q = p, *line_end = u.start, *before_last = u.start, *last_from = p;
		while (next_unit(q, end, room, &u)) {
			int need = (units ? u.gap : 0) + u.width;
			if (units > 0 && col + need > HELP_WIDTH)
				break;
			before_last = line_end;
			last_from = q;
			last_words = u.words;
			last_width = u.width;
			col += need;
			words += u.words;
			units++;
			line_end = u.end;
			q = u.end;
		}
		int keep = words - last_words;
		if (units >= 2 && (keep >= 2 || (keep >= 1 && at > indent)) && next_unit(q, end, room, &w) &&
		    w.words == 1 && !next_unit(w.end, end, room, &u) && last_width + w.gap + w.width <= room) {
			line_end = before_last;
			q = last_from;
		}
		next_unit(p, end, room, &u);
		fwrite(u.start, 1, (size_t)(line_end - u.start), out);
		fputc('\n', out);
		p = q;
		at = indent;
		first = false;
	}
	if (first)
		fputc('\n', out);
}

/* `left`, then the cursor to column col, or two spaces past a longer left. */
static int pad(FILE *out, const char *left, size_t left_len, int col)
{
	fwrite(left, 1, left_len, out);
	int at = columns(left, left_len);
	int to = at + 2 > col ? at + 2 : col;
	fprintf(out, "%*s", to - at, "");
	return to;
}

/* The rows of the definition list that starts at text (lines with a
 * tab); returns where the list ends. */
static const char *definitions(FILE *out, int indent, const char *text)
{
	int longest = 0;
	const char *p = text;
	for (;;) {
		size_t n = strcspn(p, "\n"), term = strcspn(p, "\t\n");
		if (n == 0 || term == n || p[0] == ' ')
			break;
		int c = columns(p, term);
		if (c > longest && c <= HELP_TERM_MAX)
			longest = c;
		p += n + (p[n] == '\n');
	}
	const char *list_end = p;
	int col = indent + 2 + longest + 2;
	char left[256];
	for (p = text; p < list_end;) {
		size_t n = strcspn(p, "\n"), term = strcspn(p, "\t");
		int len = snprintf(left, sizeof left, "%*s%.*s", indent + 2, "", (int)term, p);
		int at = pad(out, left, len > 0 && (size_t)len < sizeof left ? (size_t)len : strlen(left), col);
		wrap(out, p + term + 1, n - term - 1, at, col);
		p += n + (p[n] == '\n');
	}
	return list_end;
}

/*
 * The blocks of text (help_text's markup) at indent; with first_at >= 0
 * the first block is a paragraph whose first line starts at that column,
 * where the cursor already is.
 */
static void blocks(FILE *out, int indent, const char *text, int first_at)
{
	const char *p = text;
	if (first_at >= 0) {
		size_t n = strcspn(p, "\n");
		wrap(out, p, n, first_at, indent);
		p += n + (p[n] == '\n');
	}
	while (*p) {
		size_t n = strcspn(p, "\n");
		if (n == 0) {
			fputc('\n', out);
		} else if (p[0] == ' ') {
			fprintf(out, "%*s%.*s\n", indent, "", (int)n, p);
		} else if (memchr(p, '\t', n)) {
			p = definitions(out, indent, p);
			continue;
		} else {
			fprintf(out, "%*s", indent, "");
			wrap(out, p, n, indent, indent);
		}
		p += n + (p[n] == '\n');
	}
}

void help_text(FILE *out, int indent, const char *text)
{
	blocks(out, indent, text, -1);
}

void help_textf(FILE *out, int indent, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!text)
		return; /* no memory for a help text: it is left out */
	va_start(ap, fmt);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	va_end(ap);
	blocks(out, indent, text, -1);
	free(text);
}

void help_row(FILE *out, const char *left, int col, const char *text)
{
	int at = pad(out, left, strlen(left), col);
	blocks(out, col, text, at);
}

void help_usage(FILE *out, const char *cmd, const char *const *forms)
{
	for (int i = 0; forms[i]; i++) {
		int at = fprintf(out, "%s astray %s ", i ? "      " : "usage:", cmd);
		if (at < 0)
			return; /* a write error: ferror(out) tells */
		wrap(out, forms[i], strlen(forms[i]), at, at);
	}
}
