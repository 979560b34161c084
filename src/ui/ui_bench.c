/*
 * ui_bench.c - the key-press benchmark (`astray play --bench-keys N`): an
 * 80x24 curses screen written to /dev/null, and key presses resolved and
 * redrawn through the play screen's own ui_key and ui_draw, each timed in
 * CPU time of this process (clock_cpu_us: what a press costs the program,
 * game_act, drawing and curses' output, not what the shared machine gives
 * to others).  It is apart from ui_curses.c so the product's screen holds
 * no measuring harness; cmd_play.c prints the figures.
 */
#include "ui.h"
#include "ui_curses_internal.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ui_palette.h"
#include "ui_screen.h"

int ui_bench_keys(struct game *g, int n, const char *script, const struct ui_hooks *hooks, double *samples_us,
		  char *err, size_t errlen)
{
	static const char *const terms[] = { "xterm-256color", "xterm", "vt100" };
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in) {
		snprintf(err, errlen, "cannot open /dev/null");
		if (out)
			fclose(out);
		if (in)
			fclose(in);
		return -1;
	}
	SCREEN *scr = NULL;
	for (size_t i = 0; !scr && i < sizeof terms / sizeof terms[0]; i++)
		scr = newterm(terms[i], out, in);
	if (!scr) {
		snprintf(err, errlen, "no terminal description for xterm-256color, xterm or vt100");
		fclose(out);
		fclose(in);
		return -1;
	}
	set_term(scr);
	resize_term(24, 80);
	struct ui u;
	struct ui_options opt = { .mouse = false, .step_delay_ms = 0, .hooks = hooks };
	ui_init(&u, g, &opt);
	game_prefault(g); /* as the play screen does after its first frame: not in the samples */
	ui_screen_modes();
	u.colour = ui_palette_init();
	ui_draw(&u);
	/* to and fro, so the view, the field of view and every chaser change */
	static const int keys[] = { 'h', 'h', 'l', 'l', '.', 'k', 'j' };
	const size_t script_len = script ? strlen(script) : 0;
	int done = 0;
	for (int i = 0; i < n && !g->over; i++) {
		int key = script_len ? (unsigned char)script[(size_t)i % script_len]
				     : keys[i % (int)(sizeof keys / sizeof keys[0])];
		/* the key's thread: a snapshot's writer works beside it */
		double t0 = clock_thread_cpu_us();
		u.notice[0] = '\0';
		ui_key(&u, key);
		ui_draw(&u);
		samples_us[done++] = clock_thread_cpu_us() - t0;
	}
	free(u.preview);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return done;
}
