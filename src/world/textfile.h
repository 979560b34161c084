/* textfile.h - reading a whole file into memory, the one way every loader does it. */
#ifndef ASTRAY_TEXTFILE_H
#define ASTRAY_TEXTFILE_H

#include <stddef.h>

/* Largest file read (a 4096x4096 level is 16 MiB of text). */
#define TEXTFILE_MAX ((size_t)64 << 20)

/*
 * Reads the file at `path` whole.  On success returns 0, *text is an owned
 * buffer of *len bytes followed by one NUL (the caller frees it), and NUL
 * bytes inside the file are kept as they are: the parsers take the length
 * and report them with their position.  On failure returns the errno value
 * (EFBIG for a file larger than TEXTFILE_MAX, ENOMEM, EISDIR, what fopen
 * says...; strerror gives the text) and sets *text to NULL.  Never prints.
 */
int textfile_read(const char *path, char **text, size_t *len);

#endif
