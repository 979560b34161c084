/*
 * dungeon.c - the dungeon mode's levels: from one seed, the plan of every
 * level (topology, size, generator seed, depth) drawn from a stream of its
 * own, then each level made by gen_level.  It owns the choice of what a
 * run looks like; how a level is shaped is gen.c's.  No curses, no
 * printing: errors come back as text.
 */
#include "dungeon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/*
 * The topologies a run mixes, one row each (a new grid the generator
 * supports is one more row).  Rows gen_supports refuses are skipped.
 */
static const enum grid_topology dungeon_topologies[] = {
	GRID_SQUARE4,
	GRID_SQUARE8,
	GRID_HEX,
	GRID_DIAMOND4,
	GRID_DIAMOND8,
};
#define N_TOPOLOGIES ((int)(sizeof dungeon_topologies / sizeof dungeon_topologies[0]))

/*
 * Size classes in text columns and rows.  A hex (or other two-column)
 * grid gets half as many cells across.  The largest fits an 80x24
 * terminal under the game's two message rows and status line.
 */
static const struct {
	int cols, rows;
} dungeon_sizes[] = {
	{ 44, 15 },
	{ 56, 17 },
	{ 68, 19 },
	{ 79, 21 },
};
#define N_SIZES ((int)(sizeof dungeon_sizes / sizeof dungeon_sizes[0]))

/* Salt of the dungeon's stream, so `--seed S` for the game's stream and
 * the dungeon's stream are different sequences. */
#define DUNGEON_SALT 0x64756e67656f6e21ULL

static bool two_columns(enum grid_topology t)
{
	return grid_is_staggered(t);
}

bool dungeon_plan(uint64_t seed, int n_levels, struct gen_params *out)
{
	if (n_levels < 1 || n_levels > DUNGEON_MAX_LEVELS)
		return false;
	enum grid_topology usable[N_TOPOLOGIES];
	int n_usable = 0;
	for (int i = 0; i < N_TOPOLOGIES; i++)
		if (gen_supports(dungeon_topologies[i]))
			usable[n_usable++] = dungeon_topologies[i];
	if (n_usable == 0)
		return false;
	struct rng r;
	rng_seed(&r, seed ^ DUNGEON_SALT);
	int prev = -1;
	for (int i = 0; i < n_levels; i++) {
		int depth = i + 1;
		/* never the same topology twice in a row: draw among the others */
		int t = rng_range(&r, 0, n_usable - (prev >= 0 && n_usable > 1 ? 2 : 1));
		if (prev >= 0 && n_usable > 1 && t >= prev)
			t++;
		prev = t;
		/* bigger maps open up with depth; the smallest drop out */
		int hi = (depth + 1) / 3 < N_SIZES - 1 ? (depth + 1) / 3 : N_SIZES - 1;
		int lo = hi > 2 ? hi - 2 : 0;
		int s = rng_range(&r, lo, hi);
		struct gen_params *p = &out[i];
		memset(p, 0, sizeof *p);
		p->topo = usable[t];
		p->w = two_columns(p->topo) ? dungeon_sizes[s].cols / 2 : dungeon_sizes[s].cols;
		p->h = dungeon_sizes[s].rows;
		p->depth = depth;
		p->seed = rng_next(&r);
		p->style = GEN_STYLE_MIXED;
		p->bestiary = NULL;
	}
	return true;
}

void dungeon_fini(struct dungeon *d)
{
	for (int i = 0; i < d->n; i++) {
		if (d->texts)
			free(d->texts[i]);
		if (d->levels)
			level_destroy(d->levels[i]);
	}
	free(d->texts);
	free(d->levels);
	free(d->params);
	memset(d, 0, sizeof *d);
}

bool dungeon_create(uint64_t seed, int n_levels, const struct bestiary *b, struct dungeon *out,
		    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (n_levels < 1 || n_levels > DUNGEON_MAX_LEVELS) {
		snprintf(err, errlen, "a dungeon has 1 to %d levels, not %d", DUNGEON_MAX_LEVELS, n_levels);
		return false;
	}
	struct dungeon d = { .seed = seed };
	d.params = calloc((size_t)n_levels, sizeof *d.params);
	d.texts = calloc((size_t)n_levels, sizeof *d.texts);
	d.levels = calloc((size_t)n_levels, sizeof *d.levels);
	if (!d.params || !d.texts || !d.levels) {
		dungeon_fini(&d);
		snprintf(err, errlen, "out of memory");
		return false;
	}
	if (!dungeon_plan(seed, n_levels, d.params)) {
		dungeon_fini(&d);
		snprintf(err, errlen, "no topology the generator supports");
		return false;
	}
	for (int i = 0; i < n_levels; i++) {
		struct gen_params p = d.params[i];
		p.bestiary = b;
		struct gen_result r;
		char why[DIAG_ERR_LEN];
		if (!gen_level(&p, &r, why, sizeof why)) {
			snprintf(err, errlen, "level %d of dungeon %llu (%s %dx%d, generator seed %llu): %s",
				 i + 1, (unsigned long long)seed, grid_topology_name(p.topo), p.w, p.h,
				 (unsigned long long)p.seed, why);
			dungeon_fini(&d);
			return false;
		}
		/* gen's description (generator version, size, seed) is for
		 * designers; a player entering the level is told its name and
		 * place in the run instead.  texts[i] keeps it, for whoever
		 * regenerates or saves the level. */
		free(r.level->description);
		r.level->description = NULL;
		d.texts[i] = r.text;
		d.levels[i] = r.level;
		d.n = i + 1;
		r.text = NULL;
		r.level = NULL;
		gen_result_free(&r);
	}
	*out = d;
	return true;
}

char *dungeon_played_text(const char *text, size_t *len)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	size_t k = 0;
	bool header = true;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t ll = nl ? (size_t)(nl - line) + 1 : strlen(line);
		if (header && strncmp(line, "map:", 4) == 0)
			header = false;
		if (!(header && strncmp(line, "description:", 12) == 0)) {
			memcpy(out + k, line, ll);
			k += ll;
		}
		line += ll;
	}
	out[k] = '\0';
	*len = k;
	return out;
}
