/* cmd_check.c - `astray check`: placeholder until its issue lands; says so and fails. */
#include <stdio.h>

#include "cmd.h"

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "astray: 'check' is not in this build yet\n");
	return 2;
}
