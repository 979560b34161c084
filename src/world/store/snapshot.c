/*
 * snapshot.c - the whole state of a game kept beside its journal
 * (JOURNAL.snap), so that resuming a long game replays only the actions
 * after the snapshot instead of all of them (docs/journal.md).
 *
 * A snapshot is an optimisation, never the truth: the journal is.  A
 * snapshot is used only when it names the journal it belongs to (the CRC
 * of the journal's header), the journal holds a checksum record at the
 * snapshot's action with the snapshot's turn and hash, its bytes pass
 * their CRC, and the state loaded from it hashes to that checksum.  Any
 * other snapshot (missing, torn, damaged, stale, of another game, made by
 * another program) is ignored and the whole journal is replayed; the
 * caller says so.  That rule lives in journal.c (journal_resume); this file
 * owns the file: its format, writing it atomically and reading it back.
 *
 * Format: one ASCII line
 *   astray-snapshot FORMAT HEADERCRC ACTION TURN HASH LEN STATECRC\n
 * (HEADERCRC and STATECRC 8 hex digits, HASH 16) followed by exactly LEN
 * bytes of game state (game_state_save).
 */
#include "snapshot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


bool snapshot_path(const char *journal, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s%s", journal, SNAPSHOT_SUFFIX);
	return n > 0 && (size_t)n < size;
}

/* Bytes kept before the state in the buffer for the first line, which is
 * written right before the state once the state's length and CRC are
 * known (it takes at most 120). */
#define HEAD_ROOM 200

/* The state st made in b (at HEAD_ROOM, len bytes) to path, behind its first line. */
static bool write_state(const struct savefile_io *io, const char *path, uint32_t header_crc, long action, int turn,
			uint64_t hash, struct snapshot_buf *b, enum game_state_status st, size_t len, size_t max,
			bool *written, bool *too_large, char *err, size_t errlen)
{
	*written = false;
	if (too_large)
		*too_large = false;
	if (max == 0 || max > SNAPSHOT_MAX_BYTES)
		max = SNAPSHOT_MAX_BYTES;
	switch (st) {
	case GAME_STATE_OK:
		break;
	case GAME_STATE_UNSAVABLE:
		return true;
	case GAME_STATE_NO_MEMORY:
		snprintf(err, errlen, "%s: out of memory saving the game state", path);
		return false;
	}
	char *state = (char *)b->bytes + HEAD_ROOM;
	char head[HEAD_ROOM];
	int n = snprintf(head, sizeof head, "astray-snapshot %d %08" PRIx32 " %ld %d %016" PRIx64 " %zu %08" PRIx32 "\n",
			 SNAPSHOT_FORMAT, header_crc, action, turn, hash, len, savefile_crc32(0, state, len));
	if (n < 0 || (size_t)n >= sizeof head) {
		snprintf(err, errlen, "%s: the snapshot's first line does not fit", path);
		return false;
	}
	if ((size_t)n + len > max) {
		/* its reader would refuse it: writing it would only cost time */
		if (too_large)
			*too_large = true;
		snprintf(err, errlen, "%s: the game's state takes %zu bytes, more than a snapshot holds (%zu)", path,
			 (size_t)n + len, max);
		return false;
	}
	memcpy(state - n, head, (size_t)n);
	bool ok = savefile_write_atomic(io, path, state - n, (size_t)n + len, true, err, errlen);
	*written = ok;
	return ok;
}

bool snapshot_write(const struct savefile_io *io, const char *path, uint32_t header_crc, long action,
		    const struct game *g, const uint64_t *hash, struct snapshot_buf *buf, size_t max, bool *written,
		    bool *too_large, char *err, size_t errlen)
{
	struct snapshot_buf own = { 0 }, *b = buf ? buf : &own;
	size_t len;
	enum game_state_status st = game_state_save_into(g, HEAD_ROOM, &b->bytes, &b->cap, &len);
	bool ok = write_state(io, path, header_crc, action, g->turn,
			      st == GAME_STATE_OK ? (hash ? *hash : game_hash(g)) : 0, b, st, len, max, written,
			      too_large, err, errlen);
	snapshot_buf_free(&own);
	return ok;
}

bool snapshot_write_copy(const struct savefile_io *io, const char *path, uint32_t header_crc, long action,
			 const struct game_state_copy *c, uint64_t hash, struct snapshot_buf *buf, size_t max,
			 bool *written, bool *too_large, char *err, size_t errlen)
{
	size_t len;
	enum game_state_status st = game_state_copy_save_into(c, HEAD_ROOM, &buf->bytes, &buf->cap, &len);
	return write_state(io, path, header_crc, action, game_state_copy_turn(c), hash, buf, st, len, max, written,
			   too_large, err, errlen);
}

void snapshot_buf_free(struct snapshot_buf *buf)
{
	free(buf->bytes);
	buf->bytes = NULL;
	buf->cap = 0;
}

/* The next space-separated field of line at *p: [s, s + *len). */
static const char *field(const char *line, size_t end, size_t *p, size_t *len)
{
	size_t i = *p;
	while (i < end && line[i] != ' ')
		i++;
	if (i == *p)
		return NULL;
	const char *s = line + *p;
	*len = i - *p;
	*p = i < end ? i + 1 : i;
	return s;
}

static bool dec(const char *s, size_t n, unsigned long long max, unsigned long long *out)
{
	if (!s || n == 0 || n > 20 || (s[0] == '0' && n > 1))
		return false;
	unsigned long long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool hex(const char *s, size_t n, size_t want, uint64_t *out)
{
	if (!s || n != want)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int h = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 : -1;
		if (h < 0)
			return false;
		v = v << 4 | (uint64_t)h;
	}
	*out = v;
	return true;
}

bool snapshot_parse(const char *bytes, size_t len, struct snapshot_head *h, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	static const char magic[] = "astray-snapshot ";
	if (len < sizeof magic - 1 || memcmp(bytes, magic, sizeof magic - 1) != 0) {
		snprintf(err, errlen, "byte 0: not an astray snapshot");
		return false;
	}
	const char *nl = memchr(bytes, '\n', len < 256 ? len : 256);
	if (!nl) {
		snprintf(err, errlen, "byte 0: the first line is cut or too long");
		return false;
	}
	size_t end = (size_t)(nl - bytes), p = sizeof magic - 1, n[7] = { 0 };
	const char *f[7];
	for (int i = 0; i < 7; i++)
		f[i] = field(bytes, end, &p, &n[i]);
	unsigned long long format, action, turn, slen;
	uint64_t hcrc, hash, scrc;
	if (p != end || !dec(f[0], n[0], 1000, &format)) {
		snprintf(err, errlen, "byte 0: a malformed first line");
		return false;
	}
	if (format != SNAPSHOT_FORMAT) {
		snprintf(err, errlen, "byte 0: snapshot format %llu (this program reads %d)", format, SNAPSHOT_FORMAT);
		return false;
	}
	if (!hex(f[1], n[1], 8, &hcrc) || !dec(f[2], n[2], INT64_MAX, &action) || !dec(f[3], n[3], INT32_MAX, &turn) ||
	    !hex(f[4], n[4], 16, &hash) || !dec(f[5], n[5], SNAPSHOT_MAX_BYTES, &slen) || !hex(f[6], n[6], 8, &scrc)) {
		snprintf(err, errlen, "byte 0: a malformed first line");
		return false;
	}
	h->format = (int)format;
	h->header_crc = (uint32_t)hcrc;
	h->action = (long)action;
	h->turn = (int)turn;
	h->hash = hash;
	h->state_len = (size_t)slen;
	h->state_crc = (uint32_t)scrc;
	h->state_at = end + 1;
	if (len - h->state_at != h->state_len) {
		snprintf(err, errlen, "byte %zu: %zu bytes of state where the first line says %zu (a cut or "
				      "grown file)", h->state_at, len - h->state_at, h->state_len);
		return false;
	}
	if (savefile_crc32(0, bytes + h->state_at, h->state_len) != h->state_crc) {
		snprintf(err, errlen, "byte %zu: the state fails its CRC (the file is damaged)", h->state_at);
		return false;
	}
	return true;
}
