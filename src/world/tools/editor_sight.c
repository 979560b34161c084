/*
 * editor_sight.c - the sight view of `astray edit`: what a monster on the
 * map sees (the game's own line-of-sight rule, fov.h, with its kind's
 * sight radius, over the map as it is now, doors shut), and which cells
 * see the start (the rule is symmetric for cells one can see through, so
 * these are the cells the start sees within the radius).
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdlib.h>
#include <string.h>

#include "fov.h"

/* What blocks sight on the map now, w * h of them; NULL on no memory. */
static uint8_t *opaque_now(struct editor *ed)
{
	const struct level *lv = editor_level(ed);
	if (!lv)
		return NULL;
	size_t n = (size_t)ed->w * (size_t)ed->h;
	uint8_t *o = malloc(n ? n : 1);
	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++)
		o[i] = tile_info((enum tile)lv->tiles[i])->blocks_sight;
	return o;
}

int editor_sight_radius(const struct editor *ed, int x, int y)
{
	char g = editor_glyph(ed, x, y);
	if (!editor_is_letter(g) || !ed->b)
		return -1;
	const struct monster_kind *k = bestiary_find_glyph(ed->b, g);
	return k ? k->sight : -1;
}

int editor_sight_widest(const struct editor *ed)
{
	int r = 0;
	size_t n = (size_t)ed->w * (size_t)ed->h;
	for (size_t i = 0; i < n; i++)
		if (editor_is_letter(ed->glyphs[i])) {
			int s = editor_sight_radius(ed, (int)(i % (size_t)ed->w), (int)(i / (size_t)ed->w));
			if (s > r)
				r = s;
		}
	if (r == 0 && ed->b)
		for (int k = 0; k < ed->b->n; k++)
			if (ed->b->kinds[k].sight > r)
				r = ed->b->kinds[k].sight;
	return r;
}

int editor_sight(struct editor *ed, int x, int y, int radius, uint8_t *out)
{
	if (x < 0 || y < 0 || x >= ed->w || y >= ed->h || radius < 0)
		return -1;
	uint8_t *o = opaque_now(ed);
	if (!o)
		return -1;
	size_t n = (size_t)ed->w * (size_t)ed->h;
	memset(out, 0, n);
	if (radius > 0)
		fov_compute(ed->grid, o, x, y, radius, out);
	else
		out[(size_t)y * (size_t)ed->w + (size_t)x] = 1;
	free(o);
	int count = 0;
	for (size_t i = 0; i < n; i++)
		count += out[i] != 0;
	return count;
}

int editor_sees(struct editor *ed, int ax, int ay, int bx, int by, int radius)
{
	if (radius <= 0)
		return 0;
	uint8_t *o = opaque_now(ed);
	if (!o)
		return -1;
	bool seen = fov_line_of_sight(ed->grid, o, ax, ay, bx, by, radius);
	free(o);
	return seen ? 1 : 0;
}
