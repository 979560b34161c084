/*
 * editor_clip.c - copy, stamp and mirror of a rectangle of `astray edit`:
 * a clip is the glyphs of a rectangle of cells, taken from the map,
 * mirrored on its own, and stamped back anywhere as one undo step (so a
 * paste is one stamp and a stamp tool many); a mirror in place is a copy,
 * a flip and a stamp over the same rectangle, one undo step too.  The
 * clip holds file glyphs, the start among them: a stamp with '@' moves
 * the start there, as painting it does.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdlib.h>
#include <string.h>

void editor_clip_free(struct editor_clip *c)
{
	free(c->glyphs);
	memset(c, 0, sizeof *c);
}

/* The rectangle with corners (x0, y0), (x1, y1) clipped to the map; false when nothing is left. */
static bool clip_rect(const struct editor *ed, int x0, int y0, int x1, int y1, int *xa, int *ya, int *xb,
		      int *yb)
{
	*xa = x0 < x1 ? x0 : x1;
	*xb = x0 < x1 ? x1 : x0;
	*ya = y0 < y1 ? y0 : y1;
	*yb = y0 < y1 ? y1 : y0;
	if (*xa < 0)
		*xa = 0;
	if (*ya < 0)
		*ya = 0;
	if (*xb >= ed->w)
		*xb = ed->w - 1;
	if (*yb >= ed->h)
		*yb = ed->h - 1;
	return *xa <= *xb && *ya <= *yb;
}

bool editor_copy(const struct editor *ed, int x0, int y0, int x1, int y1, struct editor_clip *out)
{
	int xa, ya, xb, yb;
	if (!clip_rect(ed, x0, y0, x1, y1, &xa, &ya, &xb, &yb))
		return false;
	int w = xb - xa + 1, h = yb - ya + 1;
	char *g = malloc((size_t)w * (size_t)h);
	if (!g)
		return false;
	for (int y = 0; y < h; y++)
		memcpy(g + (size_t)y * (size_t)w, ed->glyphs + (size_t)(ya + y) * (size_t)ed->w + (size_t)xa,
		       (size_t)w);
	free(out->glyphs);
	out->glyphs = g;
	out->w = w;
	out->h = h;
	return true;
}

void editor_clip_mirror(struct editor_clip *c, bool left_right)
{
	if (!c->glyphs)
		return;
	if (left_right) {
		for (int y = 0; y < c->h; y++)
			for (int a = 0, b = c->w - 1; a < b; a++, b--) {
				char *row = c->glyphs + (size_t)y * (size_t)c->w, t = row[a];
				row[a] = row[b];
				row[b] = t;
			}
	} else {
		for (int a = 0, b = c->h - 1; a < b; a++, b--)
			for (int x = 0; x < c->w; x++) {
				char *p = c->glyphs + (size_t)a * (size_t)c->w + x;
				char *q = c->glyphs + (size_t)b * (size_t)c->w + x, t = *p;
				*p = *q;
				*q = t;
			}
	}
}

int editor_stamp(struct editor *ed, const struct editor_clip *c, int x, int y)
{
	if (!c->glyphs || c->w < 1 || c->h < 1)
		return 0;
	for (int i = 0; i < c->w * c->h; i++)
		if (!editor_glyph_ok(ed, c->glyphs[i]))
			return -1;
	editor_begin(ed);
	int changed = 0;
	/* the start last: one start, and a stamp holding it moves it here */
	int start = -1;
	for (int j = 0; j < c->h; j++)
		for (int i = 0; i < c->w; i++) {
			char g = c->glyphs[j * c->w + i];
			if (g == '@') {
				start = j * c->w + i;
				continue;
			}
			int r = editor_set_cell(ed, x + i, y + j, g);
			if (r < 0) {
				editor_end(ed);
				return -1;
			}
			changed += r;
		}
	if (start >= 0) {
		int r = editor_set_cell(ed, x + start % c->w, y + start / c->w, '@');
		if (r < 0) {
			editor_end(ed);
			return -1;
		}
		changed += r;
	}
	editor_end(ed);
	return changed;
}

int editor_mirror(struct editor *ed, int x0, int y0, int x1, int y1, bool left_right)
{
	struct editor_clip c = { 0 };
	int xa, ya, xb, yb;
	if (!clip_rect(ed, x0, y0, x1, y1, &xa, &ya, &xb, &yb))
		return 0;
	if (!editor_copy(ed, xa, ya, xb, yb, &c))
		return -1;
	editor_clip_mirror(&c, left_right);
	int r = editor_stamp(ed, &c, xa, ya);
	editor_clip_free(&c);
	return r;
}
