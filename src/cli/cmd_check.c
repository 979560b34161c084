/*
 * cmd_check.c - `astray check`: validates level files (and bestiaries) and
 * tells a designer every mistake with its position, then what the parser
 * cannot see: regions, exits, monsters and items the player cannot reach,
 * and maps that scroll.  The checks themselves live in level.c and
 * bestiary.c; this file reads files, picks the output form and exit status.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bestiary.h"
#include "cli.h"
#include "cmd.h"
#include "help.h"
#include "level.h"
#include "opt.h"
#include "textfile.h"

struct check_args {
	bool quiet;
	int format;              /* index in format_choices */
	const char *bestiary;    /* --bestiary FILE, or NULL for the default */
};

enum { FORMAT_TEXT, FORMAT_JSON };
static const char *const format_choices[] = { "text", "json", NULL };

#define ARG(field) offsetof(struct check_args, field)
static const struct opt check_opts[] = {
	{ .name = "quiet", .short_name = 'q', .kind = OPT_FLAG, .offset = ARG(quiet),
	  .help = "print errors only, and no summary" },
	{ .name = "format", .kind = OPT_CHOICE, .offset = ARG(format), .metavar = "F", .choices = format_choices,
	  .help = "text (default): the lines above, then a summary line\n"
		  "json: JSON lines, one object per problem, then the summary (below)" },
	{ .name = "bestiary", .kind = OPT_STRING, .offset = ARG(bestiary), .metavar = "FILE",
	  .help = "the bestiary that monster letters must be in" },
};
#undef ARG

static void check_usage(FILE *out);

static const struct opt_command check_command = {
	"check", check_opts, (int)(sizeof check_opts / sizeof check_opts[0]), check_usage
};

const struct opt_command *cmd_check_opts(size_t *args_size)
{
	*args_size = sizeof(struct check_args);
	return &check_command;
}

static void check_usage(FILE *out)
{
	help_usage(out, "check", (const char *const[]){ "LEVEL|DIR... [--quiet] [--format text|json] [--bestiary FILE]",
							 NULL });
	help_text(out, 0,
		  "\nValidates level files and prints every problem as\n"
		  "  FILE:LINE:COL: error|warning|note: MESSAGE\n"
		  "with the line and text column of the place in the file.  A map cell's column is where the "
		  "cell is drawn: hex cell X,Y at column 2X + (Y & 1) + 1.  A LEVEL is a .lvl file or a Moving "
		  "AI .map; a folder stands for its .lvl files in name order, as play takes them.\n"
		  "\n"
		  "errors\tthe file cannot be played: syntax, glyphs, no or two player starts, no exit, an exit "
		  "the player cannot reach\n"
		  "warnings\tfloor regions, monsters and items the player can never reach (more than three "
		  "one-cell regions in one line)\n"
		  "notes\ta map larger than 80x24 (it scrolls)\n"
		  "\n"
		  "Causes come first: errors, then warnings, then notes; a missing start or exit after the other "
		  "errors.  A hex or diamond row shifted by one column, or a stray cell in it, is one error at its "
		  "column, and the rest of the row is still read.  On diamond4 an exit cut off only at cell "
		  "corners (a corridor straight across a row) is explained.\n"
		  "\n"
		  "A FILE ending in items.txt is checked as an item catalogue, any other .txt as a bestiary (and the items.txt beside a bestiary with it).  Monster letters are checked against "
		  "--bestiary FILE, or else the bestiary.txt beside the first level, in levels/, the "
		  "installed one, or the one of the levels the program came with.");
	opt_print_help(out, &check_command);
	help_text(out, 0,
		  "\nWith --format json each problem is a JSON object on a line of its own, and the summary "
		  "comes last (line and col are 0 when the problem has no position):\n"
		  "  problem  {\"file\":F, \"line\":L, \"col\":C, \"x\":X, \"y\":Y,\n"
		  "            \"severity\":S, \"code\":K, \"message\":M}\n"
		  "  summary  {\"summary\":{\"files\":N,\"errors\":E,\"warnings\":W,\"notes\":K}}\n"
		  "x, y: the map cell (-1 when none); code: a stable name such as no-exit or layout-shift "
		  "(levels/FORMAT.md lists them)\n"
		  "\n"
		  "exit status: 0 no errors, 1 errors, 2 bad usage");
}

/* Prints d as the options ask; adds its counts to the totals. */
static void report(struct diag_list *d, const struct check_args *a, int *errors, int *warnings, int *notes)
{
	cli_print_diags(stdout, d, a->quiet, a->format == FORMAT_JSON);
	*errors += d->errors;
	*warnings += d->warnings;
	*notes += d->notes;
	diag_list_fini(d);
}

/* Gives the diagnostics d->items[from..] that have no code of their own
 * the code of the file kind they are about ("bestiary", "items"), so that
 * every JSON line has one. */
static void default_codes(struct diag_list *d, int from, const char *code)
{
	for (int i = from; i < d->n; i++)
		if (!d->items[i].code[0])
			snprintf(d->items[i].code, sizeof d->items[i].code, "%s", code);
}

/* Checks one file into d. */
static void check_file(const char *path, const struct bestiary *b, struct diag_list *d)
{
	size_t len = 0;
	char *text;
	int from = d->n;
	int err = textfile_read(path, &text, &len);
	if (err) {
		diag_add_cell(d, DIAG_ERROR, "cannot-read", path, 0, 0, -1, -1, "cannot read: %s",
			      textfile_strerror(err));
		return;
	}
	if (cli_ends_with(path, "items.txt")) {
		struct item_catalogue *tmp = malloc(sizeof *tmp);
		if (tmp)
			items_parse(path, text, len, tmp, d);
		free(tmp);
		free(text);
		default_codes(d, from, "items");
		return;
	}
	if (cli_ends_with(path, ".txt")) {
		struct bestiary tmp;
		bestiary_parse(path, text, len, &tmp, d);
		free(text);
		default_codes(d, from, "bestiary");
		return;
	}
	struct level *lv = cli_ends_with(path, ".map") ? level_from_movingai(path, text, len, 1, 0, 'g', d)
						   : level_parse(path, text, len, b, d);
	if (lv)
		level_analyse(lv, b, d);
	level_destroy(lv);
	free(text);
	default_codes(d, from, cli_ends_with(path, ".map") ? "movingai" : "level");
}

/* The files to check, owned copies. */
struct paths {
	char **v;
	int n, cap;
};

static void paths_fini(struct paths *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof *p);
}

static bool paths_add(struct paths *p, const char *s)
{
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 16;
		char **v = realloc(p->v, (size_t)cap * sizeof *v);
		if (!v)
			return false;
		p->v = v;
		p->cap = cap;
	}
	char *copy = strdup(s);
	if (!copy)
		return false;
	p->v[p->n++] = copy;
	return true;
}

/* Each argument, or for a folder its .lvl files in name order
 * (cli_level_files: the campaign's order, as play takes a folder); an
 * empty or unreadable folder is an error in d.  False on no memory. */
static bool expand_targets(const struct opt_list *args, struct paths *out, struct diag_list *d)
{
	for (int i = 0; i < args->n; i++) {
		struct stat st;
		if (stat(args->v[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			if (!paths_add(out, args->v[i]))
				return false;
			continue;
		}
		int n = 0;
		char **names = cli_level_files(args->v[i], &n);
		if (!names) {
			diag_add_cell(d, DIAG_ERROR, "cannot-read", args->v[i], 0, 0, -1, -1, "cannot read the folder: %s",
				      strerror(errno));
			continue;
		}
		if (n == 0)
			diag_add_cell(d, DIAG_ERROR, "empty-folder", args->v[i], 0, 0, -1, -1, "no .lvl files in this folder");
		bool ok = true;
		for (int k = 0; k < n && ok; k++)
			ok = paths_add(out, names[k]);
		cli_names_free(names, n);
		if (!ok)
			return false;
	}
	return true;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .format = FORMAT_TEXT };
	struct opt_list files = { 0 };
	int status = opt_parse(&check_command, argc, argv, &a, &files, NULL);
	if (status < 0 && files.n == 0) {
		fprintf(stderr, "astray check: no level files given\n");
		check_usage(stderr);
		status = 2;
	}
	struct bestiary *b = status < 0 ? malloc(sizeof *b) : NULL;
	if (status < 0 && !b) {
		fprintf(stderr, "astray check: out of memory\n");
		status = 1; /* a failure, not a usage error */
	}
	if (status >= 0) {
		opt_list_fini(&files);
		return status;
	}

	struct diag_list d = { 0 };
	struct paths paths = { 0 };
	if (!expand_targets(&files, &paths, &d)) {
		fprintf(stderr, "astray check: out of memory\n");
		diag_list_fini(&d);
		paths_fini(&paths);
		free(b);
		opt_list_fini(&files);
		return 1;
	}
	bool have_bestiary = false;
	if (a.bestiary) {
		have_bestiary = bestiary_load_file(a.bestiary, b, &d);
	} else {
		char path[4096];
		if (paths.n > 0 && cli_bestiary_path(paths.v[0], path, sizeof path))
			have_bestiary = bestiary_load_file(path, b, &d);
		else
			diag_add_cell(&d, DIAG_NOTE, "no-bestiary", "astray", 0, 0, -1, -1,
				      "no bestiary.txt found: monster letters are not checked (use --bestiary FILE)");
	}
	default_codes(&d, 0, "bestiary");
	int errors = 0, warnings = 0, notes = 0;
	report(&d, &a, &errors, &warnings, &notes);
	for (int i = 0; i < paths.n; i++) {
		check_file(paths.v[i], have_bestiary ? b : NULL, &d);
		report(&d, &a, &errors, &warnings, &notes);
	}
	int nfiles = paths.n;
	if (a.format == FORMAT_JSON) {
		printf("{\"summary\":{\"files\":%d,\"errors\":%d,\"warnings\":%d,\"notes\":%d}}\n", nfiles, errors,
		       warnings, notes);
	} else if (!a.quiet) {
		printf("checked %d file%s: %d error%s, %d warning%s, %d note%s\n", nfiles, nfiles == 1 ? "" : "s",
		       errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", notes,
		       notes == 1 ? "" : "s");
	}
	free(b);
	paths_fini(&paths);
	opt_list_fini(&files);
	return errors ? 1 : 0;
}
