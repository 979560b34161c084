/*
 * scores.c - the high-score list in the data folder: one line per entry,
 * best first, at most SCORES_MAX.  Adding an entry takes an exclusive lock
 * on a lock file beside the list, reads the list, merges, and replaces it
 * through savefile_write_atomic, so two games that end at once both land
 * and a crash leaves the old list or the new one.  Readers need no lock:
 * the list is only ever replaced whole.
 *
 * One file holds one list per mode (the campaign, a dungeon of N levels):
 * a game is compared only with games of the same mode and length, and
 * each list keeps its best SCORES_MAX.
 *
 * File format (text), 2 since rules version 4:
 *   astray-scores 2
 *   SCORE DEPTH TURNS SEED DATE OUTCOME MODE CAUSE...
 * Format 1 (no MODE) is still read: its entries could be campaign or
 * dungeon games, which it did not record, so they form the list of mode
 * SCORES_UNKNOWN; the next write keeps them, in format 2.  No score is
 * lost.  It never prints and never exits.
 */
#include "scores.h"

#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PATH_CAP 4096
#define SCORES_MAX_BYTES (1u << 20)

long scores_value(int gold, int kills, int levels_done, bool won)
{
	return (long)gold + 50L * kills + 100L * levels_done + (won ? 500 : 0);
}

/* The killer's name from the death message ("The goblin hits you (3). You die ..."). */
static bool killer_of(const struct game *g, char *out, size_t size)
{
	for (int i = 0; i < 4; i++) {
		const struct message *m = game_message(g, i);
		if (!m)
			return false;
		const char *hit = strstr(m->text, " hits you");
		if (strncmp(m->text, "The ", 4) == 0 && hit && strstr(m->text, "You die")) {
			snprintf(out, size, "%.*s", (int)(hit - m->text - 4), m->text + 4);
			return true;
		}
	}
	return false;
}

void scores_entry_from_game(const struct game *g, long long date, struct score_entry *e)
{
	memset(e, 0, sizeof *e);
	snprintf(e->mode, sizeof e->mode, "%s", SCORES_UNKNOWN);
	e->depth = g->depth + 1;
	e->turns = g->turn;
	e->seed = g->seed;
	e->date = date;
	int done = g->won ? g->n_levels : g->depth;
	e->score = scores_value(g->player.gold, g->player.kills, done, g->won);
	char killer[64];
	if (g->won) {
		snprintf(e->outcome, sizeof e->outcome, "won");
		snprintf(e->cause, sizeof e->cause, "escaped the dungeon");
	} else if (g->over) {
		snprintf(e->outcome, sizeof e->outcome, "died");
		if (g->killer[0])
			snprintf(e->cause, sizeof e->cause, "killed by %s on level %d", g->killer, e->depth);
		else if (killer_of(g, killer, sizeof killer))
			snprintf(e->cause, sizeof e->cause, "killed by a %s on level %d", killer, e->depth);
		else
			snprintf(e->cause, sizeof e->cause, "died on level %d", e->depth);
	} else {
		snprintf(e->outcome, sizeof e->outcome, "quit");
		snprintf(e->cause, sizeof e->cause, "left on level %d", e->depth);
	}
}

void scores_mode(bool dungeon, int n_levels, char *mode, size_t size)
{
	if (dungeon)
		snprintf(mode, size, "dungeon-%d", n_levels);
	else
		snprintf(mode, size, "campaign");
}

/* The number of levels of a "dungeon-N" mode, else 0. */
static int dungeon_levels(const char *mode)
{
	if (strncmp(mode, "dungeon-", 8) != 0)
		return 0;
	char *end;
	long n = strtol(mode + 8, &end, 10);
	return *end == '\0' && n > 0 && n < 100000 ? (int)n : 0;
}

void scores_mode_title(const char *mode, char *buf, size_t size)
{
	int n = dungeon_levels(mode);
	if (strcmp(mode, "campaign") == 0)
		snprintf(buf, size, "the campaign");
	else if (n > 0)
		snprintf(buf, size, "dungeons of %d level%s", n, n == 1 ? "" : "s");
	else if (strcmp(mode, SCORES_UNKNOWN) == 0)
		snprintf(buf, size, "games scored before the lists by mode");
	else
		snprintf(buf, size, "%s", mode);
}

bool scores_mode_valid(const char *text, size_t n)
{
	if (n == 0 || n >= SCORES_MODE_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = text[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'))
			return false;
	}
	return true;
}

/* The order the lists are shown in: campaign, dungeons by length, others
 * by name, unknown last. */
static int mode_order(const char *a, const char *b)
{
	int ra = strcmp(a, "campaign") == 0 ? 0 : dungeon_levels(a) ? 1 : strcmp(a, SCORES_UNKNOWN) == 0 ? 3 : 2;
	int rb = strcmp(b, "campaign") == 0 ? 0 : dungeon_levels(b) ? 1 : strcmp(b, SCORES_UNKNOWN) == 0 ? 3 : 2;
	if (ra != rb)
		return ra - rb;
	if (ra == 1 && dungeon_levels(a) != dungeon_levels(b))
		return dungeon_levels(a) < dungeon_levels(b) ? -1 : 1;
	return strcmp(a, b);
}

int scores_modes(const struct score_list *l, char (*modes)[SCORES_MODE_LEN], int max)
{
	int n = 0;
	for (int i = 0; i < l->n; i++) {
		bool seen = false;
		for (int k = 0; k < n && !seen; k++)
			seen = strcmp(modes[k], l->v[i].mode) == 0;
		if (seen || n >= max)
			continue;
		/* insertion into the shown order */
		int at = n;
		while (at > 0 && mode_order(modes[at - 1], l->v[i].mode) > 0) {
			memcpy(modes[at], modes[at - 1], SCORES_MODE_LEN);
			at--;
		}
		snprintf(modes[at], SCORES_MODE_LEN, "%s", l->v[i].mode);
		n++;
	}
	return n;
}

int scores_compare(const struct score_entry *a, const struct score_entry *b)
{
	int m = mode_order(a->mode, b->mode);
	if (m != 0)
		return m;
	bool wa = strcmp(a->outcome, "won") == 0, wb = strcmp(b->outcome, "won") == 0;
	if (wa != wb)
		return wa ? -1 : 1;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->turns != b->turns)
		return a->turns < b->turns ? -1 : 1;
	if (a->date != b->date)
		return a->date < b->date ? -1 : 1;
	if (a->seed != b->seed)
		return a->seed < b->seed ? -1 : 1;
	return strcmp(a->cause, b->cause);
}

static int compare_entries(const void *a, const void *b) { return scores_compare(a, b); }

void scores_fini(struct score_list *l)
{
	if (!l)
		return;
	free(l->v);
	memset(l, 0, sizeof *l);
}

static bool clean_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

bool scores_parse(const char *name, const char *text, size_t len, struct score_list *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	static const char magic1[] = "astray-scores 1\n", magic2[] = "astray-scores 2\n";
	int format = 0;
	if (len >= sizeof magic1 - 1 && memcmp(text, magic1, sizeof magic1 - 1) == 0)
		format = 1;
	else if (len >= sizeof magic2 - 1 && memcmp(text, magic2, sizeof magic2 - 1) == 0)
		format = 2;
	if (!format) {
		snprintf(err, errlen, "%s:1: not an astray score list (format 1 or 2)", name);
		return false;
	}
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	out->v = calloc(lines + 1, sizeof *out->v);
	if (!out->v) {
		snprintf(err, errlen, "%s: out of memory", name);
		return false;
	}
	size_t pos = sizeof magic1 - 1; /* both headers are as long */
	bool ok = true;
	for (int line = 2; pos < len; line++) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		if (!nl) {
			if (ok)
				snprintf(err, errlen, "%s:%d: the last line has no end", name, line);
			out->skipped++;
			ok = false;
			break;
		}
		size_t n = (size_t)(nl - (text + pos));
		char buf[256];
		struct score_entry *e = &out->v[out->n];
		int used = -1;
		if (n < sizeof buf && clean_text(text + pos, n)) {
			memcpy(buf, text + pos, n);
			buf[n] = '\0';
			unsigned long long seed;
			if (sscanf(buf, "%ld %d %d %llu %lld %7s %n", &e->score, &e->depth, &e->turns, &seed, &e->date,
				   e->outcome, &used) == 6 && used > 0 && (size_t)used < n) {
				e->seed = seed;
				snprintf(e->mode, sizeof e->mode, "%s", SCORES_UNKNOWN);
				if (format == 2) {
					/* the mode, then a space, then the cause */
					size_t m = (size_t)used;
					while (m < n && buf[m] != ' ')
						m++;
					if (m < n && scores_mode_valid(buf + used, m - (size_t)used)) {
						snprintf(e->mode, sizeof e->mode, "%.*s", (int)(m - (size_t)used),
							 buf + used);
						used = (int)m + 1;
					} else {
						used = -1;
					}
				}
				if (used > 0 && (size_t)used < n)
					snprintf(e->cause, sizeof e->cause, "%s", buf + used);
				else
					used = -1;
			} else {
				used = -1;
			}
		}
		pos += n + 1;
		if (used < 0 || e->depth < 1 || e->turns < 0 ||
		    (strcmp(e->outcome, "won") && strcmp(e->outcome, "died") && strcmp(e->outcome, "quit"))) {
			/* the first one is named; the good entries around it are kept */
			if (ok)
				snprintf(err, errlen, "%s:%d: a malformed entry", name, line);
			memset(e, 0, sizeof *e);
			out->skipped++;
			ok = false;
			continue;
		}
		out->n++;
	}
	qsort(out->v, (size_t)out->n, sizeof *out->v, compare_entries);
	return ok;
}

char *scores_format(const struct score_list *l, size_t *len)
{
	size_t cap = 32 + (size_t)l->n * (SCORES_CAUSE_LEN + 96);
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t n = (size_t)snprintf(s, cap, "astray-scores 2\n");
	for (int i = 0; i < l->n; i++) {
		const struct score_entry *e = &l->v[i];
		char cause[SCORES_CAUSE_LEN];
		snprintf(cause, sizeof cause, "%s", e->cause[0] ? e->cause : "-");
		for (char *p = cause; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				*p = '?';
		const char *mode = scores_mode_valid(e->mode, strlen(e->mode)) ? e->mode : SCORES_UNKNOWN;
		n += (size_t)snprintf(s + n, cap - n, "%ld %d %d %" PRIu64 " %lld %s %s %s\n", e->score, e->depth,
				      e->turns, e->seed, e->date, e->outcome, mode, cause);
	}
	*len = n;
	return s;
}

static bool path_in(char *buf, size_t size, const char *dir, const char *file, char *err, size_t errlen)
{
	if (snprintf(buf, size, "%s/%s", dir, file) >= (int)size) {
		snprintf(err, errlen, "%s: folder name too long", dir);
		return false;
	}
	return true;
}

/* Reads and parses path; a missing file is an empty list.  *damaged says
 * the file exists but is not a list (err says why). */
static bool load_path(const char *path, struct score_list *out, bool *damaged, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	*damaged = false;
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return true;
	size_t len;
	char *text = savefile_read(path, SCORES_MAX_BYTES, &len, err, errlen);
	if (!text)
		return false;
	bool ok = scores_parse(path, text, len, out, err, errlen);
	free(text);
	*damaged = !ok;
	return ok;
}

/* Whether a failed parse still left a list to use: the header was right
 * (entries or none) and only some lines were malformed. */
static bool partly_good(const struct score_list *l)
{
	return l->v != NULL && l->skipped > 0;
}

bool scores_load(const char *dir, struct score_list *out, char *err, size_t errlen)
{
	char path[PATH_CAP];
	bool damaged;
	memset(out, 0, sizeof *out);
	if (!path_in(path, sizeof path, dir, SCORES_FILE, err, errlen))
		return false;
	bool ok = load_path(path, out, &damaged, err, errlen);
	return ok || (damaged && partly_good(out));
}

/* Whether a and b are the same game's entry: every field equal (its date
 * is the second the game ended, so two games never share one). */
static bool same_entry(const struct score_entry *a, const struct score_entry *b)
{
	return a->score == b->score && a->depth == b->depth && a->turns == b->turns && a->seed == b->seed &&
	       a->date == b->date && strcmp(a->outcome, b->outcome) == 0 && strcmp(a->cause, b->cause) == 0 &&
	       strcmp(a->mode, b->mode) == 0;
}

bool scores_add(const char *dir, const struct score_entry *e, const struct savefile_io *io, int *rank,
		char *aside, size_t aside_size, char *err, size_t errlen)
{
	char path[PATH_CAP], lock[PATH_CAP];
	if (rank)
		*rank = 0;
	if (aside && aside_size)
		aside[0] = '\0';
	if (!path_in(path, sizeof path, dir, SCORES_FILE, err, errlen) ||
	    !path_in(lock, sizeof lock, dir, SCORES_LOCK, err, errlen))
		return false;
	/* O_NOFOLLOW: a link planted as the lock must not make a file appear
	 * where it points; O_NONBLOCK: nor a FIFO hang the game */
	int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", lock,
			 errno == ELOOP ? "a symbolic link: refused (the lock must be a file of its own)"
					: strerror(errno));
		return false;
	}
	struct stat lst;
	if (fstat(fd, &lst) != 0 || !S_ISREG(lst.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file: refused", lock);
		close(fd);
		return false;
	}
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	while (fcntl(fd, F_SETLKW, &fl) != 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "%s: cannot lock: %s", lock, strerror(errno));
			close(fd);
			return false;
		}
	}
	/* the lock is released when fd is closed */
	struct score_list l;
	bool damaged, ok = load_path(path, &l, &damaged, err, errlen), moved = false;
	if (!ok && damaged) {
		moved = true;
		/* the damaged file is kept as it is, for a look; the new list
		 * starts from its good entries */
		if (!partly_good(&l))
			scores_fini(&l);
		ok = savefile_set_aside(io, path, true, aside, aside_size, err, errlen);
	}
	/* the same game again (a finished game resumed after a stop between
	 * its score and its filing): already on the list, not added twice */
	bool again = false;
	for (int i = 0; ok && !moved && i < l.n && !again; i++)
		again = same_entry(&l.v[i], e);
	if (ok && again) {
		if (rank) {
			int place = 0;
			for (int i = 0; i < l.n; i++)
				if (strcmp(l.v[i].mode, e->mode) == 0) {
					place++;
					if (same_entry(&l.v[i], e))
						*rank = place;
				}
		}
	} else if (ok) {
		struct score_entry *v = realloc(l.v, (size_t)(l.n + 1) * sizeof *v);
		if (!v) {
			snprintf(err, errlen, "%s: out of memory", path);
			ok = false;
		} else {
			l.v = v;
			l.v[l.n++] = *e;
			qsort(l.v, (size_t)l.n, sizeof *l.v, compare_entries);
			/* each mode keeps its best SCORES_MAX (sorted by mode, so a
			 * mode's entries are one run): the rest are dropped */
			int kept = 0, place = 0;
			for (int i = 0; i < l.n; i++) {
				place = i > 0 && strcmp(l.v[i].mode, l.v[i - 1].mode) == 0 ? place + 1 : 1;
				if (place > SCORES_MAX)
					continue;
				if (rank && scores_compare(&l.v[i], e) == 0)
					*rank = place;
				l.v[kept++] = l.v[i];
			}
			l.n = kept;
			size_t len;
			char *text = scores_format(&l, &len);
			if (!text) {
				snprintf(err, errlen, "%s: out of memory", path);
				ok = false;
			} else {
				ok = savefile_write_atomic(io, path, text, len, true, err, errlen);
				free(text);
			}
		}
	}
	scores_fini(&l);
	close(fd);
	return ok;
}
