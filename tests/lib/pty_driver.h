/* pty_driver.h - runs a program in a pseudo-terminal and reads its screen back through libvterm. */
#ifndef ASTRAY_PTY_DRIVER_H
#define ASTRAY_PTY_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <vterm.h>

/* How long any wait of the end-to-end tests waits, in milliseconds: long,
 * as the binary runs under ASan on a machine that may be loaded.  A wait
 * ends as soon as what it waits for happens, so this only bounds a
 * failing test. */
#define WAIT_MS 10000

/*
 * One program in one pseudo-terminal.  Everything it writes goes into a
 * libvterm screen (cells read back as text) and into a byte log (for
 * checks such as "the alternate screen was left").  Waits poll the output
 * with a time limit, so a slow (sanitized) binary only makes tests slower.
 */
struct pty {
	pid_t pid;               /* the child, or -1 once reaped */
	int fd;                  /* the master side */
	int rows, cols;
	VTerm *vt;
	VTermScreen *screen;
	bool altscreen;          /* the program is on the alternate screen */
	bool cursor_visible;
	bool exited;
	int status;              /* waitpid status once exited */
	char data_home[64];      /* XDG_DATA_HOME of the program: a fresh folder, removed by pty_close,
	                            so a game's save never reaches the user's home or the next test */
	char *log;               /* every byte the program wrote */
	size_t log_len, log_cap;
};

/* Starts argv (argv[0] is a path) in a rows x cols terminal with
 * TERM=xterm-256color, ESCDELAY=25 and XDG_DATA_HOME a fresh empty folder (unless ASTRAY_PTY_KEEP_DATA_HOME is set: the test made its own)
 * (p->data_home).  False when it could not start. */
bool pty_start(struct pty *p, int rows, int cols, char *const argv[]);

/* The same with SIGHUP blocked in the program, so a closed terminal can
 * only be noticed by reading from it (the no-spinning check). */
bool pty_start_hup_blocked(struct pty *p, int rows, int cols, char *const argv[]);

/* Closes the master side, as a terminal window does when it is closed. */
void pty_hangup(struct pty *p);

/* Kills the child if it still runs and frees everything. */
void pty_close(struct pty *p);

/* Reads what the program wrote for up to ms milliseconds (0: what is there now). */
void pty_pump(struct pty *p, int ms);

void pty_write(struct pty *p, const void *bytes, size_t n);
void pty_send(struct pty *p, const char *s);

/* Mouse, SGR encoding (what ncurses asks xterm for); col and row 0-based.
 * button 0 left, 2 right.  `split`: press, 60 ms, release (PRESSED then
 * RELEASED); else both in one write (CLICKED). */
void pty_click(struct pty *p, int button, int col, int row, bool split);

/* A new size: the kernel sends SIGWINCH, the screen model follows. */
void pty_resize(struct pty *p, int rows, int cols);

/* Row `row` of the screen as UTF-8 text, trailing blanks removed. */
void pty_row(struct pty *p, int row, char *buf, size_t size);

/* Where text first appears on the screen. */
bool pty_find(struct pty *p, const char *text, int *row, int *col);

/* Waits until text appears (true) or ms pass (false). */
bool pty_wait_text(struct pty *p, const char *text, int ms);

/* Waits until text is gone from the screen. */
bool pty_wait_gone(struct pty *p, const char *text, int ms);

/* The character at a screen cell (0 for blank). */
uint32_t pty_char(struct pty *p, int row, int col);

/* Waits until character ch stands at (row, col). */
bool pty_wait_char_at(struct pty *p, uint32_t ch, int row, int col, int ms);

/* Waits for the child to exit, reading its output meanwhile. */
bool pty_wait_exit(struct pty *p, int ms);

/* Whether the byte log contains s. */
bool pty_log_has(const struct pty *p, const char *s);

/* The whole screen as text, one line per row (for failure messages). */
void pty_dump(struct pty *p, char *buf, size_t size);

#endif
