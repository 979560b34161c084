/*
 * fuzz_input.c - libFuzzer target for the terminal input as the game
 * reads it: the bytes go through a pipe into a real curses screen
 * (newterm with keypad and the mouse on, as ui_screen_start makes it), so
 * ncurses' own key and mouse decoding (getch, getmouse: X10 reports under
 * TERM=screen, SGR under TERM=xterm) turns them into the events that our
 * code then handles: the key translation (ui_screen_key, input_key), the
 * click state machine (input_click_event) and the click-to-cell mapping
 * (input_screen_to_cell), inside the game's own loop (ui_run), the title
 * screen (ui_title_run) and the editor (ui_editor_run, its play-test too).
 * Standard output goes to /dev/null; the pipe's end is the terminal
 * closing, which ends each screen (UI_HANGUP).  ncurses 6.4 reads the rest
 * of a mouse report in a loop that stops only at its last byte or a read
 * error: an end of input inside one (read returns 0, as a pipe does) would
 * spin there for ever.  A terminal that closes interrupts that read with
 * SIGHUP instead (the game then ends), which a pipe cannot do, so the
 * input is followed by FUZZ_TAIL: bytes that end any report and are then
 * ordinary keys.
 *
 * The first byte chooses the screen (play, title or editor), the map
 * (square8, hex or diamond8) and TERM; the rest is what the keyboard and
 * the mouse sent.  Asserted: no crash or sanitizer error, no travel to a
 * cell outside the map (every action the game carries out passes the
 * `acted` hook), every screen ending as the terminal closes, not in an
 * error.  ASTRAY_TEST_CRASH is never compiled in here.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bestiary.h"
#include "editor.h"
#include "game.h"
#include "level.h"
#include "ui.h"
#include "ui_editor.h"
#include "ui_title.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_INPUT_MAX 60000 /* below a pipe's 64 KiB, so one write never blocks */
#define FUZZ_TAIL "mmmmmmmm" /* an SGR report ends at m, an X10 one after 3 bytes */

static const char fuzz_bestiary[] = "kind: goblin\nglyph: g\nhp: 6\ndamage: 1\nsight: 8\n"
				    "kind: rat\nglyph: r\nhp: 3\nspeed: 150\nflee: 0.34\n";

/* Small maps with a monster, a potion, gold, a door and the exit; the
 * screen is 80x24 (the terminal description's size: no terminal here). */
static const char *const fuzz_levels[] = {
	"astray-level 1\nname: Fuzz Square\ntopology: square8\nmap:\n"
	"##############\n"
	"#@...,..~~...#\n"
	"#....#####+..#\n"
	"#.!..#...#...#\n"
	"#....#.g.#..$#\n"
	"#........#..>#\n"
	"##############\n",
	"astray-level 1\nname: Fuzz Hex\ntopology: hex\nmap:\n"
	"# # # # # # # # # # # #\n"
	" # . . . . . . . . . . #\n"
	"# . . @ . . # # . . . #\n"
	" # . . . . . # g . ! . #\n"
	"# . . . . . . . . . > #\n"
	" # # # # # # # # # # # #\n",
	"astray-level 1\nname: Fuzz Diamond\ntopology: diamond8\nmap:\n"
	"# # # # # # # # # # # #\n"
	" # . . . . . . . . . . #\n"
	"# . . . . . . . . . . #\n"
	" # . . @ . . . . r . . #\n"
	"# . . . . . . # . . . #\n"
	" # . . . . . . . . $ . #\n"
	"# . . . . . . . . . > #\n"
	" # # # # # # # # # # # #\n",
};
#define FUZZ_LEVELS ((int)(sizeof fuzz_levels / sizeof fuzz_levels[0]))

/* Every action the screens carry out: a travel target is a cell of the map. */
static bool fuzz_acted(void *ud, const struct game *g, const struct action *a, enum act_result r, char *msg,
		       size_t msglen)
{
	(void)ud;
	(void)r;
	(void)msg;
	(void)msglen;
	const struct level *lv = game_level(g);
	if (a->kind == ACT_TRAVEL && (a->x < 0 || a->y < 0 || a->x >= lv->w || a->y >= lv->h))
		abort();
	if (g->player.x < 0 || g->player.y < 0 || g->player.x >= lv->w || g->player.y >= lv->h)
		abort();
	return true;
}

/* Standard input and output while a screen runs, put back after. */
struct fuzz_fds {
	int in, out;
};

/* stdin becomes a pipe holding data[0..size) then its end; stdout /dev/null. */
static bool fuzz_redirect(struct fuzz_fds *saved, const uint8_t *data, size_t size)
{
	int p[2];
	if (pipe(p) != 0)
		return false;
	if ((size > 0 && write(p[1], data, size) != (ssize_t)size) ||
	    write(p[1], FUZZ_TAIL, sizeof FUZZ_TAIL - 1) != (ssize_t)sizeof FUZZ_TAIL - 1)
		abort(); /* the pipe holds FUZZ_INPUT_MAX bytes and the tail: a harness error */
	close(p[1]);
	int null = open("/dev/null", O_WRONLY);
	fflush(stdout);
	saved->in = dup(STDIN_FILENO);
	saved->out = dup(STDOUT_FILENO);
	if (null < 0 || saved->in < 0 || saved->out < 0)
		abort();
	dup2(p[0], STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	close(p[0]);
	close(null);
	return true;
}

static void fuzz_restore(const struct fuzz_fds *saved)
{
	fflush(stdout);
	dup2(saved->in, STDIN_FILENO);
	dup2(saved->out, STDOUT_FILENO);
	close(saved->in);
	close(saved->out);
}

/*
 * libFuzzer's -timeout check is a SIGALRM timer: the screens catch it
 * like any signal that ends a program and leave early.  That ending is
 * fine; the alarm is passed on to libFuzzer's handler, now back in place.
 */
static bool fuzz_alarm(bool by_signal, int signo)
{
	if (!by_signal || signo != SIGALRM)
		return false;
	raise(SIGALRM);
	return true;
}

static void fuzz_play(struct game *g)
{
	struct ui_hooks hooks = { .acted = fuzz_acted };
	struct ui_options opt = { .mouse = true, .step_delay_ms = 0, .hooks = &hooks };
	int signo = 0;
	char err[256];
	enum ui_outcome o = ui_run(g, &opt, &signo, err, sizeof err);
	if (fuzz_alarm(o == UI_SIGNAL, signo))
		return;
	if (o == UI_ERROR || o == UI_SIGNAL) {
		fprintf(stderr, "fuzz_input: play ended in %s: %s (signal %d)\n", o == UI_ERROR ? "an error" : "a signal",
			o == UI_ERROR ? err : "", signo);
		abort();
	}
}

static void fuzz_title(void)
{
	static const struct score_entry scores[] = {
		{ .score = 120, .depth = 2, .turns = 300, .outcome = "died", .cause = "killed by a goblin" },
	};
	struct ui_title_entries e = { .can_continue = true, .continue_detail = "level 2, turn 40",
				      .scores = scores, .n_scores = 1, .mouse = true };
	uint64_t seed = 0;
	int signo = 0;
	char err[256];
	enum ui_title_choice c = ui_title_run(&e, &seed, &signo, err, sizeof err);
	if (fuzz_alarm(c == TITLE_SIGNAL, signo))
		return;
	if (c == TITLE_ERROR || c == TITLE_SIGNAL)
		abort();
}

static void fuzz_edit(const struct level *lv, const struct bestiary *b)
{
	/* a folder that does not exist: `s` fails with a message, writes nothing */
	const char *path = "/nonexistent-astray-fuzz/level.lvl";
	struct editor *ed = editor_create(lv, b, path);
	if (!ed)
		return;
	struct ui_editor_options opt = { .mouse = true, .path = path, .b = b, .seed = 1, .step_delay_ms = 0 };
	int signo = 0;
	char err[256];
	enum ui_outcome o = ui_editor_run(ed, &opt, &signo, err, sizeof err);
	editor_destroy(ed);
	if (fuzz_alarm(o == UI_SIGNAL, signo))
		return;
	if (o == UI_ERROR || o == UI_SIGNAL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_INPUT_MAX)
		return 0;
	unsigned how = data[0];
	data++;
	size--;
	/* xterm: ncurses asks for SGR reports and decodes only those;
	 * screen: X10 reports (DESIGN and TESTING.md) */
	setenv("TERM", how & 0x40 ? "screen" : "xterm", 1);
	setenv("ESCDELAY", "0", 1);
	unsetenv("LINES");
	unsetenv("COLUMNS");
	struct bestiary b;
	struct diag_list d = { 0 };
	bool ok = bestiary_parse("fuzz-bestiary", fuzz_bestiary, sizeof fuzz_bestiary - 1, &b, &d);
	diag_list_fini(&d);
	if (!ok)
		abort();
	const char *text = fuzz_levels[(how >> 2) % FUZZ_LEVELS];
	struct level *lv = level_parse("fuzz.lvl", text, strlen(text), &b, &d);
	bool bad = !lv || d.errors;
	diag_list_fini(&d);
	if (bad)
		abort();
	struct fuzz_fds saved;
	if (!fuzz_redirect(&saved, data, size))
		abort();
	switch (how & 3) {
	case 0:
	case 1: {
		const struct level *levels[1] = { lv };
		struct game *g = game_create(levels, 1, &b, 1 + (how >> 4));
		if (g)
			fuzz_play(g);
		game_destroy(g);
		break;
	}
	case 2:
		fuzz_title();
		break;
	default:
		fuzz_edit(lv, &b);
		break;
	}
	fuzz_restore(&saved);
	level_destroy(lv);
	return 0;
}
