/* cli.h - what every subcommand shares: numbers, suffixes, diagnostics, level folders. */
#ifndef ASTRAY_CLI_H
#define ASTRAY_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

/* A whole decimal number in [lo, hi], the whole string; false otherwise. */
bool cli_parse_long(const char *s, long lo, long hi, long *out);

/* A seed: a whole decimal number from 0 to 2^64 - 1, the form the game
 * prints, so `play --seed N` and `sim --seed N` read it alike. */
bool cli_parse_seed(const char *s, uint64_t *out);

/* Whether s ends with suffix (".map", "/"). */
bool cli_ends_with(const char *s, const char *suffix);

/*
 * Prints a diagnostics list to out, one per line: `file:line:col:
 * severity: message`, or with `json` one JSON object per line
 * ({"file":F,"line":L,"col":C,"severity":S,"message":M}).  With
 * `errors_only` warnings and notes are left out.
 */
void cli_print_diags(FILE *out, const struct diag_list *d, bool errors_only, bool json);

/*
 * Control characters of file content echoed to a terminal, escaped: C0
 * and C1 controls, DEL and bytes that are not UTF-8 become \xNN, a
 * backslash \\; printable ASCII and UTF-8 stay.  cli_escape writes into
 * dst (always NUL-terminated when size > 0) and returns the length the
 * whole result needs, snprintf-style; cli_put_escaped prints it.  Every
 * echo of a file's text (names, keys, glyphs, file names) goes through it.
 */
size_t cli_escape(char *dst, size_t size, const char *src);
void cli_put_escaped(FILE *out, const char *s);
/* The same, but a line break stays one: for messages of several lines
 * that name files (the other controls, ESC among them, are escaped). */
size_t cli_escape_text(char *dst, size_t size, const char *src);
void cli_put_text(FILE *out, const char *s);
/* "PROG: MSG\n" with MSG as cli_put_text shows it: every message that may
 * hold a name from outside (a file, a level, a folder) is printed so. */
void cli_message(FILE *out, const char *prog, const char *msg);
/* s as one word of a command line a person may paste into a shell: as it
 * is when it holds only plain characters, else in '...' (a quote as '\''),
 * or in $'...' with \xNN for its control bytes, so that nothing of it
 * reaches the terminal raw. */
void cli_put_shell_word(FILE *out, const char *s);

/* One CSV field: escaped as above, in double quotes (inner quotes doubled)
 * when it holds a comma or a quote. */
void cli_csv_field(FILE *out, const char *s);

/*
 * The end of every command (main calls it): flushes stdout and, when any
 * write to it failed (a full disk, a closed pipe), prints
 * "PROG: error writing to standard output: REASON" to stderr and returns
 * 1 (or `status` when that already says failure); else returns status.
 */
int cli_finish_output(const char *prog, int status);

/* Writes s as a JSON string, quotes included; control and non-ASCII bytes as \u00XX. */
void cli_json_string(FILE *out, const char *s);

/*
 * The .lvl files of folder `dir` (names not starting with '.') in name
 * order, each as "dir/name": an array of *n owned strings (free with
 * cli_names_free), possibly empty.  NULL on failure with errno set.
 */
char **cli_level_files(const char *dir, int *n);
void cli_names_free(char **names, int n);

/*
 * The folders beside the running program where its own levels may lie,
 * most likely first: PROGRAM/../levels and PROGRAM/../../levels (the
 * source tree of build/astray and of build/san/astray) and
 * PROGRAM/../share/astray/levels (the prefix it is installed in), so that
 * a program run from any folder finds the levels it came with.  Writes
 * them into dirs (CLI_OWN_DIRS at most, each of CLI_PATH_MAX bytes) and
 * returns how many: 0 when the program's own path cannot be read.
 */
#define CLI_OWN_DIRS 3
#define CLI_PATH_MAX 4096
int cli_program_level_dirs(char dirs[][CLI_PATH_MAX]);
/* The first of those folders that holds a bestiary.txt, copied into buf;
 * NULL when none does (or buf is too small). */
const char *cli_program_levels(char *buf, size_t size);

struct bestiary; /* bestiary.h */

/*
 * The default bestiary for a level file or folder `near` (may be NULL):
 * the first of bestiary_default_path's places (beside `near`, levels/ of
 * astray's source folder, the installed one), else the bestiary.txt of
 * the levels the program came with (cli_program_levels), so that a level
 * kept in any folder, with no bestiary beside it, plays and checks with
 * the program's own.  Writes its path into buf and returns buf, or NULL.
 */
const char *cli_bestiary_path(const char *near, char *buf, size_t size);

/* cli_bestiary_path and bestiary_load_file; when there is none, an error
 * in diags that names every place looked in and --bestiary FILE. */
bool cli_bestiary_load(const char *near, struct bestiary *out, struct diag_list *diags);

#endif
