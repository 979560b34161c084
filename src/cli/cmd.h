/* cmd.h - the subcommands of the one program; each returns the process exit status. */
#ifndef ASTRAY_CMD_H
#define ASTRAY_CMD_H

#include <stddef.h>

#define ASTRAY_VERSION "0.1.0"

/* argv[0] is the command's own name ("play", "check", ...). */
int cmd_play(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_sim_report(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_scores(int argc, char **argv);
int cmd_edit(int argc, char **argv);

/* Each command's option table (opt.h) and the size of the arguments it
 * fills: tests/fuzz_opt.c parses any command line with them. */
struct opt_command;
const struct opt_command *cmd_play_opts(size_t *args_size);
const struct opt_command *cmd_check_opts(size_t *args_size);
const struct opt_command *cmd_path_opts(size_t *args_size);
const struct opt_command *cmd_sim_opts(size_t *args_size);
const struct opt_command *cmd_sim_report_opts(size_t *args_size);
const struct opt_command *cmd_bench_opts(size_t *args_size);
const struct opt_command *cmd_gen_opts(size_t *args_size);
const struct opt_command *cmd_replay_opts(size_t *args_size);
const struct opt_command *cmd_scores_opts(size_t *args_size);
const struct opt_command *cmd_edit_opts(size_t *args_size);

#endif
