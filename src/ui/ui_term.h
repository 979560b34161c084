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

#endif
