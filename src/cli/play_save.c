/*
 * play_save.c - what `astray play` keeps on disk: the journal of the game
 * being played (DATA/save.jnl, or a --record file), the resume of a saved
 * game, and the end of a game (the score, the death record and the
 * finished journal filed in DATA/games).  The journal's format, its
 * durability and the score list's locking live in the world layer
 * (journal.c, savefile.c, scores.c); this file only decides which files
 * and when, and words the messages.  Nothing here deletes or overwrites a
 * file it did not write: a save that cannot be used is moved aside.
 */
#include "play_save.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ask.h"
#include "cli.h"
#include "cmd.h"
#include "scores.h"
#include "snapshot.h"

bool play_data_dir(const char *dir, char *buf, size_t size, char *err, size_t errlen)
{
	if (dir) {
		if ((size_t)snprintf(buf, size, "%s", dir) >= size) {
			snprintf(err, errlen, "%.200s...: the data folder's name is too long", dir);
			return false;
		}
	} else if (!savefile_data_dir(buf, size, getenv("XDG_DATA_HOME"), getenv("HOME"))) {
		snprintf(err, errlen, "no data folder: neither XDG_DATA_HOME nor HOME is set "
				      "(use --data DIR, or --no-save)");
		return false;
	}
	if (!savefile_make_dir(buf, err, errlen)) {
		/* a folder that cannot be made (read-only, or a file in the
		 * way): the ways round it */
		size_t at = strlen(err);
		if (at < errlen)
			snprintf(err + at, errlen - at, " (use --data DIR, or --no-save)");
		return false;
	}
	return savefile_private_dir(buf, err, errlen);
}

void play_save_slot(const char *data, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s", data, PLAY_SAVE_FILE);
	if (n < 0 || (size_t)n >= size)
		buf[0] = '\0'; /* data comes from play_data_dir, which keeps it short */
}

bool play_save_exists(const char *data)
{
	char slot[PLAY_PATH];
	play_save_slot(data, slot, sizeof slot);
	struct stat st;
	return lstat(slot, &st) == 0;
}

void play_save_detail(const char *data, char *buf, size_t size, int *other_rules)
{
	char slot[PLAY_PATH];
	play_save_slot(data, slot, sizeof slot);
	int rules;
	long turn;
	buf[0] = '\0';
	*other_rules = 0;
	if (!journal_peek(slot, &rules, &turn))
		return;
	if (rules != GAME_RULES) {
		*other_rules = rules;
		snprintf(buf, size, "rules %d: kept, not resumed", rules);
	} else if (turn >= 0) {
		snprintf(buf, size, "turn %ld", turn);
	}
}

int play_save_tidy(const char *data)
{
	char slot[PLAY_PATH], snap[PLAY_PATH + 8], err[PLAY_PATH + 400];
	play_save_slot(data, slot, sizeof slot);
	int n = 0, k;
	/* the snapshot's first: an optimisation, its temporary file is litter */
	if (snapshot_path(slot, snap, sizeof snap) && (k = savefile_remove_temps(snap, err, sizeof err)) > 0)
		n += k;
	/* the journal's own (its header before the link, or the good part of
	 * a torn save before the rename): the save itself is save.jnl, intact */
	if ((k = savefile_remove_temps(slot, err, sizeof err)) > 0)
		n += k;
	/* a death record's temporary file (games/NAME.txt.tmp- and six random
	 * letters) from a kill at a game's end: the record is written again
	 * when the game is filed */
	char dir[PLAY_PATH + 8], tmp[2 * PLAY_PATH];
	snprintf(dir, sizeof dir, "%s/%s", data, PLAY_GAMES_DIR);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		const char *t = strstr(e->d_name, ".tmp-");
		struct stat st;
		if (!t || t == e->d_name || strlen(t) != 11)
			continue;
		snprintf(tmp, sizeof tmp, "%s/%s", dir, e->d_name);
		if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode) && unlink(tmp) == 0)
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

void play_resumed_fini(struct play_resumed *r)
{
	journal_game_fini(&r->jg);
	journal_data_fini(&r->d);
	memset(r, 0, sizeof *r);
}

/* "DATA/games/20240131-142501-SEED" (no extension) for a game ended now. */
static void games_stem(const char *data, uint64_t seed, char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	snprintf(buf, size, "%s/%s/%04d%02d%02d-%02d%02d%02d-%llu", data, PLAY_GAMES_DIR, tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned long long)seed);
}

/* Removes JOURNAL.snap: a snapshot goes with its journal's place, not its file. */
static void drop_snapshot(const char *journal)
{
	char snap[PLAY_PATH + 8];
	if (snapshot_path(journal, snap, sizeof snap))
		unlink(snap); /* missing is fine; a stale one would be refused anyway */
}

/* The segments before the slot's file (a game that outgrew one file:
 * save.jnl.seg-1, ...) linked beside `filed` under its name, so a replay
 * of it finds them. */
static bool file_segments(const char *slot, const char *filed, char *err, size_t errlen)
{
	return journal_segments_link(slot, filed, false, err, errlen) >= 0;
}

/*
 * Links the save slot into DATA/games under the first free name (a link
 * never replaces) and leaves the slot as it is; out gets the new name.
 * A slot already linked there (a game whose end was cut short between
 * filing and removing the slot) keeps its name: it is not filed twice.
 */
static bool file_link(const char *data, uint64_t seed, char *out, size_t outsize, char *err, size_t errlen)
{
	char slot[PLAY_PATH], dir[PLAY_PATH], stem[PLAY_PATH];
	play_save_slot(data, slot, sizeof slot);
	snprintf(dir, sizeof dir, "%s/%s", data, PLAY_GAMES_DIR);
	if (!savefile_make_dir(dir, err, errlen))
		return false;
	struct stat st;
	if (lstat(slot, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1) {
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			size_t n = strlen(e->d_name);
			struct stat fst;
			if (n < 5 || strcmp(e->d_name + n - 4, ".jnl") != 0)
				continue;
			snprintf(out, outsize, "%s/%s", dir, e->d_name);
			if (lstat(out, &fst) == 0 && fst.st_ino == st.st_ino && fst.st_dev == st.st_dev) {
				closedir(d);
				return file_segments(slot, out, err, errlen);
			}
		}
		if (d)
			closedir(d);
	}
	games_stem(data, seed, stem, sizeof stem);
	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(out, outsize, "%s.jnl", stem);
		else
			snprintf(out, outsize, "%s-%d.jnl", stem, n);
		if (link(slot, out) == 0)
			return savefile_sync_dir(NULL, out, err, errlen) && file_segments(slot, out, err, errlen);
		if (errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot file it as %s: %s", slot, out, strerror(errno));
			return false;
		}
	}
	snprintf(err, errlen, "%s: no free name to file it as", stem);
	return false;
}

/* Removes the save slot (and its snapshot) once it is filed as `filed`. */
static bool file_unslot(const char *data, const char *filed, char *err, size_t errlen)
{
	char slot[PLAY_PATH];
	play_save_slot(data, slot, sizeof slot);
	drop_snapshot(slot);
	journal_segments_remove(slot); /* filed beside it */
	if (unlink(slot) != 0) {
		snprintf(err, errlen, "%s: cannot remove it after filing it as %s: %s", slot, filed, strerror(errno));
		return false;
	}
	return savefile_sync_dir(NULL, slot, err, errlen);
}

bool play_save_file_away(const char *data, uint64_t seed, char *out, size_t outsize, char *err, size_t errlen)
{
	return file_link(data, seed, out, outsize, err, errlen) && file_unslot(data, out, err, errlen);
}

/* Moves the save slot aside as save.jnl.damaged-N and words why. */
static enum play_resume_status set_aside(const char *slot, const char *problem, char *msg, size_t msglen)
{
	char aside[PLAY_PATH], err[DIAG_ERR_LEN];
	drop_snapshot(slot);
	if (!savefile_set_aside(NULL, slot, true, aside, sizeof aside, err, sizeof err)) {
		snprintf(msg, msglen, "The saved game cannot be resumed: %s.\nIt could not be moved aside (%s); "
				      "it is left as it is and this game will not be saved.", problem, err);
		return PLAY_RESUME_FAILED;
	}
	/* its segments go with it (a failure only leaves them where they were) */
	journal_segments_link(slot, aside, true, err, sizeof err);
	snprintf(msg, msglen, "The saved game cannot be resumed: %s.\nThe file is kept as %s.", problem, aside);
	return PLAY_RESUME_SET_ASIDE;
}

static void finish_files(const char *data, const char *journal, bool in_slot, bool scored, const char *mode,
			 const struct game *g, char *report, size_t len);

void play_score_mode(const struct journal_level *levels, int n, char *mode, size_t size)
{
	bool dungeon = n > 0;
	for (int i = 0; i < n; i++)
		dungeon = dungeon && !levels[i].movingai && levels[i].name && strcmp(levels[i].name, "dungeon") == 0;
	scores_mode(dungeon, n, mode, size);
}

static bool same_text(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

bool play_journal_scored(const struct journal_data *d, const struct journal_setup *as_they_come)
{
	if (d->scored != JOURNAL_SCORED_UNKNOWN)
		return d->scored == JOURNAL_SCORED_YES;
	/* a save from before the record: judged by what it holds */
	const struct journal_setup *c = as_they_come;
	if (d->n_sets > 0 || !c || c->n_sets > 0 || d->n_levels <= 0 ||
	    !same_text(d->bestiary_text, d->bestiary_len, c->bestiary_text, c->bestiary_len))
		return false;
	bool dungeon = true, campaign = d->n_levels == c->n_levels;
	for (int i = 0; i < d->n_levels; i++) {
		const struct journal_level *l = &d->levels[i];
		dungeon = dungeon && !l->movingai && l->name && strcmp(l->name, "dungeon") == 0;
		campaign = campaign && !l->movingai && !c->levels[i].movingai &&
			   same_text(l->text, l->len, c->levels[i].text, c->levels[i].len);
	}
	return dungeon || campaign;
}

enum play_resume_status play_resume_load(const char *data, const struct journal_setup *as_they_come,
					 struct play_resumed *r, char *msg, size_t msglen)
{
	char slot[PLAY_PATH], err[DIAG_ERR_LEN];
	play_save_slot(data, slot, sizeof slot);
	memset(r, 0, sizeof *r);
	if (!journal_read_file(slot, &r->d, err, sizeof err))
		return set_aside(slot, err, msg, msglen);
	if (!journal_rules_match(&r->d, err, sizeof err)) {
		/* another version's save is not damaged: kept unchanged under a
		 * name that says its rules, so a new game can use the slot */
		char aside[PLAY_PATH], why[512], label[32];
		int rules = r->d.rules;
		char program[64];
		snprintf(program, sizeof program, "%s", r->d.program ? r->d.program : "?");
		play_resumed_fini(r);
		drop_snapshot(slot);
		snprintf(label, sizeof label, "rules%d", rules);
		if (!savefile_keep_as(NULL, slot, label, true, aside, sizeof aside, why, sizeof why)) {
			snprintf(msg, msglen,
				 "The saved game was played under rules version %d (astray %s); this astray plays rules "
				 "version %d and cannot resume it.\nIt could not be moved aside (%s); it is left as it "
				 "is and this game will not be saved.",
				 rules, program, GAME_RULES, why);
			return PLAY_RESUME_FAILED;
		}
		journal_segments_link(slot, aside, true, why, sizeof why); /* its segments go with it */
		snprintf(msg, msglen,
			 "The saved game was played under rules version %d (astray %s); this astray plays rules version "
			 "%d and cannot resume it.\nIt is kept, unchanged, as %s: replay it with the astray that wrote "
			 "it.",
			 rules, program, GAME_RULES, aside);
		return PLAY_RESUME_SET_ASIDE;
	}
	if (!journal_start(&r->d, &r->jg, err, sizeof err)) {
		play_resumed_fini(r);
		return set_aside(slot, err, msg, msglen);
	}
	struct journal_replay rep;
	char snap[PLAY_PATH + 8], note[700];
	long from;
	bool has_snap = snapshot_path(slot, snap, sizeof snap);
	if (!journal_resume(&r->d, &r->jg, has_snap ? snap : NULL, -1, &rep, &from, note, sizeof note, err,
			    sizeof err)) {
		char problem[1400];
		if (strcmp(r->d.program, ASTRAY_VERSION) != 0)
			snprintf(problem, sizeof problem, "%s (it was saved by astray %s, this is astray %s)", err,
				 r->d.program, ASTRAY_VERSION);
		else
			snprintf(problem, sizeof problem, "%s", err);
		play_resumed_fini(r);
		return set_aside(slot, problem, msg, msglen);
	}
	struct game *g = r->jg.game;
	r->scored = play_journal_scored(&r->d, as_they_come);
	play_score_mode(r->d.levels, r->d.n_levels, r->mode, sizeof r->mode);
	if (g->over) {
		/* it ended but was not filed (the program stopped at its end) */
		finish_files(data, slot, true, r->scored, r->mode, g, msg, msglen);
		play_resumed_fini(r);
		return PLAY_RESUME_FINISHED;
	}
	/* a resumed game waits for the player: travel the player had stopped
	 * (or a hangup cut) does not go on by itself */
	game_travel_cancel(g);
	const struct level *lv = game_level(g);
	int n = snprintf(msg, msglen, "A saved game: %s (level %d of %d), turn %d, HP %d/%d, %d gold.",
			 lv && lv->name ? lv->name : "?", g->depth + 1, g->n_levels, g->turn, g->player.hp,
			 g->player.max_hp, g->player.gold);
	if (r->d.tail != JOURNAL_TAIL_CLEAN && n > 0 && (size_t)n < msglen)
		n += snprintf(msg + n, msglen - (size_t)n,
			      "\nIts end was cut or damaged (%s): it resumes after action %ld, the whole file is kept "
			      "beside it.", r->d.tail_msg, r->d.n_actions);
	r->from_snapshot = from;
	snprintf(r->snapshot_note, sizeof r->snapshot_note, "%s", note);
	return PLAY_RESUME_READY;
}

/* The journal's cap is the reader's (JOURNAL_MAX_BYTES); the test build
 * lowers it with $ASTRAY_TEST_JOURNAL_MAX (bytes), so the end-to-end tests
 * fill a save in a few keys instead of millions. */
static void test_cap(struct journal *j)
{
	if (j)
		journal_set_segment_bytes(j, JOURNAL_SEGMENT_BYTES); /* a long game rolls over: never full */
#ifdef ASTRAY_CHECKS
	/* the test build: $ASTRAY_TEST_JOURNAL_SEGMENT (bytes after the
	 * header; 0 turns segments off) rolls over in a few keys */
	const char *cap = getenv("ASTRAY_TEST_JOURNAL_MAX");
	const char *seg = getenv("ASTRAY_TEST_JOURNAL_SEGMENT");
	if (j && seg && *seg)
		journal_set_segment_bytes(j, (size_t)strtoull(seg, NULL, 10));
	if (j && cap && *cap)
		journal_set_max_bytes(j, (size_t)strtoull(cap, NULL, 10));
#endif
}

bool play_save_begin(struct play_save *s, const struct journal_setup *setup, const struct game *g, char *err,
		     size_t errlen)
{
	if (s->in_slot)
		drop_snapshot(s->path); /* one left by a game that is gone */
	s->j = journal_create(s->path, setup, g, err, errlen);
	test_cap(s->j);
	if (s->j && s->in_slot) {
		journal_snapshots(s->j, SNAPSHOT_EVERY);
		journal_snapshots_background(s->j, true); /* a person waits on the keys, not on the snapshot */
		journal_snapshot_prefault(s->j, g);
	}
	return s->j != NULL;
}

bool play_save_reopen(struct play_save *s, const struct play_resumed *r, char *err, size_t errlen)
{
	s->j = journal_open_append(s->path, &r->d, NULL, err, errlen);
	test_cap(s->j);
	if (s->j && s->in_slot) {
		journal_snapshots(s->j, SNAPSHOT_EVERY);
		journal_snapshots_background(s->j, true);
		journal_snapshot_prefault(s->j, r->jg.game);
		/* a resume that replayed the whole journal (no snapshot, or a bad
		 * one) keeps one at once, so the next resume is quick */
		journal_resumed(s->j, r->jg.game, r->from_snapshot);
	}
	return s->j != NULL;
}

static void save_failed(struct play_save *s, const char *err)
{
	s->failed = true;
	snprintf(s->failure, sizeof s->failure, "%s", err);
}

static bool hook_acted(void *ud, const struct game *g, const struct action *a, enum act_result r, char *msg,
		       size_t msglen)
{
	struct play_save *s = ud;
	if (!s->j || s->failed)
		return true;
	char err[DIAG_ERR_LEN];
	if (journal_record(s->j, a, r, g, err, sizeof err)) {
		if (!s->full_told && journal_nearly_full(s->j)) {
			/* once, long before it matters: the journal stops at its
			 * cap (what its reader takes) rather than grow past it */
			s->full_told = true;
			snprintf(msg, msglen,
				 "The save is nearly full: about %ld more actions are saved, then the game goes on "
				 "unsaved.",
				 journal_actions_left(s->j));
			return false;
		}
		const char *snap = journal_snapshot_problem(s->j);
		if (!snap || s->snapshot_told)
			return true;
		s->snapshot_told = true; /* once: the game is saved, only the fast resume is lost */
		snprintf(msg, msglen, "Snapshot failed (the game is still saved): %s", snap);
		return false;
	}
	save_failed(s, err);
	/* the reason first: a narrow row cuts the rest (it is all said again
	 * when the game ends) */
	const char *why = journal_failure_reason(s->j);
	if (why)
		snprintf(msg, msglen, "SAVING FAILED (%s): the game goes on unsaved; more when you leave.", why);
	else
		snprintf(msg, msglen, "SAVING FAILED, the game goes on unsaved: %s", err);
	return false;
}

static void hook_stopping(void *ud, const struct game *g)
{
	struct play_save *s = ud;
	if (!s->j || s->failed)
		return;
	char err[DIAG_ERR_LEN];
	/* a checksum where the player left, a snapshot there (the next
	 * resume replays nothing), then fsync: the resume is checked to here */
	bool ok = g->over || journal_append_checksum(s->j, g, err, sizeof err);
	if (ok && s->in_slot)
		ok = journal_snapshot_at_stop(s->j, g, err, sizeof err);
	if (ok)
		ok = journal_sync(s->j, err, sizeof err);
	if (!ok)
		save_failed(s, err);
}

static const char *hook_warning(void *ud)
{
	const struct play_save *s = ud;
	return (s->j && s->failed) || (!s->j && s->unsaved) ? "NOT SAVED" : NULL;
}

void play_save_hooks(struct play_save *s, struct ui_hooks *h)
{
	memset(h, 0, sizeof *h);
	h->ud = s;
	h->acted = hook_acted;
	h->stopping = hook_stopping;
	h->warning = hook_warning;
	h->failed_quit_prompt = s->unsaved && !s->j
					? "Really quit? This game is NOT SAVED: the save slot holds another game. (y/n)"
					: "Really quit? SAVING FAILED: the game is kept only up to where it failed. (y/n)";
	if (s->j && s->in_slot)
		h->quit_prompt = "Really quit? The game is saved: start astray again to continue it. (y/n)";
	else if (s->j)
		h->quit_prompt = "Really quit? The game so far is recorded. (y/n)";
}

char *play_morgue_text(const struct game *g, const char *journal_name, size_t *len)
{
	size_t cap = 4096 + (size_t)GAME_MESSAGES * (GAME_MESSAGE_LEN + 24);
	char *t = malloc(cap);
	if (!t)
		return NULL;
	size_t n = 0;
#define PUT(...)                                                                  \
	do {                                                                      \
		int w_ = snprintf(t + n, cap - n, __VA_ARGS__);                   \
		if (w_ > 0)                                                       \
			n = (size_t)w_ < cap - n ? n + (size_t)w_ : cap - 1;      \
	} while (0)
	struct score_entry e;
	scores_entry_from_game(g, (long long)time(NULL), &e);
	const struct level *lv = game_level(g);
	time_t now = (time_t)e.date;
	struct tm tm;
	char date[32];
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
	PUT("astray %s - %s\n\n", ASTRAY_VERSION, g->won ? "a victory" : "a death");
	if (g->won)
		PUT("Escaped the dungeon after %d turn%s.\n", g->turn, g->turn == 1 ? "" : "s");
	else
		PUT("Killed by %s on %s (level %d of %d), turn %d.\n", g->killer[0] ? g->killer : "something",
		    lv && lv->name ? lv->name : "?", g->depth + 1, g->n_levels, g->turn);
	PUT("\n  score     %ld\n  depth     %d of %d\n  turns     %d\n  gold      %d\n  kills     %d\n"
	    "  level     %d (%d xp)\n  HP        %d/%d\n  potions   %d drunk, %d left\n  seed      %llu\n"
	    "  date      %s\n  journal   %s\n",
	    e.score, g->depth + 1, g->n_levels, g->turn, g->player.gold, g->player.kills, g->player.xlevel,
	    g->player.xp, g->player.hp, g->player.max_hp, g->player.potions_drunk, g->player.potions, (unsigned long long)g->seed, date,
	    journal_name);
	PUT("\nWatch it again: astray replay %s\n\nThe last messages, oldest first:\n", journal_name);
	int shown = 0;
	while (shown < 12 && game_message(g, shown))
		shown++;
	for (int i = shown - 1; i >= 0; i--) {
		const struct message *m = game_message(g, i);
		if (m->count > 1)
			PUT("  %5d  %s (x%d)\n", m->turn, m->text, m->count);
		else
			PUT("  %5d  %s\n", m->turn, m->text);
	}
#undef PUT
	*len = n;
	return t;
}

static void append(char *report, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *report, size_t len, const char *fmt, ...)
{
	size_t at = strlen(report);
	if (at + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(report + at, len - at, fmt, ap);
	va_end(ap);
}

/* In the test build, $ASTRAY_TEST_FINISH_STOP=STEP ends finish_files
 * right after STEP ("filed", "record" or "scored"), as a kill there
 * would, so a test can check what the next start makes of it. */
static bool stop_after(const char *step)
{
#ifdef ASTRAY_CHECKS
	const char *at = getenv("ASTRAY_TEST_FINISH_STOP");
	return at && strcmp(at, step) == 0;
#else
	(void)step;
	return false;
#endif
}

/*
 * The end of a game on disk, each step safe to repeat, so a stop at any
 * point loses nothing and counts nothing twice when the next start finds
 * the finished game in the slot and ends it again: the journal linked
 * into DATA/games (when it is the save slot; a slot already linked there
 * keeps its name), the death record beside it, the score (dated by the
 * journal's last write, so the same game gives the same entry, which
 * scores_add does not add twice), and only then the slot removed.  Each
 * line of report says what was done or what failed.
 */
static void finish_files(const char *data, const char *journal, bool in_slot, bool scored, const char *mode,
			 const struct game *g, char *report, size_t len)
{
	char err[DIAG_ERR_LEN], filed[PLAY_PATH], morgue[PLAY_PATH];
	report[0] = '\0';
	struct stat jst;
	long long ended = stat(journal, &jst) == 0 ? (long long)jst.st_mtime : (long long)time(NULL);
	snprintf(filed, sizeof filed, "%s", journal);
	bool linked = in_slot && file_link(data, g->seed, filed, sizeof filed, err, sizeof err);
	if (in_slot && !linked) {
		append(report, len, "astray: the finished game stays in %s: %s\n", journal, err);
		snprintf(filed, sizeof filed, "%s", journal);
	}
	if (stop_after("filed"))
		return;
	/* NAME.jnl -> NAME.txt, else FILE.txt */
	size_t flen = strlen(filed);
	if (flen > 4 && strcmp(filed + flen - 4, ".jnl") == 0)
		flen -= 4;
	if (flen + 5 > sizeof morgue)
		flen = sizeof morgue - 5;
	memcpy(morgue, filed, flen);
	memcpy(morgue + flen, ".txt", 5);
	size_t mlen;
	char *text = play_morgue_text(g, filed, &mlen);
	if (!text)
		append(report, len, "astray: no death record: out of memory\n");
	else if (!savefile_write_atomic(NULL, morgue, text, mlen, linked, err, sizeof err))
		append(report, len, "astray: no death record: %s\n", err);
	else
		append(report, len, "The game is in %s, its record in %s.\n", filed, morgue);
	free(text);
	if (stop_after("record"))
		return;
	if (data[0] && !scored) {
		append(report, len, "Not scored: the high-score list is for the campaign and generated dungeons "
				    "as they come (this game had other levels or settings).\n");
	} else if (data[0]) {
		struct score_entry e;
		scores_entry_from_game(g, ended, &e);
		snprintf(e.mode, sizeof e.mode, "%s", mode && mode[0] ? mode : SCORES_UNKNOWN);
		char title[96];
		scores_mode_title(e.mode, title, sizeof title);
		int rank = 0;
		char aside[PLAY_PATH] = "";
		if (!scores_add(data, &e, NULL, &rank, aside, sizeof aside, err, sizeof err))
			append(report, len, "astray: the score was not kept: %s\n", err);
		else if (rank > 0)
			append(report, len, "Score %ld: place %d on the high-score list of %s (astray scores).\n",
			       e.score, rank, title);
		else
			append(report, len, "Score %ld: not on the high-score list of %s.\n", e.score, title);
		if (aside[0])
			append(report, len,
			       "astray: the high-score list was damaged: kept as %s; the new list keeps its good "
			       "entries\n",
			       aside);
	}
	if (stop_after("scored"))
		return;
	if (linked && !file_unslot(data, filed, err, sizeof err))
		append(report, len, "astray: %s\n", err);
}

void play_save_finish(struct play_save *s, const struct game *g, FILE *out)
{
	char err[DIAG_ERR_LEN];
	if (s->j && !s->failed && !journal_close(s->j, err, sizeof err))
		save_failed(s, err);
	else if (s->j && s->failed)
		journal_close(s->j, err, sizeof err);
	s->j = NULL;
	if (s->failed)
		cli_message(out, "astray: saving failed during the game", s->failure);
	if (!s->path[0])
		return; /* not journalled (--no-save, or the slot held another game): nothing to file */
	char report[4096];
	finish_files(s->data, s->path, s->in_slot, !s->unscored, s->mode, g, report, sizeof report);
	cli_put_text(out, report);
}

void play_save_leave(struct play_save *s, FILE *out)
{
	if (!s->j)
		return;
	char err[DIAG_ERR_LEN];
	bool ok = journal_close(s->j, err, sizeof err);
	s->j = NULL;
	if (!ok && !s->failed)
		save_failed(s, err);
	char line[2 * DIAG_ERR_LEN + sizeof s->path];
	if (s->failed)
		snprintf(line, sizeof line, "astray: saving failed: %s\nThe game is kept up to where saving failed, in %s.",
			 s->failure, s->path);
	else if (s->in_slot)
		snprintf(line, sizeof line, "The game is saved in %s: start astray again to continue it.", s->path);
	else
		snprintf(line, sizeof line, "The game is recorded in %s.", s->path);
	cli_put_text(out, line);
	fputc('\n', out);
}

int play_ask(FILE *in, FILE *out, const char *question, bool default_yes)
{
	return ask_yes_no(in, out, question, default_yes); /* one key in a terminal (ask.c) */
}

/*
 * When DATA/save.jnl holds a game, offers to continue it (a question on
 * stdin/stdout, before the game screen).  Returns 1 when r holds the game
 * to continue, 0 for a new game, -1 to stop (end of input, or the player
 * wants no new game).  *keep_slot is set when the slot holds a file that
 * could not be moved aside: the new game must then not be saved there.
 */
int play_resume_offer(const char *data, const struct journal_setup *as_they_come, struct play_resumed *r,
		      bool *keep_slot, char *ended, size_t endedlen)
{
	char msg[2048], err[DIAG_ERR_LEN], filed[PLAY_PATH];
	*keep_slot = false;
	if (endedlen > 0)
		ended[0] = '\0';
	if (!play_save_exists(data))
		return 0;
	switch (play_resume_load(data, as_they_come, r, msg, sizeof msg)) {
	case PLAY_RESUME_READY: {
		cli_put_text(stdout, msg);
		putchar('\n');
		int yes = play_ask(stdin, stdout, "Continue it?", true);
		if (yes != 0)
			return yes;
		uint64_t seed = r->jg.game->seed;
		play_resumed_fini(r);
		if (!play_save_file_away(data, seed, filed, sizeof filed, err, sizeof err)) {
			cli_message(stderr, "astray", err);
			return -1;
		}
		fputs("The saved game is kept in ", stdout);
		cli_put_escaped(stdout, filed);
		fputs(" (astray replay shows it).\n", stdout);
		return 0;
	}
	case PLAY_RESUME_FINISHED:
		if (endedlen > 0)
			snprintf(ended, endedlen, "%s", msg);
		return 0;
	case PLAY_RESUME_FAILED:
		*keep_slot = true;
		/* fall through */
	case PLAY_RESUME_SET_ASIDE:
		cli_message(stderr, "astray", msg);
		return play_ask(stdin, stdout, "Start a new game?", true) == 1 ? 0 : -1;
	}
	return -1;
}
