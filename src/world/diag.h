/* diag.h - diagnostics with positions: `file:line:col: error|warning|note: message`. */
#ifndef ASTRAY_DIAG_H
#define ASTRAY_DIAG_H

#include <stdbool.h>
#include <stddef.h>

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

struct diag {
	enum diag_severity severity;
	char file[256];   /* file name as given by the caller */
	int line, col;    /* 1-based; 0 when the message has no position */
	char msg[320];    /* message without position or severity */
};

/* A growable list; zero-initialise it ({0}) and call diag_list_fini. */
struct diag_list {
	struct diag *items;
	int n, cap;
	int errors, warnings; /* counts by severity */
};

void diag_list_fini(struct diag_list *l);
/* Adds one diagnostic (printf-style message).  Returns false only on no memory. */
bool diag_add(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Formats d as `file:line:col: error: message` (no newline) into buf. */
void diag_format(const struct diag *d, char *buf, size_t size);
const char *diag_severity_name(enum diag_severity sev);
/* Puts items[from..n) in order of line, then column (stable), so a problem
 * found at the end of a pass sits among the others by position. */
void diag_sort(struct diag_list *l, int from);

#endif
