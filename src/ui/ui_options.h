/* ui_options.h - the options screen (O, from the game and the title): animation
 * speed, colours, the mouse and the route under the pointer. */
#ifndef ASTRAY_UI_OPTIONS_H
#define ASTRAY_UI_OPTIONS_H

#include <stdbool.h>

#include "settings.h"

#define UI_OPTIONS_ROWS 4

/* Draws the options screen over the whole terminal: s as it stands, row
 * sel chosen, note (why the colours cannot show, where the file is, or a
 * failure) under it. */
void ui_options_draw(const struct settings *s, int sel, const char *note);

/*
 * One key on the options screen: up/down (k j) choose a row, left/right
 * (h l), Enter or Space change it (the speed steps through instant, fast,
 * normal, slow and slower).  Returns true when the key closes the screen
 * (Esc, q, O, Q); *changed says whether s changed.
 */
bool ui_options_key(struct settings *s, int *sel, int key, bool *changed);

/* The row of the options screen drawn on screen row srow, -1 none: a
 * click there chooses it and changes it as Enter (the left button) or h
 * (the right) would; a click elsewhere closes the screen as Esc would. */
int ui_options_row_at(int srow);

/* The animation speed in words ("normal, 30 ms a step"). */
void ui_options_speed_words(int delay_ms, char *buf, int size);

#endif
