/*
 * editor_recover.c - what a stopped session of `astray edit` leaves beside
 * a level, and tidying it: the name LEVEL.recover, whether a file is
 * whole as the editor writes it, the temporary files of a rescue or a save
 * cut short (removed when empty or a copy, made the recovery when whole,
 * else kept, each said in a sentence of the report), and setting an older
 * recovery aside.  The rescue itself is an editor_save; asking the
 * designer and printing the report are cmd_edit.c's.
 */
#include "editor.h"
#include "editor_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "savefile.h"

#define RECOVER_MAX_BYTES ((size_t)64 << 20) /* a 4096x4096 map is 32 MB of text */

bool editor_recover_path(const char *path, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s.recover", path);
	return n >= 0 && (size_t)n < size;
}

bool editor_text_complete(const char *text, size_t len)
{
	if (len == 0 || text[len - 1] != '\n' || memchr(text, '\0', len))
		return false;
	struct diag_list d = { 0 };
	struct level *lv = level_parse_partial(NULL, text, len, NULL, &d);
	diag_list_fini(&d);
	if (!lv)
		return false;
	struct editor *ed = editor_create(lv, NULL, NULL);
	level_destroy(lv);
	if (!ed || !editor_keep_comments(ed, text, len)) {
		editor_destroy(ed);
		return false;
	}
	size_t n = 0;
	char *again = editor_write(ed, &n);
	bool same = again && n == len && memcmp(again, text, len) == 0;
	free(again);
	editor_destroy(ed);
	return same;
}

void editor_say(char *report, size_t size, const char *fmt, ...)
{
	size_t at = strnlen(report, size);
	if (at + 1 >= size)
		return;
	if (at > 0)
		report[at++] = ' ';
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(report + at, size - at, fmt, ap);
	va_end(ap);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in `dir` that start with `prefix` and go on with exactly six
 * characters (mkstemp's), sorted; NULL with *n = -1 when the folder
 * cannot be read. */
static char **leftover_names(const char *dir, const char *prefix, int *n)
{
	*n = -1;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **v = NULL;
	int count = 0, cap = 0;
	size_t pl = strlen(prefix);
	struct dirent *e;
	bool oom = false;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, prefix, pl) != 0 || strlen(e->d_name) != pl + 6)
			continue;
		if (count == cap) {
			int c = cap ? cap * 2 : 4;
			char **nv = realloc(v, (size_t)c * sizeof *nv);
			if (!nv) {
				oom = true;
				break;
			}
			v = nv;
			cap = c;
		}
		v[count] = editor_dup_str(e->d_name);
		if (!v[count]) {
			oom = true;
			break;
		}
		count++;
	}
	closedir(d);
	if (oom) {
		for (int i = 0; i < count; i++)
			free(v[i]);
		free(v);
		return NULL;
	}
	if (count > 1)
		qsort(v, (size_t)count, sizeof *v, compare_names);
	*n = count;
	return v;
}

/* One leftover `full` of a rescue (save false) or a save (true) of `level`. */
static bool tidy_one(const char *full, const char *level, const char *recover, bool save, char *report,
		     size_t size)
{
	const char *what = save ? "save" : "rescue";
	struct stat st;
	char err[DIAG_ERR_LEN];
	size_t len = 0, rlen = 0, llen = 0;
	char *text = NULL, *rtext = NULL, *ltext = NULL;
	bool kept = false;
	if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode))
		return false; /* not a file a save makes */
	text = savefile_read(full, RECOVER_MAX_BYTES, &len, err, sizeof err);
	if (text && len > 0) {
		rtext = savefile_read(recover, RECOVER_MAX_BYTES, &rlen, err, sizeof err);
		ltext = savefile_read(level, RECOVER_MAX_BYTES, &llen, err, sizeof err);
	}
	const char *same = rtext && rlen == len && memcmp(rtext, text, len) == 0   ? recover
			   : ltext && llen == len && memcmp(ltext, text, len) == 0 ? level
										   : NULL;
	if (!text) {
		editor_say(report, size, "%s is left from a %s, kept: %s.", full, what, err);
		kept = true;
	} else if (len == 0 || same) {
		if (unlink(full) == 0) {
			if (same)
				editor_say(report, size, "Removed %s (the same as %s).", full, same);
			else
				editor_say(report, size, "Removed %s (empty: a %s stopped before it wrote anything).", full, what);
		} else {
			editor_say(report, size, "%s could not be removed: %s.", full, strerror(errno));
			kept = true;
		}
	} else if (!rtext && access(recover, F_OK) != 0 && editor_text_complete(text, len)) {
		/* a whole rescue (or save) that was not renamed yet: it holds
		 * changes the level has not, so it is the recovery */
		if (link(full, recover) == 0) {
			unlink(full);
			(void)savefile_sync_dir(NULL, recover, err, sizeof err);
			editor_say(report, size, "%s held a whole %s that was not renamed: it is now %s.", full, what, recover);
		} else {
			editor_say(report, size, "%s holds a whole %s but could not become %s (%s): kept.", full, what,
			    recover, strerror(errno));
			kept = true;
		}
	} else {
		editor_say(report, size,
		    "%s is left from a %s cut short (%zu bytes%s): kept, as it may hold the only copy of "
		    "those changes (astray edit %s shows them; delete it when done).",
		    full, what, len, rtext ? ", not the same as the .recover file" : ", not whole", full);
		kept = true;
	}
	free(ltext);
	free(rtext);
	free(text);
	return kept;
}

int editor_recover_tidy(const char *level, char *report, size_t size)
{
	const char *slash = strrchr(level, '/');
	const char *base = slash ? slash + 1 : level;
	size_t dl = slash ? (size_t)(slash - level) : 0;
	size_t bl = strlen(base);
	char *dir = malloc(dl + 2), *prefix = malloc(bl + 16), *recover = malloc(strlen(level) + 9);
	if (!dir || !prefix || !recover) {
		free(dir);
		free(prefix);
		free(recover);
		editor_say(report, size, "Out of memory looking for what a rescue left.");
		return -1;
	}
	sprintf(recover, "%s.recover", level);
	if (!slash)
		strcpy(dir, ".");
	else if (dl == 0)
		strcpy(dir, "/");
	else {
		memcpy(dir, level, dl);
		dir[dl] = '\0';
	}
	int kept = 0;
	/* a rescue's leftovers (LEVEL.recover.tmp-XXXXXX), then a save's (LEVEL.tmp-XXXXXX) */
	for (int pass = 0; pass < 2 && kept >= 0; pass++) {
		sprintf(prefix, "%s%s.tmp-", base, pass ? "" : ".recover");
		int n;
		char **names = leftover_names(dir, prefix, &n);
		if (n < 0) {
			editor_say(report, size, "Cannot look for what a rescue left in %s: %s.", dir, strerror(errno));
			kept = -1;
			break;
		}
		for (int i = 0; i < n; i++) {
			size_t fl = dl + 1 + strlen(names[i]) + 1;
			char *full = malloc(fl);
			if (!full) {
				editor_say(report, size, "Out of memory: %s is left as it is.", names[i]);
				kept++;
			} else {
				if (slash)
					snprintf(full, fl, "%.*s/%s", (int)dl, level, names[i]);
				else
					snprintf(full, fl, "%s", names[i]);
				kept += tidy_one(full, level, recover, pass == 1, report, size);
			}
			free(full);
			free(names[i]);
		}
		free(names);
	}
	free(dir);
	free(prefix);
	free(recover);
	return kept;
}

bool editor_recover_set_aside(const char *recover, char *aside, size_t asize, char *err, size_t errlen)
{
	for (int n = 1; n < 1000; n++) {
		int k = snprintf(aside, asize, "%s.%d", recover, n);
		if (k < 0 || (size_t)k >= asize) {
			snprintf(err, errlen, "%s: the name is too long to set it aside", recover);
			return false;
		}
		if (link(recover, aside) != 0) {
			if (errno == EEXIST)
				continue;
			snprintf(err, errlen, "%s: cannot keep it as %s: %s", recover, aside, strerror(errno));
			return false;
		}
		if (unlink(recover) != 0) {
			int e = errno;
			unlink(aside);
			snprintf(err, errlen, "%s: cannot move it aside: %s", recover, strerror(e));
			return false;
		}
		(void)savefile_sync_dir(NULL, recover, err, errlen);
		return true;
	}
	snprintf(err, errlen, "%s: no free name %s.N to keep it under", recover, recover);
	return false;
}
