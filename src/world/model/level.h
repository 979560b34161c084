/* level.h - level files: parse from memory, validate, write back; Moving AI .map import. */
#ifndef ASTRAY_LEVEL_H
#define ASTRAY_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bestiary.h"
#include "diag.h"
#include "grid.h"
#include "items.h"

#define LEVEL_MAX_SIDE 4096

/* Terrain of a cell.  Items, monsters and the player start are not terrain. */
enum tile {
	TILE_VOID,
	TILE_WALL,
	TILE_FLOOR,
	TILE_RUBBLE,
	TILE_WATER,
	TILE_DOOR,   /* closed door; the game opens it */
	TILE_EXIT,   /* stairs down, on floor */
	TILE_BEDROCK,/* '%': a wall no one can dig (DESIGN section 4, rule 6) */
	TILE_COUNT
};

/* The one table of terrain facts (DESIGN section 5). */
struct tile_info {
	char glyph;
	const char *name;
	uint8_t cost;        /* entering-cost multiplier, 0 = blocked */
	bool blocks_sight;
};
const struct tile_info *tile_info(enum tile t);

/*
 * Whether a digging monster may dig the cell (x, y) of a w x h map whose
 * tile is t into rubble (DESIGN section 4, rule 6): a wall ('#') off the
 * map's outer edge.  Permanent: the edge, '%', and void (no wall at all).
 */
static inline bool tile_diggable(enum tile t, int w, int h, int x, int y)
{
	return t == TILE_WALL && x > 0 && y > 0 && x < w - 1 && y < h - 1;
}

/* enum item_kind (the class of an item on a map: potion, gold, scroll...) is items.h's. */

struct level_item {
	enum item_kind kind;
	int x, y;
};

struct level_cell {
	int x, y;
};

struct level_monster {
	char glyph;          /* bestiary kind */
	int x, y;
};

struct level {
	char *file;          /* where it was read from (for messages) */
	char *name;
	char *author;        /* may be NULL */
	char *description;   /* may be NULL */
	enum grid_topology topo;
	int w, h;            /* in cells */
	uint8_t *tiles;      /* w * h enum tile */
	int player_x, player_y;
	struct level_item *items;
	int n_items;
	struct level_monster *monsters;
	int n_monsters;
	int map_line;        /* file line of the map's first row (1-based); 0 when not from text */
	struct level_cell *sealed; /* header `sealed:`: one cell of each region walled off on purpose */
	int n_sealed;
};

/*
 * Parses a level from memory.  `file` names it in messages.  `b` (may be
 * NULL: then any letter is accepted) checks monster letters.  Every problem
 * goes to diags with its line and column.  Returns the level, or NULL when
 * there was any error.
 */
struct level *level_parse(const char *file, const char *text, size_t len,
			  const struct bestiary *b, struct diag_list *diags);

/*
 * The same parse for a file being repaired (astray edit): every problem
 * goes to diags (not NULL) as level_parse reports it, and the level comes
 * back as far as it could be read, even with errors: cells an error
 * stopped are void (but the terrain of a hex or diamond row shifted by a
 * column is read half a cell off), a missing or unknown topology is
 * square8, a missing
 * name leaves name NULL.  NULL only when there is no map to show (no
 * 'map:' line, an empty map) or on no memory.
 */
struct level *level_parse_partial(const char *file, const char *text, size_t len,
				  const struct bestiary *b, struct diag_list *diags);

/* textfile_read with the error in errno: the whole file, NUL-terminated
 * (caller frees), or NULL with errno set.  For callers that want a pointer. */
char *level_read_file(const char *path, size_t *len);

/*
 * Loads a Moving AI .map (type octile) as a square8 level; the player, an
 * exit and n_monsters monsters of kind `monster_glyph` are placed from
 * `seed` in the largest region.  Shared with the bench loader.
 */
struct level *level_from_movingai(const char *file, const char *text, size_t len, uint64_t seed,
				  int n_monsters, char monster_glyph, struct diag_list *diags);

/* Writes the level in the .lvl format (NUL-terminated, caller frees). */
char *level_write(const struct level *lv, size_t *len);

/* A grid with the level's entering costs (doors passable).  Caller destroys it. */
struct grid *level_grid(const struct level *lv);

static inline enum tile level_tile(const struct level *lv, int x, int y)
{
	return (enum tile)lv->tiles[y * lv->w + x];
}

void level_destroy(struct level *lv); /* NULL does nothing */

/* The glyph of a tile in level files (also tile_info(t)->glyph). */
char tile_glyph(enum tile t);

/*
 * Where cell (x, y) sits in the file the level came from: 1-based line and
 * text column (hex cells at 2x + (y & 1) + 1).  Line is 0 when the level
 * was not read from text.
 */
void level_cell_position(const struct level *lv, int x, int y, int *line, int *col);

/*
 * What a designer must know beyond parse errors (`astray check`): floor
 * regions the player cannot reach (warning, size and one cell each), exits
 * the player cannot reach (error), monsters that can never reach the player
 * and items the player cannot reach (warnings), and a map larger than 80x24
 * (note: it scrolls).  Connectivity follows the movement rules of the
 * level's topology (square8 without corner cutting; doors passable).
 * `b` (may be NULL) names monsters in messages.  Returns the number of errors added.
 */
int level_analyse(const struct level *lv, const struct bestiary *b, struct diag_list *diags);

/* The same over g, a grid of lv's size and topology whose costs are lv's
 * (level_grid's), which a caller that keeps one (the editor) passes rather
 * than have a grid of the level made and filled for every analysis: on
 * 4096x4096 a quarter of an editor stroke's time. */
int level_analyse_grid(const struct level *lv, const struct grid *g, const struct bestiary *b,
		       struct diag_list *diags);

/*
 * Region labels of the passable cells under the level's movement rules:
 * out[i] = region number (0, 1, ...) or -1 for a blocked cell, numbered in
 * scan order.  Returns the number of regions, or -1 on no memory.
 */
int level_regions(const struct level *lv, int *out);
/* The same labels for a grid made by level_grid (no copy made). */
int level_grid_regions(const struct grid *g, int *out);
/* The same labels by a flood from each cell in turn: the reference the tests compare with. */
int level_grid_regions_flood(const struct grid *g, int *out);

/* Screen size of the map as the game draws it (hex: doubled columns). */
int level_screen_width(const struct level *lv);

#endif
