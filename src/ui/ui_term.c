/*
 * ui_term.c - the terminal description probe.  It is a file of its own
 * because it needs <term.h>, whose macros (lines, hangup...) would rename
 * words of the screens' code (ui_draw.c, ui_curses.c, ui_editor.c...).
 */
#include "ui_term.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>

bool ui_term_usable(int fd, char *err, size_t errlen)
{
	int why = 0;
	if (setupterm(NULL, fd, &why) != OK) {
		const char *term = getenv("TERM");
		snprintf(err, errlen, "cannot use the terminal (TERM=%s): %s", term && *term ? term : "unset",
			 why == 0 ? "no such terminal description" : why == 1 ? "a hardcopy terminal"
			 : "no terminfo database found");
		return false;
	}
	/* newterm builds its own description; this one is no longer needed */
	TERMINAL *probe = set_curterm(NULL);
	if (probe)
		del_curterm(probe);
	return true;
}

/* Appends s, a capability string (NULL or -1: the terminal has none, nothing to add). */
static bool add_cap(char *buf, size_t size, size_t *n, const char *s)
{
	if (!s || s == (const char *)-1)
		return true;
	size_t k = strlen(s);
	if (k > size - *n)
		return false;
	memcpy(buf + *n, s, k);
	*n += k;
	return true;
}

size_t ui_term_reset_bytes(char *buf, size_t size, bool mouse, bool drags)
{
	size_t n = 0;
	bool ok = true;
	if (mouse) {
		/* ncurses turns the mouse on through XM with 1 (xterm: the SGR
		 * and X10 modes); 0 turns the same modes off */
		const char *xm = tigetstr("XM");
		const char *off = xm && xm != (const char *)-1 ? tiparm(xm, 0) : NULL;
		ok = add_cap(buf, size, &n, off ? off : "\033[?1006l\033[?1000l");
		/* motion with none down (the game's pointer, which O may turn on
		 * after the start), and with a button down */
		ok = ok && add_cap(buf, size, &n, drags ? "\033[?1003l\033[?1002l" : "\033[?1003l");
	}
	ok = ok && add_cap(buf, size, &n, tigetstr("sgr0"));
	ok = ok && add_cap(buf, size, &n, tigetstr("cnorm"));
	ok = ok && add_cap(buf, size, &n, tigetstr("rmkx"));
	ok = ok && add_cap(buf, size, &n, tigetstr("rmcup"));
	return ok ? n : 0;
}
