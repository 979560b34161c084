/* cmd_play.c - `astray play`: placeholder until its issue lands; says so and fails. */
#include <stdio.h>

#include "cmd.h"

int cmd_play(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "astray: 'play' is not in this build yet\n");
	return 2;
}
