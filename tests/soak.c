/*
 * soak.c - `make soak`: plays levels headless with random actions for a
 * bounded time in the sanitizer build, where game.c CHECKs its invariants
 * after every action (every monster on a passable cell it alone holds,
 * energy bounded, the player on a free passable cell).  This program adds
 * the checks from outside: hit points in range, positions inside the map,
 * no two live monsters on one cell, the turn counter never going back.
 *
 *   soak SECONDS FILE...   (.txt files are bestiaries, the rest levels;
 *                           a level is played with the first bestiary
 *                           it parses with, and skipped if none)
 *
 * Prints one summary line; exits 1 at the first broken invariant (the
 * level, seed and action count say how to replay it), 0 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "bestiary.h"
#include "clock.h"
#include "game.h"
#include "level.h"
#include "rng.h"

#define SOAK_MAX_ACTIONS 3000   /* per game: then the next game starts */

static int fail_at(const char *file, uint64_t seed, long action, const char *what)
{
	fprintf(stderr, "soak: %s seed %llu action %ld: %s\n", file, (unsigned long long)seed, action, what);
	return 1;
}

static const char *broken(const struct game *g, int last_turn)
{
	const struct level *lv = game_level(g);
	if (g->turn < last_turn)
		return "the turn counter went back";
	if (g->player.hp > g->player.max_hp || (!g->over && g->player.hp <= 0))
		return "player hit points out of range";
	if (!g->over && (g->player.x < 0 || g->player.y < 0 || g->player.x >= lv->w || g->player.y >= lv->h))
		return "player outside the map";
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive)
			continue;
		if (m->hp <= 0 || m->hp > m->kind->hp)
			return "monster hit points out of range";
		if (m->x < 0 || m->y < 0 || m->x >= lv->w || m->y >= lv->h)
			return "monster outside the map";
		if (!g->over && m->x == g->player.x && m->y == g->player.y)
			return "monster on the player";
		for (int j = i + 1; j < g->n_monsters; j++)
			if (g->monsters[j].alive && g->monsters[j].x == m->x && g->monsters[j].y == m->y)
				return "two monsters on one cell";
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: soak SECONDS FILE...\n");
		return 2;
	}
	double seconds = atof(argv[1]);
	struct bestiary *bs = calloc((size_t)argc, sizeof *bs);
	struct level **levels = calloc((size_t)argc, sizeof *levels);
	int *lb = calloc((size_t)argc, sizeof *lb);
	if (!bs || !levels || !lb)
		return 1;
	int nb = 0, nl = 0, skipped = 0;
	for (int i = 2; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (n > 4 && strcmp(argv[i] + n - 4, ".txt") == 0 && bestiary_load_file(argv[i], &bs[nb], NULL))
			nb++;
	}
	for (int i = 2; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (n > 4 && strcmp(argv[i] + n - 4, ".txt") == 0)
			continue;
		size_t len;
		char *text = level_read_file(argv[i], &len);
		struct level *lv = NULL;
		for (int b = 0; text && !lv && b < nb; b++) {
			struct diag_list d = { 0 };
			lv = level_parse(argv[i], text, len, &bs[b], &d);
			if (lv && d.errors) {
				level_destroy(lv);
				lv = NULL;
			}
			diag_list_fini(&d);
			if (lv)
				lb[nl] = b;
		}
		free(text);
		if (lv)
			levels[nl++] = lv;
		else
			skipped++;
	}
	if (nl == 0 || nb == 0) {
		fprintf(stderr, "soak: no playable level (bestiaries %d)\n", nb);
		return 1;
	}
	struct rng r;
	rng_seed(&r, 20240613u);
	double t0 = clock_us();
	long games = 0, actions = 0, won = 0, died = 0, descents = 0;
	int status = 0;
	while (status == 0 && clock_us() - t0 < seconds * 1e6) {
		int li = (int)(games % nl);
		uint64_t seed = rng_next(&r);
		/* one level alone, or it and the ones after it as a campaign */
		int n = 1 + (int)(rng_next(&r) % 3);
		if (li + n > nl)
			n = nl - li;
		for (int k = 1; k < n; k++)
			if (lb[li + k] != lb[li])
				n = k;
		struct game *g = game_create((const struct level *const *)levels + li, n, &bs[lb[li]], seed);
		if (!g) {
			status = fail_at(levels[li]->file, seed, 0, "game_create failed");
			break;
		}
		games++;
		int last_turn = g->turn;
		for (long a = 0; a < SOAK_MAX_ACTIONS && !g->over; a++) {
			struct action act = { .kind = ACT_MOVE };
			uint64_t roll = rng_next(&r) % 100;
			const struct level *lv = game_level(g);
			if (g->travel.active)
				act.kind = roll < 90 ? ACT_TRAVEL_STEP : ACT_WAIT;
			else if (roll < 70)
				act.dir = (enum grid_dir)(rng_next(&r) % GRID_DIR_COUNT);
			else if (roll < 80)
				act.kind = ACT_WAIT;
			else if (roll < 95) {
				act.kind = ACT_TRAVEL;
				/* anywhere, a little past the edges too */
				act.x = (int)(rng_next(&r) % (uint64_t)(lv->w + 4)) - 2;
				act.y = (int)(rng_next(&r) % (uint64_t)(lv->h + 4)) - 2;
			} else
				act.kind = ACT_DESCEND;
			if (act.kind != ACT_TRAVEL_STEP && g->travel.active)
				game_travel_cancel(g);
			enum act_result res = game_act(g, &act);
			actions++;
			if (res == RESULT_NEW_LEVEL) {
				descents++;
				last_turn = 0;
			}
			const char *why = broken(g, res == RESULT_NEW_LEVEL ? 0 : last_turn);
			if (why) {
				status = fail_at(lv->file, seed, a, why);
				break;
			}
			last_turn = g->turn;
		}
		won += g->over && g->won;
		died += g->over && !g->won;
		game_destroy(g);
	}
	printf("soak: %.0f s, %d levels (%d skipped), %ld games (%ld won, %ld died), %ld descents, "
	       "%ld actions: %s\n",
	       (clock_us() - t0) / 1e6, nl, skipped, games, won, died, descents, actions,
	       status ? "FAILED" : "every invariant held");
	for (int i = 0; i < nl; i++)
		level_destroy(levels[i]);
	free(levels);
	free(lb);
	free(bs);
	return status;
}
