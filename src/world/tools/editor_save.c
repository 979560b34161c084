/*
 * editor_save.c - the level of `astray edit` as a file: its text
 * (level_write's, with the header's whole-line comments put back) and
 * the save that puts it on disk whole or not at all, the previous
 * version kept as LEVEL~.  What a save cut short leaves is
 * editor_recover.c's to tidy.
 */
#include "editor.h"
#include "editor_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "savefile.h"

bool editor_keep_comments(struct editor *ed, const char *text, size_t len)
{
	free(ed->comments);
	ed->comments = NULL;
	ed->comments_len = 0;
	size_t at = 0, n = 0;
	char *keep = malloc(len + 1);
	if (!keep)
		return false;
	/* after the first line ("astray-level 1"), up to the map */
	while (at < len && text[at] != '\n')
		at++;
	while (++at < len) {
		size_t end = at;
		while (end < len && text[end] != '\n')
			end++;
		if (end - at >= 4 && memcmp(text + at, "map:", 4) == 0)
			break;
		/* a line the format refuses (a tab, a control or non-ASCII
		 * byte) is an error the parser reported: it is not written back */
		bool clean = true;
		for (size_t i = at; i < end && clean; i++)
			clean = text[i] >= 0x20 && text[i] <= 0x7e;
		if (text[at] == ';' && clean) {
			memcpy(keep + n, text + at, end - at);
			n += end - at;
			keep[n++] = '\n';
		}
		at = end;
	}
	if (n == 0) {
		free(keep);
		return true;
	}
	ed->comments = keep;
	ed->comments_len = n;
	return true;
}

char *editor_write(struct editor *ed, size_t *len)
{
	const struct level *lv = editor_level(ed);
	char *text = lv ? level_write(lv, len) : NULL;
	if (!text || !ed->comments_len)
		return text;
	/* the comments go under the first line, before the header keys */
	const char *nl = memchr(text, '\n', *len);
	size_t head = nl ? (size_t)(nl - text) + 1 : *len;
	char *with = malloc(*len + ed->comments_len + 1);
	if (!with) {
		free(text);
		return NULL;
	}
	memcpy(with, text, head);
	memcpy(with + head, ed->comments, ed->comments_len);
	memcpy(with + head + ed->comments_len, text + head, *len - head);
	*len += ed->comments_len;
	with[*len] = '\0';
	free(text);
	return with;
}

/* Whether link(2) failed because no hard link can be made here: a file
 * system without them (EPERM, ENOTSUP, ENOSYS), a file this user may not
 * link (EPERM) or with too many links (EMLINK), another device (EXDEV),
 * or the file gone (ENOENT: nothing to keep). */
static bool no_hard_link(int e)
{
	return e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == ENOSYS || e == EMLINK || e == EXDEV ||
	       e == ENOENT;
}

bool editor_save(struct editor *ed, const char *path, bool backup, bool mark, char *err,
		 size_t errlen)
{
	size_t len;
	char *text = editor_write(ed, &len);
	size_t pl = strlen(path);
	char *old = malloc(pl + 2);
	if (!text || !old) {
		snprintf(err, errlen, "out of memory");
		free(text);
		free(old);
		return false;
	}
	if (backup && access(path, F_OK) == 0) {
		/* the previous version stays as FILE~ (a hard link: no copy);
		 * where no hard link can be made the save goes on without the
		 * backup, but any other failure (an old FILE~ that will not go,
		 * no room, an I/O error) stops it before it writes: the screen
		 * may have told the designer the old text is in FILE~ */
		snprintf(old, pl + 2, "%s~", path);
		int e = unlink(old) == 0 || errno == ENOENT ? 0 : errno;
		if (e == 0 && link(path, old) != 0 && !no_hard_link(errno))
			e = errno;
		if (e != 0) {
			snprintf(err, errlen, "%s: cannot keep the previous version as %s: %s", path, old,
				 strerror(e));
			free(text);
			free(old);
			return false;
		}
	}
	/* temporary file, fsync, rename, fsync of the folder (savefile.h) */
	bool ok = savefile_write_atomic_mode(NULL, path, text, len, true, 0644, err, errlen);
	if (ok && mark) {
		editor_mark_saved(ed);
		if (ed->file_diags.n > 0) {
			/* the file now holds the map as edited: what the parser said of the old text is past */
			diag_list_fini(&ed->file_diags);
			memset(&ed->file_diags, 0, sizeof ed->file_diags);
			ed->stale = true;
		}
	}
	free(text);
	free(old);
	return ok;
}
