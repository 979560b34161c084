/*
 * textfile.c - a whole file into memory for the parsers (levels, bestiaries,
 * Moving AI maps and scenarios), with one size cap and one rule for NUL
 * bytes, so that every command reads and refuses files alike.  It never
 * prints: the error comes back as an errno value.
 */
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int textfile_read(const char *path, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno ? errno : EIO;
	size_t cap = (size_t)1 << 16, used = 0;
	char *buf = malloc(cap + 1);
	int err = buf ? 0 : ENOMEM;
	while (!err) {
		if (used == cap) {
			if (cap >= TEXTFILE_MAX) {
				err = EFBIG;
				break;
			}
			char *grown = realloc(buf, 2 * cap + 1);
			if (!grown) {
				err = ENOMEM;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		errno = 0;
		size_t k = fread(buf + used, 1, cap - used, f);
		used += k;
		if (k == 0) {
			if (ferror(f))
				err = errno ? errno : EIO;
			break;
		}
	}
	fclose(f);
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}
