/*
 * pty_driver.c - the pseudo-terminal driver of the end-to-end tests:
 * forkpty with the size set before exec, bytes in, output into libvterm,
 * cells out.  Compiled once into the tests' helper library.
 */
#define _DEFAULT_SOURCE
#include "pty_driver.h"

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static long pty_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pty_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int pty_on_prop(VTermProp prop, VTermValue *val, void *user)
{
	struct pty *p = user;
	if (prop == VTERM_PROP_ALTSCREEN)
		p->altscreen = val->boolean;
	else if (prop == VTERM_PROP_CURSORVISIBLE)
		p->cursor_visible = val->boolean;
	return 1;
}

static const VTermScreenCallbacks pty_callbacks = {
	.settermprop = pty_on_prop,
};

static bool pty_spawn(struct pty *p, int rows, int cols, char *const argv[], bool block_hup)
{
	memset(p, 0, sizeof *p);
	p->pid = -1;
	p->fd = -1;
	p->rows = rows;
	p->cols = cols;
	p->cursor_visible = true;
	p->vt = vterm_new(rows, cols);
	if (!p->vt)
		return false;
	vterm_set_utf8(p->vt, 1);
	p->screen = vterm_obtain_screen(p->vt);
	vterm_screen_set_callbacks(p->screen, &pty_callbacks, p);
	vterm_screen_enable_altscreen(p->screen, 1);
	vterm_screen_reset(p->screen, 1);

	/* A fresh data folder for the program, unless the test made its own
	 * and says so (ASTRAY_PTY_KEEP_DATA_HOME: its XDG_DATA_HOME is kept). */
	p->data_home[0] = '\0';
	if (!getenv("ASTRAY_PTY_KEEP_DATA_HOME")) {
		snprintf(p->data_home, sizeof p->data_home, "/tmp/astray-pty-XXXXXX");
		if (!mkdtemp(p->data_home)) {
			p->data_home[0] = '\0';
			return false;
		}
	}
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid < 0)
		return false;
	if (pid == 0) {
		/* the child: a clean environment for curses, then the program */
		setenv("TERM", "xterm-256color", 1);
		setenv("ESCDELAY", "25", 1);
		/* UTF-8, as libvterm reads it: in another locale (LANG unset,
		 * as under su -) ncurses draws a full status line with a
		 * repeat-character sequence and libvterm's screen ends up one
		 * row off */
		setenv("LC_ALL", "C.UTF-8", 1);
		unsetenv("LINES");
		unsetenv("COLUMNS");
		unsetenv("NO_COLOR");
		/* what a login session gives: default signal actions (the test
		 * process ignores SIGPIPE, and exec would pass that on), and no
		 * core files from the signals that dump one */
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core);
		if (p->data_home[0])
			setenv("XDG_DATA_HOME", p->data_home, 1);
		if (block_hup) {
			sigset_t set;
			sigemptyset(&set);
			sigaddset(&set, SIGHUP);
			sigprocmask(SIG_BLOCK, &set, NULL);
		}
		execv(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	p->pid = pid;
	p->fd = fd;
	return true;
}

bool pty_start(struct pty *p, int rows, int cols, char *const argv[])
{
	return pty_spawn(p, rows, cols, argv, false);
}

bool pty_start_hup_blocked(struct pty *p, int rows, int cols, char *const argv[])
{
	return pty_spawn(p, rows, cols, argv, true);
}

void pty_hangup(struct pty *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

static void pty_log(struct pty *p, const char *buf, size_t n)
{
	if (p->log_len + n + 1 > p->log_cap) {
		size_t cap = p->log_cap ? p->log_cap : 65536;
		while (cap < p->log_len + n + 1)
			cap *= 2;
		char *l = realloc(p->log, cap);
		if (!l)
			return;
		p->log = l;
		p->log_cap = cap;
	}
	memcpy(p->log + p->log_len, buf, n);
	p->log_len += n;
	p->log[p->log_len] = '\0';
}

/* The idle markers in what was logged since the last look (ui_screen.c
 * writes ESC ] 7777 ; astray-idle ; N BEL); a marker cut in two by the
 * reads is read once whole. */
#define PTY_IDLE_MARK "\033]7777;astray-idle;"

static void pty_scan_idle(struct pty *p)
{
	const size_t mark = sizeof PTY_IDLE_MARK - 1;
	while (p->log && p->idle_scan < p->log_len) {
		const char *at = p->log + p->idle_scan, *stop = p->log + p->log_len;
		while ((at = memchr(at, '\033', (size_t)(stop - at))) != NULL &&
		       memcmp(at, PTY_IDLE_MARK, (size_t)(stop - at) < mark ? (size_t)(stop - at) : mark) != 0)
			at++;
		if (at && (size_t)(stop - at) < mark) {
			p->idle_scan = (size_t)(at - p->log); /* a marker's beginning, perhaps */
			return;
		}
		if (!at) {
			p->idle_scan = p->log_len;
			return;
		}
		const char *end = memchr(at + mark, '\a', (size_t)(p->log + p->log_len - (at + mark)));
		if (!end) {
			p->idle_scan = (size_t)(at - p->log);
			return;
		}
		p->idle_keys = strtoul(at + mark, NULL, 10);
		p->idles++;
		p->idle_scan = (size_t)(end + 1 - p->log);
		p->idle_end = p->idle_scan;
	}
}

static void pty_reap(struct pty *p)
{
	if (p->exited || p->pid < 0)
		return;
	int st;
	if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
		p->exited = true;
		p->status = st;
	}
}

/* Reads once, waiting up to ms; false when nothing more can come. */
static bool pty_read_once(struct pty *p, int ms)
{
	if (p->fd < 0)
		return false;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	int r = poll(&pfd, 1, ms);
	if (r <= 0)
		return r == 0;
	char buf[8192];
	ssize_t n = read(p->fd, buf, sizeof buf);
	if (n <= 0)
		return false; /* EIO: the child closed its side */
	pty_log(p, buf, (size_t)n);
	pty_scan_idle(p);
	vterm_input_write(p->vt, buf, (size_t)n);
	/* answer what the program asked the terminal (device attributes...) */
	char reply[256];
	size_t m;
	while ((m = vterm_output_read(p->vt, reply, sizeof reply)) > 0)
		if (write(p->fd, reply, m) < 0)
			break;
	return true;
}

void pty_pump(struct pty *p, int ms)
{
	long end = pty_now_ms() + ms;
	for (;;) {
		long left = end - pty_now_ms();
		if (!pty_read_once(p, left > 0 ? (int)(left < 20 ? left : 20) : 0)) {
			pty_reap(p);
			if (left <= 0)
				return;
			pty_sleep_ms(5);
			continue;
		}
		pty_reap(p);
		if (left <= 0)
			return;
	}
}

/*
 * The fewest keys bytes make for ncurses (keypad on, TERM=xterm-256color,
 * the terminal in cbreak mode): an escape sequence ESC [ ... or ESC O x is
 * one key (or more, when the terminal description lacks it); a run of
 * mouse reports at least one KEY_MOUSE, none when they are all releases
 * (a held release comes with the next input); Ctrl-C, Ctrl-\, Ctrl-Z
 * (signals) and Ctrl-Q, Ctrl-S (flow control) none; any other byte one.
 */
static unsigned long pty_keys_in(const unsigned char *b, size_t n)
{
	unsigned long keys = 0;
	bool in_mouse_run = false, run_counted = false;
	size_t i = 0;
	while (i < n) {
		bool mouse = false, press = false;
		size_t next = i + 1;
		if (b[i] == 0x1b && i + 1 < n && b[i + 1] == '[') {
			if (i + 2 < n && b[i + 2] == 'M') { /* X10 mouse: ESC [ M b x y */
				mouse = true;
				press = i + 3 < n && ((b[i + 3] - 32) & 3) != 3;
				next = i + 6 < n ? i + 6 : n;
			} else {
				size_t j = i + 2;
				while (j < n && b[j] >= 0x30 && b[j] <= 0x3f)
					j++;
				while (j < n && b[j] >= 0x20 && b[j] <= 0x2f)
					j++;
				next = j < n ? j + 1 : n;
				if (b[i + 2] == '<') { /* SGR mouse: M a press or motion, m a release */
					mouse = true;
					press = j < n && b[j] == 'M';
				}
			}
		} else if (b[i] == 0x1b && i + 2 < n && b[i + 1] == 'O') {
			next = i + 3;
		} else if (b[i] == 0x03 || b[i] == 0x1c || b[i] == 0x1a || b[i] == 0x11 || b[i] == 0x13) {
			in_mouse_run = false;
			i = next;
			continue;
		}
		if (mouse) {
			if (!in_mouse_run)
				run_counted = false;
			in_mouse_run = true;
			if (press && !run_counted) {
				keys++;
				run_counted = true;
			}
		} else {
			in_mouse_run = false;
			keys++;
		}
		i = next;
	}
	return keys;
}

/* Input is going out: what the program wrote so far is read first (so a
 * marker read later is less likely from before the input), and the keys
 * the bytes make are counted for pty_wait_idle. */
static void pty_input_begins(struct pty *p, unsigned long keys)
{
	for (;;) {
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
		if (p->fd < 0 || poll(&pfd, 1, 0) <= 0 || !pty_read_once(p, 0))
			break;
	}
	pty_reap(p);
	if (!p->sent) {
		p->keys_base = p->idle_keys;
		p->keys_sent = 0;
		p->sent = true;
	}
	p->keys_sent += keys;
	p->idles_at_send = p->idles;
}

static void pty_write_bytes(struct pty *p, const void *bytes, size_t n)
{
	const char *b = bytes;
	while (n > 0 && p->fd >= 0) {
		ssize_t w = write(p->fd, b, n);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN) {
				pty_pump(p, 1);
				continue;
			}
			return;
		}
		b += w;
		n -= (size_t)w;
	}
}

void pty_write(struct pty *p, const void *bytes, size_t n)
{
	pty_input_begins(p, pty_keys_in(bytes, n));
	pty_write_bytes(p, bytes, n);
}

void pty_send(struct pty *p, const char *s)
{
	pty_write(p, s, strlen(s));
}

/* Waits until what was read ends with a marker later than the first
 * `after` markers, saying at least `keys` keys. */
static bool pty_wait_marker(struct pty *p, unsigned long after, unsigned long keys, int ms)
{
	long end = pty_now_ms() + ms;
	for (;;) {
		if (p->idles > after && p->idle_end == p->log_len && p->idle_keys >= keys) {
			p->sent = false;
			p->keys_base = p->idle_keys;
			p->keys_sent = 0;
			return true;
		}
		if (p->exited || pty_now_ms() >= end)
			return false;
		pty_pump(p, 10);
	}
}

bool pty_wait_idle(struct pty *p, int ms)
{
	if (!p->sent)
		return pty_wait_marker(p, 0, 0, ms);
	return pty_wait_marker(p, p->idles_at_send, p->keys_base + p->keys_sent, ms);
}

bool pty_wait_next_idle(struct pty *p, int ms)
{
	unsigned long keys = p->sent ? p->keys_base + p->keys_sent : 0;
	return pty_wait_marker(p, p->idles, keys, ms);
}

void pty_answer(struct pty *p, const char *s)
{
	pty_write_bytes(p, s, strlen(s));
}

bool pty_send_idle(struct pty *p, const char *s)
{
	pty_send(p, s);
	return pty_wait_idle(p, WAIT_MS);
}

unsigned long pty_idles(const struct pty *p)
{
	return p->idles;
}

void pty_click(struct pty *p, int button, int col, int row, bool split)
{
	char press[48], release[48];
	snprintf(press, sizeof press, "\033[<%d;%d;%dM", button, col + 1, row + 1);
	snprintf(release, sizeof release, "\033[<%d;%d;%dm", button, col + 1, row + 1);
	if (split) {
		pty_send(p, press);
		pty_wait_idle(p, WAIT_MS);
		pty_send(p, release);
	} else {
		char both[96];
		snprintf(both, sizeof both, "%s%s", press, release);
		pty_send(p, both);
	}
}

void pty_hover(struct pty *p, int col, int row)
{
	char motion[48];
	snprintf(motion, sizeof motion, "\033[<35;%d;%dM", col + 1, row + 1);
	pty_send(p, motion);
}

void pty_resize(struct pty *p, int rows, int cols)
{
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };
	pty_input_begins(p, 1); /* KEY_RESIZE; what came before, at the old size */
	vterm_set_size(p->vt, rows, cols);
	p->rows = rows;
	p->cols = cols;
	ioctl(p->fd, TIOCSWINSZ, &ws);
}

static size_t pty_put_utf8(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

uint32_t pty_char(struct pty *p, int row, int col)
{
	if (row < 0 || col < 0 || row >= p->rows || col >= p->cols)
		return 0;
	VTermScreenCell cell;
	VTermPos pos = { .row = row, .col = col };
	if (!vterm_screen_get_cell(p->screen, pos, &cell))
		return 0;
	return cell.chars[0];
}

void pty_row(struct pty *p, int row, char *buf, size_t size)
{
	size_t n = 0, keep = 0;
	for (int c = 0; c < p->cols && n + 5 < size; c++) {
		uint32_t ch = pty_char(p, row, c);
		n += pty_put_utf8(ch ? ch : ' ', buf + n);
		if (ch && ch != ' ')
			keep = n;
	}
	buf[keep] = '\0';
}

bool pty_find(struct pty *p, const char *text, int *row, int *col)
{
	char line[1024];
	for (int r = 0; r < p->rows; r++) {
		pty_row(p, r, line, sizeof line);
		const char *hit = strstr(line, text);
		if (hit) {
			if (row)
				*row = r;
			if (col)
				*col = (int)(hit - line); /* right for ASCII rows */
			return true;
		}
	}
	return false;
}

bool pty_wait_text(struct pty *p, const char *text, int ms)
{
	long end = pty_now_ms() + ms;
	for (;;) {
		if (pty_find(p, text, NULL, NULL))
			return true;
		if (pty_now_ms() >= end || p->exited)
			return pty_find(p, text, NULL, NULL);
		pty_pump(p, 10);
	}
}

bool pty_wait_gone(struct pty *p, const char *text, int ms)
{
	long end = pty_now_ms() + ms;
	for (;;) {
		if (!pty_find(p, text, NULL, NULL))
			return true;
		if (pty_now_ms() >= end)
			return false;
		pty_pump(p, 10);
	}
}

bool pty_wait_change(struct pty *p, const char *before, int ms)
{
	long end = pty_now_ms() + ms;
	char now[8192];
	for (;;) {
		pty_dump(p, now, sizeof now);
		if (strcmp(now, before) != 0)
			return true;
		if (pty_now_ms() >= end || p->exited)
			return false;
		pty_pump(p, 10);
	}
}

bool pty_wait_char_at(struct pty *p, uint32_t ch, int row, int col, int ms)
{
	long end = pty_now_ms() + ms;
	for (;;) {
		if (pty_char(p, row, col) == ch)
			return true;
		if (pty_now_ms() >= end || p->exited)
			return pty_char(p, row, col) == ch;
		pty_pump(p, 10);
	}
}

bool pty_wait_exit(struct pty *p, int ms)
{
	long end = pty_now_ms() + ms;
	while (!p->exited) {
		if (pty_now_ms() >= end)
			return false;
		if (p->fd < 0) {
			pty_reap(p);
			pty_sleep_ms(10);
			continue;
		}
		pty_pump(p, 10);
	}
	/* what was written just before the exit */
	while (pty_read_once(p, 0))
		;
	return true;
}

bool pty_log_has(const struct pty *p, const char *s)
{
	return p->log && strstr(p->log, s) != NULL;
}

void pty_dump(struct pty *p, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int r = 0; r < p->rows && n + 2 < size; r++) {
		char line[1024];
		pty_row(p, r, line, sizeof line);
		int w = snprintf(buf + n, size - n, "%2d|%s\n", r, line);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

void pty_close(struct pty *p)
{
	if (p->pid > 0 && !p->exited) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, &p->status, 0);
		p->exited = true;
	}
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	if (p->vt)
		vterm_free(p->vt);
	p->vt = NULL;
	free(p->log);
	p->log = NULL;
	if (p->data_home[0]) {
		/* a folder this driver made with mkdtemp, holding only what the program saved */
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", p->data_home);
		if (system(cmd) != 0)
			fprintf(stderr, "pty_close: could not remove %s\n", p->data_home);
		p->data_home[0] = '\0';
	}
}
