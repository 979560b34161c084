/*
 * ai.c - monster minds: perceive the player, remember where it was, plan a
 * route with the A* core, step along it, attack, or run away; the tuning
 * knobs of the bestiary act here.  Moves and attacks are carried out by
 * game.c, so monsters obey the same rules as the player.  docs/ai.md
 * explains the knobs and the decisions below for tuners.
 *
 * The decision rule of a hunting monster, whichever way it is computed:
 *   1. next to the player and seeing it: attack;
 *   2. otherwise follow its route, replanning on every turn that is a
 *      multiple of its `repath` knob (all monsters of one knob value replan
 *      on the same turns), when the route is used up, or when it wakes;
 *   3. the plan is a search toward its target cell with its own knobs
 *      (weight, fallback P, budget) that ignores other monsters;
 *   4. when the next step is held by another monster it replans at once
 *      with other monsters costing `crowd` extra (path_options.extra) and
 *      keeps that detour for AI_CROWD_COMMIT turns (or its repath interval,
 *      if longer) so that it does not turn back as soon as the jam moves;
 *      if the step is still held, it waits.
 *
 * Sharing work (issue 5, scale): a plan of step 3 for a monster with the
 * exact knobs (weight 1, automatic P, no budget) is an optimal route to its
 * target cell, the same for every such monster heading there (most often
 * the player's cell).  Instead of one A* each, one reverse Dijkstra flood
 * from that cell (flood.c, a multi-queue Dijkstra) serves them all: each
 * follows flood_next downhill, which is an optimal route.  The flood stays
 * valid while the goal stays (the grid's costs never change: doors are
 * passable in it, only their opacity changes), and is run only until every
 * monster heading there is settled (on a large level: to its end, and when
 * the goal then steps to a neighbour the flood is shifted there, settling
 * only the cells that got nearer: flood_shift).  A monster the flood does not reach
 * cannot reach the goal, and searches alone (fallback).  Crowd costs
 * depend on who asks, so step 4 is a search of its own; while a flood
 * serves the goal it is flood_route, an A* whose heuristic is the flood's
 * exact distance (same cost as path_find, far fewer expansions).  Keeping
 * step 3 free of crowd costs is what makes sharing possible, and it is the
 * same rule in both methods.  Between equally short routes the flood and
 * A* may pick different cells (their tie orders differ); the tests compare
 * the cost of the routes, not the cells.  Whether to flood depends on how
 * many monsters are due and on the size of the level (AI_SHARE_MIN,
 * AI_SHARE_CELLS), never on time.
 */
#include "ai.h"

#include "clock.h"
#include "fov.h"
#include "game.h"

static int monster_cell(const struct game *g, const struct monster *m)
{
	return grid_index(g->grid, m->x, m->y);
}

static int player_cell(const struct game *g)
{
	return grid_index(g->grid, g->player.x, g->player.y);
}

/* A kind whose plan is the exact optimal route, the same for all. */
static bool shareable(const struct monster_kind *k)
{
	return k->weight == 1.0 && k->penalty <= 0 && k->budget == 0;
}

static bool sees_player(const struct game *g, const struct monster *m)
{
	if (g->all_hunt)
		return true;
	int r = m->kind->sight;
	return r > 0 && fov_line_of_sight(g->grid, g->opaque, m->x, m->y, g->player.x, g->player.y, r);
}

void ai_mind_fini(struct monster *m)
{
	m->mind.route_len = 0;
	m->mind.route_pos = 0;
	m->mind.route_stuck = false;
	m->mind.commit_until = 0;
}

void ai_level_begin(struct game *g)
{
	g->flood_goal = -1;
	g->ai_due = 0;
	g->ai_goal = -1;
	/* A flood may settle every passable cell, one search per monster only
	 * what its route needs: on a large level the flood pays when many
	 * hunters share it (a count of cells and monsters, never a time). */
	long passable = 0;
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		passable += g->grid->cost[c] != 0;
	long need = (passable + AI_SHARE_CELLS - 1) / AI_SHARE_CELLS;
	g->ai_share_need = need > AI_SHARE_MIN ? (int)need : AI_SHARE_MIN;
}

static bool needs_plan(const struct game *g, const struct monster *m, int goal)
{
	const struct mind *mi = &m->mind;
	if (mi->route_len == 0 || mi->route_pos >= mi->route_len ||
	    mi->route[mi->route_pos] != monster_cell(g, m))
		return true;
	/* used up: replan, unless it is waiting at a cut point for the same target */
	if (mi->route_pos >= mi->route_len - 1 && !(mi->route_stuck && mi->route_goal == goal))
		return true;
	if (g->turn < mi->next_repath || g->turn < mi->commit_until)
		return false;
	/* Due by the schedule.  For an exact kind, a new plan toward the same
	 * goal would cost what the rest of this route costs (a suffix of an
	 * optimal route is optimal, and the fallback's order of blocked cells
	 * then cost is kept by suffixes too), so the route is kept: this is
	 * "keep routes while still valid", and it spares a search per turn to
	 * every monster heading for a remembered place.  A crowd detour
	 * (commit_until set) is not optimal in that sense and is replanned. */
	return !(shareable(m->kind) && mi->route_goal == goal && mi->commit_until == 0);
}

/* The goal monster m will plan toward this turn if it may use a shared
 * flood (an exact kind, hunting or seeing the player), else -1. */
static int shared_goal(const struct game *g, const struct monster *m, int pc)
{
	if (!m->alive || m->mind.fleeing || !shareable(m->kind))
		return -1;
	if (m->mind.hunting && grid_index(g->grid, m->mind.target_x, m->mind.target_y) == pc)
		return pc;
	if (sees_player(g, m))
		return pc;
	return m->mind.hunting ? grid_index(g->grid, m->mind.target_x, m->mind.target_y) : -1;
}

void ai_turn_begin(struct game *g)
{
	/* Picks the goal a flood may serve this turn and counts the monsters
	 * due to plan toward it; only decides whether to flood, so an estimate
	 * is enough.  Two candidates: the player's cell, and the first other
	 * goal met (monsters told where the player was, or remembering it,
	 * share that cell); the player's cell wins when both reach the count. */
	int pc = player_cell(g), other = -1, due_pc = 0, due_other = 0;
	g->ai_due = 0;
	g->ai_goal = -1;
	if (g->ai_share != AI_SHARE_AUTO)
		return;
	int need = g->ai_share_need > AI_SHARE_MIN ? g->ai_share_need : AI_SHARE_MIN;
	for (int i = 0; i < g->n_monsters && due_pc < need && due_other < need; i++) {
		const struct monster *m = &g->monsters[i];
		int goal = shared_goal(g, m, pc);
		if (goal < 0)
			continue;
		if (goal != pc && other < 0)
			other = goal;
		if (goal != pc && goal != other)
			continue;
		if (m->mind.hunting && !needs_plan(g, m, goal) && !(goal == pc && sees_player(g, m)))
			continue;
		if (goal == pc)
			due_pc++;
		else
			due_other++;
	}
	bool pick_pc = due_pc >= need || due_pc >= due_other;
	g->ai_goal = pick_pc ? pc : other;
	g->ai_due = pick_pc ? due_pc : due_other;
}

static void count_search(struct game *g, long expanded, double us)
{
	g->stats.searches++;
	g->stats.expanded += expanded;
	g->stats.search_us += us;
	if (g->stats.on_search)
		g->stats.on_search(g->stats.ud, expanded, us);
}

/*
 * Makes the reverse flood from `goal` current, if sharing is allowed and
 * worth it, and settles the cell `here`; false when the monster must search
 * on its own.  A new flood runs only until every monster that will plan
 * toward the same goal stands on a settled cell (the flood is exact at
 * every cell it settles, whatever is left unsettled); a monster found later
 * on an unsettled cell resumes it.  One flood serves every exact kind alike:
 * their plans have no knob the flood depends on.
 */
static bool flood_reach(struct game *g, int goal, int here)
{
	if (g->flood_goal != goal) {
		if (g->ai_share == AI_SHARE_NEVER ||
		    (g->ai_share == AI_SHARE_AUTO && (goal != g->ai_goal || g->ai_due < g->ai_share_need)))
			return false;
		struct flood_options opt = flood_options_default();
		opt.reverse = true;
		int pc = player_cell(g);
		double t0 = clock_us();
		/* On a large level (more than AI_SHARE_MIN * AI_SHARE_CELLS
		 * passable cells) the flood is run to its end, so that when the
		 * goal steps to a neighbour the next turn only the cells that
		 * got nearer are settled again (flood_shift). */
		const bool large = g->ai_share_need > AI_SHARE_MIN;
		if (!(large && g->flood_goal >= 0 && flood_shift(g->flood, goal))) {
			flood_begin(g->flood, goal, &opt);
			if (large) {
				flood_settle(g->flood, NULL, 0);
			} else {
				for (int i = 0; i < g->n_monsters; i++) {
					const struct monster *m = &g->monsters[i];
					if (shared_goal(g, m, pc) == goal) {
						int c = monster_cell(g, m);
						flood_settle(g->flood, &c, 1);
					}
				}
				flood_settle(g->flood, &here, 1);
			}
		}
		count_search(g, flood_settled_count(g->flood), clock_us() - t0);
		g->stats.floods++;
		g->flood_goal = goal;
	} else if (!flood_settled(g->flood, here) && !flood_finished(g->flood)) {
		double t0 = clock_us();
		long settled = flood_settle(g->flood, &here, 1);
		count_search(g, settled, clock_us() - t0);
	}
	return true;
}

/* Fills crowd[] with this crowd knob (cells held by monsters). */
static void crowd_fill(struct game *g, int value)
{
	if (value > 65535)
		value = 65535;
	if (value < 0)
		value = 0;
	if (g->crowd_value == value)
		return;
	g->crowd_value = value;
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive)
			g->crowd[monster_cell(g, &g->monsters[i])] = (uint16_t)value;
}

/* Plans a route from the monster's cell toward goal (rule 3, or rule 4 with crowd). */
static void plan(struct game *g, struct monster *m, int goal, bool crowd)
{
	const struct monster_kind *k = m->kind;
	struct mind *mi = &m->mind;
	int here = monster_cell(g, m);
	int every = k->repath > 1 ? k->repath : 1;
	mi->next_repath = (g->turn / every + 1) * every;
	mi->commit_until = crowd ? g->turn + (every > AI_CROWD_COMMIT ? every : AI_CROWD_COMMIT) : 0;
	mi->route_goal = goal;
	mi->route_pos = 0;
	mi->route_stuck = false;

	if (!crowd && shareable(k) && flood_reach(g, goal, here) &&
	    flood_settled(g->flood, here)) {
		/* Only the steps it can take before its next replan are read:
		 * a monster acts at most ceil(speed / 100) times a turn. */
		int per_turn = (k->speed + 99) / 100;
		long want = (long)(mi->next_repath - g->turn) * (per_turn > 0 ? per_turn : 1) + 1;
		if (want > mi->route_cap - 1)
			want = mi->route_cap - 1;
		int len = 0, c = here;
		mi->route[len++] = c;
		while (len <= want && c != goal) {
			c = flood_next(g->flood, c);
			if (c < 0)
				break;
			mi->route[len++] = c;
		}
		mi->route_len = len;
		return;
	}

	if (crowd && shareable(k) && flood_reach(g, goal, here) &&
	    flood_settled(g->flood, here)) {
		/* Rule 4 for an exact kind when the shared flood serves (it is
		 * made here if this is the first plan toward the player's new
		 * cell, as for a monster still on a crowd detour): the same
		 * optimal route under crowd costs that path_find would give (the
		 * goal is reachable, so the fallback plays no part), found by an
		 * A* whose heuristic is the flood's exact crowd-free distance, so
		 * it looks at little more than the detour. */
		crowd_fill(g, k->crowd);
		double cost;
		long expanded;
		double t0 = clock_us();
		int len = flood_route(g->flood, here, g->crowd, mi->route, mi->route_cap, &cost, &expanded);
		count_search(g, expanded, clock_us() - t0);
		if (len >= 1) {
			mi->route_len = len < mi->route_cap ? len : mi->route_cap;
			return;
		}
	}

	struct path_options opt = path_options_default();
	opt.weight = k->weight;
	opt.fallback = true;
	opt.penalty = k->penalty;
	opt.budget = k->budget;
	/* A goal in the monster's own region is reachable, and with automatic
	 * P and no budget the fallback then gives the route a search without
	 * it gives: leave it out, so that a uniform square8 map is answered
	 * by jump point search (the same cost; between equally short routes
	 * it may pick another, as the shared flood may). */
	if (!(k->penalty > 0) && k->budget <= 0 && g->region[here] >= 0 &&
	    g->region[here] == g->region[goal])
		opt.fallback = false;
	if (crowd) {
		crowd_fill(g, k->crowd);
		opt.extra = g->crowd;
	}
	struct path_result r;
	double t0 = clock_us();
	enum path_status st = path_find(g->path, here, goal, &opt, &r);
	count_search(g, r.expanded, clock_us() - t0);
	if (st == PATH_FALLBACK)
		g->stats.fallbacks++;
	if (st == PATH_BUDGET)
		g->stats.budget_hits++;
	if (st == PATH_BAD_INPUT || r.len < 1) {
		mi->route[0] = here;
		mi->route_len = 1;
		mi->route_stuck = true;
		return;
	}
	int len = r.len < mi->route_cap ? r.len : mi->route_cap;
	for (int i = 0; i < len; i++)
		mi->route[i] = r.cells[i];
	mi->route_len = len;
	mi->route_stuck = len == r.len && (st == PATH_FALLBACK || st == PATH_NO_ROUTE);
}

/* The next cell of the route (rules 2-4), or -1 to wait. */
static int next_step(struct game *g, struct monster *m, int goal)
{
	struct mind *mi = &m->mind;
	if (needs_plan(g, m, goal))
		plan(g, m, goal, false);
	if (mi->route_pos + 1 >= mi->route_len)
		return -1;
	int next = mi->route[mi->route_pos + 1];
	if (g->occupant[next] >= 0) {
		if (m->kind->crowd <= 0)
			return -1;
		plan(g, m, goal, true);
		if (mi->route_pos + 1 >= mi->route_len)
			return -1;
		next = mi->route[mi->route_pos + 1];
		if (g->occupant[next] >= 0)
			return -1;
	}
	return next;
}

static void forget(struct monster *m)
{
	m->mind.hunting = false;
	ai_mind_fini(m);
}

/* Fleeing: the free neighbour farthest from the player, if farther than here. */
static void flee(struct game *g, struct monster *m)
{
	int here = monster_cell(g, m), pc = player_cell(g);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g->grid, here, false, s);
	double best = grid_heuristic(g->grid, here, pc);
	int to = -1;
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (c == pc || g->occupant[c] >= 0)
			continue;
		double d = grid_heuristic(g->grid, c, pc);
		if (d > best) {
			best = d;
			to = c;
		}
	}
	ai_mind_fini(m);
	if (to >= 0)
		game_monster_move(g, m, to);
	else if (game_can_step(g, here, pc))
		game_monster_attack(g, m); /* cornered: it bites */
	else
		m->energy -= 100;
}

void ai_monster_turn(struct game *g, struct monster *m)
{
	const struct monster_kind *k = m->kind;
	struct mind *mi = &m->mind;
	int here = monster_cell(g, m), pc = player_cell(g);
	bool sees = sees_player(g, m);
	if (sees) {
		mi->hunting = true;
		mi->target_x = g->player.x;
		mi->target_y = g->player.y;
		mi->last_seen_turn = g->turn;
		mi->memory_left = k->memory;
	} else if (mi->hunting) {
		mi->memory_left = k->memory - (g->turn - mi->last_seen_turn);
		if (mi->memory_left < 0 || grid_index(g->grid, mi->target_x, mi->target_y) == here)
			forget(m);
	}

	if ((sees || mi->hunting) && k->flee > 0 && (double)m->hp < k->flee * (double)k->hp) {
		mi->fleeing = true;
		mi->target_x = g->player.x;
		mi->target_y = g->player.y;
		flee(g, m);
		return;
	}
	mi->fleeing = false;
	if (!mi->hunting) {
		m->energy -= 100;
		return;
	}
	if (sees && game_can_step(g, here, pc)) {
		game_monster_attack(g, m);
		return;
	}
	int next = next_step(g, m, grid_index(g->grid, mi->target_x, mi->target_y));
	if (next < 0 || !game_can_step(g, here, next)) {
		m->energy -= 100;
		return;
	}
	if (next == pc) {
		game_monster_attack(g, m);
		return;
	}
	game_monster_move(g, m, next);
	mi->route_pos++;
}
