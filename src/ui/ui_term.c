/*
 * ui_term.c - the terminal description probe.  It is apart from
 * ui_curses.c because it needs <term.h>, whose macros (lines, hangup...)
 * would rename words of the drawing code.
 */
#include "ui_term.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
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
