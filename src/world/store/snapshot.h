/* snapshot.h - a game's whole state kept beside its journal, so a resume replays only the actions after it. */
#ifndef ASTRAY_SNAPSHOT_H
#define ASTRAY_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "savefile.h"

#define SNAPSHOT_FORMAT 1
#define SNAPSHOT_EVERY 512          /* default: actions between two snapshots (also one at every level change) */
/* ... or sooner, at the first checksum after this many monster turns (an
 * action counts its level's monsters, plus one): on a 4096x4096 level of
 * 67,000 monsters at every checksum (16 actions), so a resume after a kill
 * replays at most 15 actions of about 45 ms, not 31 (with 2,000,000 until
 * issue 33's resume3), nor 512; on the campaign's levels never before the
 * 512 actions. */
#define SNAPSHOT_WORK 1000000LL
#define SNAPSHOT_SUFFIX ".snap"     /* JOURNAL.snap */
#define SNAPSHOT_MAX_BYTES (256u << 20) /* a larger file is not read */

/* JOURNAL.snap into buf; false when it does not fit. */
bool snapshot_path(const char *journal, char *buf, size_t size);

/*
 * Writes the state of g, taken right after the journal's checksum record
 * for action `action` (turn and hash are that record's), to path, through
 * a temporary file, fsync, rename and fsync of the folder: path holds the
 * old snapshot or the new one, never a mix.  header_crc identifies the
 * journal (journal_data.header_crc).  *written is false when the state
 * cannot be saved now (GAME_STATE_UNSAVABLE: nothing is written, the old
 * snapshot stays).  False with a message naming the file on failure.
 * The file is never larger than max (0: SNAPSHOT_MAX_BYTES, what the
 * reader takes): a larger state is not written (the old snapshot stays),
 * and *too_large (may be NULL) says that was why.  hash: that checksum
 * record's hash when the caller has it (NULL: computed again, a whole
 * game_hash).  buf: where the file is made, kept by the caller from one
 * snapshot to the next (zeroed at first; snapshot_buf_free frees it), so
 * a large level's state does not fault in megabytes of new pages each
 * time; NULL: a buffer of this call's own.
 */
struct snapshot_buf {
	void *bytes;
	size_t cap;
};
bool snapshot_write(const struct savefile_io *io, const char *path, uint32_t header_crc, long action,
		    const struct game *g, const uint64_t *hash, struct snapshot_buf *buf, size_t max, bool *written,
		    bool *too_large, char *err, size_t errlen);
void snapshot_buf_free(struct snapshot_buf *buf);
/*
 * snapshot_write of the state captured in c (game_state_capture, right
 * after that checksum record: hash is its hash): the same file,
 * byte for byte, as snapshot_write gives for the game as it was then.
 * Reads only c and buf, so it may run on another thread while the game
 * plays on (journal.c's writer).
 */
bool snapshot_write_copy(const struct savefile_io *io, const char *path, uint32_t header_crc, long action,
			 const struct game_state_copy *c, uint64_t hash, struct snapshot_buf *buf, size_t max,
			 bool *written, bool *too_large, char *err, size_t errlen);

/* A snapshot file's first line, read back. */
struct snapshot_head {
	int format;
	uint32_t header_crc;      /* of the journal it belongs to */
	long action;              /* actions of the journal the state follows */
	int turn;                 /* game turn then */
	uint64_t hash;            /* game_hash then */
	size_t state_len;         /* bytes of game state after the line */
	uint32_t state_crc;       /* their CRC-32 */
	size_t state_at;          /* offset of the state in the file */
};

/*
 * Parses a snapshot in memory: the head line, then exactly state_len bytes
 * whose CRC matches.  False with a message (what is wrong, with its byte
 * offset) otherwise.
 */
bool snapshot_parse(const char *bytes, size_t len, struct snapshot_head *h, char *err, size_t errlen);

#endif
