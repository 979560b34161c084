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
	for (int i = 0; i < l->n; i++)
		free(l->items[i].file);
	free(l->items);
	memset(l, 0, sizeof *l);
}

/*
 * The test build (ASTRAY_CHECKS) can make the list's allocations fail:
 * with ASTRAY_TEST_DIAG_NOMEM=N in the environment, a list that already
 * keeps N diagnostics gets no more memory, so the tests can see `lost`
 * reported by the real commands.  Release builds allocate plainly.
 */
static void *diag_alloc(const struct diag_list *l, void *old, size_t n)
{
#ifdef ASTRAY_CHECKS
	const char *limit = getenv("ASTRAY_TEST_DIAG_NOMEM");
	if (limit && *limit && l->n >= atoi(limit))
		return NULL;
#else
	(void)l;
#endif
	return realloc(old, n);
}

bool diag_add(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
	      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool ok = diag_addv(l, sev, NULL, file, line, col, -1, -1, fmt, ap);
	va_end(ap);
	return ok;
}

bool diag_add_cell(struct diag_list *l, enum diag_severity sev, const char *code, const char *file, int line,
		   int col, int x, int y, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool ok = diag_addv(l, sev, code, file, line, col, x, y, fmt, ap);
	va_end(ap);
	return ok;
}

bool diag_addv(struct diag_list *l, enum diag_severity sev, const char *code, const char *file, int line,
	       int col, int x, int y, const char *fmt, va_list ap)
{
	if ((int)sev < 0 || sev >= DIAG_SEVERITIES)
		sev = DIAG_ERROR;
	if (sev == DIAG_ERROR)
		l->errors++;
	else if (sev == DIAG_WARNING)
		l->warnings++;
	else
		l->notes++;
	if (l->kept[sev] >= DIAG_KEEP_PER_SEVERITY) {
		l->dropped[sev]++;
		return true;
	}
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct diag *p = diag_alloc(l, l->items, (size_t)cap * sizeof *p);
		if (!p)
			goto lost;
		l->items = p;
		l->cap = cap;
	}
	const char *name = file ? file : "";
	size_t len = strlen(name) + 1;
	char *copy = diag_alloc(l, NULL, len);
	if (!copy)
		goto lost;
	memcpy(copy, name, len);
	struct diag *d = &l->items[l->n++];
	d->severity = sev;
	d->file = copy;
	d->line = line;
	d->col = col;
	d->x = x;
	d->y = y;
	snprintf(d->code, sizeof d->code, "%s", code ? code : "");
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	l->kept[sev]++;
	l->dropped_file[sev] = d->file;
	return true;
lost:
	/* counted as an error whatever its severity: output is missing */
	if (sev == DIAG_WARNING)
		l->warnings--;
	else if (sev == DIAG_NOTE)
		l->notes--;
	if (sev != DIAG_ERROR)
		l->errors++;
	l->lost++;
	return false;
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

/* Whether a goes after b: by rank, then line, then column. */
static bool after(const struct diag *a, const struct diag *b, int (*rank)(const struct diag *))
{
	int ra = rank ? rank(a) : 0, rb = rank ? rank(b) : 0;
	if (ra != rb)
		return ra > rb;
	return a->line > b->line || (a->line == b->line && a->col > b->col);
}

void diag_sort_ranked(struct diag_list *l, int from, int (*rank)(const struct diag *d))
{
	/* an insertion sort: stable, and the lists are short and nearly sorted */
	for (int i = from + 1; i < l->n; i++) {
		struct diag t = l->items[i];
		int j = i;
		while (j > from && after(&l->items[j - 1], &t, rank)) {
			l->items[j] = l->items[j - 1];
			j--;
		}
		l->items[j] = t;
	}
}

void diag_sort(struct diag_list *l, int from)
{
	diag_sort_ranked(l, from, NULL);
}

void diag_sort_severity(struct diag_list *l, int from)
{
	for (int i = from + 1; i < l->n; i++) {
		struct diag t = l->items[i];
		int j = i;
		while (j > from && l->items[j - 1].severity > t.severity) {
			l->items[j] = l->items[j - 1];
			j--;
		}
		l->items[j] = t;
	}
}
