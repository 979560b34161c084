/* cmd_bench.c - `astray bench`: placeholder until its issue lands; says so and fails. */
#include <stdio.h>

#include "cmd.h"

int cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "astray: 'bench' is not in this build yet\n");
	return 2;
}
