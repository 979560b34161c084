/*
 * fuzz_opt.c - libFuzzer target for the command lines of every command
 * (opt.c's parser, driven by each command's own table, its custom values
 * too: --size WxH, --shard I/N, --monsters K[:KIND], --topology, ...): any
 * arguments give the parsed options, the help, or a usage error with its
 * message, never a crash, a hang or a leak.  The first byte picks the
 * command; the rest, cut at NUL bytes, is its argv after the command's
 * name.  What parses is within its table's bounds: a number within [lo,
 * hi], a choice one of its words, a text one of the arguments.  The help
 * and the messages go to /dev/null.  The corpus (tests/fuzz-corpus-opt)
 * holds command lines of the docs' examples and their errors.
 */
#include <fcntl.h>
#include <math.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "opt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_OPT_ARGS 64
#define FUZZ_OPT_ROOM 65536 /* bytes: the largest command's arguments fit */

typedef const struct opt_command *(*fuzz_opt_table)(size_t *args_size);

static const fuzz_opt_table fuzz_opt_tables[] = {
	cmd_play_opts, cmd_check_opts, cmd_path_opts, cmd_sim_opts, cmd_sim_report_opts,
	cmd_bench_opts, cmd_gen_opts, cmd_replay_opts, cmd_scores_opts, cmd_edit_opts,
};
#define FUZZ_OPT_COMMANDS ((int)(sizeof fuzz_opt_tables / sizeof fuzz_opt_tables[0]))

/* Whether p is one of argv's strings or points into one (--opt=VALUE). */
static bool fuzz_opt_in_argv(const char *p, char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return true;
	return false;
}

/* A parse that went on left every option within its row's bounds. */
static void fuzz_opt_check(const struct opt_command *cmd, const char *args, const bool *given, char **argv,
			   int argc)
{
	for (int i = 0; i < cmd->n_opts; i++) {
		const struct opt *o = &cmd->opts[i];
		const char *field = args + o->offset;
		if (!given[i])
			continue;
		switch (o->kind) {
		case OPT_INT: {
			int v;
			memcpy(&v, field, sizeof v);
			if (v < o->lo || v > o->hi)
				abort();
			break;
		}
		case OPT_DOUBLE: {
			double v;
			memcpy(&v, field, sizeof v);
			if (!isfinite(v) || v < o->lo || v > o->hi)
				abort();
			break;
		}
		case OPT_CHOICE: {
			int v, n = 0;
			memcpy(&v, field, sizeof v);
			while (o->choices[n])
				n++;
			if (v < 0 || v >= n)
				abort();
			break;
		}
		case OPT_STRING: {
			const char *v;
			memcpy(&v, field, sizeof v);
			if (!v || !fuzz_opt_in_argv(v, argv, argc))
				abort();
			break;
		}
		case OPT_LIST: {
			struct opt_list l;
			memcpy(&l, field, sizeof l);
			if (l.n < 1 || l.n > argc)
				abort();
			for (int k = 0; k < l.n; k++)
				if (!fuzz_opt_in_argv(l.v[k], argv, argc))
					abort();
			break;
		}
		case OPT_FLAG: {
			bool v;
			memcpy(&v, field, sizeof v);
			if (!v)
				abort();
			break;
		}
		case OPT_SEED:
		case OPT_PAIR:
		case OPT_CUSTOM:
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t args_size = 0;
	const struct opt_command *cmd = fuzz_opt_tables[data[0] % FUZZ_OPT_COMMANDS](&args_size);
	if (args_size > FUZZ_OPT_ROOM)
		abort(); /* the room below must hold every command's arguments */
	/* argv: the command's name, then the pieces of the rest cut at NUL */
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	char *argv[FUZZ_OPT_ARGS + 2];
	int argc = 0;
	argv[argc++] = (char *)(uintptr_t)cmd->name;
	for (char *p = text; p < text + size - 1 && argc <= FUZZ_OPT_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	static alignas(max_align_t) char args[FUZZ_OPT_ROOM];
	memset(args, 0, args_size);
	bool *given = calloc((size_t)cmd->n_opts + 1, sizeof *given);
	struct opt_list positional = { 0 };
	if (!given) {
		free(text);
		return 0;
	}
	fflush(stdout);
	fflush(stderr);
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out < 0 || err < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0)
		abort();
	const int rc = opt_parse(cmd, argc, argv, args, &positional, given);
	fflush(stdout);
	fflush(stderr);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		abort();
	close(out);
	close(err);
	close(null);
	if (rc != -1 && rc != 0 && rc != 1 && rc != 2)
		abort();
	if (rc == -1) {
		fuzz_opt_check(cmd, args, given, argv, argc);
		for (int i = 0; i < positional.n; i++)
			if (!fuzz_opt_in_argv(positional.v[i], argv, argc))
				abort();
	}
	/* the lists the parse made, whatever it returned */
	for (int i = 0; i < cmd->n_opts; i++)
		if (cmd->opts[i].kind == OPT_LIST)
			opt_list_fini((struct opt_list *)(void *)(args + cmd->opts[i].offset));
	opt_list_fini(&positional);
	free(given);
	free(text);
	return 0;
}
