/* cmd_sim.c - `astray sim`: placeholder until its issue lands; says so and fails. */
#include <stdio.h>

#include "cmd.h"

int cmd_sim(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "astray: 'sim' is not in this build yet\n");
	return 2;
}
