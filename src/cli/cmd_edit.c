/*
 * cmd_edit.c - `astray edit LEVEL`: opens a level (or makes a new one with
 * --new, or a generated one with --from-gen) in the editor model, checks
 * everything that can be wrong before the screen changes (a level with
 * errors opens with them listed and the file untouched; a binary file or
 * one with no map is refused), hands it to the editor's screen, and after
 * the terminal is restored says what happened: a signal or a closed
 * terminal with unsaved changes leaves them in LEVEL.recover, and a signal
 * is then raised again so the parent sees it.  The next start finds
 * LEVEL.recover (tidying what a rescue cut short left) and offers it, as
 * play offers a saved game: a question before the screen, or --recover
 * and --discard-recover; restored, it opens as unsaved changes of LEVEL,
 * and saving writes LEVEL and removes LEVEL.recover.  The hidden
 * work of --bench is the 16 ms target: strokes on the level, each followed
 * by the diagnostics and routes the screen would redraw, timed in CPU.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bestiary.h"
#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "diag.h"
#include "editor.h"
#include "gen.h"
#include "help.h"
#include "level.h"
#include "opt.h"
#include "play_save.h"
#include "stats.h"
#include "textfile.h"
#include "ui_editor.h"

#define EDIT_DEFAULT_W 40
#define EDIT_DEFAULT_H 20
#define EDIT_DEFAULT_DELAY_MS 30
#define EDIT_DEFAULT_UNDO_MB 256 /* EDITOR_UNDO_CAP, in MiB */

struct edit_size {
	int w, h;
};

struct edit_args {
	bool create;             /* --new */
	uint64_t gen_seed;       /* --from-gen SEED */
	int depth;               /* --depth, with --from-gen */
	enum gen_style style;    /* --style, with --from-gen */
	int topo;                /* --topology: index of topo_words = enum grid_topology */
	struct edit_size size;   /* --size */
	const char *name;        /* --name */
	const char *bestiary;
	uint64_t seed;
	bool no_mouse;
	int delay_ms;
	int bench;               /* > 0: time N strokes instead of editing */
	int undo_mb;             /* the undo history's cap in MiB; 0: as editor.h says */
	bool recover;            /* --recover: restore LEVEL.recover without asking */
	bool discard_recover;    /* --discard-recover: remove it without asking */
};

static const char *const topo_words[] = { "square4", "square8", "hex", "diamond4", "diamond8", NULL };

static bool parse_size(const char *text, void *field)
{
	struct edit_size *s = field;
	const char *x = strchr(text, 'x');
	if (!x)
		return false;
	char w[16];
	size_t n = (size_t)(x - text);
	if (n == 0 || n >= sizeof w)
		return false;
	memcpy(w, text, n);
	w[n] = '\0';
	long lw, lh;
	if (!cli_parse_long(w, 3, LEVEL_MAX_SIDE, &lw) || !cli_parse_long(x + 1, 3, LEVEL_MAX_SIDE, &lh))
		return false;
	s->w = (int)lw;
	s->h = (int)lh;
	return true;
}

#define STR(x) STR_(x)
#define STR_(x) #x
#define ARG(field) offsetof(struct edit_args, field)
static bool parse_style(const char *text, void *field)
{
	return gen_style_parse(text, field);
}

enum { ROW_NEW, ROW_FROM_GEN, ROW_TOPOLOGY, ROW_SIZE, ROW_NAME, ROW_DEPTH, ROW_STYLE, ROW_SEED, ROW_RECOVER,
       ROW_DISCARD };
static const struct opt edit_opts[] = {
	[ROW_NEW] = { .name = "new", .kind = OPT_FLAG, .offset = ARG(create),
		      .help = "make LEVEL as a new level (it must not exist yet)" },
	[ROW_FROM_GEN] = { .name = "from-gen", .kind = OPT_SEED, .offset = ARG(gen_seed), .metavar = "SEED",
			   .help = "start from the level `astray gen --seed SEED` makes with --topology, "
				   "--size, --depth and --style, unsaved until s; LEVEL must not exist yet" },
	[ROW_TOPOLOGY] = { .name = "topology", .kind = OPT_CHOICE, .offset = ARG(topo), .metavar = "T",
			   .choices = topo_words,
			   .help = "with --new or --from-gen: square4, square8 (default), hex, diamond4 or "
				   "diamond8" },
	[ROW_SIZE] = { .name = "size", .kind = OPT_CUSTOM, .offset = ARG(size), .metavar = "WxH",
		       .parse = parse_size, .want = "WxH, each from 3 to 4096",
		       .help = "with --new: cells across and down (default " STR(EDIT_DEFAULT_W) "x" STR(
			       EDIT_DEFAULT_H) "); with --from-gen: from 12x8 (default one screen, as "
				"astray gen)" },
	[ROW_NAME] = { .name = "name", .kind = OPT_STRING, .offset = ARG(name), .metavar = "NAME",
		       .help = "with --new or --from-gen: the level's name; by default the file's, or the "
			       "generator's" },
	[ROW_DEPTH] = { .name = "depth", .kind = OPT_INT, .offset = ARG(depth), .metavar = "D", .lo = 1,
			.hi = GEN_MAX_DEPTH, .help = "with --from-gen: 1 to 99 (default 1), as astray gen" },
	[ROW_STYLE] = { .name = "style", .kind = OPT_CUSTOM, .offset = ARG(style), .metavar = "S",
			.parse = parse_style, .want = "rooms, caves or mixed",
			.help = "with --from-gen: rooms, caves or mixed (default), as astray gen" },
	[ROW_SEED] = { .name = "seed", .kind = OPT_SEED, .offset = ARG(seed), .metavar = "N",
		       .help = "the first play-test's seed (each next one adds 1)" },
	[ROW_RECOVER] = { .name = "recover", .kind = OPT_FLAG, .offset = ARG(recover),
			  .help = "open LEVEL.recover, the unsaved changes of a session that was stopped, as "
				  "unsaved changes of LEVEL, without asking; s then writes LEVEL and removes "
				  "LEVEL.recover" },
	[ROW_DISCARD] = { .name = "discard-recover", .kind = OPT_FLAG, .offset = ARG(discard_recover),
			  .help = "remove LEVEL.recover without asking, then open LEVEL" },
	{ .name = "bestiary", .kind = OPT_STRING, .offset = ARG(bestiary), .metavar = "FILE",
	  .help = "monster kinds; by default bestiary.txt beside the level, else levels/, the installed "
		  "one, or the one of the levels the program came with" },
	{ .name = "no-mouse", .kind = OPT_FLAG, .offset = ARG(no_mouse),
	  .help = "leave the mouse to the terminal (text selection)" },
	{ .name = "delay", .kind = OPT_INT, .offset = ARG(delay_ms), .metavar = "MS", .lo = 0, .hi = 1000,
	  .help = "play-test: pause between travel steps (default " STR(EDIT_DEFAULT_DELAY_MS) ")" },
	{ .name = "bench", .kind = OPT_INT, .offset = ARG(bench), .metavar = "N", .lo = 1, .hi = 100000,
	  .help = "no screen: time N paint strokes, each followed by the diagnostics and routes a redraw needs "
		  "(CPU microseconds)" },
	{ .name = "undo-mb", .kind = OPT_INT, .offset = ARG(undo_mb), .metavar = "MB", .lo = 1, .hi = 65536,
	  .help = "the undo history's memory cap: past it the oldest steps are dropped, and the editor says so "
		  "(default " STR(EDIT_DEFAULT_UNDO_MB) ")" },
};
#undef ARG
#define N_EDIT_OPTS ((int)(sizeof edit_opts / sizeof edit_opts[0]))

static void edit_usage(FILE *out);

static const struct opt_command edit_command = { "edit", edit_opts, N_EDIT_OPTS, edit_usage };

const struct opt_command *cmd_edit_opts(size_t *args_size)
{
	*args_size = sizeof(struct edit_args);
	return &edit_command;
}

static void edit_usage(FILE *out)
{
	help_usage(out, "edit",
		   (const char *const[]){ "LEVEL [options]", "--new LEVEL [--topology T] [--size WxH] [--name NAME]",
					  "--from-gen SEED LEVEL [--topology T] [--size WxH] [--depth D] [--style S] "
					  "[--name NAME]", NULL });
	help_text(out, 0,
		  "\nThe level editor: paint the map with the keys or the mouse, and see what `astray check` says "
		  "and the routes `astray path` finds while you draw; r shows each monster's plan by its own mind: "
		  "its walk in its letter, its post, the walls it digs and the turn it strikes, as the game's AI "
		  "plays the level's first turns; x what a monster sees, or who sees the start; S a quick sim of "
		  "the level in memory with its deaths and contacts drawn on the map.  v, P, | and - copy, stamp "
		  "and mirror a rectangle.  p plays the level as it is now, G from the cursor, V with the map "
		  "known; s saves: a "
		  "temporary file is renamed over LEVEL, the previous version kept as LEVEL~.  I edits every "
		  "header key, R resizes the map; ? in the editor lists the keys.");
	opt_print_help(out, &edit_command);
	help_text(out, 0,
		  "\nA level with errors opens with them listed first in the problems panel (file line:column, "
		  "the cell marked) and its map as far as it could be read; the file is left as it is until s "
		  "saves the map as shown.  A file with no map to show or a binary file is refused with its "
		  "errors.  Ctrl-C, SIGTERM or a closed terminal with unsaved changes writes them to "
		  "LEVEL.recover.  The next astray edit LEVEL asks whether to restore them: y opens them as "
		  "unsaved changes of LEVEL (s writes LEVEL and removes LEVEL.recover), n opens LEVEL and keeps "
		  "LEVEL.recover as it is.  A rescue or save cut short, LEVEL.recover.tmp-XXXXXX or "
		  "LEVEL.tmp-XXXXXX, becomes LEVEL.recover when it is whole, is removed when empty or a copy, "
		  "and is otherwise kept and named.  astray edit LEVEL.recover still edits that file itself.\n"
		  "\n"
		  "exit status: 0 after quitting, 1 when the level, the bestiary or the terminal is wrong (or the "
		  "restore question gets no answer), 2 bad usage; stopped by a signal it restores the terminal, "
		  "writes LEVEL.recover and then dies of that signal; 129 after a hangup");
}

static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec) % 1000000000u;
}

/* The name a new level gets from its file: "cellar.lvl" -> "cellar". */
static void name_from_path(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(buf, size, "%s", base);
	char *dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = '\0';
}

/*
 * The file `path` as the editor shows it, to be saved as `as` (LEVEL; the
 * same as path but for a restored LEVEL.recover).  A file with errors
 * opens with them (the map as far as it could be read, the errors first
 * in the panel, a word in *notice); NULL (said on stderr) when it cannot
 * be read, is binary or has no map to show.
 */
static struct editor *open_level(const char *path, const char *as, const struct bestiary *b, char *notice,
				 size_t size)
{
	size_t len;
	char *text;
	int err = textfile_read(path, &text, &len);
	if (err) {
		fprintf(stderr, "astray edit: %s: %s%s\n", path, strerror(err),
			err == ENOENT ? " (to make a new level: astray edit --new FILE)" : "");
		return NULL;
	}
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		fprintf(stderr, "astray edit: %s is not a level: it holds a NUL byte (byte %zu), so it is "
				"no text file; it is left as it is\n",
			path, (size_t)(nul - text) + 1);
		free(text);
		return NULL;
	}
	struct diag_list diags = { 0 };
	struct level *lv = level_parse(path, text, len, b, &diags);
	bool broken = lv == NULL;
	if (broken) {
		diag_list_fini(&diags);
		memset(&diags, 0, sizeof diags);
		lv = level_parse_partial(path, text, len, b, &diags);
	}
	if (!lv) {
		free(text);
		cli_print_diags(stderr, &diags, false, false);
		fprintf(stderr, "astray edit: %s has no map the editor can show: fix %s in a text editor "
				"first (the file is left as it is)\n",
			path, diags.errors == 1 ? "the error" : "the errors");
		diag_list_fini(&diags);
		return NULL;
	}
	struct editor *ed = editor_create(lv, b, as);
	if (ed && !editor_keep_comments(ed, text, len)) {
		editor_destroy(ed);
		ed = NULL;
	}
	free(text);
	if (ed && broken && !editor_set_file_diags(ed, &diags, lv->map_line)) {
		editor_destroy(ed);
		ed = NULL;
	}
	if (ed && broken)
		snprintf(notice, size,
			 "%s has %d error%s (listed first, e goes to each): what could not be read is left "
			 "out; the file is untouched until you save.",
			 path, diags.errors, diags.errors == 1 ? "" : "s");
	level_destroy(lv);
	diag_list_fini(&diags);
	if (!ed)
		fprintf(stderr, "astray edit: out of memory\n");
	return ed;
}

/* What the start does with LEVEL.recover. */
enum recover_choice {
	RECOVER_NONE,     /* there is none (any more) */
	RECOVER_RESTORE,  /* open it as unsaved changes of LEVEL */
	RECOVER_KEEP,     /* declined: open LEVEL, leave LEVEL.recover as it is */
	RECOVER_STOP,     /* no answer (end of input), or it cannot be removed */
};


/* Whether two files hold the same bytes (false when either cannot be read). */
static bool same_bytes(const char *p1, const char *p2)
{
	size_t n1, n2;
	char *t1, *t2;
	if (textfile_read(p1, &t1, &n1) != 0)
		return false;
	if (textfile_read(p2, &t2, &n2) != 0) {
		free(t1);
		return false;
	}
	bool same = n1 == n2 && memcmp(t1, t2, n1) == 0;
	free(t1);
	free(t2);
	return same;
}

/*
 * LEVEL.recover beside LEVEL, before the screen: what a rescue cut short
 * left is tidied first (editor_recover_tidy), then the recovery is offered
 * as play offers a saved game, with a question on stdin/stdout (Enter
 * restores), or taken (--recover) or removed (--discard-recover) without
 * one.  One with the same bytes as LEVEL holds no unsaved change and is
 * removed.  What happened goes to stdout (seen again after the editor
 * leaves its screen) and to *notice.
 */
static enum recover_choice recover_offer(const struct edit_args *a, const char *path, const char *recover,
					 char *notice, size_t size)
{
	char report[1400] = "";
	(void)editor_recover_tidy(path, report, sizeof report);
	if (report[0]) {
		printf("%s\n", report);
		editor_say(notice, size, "%s", report);
	}
	struct stat rs, ls;
	if (stat(recover, &rs) != 0)
		return RECOVER_NONE;
	if (a->discard_recover) {
		if (unlink(recover) != 0) {
			fprintf(stderr, "astray edit: cannot remove %s: %s\n", recover, strerror(errno));
			return RECOVER_STOP;
		}
		printf("Removed %s (--discard-recover): its unsaved changes are gone.\n", recover);
		editor_say(notice, size, "Removed %s (--discard-recover).", recover);
		return RECOVER_NONE;
	}
	if (same_bytes(path, recover) && unlink(recover) == 0) {
		printf("%s held the level exactly as %s holds it (no unsaved change): removed.\n", recover, path);
		editor_say(notice, size, "%s held no unsaved change (the same as %s): removed.", recover, path);
		return RECOVER_NONE;
	}
	if (a->recover)
		return RECOVER_RESTORE;
	char when[64] = "";
	struct tm tm;
	if (localtime_r(&rs.st_mtime, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
	printf("%s holds the unsaved changes of an editing session that was stopped (%s).\n", recover, when);
	if (stat(path, &ls) != 0)
		printf("%s does not exist: restored, the changes become it when you save.\n", path);
	else if (ls.st_mtime > rs.st_mtime)
		printf("%s was changed after that: saving the restored changes replaces that version "
		       "(kept as %s~).\n",
		       path, path);
	int yes = play_ask(stdin, stdout, "Restore them as unsaved changes of the level?", true);
	if (yes < 0) {
		fprintf(stderr, "\nastray edit: no answer: nothing opened, %s is kept as it is\n", recover);
		return RECOVER_STOP;
	}
	if (yes)
		return RECOVER_RESTORE;
	printf("Not restored: %s is kept as it is (astray edit %s --recover restores it, "
	       "--discard-recover removes it).\n",
	       recover, path);
	editor_say(notice, size, "%s is kept, not restored: --recover restores it, --discard-recover removes it.",
	       recover);
	return RECOVER_KEEP;
}

/* The file at path as level_parse reads it, or NULL when it cannot be
 * read or has errors (nothing is said: the caller falls back). */
static struct level *parse_quietly(const char *path, const struct bestiary *b)
{
	size_t len;
	char *text;
	if (textfile_read(path, &text, &len) != 0)
		return NULL;
	struct diag_list d = { 0 };
	struct level *lv = memchr(text, '\0', len) ? NULL : level_parse(path, text, len, b, &d);
	diag_list_fini(&d);
	free(text);
	return lv;
}

/*
 * LEVEL.recover opened as unsaved changes of LEVEL.  When both read
 * without errors (and share a topology) the editor opens LEVEL and the
 * recovered level replaces it as one undo step, so z shows LEVEL as saved
 * and Z the restored changes again; otherwise the recovery itself is the
 * starting state (one with errors opens with them listed), marked
 * unsaved.  Either way the editor's mark is set where the restore is in
 * effect.  NULL (said on stderr) when the recovery cannot be opened.
 */
static struct editor *restore_level(const char *path, const char *recover, const struct bestiary *b,
				    char *notice, size_t size)
{
	struct level *old = parse_quietly(path, b), *rec = old ? parse_quietly(recover, b) : NULL;
	struct editor *ed = NULL;
	char err[DIAG_ERR_LEN];
	if (old && rec && old->topo == rec->topo) {
		ed = editor_create(old, b, path);
		/* the comments are LEVEL's (no editing session changes them) */
		size_t len;
		char *text;
		if (ed && textfile_read(path, &text, &len) == 0) {
			bool kept = editor_keep_comments(ed, text, len);
			free(text);
			if (!kept) {
				editor_destroy(ed);
				ed = NULL;
			}
		}
		if (ed && editor_replace(ed, rec, err, sizeof err) == 1) {
			editor_set_mark(ed);
			snprintf(notice, size,
				 "Restored %s (z: the level as saved, Z: restored); s saves and removes it, q keeps it.",
				 recover);
		} else {
			editor_destroy(ed);
			ed = NULL;
		}
	}
	level_destroy(old);
	level_destroy(rec);
	if (ed)
		return ed;
	char broken[600] = "";
	ed = open_level(recover, path, b, broken, sizeof broken);
	if (!ed)
		return NULL;
	editor_mark_unsaved(ed);
	editor_set_mark(ed);
	snprintf(notice, size, "Restored %s: s saves it to %s and removes it, q keeps it.", recover, path);
	if (broken[0])
		editor_say(notice, size, "%s", broken);
	return ed;
}

/* --from-gen: the generated level, as a new level not saved yet. */
static struct editor *generated_level(const struct edit_args *a, const bool *given, const char *path,
				      const struct bestiary *b, char *notice, size_t size)
{
	struct gen_params p = { .topo = (enum grid_topology)a->topo, .depth = a->depth ? a->depth : 1,
				.seed = a->gen_seed, .style = a->style, .bestiary = b };
	gen_default_size(p.topo, &p.w, &p.h);
	if (given[ROW_SIZE]) {
		p.w = a->size.w;
		p.h = a->size.h;
	}
	struct gen_result r;
	char err[DIAG_ERR_LEN];
	if (!gen_level(&p, &r, err, sizeof err)) {
		fprintf(stderr, "astray edit: cannot generate the level: %s\n", err);
		return NULL;
	}
	char *name = a->name ? strdup(a->name) : NULL;
	if (name) {
		free(r.level->name);
		r.level->name = name;
	}
	struct editor *ed = editor_create(r.level, b, path);
	if (ed) {
		editor_mark_unsaved(ed);
		snprintf(notice, size, "Generated %s %dx%d, depth %d, %s, seed %llu: not saved yet (s saves "
				       "it as %s).",
			 grid_topology_name(p.topo), p.w, p.h, p.depth, gen_style_name(r.style),
			 (unsigned long long)p.seed, path);
	} else {
		fprintf(stderr, "astray edit: out of memory\n");
	}
	gen_result_free(&r);
	return ed;
}

/*
 * Strokes across the map (a wall line, then floor back, alternating
 * across rows and columns, leaving the start, exits, items and monsters), each followed by what a redraw reads: the
 * diagnostics, the marker route from the start to the exit and every
 * monster's route, then (timed apart) the monsters' plans `r` draws.
 * Prints the CPU time of that work per stroke.
 */
static int run_bench(struct editor *ed, int n)
{
	double *us = malloc((size_t)n * sizeof *us), *plan_us = malloc((size_t)n * sizeof *plan_us);
	if (!us || !plan_us) {
		fprintf(stderr, "astray edit: out of memory\n");
		free(us);
		free(plan_us);
		return 1;
	}
	const struct level *lv = editor_level(ed);
	int w = editor_width(ed), h = editor_height(ed);
	if (lv && lv->player_x >= 0) {
		editor_set_marker(ed, 0, lv->player_x, lv->player_y);
		for (int i = 0; i < w * h; i++)
			if (editor_glyph(ed, i % w, i / w) == '>') {
				editor_set_marker(ed, 1, i % w, i / w);
				break;
			}
	}
	int monsters = 0;
	for (int i = 0; i < n; i++) {
		bool across = i % 2 == 0;
		int at = 1 + (i / 2) % (across ? (h > 2 ? h - 2 : 1) : (w > 2 ? w - 2 : 1));
		char g = (i / 2) % 2 ? '.' : '#';
		/* one stroke, one undo step, over terrain only */
		editor_begin(ed);
		for (int k = 1; k < (across ? w : h) - 1; k++) {
			int x = across ? k : at, y = across ? at : k;
			char was = editor_glyph(ed, x, y);
			if (strchr("#.,~+ ", was))
				editor_paint(ed, x, y, g);
		}
		editor_end(ed);
		(void)editor_diags(ed);
		(void)editor_route(ed);
		monsters = editor_monster_routes(ed);
		us[i] = editor_last_refresh_us(ed);
		/* with `r` on, the redraw plays the monsters' plans too: timed apart */
		double t0 = clock_cpu_us();
		(void)editor_monster_plans(ed);
		plan_us[i] = clock_cpu_us() - t0;
	}
	struct stats_spread sp, pp;
	stats_spread(us, (size_t)n, &sp);
	stats_spread(plan_us, (size_t)n, &pp);
	printf("edit-bench: strokes=%d map=%dx%d monsters=%d cpu_us_mean=%.1f cpu_us_p50=%.1f "
	       "cpu_us_max=%.1f plans_cpu_us_p50=%.1f plans_cpu_us_max=%.1f\n",
	       n, w, h, monsters, sp.mean, sp.p50, sp.max, pp.p50, pp.max);
	free(us);
	free(plan_us);
	return 0;
}

/*
 * Writes the unsaved changes of a session a signal or a hangup stopped to
 * LEVEL.recover.  A LEVEL.recover this session did not restore holds
 * older changes: it is first kept as LEVEL.recover.N, never replaced.
 */
static void rescue(struct editor *ed, const char *recover, bool restored, const char *by)
{
	char err[DIAG_ERR_LEN], aside[4200];
	const char *to = recover;
	if (!restored && access(recover, F_OK) == 0) {
		if (editor_recover_set_aside(recover, aside, sizeof aside, err, sizeof err)) {
			fprintf(stderr, "astray edit: the older unsaved changes in %s are kept as %s\n", recover, aside);
		} else {
			/* the older file stays where it is; the new changes go beside it */
			cli_message(stderr, "astray edit", err);
			snprintf(aside, sizeof aside, "%s.%ld", recover, (long)getpid());
			to = aside;
		}
	}
	if (editor_save(ed, to, false, false, err, sizeof err))
		fprintf(stderr, "astray edit: stopped by %s; the unsaved changes are in %s\n", by, to);
	else
		fprintf(stderr, "astray edit: stopped; the unsaved changes are lost: %s\n", err);
}

int cmd_edit(int argc, char **argv)
{
	struct edit_args a;
	memset(&a, 0, sizeof a);
	a.topo = GRID_SQUARE8;
	a.size = (struct edit_size){ EDIT_DEFAULT_W, EDIT_DEFAULT_H };
	a.delay_ms = EDIT_DEFAULT_DELAY_MS;
	struct opt_list pos = { 0 };
	bool given[N_EDIT_OPTS] = { false };
	struct editor *ed = NULL;
	int die_of = 0; /* the signal that stopped the editor, raised again at the end */
	int status = opt_parse(&edit_command, argc, argv, &a, &pos, given);
	if (status >= 0)
		goto out;
	status = 2;
	if (pos.n != 1) {
		if (pos.n == 0)
			opt_usage_error(&edit_command, "expected one LEVEL file");
		else
			opt_usage_error(&edit_command, "unexpected argument '%s' (one LEVEL at a time)", pos.v[1]);
		goto out;
	}
	bool from_gen = given[ROW_FROM_GEN];
	if (a.create && from_gen) {
		opt_usage_error(&edit_command, "--new and --from-gen: one or the other");
		goto out;
	}
	if (a.recover && a.discard_recover) {
		opt_usage_error(&edit_command, "--recover and --discard-recover: one or the other");
		goto out;
	}
	if ((a.recover || a.discard_recover) && (a.create || from_gen || a.bench)) {
		opt_usage_error(&edit_command, "--%s goes with opening LEVEL (not --new, --from-gen or --bench)",
				a.recover ? "recover" : "discard-recover");
		goto out;
	}
	if (!a.create && !from_gen && (given[ROW_TOPOLOGY] || given[ROW_SIZE] || given[ROW_NAME])) {
		opt_usage_error(&edit_command, "--topology, --size and --name go with --new or --from-gen");
		goto out;
	}
	if (!from_gen && (given[ROW_DEPTH] || given[ROW_STYLE])) {
		opt_usage_error(&edit_command, "--depth and --style go with --from-gen");
		goto out;
	}
	if (from_gen && given[ROW_SIZE] && (a.size.w < GEN_MIN_WIDTH || a.size.h < GEN_MIN_HEIGHT)) {
		opt_usage_error(&edit_command, "--size with --from-gen: from %dx%d (the generator's smallest)",
				GEN_MIN_WIDTH, GEN_MIN_HEIGHT);
		goto out;
	}
	status = 1;
	const char *path = pos.v[0];
	if (cli_ends_with(path, ".map")) {
		/* a Moving AI map has no level header, start or exit: its
		 * parse errors would say nothing useful */
		fprintf(stderr,
			"astray edit: %s is a Moving AI map; the editor opens .lvl levels "
			"(astray play, path and sim take the .map as it is)\n",
			path);
		goto out;
	}
	struct bestiary b;
	struct diag_list diags = { 0 };
	bool ok = a.bestiary ? bestiary_load_file(a.bestiary, &b, &diags)
			     : cli_bestiary_load(path, &b, &diags);
	cli_print_diags(stderr, &diags, false, false);
	diag_list_fini(&diags);
	if (!ok)
		goto out;
	char notice[600] = "", err[DIAG_ERR_LEN] = "";
	if (a.name && !editor_header_check(EDITOR_NAME, a.name, err, sizeof err)) {
		opt_usage_error(&edit_command, "--name: %s", err);
		status = 2;
		goto out;
	}
	if ((a.create || from_gen) && access(path, F_OK) == 0) {
		fprintf(stderr, "astray edit: %s already exists (drop %s to edit it)\n", path,
			a.create ? "--new" : "--from-gen");
		goto out;
	}
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	char *recover = malloc(strlen(path) + 16);
	if (!recover || !editor_recover_path(path, recover, strlen(path) + 16)) {
		fprintf(stderr, "astray edit: out of memory\n");
		free(recover);
		goto out;
	}
	bool restored = false; /* this session holds LEVEL.recover's changes: its rescue may replace it */
	if (from_gen) {
		ed = generated_level(&a, given, path, &b, notice, sizeof notice);
		if (!ed)
			goto out_recover;
	} else if (a.create) {
		char name[256];
		if (a.name)
			snprintf(name, sizeof name, "%s", a.name);
		else
			name_from_path(path, name, sizeof name);
		ed = editor_new((enum grid_topology)a.topo, a.size.w, a.size.h, name, &b, path);
		if (!ed) {
			fprintf(stderr, "astray edit: out of memory\n");
			goto out_recover;
		}
	} else if (a.bench > 0 || !tty) {
		/* no question without a terminal: the level's own errors are
		 * said first, then that the editor needs one */
		ed = open_level(path, path, &b, notice, sizeof notice);
		if (!ed)
			goto out_recover;
	} else {
		enum recover_choice rc = recover_offer(&a, path, recover, notice, sizeof notice);
		if (rc == RECOVER_STOP)
			goto out_recover;
		if (a.recover && rc != RECOVER_RESTORE) {
			fprintf(stderr, "astray edit: --recover: there is no %s to restore\n", recover);
			goto out_recover;
		}
		if (rc == RECOVER_RESTORE) {
			char tidied[sizeof notice];
			snprintf(tidied, sizeof tidied, "%s", notice);
			ed = restore_level(path, recover, &b, notice, sizeof notice);
			if (!ed) {
				fprintf(stderr, "astray edit: %s is kept as it is (astray edit %s --discard-recover "
						"removes it)\n",
					recover, path);
				goto out_recover;
			}
			restored = true;
			if (tidied[0])
				editor_say(notice, sizeof notice, "%s", tidied);
		} else {
			char broken[sizeof notice] = "";
			ed = open_level(path, path, &b, broken, sizeof broken);
			if (!ed)
				goto out_recover;
			if (broken[0])
				editor_say(notice, sizeof notice, "%s", broken);
		}
	}
	if (a.bench > 0) {
		status = run_bench(ed, a.bench);
		goto out_recover;
	}
	if (!tty) {
		fprintf(stderr, "astray edit: the editor needs a terminal on stdin and stdout\n");
		goto out_recover;
	}
	if ((a.create || from_gen) && access(recover, F_OK) == 0)
		snprintf(notice, sizeof notice,
			 "%s holds the unsaved changes of a stopped session (astray edit %s offers to restore "
			 "them); a rescue of this session would keep it as %s.N.",
			 recover, path, recover);
	else if (a.create)
		snprintf(notice, sizeof notice, "New level: put a start (@) and an exit (>); ? lists the keys.");
	editor_set_undo_cap(ed, (size_t)(a.undo_mb > 0 ? a.undo_mb : EDIT_DEFAULT_UNDO_MB) << 20);
	struct ui_editor_options uo = {
		.mouse = !a.no_mouse,
		.path = path,
		.b = &b,
		.seed = given[ROW_SEED] ? a.seed : fresh_seed(),
		.step_delay_ms = a.delay_ms,
		.notice = notice[0] ? notice : NULL,
		.recover = restored ? recover : NULL,
	};
	int signo = 0;
	err[0] = '\0';
	enum ui_outcome o = ui_editor_run(ed, &uo, &signo, err, sizeof err);
	/* the terminal is restored: now it is safe to print */
	if (o == UI_ERROR) {
		cli_message(stderr, "astray edit", err);
		goto out_recover;
	}
	status = o == UI_SIGNAL ? 128 + signo : o == UI_HANGUP ? 129 : 0;
	if (o == UI_SIGNAL && signo > 0)
		die_of = signo; /* a hangup exits 129, as the game does */
	/* the restore undone (or dropped), this session no longer holds
	 * LEVEL.recover's changes: a rescue must keep that file */
	restored = restored && editor_past_mark(ed);
	if ((o == UI_SIGNAL || o == UI_HANGUP) && editor_modified(ed))
		rescue(ed, recover, restored, o == UI_HANGUP ? "a hangup" : signo == SIGINT ? "Ctrl-C" : "a signal");
	else if (editor_modified(ed))
		fprintf(stderr, "astray edit: quit without saving %s\n", path);
	if (uo.recover && o == UI_QUIT && access(recover, F_OK) == 0)
		fprintf(stderr, "astray edit: %s still holds the restored changes: astray edit %s offers them "
				"again (--discard-recover removes them)\n",
			recover, path);
out_recover:
	free(recover);
out:
	editor_destroy(ed);
	opt_list_fini(&pos);
	if (die_of > 0) {
		/* the terminal is back and the recovery file written: now die of
		 * the signal with its default action, so the parent sees it */
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, die_of);
		fflush(NULL);
		signal(die_of, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(die_of);
	}
	return status;
}
