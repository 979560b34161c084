/*
 * ui_title.c - the title screen, in the manner of Brogue CE's: the name,
 * then a menu of what to play.  It owns its own curses screen for as long
 * as it is shown and gives the terminal back (endwin) before returning, so
 * the caller then starts the game's screen (ui_run) as from the shell.  It
 * decides nothing about games: it returns the player's choice (and a typed
 * seed), and shows only the entries the caller offers (a saved game, the
 * high scores).  Drawing happens in one place (title_draw) from the state;
 * a resize is just another key that leads to a redraw.
 */
#include "ui_title.h"

#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dungeon.h"
#include "ui_options.h"
#include "ui_palette.h"
#include "ui_screen.h"

#define TITLE_IDLE_MS 200
#define TITLE_SEED_DIGITS 20  /* 18446744073709551615, the largest seed, has 20 */
#define TITLE_MAX_ENTRIES 8

enum title_entry { E_CONTINUE, E_NEW, E_SEED, E_CAMPAIGN, E_SCORES, E_OPTIONS, E_QUIT, E_COUNT };

/* The menu, in screen order; `key` is the label's first letter, lower case. */
static const struct {
	const char *label;
	char key;
} title_menu[E_COUNT] = {
	[E_CONTINUE] = { "Continue saved game", 'c' },
	[E_NEW] = { "New dungeon", 'n' },
	[E_SEED] = { "Dungeon from a seed", 'd' },
	[E_CAMPAIGN] = { "The campaign", 't' },
	[E_SCORES] = { "High scores", 'h' },
	[E_OPTIONS] = { "Options", 'o' },
	[E_QUIT] = { "Quit", 'q' },
};

/* The name, drawn when the terminal has room for it. */
static const char *const title_banner[] = {
	" ###    ####  #####  ####     ###   #   #",
	"#   #  #        #    #   #   #   #   # # ",
	"#####   ###     #    ####    #####    #  ",
	"#   #      #    #    #  #    #   #    #  ",
	"#   #  ####     #    #   #   #   #    #  ",
};
#define BANNER_ROWS ((int)(sizeof title_banner / sizeof title_banner[0]))
#define BANNER_COLS 41

static const char title_tagline[] = "a turn-based roguelike on square, hex and diamond maps";
static const char title_hint[] = "arrows or j k to choose, Enter to start, a letter picks, q quits";

enum title_screen { TS_MENU, TS_SEED, TS_SCORES, TS_CONFIRM, TS_OPTIONS };

#define TITLE_TEXT 400      /* a notice or question, wrapped to the screen */
#define TITLE_WRAP_ROWS 12  /* rows one wrapped text may take */

struct title {
	const struct ui_title_entries *e;
	enum title_entry items[TITLE_MAX_ENTRIES]; /* the entries shown, top to bottom */
	int n, sel;
	int row[TITLE_MAX_ENTRIES];                /* screen row of each (set by title_draw) */
	int col0, col1;                            /* columns of the menu block [col0, col1) */
	enum title_screen screen;
	char digits[TITLE_SEED_DIGITS + 1];
	int n_digits;
	char seed_note[TITLE_TEXT];                /* TS_SEED: why the last key was not taken ("" none) */
	char notice[TITLE_TEXT];
	enum title_entry confirming;               /* TS_CONFIRM: the new game waiting for a yes */
	int opt_sel;                               /* TS_OPTIONS: the row chosen */
	bool opt_changed;
	char opt_note[300];
	bool colour_ok;                            /* the terminal shows colours */
	mmask_t mouse_mask;                        /* the clicks asked for (the pointer's motion apart) */
	struct ui_tty *tty;                        /* its mouse follows the options' mouse and pointer */
	bool colour;
	bool done;
	enum ui_title_choice choice;
	uint64_t seed;
	int stale_reads;
	int list;                                  /* TS_SCORES: which mode's list (index into title_modes) */
};

#define TITLE_MODES 16 /* score lists the title can page through */

/* The modes of the score lists, in scores_modes' order; returns how many. */
static int title_modes(const struct title *t, char (*modes)[SCORES_MODE_LEN])
{
	struct score_list l = { .v = (struct score_entry *)t->e->scores, .n = t->e->scores ? t->e->n_scores : 0 };
	return scores_modes(&l, modes, TITLE_MODES);
}

/* The list the title opens on: the one "New dungeon" plays into (a
 * dungeon of DUNGEON_DEFAULT_LEVELS levels) when it has entries, else the
 * first. */
static int title_default_list(const struct title *t)
{
	char modes[TITLE_MODES][SCORES_MODE_LEN], want[SCORES_MODE_LEN];
	scores_mode(true, DUNGEON_DEFAULT_LEVELS, want, sizeof want);
	int n = title_modes(t, modes);
	for (int i = 0; i < n; i++)
		if (strcmp(modes[i], want) == 0)
			return i;
	return 0;
}

static attr_t title_attr(const struct title *t, enum ui_colour c)
{
	return ui_palette_attr(t->colour, c);
}

/* The rows text takes, wrapped to the screen. */
static int title_rows(const char *text)
{
	int start[TITLE_WRAP_ROWS], len[TITLE_WRAP_ROWS];
	return ui_screen_wrap(text, COLS, start, len, TITLE_WRAP_ROWS);
}

/* text wrapped to the screen, each line centred, from row down (rows off
 * the screen are left out); returns the rows it takes */
static int title_centre(int row, const char *text, attr_t attr)
{
	int start[TITLE_WRAP_ROWS], len[TITLE_WRAP_ROWS];
	int n = ui_screen_wrap(text, COLS, start, len, TITLE_WRAP_ROWS);
	attron(attr);
	for (int i = 0; i < n; i++)
		if (row + i >= 0 && row + i < LINES)
			mvaddnstr(row + i, (COLS - len[i]) / 2, text + start[i], len[i]);
	attroff(attr);
	return n;
}

static int title_menu_width(const struct title *t)
{
	int w = 0;
	for (int i = 0; i < t->n; i++) {
		int l = (int)strlen(title_menu[t->items[i]].label);
		if (l > w)
			w = l;
	}
	return w + 4; /* "> " before, "  " after */
}

static void title_draw_menu(struct title *t, int top, int bottom)
{
	int w = title_menu_width(t);
	t->col0 = (COLS - w) / 2;
	if (t->col0 < 0)
		t->col0 = 0;
	t->col1 = t->col0 + w;
	for (int i = 0; i < t->n; i++) {
		int row = top + i;
		t->row[i] = row;
		if (row >= bottom)
			continue;
		const char *label = title_menu[t->items[i]].label;
		bool on = i == t->sel;
		attr_t base = on ? A_REVERSE | A_BOLD : A_NORMAL;
		move(row, t->col0);
		attron(base);
		addstr(on ? "> " : "  ");
		attroff(base);
		/* the first letter, the entry's key, stands out */
		attr_t key = base | A_UNDERLINE | (on ? 0 : title_attr(t, UI_COL_KEY) | A_BOLD);
		attron(key);
		addch((chtype)(unsigned char)label[0]);
		attroff(key);
		attron(base);
		addstr(label + 1);
		for (int c = 2 + (int)strlen(label); c < w; c++)
			addch(' ');
		attroff(base);
		if (t->items[i] == E_CONTINUE && t->e->continue_detail) {
			attron(title_attr(t, UI_COL_HINT));
			addnstr(t->e->continue_detail, COLS - t->col1 > 0 ? COLS - t->col1 : 0);
			attroff(title_attr(t, UI_COL_HINT));
		}
	}
}

static void title_draw_scores(const struct title *t, int top)
{
	char modes[TITLE_MODES][SCORES_MODE_LEN], title[128], head[200];
	int n_modes = title_modes(t, modes), list = t->list < n_modes ? t->list : 0;
	scores_mode_title(n_modes ? modes[list] : SCORES_UNKNOWN, title, sizeof title);
	snprintf(head, sizeof head, "High scores: %s", title);
	title_centre(top, head, A_BOLD);
	const struct score_entry *shown[UI_TITLE_SCORES];
	int n = 0;
	for (int i = 0; i < t->e->n_scores && n < UI_TITLE_SCORES && n_modes; i++)
		if (strcmp(t->e->scores[i].mode, modes[list]) == 0)
			shown[n++] = &t->e->scores[i];
	char line[200];
	int width = 0;
	for (int i = 0; i < n; i++) {
		const struct score_entry *s = shown[i];
		int l = snprintf(line, sizeof line, "%d. %7ld  depth %-2d  %-4s  %5d turns  %s  (seed %llu)", i + 1,
				 s->score, s->depth, s->outcome, s->turns, s->cause, (unsigned long long)s->seed);
		if (l > width)
			width = l;
	}
	int col = width < COLS ? (COLS - width) / 2 : 0;
	for (int i = 0; i < n && top + 2 + i < LINES - 1; i++) {
		const struct score_entry *s = shown[i];
		snprintf(line, sizeof line, "%d. %7ld  depth %-2d  %-4s  %5d turns  %s  (seed %llu)", i + 1, s->score,
			 s->depth, s->outcome, s->turns, s->cause, (unsigned long long)s->seed);
		mvaddnstr(top + 2 + i, col, line, COLS - col);
	}
	if (n_modes > 1) {
		snprintf(head, sizeof head, "list %d of %d: Tab or arrows for the next, any other key returns", list + 1,
			 n_modes);
		title_centre(top + 3 + n, head, title_attr(t, UI_COL_HINT));
	} else {
		title_centre(top + 3 + n, "any key or click returns", title_attr(t, UI_COL_HINT));
	}
}

/* The question of TS_CONFIRM: a new game would file the saved one away. */
static void title_confirm_text(const struct title *t, char *buf, size_t size)
{
	const char *what = t->confirming == E_CAMPAIGN ? "the campaign"
			   : t->confirming == E_SEED ? "a dungeon from a seed" : "a new dungeon";
	if (t->e->continue_rules > 0)
		snprintf(buf, size,
			 "A game of rules version %d is saved, which this astray cannot resume. Start %s? The "
			 "saved game is kept, unchanged, as save.jnl.rules%d-N. y starts, any other key goes back [y/N]",
			 t->e->continue_rules, what, t->e->continue_rules);
	else
		snprintf(buf, size,
			 "A game is saved. Start %s instead? The saved game is filed away to games/ (astray replay "
			 "shows it). y starts, any other key keeps it [y/N]",
			 what);
}

static void title_draw(struct title *t)
{
	erase();
	curs_set(0);
	if (t->screen == TS_OPTIONS && !ui_screen_too_small()) {
		ui_options_draw(t->e->settings, t->opt_sel, t->opt_note);
		refresh();
		return;
	}
	if (ui_screen_too_small()) {
		ui_screen_draw_too_small("q quits");
		refresh();
		return;
	}
	/* the name, the tagline, a gap, the menu, a gap, the seed line, the
	 * question or the notice; the hint at the bottom.  Every text wraps
	 * to the width, so a narrow terminal loses no word of it. */
	char question[TITLE_TEXT];
	title_confirm_text(t, question, sizeof question);
	/* the caller's notice (why an entry is missing) stays; a passing
	 * one of the title's own shows in its place until the next key */
	const char *notice = t->notice[0] ? t->notice : t->e->notice;
	const char *below_text = t->screen == TS_CONFIRM ? question : t->screen == TS_MENU ? notice : NULL;
	int hint_rows = title_rows(title_hint);
	int bottom = LINES - hint_rows; /* the first row of the hint */
	int tag_rows = title_rows(title_tagline);
	int below_rows = t->screen == TS_SEED ? 2 + (t->seed_note[0] ? title_rows(t->seed_note) : 0)
			 : below_text ? title_rows(below_text) : 0;
	int body = t->screen == TS_SCORES ? 4 + UI_TITLE_SCORES : t->n + 1 + below_rows;
	bool banner = bottom >= BANNER_ROWS + tag_rows + 1 + body && COLS >= BANNER_COLS + 2;
	int name_rows = banner ? BANNER_ROWS : 1;
	int height = name_rows + tag_rows + 1 + body;
	int top = (bottom - height) / 2;
	if (top < 0)
		top = 0;
	if (banner) {
		for (int i = 0; i < BANNER_ROWS; i++)
			title_centre(top + i, title_banner[i], title_attr(t, UI_COL_BANNER) | A_BOLD);
	} else {
		title_centre(top, "A S T R A Y", title_attr(t, UI_COL_BANNER) | A_BOLD);
	}
	title_centre(top + name_rows, title_tagline, title_attr(t, UI_COL_HINT));
	int menu_top = top + name_rows + tag_rows + 1;
	if (t->screen == TS_SCORES) {
		title_draw_scores(t, menu_top);
		for (int i = 0; i < t->n; i++)
			t->row[i] = -1; /* no entry to click */
	} else {
		title_draw_menu(t, menu_top, bottom);
	}
	int below = menu_top + t->n + 1;
	if (t->screen == TS_SEED) {
		char line[80];
		snprintf(line, sizeof line, "Seed: %s", t->digits);
		int col = t->col0 > 0 ? t->col0 : 0;
		if (below < bottom) {
			mvaddnstr(below, col, line, COLS - col);
			if (below + 1 < bottom)
				mvaddnstr(below + 1, col, "digits, then Enter; Esc goes back", COLS - col);
			/* a key not taken says why, never silently */
			if (t->seed_note[0] && below + 2 < bottom)
				title_centre(below + 2, t->seed_note, title_attr(t, UI_COL_WARN) | A_BOLD);
		}
	} else if (below_text && below < bottom) {
		title_centre(below, below_text, A_BOLD);
	}
	title_centre(bottom, title_hint, title_attr(t, UI_COL_HINT));
	if (t->screen == TS_SEED && below < bottom) {
		int col = t->col0 > 0 ? t->col0 : 0;
		move(below, col + 6 + t->n_digits);
		curs_set(1);
	}
	refresh();
}

static void title_choose(struct title *t, enum title_entry which)
{
	/* a new game beside a saved one asks first (one key, no by default):
	 * a slip of Enter must not put the saved game out of Continue's reach */
	bool fresh = which == E_NEW || which == E_SEED || which == E_CAMPAIGN;
	if (fresh && t->e->can_continue && t->screen != TS_CONFIRM) {
		t->screen = TS_CONFIRM;
		t->confirming = which;
		return;
	}
	t->screen = TS_MENU;
	switch (which) {
	case E_CONTINUE: t->choice = TITLE_CONTINUE; t->done = true; break;
	case E_NEW: t->choice = TITLE_NEW_DUNGEON; t->done = true; break;
	case E_CAMPAIGN: t->choice = TITLE_CAMPAIGN; t->done = true; break;
	case E_QUIT: t->choice = TITLE_QUIT; t->done = true; break;
	case E_SEED:
		t->screen = TS_SEED;
		t->n_digits = 0;
		t->digits[0] = '\0';
		t->seed_note[0] = '\0';
		break;
	case E_SCORES:
		t->screen = TS_SCORES;
		t->list = title_default_list(t);
		break;
	case E_OPTIONS:
		t->screen = TS_OPTIONS;
		t->opt_changed = false;
		if (t->e->settings_dir)
			snprintf(t->opt_note, sizeof t->opt_note, "Kept in %s/%s.", t->e->settings_dir, SETTINGS_FILE);
		else
			snprintf(t->opt_note, sizeof t->opt_note, "Not kept: astray runs with --no-save.");
		break;
	case E_COUNT: break;
	}
}

static void title_select(struct title *t, enum title_entry which)
{
	for (int i = 0; i < t->n; i++)
		if (t->items[i] == which)
			t->sel = i;
}

/* Whether the typed digits followed by digit d still make a 64-bit seed. */
static bool title_seed_fits(const struct title *t, int d)
{
	uint64_t v = 0;
	for (int i = 0; i < t->n_digits; i++)
		v = v * 10 + (uint64_t)(t->digits[i] - '0');
	return v <= (UINT64_MAX - (uint64_t)d) / 10;
}

/*
 * A key in the seed entry.  A key that is not taken (a digit past the
 * largest seed, a letter, a pasted "seed=") says why on the line under
 * the entry until the next key, so no digit is lost unseen: a seed
 * copied from the end of a game must be the seed played.
 */
static void title_key_seed(struct title *t, int ch)
{
	t->seed_note[0] = '\0';
	if (ch >= '0' && ch <= '9') {
		if (t->n_digits == 1 && t->digits[0] == '0') {
			t->digits[0] = (char)ch; /* no leading zeros: 07 is 7 */
		} else if (t->n_digits < TITLE_SEED_DIGITS && title_seed_fits(t, ch - '0')) {
			t->digits[t->n_digits++] = (char)ch;
			t->digits[t->n_digits] = '\0';
		} else {
			snprintf(t->seed_note, sizeof t->seed_note, "Not taken: the largest seed is %llu.",
				 (unsigned long long)UINT64_MAX);
		}
		return;
	}
	switch (ch) {
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (t->n_digits > 0)
			t->digits[--t->n_digits] = '\0';
		return;
	case 27: /* Esc */
		t->screen = TS_MENU;
		return;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (t->n_digits == 0) {
			snprintf(t->notice, sizeof t->notice, "A seed is a number, such as 42.");
			t->screen = TS_MENU;
			return;
		}
		t->seed = strtoull(t->digits, NULL, 10);
		t->choice = TITLE_SEEDED_DUNGEON;
		t->done = true;
		return;
	default:
		/* anything else is not part of a number: said, and left out */
		if (ch > ' ' && ch < 127)
			snprintf(t->seed_note, sizeof t->seed_note, "Not taken: '%c' is not a digit; a seed is digits only.",
				 ch);
		else
			snprintf(t->seed_note, sizeof t->seed_note,
				 "Not taken: that key is not a digit; a seed is digits only.");
		return;
	}
}

/* A key on the options screen: a change shows at once (colours, the
 * mouse); closing keeps the options in their file. */
static void title_key_options(struct title *t, int ch)
{
	struct settings *s = t->e->settings;
	bool changed;
	bool done = ui_options_key(s, &t->opt_sel, ui_screen_key(ch), &changed);
	if (changed) {
		t->opt_changed = true;
		t->colour = t->colour_ok && s->colour;
		if (t->opt_sel >= 2) /* the mouse's rows (--no-mouse holds until one is changed) */
			ui_screen_mouse_set(t->tty, s->mouse, t->mouse_mask, s->pointer);
		if (s->colour && !t->colour_ok)
			snprintf(t->opt_note, sizeof t->opt_note,
				 "This terminal shows no colours (or NO_COLOR is set): kept for one that does.");
	}
	if (!done)
		return;
	t->screen = TS_MENU;
	char err[300];
	if (!t->opt_changed)
		return;
	if (!t->e->settings_dir)
		snprintf(t->notice, sizeof t->notice, "Options changed for this run (not kept: --no-save).");
	else if (settings_save(t->e->settings_dir, s, err, sizeof err))
		snprintf(t->notice, sizeof t->notice, "Options kept in %s.", SETTINGS_FILE);
	else
		snprintf(t->notice, sizeof t->notice, "The options could not be kept: %s", err);
}

static void title_key(struct title *t, int ch)
{
	if (t->screen == TS_OPTIONS) {
		title_key_options(t, ch);
		return;
	}
	if (t->screen == TS_CONFIRM) {
		if (ch == 'y' || ch == 'Y') {
			title_choose(t, t->confirming);
		} else if (ch != KEY_RESIZE) {
			t->screen = TS_MENU;
			title_select(t, E_CONTINUE); /* Enter now plays the game kept */
			snprintf(t->notice, sizeof t->notice, "%s",
				 t->e->continue_rules > 0 ? "The saved game stays as it is."
							  : "The saved game is kept: Continue plays it.");
		}
		return;
	}
	if (t->screen == TS_SEED) {
		title_key_seed(t, ch);
		return;
	}
	if (t->screen == TS_SCORES) {
		char modes[TITLE_MODES][SCORES_MODE_LEN];
		int n_modes = title_modes(t, modes);
		if (n_modes > 1 && (ch == '\t' || ch == KEY_RIGHT || ch == KEY_DOWN))
			t->list = (t->list + 1) % n_modes;
		else if (n_modes > 1 && (ch == KEY_BTAB || ch == KEY_LEFT || ch == KEY_UP))
			t->list = (t->list + n_modes - 1) % n_modes;
		else
			t->screen = TS_MENU;
		return;
	}
	t->notice[0] = '\0';
	switch (ch) {
	case KEY_UP:
	case 'k':
		t->sel = (t->sel + t->n - 1) % t->n;
		return;
	case KEY_DOWN:
	case 'j':
		t->sel = (t->sel + 1) % t->n;
		return;
	case KEY_HOME:
		t->sel = 0;
		return;
	case KEY_END:
		t->sel = t->n - 1;
		return;
	case '\n':
	case '\r':
	case ' ':
	case KEY_ENTER:
		title_choose(t, t->items[t->sel]);
		return;
	case 27: /* Esc */
		t->choice = TITLE_QUIT;
		t->done = true;
		return;
	default:
		break;
	}
	int lower = ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
	for (int i = 0; i < t->n; i++)
		if (title_menu[t->items[i]].key == lower) {
			t->sel = i;
			title_choose(t, t->items[i]);
			return;
		}
	/* a letter not taken says why, never silently: an entry not shown
	 * now (no saved game, no scores yet), or no entry's */
	if (lower == title_menu[E_CONTINUE].key)
		snprintf(t->notice, sizeof t->notice, "There is no saved game to continue.");
	else if (lower == title_menu[E_SCORES].key)
		snprintf(t->notice, sizeof t->notice, "There are no high scores yet: they come when a game ends.");
	else if (lower >= 'a' && lower <= 'z')
		snprintf(t->notice, sizeof t->notice, "'%c' picks nothing: an entry's underlined first letter picks it.",
			 ch);
}

static void title_mouse_event(struct title *t, MEVENT ev)
{
	bool press = ev.bstate & BUTTON1_PRESSED;
	bool act = ev.bstate & (BUTTON1_CLICKED | BUTTON1_RELEASED);
	if ((ev.bstate & REPORT_MOUSE_POSITION) && !press && !act) {
		/* the pointer resting on an entry chooses it, as the arrows do */
		if (t->screen == TS_MENU)
			for (int i = 0; i < t->n; i++)
				if (t->row[i] == ev.y && ev.x >= t->col0 && ev.x < t->col1 && t->sel != i) {
					t->sel = i;
					t->notice[0] = '\0';
				}
		return;
	}
	if (!press && !act)
		return;
	if (t->screen == TS_OPTIONS) {
		/* a row chosen and changed, as Enter would; elsewhere closes */
		if (act) {
			const int r = ui_options_row_at(ev.y);
			if (r >= 0)
				t->opt_sel = r;
			title_key_options(t, r < 0 ? 27 : '\n');
		}
		return;
	}
	if (t->screen == TS_SCORES || t->screen == TS_CONFIRM) {
		if (act && t->screen == TS_CONFIRM)
			snprintf(t->notice, sizeof t->notice, "The saved game is kept: Continue plays it.");
		if (act)
			t->screen = TS_MENU;
		return;
	}
	for (int i = 0; i < t->n; i++) {
		if (t->row[i] != ev.y || ev.x < t->col0 || ev.x >= t->col1)
			continue;
		t->sel = i;
		t->notice[0] = '\0';
		if (act) {
			if (t->screen == TS_SEED && t->items[i] == E_SEED)
				return; /* already asking */
			t->screen = TS_MENU;
			title_choose(t, t->items[i]);
		}
		return;
	}
}

/* A KEY_MOUSE: ncurses keeps the reports read at once in its queue and
 * gives the newest first (a click's release, then the pointer's motion):
 * the whole run, oldest first, so the click is not lost. */
static void title_mouse(struct title *t)
{
	MEVENT run[UI_MOUSE_RUN];
	const int n = ui_screen_mouse_run(run, UI_MOUSE_RUN);
	for (int k = n - 1; k >= 0; k--)
		title_mouse_event(t, run[k]);
}

static void title_redraw(void *t)
{
	title_draw(t);
}

static void title_loop(struct title *t)
{
	while (!t->done) {
		int ch = ui_screen_wait(title_redraw, t, TITLE_IDLE_MS, &t->stale_reads);
		if (ch == KEY_MOUSE) {
			title_mouse(t);
		} else if (ch == UI_READ_SIGNAL || ch == UI_READ_GONE) {
			t->choice = ch == UI_READ_SIGNAL ? TITLE_SIGNAL : TITLE_HANGUP;
			return;
		} else if (!ui_screen_too_small()) {
			title_key(t, ch);
		} else if (ch == 'q' || ch == 27) {
			t->choice = TITLE_QUIT;
			t->done = true;
		}
	}
}

enum ui_title_choice ui_title_run(const struct ui_title_entries *e, uint64_t *seed, int *signal_number,
				  char *err, size_t errlen)
{
	*signal_number = 0;

	struct title t;
	memset(&t, 0, sizeof t);
	t.e = e;
	t.choice = TITLE_QUIT;
	if (e->can_continue)
		t.items[t.n++] = E_CONTINUE;
	if (!e->no_dungeon) {
		t.items[t.n++] = E_NEW;
		t.items[t.n++] = E_SEED;
	}
	if (!e->no_campaign)
		t.items[t.n++] = E_CAMPAIGN;
	if (e->n_scores > 0 && e->scores)
		t.items[t.n++] = E_SCORES;
	if (e->settings)
		t.items[t.n++] = E_OPTIONS;
	t.items[t.n++] = E_QUIT;
	title_select(&t, e->can_continue ? E_CONTINUE : E_NEW);

	struct ui_signals sigs;
	ui_screen_signals_install(&sigs);
	struct ui_tty tty;
	t.mouse_mask = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED;
	const bool pointer = !e->settings || e->settings->pointer;
	if (!ui_screen_start(&tty, e->mouse, t.mouse_mask | (pointer ? REPORT_MOUSE_POSITION : 0), false, err,
			     errlen)) {
		ui_screen_signals_restore(&sigs);
		return TITLE_ERROR;
	}
	t.tty = &tty;
	t.colour_ok = tty.colour;
	t.colour = tty.colour && (!e->settings || e->settings->colour);
	title_loop(&t);
	ui_screen_stop(&tty);
	ui_screen_signals_restore(&sigs);
	*signal_number = ui_screen_signal();
	if (t.choice == TITLE_SIGNAL && *signal_number == SIGHUP)
		t.choice = TITLE_HANGUP;
	if (t.choice == TITLE_SEEDED_DUNGEON)
		*seed = t.seed;
	return t.choice;
}
