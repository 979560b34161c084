/*
 * cmd_check.c - `astray check`: validates level files (and bestiaries) and
 * tells a designer every mistake with its position, then what the parser
 * cannot see: regions, exits, monsters and items the player cannot reach,
 * and maps that scroll.  The checks themselves live in level.c and
 * bestiary.c; this file reads files, picks the output form and exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "cmd.h"
#include "level.h"

static void check_usage(FILE *out)
{
	fprintf(out,
		"usage: astray check LEVEL... [--quiet] [--format text|json] [--bestiary FILE]\n"
		"\n"
		"Validates level files (.lvl; Moving AI .map too) and prints every problem as\n"
		"  FILE:LINE:COL: error|warning|note: MESSAGE\n"
		"with the line and text column of the place in the file (for a map cell, where\n"
		"the cell is drawn: hex cell X,Y at column 2X + (Y & 1) + 1).\n"
		"\n"
		"errors    the file cannot be played: syntax, glyphs, no or two player starts,\n"
		"          no exit, an exit the player cannot reach\n"
		"warnings  floor regions, monsters and items the player can never reach\n"
		"notes     a map larger than 80x24 (it scrolls)\n"
		"\n"
		"A FILE ending in .txt is checked as a bestiary.  Monster letters are checked\n"
		"against --bestiary FILE, or else the bestiary.txt beside the first level, in\n"
		"levels/, or the installed one.\n"
		"\n"
		"options:\n"
		"  --quiet          print errors only, and no summary\n"
		"  --format text    (default) the lines above, then a summary line\n"
		"  --format json    JSON lines: one object per problem,\n"
		"                     {\"file\":F,\"line\":L,\"col\":C,\"severity\":S,\"message\":M}\n"
		"                   (line and col are 0 when the problem has no position), then\n"
		"                     {\"summary\":{\"files\":N,\"errors\":E,\"warnings\":W,\"notes\":K}}\n"
		"  --bestiary FILE  the bestiary that monster letters must be in\n"
		"\n"
		"exit status: 0 no errors, 1 errors, 2 bad usage\n");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void json_string(FILE *out, const char *s)
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

struct check_opts {
	bool quiet;
	bool json;
};

static void print_diags(const struct diag_list *d, const struct check_opts *o, int *notes)
{
	for (int i = 0; i < d->n; i++) {
		const struct diag *x = &d->items[i];
		if (x->severity == DIAG_NOTE)
			(*notes)++;
		if (o->quiet && x->severity != DIAG_ERROR)
			continue;
		if (o->json) {
			fputs("{\"file\":", stdout);
			json_string(stdout, x->file);
			printf(",\"line\":%d,\"col\":%d,\"severity\":\"%s\",\"message\":", x->line, x->col,
			       diag_severity_name(x->severity));
			json_string(stdout, x->msg);
			fputs("}\n", stdout);
		} else {
			char buf[700];
			diag_format(x, buf, sizeof buf);
			puts(buf);
		}
	}
}

/* Checks one file into d. */
static void check_file(const char *path, const struct bestiary *b, struct diag_list *d)
{
	size_t len = 0;
	char *text = level_read_file(path, &len);
	if (!text) {
		diag_add(d, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
		return;
	}
	if (ends_with(path, ".txt")) {
		struct bestiary tmp;
		bestiary_parse(path, text, len, &tmp, d);
		free(text);
		return;
	}
	struct level *lv = ends_with(path, ".map") ? level_from_movingai(path, text, len, 1, 0, 'g', d)
						   : level_parse(path, text, len, b, d);
	if (lv)
		level_analyse(lv, b, d);
	level_destroy(lv);
	free(text);
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { false, false };
	const char *bestiary_path = NULL;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	int nfiles = 0;
	if (!files)
		return 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			check_usage(stdout);
			free(files);
			return 0;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			o.quiet = true;
		} else if (strcmp(a, "--format") == 0 || strncmp(a, "--format=", 9) == 0) {
			const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (v && strcmp(v, "json") == 0) {
				o.json = true;
			} else if (v && strcmp(v, "text") == 0) {
				o.json = false;
			} else {
				fprintf(stderr, "astray check: --format takes text or json%s%s%s\n", v ? " (not '" : "",
					v ? v : "", v ? "')" : "");
				free(files);
				return 2;
			}
		} else if (strcmp(a, "--bestiary") == 0 || strncmp(a, "--bestiary=", 11) == 0) {
			bestiary_path = a[10] == '=' ? a + 11 : (i + 1 < argc ? argv[++i] : NULL);
			if (!bestiary_path) {
				fprintf(stderr, "astray check: --bestiary needs a FILE\n");
				free(files);
				return 2;
			}
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "astray check: unknown option '%s' (see astray check --help)\n", a);
			free(files);
			return 2;
		} else {
			files[nfiles++] = a;
		}
	}
	if (nfiles == 0) {
		fprintf(stderr, "astray check: no level files given\n");
		check_usage(stderr);
		free(files);
		return 2;
	}

	struct diag_list d = { 0 };
	struct bestiary *b = malloc(sizeof *b);
	bool have_bestiary = false;
	if (!b) {
		free(files);
		return 2;
	}
	if (bestiary_path) {
		have_bestiary = bestiary_load_file(bestiary_path, b, &d);
	} else {
		char path[4096];
		if (bestiary_default_path(files[0], path, sizeof path))
			have_bestiary = bestiary_load_file(path, b, &d);
		else
			diag_add(&d, DIAG_NOTE, "astray", 0, 0,
				 "no bestiary.txt found: monster letters are not checked (use --bestiary FILE)");
	}
	int errors = 0, warnings = 0, notes = 0;
	print_diags(&d, &o, &notes);
	errors += d.errors;
	warnings += d.warnings;
	diag_list_fini(&d);
	for (int i = 0; i < nfiles; i++) {
		check_file(files[i], have_bestiary ? b : NULL, &d);
		print_diags(&d, &o, &notes);
		errors += d.errors;
		warnings += d.warnings;
		diag_list_fini(&d);
	}
	if (o.json) {
		printf("{\"summary\":{\"files\":%d,\"errors\":%d,\"warnings\":%d,\"notes\":%d}}\n", nfiles, errors,
		       warnings, notes);
	} else if (!o.quiet) {
		printf("checked %d file%s: %d error%s, %d warning%s, %d note%s\n", nfiles, nfiles == 1 ? "" : "s",
		       errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", notes,
		       notes == 1 ? "" : "s");
	}
	free(b);
	free(files);
	return errors ? 1 : 0;
}
