/* heat_render.h - sim's heat drawn for a person: an SVG picture, coloured terminal text, and their title. */
#ifndef ASTRAY_HEAT_RENDER_H
#define ASTRAY_HEAT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "heatmap.h"
#include "sim.h"

/* The picture's two title lines (one '\n' between them) for layer l, as
 * sim writes them: level, layer, games, seed; player and settings. */
/* Text for XML (SVG): escapes markup, replaces bytes that are not UTF-8
 * and control characters other than tab and newline with U+FFFD. */
void heat_render_xml_text(FILE *f, const char *s);

void heat_render_title(char *buf, size_t size, const struct heatmap_run *run, enum sim_heat_layer l);

/*
 * Writes layer l of heat a as a standalone SVG to f: the level's cells in
 * their layout (squares; hexes in odd-r rows; diamonds staggered), walls
 * and void drawn dark, every other cell coloured by its count on a
 * white-yellow-red logarithmic scale from 0 to the largest count, a legend with the scale
 * and the layer's meaning, and `title` (escaped) on top.  With b (not
 * NULL, the same level), draws b - a on one diverging scale (blue: fewer
 * under B, red: more), symmetric about 0.  Every cell is exactly one
 * element with class "cell", "wall" or "void" and its count in a <title>.
 * Exits are outlined; the player's start cell `start` (y * w + x, or -1
 * for none) is ringed; water and rubble are patterned over their colour,
 * doors framed, bedrock darker than walls; `monsters` (w * h kind glyphs,
 * 0 where no monster starts, or NULL) puts each monster's letter on its
 * start (class "terrain" and "monster" elements, after the cells); the
 * legend names every mark the map has.
 * A map of more than 40,000 cells is drawn in blocks of cells instead (at
 * most 40,000, square on the page, each counting the sum of its cells;
 * no terrain or monster marks), and a line of the title says how many
 * cells a block is: an 800x400 map drew 51 MB, a 4096x4096 one 2.6 GB.
 * Returns 0, or -1 when heat is empty or the sizes differ.  Write errors
 * show in ferror(f).
 */
int heat_render_svg(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		    const char *title, int start, const char *monsters);

/*
 * The same layer as text: one character per cell in the level's layout
 * (hex and diamond cells at doubled columns), '#' for walls, ' ' for void,
 * '.' for a count of 0, and '1'..'9' for its ninth of the log scale
 * (with b: '1'..'9' where B is higher, 'a'..'i' where A is higher).  With
 * color, 24-bit colour escapes tint the cells; without, plain text
 * (NO_COLOR).  The start cell shows '@', exits '>' and monster starts
 * their letter instead of their count (tinted by it in colour); a cell of
 * water, rubble or a door that counts 0 shows its terrain (~ , +).  A
 * legend follows.  A map of more than 40,000 cells is drawn in the same
 * blocks as the SVG, a character each, under a line that says so.
 * Returns 0 or -1 as above.
 */
int heat_render_text(FILE *f, const struct sim_heat *a, const struct sim_heat *b, enum sim_heat_layer l,
		     bool color, int start, const char *monsters);

#endif
