/*
 * cli.c - parsing the numbers of command-line options, shared by the cmd_*
 * files so every command accepts and rejects the same spellings.  It never
 * prints: callers word their own messages.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

bool cli_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool cli_parse_seed(const char *s, uint64_t *out)
{
	if (*s < '0' || *s > '9') /* strtoull would take "-1" and " 7" */
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = (uint64_t)v;
	return true;
}
