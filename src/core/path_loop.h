/* path_loop.h - the A* loop, written once for path.c, which compiles it twice. */

/*
 * Included only by path.c, twice, after everything the loop calls and
 * after defining:
 *   PATH_LOOP_NAME      the function's name;
 *   PATH_LOOP_WEIGHTED  0: astar_loop, every search; 1: astar_loop_weighted,
 *                       weighted A* in plain A*'s ring (path.c, astar_wring).
 * Why twice and not one function with one more constant: the constant
 * alone, folded away in every other loop, made GCC inline differently
 * around the game's square8 loops, which grew by 400 bytes and ran 2-3%
 * slower (docs/perf-log.md, fortieth session).  Compiled from the same
 * text with PATH_LOOP_WEIGHTED 0, astar_loop is the same instructions as
 * before (objdump, addresses aside).
 *
 * The weighted copy is astar_loop with `plain` set (the ring), but its keys
 * weighted; the square8 and diamond8 interiors of plain A*, which skip the
 * closed test, left out (expand_any expands every cell, a cell once); and
 * the early stop asked of the ring's words.  What whole_ring(topo) means
 * for hex, square4 and diamond4 is harmless here: whole_sort declines a
 * bucket of many f, and ring_push's ordered stack needs a tie_f, which
 * weighted A* never has.
 */

#if !defined(PATH_LOOP_NAME) || !defined(PATH_LOOP_WEIGHTED) || !defined(PATH_LOOP_STOP)
#error "define PATH_LOOP_NAME, PATH_LOOP_WEIGHTED and PATH_LOOP_STOP before including path_loop.h"
#endif

/*
 * The A* loop, specialised per topology by the constant `topo` and for
 * plain A* by `plain` (the function is inlined into one caller for each).
 * Returns the status; *end is the cell the route ends at, *expanded_out
 * the expansions.  One turn is one expansion: pop, the goal and budget
 * tests, a prefetch, then the piece that expands the cell.  It is the hot
 * loop of every search, about 150 lines: what remains in it is the turn
 * itself and its constants, which the pieces take as arguments.
 */
static inline __attribute__((always_inline)) enum path_status
PATH_LOOP_NAME(struct path_ctx *ctx, const struct search *sp, const enum grid_topology topo,
	   const bool plain, const bool sgn, const bool budgeted, const bool seeded, int *end, long *expanded_out)
{
	/* A local copy: stores to nodes cannot alias it.  With the constant
	 * `plain` (plain A*: weight 1, no fallback or extra costs; a budget
	 * only with the constant `budgeted`) the compiler drops every branch
	 * for those. */
	struct search s = *sp;
	if (plain) {
#if PATH_LOOP_WEIGHTED
		s.wmode = W_WEIGHTED;
#else
		s.wmode = W_ASTAR;
#endif
		s.fallback = false;
		s.layered = false;
		s.budget = budgeted ? s.budget : 0;
		s.tg = budgeted ? s.tg : NULL; /* fallback_one's targets take the budget's loop */
		s.extra = NULL;
		s.penalty = 0;
		s.solid = NULL;
	}
#if PATH_LOOP_STOP
	/* path_options.stop: s.budget is the next look at the flag, sp->budget
	 * the budget (budget_look) */
	if (s.budget > PATH_STOP_EVERY && s.stop)
		s.budget = PATH_STOP_EVERY; /* the first look, never 0: that is no budget */
#endif
	const uint8_t *cost = ctx->grid->cost;
	const int w = ctx->w, hgt = ctx->h;
	struct node *node = ctx->node;
	uint64_t *gw = ctx->gw;
	const uint16_t gen = ctx->gen;
	const uint8_t *opp = topo == GRID_HEX ? hx_opp : sq_opp; /* diamond: as square */
	const int64_t s1 = s.s1, s2 = s.s2;
	const bool use_stack = s.wmode != W_WEIGHTED;
	const bool need_h = s.wmode != W_DIJKSTRA;
	const int off[8] = { -w, -1, 1, w, -w - 1, -w + 1, w - 1, w + 1 };
	const int64_t stepc[8] = { s1, s1, s1, s1, s2, s2, s2, s2 };
	/* grid.h's square offsets widened to int, so that the interior loops
	 * add an offset straight from the table (int8_t needs a widening load) */
#define SQ8(t) { t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] }
	const int sq_dx[8] = SQ8(GRID_SQUARE_DX), sq_dy[8] = SQ8(GRID_SQUARE_DY);
#undef SQ8
	/* The query's constants that the turn reads, out of s (whose address
	 * the pieces take, so its fields are read again after every store) */
	const uint8_t *const moves = sq8_moves[s.corner_cutting];
	const int gx = s.gx, gy = s.gy;
	const uint64_t row_magic = ctx->row_magic;
	long expanded = 0;
	uint64_t last_f = 0;
	int best = s.start;
	int64_t best_h = heuristic(topo, s.start % w, s.start / w, s.gx, s.gy, s1, s2), best_g = 0;

	struct ring rg;
	const bool ring = plain; /* square8; diamond8 with targets; hex, square4, diamond4 (astar) */
	/* diamond8's interior (d8_plain): x from 1 to w - 2, y from 2 to
	 * hgt - 3 (N and S are two rows away) */
	struct d8_steps d8;
	const unsigned d8_w = w > 2 ? (unsigned)(w - 2) : 0, d8_h = hgt > 4 ? (unsigned)(hgt - 4) : 0;
	if (ring && topo == GRID_DIAMOND8)
		d8_init(&d8, w, s1, s2);
	/* The whole-step ring on a map too large for the caches: the run's
	 * cells are fetched ahead (prefetch_whole). */
	const bool ahead = whole_ring(topo) && ctx->n >= WHOLE_AHEAD_CELLS;
	/* Plain A*: the top half of this query's words, and the largest g
	 * from which every step still fits the word's 48 bits. */
	const uint64_t code = ring ? next_code(ctx) : 0;
	const int64_t g_limit = (int64_t)PK_LOW - 255 * s2;
	if (ring)
		ctx->packed = code;
	if (seeded) {
		queue_seeds(ctx, &s, &rg, code);
	} else {
		node[s.start] = (struct node){ .pos = 0, .stamp = gen, .dir = DIR_NONE };
		gw[s.start] = ring ? pk(code, 0) : 0;
		sift_up(ctx, ctx->queue.heap_len++, search_key(&s, s.start, 0, best_h));
		if (ring)
			ring_init(ctx, &rg, &s, pq_f(ctx->queue.key[0]));
	}

#if PATH_LOOP_WEIGHTED
	/* what the interiors left out would read */
	(void)sgn, (void)off, (void)stepc, (void)sq_dx, (void)sq_dy, (void)moves, (void)gx, (void)gy;
	(void)d8_w, (void)d8_h;
#endif
	for (;;) {
		if (ctx->queue.heap_len == 0 && ctx->queue.stack_len == 0) {
			if (ring) {
				if (rg.lists.on && ring_advance(ctx, &rg, &s, topo))
					continue;
				break;
			}
			if (ctx->deferred_head != -1) {
				expanded += layer_expand_deferred(ctx, &s, topo);
				continue;
			}
			if (ctx->pending_len == 0)
				break;
			if (!queue_reserve(ctx, ctx->pending_len))
				break;
			layer_next(ctx, &s, topo);
			continue;
		}
		/* Weighted A* may stop once the goal holds a g no larger than the
		 * f last popped: that f is at most weight * optimal, so the bound
		 * holds, and the goal's own expansion is saved. */
#if PATH_LOOP_WEIGHTED
		/* (in the ring a goal reached is open: its pop ends the search) */
		if ((gw[s.goal] & ~PK_LOW) == code && (uint64_t)pk_g(gw[s.goal]) <= last_f) {
#else
		if (s.wmode == W_WEIGHTED && node[s.goal].stamp == gen && node[s.goal].pos >= 0 &&
		    gw[s.goal] <= last_f) {
#endif
			*end = s.goal;
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		const qkey uk = ring ? ring_pop(ctx, &rg) : queue_pop(ctx);
		if (ring && whole_ring(topo) && ahead && rg.run && ctx->queue.heap_len > WHOLE_AHEAD)
			prefetch_whole(ctx, pq_cell(ctx->queue.key[ctx->queue.heap_len - 1 - WHOLE_AHEAD]));
		const int u = pq_cell(uk);
		const uint64_t tie_f = use_stack ? pq_f(uk) : NO_TIE_F;
		/* The open list's order: with a consistent heuristic (weight 0 or
		 * 1, exact in fixed point) no f popped is below the one before,
		 * except where a fallback layer starts afresh. */
		CHECK(s.layered || s.wmode == W_WEIGHTED || pq_f(uk) >= last_f);
		last_f = pq_f(uk);
		expanded++;
		if (u == s.goal) {
			*end = u;
			*expanded_out = expanded;
			return PATH_FOUND;
		}
		if (ctx->queue.heap_len + ctx->queue.stack_len > 0) {
			/* The likely next cell: fetch its neighbours' records
			 * meanwhile.  Not in plain square8 A*: its next cell is
			 * mostly a successor of u (the tie stack), whose rows are
			 * fetched already, or the sorted bucket's next, and the
			 * peek cost more than the fetch saved (docs/core.md). */
			if (!ring)
				prefetch_around(ctx, pq_cell(queue_peek(ctx)), false);
		} else if (ring && rg.lists.on) {
			/* The bucket is done: the next is the ring's next used slot
			 * (unless u's successors fall below it), mostly one or two
			 * cells anywhere in the map.  Fetch the records around the
			 * one listed last meanwhile, the cold ones as well: the
			 * drain reads that cell's pos first thing, and its
			 * expansion writes the rest (maze512, where 44% of the
			 * expansions end a bucket: 2-5% faster with them). */
			const int d = pq_ring_next(&rg.lists);
			if (d < RING) {
				prefetch_around(ctx, rg.lists.last[(rg.lists.bucket + (uint64_t)d) % RING], true);
			}
		}
		const int uy = ring ? (int)(((qkey)(uint64_t)u * row_magic) >> 64) : cell_row(ctx, u),
			  ux = u - uy * w;
		/* Plain A*: u's word is its key for the neighbour test (pk) */
		const uint64_t gwu = gw[u];
		const int64_t ug = ring ? pk_g(gwu) : (int64_t)gwu;
		if (ring && __builtin_expect(ug > g_limit, 0)) {
			*end = u;
			*expanded_out = expanded;
			return PATH_BAD_INPUT; /* g outgrows the word: astar() runs the general loop */
		}
		if (s.tg &&
		    (pq_f(uk) + s.tg->first_wins > s.tg->bound || (unsigned)(u - s.tg->lo) <= s.tg->span ||
		     s.tg->gen != gen) &&
		    targets_pop(ctx, s.tg, u, ug, pq_f(uk))) {
			*end = u;
			*expanded_out = expanded;
			return PATH_FOUND; /* fallback_one's first layer has what it needs */
		}
		/* The key popped is the cell's own: f = g + h (A*) or g (Dijkstra). */
		CHECK(s.wmode == W_WEIGHTED ||
		      pq_f(uk) == (uint64_t)(ug + weighted(&s, heuristic(topo, ux, uy, s.gx, s.gy, s1, s2))));
		/* Room for the pushes of this expansion (the queue grows, once). */
		if (__builtin_expect(!queue_room(ctx, 8) || ctx->no_memory, 0))
			break;
		if (s.budget > 0) {
			int64_t uh = heuristic(topo, ux, uy, s.gx, s.gy, s1, s2);
			if (uh < best_h || (uh == best_h && ug < best_g)) {
				best = u;
				best_h = uh;
				best_g = ug;
			}
#if PATH_LOOP_STOP
			if (expanded >= s.budget && (s.budget = budget_look(sp, expanded)) <= expanded) {
#else
			if (expanded >= s.budget) {
#endif
				*end = best;
				*expanded_out = expanded;
				return PATH_BUDGET;
			}
		}
#if !PATH_LOOP_WEIGHTED
		if (topo == GRID_SQUARE8 && cost[u] && (unsigned)(ux - 1) < (unsigned)(w - 2) &&
		    (unsigned)(uy - 1) < (unsigned)(hgt - 2)) {
			/* Interior square8 cell: the legal moves as a bit mask. */
			const uint8_t *c = cost + u;
			uint32_t ra, rm, rb;
			sq8_rows(c, w, &ra, &rm, &rb);
			/* Plain A* on a cell whose neighbours all cost 1 (or 0) skips
			 * the non-zero tests and the multiplications. */
			const bool unit = ring && sq8_unit_rows(ra, rm, rb);
			const unsigned around = unit ? sq8_pack(ra, rm, rb)
						     : sq8_pack(nonzero_lanes(ra), nonzero_lanes(rm), nonzero_lanes(rb));
			unsigned m = moves[around];
			if (s.fallback)
				sq8_into_blocked(ctx, &s, u, ux, uy, ug, around, tie_f, node, gw, gen, off, stepc,
						 sq_dx, sq_dy);
			/* Passable neighbours: the heuristic's terms from the goal
			 * distance of u, one step away in each axis. */
			const int dxu = ux - gx, dyu = uy - gy;
			if (ring)
				sq8_plain(ctx, &s, &rg, u, gwu, c, unit, m, dxu, dyu, tie_f, node, gw, code, sgn, w, off,
					  stepc, sq_dx, sq_dy);
			else
				sq8_general(ctx, &s, u, ug, c, m, dxu, dyu, tie_f, need_h, node, gw, gen, off,
					    stepc, sq_dx, sq_dy);
			continue;
		}
		if (ring && topo == GRID_DIAMOND8 && cost[u] && (unsigned)(ux - 1) < d8_w &&
		    (unsigned)(uy - 2) < d8_h) {
			d8_plain(ctx, &s, &rg, &d8, u, ux, uy, ug, gwu, tie_f, node, gw, code);
			continue;
		}
#endif
		expand_any(ctx, &s, &rg, topo, ring, need_h, u, ux, uy, ug, tie_f, cost, w, hgt, node, gw, gen,
			   code, opp);
	}
	*end = best;
	*expanded_out = expanded;
	return ctx->no_memory ? PATH_BAD_INPUT : PATH_NO_ROUTE;
}
