/*
 * ui_options.c - the options screen, one for the game and the title (O):
 * how fast travel, explore, rest and runs animate (with "instant"),
 * colours on or off, the mouse on or off, the route under the pointer on or off.  It draws the settings and
 * turns keys into changes of them; the screens that open it apply the
 * changes at once (the pause between steps, the palette, the mouse mask)
 * and keep them in DATA/options.txt (settings.c) when it closes.  The
 * command line still wins for its run: --delay and --no-mouse.
 */
#include "ui_options.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "input.h"
#include "ui_screen.h"

/* The speeds the screen steps through, fastest first. */
static const struct {
	int ms;
	const char *name;
} speeds[] = {
	{ 0, "instant" }, { 10, "fast" }, { SETTINGS_DELAY_DEFAULT, "normal" }, { 80, "slow" }, { 200, "slower" },
};
#define N_SPEEDS ((int)(sizeof speeds / sizeof speeds[0]))

void ui_options_speed_words(int delay_ms, char *buf, int size)
{
	const char *name = "your own";
	for (int i = 0; i < N_SPEEDS; i++)
		if (speeds[i].ms == delay_ms)
			name = speeds[i].name;
	if (delay_ms == 0)
		snprintf(buf, (size_t)size, "instant: no pause, travel and rest end at once");
	else
		snprintf(buf, (size_t)size, "%s, %d ms a step", name, delay_ms);
}

/* The next speed in direction dir (+1 slower, -1 faster) from ms. */
static int speed_step(int ms, int dir)
{
	if (dir > 0) {
		for (int i = 0; i < N_SPEEDS; i++)
			if (speeds[i].ms > ms)
				return speeds[i].ms;
		return speeds[0].ms; /* round to instant */
	}
	for (int i = N_SPEEDS - 1; i >= 0; i--)
		if (speeds[i].ms < ms)
			return speeds[i].ms;
	return speeds[N_SPEEDS - 1].ms;
}

/* The screen row of the title "Options" (the rows follow it after a blank). */
static int options_top(void)
{
	return LINES > 14 ? 2 : 0;
}

int ui_options_row_at(int srow)
{
	const int r = srow - options_top() - 2;
	return r >= 0 && r < UI_OPTIONS_ROWS ? r : -1;
}

void ui_options_draw(const struct settings *s, int sel, const char *note)
{
	erase();
	char speed[80], line[200];
	ui_options_speed_words(s->delay_ms, speed, sizeof speed);
	const char *labels[UI_OPTIONS_ROWS] = { "Animation", "Colours", "Mouse", "Pointer" };
	const char *values[UI_OPTIONS_ROWS] = { speed, s->colour ? "on" : "off (the monochrome look)",
						s->mouse ? "on: clicks travel and describe" : "off: the terminal selects text",
						!s->pointer ? "off: no route under the pointer"
						: s->mouse ? "on: the route a click would walk, under the pointer"
							   : "on, with the mouse" };
	const int top = options_top();
	attron(A_BOLD);
	mvaddnstr(top, 2, "Options", COLS - 2);
	attroff(A_BOLD);
	for (int i = 0; i < UI_OPTIONS_ROWS; i++) {
		snprintf(line, sizeof line, "%s %-10s %s", i == sel ? ">" : " ", labels[i], values[i]);
		attr_t a = i == sel ? A_REVERSE : A_NORMAL;
		attron(a);
		mvaddnstr(top + 2 + i, 2, line, COLS - 3);
		attroff(a);
	}
	int row = top + 3 + UI_OPTIONS_ROWS;
	const char *help = "j k (arrows) choose, h l, Enter or Space change (or a click on a row: the right "
			   "button goes back); Esc, q, O or a click elsewhere closes and keeps them. "
			   "Animation is the pause between the steps of travel, explore, rest and runs.";
	/* wrapped at spaces to the screen */
	const char *texts[2] = { help, note };
	for (int k = 0; k < 2; k++) {
		const char *t = texts[k];
		if (!t || !t[0])
			continue;
		int len = (int)strlen(t), at = 0, width = COLS - 4 > 10 ? COLS - 4 : 10;
		while (at < len && row < LINES) {
			int take = len - at;
			if (take > width) {
				take = width;
				while (take > 0 && t[at + take] != ' ')
					take--;
				if (take == 0)
					take = width;
			}
			mvaddnstr(row++, 2, t + at, take);
			at += take;
			while (at < len && t[at] == ' ')
				at++;
		}
		row++;
	}
}

bool ui_options_key(struct settings *s, int *sel, int key, bool *changed)
{
	*changed = false;
	int dir = 0;
	switch (key) {
	case INPUT_UP:
	case 'k':
		*sel = (*sel + UI_OPTIONS_ROWS - 1) % UI_OPTIONS_ROWS;
		return false;
	case INPUT_DOWN:
	case 'j':
	case '\t':
		*sel = (*sel + 1) % UI_OPTIONS_ROWS;
		return false;
	case INPUT_LEFT:
	case 'h':
		dir = -1;
		break;
	case INPUT_RIGHT:
	case 'l':
	case '\n':
	case '\r':
	case INPUT_ENTER:
	case ' ':
		dir = 1;
		break;
	case INPUT_ESC:
	case 'q':
	case 'Q':
	case 'O':
		return true;
	default:
		return false;
	}
	if (*sel == 0)
		s->delay_ms = speed_step(s->delay_ms, dir);
	else if (*sel == 1)
		s->colour = !s->colour;
	else if (*sel == 2)
		s->mouse = !s->mouse;
	else
		s->pointer = !s->pointer;
	*changed = true;
	return false;
}
