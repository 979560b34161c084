/*
 * region.c - connected regions of a grid's passable cells (region.h), for
 * the fallback search (path.c): a goal outside the start's region cannot be
 * reached without crossing a blocked cell, which one comparison now says
 * where a search had to settle the whole start region to learn it.
 *
 * Each passable cell holds an id of a union-find over ids; the cells of a
 * region hold ids of one set.  A full labelling works on runs (a row's
 * stretches of open cells that are each within one region: on square and
 * hex maps any stretch, since row neighbours are joined; on diamond maps
 * the stretches joined through the row above, run_kind):
 * the first pass finds each row's runs from a bit per cell (its cost
 * bytes read eight at a time) and unites each run with the runs of the
 * row above that it touches, in a union-find over run numbers; the second
 * gives each set a dense id in the order of its first cell and writes
 * each run's cells and each gap's, eight at a time.  So the work per cell
 * is a bit and a store, and the branches are per run (join_runs,
 * number_runs).  Diamond maps with corner cutting keep a scan in cell
 * order that joins each cell to its earlier neighbours (a union-find over
 * cell indices held in the label array itself).  The memory beyond the
 * labels and the sets: the runs, 12 bytes each, kept for the next
 * labelling.
 *
 * Changes: an opening cell unites the sets of its neighbours (by size).
 * A closing cell leaves its region whole when the passable cells around
 * it that touch it form one run around it (they stay joined through each
 * other).  Otherwise walks start from each run at once, a cell each in
 * turn (split_check): walks that meet are one side; a side whose walks
 * all end without meeting the others is cut off and gets a new id.  The
 * cost is about the smaller side, or the distance at which the sides
 * meet, not the region.  A walk past SPLIT_WALK_LIMIT cells gives up and
 * marks the labels stale, and region_refresh labels the map anew.
 *
 * What this file does not do: know which array the grid will point at
 * next, or notice a change nobody reports (the caller reports each one).
 */
#include "region.h"

#include "bigmem.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct region {
	const struct grid *g;
	const uint8_t *cost;   /* the array the labels describe */
	bool cc;               /* corner cutting: long steps join cells too */
	bool stale;
	int w, h, n;
	int conn;              /* expansion-table rows that join cells: 4, 6 or 8 */
	int32_t *label;        /* n: a set id, or -1 blocked */
	int32_t *parent;       /* cap: the union-find over ids */
	int32_t *size;         /* cap: cells in a root's set */
	int32_t ids, cap;      /* ids in use, room */
	/* a whole labelling's runs (square and hex), kept for the next one: one
	 * block of huge pages (big_malloc) of three arrays of run_cap */
	int32_t *run_link;     /* the union-find over runs, then each run's id coded */
	int32_t *run_a, *run_e; /* run k is cells [run_a[k], run_e[k]) of its row */
	int32_t run_cap;
	int32_t *row_first;    /* h + 1: the first run of each row */
	/* after a relabelling by runs the labels are written a band of cells
	 * at a time on its first read (label_at), from the kept runs */
	atomic_uchar *band_unwritten; /* a band's labels are yet to be written: bands(r) of them,
	                          and after them the lock of fill_band */
	int32_t *line;         /* w + FILL_OVER: a row made here whose fill would pass its band
	                          (fill_band's, under its lock) */
	long regions;
	long rebuilds;
	/* split_check's scratch, made on its first use */
	uint32_t *mark;        /* n: which walk of which check reached the cell */
	uint32_t epoch;        /* the marks of the current check start here */
	int *walk[4];          /* each walk's cells, in the order reached */
	long walk_cap[4];
};

static int conn_rows(enum grid_topology t, bool cc)
{
	if (t == GRID_HEX)
		return 6;
	return cc && (t == GRID_SQUARE8 || t == GRID_DIAMOND8) ? 8 : 4;
}

/* Neighbour i (expansion table row) of (x, y), or -1 outside the map. */
static inline int nb(const struct region *r, int x, int y, int i)
{
	const enum grid_topology t = r->g->topo;
	const int nx = x + grid_nb_dx(t, y, i), ny = y + grid_nb_dy(t, i);
	if ((unsigned)nx >= (unsigned)r->w || (unsigned)ny >= (unsigned)r->h)
		return -1;
	return ny * r->w + nx;
}

static int32_t find_mut(struct region *r, int32_t id)
{
	while (r->parent[id] != id) {
		r->parent[id] = r->parent[r->parent[id]];
		id = r->parent[id];
	}
	return id;
}

static int32_t find_const(const struct region *r, int32_t id)
{
	while (r->parent[id] != id)
		id = r->parent[id];
	return id;
}

static bool reserve(struct region *r, int32_t need)
{
	if (need <= r->cap)
		return true;
	int32_t cap = r->cap > 0 ? r->cap : 64;
	while (cap < need)
		cap = cap > INT32_MAX / 2 ? INT32_MAX : cap * 2;
	int32_t *p = realloc(r->parent, (size_t)cap * sizeof *p);
	if (!p)
		return false;
	r->parent = p;
	int32_t *s = realloc(r->size, (size_t)cap * sizeof *s);
	if (!s)
		return false;
	r->size = s;
	r->cap = cap;
	return true;
}

/* The scan's union-find over cell indices, in the label array: a root
 * holds its own index, and every link goes to a smaller index. */
static int32_t cell_root(int32_t *lab, int32_t c)
{
	while (lab[c] != c) {
		lab[c] = lab[lab[c]];
		c = lab[c];
	}
	return c;
}

/*
 * Square and hex maps join a cell to its row neighbours, so a row's open
 * cells come in runs that are each within one region.  A run [a, e) of
 * row y touches the cells of row y - 1 within [a + lo, e - 1 + hi], lo and
 * hi the least and largest dx of the steps up at the row's parity (square
 * without corner cutting 0 and 0, with it -1 and 1; hex by parity).
 *
 * Diamond maps have no row steps, but their short steps (all that join
 * cells without corner cutting) link rows y - 1 and y in a zigzag: on an
 * even row cell x touches x - 1 and x above, on an odd row x and x + 1,
 * so the two rows read in the order C0 U0 C1 U1 ... (even; U0 C0 U1 C1 ...
 * odd; C this row, U the row above) are a path, each element joined to the
 * next.  A stretch of open elements of it is one region's: its cells of
 * row y are a run, and the cells of row y - 1 in it are what the run
 * touches above.  So diamond rows have runs too: cells x and x + 1 of row
 * y are in one when both are open and so is the cell above between them
 * (diamond_runs), and a run [a, e) touches the open cells of row y - 1
 * within [a + lo, e - 1 + hi], as on square maps.  Diamond with corner
 * cutting (corner steps two rows up) keeps the cell scan.
 */
enum run_kind { RUNS_NONE, RUNS_ROW, RUNS_ZIGZAG };

static enum run_kind run_kind(const struct region *r, int lo[2], int hi[2])
{
	const enum grid_topology t = r->g->topo;
	if (grid_is_diamond(t) && r->conn != 4)
		return RUNS_NONE;
	for (int par = 0; par < 2; par++) {
		lo[par] = 2;
		hi[par] = -2;
		for (int i = 0; i < r->conn; i++)
			if (grid_nb_dy(t, i) == -1) {
				const int dx = grid_nb_dx(t, par, i);
				lo[par] = dx < lo[par] ? dx : lo[par];
				hi[par] = dx > hi[par] ? dx : hi[par];
			}
	}
	return grid_is_diamond(t) ? RUNS_ZIGZAG : RUNS_ROW;
}

/*
 * A row's runs are found from a bit per cell: its cost bytes eight at a
 * time as one word, each non-zero byte flagged by its top bit (the low
 * seven bits plus 0x7f carry into the top bit for any non-zero byte and
 * never into the next byte), the eight flags gathered into a byte by one
 * multiplication (flag k, at bit 8k + 7, lands at bit 56 + k).
 */
#define LOW7 0x7f7f7f7f7f7f7f7fULL
#define TOPS 0x8080808080808080ULL
#define GATHER 0x0102040810204080ULL

static inline uint64_t open_byte(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return (((((v & LOW7) + LOW7) | v) & TOPS) >> 7) * GATHER >> 56;
}

/* bits[x / 64] bit x % 64: whether cell row + x (of the n-cell array) is
 * passable, for x < w; the bits past w are clear. */
static void row_bits(const uint8_t *cost, int n, int row, int w, uint64_t *bits)
{
	const int words = (w + 63) / 64;
	int i = 0;
#if defined(__SSE2__)
	/* sixteen bytes a compare: a word's 64 cells in four */
	const __m128i zero = _mm_setzero_si128();
	for (; i < words && (long)row + 64L * (i + 1) <= n; i++) {
		const uint8_t *p = cost + row + 64 * i;
		uint64_t word = 0;
		for (int k = 0; k < 4; k++) {
			const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
			word |= (uint64_t)(uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) << (16 * k);
		}
		bits[i] = word;
	}
#endif
	for (; i < words; i++) {
		uint64_t word = 0;
		for (int k = 0; k < 8; k++) {
			const int c = row + 64 * i + 8 * k;
			uint64_t byte = 0;
			if (c <= n - 8) {
				byte = open_byte(cost + c);
			} else {
				for (int b = 0; b < 8 && c + b < n; b++)
					byte |= (uint64_t)(cost[c + b] != 0) << b;
			}
			word |= byte << (8 * k);
		}
		bits[i] = word;
	}
	if (w % 64)
		bits[words - 1] &= (1ULL << (w % 64)) - 1;
}

/* out[k...] = base + the position of each set bit of `bits`, in order;
 * returns k plus their number.  Writes one entry past them. */
static inline int put_bits(int *out, int k, uint64_t bits, int base)
{
	/* most words hold few: four written whatever, counted only if set */
	for (int t = 0; t < 4; t++) {
		out[k] = base + __builtin_ctzll(bits | 1ULL << 63);
		k += bits != 0;
		bits &= bits - 1;
	}
	while (bits) {
		out[k++] = base + __builtin_ctzll(bits);
		bits &= bits - 1;
	}
	return k;
}

/* The row's runs from its bits: run i is cells [sa[i], se[i]) of the row.
 * sa and se need room for w / 2 + 2.  Returns how many there are. */
static int row_runs(const uint64_t *bits, int w, int *sa, int *se)
{
	const int words = (w + 63) / 64;
	int ns = 0, ne = 0;
	uint64_t carry = 0; /* bit 0: the cell before the word is open */
	for (int i = 0; i < words; i++) {
		const uint64_t b = bits[i], before = b << 1 | carry;
		carry = b >> 63;
		ns = put_bits(sa, ns, b & ~before, 64 * i);
		ne = put_bits(se, ne, ~b & before, 64 * i);
	}
	if (ne < ns)
		se[ne] = w; /* a run to the row's end, w a multiple of 64 */
	return ns;
}

/* The room a row's runs need in each array (a diamond row's zigzag may
 * hold a run a cell), and the words of a row's bits. */
static int run_room(int w) { return w + 2; }
static int bit_words(int w) { return (w + 63) / 64; }

/*
 * A diamond row's runs from its bits c and the row above's u: cells x and
 * x + 1 of the row are joined by the short steps of the two rows when both
 * are open and so is the one cell of the row above that both touch,
 * x + shift (shift the largest dx up at the row's parity, hi; the least,
 * lo, is shift - 1).  Bit x of `join` says so, and a run starts at an open
 * cell not joined to the one before and ends after an open cell not joined
 * to the next: one pass over the row's words, no zigzag of the two rows
 * made.  Run i is cells [sa[i], se[i]); returns how many there are.
 */
static int diamond_runs(const uint64_t *c, const uint64_t *u, int words, int shift, int *sa, int *se)
{
	int ns = 0, ne = 0;
	uint64_t carry = 0; /* bit 0: the last cell of the word before is joined to the next */
	for (int i = 0; i < words; i++) {
		const uint64_t cn = i + 1 < words ? c[i + 1] : 0, un = i + 1 < words ? u[i + 1] : 0;
		const uint64_t next = c[i] >> 1 | cn << 63, up = shift ? u[i] >> 1 | un << 63 : u[i];
		const uint64_t join = c[i] & next & up;
		ns = put_bits(sa, ns, c[i] & ~(join << 1 | carry), 64 * i);
		ne = put_bits(se, ne, c[i] & ~join, 64 * i + 1);
		carry = join >> 63;
	}
	return ns;
}

/* A labelling's scratch, O(w): one allocation. */
struct run_scratch {
	uint64_t *bits[2]; /* bit_words(w) each: a row's bits, by row parity (diamond: the row above's too) */
	int32_t *line;     /* w + FILL_OVER: a row of labels (number_runs) */
};

/* Row y's runs into ca, ce.  Returns how many there are. */
static int runs_of_row(const struct region *r, enum run_kind kind, const int hi[2],
		       struct run_scratch *s, int y, int *ca, int *ce)
{
	const int w = r->w, par = y & 1;
	uint64_t *bits = s->bits[par];
	row_bits(r->cost, r->n, y * w, w, bits);
	if (y == 0)
		memset(s->bits[1], 0, (size_t)bit_words(w) * sizeof *bits); /* no row above: all blocked */
	const int nc = kind == RUNS_ROW ? row_runs(bits, w, ca, ce)
					: diamond_runs(bits, s->bits[par ^ 1], bit_words(w), hi[par], ca, ce);
	return nc;
}

/* The union-find over runs: find with path halving. */
static int32_t run_root(int32_t *parent, int32_t k)
{
	while (parent[k] != k) {
		parent[k] = parent[parent[k]];
		k = parent[k];
	}
	return k;
}

/* Room for `need` runs (of `proj` foreseen), the runs so far kept: a
 * new block, since big_malloc has no realloc.  A first touch of memory
 * is dear on a virtual machine (about 3.4 ms a MiB on 4 KiB pages), so the
 * block is of huge pages and grows at once to the number foreseen. */
static bool reserve_runs(struct region *r, int32_t need, int32_t runs, long proj)
{
	if (need <= r->run_cap)
		return true;
	long cap = r->run_cap > 0 ? 2L * r->run_cap : 4096;
	cap = cap < proj ? proj : cap;
	cap = cap < need ? need : cap;
	cap = cap > INT32_MAX ? INT32_MAX : cap;
	int32_t *block = big_malloc(3 * (size_t)cap * sizeof *block);
	if (!block)
		return false;
	if (runs > 0) {
		memcpy(block, r->run_link, (size_t)runs * sizeof *block);
		memcpy(block + cap, r->run_a, (size_t)runs * sizeof *block);
		memcpy(block + 2 * cap, r->run_e, (size_t)runs * sizeof *block);
	}
	free(r->run_link);
	r->run_link = block;
	r->run_a = block + cap;
	r->run_e = block + 2 * cap;
	r->run_cap = (int32_t)cap;
	return true;
}

/*
 * The first pass: each row's runs found and kept (run_a, run_e, row_first),
 * numbered in cell order, each a set of a union-find over run numbers in
 * run_link (every link to a smaller number, so a set's root is its first
 * run), united with the runs of the row above that touch it.  Nothing of
 * the labels is written.  Returns the number of sets (the regions), -1 on
 * no memory.
 */
static int32_t join_runs(struct region *r, enum run_kind kind, const int lo[2], const int hi[2],
			 struct run_scratch *s)
{
	const int room = run_room(r->w);
	int32_t runs = 0, above = 0, sets = 0; /* runs so far; the first run of the row above; sets */
	for (int y = 0; y < r->h; y++) {
		if (r->run_cap - runs < room &&
		    !reserve_runs(r, runs + room, runs, (long)((double)runs * r->h / (y + 1) * 1.125) + room))
			return -1;
		int32_t *link = r->run_link;
		const int32_t *ua = r->run_a + above, *ue = r->run_e + above;
		int32_t *ca = r->run_a + runs, *ce = r->run_e + runs;
		const int na = runs - above; /* runs in the row above */
		const int nc = runs_of_row(r, kind, hi, s, y, ca, ce);
		const int dlo = lo[y & 1], dhi = hi[y & 1] - 1;
		r->row_first[y] = runs;
		sets += nc;
		for (int i = 0, j = 0; i < nc; i++) {
			const int32_t k = runs + i;
			int32_t rs = k; /* the root of k's set */
			link[k] = k;
			/* the runs above that touch cells [a, b] of the row above (a
			 * range that may hold blocked cells, which are in no run) */
			const int a = ca[i] + dlo, b = ce[i] + dhi;
			while (j < na && ue[j] <= a)
				j++;
			for (int u = j; u < na && ua[u] <= b; u++) {
				const int32_t rb = run_root(link, above + u);
				if (rb < rs) {
					link[rs] = rb;
					rs = rb;
					sets--;
				} else if (rb > rs) {
					link[rb] = rs;
					sets--;
				}
			}
		}
		above = runs;
		runs += nc;
	}
	r->row_first[r->h] = runs;
	return sets;
}

/* Cells [p, p + len) get v, sixteen at a time and at least sixteen (most
 * runs and gaps are shorter: no branch for them): the writes may pass the
 * end by up to sixteen cells, which the caller writes next or has room
 * for. */
#define FILL_OVER 16
static inline void fill_cells(int32_t *p, int len, int32_t v)
{
	const int32_t eight[8] = { v, v, v, v, v, v, v, v };
	memcpy(p, eight, sizeof eight);
	memcpy(p + 8, eight, sizeof eight);
	for (int i = 16; i < len; i += 8)
		memcpy(p + i, eight, sizeof eight);
}

/* Row y's labels from its numbered runs into lab[0, w): each run's cells
 * its id, the blocked cells -1, from the row's first cell to its last (a
 * fill past a run's or a gap's end is written over next; lab has room for
 * FILL_OVER past the row). */
static void fill_row(const struct region *r, int y, int32_t *lab)
{
	const int32_t *link = r->run_link, *sa = r->run_a, *se = r->run_e;
	int x = 0;
	for (int32_t k = r->row_first[y]; k < r->row_first[y + 1]; k++) {
		fill_cells(lab + x, sa[k] - x, -1);
		fill_cells(lab + sa[k], se[k] - sa[k], -2 - link[k]);
		x = se[k];
	}
	fill_cells(lab + x, r->w - x, -1);
}

/*
 * The second pass, over the kept runs in cell order: a run's link of the
 * first pass goes to itself (a root: the next id, so the ids go in the
 * order of each region's first cell) or to an earlier run, which already
 * holds its root's id, coded -2 - id; each run is left holding its id so.
 * With `count`, r's sets over ids (room made for them) are made afresh,
 * one a region, with their sizes.  With `line` (w + FILL_OVER) each row's
 * labels are written as its runs are numbered (fill_row, the rows near the
 * array's end made in `line` and copied), else none (label_at writes them
 * as they are read).  Returns the number of ids.
 */
static int32_t number_runs(struct region *r, bool count, int32_t *line)
{
	int32_t *link = r->run_link;
	const int32_t *sa = r->run_a, *se = r->run_e;
	int32_t ids = 0;
	for (int y = 0, row = 0; y < r->h; y++, row += r->w) {
		for (int32_t k = r->row_first[y]; k < r->row_first[y + 1]; k++) {
			const int32_t p = link[k];
			int32_t id;
			if (p == k) {
				id = ids++;
				if (count) {
					r->parent[id] = id;
					r->size[id] = 0;
				}
			} else {
				id = -2 - link[p];
			}
			link[k] = -2 - id;
			if (count)
				r->size[id] += se[k] - sa[k];
		}
		if (!line)
			continue;
		const bool near_end = (long)row + r->w + FILL_OVER > r->n; /* no room past the row */
		fill_row(r, y, near_end ? line : r->label + row);
		if (near_end)
			memcpy(r->label + row, line, (size_t)r->w * sizeof *line);
	}
	return ids;
}

/* The labels of cells [lo, hi) from the numbered runs: a row in place when
 * its fill past the row's end stays within [lo, hi), else made in `line`
 * (w + FILL_OVER) and its cells within [lo, hi) copied, so no label
 * outside them is touched. */
static void fill_span(const struct region *r, int lo, int hi, int32_t *line)
{
	const int w = r->w;
	for (int y = lo / w, row = y * w; row < hi; y++, row += w) {
		if (row >= lo && (long)row + w + FILL_OVER <= hi) {
			fill_row(r, y, r->label + row);
			continue;
		}
		fill_row(r, y, line);
		const int a = row > lo ? row : lo, e = hi - row < w ? hi : row + w;
		memcpy(r->label + a, line + (a - row), (size_t)(e - a) * sizeof *line);
	}
}

/*
 * The lazy labels: a band is BAND_CELLS cells (16 rows of a 4096-wide
 * map, 256 KiB of labels), written from the kept runs on the first read
 * or change of one of its cells (label_at), so a relabelling costs the
 * runs and their union-find, and the cells are written only where they
 * are read.  label_at takes the labels as const, as region_of does: a
 * band written is what it would have held had the relabelling written it,
 * so nothing the caller sees changes.
 */
#define BAND_SHIFT 16
#define BAND_CELLS (1L << BAND_SHIFT)

static int bands(const struct region *r) { return (int)(((long)r->n + BAND_CELLS - 1) / BAND_CELLS); }

/* Every band marked written (0) or not (1); the lock left open. */
static void bands_mark(struct region *r, unsigned char unwritten)
{
	const int n = bands(r);
	for (int b = 0; b < n; b++)
		atomic_store_explicit(&r->band_unwritten[b], unwritten, memory_order_relaxed);
	atomic_store_explicit(&r->band_unwritten[n], 0, memory_order_release);
}

/*
 * Band b written.  Two threads may read the same labels at once (a
 * click's side search, game_travel.c), so one writes a band while the
 * other waits: under a lock (the byte after the bands; the writing shares
 * r->line), the band's mark read again, cleared with release once its
 * labels are in, which a reader's acquire (label_at) pairs with.  A band
 * is 0.1-0.3 ms to write, and two threads rarely want one at once.
 */
static void fill_band(const struct region *r, int b)
{
	atomic_uchar *lock = &r->band_unwritten[bands(r)];
	unsigned char open = 0;
	while (!atomic_compare_exchange_weak_explicit(lock, &open, 1, memory_order_acquire, memory_order_relaxed))
		open = 0;
	if (atomic_load_explicit(&r->band_unwritten[b], memory_order_relaxed)) {
		const long lo = (long)b * BAND_CELLS, hi = lo + BAND_CELLS < r->n ? lo + BAND_CELLS : r->n;
		fill_span(r, (int)lo, (int)hi, r->line);
		atomic_store_explicit(&r->band_unwritten[b], 0, memory_order_release);
	}
	atomic_store_explicit(lock, 0, memory_order_release);
}

/* Cell c's label, its band written first if it is yet to be. */
static inline int32_t *label_at(const struct region *r, int c)
{
	if (r->band_unwritten && atomic_load_explicit(&r->band_unwritten[c >> BAND_SHIFT], memory_order_acquire))
		fill_band(r, c >> BAND_SHIFT);
	return r->label + c;
}

/* Any grid: each cell joined to its earlier neighbours one by one. */
static void scan_cells(struct region *r)
{
	const uint8_t *cost = r->cost;
	int32_t *lab = r->label;
	for (int y = 0, c = 0; y < r->h; y++)
		for (int x = 0; x < r->w; x++, c++) {
			if (!cost[c]) {
				lab[c] = -1;
				continue;
			}
			lab[c] = c;
			for (int i = 0; i < r->conn; i++) {
				const int v = nb(r, x, y, i);
				if (v < 0 || v > c || !cost[v])
					continue;
				int32_t a = cell_root(lab, c), b = cell_root(lab, v);
				if (a != b) {
					if (a < b)
						lab[b] = a;
					else
						lab[a] = b;
				}
			}
		}
}

/* Diamond maps: the cell scan, then dense ids, coded -2 - id: a cell's
 * parent is an earlier cell and already holds its root's code.  A root is
 * its set's first cell, so the ids go in the order of each region's first
 * cell.  With `count`, r's sets are made afresh with their sizes.  Returns
 * the number of ids, -1 on no memory. */
static int32_t number_cells(struct region *r, bool count)
{
	int32_t *lab = r->label;
	scan_cells(r);
	int32_t ids = 0;
	for (int c = 0; c < r->n; c++) {
		const int32_t p = lab[c];
		if (p < 0)
			continue;
		lab[c] = p == c ? -2 - ids++ : lab[p];
	}
	if (count) {
		if (!reserve(r, ids > 0 ? ids : 1))
			return -1;
		for (int32_t i = 0; i < ids; i++) {
			r->parent[i] = i;
			r->size[i] = 0;
		}
	}
	for (int c = 0; c < r->n; c++)
		if (lab[c] <= -2) {
			lab[c] = -2 - lab[c];
			if (count)
				r->size[lab[c]]++;
		}
	return ids;
}

/* Every cell labelled: runs where the map allows, else (and when the
 * runs find no memory) the cell scan.  With r's bands (region_create) the
 * runs' labels are written as they are read, else at once.  -1 on no
 * memory. */
static int32_t label_all(struct region *r, bool count)
{
	int lo[2], hi[2];
	const enum run_kind kind = run_kind(r, lo, hi);
	if (r->band_unwritten)
		bands_mark(r, 0);
	if (kind != RUNS_NONE) {
		const size_t words = (size_t)bit_words(r->w);
		/* the words first, then the ints */
		uint64_t *block = malloc(2 * words * sizeof *block + ((size_t)r->w + FILL_OVER) * sizeof(int));
		if (!r->row_first)
			r->row_first = malloc(((size_t)r->h + 1) * sizeof *r->row_first);
		int32_t ids = -1, sets = -1;
		if (block && r->row_first) {
			int *ints = (int *)(block + 2 * words);
			struct run_scratch s = { .bits = { block, block + words }, .line = ints };
			sets = join_runs(r, kind, lo, hi, &s);
			/* with `count` the sets made afresh, one a region, with their sizes */
			if (sets >= 0 && (!count || reserve(r, sets > 0 ? sets : 1)))
				ids = number_runs(r, count, r->band_unwritten ? NULL : s.line);
			if (ids >= 0 && r->band_unwritten)
				bands_mark(r, 1);
		}
		free(block);
		if (ids >= 0)
			return ids;
	}
	return number_cells(r, count);
}

/* The labels alone, into `out`: the runs and their union-find in scratch
 * memory freed on return; with none to be had, the cell scan in `out`
 * itself. */
int32_t region_label(const struct grid *g, const uint8_t *cost, bool corner_cutting, int32_t *out)
{
	struct region r = { .g = g, .cost = cost, .cc = corner_cutting, .w = g->w, .h = g->h, .n = g->w * g->h,
			     .conn = conn_rows(g->topo, corner_cutting), .label = out };
	const int32_t ids = label_all(&r, false);
	free(r.run_link);
	free(r.row_first);
	return ids;
}

bool region_rebuild(struct region *r)
{
	r->rebuilds++;
	const int32_t ids = label_all(r, true);
	if (ids < 0) {
		r->stale = true;
		return false;
	}
	r->ids = ids;
	r->regions = ids;
	r->stale = false;
	return true;
}

struct region *region_create(const struct grid *g, bool corner_cutting)
{
	return g ? region_create_over(g, g->cost, corner_cutting) : NULL;
}

struct region *region_create_over(const struct grid *g, const uint8_t *cost, bool corner_cutting)
{
	if (!g || !cost)
		return NULL;
	struct region *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->g = g;
	r->cost = cost;
	r->cc = corner_cutting;
	r->w = g->w;
	r->h = g->h;
	r->n = g->w * g->h;
	r->conn = conn_rows(g->topo, corner_cutting);
	r->label = big_malloc((size_t)r->n * sizeof *r->label);
	r->band_unwritten = calloc((size_t)bands(r) + 1, sizeof *r->band_unwritten);
	r->line = malloc(((size_t)r->w + FILL_OVER) * sizeof *r->line);
	/* Room for the runs of a relabelling made now, while a first touch
	 * costs no one a key: a run a twelve cells (a byte a cell; a 4096 x
	 * 4096 cave level has one a sixteen), on diamond maps a run an eight
	 * (their zigzag breaks more often: one a 9.7 there), else the first
	 * relabelling of a map learnt whole (a memory all unknown has a run
	 * a row) paid for its new memory there. */
	int lo[2], hi[2];
	const enum run_kind kind = run_kind(r, lo, hi);
	if (kind != RUNS_NONE && reserve_runs(r, r->n / (kind == RUNS_ZIGZAG ? 8 : 12) + run_room(r->w), 0, 0))
		big_populate(r->run_link, 3 * (size_t)r->run_cap * sizeof *r->run_link);
	if (!r->label || !r->band_unwritten || !r->line || !region_rebuild(r)) {
		region_destroy(r);
		return NULL;
	}
	return r;
}

void region_prefault(struct region *r)
{
	if (r)
		big_populate(r->label, (size_t)r->n * sizeof *r->label);
}

void region_retarget(struct region *r, const uint8_t *cost)
{
	if (r && cost)
		r->cost = cost;
}

void region_destroy(struct region *r)
{
	if (!r)
		return;
	free(r->label);
	free(r->parent);
	free(r->size);
	free(r->run_link);
	free(r->row_first);
	free(r->band_unwritten);
	free(r->line);
	free(r->mark);
	for (int k = 0; k < 4; k++)
		free(r->walk[k]);
	free(r);
}

/*
 * The cells around `cell` in the order they ring it, as expansion-table
 * rows: consecutive ones are neighbours of each other (on hex all six
 * touch the centre; on square and diamond rows 0-3 are the short steps).
 */
static const uint8_t ring_square[8] = { 0, 5, 2, 7, 3, 6, 1, 4 };  /* N NE E SE S SW W NW */
static const uint8_t ring_diamond[8] = { 4, 0, 5, 2, 7, 3, 6, 1 }; /* N NE E SE S SW W NW */
static const uint8_t ring_hex[6] = { 1, 5, 4, 0, 2, 3 };           /* E SE SW W NW NE */

/* The runs of passable cells around `cell` that touch it (at most 4),
 * with one touching cell of each in from[]: closing `cell` leaves its
 * region whole for sure when there is at most one. */
static int touching_runs(const struct region *r, int cell, int *from)
{
	const enum grid_topology t = r->g->topo;
	const int x = cell % r->w, y = cell / r->w;
	const uint8_t *ring = t == GRID_HEX ? ring_hex : grid_is_diamond(t) ? ring_diamond : ring_square;
	const int len = t == GRID_HEX ? 6 : 8;
	bool open[8], touch[8];
	int cellv[8];
	int first_closed = -1;
	for (int k = 0; k < len; k++) {
		const int v = nb(r, x, y, ring[k]);
		cellv[k] = v;
		open[k] = v >= 0 && r->cost[v];
		touch[k] = ring[k] < r->conn;
		if (!open[k] && first_closed < 0)
			first_closed = k;
	}
	if (first_closed < 0)
		return 1;
	int runs = 0, touching = -1;
	bool in_run = false;
	for (int j = 1; j <= len; j++) {
		const int k = (first_closed + j) % len;
		if (open[k]) {
			in_run = true;
			if (touch[k] && touching < 0)
				touching = cellv[k];
		} else if (in_run) {
			if (touching >= 0 && runs < 4)
				from[runs++] = touching;
			in_run = false;
			touching = -1;
		}
	}
	return runs;
}

/* At most this many cells (and at least a sixteenth of the map) are
 * walked to learn whether a closing split its region; beyond, the labels
 * go stale and the next refresh labels the map anew. */
#define SPLIT_WALK_LIMIT (1L << 18)

static bool walk_push(struct region *r, int k, long *len, int cell)
{
	if (len[k] == r->walk_cap[k]) {
		const long cap = r->walk_cap[k] ? 2 * r->walk_cap[k] : 256;
		int *p = realloc(r->walk[k], (size_t)cap * sizeof *p);
		if (!p)
			return false;
		r->walk[k] = p;
		r->walk_cap[k] = cap;
	}
	r->walk[k][len[k]++] = cell;
	return true;
}

/*
 * After `cell` (of the set `root`) closed with its touching neighbours in
 * `runs` runs around it, starting at from[0..runs): walks from each run at
 * once, one cell each in turn.  Walks that meet join a group; a group
 * whose walks have all ended without meeting the others is a region of its
 * own, and its cells get a new id.  When one group is left the rest of
 * the old region keeps its id.  So the cost is about the smaller side's
 * size times the runs, or the distance at which the sides meet.  False
 * when it gave up (the walk limit, or no memory): the caller marks the
 * labels stale.
 */
static bool split_check(struct region *r, int32_t root, const int *from, int runs)
{
	if (!r->mark) {
		r->mark = calloc((size_t)r->n, sizeof *r->mark);
		if (!r->mark)
			return false;
		r->epoch = 1;
	}
	if (r->epoch > UINT32_MAX - 8) {
		memset(r->mark, 0, (size_t)r->n * sizeof *r->mark);
		r->epoch = 1;
	}
	const uint32_t base = r->epoch;
	r->epoch += (uint32_t)runs;
	long len[4] = { 0 }, head[4] = { 0 }, total = 0;
	int group[4];
	bool gone[4] = { false };
	const long limit = SPLIT_WALK_LIMIT > r->n / 16 ? SPLIT_WALK_LIMIT : r->n / 16;
	for (int k = 0; k < runs; k++) {
		group[k] = k;
		if (r->mark[from[k]] >= base && r->mark[from[k]] < base + (uint32_t)runs) {
			group[k] = group[r->mark[from[k]] - base];
			continue;
		}
		r->mark[from[k]] = base + (uint32_t)k;
		if (!walk_push(r, k, len, from[k]))
			return false;
	}
	for (;;) {
		/* groups left, and whether each has a walk still going */
		int left = 0;
		bool going[4] = { false }, seen[4] = { false };
		for (int k = 0; k < runs; k++) {
			const int gk = group[k];
			if (gone[gk])
				continue;
			if (!seen[gk]) {
				seen[gk] = true;
				left++;
			}
			going[gk] = going[gk] || head[k] < len[k];
		}
		if (left <= 1)
			return true;
		for (int gi = 0; gi < runs; gi++) {
			if (!seen[gi] || going[gi])
				continue;
			/* group gi is cut off: its cells become a region of their own */
			if (!reserve(r, r->ids + 1))
				return false;
			const int32_t id = r->ids++;
			r->parent[id] = id;
			r->size[id] = 0;
			for (int k = 0; k < runs; k++)
				if (group[k] == gi)
					for (long j = 0; j < len[k]; j++) {
						*label_at(r, r->walk[k][j]) = id;
						r->size[id]++;
					}
			r->size[root] -= r->size[id];
			r->regions++;
			gone[gi] = true;
			if (--left <= 1)
				return true;
		}
		for (int k = 0; k < runs; k++) {
			if (gone[group[k]] || head[k] >= len[k])
				continue;
			const int c = r->walk[k][head[k]++], x = c % r->w, y = c / r->w;
			for (int i = 0; i < r->conn; i++) {
				const int v = nb(r, x, y, i);
				if (v < 0 || !r->cost[v])
					continue;
				const uint32_t m = r->mark[v];
				if (m >= base && m < base + (uint32_t)runs) {
					const int a = group[k], b = group[m - base];
					if (a != b)
						for (int j = 0; j < runs; j++)
							if (group[j] == b)
								group[j] = a;
					continue;
				}
				r->mark[v] = base + (uint32_t)k;
				if (!walk_push(r, k, len, v) || ++total > limit)
					return false;
			}
		}
	}
}

void region_mark_stale(struct region *r)
{
	if (r)
		r->stale = true;
}

void region_cell_changed(struct region *r, int cell, uint8_t old_cost)
{
	if (!r || cell < 0 || cell >= r->n)
		return;
	const bool now = r->cost[cell] != 0;
	if (now == (old_cost != 0) || r->stale)
		return;
	const int x = cell % r->w, y = cell / r->w;
	if (now) {
		int32_t root = -1;
		for (int i = 0; i < r->conn; i++) {
			const int v = nb(r, x, y, i);
			if (v < 0 || !r->cost[v] || *label_at(r, v) < 0)
				continue;
			int32_t b = find_mut(r, r->label[v]);
			if (root < 0) {
				root = b;
			} else if (b != root) {
				if (r->size[b] > r->size[root]) {
					const int32_t t = b;
					b = root;
					root = t;
				}
				r->parent[b] = root;
				r->size[root] += r->size[b];
				r->regions--;
			}
		}
		if (root < 0) {
			if (!reserve(r, r->ids + 1)) {
				r->stale = true;
				return;
			}
			root = r->ids++;
			r->parent[root] = root;
			r->size[root] = 0;
			r->regions++;
		}
		*label_at(r, cell) = root;
		r->size[root]++;
		return;
	}
	const int32_t id = *label_at(r, cell);
	r->label[cell] = -1;
	if (id < 0)
		return;
	const int32_t root = find_mut(r, id);
	if (--r->size[root] == 0)
		r->regions--;
	int from[4];
	const int runs = touching_runs(r, cell, from);
	if (runs > 1 && !split_check(r, root, from, runs))
		r->stale = true;
}

bool region_refresh(struct region *r)
{
	return !r->stale || region_rebuild(r);
}

bool region_current(const struct region *r, const uint8_t *cost, bool corner_cutting)
{
	return r && !r->stale && r->cost == cost && r->cc == corner_cutting;
}

int32_t region_of(const struct region *r, int cell)
{
	const int32_t id = *label_at(r, cell);
	return id < 0 ? -1 : find_const(r, id);
}

long region_size(const struct region *r, int cell)
{
	const int32_t id = region_of(r, cell);
	return id < 0 ? 0 : r->size[id];
}

long region_count(const struct region *r) { return r->regions; }
bool region_stale(const struct region *r) { return r->stale; }
long region_rebuilds(const struct region *r) { return r->rebuilds; }

size_t region_memory(const struct region *r)
{
	size_t walks = 0;
	for (int k = 0; k < 4; k++)
		walks += (size_t)r->walk_cap[k] * sizeof *r->walk[k];
	return sizeof *r + (size_t)r->n * sizeof *r->label + 2 * (size_t)r->cap * sizeof *r->parent +
	       3 * (size_t)r->run_cap * sizeof *r->run_link + (r->row_first ? ((size_t)r->h + 1) * sizeof *r->row_first : 0) +
	       ((size_t)bands(r) + 1) * sizeof *r->band_unwritten + ((size_t)r->w + FILL_OVER) * sizeof *r->line +
	       (r->mark ? (size_t)r->n * sizeof *r->mark : 0) + walks;
}
