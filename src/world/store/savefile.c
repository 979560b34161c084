/*
 * savefile.c - the rules every file astray keeps for the player follows:
 * where the data folder is, how a file is replaced so that a crash at any
 * instant leaves either the old or the new content (temporary file, fsync,
 * rename, fsync of the folder), and how a damaged file is kept under
 * another name instead of being overwritten or deleted.
 *
 * It does not know what the files hold (journal.c and scores.c do), never
 * prints and never exits: every failure comes back as false and a message
 * naming the file and the call that failed.  Writes and fsyncs go through
 * struct savefile_io so tests can fail any one of them.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
#endif
#include "savefile.h"

#include "bigmem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_CAP 4096

bool savefile_write_all(const struct savefile_io *io, int fd, const void *buf, size_t n, size_t *done)
{
	const char *p = buf;
	size_t left = n;
	if (done)
		*done = 0;
	while (left > 0) {
		ssize_t w = io && io->write ? io->write(io->ud, fd, p, left) : write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (w == 0) { /* write(2) never does this for a regular file; do not loop forever */
			errno = EIO;
			return false;
		}
		p += w;
		left -= (size_t)w;
		if (done)
			*done += (size_t)w;
	}
	return true;
}

bool savefile_fsync(const struct savefile_io *io, int fd)
{
	int r = io && io->fsync ? io->fsync(io->ud, fd) : fsync(fd);
	return r == 0;
}

const char *savefile_data_dir(char *buf, size_t size, const char *xdg_data_home, const char *home)
{
	int n;
	if (xdg_data_home && xdg_data_home[0] == '/')
		n = snprintf(buf, size, "%s/astray", xdg_data_home);
	else if (home && home[0])
		n = snprintf(buf, size, "%s/.local/share/astray", home);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}

bool savefile_make_dir(const char *dir, char *err, size_t errlen)
{
	char path[PATH_CAP];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof path) {
		snprintf(err, errlen, "%s: not a usable folder name", dir);
		return false;
	}
	memcpy(path, dir, n + 1);
	/* every prefix ending before a '/', then the whole path */
	for (size_t i = 1; i <= n; i++) {
		if (i < n && path[i] != '/')
			continue;
		char c = path[i];
		path[i] = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot create the folder: %s", path, strerror(errno));
			return false;
		}
		path[i] = c;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", dir);
		return false;
	}
	return true;
}

bool savefile_private_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", dir);
		return false;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen,
			 "%s: the folder belongs to another user (uid %lu): its owner could change or replace the "
			 "saves in it; use a folder of your own (--data DIR), or --no-save",
			 dir, (unsigned long)st.st_uid);
		return false;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen,
			 "%s: other users can write to this folder (mode %04o): they could change or replace the "
			 "saves in it; make it yours alone (chmod go-w %s), use another (--data DIR), or --no-save",
			 dir, (unsigned)(st.st_mode & 07777), dir);
		return false;
	}
	return true;
}

/* The folder part of path ("." when it has none). */
static void dir_of(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		snprintf(out, size, ".");
	} else if (slash == path) {
		snprintf(out, size, "/");
	} else {
		size_t n = (size_t)(slash - path);
		snprintf(out, size, "%.*s", (int)n, path);
	}
}

bool savefile_sync_dir(const struct savefile_io *io, const char *path, char *err, size_t errlen)
{
	char dir[PATH_CAP];
	dir_of(path, dir, sizeof dir);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open the folder to sync it: %s", dir, strerror(errno));
		return false;
	}
	bool ok = savefile_fsync(io, fd);
	if (!ok)
		snprintf(err, errlen, "%s: fsync of the folder failed: %s", dir, strerror(errno));
	close(fd);
	return ok;
}

static bool write_atomic(const struct savefile_io *io, const char *path, const void *data, size_t len, bool replace,
			 mode_t mode, char *err, size_t errlen);

bool savefile_write_atomic(const struct savefile_io *io, const char *path, const void *data, size_t len,
			   bool replace, char *err, size_t errlen)
{
	return write_atomic(io, path, data, len, replace, 0600, err, errlen);
}

bool savefile_write_atomic_mode(const struct savefile_io *io, const char *path, const void *data, size_t len,
				bool replace, mode_t mode, char *err, size_t errlen)
{
	/* a level kept as a link to the real file (levels shared between
	 * projects): the file it names is replaced, in its own folder, and
	 * the link stays; a rename onto the link would replace the link by a
	 * copy and leave the real level as it was */
	struct stat st;
	if (replace && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *target = realpath(path, NULL);
		if (!target) {
			snprintf(err, errlen, "%s: a link to a file that cannot be reached: %s", path, strerror(errno));
			return false;
		}
		bool ok = write_atomic(io, target, data, len, true, mode, err, errlen);
		free(target);
		return ok;
	}
	return write_atomic(io, path, data, len, replace, mode, err, errlen);
}

static bool write_atomic(const struct savefile_io *io, const char *path, const void *data, size_t len, bool replace,
			 mode_t mode, char *err, size_t errlen)
{
	char tmp[PATH_CAP];
	if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp) {
		snprintf(err, errlen, "%s: file name too long", path);
		return false;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
		return false;
	}
	const char *what = NULL;
	if (fchmod(fd, mode) != 0)
		what = "chmod";
	else if (!savefile_write_all(io, fd, data, len, NULL))
		what = "write";
	else if (!savefile_fsync(io, fd))
		what = "fsync";
	int e = errno;
	if (close(fd) != 0 && !what) {
		what = "close";
		e = errno;
	}
	if (!what) {
		if (replace) {
			if (rename(tmp, path) != 0) {
				what = "rename";
				e = errno;
			}
		} else if (link(tmp, path) != 0) {
			what = errno == EEXIST ? "create (the file already exists)" : "link";
			e = errno;
		} else {
			unlink(tmp);
		}
	}
	if (what) {
		unlink(tmp);
		snprintf(err, errlen, "%s: %s failed: %s", what[0] == 'w' || what[0] == 'f' ? tmp : path, what,
			 strerror(e));
		return false;
	}
	return savefile_sync_dir(io, path, err, errlen);
}

/* Whether name is "base.tmp-" and six characters of mkstemp's alphabet. */
static bool temp_name_of(const char *name, const char *base)
{
	size_t n = strlen(base);
	if (strncmp(name, base, n) != 0 || strncmp(name + n, ".tmp-", 5) != 0)
		return false;
	const char *x = name + n + 5;
	if (strlen(x) != 6)
		return false;
	for (int i = 0; i < 6; i++)
		if (!((x[i] >= 'a' && x[i] <= 'z') || (x[i] >= 'A' && x[i] <= 'Z') || (x[i] >= '0' && x[i] <= '9')))
			return false;
	return true;
}

int savefile_remove_temps(const char *path, char *err, size_t errlen)
{
	char dir[PATH_CAP];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else if ((size_t)(slash - path) < sizeof dir)
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	else {
		snprintf(err, errlen, "%s: file name too long", path);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: cannot read the folder: %s", dir, strerror(errno));
		return -1;
	}
	int removed = 0;
	err[0] = '\0';
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!temp_name_of(e->d_name, base))
			continue;
		char p[PATH_CAP + 300];
		struct stat st;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue; /* only what mkstemp made: never a folder or a link */
		if (unlink(p) == 0)
			removed++;
		else if (!err[0])
			snprintf(err, errlen, "%s: cannot remove it: %s", p, strerror(errno));
	}
	closedir(d);
	return removed;
}

bool savefile_set_aside(const struct savefile_io *io, const char *path, bool move, char *aside,
			size_t aside_size, char *err, size_t errlen)
{
	return savefile_keep_as(io, path, "damaged", move, aside, aside_size, err, errlen);
}

bool savefile_keep_as(const struct savefile_io *io, const char *path, const char *label, bool move, char *aside,
		      size_t aside_size, char *err, size_t errlen)
{
	char name[PATH_CAP];
	for (int i = 1; i < 10000; i++) {
		if (snprintf(name, sizeof name, "%s.%s-%d", path, label, i) >= (int)sizeof name) {
			snprintf(err, errlen, "%s: file name too long", path);
			return false;
		}
		/* link never replaces: an older damaged copy is never lost */
		if (link(path, name) == 0) {
			if (move && unlink(path) != 0) {
				snprintf(err, errlen, "%s: kept as %s but cannot remove the old name: %s", path, name,
					 strerror(errno));
				return false;
			}
			if (aside)
				snprintf(aside, aside_size, "%s", name);
			return savefile_sync_dir(io, path, err, errlen);
		}
		if (errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot keep it as %s: %s", path, name, strerror(errno));
			return false;
		}
	}
	snprintf(err, errlen, "%s: too many %s copies beside it", path, label);
	return false;
}

const char *savefile_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "not a regular file";
}

char *savefile_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO that has no writer must not wait for one
	 * (it is then refused below, as a folder or a device is) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (%s): not read", path, savefile_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	if ((unsigned long long)st.st_size > max) {
		snprintf(err, errlen, "%s: too large (%lld bytes; at most %zu)", path, (long long)st.st_size, max);
		close(fd);
		return NULL;
	}
	size_t size = (size_t)st.st_size;
	char *buf = big_malloc(size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	size_t got = 0;
	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break; /* shrank while reading: what was read is what there is */
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Eight bytes at a time (slicing-by-8): the 16 MB text of a 4096x4096
 * level is checked when a save is read (once: the header's and the game's
 * CRCs are joined from it, savefile_crc32_combine), and four bits at a
 * time that took about 0.2 s of a resume. */
#include "crc32_tables.inc"

uint32_t savefile_crc32(uint32_t crc, const void *data, size_t n)
{
	const unsigned char *p = data;
	crc = ~crc;
	for (; n >= 8; p += 8, n -= 8) {
		const uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		const uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		crc = crc_tables[7][lo & 0xff] ^ crc_tables[6][(lo >> 8) & 0xff] ^ crc_tables[5][(lo >> 16) & 0xff] ^
		      crc_tables[4][lo >> 24] ^ crc_tables[3][hi & 0xff] ^ crc_tables[2][(hi >> 8) & 0xff] ^
		      crc_tables[1][(hi >> 16) & 0xff] ^ crc_tables[0][hi >> 24];
	}
	for (; n > 0; p++, n--)
		crc = (crc >> 8) ^ crc_tables[0][(crc ^ *p) & 0xff];
	return ~crc;
}

/*
 * The CRC of A and B one after the other from the CRCs of A and B alone
 * and B's length: a CRC is linear over GF(2), so the CRC of A followed by
 * n bytes is A's register multiplied by x^(8n) modulo the polynomial,
 * added to B's.  The register is kept reflected (bit 31 the coefficient
 * of x^0), as the tables are.  Lets the journal's reader take the CRC of a
 * 16 MB level text once and use it for its record, the header's CRC and
 * the game's (it took three passes).
 */
static uint32_t gf2_mul(uint32_t a, uint32_t b)
{
	uint32_t p = 0;
	for (uint32_t m = 1u << 31; m; m >>= 1) {
		if (a & m)
			p ^= b;
		b = (b >> 1) ^ (0xedb88320u & (0u - (b & 1u))); /* b times x */
	}
	return p;
}

uint32_t savefile_crc32_combine(uint32_t crc1, uint32_t crc2, size_t len2)
{
	/* x^(8 len2): x^8 squared for each bit of len2 from the lowest */
	uint32_t power = 1u << 31, square = 1u << (31 - 8); /* x^0, x^8 */
	for (size_t n = len2; n; n >>= 1) {
		if (n & 1)
			power = gf2_mul(power, square);
		square = gf2_mul(square, square);
	}
	return gf2_mul(power, crc1) ^ crc2;
}
