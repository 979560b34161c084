/*
 * fuzz_heat.c - libFuzzer target for heat counts files (sim --heat-counts,
 * read by sim-report --heatmap): any bytes give counts or a refusal that
 * names the file, never a crash, a hang or a leak.  Counts that parse
 * are well formed (start on an open cell, whole counts from 1), write
 * back to text that parses and writes to the same bytes, merge with
 * themselves only as one file (twice is refused: the same games), and
 * draw as SVG and text.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "heat_render.h"
#include "heatmap.h"
#include "level.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *written(const struct heatmap_counts *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	int rc = heatmap_counts_write(f, &c->run, &c->heat[0], c->run.compare ? &c->heat[1] : NULL, c->monsters);
	fclose(f);
	if (rc != 0)
		abort(); /* what was read can be written */
	return buf;
}

static void check(const struct heatmap_counts *c)
{
	const struct sim_heat *h = &c->heat[0];
	if (h->w < 1 || h->h < 1 || c->run.games < 1)
		abort();
	if (c->run.start >= 0 &&
	    (c->run.start >= h->w * h->h || h->tiles[c->run.start] == TILE_WALL || h->tiles[c->run.start] == TILE_VOID))
		abort();
	for (int s = 0; s < (c->run.compare ? 2 : 1); s++)
		for (int l = 0; l < SIM_HEAT_COUNT; l++)
			for (int i = 0; i < h->w * h->h; i++) {
				double v = c->heat[s].v[l][i];
				if (v < 0 || v != floor(v))
					abort();
			}
}

static void draw(const struct heatmap_counts *c)
{
	char *buf = NULL;
	size_t len = 0;
	char title[3400];
	heat_render_title(title, sizeof title, &c->run, SIM_HEAT_OCCUPANCY);
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return;
	const struct sim_heat *b = c->run.compare ? &c->heat[1] : NULL;
	if (heat_render_svg(f, &c->heat[0], b, SIM_HEAT_OCCUPANCY, title, c->run.start, c->monsters) != 0 ||
	    heat_render_text(f, &c->heat[0], b, SIM_HEAT_BLOCKED, true, c->run.start, c->monsters) != 0)
		abort();
	fclose(f);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct heatmap_counts c;
	struct diag_list d = { 0 };
	bool ok = heatmap_counts_parse("fuzz.heat", (const char *)data, size, &c, &d);
	if (!ok && (d.n == 0 || strcmp(d.items[0].file, "fuzz.heat") != 0))
		abort(); /* a refusal says where */
	diag_list_fini(&d);
	if (!ok)
		return 0;
	check(&c);
	size_t len = 0;
	char *text = written(&c, &len);
	if (text) {
		struct heatmap_counts back;
		if (!heatmap_counts_parse("again.heat", text, len, &back, &d))
			abort();
		size_t len2 = 0;
		char *again = written(&back, &len2);
		if (again && (len2 != len || memcmp(again, text, len) != 0))
			abort();
		free(again);
		heatmap_counts_fini(&back);
		free(text);
	}
	diag_list_fini(&d);
	const struct heatmap_counts *one[2] = { &c, &c };
	const char *const names[2] = { "a.heat", "b.heat" };
	struct heatmap_counts m;
	if (!heatmap_counts_merge(one, names, 1, &m, &d) || m.run.games != c.run.games)
		abort();
	heatmap_counts_fini(&m);
	if (heatmap_counts_merge(one, names, 2, &m, &d))
		abort(); /* the same games twice */
	diag_list_fini(&d);
	draw(&c);
	heatmap_counts_fini(&c);
	return 0;
}
