/*
 * cli.c - the pieces every subcommand shares, so that they accept the same
 * spellings and show the same things alike: numbers of options, file name
 * suffixes, diagnostics lists and the .lvl files of a folder.  The option
 * tables themselves are in opt.c.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

void cli_print_diags(FILE *out, const struct diag_list *d, bool errors_only, bool json)
{
	for (int i = 0; i < d->n; i++) {
		const struct diag *x = &d->items[i];
		if (errors_only && x->severity != DIAG_ERROR)
			continue;
		if (json) {
			fputs("{\"file\":", out);
			cli_json_string(out, x->file);
			fprintf(out, ",\"line\":%d,\"col\":%d,\"severity\":\"%s\",\"message\":", x->line, x->col,
				diag_severity_name(x->severity));
			cli_json_string(out, x->msg);
			fputs("}\n", out);
		} else {
			char buf[1024];
			diag_format(x, buf, sizeof buf);
			fprintf(out, "%s\n", buf);
		}
	}
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
