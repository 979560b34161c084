/*
 * opt.c - the option parser of every command.  Each command describes its
 * options in one table (struct opt): the name, the kind of value, where it
 * goes, the metavar and the help text; this file reads argv by that table
 * and prints the options section of --help from it (laid out by help.c),
 * so the help and the parser cannot disagree and every command spells
 * options alike.  It prints usage errors (it is part of the command line)
 * but never exits.
 */
#include "opt.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"

#define HELP_MAX_COLUMN 24 /* help text starts here at most; longer names push it right */

void opt_list_fini(struct opt_list *l)
{
	if (!l)
		return;
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int opt_usage_error(const struct opt_command *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "astray %s: ", cmd->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

bool opt_parse_cell(const char *s, int *x, int *y)
{
	const char *comma = strchr(s, ',');
	char first[32];
	long a, b;
	if (!comma || (size_t)(comma - s) >= sizeof first)
		return false;
	memcpy(first, s, (size_t)(comma - s));
	first[comma - s] = '\0';
	if (!cli_parse_long(first, -1000000, 1000000, &a) || !cli_parse_long(comma + 1, -1000000, 1000000, &b))
		return false;
	*x = (int)a;
	*y = (int)b;
	return true;
}

/* A number as the help and the messages write it: 1000, 0.5, 1e+09. */
static void put_number(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.10g", v);
}

/* What the option's value must be, for messages: "a whole number from 1 to 1000". */
static void want_text(const struct opt *o, char *buf, size_t size)
{
	char lo[32], hi[32];
	put_number(lo, sizeof lo, o->lo);
	put_number(hi, sizeof hi, o->hi);
	switch (o->kind) {
	case OPT_INT:
		snprintf(buf, size, "a whole number from %s to %s", lo, hi);
		return;
	case OPT_SEED:
		snprintf(buf, size, "a whole number from 0 to %llu", (unsigned long long)UINT64_MAX);
		return;
	case OPT_DOUBLE:
		snprintf(buf, size, "a number from %s to %s", lo, hi);
		return;
	case OPT_CHOICE: {
		size_t used = 0;
		buf[0] = '\0';
		for (int i = 0; o->choices[i] && used < size; i++) {
			const char *sep = i == 0 ? "" : o->choices[i + 1] ? ", " : " or ";
			used += (size_t)snprintf(buf + used, size - used, "%s%s", sep, o->choices[i]);
		}
		return;
	}
	case OPT_CUSTOM:
		snprintf(buf, size, "%s", o->want);
		return;
	case OPT_PAIR:
		snprintf(buf, size, "two values, %s", o->metavar);
		return;
	case OPT_FLAG:
	case OPT_STRING:
	case OPT_LIST:
		break;
	}
	snprintf(buf, size, "%s", o->metavar ? o->metavar : "a value");
}

/* Stores `text` as option o's value; false when it is not a valid one. */
static bool store(const struct opt *o, const char *text, char *field, int argc)
{
	long n;
	switch (o->kind) {
	case OPT_FLAG:
		*(bool *)field = true;
		return true;
	case OPT_INT:
		if (!cli_parse_long(text, (long)o->lo, (long)o->hi, &n))
			return false;
		*(int *)field = (int)n;
		return true;
	case OPT_SEED:
		return cli_parse_seed(text, (uint64_t *)field);
	case OPT_DOUBLE: {
		char *end;
		double d = strtod(text, &end);
		if (end == text || *end || !isfinite(d) || !(d >= o->lo && d <= o->hi))
			return false;
		*(double *)field = d;
		return true;
	}
	case OPT_STRING:
		*(const char **)field = text;
		return true;
	case OPT_LIST: {
		struct opt_list *l = (struct opt_list *)field;
		if (!l->v && !(l->v = calloc((size_t)argc + 1, sizeof *l->v)))
			return false;
		l->v[l->n++] = text;
		return true;
	}
	case OPT_CHOICE:
		for (int i = 0; o->choices[i]; i++)
			if (strcmp(text, o->choices[i]) == 0) {
				*(int *)field = i;
				return true;
			}
		return false;
	case OPT_PAIR:
		return false; /* read by the caller: it takes two arguments */
	case OPT_CUSTOM:
		return o->parse(text, field);
	}
	return false;
}

/* The row for argument `a` ("--name", "--name=v" or "-x"), or NULL. */
static const struct opt *find(const struct opt_command *cmd, const char *a, size_t name_len)
{
	for (int i = 0; i < cmd->n_opts; i++) {
		const struct opt *o = &cmd->opts[i];
		if (a[1] == '-' && strlen(o->name) == name_len - 2 && memcmp(o->name, a + 2, name_len - 2) == 0)
			return o;
		if (a[1] != '-' && name_len == 2 && o->short_name && o->short_name == a[1])
			return o;
	}
	return NULL;
}

static bool is_option(const char *a)
{
	return a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9');
}

/* Reads the option at argv[*i] (moving *i past its values); -1 or 2. */
static int parse_one(const struct opt_command *cmd, int argc, char **argv, int *i, char *args,
		     bool *given)
{
	const char *a = argv[*i];
	const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
	size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
	const struct opt *o = find(cmd, a, name_len);
	char want[200];
	if (!o)
		return opt_usage_error(cmd, "unknown option '%.*s' (see astray %s --help)", (int)name_len, a,
				       cmd->name);
	if (given)
		given[o - cmd->opts] = true;
	char *field = args + o->offset;
	if (o->kind == OPT_FLAG) {
		if (eq)
			return opt_usage_error(cmd, "--%s is a flag and takes no value (not '%s')", o->name, a);
		*(bool *)field = true;
		return -1;
	}
	want_text(o, want, sizeof want);
	int need = o->kind == OPT_PAIR ? 2 : 1, have = eq ? 1 : 0;
	if (have + (argc - 1 - *i) < need)
		return opt_usage_error(cmd, "--%s needs %s (see astray %s --help)", o->name,
				       o->kind == OPT_PAIR ? want : "a value", cmd->name);
	const char *v = eq ? eq + 1 : argv[++*i];
	if (o->kind == OPT_PAIR) {
		const char **pair = (const char **)(void *)field;
		pair[0] = v;
		pair[1] = argv[++*i];
		return -1;
	}
	if (!store(o, v, field, argc)) {
		if (o->kind == OPT_LIST) {
			opt_usage_error(cmd, "out of memory");
			return 1; /* a failure, not a usage error */
		}
		return opt_usage_error(cmd, "--%s wants %s, not '%s'", o->name, want, v);
	}
	return -1;
}

int opt_parse(const struct opt_command *cmd, int argc, char **argv, void *args,
	      struct opt_list *positional, bool *given)
{
	positional->n = 0;
	positional->v = calloc((size_t)argc + 1, sizeof *positional->v);
	if (!positional->v) {
		opt_usage_error(cmd, "out of memory");
		return 1; /* a failure, not a usage error */
	}
	bool options = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options && strcmp(a, "--") == 0) {
			options = false;
		} else if (options && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
			cmd->usage(stdout);
			return 0;
		} else if (options && is_option(a)) {
			int st = parse_one(cmd, argc, argv, &i, args, given);
			if (st >= 0)
				return st;
		} else {
			positional->v[positional->n++] = a;
		}
	}
	return -1;
}

/* "  -q, --quiet" or "  --every K": the left column of one help row. */
static int left_column(const struct opt *o, char *buf, size_t size)
{
	char shortname[8] = "";
	if (o->short_name)
		snprintf(shortname, sizeof shortname, "-%c, ", o->short_name);
	return snprintf(buf, size, "  %s--%s%s%s", shortname, o->name, o->metavar ? " " : "",
			o->metavar ? o->metavar : "");
}

void opt_print_help(FILE *out, const struct opt_command *cmd)
{
	char left[128];
	int col = 12 + 2; /* "  -h, --help" and its gap, listed last */
	for (int i = 0; i < cmd->n_opts; i++) {
		int len = left_column(&cmd->opts[i], left, sizeof left) + 2;
		if (len > col && len <= HELP_MAX_COLUMN)
			col = len;
	}
	fputs("\noptions:\n", out);
	for (int i = 0; i < cmd->n_opts; i++) {
		left_column(&cmd->opts[i], left, sizeof left);
		help_row(out, left, col, cmd->opts[i].help);
	}
	help_row(out, "  -h, --help", col, "this text");
}
