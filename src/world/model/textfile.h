/* textfile.h - reading a whole file into memory, the one way every loader does it. */
#ifndef ASTRAY_TEXTFILE_H
#define ASTRAY_TEXTFILE_H

#include <errno.h>
#include <stddef.h>

/* Largest file read (a 4096x4096 level is 16 MiB of text). */
#define TEXTFILE_MAX ((size_t)64 << 20)

/*
 * Reads the file at `path` whole.  On success returns 0, *text is an owned
 * buffer of *len bytes followed by one NUL (the caller frees it), and NUL
 * bytes inside the file are kept as they are: the parsers take the length
 * and report them with their position.  On failure returns the errno value
 * (EFBIG for a file larger than TEXTFILE_MAX, ENOMEM, EISDIR for a folder,
 * TEXTFILE_ENOTREG for a FIFO or device, what open says...;
 * textfile_strerror gives the text) and sets *text to NULL.  Never prints.
 */
int textfile_read(const char *path, char **text, size_t *len);

/* The error for a path that is not a regular file (a FIFO, a device, a
 * socket; a folder gives EISDIR).  ENODEV, so that a caller that passes it
 * to strerror still says something true ("No such device"). */
#define TEXTFILE_ENOTREG ENODEV

/* The message for an error of textfile_read: strerror, but clearer for
 * TEXTFILE_ENOTREG and EFBIG. */
const char *textfile_strerror(int err);

/* One line of a "key: value" file (the bestiary, the item catalogue): the
 * key is s[key, key_end), the value s[value, value_end), both trimmed of
 * spaces, the value cut before a comment (';' at its start or after a
 * space). */
struct textfile_kv {
	size_t key, key_end, value, value_end;
};

enum textfile_kv_kind {
	TEXTFILE_KV_BLANK,    /* empty, spaces or a comment */
	TEXTFILE_KV_PAIR,     /* *out holds the key and the value */
	TEXTFILE_KV_BAD       /* msg says why, at 1-based column *col */
};

/*
 * Splits line s (n bytes, no line break) of such a file.  A tab, a
 * control byte or a byte past ASCII is an error ("byte 0x09 (the WHAT is
 * plain ASCII text)"), and so is a line with no colon ("expected 'key:
 * value' (HINT)").
 */
enum textfile_kv_kind textfile_kv_split(const char *s, size_t n, const char *what, const char *hint,
					struct textfile_kv *out, int *col, char *msg, size_t msgsize);

#endif
