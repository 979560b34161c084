/* savefile.h - durable files: the data folder, atomic rewrites, damaged files set aside, injectable I/O. */
#ifndef ASTRAY_SAVEFILE_H
#define ASTRAY_SAVEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The calls that put bytes on disk, so tests can make any of them fail.
 * Each has the contract of the system call it stands for (write(2):
 * bytes written or -1 with errno; fsync(2): 0 or -1 with errno).  A NULL
 * struct, or a NULL member, means the real system call.
 */
struct savefile_io {
	ssize_t (*write)(void *ud, int fd, const void *buf, size_t n);
	int (*fsync)(void *ud, int fd);
	void *ud;
};

/* write(2) through io until all n bytes are written (short writes and
 * EINTR are retried).  Returns false with errno set on the first failure;
 * *done (may be NULL) gets the bytes written before it. */
bool savefile_write_all(const struct savefile_io *io, int fd, const void *buf, size_t n, size_t *done);
/* fsync(2) through io. */
bool savefile_fsync(const struct savefile_io *io, int fd);

/*
 * The data folder: "$XDG_DATA_HOME/astray" when xdg_data_home is an
 * absolute path, else "$HOME/.local/share/astray".  The caller passes the
 * two environment values (either may be NULL), so the choice is testable.
 * Returns buf, or NULL when neither gives a folder or buf is too small.
 */
const char *savefile_data_dir(char *buf, size_t size, const char *xdg_data_home, const char *home);

/* Creates dir and its missing parents (mode 0700 for the ones it makes).
 * False with a message naming the folder on failure. */
bool savefile_make_dir(const char *dir, char *err, size_t errlen);

/*
 * Whether dir may hold saves: a folder of this user's that no other user
 * can write (neither group nor others have write permission).  Another
 * user who can write there could replace a save, a snapshot or the score
 * list, or plant links and FIFOs in their place.  False with a message
 * that names the folder, its mode or owner, and what to do.
 */
bool savefile_private_dir(const char *dir, char *err, size_t errlen);

/* fsync of the folder that holds path (so a rename or a new name in it is
 * durable).  False with a message on failure. */
bool savefile_sync_dir(const struct savefile_io *io, const char *path, char *err, size_t errlen);

/*
 * Replaces (or, with replace false, creates: then an existing path is an
 * error and is left alone) path with exactly data[0..len): written to a
 * temporary file beside it, fsync, rename (or link, which never replaces),
 * fsync of the folder.  At every instant path holds either its old content
 * or the new one.  The temporary file is removed on failure.  False with a
 * message naming the file and the call that failed.
 */
bool savefile_write_atomic(const struct savefile_io *io, const char *path, const void *data, size_t len,
			   bool replace, char *err, size_t errlen);

/* The same with the file's permission bits given (savefile_write_atomic
 * makes private 0600 files; a level a designer saves is 0644).  A path
 * that is a symbolic link (replace true) replaces the file the link
 * names, beside it, and the link stays (savefile_write_atomic never
 * follows one: it replaces the link). */
bool savefile_write_atomic_mode(const struct savefile_io *io, const char *path, const void *data, size_t len,
				bool replace, mode_t mode, char *err, size_t errlen);

/*
 * Removes the temporary files savefile_write_atomic leaves beside path
 * when a program is killed before its rename or link: regular files named
 * "path.tmp-XXXXXX" (mkstemp's six characters), never anything else.  Such
 * a file never holds the only copy of anything (the rename or link had not
 * happened, or had and the name was not yet removed), but it may be the
 * temporary file of a write under way: call it only for a path no other
 * program writes now (the caller holds the folder's lock).  Returns how
 * many were removed (err then names the first that could not be, or is
 * ""), or -1 with a message when the folder cannot be read.
 */
int savefile_remove_temps(const char *path, char *err, size_t errlen);

/*
 * Keeps the current content of path under the first free name
 * "path.damaged-N" (N = 1, 2, ...) and, when move is true, removes the
 * name path (the content itself is never deleted).  aside (may be NULL)
 * gets the new name.  The folder is synced.  False with a message on failure.
 */
bool savefile_set_aside(const struct savefile_io *io, const char *path, bool move, char *aside,
			size_t aside_size, char *err, size_t errlen);

/* savefile_set_aside under "path.LABEL-N" (e.g. "rules-1": a save of
 * other rules, kept unchanged and not called damaged). */
bool savefile_keep_as(const struct savefile_io *io, const char *path, const char *label, bool move, char *aside,
		      size_t aside_size, char *err, size_t errlen);

/* Reads a whole regular file into a NUL-terminated buffer of exactly its
 * size + 1 (caller frees); at most max bytes.  NULL with a message on
 * failure (missing, too large, not a regular file).  Never blocks on the
 * opening: a FIFO, a folder or a device is refused with a message naming
 * the file and what it is. */
char *savefile_read(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* What a file of this st_mode is, for messages: "a FIFO", "a folder", "a device"... */
const char *savefile_kind(mode_t mode);

/* The CRC-32 (IEEE 802.3, as zlib's crc32) of data: crc 0 starts one, a
 * previous value continues it.  Journals and snapshots frame their records with it. */
uint32_t savefile_crc32(uint32_t crc, const void *data, size_t n);

/* savefile_crc32 of A followed by B, from crc1 = savefile_crc32(0, A, .)
 * and crc2 = savefile_crc32(0, B, len2) alone, without reading them. */
uint32_t savefile_crc32_combine(uint32_t crc1, uint32_t crc2, size_t len2);

#endif
