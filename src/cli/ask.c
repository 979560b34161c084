/*
 * ask.c - the yes/no questions play and edit ask on the terminal before
 * their screens start (continue a saved game? restore unsaved changes?).
 * A line prompt echoed an Escape as ^[ and waited for Enter after a y;
 * in a terminal the answer is now one key, read with the terminal in
 * non-canonical mode without echo (signals off too, so Ctrl-C answers
 * "nothing" rather than killing the program with the terminal left in
 * that mode), and the mode is restored before the function returns.  It
 * owns no state; the caller decides what an answer does.
 */
#include "ask.h"

#include <errno.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#define ASK_ESC_MS 30 /* bytes after an Escape within this are one key's sequence */

/* One byte from fd, or -1 at end of input or on an error. */
static int ask_byte(int fd)
{
	unsigned char c;
	for (;;) {
		ssize_t n = read(fd, &c, 1);
		if (n == 1)
			return c;
		if (n < 0 && errno == EINTR)
			continue;
		return -1;
	}
}

/* Whether more bytes are on their way within ms (a key's escape sequence). */
static bool ask_more(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, ms) > 0;
}

static int ask_key(int fd, FILE *out, const char *question, bool default_yes)
{
	struct termios old, raw;
	if (tcgetattr(fd, &old) != 0)
		return -2; /* not a terminal after all: read a line */
	raw = old;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	/* raw before the question shows: an answer sent as soon as it is
	 * seen is read, not flushed */
	if (tcsetattr(fd, TCSANOW, &raw) != 0)
		return -2;
	fprintf(out, "%s %s ", question, default_yes ? "[Y/n]" : "[y/N]");
	fflush(out);
	int answer = -1;
	for (;;) {
		int c = ask_byte(fd);
		if (c < 0 || c == 3 || c == 4) /* end of input, Ctrl-C, Ctrl-D */
			break;
		if (c == 27) {
			if (!ask_more(fd, ASK_ESC_MS))
				break; /* Esc alone */
			tcflush(fd, TCIFLUSH); /* an arrow or function key: not an answer */
		} else if (c == 'y' || c == 'Y') {
			answer = 1;
			break;
		} else if (c == 'n' || c == 'N') {
			answer = 0;
			break;
		} else if (c == '\r' || c == '\n') {
			answer = default_yes ? 1 : 0;
			break;
		}
		fputs("\nPress y or n: ", out);
		fflush(out);
	}
	/* what was typed after the answer (the Enter of "y Enter") is not
	 * meant for the screen that comes next */
	tcsetattr(fd, TCSAFLUSH, &old);
	fprintf(out, "%s\n", answer == 1 ? "yes" : answer == 0 ? "no" : "(no answer)");
	fflush(out);
	return answer;
}

int ask_yes_no(FILE *in, FILE *out, const char *question, bool default_yes)
{
	int fd = fileno(in);
	if (fd >= 0 && isatty(fd)) {
		int r = ask_key(fd, out, question, default_yes);
		if (r != -2)
			return r;
	}
	char line[64];
	for (;;) {
		fprintf(out, "%s %s ", question, default_yes ? "[Y/n]" : "[y/N]");
		fflush(out);
		if (!fgets(line, sizeof line, in))
			return -1;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || *p == '\r' || *p == '\0')
			return default_yes ? 1 : 0;
		if (*p == 'y' || *p == 'Y')
			return 1;
		if (*p == 'n' || *p == 'N')
			return 0;
		fprintf(out, "Please answer y or n.\n");
	}
}
