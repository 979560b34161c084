/* heatmap.h - draws one layer of sim's heat (struct sim_heat) as an SVG picture or as text for a terminal. */
#ifndef ASTRAY_HEATMAP_H
#define ASTRAY_HEATMAP_H

#include <stdbool.h>
#include <stdio.h>

#include "sim.h"

/*
 * Writes layer l of heat a as a standalone SVG to f: the level's cells in
 * their layout (squares; hexes in odd-r rows; diamonds staggered), walls
 * and void drawn dark, every other cell coloured by its count on a
 * white-yellow-red logarithmic scale from 0 to the largest count, a legend with the scale
 * and the layer's meaning, and `title` (escaped) on top.  With b (not
 * NULL, the same level), draws b - a on one diverging scale (blue: fewer
 * under B, red: more), symmetric about 0.  Every cell is exactly one
 * element with class "cell", "wall" or "void" and its count in a <title>.
 * Returns 0, or -1 when heat is empty or the sizes differ.  Write errors
 * show in ferror(f).
 */
int heatmap_write_svg(FILE *f, const struct sim_heat *a, const struct sim_heat *b,
		      enum sim_heat_layer l, const char *title);

/*
 * The same layer as text: one character per cell in the level's layout
 * (hex and diamond cells at doubled columns), '#' for walls, ' ' for void,
 * '.' for a count of 0, and '1'..'9' for its ninth of the log scale
 * (with b: '1'..'9' where B is higher, 'a'..'i' where A is higher).  With
 * color, 24-bit colour escapes tint the cells; without, plain text
 * (NO_COLOR).  A legend line follows.  Returns 0 or -1 as above.
 */
int heatmap_write_text(FILE *f, const struct sim_heat *a, const struct sim_heat *b,
		       enum sim_heat_layer l, bool color);

#endif
