/*
 * cli.c - the pieces every subcommand shares, so that they accept the same
 * spellings and show the same things alike: numbers of options, file name
 * suffixes, diagnostics lists, the .lvl files of a folder and the folders
 * of the program's own levels.  The option tables themselves are in opt.c.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
#endif
#include "cli.h"

#include "bestiary.h"

#ifndef ASTRAY_DATADIR
#define ASTRAY_DATADIR "/usr/local/share/astray"
#endif

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool cli_parse_seed(const char *s, uint64_t *out)
{
	if (*s < '0' || *s > '9') /* strtoull would take "-1" and " 7" */
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = (uint64_t)v;
	return true;
}

bool cli_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

void cli_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Bytes [s, s+n) as one UTF-8 character that is printable (not a C1
 * control); its length, or 0 when it is not one. */
static size_t utf8_printable(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
	if (n == 0 || c > 0xf4)
		return 0;
	unsigned long cp = c & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return n;
}

/* cli_escape, keeping '\n' as it is when lines is true. */
static size_t escape(char *dst, size_t size, const char *src, bool lines)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t used = 0, written = 0;
	bool full = size == 0;
	while (*s) {
		char piece[8];
		size_t k;
		size_t u = *s >= 0x80 ? utf8_printable(s) : 0;
		if (u) {
			memcpy(piece, s, u);
			k = u;
			s += u;
		} else if ((*s < 0x20 && !(lines && *s == '\n')) || *s == 0x7f || *s >= 0x80) {
			k = (size_t)snprintf(piece, sizeof piece, "\\x%02x", *s);
			s++;
		} else {
			piece[0] = (char)*s++;
			k = 1;
		}
		if (!full && written + k < size) {
			memcpy(dst + written, piece, k);
			written += k;
		} else {
			full = true; /* never half a piece; keep counting */
		}
		used += k;
	}
	if (size)
		dst[written] = '\0';
	return used;
}

size_t cli_escape(char *dst, size_t size, const char *src)
{
	return escape(dst, size, src, false);
}

size_t cli_escape_text(char *dst, size_t size, const char *src)
{
	return escape(dst, size, src, true);
}

/* s escaped (lines: its line breaks kept), whole whatever its length: in
 * small (SMALL bytes) when it fits, else in memory the caller frees
 * (escaped_free), or cut to small when there is none (still escaped). */
#define SMALL 512
static char *escaped(const char *s, bool lines, char small[SMALL])
{
	size_t need = escape(small, SMALL, s, lines);
	if (need < SMALL)
		return small;
	char *big = malloc(need + 1);
	if (!big)
		return small;
	escape(big, need + 1, s, lines);
	return big;
}

static void escaped_free(char *text, const char small[SMALL])
{
	if (text != small)
		free(text);
}

/* Prints s escaped (lines: its line breaks kept), whole whatever its length. */
static void put_escaped(FILE *out, const char *s, bool lines)
{
	char small[SMALL];
	char *text = escaped(s, lines, small);
	fputs(text, out);
	escaped_free(text, small);
}

void cli_put_text(FILE *out, const char *s)
{
	put_escaped(out, s, true);
}

/* The columns of the terminal `out` writes to; 0 when it is not one (a
 * pipe, a file, a test's capture: the text goes out as it is). */
static int out_columns(FILE *out)
{
	const int fd = fileno(out);
	struct winsize ws;
	if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col < 20)
		return 0;
	return ws.ws_col;
}

/* Columns a text takes: its bytes but UTF-8 continuation bytes. */
static int text_columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Writes t (escaped already) in lines of at most `width` columns, broken
 * at spaces, the first line starting at column `col`; a word longer than
 * a line stays whole (a path), and the text's own newlines stay. */
static void put_wrapped(FILE *out, const char *t, int col, int width)
{
	while (*t) {
		if (*t == '\n') {
			fputc('\n', out);
			col = 0;
			t++;
			continue;
		}
		const size_t spaces = strspn(t, " ");
		const size_t word = strcspn(t + spaces, " \n");
		const int need = text_columns(t, spaces + word);
		if (col > 0 && col + need > width) {
			fputc('\n', out); /* the spaces before the word go with the break */
			fwrite(t + spaces, 1, word, out);
			col = text_columns(t + spaces, word);
		} else {
			fwrite(t, 1, spaces + word, out);
			col += need;
		}
		t += spaces + word;
	}
}

void cli_message(FILE *out, const char *prog, const char *msg)
{
	char small[SMALL];
	char *text = escaped(msg, true, small);
	fprintf(out, "%s: ", prog);
	const int width = out_columns(out);
	if (width > 0) /* a terminal: lines broken between words, not where its edge falls */
		put_wrapped(out, text, text_columns(prog, strlen(prog)) + 2, width);
	else
		fputs(text, out);
	fputc('\n', out);
	escaped_free(text, small);
}

void cli_put_shell_word(FILE *out, const char *s)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=+@%";
	if (*s && strspn(s, plain) == strlen(s)) {
		fputs(s, out);
		return;
	}
	/* a control byte (C0, DEL, C1, not UTF-8) makes the escaped text longer */
	if (escape(NULL, 0, s, false) == strlen(s)) {
		/* '...' takes every byte as it is but the quote itself */
		fputc('\'', out);
		for (; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", out);
			else
				fputc(*s, out);
		}
		fputc('\'', out);
		return;
	}
	/* $'...' (bash, zsh, ksh): the control bytes as \xNN, nothing raw */
	fputs("$'", out);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t u = *p >= 0x80 ? utf8_printable(p) : 0;
		if (u) {
			fwrite(p, 1, u, out);
			p += u;
			continue;
		}
		if (*p < 0x20 || *p >= 0x7f)
			fprintf(out, "\\x%02x", *p);
		else if (*p == '\'' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else
			fputc(*p, out);
		p++;
	}
	fputc('\'', out);
}

void cli_put_escaped(FILE *out, const char *s)
{
	put_escaped(out, s, false);
}

void cli_csv_field(FILE *out, const char *s)
{
	char small[512];
	size_t need = cli_escape(small, sizeof small, s);
	char *e = need < sizeof small ? small : malloc(need + 1);
	if (!e) {
		e = small;
	} else if (e != small) {
		cli_escape(e, need + 1, s);
	}
	if (!strpbrk(e, ",\"")) {
		fputs(e, out);
	} else {
		fputc('"', out);
		for (const char *p = e; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	if (e != small)
		free(e);
}

/* n with a comma every three digits: 2097140 -> "2,097,140". */
static void group_digits(int n, char *buf, size_t size)
{
	char raw[16];
	int len = snprintf(raw, sizeof raw, "%d", n), out = 0;
	for (int i = 0; i < len && (size_t)out + 2 < size; i++) {
		if (i > 0 && raw[i - 1] != '-' && (len - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = raw[i];
	}
	buf[out] = '\0';
}

/* One diagnostic; `code` (never empty in JSON: "other" stands for none)
 * and the cell x, y (-1 for none) are in the JSON form only. */
static void print_one(FILE *out, const char *file, int line, int col, const char *sev, const char *msg,
		      const char *code, int x, int y, bool json)
{
	if (json) {
		fputs("{\"file\":", out);
		cli_json_string(out, file);
		fprintf(out, ",\"line\":%d,\"col\":%d,\"x\":%d,\"y\":%d,\"severity\":\"%s\",\"code\":", line, col,
			x, y, sev);
		cli_json_string(out, code && *code ? code : "other");
		fputs(",\"message\":", out);
		cli_json_string(out, msg);
		fputs("}\n", out);
		return;
	}
	cli_put_escaped(out, file);
	if (line > 0 && col > 0)
		fprintf(out, ":%d:%d", line, col);
	else if (line > 0)
		fprintf(out, ":%d", line);
	fprintf(out, ": %s: ", sev);
	cli_put_escaped(out, msg);
	fputc('\n', out);
}

void cli_print_diags(FILE *out, const struct diag_list *d, bool errors_only, bool json)
{
	for (int i = 0; i < d->n; i++) {
		const struct diag *x = &d->items[i];
		if (errors_only && x->severity != DIAG_ERROR)
			continue;
		print_one(out, x->file, x->line, x->col, diag_severity_name(x->severity), x->msg, x->code, x->x, x->y,
			  json);
	}
	static const char *const plural[DIAG_SEVERITIES] = { "errors", "warnings", "notes" };
	for (int s = 0; s < DIAG_SEVERITIES; s++) {
		if (!d->dropped[s] || (errors_only && s != DIAG_ERROR))
			continue;
		char count[32], msg[128];
		group_digits(d->dropped[s], count, sizeof count);
		snprintf(msg, sizeof msg, "... and %s more %s (only the first %d are shown)", count, plural[s],
			 DIAG_KEEP_PER_SEVERITY);
		print_one(out, d->dropped_file[s] ? d->dropped_file[s] : "astray", 0, 0,
			  diag_severity_name((enum diag_severity)s), msg, "more", -1, -1, json);
	}
	if (d->lost) {
		char msg[128];
		snprintf(msg, sizeof msg, "out of memory: %d diagnostic%s could not be kept", d->lost,
			 d->lost == 1 ? "" : "s");
		print_one(out, "astray", 0, 0, "error", msg, "out-of-memory", -1, -1, json);
	}
}

int cli_finish_output(const char *prog, int status)
{
	errno = 0;
	bool bad = fflush(stdout) != 0 || ferror(stdout);
	int err = errno;
	if (!bad)
		return status;
	fprintf(stderr, "%s: error writing to standard output: %s\n", prog, err ? strerror(err) : "write error");
	return status ? status : 1;
}

static int is_level_file(const struct dirent *e)
{
	return e->d_name[0] != '.' && cli_ends_with(e->d_name, ".lvl");
}

void cli_names_free(char **names, int n)
{
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

char **cli_level_files(const char *dir, int *n)
{
	struct dirent **list;
	int k = scandir(dir, &list, is_level_file, alphasort);
	if (k < 0)
		return NULL;
	char **out = calloc((size_t)k + 1, sizeof *out);
	int made = 0;
	const char *sep = cli_ends_with(dir, "/") ? "" : "/";
	for (int i = 0; i < k; i++) {
		size_t len = strlen(dir) + strlen(list[i]->d_name) + 2;
		char *path = out ? malloc(len) : NULL;
		if (path) {
			snprintf(path, len, "%s%s%s", dir, sep, list[i]->d_name);
			out[made++] = path;
		}
		free(list[i]);
	}
	free(list);
	if (!out || made < k) {
		cli_names_free(out, made);
		errno = ENOMEM;
		return NULL;
	}
	*n = k;
	return out;
}

int cli_program_level_dirs(char dirs[][CLI_PATH_MAX])
{
	char exe[CLI_PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	static const char *const under[CLI_OWN_DIRS] = { "../levels", "../../levels", "../share/astray/levels" };
	int k = 0;
	for (int i = 0; i < CLI_OWN_DIRS; i++) {
		int len = snprintf(dirs[k], CLI_PATH_MAX, "%s/%s", exe, under[i]);
		k += len > 0 && len < CLI_PATH_MAX;
	}
	return k;
}

const char *cli_program_levels(char *buf, size_t size)
{
	char dirs[CLI_OWN_DIRS][CLI_PATH_MAX], b[CLI_PATH_MAX + 16];
	int k = cli_program_level_dirs(dirs);
	for (int i = 0; i < k; i++) {
		struct stat st;
		int len = snprintf(b, sizeof b, "%s/bestiary.txt", dirs[i]);
		if (len > 0 && (size_t)len < sizeof b && stat(b, &st) == 0 && S_ISREG(st.st_mode)) {
			/* without the program's folder and its ..: what a report names */
			char whole[PATH_MAX];
			const char *dir = realpath(dirs[i], whole) ? whole : dirs[i];
			if (strlen(dir) >= size)
				continue;
			snprintf(buf, size, "%s", dir);
			return buf;
		}
	}
	return NULL;
}

const char *cli_bestiary_path(const char *near, char *buf, size_t size)
{
	if (bestiary_default_path(near, buf, size))
		return buf;
	char own[CLI_PATH_MAX];
	if (!cli_program_levels(own, sizeof own))
		return NULL;
	int len = snprintf(buf, size, "%s/bestiary.txt", own);
	return len > 0 && (size_t)len < size ? buf : NULL;
}

bool cli_bestiary_load(const char *near, struct bestiary *out, struct diag_list *diags)
{
	char path[CLI_PATH_MAX + 16];
	if (cli_bestiary_path(near, path, sizeof path))
		return bestiary_load_file(path, out, diags);
	memset(out, 0, sizeof *out);
	diag_add(diags, DIAG_ERROR, near ? near : "astray", 0, 0,
		 "no bestiary.txt found (looked beside the level, in levels/ of astray's source folder, in "
		 "%s/levels/ and in the levels beside the program); give --bestiary FILE",
		 ASTRAY_DATADIR);
	return false;
}
