/*
 * ui_replay.c - the replay viewer: a recorded game (its actions, read by
 * the caller from a journal) played again in the terminal, one action per
 * tick, drawn with play's own frame (ui_draw_game).  It changes the game
 * only through game_act, exactly as journal_replay does, so what is shown
 * is what --verify checks.  It owns only the pace and the keys; the
 * terminal (start, stop, signals, reading keys, a closed terminal) is
 * ui_screen.c's, as for the game and the editor, so a hangup or SIGTERM
 * during a replay gives the terminal back before the program ends.
 *
 * Reveal (v, --reveal) draws the frame as if the player saw every cell:
 * the true map, every monster, and every monster's route and target (the
 * routes view of play, for all of them).  It does so by marking every cell
 * seen for the one draw and putting the player's view back at once, so
 * the game the next action meets is the recorded one, bit for bit.
 */
#include "ui.h"

#include <curses.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "ui_screen.h"

#define REPLAY_DEFAULT_MS 200 /* between two actions */
#define REPLAY_MIN_MS 10
#define REPLAY_MAX_MS 3000
#define REPLAY_IDLE_MS 200    /* how often a paused viewer wakes */

struct replay_view {
	struct game *g;
	const struct action *actions;
	long n, next;             /* actions in all, the next to apply */
	int delay_ms;
	bool paused, routes;
	bool reveal;              /* draw the whole level and every monster's route */
	uint8_t *seen;            /* reveal: the player's own view, kept during a draw */
	unsigned msg_mark;        /* message_stamp before the last action: newer ones are its messages */
};

static void replay_step(struct replay_view *v)
{
	if (v->next >= v->n || v->g->over)
		return;
	v->msg_mark = v->g->message_stamp;
	game_act(v->g, &v->actions[v->next++]);
}

static void replay_draw(const struct replay_view *v)
{
	char notice[160];
	const char *state = v->next >= v->n || v->g->over ? "END" : v->paused ? "PAUSED" : "PLAYING";
	bool reveal = v->reveal && v->seen;
	snprintf(notice, sizeof notice, "REPLAY %s %ld/%ld %dms%s  Space pause . step +/- speed r routes v all q",
		 state, v->next, v->n, v->delay_ms, reveal ? " ALL" : "");
	struct game *g = v->g;
	size_t cells = (size_t)g->grid->w * (size_t)g->grid->h;
	if (reveal) {
		memcpy(v->seen, g->visible, cells);
		memset(g->visible, 1, cells);
	}
	ui_draw_game(g, v->routes || reveal, v->msg_mark, notice);
	if (reveal)
		memcpy(g->visible, v->seen, cells);
}

/* The room reveal keeps the player's view in, for the current level's
 * size (a new level may be larger); false on no memory (reveal is off). */
static bool replay_seen_room(struct replay_view *v, size_t *have)
{
	size_t cells = (size_t)v->g->grid->w * (size_t)v->g->grid->h;
	if (cells <= *have)
		return true;
	uint8_t *p = realloc(v->seen, cells);
	if (!p)
		return false;
	v->seen = p;
	*have = cells;
	return true;
}

enum ui_outcome ui_replay_run(struct game *g, const struct action *actions, long n, bool reveal,
			      int *signal_number, char *err, size_t errlen)
{
	struct ui_signals sigs;
	ui_screen_signals_install(&sigs);
	*signal_number = 0;
	struct ui_tty tty;
	memset(&tty, 0, sizeof tty);
	if (!ui_screen_start(&tty, false, 0, false, err, errlen)) {
		ui_screen_signals_restore(&sigs);
		return UI_ERROR;
	}
	struct replay_view v = { .g = g, .actions = actions, .n = n, .delay_ms = REPLAY_DEFAULT_MS, .reveal = reveal };
	enum ui_outcome outcome = UI_QUIT;
	int stale_reads = 0;
	size_t seen_cells = 0;
	for (;;) {
		if (v.reveal && !replay_seen_room(&v, &seen_cells))
			v.reveal = false;
		replay_draw(&v);
		bool running = !v.paused && v.next < v.n && !g->over && !ui_screen_too_small();
		int ch = ui_screen_read(running ? v.delay_ms : REPLAY_IDLE_MS, &stale_reads);
		if (ch == UI_READ_SIGNAL || ch == UI_READ_GONE) {
			outcome = ch == UI_READ_SIGNAL ? UI_SIGNAL : UI_HANGUP;
			break;
		}
		if (ch == ERR) {
			if (running)
				replay_step(&v);
			continue;
		}
		if (ch == KEY_RESIZE)
			continue; /* the next draw fits the new size */
		if (ch == 'q' || ch == 'Q' || ch == 27)
			break;
		switch (ch) {
		case ' ':
		case 'p':
			v.paused = !v.paused;
			break;
		case '.':
		case 's':
			v.paused = true;
			replay_step(&v);
			break;
		case '+':
		case '=':
			v.delay_ms = v.delay_ms / 2 < REPLAY_MIN_MS ? REPLAY_MIN_MS : v.delay_ms / 2;
			break;
		case '-':
			v.delay_ms = v.delay_ms * 2 > REPLAY_MAX_MS ? REPLAY_MAX_MS : v.delay_ms * 2;
			break;
		case 'r':
			v.routes = !v.routes;
			break;
		case 'v':
			v.reveal = !v.reveal;
			break;
		default:
			break;
		}
	}
	free(v.seen);
	ui_screen_stop(&tty);
	ui_screen_signals_restore(&sigs);
	*signal_number = ui_screen_signal();
	if (outcome == UI_SIGNAL && *signal_number == SIGHUP)
		outcome = UI_HANGUP;
	return outcome;
}
