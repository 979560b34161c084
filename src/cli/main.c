/*
 * main.c - the command line: picks a subcommand from a table and hands it
 * the rest of argv.  Only main and the cmd_* files print or choose exit codes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd.h"
#include "help.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "play", cmd_play, "play the installed campaign, or one level or folder (the default)" },
	{ "check", cmd_check, "validate level files: errors and warnings with file:line:col" },
	{ "path", cmd_path, "print a level with the route between two cells drawn" },
	{ "sim", cmd_sim, "headless games with scripted players, for tuning monsters" },
	{ "sim-report", cmd_sim_report, "merge per-game CSV shards of sim into one report" },
	{ "bench", cmd_bench, "check and time the A* core on Moving AI scenarios" },
	{ "gen", cmd_gen, "write a generated level (.lvl) from a topology, size and seed" },
	{ "replay", cmd_replay, "watch a recorded game (a journal), or verify it headless" },
	{ "scores", cmd_scores, "the high-score list" },
	{ "edit", cmd_edit, "the level editor: paint, live diagnostics and routes, play-test" },
};

static void usage(FILE *out)
{
	help_usage(out, "[COMMAND]", (const char *const[]){ "[ARGS...]", NULL });
	help_text(out, 0, "\nA turn-based roguelike on square, hex and diamond maps, with a fast A* core.\n\ncommands:");
	size_t n = sizeof commands / sizeof commands[0], longest = 0;
	for (size_t i = 0; i < n; i++)
		if (strlen(commands[i].name) > longest)
			longest = strlen(commands[i].name);
	for (size_t i = 0; i < n; i++) {
		char left[32];
		snprintf(left, sizeof left, "  %s", commands[i].name);
		help_row(out, left, 2 + (int)longest + 2, commands[i].summary);
	}
	help_text(out, 0, "\nWith no command, or with a level or folder, astray plays.  `astray COMMAND --help` tells "
			  "more.  `astray --version` prints the version.  Options take their value as --opt VALUE "
			  "or --opt=VALUE; `--` ends them.  Options before the command belong to it: astray "
			  "--no-save play is astray play --no-save.  Exit status 2 means a usage error, in every "
			  "command.");
}

static int run(int argc, char **argv)
{
	if (argc >= 2) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
		    strcmp(argv[1], "help") == 0) {
			usage(stdout);
			return 0;
		}
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
			printf("astray %s\n", ASTRAY_VERSION);
			return 0;
		}
		for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].run(argc - 1, argv + 1);
		/* Options before the command word (astray --no-save play
		 * --dungeon) are the command's: the word moves to the front, so
		 * the command reads them as its own (or names the one it does
		 * not take), rather than play taking the word for a level. */
		for (int a = 2; a < argc && argv[1][0] == '-' && strcmp(argv[a - 1], "--") != 0; a++)
			for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
				if (strcmp(argv[a], commands[i].name) == 0) {
					char *word = argv[a];
					memmove(argv + 2, argv + 1, (size_t)(a - 1) * sizeof *argv);
					argv[1] = word;
					return commands[i].run(argc - 1, argv + 1);
				}
	}
	/* A bare word that is neither a command nor a file is most likely a
	 * mistyped command: say so rather than "no such file". */
	if (argc >= 2 && argv[1][0] != '-' && !strchr(argv[1], '/') && !strchr(argv[1], '.')) {
		struct stat st;
		if (stat(argv[1], &st) != 0) {
			fprintf(stderr, "astray: '%s' is neither a command nor a level file or folder\n"
					"commands:", argv[1]);
			for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
				fprintf(stderr, " %s", commands[i].name);
			fprintf(stderr, " (astray --help tells more)\n");
			return 2;
		}
	}
	/* No command word: everything is an argument of play. */
	argv[0] = (char *)"play";
	return cmd_play(argc, argv);
}

/* Every command's output is checked once, here: a failed write to stdout
 * (a full disk, a closed pipe) is a failure with a message, never exit 0. */
int main(int argc, char **argv)
{
	return cli_finish_output("astray", run(argc, argv));
}
