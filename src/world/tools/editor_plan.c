/*
 * editor_plan.c - the monster-route view's plans (`r` in `astray edit`):
 * what each monster's own mind does at the level's start.  Rather than
 * guess each mind's idea, it lets the game's AI play the level: a scratch
 * game of the map as it is (game_create), the player waiting on its start,
 * the monsters deciding with ai_decide through game_act, exactly as in
 * play; the game's on_monster_act observer writes down each monster's
 * steps, the walls it digs and where it first strikes, and at the end its
 * mind's post (a pack member's side, an ambusher's lair, a ranged
 * monster's firing spot).  So the view cannot disagree with play.  Two
 * things differ from a game, and neither changes a decision: no blow
 * hurts (every kind's damage is 0 in the scratch game's bestiary: the AI
 * never reads damage), so the player stays to be hunted; and before each
 * turn every monster but the ambushers is told where the player stands
 * (ai_mind_alert, as sim --chase tells them), so a far or sleeping
 * monster shows the plan it would follow once it knows, and an ambusher
 * shows where it lies in wait until the player comes.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdlib.h>
#include <string.h>

#include "game.h"

static bool push(int **v, int *n, int *cap, int cell)
{
	if (*n == *cap) {
		int c = *cap ? *cap * 2 : 16;
		int *g = realloc(*v, (size_t)c * sizeof *g);
		if (!g)
			return false;
		*v = g;
		*cap = c;
	}
	(*v)[(*n)++] = cell;
	return true;
}

void editor_plans_free(struct editor *ed)
{
	for (int i = 0; i < ed->cap_plans; i++) {
		free(ed->plans[i].walk);
		free(ed->plans[i].dug);
	}
	free(ed->plans);
	ed->plans = NULL;
	ed->n_plans = ed->cap_plans = 0;
}

/* The scratch game's observer: its monster index -> the map's. */
struct plan_run {
	struct editor *ed;
	int *level_of;   /* per game monster: its index among the map's monsters */
	bool moved;      /* a step or a dig this turn */
	int turn;        /* the player's turn being played: 1 for the first */
	bool failed;     /* out of memory */
};

static void observe(void *ud, const struct game *g, int i, struct ai_decision d)
{
	struct plan_run *pr = ud;
	if (pr->level_of[i] < 0)
		return;
	struct plan_acc *a = &pr->ed->plans[pr->level_of[i]];
	const struct monster *m = &g->monsters[i];
	int here = grid_index(g->grid, m->x, m->y);
	if (d.act == AI_STEP) {
		pr->moved = true;
		a->settle_turn = pr->turn;
		pr->failed |= !push(&a->walk, &a->n_walk, &a->cap_walk, d.cell);
	} else if (d.act == AI_DIG) {
		pr->moved = true;
		a->settle_turn = pr->turn;
		if (a->n_dug == 0 || a->dug[a->n_dug - 1] != d.cell)
			pr->failed |= !push(&a->dug, &a->n_dug, &a->cap_dug, d.cell);
	} else if ((d.act == AI_ATTACK || d.act == AI_SHOOT) && a->strike < 0) {
		a->strike = here;
		a->strike_turn = pr->turn;
	}
}

/* Every monster but the ambushers learns where the player stands. */
static void tell(struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++) {
		struct monster *m = &g->monsters[i];
		if (m->alive && !m->mind.fleeing && m->kind->behaviour != MIND_AMBUSH)
			ai_mind_alert(&m->mind, m->kind, g->player.x, g->player.y, g->turn);
	}
}

/* Sizes ed->plans for the map's monsters, empty; false on no memory. */
static bool plans_reset(struct editor *ed, int n)
{
	if (n > ed->cap_plans) {
		struct plan_acc *p = realloc(ed->plans, (size_t)n * sizeof *p);
		if (!p)
			return false;
		memset(p + ed->cap_plans, 0, (size_t)(n - ed->cap_plans) * sizeof *p);
		ed->plans = p;
		ed->cap_plans = n;
	}
	for (int i = 0; i < n; i++) {
		struct plan_acc *a = &ed->plans[i];
		a->n_walk = a->n_dug = 0;
		a->post = a->strike = a->mind = -1;
		a->strike_turn = a->settle_turn = 0;
		a->asleep = false;
	}
	ed->n_plans = n;
	return true;
}

/* Plays the scratch game into ed->plans; false on no memory. */
static bool play_plans(struct editor *ed)
{
	const struct level *lv = &ed->lv;
	if (!plans_reset(ed, lv->n_monsters))
		return false;
	struct bestiary harmless = *ed->b;
	for (int k = 0; k < harmless.n; k++)
		harmless.kinds[k].damage = 0; /* the AI never reads damage: the same decisions */
	const struct level *levels[1] = { lv };
	struct game *g = game_create(levels, 1, &harmless, 1);
	int *level_of = g ? malloc((size_t)(g->n_monsters ? g->n_monsters : 1) * sizeof *level_of) : NULL;
	if (!level_of) {
		game_destroy(g);
		return false;
	}
	/* The game keeps the map's monsters in order, leaving out those it
	 * cannot place (a letter the bestiary does not know): match by cell. */
	for (int i = 0, j = 0; i < g->n_monsters; i++) {
		while (j < lv->n_monsters &&
		       (lv->monsters[j].x != g->monsters[i].x || lv->monsters[j].y != g->monsters[i].y))
			j++;
		level_of[i] = j < lv->n_monsters ? j++ : -1;
		if (level_of[i] >= 0)
			ed->plans[level_of[i]].mind = g->monsters[i].kind->behaviour;
	}
	struct plan_run pr = { .ed = ed, .level_of = level_of };
	for (int i = 0; i < g->n_monsters && !pr.failed; i++) {
		const struct monster *m = &g->monsters[i];
		if (level_of[i] < 0)
			continue;
		struct plan_acc *a = &ed->plans[level_of[i]];
		pr.failed = !push(&a->walk, &a->n_walk, &a->cap_walk, grid_index(g->grid, m->x, m->y));
	}
	g->on_monster_act = observe;
	g->on_monster_act_ud = &pr;
	int quiet = 0, t = 0, turns = EDITOR_PLAN_TURNS;
	if (g->n_monsters > 0 && EDITOR_PLAN_WORK / g->n_monsters < turns)
		turns = EDITOR_PLAN_WORK / g->n_monsters > 1 ? EDITOR_PLAN_WORK / g->n_monsters : 1;
	for (; t < turns && quiet < EDITOR_PLAN_QUIET && !g->over && !pr.failed; t++) {
		tell(g);
		pr.moved = false;
		pr.turn = t + 1;
		struct action wait = { .kind = ACT_WAIT };
		game_act(g, &wait);
		quiet = pr.moved ? 0 : quiet + 1;
	}
	ed->plan_turns = t;
	ed->plan_cut = t == turns && turns < EDITOR_PLAN_TURNS && quiet < EDITOR_PLAN_QUIET;
	for (int i = 0; i < g->n_monsters; i++) {
		if (level_of[i] < 0)
			continue;
		struct plan_acc *a = &ed->plans[level_of[i]];
		a->post = g->monsters[i].mind.post;
		a->asleep = g->monsters[i].mind.asleep;
	}
	bool ok = !pr.failed;
	free(level_of);
	game_destroy(g);
	return ok;
}

int editor_monster_plans(struct editor *ed)
{
	const struct level *lv = editor_level(ed);
	/* the exit as the refresh found it: this is asked once for every
	 * monster drawn, and a scan of the map each time made `r` on a
	 * 4096x4096 level of 66,831 monsters take 35 s */
	if (!lv || lv->player_x < 0 || !ed->b || !ed->has_exit)
		return 0;
	if (ed->plans_done)
		return ed->n_plans;
	if (!play_plans(ed)) {
		ed->n_plans = 0;
		return 0;
	}
	ed->plans_done = true;
	return ed->n_plans;
}

int editor_monster_plan_turns(struct editor *ed, bool *cut)
{
	*cut = false;
	if (editor_monster_plans(ed) == 0)
		return 0;
	*cut = ed->plan_cut;
	return ed->plan_turns;
}

bool editor_monster_plan(struct editor *ed, int i, struct editor_monster_plan *out)
{
	int n = editor_monster_plans(ed);
	if (i < 0 || i >= n)
		return false;
	const struct plan_acc *a = &ed->plans[i];
	*out = (struct editor_monster_plan){
		.x = ed->lv.monsters[i].x, .y = ed->lv.monsters[i].y, .mind = a->mind,
		.walk = a->n_walk ? a->walk : NULL, .walk_len = a->n_walk,
		.dug = a->n_dug ? a->dug : NULL, .n_dug = a->n_dug,
		.post = a->post, .strike = a->strike, .asleep = a->asleep,
		.strike_turn = a->strike_turn, .settle_turn = a->settle_turn,
	};
	return true;
}
