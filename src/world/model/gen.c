/*
 * gen.c - generated levels.  A level is built on a scratch map of tiles in
 * phases, each drawing from its own random stream derived from the inputs,
 * so a change to a late phase (monsters) leaves the layout of the same seed
 * alone:
 *
 *   layout   rooms and corridors (pieces accreted onto what exists, each
 *            attached through a doorway in a one-cell wall) or caves (a
 *            cellular automaton); the largest region is kept, the rest
 *            filled with wall;
 *   loops    tunnels through thin walls between cells that are near in
 *            space but far by path;
 *   terrain  patches of rubble and water;
 *   places   the start, the exit far from it by path, potions, gold, and
 *            monsters from a fixed table that grows with depth, none near
 *            the start.
 *
 * The result is written with level_write and parsed back with level_parse,
 * so the level played is exactly the text a designer gets.  Everything is
 * integer arithmetic on a private splitmix64 stream; nothing is sorted.
 */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- random numbers: splitmix64, private to the generator --------------- */

struct grng {
	uint64_t s;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnext(struct grng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

/* Uniform in [0, n) for n >= 1, without modulo bias. */
static int rbelow(struct grng *r, int n)
{
	if (n <= 1)
		return 0;
	const uint64_t span = (uint64_t)n;
	const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
	uint64_t v;
	do
		v = rnext(r);
	while (v >= limit);
	return (int)(v % span);
}

static int rrange(struct grng *r, int lo, int hi) { return lo + rbelow(r, hi - lo + 1); }
static bool rchance(struct grng *r, int percent) { return rbelow(r, 100) < percent; }

/* The phases' streams: one per phase, from the level's key. */
enum phase { PH_STYLE, PH_LAYOUT, PH_LOOPS, PH_TERRAIN, PH_PLACES, PH_NAME };

static struct grng stream(uint64_t key, enum phase ph)
{
	struct grng r = { mix64(key ^ (0xd1b54a32d192ed03ULL * ((uint64_t)ph + 1))) };
	return r;
}

static uint64_t key_of(const struct gen_params *p, enum gen_style style)
{
	uint64_t k = mix64(0x61737472617967ULL ^ (uint64_t)GEN_VERSION);
	const uint64_t parts[] = { (uint64_t)p->topo, (uint64_t)p->w, (uint64_t)p->h, (uint64_t)p->depth,
				   p->seed, (uint64_t)style };
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		k = mix64(k + 0x9e3779b97f4a7c15ULL + parts[i]);
	return k;
}

/* ---- topologies ---------------------------------------------------------- */

/*
 * What the generator needs of a topology.  `near` neighbours (the first
 * n_near rows of the offset tables) keep walls one cell thick; the first
 * n_conn of them are the steps that join regions (square8 joins nothing
 * by its diagonals, since it never cuts corners).  opp[i] is the row of
 * the opposite step.  A cell that is wall and has at least `survive` wall
 * neighbours stays wall; a floor cell with at least `birth` becomes wall.
 */
struct topo {
	int n_near, n_conn;
	const int8_t *dx[2];
	const int8_t *dy;
	int8_t opp[8];
	int survive, birth;
	bool diagonal_moves; /* square8, diamond8: long steps past two open sides */
	bool wide_cells;     /* hex, diamond: two text columns a cell, so narrower rooms */
	bool diamond;        /* diamond: faces are c, SE, SW and S (rows 2, 3, 7) */
};

static bool topo_of(enum grid_topology t, struct topo *out)
{
	switch (t) {
	case GRID_SQUARE4:
	case GRID_SQUARE8:
		*out = (struct topo){ 8, 4, { GRID_SQUARE_DX, GRID_SQUARE_DX }, GRID_SQUARE_DY,
				      { 3, 2, 1, 0, 7, 6, 5, 4 }, 4, 5, t == GRID_SQUARE8, false, false };
		return true;
	case GRID_HEX:
		/* Six neighbours: 4-5 of 8 scaled would be 3-3.75 of 6.  A wall
		 * survives with 3 wall neighbours and floor turns to wall with 4:
		 * caves with rounded walls and a few pillars (with 3-3 they
		 * silt up, with 4-4 they stay noise). */
		*out = (struct topo){ 6, 6, { GRID_HEX_DX[0], GRID_HEX_DX[1] }, GRID_HEX_DY,
				      { 1, 0, 5, 4, 3, 2, 0, 0 }, 3, 4, false, true, false };
		return true;
	case GRID_DIAMOND4:
	case GRID_DIAMOND8:
		/* The square grid turned 45 degrees (grid.h): the four edge
		 * steps join, the four corner steps are the square diagonals,
		 * so eight near neighbours and the square's 4-5 cave rule. */
		*out = (struct topo){ 8, 4, { GRID_DIAMOND_DX[0], GRID_DIAMOND_DX[1] }, GRID_DIAMOND_DY,
				      { 3, 2, 1, 0, 7, 6, 5, 4 }, 4, 5, t == GRID_DIAMOND8, true, true };
		return true;
	}
	return false;
}

bool gen_supports(enum grid_topology topo)
{
	struct topo t;
	return topo_of(topo, &t);
}

void gen_default_size(enum grid_topology topo, int *w, int *h)
{
	*w = grid_is_staggered(topo) ? 39 : 79;
	*h = 23;
}

const char *gen_style_name(enum gen_style s)
{
	switch (s) {
	case GEN_STYLE_ROOMS:
		return "rooms";
	case GEN_STYLE_CAVES:
		return "caves";
	case GEN_STYLE_MIXED:
		break;
	}
	return "mixed";
}

bool gen_style_parse(const char *s, enum gen_style *out)
{
	static const enum gen_style all[] = { GEN_STYLE_MIXED, GEN_STYLE_ROOMS, GEN_STYLE_CAVES };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (strcmp(s, gen_style_name(all[i])) == 0) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

/* ---- the scratch map ----------------------------------------------------- */

enum { KIND_NONE, KIND_ROOM, KIND_CORRIDOR, KIND_DOORWAY };

struct map {
	struct topo tp;
	int w, h, n;
	uint8_t *t;      /* enum tile */
	uint8_t *kind;   /* KIND_* of carved cells */
	int *list;       /* passable cells (attachment points, random picks) */
	int nlist;
	int *dist;       /* BFS distances, -1 = not reached */
	int *queue;
	int *mark;       /* bounded searches: mark[c] == stamp means seen */
	int stamp;
	int *piece;      /* cells of a piece being tried */
	uint8_t *busy;   /* start, exit, items and monsters */
};

static bool map_init(struct map *m, const struct topo *tp, int w, int h)
{
	memset(m, 0, sizeof *m);
	m->tp = *tp;
	m->w = w;
	m->h = h;
	m->n = w * h;
	size_t n = (size_t)m->n;
	m->t = malloc(n);
	m->kind = calloc(n, 1);
	m->busy = calloc(n, 1);
	m->list = malloc(n * sizeof *m->list);
	m->dist = malloc(n * sizeof *m->dist);
	m->queue = malloc(n * sizeof *m->queue);
	m->mark = calloc(n, sizeof *m->mark);
	m->piece = malloc(n * sizeof *m->piece);
	if (!m->t || !m->kind || !m->busy || !m->list || !m->dist || !m->queue || !m->mark || !m->piece)
		return false;
	memset(m->t, TILE_WALL, n);
	return true;
}

static void map_fini(struct map *m)
{
	free(m->t);
	free(m->kind);
	free(m->busy);
	free(m->list);
	free(m->dist);
	free(m->queue);
	free(m->mark);
	free(m->piece);
}

static bool open_tile(uint8_t t) { return t != TILE_WALL && t != TILE_VOID; }

/* The neighbour of c in table row i, or false off the map. */
static bool step(const struct map *m, int c, int i, int *out)
{
	int x = c % m->w, y = c / m->w;
	int nx = x + m->tp.dx[y & 1][i], ny = y + m->tp.dy[i];
	if (nx < 0 || ny < 0 || nx >= m->w || ny >= m->h)
		return false;
	*out = ny * m->w + nx;
	return true;
}

static bool interior(const struct map *m, int x, int y)
{
	return x >= 1 && y >= 1 && x < m->w - 1 && y < m->h - 1;
}

static bool interior_cell(const struct map *m, int c) { return interior(m, c % m->w, c / m->w); }

/* Number of open near neighbours of c; the last one found in *which. */
static int open_near(const struct map *m, int c, int *which)
{
	int k = 0;
	for (int i = 0; i < m->tp.n_near; i++) {
		int v;
		if (step(m, c, i, &v) && open_tile(m->t[v])) {
			k++;
			if (which)
				*which = v;
		}
	}
	return k;
}

/* Are a and b one joining step apart? */
static bool conn_adjacent(const struct map *m, int a, int b)
{
	for (int i = 0; i < m->tp.n_conn; i++) {
		int v;
		if (step(m, a, i, &v) && v == b)
			return true;
	}
	return false;
}

/*
 * May wall cell e open between open cells a and b (b = -1: a and what is
 * yet to be dug)?  Every open neighbour of e must be a or b or one
 * joining step from them: e then sits in a wall as a doorway, not beside
 * a corner of it (on square grids that rules out open cells at e's flanks;
 * on hex the two cells e and a share may be open).
 */
static bool doorway_ok(const struct map *m, int e, int a, int b)
{
	for (int i = 0; i < m->tp.n_near; i++) {
		int u;
		if (!step(m, e, i, &u) || !open_tile(m->t[u]) || u == a || u == b)
			continue;
		if (!conn_adjacent(m, u, a) && (b < 0 || !conn_adjacent(m, u, b)))
			return false;
	}
	return true;
}

static void rebuild_list(struct map *m)
{
	m->nlist = 0;
	for (int c = 0; c < m->n; c++)
		if (open_tile(m->t[c]))
			m->list[m->nlist++] = c;
}

/*
 * Breadth-first distances from `from` over open cells, by the movement
 * rules (moves) or by the steps that join regions (!moves).  Stops past
 * `limit` steps (-1: none).  Returns the largest distance reached.
 */
static int bfs(struct map *m, int from, bool moves, int limit)
{
	for (int i = 0; i < m->n; i++)
		m->dist[i] = -1;
	int head = 0, tail = 0, far = 0;
	m->dist[from] = 0;
	m->queue[tail++] = from;
	const int nsteps = moves && m->tp.diagonal_moves ? m->tp.n_near : m->tp.n_conn;
	while (head < tail) {
		int c = m->queue[head++];
		int d = m->dist[c];
		if (d > far)
			far = d;
		if (limit >= 0 && d >= limit)
			continue;
		for (int i = 0; i < nsteps; i++) {
			int v;
			if (!step(m, c, i, &v) || m->dist[v] >= 0 || !open_tile(m->t[v]))
				continue;
			if (i >= m->tp.n_conn) { /* a long step: both flanks open */
				int f0, f1;
				if (!step(m, c, GRID_CORNER_FLANKS[i - 4][0], &f0) || !open_tile(m->t[f0]) ||
				    !step(m, c, GRID_CORNER_FLANKS[i - 4][1], &f1) || !open_tile(m->t[f1]))
					continue;
			}
			m->dist[v] = d + 1;
			m->queue[tail++] = v;
		}
	}
	return far;
}

/* Distance from a to b by joining steps if it is at most limit, else -1.
 * Touches only the cells within `limit` of a (stamped marks). */
static int near_by_path(struct map *m, int a, int b, int limit)
{
	m->stamp++;
	int head = 0, tail = 0;
	m->mark[a] = m->stamp;
	m->dist[a] = 0;
	m->queue[tail++] = a;
	while (head < tail) {
		int c = m->queue[head++];
		int d = m->dist[c];
		if (c == b)
			return d;
		if (d >= limit)
			continue;
		for (int i = 0; i < m->tp.n_conn; i++) {
			int v;
			if (!step(m, c, i, &v) || m->mark[v] == m->stamp || !open_tile(m->t[v]))
				continue;
			m->mark[v] = m->stamp;
			m->dist[v] = d + 1;
			m->queue[tail++] = v;
		}
	}
	return -1;
}

/*
 * Keeps the largest region (by joining steps; the first in scan order on
 * a tie) and fills every other with wall.  Returns its size.
 */
static int keep_largest(struct map *m)
{
	int *label = m->dist;
	for (int i = 0; i < m->n; i++)
		label[i] = -1;
	int best = -1, best_size = 0, regions = 0;
	for (int s = 0; s < m->n; s++) {
		if (label[s] >= 0 || !open_tile(m->t[s]))
			continue;
		int head = 0, tail = 0;
		label[s] = regions;
		m->queue[tail++] = s;
		while (head < tail) {
			int c = m->queue[head++];
			for (int i = 0; i < m->tp.n_conn; i++) {
				int v;
				if (step(m, c, i, &v) && label[v] < 0 && open_tile(m->t[v])) {
					label[v] = regions;
					m->queue[tail++] = v;
				}
			}
		}
		if (tail > best_size) {
			best_size = tail;
			best = regions;
		}
		regions++;
	}
	for (int i = 0; i < m->n; i++)
		if (open_tile(m->t[i]) && label[i] != best) {
			m->t[i] = TILE_WALL;
			m->kind[i] = KIND_NONE;
		}
	rebuild_list(m);
	return best_size;
}

/* ---- rooms and corridors ------------------------------------------------- */

enum shape_kind { SHAPE_RECT, SHAPE_CROSS, SHAPE_ROUND };

struct shape {
	enum shape_kind k;
	int hw, hh;     /* half extents (the cross: of its wide bar and tall bar) */
	int hw2, hh2;   /* the cross: the tall bar's half width, the wide bar's half height */
	int r;          /* round rooms */
};

static int iabs(int v) { return v < 0 ? -v : v; }

/* Steps between two hex cells (odd-r offset rows). */
static int hex_distance(int x0, int y0, int x1, int y1)
{
	int q0 = x0 - (y0 >> 1), q1 = x1 - (y1 >> 1);
	int dq = q1 - q0, dr = y1 - y0;
	return (iabs(dq) + iabs(dr) + iabs(dq + dr)) / 2;
}

static bool shape_has(const struct map *m, const struct shape *s, int cx, int cy, int x, int y)
{
	int dx = x - cx, dy = y - cy;
	if (m->tp.diamond) {
		/* Shapes in the square grid the diamonds turn: u along NW-SE,
		 * v along NE-SW (X + Y is always even), so room sides are
		 * straight lines of steps and take doorways like square ones. */
		int dX = 2 * x + (y & 1) - (2 * cx + (cy & 1));
		dx = (dX + dy) / 2;
		dy = (dy - dX) / 2;
		if (s->k == SHAPE_ROUND)
			return dx * dx + dy * dy <= s->r * s->r + s->r;
	}
	switch (s->k) {
	case SHAPE_RECT:
		return iabs(dx) <= s->hw && iabs(dy) <= s->hh;
	case SHAPE_CROSS:
		return (iabs(dx) <= s->hw && iabs(dy) <= s->hh2) || (iabs(dx) <= s->hw2 && iabs(dy) <= s->hh);
	case SHAPE_ROUND:
		if (m->tp.n_near == 6)
			return hex_distance(cx, cy, x, y) <= s->r;
		return dx * dx + dy * dy <= s->r * s->r + s->r;
	}
	return false;
}

static void shape_box(const struct map *m, const struct shape *s, int *bw, int *bh)
{
	if (s->k == SHAPE_ROUND) {
		*bw = s->r;
		*bh = s->r;
	} else {
		*bw = s->hw;
		*bh = s->hh;
	}
	if (m->tp.diamond) { /* u and v extents to rows and cells */
		int rows = *bw + *bh;
		*bw = rows / 2 + 1;
		*bh = rows;
	}
}

static struct shape random_shape(const struct map *m, struct grng *r)
{
	struct shape s = { SHAPE_RECT, 1, 1, 0, 0, 2 };
	bool wide = m->tp.wide_cells;
	int roll = rbelow(r, 100);
	if (roll < 55) {
		s.k = SHAPE_RECT;
		if (rchance(r, 12)) { /* a hall */
			s.hw = wide ? rrange(r, 3, 5) : rrange(r, 5, 9);
			s.hh = rrange(r, 2, 4);
		} else {
			s.hw = wide ? rrange(r, 1, 3) : rrange(r, 1, 5);
			s.hh = rrange(r, 1, 3);
		}
	} else if (roll < 75) {
		s.k = SHAPE_CROSS;
		s.hw = wide ? rrange(r, 2, 4) : rrange(r, 3, 6);
		s.hh2 = rrange(r, 0, 1);
		s.hw2 = wide ? 1 : rrange(r, 1, 2);
		s.hh = rrange(r, s.hh2 + 2, 4);
	} else {
		s.k = SHAPE_ROUND;
		s.r = wide ? rrange(r, 2, 3) : rrange(r, 2, 4);
	}
	return s;
}

/*
 * Collects the cells of shape s at (cx, cy) into m->piece from index k
 * on, if every one is an interior wall with no open near neighbour (so a
 * wall at least one cell thick stays between it and all that exists).
 * Returns the new count, or -1 when it does not fit.
 */
static int collect_shape(struct map *m, const struct shape *s, int cx, int cy, int k)
{
	int bw, bh;
	shape_box(m, s, &bw, &bh);
	for (int y = cy - bh; y <= cy + bh; y++) {
		for (int x = cx - bw - 1; x <= cx + bw + 1; x++) {
			if (!shape_has(m, s, cx, cy, x, y))
				continue;
			if (!interior(m, x, y))
				return -1;
			int c = y * m->w + x;
			if (m->t[c] != TILE_WALL || open_near(m, c, NULL) > 0)
				return -1;
			m->piece[k++] = c;
		}
	}
	return k;
}

static void carve(struct map *m, int c, uint8_t tile, uint8_t kind)
{
	m->t[c] = tile;
	m->kind[c] = kind;
	if (kind != KIND_DOORWAY)
		m->list[m->nlist++] = c;
}

static bool place_first_room(struct map *m, struct grng *r)
{
	for (int attempt = 0; attempt < 200; attempt++) {
		struct shape s = random_shape(m, r);
		int cx = m->w / 2 + rrange(r, -m->w / 6, m->w / 6);
		int cy = m->h / 2 + rrange(r, -m->h / 6, m->h / 6);
		int k = collect_shape(m, &s, cx, cy, 0);
		if (k <= 0)
			continue;
		for (int i = 0; i < k; i++)
			carve(m, m->piece[i], TILE_FLOOR, KIND_ROOM);
		return true;
	}
	return false;
}

/*
 * One attempt to attach a piece (an optional straight corridor and a
 * room) to the existing floor: from an open cell F, a wall cell E next to
 * it with no other open neighbour becomes the doorway; the corridor runs
 * on straight through E and the room starts one step past its end.
 */
static bool attach_piece(struct map *m, struct grng *r)
{
	int f = m->list[rbelow(r, m->nlist)];
	int dir = rbelow(r, m->tp.n_conn);
	int e;
	if (!step(m, f, dir, &e) || !interior_cell(m, e) || m->t[e] != TILE_WALL)
		return false;
	if (!doorway_ok(m, e, f, -1))
		return false;
	bool wide = m->tp.wide_cells;
	int len = rchance(r, 50) ? (wide ? rrange(r, 2, 5) : rrange(r, 2, 7)) : 0;
	int k = 0, c = e;
	for (int i = 0; i < len; i++) {
		if (!step(m, c, dir, &c) || !interior_cell(m, c) || m->t[c] != TILE_WALL ||
		    open_near(m, c, NULL) > 0)
			return false;
		m->piece[k++] = c;
	}
	int s_cell;
	if (!step(m, c, dir, &s_cell))
		return false;
	struct shape s = random_shape(m, r);
	int bw, bh;
	shape_box(m, &s, &bw, &bh);
	int reach = m->tp.dy[dir] != 0 ? bh : bw;
	if (m->tp.diamond) /* NE and SW run along v, NW and SE along u */
		reach = s.k == SHAPE_ROUND ? s.r : dir == 0 || dir == 3 ? s.hh : s.hw;
	int centre = s_cell;
	for (int i = 0; i < reach; i++)
		if (!step(m, centre, dir, &centre))
			return false;
	int cx = centre % m->w, cy = centre / m->w;
	if (!shape_has(m, &s, cx, cy, s_cell % m->w, s_cell / m->w))
		return false;
	int total = collect_shape(m, &s, cx, cy, k);
	if (total < 0)
		return false;

	/* Doors where a room meets a corridor (sometimes between two rooms). */
	bool from_room = m->kind[f] == KIND_ROOM;
	int door_chance = len > 0 ? (from_room ? 55 : 0) : (from_room ? 25 : 60);
	carve(m, e, rchance(r, door_chance) ? TILE_DOOR : TILE_FLOOR, KIND_DOORWAY);
	for (int i = 0; i < k; i++) {
		bool door = i == k - 1 && k >= 2 && rchance(r, 40);
		carve(m, m->piece[i], door ? TILE_DOOR : TILE_FLOOR, door ? KIND_DOORWAY : KIND_CORRIDOR);
	}
	for (int i = k; i < total; i++)
		carve(m, m->piece[i], TILE_FLOOR, KIND_ROOM);
	return true;
}

static void layout_rooms(struct map *m, struct grng *r)
{
	if (!place_first_room(m, r))
		return;
	int attempts = 400 + m->n;
	for (int a = 0; a < attempts; a++)
		attach_piece(m, r);
}

/* ---- caves --------------------------------------------------------------- */

static void layout_caves(struct map *m, struct grng *r)
{
	uint8_t *next = m->kind; /* scratch; caves have no kinds */
	for (int c = 0; c < m->n; c++)
		m->t[c] = interior_cell(m, c) && !rchance(r, 45) ? TILE_FLOOR : TILE_WALL;
	memset(next, TILE_WALL, (size_t)m->n);
	for (int round = 0; round < 4; round++) {
		/* Inside cells only (the border stays wall), so every neighbour
		 * one row away is on the map: row by row, without the bounds
		 * checks of step.  Diamond's N and S are two rows away: off the
		 * map they count as wall. */
		for (int y = 1; y < m->h - 1; y++) {
			const int8_t *dx = m->tp.dx[y & 1];
			for (int x = 1; x < m->w - 1; x++) {
				int c = y * m->w + x, walls = 0;
				for (int i = 0; i < m->tp.n_near; i++) {
					int ny = y + m->tp.dy[i];
					walls += ny < 0 || ny >= m->h || m->t[c + m->tp.dy[i] * m->w + dx[i]] == TILE_WALL;
				}
				bool wall = m->t[c] == TILE_WALL;
				next[c] = (wall ? walls >= m->tp.survive : walls >= m->tp.birth) ? TILE_WALL
												  : TILE_FLOOR;
			}
		}
		memcpy(m->t, next, (size_t)m->n);
	}
	memset(m->kind, KIND_NONE, (size_t)m->n);
	rebuild_list(m);
}

/*
 * Joins every region of at least min_size cells to the largest by digging
 * the fewest wall cells: a breadth-first search by walls dug (open cells
 * free) from the largest region outward; when it first reaches a cell of
 * a region not yet joined, the walls on the way back are dug.  Linear in
 * the map.  Smaller regions stay as they are (keep_largest drops them
 * unless a tunnel ran through them).
 */
static void join_regions(struct map *m, int min_size)
{
	int *label = m->list, *parent = m->mark, *cur = m->queue, *next = m->piece;
	int *size = m->dist;
	int regions = 0, main_region = -1;
	for (int i = 0; i < m->n; i++)
		label[i] = -1;
	for (int s = 0; s < m->n; s++) {
		if (label[s] >= 0 || !open_tile(m->t[s]))
			continue;
		int head = 0, tail = 0;
		label[s] = regions;
		cur[tail++] = s;
		while (head < tail) {
			int c = cur[head++];
			for (int i = 0; i < m->tp.n_conn; i++) {
				int v;
				if (step(m, c, i, &v) && label[v] < 0 && open_tile(m->t[v])) {
					label[v] = regions;
					cur[tail++] = v;
				}
			}
		}
		size[regions] = tail; /* regions <= s, so size[] never overwrites a label in use */
		if (main_region < 0 || tail > size[main_region])
			main_region = regions;
		regions++;
	}
	if (regions <= 1)
		return;
	/* size[r] > 0: not joined yet; 0 joined (or too small to matter). */
	for (int r = 0; r < regions; r++)
		if (r == main_region || size[r] < min_size)
			size[r] = 0;
	uint8_t *level = m->busy; /* 1 = settled */
	memset(level, 0, (size_t)m->n);
	int ncur = 0, nnext = 0;
	for (int c = 0; c < m->n; c++) {
		parent[c] = -1;
		if (label[c] == main_region) {
			level[c] = 1;
			cur[ncur++] = c;
		}
	}
	int pending = 0;
	for (int r = 0; r < regions; r++)
		pending += size[r] > 0;
	while (ncur > 0 && pending > 0) {
		for (int h = 0; h < ncur && pending > 0; h++) {
			int c = cur[h];
			if (label[c] >= 0 && size[label[c]] > 0) {
				/* A new region: dig back to the joined part. */
				size[label[c]] = 0;
				pending--;
				for (int v = parent[c]; v >= 0; v = parent[v])
					if (m->t[v] == TILE_WALL)
						m->t[v] = TILE_FLOOR;
			}
			for (int i = 0; i < m->tp.n_conn; i++) {
				int v;
				if (!step(m, c, i, &v) || level[v] || !interior_cell(m, v))
					continue;
				level[v] = 1;
				parent[v] = c;
				if (open_tile(m->t[v]))
					cur[ncur++] = v;
				else
					next[nnext++] = v;
			}
		}
		int *t = cur;
		cur = next;
		next = t;
		ncur = nnext;
		nnext = 0;
	}
	memset(level, 0, (size_t)m->n);
	for (int c = 0; c < m->n; c++)
		m->mark[c] = 0;
}

/* ---- loops --------------------------------------------------------------- */

struct tunnel {
	int a, dir, len; /* from open cell a, len wall cells in direction dir */
	int dist;        /* path distance between its ends before (-1: beyond the limit) */
};

/*
 * Is there a straight tunnel of 1..maxlen wall cells from open cell a in
 * direction dir to another open cell, each tunnel cell walled on every
 * side but the line (so it reads as a doorway or a passage, never eats a
 * pillar)?  Fills t and the far end *b.
 */
static bool find_tunnel(const struct map *m, int a, int dir, int maxlen, struct tunnel *t, int *b)
{
	int c = a, len = 0;
	for (;;) {
		int v;
		if (!step(m, c, dir, &v))
			return false;
		if (open_tile(m->t[v])) {
			if (len == 0 || m->t[v] == TILE_DOOR)
				return false;
			*b = v;
			break;
		}
		if (len == maxlen || !interior_cell(m, v))
			return false;
		len++;
		c = v;
	}
	/* Each tunnel cell reads as a doorway or a passage: open cells beside
	 * it only next to its ends. */
	c = a;
	for (int i = 0; i < len; i++) {
		step(m, c, dir, &c);
		if (!doorway_ok(m, c, a, *b))
			return false;
	}
	t->a = a;
	t->dir = dir;
	t->len = len;
	return true;
}

static void dig_tunnel(struct map *m, const struct tunnel *t, bool doors, struct grng *r)
{
	int c = t->a;
	for (int i = 0; i < t->len; i++) {
		step(m, c, t->dir, &c);
		bool door = doors && t->len == 1 && rchance(r, 30);
		carve(m, c, door ? TILE_DOOR : TILE_FLOOR, KIND_DOORWAY);
	}
}

/*
 * Joins cells near in space but far by path: a tunnel is dug when its
 * ends are more than `far` steps apart.  When no tunnel qualifies, the
 * one between the ends farthest apart (at least 6 steps) is dug, so a map
 * with any thin wall between distant floor gets a loop.
 */
/*
 * A wall in open floor: a cell whose every neighbour is open becomes wall,
 * and the ring around it is a loop (for a map with no thin wall between
 * distant floor: one open cave or hall).  False when no cell qualifies.
 */
static bool add_pillar(struct map *m, struct grng *r)
{
	int count = 0, pick = -1;
	for (int pass = 0; pass < 2; pass++) {
		int k = pass ? rbelow(r, count) : 0;
		for (int i = 0; i < m->nlist; i++) {
			int c = m->list[i];
			if (m->t[c] != TILE_FLOOR || open_near(m, c, NULL) != m->tp.n_near)
				continue;
			bool plain = true; /* no door beside it: doors stay in walls */
			for (int j = 0; j < m->tp.n_near && plain; j++) {
				int v;
				plain = step(m, c, j, &v) && m->t[v] != TILE_DOOR;
			}
			if (!plain)
				continue;
			if (pass == 0)
				count++;
			else if (k-- == 0)
				pick = c;
		}
		if (count == 0)
			return false;
	}
	m->t[pick] = TILE_WALL;
	m->kind[pick] = KIND_NONE;
	rebuild_list(m);
	return true;
}

static int add_loops(struct map *m, struct grng *r, bool caves)
{
	if (m->nlist == 0)
		return 0;
	int side = m->w < m->h ? m->w : m->h;
	int far = 8 + side / 4;
	if (far > 30)
		far = 30;
	int maxlen = caves ? 3 : 2;
	/* Every possible tunnel, by its open end and direction, in scan order;
	 * then tried in a random order. */
	int *cand = m->piece, ncand = 0;
	for (int i = 0; i < m->nlist; i++) {
		int a = m->list[i];
		if (m->t[a] == TILE_DOOR)
			continue;
		for (int dir = 0; dir < m->tp.n_conn; dir++) {
			struct tunnel tn;
			int b;
			/* Each tunnel once: from its end earlier in scan order. */
			if (find_tunnel(m, a, dir, maxlen, &tn, &b) && a < b && ncand < m->n)
				cand[ncand++] = a * 8 + dir;
		}
	}
	int target = 1 + m->nlist / 120;
	int searches = 0, max_searches = 40 + 8 * target, added = 0;
	struct tunnel best = { -1, 0, 0, -1 };
	for (int i = 0; i < ncand && added < target && searches < max_searches; i++) {
		int j = i + rbelow(r, ncand - i);
		int pick = cand[j];
		cand[j] = cand[i];
		cand[i] = pick;
		struct tunnel tn;
		int b;
		/* Earlier tunnels may have opened cells beside this one. */
		if (!find_tunnel(m, pick / 8, pick % 8, maxlen, &tn, &b))
			continue;
		searches++;
		int d = near_by_path(m, tn.a, b, far + tn.len);
		if (d < 0) {
			dig_tunnel(m, &tn, !caves, r);
			added++;
		} else if (d > best.dist) {
			best = tn;
			best.dist = d;
		}
	}
	if (added == 0 && best.dist >= 6) {
		dig_tunnel(m, &best, !caves, r);
		added++;
	}
	if (added == 0 && add_pillar(m, r))
		added++;
	return added;
}

/* ---- terrain ------------------------------------------------------------- */

static void add_terrain(struct map *m, struct grng *r, bool caves)
{
	int patches = 1 + m->nlist / 160;
	for (int p = 0; p < patches && m->nlist > 0; p++) {
		uint8_t tile = rchance(r, caves ? 60 : 45) ? TILE_WATER : TILE_RUBBLE;
		int size = rchance(r, 15) ? rrange(r, 12, 30) : rrange(r, 3, 10);
		int first = m->list[rbelow(r, m->nlist)];
		if (m->t[first] != TILE_FLOOR)
			continue;
		int n = 0;
		m->t[first] = tile;
		m->piece[n++] = first;
		for (int tries = 0; n < size && tries < size * 6; tries++) {
			int c = m->piece[rbelow(r, n)], v;
			if (step(m, c, rbelow(r, m->tp.n_conn), &v) && m->t[v] == TILE_FLOOR) {
				m->t[v] = tile;
				m->piece[n++] = v;
			}
		}
	}
}

/* ---- the start, the exit, items and monsters ---------------------------- */

/* A random open cell, not a door, not taken, with dist >= min_dist (when
 * min_dist > 0; uses m->dist).  -1 when none was found. */
static int pick_cell(struct map *m, struct grng *r, int min_dist)
{
	for (int tries = 0; tries < 64; tries++) {
		int c = m->list[rbelow(r, m->nlist)];
		if (m->t[c] != TILE_DOOR && !m->busy[c] && (min_dist <= 0 || m->dist[c] >= min_dist))
			return c;
	}
	/* Few cells qualify: choose uniformly among all that do. */
	int count = 0;
	for (int i = 0; i < m->nlist; i++) {
		int c = m->list[i];
		if (m->t[c] != TILE_DOOR && !m->busy[c] && (min_dist <= 0 || m->dist[c] >= min_dist))
			count++;
	}
	if (count == 0)
		return -1;
	int k = rbelow(r, count);
	for (int i = 0; i < m->nlist; i++) {
		int c = m->list[i];
		if (m->t[c] != TILE_DOOR && !m->busy[c] && (min_dist <= 0 || m->dist[c] >= min_dist) && k-- == 0)
			return c;
	}
	return -1;
}

struct kind_row {
	char glyph;
	int from_depth, peak_depth, last_depth;
	int group;      /* placed this many together (a swarm); 0 or 1: alone */
};
#define GEN_GROUP_MAX 6

/* The monsters of the campaign's bestiary, by the depth they appear from,
 * the depth where they are most common and the last depth they appear at,
 * so a new kind or a new mix comes every two or three levels and the deep
 * levels hold none of the first ones (docs/gen.md).  A glyph the bestiary
 * lacks is left out.  Minds: chase r b g z o O, pack j w W, ranged k S C,
 * dig m U, track d T, ambush s L, swarm a (placed in groups), breed J. */
static const struct kind_row KINDS[] = {
	{ 'r', 1, 1, 4, 0 },   { 'b', 1, 2, 6, 0 },   { 'g', 1, 3, 8, 0 },   { 'j', 2, 3, 7, 0 },
	{ 'k', 2, 4, 9, 0 },   { 'w', 3, 5, 11, 0 },  { 'a', 3, 5, 10, 5 },  { 'z', 3, 6, 10, 0 },
	{ 'm', 4, 6, 12, 0 },  { 'o', 4, 7, 14, 0 },  { 's', 5, 7, 13, 0 },  { 'J', 5, 8, 16, 0 },
	{ 'd', 6, 8, 15, 0 },  { 'O', 6, 10, 18, 0 }, { 'S', 7, 10, 99, 0 }, { 'W', 9, 12, 99, 0 },
	{ 'U', 11, 14, 99, 0 }, { 'T', 12, 15, 99, 0 }, { 'L', 13, 16, 99, 0 }, { 'C', 14, 17, 99, 0 },
};

static int row_weight(const struct bestiary *b, int depth, const struct kind_row *k)
{
	if (depth < k->from_depth || depth > k->last_depth)
		return 0;
	if (b && !bestiary_find_glyph(b, k->glyph))
		return 0;
	int w = 6 - iabs(depth - k->peak_depth);
	return w < 1 ? 1 : w;
}

static int kind_weight(const struct gen_params *p, const struct kind_row *k)
{
	return row_weight(p->bestiary, p->depth, k);
}

int gen_kinds_at(const struct bestiary *b, int depth, char *glyphs, int *weights, int max)
{
	int n = 0;
	for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0] && n < max; i++) {
		int w = row_weight(b, depth, &KINDS[i]);
		if (w > 0) {
			glyphs[n] = KINDS[i].glyph;
			weights[n] = w;
			n++;
		}
	}
	return n;
}

static const struct kind_row *pick_kind(const struct gen_params *p, struct grng *r)
{
	int total = 0;
	for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
		total += kind_weight(p, &KINDS[i]);
	if (total == 0)
		return NULL;
	int v = rbelow(r, total);
	for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
		v -= kind_weight(p, &KINDS[i]);
		if (v < 0)
			return &KINDS[i];
	}
	return NULL;
}

/* A free cell for a member of a group near `c`: a short random walk over
 * open cells, at least min_dist steps from the start; -1 when the draws
 * found none. */
static int pick_near(struct map *m, struct grng *r, int c, int min_dist)
{
	for (int tries = 0; tries < 8; tries++) {
		int u = c;
		for (int s = 0; s < 3; s++) {
			int v;
			if (step(m, u, rbelow(r, m->tp.n_near), &v) && open_tile(m->t[v]))
				u = v;
		}
		if (u != c && m->t[u] != TILE_DOOR && !m->busy[u] && m->dist[u] >= min_dist && m->mark[u] != m->stamp)
			return u;
	}
	return -1;
}

struct placed {
	int start, exit;
	struct level_item *items;
	int n_items;
	struct level_monster *monsters;
	int n_monsters;
};

static void put_floor(struct map *m, int c, uint8_t tile)
{
	m->t[c] = tile;
	m->busy[c] = 1;
}

static bool place_things(struct map *m, const struct gen_params *p, struct grng *r, struct placed *out)
{
	memset(out, 0, sizeof *out);
	out->start = out->exit = -1;
	if (m->nlist < 2)
		return false;
	/* The start far from a random cell, the exit far from the start. */
	int far = bfs(m, m->list[rbelow(r, m->nlist)], true, -1);
	out->start = pick_cell(m, r, far - far / 4);
	if (out->start < 0)
		return false;
	put_floor(m, out->start, TILE_FLOOR);
	far = bfs(m, out->start, true, -1);
	out->exit = pick_cell(m, r, far > 0 ? far - far * 3 / 20 : 1);
	if (out->exit < 0)
		return false;
	put_floor(m, out->exit, TILE_EXIT);

	/* Items by class; the game draws each one's kind from the catalogue
	 * by the level's depth (levels/items.txt: depth, max-depth, freq). */
	static const enum item_kind others[] = { ITEM_SCROLL, ITEM_SCROLL, ITEM_SCROLL, ITEM_WAND,
						 ITEM_WEAPON, ITEM_WEAPON, ITEM_ARMOUR, ITEM_ARMOUR,
						 ITEM_AMMO,   ITEM_AMMO,   ITEM_TOOL };
	const int n_others = (int)(sizeof others / sizeof others[0]);
	int potions = 1 + m->nlist / 600, gold = 1 + m->nlist / 300, more = 1 + m->nlist / 400;
	out->items = malloc((size_t)(potions + gold + more) * sizeof *out->items);
	if (!out->items)
		return false;
	for (int i = 0; i < potions + gold + more; i++) {
		int c = pick_cell(m, r, 0);
		if (c < 0)
			break;
		put_floor(m, c, TILE_FLOOR);
		enum item_kind cls = i < potions ? ITEM_POTION : i < potions + gold ? ITEM_GOLD
											: others[rbelow(r, n_others)];
		out->items[out->n_items++] = (struct level_item){ cls, c % m->w, c / m->w };
	}

	/* Monsters: more and stronger with depth, none within GEN_SAFE_STEPS
	 * steps of the start by path nor within two cells of it in space. */
	int wanted = m->nlist * (3 + p->depth) / 700;
	if (wanted < 1)
		wanted = 1;
	out->monsters = malloc((size_t)wanted * sizeof *out->monsters);
	if (!out->monsters)
		return false;
	m->stamp++;
	m->mark[out->start] = m->stamp;
	for (int i = 0; i < m->tp.n_near; i++) {
		int v, u;
		if (!step(m, out->start, i, &v))
			continue;
		m->mark[v] = m->stamp;
		for (int j = 0; j < m->tp.n_near; j++)
			if (step(m, v, j, &u))
				m->mark[u] = m->stamp;
	}
	for (int i = 0; i < wanted; i++) {
		const struct kind_row *kr = pick_kind(p, r);
		if (!kr)
			break;
		char g = kr->glyph;
		int c = -1;
		for (int tries = 0; tries < 8 && c < 0; tries++) {
			c = pick_cell(m, r, GEN_SAFE_STEPS + 1);
			if (c >= 0 && m->mark[c] == m->stamp)
				c = -1;
		}
		if (c < 0)
			break;
		put_floor(m, c, TILE_FLOOR);
		out->monsters[out->n_monsters++] = (struct level_monster){ g, c % m->w, c / m->w };
		/* a group's members count toward the monsters wanted, and
		 * never go past them */
		for (int k = 1; k < kr->group && k < GEN_GROUP_MAX && i + 1 < wanted; k++) {
			int u = pick_near(m, r, c, GEN_SAFE_STEPS + 1);
			if (u < 0)
				break;
			put_floor(m, u, TILE_FLOOR);
			out->monsters[out->n_monsters++] = (struct level_monster){ g, u % m->w, u / m->w };
			i++;
		}
	}
	return true;
}

/* ---- the level ----------------------------------------------------------- */

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static char *level_name(uint64_t key, bool caves)
{
	static const char *const adjectives[] = {
		"Damp", "Silent", "Crooked", "Sunken", "Forgotten", "Narrow", "Echoing", "Mossy",
		"Broken", "Hollow", "Dim", "Winding", "Flooded", "Bitter", "Ashen", "Lost",
	};
	static const char *const rooms[] = {
		"Halls", "Cellars", "Vaults", "Galleries", "Chambers", "Cloisters", "Crypts", "Barracks",
	};
	static const char *const caverns[] = {
		"Caverns", "Grottoes", "Burrows", "Hollows", "Warrens", "Deeps", "Tunnels", "Pits",
	};
	struct grng r = stream(key, PH_NAME);
	const char *a = adjectives[rbelow(&r, (int)(sizeof adjectives / sizeof adjectives[0]))];
	const char *n = caves ? caverns[rbelow(&r, 8)] : rooms[rbelow(&r, 8)];
	char buf[64];
	snprintf(buf, sizeof buf, "The %s %s", a, n);
	return dup_str(buf);
}

static bool fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return false;
}

/* Builds the map of one style.  Caves that come out too small (under a
 * quarter of the inside) are drawn again from the stream. */
static bool build_layout(struct map *m, enum gen_style style, uint64_t key)
{
	struct grng r = stream(key, PH_LAYOUT);
	int inside = (m->w - 2) * (m->h - 2);
	if (style == GEN_STYLE_CAVES) {
		for (int attempt = 0; attempt < 8; attempt++) {
			layout_caves(m, &r);
			join_regions(m, 10);
			if (keep_largest(m) * 4 >= inside)
				return true;
		}
		memset(m->t, TILE_WALL, (size_t)m->n);
		memset(m->kind, KIND_NONE, (size_t)m->n);
	}
	m->nlist = 0;
	layout_rooms(m, &r);
	return keep_largest(m) >= 2;
}

bool gen_level(const struct gen_params *p, struct gen_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct topo tp;
	if (!topo_of(p->topo, &tp))
		return fail(err, errlen, "the generator does not know this topology");
	if (p->w < GEN_MIN_WIDTH || p->h < GEN_MIN_HEIGHT || p->w > LEVEL_MAX_SIDE || p->h > LEVEL_MAX_SIDE)
		return fail(err, errlen, "size out of range");
	if (p->depth < 1 || p->depth > GEN_MAX_DEPTH)
		return fail(err, errlen, "depth out of range");

	enum gen_style style = p->style;
	if (style == GEN_STYLE_MIXED) {
		struct grng r = stream(key_of(p, GEN_STYLE_MIXED), PH_STYLE);
		style = rchance(&r, 55) ? GEN_STYLE_ROOMS : GEN_STYLE_CAVES;
	}
	uint64_t key = key_of(p, style);
	bool caves = style == GEN_STYLE_CAVES;

	struct map m;
	memset(&m, 0, sizeof m);
	struct placed pl = { -1, -1, NULL, 0, NULL, 0 };
	struct level *lv = calloc(1, sizeof *lv);
	bool ok = lv && map_init(&m, &tp, p->w, p->h);
	if (ok)
		ok = build_layout(&m, style, key);
	if (ok) {
		struct grng r = stream(key, PH_LOOPS);
		add_loops(&m, &r, caves);
		r = stream(key, PH_TERRAIN);
		add_terrain(&m, &r, caves);
		r = stream(key, PH_PLACES);
		ok = place_things(&m, p, &r, &pl);
	}
	if (ok) {
		char desc[200];
		snprintf(desc, sizeof desc,
			 "Generated by astray gen, generator %d: %s %dx%d, depth %d, style %s, seed %llu.",
			 GEN_VERSION, grid_topology_name(p->topo), p->w, p->h, p->depth, gen_style_name(style),
			 (unsigned long long)p->seed);
		lv->name = level_name(key, caves);
		lv->author = dup_str("astray gen");
		lv->description = dup_str(desc);
		lv->topo = p->topo;
		lv->w = p->w;
		lv->h = p->h;
		lv->tiles = m.t;
		m.t = NULL;
		lv->player_x = pl.start % p->w;
		lv->player_y = pl.start / p->w;
		lv->items = pl.items;
		lv->n_items = pl.n_items;
		lv->monsters = pl.monsters;
		lv->n_monsters = pl.n_monsters;
		pl.items = NULL;
		pl.monsters = NULL;
		ok = lv->name && lv->author && lv->description;
	}
	if (ok)
		out->text = level_write(lv, &out->len);
	level_destroy(lv);
	free(pl.items);
	free(pl.monsters);
	map_fini(&m);
	if (!ok || !out->text) {
		free(out->text);
		out->text = NULL;
		return fail(err, errlen, "out of memory or no room for a level of this size");
	}
	struct diag_list d = { 0 };
	out->level = level_parse("generated", out->text, out->len, p->bestiary, &d);
	diag_list_fini(&d);
	CHECK(out->level != NULL);
	if (!out->level) {
		gen_result_free(out);
		return fail(err, errlen, "internal error: the generated text does not parse");
	}
	out->style = style;
	return true;
}

void gen_result_free(struct gen_result *r)
{
	free(r->text);
	level_destroy(r->level);
	r->text = NULL;
	r->level = NULL;
}

/* ---- measuring ----------------------------------------------------------- */

bool gen_measure(const struct level *lv, struct gen_shape *out)
{
	memset(out, 0, sizeof *out);
	struct topo tp;
	if (!topo_of(lv->topo, &tp))
		return false;
	struct map m;
	if (!map_init(&m, &tp, lv->w, lv->h)) {
		map_fini(&m);
		return false;
	}
	memcpy(m.t, lv->tiles, (size_t)m.n);
	rebuild_list(&m);
	/* E - V + C on the joining steps, and the trivial cycles. */
	long edges = 0, faces = 0;
	for (int c = 0; c < m.n; c++) {
		if (!open_tile(m.t[c]))
			continue;
		for (int i = 0; i < tp.n_conn; i++) {
			int v;
			if (step(&m, c, i, &v) && v > c && open_tile(m.t[v]))
				edges++;
		}
		int x = c % m.w, y = c / m.w;
		if (tp.diamond) {
			/* Diamonds: c with its SE, SW and S (two rows down). */
			int se, sw, so;
			if (step(&m, c, 2, &se) && open_tile(m.t[se]) && step(&m, c, 3, &sw) &&
			    open_tile(m.t[sw]) && step(&m, c, 7, &so) && open_tile(m.t[so]))
				faces++;
		} else if (tp.n_near == 8) {
			if (x + 1 < m.w && y + 1 < m.h && open_tile(m.t[c + 1]) && open_tile(m.t[c + m.w]) &&
			    open_tile(m.t[c + m.w + 1]))
				faces++;
		} else {
			/* Hex triangles: c with its E and SE neighbours, and c with
			 * its SW and SE neighbours (rows 1, 5, 4 of the table). */
			int e, se, sw;
			bool has_se = step(&m, c, 5, &se) && open_tile(m.t[se]);
			if (has_se && step(&m, c, 1, &e) && open_tile(m.t[e]))
				faces++;
			if (has_se && step(&m, c, 4, &sw) && open_tile(m.t[sw]))
				faces++;
		}
	}
	int regions = 0;
	for (int c = 0; c < m.n; c++)
		m.dist[c] = -1;
	for (int s = 0; s < m.n; s++) {
		if (!open_tile(m.t[s]) || m.dist[s] >= 0)
			continue;
		regions++;
		int head = 0, tail = 0;
		m.dist[s] = 0;
		m.queue[tail++] = s;
		while (head < tail) {
			int c = m.queue[head++];
			for (int i = 0; i < tp.n_conn; i++) {
				int v;
				if (step(&m, c, i, &v) && m.dist[v] < 0 && open_tile(m.t[v])) {
					m.dist[v] = 0;
					m.queue[tail++] = v;
				}
			}
		}
	}
	out->floor = m.nlist;
	out->regions = regions;
	out->cycles = edges - m.nlist + regions;
	out->loops = out->cycles - faces;

	/* Shortest routes: cells with d(start, c) + d(c, exit) == d(start, exit). */
	int start = lv->player_y * lv->w + lv->player_x;
	int *from_start = malloc((size_t)m.n * sizeof *from_start);
	if (!from_start) {
		map_fini(&m);
		return false;
	}
	bfs(&m, start, true, -1);
	memcpy(from_start, m.dist, (size_t)m.n * sizeof *from_start);
	int exit_cell = -1;
	for (int c = 0; c < m.n; c++)
		if (m.t[c] == TILE_EXIT && from_start[c] >= 0 &&
		    (exit_cell < 0 || from_start[c] < from_start[exit_cell]))
			exit_cell = c;
	out->route = exit_cell >= 0 ? from_start[exit_cell] : -1;
	if (exit_cell >= 0) {
		bfs(&m, exit_cell, true, -1);
		for (int c = 0; c < m.n; c++)
			if (from_start[c] >= 0 && m.dist[c] >= 0 && from_start[c] + m.dist[c] == out->route)
				out->on_route++;
	}
	free(from_start);
	map_fini(&m);
	return true;
}
