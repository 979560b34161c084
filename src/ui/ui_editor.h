/* ui_editor.h - the level editor's screen: paint, diagnostics, routes and play-test in curses. */
#ifndef ASTRAY_UI_EDITOR_H
#define ASTRAY_UI_EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bestiary.h"
#include "editor.h"
#include "ui.h"

struct ui_editor_options {
	bool mouse;                  /* enable the mouse (clicks and drags paint) */
	const char *path;            /* where `s` saves */
	const struct bestiary *b;    /* for the play-test (borrowed) */
	uint64_t seed;               /* the first play-test's seed; each next one adds 1 */
	int step_delay_ms;           /* the play-test's travel pause */
	const char *notice;          /* shown once at the start (may be NULL) */
	const char *recover;         /* restored from this LEVEL.recover: a save with the restore in
					effect (editor_past_mark) removes it (NULL: none) */
};

/*
 * Edits ed in the terminal on stdin/stdout until the designer quits, a
 * signal arrives or the terminal closes.  The terminal is restored before
 * it returns, whatever happened; nothing is printed.  Returns UI_QUIT,
 * UI_SIGNAL (*signal_number says which), UI_HANGUP or UI_ERROR (err says
 * why).  Saving happens inside (editor_save); the caller looks at
 * editor_modified to know what is left unsaved.  After UI_SIGNAL or
 * UI_HANGUP the signal handlers are left installed (later signals are only
 * noted), so the caller's rescue write survives a second hangup; the
 * caller sets the default action before raising the signal again.
 */
enum ui_outcome ui_editor_run(struct editor *ed, const struct ui_editor_options *opt,
			      int *signal_number, char *err, size_t errlen);

#endif
