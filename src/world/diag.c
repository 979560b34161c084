/*
 * diag.c - a list of positioned messages.  Parsers add to it and never
 * print; the command line decides how and where the list is shown.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const severity_names[] = {
	[DIAG_ERROR] = "error",
	[DIAG_WARNING] = "warning",
	[DIAG_NOTE] = "note",
};

const char *diag_severity_name(enum diag_severity sev)
{
	return severity_names[sev];
}

void diag_list_fini(struct diag_list *l)
{
	if (!l)
		return;
	free(l->items);
	memset(l, 0, sizeof *l);
}

bool diag_add(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
	      const char *fmt, ...)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct diag *p = realloc(l->items, (size_t)cap * sizeof *p);
		if (!p)
			return false;
		l->items = p;
		l->cap = cap;
	}
	struct diag *d = &l->items[l->n++];
	d->severity = sev;
	snprintf(d->file, sizeof d->file, "%s", file ? file : "");
	d->line = line;
	d->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	if (sev == DIAG_ERROR)
		l->errors++;
	else if (sev == DIAG_WARNING)
		l->warnings++;
	return true;
}

void diag_format(const struct diag *d, char *buf, size_t size)
{
	const char *sev = diag_severity_name(d->severity);
	if (d->line > 0 && d->col > 0)
		snprintf(buf, size, "%s:%d:%d: %s: %s", d->file, d->line, d->col, sev, d->msg);
	else if (d->line > 0)
		snprintf(buf, size, "%s:%d: %s: %s", d->file, d->line, sev, d->msg);
	else
		snprintf(buf, size, "%s: %s: %s", d->file, sev, d->msg);
}

void diag_sort(struct diag_list *l, int from)
{
	for (int i = from + 1; i < l->n; i++) {
		struct diag t = l->items[i];
		int j = i;
		while (j > from && (l->items[j - 1].line > t.line ||
				    (l->items[j - 1].line == t.line && l->items[j - 1].col > t.col))) {
			l->items[j] = l->items[j - 1];
			j--;
		}
		l->items[j] = t;
	}
}
