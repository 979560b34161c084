/*
 * cmd_replay.c - `astray replay FILE --verify`: reads a journal, rebuilds
 * its game from the recorded levels and bestiary, replays every action
 * without a terminal and checks every checksum.  Exit 0 with one summary
 * line of key=value figures; 1 naming the first turn that differs or the
 * damage (byte offset); 2 on bad usage.  Without --verify the game is
 * shown in the terminal instead (ui_replay_run), after the same checks of
 * the file.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "help.h"
#include "opt.h"
#include "journal.h"
#include "ui.h"

struct replay_args {
	bool verify;
	bool resume;             /* start from FILE.snap when it belongs to FILE, as resuming a save does */
	int upto;                /* actions replayed at most; -1 all */
	bool reveal;             /* watching: the whole level and every monster's route */
};

#define ARG(field) offsetof(struct replay_args, field)
static const struct opt replay_opts[] = {
	{ .name = "verify", .kind = OPT_FLAG, .offset = ARG(verify),
	  .help = "replay headless and check every checksum; without it the game is shown in the terminal" },
	{ .name = "resume", .kind = OPT_FLAG, .offset = ARG(resume),
	  .help = "with --verify: rebuild the game as resuming a save does, from the snapshot FILE.snap "
		  "when it belongs to FILE, then only the actions after it; snapshot=A says how many it "
		  "covered, and a snapshot that is not used is said on stderr" },
	{ .name = "upto", .kind = OPT_INT, .offset = ARG(upto), .metavar = "N", .lo = 0, .hi = 1000000000,
	  .help = "stop after the first N actions" },
	{ .name = "reveal", .kind = OPT_FLAG, .offset = ARG(reveal),
	  .help = "watching: show the whole level, every monster and every monster's route and target, "
		  "not only what the player saw (v toggles it)" },
};
#undef ARG

static void replay_usage(FILE *out);

static const struct opt_command replay_command = {
	"replay", replay_opts, (int)(sizeof replay_opts / sizeof replay_opts[0]), replay_usage
};

const struct opt_command *cmd_replay_opts(size_t *args_size)
{
	*args_size = sizeof(struct replay_args);
	return &replay_command;
}

static void replay_usage(FILE *out)
{
	help_usage(out, "replay", (const char *const[]){ "FILE [--verify [--resume]] [--upto N]",
							  "FILE [--reveal] [--upto N]", NULL });
	help_text(out, 0,
		  "\nShows a recorded game (a journal: docs/journal.md) in the terminal, one action at a time: "
		  "Space pauses, . steps, + and - change the speed, r shows the routes of the monsters the "
		  "player sees, v reveals the whole level and every monster's route, q quits.\n"
		  "\n"
		  "With --verify it replays the journal without a terminal: the game is rebuilt from the levels "
		  "and bestiary recorded in the file, every action is applied again and every checksum "
		  "compared.  Prints one line of key=value figures and exits 0, or exits 1 naming the first "
		  "action and game turn where the replay differs, or where the file is damaged.\n"
		  "\n"
		  "A game too long for one file is kept in segments: FILE is the newest, FILE.seg-1, "
		  "FILE.seg-2... the parts before it; they are read in order and each must be the one the "
		  "next names; with --resume they are read only when the snapshot cannot be used.");
	opt_print_help(out, &replay_command);
	help_text(out, 0,
		  "\nexit status: 0 the replay matched, 1 it differs or the file is damaged, 2 bad usage; "
		  "watching: 128+N when signal N stopped it, 129 when the terminal closed");
}

static const char *outcome_of(const struct game *g)
{
	return g->won ? "won" : g->over ? "died" : "unfinished";
}

int cmd_replay(int argc, char **argv)
{
	struct replay_args a = { .verify = false, .upto = -1 };
	struct opt_list files = { 0 };
	int status = opt_parse(&replay_command, argc, argv, &a, &files, NULL);
	if (status < 0 && files.n == 0)
		status = opt_usage_error(&replay_command, "which journal? (see astray replay --help)");
	else if (status < 0 && files.n > 1)
		status = opt_usage_error(&replay_command, "one journal at a time ('%s' and '%s')", files.v[0],
					 files.v[1]);
	const char *file = status < 0 ? files.v[0] : NULL;
	opt_list_fini(&files);
	if (status >= 0)
		return status;
	bool verify = a.verify;
	long upto = a.upto;
	if (a.resume && !verify) {
		fprintf(stderr, "astray replay: --resume goes with --verify\n");
		return 2;
	}
	if (a.reveal && verify) {
		fprintf(stderr, "astray replay: --reveal is for watching; --verify shows nothing\n");
		return 2;
	}
	if (!verify && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fputs("astray replay: watching a replay needs a terminal; astray replay ", stderr);
		cli_put_shell_word(stderr, file);
		fputs(" --verify checks it without one\n", stderr);
		return 1;
	}

	char err[DIAG_ERR_LEN];
	struct journal_data d;
	double t0 = clock_us();
	if (!journal_read_file(file, &d, err, sizeof err)) {
		cli_message(stderr, "astray replay", err);
		return 1;
	}
	/* a game that outgrew one file: its segments before this one (a
	 * resume from the snapshot reads them only when it must) */
	if (!a.resume && !journal_read_chain(&d, err, sizeof err)) {
		cli_message(stderr, "astray replay", err);
		journal_data_fini(&d);
		return 1;
	}
	struct journal_game jg;
	if (!journal_start(&d, &jg, err, sizeof err)) {
		cli_message(stderr, "astray replay", err);
		journal_data_fini(&d);
		return 1;
	}
	double t1 = clock_us();
	if (!verify) {
		long n = upto >= 0 && upto < d.n_actions ? upto : d.n_actions;
		int signo = 0;
		enum ui_outcome o = ui_replay_run(jg.game, d.actions, n, a.reveal, &signo, err, sizeof err);
		/* the terminal is restored: now it is safe to print */
		if (o == UI_ERROR)
			cli_message(stderr, "astray replay", err);
		else if (d.tail != JOURNAL_TAIL_CLEAN)
		{
			fputs("astray replay: ", stderr);
			cli_put_escaped(stderr, file);
			fprintf(stderr, ": %s\n", d.tail_msg);
		}
		journal_game_fini(&jg);
		journal_data_fini(&d);
		return o == UI_ERROR ? 1 : o == UI_SIGNAL ? 128 + signo : o == UI_HANGUP ? 129 : 0;
	}
	struct journal_replay r;
	long from = 0;
	bool ok;
	if (a.resume) {
		char snap[4200], note[700];
		snprintf(snap, sizeof snap, "%s.snap", file);
		ok = journal_resume(&d, &jg, snap, upto, &r, &from, note, sizeof note, err, sizeof err);
		if (note[0])
			cli_message(stderr, "astray replay: the snapshot was not used", note);
	} else {
		ok = journal_replay(&d, jg.game, upto, &r, err, sizeof err);
	}
	double t2 = clock_us();
	status = 0;
	const struct game *g = jg.game;
	if (!ok) {
		cli_message(stderr, "astray replay", err);
		status = 1;
	} else if (d.tail != JOURNAL_TAIL_CLEAN && (upto < 0 || upto >= d.n_actions)) {
		fputs("astray replay: ", stderr);
		cli_put_escaped(stderr, file);
		fprintf(stderr, ": %s; the game is intact up to action %ld (game turn %d)\n", d.tail_msg, r.actions,
			g->turn);
		status = 1;
	} else {
		long unchecked = r.actions - r.good_action;
		fputs("replay: file=", stdout);
		cli_put_escaped(stdout, file);
		printf(" format=%d program=%s seed=%llu levels=%d actions=%ld checks=%ld "
		       "unchecked=%ld turn=%d depth=%d outcome=%s hp=%d gold=%d kills=%d load_ms=%.1f "
		       "replay_ms=%.1f%s",
		       d.format, d.program, (unsigned long long)d.seed, d.n_levels, r.actions, r.checks, unchecked,
		       g->turn, g->depth + 1, outcome_of(g), g->player.hp, g->player.gold, g->player.kills,
		       (t1 - t0) / 1000.0, (t2 - t1) / 1000.0, a.resume ? "" : "\n");
		if (a.resume)
			printf(" snapshot=%ld hash=%016llx\n", from, (unsigned long long)game_hash(g));
	}
	journal_game_fini(&jg);
	journal_data_fini(&d);
	return status;
}
