/*
 * journal.c - the game journal (docs/journal.md): a game kept as what is
 * needed to play it again exactly (format and program version, seed,
 * bestiary text and overrides, play options, the level texts) followed by
 * one record per player action and, every few actions, a checksum of the
 * game state.  Reading it back gives a game by replaying the actions, so
 * one file is the save, the replay and the bug report.
 *
 * The file is ASCII text, one record per line, each line ending with the
 * CRC-32 of the record, so a record is complete when its newline and CRC
 * are there and a damaged byte anywhere is found and located.  Level and
 * bestiary texts follow their record line as counted blocks.
 *
 * This file owns the format, the reader, the replay and the appending
 * writer.  Where files live and how they are replaced atomically is
 * savefile.c; what the game does with an action is game.c.  It never
 * prints and never exits: every failure is a false return and a message
 * naming the file and the byte offset (reading) or the call (writing).
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigmem.h"
#include "clock.h"
#include "snapshot.h"

#define RECORD_MAX 512        /* longest record line the writer makes (names are cut to fit) */
/* Room an action leaves for the checksum record after it (at most about
 * 70 bytes: "c A T HASH CRC"). */
#define JOURNAL_CHECK_RESERVE 128
/* The longest action record line ("a t 7 -1048576 -1048576 CRC", 34 bytes). */
#define ACTION_LINE_MAX 48
#define NAME_MAX_LEN 200      /* file names kept in the header */
#define COORD_LIMIT (1 << 20) /* |x|, |y| of an action; cells are far smaller */

/* The CRC-32 of every record (savefile_crc32: the IEEE one, as zlib's). */
static uint32_t crc_update(uint32_t crc, const void *data, size_t n) { return savefile_crc32(crc, data, n); }
/* The CRC of two pieces from theirs (the reader's: a level text is read once). */
static uint32_t crc_join(uint32_t crc1, uint32_t crc2, size_t len2) { return savefile_crc32_combine(crc1, crc2, len2); }

uint32_t journal_crc(uint32_t crc, const void *data, size_t n) { return crc_update(crc, data, n); }

/* ---- the action kinds ----------------------------------------------------- */

static const struct {
	enum action_kind kind;
	char letter;
} kind_letters[] = {
	{ ACT_NONE, 'n' }, { ACT_MOVE, 'm' }, { ACT_WAIT, 'w' },
	{ ACT_TRAVEL, 't' }, { ACT_TRAVEL_STEP, 's' }, { ACT_DESCEND, 'd' },
	{ ACT_REST, 'r' }, { ACT_QUAFF, 'q' }, { ACT_EXPLORE, 'e' }, { ACT_RUN, 'u' },
	{ ACT_PICKUP, 'g' }, { ACT_USE, 'a' }, { ACT_THROW, 'h' }, { ACT_FIRE, 'f' },
	{ ACT_WIELD, 'i' }, { ACT_WEAR, 'o' }, { ACT_DROP, 'k' }, { ACT_CLOSE, 'c' },
	{ ACT_STOP, 'x' }, { ACT_THROW_AT, 'T' },
};
#define N_KINDS (sizeof kind_letters / sizeof kind_letters[0])

char journal_kind_letter(enum action_kind k)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (kind_letters[i].kind == k)
			return kind_letters[i].letter;
	return '?';
}

static bool kind_of_letter(char c, enum action_kind *out)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (kind_letters[i].letter == c) {
			*out = kind_letters[i].kind;
			return true;
		}
	return false;
}

static const char *const share_names[] = { "auto", "never", "always" }; /* enum ai_share order */

/* ---- reading ------------------------------------------------------------ */

/* Where the reader is, and the first problem it met. */
struct reader {
	struct journal_data *d;
	size_t pos;               /* start of the next record */
	bool raw;                 /* give each record's raw_crc (the header's records) */
	char msg[256];            /* what is wrong (without the position) */
	size_t at;                /* byte offset of the problem */
};

enum rec { REC_OK, REC_INCOMPLETE, REC_BAD };

/* One record split into its fields: the body is NUL-terminated in place
 * once the CRC has been checked. */
struct record {
	char *body;               /* the line without " CRC\n" */
	size_t body_len;
	const char *block;        /* the counted block after the line, or NULL */
	size_t block_len;
	size_t start, end;        /* byte offsets: first byte, one past the last (its final '\n') */
	uint32_t raw_crc;         /* with reader.raw: the CRC-32 of the bytes [start, end) as they were read */
};

static enum rec bad(struct reader *r, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum rec bad(struct reader *r, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	r->at = at;
	return REC_BAD;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* n lowercase hex digits; false on anything else. */
static bool parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int h = hex_value(s[i]);
		if (h < 0)
			return false;
		v = v << 4 | (uint64_t)h;
	}
	*out = v;
	return true;
}

/* A decimal number that is the whole of [s, s + n), in [lo, hi]. */
static bool parse_num(const char *s, size_t n, long long lo, long long hi, long long *out)
{
	bool neg = n > 0 && s[0] == '-';
	size_t i = neg ? 1 : 0;
	if (i >= n || n - i > 19)
		return false;
	if (s[i] == '0' && n - i > 1) /* one spelling per number */
		return false;
	unsigned long long v = 0;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > (unsigned long long)INT64_MAX)
		return false;
	long long x = neg ? -(long long)v : (long long)v;
	if (x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	if (n == 0 || n > 20 || (s[0] == '0' && n > 1))
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned dgt = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - dgt) / 10)
			return false;
		v = v * 10 + dgt;
	}
	*out = v;
	return true;
}

/* Fields of a body, split on single spaces. */
struct fields {
	const char *s[8];
	size_t n[8];
	int count;
	const char *rest;         /* after the first `want` fields: the rest of the body (a name) */
};

/* Splits the first `want` space-separated fields off body; when `rest` is
 * true, what follows them (at least one byte) is the rest.  False when
 * the body has another shape. */
static bool split(const char *body, size_t len, int want, bool rest, struct fields *f)
{
	memset(f, 0, sizeof *f);
	size_t i = 0;
	while (f->count < want) {
		size_t j = i;
		while (j < len && body[j] != ' ')
			j++;
		if (j == i)
			return false;
		f->s[f->count] = body + i;
		f->n[f->count] = j - i;
		f->count++;
		if (j == len)
			return f->count == want && !rest;
		i = j + 1;
	}
	if (!rest)
		return false; /* more fields than wanted */
	if (i >= len)
		return false;
	f->rest = body + i;
	return true;
}

static bool field_is(const struct fields *f, int i, const char *word)
{
	return f->n[i] == strlen(word) && memcmp(f->s[i], word, f->n[i]) == 0;
}

/* Block records: the record name, how many fields precede the length... */
static bool is_block_record(const char *body, size_t n)
{
	return (n > 9 && memcmp(body, "bestiary ", 9) == 0) || (n > 6 && memcmp(body, "level ", 6) == 0) ||
	       (n > 4 && memcmp(body, "map ", 4) == 0) || (n > 6 && memcmp(body, "items ", 6) == 0);
}

/*
 * Reads the record at r->pos: its line, its block if it has one, and its
 * CRC.  REC_INCOMPLETE when the file ends first; REC_BAD (r->msg) when it
 * is complete but malformed or its CRC differs.
 */
static enum rec read_record(struct reader *r, struct record *rec)
{
	struct journal_data *d = r->d;
	char *buf = d->buf;
	size_t start = r->pos, len = d->size;
	char *nl = memchr(buf + start, '\n', len - start);
	if (!nl)
		return REC_INCOMPLETE;
	size_t line_end = (size_t)(nl - buf);
	size_t n = line_end - start;
	if (n < 10 || buf[line_end - 9] != ' ')
		return bad(r, start, "a record without its CRC");
	for (size_t i = start; i < line_end; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e)
			return bad(r, i, "byte 0x%02x in a record line (records are printable ASCII)",
				   (unsigned char)buf[i]);
	uint64_t want;
	if (!parse_hex(buf + line_end - 8, 8, &want))
		return bad(r, line_end - 8, "a malformed CRC");
	memset(rec, 0, sizeof *rec);
	rec->body = buf + start;
	rec->body_len = n - 9;
	rec->start = start;
	rec->end = line_end + 1;
	uint32_t crc = crc_update(0, rec->body, rec->body_len);
	if (r->raw) /* the body, then " CRC\n" */
		rec->raw_crc = crc_update(crc, buf + start + rec->body_len, 10);
	if (is_block_record(rec->body, rec->body_len)) {
		/* the length is the second field */
		const char *p = rec->body + (rec->body[0] == 'b' ? 9 : rec->body[0] == 'l' || rec->body[0] == 'i' ? 6 : 4);
		const char *e = p;
		const char *body_end = rec->body + rec->body_len;
		while (e < body_end && *e != ' ')
			e++;
		long long blen;
		if (!parse_num(p, (size_t)(e - p), 0, (long long)JOURNAL_MAX_BYTES, &blen))
			return bad(r, (size_t)(p - buf), "a malformed block length");
		size_t bstart = line_end + 1;
		if ((size_t)blen >= len - bstart) /* the block and its final '\n' */
			return REC_INCOMPLETE;
		if (buf[bstart + (size_t)blen] != '\n')
			return bad(r, bstart + (size_t)blen, "a block of %lld bytes that does not end its record",
				   blen);
		rec->block = buf + bstart;
		rec->block_len = (size_t)blen;
		rec->end = bstart + (size_t)blen + 1;
		/* the block's bytes are read once (a 4096x4096 level's text is 16
		 * MB): its CRC joins the line's for the record's, and the raw one
		 * for the header's and the game's CRCs (journal_parse) */
		const uint32_t bcrc = crc_update(0, rec->block, rec->block_len);
		crc = crc_join(crc, bcrc, rec->block_len);
		if (r->raw)
			rec->raw_crc = crc_update(crc_join(rec->raw_crc, bcrc, rec->block_len), "\n", 1);
	}
	if (crc != (uint32_t)want)
		return bad(r, start, "CRC mismatch (the record says %08" PRIx64 ", its bytes give %08" PRIx32 ")",
			   want, crc);
	rec->body[rec->body_len] = '\0';
	r->pos = rec->end;
	return REC_OK;
}

/* Appends to a growable array of n elements of `size` bytes. */
static bool grow(void *arrp, int *cap, int n, size_t size)
{
	if (n < *cap)
		return true;
	int ncap = *cap ? *cap * 2 : 8;
	void *p = realloc(*(void **)arrp, (size_t)ncap * size);
	if (!p)
		return false;
	*(void **)arrp = p;
	*cap = ncap;
	return true;
}

/* One header record; REC_BAD for anything unexpected. */
struct header_state {
	bool program, rules, seed, check_every, bestiary, scored, items, segment;
	int sets_cap, levels_cap;
	size_t segment_at, segment_end; /* the segment record's bytes (left out of game_crc) */
};

static enum rec header_record(struct reader *r, struct record *rec, struct header_state *h)
{
	struct journal_data *d = r->d;
	struct fields f;
	const char *b = rec->body;
	size_t n = rec->body_len;
	size_t at = rec->start;
	if (split(b, n, 2, false, &f) && field_is(&f, 0, "program")) {
		if (h->program)
			return bad(r, at, "a second program record");
		h->program = true;
		d->program = f.s[1];
		return REC_OK;
	}
	if (split(b, n, 2, false, &f) && field_is(&f, 0, "rules")) {
		long long v;
		if (h->rules)
			return bad(r, at, "a second rules record");
		if (!parse_num(f.s[1], f.n[1], 1, 1000000, &v))
			return bad(r, at, "the rules version must be 1 to 1000000");
		d->rules = (int)v;
		h->rules = true;
		return REC_OK;
	}
	if (split(b, n, 2, false, &f) && field_is(&f, 0, "seed")) {
		if (h->seed)
			return bad(r, at, "a second seed record");
		if (!parse_u64(f.s[1], f.n[1], &d->seed))
			return bad(r, at, "a malformed seed");
		h->seed = true;
		return REC_OK;
	}
	if (split(b, n, 2, false, &f) && field_is(&f, 0, "check-every")) {
		long long v;
		if (h->check_every)
			return bad(r, at, "a second check-every record");
		if (!parse_num(f.s[1], f.n[1], 1, 1000000, &v))
			return bad(r, at, "check-every must be 1 to 1000000");
		d->check_every = (int)v;
		h->check_every = true;
		return REC_OK;
	}
	if (split(b, n, 2, true, &f) && field_is(&f, 0, "bestiary")) {
		if (h->bestiary)
			return bad(r, at, "a second bestiary record");
		h->bestiary = true;
		d->bestiary_name = f.rest;
		d->bestiary_text = rec->block;
		d->bestiary_len = rec->block_len;
		return REC_OK;
	}
	if (split(b, n, 2, true, &f) && field_is(&f, 0, "items")) {
		if (h->items)
			return bad(r, at, "a second items record");
		h->items = true;
		d->items_name = f.rest;
		d->items_text = rec->block;
		d->items_len = rec->block_len;
		return REC_OK;
	}
	if (split(b, n, 1, true, &f) && field_is(&f, 0, "set")) {
		if (!grow(&d->sets, &h->sets_cap, d->n_sets, sizeof *d->sets))
			return bad(r, at, "out of memory");
		d->sets[d->n_sets++] = f.rest;
		return REC_OK;
	}
	if (split(b, n, 3, false, &f) && field_is(&f, 0, "option")) {
		if (field_is(&f, 1, "ai_share")) {
			for (int i = 0; i < 3; i++)
				if (field_is(&f, 2, share_names[i])) {
					d->options.ai_share = (enum ai_share)i;
					return REC_OK;
				}
			return bad(r, at, "ai_share must be auto, never or always");
		}
		if (field_is(&f, 1, "all_hunt")) {
			if (!field_is(&f, 2, "0") && !field_is(&f, 2, "1"))
				return bad(r, at, "all_hunt must be 0 or 1");
			d->options.all_hunt = f.s[2][0] == '1';
			return REC_OK;
		}
		return bad(r, at, "unknown option '%.*s'", (int)f.n[1], f.s[1]);
	}
	if (split(b, n, 6, false, &f) && field_is(&f, 0, "segment")) {
		long long k, act, turn;
		uint64_t hash, crc;
		if (d->format < JOURNAL_FORMAT_SEGMENT)
			return bad(r, at, "a segment record in a journal of format %d", d->format);
		if (h->segment)
			return bad(r, at, "a second segment record");
		if (!parse_num(f.s[1], f.n[1], 2, 1000000, &k) || !parse_num(f.s[2], f.n[2], 1, INT64_MAX / 2, &act) ||
		    !parse_num(f.s[3], f.n[3], 0, INT32_MAX, &turn) || f.n[4] != 16 || !parse_hex(f.s[4], 16, &hash) ||
		    f.n[5] != 8 || !parse_hex(f.s[5], 8, &crc))
			return bad(r, at, "a malformed segment record");
		d->segment = (int)k;
		d->first_action = (long)act;
		d->n_actions = (long)act;
		d->first_turn = (int)turn;
		d->first_hash = hash;
		d->prev_crc = (uint32_t)crc;
		h->segment = true;
		h->segment_at = rec->start;
		h->segment_end = rec->end;
		return REC_OK;
	}
	if (split(b, n, 2, false, &f) && field_is(&f, 0, "scored")) {
		if (h->scored)
			return bad(r, at, "a second scored record");
		if (!field_is(&f, 1, "0") && !field_is(&f, 1, "1"))
			return bad(r, at, "scored must be 0 or 1");
		d->scored = f.s[1][0] == '1' ? JOURNAL_SCORED_YES : JOURNAL_SCORED_NO;
		h->scored = true;
		return REC_OK;
	}
	bool lvl = split(b, n, 2, true, &f) && field_is(&f, 0, "level");
	bool map = !lvl && split(b, n, 5, true, &f) && field_is(&f, 0, "map");
	if (lvl || map) {
		if (!grow(&d->levels, &h->levels_cap, d->n_levels, sizeof *d->levels))
			return bad(r, at, "out of memory");
		struct journal_level *lv = &d->levels[d->n_levels];
		memset(lv, 0, sizeof *lv);
		lv->name = f.rest;
		lv->text = rec->block;
		lv->len = rec->block_len;
		if (map) {
			long long m;
			lv->movingai = true;
			if (!parse_num(f.s[2], f.n[2], 0, 1000000, &m))
				return bad(r, at, "a malformed monster count");
			lv->monsters = (int)m;
			if (f.n[3] != 1 || !((f.s[3][0] >= 'a' && f.s[3][0] <= 'z') ||
					     (f.s[3][0] >= 'A' && f.s[3][0] <= 'Z')))
				return bad(r, at, "a malformed monster glyph");
			lv->glyph = f.s[3][0];
			if (!parse_u64(f.s[4], f.n[4], &lv->place_seed))
				return bad(r, at, "a malformed placement seed");
		}
		d->n_levels++;
		return REC_OK;
	}
	return bad(r, at, "unknown header record '%.*s'", (int)(strchr(b, ' ') ? strchr(b, ' ') - b : (long)n), b);
}

static enum rec body_record(struct reader *r, struct record *rec)
{
	struct journal_data *d = r->d;
	struct fields f;
	if (split(rec->body, rec->body_len, 5, false, &f) && field_is(&f, 0, "a")) {
		struct action a;
		long long dir, x, y;
		memset(&a, 0, sizeof a);
		if (f.n[1] != 1 || !kind_of_letter(f.s[1][0], &a.kind))
			return bad(r, rec->start, "unknown action kind '%.*s'", (int)f.n[1], f.s[1]);
		/* a throw at a cell keeps its pack slot where the others keep a direction */
		if (a.kind == ACT_THROW_AT) {
			if (!parse_num(f.s[2], f.n[2], -1, PACK_SLOTS - 1, &dir))
				return bad(r, rec->start, "a pack slot outside -1 to %d", PACK_SLOTS - 1);
			a.item = (int)dir;
			dir = 0;
		} else if (!parse_num(f.s[2], f.n[2], 0, 7, &dir))
			return bad(r, rec->start, "a direction outside 0 to 7");
		if (!parse_num(f.s[3], f.n[3], -COORD_LIMIT, COORD_LIMIT, &x) ||
		    !parse_num(f.s[4], f.n[4], -COORD_LIMIT, COORD_LIMIT, &y))
			return bad(r, rec->start, "a malformed cell");
		a.dir = (int)dir; /* the record stores the compass number, N = 0 to NW = 7 */
		a.x = (int)x;
		a.y = (int)y;
		d->actions[d->n_actions - d->first_action] = a;
		d->action_offsets[d->n_actions - d->first_action] = rec->start;
		d->n_actions++;
		return REC_OK;
	}
	if (split(rec->body, rec->body_len, 4, false, &f) && field_is(&f, 0, "c")) {
		long long act, turn;
		uint64_t hash;
		if (!parse_num(f.s[1], f.n[1], 0, INT64_MAX, &act) || !parse_num(f.s[2], f.n[2], 0, INT32_MAX, &turn) ||
		    f.n[3] != 16 || !parse_hex(f.s[3], 16, &hash))
			return bad(r, rec->start, "a malformed checksum record");
		if (act != d->n_actions)
			return bad(r, rec->start, "a checksum record for action %lld after %ld actions", act,
				   d->n_actions);
		if (d->n_checks > 0 && d->checks[d->n_checks - 1].action == act)
			return bad(r, rec->start, "two checksum records after action %lld", act);
		struct journal_check *c = &d->checks[d->n_checks++];
		c->action = (long)act;
		c->turn = (int)turn;
		c->hash = hash;
		c->offset = rec->start;
		c->segment = d->segment;
		return REC_OK;
	}
	return bad(r, rec->start, "unknown record '%.*s'", (int)(rec->body_len < 20 ? rec->body_len : 20), rec->body);
}

void journal_data_fini(struct journal_data *d)
{
	if (!d)
		return;
	free(d->buf);
	free(d->path);
	free(d->sets);
	free(d->levels);
	free(d->actions);
	free(d->action_offsets);
	free(d->checks);
	memset(d, 0, sizeof *d);
}

static bool reject(struct journal_data *d, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool reject(struct journal_data *d, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", d->name, msg);
	journal_data_fini(d);
	return false;
}

/*
 * journal_parse of buf, len bytes and a NUL after them, which it owns from
 * here (d->buf, freed with d): the names are cut out of it in place, so a
 * file read is parsed where it was read, not copied (16 MB and 4,000 page
 * faults on a 4096x4096 level).
 */
static bool parse_buf(const char *name, char *buf, size_t len, struct journal_data *out, char *err, size_t errlen)
{
	struct journal_data *d = out;
	memset(d, 0, sizeof *d);
	d->buf = buf;
	d->size = len;
	const char *bytes = buf;
	snprintf(d->name, sizeof d->name, "%s", name);
	if (len > JOURNAL_MAX_BYTES)
		return reject(d, err, errlen, "too large to be a journal (%zu bytes)", len);
	static const char magic[] = "astray-journal ";
	if (len < sizeof magic - 1 || memcmp(bytes, magic, sizeof magic - 1) != 0)
		return reject(d, err, errlen, "not an astray journal (it does not start with \"astray-journal\")");
	/* the version before anything else: a newer format may frame records differently */
	long long version = 0;
	size_t i = sizeof magic - 1;
	while (i < len && i < 40 && bytes[i] >= '0' && bytes[i] <= '9') {
		/* saturate: a 20-digit version is simply too new, not an overflow */
		int digit = bytes[i++] - '0';
		version = version > (LLONG_MAX - digit) / 10 ? LLONG_MAX : version * 10 + digit;
	}
	if (i == sizeof magic - 1 || (i < len && bytes[i] != ' '))
		return reject(d, err, errlen, "byte %zu: a malformed format version", i);
	if (version > JOURNAL_FORMAT)
		return reject(d, err, errlen,
			      "journal format %lld is newer than this program reads (format %d): "
			      "replay it with the astray that wrote it",
			      version, JOURNAL_FORMAT);
	if (version < 1)
		return reject(d, err, errlen, "journal format %lld does not exist", version);

	d->format = (int)version;
	d->rules = 1; /* journals from before the record were all version 1 */
	d->segment = 1;
	d->loaded_from = 1;
	d->options.ai_share = AI_SHARE_AUTO;

	struct reader r = { .d = d, .raw = true };
	struct record rec;
	struct header_state h;
	memset(&h, 0, sizeof h);
	/* the header's CRC (of its bytes as read: d->buf is cut up in place)
	 * and the game's (the header but its first line, the format, and its
	 * segment record, which are all a rollover changes), joined from the
	 * records' raw CRCs */
	uint32_t header_crc = 0, game_crc = 0;
	enum rec st = read_record(&r, &rec);
	if (st == REC_OK) {
		struct fields f;
		header_crc = rec.raw_crc;
		if (!split(rec.body, rec.body_len, 2, false, &f))
			st = bad(&r, 0, "a malformed first record");
	}
	/* the header, up to `play` (the loop ends with REC_OK only there) */
	while (st == REC_OK) {
		st = read_record(&r, &rec);
		if (st != REC_OK)
			break;
		header_crc = crc_join(header_crc, rec.raw_crc, rec.end - rec.start);
		if (strcmp(rec.body, "play") == 0) {
			game_crc = crc_join(game_crc, rec.raw_crc, rec.end - rec.start);
			break;
		}
		const bool was_segment = h.segment;
		st = header_record(&r, &rec, &h);
		if (!(h.segment && !was_segment))
			game_crc = crc_join(game_crc, rec.raw_crc, rec.end - rec.start);
	}
	r.raw = false;
	if (st == REC_INCOMPLETE)
		return reject(d, err, errlen,
			      "the file ends inside its header (byte %zu of %zu): the game was never completely "
			      "saved",
			      r.pos, len);
	if (st == REC_BAD)
		return reject(d, err, errlen, "byte %zu: damaged header: %s", r.at, r.msg);
	const char *missing = !h.program ? "program" : !h.seed ? "seed" : !h.check_every ? "check-every"
			    : !h.bestiary ? "bestiary" : d->n_levels == 0 ? "level"
			    : d->format >= JOURNAL_FORMAT_SEGMENT && !h.segment ? "segment" : NULL;
	if (missing)
		return reject(d, err, errlen, "byte %zu: the header has no %s record", rec.start, missing);
	d->header_end = r.pos;
	d->header_crc = header_crc;
	d->game_crc = game_crc;
	d->loaded_from = d->segment;
	d->segment_at = h.segment ? h.segment_at : 0;
	d->segment_end = h.segment ? h.segment_end : 0;

	/* the records: counted first, so the arrays are exactly as large as the file allows */
	long n_a = 0, n_c = 0;
	for (size_t p = d->header_end; p + 1 < len;) {
		if (d->buf[p] == 'a' && d->buf[p + 1] == ' ')
			n_a++;
		else if (d->buf[p] == 'c' && d->buf[p + 1] == ' ')
			n_c++;
		char *nl = memchr(d->buf + p, '\n', len - p);
		if (!nl)
			break;
		p = (size_t)(nl - d->buf) + 1;
	}
	d->actions = malloc((size_t)(n_a + 1) * sizeof *d->actions);
	d->action_offsets = malloc((size_t)(n_a + 1) * sizeof *d->action_offsets);
	d->checks = malloc((size_t)(n_c + 1) * sizeof *d->checks);
	if (!d->actions || !d->action_offsets || !d->checks)
		return reject(d, err, errlen, "out of memory");
	d->good_end = r.pos;
	while (r.pos < len) {
		st = read_record(&r, &rec);
		if (st == REC_OK)
			st = body_record(&r, &rec);
		if (st != REC_OK)
			break;
		d->good_end = r.pos;
	}
	d->tail = JOURNAL_TAIL_CLEAN;
	if (st == REC_INCOMPLETE) {
		d->tail = JOURNAL_TAIL_TORN;
		snprintf(d->tail_msg, sizeof d->tail_msg,
			 "byte %zu: the file ends inside a record (%zu bytes of it): a write was cut short",
			 d->good_end, len - d->good_end);
	} else if (st == REC_BAD) {
		d->tail = JOURNAL_TAIL_DAMAGED;
		snprintf(d->tail_msg, sizeof d->tail_msg, "byte %zu: damaged record after action %ld: %.200s", r.at,
			 d->n_actions, r.msg);
	}
	return true;
}

bool journal_parse(const char *name, const char *bytes, size_t len, struct journal_data *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (len > JOURNAL_MAX_BYTES) { /* refused before a copy is made */
		snprintf(err, errlen, "%.255s: too large to be a journal (%zu bytes)", name, len);
		return false;
	}
	char *buf = big_malloc(len + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory (%zu bytes)", name, len);
		return false;
	}
	memcpy(buf, bytes, len);
	buf[len] = '\0';
	return parse_buf(name, buf, len, out, err, errlen);
}

bool journal_read_file(const char *path, struct journal_data *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	size_t len;
	char *text = savefile_read(path, JOURNAL_MAX_BYTES, &len, err, errlen);
	if (!text)
		return false;
	bool ok = parse_buf(path, text, len, out, err, errlen); /* text is d->buf from here */
	if (ok && !(out->path = strdup(path))) {
		journal_data_fini(out);
		snprintf(err, errlen, "%s: out of memory", path);
		return false;
	}
	return ok;
}

#define PEEK_BYTES 4096

/* The number after `key` at the start of a header line of buf (the
 * NUL-ended start of a journal), looked for before the first block (the
 * bestiary's, whose text may hold anything) and before `play`; -1 when
 * there is none. */
static long peek_header_number(const char *buf, const char *key)
{
	size_t klen = strlen(key);
	for (const char *line = buf; *line; ) {
		if (strncmp(line, "play ", 5) == 0 || strncmp(line, "bestiary ", 9) == 0)
			return -1;
		if (strncmp(line, key, klen) == 0 && line[klen] >= '0' && line[klen] <= '9')
			return strtol(line + klen, NULL, 10);
		const char *nl = strchr(line, '\n');
		if (!nl)
			return -1;
		line = nl + 1;
	}
	return -1;
}

/* The game turn of the last whole `c A T ...` line of tail (NUL-ended),
 * or -1.  A line at tail's very start counts only when tail starts the
 * file (from_start): otherwise it may be the end of another record. */
static long peek_last_turn(const char *tail, size_t n, bool from_start)
{
	for (size_t i = n; i-- > 0;) {
		if (tail[i] != 'c' || tail[i + 1] != ' ' || (i > 0 ? tail[i - 1] != '\n' : !from_start) ||
		    !strchr(tail + i, '\n'))
			continue;
		char *e;
		errno = 0;
		long a = strtol(tail + i + 2, &e, 10);
		if (e == tail + i + 2 || *e != ' ' || a < 0 || errno)
			continue;
		const char *t0 = e + 1;
		long t = strtol(t0, &e, 10);
		if (e == t0 || *e != ' ' || t < 0 || errno)
			continue;
		return t;
	}
	return -1;
}

/* journal_peek of a file's first bytes and last bytes (each at most
 * PEEK_BYTES; tail_from_start: the last bytes are the whole file). */
static bool peek_windows(const char *head, size_t head_len, const char *tail, size_t tail_len, bool tail_from_start,
			 int *rules, long *turn)
{
	char h[PEEK_BYTES + 1], t[PEEK_BYTES + 1];
	memcpy(h, head, head_len);
	h[head_len] = '\0';
	memcpy(t, tail, tail_len);
	t[tail_len] = '\0';
	*rules = 1;
	*turn = -1;
	if (strncmp(h, "astray-journal ", 15) != 0)
		return false;
	long r = peek_header_number(h, "rules ");
	if (r > 0 && r <= INT_MAX)
		*rules = (int)r;
	*turn = peek_last_turn(t, tail_len, tail_from_start);
	return true;
}

bool journal_peek_text(const char *bytes, size_t len, int *rules, long *turn)
{
	size_t n = len < PEEK_BYTES ? len : PEEK_BYTES;
	return peek_windows(bytes, n, bytes + len - n, n, len <= PEEK_BYTES, rules, turn);
}

bool journal_peek(const char *path, int *rules, long *turn)
{
	*rules = 1;
	*turn = -1;
	/* O_NONBLOCK and a regular file only: a FIFO in the save's place must
	 * not hang the title (a read of one waits for a writer) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return false;
	struct stat st;
	char head[PEEK_BYTES], tail[PEEK_BYTES];
	ssize_t hn = -1, tn = 0;
	off_t from = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		hn = pread(fd, head, sizeof head, 0);
		from = st.st_size > PEEK_BYTES ? st.st_size - PEEK_BYTES : 0;
		tn = st.st_size > 0 ? pread(fd, tail, (size_t)(st.st_size - from), from) : 0;
	}
	close(fd);
	if (hn < 0 || tn < 0)
		return false;
	return peek_windows(head, (size_t)hn, tail, (size_t)tn, from == 0, rules, turn);
}

/* ---- rebuilding and replaying ------------------------------------------- */

void journal_game_fini(struct journal_game *jg)
{
	if (!jg)
		return;
	game_destroy(jg->game);
	for (int i = 0; i < jg->n_levels; i++)
		level_destroy(jg->levels[i]);
	free(jg->levels);
	memset(jg, 0, sizeof *jg);
}

/* The first error of diags as "journal: file:line:col: message". */
static void first_error(const struct journal_data *d, const struct diag_list *diags, const char *what, char *err,
			size_t errlen)
{
	for (int i = 0; i < diags->n; i++)
		if (diags->items[i].severity == DIAG_ERROR) {
			char line[900];
			diag_format(&diags->items[i], line, sizeof line);
			snprintf(err, errlen, "%s: the recorded %s does not load: %s", d->name, what, line);
			return;
		}
	snprintf(err, errlen, "%s: the recorded %s does not load (out of memory?)", d->name, what);
}

bool journal_rules_match(const struct journal_data *d, char *err, size_t errlen)
{
	if (d->rules == GAME_RULES)
		return true;
	snprintf(err, errlen,
		 "%s: it was played under rules version %d (astray %s) and this astray plays rules version %d: "
		 "replay it with the astray that wrote it",
		 d->name, d->rules, d->program ? d->program : "?", GAME_RULES);
	return false;
}

bool journal_start(const struct journal_data *d, struct journal_game *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (!journal_rules_match(d, err, errlen))
		return false;
	struct diag_list diags = { 0 };
	if (!bestiary_parse(d->bestiary_name, d->bestiary_text, d->bestiary_len, &out->bestiary, &diags)) {
		first_error(d, &diags, "bestiary", err, errlen);
		diag_list_fini(&diags);
		return false;
	}
	diag_list_fini(&diags);
	if (d->items_text &&
	    !items_parse(d->items_name, d->items_text, d->items_len, &out->bestiary.items, &diags)) {
		first_error(d, &diags, "item catalogue", err, errlen);
		diag_list_fini(&diags);
		return false;
	}
	diag_list_fini(&diags);
	for (int i = 0; i < d->n_sets; i++) {
		char msg[256];
		if (!bestiary_set(&out->bestiary, d->sets[i], msg, sizeof msg)) {
			snprintf(err, errlen, "%s: the recorded override %s no longer applies: %s", d->name, d->sets[i],
				 msg);
			return false;
		}
	}
	out->levels = calloc((size_t)d->n_levels, sizeof *out->levels);
	if (!out->levels) {
		snprintf(err, errlen, "%s: out of memory", d->name);
		return false;
	}
	for (int i = 0; i < d->n_levels; i++) {
		const struct journal_level *jl = &d->levels[i];
		struct level *lv = jl->movingai
			? level_from_movingai(jl->name, jl->text, jl->len, jl->place_seed, jl->monsters, jl->glyph,
					      &diags)
			: level_parse(jl->name, jl->text, jl->len, &out->bestiary, &diags);
		if (!lv || diags.errors) {
			level_destroy(lv);
			first_error(d, &diags, "level", err, errlen);
			diag_list_fini(&diags);
			journal_game_fini(out);
			return false;
		}
		diag_list_fini(&diags);
		out->levels[out->n_levels++] = lv;
	}
	out->game = game_create((const struct level *const *)out->levels, out->n_levels, &out->bestiary, d->seed);
	if (!out->game) {
		snprintf(err, errlen, "%s: out of memory creating the game", d->name);
		journal_game_fini(out);
		return false;
	}
	out->game->ai.share = d->options.ai_share;
	out->game->ai.all_hunt = d->options.all_hunt;
	return true;
}

/*
 * A program before the stop record (`a x`, ACT_STOP) stopped travel, rest,
 * autoexplore or a run outside the journal when a key was pressed during
 * it, and a checksum written then (at a quit) is of the state with travel
 * stopped.  When g is travelling and stopping it gives the recorded hash,
 * that stop is what happened: it is made, and true.  Any other difference
 * still differs (g is left as it was).
 */
static bool stopped_outside(struct game *g, uint64_t recorded)
{
	if (!g->travel.active)
		return false;
	const enum travel_stop why = g->travel.stopped;
	game_travel_cancel(g);
	if (game_hash(g) == recorded)
		return true;
	g->travel.active = true;
	g->travel.stopped = why;
	return false;
}

/* Applies actions [from, upto) to g (which is the state after `from`
 * actions), checking every checksum record from the one at `from` on. */
static bool replay_range(const struct journal_data *d, struct game *g, long from, long upto, struct journal_replay *r,
			 char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->drift = -1;
	r->actions = from;
	r->good_action = from;
	long n = upto < 0 || upto > d->n_actions ? d->n_actions : upto;
	long lo = 0, hi = d->n_checks; /* the first checksum at or after `from` */
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (d->checks[mid].action < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	long ci = lo;
	for (long i = from;; i++) {
		for (; ci < d->n_checks && d->checks[ci].action == i; ci++) {
			const struct journal_check *c = &d->checks[ci];
			uint64_t h = game_hash(g);
			if (g->turn == c->turn && (h == c->hash || stopped_outside(g, c->hash))) {
				r->checks++;
				r->good_action = i;
				continue;
			}
			r->drift = ci;
			char where[300];
			if (c->segment != d->segment)
				snprintf(where, sizeof where, "%.200s%s%d", d->name, JOURNAL_SEGMENT_SUFFIX, c->segment);
			else
				snprintf(where, sizeof where, "%s", d->name);
			if (i == 0)
				snprintf(err, errlen,
					 "%s: byte %zu: the game differs from its start (turn %d hash %016" PRIx64
					 " recorded, %d %016" PRIx64 " now): this program loads the recorded levels "
					 "or bestiary differently from the one that wrote it (%s)",
					 where, c->offset, c->turn, c->hash, g->turn, h, d->program);
			else
				snprintf(err, errlen,
					 "%s: byte %zu: replay drifts at action %ld (game turn %d): recorded turn %d "
					 "hash %016" PRIx64 ", replayed turn %d hash %016" PRIx64
					 "; the game first differs in actions %ld to %ld (written by astray %s)",
					 where, c->offset, i, g->turn, c->turn, c->hash, g->turn, h,
					 r->good_action + 1, i, d->program);
			return false;
		}
		if (i >= n)
			break;
		game_act(g, &d->actions[i - d->first_action]);
		r->actions++;
	}
	return true;
}

bool journal_replay(const struct journal_data *d, struct game *g, long upto, struct journal_replay *r, char *err,
		    size_t errlen)
{
	if (d->first_action > 0) {
		memset(r, 0, sizeof *r);
		r->drift = -1;
		snprintf(err, errlen, "%s: segment %d of a game: its %ld actions before are in the segments before it "
				      "(journal_read_chain)", d->name, d->segment, d->first_action);
		return false;
	}
	return replay_range(d, g, 0, upto, r, err, errlen);
}

bool journal_replay_all(struct journal_data *d, struct game *g, long upto, struct journal_replay *r, char *err,
			size_t errlen)
{
	if (!journal_read_chain(d, err, errlen)) {
		memset(r, 0, sizeof *r);
		r->drift = -1;
		return false;
	}
	return journal_replay(d, g, upto, r, err, errlen);
}

bool journal_segment_path(const char *journal, int k, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s%s%d", journal, JOURNAL_SEGMENT_SUFFIX, k);
	return n > 0 && (size_t)n < size;
}

/* Puts the arrays of s (the segment just before d's first in memory) in
 * front of d's; d's first checksum, which repeats s's last, is dropped. */
static bool chain_merge(struct journal_data *d, const struct journal_data *s)
{
	long na = s->n_actions - s->first_action, nb = d->n_actions - d->first_action;
	long skip = d->n_checks > 0 && d->checks[0].action == d->first_action ? 1 : 0;
	long nc = s->n_checks + d->n_checks - skip;
	struct action *a = malloc((size_t)(na + nb + 1) * sizeof *a);
	size_t *o = malloc((size_t)(na + nb + 1) * sizeof *o);
	struct journal_check *c = malloc((size_t)(nc + 1) * sizeof *c);
	if (!a || !o || !c) {
		free(a);
		free(o);
		free(c);
		return false;
	}
	if (na > 0) {
		memcpy(a, s->actions, (size_t)na * sizeof *a);
		memcpy(o, s->action_offsets, (size_t)na * sizeof *o);
	}
	if (nb > 0) {
		memcpy(a + na, d->actions, (size_t)nb * sizeof *a);
		memcpy(o + na, d->action_offsets, (size_t)nb * sizeof *o);
	}
	if (s->n_checks > 0)
		memcpy(c, s->checks, (size_t)s->n_checks * sizeof *c);
	if (d->n_checks - skip > 0)
		memcpy(c + s->n_checks, d->checks + skip, (size_t)(d->n_checks - skip) * sizeof *c);
	free(d->actions);
	free(d->action_offsets);
	free(d->checks);
	d->actions = a;
	d->action_offsets = o;
	d->checks = c;
	d->n_checks = nc;
	d->first_action = s->first_action;
	d->loaded_from = s->segment;
	return true;
}

bool journal_read_chain(struct journal_data *d, char *err, size_t errlen)
{
	if (d->loaded_from <= 1)
		return true;
	if (!d->path) {
		snprintf(err, errlen, "%s: segment %d of a game, read from memory: its segments before cannot be found",
			 d->name, d->segment);
		return false;
	}
	/* what the segment before the first one in memory must be */
	uint32_t want_crc = d->prev_crc;
	int want_turn = d->first_turn;
	uint64_t want_hash = d->first_hash;
	while (d->loaded_from > 1) {
		int k = d->loaded_from - 1;
		long want_end = d->first_action;
		char seg[4200], msg[DIAG_ERR_LEN];
		if (!journal_segment_path(d->path, k, seg, sizeof seg)) {
			snprintf(err, errlen, "%s: file name too long for its segments", d->name);
			return false;
		}
		struct journal_data s;
		if (!journal_read_file(seg, &s, msg, sizeof msg)) {
			snprintf(err, errlen, "%s: segment %d of this game cannot be read: %s", d->name, k, msg);
			return false;
		}
		const char *why = NULL;
		if (s.segment != k)
			why = "it is another segment";
		else if (s.game_crc != d->game_crc)
			why = "it belongs to another game";
		else if (s.header_crc != want_crc)
			why = "it is not the segment the next one follows (another copy of it?)";
		else if (s.tail != JOURNAL_TAIL_CLEAN)
			why = s.tail_msg;
		else if (s.n_actions != want_end)
			why = "it does not end where the next segment begins";
		else if (s.n_checks == 0 || s.checks[s.n_checks - 1].action != want_end ||
			 s.checks[s.n_checks - 1].turn != want_turn || s.checks[s.n_checks - 1].hash != want_hash)
			why = "its last checksum is not the state the next segment begins from";
		if (why) {
			snprintf(err, errlen, "%s: segment %d of this game is not usable (%.300s): %.1000s", d->name, k,
				 why, seg);
			journal_data_fini(&s);
			return false;
		}
		if (!chain_merge(d, &s)) {
			journal_data_fini(&s);
			snprintf(err, errlen, "%s: out of memory reading its segments", d->name);
			return false;
		}
		want_crc = s.prev_crc;
		want_turn = s.first_turn;
		want_hash = s.first_hash;
		journal_data_fini(&s);
	}
	return true;
}

/* The checksum record at exactly `action`, or NULL. */
static const struct journal_check *check_at(const struct journal_data *d, long action)
{
	long lo = 0, hi = d->n_checks;
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (d->checks[mid].action < action)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n_checks && d->checks[lo].action == action ? &d->checks[lo] : NULL;
}

/* Puts the snapshot at snap into jg->game when it belongs to d; false with why otherwise. */
static bool snapshot_use(const struct journal_data *d, struct journal_game *jg, const char *snap, long *from,
			 char *why, size_t whylen)
{
	size_t len;
	char err[DIAG_ERR_LEN];
	char *bytes = savefile_read(snap, SNAPSHOT_MAX_BYTES, &len, err, sizeof err);
	if (!bytes) {
		snprintf(why, whylen, "%s", err);
		return false;
	}
	struct snapshot_head h;
	bool ok = snapshot_parse(bytes, len, &h, err, sizeof err);
	const struct journal_check *c = ok ? check_at(d, h.action) : NULL;
	if (!ok)
		snprintf(why, whylen, "%s: %s", snap, err);
	else if (h.header_crc != d->header_crc)
		snprintf(why, whylen, "%s: it belongs to another game", snap);
	else if (!c || c->turn != h.turn || c->hash != h.hash)
		snprintf(why, whylen, "%s: the journal has no checksum for action %ld that matches it", snap,
			 h.action);
	else if (!game_state_load(jg->game, bytes + h.state_at, h.state_len, err, sizeof err))
		snprintf(why, whylen, "%s: %s", snap, err);
	else if (game_hash(jg->game) != h.hash || jg->game->turn != h.turn)
		snprintf(why, whylen, "%s: its state does not hash to its checksum (made by another program?)",
			 snap);
	else {
		free(bytes);
		*from = h.action;
		return true;
	}
	free(bytes);
	return false;
}

bool journal_resume(struct journal_data *d, struct journal_game *jg, const char *snap, long upto,
		    struct journal_replay *r, long *from, char *note, size_t notelen, char *err, size_t errlen)
{
	*from = 0;
	note[0] = '\0';
	if (snap && access(snap, F_OK) == 0 &&
	    !snapshot_use(d, jg, snap, from, note, notelen)) {
		/* the game may be half loaded: start again from the header */
		*from = 0;
		journal_game_fini(jg);
		if (!journal_start(d, jg, err, errlen))
			return false;
	}
	if (upto >= 0 && upto < *from) {
		/* the snapshot is past where the caller wants to stop */
		journal_game_fini(jg);
		*from = 0;
		if (!journal_start(d, jg, err, errlen))
			return false;
	}
	if (*from < d->first_action && !journal_read_chain(d, err, errlen)) {
		/* the whole game must be replayed: the segments before this one too */
		memset(r, 0, sizeof *r);
		r->drift = -1;
		return false;
	}
	return replay_range(d, jg->game, *from, upto, r, err, errlen);
}

/* ---- writing ------------------------------------------------------------ */

/*
 * A snapshot written on a thread of its own (journal_snapshots_background):
 * the key captures the state (game_state_capture) and starts the thread,
 * which saves it from the copy, takes its CRC and writes the file
 * (snapshot_write_copy: temporary file, fsync, rename, fsync of the
 * folder).  The thread touches only this job, the copy and the journal's
 * snapshot buffer; the journal reads its result once it is joined
 * (snap_reap).  At most one runs: it is joined before the next snapshot,
 * a rollover, a level change's flag, at quit and at close.
 *
 * On a snapshot key that is not also a boundary (a level change, the
 * game's end, a rollover, the cap), the checksum is the writer's too
 * (`defer`, snapshot_deferred): the key appends its action, captures the
 * state and starts the thread, which hashes the copy, appends the
 * checksum record and syncs the journal, and only then makes and writes
 * the snapshot (a snapshot is used only with its checksum in the
 * journal: renamed before, a kill would leave a snapshot no resume
 * takes, in place of the old one that it could).  The game's thread
 * writes nothing to the journal meanwhile: its next record, sync, join or
 * close first waits for the writer's append (`appended`, under `lock`)
 * and takes its outcome (check_flush), so the checksum stays right after
 * its action and the file is the one written in line, byte for byte.
 */
struct snap_job {
	pthread_t thread;
	bool running;             /* started, not yet joined */
	atomic_bool done;         /* the thread has finished */
	struct game_state_copy *copy;
	struct snapshot_buf *buf; /* the journal's snap_buf */
	struct savefile_io io;
	char path[4096 + 8];
	uint32_t header_crc;
	long action;
	uint64_t hash;
	size_t max;
	bool ok, written, too_large; /* the result */
	char msg[4600];
	/* the checksum taken and appended by the writer (defer) */
	bool defer;
	int turn;                 /* the checksum's turn */
	int journal_fd;           /* the journal, appended to and synced by the writer before the snapshot */
	pthread_mutex_t lock;     /* guards appended and what follows it */
	pthread_cond_t cond;      /* signalled when appended is set */
	bool appended;            /* the writer's append is over: */
	bool append_ok;           /* the record is in the file (line_len bytes); else: */
	int append_errno;         /* why not, */
	size_t append_done;       /* after how many of its bytes */
	size_t line_len;
	bool synced, sync_failed; /* the journal's fsync after it */
	int sync_errno;
};

struct journal {
	int fd;
	char path[4096];
	struct savefile_io io;
	int check_every, sync_every;
	long n_actions;           /* action records in the file */
	long last_check;          /* n_actions at the newest checksum record; -1 none */
	long since_sync;          /* records appended since the last fsync */
	long durable;             /* n_actions at the last successful fsync */
	off_t size;               /* bytes of complete records in the file */
	bool failed;              /* a write or fsync failed: nothing more is appended */
	char failure[4800];       /* the message every call repeats once failed */
	uint32_t header_crc;      /* journal_data.header_crc of this file */
	int snap_every;           /* actions between snapshots; 0: none are written */
	long last_snap;           /* n_actions at the newest snapshot written (or found) */
	long long snap_work;      /* monster turns (monsters + 1 an action) since then: what replaying them costs */
	long long snap_work_max;  /* a snapshot at the first checksum past it (SNAPSHOT_WORK) */
	bool snap_due;            /* write one at the next action (a resume replayed too much to wait) */
	bool snap_failed;         /* the newest snapshot write failed (snap_problem); cleared by the next success */
	char reason[96];          /* failed: the system's word for why (strerror), for a short notice */
	char snap_problem[4800];
	size_t max_bytes;         /* the file never grows past it: JOURNAL_MAX_BYTES, the reader's cap */
	size_t snap_max;          /* a snapshot's cap (0: SNAPSHOT_MAX_BYTES, its reader's) */
	bool snap_too_large;      /* this level's state is over it: no more tries until the level changes */
	struct snapshot_buf snap_buf; /* where snapshots are made, kept from one to the next */
	bool snap_bg;             /* snapshots written by a thread of their own (journal_snapshots_background) */
	struct snap_job *job;     /* its job (NULL until the first) */
	long hash_at;             /* n_actions when last_hash was appended as a checksum here; -1 none */
	uint64_t last_hash;       /* that checksum's hash: the snapshot taken right after it needs it again */
	bool check_pending;       /* the checksum at last_check is the writer's, not yet taken in here */
	size_t pending_bytes;     /* that record's length */
	long sync_gen;            /* journal_sync calls that succeeded */
	long flush_gen, flush_since, flush_actions; /* sync_gen, since_sync, n_actions once it was taken in */
	long hash_checks, hash_waits; /* deferred checksums appended; of which the hash was not ready */
	double hash_wait_us, hash_wait_max_us; /* wall time the game's thread waited for them */
	int segment;              /* the file's segment number (1: the game's first file) */
	size_t header_end;        /* the file's header: [0, header_end) */
	size_t segment_at, segment_end; /* its segment record ([0, 0): none) */
	size_t seg_bytes;         /* records after the header before a rollover (0: segments off) */
	off_t roll_retry;         /* a rollover failed: not tried again below this size */
	char roll_problem[DIAG_ERR_LEN]; /* why it failed ("" when it did not) */
};

/* A growable text buffer for the header. */
struct text {
	char *s;
	size_t n, cap;
	bool oom;
};

static void text_add(struct text *t, const void *p, size_t n)
{
	if (t->oom)
		return;
	if (t->n + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (t->n + n + 1 > cap)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->oom = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
	memcpy(t->s + t->n, p, n);
	t->n += n;
	t->s[t->n] = '\0';
}

/* Adds "body CRC\n" and the block (may be NULL) with its final '\n'. */
static void text_record(struct text *t, const char *body, size_t n, const char *block, size_t block_len)
{
	uint32_t crc = crc_update(0, body, n);
	if (block)
		crc = crc_update(crc, block, block_len);
	char tail[16];
	int k = snprintf(tail, sizeof tail, " %08" PRIx32 "\n", crc);
	text_add(t, body, n);
	text_add(t, tail, (size_t)k);
	if (block) {
		text_add(t, block, block_len);
		text_add(t, "\n", 1);
	}
}

/* A name as a header keeps it: printable ASCII only, at most NAME_MAX_LEN bytes. */
static void clean_name(const char *name, char *out, size_t size)
{
	size_t n = 0;
	for (const char *p = name ? name : ""; *p && n + 1 < size && n < NAME_MAX_LEN; p++)
		out[n++] = (*p >= 0x20 && *p <= 0x7e) ? *p : '?';
	if (n == 0)
		out[n++] = '-';
	out[n] = '\0';
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* The header of a new journal (NULL with a message on a bad setup). */
static char *header_text(const struct journal_setup *s, const struct game *g, size_t *len, size_t *header_len,
			 char *err, size_t errlen)
{
	struct text t = { 0 };
	char body[RECORD_MAX], name[NAME_MAX_LEN + 1];
	int n;
	if (s->n_levels <= 0) {
		snprintf(err, errlen, "a journal needs at least one level");
		return NULL;
	}
	n = snprintf(body, sizeof body, "astray-journal 1"); /* a first segment: format 1, as ever */
	text_record(&t, body, (size_t)n, NULL, 0);
	clean_name(s->program, name, sizeof name);
	for (char *p = name; *p; p++)
		if (*p == ' ')
			*p = '_';
	n = snprintf(body, sizeof body, "program %s", name);
	text_record(&t, body, (size_t)n, NULL, 0);
	n = snprintf(body, sizeof body, "rules %d", GAME_RULES);
	text_record(&t, body, (size_t)n, NULL, 0);
	n = snprintf(body, sizeof body, "seed %" PRIu64, s->seed);
	text_record(&t, body, (size_t)n, NULL, 0);
	n = snprintf(body, sizeof body, "check-every %d", s->check_every > 0 ? s->check_every : JOURNAL_CHECK_EVERY);
	text_record(&t, body, (size_t)n, NULL, 0);
	clean_name(s->bestiary_name, name, sizeof name);
	n = snprintf(body, sizeof body, "bestiary %zu %s", s->bestiary_len, name);
	text_record(&t, body, (size_t)n, s->bestiary_text ? s->bestiary_text : "", s->bestiary_len);
	for (int i = 0; i < s->n_sets; i++) {
		if (!printable(s->sets[i]) || !s->sets[i][0] || strlen(s->sets[i]) > RECORD_MAX - 16) {
			snprintf(err, errlen, "override '%s' cannot be recorded (printable ASCII, short)", s->sets[i]);
			free(t.s);
			return NULL;
		}
		n = snprintf(body, sizeof body, "set %s", s->sets[i]);
		text_record(&t, body, (size_t)n, NULL, 0);
	}
	if ((unsigned)s->options.ai_share > AI_SHARE_ALWAYS) {
		snprintf(err, errlen, "unknown ai_share %d", (int)s->options.ai_share);
		free(t.s);
		return NULL;
	}
	if (s->options.ai_share != AI_SHARE_AUTO) {
		n = snprintf(body, sizeof body, "option ai_share %s", share_names[s->options.ai_share]);
		text_record(&t, body, (size_t)n, NULL, 0);
	}
	if (s->options.all_hunt) {
		n = snprintf(body, sizeof body, "option all_hunt 1");
		text_record(&t, body, (size_t)n, NULL, 0);
	}
	if (s->scored != JOURNAL_SCORED_UNKNOWN) {
		n = snprintf(body, sizeof body, "scored %d", s->scored == JOURNAL_SCORED_YES);
		text_record(&t, body, (size_t)n, NULL, 0);
	}
	if (g) {
		/* the game's item catalogue as it plays (after the overrides),
		 * written out whole: a replay parses it back */
		size_t need = items_describe(&g->bestiary.items, NULL, 0);
		char *cat = malloc(need + 1);
		if (!cat) {
			snprintf(err, errlen, "out of memory");
			free(t.s);
			return NULL;
		}
		items_describe(&g->bestiary.items, cat, need + 1);
		n = snprintf(body, sizeof body, "items %zu catalogue", need);
		text_record(&t, body, (size_t)n, cat, need);
		free(cat);
	}
	for (int i = 0; i < s->n_levels; i++) {
		const struct journal_level *lv = &s->levels[i];
		clean_name(lv->name, name, sizeof name);
		if (lv->movingai) {
			char glyph = lv->glyph;
			if (!((glyph >= 'a' && glyph <= 'z') || (glyph >= 'A' && glyph <= 'Z')) || lv->monsters < 0 ||
			    lv->monsters > 1000000) {
				snprintf(err, errlen, "%s: bad placement parameters", name);
				free(t.s);
				return NULL;
			}
			n = snprintf(body, sizeof body, "map %zu %d %c %" PRIu64 " %s", lv->len, lv->monsters, glyph,
				     lv->place_seed, name);
		} else {
			n = snprintf(body, sizeof body, "level %zu %s", lv->len, name);
		}
		text_record(&t, body, (size_t)n, lv->text ? lv->text : "", lv->len);
	}
	text_record(&t, "play", 4, NULL, 0);
	*header_len = t.n;
	if (g) {
		n = snprintf(body, sizeof body, "c 0 %d %016" PRIx64, g->turn, game_hash(g));
		text_record(&t, body, (size_t)n, NULL, 0);
	}
	if (t.oom || t.n > JOURNAL_MAX_BYTES / 2) {
		snprintf(err, errlen, t.oom ? "out of memory" : "the levels are too large to record");
		free(t.s);
		return NULL;
	}
	*len = t.n;
	return t.s;
}

static struct journal *journal_new(const char *path, const struct savefile_io *io, char *err, size_t errlen)
{
	struct journal *j = calloc(1, sizeof *j);
	if (!j) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	if (snprintf(j->path, sizeof j->path, "%s", path) >= (int)sizeof j->path) {
		snprintf(err, errlen, "%s: file name too long", path);
		free(j);
		return NULL;
	}
	if (io)
		j->io = *io;
	j->max_bytes = JOURNAL_MAX_BYTES;
	j->snap_work_max = SNAPSHOT_WORK;
	j->fd = -1;
	j->last_check = -1;
	j->hash_at = -1;
	return j;
}

/* Opens the file for appending and learns its size. */
static bool journal_open_fd(struct journal *j, char *err, size_t errlen)
{
	/* O_NONBLOCK: a FIFO put in the file's place must not hang the game
	 * (it is refused below) */
	j->fd = open(j->path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (j->fd < 0) {
		snprintf(err, errlen, "%s: cannot open to append: %s", j->path, strerror(errno));
		return false;
	}
	struct stat st;
	int flags = fcntl(j->fd, F_GETFL);
	bool ok = fstat(j->fd, &st) == 0 && flags >= 0;
	if (!ok)
		snprintf(err, errlen, "%s: cannot open to append: %s", j->path, strerror(errno));
	else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: cannot append: not a regular file (%s)", j->path,
			 savefile_kind(st.st_mode));
		ok = false;
	} else if (fcntl(j->fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		snprintf(err, errlen, "%s: cannot open to append: %s", j->path, strerror(errno));
		ok = false;
	}
	if (!ok) {
		close(j->fd);
		j->fd = -1;
		return false;
	}
	j->size = lseek(j->fd, 0, SEEK_END);
	if (j->size < 0) {
		snprintf(err, errlen, "%s: %s", j->path, strerror(errno));
		close(j->fd);
		j->fd = -1;
		return false;
	}
	return true;
}

struct journal *journal_create(const char *path, const struct journal_setup *s, const struct game *g, char *err,
			       size_t errlen)
{
	struct journal *j = journal_new(path, s->io, err, errlen);
	if (!j)
		return NULL;
	j->check_every = s->check_every > 0 ? s->check_every : JOURNAL_CHECK_EVERY;
	j->sync_every = s->sync_every > 0 ? s->sync_every : JOURNAL_SYNC_EVERY;
	size_t len, header_len = 0;
	char msg[400];
	char *text = header_text(s, g, &len, &header_len, msg, sizeof msg);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, msg);
		free(j);
		return NULL;
	}
	j->header_crc = text ? crc_update(0, text, header_len) : 0;
	bool ok = savefile_write_atomic(s->io, path, text, len, false, err, errlen);
	free(text);
	if (!ok || !journal_open_fd(j, err, errlen)) {
		free(j);
		return NULL;
	}
	j->last_check = g ? 0 : -1;
	j->segment = 1;
	j->header_end = header_len;
	return j;
}

struct journal *journal_open_append(const char *path, const struct journal_data *d, const struct savefile_io *io,
				    char *err, size_t errlen)
{
	struct journal *j = journal_new(path, io, err, errlen);
	if (!j)
		return NULL;
	j->check_every = d->check_every;
	j->sync_every = JOURNAL_SYNC_EVERY;
	if (d->tail != JOURNAL_TAIL_CLEAN) {
		/* keep the file as it is, then put its good part in its place (read
		 * again: d->buf has its names cut out in place) */
		char aside[4200];
		size_t len;
		char *bytes = savefile_read(path, JOURNAL_MAX_BYTES, &len, err, errlen);
		bool ok = bytes != NULL;
		if (ok && (len != d->size || memcmp(bytes, d->buf, 16) != 0)) {
			snprintf(err, errlen, "%s: the file changed since it was read", path);
			ok = false;
		}
		ok = ok && savefile_set_aside(io, path, false, aside, sizeof aside, err, errlen) &&
		     savefile_write_atomic(io, path, bytes, d->good_end, true, err, errlen);
		free(bytes);
		if (!ok) {
			free(j);
			return NULL;
		}
	}
	if (!journal_open_fd(j, err, errlen)) {
		free(j);
		return NULL;
	}
	if ((size_t)j->size != d->good_end) {
		snprintf(err, errlen, "%s: the file changed since it was read (%lld bytes, %zu expected)", path,
			 (long long)j->size, d->good_end);
		close(j->fd);
		free(j);
		return NULL;
	}
	j->n_actions = d->n_actions;
	j->durable = d->n_actions;
	j->header_crc = d->header_crc;
	j->last_snap = d->n_actions; /* the resume started from a state at most this old */
	j->last_check = d->n_checks > 0 ? d->checks[d->n_checks - 1].action : -1;
	j->segment = d->segment;
	j->header_end = d->header_end;
	j->segment_at = d->segment_at;
	j->segment_end = d->segment_end;
	return j;
}

static bool failed(const struct journal *j, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", j->failure);
	return false;
}

static void check_flush(struct journal *j);

/* A record's line: its body, a space, the body's CRC-32 in hex, a newline. */
static int frame_record(char *line, size_t size, const char *body, size_t n)
{
	return snprintf(line, size, "%.*s %08" PRIx32 "\n", (int)n, body, crc_update(0, body, n));
}

/* The body of the checksum record after action `action`. */
static int check_body(char *body, size_t size, long action, int turn, uint64_t hash)
{
	return snprintf(body, size, "c %ld %d %016" PRIx64, action, turn, hash);
}

/*
 * Writes one record line; on failure cuts the file back and fails the
 * journal.  The file never grows past max_bytes, the most the reader
 * takes: a record that would pass it fails the journal instead ("the save
 * is full"), so no program ever says a game is saved in a file its reader
 * refuses.  An action also leaves `reserve` bytes free, room for the
 * checksum that closes the game where it stopped.
 */
static bool write_record(struct journal *j, const char *body, size_t n, size_t reserve, const char *what,
			 char *err, size_t errlen)
{
	check_flush(j); /* the writer's checksum comes first: it follows the action before */
	if (j->failed)
		return failed(j, err, errlen);
	char line[RECORD_MAX + 16];
	int k = frame_record(line, sizeof line, body, n);
	if ((size_t)j->size + (size_t)k + reserve > j->max_bytes) {
		j->failed = true;
		snprintf(j->reason, sizeof j->reason, "the save is full");
		snprintf(j->failure, sizeof j->failure,
			 "%s: the save is full: it holds actions 1 to %ld in %lld bytes, and a journal is read back "
			 "only up to %zu bytes; %s and what follows are not saved (the game up to here resumes "
			 "and replays)",
			 j->path, j->n_actions, (long long)j->size, j->max_bytes, what);
		return failed(j, err, errlen);
	}
	size_t done;
	if (savefile_write_all(&j->io, j->fd, line, (size_t)k, &done)) {
		j->size += k;
		j->since_sync++;
		return true;
	}
	int e = errno;
	bool cut = done == 0 || ftruncate(j->fd, j->size) == 0;
	j->failed = true;
	snprintf(j->reason, sizeof j->reason, "%s", strerror(e));
	snprintf(j->failure, sizeof j->failure,
		 "%s: writing %s failed: %s; the journal keeps actions 1 to %ld%s (%ld made durable)", j->path, what,
		 strerror(e), j->n_actions, cut ? "" : " and a cut record the next reader will drop", j->durable);
	return failed(j, err, errlen);
}

bool journal_append_action(struct journal *j, const struct action *a, char *err, size_t errlen)
{
	char body[96], what[64];
	int dir = (int)a->dir;
	if (dir < 0 || dir > 7)
		dir = 0; /* a direction outside the compass has no effect but a message; keep the record valid */
	int x = a->x < -COORD_LIMIT ? -COORD_LIMIT : a->x > COORD_LIMIT ? COORD_LIMIT : a->x;
	int y = a->y < -COORD_LIMIT ? -COORD_LIMIT : a->y > COORD_LIMIT ? COORD_LIMIT : a->y;
	char letter = journal_kind_letter(a->kind);
	if (letter == '?') {
		snprintf(err, errlen, "%s: unknown action kind %d", j->path, (int)a->kind);
		return false;
	}
	if (a->kind == ACT_THROW_AT) /* its pack slot in the direction's place; none is -1, as "No such item" */
		dir = a->item >= 0 && a->item < PACK_SLOTS ? a->item : -1;
	int n = snprintf(body, sizeof body, "a %c %d %d %d", letter, dir, x, y);
	snprintf(what, sizeof what, "action %ld", j->n_actions + 1);
	if (!write_record(j, body, (size_t)n, JOURNAL_CHECK_RESERVE, what, err, errlen))
		return false;
	j->n_actions++;
	return true;
}

bool journal_append_checksum(struct journal *j, const struct game *g, char *err, size_t errlen)
{
	check_flush(j); /* the writer's is in the file once this returns */
	if (j->last_check == j->n_actions)
		return j->failed ? failed(j, err, errlen) : true; /* one per action count */
	char body[96], what[64];
	uint64_t hash = game_hash(g);
	int n = check_body(body, sizeof body, j->n_actions, g->turn, hash);
	snprintf(what, sizeof what, "the checksum after action %ld", j->n_actions);
	if (!write_record(j, body, (size_t)n, 0, what, err, errlen))
		return false;
	j->last_check = j->n_actions;
	j->hash_at = j->n_actions;
	j->last_hash = hash;
	return true;
}

static bool snapshot_now(struct journal *j, const struct game *g, char *err, size_t errlen);
static void snap_reap(struct journal *j, bool wait);

bool journal_snapshot_at_stop(struct journal *j, const struct game *g, char *err, size_t errlen)
{
	if (j->failed)
		return failed(j, err, errlen);
	if (j->snap_every <= 0 || g->over || j->snap_too_large || j->last_check != j->n_actions ||
	    j->last_snap == j->n_actions) {
		snap_reap(j, true);
		return true;
	}
	bool ok = snapshot_now(j, g, err, errlen);
	snap_reap(j, true); /* the player leaves: the snapshot is on disk before the game says so */
	return ok;
}

/* A snapshot's outcome: ok (written, or not saved now), or why it failed. */
static void snapshot_done(struct journal *j, bool ok, const char *msg)
{
	j->snap_failed = !ok;
	if (!ok)
		snprintf(j->snap_problem, sizeof j->snap_problem,
			 "%s; resuming will replay the whole journal (the game itself is saved)", msg);
}

/* The deferred job's writer: the checksum's hash from the copy, its
 * record appended and the journal synced; then the snapshot. */
static void snap_write_deferred(struct snap_job *w)
{
	uint64_t hash = game_state_copy_hash(w->copy);
	char body[96], line[RECORD_MAX + 16];
	int n = check_body(body, sizeof body, w->action, w->turn, hash);
	int k = frame_record(line, sizeof line, body, (size_t)n);
	size_t done = 0;
	bool ok = savefile_write_all(&w->io, w->journal_fd, line, (size_t)k, &done);
	int e = errno;
	pthread_mutex_lock(&w->lock);
	w->hash = hash;
	w->append_ok = ok;
	w->append_errno = ok ? 0 : e;
	w->append_done = done;
	w->line_len = (size_t)k;
	w->appended = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	w->ok = true; /* nothing written: the journal's own failure is what is said */
	if (!ok)
		return;
	/* the checksum durable before the snapshot that needs it replaces the old one */
	if (!savefile_fsync(&w->io, w->journal_fd)) {
		w->sync_failed = true;
		w->sync_errno = errno;
		return;
	}
	w->synced = true;
	w->ok = snapshot_write_copy(&w->io, w->path, w->header_crc, w->action, w->copy, hash, w->buf, w->max,
				    &w->written, &w->too_large, w->msg, sizeof w->msg);
}

static void *snap_writer(void *arg)
{
	struct snap_job *w = arg;
	if (w->defer)
		snap_write_deferred(w);
	else
		w->ok = snapshot_write_copy(&w->io, w->path, w->header_crc, w->action, w->copy, w->hash, w->buf,
					    w->max, &w->written, &w->too_large, w->msg, sizeof w->msg);
	atomic_store(&w->done, true);
	return NULL;
}

/* The background snapshot's result, once its thread is joined: waiting
 * for it when wait is true (a checksum it appends is taken in first, which
 * it waits for), else only when it has finished. */
static void snap_reap(struct journal *j, bool wait)
{
	struct snap_job *w = j->job;
	if (!w || !w->running || (!wait && !atomic_load(&w->done)))
		return;
	check_flush(j); /* its checksum taken in first (over once the writer is) */
	pthread_join(w->thread, NULL);
	w->running = false;
	if (w->defer && w->sync_failed && !j->failed) {
		/* as journal_sync's: nothing since the last good fsync is trusted */
		j->failed = true;
		snprintf(j->reason, sizeof j->reason, "%s", strerror(w->sync_errno));
		snprintf(j->failure, sizeof j->failure, "%s: fsync failed: %s; actions after %ld may be lost", j->path,
			 strerror(w->sync_errno), j->durable);
	} else if (w->defer && w->synced && j->sync_gen == j->flush_gen) {
		/* the writer's fsync made the records up to its checksum
		 * durable, as the snapshot key's own did in line */
		j->since_sync -= j->flush_since < j->since_sync ? j->flush_since : j->since_sync;
		if (j->flush_actions > j->durable)
			j->durable = j->flush_actions;
	}
	if (w->too_large)
		j->snap_too_large = true;
	snapshot_done(j, w->ok, w->msg);
}

/* The writer's job and its copy, made once (false on no memory). */
static bool snap_job_new(struct journal *j)
{
	if (j->job)
		return true;
	struct snap_job *w = calloc(1, sizeof *w);
	if (!w)
		return false;
	if (!(w->copy = game_state_copy_new())) {
		free(w);
		return false;
	}
	if (pthread_mutex_init(&w->lock, NULL) != 0) {
		game_state_copy_free(w->copy);
		free(w);
		return false;
	}
	if (pthread_cond_init(&w->cond, NULL) != 0) {
		pthread_mutex_destroy(&w->lock);
		game_state_copy_free(w->copy);
		free(w);
		return false;
	}
	j->job = w;
	return true;
}

static void snap_job_free(struct snap_job *w)
{
	if (!w)
		return;
	game_state_copy_free(w->copy);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

/* The job's fields for a snapshot of action n_actions to snap, its hash
 * given (not deferred). */
static void snap_fill(struct journal *j, struct snap_job *w, const char *snap, uint64_t hash)
{
	w->buf = &j->snap_buf;
	w->io = j->io;
	snprintf(w->path, sizeof w->path, "%s", snap);
	w->header_crc = j->header_crc;
	w->action = j->n_actions;
	w->hash = hash;
	w->max = j->snap_max;
	w->ok = w->written = w->too_large = false;
	w->msg[0] = '\0';
	w->defer = false;
	atomic_store(&w->done, false);
}

/* The writer's thread started on w: false when it cannot be. */
static bool snap_thread(struct snap_job *w)
{
	/* the writer takes no signal: play's handlers are the main thread's */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&w->thread, NULL, snap_writer, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc == 0;
}

/* Starts the writer on the state of g (the checksum just appended):
 * false with a message when it cannot be started (then nothing runs). */
static bool snap_start(struct journal *j, const struct game *g, const char *snap, bool *saved, char *msg,
		       size_t msglen)
{
	*saved = true;
	if (!snap_job_new(j)) {
		snprintf(msg, msglen, "%s: out of memory for the snapshot's copy", snap);
		return false;
	}
	struct snap_job *w = j->job;
	switch (game_state_capture(g, w->copy)) {
	case GAME_STATE_OK:
		break;
	case GAME_STATE_UNSAVABLE:
		*saved = false;
		return true;
	case GAME_STATE_NO_MEMORY:
		snprintf(msg, msglen, "%s: out of memory copying the game state", snap);
		return false;
	}
	snap_fill(j, w, snap, j->hash_at == j->n_actions ? j->last_hash : game_hash(g));
	if (!snap_thread(w)) {
		snap_writer(w); /* no thread: written here, as without the writer */
		if (w->too_large)
			j->snap_too_large = true;
		if (!w->ok)
			snprintf(msg, msglen, "%s", w->msg);
		return w->ok;
	}
	w->running = true;
	return true;
}

/*
 * The checksum a snapshot key left to the writer (snapshot_deferred),
 * taken in: before any other record (write_record), at a sync, a join of
 * the writer (snap_reap) and so at the close.  Waits for the writer's
 * append when it is not over yet (the time is counted:
 * journal_hash_waits), then counts the record in, or fails the journal as
 * write_record does when the append failed.
 */
static void check_flush(struct journal *j)
{
	if (!j->check_pending)
		return;
	j->check_pending = false;
	struct snap_job *w = j->job;
	pthread_mutex_lock(&w->lock);
	if (!w->appended) {
		double t0 = clock_us();
		while (!w->appended)
			pthread_cond_wait(&w->cond, &w->lock);
		double t = clock_us() - t0;
		j->hash_waits++;
		j->hash_wait_us += t;
		if (t > j->hash_wait_max_us)
			j->hash_wait_max_us = t;
	}
	pthread_mutex_unlock(&w->lock);
	j->hash_checks++;
	if (w->append_ok) {
		j->size += (off_t)w->line_len;
		j->since_sync++;
		j->hash_at = w->action;
		j->last_hash = w->hash;
		j->flush_gen = j->sync_gen;
		j->flush_since = j->since_sync;
		j->flush_actions = j->n_actions;
		return;
	}
	bool cut = w->append_done == 0 || ftruncate(j->fd, j->size) == 0;
	j->failed = true;
	snprintf(j->reason, sizeof j->reason, "%s", strerror(w->append_errno));
	snprintf(j->failure, sizeof j->failure,
		 "%s: writing the checksum after action %ld failed: %s; the journal keeps actions 1 to %ld%s (%ld "
		 "made durable)",
		 j->path, w->action, strerror(w->append_errno), j->n_actions,
		 cut ? "" : " and a cut record the next reader will drop", j->durable);
}

/*
 * A snapshot key's checksum and snapshot both left to the writer
 * (journal_record, snapshots in the background): the state captured,
 * the writer started on it, the checksum pending (check_flush).  False
 * when it cannot be (the caller then appends the checksum and takes the
 * snapshot in line as before, which says what failed).
 */
static bool snapshot_deferred(struct journal *j, const struct game *g)
{
	snap_reap(j, true); /* one at a time: the copy is the job's */
	char snap[sizeof j->path + 8], body[96];
	/* the record's length is known now (the hash is 16 digits): the
	 * room left counts it, as it counted it in line */
	size_t bytes = (size_t)check_body(body, sizeof body, j->n_actions, g->turn, 0) + 10; /* " CRC\n" */
	if (j->failed || j->snap_too_large || (size_t)j->size + bytes > j->max_bytes ||
	    !snapshot_path(j->path, snap, sizeof snap) || !snap_job_new(j))
		return false;
	struct snap_job *w = j->job;
	if (game_state_capture(g, w->copy) != GAME_STATE_OK)
		return false;
	snap_fill(j, w, snap, 0);
	w->defer = true;
	w->turn = g->turn;
	w->journal_fd = j->fd;
	w->appended = w->append_ok = false;
	w->synced = w->sync_failed = false;
	if (!snap_thread(w))
		return false;
	w->running = true;
	j->pending_bytes = bytes;
	j->check_pending = true;
	j->last_check = j->n_actions;
	j->last_snap = j->n_actions;
	j->snap_work = 0;
	j->snap_due = false;
	return true;
}

/*
 * Writes the snapshot of g, which follows the checksum just appended (in
 * line, or by starting the writer after the writer before is joined).  The
 * journal is synced first, so a snapshot never refers to records a crash
 * could take back.  A failed snapshot leaves the journal as good as ever
 * (the old snapshot stays, or none: resume replays more): it returns true,
 * and journal_snapshot_problem says what failed until a later one succeeds.
 */
static bool snapshot_now(struct journal *j, const struct game *g, char *err, size_t errlen)
{
	if (j->since_sync > 0 && !journal_sync(j, err, errlen))
		return false;
	snap_reap(j, true); /* one at a time */
	if (j->snap_too_large)
		return true; /* the one before said so: not tried again on this level */
	char snap[sizeof j->path + 8], msg[sizeof j->snap_problem - 200];
	bool written;
	long last = j->last_snap;
	long long work = j->snap_work;
	j->last_snap = j->n_actions; /* tried here: the next try is snap_every actions on */
	j->snap_work = 0;
	j->snap_due = false;
	bool ok;
	if (!snapshot_path(j->path, snap, sizeof snap)) {
		snprintf(msg, sizeof msg, "%s: file name too long for its snapshot", j->path);
		ok = false;
		written = false;
	} else if (j->snap_bg) {
		ok = snap_start(j, g, snap, &written, msg, sizeof msg);
	} else {
		ok = snapshot_write(&j->io, snap, j->header_crc, j->n_actions, g,
				    j->hash_at == j->n_actions ? &j->last_hash : NULL, &j->snap_buf, j->snap_max,
				    &written, &j->snap_too_large, msg, sizeof msg);
	}
	if (ok && !written) {
		/* the state cannot be saved now (the AI's shifted flood):
		 * tried again at the next checksum, not snap_every actions
		 * on, or a large level's snapshot comes only by luck */
		j->last_snap = last;
		j->snap_work = work;
	}
	if (!ok || !j->snap_bg || !j->job || !j->job->running)
		snapshot_done(j, ok, msg); /* a running writer says at snap_reap */
	return true;
}

/* The file size past which journal_record rolls over (SIZE_MAX: never). */
static size_t roll_at(const struct journal *j)
{
	if (j->seg_bytes == 0)
		return SIZE_MAX;
	size_t at = j->header_end + j->seg_bytes, top = j->max_bytes - j->max_bytes / 32;
	if (at > top)
		at = top; /* a large header: the file still stays under the cap, with room for retries */
	if ((size_t)j->roll_retry > at)
		at = (size_t)j->roll_retry;
	return at;
}

/* Appends a record to a text buffer, as the writer frames one. */
static void text_record(struct text *t, const char *body, size_t n, const char *block, size_t block_len);

/*
 * The rollover (journal_set_segment_bytes), on a file that ends with the
 * checksum of g's state and is synced: the file is linked as
 * PATH.seg-N, then PATH is replaced (temporary file, fsync, rename, fsync
 * of the folder) by segment N+1: its header is this one's, byte for byte,
 * but its first line (format 2) and a `segment` record before `play`
 * naming where it starts and the segment before, then the checksum of
 * that start.  A crash at any point leaves PATH a whole journal: the old
 * file (perhaps also linked as PATH.seg-N: the next rollover takes that
 * link as its own) or the new one, with PATH.seg-N in place.  0: rolled
 * over; 1: not done, the file is as it was (roll_problem says why); -1:
 * PATH was replaced but cannot be opened again (the journal failed).
 */
static int rollover(struct journal *j, const struct game *g, char *err, size_t errlen)
{
	snap_reap(j, true); /* the snapshot being written names this file */
	char seg[sizeof j->path + 32], msg[DIAG_ERR_LEN];
	msg[0] = '\0';
	struct text t = { 0 };
	char *hdr = NULL;
	int rc = 1;
	struct stat live, st;
	int fd = -1;
	if (!journal_segment_path(j->path, j->segment, seg, sizeof seg)) {
		snprintf(msg, sizeof msg, "%.400s: file name too long for its segments", j->path);
		goto out;
	}
	/* this file's header, read back (checked against its CRC) */
	hdr = malloc(j->header_end ? j->header_end : 1);
	fd = open(j->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (!hdr || fd < 0 || fstat(fd, &st) != 0 || fstat(j->fd, &live) != 0 || st.st_ino != live.st_ino ||
	    st.st_dev != live.st_dev) {
		snprintf(msg, sizeof msg, "%.400s: cannot read its header back%s%s", j->path, fd < 0 ? ": " : "",
			 fd < 0 ? strerror(errno) : "");
		goto out;
	}
	size_t got = 0;
	while (got < j->header_end) {
		ssize_t k = pread(fd, hdr + got, j->header_end - got, (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (got != j->header_end || crc_update(0, hdr, got) != j->header_crc) {
		snprintf(msg, sizeof msg, "%.400s: its header reads back differently", j->path);
		goto out;
	}
	const char *nl1 = memchr(hdr, '\n', got);
	static const size_t play_len = 14; /* "play CRC\n" */
	if (!nl1 || got < play_len || memcmp(hdr + got - play_len, "play ", 5) != 0) {
		snprintf(msg, sizeof msg, "%.400s: a header of another shape", j->path);
		goto out;
	}
	size_t mid_from = (size_t)(nl1 - hdr) + 1, mid_to = j->segment_end > 0 ? j->segment_at : got - play_len;
	char body[RECORD_MAX];
	int n = snprintf(body, sizeof body, "astray-journal %d", JOURNAL_FORMAT_SEGMENT);
	text_record(&t, body, (size_t)n, NULL, 0);
	text_add(&t, hdr + mid_from, mid_to - mid_from);
	size_t seg_at = t.n;
	uint64_t hash = game_hash(g);
	n = snprintf(body, sizeof body, "segment %d %ld %d %016" PRIx64 " %08" PRIx32, j->segment + 1, j->n_actions,
		     g->turn, hash, j->header_crc);
	text_record(&t, body, (size_t)n, NULL, 0);
	size_t seg_end = t.n;
	text_record(&t, "play", 4, NULL, 0);
	size_t header_end = t.n;
	n = snprintf(body, sizeof body, "c %ld %d %016" PRIx64, j->n_actions, g->turn, hash);
	text_record(&t, body, (size_t)n, NULL, 0);
	if (t.oom) {
		snprintf(msg, sizeof msg, "%.400s: out of memory for its next segment", j->path);
		goto out;
	}
	/* the file as it is, under its segment's name: a link never
	 * replaces; one already there is this file's own (a rollover cut
	 * short) or a stray, set aside */
	for (int tries = 0;; tries++) {
		if (link(j->path, seg) == 0)
			break;
		int e = errno;
		if (e == EEXIST && lstat(seg, &st) == 0 && st.st_ino == live.st_ino && st.st_dev == live.st_dev)
			break;
		char aside[sizeof seg + 32];
		if (e != EEXIST || tries > 0 ||
		    !savefile_set_aside(&j->io, seg, true, aside, sizeof aside, msg, sizeof msg)) {
			if (!msg[0])
				snprintf(msg, sizeof msg, "%.400s: cannot keep it as %.400s: %s", j->path, seg, strerror(e));
			goto out;
		}
	}
	if (!savefile_sync_dir(&j->io, seg, msg, sizeof msg))
		goto out;
	if (!savefile_write_atomic(&j->io, j->path, t.s, t.n, true, msg, sizeof msg))
		goto out;
	/* PATH is the new segment now */
	rc = -1;
	close(j->fd);
	j->fd = -1;
	uint32_t crc = crc_update(0, t.s, header_end);
	if (!journal_open_fd(j, err, errlen) || (size_t)j->size != t.n) {
		j->failed = true;
		snprintf(j->reason, sizeof j->reason, "its next segment cannot be opened");
		snprintf(j->failure, sizeof j->failure, "%.400s: after segment %d was kept as %.400s, the next one cannot be "
			 "opened: %.1000s", j->path, j->segment, seg, (size_t)j->size != t.n ? "it changed" : err);
		snprintf(err, errlen, "%s", j->failure);
		goto out;
	}
	rc = 0;
	j->segment++;
	j->header_crc = crc;
	j->header_end = header_end;
	j->segment_at = seg_at;
	j->segment_end = seg_end;
	j->last_check = j->n_actions;
	j->since_sync = 0;
	j->durable = j->n_actions;
	j->roll_retry = 0;
	j->roll_problem[0] = '\0';
out:
	if (fd >= 0)
		close(fd);
	free(hdr);
	free(t.s);
	if (rc == 1) {
		size_t step = j->seg_bytes < (1u << 20) ? j->seg_bytes : (1u << 20);
		j->roll_retry = j->size + (off_t)(step > 0 ? step : 1);
		snprintf(j->roll_problem, sizeof j->roll_problem, "%s", msg);
	}
	return rc;
}

bool journal_record(struct journal *j, const struct action *a, enum act_result res, const struct game *g, char *err,
		    size_t errlen)
{
	snap_reap(j, false); /* a background snapshot that finished: its outcome */
	if (!journal_append_action(j, a, err, errlen))
		return false;
	/* what replaying this action would cost a resume, counted (not timed,
	 * so the same game writes the same file): most of an action on a
	 * large level is its monsters' turn */
	j->snap_work += g->n_monsters + 1;
	bool boundary = res == RESULT_NEW_LEVEL || res == RESULT_WON || res == RESULT_DIED || g->over;
	bool snap = j->snap_every > 0 && !g->over && j->snap_due;
	/* the next action may not fit under the cap: this state gets its
	 * checksum now (in the room actions leave for it), so the saved part
	 * of the game is checked to its very end */
	bool closing = journal_room(j) < ACTION_LINE_MAX;
	/* past its segment's size the file ends with a checksum, synced, and
	 * the game goes on in the next segment (not at its end: nothing follows) */
	bool roll = !g->over && (size_t)j->size >= roll_at(j);
	bool check = boundary || snap || closing || roll ||
		     j->n_actions - (j->last_check < 0 ? 0 : j->last_check) >= j->check_every;
	/* a snapshot key (as below) that is nothing else, in a person's game:
	 * its checksum is the writer's too, hashed from the copy and appended
	 * beside the next keys (snapshot_deferred) */
	if (check && j->snap_bg && !boundary && !closing && !roll && j->snap_every > 0 && !j->snap_too_large &&
	    (snap || j->n_actions - j->last_snap >= j->snap_every || j->snap_work >= j->snap_work_max) &&
	    snapshot_deferred(j, g))
		return true;
	if (check && !journal_append_checksum(j, g, err, errlen))
		return false;
	if ((boundary || closing || roll || j->since_sync >= j->sync_every) && !journal_sync(j, err, errlen))
		return false;
	if (roll) {
		int rc = rollover(j, g, err, errlen);
		if (rc < 0)
			return false;
		if (rc == 0 && j->snap_every > 0 && !j->snap_too_large)
			return snapshot_now(j, g, err, errlen); /* a resume need not read the segments before */
	}
	if (res == RESULT_NEW_LEVEL) {
		snap_reap(j, true); /* its outcome is the old level's */
		j->snap_too_large = false; /* another level: its state may fit */
	}
	if (j->snap_every > 0 && !g->over && j->last_check == j->n_actions && !j->snap_too_large &&
	    (res == RESULT_NEW_LEVEL || snap || j->n_actions - j->last_snap >= j->snap_every ||
	     j->snap_work >= j->snap_work_max))
		return snapshot_now(j, g, err, errlen);
	return true;
}

bool journal_resumed(struct journal *j, const struct game *g, long from)
{
	j->last_snap = from < 0 ? 0 : from > j->n_actions ? j->n_actions : from;
	j->snap_work = 0;
	j->snap_due = false;
	long replayed = j->n_actions - j->last_snap;
	if (j->snap_every <= 0 || g->over || replayed <= 0 || (j->last_snap > 0 && replayed < j->snap_every))
		return false;
	if (j->last_check != j->n_actions) {
		/* the journal ends with actions: the state needs its checksum
		 * record first, which the next action's record brings */
		j->snap_due = true;
		return false;
	}
	/* what was read may not be durable yet (the last program was killed):
	 * a snapshot never refers to records a crash could take back.  A
	 * failed fsync fails the journal; the next action's record says so. */
	char err[DIAG_ERR_LEN];
	if (!journal_sync(j, err, sizeof err))
		return false;
	snapshot_now(j, g, err, sizeof err); /* nothing left to sync: it fails only as a snapshot */
	snap_reap(j, true);
	return !j->snap_failed;
}

const char *journal_failure_reason(const struct journal *j)
{
	return j && j->failed && j->reason[0] ? j->reason : NULL;
}

bool journal_flush(struct journal *j, char *err, size_t errlen)
{
	return j->failed ? failed(j, err, errlen) : true;
}

bool journal_sync(struct journal *j, char *err, size_t errlen)
{
	check_flush(j); /* what is synced ends with the writer's checksum */
	if (j->failed)
		return failed(j, err, errlen);
	if (!savefile_fsync(&j->io, j->fd)) {
		/* after a failed fsync the kernel may have dropped the pages: trust nothing since the last one */
		int e = errno;
		j->failed = true;
		snprintf(j->reason, sizeof j->reason, "%s", strerror(e));
		snprintf(j->failure, sizeof j->failure,
			 "%s: fsync failed: %s; actions after %ld may be lost", j->path, strerror(e), j->durable);
		return failed(j, err, errlen);
	}
	j->since_sync = 0;
	j->durable = j->n_actions;
	j->sync_gen++;
	return true;
}

bool journal_close(struct journal *j, char *err, size_t errlen)
{
	if (!j)
		return true;
	journal_snapshot_wait(j);
	bool ok = j->failed ? failed(j, err, errlen) : journal_sync(j, err, errlen);
	if (close(j->fd) != 0 && ok) {
		snprintf(err, errlen, "%s: close failed: %s", j->path, strerror(errno));
		ok = false;
	}
	snapshot_buf_free(&j->snap_buf);
	snap_job_free(j->job);
	free(j);
	return ok;
}

void journal_snapshots(struct journal *j, int every) { j->snap_every = every < 0 ? 0 : every; }

void journal_snapshots_background(struct journal *j, bool on)
{
	snap_reap(j, true);
	j->snap_bg = on;
}

void journal_snapshot_prefault(struct journal *j, const struct game *g)
{
	snap_reap(j, true);
	if (j->snap_bg && snap_job_new(j))
		(void)game_state_capture(g, j->job->copy); /* its pages made resident; the next capture overwrites it */
}

void journal_snapshot_wait(struct journal *j)
{
	if (j)
		snap_reap(j, true);
}

bool journal_snapshot_writing(const struct journal *j) { return j->job && j->job->running && !atomic_load(&j->job->done); }

const char *journal_snapshot_problem(const struct journal *j) { return j->snap_failed ? j->snap_problem : NULL; }

long journal_actions(const struct journal *j) { return j->n_actions; }

void journal_set_snapshot_max(struct journal *j, size_t max)
{
	j->snap_max = max > SNAPSHOT_MAX_BYTES ? SNAPSHOT_MAX_BYTES : max;
}

void journal_set_max_bytes(struct journal *j, size_t max)
{
	j->max_bytes = max > JOURNAL_MAX_BYTES ? JOURNAL_MAX_BYTES : max;
}

void journal_set_segment_bytes(struct journal *j, size_t bytes) { j->seg_bytes = bytes; }

void journal_set_snapshot_work(struct journal *j, long long work) { j->snap_work_max = work > 0 ? work : SNAPSHOT_WORK; }

int journal_segment(const struct journal *j) { return j->segment; }

const char *journal_rollover_problem(const struct journal *j) { return j->roll_problem[0] ? j->roll_problem : NULL; }

int journal_segments_link(const char *from, const char *to, bool move, char *err, size_t errlen)
{
	struct stat self, st;
	bool have_self = stat(from, &self) == 0;
	int linked = 0;
	for (int k = 1; k < 1000000; k++) {
		char a[4200], b[4200];
		if (!journal_segment_path(from, k, a, sizeof a) || !journal_segment_path(to, k, b, sizeof b)) {
			snprintf(err, errlen, "%s: file name too long for its segments", to);
			return -1;
		}
		if (lstat(a, &st) != 0 || !S_ISREG(st.st_mode))
			break;
		if (have_self && st.st_ino == self.st_ino && st.st_dev == self.st_dev) {
			/* the journal itself, linked by a rollover cut short: not a segment */
			if (move)
				unlink(a);
			break;
		}
		struct stat bt;
		if (link(a, b) != 0 && !(errno == EEXIST && lstat(b, &bt) == 0 && bt.st_ino == st.st_ino &&
					 bt.st_dev == st.st_dev)) {
			/* (already there: an earlier filing of the same game cut short) */
			snprintf(err, errlen, "%.400s: cannot keep it as %.400s: %s", a, b, strerror(errno));
			return -1;
		}
		linked++;
		if (move)
			unlink(a);
	}
	if (linked > 0 && (!savefile_sync_dir(NULL, to, err, errlen) || (move && !savefile_sync_dir(NULL, from, err, errlen))))
		return -1;
	return linked;
}

int journal_segments_remove(const char *from)
{
	int removed = 0;
	for (int k = 1; k < 1000000; k++) {
		char a[4200];
		struct stat st;
		if (!journal_segment_path(from, k, a, sizeof a) || lstat(a, &st) != 0 || !S_ISREG(st.st_mode) ||
		    unlink(a) != 0)
			break;
		removed++;
	}
	return removed;
}

/* The file's size with the checksum the writer is hashing. */
static size_t size_due(const struct journal *j)
{
	return (size_t)j->size + (j->check_pending ? j->pending_bytes : 0);
}

size_t journal_room(const struct journal *j)
{
	size_t used = size_due(j) + JOURNAL_CHECK_RESERVE;
	return j->failed || used >= j->max_bytes ? 0 : j->max_bytes - used;
}

long journal_actions_left(const struct journal *j)
{
	/* at the mean size of an action so far, its share of checksums and
	 * header included: an estimate on the safe side */
	size_t per = j->n_actions > 0 ? size_due(j) / (size_t)j->n_actions : 32;
	return (long)(journal_room(j) / (per > 0 ? per : 1));
}

bool journal_nearly_full(const struct journal *j)
{
	return journal_room(j) < j->max_bytes / JOURNAL_WARN_FRACTION;
}
long journal_durable_actions(const struct journal *j) { return j->durable; }

void journal_hash_waits(const struct journal *j, long *checks, long *waits, double *total_us, double *max_us)
{
	*checks = j->hash_checks;
	*waits = j->hash_waits;
	*total_us = j->hash_wait_us;
	*max_us = j->hash_wait_max_us;
}
const char *journal_path(const struct journal *j) { return j->path; }
