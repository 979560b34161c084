/* opt.h - the one option parser of every command, driven by a table per command. */
#ifndef ASTRAY_OPT_H
#define ASTRAY_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How an option's value is read, and where it is stored (at `offset` in
 * the command's own argument struct). */
enum opt_kind {
	OPT_FLAG,    /* no value: sets a bool; `--flag=x` is an error */
	OPT_INT,     /* a whole decimal number in [lo, hi]: int */
	OPT_SEED,    /* a whole decimal number from 0 to 2^64 - 1: uint64_t */
	OPT_DOUBLE,  /* a finite number in [lo, hi]: double */
	OPT_STRING,  /* any text: const char * (the last one given wins) */
	OPT_LIST,    /* any text, repeatable, kept in order: struct opt_list */
	OPT_CHOICE,  /* one word of `choices`: int, the word's index */
	OPT_PAIR,    /* two texts, `--opt A B` or `--opt=A B`: const char *[2] */
	OPT_CUSTOM   /* `parse` reads the text into the field; `want` says what it takes */
};

struct opt {
	const char *name;        /* long name without the dashes: "every" */
	char short_name;         /* a one-letter alias ("-q"), or 0 */
	enum opt_kind kind;
	size_t offset;           /* offsetof(struct CMD_args, field) */
	const char *metavar;     /* the value's name in --help ("K", "FILE"); NULL for a flag */
	const char *help;        /* --help text in help_text's markup (help.h): never a '\n' to wrap */
	double lo, hi;           /* OPT_INT and OPT_DOUBLE: the allowed range */
	const char *const *choices;                /* OPT_CHOICE: NULL-terminated words */
	bool (*parse)(const char *text, void *field); /* OPT_CUSTOM */
	const char *want;        /* OPT_CUSTOM: what the value must be, for messages */
};

/* A repeatable option's values, or the positional arguments, in order.
 * The strings are argv's; the array is owned (opt_list_fini). */
struct opt_list {
	const char **v;
	int n;
};

void opt_list_fini(struct opt_list *l);

/* A command as the parser sees it. */
struct opt_command {
	const char *name;                 /* "bench": messages say "astray bench: ..." */
	const struct opt *opts;
	int n_opts;
	void (*usage)(FILE *out);         /* the whole --help text */
};

/*
 * Parses argv[1..argc) into `args` by cmd's table; every other argument
 * goes to *positional, in order.  `--opt=VALUE` and `--opt VALUE` are
 * alike; `--` ends the options; "-" and words starting with "-" and a
 * digit ("-1,2") are positional.  `given` (may be NULL) gets one bool per
 * table row: was it on the command line.  Returns -1 to go on; 0 after
 * printing the help for -h/--help; 2 after a usage error on stderr
 * (unknown option, missing or bad value, a value given to a flag).
 */
int opt_parse(const struct opt_command *cmd, int argc, char **argv, void *args,
	      struct opt_list *positional, bool *given);

/* The options section of --help: a blank line, the heading "options:",
 * then a row per option of the table (and -h, --help itself), the texts
 * in one column. */
void opt_print_help(FILE *out, const struct opt_command *cmd);

/* Prints `astray CMD: MESSAGE` to stderr and returns 2, the usage exit status. */
int opt_usage_error(const struct opt_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "X,Y" with optional minus signs, each within +-1000000; false otherwise. */
bool opt_parse_cell(const char *s, int *x, int *y);

#endif
