/*
 * ui_replay.c - the replay viewer: a recorded game (its actions, read by
 * the caller from a journal) played again in the terminal, one action per
 * tick, drawn with play's own frame (ui_draw_game).  It changes the game
 * only through game_act, exactly as journal_replay does, so what is shown
 * is what --verify checks.  It owns only the pace and the keys.
 */
#include "ui.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

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
	snprintf(notice, sizeof notice, "REPLAY %s %ld/%ld %dms  Space pause . step +/- speed r routes q quit",
		 state, v->next, v->n, v->delay_ms);
	ui_draw_game(v->g, v->routes, v->msg_mark, notice);
}

enum ui_outcome ui_replay_run(struct game *g, const struct action *actions, long n, char *err, size_t errlen)
{
	setlocale(LC_CTYPE, "");
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		snprintf(err, errlen, "cannot use the terminal (TERM=%s)", term ? term : "unset");
		return UI_ERROR;
	}
	set_term(scr);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	struct replay_view v = { .g = g, .actions = actions, .n = n, .delay_ms = REPLAY_DEFAULT_MS };
	for (;;) {
		replay_draw(&v);
		bool running = !v.paused && v.next < v.n && !g->over;
		timeout(running ? v.delay_ms : REPLAY_IDLE_MS);
		int ch = getch();
		if (ch == ERR) {
			if (running)
				replay_step(&v);
			continue;
		}
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
		default:
			break;
		}
	}
	curs_set(1);
	endwin();
	delscreen(scr);
	return UI_QUIT;
}
