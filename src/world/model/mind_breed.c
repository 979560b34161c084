/*
 * mind_breed.c - the breed mind (behaviour breed; docs/ai.md, "Mind:
 * breed"): a slow monster that multiplies where the player cannot see it.
 *
 * The rule: while it sees the player, or the player sees it (the monster
 * stands in the player's view: monster.seen), or it hunts nothing (asleep,
 * or it never met the player or forgot it), its count (mind.timer) is 0
 * and it acts by the chase rule.  Each of its own actions out of sight
 * counts one; at its kind's `breed` it buds: AI_BREED onto a free cell
 * beside it (passable, no monster, not the player's), drawn from the
 * game's random numbers when there are several, and the count starts
 * again.  The rules (game.c, monster_breed) make the new monster, of the
 * same kind, at full hit points, knowing what its parent knew of the
 * player; they refuse past the kind's `breed_max` monsters on the level,
 * the slain counted, so the level's slots are reserved when it is loaded.
 * The mind asks only while the kind is under that cap (a count over the
 * monsters, made only when it would bud).  With no free cell beside it,
 * or at the cap, it hunts on by the chase rule.
 *
 * The tell: the rules say what the player sees ("The ooze splits in
 * two!") or hears nearby ("You hear a wet, tearing sound."), and the
 * bestiary's `about` line says it.  The answer: kill it at once, and
 * keep it in sight; a breeder left behind a door fills the level.
 * Cost: a look at its neighbours every `breed` actions and a count of the
 * monsters then; no search of its own.
 */
#include "ai_internal.h"

/* Monsters of kind k on the level, the slain counted. */
static int kind_count(const struct ai_view *v, const struct monster_kind *k)
{
	int n = 0;
	for (int i = 0; i < v->n_monsters; i++)
		n += v->monsters[i].kind == k;
	return n;
}

bool mind_breed(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		struct ai_decision *d)
{
	(void)ai;
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	if (sees || m->seen || k->breed <= 0 || !mi->hunting) {
		mi->timer = 0;
		return false;
	}
	if (++mi->timer < k->breed)
		return false;
	if (kind_count(v, k) >= k->breed_max)
		return false;
	int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s), free_cells[GRID_MAX_NEIGHBOURS], nf = 0;
	for (int i = 0; i < n; i++)
		if (s[i].cell != pc && v->occupant[s[i].cell] < 0)
			free_cells[nf++] = s[i].cell;
	if (nf == 0)
		return false;
	int pick = nf > 1 && v->rng ? rng_range(v->rng, 0, nf - 1) : 0;
	mi->timer = 0;
	*d = (struct ai_decision){ .act = AI_BREED, .cell = free_cells[pick] };
	return true;
}
