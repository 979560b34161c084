/*
 * game_travel.c - the player's activities that take many turns: travel to a
 * cell (a click, the cursor), the cursor's route preview, rest, running
 * straight on, and autoexplore; and when each of them stops.
 *
 * They all plan over the player's map memory (known[]), never the true
 * map, so a route shows nothing the player has not seen (DESIGN section 4,
 * rule 4).  Each takes one step per ACT_TRAVEL_STEP through the same rules
 * as a key press (game_player_enter), and stops for news (game_activity_check).
 * The rules that carry out a step are game.c.
 */
#include "game_internal.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prune.h"
#include "region.h"

/* ---- travel ------------------------------------------------------------- */

/* The cells of known[] that may change between two threads' peelings
 * (game_trees_follow) and be copied one by one; more, and the next thread's
 * copy of known[] is made whole. */
#define TREES_LOG 4096

static void labels_from_job(struct game *g);

/* The side of deep_nearest's squares, and of reach.open_squares'. */
#define DEEP_BLOCK 64

/*
 * Travel, the cursor's preview, autoexplore and the click fallback plan
 * over the player's map memory (known[]): remembered cells at their true
 * cost, cells never seen as open floor (the free-space assumption), so a
 * route never shows what the player has not seen.  Monsters plan over the
 * true map.  The level's one search context serves both: its grid's costs
 * are pointed at known[] for the one query (a context reads the costs at
 * each query and keeps nothing from them between queries).  A far click's
 * side search has a context and a grid of its own (the side search, below).
 *
 * A plan takes at most TRAVEL_BUDGET expansions, plus the size of the
 * player's region when that holds at most TRAVEL_WHOLE_REGION cells
 * (rules 12, travel_budget), so that there every goal the player can
 * reach gets its shortest route.  A goal that known[] puts one blocked
 * cell away from the player's region (a click on a known wall, or into a
 * region the known walls seal) gets the fallback's exact answer, the one
 * an unbounded search gives, when the search through the region labels
 * of known[] (path_options.near_exact) finds it within the budget (rules
 * 7); one two or more blocked cells away the fallback's blocked cells and
 * cost, by path.c's fallback_deep (rules 12).  Which goals are answered
 * so is a function of known[] alone, never of the labels' history: they
 * are made current before each plan.  And far goals the
 * player can reach get up to two more budgets, of weighted A* (rules 11;
 * plan_travel, below).
 */
static const struct region *known_labels(struct game *g)
{
	struct reach *m = &g->reach;
	labels_from_job(g);
	if (!m->labels) {
		m->labels = region_create_over(g->grid, g->known, false);
		if (!m->labels)
			return NULL;
	} else if (!m->labels_ok || m->labels_version != g->known_version) {
		region_mark_stale(m->labels);
	}
	if (!region_refresh(m->labels))
		return NULL;
	m->labels_ok = true;
	m->labels_version = g->known_version;
	return m->labels;
}

void game_known_changed(struct game *g, int cell, uint8_t old)
{
	struct reach *m = &g->reach;
	if (m->log) { /* for the next thread's copy (game_trees_follow) */
		if (m->log_len < TREES_LOG)
			m->log[m->log_len++] = cell;
		else
			m->log_lost = true;
	}
	if (m->labels && m->labels_ok && m->labels_version == g->known_version) {
		region_cell_changed(m->labels, cell, old);
		m->labels_version++;
	}
	if (m->open_squares && m->open_squares_ok && m->open_squares_version == g->known_version) {
		const struct grid *gr = g->grid;
		const int bw = (gr->w + DEEP_BLOCK - 1) / DEEP_BLOCK;
		m->open_squares[grid_y(gr, cell) / DEEP_BLOCK * bw + grid_x(gr, cell) / DEEP_BLOCK] +=
			(uint32_t)(g->known[cell] != 0) - (uint32_t)(old != 0);
		m->open_squares_version++;
	}
	g->known_version++;
}

/* A search of the level's context over known[] (its grid's costs pointed
 * there for the one query). */
static enum path_status find_over_known(struct game *g, int from, int goal, const struct path_options *opt,
					struct path_result *r)
{
	const uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	const enum path_status st = path_find(g->path, from, goal, opt, r);
	g->grid->cost = truth;
	return st;
}

/* A plan's search over known[] (labels: its regions), as plan_known and
 * the side search's first rung run it. */
static struct path_options known_options(const struct region *labels, long budget)
{
	struct path_options opt = path_options_default();
	opt.fallback = true;
	opt.budget = budget;
	opt.regions = labels;
	opt.near_exact = true;
	return opt;
}

/* near_only: path_options.near_only (a goal one wall away whose search
 * runs out of budget gets no partial route: the caller plans its own). */
static enum path_status plan_known_budget(struct game *g, int from, int goal, long budget, bool near_only,
					  struct path_result *r)
{
	struct path_options opt = known_options(known_labels(g), budget);
	opt.near_only = near_only;
	const enum path_status st = find_over_known(g, from, goal, &opt, r);
	g->reach.expanded = r->expanded;
	return st;
}

/* Whether the player can reach `goal`: open in known[], in the player's region of its labels. */
static bool known_reachable(struct game *g, int from, int goal)
{
	const struct region *labels = g->known[goal] ? known_labels(g) : NULL;
	return labels && region_of(labels, goal) >= 0 && region_of(labels, goal) == region_of(labels, from);
}

/*
 * The expansions a plan from `from` may take: TRAVEL_BUDGET, and when the
 * player's region of known[] holds at most g->reach.whole_region cells
 * (TRAVEL_WHOLE_REGION), that region's size more (rules 12).  A* expands
 * a cell at most once, so a goal in such a region always gets its
 * shortest route: on a mapped 512x512 maze it took 4-6 ms of CPU, where
 * rules 11's weighted A* within TRAVEL_BUDGET ran into dead ends and
 * walked 36 of 100 far clicks in parts.  A goal out of reach gets the
 * fallback's answer (path.c's fallback_near one wall away, fallback_deep
 * further: neither settles the region), or failing those the layered
 * search's, which settles the region first and then has TRAVEL_BUDGET to
 * look past it.
 */
static long travel_budget(struct game *g, int from)
{
	const struct region *labels = known_labels(g);
	const long size = labels ? region_size(labels, from) : 0;
	return size <= g->reach.whole_region ? TRAVEL_BUDGET + size : TRAVEL_BUDGET;
}

static enum path_status plan_known(struct game *g, int from, int goal, struct path_result *r)
{
	return plan_known_budget(g, from, goal, travel_budget(g, from), false, r);
}

/*
 * Far goals on large levels (rules 11).  A goal the player can reach (open
 * in known[], in the player's region of its labels) whose shortest route
 * the budget cannot find gets a route by weighted A* over known[] with the
 * same budget: at weight FAR_WEIGHTS[0], then each next one.  Such a
 * route costs at most the weight times the shortest (on the 4096x4096
 * caves level, 1-4.5% more at 1.15, with 5-47 k expansions where the
 * shortest needs 15 k-3 M).  The weights past 1.5 (rules 18)
 * are for rooms: on 4096x4096 levels of rooms and corridors 1.5 ran out of
 * budget on up to 5% of far clicks (square4: 17-25%, its searches' ties),
 * each then walked in parts; 2 found every one of 8,000 on the room levels
 * of all five grids, its routes 14% longer than the shortest on the mean
 * where 3 made them 29% longer, and 3 finds some 2 does not (a cut point
 * behind two long walls: test_far_click_into_rock_in_parts)
 * (docs/perf-log.md, thirty-first session).  Each click's cost, at most
 * five budgets' expansions in all, keeps it within a frame.  When even the
 * last weight runs out of budget (a maze without trees, a serpentine), its
 * partial route is walked and travel plans again where it ends (struct
 * travel's `partial`).
 */
static const double FAR_WEIGHTS[] = { 1.15, 1.5, 2.0, 3.0 };

/* The search at FAR_WEIGHTS[k], as plan_far and the side search run it. */
static struct path_options far_options(size_t k)
{
	struct path_options opt = path_options_default();
	opt.weight = FAR_WEIGHTS[k];
	opt.budget = TRAVEL_BUDGET;
	return opt;
}

/*
 * A far click the player cannot reach (rules 11): a goal blocked in known[]
 * or outside the player's region, whose fallback search ran out of budget
 * (it settles the player's whole region first: 15 M cells on the
 * 4096x4096 caves level).  The fallback's first criterion, the fewest
 * blocked cells crossed, is found from the goal's side: a breadth-first
 * search over known[] from the goal, a layer per blocked cell (an open
 * cell outside the player's region costs nothing; a step between two
 * open cells keeps the corner rule, a step into or out of a blocked cell
 * checks none, as in the fallback), out to the first layer a blocked cell
 * of which lies beside the player's region.  Of the region's cells beside
 * such a cell, the walk ends at the one nearest the straight way (the
 * least heuristic from the player plus to the goal; then the lowest
 * index), and the route there is planned as a reachable far goal's (the
 * shortest within the budget, else by weight).  The fallback's second
 * criterion, the least cost, is so kept only roughly, as the far routes'
 * weights keep it.  The search stops after DEEP_CELLS cells (a goal in a
 * large region of its own, or deep in thick rock): with a cell beside the
 * player's region found by then it answers (the layer's count is the
 * least, though not all of the layer was seen), without one the region's
 * cell nearest the goal does (deep_nearest).  Returns the cell, or -1
 * (no memory: the budget's partial route stands).
 */
#define DEEP_CELLS 65536

struct deep {
	struct game *g;
	const struct grid *grid; /* the level's grid, its costs known[] */
	const struct region *labels;
	int32_t home;        /* the player's region */
	int from, goal;
	uint64_t *seen;      /* reach.deep_seen: cells seen.  A bit map, not a
	                        table of the seen cells, because the search
	                        stays near the goal: neighbours share words and
	                        rows lie a few cache lines apart, where a hashed
	                        table's every probe missed.  Its bits are cleared
	                        at the end by the cells seen, not the whole map */
	int *log;            /* the cells seen, `count` of them */
	int count;           /* cells seen */
	int best;            /* where the walk ends so far; -1 none */
	double best_score;
};

/* How far c lies off the straight way from the player to the goal: the
 * heuristic from one to c plus from c to the other. */
static double deep_score(const struct deep *d, int c)
{
	return grid_heuristic(d->grid, d->from, c) + grid_heuristic(d->grid, c, d->goal);
}

/* Marks c seen: false when it was already. */
static bool deep_mark(uint64_t *seen, int c)
{
	uint64_t *word = seen + ((unsigned)c >> 6), bit = (uint64_t)1 << ((unsigned)c & 63);
	if (*word & bit)
		return false;
	*word |= bit;
	return true;
}

/* A cell of the search from the goal's side, with its coordinates: the
 * search reads its neighbours by them, where grid_adjacent divides a
 * cell's index by the width and gives each step its cost, twice a cell
 * (half the time of a search through 65,536 cells of rock). */
struct deep_cell {
	int cell, x, y;
};

/* The cells beside (x, y), in grid_adjacent's order. */
static int deep_adjacent(const struct grid *gr, int x, int y, struct deep_cell out[])
{
	const int dirs = grid_dir_count(gr->topo);
	int n = 0;
	for (int i = 0; i < dirs; i++) {
		const int nx = x + grid_nb_dx(gr->topo, y, i), ny = y + grid_nb_dy(gr->topo, i);
		if (grid_in_bounds(gr, nx, ny))
			out[n++] = (struct deep_cell){ grid_index(gr, nx, ny), nx, ny };
	}
	return n;
}

/* A blocked cell of the layer being found: the player's region's cells
 * beside it are where a walk may end. */
static void deep_beside(struct deep *d, const struct deep_cell *x)
{
	struct deep_cell adj[GRID_MAX_NEIGHBOURS];
	const int n = deep_adjacent(d->grid, x->x, x->y, adj);
	for (int j = 0; j < n; j++) {
		const int y = adj[j].cell;
		if (!d->g->known[y] || region_of(d->labels, y) != d->home)
			continue;
		const double score = deep_score(d, y);
		if (d->best < 0 || score < d->best_score || (score == d->best_score && y < d->best)) {
			d->best = y;
			d->best_score = score;
		}
	}
}

/* The open cells of known[] in each square (reach.open_squares), counted
 * anew when known[] was written at once (a map learnt, a restore), or
 * NULL without memory. */
static const uint32_t *open_squares(struct game *g)
{
	struct reach *m = &g->reach;
	if (m->open_squares && m->open_squares_ok && m->open_squares_version == g->known_version)
		return m->open_squares;
	const struct grid *gr = g->grid;
	const int bw = (gr->w + DEEP_BLOCK - 1) / DEEP_BLOCK, bh = (gr->h + DEEP_BLOCK - 1) / DEEP_BLOCK;
	if (!m->open_squares)
		m->open_squares = malloc(sizeof *m->open_squares * (size_t)bw * (size_t)bh);
	if (!m->open_squares)
		return NULL;
	memset(m->open_squares, 0, sizeof *m->open_squares * (size_t)bw * (size_t)bh);
	for (int y = 0; y < gr->h; y++) {
		const uint8_t *row = g->known + (size_t)y * (size_t)gr->w;
		uint32_t *count = m->open_squares + (size_t)(y / DEEP_BLOCK) * (size_t)bw;
		for (int x0 = 0; x0 < gr->w; x0 += DEEP_BLOCK) {
			const int x1 = x0 + DEEP_BLOCK < gr->w ? x0 + DEEP_BLOCK : gr->w;
			uint32_t n = 0;
			for (int x = x0; x < x1; x++)
				n += row[x] != 0;
			count[x0 / DEEP_BLOCK] += n;
		}
	}
	m->open_squares_ok = true;
	m->open_squares_version = g->known_version;
	return m->open_squares;
}

/*
 * Past DEEP_CELLS with no cell of the player's region found (a goal deep
 * in rock thicker than that: 1,300 cells of it between the hex rooms
 * level's border and its nearest room), the nearest cell of the region
 * in steps as the crow flies (grid_step_distance; then nearest the
 * straight way, then the lowest index), which in solid rock is the one
 * through the fewest walls.  Found in squares of DEEP_BLOCK x DEEP_BLOCK
 * cells, ring by ring round the goal's, skipping those with no open cell
 * in known[] (reach.open_squares, kept up to date as known[] changes: a
 * pass over known[] at each click took 2-5 ms on 4096x4096, and reading
 * the squares of rock themselves, a cache line a row, up to 20 ms on the
 * diamond8 rooms level, whose rooms lie 2,000 steps from its corners),
 * reading eight cells at a time, until a ring is farther than the best
 * found: a step moves a column and a row at most (two rows on diamond
 * maps), so a cell of ring R is at least (R - 1) * DEEP_BLOCK + 1 steps
 * away (half that on diamond maps).
 */
static void deep_consider(struct deep *d, int c, int steps, int *best_steps)
{
	const double score = deep_score(d, c);
	if (d->best < 0 || steps < *best_steps ||
	    (steps == *best_steps && (score < d->best_score || (score == d->best_score && c < d->best)))) {
		d->best = c;
		d->best_score = score;
		*best_steps = steps;
	}
}

/* How far v lies outside [lo, hi): 0 inside. */
static int axis_gap(int v, int lo, int hi)
{
	return v < lo ? lo - v : v >= hi ? v - hi + 1 : 0;
}

/* a / b rounded down and up, for any a and b > 0 (C's division truncates) */
static int floor_div(int a, int b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int ceil_div(int a, int b)
{
	return -floor_div(-a, b);
}

/*
 * A cell dy rows and dc columns on the screen (2x + (y & 1) on hex and
 * diamond maps) from another lies max(dc, dy) steps from it on square8
 * and diamond4, dc + dy on square4, (dc + dy) / 2 on diamond8, and
 * dy + max(0, dc - dy) / 2 on hex (grid_step_distance).  So the cells
 * within b steps lie within rmax * b rows, and in a row dy away within
 * cmax * b - slope * dy columns.
 */
struct deep_metric {
	bool stag;
	int rmax, cmax, slope;
};

static struct deep_metric deep_metric_of(enum grid_topology t)
{
	const bool stag = grid_is_staggered(t);
	return (struct deep_metric){ .stag = stag,
				     .rmax = t == GRID_DIAMOND8 ? 2 : 1,
				     .cmax = stag && t != GRID_DIAMOND4 ? 2 : 1,
				     .slope = t == GRID_SQUARE8 || t == GRID_DIAMOND4 ? 0 : 1 };
}

/* The cells x of row parity par within `reach` columns on the screen of
 * column gcol: [*lo, *hi]. */
static void deep_columns(const struct deep_metric *m, int gcol, int par, int reach, int *lo, int *hi)
{
	*lo = m->stag ? ceil_div(gcol - reach - par, 2) : gcol - reach;
	*hi = m->stag ? floor_div(gcol + reach - par, 2) : gcol + reach;
}

/* Whether more than `limit` cells of the level lie within r steps of (gx, gy). */
static bool deep_ball_over(const struct grid *gr, int gx, int gy, int r, long limit)
{
	const struct deep_metric m = deep_metric_of(gr->topo);
	const int gcol = m.stag ? 2 * gx + (gy & 1) : gx;
	long cells = 0;
	for (int y = gy - m.rmax * r; y <= gy + m.rmax * r && cells <= limit; y++) {
		if (y < 0 || y >= gr->h)
			continue;
		int lo, hi;
		deep_columns(&m, gcol, m.stag ? (y & 1) : 0, m.cmax * r - m.slope * abs(y - gy), &lo, &hi);
		lo = lo > 0 ? lo : 0;
		hi = hi < gr->w - 1 ? hi : gr->w - 1;
		cells += hi >= lo ? hi - lo + 1 : 0;
	}
	return cells > limit;
}

/* deep_nearest's cell, and in *other the fewest steps from the goal to an
 * open cell of known[] outside the player's region, when fewer than the
 * cell's (else INT_MAX or more). */
static int deep_nearest(struct deep *d, int *other)
{
	const struct grid *gr = d->grid;
	const int bw = (gr->w + DEEP_BLOCK - 1) / DEEP_BLOCK, bh = (gr->h + DEEP_BLOCK - 1) / DEEP_BLOCK;
	const uint32_t *open = open_squares(d->g); /* NULL: every square is read */
	/* Cells farther than the best found (deep_metric), a square's, a
	 * row's or a cell's, are passed over before the costly tests.
	 * (Bounding the columns by cmax * b alone, the diamond8 rooms level's
	 * clicks in its corners read every room, 10-16 ms.) */
	const struct deep_metric m = deep_metric_of(gr->topo);
	const bool stag = m.stag;
	const int rmax = m.rmax, cmax = m.cmax, slope = m.slope;
	const int gx = grid_x(gr, d->goal), gy = grid_y(gr, d->goal), gcol = stag ? 2 * gx + (gy & 1) : gx;
	const int gbx = gx / DEEP_BLOCK, gby = gy / DEEP_BLOCK;
	const int rings = bw > bh ? bw : bh;
	int best_steps = 0;
	d->best = -1;
	*other = INT_MAX;
	for (int r = 0; r <= rings; r++) {
		int near = r > 0 ? (r - 1) * DEEP_BLOCK + 1 : 0;
		if (grid_is_diamond(gr->topo))
			near /= 2;
		if (d->best >= 0 && near > best_steps)
			break;
		for (int by = gby - r; by <= gby + r; by++) {
			if (by < 0 || by >= bh)
				continue;
			const bool edge = by == gby - r || by == gby + r;
			for (int bx = gbx - r; bx <= gbx + r; bx += edge || r == 0 ? 1 : 2 * r) {
				if (bx < 0 || bx >= bw || (open && !open[by * bw + bx]))
					continue;
				const int x0 = bx * DEEP_BLOCK, y0 = by * DEEP_BLOCK;
				const int y1 = y0 + DEEP_BLOCK < gr->h ? y0 + DEEP_BLOCK : gr->h;
				const int x1 = x0 + DEEP_BLOCK < gr->w ? x0 + DEEP_BLOCK : gr->w;
				const int c0 = stag ? 2 * x0 : x0, c1 = stag ? 2 * x1 : x1; /* the square's columns */
				const int gap_rows = axis_gap(gy, y0, y1);
				if (d->best >= 0 && (gap_rows > rmax * best_steps ||
						     axis_gap(gcol, c0, c1) > cmax * best_steps - slope * gap_rows))
					continue;
				for (int y = y0; y < y1; y++) {
					const int dy = y > gy ? y - gy : gy - y, par = stag ? (y & 1) : 0;
					if (d->best >= 0 && dy > rmax * best_steps)
						continue;
					int xa = x0, xb = x1;
					if (d->best >= 0) { /* the columns within best_steps of the goal */
						int lo, hi;
						deep_columns(&m, gcol, par, cmax * best_steps - slope * dy, &lo, &hi);
						xa = lo > x0 ? lo : x0;
						xb = hi + 1 < x1 ? hi + 1 : x1;
					}
					const uint8_t *row = d->g->known + (size_t)y * (size_t)gr->w;
					for (int x = xa; x < xb; x++) {
						if (x + 8 <= xb) {
							uint64_t eight;
							memcpy(&eight, row + x, sizeof eight);
							if (eight == 0) { /* eight cells of rock */
								x += 7;
								continue;
							}
						}
						const int col = stag ? 2 * x + par : x;
						if (!row[x] || (d->best >= 0 && abs(col - gcol) > cmax * best_steps - slope * dy))
							continue;
						const int steps = grid_step_distance_xy(gr, gx, gy, x, y);
						if (d->best >= 0 && steps > best_steps)
							continue;
						if (region_of(d->labels, grid_index(gr, x, y)) == d->home)
							deep_consider(d, grid_index(gr, x, y), steps, &best_steps);
						else if (steps < *other)
							*other = steps;
					}
				}
			}
		}
	}
	return d->best;
}

static int deep_target(struct game *g, const struct grid *gr, const struct region *labels, int from, int goal,
		       const atomic_int *stop)
{
	struct deep d = { .g = g, .grid = gr, .labels = labels, .from = from, .goal = goal, .count = 1, .best = -1 };
	if (!d.labels)
		return -1;
	d.home = region_of(d.labels, from);
	/*
	 * A goal in rock: the region's nearest cell first (deep_nearest, a
	 * fraction of a ms with the squares' counts), D steps away.  Where no
	 * open cell lies within D - 2 steps of the goal, the search below
	 * crosses rock alone there, a layer a step (grid_adjacent's steps
	 * are grid_step_distance's, map edges and all), and its layers up to
	 * D - 2 meet no cell beside the region (such a cell lies D - 1 steps
	 * away or more).  So with more than DEEP_CELLS cells within D - 2
	 * steps it would end in deep_nearest's answer.  And where no open
	 * cell outside the region lies within D - 1 steps either, and at most
	 * DEEP_CELLS cells do, it walks all of layer D - 2 and finds layer
	 * D - 1 whole (rock, D - 1 steps away), beside whose cells lie all of
	 * the region's cells D steps away: its answer, the least by the
	 * straight way and then by index, is deep_nearest's too.  Either way
	 * deep_nearest answers without it (4-10 ms of a click in the rock of
	 * a 4096x4096 rooms level); between the two, or by a pocket of floor
	 * sealed off, the search runs.
	 */
	int nearest = -1, other = 0;
	const bool in_rock = !g->known[goal];
	if (in_rock) {
		nearest = deep_nearest(&d, &other);
		const int steps = nearest >= 0 ? grid_step_distance(gr, goal, nearest) : 0;
		const int gx = grid_x(gr, goal), gy = grid_y(gr, goal);
		if (nearest >= 0 &&
		    ((other >= steps - 1 && steps >= 2 && deep_ball_over(gr, gx, gy, steps - 2, DEEP_CELLS)) ||
		     (other >= steps && !deep_ball_over(gr, gx, gy, steps - 1, DEEP_CELLS))))
			return nearest;
		d.best = -1;
		d.best_score = 0;
	}
	const int list = DEEP_CELLS + GRID_MAX_NEIGHBOURS;
	if (!g->reach.deep_seen) /* pages the searches never reach are never touched */
		g->reach.deep_seen = calloc(((size_t)gr->w * (size_t)gr->h + 63) / 64, sizeof *d.seen);
	d.seen = g->reach.deep_seen;
	struct deep_cell *mem = malloc(sizeof *mem * 2 * (size_t)list);
	d.log = malloc(sizeof *d.log * ((size_t)DEEP_CELLS + 2));
	if (!mem || !d.seen || !d.log) {
		free(mem);
		free(d.log);
		return -1;
	}
	struct deep_cell *now = mem, *next = now + list;
	int n_now = 0, n_next = 0;
	/* the goal is the first layer walked: open (a pocket the known walls
	 * seal), or blocked and perhaps beside the region already */
	deep_mark(d.seen, goal);
	d.log[0] = goal;
	next[n_next++] = (struct deep_cell){ goal, grid_x(gr, goal), grid_y(gr, goal) };
	if (!g->known[goal])
		deep_beside(&d, &next[0]);
	/* A layer's blocked cells are all found while the layer before it is
	 * walked (with its open cells), so the first layer with a cell beside
	 * the player's region is whole when that walk ends. */
	bool stopped = false;
	while (d.best < 0 && d.count <= DEEP_CELLS && (n_now > 0 || n_next > 0) && !stopped) {
		if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
			stopped = true; /* a layer at a time, and every 1,024 cells of one */
			break;
		}
		struct deep_cell *t = now;
		now = next;
		next = t;
		n_now = n_next;
		n_next = 0;
		for (int i = 0; i < n_now && d.count <= DEEP_CELLS && !stopped; i++) {
			if ((i & 1023) == 1023 && stop && atomic_load_explicit(stop, memory_order_relaxed))
				stopped = true;
			const int x = now[i].cell;
			const bool x_open = g->known[x] != 0;
			struct deep_cell adj[GRID_MAX_NEIGHBOURS];
			struct grid_step legal[GRID_MAX_NEIGHBOURS];
			const int na = deep_adjacent(gr, now[i].x, now[i].y, adj);
			const int nl = x_open ? grid_neighbours(gr, x, false, legal) : 0;
			for (int j = 0; j < na && d.count <= DEEP_CELLS; j++) {
				const int y = adj[j].cell;
				const bool y_open = g->known[y] != 0;
				if (y_open && x_open) { /* a real step: the corner rule holds */
					int k = 0;
					while (k < nl && legal[k].cell != y)
						k++;
					if (k == nl)
						continue;
				}
				if (y_open && region_of(d.labels, y) == d.home)
					continue;
				if (!deep_mark(d.seen, y))
					continue;
				d.log[d.count++] = y;
				if (y_open) {
					now[n_now++] = adj[j]; /* the same layer */
				} else {
					next[n_next++] = adj[j];
					deep_beside(&d, &adj[j]);
				}
			}
		}
	}
	for (int i = 0; i < d.count; i++) /* all clear for the next click */
		d.seen[(unsigned)d.log[i] >> 6] = 0;
	free(mem);
	free(d.log);
	if (stopped)
		return -1;
	/* Past DEEP_CELLS a layer may be found only in part: its count of
	 * blocked cells is still the least, its best cell perhaps not; with
	 * no cell found, the region's nearest. */
	if (d.best >= 0 || d.count <= DEEP_CELLS)
		return d.best;
	return in_rock ? nearest : deep_nearest(&d, &other);
}

/* The dead-end trees of grid g's costs, or NULL when too few to keep
 * (their search context alone would be the level's size: *none), on no
 * memory, or once *stop (NULL: never) is set. */
static struct prune *peel(const struct grid *g, const atomic_int *stop, bool *none)
{
	struct prune *p = prune_create_until(g, false, stop);
	*none = p && prune_peeled(p) == 0; /* the peeling ended and kept none */
	if (*none) {
		prune_destroy(p);
		p = NULL;
	}
	return p;
}

/* A peeling of known[] as it was at `version`, in a thread of its own:
 * of the copy reach.shadow[slot], which no one writes until the thread is
 * joined. */
struct trees_job {
	pthread_t thread;
	int w, h;
	enum grid_topology topo;
	/* when known[] was learnt at once, its labels (stale) are lent to the
	 * thread, which relabels them over its copy first, for the plans: the
	 * main thread holds no pointer to them until labels_done, then takes
	 * them back (labels_from_job, or the join) */
	struct region *labels;
	bool lent;             /* labels lent or to be made (labels_grid): labels_back waits for them */
	const struct grid *labels_grid; /* set: a job made ahead (game_trees_ahead), which makes labels
	                         of its copy over this grid's shape itself */
	uint8_t *copy;         /* a job made ahead: known[] as a map of the level would leave it, its
	                         own (known points here), freed at the join */
	atomic_int labels_done;
	int slot;              /* the copy it reads */
	unsigned version;
	struct prune *old[3];  /* trees no longer wanted, freed by the thread (not at a key) */
	atomic_int stop;       /* set: the answer is not wanted, give up */
	atomic_int done;       /* set by the thread as it ends */
	const uint8_t *known;
	struct prune *result;
	bool none;             /* the peeling ended and kept no trees */
};

static void *trees_job_run(void *arg)
{
	struct trees_job *j = arg;
	if (j->labels) {
		/* the first click's labels, made while the player looks at the
		 * map (12-25 ms on 4096x4096), in their own resident memory */
		region_retarget(j->labels, j->known);
		region_mark_stale(j->labels);
		region_refresh(j->labels); /* no memory: left stale, the plan labels anew */
		atomic_store_explicit(&j->labels_done, 1, memory_order_release);
	}
	for (int i = 0; i < 3; i++)
		prune_destroy(j->old[i]);
	struct grid *k = grid_create(j->w, j->h, j->topo);
	if (k) {
		const uint8_t *own = k->cost;
		k->cost = j->known; /* as the plans point the level's grid at known[] */
		j->result = peel(k, &j->stop, &j->none);
		if (atomic_load(&j->stop)) { /* no longer wanted: freed here, not by the key that joins it */
			prune_destroy(j->result);
			j->result = NULL;
		}
		k->cost = own; /* kept trees hold copies of their own */
		grid_destroy(k);
	}
	if (j->labels_grid) {
		/* made ahead, with trees kept (a maze): the labels of the copy
		 * too, their memory resident (a first touch is a click's
		 * wait); with none, the map's own thread relabels the
		 * player's, in 12-25 ms on 4096x4096, without another 64 MiB */
		if (j->result)
			j->labels = region_create_over(j->labels_grid, j->known, false);
		region_prefault(j->labels);
		atomic_store_explicit(&j->labels_done, 1, memory_order_release);
	}
	atomic_store(&j->done, 1);
	return NULL;
}

static bool trees_current(const struct reach *m, unsigned version)
{
	return m->trees_ok && m->trees_version == version;
}

/*
 * The labels lent to thread j, back (once it has made them, waiting if it
 * is at them: a few ms, they come before the peeling), pointed at known[]:
 * current when they are of known[] as it is now and the thread was not
 * told to stop (a restore, a level left, known[] changed since), else
 * stale, to be labelled again.  The same labels a relabelling here would
 * make, a function of known[] alone, so no answer depends on which made
 * them.
 */
static void labels_back(struct game *g, struct trees_job *j)
{
	struct reach *m = &g->reach;
	if (!j || !j->lent)
		return;
	while (!atomic_load_explicit(&j->labels_done, memory_order_acquire))
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
	struct region *r = j->labels;
	j->labels = NULL;
	j->lent = false;
	if (!r) /* made ahead: none (no trees kept), or no memory */
		return;
	if (m->labels && j->labels_grid) { /* made ahead: they replace the player's, stale */
		region_destroy(m->labels);
		m->labels = NULL;
	} else if (m->labels) { /* never expected: the plans wait for these */
		region_destroy(r);
		return;
	}
	m->labels = r;
	region_retarget(r, g->known);
	const bool current = !atomic_load(&j->stop) && j->version == g->known_version && !region_stale(r);
	m->labels_ok = current;
	m->labels_version = j->version;
}

static void labels_from_job(struct game *g)
{
	labels_back(g, g->reach.stopping);
	labels_back(g, g->reach.job);
}

/* Joins thread j (told to stop unless its answer is wanted): a peeling of
 * known[] as it is now becomes the trees; any other answer is freed, or
 * handed back in *stale for the next thread to free.  A peeling of an
 * older known[] that kept no trees ends the following (caves explored
 * turn by turn would otherwise be peeled in vain each turn). */
static void trees_job_join(struct game *g, struct trees_job *j, struct prune **stale)
{
	struct reach *m = &g->reach;
	pthread_join(j->thread, NULL);
	labels_back(g, j);
	if (!atomic_load(&j->stop) && j->version == g->known_version) {
		prune_destroy(m->trees);
		m->trees = j->result;
		m->trees_version = j->version;
		m->trees_ok = true;
		m->trees_follow = j->result != NULL;
	} else {
		if (j->none)
			m->trees_follow = false;
		if (stale && !*stale)
			*stale = j->result;
		else
			prune_destroy(j->result);
	}
	free(j->copy);
	free(j);
}

/*
 * The threads, at a turn's end (wait false) or when a far click needs the
 * trees, a restore, the game's end (wait true).  The newest thread, once it
 * peels a known[] that changed since, is told to stop and becomes the
 * stopping one, whose copy of known[] stays its own until it has stopped;
 * a thread that is done is joined.  With `wait` both are joined (a stale
 * one stops within a few ms).  Answers not used go to *stale (at most two;
 * NULL: freed here).
 */
static void trees_jobs_reap(struct game *g, bool wait, struct prune *stale[2])
{
	struct reach *m = &g->reach;
	if (m->stopping && (wait || atomic_load(&m->stopping->done))) {
		trees_job_join(g, m->stopping, stale ? &stale[0] : NULL);
		m->stopping = NULL;
	}
	struct trees_job *j = m->job;
	if (!j)
		return;
	if (j->version != g->known_version)
		atomic_store(&j->stop, 1);
	if (wait || atomic_load(&j->done)) {
		m->job = NULL;
		trees_job_join(g, j, stale ? &stale[1] : NULL);
	} else if (atomic_load(&j->stop) && !m->stopping) {
		m->stopping = j;
		m->job = NULL;
	}
}

/* The threads' copies of known[] and the log, gone (no thread running). */
static void shadow_free(struct reach *m)
{
	for (int i = 0; i < 2; i++) {
		free(m->shadow[i]);
		m->shadow[i] = NULL;
		m->shadow_ok[i] = false;
	}
	free(m->log);
	m->log = NULL;
	m->log_len = 0;
	m->log_lost = false;
}

/*
 * known[] into the copy reach.shadow[x] (no thread reading it): the cells
 * logged since its version, or the whole map when the log does not hold
 * every change since.  The log then starts again from the other copy's
 * version (the next thread may read that one: a stopping thread holds
 * this one), or from now when that copy cannot be brought up by it.
 */
static bool shadow_sync(struct game *g, int x)
{
	struct reach *m = &g->reach;
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	if (!m->log && !(m->log = malloc(TREES_LOG * sizeof *m->log)))
		return false;
	if (!m->shadow[x]) {
		if (!(m->shadow[x] = malloc(n)))
			return false;
		m->shadow_ok[x] = false;
	}
	/* known[] changes cell by cell through game_known_changed, one
	 * version each, logged; whatever else writes it (a map learnt at
	 * once, a restore) leaves the count unequal */
	const unsigned now = g->known_version;
	const bool log_whole = !m->log_lost && now - m->log_base == (unsigned)m->log_len;
	const unsigned from = m->shadow_version[x] - m->log_base;
	if (m->shadow_ok[x] && log_whole && from <= (unsigned)m->log_len) {
		for (int i = (int)from; i < m->log_len; i++)
			m->shadow[x][m->log[i]] = g->known[m->log[i]];
	} else {
		memcpy(m->shadow[x], g->known, n);
	}
	m->shadow_version[x] = now;
	m->shadow_ok[x] = true;
	const int y = 1 - x;
	const unsigned keep = m->shadow_version[y] - m->log_base;
	if (m->shadow_ok[y] && log_whole && keep <= (unsigned)m->log_len) {
		memmove(m->log, m->log + keep, (size_t)(m->log_len - (int)keep) * sizeof *m->log);
		m->log_len -= (int)keep;
		m->log_base = m->shadow_version[y];
	} else {
		m->shadow_ok[y] = false;
		m->log_len = 0;
		m->log_base = now;
	}
	m->log_lost = false;
	return true;
}

/* A thread for known[] as it is now (no newest one; a stopping one keeps
 * its copy); the trees before it, no longer current, and the stale
 * answers are freed by it. */
static void trees_job_launch(struct game *g, struct prune *stale[2], bool labels)
{
	struct reach *m = &g->reach;
	/* the copy the stopping thread does not read, else the newer */
	const int x = m->stopping ? 1 - m->stopping->slot
				  : m->shadow_ok[1] && (!m->shadow_ok[0] || m->shadow_version[1] - m->shadow_version[0] <
								   m->shadow_version[0] - m->shadow_version[1]);
	struct trees_job *j = calloc(1, sizeof *j);
	if (!j || !shadow_sync(g, x)) {
		free(j);
		for (int i = 0; i < 2; i++)
			prune_destroy(stale[i]);
		return; /* the first plan that needs them peels them */
	}
	*j = (struct trees_job){ .w = g->grid->w, .h = g->grid->h, .topo = g->grid->topo, .slot = x,
				 .version = g->known_version, .old = { stale[0], stale[1], NULL },
				 .known = m->shadow[x] };
	atomic_init(&j->labels_done, 0);
	atomic_init(&j->stop, 0);
	atomic_init(&j->done, 0);
	if (!trees_current(m, g->known_version)) {
		j->old[2] = m->trees;
		m->trees = NULL;
		m->trees_ok = false;
	}
	if (labels && m->labels && !(m->labels_ok && m->labels_version == g->known_version)) {
		j->labels = m->labels; /* lent (labels_back) */
		j->lent = true;
		m->labels = NULL;
		m->labels_ok = false;
	}
	if (pthread_create(&j->thread, NULL, trees_job_run, j) != 0) {
		if (j->labels) {
			m->labels = j->labels;
			region_retarget(m->labels, g->known);
		}
		for (int i = 0; i < 3; i++)
			prune_destroy(j->old[i]);
		free(j);
		return;
	}
	m->job = j;
}

bool game_travel_busy(const struct game *g)
{
	const struct trees_job *j = g->reach.job;
	return j && !atomic_load(&j->done);
}

/* The job made ahead, ended: told to stop and joined (a few ms, or the
 * rest of its labelling), its work freed. */
static void ahead_drop(struct game *g)
{
	struct trees_job *j = g->reach.ahead;
	if (!j)
		return;
	g->reach.ahead = NULL;
	atomic_store(&j->stop, 1);
	pthread_join(j->thread, NULL);
	region_destroy(j->labels);
	prune_destroy(j->result);
	free(j->copy);
	free(j);
}

void game_trees_drop(struct game *g)
{
	struct reach *m = &g->reach;
	ahead_drop(g);
	if (m->job)
		atomic_store(&m->job->stop, 1);
	trees_jobs_reap(g, true, NULL);
	shadow_free(m);
	m->trees_follow = false;
}

/*
 * A thread for known[] as it is now unless one is at it, the trees are
 * current, or the level is one a plan searches whole: at a turn's end
 * while the trees are followed, and when the map is learnt (`learnt`).
 */
static void trees_refresh(struct game *g, bool learnt)
{
	struct reach *m = &g->reach;
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	if ((long)n <= m->whole_region || (!m->trees_follow && !learnt && !m->job && !m->stopping))
		return;
	struct prune *stale[2] = { NULL, NULL };
	trees_jobs_reap(g, false, stale);
	if (learnt)
		m->trees_follow = true;
	if (m->job || !m->trees_follow || trees_current(m, g->known_version)) {
		for (int i = 0; i < 2; i++)
			prune_destroy(stale[i]);
		return;
	}
	trees_job_launch(g, stale, learnt);
}

/*
 * Made ahead: the trees and labels of known[] as a map of the whole level
 * would leave it (every cell but the void at its true cost, as
 * game_map_level writes it), peeled in a thread when a level larger than a
 * plan searches whole begins for a person (game_trees_ahead).  When the
 * map is then learnt and known[] is that copy to the byte (nothing on the
 * level changed since: no door, no wall dug), the job is the peeling of
 * known[] as it is, begun long before: the first far click on a mapped
 * 4096x4096 maze finds its trees made instead of waiting half a second
 * for them.  Otherwise it is dropped and the map's own thread peels.
 * Either way the trees and labels a plan uses are a function of known[]
 * alone, as before.
 */
void game_trees_ahead(struct game *g)
{
	struct reach *m = &g->reach;
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	if ((long)n <= m->whole_region || m->ahead)
		return;
	uint8_t *copy = malloc(n);
	struct trees_job *j = copy ? calloc(1, sizeof *j) : NULL;
	if (!j) {
		free(copy);
		return;
	}
	const uint8_t *tiles = g->tiles, *cost = g->grid->cost, *known = g->known;
	uint8_t differs = 0; /* without branches, so the compiler makes it word-wide */
	for (size_t c = 0; c < n; c++) {
		const uint8_t keep = (uint8_t)-(uint8_t)(tiles[c] == TILE_VOID);
		copy[c] = (uint8_t)((cost[c] & ~keep) | (known[c] & keep));
		differs |= (uint8_t)(copy[c] ^ known[c]);
	}
	if (!differs) { /* known already: a resumed mapped level, which game_trees_start peels */
		free(copy);
		free(j);
		return;
	}
	*j = (struct trees_job){ .w = g->grid->w, .h = g->grid->h, .topo = g->grid->topo, .slot = -1,
				 .lent = true, .labels_grid = g->grid, .copy = copy, .known = copy };
	atomic_init(&j->labels_done, 0);
	atomic_init(&j->stop, 0);
	atomic_init(&j->done, 0);
	if (pthread_create(&j->thread, NULL, trees_job_run, j) != 0) {
		free(copy);
		free(j);
		return;
	}
	m->ahead = j;
}

/* At a map learnt: the job made ahead as the thread of known[] as it is
 * now, when known[] is its copy (true); else it is dropped (false). */
static bool ahead_take(struct game *g)
{
	struct reach *m = &g->reach;
	struct trees_job *j = m->ahead;
	if (!j)
		return false;
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	/* not known[] (the level changed since, or the map was in part), or
	 * done and kept no trees (caves, rooms): the map's own thread, as
	 * without it */
	if (memcmp(j->copy, g->known, n) != 0 || (atomic_load(&j->done) && !j->result)) {
		ahead_drop(g);
		return false;
	}
	m->ahead = NULL;
	/* the threads before it, of a known[] now gone, out of its way */
	struct prune *stale[2] = { NULL, NULL };
	trees_jobs_reap(g, false, stale);
	if (m->job)
		trees_jobs_reap(g, true, NULL);
	for (int i = 0; i < 2; i++)
		prune_destroy(stale[i]);
	labels_from_job(g);
	m->labels_ok = false; /* stale: the job's take their place (labels_back), else relabelled */
	prune_destroy(m->trees);
	m->trees = NULL;
	m->trees_ok = false;
	j->version = g->known_version;
	m->job = j;
	m->trees_follow = true;
	return true;
}

/*
 * After much of known[] was learnt at once (a scroll of magic mapping), on
 * a level larger than a plan searches whole: the trees peeled in a thread,
 * from a copy of known[], while the player looks at the map.  A plan that
 * needs them first waits for the thread; what it gets is what it would
 * have peeled itself (the same function of known[]: no answer depends on
 * when the thread ran), and when known[] changed since, it peels anew.
 * They are followed from then on (game_trees_follow) until a peeling of
 * known[] keeps none.
 */
void game_trees_start(struct game *g)
{
	if (!ahead_take(g))
		trees_refresh(g, true);
}

/*
 * At the end of each turn: while the trees are followed (the last peeling
 * kept them: a large maze), a known[] changed by the turn (a wall seen
 * while exploring, one dug) is peeled again in a thread, so that a far
 * click a moment later finds its trees made rather than peeling them
 * itself (on a mapped 4096x4096 maze 0.3 s).  A thread peeling a known[]
 * that changed since is told to stop, and the turn starts another on the
 * other copy of known[]: while the player walks, a thread at work and one
 * stopping at most.  The click takes a thread's answer only when it is of
 * known[] as it is (known_trees).  The key pays for the cells changed
 * since that copy's last thread and the thread's start; the old trees
 * are freed by the thread.
 */
void game_trees_follow(struct game *g)
{
	trees_refresh(g, false);
}

/*
 * The dead-end trees of known[] (prune.h), peeled at most once per
 * known_version: NULL when they hold too few of its cells to keep (open
 * ground, caves, rooms: 12-15 ms to find so on 4096x4096, its bit rows
 * packed from known[]) or on no memory.  A maze's trees are most of it (a
 * mapped 2048x2048 maze: 80 ms to peel, then a few ms a far route), so
 * game_trees_start peels them in a thread when the map is learnt, and
 * game_trees_follow after each turn that changes it.  They are a function
 * of known[] alone, so a replay or a resume, which peels them when its
 * first far plan asks, plans the same routes.
 */
static struct prune *known_trees(struct game *g)
{
	struct reach *m = &g->reach;
	trees_jobs_reap(g, true, NULL);
	if (trees_current(m, g->known_version))
		return m->trees;
	prune_destroy(m->trees);
	const uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	bool none;
	struct prune *p = peel(g->grid, NULL, &none);
	g->grid->cost = truth;
	m->trees = p;
	m->trees_version = g->known_version;
	m->trees_ok = true;
	m->trees_follow = p != NULL;
	return p;
}

/*
 * A reachable goal the budget could not reach (rules 13): through the
 * dead-end trees of known[] when they are kept.  A tree's route is the
 * only one there is and the cells left between the trees (the core) are
 * searched alone, within the budget: at weight 1, so a maze's far click
 * gets its shortest route at once, where the weighted searches of the
 * whole map ran out of budget in its dead ends and their partial routes
 * led into them.  A core too large for that (a maze with many loops) gets
 * the far weights in turn, and failing those the last one's partial route,
 * which ends on the core (prune_find): walked, and planned on where it
 * ends, never into a dead end.  PATH_NO_ROUTE (r untouched) when there
 * are no trees to go by.
 */
static enum path_status plan_trees(struct game *g, int from, int goal, struct path_result *r, long *spent)
{
	struct prune *p = known_trees(g);
	if (!p)
		return PATH_NO_ROUTE;
	enum path_status st = PATH_NO_ROUTE;
	struct path_result t;
	for (size_t k = 0; k <= sizeof FAR_WEIGHTS / sizeof FAR_WEIGHTS[0]; k++) {
		struct path_options opt = path_options_default();
		opt.weight = k ? FAR_WEIGHTS[k - 1] : 1.0;
		opt.budget = TRAVEL_BUDGET;
		st = prune_find(p, from, goal, &opt, &t);
		*spent += t.expanded;
		g->reach.weight = opt.weight;
		if (st != PATH_BUDGET)
			break;
	}
	if (st != PATH_FOUND && st != PATH_BUDGET) {
		g->reach.weight = 1.0;
		return PATH_NO_ROUTE; /* cannot be: the labels put the goal in the player's region */
	}
	*r = t;
	return st;
}

/* A reachable goal the budget could not reach: its trees, else the far
 * weights in turn. */
static enum path_status plan_far(struct game *g, int from, int goal, struct path_result *r)
{
	long spent = r->expanded;
	enum path_status st = plan_trees(g, from, goal, r, &spent);
	if (st != PATH_NO_ROUTE) {
		g->reach.expanded = spent;
		return st;
	}
	for (size_t k = 0; k < sizeof FAR_WEIGHTS / sizeof FAR_WEIGHTS[0]; k++) {
		const struct path_options opt = far_options(k);
		st = find_over_known(g, from, goal, &opt, r);
		spent += r->expanded;
		g->reach.weight = FAR_WEIGHTS[k];
		if (st != PATH_BUDGET)
			break;
	}
	g->reach.expanded = spent;
	return st;
}

/*
 * The side search.  A far click on a level larger than a plan searches
 * whole climbs a ladder of searches, each of its own budget, and takes
 * the first rung that finds its goal: the shortest way (weight 1), then
 * FAR_WEIGHTS in turn (after the trees of known[] where they are kept:
 * plan_far).  For a goal out of reach the ladder's goal is deep_target's
 * cut point, and the fallback's own search comes first.  On the slowest
 * clicks of the 4096x4096 rooms levels every rung below 1.5 runs out:
 * the fallback's 2-23 ms, the shortest way 8-10 ms, 1.15 12-15 ms, then
 * 1.5 finds in 1-7.  No rung's answer depends on another's, so a thread
 * beside the key's climbs with it: from the click on, on a search context
 * of its own and a grid of its own whose costs are known[] (the level's
 * one grid has its costs pointed at known[] by the key's searches, query
 * by query), it finds the cut point and takes the rungs in order, as the
 * key does once its first search has run out; whichever finishes a rung
 * takes the next one not yet taken, below the lowest found so far.  The
 * answer is the lowest rung found once every rung below it has run out
 * (or the last rung's partial route when all ran out), with the
 * expansions of the rungs up to it: what the key alone finds, climbing
 * in turn (the same searches of the same known[], labels and budgets),
 * whoever ran each rung and whenever, so a replay or a resume walks the
 * same routes; only the wait is shorter, where a second core is free.
 * Where known[] may keep trees (not peeled since it changed), the key
 * asks them once the shortest way has run out, as plan_far does, the
 * weights climbed meanwhile but taken only when the trees have no
 * answer; where it is known to keep some, no weight is climbed ahead.
 * A rung no longer wanted
 * is told to stop (path_options.stop), and the key waits for the side
 * to end its part before the click returns: nothing of a click runs
 * after it.  The thread itself waits for the next click.
 */
#define RUNGS (1 + (int)(sizeof FAR_WEIGHTS / sizeof FAR_WEIGHTS[0]))
#define END_UNKNOWN (-2)

struct rung {
	bool done;
	enum path_status st;
	struct path_result r; /* cells in the context of the thread that ran it */
};

struct side {
	struct grid view;         /* the level's grid, its costs known[] */
	struct path_ctx *ctx;     /* the side's context, the level's size */
	pthread_t thread;
	bool running;             /* the thread started (it lasts as long as the level) */
	pthread_t prefault;       /* game_side_prefault's, making ctx resident ... */
	bool prefaulting;         /* ... started and not yet joined */
	pthread_mutex_t lock;
	pthread_cond_t moved;
	atomic_int stop;          /* the side's rung (or deep_target) is not wanted */
	atomic_int key_stop;      /* the key's rung is not wanted */
	struct game *g;           /* the level's game, and view.cost its known[] (side_make) */
	/* the click's, set by side_begin while the thread waits for it */
	const struct region *labels;
	int from, goal;
	bool cut;                 /* the goal is out of reach: the ladder climbs to the cut point */
	/* under lock */
	int end;                  /* the ladder's goal; END_UNKNOWN while deep_target runs; -1 none */
	bool weights;             /* rungs past the first may be taken (known[] is not known to keep trees) */
	bool trees_settled;       /* the trees have no answer: known[] keeps none, or asked in vain */
	unsigned clicks, clicks_done; /* the clicks begun, and those the thread has ended */
	bool working;             /* the thread has begun this click's work (past its hold) */
	bool exit;                /* the thread ends (the level's end) */
	bool quit;                /* the side takes no more rungs of this click */
	bool needed;              /* the key's first search ran out: the side starts at once */
	int next;                 /* the next rung not yet taken */
	int found;                /* the lowest rung found so far; RUNGS none */
	int side_rung;            /* the rung the side runs; -1 none */
	int key_rung;             /* the rung the key runs; -1 none */
	long side_rungs;          /* the rungs the side ran to their end in this click */
	struct rung rung[RUNGS];
};

/* Rung i's search: plan_known's for the shortest way, else FAR_WEIGHTS[i - 1]'s. */
static struct path_options rung_options(const struct side *s, int i, const atomic_int *stop)
{
	/* TRAVEL_BUDGET: travel_budget's, on the levels with a side */
	struct path_options opt = i == 0 ? known_options(s->labels, TRAVEL_BUDGET) : far_options((size_t)i - 1);
	opt.stop = stop;
	return opt;
}

/* The next rung wanted and not yet taken, taken (under lock); -1 none now. */
static int rung_take(struct side *s)
{
	if (s->quit || s->end < 0 || s->next >= RUNGS || s->next >= s->found || (s->next > 0 && !s->weights))
		return -1;
	return s->next++;
}

/* Rung i's answer (under lock); a rung run above the lowest found is
 * told to stop. */
static void rung_record(struct side *s, int i, enum path_status st, const struct path_result *r)
{
	s->rung[i] = (struct rung){ .done = true, .st = st, .r = *r };
	if (st != PATH_BUDGET && i < s->found) {
		s->found = i;
		if (s->side_rung > i)
			atomic_store(&s->stop, 1);
		if (s->key_rung > i)
			atomic_store(&s->key_stop, 1);
	}
	pthread_cond_broadcast(&s->moved);
}

/* Whether the answer is known (under lock): a rung found with every rung
 * below it run out, or the last rung run out; past the first, with the
 * trees settled. */
static bool ladder_decided(const struct side *s)
{
	const int last = s->found < RUNGS ? s->found : RUNGS - 1;
	for (int i = 0; i <= last; i++)
		if (!s->rung[i].done)
			return false;
	return s->found == 0 || s->trees_settled;
}

/* How long the side waits before it climbs, unless the key's first search
 * runs out first: most clicks are answered by that search within it
 * (0.3-0.4 ms on the 4096x4096 rooms levels unmapped), and a side that
 * had begun at once made them 0.3 ms slower, the key's wait for its
 * first rung to stop; one that runs out takes 2-23 ms. */
#define SIDE_HOLD_NS 1000000L

/* Until `until` (under lock), or until the key needs the side or the click ends. */
static void side_hold(struct side *s)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += SIDE_HOLD_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!s->quit && !s->needed && pthread_cond_timedwait(&s->moved, &s->lock, &until) == 0)
		;
}

/* One click's climb on the side (under lock, which it gives up while it searches). */
static void side_click(struct side *s)
{
	side_hold(s);
	if (!s->quit)
		s->working = true;
	while (!s->quit) {
		if (s->end == END_UNKNOWN) {
			pthread_mutex_unlock(&s->lock);
			const int end = deep_target(s->g, &s->view, s->labels, s->from, s->goal, &s->stop);
			pthread_mutex_lock(&s->lock);
			s->end = end;
			pthread_cond_broadcast(&s->moved);
			continue;
		}
		const int i = rung_take(s);
		if (i < 0) {
			pthread_cond_wait(&s->moved, &s->lock);
			continue;
		}
		s->side_rung = i;
		atomic_store(&s->stop, 0);
		pthread_mutex_unlock(&s->lock);
		const struct path_options opt = rung_options(s, i, &s->stop);
		struct path_result r;
		const enum path_status st = path_find(s->ctx, s->from, s->end, &opt, &r);
		pthread_mutex_lock(&s->lock);
		s->side_rung = -1;
		if (!atomic_load(&s->stop)) {
			rung_record(s, i, st, &r);
			s->side_rungs++;
		}
	}
}

/* The side's thread, the level's while it lasts: a click at a time (a
 * thread made and joined at each click cost 0.2 ms of the key's). */
static void *side_run(void *arg)
{
	struct side *s = arg;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->exit && s->clicks_done == s->clicks)
			pthread_cond_wait(&s->moved, &s->lock);
		if (s->exit)
			break;
		side_click(s);
		s->clicks_done = s->clicks;
		pthread_cond_broadcast(&s->moved);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Whether a click from `from` gets the side search: not turned off (one
 * core: reach.side_off), a level whose player's region is larger than a
 * plan searches whole (so the first search may run out), and the labels
 * current (made so here: the key's searches then only read them, and
 * deep_target's too). */
static bool side_wanted(struct game *g, int from)
{
	return !g->reach.side_off && known_labels(g) && travel_budget(g, from) == TRAVEL_BUDGET;
}

/* The side's context, made at its first use. */
static struct side *side_make(struct game *g)
{
	struct side *s = g->reach.side;
	if (s)
		return s;
	s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->g = g;
	s->view = *g->grid;
	s->view.cost = g->known; /* the level's for its whole life */
	s->ctx = path_create(&s->view);
	if (!s->ctx || pthread_mutex_init(&s->lock, NULL) != 0) {
		path_destroy(s->ctx);
		free(s);
		return NULL;
	}
	pthread_condattr_t attr; /* side_run's hold is timed by CLOCK_MONOTONIC */
	bool made = false;
	if (pthread_condattr_init(&attr) == 0) {
		made = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
		       pthread_cond_init(&s->moved, &attr) == 0;
		pthread_condattr_destroy(&attr);
	}
	if (!made) {
		pthread_mutex_destroy(&s->lock);
		path_destroy(s->ctx);
		free(s);
		return NULL;
	}
	g->reach.side = s;
	return s;
}

/* The side begun on a click to `goal` (cut: out of reach, the ladder's
 * goal found by deep_target; else `goal` itself, the key running the
 * first rung as its first search); NULL when it is not to be had. */
static struct side *side_begin(struct game *g, int from, int goal, bool cut)
{
	struct side *s = side_make(g);
	if (!s)
		return NULL;
	if (s->prefaulting) { /* a click in the level's first moments waits for the rest */
		pthread_join(s->prefault, NULL);
		s->prefaulting = false;
	}
	if (!s->running) {
		s->running = pthread_create(&s->thread, NULL, side_run, s) == 0;
		if (!s->running)
			return NULL;
	}
	pthread_mutex_lock(&s->lock);
	while (s->clicks_done != s->clicks) /* a click ended while the thread held: it lets go */
		pthread_cond_wait(&s->moved, &s->lock);
	s->working = false;
	s->labels = known_labels(g);
	s->from = from;
	s->goal = goal;
	s->cut = cut;
	s->end = cut ? END_UNKNOWN : goal;
	const bool peeled = trees_current(&g->reach, g->known_version);
	s->weights = !(peeled && g->reach.trees);
	s->trees_settled = peeled && !g->reach.trees;
	s->quit = false;
	s->needed = false;
	s->next = cut ? 0 : 1;
	s->found = RUNGS;
	s->side_rung = -1;
	s->key_rung = -1;
	s->side_rungs = 0;
	for (int i = 0; i < RUNGS; i++)
		s->rung[i].done = false;
	atomic_store(&s->stop, 0);
	const bool climb = cut || s->weights; /* else nothing to climb beside the key's first search */
	if (climb) {
		s->clicks++;
		pthread_cond_broadcast(&s->moved);
	}
	pthread_mutex_unlock(&s->lock);
	return climb ? s : NULL;
}

/* The click's end for the side: it takes no more rungs, its search is
 * told to stop, and the key waits for it when it is at work (a side still
 * in its hold only lets go). */
static void side_end(struct side *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->quit = true;
	atomic_store(&s->stop, 1); /* deep_target's, or a rung past the answer */
	pthread_cond_broadcast(&s->moved);
	/* a thread still in its hold does nothing more of the click (it
	 * reads quit under the lock and lets go); one at work is waited for */
	while (s->working && s->clicks_done != s->clicks)
		pthread_cond_wait(&s->moved, &s->lock);
	s->g->reach.side_rungs = s->side_rungs;
	pthread_mutex_unlock(&s->lock);
}

static void *side_prefault_run(void *arg)
{
	path_prefault(arg);
	return NULL;
}

/* The side's context made resident in a thread of its own (268 MB on
 * 4096x4096: 60-460 ms that the key would otherwise spend after the
 * level's first frame), which the first click to use it joins. */
void game_side_prefault(struct game *g)
{
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	if ((long)n <= g->reach.whole_region || g->reach.side_off)
		return;
	struct side *s = side_make(g);
	if (!s || s->prefaulting)
		return;
	s->prefaulting = pthread_create(&s->prefault, NULL, side_prefault_run, s->ctx) == 0;
	if (!s->prefaulting)
		path_prefault(s->ctx);
}

void game_side_free(struct game *g)
{
	struct side *s = g->reach.side;
	if (!s)
		return;
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->exit = true;
		pthread_cond_broadcast(&s->moved);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
	}
	if (s->prefaulting)
		pthread_join(s->prefault, NULL);
	pthread_cond_destroy(&s->moved);
	pthread_mutex_destroy(&s->lock);
	path_destroy(s->ctx);
	free(s);
	g->reach.side = NULL;
}

/*
 * The key's part of the climb, after its first search ran out (`first`,
 * rung 0 itself when the goal is reachable): rungs taken in turn beside
 * the side's, the trees asked when they may be kept, until the answer is
 * decided.  *end: the ladder's goal (-1: no cut point: the caller plans
 * as without one).  Sets reach.expanded to the rungs' expansions (and the
 * trees') and reach.weight as plan_far does.
 */
static enum path_status side_climb(struct game *g, struct side *s, const struct path_result *first,
				   struct path_result *out, int *end)
{
	pthread_mutex_lock(&s->lock);
	s->needed = true;
	pthread_cond_broadcast(&s->moved);
	if (!s->cut)
		rung_record(s, 0, PATH_BUDGET, first);
	while (s->end == END_UNKNOWN)
		pthread_cond_wait(&s->moved, &s->lock);
	*end = s->end;
	long trees_spent = 0;
	enum path_status st = PATH_NO_ROUTE;
	while (*end >= 0 && !ladder_decided(s)) {
		if (!s->trees_settled && s->rung[0].done && s->rung[0].st == PATH_BUDGET) {
			/* plan_far's order: the trees of known[] before the weights */
			pthread_mutex_unlock(&s->lock);
			st = plan_trees(g, s->from, s->end, out, &trees_spent);
			pthread_mutex_lock(&s->lock);
			if (st != PATH_NO_ROUTE)
				break;
			s->trees_settled = true;
			s->weights = true;
			pthread_cond_broadcast(&s->moved);
			continue;
		}
		const int i = rung_take(s);
		if (i >= 0) {
			s->key_rung = i;
			atomic_store(&s->key_stop, 0);
			pthread_mutex_unlock(&s->lock);
			const struct path_options opt = rung_options(s, i, &s->key_stop);
			struct path_result r;
			const enum path_status rs = find_over_known(g, s->from, s->end, &opt, &r);
			pthread_mutex_lock(&s->lock);
			s->key_rung = -1;
			if (!atomic_load(&s->key_stop))
				rung_record(s, i, rs, &r);
			continue;
		}
		pthread_cond_wait(&s->moved, &s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	side_end(s);
	if (*end < 0)
		return PATH_NO_ROUTE;
	long spent = trees_spent;
	if (st != PATH_NO_ROUTE) { /* the trees' answer, after the shortest way ran out */
		spent += s->rung[0].r.expanded;
	} else {
		const int last = s->found < RUNGS ? s->found : RUNGS - 1;
		for (int i = 0; i <= last; i++)
			spent += s->rung[i].r.expanded;
		*out = s->rung[last].r;
		st = s->rung[last].st;
		if (last > 0)
			g->reach.weight = FAR_WEIGHTS[last - 1];
	}
	g->reach.expanded = spent;
	return st;
}

/*
 * A goal out of reach whose fallback search runs out of budget (a goal two
 * or more blocked cells away is answered by path.c's fallback_deep within
 * the budget, or not at all: PATH_BUDGET with the start alone) walks to
 * deep_target's cut point.  Where the side search pays, the ladder is
 * climbed beside the first search (the side search, above).
 */
static enum path_status plan_travel(struct game *g, int from, int goal, struct path_result *r)
{
	const bool reachable = known_reachable(g, from, goal);
	struct side *side = side_wanted(g, from) ? side_begin(g, from, goal, !reachable) : NULL;
	/* Out of budget, its partial route is not walked: a goal the player
	 * can reach gets plan_far's, one out of reach deep_target's.  So a
	 * goal one wall away whose search ran out is not searched again by
	 * the layered search for a partial route (near_only: 11-14 ms of the
	 * slowest clicks on the 4096x4096 diamond8 rooms level). */
	enum path_status st = plan_known_budget(g, from, goal, travel_budget(g, from), true, r);
	if (st != PATH_BUDGET) {
		side_end(side);
		return st;
	}
	const long spent = r->expanded;
	struct path_result e;
	enum path_status est = PATH_BAD_INPUT;
	int end = goal;
	if (side) {
		est = side_climb(g, side, r, &e, &end);
		if (reachable) {
			*r = e;
			return est;
		}
	} else if (reachable) {
		return plan_far(g, from, goal, r);
	} else {
		struct grid view = *g->grid;
		view.cost = g->known;
		end = deep_target(g, &view, known_labels(g), from, goal, NULL);
		if (end >= 0) {
			est = plan_known(g, from, end, &e);
			if (est == PATH_BUDGET)
				est = plan_far(g, from, end, &e);
		}
	}
	if (end < 0) /* no memory: the budget's partial route, as before */
		return plan_known(g, from, goal, r);
	g->reach.out_of_reach = true;
	g->reach.expanded += spent;
	*r = e;
	return est == PATH_FOUND ? PATH_FALLBACK : est; /* PATH_BAD_INPUT: no memory */
}

enum path_status game_travel_exact(struct game *g, int x, int y, long *expanded, int *len)
{
	grid_clamp(g->grid, &x, &y);
	struct path_result r;
	const enum path_status st = plan_known_budget(g, player_cell(g), cell_of(g, x, y), 0, false, &r);
	*expanded = r.expanded;
	*len = r.len;
	return st;
}

bool game_travel_room(struct game *g, int len)
{
	struct travel *t = &g->travel;
	if (len <= t->room)
		return true;
	if (len > t->cap)
		return false;
	int room = t->room > 0 ? t->room : 256;
	while (room < len)
		room = room > t->cap / 2 ? t->cap : 2 * room;
	int *cells = realloc(t->cells, (size_t)room * sizeof *cells);
	if (!cells)
		return false;
	t->cells = cells;
	t->room = room;
	return true;
}

static void travel_stop(struct game *g, enum travel_stop why)
{
	g->travel.active = false;
	g->travel.stopped = why;
}

void game_travel_cancel(struct game *g)
{
	if (g->travel.active)
		travel_stop(g, TRAVEL_INTERRUPTED);
}

/*
 * The player's distance map.  Every cursor move and click plans from the
 * same cell over the same knowledge until the player moves or sees
 * something new, so one Dijkstra flood over known[] from the player, out
 * to REACH_COST (64: most of an 80x24 screen around the player; on open
 * ground about 3.3 * 64^2 = 13,500 cells on square8, fewer elsewhere,
 * a fifth of the travel budget), is made on the first
 * plan of such a state and answers the later ones near the player at
 * once, most usefully a click on a known wall, which the bounded search
 * can only answer by exhausting its budget.
 *
 * The flood runs on a window of known[] around the player, not on the
 * level.  Every step costs at least 1, so a cell it settles (cost at most
 * REACH_COST) is at most REACH_COST steps from the player, and so is every
 * cell it settles from and every cell the corner rule asks about for a
 * step between two of them (a flank is one step from the cell the step
 * leaves, which is settled at a cost below REACH_COST - 1).  One step moves
 * at most one column and one row, but a diamond8 corner step (N, S) two
 * rows: the window reaches REACH_COST columns each way and REACH_COST rows
 * (diamond8: 2 * REACH_COST), and starts on an even row so that each row
 * keeps its parity (hex and diamond neighbours depend on it).  Past the
 * window's edge the flood sees only blocked cells, as it does past the
 * level's.  The flood pops cells in order of (cost, cell index), and the
 * window's cells are in the same order as the level's, so it settles the
 * same cells in the same order with the same sums: the same distances to
 * the last bit, and so the same routes (reach_route), as a flood of the
 * whole level.  Its context is the window's size (path_memory: 360 KB,
 * 640 KB on diamond8) where one of the level took 283 MB of
 * address space on 4096x4096 and up to 27 ms of first touches at the first
 * plan (docs/perf-log.md); it is made by the first preview or plan and kept
 * for the level.  Without memory for it every plan is the bounded search's.
 */
static void reach_window_size(enum grid_topology topo, int *w, int *h)
{
	const int rows = topo == GRID_DIAMOND8 ? 2 * REACH_COST : REACH_COST; /* each way */
	*w = 2 * REACH_COST + 1;
	*h = 2 * rows + 2; /* one row more than 2 * rows + 1: y0 is rounded down to even */
}

static void reach_update(struct game *g)
{
	struct reach *m = &g->reach;
	int pc = player_cell(g);
	if (m->source == pc && m->version == g->known_version)
		return;
	if (!m->ctx) {
		int w, h;
		reach_window_size(g->grid->topo, &w, &h);
		if (!m->win && !(m->win = grid_create(w, h, g->grid->topo)))
			return;
		if (!(m->ctx = path_create(m->win)))
			return;
	}
	const int ry = (m->win->h - 2) / 2;
	m->x0 = g->player.x - (m->win->w - 1) / 2;
	m->y0 = g->player.y - ry;
	m->y0 -= m->y0 & 1; /* even (two's complement: -3 becomes -4) */
	grid_set_costs_window(m->win, g->known, g->grid->w, g->grid->h, m->x0, m->y0);
	const int source = grid_index(m->win, g->player.x - m->x0, g->player.y - m->y0);
	struct path_options opt = path_options_default();
	m->settled = path_flood(m->ctx, source, &opt, false, REACH_COST);
	m->source = pc;
	m->version = g->known_version;
}

double game_reach_distance(const struct game *g, int cell)
{
	const struct reach *m = &g->reach;
	if (!m->ctx || m->source < 0)
		return -1.0;
	const int x = grid_x(g->grid, cell) - m->x0, y = grid_y(g->grid, cell) - m->y0;
	if ((unsigned)x >= (unsigned)m->win->w || (unsigned)y >= (unsigned)m->win->h)
		return -1.0;
	return path_flood_distance(m->ctx, grid_index(m->win, x, y));
}

static bool reach_same(double a, double b) { return fabs(a - b) <= 1e-9 * (1.0 + fabs(b)); }

/*
 * The route to `goal` read from the distance map into g->reach.cells, when
 * the map decides it: a goal passable in known[] and settled gets an
 * optimal route (PATH_FOUND); a goal blocked in known[] with a settled
 * neighbour that makes the dearest hypothetical step into it no dearer
 * than REACH_COST gets the fallback's answer (DESIGN section 4: one
 * blocked cell crossed, the least cost, cut before it: PATH_FALLBACK).
 * Otherwise false: the bounded search decides.  known[] must be the
 * grid's costs.
 */
static bool reach_route(struct game *g, int goal, enum path_status *st, int *len)
{
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	int end = goal;
	if (g->known[goal]) {
		if (game_reach_distance(g, goal) < 0)
			return false;
		*st = PATH_FOUND;
	} else {
		int n = grid_adjacent(g->grid, goal, nb), best = -1;
		double best_d = 0;
		for (int i = 0; i < n; i++) {
			double d = game_reach_distance(g, nb[i].cell);
			if (g->known[nb[i].cell] && d >= 0 && (best < 0 || d + nb[i].step < best_d)) {
				best = nb[i].cell;
				best_d = d + nb[i].step;
			}
		}
		/* every cell nearer than REACH_COST is settled, so no other
		 * neighbour can beat one within it */
		if (best < 0 || best_d > REACH_COST)
			return false;
		end = best;
		*st = PATH_FALLBACK;
	}
	/* walk back from `end`: a settled neighbour p with d(p) + step = d(c) */
	int k = 0, c = end;
	g->reach.cells[k++] = c;
	while (c != g->reach.source) {
		double dc = game_reach_distance(g, c);
		int n = grid_neighbours(g->grid, c, false, nb), prev = -1;
		for (int i = 0; i < n && prev < 0; i++) {
			double dp = game_reach_distance(g, nb[i].cell);
			if (dp >= 0 && dp < dc && reach_same(dp + nb[i].step * g->known[c], dc))
				prev = nb[i].cell;
		}
		if (prev < 0 || k == REACH_COST + 2)
			return false; /* cannot happen; the search decides */
		g->reach.cells[k++] = c = prev;
	}
	for (int i = 0; i < k / 2; i++) {
		int t = g->reach.cells[i];
		g->reach.cells[i] = g->reach.cells[k - 1 - i];
		g->reach.cells[k - 1 - i] = t;
	}
	*len = k;
	return true;
}

enum path_status game_travel_plan(struct game *g, int x, int y, const int **cells, int *len)
{
	*cells = NULL;
	*len = 0;
	grid_clamp(g->grid, &x, &y);
	g->reach.weight = 1.0;
	g->reach.out_of_reach = false;
	g->reach.side_rungs = 0;
	reach_update(g);
	enum path_status st;
	const uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	bool mapped = g->reach.ctx && reach_route(g, cell_of(g, x, y), &st, len);
	g->grid->cost = truth;
	if (mapped) {
		*cells = g->reach.cells;
		g->reach.expanded = 0;
		return st;
	}
	struct path_result r;
	st = plan_travel(g, player_cell(g), cell_of(g, x, y), &r);
	if (st != PATH_BAD_INPUT && r.len >= 1) {
		*cells = r.cells;
		*len = r.len;
	}
	return st;
}

/* Plans the route to the travel goal from here into g->travel; the number
 * of cells (0: no route at all). */
static int travel_plan_goal(struct game *g, enum path_status *st)
{
	struct travel *t = &g->travel;
	const int *cells;
	int n;
	*st = game_travel_plan(g, t->goal_x, t->goal_y, &cells, &n);
	int len = n < t->cap ? n : t->cap;
	if (!game_travel_room(g, len))
		len = 0;
	if (len > 0)
		memcpy(t->cells, cells, (size_t)len * sizeof *t->cells);
	t->len = len;
	t->pos = 0;
	t->known_version = g->known_version;
	t->partial = *st == PATH_BUDGET;
	return len;
}

/* Whether a living monster the player sees stands next to `cell`. */
static const struct monster *visible_monster_next_to(const struct game *g, int cell)
{
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (m->alive && m->seen && grid_is_adjacent(g->grid, cell, cell_of(g, m->x, m->y)))
			return m;
	}
	return NULL;
}

/* Checks and takes the step into `next`; 0 when it cannot (travel stops). */
static int travel_enter(struct game *g, int next, enum act_result *res)
{
	int here = player_cell(g);
	if (!game_can_step(g, here, next)) {
		travel_stop(g, TRAVEL_BLOCKED);
		game_message_add(g, "You stop: the way is no longer open.");
		return 0;
	}
	if (g->occupant[next] >= 0) {
		travel_stop(g, TRAVEL_BLOCKED);
		const char *name = g->monsters[g->occupant[next]].kind->name;
		game_message_add(g, "You stop: %s %s is in the way.", game_article(name), name);
		return 0;
	}
	/* never walk up to a monster in view without a stop first: the step
	 * that would bring the player next to one is left to the player */
	const struct monster *near = visible_monster_next_to(g, next);
	if (near && !visible_monster_next_to(g, here)) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop: %s %s is near.", game_article(near->kind->name), near->kind->name);
		return 0;
	}
	return game_player_enter(g, next, res);
}

/* MODE_RUN: which of the two cells beside `cell` (square: at right angles
 * to dir; hex: the rear neighbours) are open, as two bits.  A change of
 * this pattern is a junction, a doorway or the end of a wall. */
static int run_sides(const struct game *g, int cell, enum grid_dir dir)
{
	int x = grid_x(g->grid, cell), y = grid_y(g->grid, cell), bits = 0;
	int turn = g->grid->topo == GRID_HEX ? 3 : 2;
	for (int k = 0; k < 2; k++) {
		enum grid_dir d = (enum grid_dir)((dir + (k ? turn : GRID_DIR_COUNT - turn)) % GRID_DIR_COUNT);
		int nx, ny;
		if (grid_dir_step(g->grid, x, y, d, &nx, &ny) && grid_in_bounds(g->grid, nx, ny) &&
		    grid_passable(g->grid, cell_of(g, nx, ny)))
			bits |= 1 << k;
	}
	return bits;
}

/* MODE_RUN: the cell straight ahead, or -1 when the run cannot go on
 * there (outside, blocked, a closed door, a corner it may not cut). */
static int run_ahead(const struct game *g, enum grid_dir dir)
{
	int nx, ny;
	if (!grid_dir_step(g->grid, g->player.x, g->player.y, dir, &nx, &ny) || !grid_in_bounds(g->grid, nx, ny))
		return -1;
	int c = cell_of(g, nx, ny);
	if (!game_can_step(g, player_cell(g), c) || (g->tiles[c] == TILE_DOOR && !g->open[c]))
		return -1;
	return c;
}

/* MODE_EXPLORE: whether the player would go to `c` (never seen, or a
 * remembered item worth picking up). */
static bool explore_wanted(const struct game *g, int c)
{
	return !g->remembered[c] || game_item_wanted(g, c);
}

/* Levels up to this many cells may be flooded whole by autoexplore's last
 * pass (a quarter of a million cells: a few ms); larger ones are bounded
 * like travel (below). */
#define EXPLORE_WHOLE_CELLS (1L << 18)

/*
 * MODE_EXPLORE: the first step toward the nearest (by travel cost over the
 * player's memory) cell never seen or remembered item worth picking up;
 * -1 when there is none the player can reach.  Floods out to 24, then 160;
 * then, on a level small enough, the whole level.  On a larger one the
 * goal is the wanted cell nearest as the crow flies (one pass over the
 * level's bytes) and the step is that of a plan bounded like travel
 * (TRAVEL_BUDGET expansions; past it toward the closest cell found), so a
 * step never costs a flood of millions of cells; the price is a goal that
 * may not be the nearest by travel, or one behind walls the player knows.
 */
static int explore_next(struct game *g)
{
	static const double reach[] = { 24, 160, 0 }; /* 0: the whole level */
	int pc = player_cell(g), goal = -1;
	long cells = (long)g->grid->w * g->grid->h;
	const uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	struct path_options opt = path_options_default();
	for (size_t k = 0; k < sizeof reach / sizeof reach[0] && goal < 0; k++) {
		if (reach[k] <= 0 && cells > EXPLORE_WHOLE_CELLS)
			break;
		path_flood(g->path, pc, &opt, false, reach[k]);
		int r = reach[k] > 0 ? (int)reach[k] + 1 : g->grid->w + g->grid->h;
		double best = 0;
		int x0 = g->player.x - r, x1 = g->player.x + r, y0 = g->player.y - r, y1 = g->player.y + r;
		for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < g->grid->h; y++)
			for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < g->grid->w; x++) {
				int c = cell_of(g, x, y);
				if (c == pc || !explore_wanted(g, c))
					continue;
				double d = path_flood_distance(g->path, c);
				if (d >= 0 && (goal < 0 || d < best)) {
					goal = c;
					best = d;
				}
			}
	}
	if (goal < 0 && cells > EXPLORE_WHOLE_CELLS) {
		/* square rings around the player, out to where no cell can be
		 * nearer than the best found: the heuristic is at least the
		 * ring's index on square maps, at least half of it on hex */
		double best = 0;
		int most = g->grid->w > g->grid->h ? g->grid->w : g->grid->h;
		bool hex = g->grid->topo == GRID_HEX;
		for (int r = 1; r <= most && (goal < 0 || r <= (hex ? 2 * best + 2 : best)); r++)
			for (int y = g->player.y - r; y <= g->player.y + r; y++) {
				if (y < 0 || y >= g->grid->h)
					continue;
				bool edge = y == g->player.y - r || y == g->player.y + r;
				for (int x = g->player.x - r; x <= g->player.x + r; x += edge ? 1 : 2 * r) {
					if (x < 0 || x >= g->grid->w)
						continue;
					int c = cell_of(g, x, y);
					if (!explore_wanted(g, c) || !g->known[c])
						continue;
					double d = grid_heuristic(g->grid, pc, c);
					if (goal < 0 || d < best) {
						goal = c;
						best = d;
					}
				}
			}
	}
	g->grid->cost = truth;
	if (goal < 0)
		return -1;
	struct path_result r;
	enum path_status st = plan_known(g, pc, goal, &r);
	if (st == PATH_BAD_INPUT || r.len < 2)
		return -1;
	return r.cells[1];
}

/* Whether the step a -> b keeps the corner rule on the player's memory
 * (square8: a diagonal needs both cells it passes open). */
static bool known_step_ok(const struct game *g, int a, int b)
{
	if (g->grid->topo != GRID_SQUARE8)
		return true;
	int ax = grid_x(g->grid, a), ay = grid_y(g->grid, a), bx = grid_x(g->grid, b), by = grid_y(g->grid, b);
	if (ax == bx || ay == by)
		return true;
	return g->known[cell_of(g, bx, ay)] && g->known[cell_of(g, ax, by)];
}

/* Takes the next step of the current activity; 0 when it cannot (and it stops). */
int game_travel_step(struct game *g, enum act_result *res)
{
	struct travel *t = &g->travel;
	*res = RESULT_NOTHING;
	if (!t->active)
		return 0;
	switch (t->mode) {
	case MODE_REST:
		*res = RESULT_ACTED;
		return 100;
	case MODE_RUN: {
		int next = run_ahead(g, t->dir);
		if (next < 0) {
			travel_stop(g, TRAVEL_ARRIVED);
			return 0;
		}
		return travel_enter(g, next, res);
	}
	case MODE_EXPLORE: {
		int next = explore_next(g);
		if (next < 0) {
			travel_stop(g, TRAVEL_DONE);
			game_message_add(g, "There is nothing left to explore that you can reach.");
			return 0;
		}
		return travel_enter(g, next, res);
	}
	case MODE_TRAVEL:
		break;
	}
	int here = player_cell(g);
	/* Cells never seen were assumed the cheapest (open floor), so what comes
	 * into view can only make a route dearer: the route is planned again
	 * when the player's memory changed and a remaining cell of it did. */
	if (t->known_version != g->known_version) {
		bool changed = t->cells[t->pos] != here;
		for (int j = t->pos + 1; j < t->len && !changed; j++)
			changed = g->known[t->cells[j]] != 1 || !known_step_ok(g, t->cells[j - 1], t->cells[j]);
		if (changed) {
			bool was_found = t->len > 0 && t->cells[t->len - 1] == cell_of(g, t->goal_x, t->goal_y);
			enum path_status st;
			int n = travel_plan_goal(g, &st);
			if (n < 2) {
				travel_stop(g, TRAVEL_ARRIVED);
				return 0;
			}
			if (st != PATH_FOUND && !t->partial && was_found)
				game_message_add(g, "The way there is shut; you walk as close as you can.");
		} else {
			t->known_version = g->known_version;
		}
	}
	if (t->pos + 1 >= t->len && t->partial && here == t->cells[t->pos]) {
		/* the end of a far route planned in part: the next part from here */
		enum path_status st;
		if (travel_plan_goal(g, &st) < 2) {
			travel_stop(g, TRAVEL_ARRIVED);
			game_message_add(g, g->reach.weight > 1.0 && !g->reach.out_of_reach
						    ? "You stop: the way on is too long to plan from here."
						    : "You cannot get any closer to there.");
			return 0;
		}
	}
	if (t->pos + 1 >= t->len) {
		travel_stop(g, TRAVEL_ARRIVED);
		return 0;
	}
	if (t->cells[t->pos] != here) {
		travel_stop(g, TRAVEL_BLOCKED);
		game_message_add(g, "You stop: the way is no longer open.");
		return 0;
	}
	int cost = travel_enter(g, t->cells[t->pos + 1], res);
	if (cost > 0)
		t->pos++;
	return cost;
}

/* Starts an activity in mode; the caller sets what the mode needs. */
static void travel_begin(struct game *g, enum travel_mode mode)
{
	struct travel *t = &g->travel;
	t->active = true;
	t->mode = mode;
	t->stopped = TRAVEL_NONE;
	t->len = t->pos = 0;
	t->partial = false;
}

/* ACT_TRAVEL: plans the route through the fallback and takes its first step. */
int game_travel_start(struct game *g, int x, int y, enum act_result *res)
{
	*res = RESULT_NOTHING;
	grid_clamp(g->grid, &x, &y);
	struct travel *t = &g->travel;
	t->active = false;
	t->mode = MODE_TRAVEL;
	t->stopped = TRAVEL_NONE;
	t->goal_x = x;
	t->goal_y = y;
	t->len = t->pos = 0;
	t->partial = false;
	if (cell_of(g, x, y) == player_cell(g)) {
		*res = RESULT_ACTED;
		t->stopped = TRAVEL_ARRIVED;
		return 100; /* a click on the player waits a turn */
	}
	enum path_status st;
	int n = travel_plan_goal(g, &st);
	if (n < 1) {
		game_message_add(g, "You cannot travel there.");
		return 0;
	}
	if (n < 2) {
		t->stopped = TRAVEL_BLOCKED;
		game_message_add(g, "You cannot get any closer to there: a wall is in the way.");
		return 0;
	}
	t->active = true;
	if (t->partial && g->reach.weight > 1.0 && !g->reach.out_of_reach)
		game_message_add(g, "It is a long way there: you set off, and plan the rest as you go.");
	else if (st != PATH_FOUND)
		game_message_add(g, "You cannot reach that spot; you walk as close as you can.");
	/* the first step is the player's own choice: no stop for a monster near it */
	int next = t->cells[1];
	if (!game_can_step(g, player_cell(g), next) || g->occupant[next] >= 0)
		return game_travel_step(g, res);
	t->pos++;
	return game_player_enter(g, next, res);
}

/* ACT_REST: waits turn after turn until healed or disturbed. */
int game_rest_start(struct game *g, enum act_result *res)
{
	*res = RESULT_NOTHING;
	if (g->player.hp >= g->player.max_hp) {
		game_message_add(g, "You are at full health; there is no need to rest.");
		return 0;
	}
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive && g->monsters[i].seen) {
			const char *name = g->monsters[i].kind->name;
			game_message_add(g, "You cannot rest with %s %s in view.", game_article(name), name);
			return 0;
		}
	travel_begin(g, MODE_REST);
	game_message_add(g, "You rest.");
	*res = RESULT_ACTED;
	return 100;
}

/* ACT_RUN: runs straight in dir; a first step that is not open is a plain move (bump, attack, door). */
int game_run_start(struct game *g, enum grid_dir dir, enum act_result *res, bool *moved)
{
	*moved = false;
	int next = run_ahead(g, dir);
	if (next < 0 || g->occupant[next] >= 0)
		return -1;
	travel_begin(g, MODE_RUN);
	g->travel.dir = dir;
	int cost = game_player_enter(g, next, res);
	g->travel.sides = run_sides(g, next, dir);
	*moved = true;
	return cost;
}

/* ACT_EXPLORE: the first step of autoexplore.  Not with a monster in view
 * (as rest, and as DCSS): each press would take a step the player did not
 * choose while the monster follows.  A monster fleeing from the player is
 * no such threat: a wounded rat that runs but stays in view blocked `o`
 * for good; it is let be (if it turns and comes closer, the walk stops,
 * as for any monster: game_activity_check). */
int game_explore_start(struct game *g, enum act_result *res)
{
	*res = RESULT_NOTHING;
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive && g->monsters[i].seen && !g->monsters[i].mind.fleeing) {
			const char *name = g->monsters[i].kind->name;
			game_message_add(g, "You cannot explore with %s %s in view: fight it or get out of its sight.",
					 game_article(name), name);
			return 0;
		}
	travel_begin(g, MODE_EXPLORE);
	int next = explore_next(g);
	if (next < 0) {
		travel_stop(g, TRAVEL_DONE);
		game_message_add(g, "There is nothing left to explore that you can reach.");
		return 0;
	}
	if (!game_can_step(g, player_cell(g), next) || g->occupant[next] >= 0)
		return game_travel_step(g, res);
	return game_player_enter(g, next, res);
}

/* After the monsters acted: whether an activity (travel, rest, run,
 * autoexplore) stops, and why.  News stops it: a monster never seen before,
 * one that came closer in its own moves, getting hurt; so does what each
 * mode is for (stairs on the way, an item, a junction, full health). */
void game_activity_check(struct game *g, long damage0, int gold0, int potions0)
{
	struct travel *t = &g->travel;
	const struct monster *newcomer = NULL, *closer = NULL, *seen = NULL;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen)
			continue;
		seen = m;
		if (!g->noticed[i] && !newcomer)
			newcomer = m;
		else if (g->noticed[i] && game_monster_distance(g, i) < g->monster_dist[i] && !closer)
			closer = m;
		g->noticed[i] = 1;
	}
	const char *heard = g->heard;
	g->heard = NULL;
	if (!t->active)
		return;
	int pc = player_cell(g);
	if (g->damage_taken > damage0) {
		travel_stop(g, TRAVEL_HURT);
		game_message_add(g, "You stop: you are hurt.");
	} else if (heard) {
		travel_stop(g, TRAVEL_HEARD);
		game_message_add(g, "You stop: %s.", heard);
	} else if (newcomer) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop: %s %s comes into view.", game_article(newcomer->kind->name),
				 newcomer->kind->name);
	} else if (closer) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop: %s %s comes closer.", game_article(closer->kind->name),
				 closer->kind->name);
	} else if (t->mode == MODE_REST && seen) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop resting: %s %s is in view.", game_article(seen->kind->name),
				 seen->kind->name);
	} else if (t->mode == MODE_REST && g->player.hp >= g->player.max_hp) {
		travel_stop(g, TRAVEL_DONE);
		game_message_add(g, "You feel rested (%d/%d hp).", g->player.hp, g->player.max_hp);
	} else if ((t->mode == MODE_TRAVEL || t->mode == MODE_RUN) && g->tiles[pc] == TILE_EXIT &&
		   !(t->mode == MODE_TRAVEL && t->pos + 1 >= t->len)) {
		travel_stop(g, TRAVEL_STAIRS);
	} else if ((t->mode == MODE_RUN || t->mode == MODE_EXPLORE) &&
		   (g->player.gold != gold0 || game_pack_total(g) != potions0 || g->items[pc])) {
		travel_stop(g, TRAVEL_ITEM);
	} else if (t->mode == MODE_RUN && run_sides(g, pc, t->dir) != t->sides) {
		travel_stop(g, TRAVEL_ARRIVED); /* a junction, a doorway, the end of a wall */
	} else if (t->mode == MODE_TRAVEL && t->pos + 1 >= t->len && !t->partial) {
		travel_stop(g, TRAVEL_ARRIVED); /* a route planned in part goes on (game_travel_step) */
	}
}


/*
 * The nearest stairs the player remembers (the first in index order of
 * those nearest).  remembered[] is clear where the level began
 * (game_map_uniform), so a remembered cell lies in a block of it touched
 * since: on 4096x4096 the scan of all 16.8 M cells, most of them pages
 * never touched before, made the first `>` a key of 78 ms.
 */
bool game_known_stairs(const struct game *g, int *x, int *y)
{
	const int n = g->grid->w * g->grid->h, here = player_cell(g);
	const struct cellmark *k = &g->marks[MAP_REMEMBERED];
	const bool by_block = k->touched && k->cells == (size_t)n;
	const int blocks = (n + CELLMARK_BLOCK - 1) >> CELLMARK_SHIFT;
	int best = -1, best_d = 0;
	for (int b = by_block ? cellmark_next_touched(k, 0) : 0; b < blocks;
	     b = by_block ? cellmark_next_touched(k, b + 1) : b + 1) {
		const int end = n - (b << CELLMARK_SHIFT) < CELLMARK_BLOCK ? n : (b + 1) << CELLMARK_SHIFT;
		for (int c = b << CELLMARK_SHIFT; c < end; c++) {
			if (!g->remembered[c] || game_tile_known(g, c) != TILE_EXIT)
				continue;
			int d = grid_step_distance(g->grid, here, c);
			if (best < 0 || d < best_d) {
				best = c;
				best_d = d;
			}
		}
	}
	if (best < 0)
		return false;
	*x = grid_x(g->grid, best);
	*y = grid_y(g->grid, best);
	return true;
}
