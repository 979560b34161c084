/* diag.h - diagnostics with positions: `file:line:col: error|warning|note: message`. */
#ifndef ASTRAY_DIAG_H
#define ASTRAY_DIAG_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_SEVERITIES };

/* How many diagnostics of one severity a list keeps; the rest are only
 * counted (a 2048x2048 level can have two million unreachable regions,
 * and nobody reads that far; the parsers stop at 100 errors themselves). */
#define DIAG_KEEP_PER_SEVERITY 200

/* The size of every error message buffer (char err[DIAG_ERR_LEN]): a file
 * name or two and a sentence, as every err/errlen pair in astray takes. */
#define DIAG_ERR_LEN 1200

struct diag {
	enum diag_severity severity;
	char *file;       /* file name as given by the caller, whole (owned by the list) */
	int line, col;    /* 1-based; 0 when the message has no position */
	int x, y;         /* the map cell it is about, or -1, -1 */
	char code[24];    /* a stable name for what it says ("no-exit"), or "" */
	char msg[480];    /* message without position or severity (the longest: an unknown key and the list of all keys) */
};

/* A growable list; zero-initialise it ({0}) and call diag_list_fini. */
struct diag_list {
	struct diag *items;
	int n, cap;
	int errors, warnings, notes;     /* counts by severity, kept or not */
	int kept[DIAG_SEVERITIES];       /* in items[], by severity */
	int dropped[DIAG_SEVERITIES];    /* counted but not kept (over the cap) */
	const char *dropped_file[DIAG_SEVERITIES]; /* a kept item's file for the "... more" line */
	int lost;                        /* not kept for want of memory: counted as errors */
};

void diag_list_fini(struct diag_list *l);
/*
 * Adds one diagnostic (printf-style message).  Over DIAG_KEEP_PER_SEVERITY
 * of its severity it is only counted (in dropped[], cheaply: the message
 * is not even formatted).  Returns false only on no memory: the diagnostic
 * is then counted in `lost` and as an error, so a caller that goes on
 * still ends with errors and a non-zero exit.
 */
bool diag_add(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* diag_add with a stable code (a short kebab-case name, documented in
 * levels/FORMAT.md for level files) and the map cell the problem is at
 * (x, y; -1, -1 when none). */
bool diag_add_cell(struct diag_list *l, enum diag_severity sev, const char *code, const char *file, int line,
		   int col, int x, int y, const char *fmt, ...) __attribute__((format(printf, 9, 10)));
bool diag_addv(struct diag_list *l, enum diag_severity sev, const char *code, const char *file, int line,
	       int col, int x, int y, const char *fmt, va_list ap) __attribute__((format(printf, 9, 0)));
/* Formats d as `file:line:col: error: message` (no newline) into buf. */
void diag_format(const struct diag *d, char *buf, size_t size);
const char *diag_severity_name(enum diag_severity sev);
/* Puts items[from..n) in order of line, then column (stable), so a problem
 * found at the end of a pass sits among the others by position. */
void diag_sort(struct diag_list *l, int from);
/* Puts items[from..n) in order of rank(d) (lower first), then line, then
 * column (stable): a cause before the symptoms it brings. */
void diag_sort_ranked(struct diag_list *l, int from, int (*rank)(const struct diag *d));
/* Puts items[from..n) in order of severity (errors, warnings, notes),
 * keeping the order within each severity. */
void diag_sort_severity(struct diag_list *l, int from);

#endif
