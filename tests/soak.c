/*
 * soak.c - `make soak`: plays levels headless with random actions for a
 * bounded time in the sanitizer build, where game.c CHECKs its invariants
 * after every action (every monster on a passable cell it alone holds,
 * energy bounded, the player on a free passable cell).  This program adds
 * the checks from outside: hit points in range, positions inside the map,
 * no two live monsters on one cell, the turn counter never going back;
 * and, per game, the journal: every action is recorded in a journal kept
 * in memory (journal.h, with its checksum records), which is replayed
 * from the start at the end of the game and up to a random action, and
 * must reach the same game_hash and turn as the game it recorded.
 *
 *   soak [--seed N] [--only GAME] SECONDS FILE...
 *
 * FILE: .txt files are bestiaries, the rest levels; a level is played with
 * the first bestiary it parses with, and skipped if none.  Each game is
 * one of: a shipped or test level (alone or with the ones after it as a
 * campaign), a generated dungeon (dungeon.h, 1 to 4 levels), or one
 * generated level (gen.h) of a random topology (all five), size, depth
 * and style.  Generated levels use the first bestiary.  Everything a game
 * does follows from its game number, drawn from --seed's stream, so
 * --only GAME replays that one game alone (SECONDS is then ignored).
 *
 * Prints one summary line; exits 1 at the first broken invariant or
 * journal mismatch (the message says what game it was and the command
 * that replays it; the journal is kept as a file to give `astray replay`),
 * 0 otherwise.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ai.h"
#include "bestiary.h"
#include "clock.h"
#include "dungeon.h"
#include "game.h"
#include "gen.h"
#include "journal.h"
#include "level.h"
#include "rng.h"
#include "textfile.h"

#define SOAK_MAX_ACTIONS 3000   /* per game: then the next game starts */
#define SOAK_GEN_MAX_W 160      /* generated levels: at most this many cells across */
#define SOAK_GEN_MAX_H 90       /* and down (most are far smaller, see gen_params_of) */

/* A loaded file: its text is kept for the journal's header. */
struct loaded {
	const char *file;
	char *text;
	size_t len;
};

struct soak {
	struct bestiary *bs;        /* nb bestiaries */
	struct loaded *btext;       /* their texts */
	int nb;
	struct level **levels;      /* nl levels from files */
	struct loaded *ltext;       /* their texts */
	int *lb;                    /* the bestiary each parses with */
	int nl;
	char dir[64];               /* a private folder for the journal files */
	char **argv;                /* for the reproduce line */
	int argc, first_file;
	uint64_t master_seed;
};

/* The journal's bytes, captured from its writes: nothing reaches the disk
 * but an empty file (the journal needs a path to create and append to). */
struct membuf {
	char *p;
	size_t n, cap;
};

static ssize_t mem_write(void *ud, int fd, const void *buf, size_t n)
{
	(void)fd;
	struct membuf *m = ud;
	if (m->n + n + 1 > m->cap) {
		size_t cap = m->cap ? m->cap : 4096;
		while (cap < m->n + n + 1)
			cap *= 2;
		char *p = realloc(m->p, cap);
		if (!p) {
			errno = ENOMEM;
			return -1;
		}
		m->p = p;
		m->cap = cap;
	}
	memcpy(m->p + m->n, buf, n);
	m->n += n;
	return (ssize_t)n;
}

static int mem_fsync(void *ud, int fd)
{
	(void)ud;
	(void)fd;
	return 0;
}

/* One game's levels, owned or borrowed, and what made them. */
struct setup {
	char what[256];             /* for messages: the level file, or how to generate it */
	const struct level **levels;
	int n;
	const struct bestiary *b;
	const struct loaded *btext;
	struct journal_level jl[DUNGEON_MAX_LEVELS];
	struct dungeon dg;          /* when a dungeon */
	struct level *own[DUNGEON_MAX_LEVELS]; /* its levels parsed back from dg.texts */
	struct gen_result gr;       /* when one generated level */
	const struct level *one;    /* gr.level, as a list */
};

static void setup_fini(struct setup *s)
{
	for (int i = 0; i < s->dg.n; i++)
		level_destroy(s->own[i]);
	dungeon_fini(&s->dg);
	gen_result_free(&s->gr);
}

static void gen_params_of(struct rng *r, struct gen_params *p)
{
	static const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4,
						    GRID_DIAMOND8 };
	memset(p, 0, sizeof *p);
	p->topo = topos[rng_next(r) % (sizeof topos / sizeof topos[0])];
	/* mostly a screen or less; one in eight up to the soak's largest */
	int mw = rng_next(r) % 8 ? 80 : SOAK_GEN_MAX_W, mh = rng_next(r) % 8 ? 24 : SOAK_GEN_MAX_H;
	p->w = rng_range(r, GEN_MIN_WIDTH, mw);
	p->h = rng_range(r, GEN_MIN_HEIGHT, mh);
	p->depth = rng_next(r) % 4 ? rng_range(r, 1, 10) : rng_range(r, 1, GEN_MAX_DEPTH);
	p->seed = rng_next(r);
	p->style = (enum gen_style)(rng_next(r) % 3);
}

/* Picks and makes the levels of game `game`.  False with a message in err. */
static bool setup_game(const struct soak *sk, uint64_t game, struct rng *r, struct setup *s, char *err,
		       size_t errlen)
{
	memset(s, 0, sizeof *s);
	uint64_t kind = rng_next(r) % 3;
	if (kind == 0 || sk->nb == 0) {
		int li = (int)(rng_next(r) % (uint64_t)sk->nl);
		/* one level alone, or it and the ones after it as a campaign */
		int n = 1 + (int)(rng_next(r) % 3);
		if (li + n > sk->nl)
			n = sk->nl - li;
		for (int k = 1; k < n; k++)
			if (sk->lb[li + k] != sk->lb[li])
				n = k;
		s->levels = (const struct level **)sk->levels + li;
		s->n = n;
		s->b = &sk->bs[sk->lb[li]];
		s->btext = &sk->btext[sk->lb[li]];
		for (int i = 0; i < n; i++)
			s->jl[i] = (struct journal_level){ .name = sk->ltext[li + i].file,
							   .text = sk->ltext[li + i].text,
							   .len = sk->ltext[li + i].len };
		snprintf(s->what, sizeof s->what, "%s%s", sk->ltext[li].file, n > 1 ? " and the next ones" : "");
		return true;
	}
	s->b = &sk->bs[0];
	s->btext = &sk->btext[0];
	if (kind == 1) {
		uint64_t seed = rng_next(r);
		int n = 1 + (int)(rng_next(r) % 4);
		if (!dungeon_create(seed, n, s->b, &s->dg, err, errlen))
			return false;
		/* The game plays the levels parsed back from their texts, as
		 * a journal holds them: dungeon_create's own levels lack the
		 * generator's description line (a player is told the level's
		 * place in the run instead), so they start with another
		 * message than the journal's texts would replay. */
		snprintf(s->what, sizeof s->what, "dungeon seed %" PRIu64 " of %d levels (game %" PRIu64 ")", seed, n,
			 game);
		for (int i = 0; i < n; i++) {
			struct diag_list d = { 0 };
			s->jl[i] = (struct journal_level){ .name = "dungeon", .text = s->dg.texts[i],
							   .len = strlen(s->dg.texts[i]) };
			s->own[i] = level_parse("dungeon", s->jl[i].text, s->jl[i].len, s->b, &d);
			bool bad = !s->own[i] || d.errors || d.warnings;
			diag_list_fini(&d);
			if (bad) {
				snprintf(err, errlen, "%s: level %d does not parse back without a diagnostic", s->what,
					 i + 1);
				return false;
			}
		}
		s->levels = (const struct level **)s->own;
		s->n = n;
		return true;
	}
	struct gen_params p;
	gen_params_of(r, &p);
	p.bestiary = s->b;
	snprintf(s->what, sizeof s->what,
		 "astray gen --topology %s --size %dx%d --depth %d --style %s --seed %" PRIu64,
		 grid_topology_name(p.topo), p.w, p.h, p.depth, gen_style_name(p.style), p.seed);
	char msg[256];
	if (!gen_level(&p, &s->gr, msg, sizeof msg)) {
		snprintf(err, errlen, "%s: %s", s->what, msg);
		return false;
	}
	s->one = s->gr.level;
	s->levels = &s->one;
	s->n = 1;
	s->jl[0] = (struct journal_level){ .name = "generated", .text = s->gr.text, .len = s->gr.len };
	return true;
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

/* An item action of any kind, with any slot (also empty, -1 and one past
 * the pack), direction or target near the player. */
static struct action random_item_action(struct rng *r, const struct game *g)
{
	static const enum action_kind kinds[] = { ACT_PICKUP, ACT_USE,	ACT_USE,   ACT_USE,  ACT_THROW, ACT_THROW_AT,
						  ACT_FIRE,   ACT_FIRE, ACT_WIELD, ACT_WEAR, ACT_DROP,	ACT_CLOSE };
	struct action act = { .kind = kinds[rng_next(r) % (sizeof kinds / sizeof kinds[0])] };
	act.dir = (enum grid_dir)(rng_next(r) % GRID_DIR_COUNT);
	act.x = (int)(rng_next(r) % (PACK_SLOTS + 2)) - 1;
	if (act.kind == ACT_THROW_AT)
		act.item = act.x;
	if (act.kind == ACT_FIRE || act.kind == ACT_THROW_AT) {
		act.x = g->player.x + (int)(rng_next(r) % 21) - 10;
		act.y = g->player.y + (int)(rng_next(r) % 21) - 10;
	}
	return act;
}

static struct action random_action(struct rng *r, const struct game *g)
{
	struct action act = { .kind = ACT_MOVE };
	uint64_t roll = rng_next(r) % 100;
	const struct level *lv = game_level(g);
	/* every kind but ACT_TRAVEL_STEP cancels travel inside game_act; a key
	 * that only stops it is ACT_STOP, as in play */
	if (g->travel.active)
		act.kind = roll < 85 ? ACT_TRAVEL_STEP : roll < 92 ? ACT_STOP : ACT_WAIT;
	else if (roll < 60 && rng_next(r) % 100 < 15)
		act = random_item_action(r, g); /* every item action, with every slot */
	else if (roll < 60)
		act.dir = (enum grid_dir)(rng_next(r) % GRID_DIR_COUNT);
	else if (roll < 64) {
		act.kind = ACT_RUN;
		act.dir = (enum grid_dir)(rng_next(r) % GRID_DIR_COUNT);
	} else if (roll < 72)
		act.kind = ACT_WAIT;
	else if (roll < 86) {
		act.kind = ACT_TRAVEL;
		/* anywhere, a little past the edges too */
		act.x = (int)(rng_next(r) % (uint64_t)(lv->w + 4)) - 2;
		act.y = (int)(rng_next(r) % (uint64_t)(lv->h + 4)) - 2;
	} else if (roll < 90)
		act.kind = ACT_EXPLORE;
	else if (roll < 92)
		act.kind = ACT_REST;
	else if (roll < 94)
		act.kind = ACT_QUAFF;
	else
		act.kind = ACT_DESCEND;
	return act;
}

/* Replays the first `upto` actions of the journal (all when < 0) into a
 * new game and compares it with (hash, turn).  NULL when it matches. */
static const char *replay_differs(const struct membuf *m, long upto, uint64_t hash, int turn, char *err,
				  size_t errlen)
{
	struct journal_data d;
	if (!journal_parse("soak.journal", m->p, m->n, &d, err, errlen))
		return "the journal does not parse";
	if (d.tail != JOURNAL_TAIL_CLEAN) {
		snprintf(err, errlen, "%s", d.tail_msg);
		journal_data_fini(&d);
		return "the journal's records do not parse";
	}
	struct journal_game jg;
	const char *why = NULL;
	if (!journal_start(&d, &jg, err, errlen)) {
		why = "the journal does not start";
	} else {
		struct journal_replay rep;
		if (!journal_replay(&d, jg.game, upto, &rep, err, errlen))
			why = "the replay drifts from a checksum record";
		else if (game_hash(jg.game) != hash || jg.game->turn != turn) {
			snprintf(err, errlen,
				 "after %ld actions: replayed turn %d hash %016" PRIx64 ", played turn %d hash %016" PRIx64,
				 rep.actions, jg.game->turn, game_hash(jg.game), turn, hash);
			why = "the replay ends in another state";
		}
	}
	journal_game_fini(&jg);
	journal_data_fini(&d);
	return why;
}

struct tally {
	long games, actions, won, died, descents, replays, generated;
};

/* Plays game number `game`.  0, or 1 after printing what broke. */
static int play_one(const struct soak *sk, uint64_t game, struct tally *t)
{
	struct rng r;
	rng_seed(&r, game);
	struct setup s;
	char err[1024];
	if (!setup_game(sk, game, &r, &s, err, sizeof err)) {
		fprintf(stderr, "soak: game %" PRIu64 ": cannot make its levels: %s\n", game, err);
		setup_fini(&s);
		return 1;
	}
	uint64_t seed = rng_next(&r);
	long check_at = (long)(rng_next(&r) % SOAK_MAX_ACTIONS);
	struct game *g = game_create(s.levels, s.n, s.b, seed);
	struct membuf mb = { 0 };
	struct savefile_io io = { mem_write, mem_fsync, &mb };
	char path[128];
	snprintf(path, sizeof path, "%s/game.journal", sk->dir);
	struct journal_setup js = {
		.program = "soak", .seed = seed, .bestiary_name = s.btext->file, .bestiary_text = s.btext->text,
		.bestiary_len = s.btext->len, .levels = s.jl, .n_levels = s.n, .io = &io,
		.check_every = 1 + (int)(rng_next(&r) % 32),
	};
	struct journal *j = g ? journal_create(path, &js, g, err, sizeof err) : NULL;
	unlink(path);
	const char *why = !g ? "game_create failed" : !j ? "journal_create failed" : NULL;
	long a = 0;
	uint64_t hash_at = 0;
	int turn_at = 0;
	if (!why) {
		t->games++;
		t->generated += s.dg.n > 0 || s.gr.level;
		int last_turn = g->turn;
		for (; a < SOAK_MAX_ACTIONS && !g->over; a++) {
			struct action act = random_action(&r, g);
			enum act_result res = game_act(g, &act);
			t->actions++;
			if (!journal_record(j, &act, res, g, err, sizeof err)) {
				why = "journal_record failed";
				break;
			}
			if (res == RESULT_NEW_LEVEL) {
				t->descents++;
				last_turn = 0;
			}
			if ((why = broken(g, res == RESULT_NEW_LEVEL ? 0 : last_turn)) != NULL) {
				err[0] = '\0';
				break;
			}
			last_turn = g->turn;
			if (a == check_at) {
				hash_at = game_hash(g);
				turn_at = g->turn;
			}
		}
		if (!why && !journal_flush(j, err, sizeof err))
			why = "journal_flush failed";
		if (!why && check_at < a && (why = replay_differs(&mb, check_at + 1, hash_at, turn_at, err,
								  sizeof err)) != NULL)
			a = check_at;
		if (!why && (why = replay_differs(&mb, -1, game_hash(g), g->turn, err, sizeof err)) == NULL)
			t->replays += 1 + (check_at < a);
		t->won += g->over && g->won;
		t->died += g->over && !g->won;
	}
	char cerr[256];
	journal_close(j, cerr, sizeof cerr);
	game_destroy(g);
	int status = 0;
	if (why) {
		fprintf(stderr, "soak: %s, game seed %" PRIu64 ", action %ld: %s%s%s\n", s.what, seed, a, why,
			err[0] ? ": " : "", err);
		char kept[160];
		snprintf(kept, sizeof kept, "%s/failed-%" PRIu64 ".journal", sk->dir, game);
		FILE *f = mb.n ? fopen(kept, "wb") : NULL;
		if (f && fwrite(mb.p, 1, mb.n, f) == mb.n && fclose(f) == 0)
			fprintf(stderr, "soak: its journal: %s (astray replay --verify %s)\n", kept, kept);
		else if (f)
			fclose(f);
		fprintf(stderr, "soak: to replay this game alone: %s --seed %" PRIu64 " --only %" PRIu64 " 0",
			sk->argv[0], sk->master_seed, game);
		for (int i = sk->first_file; i < sk->argc; i++)
			fprintf(stderr, " %s", sk->argv[i]);
		fputc('\n', stderr);
		status = 1;
	}
	free(mb.p);
	setup_fini(&s);
	return status;
}

static bool is_bestiary(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcmp(name + n - 4, ".txt") == 0;
}

static bool parse_u64_arg(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return false;
	*out = v;
	return true;
}

static int usage(void)
{
	fprintf(stderr, "usage: soak [--seed N] [--only GAME] SECONDS FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct soak sk = { .argv = argv, .argc = argc, .master_seed = 20240613u };
	uint64_t only = 0;
	bool have_only = false;
	int i = 1;
	for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		if (strcmp(argv[i], "--seed") == 0 && parse_u64_arg(argv[i + 1], &sk.master_seed))
			continue;
		if (strcmp(argv[i], "--only") == 0 && parse_u64_arg(argv[i + 1], &only)) {
			have_only = true;
			continue;
		}
		return usage();
	}
	if (argc - i < 2)
		return usage();
	double seconds = atof(argv[i]);
	sk.first_file = i + 1;
	int nf = argc - sk.first_file;
	sk.bs = calloc((size_t)nf, sizeof *sk.bs);
	sk.btext = calloc((size_t)nf, sizeof *sk.btext);
	sk.levels = calloc((size_t)nf, sizeof *sk.levels);
	sk.ltext = calloc((size_t)nf, sizeof *sk.ltext);
	sk.lb = calloc((size_t)nf, sizeof *sk.lb);
	if (!sk.bs || !sk.btext || !sk.levels || !sk.ltext || !sk.lb)
		return 1;
	int skipped = 0;
	for (int k = sk.first_file; k < argc; k++) {
		struct loaded *t = &sk.btext[sk.nb];
		if (!is_bestiary(argv[k]) || textfile_read(argv[k], &t->text, &t->len) != 0)
			continue;
		struct diag_list d = { 0 };
		t->file = argv[k];
		if (bestiary_parse(argv[k], t->text, t->len, &sk.bs[sk.nb], &d))
			sk.nb++;
		else
			free(t->text);
		diag_list_fini(&d);
	}
	for (int k = sk.first_file; k < argc; k++) {
		if (is_bestiary(argv[k]))
			continue;
		struct loaded *t = &sk.ltext[sk.nl];
		t->file = argv[k];
		struct level *lv = NULL;
		if (textfile_read(argv[k], &t->text, &t->len) == 0)
			for (int b = 0; !lv && b < sk.nb; b++) {
				struct diag_list d = { 0 };
				lv = level_parse(argv[k], t->text, t->len, &sk.bs[b], &d);
				if (lv && d.errors) {
					level_destroy(lv);
					lv = NULL;
				}
				diag_list_fini(&d);
				if (lv)
					sk.lb[sk.nl] = b;
			}
		if (lv) {
			sk.levels[sk.nl++] = lv;
		} else {
			free(t->text);
			skipped++;
		}
	}
	if (sk.nl == 0 || sk.nb == 0) {
		fprintf(stderr, "soak: no playable level (bestiaries %d)\n", sk.nb);
		return 1;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(sk.dir, sizeof sk.dir, "%s/astray-soak-XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(sk.dir)) {
		fprintf(stderr, "soak: cannot make a folder %s: %s\n", sk.dir, strerror(errno));
		return 1;
	}
	struct rng master;
	rng_seed(&master, sk.master_seed);
	double t0 = clock_us();
	struct tally t = { 0 };
	int status = 0;
	if (have_only)
		status = play_one(&sk, only, &t);
	else
		while (status == 0 && clock_us() - t0 < seconds * 1e6)
			status = play_one(&sk, rng_next(&master), &t);
	printf("soak: %.0f s, %d levels (%d skipped), %ld games (%ld on generated levels; %ld won, %ld died), "
	       "%ld descents, %ld actions, %ld journal replays: %s\n",
	       (clock_us() - t0) / 1e6, sk.nl, skipped, t.games, t.generated, t.won, t.died, t.descents, t.actions,
	       t.replays, status ? "FAILED" : "every invariant held, every replay matched");
	if (status == 0)
		rmdir(sk.dir);
	for (int k = 0; k < sk.nl; k++) {
		level_destroy(sk.levels[k]);
		free(sk.ltext[k].text);
	}
	for (int k = 0; k < sk.nb; k++)
		free(sk.btext[k].text);
	free(sk.levels);
	free(sk.ltext);
	free(sk.lb);
	free(sk.btext);
	free(sk.bs);
	return status;
}
