/* movingai.h - Moving AI benchmark files: .map grids and .scen scenario lists. */
#ifndef ASTRAY_MOVINGAI_H
#define ASTRAY_MOVINGAI_H

#include <stdbool.h>
#include <stddef.h>

#include "grid.h"

/*
 * Parses a .map (header `type octile`, `height H`, `width W`, `map`, then H
 * rows of W characters; CRLF and a missing final newline accepted) into a
 * square8 grid: `.` `G` `S` passable (cost 1), everything else blocked.
 * On error returns NULL and writes "line N: message" into err.
 */
struct grid *movingai_parse_map(const char *text, size_t len, char *err, size_t errlen);

struct movingai_scenario {
	int bucket;
	char map[256];       /* file name only (any folder stripped) */
	int map_w, map_h;
	int sx, sy, gx, gy;
	double optimal;
};

/* Parses a .scen file (version 1 or 1.0, tabs or spaces, blank lines skipped).
 * Returns the number of scenarios (array in *out, caller frees) or -1 with err. */
int movingai_parse_scen(const char *text, size_t len, struct movingai_scenario **out,
			char *err, size_t errlen);

/* DESIGN section 7: |cost - optimal| <= 0.006 + 1e-5 * optimal. */
bool movingai_cost_matches(double cost, double optimal);

#endif
