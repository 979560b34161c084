/*
 * textfile.c - a whole file into memory for the parsers (levels, bestiaries,
 * Moving AI maps and scenarios), with one size cap and one rule for NUL
 * bytes, so that every command reads and refuses files alike.  Only
 * regular files are read: a FIFO, a terminal or /dev/zero would block
 * forever or never end.  It never prints: the error comes back as an
 * errno value.
 */
#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int textfile_read(const char *path, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO that has no writer must not wait for one */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno ? errno : EIO;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno ? errno : EIO;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : TEXTFILE_ENOTREG;
	}
	if ((unsigned long long)st.st_size > TEXTFILE_MAX) {
		close(fd);
		return EFBIG;
	}
	/* the size may change while it is read: the cap is checked again */
	size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : (size_t)1 << 12, used = 0;
	char *buf = malloc(cap + 1);
	int err = buf ? 0 : ENOMEM;
	while (!err) {
		if (used == cap) {
			if (cap > TEXTFILE_MAX) {
				err = EFBIG;
				break;
			}
			size_t grown_cap = 2 * cap > TEXTFILE_MAX + 1 ? TEXTFILE_MAX + 1 : 2 * cap;
			char *grown = realloc(buf, grown_cap + 1);
			if (!grown) {
				err = ENOMEM;
				break;
			}
			buf = grown;
			cap = grown_cap;
		}
		ssize_t k = read(fd, buf + used, cap - used);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			err = errno ? errno : EIO;
			break;
		}
		if (k == 0)
			break;
		used += (size_t)k;
	}
	close(fd);
	if (!err && used > TEXTFILE_MAX)
		err = EFBIG;
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}

const char *textfile_strerror(int err)
{
	if (err == TEXTFILE_ENOTREG)
		return "not a regular file (a FIFO, device or socket is not read)";
	if (err == EFBIG)
		return "file too large (at most 64 MiB)";
	return strerror(err);
}

enum textfile_kv_kind textfile_kv_split(const char *s, size_t n, const char *what, const char *hint,
					struct textfile_kv *out, int *col, char *msg, size_t msgsize)
{
	for (size_t i = 0; i < n; i++) {
		const unsigned char ch = (unsigned char)s[i];
		if (ch == '\t' || ch < 0x20 || ch >= 0x7f) {
			if (ch == '\t')
				snprintf(msg, msgsize, "tab character (use spaces)");
			else
				snprintf(msg, msgsize, "byte 0x%02X (the %s is plain ASCII text)", ch, what);
			*col = (int)i + 1;
			return TEXTFILE_KV_BAD;
		}
	}
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] == ';')
		return TEXTFILE_KV_BLANK;
	const size_t ks = i;
	while (i < n && s[i] != ':')
		i++;
	if (i == n) {
		snprintf(msg, msgsize, "expected 'key: value' (%s)", hint);
		*col = (int)ks + 1;
		return TEXTFILE_KV_BAD;
	}
	size_t ke = i;
	while (ke > ks && s[ke - 1] == ' ')
		ke--;
	size_t v = i + 1;
	while (v < n && s[v] == ' ')
		v++;
	size_t ve = v;
	for (size_t j = v; j < n; j++) {
		if (s[j] == ';' && (j == v || s[j - 1] == ' '))
			break;
		ve = j + 1;
	}
	while (ve > v && s[ve - 1] == ' ')
		ve--;
	*out = (struct textfile_kv){ .key = ks, .key_end = ke, .value = v, .value_end = ve };
	return TEXTFILE_KV_PAIR;
}
