/*
 * settings.c - the player's options file, DATA/options.txt: parsed with
 * file:line:col errors like every file astray reads (a fuzzer,
 * tests/fuzz_settings.c, holds it to that), written back whole and
 * atomically (savefile.c).  A missing or broken file never stops a game:
 * the defaults stand, with what the file got right applied and its first
 * problem said.  It knows nothing of the screen that sets the options.
 */
#include "settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "savefile.h"
#include "textfile.h"

#define SETTINGS_HEADER "astray-options 1"

enum { KEY_DELAY, KEY_COLOUR, KEY_MOUSE, KEY_POINTER, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = { "delay", "colour", "mouse", "pointer" };

void settings_default(struct settings *s)
{
	s->delay_ms = SETTINGS_DELAY_DEFAULT;
	s->colour = true;
	s->mouse = true;
	s->pointer = true;
}

static bool word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* on/off into *b; false when it is neither. */
static bool parse_switch(const char *v, size_t n, bool *b)
{
	if (word_is(v, n, "on") || word_is(v, n, "yes")) {
		*b = true;
		return true;
	}
	if (word_is(v, n, "off") || word_is(v, n, "no")) {
		*b = false;
		return true;
	}
	return false;
}

/* instant or a whole number of ms in [0, SETTINGS_DELAY_MAX]. */
static bool parse_delay(const char *v, size_t n, int *ms)
{
	if (word_is(v, n, "instant")) {
		*ms = 0;
		return true;
	}
	if (n == 0 || n > 4)
		return false;
	int x = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		x = x * 10 + (v[i] - '0');
	}
	if (x > SETTINGS_DELAY_MAX)
		return false;
	*ms = x;
	return true;
}

bool settings_parse(const char *name, const char *text, size_t len, struct settings *out, struct diag_list *diags)
{
	settings_default(out);
	int errors = diags->errors;
	bool seen[KEY_COUNT] = { false };
	size_t at = 0;
	int line = 0;
	while (at < len) {
		size_t end = at;
		while (end < len && text[end] != '\n')
			end++;
		size_t n = end - at;
		if (n > 0 && text[at + n - 1] == '\r')
			n--;
		line++;
		const char *s = text + at;
		at = end < len ? end + 1 : end;
		if (line == 1) {
			if (!word_is(s, n, SETTINGS_HEADER))
				diag_add(diags, DIAG_ERROR, name, 1, 1, "expected \"%s\" as the first line", SETTINGS_HEADER);
			continue;
		}
		struct textfile_kv kv;
		int col = 1;
		char msg[200];
		switch (textfile_kv_split(s, n, "options file", "delay, colour, mouse or pointer", &kv, &col, msg, sizeof msg)) {
		case TEXTFILE_KV_BLANK:
			continue;
		case TEXTFILE_KV_BAD:
			diag_add(diags, DIAG_ERROR, name, line, col, "%s", msg);
			continue;
		case TEXTFILE_KV_PAIR:
			break;
		}
		const char *key = s + kv.key, *val = s + kv.value;
		size_t kn = kv.key_end - kv.key, vn = kv.value_end - kv.value;
		int vcol = (int)kv.value + 1;
		int k = 0;
		while (k < KEY_COUNT && !word_is(key, kn, key_names[k]))
			k++;
		if (k == KEY_COUNT) {
			diag_add(diags, DIAG_ERROR, name, line, (int)kv.key + 1,
				 "unknown key '%.*s' (the keys are delay, colour, mouse and pointer)", kn > 40 ? 40 : (int)kn, key);
			continue;
		}
		if (seen[k]) {
			diag_add(diags, DIAG_ERROR, name, line, (int)kv.key + 1, "'%s' given twice", key_names[k]);
			continue;
		}
		seen[k] = true;
		bool ok = k == KEY_DELAY ? parse_delay(val, vn, &out->delay_ms)
			  : parse_switch(val, vn, k == KEY_COLOUR ? &out->colour : k == KEY_MOUSE ? &out->mouse : &out->pointer);
		if (!ok)
			diag_add(diags, DIAG_ERROR, name, line, vcol, "%s: expected %s", key_names[k],
				 k == KEY_DELAY ? "instant or a number of ms from 0 to 1000" : "on or off");
	}
	if (line == 0)
		diag_add(diags, DIAG_ERROR, name, 1, 1, "empty file: expected \"%s\" as the first line", SETTINGS_HEADER);
	return diags->errors == errors;
}

size_t settings_format(const struct settings *s, char *buf, size_t size)
{
	char delay[16];
	if (s->delay_ms == 0)
		snprintf(delay, sizeof delay, "instant");
	else
		snprintf(delay, sizeof delay, "%d", s->delay_ms);
	int n = snprintf(buf, size,
			 SETTINGS_HEADER "\n"
			 "; astray's options, set in the game with O (docs/play.md, \"Options\")\n"
			 "delay: %s ; ms between animated steps of travel, explore and rest; instant: none\n"
			 "colour: %s\n"
			 "mouse: %s\n"
			 "pointer: %s ; the route a click would walk, under the resting pointer\n",
			 delay, s->colour ? "on" : "off", s->mouse ? "on" : "off", s->pointer ? "on" : "off");
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

bool settings_load(const char *data, struct settings *out, char *msg, size_t msglen)
{
	settings_default(out);
	if (msglen)
		msg[0] = '\0';
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", data, SETTINGS_FILE);
	char *text;
	size_t len;
	int err = textfile_read(path, &text, &len);
	if (err == ENOENT)
		return true;
	if (err) {
		snprintf(msg, msglen, "%s: %s: the default options are used", path, textfile_strerror(err));
		return false;
	}
	struct diag_list d = { 0 };
	bool ok = settings_parse(path, text, len, out, &d);
	if (!ok && d.n > 0) {
		char line[600];
		diag_format(&d.items[0], line, sizeof line);
		snprintf(msg, msglen, "%s (the rest of the options are used; O in the game rewrites the file)", line);
	} else if (!ok) {
		snprintf(msg, msglen, "%s: cannot be read: the default options are used", path);
	}
	diag_list_fini(&d);
	free(text);
	return ok;
}

bool settings_save(const char *data, const struct settings *s, char *err, size_t errlen)
{
	char path[4200], text[512];
	snprintf(path, sizeof path, "%s/%s", data, SETTINGS_FILE);
	size_t len = settings_format(s, text, sizeof text);
	return savefile_write_atomic(NULL, path, text, len, true, err, errlen);
}
