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
	/* the idle markers of the test build (ASTRAY_TEST_IDLE, ui_screen.c) */
	size_t idle_scan;        /* where in log the search for markers goes on */
	unsigned long idles;     /* markers read so far */
	unsigned long idle_keys; /* the keys the program had read, said by the last marker */
	size_t idle_end;         /* log_len just after the last marker */
	unsigned long keys_base; /* idle_keys when the driver last saw the program idle with all input taken */
	unsigned long keys_sent; /* keys sent since then, at least (pty_send counts them) */
	unsigned long idles_at_send; /* idles when input was last sent */
	bool sent;               /* input sent since the last pty_wait_idle */
};

/* Starts argv (argv[0] is a path) in a rows x cols terminal with
 * TERM=xterm-256color, ESCDELAY=25, LC_ALL=C.UTF-8 (libvterm reads UTF-8;
 * in another locale ncurses draws what it then reads differently) and
 * XDG_DATA_HOME a fresh empty folder (p->data_home; unless
 * ASTRAY_PTY_KEEP_DATA_HOME is set: the test made its own).  False when it
 * could not start. */
bool pty_start(struct pty *p, int rows, int cols, char *const argv[]);

/* The same with SIGHUP blocked in the program, so a closed terminal can
 * only be noticed by reading from it (the no-spinning check). */
bool pty_start_hup_blocked(struct pty *p, int rows, int cols, char *const argv[]);

/* Closes the master side, as a terminal window does when it is closed. */
void pty_hangup(struct pty *p);

/* Kills the child if it still runs and frees everything. */
void pty_close(struct pty *p);

/* Reads what the program wrote for up to ms milliseconds (0: what is there
 * now).  Not a way to wait for the program: see pty_wait_idle. */
void pty_pump(struct pty *p, int ms);

/* Input for the program.  Each send first reads what the program wrote
 * so far, and counts the keys its bytes make at least (an escape sequence
 * is one key, a run of mouse reports at most one, Ctrl-C none), for
 * pty_wait_idle. */
void pty_write(struct pty *p, const void *bytes, size_t n);
void pty_send(struct pty *p, const char *s);

/*
 * Waits until the program has taken in everything sent to it and gone
 * idle.  The test build writes an idle marker each time it blocks
 * waiting for a key, once the screen is drawn (ui_screen.c,
 * ASTRAY_TEST_IDLE); this waits until what the program wrote ends with a
 * marker that came after the last input and says the program has read at
 * least the keys sent since the last such wait.  The screen then shows
 * the outcome of every key sent, and what has not happened will not
 * happen without more input (or the program's own timer: travel, a
 * replay): the way to check that nothing happened.  With nothing sent,
 * it waits for the output to end with a marker (a frame seen part-drawn
 * is then whole).  False when ms pass or the program exits first.  Only
 * for programs of the test build reading keys in curses: build/astray
 * writes no markers.
 */
bool pty_wait_idle(struct pty *p, int ms);

/* Like pty_wait_idle, but the marker must be a new one: the program has
 * woken up once more (its wait for a key timed out, or input came) and
 * gone idle again.  A program running on a timer (travel, a replay)
 * would have made its next step by then. */
bool pty_wait_next_idle(struct pty *p, int ms);

/* Answers a question the program asks on its standard input outside
 * curses ("Continue it? [Y/n]", read with stdio): the bytes are not keys
 * of its curses screen, so pty_wait_idle does not wait for them. */
void pty_answer(struct pty *p, const char *s);

/* pty_send, then pty_wait_idle for WAIT_MS. */
bool pty_send_idle(struct pty *p, const char *s);

/* The markers read so far (0: the program never waited for a key in curses). */
unsigned long pty_idles(const struct pty *p);

/* Mouse, SGR encoding (what ncurses asks xterm for); col and row 0-based.
 * button 0 left, 2 right.  `split`: the press, a wait until the program
 * has taken it in (pty_wait_idle), then the release: ncurses reports
 * PRESSED then RELEASED; else both in one write (CLICKED). */
void pty_click(struct pty *p, int button, int col, int row, bool split);
/* The pointer moved to (col, row) with no button down (SGR mode 1003: button 35). */
void pty_hover(struct pty *p, int col, int row);

/* A new size: the kernel sends SIGWINCH (one key, KEY_RESIZE, for
 * pty_wait_idle), the screen model follows. */
void pty_resize(struct pty *p, int rows, int cols);

/* Row `row` of the screen as UTF-8 text, trailing blanks removed. */
void pty_row(struct pty *p, int row, char *buf, size_t size);

/* Where text first appears on the screen. */
bool pty_find(struct pty *p, const char *text, int *row, int *col);

/* Waits until text appears (true) or ms pass (false). */
bool pty_wait_text(struct pty *p, const char *text, int ms);

/* Waits until text is gone from the screen. */
bool pty_wait_gone(struct pty *p, const char *text, int ms);

/* Waits until the screen differs from `before` (a pty_dump of it), or ms
 * pass (false).  For the program without idle markers (build/astray):
 * the reaction to a key has begun to show. */
bool pty_wait_change(struct pty *p, const char *before, int ms);

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
