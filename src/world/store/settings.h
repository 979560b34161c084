/* settings.h - the player's options (animation speed, colours, mouse, the pointer's route) and their file DATA/options.txt. */
#ifndef ASTRAY_SETTINGS_H
#define ASTRAY_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define SETTINGS_FILE "options.txt"   /* in the data folder */
#define SETTINGS_DELAY_MAX 1000       /* ms, as --delay */
#define SETTINGS_DELAY_DEFAULT 30     /* ms between two animated steps */

/* What the options screen (O) sets; nothing here changes play or a
 * game's hash: only how the screen shows it. */
struct settings {
	int delay_ms;   /* pause between animated steps of travel, explore, rest and run; 0: instant */
	bool colour;    /* colours when the terminal has them (off: the monochrome look) */
	bool mouse;     /* the game takes the mouse (off: the terminal keeps text selection) */
	bool pointer;   /* with the mouse: the route a click would walk drawn under the resting pointer */
};

void settings_default(struct settings *s);

/*
 * Parses an options file: a first line "astray-options 1", then "key:
 * value" lines (';' comments): `delay: instant | MS` (0 to 1000),
 * `colour: on | off`, `mouse: on | off`, `pointer: on | off` (a file from
 * before it has none: on).  Every problem goes to diags as
 * name:line:col (an unknown key, a bad value, a repeated key, a bad
 * header); out then holds the defaults with each good line applied.
 * Returns false when there was an error.
 */
bool settings_parse(const char *name, const char *text, size_t len, struct settings *out, struct diag_list *diags);

/* The file's text for s (NUL-terminated, at most size bytes); its length. */
size_t settings_format(const struct settings *s, char *buf, size_t size);

/*
 * Reads DATA/options.txt into out.  A missing file gives the defaults and
 * no message (true); an unreadable or broken one gives the defaults with
 * each good line applied, and msg its first problem as file:line:col
 * (false).  Never fails harder: a game always starts.
 */
bool settings_load(const char *data, struct settings *out, char *msg, size_t msglen);

/* Writes s to DATA/options.txt atomically.  False with a message. */
bool settings_save(const char *data, const struct settings *s, char *err, size_t errlen);

#endif
