/* cmd_path.c - `astray path`: placeholder until its issue lands; says so and fails. */
#include <stdio.h>

#include "cmd.h"

int cmd_path(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "astray: 'path' is not in this build yet\n");
	return 2;
}
