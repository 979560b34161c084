/* cli.h - number parsing shared by the subcommands' option parsers. */
#ifndef ASTRAY_CLI_H
#define ASTRAY_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* A whole decimal number in [lo, hi], the whole string; false otherwise. */
bool cli_parse_long(const char *s, long lo, long hi, long *out);

/* A seed: a whole decimal number from 0 to 2^64 - 1, the form the game
 * prints, so `play --seed N` and `sim --seed N` read it alike. */
bool cli_parse_seed(const char *s, uint64_t *out);

#endif
