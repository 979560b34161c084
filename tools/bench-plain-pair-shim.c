/* bench-plain-pair-shim.c - a tree's plain square8 (or hex, square4) A* behind a call
 * interface that does not depend on the tree's structs.  Compiled once
 * against each tree's src/core (tools/bench-plain-pair --whole), its
 * names and the core's then renamed A_ or B_, so two revisions whose
 * grid, context or option structs differ can still be timed in one
 * process, query by query. */
#include "movingai.h"
#include "path.h"
#include "grid.h"
/* Revisions before the region labels (ed47b08, where issue 32 was filed)
 * have no region.h: they are timed by bench-plain-pair alone, and the
 * fallback calls of bench-deep-pair are left out of their shim. */
#if __has_include("region.h")
#include "region.h"
#define SHIM_REGIONS 1
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shim {
	struct grid *g;
	struct path_ctx *ctx;
#ifdef SHIM_REGIONS
	struct region *r;
#endif
	int sq_h;
	struct path_options opt; /* shim_find's, PAIR_MODE read once by shim_load */
};

/* The map's text made into a grid and a context; NULL on error. */
void *shim_load(const char *map, size_t len)
{
	char err[256];
	struct shim *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->g = movingai_parse_map(map, len, err, sizeof err);
	/* TOPO=hex, square4, diamond4 or diamond8: the map read on that grid,
	 * as `astray bench --topology` reads it (hex and square4: the same
	 * cells, other steps; diamond: the map turned 45 degrees) */
	const char *topo = getenv("TOPO");
	enum grid_topology t;
	if (s->g && topo && grid_topology_parse(topo, &t) && t != GRID_SQUARE8) {
		s->sq_h = s->g->h;
		if (grid_is_diamond(t)) {
			struct grid *d = movingai_turn_diamond(s->g, t);
			grid_destroy(s->g);
			s->g = d;
		}
		if (s->g)
			s->g->topo = t;
	}
	s->ctx = s->g ? path_create(s->g) : NULL;
	if (!s->ctx) {
		if (s->g)
			grid_destroy(s->g);
		free(s);
		return NULL;
	}
	/* PAIR_MODE=jps: the square jump search (path_options.jps_always);
	 * auto: the default's choice; else plain A* (tools/bench-plain-pair
	 * refuses other values) */
	const char *mode = getenv("PAIR_MODE");
	s->opt = path_options_default();
	if (mode && !strcmp(mode, "jps")) {
#ifdef SHIM_NO_JPS_ALWAYS
		/* a revision before path_options.jps_always: nothing to time */
		fprintf(stderr, "bench-plain-pair: this revision has no jump search option (PAIR_MODE=jps)\n");
		exit(2);
#else
		s->opt.jps_always = true;
#endif
	} else if (!mode || strcmp(mode, "auto"))
		s->opt.plain_astar = true;
	/* PAIR_BUDGET=N: a budget of N expansions (the game's searches carry
	 * one; large enough, it changes no answer, only the loop they run) */
	const char *budget = getenv("PAIR_BUDGET");
	if (budget && *budget)
		s->opt.budget = atol(budget);
	return s;
}

/* The scenarios' start and goal cells, two ints a query (malloc'd). */
int shim_scen(void *sp, const char *text, size_t len, int **cells)
{
	struct shim *s = sp;
	char err[256];
	struct movingai_scenario *sc;
	int n = movingai_parse_scen(text, len, &sc, err, sizeof err);
	if (n <= 0)
		return n;
	*cells = malloc(sizeof(int) * 2 * (size_t)n);
	for (int i = 0; i < n; i++) {
		const bool turned = grid_is_diamond(s->g->topo);
		(*cells)[2 * i] = turned ? movingai_turned_cell(s->g, s->sq_h, sc[i].sx, sc[i].sy)
					 : sc[i].sy * s->g->w + sc[i].sx;
		(*cells)[2 * i + 1] = turned ? movingai_turned_cell(s->g, s->sq_h, sc[i].gx, sc[i].gy)
					     : sc[i].gy * s->g->w + sc[i].gx;
	}
	free(sc);
	return n;
}

/* The status and every route cell folded (FNV-1a), so two trees' answers
 * compare in one word. */
static uint64_t route_hash(enum path_status st, const struct path_result *r)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)st;
	for (int i = 0; i < r->len; i++)
		h = (h ^ (uint64_t)(unsigned)r->cells[i]) * 1099511628211ull;
	return h;
}

/* One plain A* query (or PAIR_MODE's search): its expansions; *hash
 * folds the status and every route cell (FNV-1a), so two trees' answers
 * compare in one word. */
long shim_find(void *sp, int start, int goal, uint64_t *hash)
{
	struct shim *s = sp;
	struct path_result r;
	*hash = route_hash(path_find(s->ctx, start, goal, &s->opt, &r), &r);
	return r.expanded;
}

#ifdef SHIM_REGIONS
/* A w x h grid of topology `topo` (grid_topology_parse's names) with
 * these cost bytes, its context and its region labels (tools/bench-deep-pair);
 * NULL on error. */
void *shim_load_costs(int w, int h, const char *topo, const unsigned char *costs)
{
	enum grid_topology t;
	if (!grid_topology_parse(topo, &t))
		return NULL;
	struct shim *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->g = grid_create(w, h, t);
	if (s->g)
		for (int i = 0; i < w * h; i++)
			grid_set_cost(s->g, i, costs[i]);
	s->ctx = s->g ? path_create(s->g) : NULL;
	s->r = s->ctx ? region_create(s->g, false) : NULL;
	if (!s->r) {
		path_destroy(s->ctx);
		if (s->g)
			grid_destroy(s->g);
		free(s);
		return NULL;
	}
	return s;
}

/* One query as `astray path --fallback` asks it (automatic P, the region
 * labels): its expansions, *hash as shim_find's, *end the walk's end. */
long shim_fallback(void *sp, int start, int goal, uint64_t *hash, int *end)
{
	struct shim *s = sp;
	struct path_options opt = path_options_default();
	opt.fallback = true;
	opt.regions = s->r;
	struct path_result r;
	*hash = route_hash(path_find(s->ctx, start, goal, &opt, &r), &r);
	*end = r.end;
	return r.expanded;
}

#endif

void shim_free(void *sp)
{
	struct shim *s = sp;
#ifdef SHIM_REGIONS
	region_destroy(s->r);
#endif
	path_destroy(s->ctx);
	grid_destroy(s->g);
	free(s);
}
