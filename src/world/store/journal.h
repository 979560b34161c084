/* journal.h - the game journal: a game kept as its inputs (seed, options, level texts, actions) with state checksums. */
#ifndef ASTRAY_JOURNAL_H
#define ASTRAY_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bestiary.h"
#include "game.h"
#include "level.h"
#include "savefile.h"

#define JOURNAL_FORMAT 2          /* the newest format this program reads (it writes 1, and 2 for a segment after the first) */
#define JOURNAL_FORMAT_SEGMENT 2  /* a segment after the first: its header has a `segment` record */
#define JOURNAL_CHECK_EVERY 16    /* default: actions between two checksum records */
#define JOURNAL_SYNC_EVERY 8      /* default: actions between two fsyncs */
/* A larger file is refused before it is read, and the writer never makes
 * one: it stops saving first ("the save is full", journal_record). */
#define JOURNAL_MAX_BYTES (128u << 20)
/* journal_nearly_full: less than 1/16 of the cap left. */
#define JOURNAL_WARN_FRACTION 16
/* A journal with segments on (journal_set_segment_bytes: play's save slot
 * and --record) rolls over into a new file past this size: the file so far
 * is kept as PATH.seg-N and PATH goes on from there (docs/journal.md,
 * "Segments").  Well under the cap, so a rollover that fails (a full disk)
 * is tried again with room to spare. */
#define JOURNAL_SEGMENT_BYTES (16u << 20)
#define JOURNAL_SEGMENT_SUFFIX ".seg-"  /* PATH.seg-1, PATH.seg-2, ...: the segments before PATH's */

/* One level of the campaign, as it was when the game started. */
struct journal_level {
	const char *name;         /* the file it came from (for messages; never opened again) */
	const char *text;         /* the whole file text, len bytes (not NUL-terminated) */
	size_t len;
	bool movingai;            /* a Moving AI .map: the fields below place the player, exit and monsters */
	int monsters;             /* how many monsters level_from_movingai places */
	char glyph;               /* of which bestiary kind */
	uint64_t place_seed;      /* the seed of the placement */
};

/* Play options that are not in the bestiary (sim and tests set them; play leaves the defaults). */
struct journal_options {
	enum ai_share ai_share;   /* AI_SHARE_AUTO by default */
	bool all_hunt;
};

/* Whether a game counts for the high-score list, as decided when it began
 * (play: the campaign and generated dungeons as they come).  UNKNOWN: the
 * journal does not say (written before the `scored` record existed, or by
 * sim and tests, which leave it out). */
enum journal_scored {
	JOURNAL_SCORED_UNKNOWN,
	JOURNAL_SCORED_NO,
	JOURNAL_SCORED_YES
};

/* What a new journal records before the first action.  Every pointer is
 * borrowed for the duration of journal_create only. */
struct journal_setup {
	const char *program;      /* the program version ("0.1.0"), kept for messages */
	uint64_t seed;
	int check_every;          /* 0: JOURNAL_CHECK_EVERY */
	int sync_every;           /* 0: JOURNAL_SYNC_EVERY */
	const char *bestiary_name;
	const char *bestiary_text;/* the bestiary file's text, before the overrides */
	size_t bestiary_len;
	const char *const *sets;  /* KIND.KEY=VALUE overrides, applied in order */
	int n_sets;
	struct journal_options options;
	enum journal_scored scored; /* UNKNOWN (0): no `scored` record */
	const struct journal_level *levels;
	int n_levels;
	const struct savefile_io *io; /* NULL: the real system calls */
};

/* A checksum record: the state after the first `action` actions. */
struct journal_check {
	long action;              /* actions applied before the checksum was taken */
	int turn;                 /* game turn then (g->turn) */
	uint64_t hash;            /* game_hash then */
	size_t offset;            /* byte offset of the record in the file */
	int segment;              /* the segment whose file holds it (1: the first, or the only one) */
};

/* How the file ends after its last good record. */
enum journal_tail {
	JOURNAL_TAIL_CLEAN,       /* the last byte ends a complete record */
	JOURNAL_TAIL_TORN,        /* it ends inside a record (a write cut short) */
	JOURNAL_TAIL_DAMAGED      /* a complete record is malformed or fails its CRC: reading stopped there */
};

/* A journal read into memory.  Strings and texts point into buf. */
struct journal_data {
	char name[256];           /* the name given to journal_parse, for messages */
	char *path;               /* journal_read_file's path (owned; NULL from journal_parse): finds the segments */
	char *buf;                /* the file's bytes (owned), NUL-terminated copies of the names in place */
	size_t size;              /* bytes in the file */
	int format;
	const char *program;
	int rules;                /* the rules version it was played under (its `rules` record; 1 without one) */
	uint64_t seed;
	int check_every;
	const char *bestiary_name;
	const char *bestiary_text;
	size_t bestiary_len;
	const char *items_name;   /* its `items` record: the game's item catalogue as it played (NULL: */
	const char *items_text;   /* none; the catalogue built into the bestiary's parse is used) */
	size_t items_len;
	const char **sets;
	int n_sets;
	struct journal_options options;
	enum journal_scored scored;   /* its `scored` record (UNKNOWN: none) */
	struct journal_level *levels;
	int n_levels;
	/* The segment: a game that outgrew one file goes on in another whose
	 * header names the file before it (journal_read_chain). */
	int segment;              /* 1: the first file of the game (or its only one) */
	long first_action;        /* actions before this file's first (0 once the chain is read) */
	int first_turn;           /* the game turn then */
	uint64_t first_hash;      /* game_hash then */
	uint32_t prev_crc;        /* header_crc of the segment before (0 for the first) */
	uint32_t game_crc;        /* CRC-32 of the header without its first line and segment record: one game's segments share it */
	size_t segment_at, segment_end; /* the segment record's bytes in the header (0, 0: none) */
	int loaded_from;          /* the first segment whose actions are in memory (segment, or 1 once the chain is read) */
	struct action *actions;   /* every complete action record from first_action on, in order: action i is actions[i - first_action] */
	size_t *action_offsets;   /* byte offset of each (in its segment's file) */
	long n_actions;           /* actions in the game up to this file's end (first_action + the file's records) */
	struct journal_check *checks;
	long n_checks;
	size_t header_end;        /* offset just after the `play` record */
	uint32_t header_crc;      /* CRC-32 of the header's bytes [0, header_end): names the game (snapshots) */
	size_t good_end;          /* offset just after the last good record */
	enum journal_tail tail;
	char tail_msg[320];       /* for TORN and DAMAGED: what is wrong, with its byte offset */
};

/*
 * Reads a journal from memory (name is used in messages).  False (and
 * *out left empty) when the file cannot be used at all: not a journal, a
 * newer format, or a header that is incomplete or damaged; err then names
 * the problem and its byte offset.  True otherwise, even when the records
 * after the header end early: out->tail says how, and everything before
 * out->good_end is intact.  Never allocates more than a small multiple of len.
 */
bool journal_parse(const char *name, const char *bytes, size_t len, struct journal_data *out, char *err,
		   size_t errlen);
/* journal_parse of a file (at most JOURNAL_MAX_BYTES).  Of a segment
 * after the first, only that file is read (first_action > 0): resuming
 * from a snapshot needs no more; journal_read_chain reads the rest. */
bool journal_read_file(const char *path, struct journal_data *out, char *err, size_t errlen);
/*
 * Puts the actions and checksums of every segment before d's (PATH.seg-1
 * up to PATH.seg-(segment-1), read one at a time) in front of d's, so d
 * holds the whole game from action 0 (first_action 0).  Each must be the
 * one d's chain names: its segment number, its header CRC as the next
 * one's `segment` record says, the same game (game_crc), a clean end at
 * exactly the next one's first action, and a last checksum equal to the
 * next one's start.  True at once for a first segment; false with a
 * message naming the file otherwise (d is left as it was).
 */
bool journal_read_chain(struct journal_data *d, char *err, size_t errlen);
/* PATH.seg-K into buf; false when it does not fit. */
bool journal_segment_path(const char *journal, int k, char *buf, size_t size);
/*
 * The segments of the journal at `from` (from.seg-1, from.seg-2, ... while
 * they exist) linked as to.seg-1, ... (a link never replaces: an existing
 * name is an error), and when move is true their old names removed; the
 * folders are synced.  A from.seg-K that is the journal itself (a link a
 * rollover cut short left) is not one of them: it is removed when move.
 * Returns how many were linked, or -1 with a message.
 */
int journal_segments_link(const char *from, const char *to, bool move, char *err, size_t errlen);
/* Removes from.seg-1, from.seg-2, ... (a game's segments, once it is filed
 * elsewhere or gone); returns how many. */
int journal_segments_remove(const char *from);
void journal_data_fini(struct journal_data *d); /* a zeroed or finished struct does nothing */

/*
 * What a title can say of a saved game without reading it whole (a
 * journal that carries a 4096x4096 level holds its 16 MB): the rules
 * version it was played under, from its header (1 when the header names
 * none), and the game turn of its last checksum record within its last
 * 4 KiB (-1 when none is there).  Neither CRC is checked: a resume does
 * that.  False when the file cannot be read or does not start as a
 * journal.
 */
bool journal_peek(const char *path, int *rules, long *turn);
/* journal_peek of a whole file's bytes in memory (its first and last
 * 4 KiB are read): for the fuzzer and tests. */
bool journal_peek_text(const char *bytes, size_t len, int *rules, long *turn);

/* A game rebuilt from a journal's header: it owns its levels and bestiary. */
struct journal_game {
	struct bestiary bestiary;
	struct level **levels;
	int n_levels;
	struct game *game;
};

/*
 * Whether the journal was played under this program's rules (GAME_RULES);
 * false with a message naming both versions when not.  Such a journal
 * cannot be replayed by this program and must be kept as it is.
 */
bool journal_rules_match(const struct journal_data *d, char *err, size_t errlen);

/*
 * Parses the recorded bestiary, applies the overrides, parses the level
 * texts and creates the game at its start.  False with a message (the
 * first error, as file:line:col) when any of that fails, or when the
 * journal was played under other rules (journal_rules_match).
 */
bool journal_start(const struct journal_data *d, struct journal_game *out, char *err, size_t errlen);
void journal_game_fini(struct journal_game *jg); /* a zeroed struct does nothing */

/* What a replay did. */
struct journal_replay {
	long actions;             /* actions applied */
	long checks;              /* checksums that matched */
	long drift;               /* -1, or the index in d->checks of the first checksum that differed */
	long good_action;         /* actions covered by the last checksum that matched (0 when none) */
};

/*
 * Applies the journal's first `upto` actions (all of them when upto < 0
 * or beyond the end) to g, a game fresh from journal_start, comparing
 * game_hash with every checksum record on the way.  Stops at the first
 * checksum that differs: false, r->drift set and err naming the action,
 * the game turn and the window of actions where the game first differed.
 */
bool journal_replay(const struct journal_data *d, struct game *g, long upto, struct journal_replay *r, char *err,
		    size_t errlen);
/* journal_replay of d's whole chain: the segments before d's are read
 * first (journal_read_chain). */
bool journal_replay_all(struct journal_data *d, struct game *g, long upto, struct journal_replay *r, char *err,
			size_t errlen);

/*
 * What a resume does: jg fresh from journal_start on d; when the snapshot
 * file snap (may be NULL) belongs to this journal (its header CRC, a
 * checksum record at its action with its turn and hash, its own CRC, and
 * the state loaded from it hashing to that checksum), the game is put in
 * its state and only the actions after it are replayed (*from is its
 * action count); otherwise the whole journal is replayed from the start
 * (*from = 0) and note says why the snapshot was not used (empty when
 * there was none).  The rest is journal_replay's contract: r counts every
 * action from the start; false with err at the first checksum that
 * differs, or when the game cannot be rebuilt.  When the whole game must
 * be replayed and d is a later segment, the segments before it are read
 * first (journal_read_chain).
 */
bool journal_resume(struct journal_data *d, struct journal_game *jg, const char *snap, long upto,
		    struct journal_replay *r, long *from, char *note, size_t notelen, char *err, size_t errlen);

/* ---- writing ------------------------------------------------------------ */

struct journal;

/*
 * Creates a new journal at path (an existing file there is an error and is
 * left untouched) holding the header, and when g is not NULL a checksum of
 * its starting state.  The header is written to a temporary file, synced
 * and linked into place, so path never holds a partial header.  NULL with
 * a message on failure.
 */
struct journal *journal_create(const char *path, const struct journal_setup *s, const struct game *g, char *err,
			       size_t errlen);

/*
 * Opens a journal already read into d (and replayed by the caller) to
 * append to it.  When its tail is torn or damaged, the file as it is is
 * first kept as path.damaged-N and path is atomically replaced by its good
 * part, so appends never follow garbage.  NULL with a message on failure.
 */
struct journal *journal_open_append(const char *path, const struct journal_data *d, const struct savefile_io *io,
				    char *err, size_t errlen);

/*
 * Each append writes one complete record with one write(2) call (retried
 * until complete), so it reaches the kernel at once.  A failed write cuts
 * the file back to its last complete record and makes the journal failed:
 * this and every later call return false with the same message.
 */
bool journal_append_action(struct journal *j, const struct action *a, char *err, size_t errlen);
bool journal_append_checksum(struct journal *j, const struct game *g, char *err, size_t errlen);

/*
 * The player leaves: after the checksum journal_append_checksum put where
 * the game stands, keeps a snapshot there too (when snapshots are on, the
 * game is not over and the newest snapshot is older), so the next resume
 * replays nothing.  Without it a resume replayed the actions since the
 * last snapshot: on a 4096x4096 level up to 31 actions of about 40 ms.
 * A failed snapshot fails only itself (journal_snapshot_problem), as at
 * any checksum; false only when the journal itself failed.
 */
bool journal_snapshot_at_stop(struct journal *j, const struct game *g, char *err, size_t errlen);

/*
 * What the game loop calls after each game_act: appends the action; a
 * checksum every check_every actions and at every level change and end of
 * game; an fsync every sync_every actions and at those same moments.
 */
bool journal_record(struct journal *j, const struct action *a, enum act_result res, const struct game *g, char *err,
		    size_t errlen);

/* Once the journal failed on a write or fsync: the system's short word for
 * why ("No space left on device"); NULL before, or for another failure. */
const char *journal_failure_reason(const struct journal *j);

/* Every record is written when its append returns: true unless the journal failed. */
bool journal_flush(struct journal *j, char *err, size_t errlen);
/* fsync: what was appended survives a crash.  Call at quit, hangup, SIGTERM. */
bool journal_sync(struct journal *j, char *err, size_t errlen);
/* Syncs, closes and frees (NULL does nothing and returns true); false when the sync or close failed. */
bool journal_close(struct journal *j, char *err, size_t errlen);

/*
 * From now on journal_record also keeps the game's state beside the
 * journal, in PATH.snap (snapshot.h), every `every` actions (at the first
 * checksum after) and at every level change, so a resume replays only
 * what follows it (journal_resume).  0 turns it off (the default).
 */
void journal_snapshots(struct journal *j, int every);
/*
 * Snapshots written while the game plays on (play's save slot): at the
 * checksum the state is copied (game_state_capture, a few milliseconds on
 * a 4096x4096 level), and a thread of its own saves the copy, takes its
 * CRC and writes the file (snapshot_write_copy) while the next keys are
 * handled.  The file is byte for byte the one written in line.  One
 * writer at a time: it is joined before the next snapshot, a rollover,
 * at a level change, at quit (journal_snapshot_at_stop) and at close; a
 * failure shows in journal_snapshot_problem once it is joined (at the
 * next journal_record after it finished).  Off (the default): written in
 * line, as sim and replay do.
 *
 * On, a snapshot key that is nothing else (no level change, end, rollover
 * or cap) leaves its checksum to the writer too (game_hash is 6-7 ms on a
 * 4096x4096 level; the writer takes it from the copy): the writer hashes,
 * appends the checksum record and syncs the journal, then writes the
 * snapshot.  The journal's next record (and journal_sync, a join, the
 * close) first waits for that append if it is not over, so the record
 * stays right after its action: the file is the one written in line,
 * byte for byte.
 */
void journal_snapshots_background(struct journal *j, bool on);
/* With snapshots in the background: the copy's buffers made for g's
 * level and made resident now (a capture), before the first key, so the
 * first snapshot's key does not fault in megabytes of new pages (38 ms on
 * a 4096x4096 level).  Play calls it at the game's start and resume. */
void journal_snapshot_prefault(struct journal *j, const struct game *g);
/* Waits for a snapshot being written (NULL does nothing): the save slot's
 * files are then as the journal says (before they are filed or removed). */
void journal_snapshot_wait(struct journal *j);
/* Whether a background snapshot is being written now (tests). */
bool journal_snapshot_writing(const struct journal *j);
/* The monster turns after which a snapshot is due at the next checksum
 * (SNAPSHOT_WORK, snapshot.h; lower for tests; 0: the default). */
void journal_set_snapshot_work(struct journal *j, long long work);
/*
 * After journal_open_append and journal_snapshots, on a resumed game g
 * that was rebuilt from a snapshot of action `from` (0: none, the whole
 * journal was replayed; play_resumed.from_snapshot): the next snapshot is
 * counted from there, not from the end of the journal.  When the resume
 * replayed the whole journal, or snap_every actions or more after its
 * snapshot, one is written at once when the journal ends with a checksum
 * record (true when it was written), else with the next action's record.
 * A failure is journal_snapshot_problem's, as in journal_record: the
 * journal itself is never written here.
 */
bool journal_resumed(struct journal *j, const struct game *g, long from);
/* NULL, or what made the newest snapshot fail (the journal itself is fine). */
const char *journal_snapshot_problem(const struct journal *j);

long journal_actions(const struct journal *j);         /* action records in the file */
/*
 * The file's cap: JOURNAL_MAX_BYTES, what the reader takes; lower only for
 * tests (a higher value is taken as JOURNAL_MAX_BYTES).  An append that
 * would pass it fails the journal as a full disk does, with the reason
 * "the save is full": the file keeps every action before, readable.
 */
void journal_set_max_bytes(struct journal *j, size_t max);
/* A snapshot's cap: SNAPSHOT_MAX_BYTES, what its reader takes; lower only
 * for tests.  A state over it is not written (that costs seconds on the
 * largest levels, for a file the reader would refuse): the snapshot
 * fails once with the reason (journal_snapshot_problem) and is not tried
 * again until the level changes. */
void journal_set_snapshot_max(struct journal *j, size_t max);
/*
 * Turns segments on (0: off, the default): past `bytes` (at most
 * JOURNAL_SEGMENT_BYTES... any value up to the cap, lower for tests),
 * journal_record closes the file with a checksum, keeps it as PATH.seg-N
 * (a link), and replaces PATH by a new segment, N+1: the same header with
 * a `segment` record naming the file before, and the checksum of the
 * state it starts from.  A game then never meets the cap.  At every
 * instant PATH is a whole journal of the game.  A rollover that fails
 * leaves the file as it was and is tried again 1 MiB later.
 */
void journal_set_segment_bytes(struct journal *j, size_t bytes);
int journal_segment(const struct journal *j);           /* the segment being written (1 first) */
/* NULL, or why the last rollover failed (the journal goes on in its file, under its cap). */
const char *journal_rollover_problem(const struct journal *j);
/* Bytes left for actions before the cap (0 once failed). */
size_t journal_room(const struct journal *j);
/* About how many more actions fit, at the mean size of those so far. */
long journal_actions_left(const struct journal *j);
/* Whether less than 1/JOURNAL_WARN_FRACTION of the cap is left: time to say so. */
bool journal_nearly_full(const struct journal *j);
long journal_durable_actions(const struct journal *j); /* of which were in the file at the last fsync */
/* The checksums the writer took and appended (journal_snapshots_background)
 * so far; how many of them the game's thread had to wait for at its next
 * record, and that wait in wall time, in all and at most, in microseconds
 * (a measure: --bench-keys presses keys back to back, a person does not). */
void journal_hash_waits(const struct journal *j, long *checks, long *waits, double *total_us, double *max_us);
const char *journal_path(const struct journal *j);

/* The one-letter record name of an action kind ('?' for none). */
char journal_kind_letter(enum action_kind k);

/* The CRC-32 (IEEE, as zlib's crc32) that ends every record: crc 0 starts, a previous value continues. */
uint32_t journal_crc(uint32_t crc, const void *data, size_t n);

#endif
