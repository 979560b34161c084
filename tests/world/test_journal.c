/*
 * test_journal.c - the game journal without a terminal: games built from
 * the end-to-end levels, the campaign and a Moving AI map are played by a
 * scripted player (random legal actions from a test PRNG) and journaled;
 * the journal must read back to the same records and replay to the same
 * game_hash as the live game at every checksum.  Then the file is abused:
 * cut at every byte, every write or fsync failing in turn, bits flipped,
 * actions changed (a drift), a foreign or newer file; and resume must give
 * the same game as never stopping.  Also savefile's folder and set-aside
 * rules, and every file of tests/fuzz-corpus-journal through the reader.
 *
 * With ASTRAY_JOURNAL_GOLDEN=DIR the suite (re)writes the golden journals
 * there; with ASTRAY_JOURNAL_LONG=FILE it writes a 10,000-action journal
 * on levels/07-the-deep.lvl (for timing `astray replay --verify` in the -O2
 * build and tools/bench-resume): a mix with travel by default, moves and
 * waits only with ASTRAY_JOURNAL_LONG_KIND=keys, autoexplore instead of
 * travel with ASTRAY_JOURNAL_LONG_KIND=explore.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bestiary.h"
#include "game.h"
#include "journal.h"
#include "level.h"
#include "savefile.h"
#include "snapshot.h"

#define MAX_LEVELS 16

/* ---- helpers: files and folders ----------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	char *t = level_read_file(path, len);
	if (!t)
		fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
	assert_non_null(t);
	return t;
}

static void write_all(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void make_temp_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/astray-journal-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

/* Removes every file in dir, then dir. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char p[600];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* ---- a scripted game with its journal ----------------------------------- */

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct session {
	char *texts[MAX_LEVELS];
	struct journal_level jl[MAX_LEVELS];
	int n_levels;
	char *bestiary_text;
	size_t bestiary_len;
	const char *sets[8];
	int n_sets;
	struct journal_options options;
	struct bestiary b;
	struct level *lv[MAX_LEVELS];
	struct game *g;
	uint64_t seed, rng;
	bool avoid_exits;        /* the scripted player never steps onto stairs */
	bool keys_only;          /* only moves and waits, as a keyboard player (no travel searches) */
	bool explore;            /* autoexplore instead of travel clicks (the resume benchmark's third game) */
	int snap_every;          /* session_record keeps snapshots this often (0: none) */
	/* what the live game did: index k = after k actions */
	long n, cap;
	struct action *acts;
	enum act_result *res;
	uint64_t *hash;
	int *turn;
};

static void session_remember(struct session *s)
{
	if (s->n + 1 >= s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->acts = realloc(s->acts, (size_t)s->cap * sizeof *s->acts);
		s->res = realloc(s->res, (size_t)s->cap * sizeof *s->res);
		s->hash = realloc(s->hash, (size_t)s->cap * sizeof *s->hash);
		s->turn = realloc(s->turn, (size_t)s->cap * sizeof *s->turn);
		assert_true(s->acts && s->res && s->hash && s->turn);
	}
	s->hash[s->n] = game_hash(s->g);
	s->turn[s->n] = s->g->turn;
}

/*
 * A game on the given level files (".map" ones placed from place_seed with
 * three goblins), the campaign bestiary and the overrides, as play builds it.
 */
static void session_open(struct session *s, const char *const *files, int n, const char *const *sets, int n_sets,
			 uint64_t seed)
{
	memset(s, 0, sizeof *s);
	s->seed = seed;
	s->rng = seed * 7919 + 1;
	s->options.ai_share = AI_SHARE_AUTO;
	s->bestiary_text = read_all("levels/bestiary.txt", &s->bestiary_len);
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("levels/bestiary.txt", s->bestiary_text, s->bestiary_len, &s->b, &d));
	for (int i = 0; i < n_sets; i++) {
		char err[256];
		s->sets[s->n_sets++] = sets[i];
		assert_true(bestiary_set(&s->b, sets[i], err, sizeof err));
	}
	for (int i = 0; i < n; i++) {
		size_t len;
		s->texts[i] = read_all(files[i], &len);
		struct journal_level *jl = &s->jl[i];
		jl->name = files[i];
		jl->text = s->texts[i];
		jl->len = len;
		size_t fl = strlen(files[i]);
		jl->movingai = fl > 4 && strcmp(files[i] + fl - 4, ".map") == 0;
		if (jl->movingai) {
			jl->monsters = 3;
			jl->glyph = 'g';
			jl->place_seed = seed + 5;
			s->lv[i] = level_from_movingai(files[i], s->texts[i], len, jl->place_seed, 3, 'g', &d);
		} else {
			s->lv[i] = level_parse(files[i], s->texts[i], len, &s->b, &d);
		}
		assert_non_null(s->lv[i]);
	}
	assert_int_equal(d.errors, 0);
	diag_list_fini(&d);
	s->n_levels = n;
	s->g = game_create((const struct level *const *)s->lv, n, &s->b, seed);
	assert_non_null(s->g);
	session_remember(s);
}

static void session_options(struct session *s, enum ai_share share, bool all_hunt)
{
	s->options.ai_share = share;
	s->options.all_hunt = all_hunt;
	s->g->ai.share = share;
	s->g->ai.all_hunt = all_hunt;
	s->hash[0] = game_hash(s->g);
}

static struct journal_setup session_setup(const struct session *s, const struct savefile_io *io)
{
	struct journal_setup st = {
		.program = "test",
		.seed = s->seed,
		.bestiary_name = "levels/bestiary.txt",
		.bestiary_text = s->bestiary_text,
		.bestiary_len = s->bestiary_len,
		.sets = s->sets,
		.n_sets = s->n_sets,
		.options = s->options,
		.levels = s->jl,
		.n_levels = s->n_levels,
		.io = io,
	};
	return st;
}

static void session_close(struct session *s)
{
	game_destroy(s->g);
	for (int i = 0; i < s->n_levels; i++) {
		level_destroy(s->lv[i]);
		free(s->texts[i]);
	}
	free(s->bestiary_text);
	free(s->acts);
	free(s->res);
	free(s->hash);
	free(s->turn);
	memset(s, 0, sizeof *s);
}

static bool route_has_exit(struct game *g, int x, int y)
{
	const int *cells;
	int len;
	game_travel_plan(g, x, y, &cells, &len);
	for (int i = 1; i < len; i++)
		if (g->tiles[cells[i]] == TILE_EXIT)
			return true;
	return false;
}

/* A random legal action: moves in any compass direction, waits, travel to
 * a random cell or to the stairs, travel steps, descending. */
static struct action pick_action(struct session *s)
{
	struct game *g = s->g;
	struct action a;
	memset(&a, 0, sizeof a);
	uint64_t r = next_rand(&s->rng);
	int w = g->grid->w, h = g->grid->h;
	int pc = g->player.y * w + g->player.x;
	if (g->travel.active && r % 4 != 0) {
		a.kind = ACT_TRAVEL_STEP;
		return a;
	}
	int p = (int)(r >> 8) % 100;
	if (g->tiles[pc] == TILE_EXIT && p < 30 && !s->avoid_exits) {
		a.kind = ACT_DESCEND;
	} else if (p < 45) {
		a.kind = ACT_MOVE;
		a.dir = (int)((r >> 20) % 8);
		int nx, ny;
		if (s->avoid_exits && grid_dir_step(g->grid, g->player.x, g->player.y, a.dir, &nx, &ny) &&
		    grid_in_bounds(g->grid, nx, ny) && g->tiles[ny * w + nx] == TILE_EXIT)
			a.kind = ACT_WAIT;
	} else if (p < 55 || s->keys_only) {
		a.kind = ACT_WAIT;
	} else if (p < 85 && s->explore) {
		a.kind = ACT_EXPLORE;
	} else if (p < 85 || s->avoid_exits) {
		a.kind = ACT_TRAVEL;
		a.x = (int)((r >> 24) % (uint64_t)(w + 2)) - 1; /* sometimes outside: clamped */
		a.y = (int)((r >> 40) % (uint64_t)(h + 2)) - 1;
		if (s->avoid_exits && route_has_exit(g, a.x, a.y))
			a.kind = ACT_WAIT;
	} else if (p < 97) {
		a.kind = ACT_TRAVEL;
		for (int c = 0; c < w * h; c++)
			if (g->tiles[c] == TILE_EXIT) {
				a.x = c % w;
				a.y = c / w;
				break;
			}
	} else {
		a.kind = ACT_DESCEND;
	}
	return a;
}

/*
 * Plays up to n more actions (fewer when the game ends), journaling each
 * with journal_record when j is not NULL.  Returns false at the first
 * journal error (err has it); the action that failed was still played.
 */
static bool session_play(struct session *s, struct journal *j, long n, char *err, size_t errlen)
{
	for (long k = 0; k < n && !s->g->over; k++) {
		struct action a = pick_action(s);
		enum act_result res = game_act(s->g, &a);
		s->acts[s->n] = a;
		s->res[s->n] = res;
		s->n++;
		session_remember(s);
		if (j && !journal_record(j, &a, res, s->g, err, errlen))
			return false;
	}
	return true;
}

/* Creates path and plays n actions into it; asserts everything works. */
static void session_record(struct session *s, const char *path, long n)
{
	char err[1000] = "";
	struct journal_setup st = session_setup(s, NULL);
	struct journal *j = journal_create(path, &st, s->g, err, sizeof err);
	if (!j)
		fprintf(stderr, "%s\n", err);
	assert_non_null(j);
	journal_snapshots(j, s->snap_every);
	assert_true(session_play(s, j, n, err, sizeof err));
	assert_null(journal_snapshot_problem(j));
	assert_true(journal_append_checksum(j, s->g, err, sizeof err));
	assert_true(journal_close(j, err, sizeof err));
}

/* Replays d from the start and checks it against the live game up to d's actions. */
static void check_replay(const struct session *s, const struct journal_data *d)
{
	char err[1200] = "";
	struct journal_game jg;
	bool ok = journal_start(d, &jg, err, sizeof err);
	if (!ok)
		fprintf(stderr, "%s\n", err);
	assert_true(ok);
	struct journal_replay r;
	ok = journal_replay(d, jg.game, -1, &r, err, sizeof err);
	if (!ok)
		fprintf(stderr, "%s\n", err);
	assert_true(ok);
	assert_int_equal(r.actions, d->n_actions);
	assert_int_equal(r.checks, d->n_checks);
	assert_int_equal(r.drift, -1);
	assert_true(d->n_actions <= s->n);
	assert_true(game_hash(jg.game) == s->hash[d->n_actions]);
	assert_int_equal(jg.game->turn, s->turn[d->n_actions]);
	journal_game_fini(&jg);
}

static void read_ok(const char *path, struct journal_data *d)
{
	char err[1200] = "";
	bool ok = journal_read_file(path, d, err, sizeof err);
	if (!ok)
		fprintf(stderr, "%s\n", err);
	assert_true(ok);
}

/* ---- round trips -------------------------------------------------------- */

static void roundtrip(const char *const *files, int n, const char *const *sets, int n_sets, uint64_t seed,
		      long actions, bool options)
{
	char dir[64], path[128];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	struct session s;
	session_open(&s, files, n, sets, n_sets, seed);
	if (options)
		session_options(&s, AI_SHARE_ALWAYS, true);
	session_record(&s, path, actions);

	struct journal_data d;
	read_ok(path, &d);
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	assert_int_equal(d.good_end, d.size);
	assert_int_equal(d.format, 1); /* a first segment: format 1, as an older astray wrote */
	assert_string_equal(d.program, "test");
	assert_true(d.seed == seed);
	assert_int_equal(d.n_levels, n);
	assert_int_equal(d.n_sets, n_sets);
	assert_int_equal(d.options.ai_share, options ? AI_SHARE_ALWAYS : AI_SHARE_AUTO);
	assert_int_equal(d.options.all_hunt, options);
	for (int i = 0; i < n_sets; i++)
		assert_string_equal(d.sets[i], sets[i]);
	assert_memory_equal(d.bestiary_text, s.bestiary_text, s.bestiary_len);
	for (int i = 0; i < n; i++) {
		assert_int_equal(d.levels[i].len, s.jl[i].len);
		assert_memory_equal(d.levels[i].text, s.jl[i].text, s.jl[i].len);
		assert_string_equal(d.levels[i].name, files[i]);
		assert_int_equal(d.levels[i].movingai, s.jl[i].movingai);
	}
	/* the same records */
	assert_int_equal(d.n_actions, s.n);
	for (long k = 0; k < s.n; k++) {
		assert_int_equal(d.actions[k].kind, s.acts[k].kind);
		assert_int_equal((int)d.actions[k].dir, (int)s.acts[k].dir);
		assert_int_equal(d.actions[k].x, s.acts[k].x);
		assert_int_equal(d.actions[k].y, s.acts[k].y);
	}
	/* a checksum at the start, every JOURNAL_CHECK_EVERY actions at most, and at the end */
	assert_true(d.n_checks >= 2);
	assert_int_equal(d.checks[0].action, 0);
	assert_int_equal(d.checks[d.n_checks - 1].action, s.n);
	for (long c = 0; c < d.n_checks; c++) {
		assert_true(d.checks[c].hash == s.hash[d.checks[c].action]);
		assert_int_equal(d.checks[c].turn, s.turn[d.checks[c].action]);
		if (c > 0)
			assert_true(d.checks[c].action - d.checks[c - 1].action <= JOURNAL_CHECK_EVERY);
	}
	check_replay(&s, &d);
	/* replaying part of it gives the live game at that action */
	for (long upto = 0; upto <= s.n; upto += 37) {
		struct journal_game jg;
		struct journal_replay r;
		char err[1200];
		assert_true(journal_start(&d, &jg, err, sizeof err));
		assert_true(journal_replay(&d, jg.game, upto, &r, err, sizeof err));
		assert_int_equal(r.actions, upto);
		assert_true(game_hash(jg.game) == s.hash[upto]);
		journal_game_fini(&jg);
	}
	journal_data_fini(&d);
	session_close(&s);
	remove_dir(dir);
}

static void test_roundtrip_e2e_levels(void **state)
{
	(void)state;
	static const char *const one[][1] = {
		{ "tests/levels/e2e/square.lvl" }, { "tests/levels/e2e/hex.lvl" }, { "tests/levels/e2e/death.lvl" },
		{ "tests/levels/e2e/chase20.lvl" }, { "tests/levels/e2e/big.lvl" },
	};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		roundtrip(one[i], 1, NULL, 0, 100 + i, 300, false);
}

static const char *const campaign[] = {
	"levels/01-first-steps.lvl", "levels/02-the-chase.lvl", "levels/03-hex-arena.lvl",
	"levels/04-the-mire.lvl", "levels/05-the-vault.lvl", "levels/06-the-labyrinth.lvl",
	"levels/07-the-deep.lvl", "levels/08-the-ogre-hall.lvl",
};
#define N_CAMPAIGN ((int)(sizeof campaign / sizeof campaign[0]))

/* Harmless monsters: long games that go through many levels. */
static const char *const harmless[] = {
	"rat.damage=0", "goblin.damage=0", "orc.damage=0", "zombie.damage=0",
	"bat.damage=0", "ogre.damage=0", "wolf.damage=0",
};

static void test_roundtrip_campaign(void **state)
{
	(void)state;
	roundtrip(campaign, N_CAMPAIGN, NULL, 0, 42, 600, false);
	roundtrip(campaign, N_CAMPAIGN, harmless, 7, 43, 1500, true);
	for (int i = 0; i < N_CAMPAIGN; i++)
		roundtrip(&campaign[i], 1, harmless, 2, 200 + (uint64_t)i, 200, false);
	static const char *const map[] = { "tests/levels/check/pocket.map", "levels/03-hex-arena.lvl" };
	roundtrip(map, 2, NULL, 0, 9, 300, false);
}

/* ---- the game state as bytes, and snapshots --------------------------------- */

/* A game state saved at many points loads into a fresh game of the same
 * campaign, saves back to the same bytes, and plays on exactly as the game
 * never stopped (game_hash after every one of the next actions). */
static void state_roundtrip(const char *const *files, int n, const char *const *sets, int n_sets, uint64_t seed,
			    long actions, int every, bool options)
{
	struct session s;
	session_open(&s, files, n, sets, n_sets, seed);
	if (options)
		session_options(&s, AI_SHARE_ALWAYS, true);
	char err[300];
	int tried = 0;
	for (long k = 0; k < actions && !s.g->over; k++) {
		if (k % every == 0) {
			void *bytes, *again;
			size_t len, len2;
			enum game_state_status st = game_state_save(s.g, &bytes, &len);
			if (st == GAME_STATE_OK) {
				tried++;
				struct game *h = game_create((const struct level *const *)s.lv, s.n_levels, &s.b, s.seed);
				assert_non_null(h);
				bool ok = game_state_load(h, bytes, len, err, sizeof err);
				if (!ok)
					fprintf(stderr, "action %ld: %s\n", k, err);
				assert_true(ok);
				assert_true(game_hash(h) == game_hash(s.g));
				assert_int_equal(game_state_save(h, &again, &len2), GAME_STATE_OK);
				assert_int_equal(len2, len);
				assert_memory_equal(again, bytes, len);
				free(again);
				/* both play on with the same actions */
				struct game *live = s.g;
				uint64_t rng = s.rng;
				for (int m = 0; m < 40 && !live->over; m++) {
					struct action a = pick_action(&s);
					game_act(live, &a);
					game_act(h, &a);
					if (game_hash(h) != game_hash(live))
						fprintf(stderr, "state saved at action %ld differs %d actions on\n", k, m + 1);
					assert_true(game_hash(h) == game_hash(live));
				}
				/* the session goes on from the restored copy's twin: replace the live game by h */
				game_destroy(s.g);
				s.g = h;
				s.rng = rng;
			}
			free(bytes);
		}
		struct action a = pick_action(&s);
		game_act(s.g, &a);
	}
	assert_true(tried > 0);
	session_close(&s);
}

static void test_state_roundtrip(void **state)
{
	(void)state;
	static const char *const one[][1] = {
		{ "tests/levels/e2e/square.lvl" }, { "tests/levels/e2e/hex.lvl" }, { "tests/levels/e2e/chase20.lvl" },
		{ "tests/levels/e2e/big.lvl" }, { "levels/03a-the-diamond-lattice.lvl" },
		{ "levels/04a-the-diamond-halls.lvl" },
	};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		state_roundtrip(one[i], 1, NULL, 0, 300 + i, 400, 23, false);
	state_roundtrip(campaign, N_CAMPAIGN, harmless, 7, 44, 1200, 41, false);
	state_roundtrip(campaign, N_CAMPAIGN, harmless, 7, 45, 600, 29, true);
	static const char *const map[] = { "tests/levels/check/pocket.map", "levels/03-hex-arena.lvl" };
	state_roundtrip(map, 2, NULL, 0, 9, 300, 17, false);
}

/* Damaged state bytes never crash the loader: every truncation and byte flip of a state is refused or loads. */
static void test_state_damage(void **state)
{
	(void)state;
	static const char *const one[] = { "tests/levels/e2e/chase20.lvl" };
	struct session s;
	session_open(&s, one, 1, NULL, 0, 5);
	char err[300];
	assert_true(session_play(&s, NULL, 60, err, sizeof err));
	void *bytes;
	size_t len;
	assert_int_equal(game_state_save(s.g, &bytes, &len), GAME_STATE_OK);
	unsigned char *b = bytes;
	uint64_t r = 77;
	for (size_t cut = 0; cut < len; cut += 1 + len / 300) {
		struct game *h = game_create((const struct level *const *)s.lv, 1, &s.b, 5);
		assert_false(game_state_load(h, b, cut, err, sizeof err));
		game_destroy(h);
	}
	for (int k = 0; k < 400; k++) {
		size_t at = (size_t)(next_rand(&r) % len);
		unsigned char old = b[at];
		b[at] ^= (unsigned char)(1u << (next_rand(&r) % 8));
		struct game *h = game_create((const struct level *const *)s.lv, 1, &s.b, 5);
		if (game_state_load(h, b, len, err, sizeof err)) {
			struct action a = { .kind = ACT_WAIT };
			game_act(h, &a); /* whatever it holds, it plays without a crash */
		}
		game_destroy(h);
		b[at] = old;
	}
	free(bytes);
	session_close(&s);
}

/* Resumes path with its snapshot and checks the result against the live session. */
static long resume_check(const struct session *s, const char *path, const char *note_words)
{
	struct journal_data d;
	read_ok(path, &d);
	struct journal_game jg;
	char err[1200], note[700], snap[300];
	assert_true(snapshot_path(path, snap, sizeof snap));
	assert_true(journal_start(&d, &jg, err, sizeof err));
	struct journal_replay r;
	long from = -1;
	bool ok = journal_resume(&d, &jg, snap, -1, &r, &from, note, sizeof note, err, sizeof err);
	if (!ok)
		fprintf(stderr, "%s\n", err);
	assert_true(ok);
	assert_int_equal(r.actions, d.n_actions);
	assert_true(game_hash(jg.game) == s->hash[d.n_actions]);
	assert_int_equal(jg.game->turn, s->turn[d.n_actions]);
	if (note_words) {
		if (!strstr(note, note_words))
			fprintf(stderr, "note '%s' lacks '%s' (snapshot of action %ld, journal of %ld)\n", note, note_words,
				from, d.n_actions);
		assert_non_null(strstr(note, note_words));
		assert_int_equal(from, 0);
	} else {
		assert_string_equal(note, "");
	}
	journal_game_fini(&jg);
	journal_data_fini(&d);
	return from;
}

/* The snapshot beside a journal: used when it is this game's, at a
 * checksum the journal holds; any other (missing, cut, damaged, stale,
 * another game's, edited) falls back to the whole replay with the same result. */
static void test_snapshot_resume(void **state)
{
	(void)state;
	char dir[64], path[128], snap[160], other[128];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	snprintf(snap, sizeof snap, "%s/game.jnl.snap", dir);
	snprintf(other, sizeof other, "%s/other.jnl", dir);
	struct session s;
	session_open(&s, campaign, N_CAMPAIGN, harmless, 7, 46);
	s.snap_every = 100;
	session_record(&s, path, 700);
	assert_true(exists(snap));
	long from = resume_check(&s, path, NULL);
	/* a snapshot every 100 actions (at the first checksum after) or
	 * at a level change: one lies in the last two hundred (rules 4:
	 * a level change at 596, the checksum after 600 past the end) */
	assert_int_equal(s.n, 700);
	assert_true(from >= 500 && from <= 700);

	size_t len;
	char *good = read_all(snap, &len);
	/* missing: the whole replay, nothing to say */
	unlink(snap);
	assert_int_equal(resume_check(&s, path, NULL), 0);
	/* cut */
	write_all(snap, good, len - 3);
	resume_check(&s, path, "bytes of state");
	/* a flipped byte in the state */
	good[len - 40] ^= 4;
	write_all(snap, good, len);
	resume_check(&s, path, "CRC");
	good[len - 40] ^= 4;
	/* not a snapshot */
	write_all(snap, "hello\n", 6);
	resume_check(&s, path, "not an astray snapshot");
	/* another game's snapshot */
	struct session o;
	session_open(&o, campaign, N_CAMPAIGN, harmless, 7, 47);
	o.snap_every = 50;
	session_record(&o, other, 200);
	char osnap[160];
	snprintf(osnap, sizeof osnap, "%s.snap", other);
	assert_int_equal(rename(osnap, snap), 0);
	resume_check(&s, path, "another game");
	session_close(&o);
	/* a head that names an action the journal has no matching checksum for */
	char *nl = memchr(good, '\n', len);
	assert_non_null(nl);
	char head[200];
	memcpy(head, good, (size_t)(nl - good));
	head[nl - good] = '\0';
	unsigned fmt, hcrc, scrc;
	long act;
	int turn;
	unsigned long long hash;
	size_t slen;
	assert_int_equal(sscanf(head, "astray-snapshot %u %x %ld %d %llx %zu %x", &fmt, &hcrc, &act, &turn, &hash,
				&slen, &scrc), 7);
	char *edited = malloc(len + 64);
	int k = snprintf(edited, 200, "astray-snapshot %u %08x %ld %d %016llx %zu %08x\n", fmt, hcrc, act - 1, turn,
			 hash, slen, scrc);
	memcpy(edited + k, nl + 1, slen);
	write_all(snap, edited, (size_t)k + slen);
	resume_check(&s, path, "no checksum for action");
	/* the right head over a state of another moment (its hash differs) */
	k = snprintf(edited, 200, "astray-snapshot %u %08x %ld %d %016llx %zu %08x\n", fmt, hcrc, act, turn,
		     hash ^ 1, slen, scrc);
	memcpy(edited + k, nl + 1, slen); /* snprintf's NUL fell on the state's first byte */
	write_all(snap, edited, (size_t)k + slen);
	resume_check(&s, path, "no checksum for action");
	free(edited);
	/* the good one again, and a journal cut before it: the snapshot is ahead of the journal */
	write_all(snap, good, len);
	assert_int_equal(resume_check(&s, path, NULL), from);
	struct journal_data d;
	read_ok(path, &d);
	size_t cut_at = d.action_offsets[from - 5];
	journal_data_fini(&d);
	char *jtext = read_all(path, &len);
	write_all(path, jtext, cut_at);
	free(jtext);
	resume_check(&s, path, "no checksum for action");
	free(good);
	session_close(&s);
	remove_dir(dir);
}

/* The action the snapshot file at path follows (-1: there is none). */
static long snap_action(const char *path)
{
	if (!exists(path))
		return -1;
	size_t len;
	char *b = read_all(path, &len);
	struct snapshot_head h;
	char err[300];
	bool ok = snapshot_parse(b, len, &h, err, sizeof err);
	free(b);
	return ok ? h.action : -1;
}

/*
 * Resumes path the way play does (journal_resume with its snapshot,
 * journal_open_append, snapshots every `every`, journal_resumed), then
 * plays `more` actions with the rebuilt game and closes.  Returns where
 * the resume started (its snapshot's action, 0 for a full replay);
 * *wrote says whether journal_resumed wrote a snapshot.
 */
static long resume_play(struct session *s, const char *path, int every, long more, bool *wrote)
{
	char err[1200], note[700], snap[300];
	struct journal_data d;
	read_ok(path, &d);
	assert_true(snapshot_path(path, snap, sizeof snap));
	struct journal_game jg;
	assert_true(journal_start(&d, &jg, err, sizeof err));
	struct journal_replay r;
	long from = -1;
	assert_true(journal_resume(&d, &jg, snap, -1, &r, &from, note, sizeof note, err, sizeof err));
	assert_true(game_hash(jg.game) == s->hash[d.n_actions]);
	struct journal *j = journal_open_append(path, &d, NULL, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, every);
	*wrote = journal_resumed(j, jg.game, from);
	assert_null(journal_snapshot_problem(j));
	struct game *live = s->g;
	s->g = jg.game;
	long n0 = s->n;
	assert_true(session_play(s, j, more, err, sizeof err));
	assert_null(journal_snapshot_problem(j));
	assert_true(journal_close(j, err, sizeof err));
	s->g = live;
	for (long k = n0; k < s->n; k++)
		game_act(s->g, &s->acts[k]); /* the live game follows */
	journal_game_fini(&jg);
	journal_data_fini(&d);
	return from;
}

/* Leaving keeps a snapshot where the player left (journal_snapshot_at_stop,
 * after the quit's checksum): the next resume replays nothing.  None when
 * the newest snapshot is already there, none without snapshots. */
static void test_snapshot_at_stop(void **state)
{
	(void)state;
	char dir[64], path[128], snap[160], err[1200];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	snprintf(snap, sizeof snap, "%s.snap", path);
	struct session s;
	session_open(&s, campaign, N_CAMPAIGN, harmless, 7, 52);
	s.avoid_exits = true; /* no level change: those write snapshots of their own */
	struct journal_setup st = session_setup(&s, NULL);
	struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, 100);
	assert_true(session_play(&s, j, 150, err, sizeof err));
	long before = snap_action(snap);
	assert_true(before >= 100 && before < 150); /* the last one, some actions back */
	assert_true(journal_append_checksum(j, s.g, err, sizeof err)); /* as quitting does */
	assert_true(journal_snapshot_at_stop(j, s.g, err, sizeof err));
	assert_null(journal_snapshot_problem(j));
	assert_int_equal(snap_action(snap), 150);
	/* again at the same place: the file stays as it is */
	struct stat a, b;
	assert_int_equal(stat(snap, &a), 0);
	assert_true(journal_snapshot_at_stop(j, s.g, err, sizeof err));
	assert_int_equal(stat(snap, &b), 0);
	assert_true(a.st_ino == b.st_ino && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec);
	assert_true(journal_close(j, err, sizeof err));
	/* the resume starts there, in the live game's state */
	assert_int_equal(resume_check(&s, path, NULL), 150);
	session_close(&s);

	/* without snapshots (a --record file): none is written */
	unlink(snap);
	unlink(path);
	session_open(&s, campaign, N_CAMPAIGN, harmless, 7, 53);
	s.avoid_exits = true;
	st = session_setup(&s, NULL);
	j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	assert_true(session_play(&s, j, 40, err, sizeof err));
	assert_true(journal_append_checksum(j, s.g, err, sizeof err));
	assert_true(journal_snapshot_at_stop(j, s.g, err, sizeof err));
	assert_false(exists(snap));
	assert_true(journal_close(j, err, sizeof err));
	session_close(&s);
	remove_dir(dir);
}

/* A resume that replayed the whole journal (no snapshot, or a bad one)
 * keeps a snapshot at once, or with the next action when the journal ends
 * with actions; one that started from a recent snapshot writes none, and
 * counts the next from that snapshot, not from where the journal ended. */
static void test_snapshot_after_full_replay(void **state)
{
	(void)state;
	char dir[64], path[128], snap[160], err[1200];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	snprintf(snap, sizeof snap, "%s.snap", path);
	struct session s;
	session_open(&s, campaign, N_CAMPAIGN, harmless, 7, 48);
	s.avoid_exits = true; /* no level change: those write snapshots of their own */
	session_record(&s, path, 300); /* no snapshots; it ends with a checksum */
	assert_false(exists(snap));
	bool wrote;
	/* no snapshot: the whole journal replayed, one written at once */
	assert_int_equal(resume_play(&s, path, 100, 0, &wrote), 0);
	assert_true(wrote);
	assert_int_equal(snap_action(snap), 300);
	assert_int_equal(resume_check(&s, path, NULL), 300);
	/* a bad one: the same */
	write_all(snap, "hello\n", 6);
	assert_int_equal(resume_play(&s, path, 100, 0, &wrote), 0);
	assert_true(wrote);
	assert_int_equal(resume_check(&s, path, NULL), 300);
	/* from a snapshot 50 actions back: none written; the next is due 100
	 * after the snapshot (at the first checksum from 400 on), not 100
	 * after where the journal ended (350) */
	assert_int_equal(resume_play(&s, path, 100, 50, &wrote), 300);
	assert_false(wrote);
	assert_int_equal(snap_action(snap), 300);
	struct journal_data d;
	read_ok(path, &d);
	struct journal *j = journal_open_append(path, &d, NULL, err, sizeof err);
	assert_non_null(j);
	assert_true(journal_append_checksum(j, s.g, err, sizeof err)); /* as quitting does */
	assert_true(journal_close(j, err, sizeof err));
	journal_data_fini(&d);
	assert_int_equal(resume_play(&s, path, 100, 0, &wrote), 300);
	assert_false(wrote);
	assert_int_equal(snap_action(snap), 300);
	assert_int_equal(resume_play(&s, path, 100, 70, &wrote), 300);
	long at = snap_action(snap);
	assert_true(at >= 400 && at <= 416);
	session_close(&s);

	/* a journal that ends with actions (a kill): the snapshot comes with
	 * the next action, after its checksum */
	unlink(snap);
	unlink(path);
	session_open(&s, campaign, N_CAMPAIGN, harmless, 7, 49);
	s.avoid_exits = true;
	struct journal_setup st = session_setup(&s, NULL);
	j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	assert_true(session_play(&s, j, 205, err, sizeof err));
	assert_true(journal_close(j, err, sizeof err));
	read_ok(path, &d);
	assert_int_equal(d.n_actions, 205);
	assert_true(d.checks[d.n_checks - 1].action < 205);
	journal_data_fini(&d);
	assert_int_equal(resume_play(&s, path, 100, 0, &wrote), 0);
	assert_false(wrote);
	assert_int_equal(snap_action(snap), -1);
	assert_int_equal(resume_play(&s, path, 100, 1, &wrote), 0);
	assert_int_equal(snap_action(snap), 206);
	assert_int_equal(resume_check(&s, path, NULL), 206);
	session_close(&s);
	remove_dir(dir);
}

/* The campaign with harmless monsters reaches deep levels (hex among them). */
static void test_campaign_goes_deep(void **state)
{
	(void)state;
	struct session s;
	session_open(&s, campaign, N_CAMPAIGN, harmless, 7, 43);
	char err[100];
	assert_true(session_play(&s, NULL, 1500, err, sizeof err));
	assert_true(s.g->depth >= 2 || s.g->won);
	session_close(&s);
}

/* ---- resume ------------------------------------------------------------- */

/* Stop after k actions, read, replay, append the rest: the same game as never stopping. */
static void test_resume_is_never_stopping(void **state)
{
	(void)state;
	char dir[64], path[128], err[1200];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	static const char *const lv[] = { "levels/03-hex-arena.lvl", "levels/04-the-mire.lvl" };
	/* the uninterrupted game */
	struct session whole;
	session_open(&whole, lv, 2, harmless, 7, 77);
	assert_true(session_play(&whole, NULL, 400, err, sizeof err));

	/* the same game in three sittings */
	struct session s;
	session_open(&s, lv, 2, harmless, 7, 77);
	struct journal_setup st = session_setup(&s, NULL);
	struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	assert_true(session_play(&s, j, 150, err, sizeof err));
	assert_true(journal_close(j, err, sizeof err));
	for (int sitting = 0; sitting < 2; sitting++) {
		struct journal_data d;
		read_ok(path, &d);
		struct journal_game jg;
		struct journal_replay r;
		assert_true(journal_start(&d, &jg, err, sizeof err));
		assert_true(journal_replay(&d, jg.game, -1, &r, err, sizeof err));
		assert_true(game_hash(jg.game) == s.hash[s.n]);
		j = journal_open_append(path, &d, NULL, err, sizeof err);
		assert_non_null(j);
		assert_int_equal(journal_actions(j), s.n);
		/* go on with the rebuilt game, the way resume does */
		long more = sitting == 0 ? 100 : 150, from = s.n;
		struct game *live = s.g;
		s.g = jg.game;
		assert_true(session_play(&s, j, more, err, sizeof err));
		assert_true(journal_append_checksum(j, s.g, err, sizeof err));
		assert_true(journal_close(j, err, sizeof err));
		s.g = live;
		/* the first game, brought along with the same actions, agrees at every step */
		for (long k = from; k < s.n; k++) {
			game_act(s.g, &s.acts[k]);
			assert_true(game_hash(s.g) == s.hash[k + 1]);
		}
		journal_game_fini(&jg);
		journal_data_fini(&d);
	}
	assert_int_equal(s.n, whole.n);
	for (long k = 0; k <= s.n; k++)
		assert_true(s.hash[k] == whole.hash[k]);
	struct journal_data d;
	read_ok(path, &d);
	assert_int_equal(d.n_actions, s.n);
	check_replay(&whole, &d);
	journal_data_fini(&d);
	session_close(&s);
	session_close(&whole);
	remove_dir(dir);
}

/* A torn tail: resume keeps the file as it was beside it, and appends after the good part. */
static void test_resume_after_torn_write(void **state)
{
	(void)state;
	char dir[64], path[128], aside[160], err[1200];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	snprintf(aside, sizeof aside, "%s.damaged-1", path);
	static const char *const lv[] = { "levels/02-the-chase.lvl" };
	struct session s;
	session_open(&s, lv, 1, harmless, 7, 5);
	session_record(&s, path, 60);
	size_t len;
	char *full = read_all(path, &len);
	size_t cut = len - 7; /* inside the last record */
	write_all(path, full, cut);
	struct journal_data d;
	read_ok(path, &d);
	assert_int_equal(d.tail, JOURNAL_TAIL_TORN);
	assert_non_null(strstr(d.tail_msg, "ends inside a record"));
	long good = d.n_actions;
	struct journal *j = journal_open_append(path, &d, NULL, err, sizeof err);
	assert_non_null(j);
	/* the damaged file is kept whole beside it */
	size_t alen;
	char *kept = read_all(aside, &alen);
	assert_int_equal(alen, cut);
	assert_memory_equal(kept, full, cut);
	struct action a = { .kind = ACT_WAIT };
	assert_true(journal_append_action(j, &a, err, sizeof err));
	assert_true(journal_close(j, err, sizeof err));
	journal_data_fini(&d);
	read_ok(path, &d);
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	assert_int_equal(d.n_actions, good + 1);
	assert_int_equal(d.actions[good].kind, ACT_WAIT);
	journal_data_fini(&d);
	free(kept);
	free(full);
	session_close(&s);
	remove_dir(dir);
}

/* ---- the cap ------------------------------------------------------------ */

/*
 * A marathon game: the writer never makes a file its reader refuses.  With
 * a small cap (the knob tests use; play's cap is JOURNAL_MAX_BYTES, the
 * reader's) the journal says it is nearly full well before, then stops
 * with "the save is full" instead of growing past the cap; the file keeps
 * every action before, checked to its very end, and reads back, replays
 * and resumes.  Before, the writer had no cap at all: past the reader's,
 * the quit line still said "The game is saved" and the next start set
 * the save aside as damaged.
 */
static void test_journal_stops_at_its_cap(void **state)
{
	(void)state;
	char dir[64], path[128], err[1200] = "";
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	static const char *const lv[] = { "levels/02-the-chase.lvl" };
	struct session s;
	session_open(&s, lv, 1, harmless, 7, 11);
	s.avoid_exits = true;
	s.keys_only = true;
	struct journal_setup st = session_setup(&s, NULL);
	struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	/* the cap can only be lowered: the reader's is the law */
	journal_set_max_bytes(j, (size_t)-1);
	assert_true(journal_room(j) <= JOURNAL_MAX_BYTES);
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	size_t cap = (size_t)sb.st_size + 4000;
	journal_set_max_bytes(j, cap);
	assert_false(journal_nearly_full(j));
	long warned_at = -1, left_then = -1;
	bool ok = true;
	for (long k = 0; k < 5000 && ok && !s.g->over; k++) {
		ok = session_play(&s, j, 1, err, sizeof err);
		if (ok && warned_at < 0 && journal_nearly_full(j)) {
			warned_at = journal_actions(j);
			left_then = journal_actions_left(j);
		}
	}
	assert_false(ok); /* it stopped at the cap, not at the end of the game */
	assert_non_null(strstr(err, "the save is full"));
	assert_non_null(strstr(err, path));
	assert_string_equal(journal_failure_reason(j), "the save is full");
	long written = journal_actions(j);
	assert_int_equal(s.n, written + 1); /* the action that did not fit was played, not saved */
	/* the warning came first, with room for more actions than it promised */
	assert_true(warned_at > 0 && warned_at < written);
	assert_true(left_then > 0 && left_then <= written - warned_at);
	assert_int_equal(journal_room(j), 0);
	assert_false(journal_close(j, err, sizeof err));
	assert_int_equal(stat(path, &sb), 0);
	assert_true((size_t)sb.st_size <= cap);

	/* what was saved reads back whole, checked to its last action */
	struct journal_data d;
	read_ok(path, &d);
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	assert_int_equal(d.n_actions, written);
	assert_true(d.n_checks > 0);
	assert_int_equal(d.checks[d.n_checks - 1].action, written);
	check_replay(&s, &d);
	/* resumed under the same cap it is still full, and says so at once;
	 * under the real cap it goes on */
	j = journal_open_append(path, &d, NULL, err, sizeof err);
	assert_non_null(j);
	journal_set_max_bytes(j, cap);
	assert_true(journal_nearly_full(j));
	struct action a = { .kind = ACT_WAIT };
	assert_false(journal_append_action(j, &a, err, sizeof err));
	assert_non_null(strstr(err, "the save is full"));
	assert_false(journal_close(j, err, sizeof err));
	j = journal_open_append(path, &d, NULL, err, sizeof err);
	assert_non_null(j);
	assert_false(journal_nearly_full(j));
	assert_true(journal_append_action(j, &a, err, sizeof err));
	assert_true(journal_close(j, err, sizeof err));
	journal_data_fini(&d);
	read_ok(path, &d);
	assert_int_equal(d.n_actions, written + 1);
	journal_data_fini(&d);
	session_close(&s);
	remove_dir(dir);
}

/*
 * A state larger than a snapshot may be (on a 4096x4096 level, 386 MB
 * against the reader's 256 MiB) is not written: writing it froze the game
 * for seconds, for a file its reader then refused.  The snapshot fails
 * once with the reason, the journal is untouched, and no snapshot is tried
 * again on that level.  The small cap is the tests' knob.
 */
static void test_snapshot_over_its_cap_is_not_written(void **state)
{
	(void)state;
	char dir[64], path[128], snap[160], err[1200] = "";
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	snprintf(snap, sizeof snap, "%s.snap", path);
	static const char *const lv[] = { "levels/02-the-chase.lvl" };
	struct session s;
	session_open(&s, lv, 1, harmless, 7, 3);
	s.avoid_exits = true;
	struct journal_setup st = session_setup(&s, NULL);
	struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, 16);
	journal_set_snapshot_max(j, 1000);
	assert_true(session_play(&s, j, 20, err, sizeof err));
	const char *why = journal_snapshot_problem(j);
	assert_non_null(why);
	assert_non_null(strstr(why, "more than a snapshot holds (1000)"));
	assert_false(exists(snap));
	/* not tried again on this level, even with room now */
	journal_set_snapshot_max(j, 0);
	assert_true(session_play(&s, j, 40, err, sizeof err));
	assert_false(exists(snap));
	assert_true(journal_close(j, err, sizeof err));
	/* the journal is whole */
	struct journal_data d;
	read_ok(path, &d);
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	assert_int_equal(d.n_actions, s.n);
	check_replay(&s, &d);
	journal_data_fini(&d);

	/* under the real cap the same game keeps its snapshot */
	remove_dir(dir);
	session_close(&s);
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	snprintf(snap, sizeof snap, "%s.snap", path);
	session_open(&s, lv, 1, harmless, 7, 3);
	s.avoid_exits = true;
	st = session_setup(&s, NULL);
	j = journal_create(path, &st, s.g, err, sizeof err);
	assert_non_null(j);
	journal_snapshots(j, 16);
	assert_true(session_play(&s, j, 20, err, sizeof err));
	assert_null(journal_snapshot_problem(j));
	assert_true(exists(snap));
	assert_true(journal_close(j, err, sizeof err));
	session_close(&s);
	remove_dir(dir);
}

/* ---- damage ------------------------------------------------------------- */

/* Cut at every byte: a clear rejection, or the complete records before the cut and a replay that matches. */
static void test_cut_at_every_byte(void **state)
{
	(void)state;
	char dir[64], path[128];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	static const char *const lv[] = { "levels/02-the-chase.lvl" };
	struct session s;
	session_open(&s, lv, 1, NULL, 0, 11);
	session_record(&s, path, 150);
	size_t len;
	char *full = read_all(path, &len);
	struct journal_data whole;
	read_ok(path, &whole);
	long replayed_for = -1, rejected = 0;
	for (size_t cut = 0; cut <= len; cut++) {
		struct journal_data d;
		char err[1200] = "";
		if (!journal_parse("cut.jnl", full, cut, &d, err, sizeof err)) {
			/* only a cut inside the header may be rejected, and it says so */
			assert_true(cut < whole.header_end);
			assert_non_null(strstr(err, "cut.jnl: "));
			assert_true(strstr(err, "ends inside its header") || strstr(err, "not an astray journal") ||
				    strstr(err, "format version"));
			rejected++;
			continue;
		}
		assert_true(cut >= whole.header_end);
		/* every action record that ends by the cut, and no other */
		long want = 0;
		while (want < whole.n_actions && whole.action_offsets[want] + 1 <= cut &&
		       memchr(full + whole.action_offsets[want], '\n', cut - whole.action_offsets[want]))
			want++;
		assert_int_equal(d.n_actions, want);
		assert_memory_equal(d.actions, whole.actions, (size_t)want * sizeof *d.actions);
		assert_int_equal(d.tail, d.good_end == cut ? JOURNAL_TAIL_CLEAN : JOURNAL_TAIL_TORN);
		if (d.n_actions != replayed_for) {
			check_replay(&s, &d);
			replayed_for = d.n_actions;
		}
		journal_data_fini(&d);
	}
	assert_int_equal(rejected, (long)whole.header_end);
	journal_data_fini(&whole);
	free(full);
	session_close(&s);
	remove_dir(dir);
}

/* A flipped bit is found: in the header the file is refused, after it the
 * records stop before the damaged one. */
static void test_bit_flips(void **state)
{
	(void)state;
	char dir[64], path[128];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	static const char *const lv[] = { "levels/01-first-steps.lvl" };
	struct session s;
	session_open(&s, lv, 1, NULL, 0, 3);
	session_record(&s, path, 80);
	size_t len;
	char *full = read_all(path, &len);
	struct journal_data whole;
	read_ok(path, &whole);
	char *copy = malloc(len);
	assert_non_null(copy);
	for (size_t at = 0; at < len; at++) {
		memcpy(copy, full, len);
		copy[at] ^= (char)(1 << (at % 8));
		struct journal_data d;
		char err[1200] = "";
		bool ok = journal_parse("flip.jnl", copy, len, &d, err, sizeof err);
		if (at < whole.header_end) {
			assert_false(ok);
			assert_non_null(strstr(err, "flip.jnl: "));
			continue;
		}
		assert_true(ok);
		assert_int_not_equal(d.tail, JOURNAL_TAIL_CLEAN);
		assert_true(d.good_end <= at);
		/* the actions read are exactly those before the damaged record */
		assert_memory_equal(d.actions, whole.actions, (size_t)d.n_actions * sizeof *d.actions);
		if (d.tail == JOURNAL_TAIL_DAMAGED)
			assert_non_null(strstr(d.tail_msg, "damaged record after action"));
		journal_data_fini(&d);
	}
	free(copy);
	journal_data_fini(&whole);
	free(full);
	session_close(&s);
	remove_dir(dir);
}

/* Rewrites the record line at off with body `body` and a correct CRC (a different program's journal). */
static void rewrite_record(char *buf, size_t off, const char *body)
{
	char *nl = strchr(buf + off, '\n');
	assert_non_null(nl);
	size_t n = strlen(body);
	assert_int_equal((size_t)(nl - (buf + off)), n + 9);
	memcpy(buf + off, body, n);
	char crc[10];
	snprintf(crc, sizeof crc, "%08" PRIx32, journal_crc(0, body, n));
	memcpy(buf + off + n + 1, crc, 8);
}

/* A game of levels/02-the-chase.lvl (seed 21) recorded for n actions in
 * a new folder dir, as path; its bytes and what the reader makes of them. */
static char *chase_journal(struct session *s, char dir[64], char path[128], long n, size_t *len,
			   struct journal_data *d)
{
	make_temp_dir(dir, 64);
	snprintf(path, 128, "%s/game.jnl", dir);
	static const char *const lv[] = { "levels/02-the-chase.lvl" };
	session_open(s, lv, 1, NULL, 0, 21);
	session_record(s, path, n);
	char *buf = read_all(path, len);
	read_ok(path, d);
	return buf;
}

/* The first move the session made from action `from` on (one that took
 * time, when `acted`). */
static long first_move(const struct session *s, const struct journal_data *d, long from, bool acted)
{
	for (long k = from; k < d->n_actions; k++)
		if (s->acts[k].kind == ACT_MOVE && (!acted || s->res[k] == RESULT_ACTED))
			return k;
	fail_msg("no move after action %ld", from);
	return -1;
}

/* A changed action (with a valid CRC) is a drift, named at the next checksum. */
static void test_changed_action_drifts(void **state)
{
	(void)state;
	char dir[64], path[128], err[1200];
	struct session s;
	size_t len;
	struct journal_data d;
	char *buf = chase_journal(&s, dir, path, 120, &len, &d);
	/* a move that took time becomes a wait */
	long i = first_move(&s, &d, 10, true);
	char body[64];
	const char *line = buf + d.action_offsets[i];
	size_t n = (size_t)(strchr(line, '\n') - line) - 9;
	snprintf(body, sizeof body, "%.*s", (int)n, line);
	assert_int_equal(body[2], 'm');
	body[2] = 'w';
	rewrite_record(buf, d.action_offsets[i], body);
	journal_data_fini(&d);

	assert_true(journal_parse("drift.jnl", buf, len, &d, err, sizeof err));
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	/* the header's CRC and the game's (joined from the records' by the
	 * reader) are those of the header's bytes, the second without its
	 * first line */
	assert_int_equal(d.header_crc, journal_crc(0, buf, d.header_end));
	{
		const size_t l1 = (size_t)(strchr(buf, '\n') - buf) + 1;
		assert_int_equal(d.game_crc, journal_crc(0, buf + l1, d.header_end - l1));
	}
	assert_int_equal(d.actions[i].kind, ACT_WAIT);
	struct journal_game jg;
	struct journal_replay r;
	assert_true(journal_start(&d, &jg, err, sizeof err));
	assert_false(journal_replay(&d, jg.game, -1, &r, err, sizeof err));
	assert_true(r.drift >= 0);
	long at = d.checks[r.drift].action;
	assert_true(at >= i + 1 && at - (i + 1) < JOURNAL_CHECK_EVERY);
	assert_true(r.good_action <= i);
	char want[80];
	snprintf(want, sizeof want, "replay drifts at action %ld (game turn", at);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof want, "first differs in actions %ld to %ld", r.good_action + 1, at);
	assert_non_null(strstr(err, want));
	journal_game_fini(&jg);
	journal_data_fini(&d);

	/* a different seed: the start already differs */
	char *seed = strstr(buf, "seed 21 ");
	assert_non_null(seed);
	rewrite_record(buf, (size_t)(seed - buf), "seed 22");
	assert_true(journal_parse("seed.jnl", buf, len, &d, err, sizeof err));
	assert_true(journal_start(&d, &jg, err, sizeof err));
	assert_false(journal_replay(&d, jg.game, -1, &r, err, sizeof err));
	assert_int_equal(r.drift, 0);
	assert_non_null(strstr(err, "differs from its start"));
	journal_game_fini(&jg);
	journal_data_fini(&d);
	free(buf);
	session_close(&s);
	remove_dir(dir);
}

/* A throw at a cell (`a T S X Y`) keeps its pack slot S where other
 * actions keep a direction: read back as item, and a slot past the pack's
 * letters is a damaged record, named. */
static void test_throw_at_record(void **state)
{
	(void)state;
	char dir[64], path[128], err[1200];
	struct session s;
	size_t len;
	struct journal_data d;
	char *buf = chase_journal(&s, dir, path, 40, &len, &d);
	long i = first_move(&s, &d, 0, false);
	const size_t off = d.action_offsets[i];
	assert_int_equal(strchr(buf + off, '\n') - (buf + off), 9 + 9); /* "a m D 0 0" */
	journal_data_fini(&d);
	rewrite_record(buf, off, "a T 9 4 4");
	assert_true(journal_parse("throw.jnl", buf, len, &d, err, sizeof err));
	assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
	assert_int_equal(d.actions[i].kind, ACT_THROW_AT);
	assert_int_equal(d.actions[i].item, 9);
	assert_int_equal(d.actions[i].x, 4);
	assert_int_equal(d.actions[i].y, 4);
	journal_data_fini(&d);
	/* "a T 16 4 4" in a copy with the record one byte longer */
	char *big = malloc(len + 2);
	assert_non_null(big);
	const char *rest = strchr(buf + off, '\n');
	const char body[] = "a T 16 4 4";
	int n = sprintf(big, "%.*s%s %08" PRIx32, (int)off, buf, body, journal_crc(0, body, strlen(body)));
	memcpy(big + n, rest, len - (size_t)(rest - buf));
	assert_true(journal_parse("throw.jnl", big, (size_t)n + len - (size_t)(rest - buf), &d, err, sizeof err));
	free(big);
	assert_int_equal(d.tail, JOURNAL_TAIL_DAMAGED);
	assert_int_equal(d.n_actions, i);
	assert_non_null(strstr(d.tail_msg, "a pack slot outside -1 to 15"));
	journal_data_fini(&d);
	free(buf);
	session_close(&s);
	remove_dir(dir);
}

static void expect_rejected(const char *text, size_t len, const char *words)
{
	struct journal_data d;
	char err[1200] = "";
	assert_false(journal_parse("x.jnl", text, len, &d, err, sizeof err));
	if (!strstr(err, words))
		fprintf(stderr, "message: %s\nexpected: %s\n", err, words);
	assert_non_null(strstr(err, words));
	assert_null(d.buf);
	assert_int_equal(d.n_actions, 0);
}

/*
 * Programs before the stop record (`a x`) stopped travel outside the
 * journal when a key was pressed during it, and a checksum written then
 * (at a quit) is of the state with travel stopped: such a journal replays
 * (and a save of it resumes), the stop made where the checksum says; a
 * checksum that differs in anything more still drifts.
 */
static void test_unrecorded_stop_replays(void **state)
{
	(void)state;
	static const char *const lv[] = { "tests/levels/e2e/square.lvl" };
	for (int k = 0; k < 2; k++) {
		char dir[64], path[128], err[1200] = "";
		make_temp_dir(dir, sizeof dir);
		snprintf(path, sizeof path, "%s/game.jnl", dir);
		struct session s;
		session_open(&s, lv, 1, NULL, 0, 7);
		struct journal_setup st = session_setup(&s, NULL);
		struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
		assert_non_null(j);
		const struct action acts[] = { { .kind = ACT_TRAVEL, .x = 17, .y = 5 }, { .kind = ACT_TRAVEL_STEP },
					       { .kind = ACT_TRAVEL_STEP } };
		for (size_t a = 0; a < sizeof acts / sizeof acts[0]; a++) {
			const enum act_result res = game_act(s.g, &acts[a]);
			assert_int_equal(res, RESULT_ACTED);
			assert_true(journal_record(j, &acts[a], res, s.g, err, sizeof err));
		}
		assert_true(s.g->travel.active);
		game_travel_cancel(s.g); /* the old UI's stop: no record */
		if (k == 1)
			s.g->player.gold++; /* and something else */
		assert_true(journal_append_checksum(j, s.g, err, sizeof err));
		assert_true(journal_close(j, err, sizeof err));
		struct journal_data d;
		read_ok(path, &d);
		struct journal_game jg;
		struct journal_replay r;
		assert_true(journal_start(&d, &jg, err, sizeof err));
		const bool ok = journal_replay(&d, jg.game, -1, &r, err, sizeof err);
		if (k == 0) {
			if (!ok)
				fprintf(stderr, "%s\n", err);
			assert_true(ok);
			assert_int_equal(r.drift, -1);
			assert_false(jg.game->travel.active);
			assert_true(game_hash(jg.game) == game_hash(s.g));
		} else {
			assert_false(ok);
			assert_non_null(strstr(err, "replay drifts at action 3"));
			assert_true(jg.game->travel.active); /* left as it was */
		}
		journal_game_fini(&jg);
		journal_data_fini(&d);
		session_close(&s);
		unlink(path);
		rmdir(dir);
	}
}

static void test_foreign_and_newer_files(void **state)
{
	(void)state;
	expect_rejected("", 0, "not an astray journal");
	expect_rejected("astray-level 1\nname: x\n", 22, "not an astray journal");
	expect_rejected("astray-journal 3 00000000\n", 26, "journal format 3 is newer than this program reads (format 2)");
	expect_rejected("astray-journal 99999 00000000\n", 30, "newer");
	expect_rejected("astray-journal 0 00000000\n", 26, "format 0 does not exist");
	expect_rejected("astray-journal x\n", 17, "malformed format version");
	expect_rejected("astray-journal 1", 16, "ends inside its header");
	expect_rejected("astray-journal 1 00000000\n", 26, "CRC mismatch");
	/* a valid header without levels */
	char text[400];
	size_t n = 0;
	static const char *const body[] = { "astray-journal 1", "program x", "seed 1", "check-every 4", "play" };
	for (size_t i = 0; i < 5; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s %08" PRIx32 "\n", body[i],
				      journal_crc(0, body[i], strlen(body[i])));
	expect_rejected(text, n, "the header has no bestiary record");
	/* an unknown header record */
	n = 0;
	static const char *const odd[] = { "astray-journal 1", "colour blue" };
	for (size_t i = 0; i < 2; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s %08" PRIx32 "\n", odd[i],
				      journal_crc(0, odd[i], strlen(odd[i])));
	expect_rejected(text, n, "unknown header record 'colour'");
}

/* The `scored` record: written when the setup says, read back, absent
 * (UNKNOWN) when the setup leaves it out as sim and old saves do; a
 * second one or another value is a damaged header. */
static void test_scored_record(void **state)
{
	(void)state;
	char dir[64], path[128], err[1200];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	static const char *const lv[] = { "tests/levels/e2e/square.lvl" };
	struct session s;
	session_open(&s, lv, 1, harmless, 2, 9);
	const enum journal_scored all[] = { JOURNAL_SCORED_UNKNOWN, JOURNAL_SCORED_NO, JOURNAL_SCORED_YES };
	for (int i = 0; i < 3; i++) {
		struct journal_setup st = session_setup(&s, NULL);
		st.scored = all[i];
		struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
		assert_non_null(j);
		assert_true(journal_close(j, err, sizeof err));
		size_t len;
		char *text = read_all(path, &len);
		assert_true((strstr(text, "\nscored ") != NULL) == (all[i] != JOURNAL_SCORED_UNKNOWN));
		free(text);
		struct journal_data d;
		read_ok(path, &d);
		assert_int_equal(d.scored, all[i]);
		check_replay(&s, &d); /* the record changes nothing of the game */
		journal_data_fini(&d);
		unlink(path);
	}
	session_close(&s);
	remove_dir(dir);

	char text[600];
	static const char *const twice[] = { "astray-journal 1", "program x", "seed 1", "scored 1", "scored 1" };
	static const char *const other[] = { "astray-journal 1", "program x", "seed 1", "scored 2" };
	size_t n = 0;
	for (size_t i = 0; i < 5; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s %08" PRIx32 "\n", twice[i],
				      journal_crc(0, twice[i], strlen(twice[i])));
	expect_rejected(text, n, "a second scored record");
	n = 0;
	for (size_t i = 0; i < 4; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s %08" PRIx32 "\n", other[i],
				      journal_crc(0, other[i], strlen(other[i])));
	expect_rejected(text, n, "scored must be 0 or 1");
}

/* ---- failing writes ------------------------------------------------------ */

struct fault {
	long writes, fail_write;  /* fail the fail_write-th write(2) and every later one (a full disk) */
	bool short_first;         /* that failing call first writes half its bytes */
	long syncs, fail_sync;    /* fail the fail_sync-th fsync */
};

static ssize_t fault_write(void *ud, int fd, const void *buf, size_t n)
{
	struct fault *f = ud;
	f->writes++;
	if (f->fail_write && f->writes == f->fail_write && f->short_first && n > 1)
		return write(fd, buf, n / 2);
	if (f->fail_write && f->writes >= f->fail_write) {
		errno = ENOSPC;
		return -1;
	}
	return write(fd, buf, n);
}

static int fault_fsync(void *ud, int fd)
{
	struct fault *f = ud;
	f->syncs++;
	if (f->fail_sync && f->syncs == f->fail_sync) {
		errno = EIO;
		return -1;
	}
	return fsync(fd);
}

/* One game of 60 actions with the given fault; checks what is left on disk. */
static void run_with_fault(struct fault *f, struct fault *counted)
{
	char dir[64], path[128], err[1200] = "";
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	static const char *const lv[] = { "tests/levels/e2e/chase20.lvl" };
	struct session s;
	session_open(&s, lv, 1, harmless, 2, 8);
	struct savefile_io io = { fault_write, fault_fsync, f };
	struct journal_setup st = session_setup(&s, &io);
	struct journal *j = journal_create(path, &st, s.g, err, sizeof err);
	if (!j) {
		assert_true(err[0] != '\0');
		/* no partial journal and no temporary file left behind; a file
		 * that is there (the folder's fsync failed after the link) is whole */
		if (exists(path)) {
			struct journal_data d;
			read_ok(path, &d);
			assert_int_equal(d.n_actions, 0);
			journal_data_fini(&d);
			assert_int_equal(count_files(dir), 1);
		} else {
			assert_int_equal(count_files(dir), 0);
		}
	} else {
		bool ok = session_play(&s, j, 60, err, sizeof err);
		if (ok)
			ok = journal_append_checksum(j, s.g, err, sizeof err);
		long written = journal_actions(j), durable = journal_durable_actions(j);
		if (ok) {
			assert_null(journal_failure_reason(j));
		} else {
			/* the failure is reported, and sticks; its short reason is
			 * the system's word for the fault the test made (a full
			 * disk for a write, EIO for an fsync) */
			assert_non_null(strstr(err, path));
			const char *why = journal_failure_reason(j);
			assert_non_null(why);
			assert_string_equal(why, strerror(strstr(err, "fsync failed") ? EIO : ENOSPC));
			struct action a = { .kind = ACT_WAIT };
			char again[1200] = "";
			assert_false(journal_append_action(j, &a, again, sizeof again));
			assert_string_equal(again, err);
			assert_false(journal_sync(j, again, sizeof again));
		}
		/* a failed journal fails to close too; a good one may still fail its last fsync */
		bool closed = journal_close(j, err, sizeof err);
		assert_true(ok || !closed);
		if (ok && !closed)
			assert_non_null(strstr(err, "fsync failed"));
		/* what is on disk reads back whole, with at least the durable actions */
		struct journal_data d;
		read_ok(path, &d);
		assert_int_equal(d.tail, JOURNAL_TAIL_CLEAN);
		assert_true(d.n_actions >= durable);
		assert_int_equal(d.n_actions, written);
		check_replay(&s, &d);
		journal_data_fini(&d);
		assert_int_equal(count_files(dir), 1);
	}
	if (counted)
		*counted = *f;
	session_close(&s);
	remove_dir(dir);
}

static void test_every_write_failing(void **state)
{
	(void)state;
	struct fault clean = { 0 }, counted;
	run_with_fault(&clean, &counted);
	assert_true(counted.writes > 60);
	for (long k = 1; k <= counted.writes; k++)
		for (int half = 0; half < 2; half++) {
			struct fault f = { .fail_write = k, .short_first = half };
			run_with_fault(&f, NULL);
		}
	for (long k = 1; k <= counted.syncs; k++) {
		struct fault f = { .fail_sync = k };
		run_with_fault(&f, NULL);
	}
}

/* ---- savefile ------------------------------------------------------------ */

static void test_data_dir(void **state)
{
	(void)state;
	char buf[256];
	assert_string_equal(savefile_data_dir(buf, sizeof buf, "/x/data", "/home/a"), "/x/data/astray");
	assert_string_equal(savefile_data_dir(buf, sizeof buf, NULL, "/home/a"), "/home/a/.local/share/astray");
	/* a relative XDG_DATA_HOME is ignored, as the XDG rules say */
	assert_string_equal(savefile_data_dir(buf, sizeof buf, "rel", "/home/a"), "/home/a/.local/share/astray");
	assert_string_equal(savefile_data_dir(buf, sizeof buf, "", "/home/a"), "/home/a/.local/share/astray");
	assert_null(savefile_data_dir(buf, sizeof buf, NULL, NULL));
	assert_null(savefile_data_dir(buf, 8, "/x/data", NULL));
	char dir[64], deep[160], err[400];
	make_temp_dir(dir, sizeof dir);
	snprintf(deep, sizeof deep, "%s/a/b/astray", dir);
	assert_true(savefile_make_dir(deep, err, sizeof err));
	assert_true(savefile_make_dir(deep, err, sizeof err));
	struct stat st;
	assert_int_equal(stat(deep, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	rmdir(deep);
	snprintf(deep, sizeof deep, "%s/a/b", dir);
	rmdir(deep);
	snprintf(deep, sizeof deep, "%s/a", dir);
	rmdir(deep);
	remove_dir(dir);
}

/* A data folder other users can write, or of another owner, is refused
 * with a message naming it, its mode and what to do; a private one is
 * taken. */
static void test_data_dir_private(void **state)
{
	(void)state;
	char dir[64], err[600];
	make_temp_dir(dir, sizeof dir);
	assert_int_equal(chmod(dir, 0700), 0);
	assert_true(savefile_private_dir(dir, err, sizeof err));
	assert_int_equal(chmod(dir, 0755), 0);
	assert_true(savefile_private_dir(dir, err, sizeof err));
	static const mode_t open_modes[] = { 0777, 0770, 0702, 01777 };
	for (size_t i = 0; i < sizeof open_modes / sizeof open_modes[0]; i++) {
		assert_int_equal(chmod(dir, open_modes[i]), 0);
		err[0] = '\0';
		assert_false(savefile_private_dir(dir, err, sizeof err));
		if (!strstr(err, dir) || !strstr(err, "other users can write") || !strstr(err, "--no-save"))
			fail_msg("mode %04o: message \"%s\"", (unsigned)open_modes[i], err);
	}
	assert_int_equal(chmod(dir, 0700), 0);
	char file[128];
	snprintf(file, sizeof file, "%s/f", dir);
	write_all(file, "x", 1);
	assert_false(savefile_private_dir(file, err, sizeof err));
	assert_non_null(strstr(err, "not a folder"));
	unlink(file);
	remove_dir(dir);
}

/* A level saved through a link (savefile_write_atomic_mode) replaces the
 * file the link names and keeps the link; savefile_write_atomic replaces
 * the link itself (a save slot never writes where a planted link points). */
static void test_atomic_write_through_link(void **state)
{
	(void)state;
	char dir[64], real[128], link_path[128], err[600];
	make_temp_dir(dir, sizeof dir);
	snprintf(real, sizeof real, "%s/real.lvl", dir);
	snprintf(link_path, sizeof link_path, "%s/link.lvl", dir);
	write_all(real, "old", 3);
	assert_int_equal(symlink("real.lvl", link_path), 0);
	assert_true(savefile_write_atomic_mode(NULL, link_path, "new", 3, true, 0644, err, sizeof err));
	struct stat st;
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	size_t len;
	char *t = read_all(real, &len);
	assert_string_equal(t, "new");
	free(t);
	/* a dangling link: said, nothing written */
	unlink(real);
	assert_false(savefile_write_atomic_mode(NULL, link_path, "x", 1, true, 0644, err, sizeof err));
	assert_non_null(strstr(err, "cannot be reached"));
	assert_int_equal(lstat(real, &st), -1);
	/* the private writer replaces the link, never its target */
	write_all(real, "kept", 4);
	assert_true(savefile_write_atomic(NULL, link_path, "slot", 4, true, err, sizeof err));
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	t = read_all(real, &len);
	assert_string_equal(t, "kept");
	free(t);
	unlink(real);
	unlink(link_path);
	remove_dir(dir);
}

static void test_atomic_write_and_set_aside(void **state)
{
	(void)state;
	char dir[64], path[128], aside[200], err[600];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/f.txt", dir);
	assert_true(savefile_write_atomic(NULL, path, "one", 3, false, err, sizeof err));
	/* create never replaces */
	assert_false(savefile_write_atomic(NULL, path, "two", 3, false, err, sizeof err));
	assert_non_null(strstr(err, "already exists"));
	size_t len;
	char *t = read_all(path, &len);
	assert_string_equal(t, "one");
	free(t);
	assert_true(savefile_write_atomic(NULL, path, "three", 5, true, err, sizeof err));
	t = read_all(path, &len);
	assert_string_equal(t, "three");
	free(t);
	/* a failing write leaves the old content and no temporary file */
	struct fault f = { .fail_write = 1 };
	struct savefile_io io = { fault_write, fault_fsync, &f };
	assert_false(savefile_write_atomic(&io, path, "four", 4, true, err, sizeof err));
	assert_non_null(strstr(err, "No space left"));
	t = read_all(path, &len);
	assert_string_equal(t, "three");
	free(t);
	assert_int_equal(count_files(dir), 1);
	/* set aside: kept (copy) then moved, never over an older copy */
	assert_true(savefile_set_aside(NULL, path, false, aside, sizeof aside, err, sizeof err));
	assert_non_null(strstr(aside, "f.txt.damaged-1"));
	assert_true(exists(path));
	assert_true(savefile_set_aside(NULL, path, true, aside, sizeof aside, err, sizeof err));
	assert_non_null(strstr(aside, "f.txt.damaged-2"));
	assert_false(exists(path));
	t = read_all(aside, &len);
	assert_string_equal(t, "three");
	free(t);
	assert_int_equal(count_files(dir), 2);
	remove_dir(dir);
}

/* A journal is never created over an existing file. */
static void test_create_never_replaces(void **state)
{
	(void)state;
	char dir[64], path[128], err[1200];
	make_temp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/game.jnl", dir);
	write_all(path, "precious", 8);
	static const char *const lv[] = { "tests/levels/e2e/square.lvl" };
	struct session s;
	session_open(&s, lv, 1, NULL, 0, 1);
	struct journal_setup st = session_setup(&s, NULL);
	assert_null(journal_create(path, &st, s.g, err, sizeof err));
	size_t len;
	char *t = read_all(path, &len);
	assert_string_equal(t, "precious");
	free(t);
	assert_int_equal(count_files(dir), 1);
	session_close(&s);
	remove_dir(dir);
}

/* ---- the corpus and the goldens ----------------------------------------- */

/* Reads, starts and replays every file of a folder: no crash, no leak, a message on any refusal. */
static int read_folder(const char *dir, bool must_verify)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char path[600], err[1200] = "";
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct journal_data d;
		n++;
		if (!journal_read_file(path, &d, err, sizeof err)) {
			assert_false(must_verify);
			assert_non_null(strstr(err, path));
			continue;
		}
		struct journal_game jg;
		bool ok = journal_start(&d, &jg, err, sizeof err);
		if (ok) {
			struct journal_replay r;
			ok = journal_replay(&d, jg.game, -1, &r, err, sizeof err);
			if (must_verify && !ok)
				fprintf(stderr, "%s\n", err);
			journal_game_fini(&jg);
		}
		if (must_verify)
			assert_true(ok && d.tail == JOURNAL_TAIL_CLEAN);
		journal_data_fini(&d);
	}
	closedir(dp);
	return n;
}

static void test_fuzz_corpus(void **state)
{
	(void)state;
	int n = read_folder("tests/fuzz-corpus-journal", false);
	assert_true(n >= 5);
}

static void test_golden_journals_verify(void **state)
{
	(void)state;
	int n = read_folder("tests/golden/journal", true);
	assert_true(n >= 3);
}

/* journal_peek, what the title shows of a save: the rules and the last
 * checksum's turn of each golden journal, as the whole reader finds
 * them; rules 1 for a journal from before the record; false for a file
 * that is not a journal or is missing. */
static void test_peek(void **state)
{
	(void)state;
	static const char *const files[] = { "tests/golden/journal/campaign.jnl", "tests/golden/journal/hex-options.jnl",
					     "tests/golden/journal/movingai-square4.jnl",
					     "tests/golden/rules1/hex-options.jnl" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct journal_data d;
		char err[1200];
		assert_true(journal_read_file(files[i], &d, err, sizeof err));
		assert_true(d.n_checks > 0);
		int rules;
		long turn;
		assert_true(journal_peek(files[i], &rules, &turn));
		assert_int_equal(rules, d.rules);
		assert_int_equal(turn, d.checks[d.n_checks - 1].turn);
		journal_data_fini(&d);
	}
	int rules;
	long turn;
	assert_true(journal_peek("tests/golden/rules1/hex-options.jnl", &rules, &turn));
	assert_int_equal(rules, 1);
	assert_true(journal_peek("tests/golden/journal/campaign.jnl", &rules, &turn));
	assert_int_equal(rules, GAME_RULES);
	assert_false(journal_peek("levels/bestiary.txt", &rules, &turn));
	assert_false(journal_peek("tests/golden/journal/no-such.jnl", &rules, &turn));

	/* The last 4 KiB start inside an action that closes a door (`a c 5 99
	 * ...`): its tail is no checksum.  Then one whole checksum at the end. */
	static const char head[] = "astray-journal 1 00000000\nrules 7 00000000\nplay 00000000\n";
	static const char action[] = "a w 0 0 0 00000000\n";
	char text[3 * 4096];
	size_t n = sizeof head - 1;
	memcpy(text, head, n);
	const size_t close_at = sizeof text - 64 - 4096; /* where the window will start */
	while (n + sizeof action - 1 <= close_at - 2) {
		memcpy(text + n, action, sizeof action - 1);
		n += sizeof action - 1;
	}
	memset(text + n, 'x', close_at - 2 - n); /* pad: the window starts at c */
	n = close_at - 2;
	memcpy(text + n, "a c 5 99 0 00000000\n", 20);
	n += 20;
	while (n + sizeof action - 1 <= sizeof text - 64) {
		memcpy(text + n, action, sizeof action - 1);
		n += sizeof action - 1;
	}
	assert_true(n < close_at + 4096);
	memset(text + n, ' ', close_at + 4096 - 1 - n); /* exactly 4 KiB from the c to the end */
	n = close_at + 4096;
	text[n - 1] = '\n';
	assert_true(journal_peek_text(text, n, &rules, &turn));
	assert_int_equal(rules, 7);
	assert_int_equal(turn, -1);
	memcpy(text + n, "c 80 42 0123456789abcdef 00000000\n", 34);
	n += 34;
	assert_true(journal_peek_text(text, n, &rules, &turn));
	assert_int_equal(turn, 42);
}

/* Writes one golden journal to dir/name. */
static void write_golden(const char *dir, const char *name, const char *const *files, int n, const char *const *sets,
			 int n_sets, uint64_t seed, long actions, bool options)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
	struct session s;
	session_open(&s, files, n, sets, n_sets, seed);
	if (options)
		session_options(&s, AI_SHARE_NEVER, true);
	session_record(&s, path, actions);
	session_close(&s);
	printf("wrote %s\n", path);
}

static void test_write_goldens_on_request(void **state)
{
	(void)state;
	const char *dir = getenv("ASTRAY_JOURNAL_GOLDEN");
	if (dir && *dir) {
		write_golden(dir, "campaign.jnl", campaign, N_CAMPAIGN, harmless, 7, 7, 900, false);
		static const char *const hex[] = { "levels/03-hex-arena.lvl" };
		static const char *const sets[] = { "goblin.speed=150", "bat.damage=1" };
		write_golden(dir, "hex-options.jnl", hex, 1, sets, 2, 11, 300, true);
		static const char *const map[] = { "tests/levels/check/pocket.map", "tests/levels/e2e/death.lvl" };
		write_golden(dir, "movingai-square4.jnl", map, 2, NULL, 0, 5, 200, false);
	}
	const char *lng = getenv("ASTRAY_JOURNAL_LONG");
	if (lng && *lng) {
		unlink(lng);
		static const char *const deep[] = { "levels/07-the-deep.lvl" };
		struct session s;
		session_open(&s, deep, 1, harmless, 7, 2024);
		s.avoid_exits = true;
		const char *kind = getenv("ASTRAY_JOURNAL_LONG_KIND");
		s.keys_only = kind && strcmp(kind, "keys") == 0;
		s.explore = kind && strcmp(kind, "explore") == 0;
		s.snap_every = SNAPSHOT_EVERY; /* as play keeps its save slot: lng.snap beside it */
		session_record(&s, lng, 10000);
		printf("wrote %s: %ld actions, game turn %d\n", lng, s.n, s.g->turn);
		assert_int_equal(s.n, 10000);
		session_close(&s);
	}
}

/* A format version of many digits is a newer format, read without an
 * integer overflow (the fuzzer found 4444444444444444444 * 10). */
static void test_huge_version(void **state)
{
	(void)state;
	static const char text[] = "astray-journal 44444444444444444444444 00000000\n";
	struct journal_data d;
	char err[1200] = "";
	assert_false(journal_parse("big.jnl", text, sizeof text - 1, &d, err, sizeof err));
	assert_non_null(strstr(err, "newer than this program reads"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_goldens_on_request),
		cmocka_unit_test(test_roundtrip_e2e_levels),
		cmocka_unit_test(test_roundtrip_campaign),
		cmocka_unit_test(test_campaign_goes_deep),
		cmocka_unit_test(test_state_roundtrip),
		cmocka_unit_test(test_state_damage),
		cmocka_unit_test(test_snapshot_resume),
		cmocka_unit_test(test_snapshot_after_full_replay),
		cmocka_unit_test(test_snapshot_at_stop),
		cmocka_unit_test(test_scored_record),
		cmocka_unit_test(test_resume_is_never_stopping),
		cmocka_unit_test(test_resume_after_torn_write),
		cmocka_unit_test(test_journal_stops_at_its_cap),
		cmocka_unit_test(test_snapshot_over_its_cap_is_not_written),
		cmocka_unit_test(test_cut_at_every_byte),
		cmocka_unit_test(test_bit_flips),
		cmocka_unit_test(test_changed_action_drifts),
		cmocka_unit_test(test_throw_at_record),
		cmocka_unit_test(test_foreign_and_newer_files),
		cmocka_unit_test(test_every_write_failing),
		cmocka_unit_test(test_data_dir),
		cmocka_unit_test(test_data_dir_private),
		cmocka_unit_test(test_atomic_write_through_link),
		cmocka_unit_test(test_atomic_write_and_set_aside),
		cmocka_unit_test(test_create_never_replaces),
		cmocka_unit_test(test_unrecorded_stop_replays),
		cmocka_unit_test(test_fuzz_corpus),
		cmocka_unit_test(test_golden_journals_verify),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_huge_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
