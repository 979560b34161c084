/* cmd.h - the subcommands of the one program; each returns the process exit status. */
#ifndef ASTRAY_CMD_H
#define ASTRAY_CMD_H

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

#endif
