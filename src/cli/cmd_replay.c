/*
 * cmd_replay.c - `astray replay FILE --verify`: reads a journal, rebuilds
 * its game from the recorded levels and bestiary, replays every action
 * without a terminal and checks every checksum.  Exit 0 with one summary
 * line of key=value figures; 1 naming the first turn that differs or the
 * damage (byte offset); 2 on bad usage.  Watching a replay in the terminal
 * is not here yet: without --verify the command says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cmd.h"
#include "journal.h"

static void replay_usage(FILE *out)
{
	fprintf(out,
		"usage: astray replay FILE --verify\n"
		"\n"
		"Replays a game journal (docs/journal.md) without a terminal: the game is\n"
		"rebuilt from the levels and bestiary recorded in the file, every action is\n"
		"applied again and every checksum compared.  Prints one line of key=value\n"
		"figures and exits 0, or exits 1 naming the first action and game turn where\n"
		"the replay differs, or where the file is damaged.\n"
		"\n"
		"options:\n"
		"  --verify       replay headless and check every checksum (required for now:\n"
		"                 watching a replay in the terminal is not available yet)\n"
		"  --upto N       stop after the first N actions\n"
		"  --help         this text\n");
}

/* "--opt=value" or "--opt value": the value of option `name` at argv[*i], or NULL (not this option). */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];
	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static const char *outcome_of(const struct game *g)
{
	return g->won ? "won" : g->over ? "died" : "unfinished";
}

int cmd_replay(int argc, char **argv)
{
	const char *file = NULL;
	bool verify = false;
	long upto = -1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val;
		bool missing = false;
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			replay_usage(stdout);
			return 0;
		} else if (strcmp(arg, "--verify") == 0) {
			verify = true;
		} else if ((val = option_value(argc, argv, &i, "--upto", &missing)) != NULL) {
			char *end;
			long long v = strtoll(val, &end, 10);
			if (*val < '0' || *val > '9' || *end || v < 0 || v > 1000000000) {
				fprintf(stderr, "astray replay: --upto '%s': expected a number of actions\n", val);
				return 2;
			}
			upto = (long)v;
		} else if (missing) {
			fprintf(stderr, "astray replay: %s needs a value (see astray replay --help)\n", arg);
			return 2;
		} else if (arg[0] == '-' && arg[1] != '\0') {
			fprintf(stderr, "astray replay: unknown option '%s' (see astray replay --help)\n", arg);
			return 2;
		} else if (file) {
			fprintf(stderr, "astray replay: one journal at a time ('%s' and '%s')\n", file, arg);
			return 2;
		} else {
			file = arg;
		}
	}
	if (!file) {
		fprintf(stderr, "astray replay: which journal? (see astray replay --help)\n");
		return 2;
	}
	if (!verify) {
		fprintf(stderr, "astray replay: watching a replay in the terminal is not available yet; "
				"astray replay %s --verify checks it\n", file);
		return 2;
	}

	char err[1200];
	struct journal_data d;
	double t0 = clock_us();
	if (!journal_read_file(file, &d, err, sizeof err)) {
		fprintf(stderr, "astray replay: %s\n", err);
		return 1;
	}
	struct journal_game jg;
	if (!journal_start(&d, &jg, err, sizeof err)) {
		fprintf(stderr, "astray replay: %s\n", err);
		journal_data_fini(&d);
		return 1;
	}
	double t1 = clock_us();
	struct journal_replay r;
	bool ok = journal_replay(&d, jg.game, upto, &r, err, sizeof err);
	double t2 = clock_us();
	int status = 0;
	const struct game *g = jg.game;
	if (!ok) {
		fprintf(stderr, "astray replay: %s\n", err);
		status = 1;
	} else if (d.tail != JOURNAL_TAIL_CLEAN && (upto < 0 || upto >= d.n_actions)) {
		fprintf(stderr, "astray replay: %s: %s; the game is intact up to action %ld (game turn %d)\n", file,
			d.tail_msg, r.actions, g->turn);
		status = 1;
	} else {
		long unchecked = r.actions - r.good_action;
		printf("replay: file=%s format=%d program=%s seed=%llu levels=%d actions=%ld checks=%ld "
		       "unchecked=%ld turn=%d depth=%d outcome=%s hp=%d gold=%d kills=%d load_ms=%.1f "
		       "replay_ms=%.1f\n",
		       file, d.format, d.program, (unsigned long long)d.seed, d.n_levels, r.actions, r.checks, unchecked,
		       g->turn, g->depth + 1, outcome_of(g), g->player.hp, g->player.gold, g->player.kills,
		       (t1 - t0) / 1000.0, (t2 - t1) / 1000.0);
	}
	journal_game_fini(&jg);
	journal_data_fini(&d);
	return status;
}
