/* ui_term.h - whether the terminal named by TERM can be used, asked before curses starts. */
#ifndef ASTRAY_UI_TERM_H
#define ASTRAY_UI_TERM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Looks up TERM's terminal description for the terminal on fd without
 * starting curses.  False with the reason in err when there is none:
 * newterm would then fail too, and a failed newterm leaks what it had
 * allocated (ncurses offers no way to free it), so ui_run asks first.
 */
bool ui_term_usable(int fd, char *err, size_t errlen);

/*
 * The bytes that give the current curses terminal back to the shell, from
 * its terminal description, computed while curses is up so that a fatal
 * signal's handler only has to write() them: mouse reports off (the
 * terminal's XM string, or the X10 and SGR modes, and the reports of
 * motion with no button down; drags: with a button down too) when mouse is set, attributes reset (sgr0), the cursor shown
 * (cnorm), keypad transmit off (rmkx) and the alternate screen left
 * (rmcup).  Writes at most size bytes into buf; returns how many (0 when
 * they do not all fit).
 */
size_t ui_term_reset_bytes(char *buf, size_t size, bool mouse, bool drags);

#endif
