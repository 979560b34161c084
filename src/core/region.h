/* region.h - connected regions of a grid's passable cells, kept up to date as cells change. */
#ifndef ASTRAY_REGION_H
#define ASTRAY_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"

/*
 * Two passable cells are in one region when a mover can walk from one to
 * the other without entering a blocked cell, under the movement rules of
 * path.c: on square8 and diamond8 without corner cutting a long step needs
 * both cells beside it passable, so there the regions are those of the
 * four short steps; with corner cutting every step counts.  A blocked cell
 * is in no region.
 *
 * The labels describe one cost array, laid out as the grid's cells: the
 * one the grid's `cost` points at when region_create is called (the true
 * map), or the one given to region_create_over (a map memory, such as the
 * player's known[]); region_rebuild labels that same array again.  The caller reports each change
 * of that array with region_cell_changed: a cell that opens joins the
 * regions around it at once (a union); a cell that closes and may split
 * its region starts walks from its sides, which end where they meet or,
 * on the smaller side, give it a new label.  Past a quarter million cells
 * walked the labels are marked stale instead, and region_refresh labels
 * the whole map again (runs of open cells and a union-find over them:
 * 13-25 ms of CPU on a 4096 x 4096 cave level, region.c; the labels
 * themselves are written a band of cells at a time as they are first
 * read, by region_of, region_size or a change, all of which see exactly
 * what a labelling written at once would show).
 * Queries on stale labels are refused (region_current is false), never
 * answered wrongly.
 */
struct region;

/* Labels g's passable cells for the corner rule `corner_cutting`.  NULL on no memory. */
struct region *region_create(const struct grid *g, bool corner_cutting);
/* Labels the passable (non-zero) cells of `cost`, a w*h array of g's
 * shape that must outlive the labels, instead of g's own costs. */
struct region *region_create_over(const struct grid *g, const uint8_t *cost, bool corner_cutting);
void region_destroy(struct region *r); /* NULL does nothing */

/* One labelling, kept by the caller and never updated: out[c] (w*h of
 * g's shape) is the region of cell c of `cost`, or -1 for a blocked cell;
 * the regions are numbered 0, 1, ... in the order of their first cells
 * (the lowest index of each), as a flood started at each unlabelled cell
 * in cell order numbers them.  Returns how many there are.  Scratch memory
 * (the runs' union-find) is freed on return; with none to be had it labels
 * in `out` alone, slower, so it never fails. */
int32_t region_label(const struct grid *g, const uint8_t *cost, bool corner_cutting, int32_t *out);

/* Labels every cell again from the array the labels describe. */
bool region_rebuild(struct region *r);

/* After the cost of `cell` changed from `old_cost` (0 = blocked) to the
 * array's present value: an opening cell joins its neighbours' regions;
 * a closing cell that might split its region makes the labels stale. */
void region_cell_changed(struct region *r, int cell, uint8_t old_cost);

/* Changes nobody reported one by one (a whole map learnt at once): the
 * labels are stale until region_refresh.  NULL does nothing. */
void region_mark_stale(struct region *r);

/* Labels the map again if they are stale (region_rebuild); false on no memory. */
bool region_refresh(struct region *r);

/* Makes the labels' memory resident now (it is written a band at a time as
 * it is read, so its pages are otherwise first touched by the reads: 64 MiB
 * on 4096x4096, up to 5 ms a 2 MiB page on a virtual machine's fresh
 * memory), for a program that would rather pay at a level's load than at
 * a click.  NULL does nothing. */
void region_prefault(struct region *r);

/* The labels describe `cost` from now on: an array of the same shape and,
 * the caller promises, the same content as the one they were made over (a
 * copy labelled in another thread, handed to the array it copied).  They
 * are current for it as they were for the copy.  NULL does nothing. */
void region_retarget(struct region *r, const uint8_t *cost);

/* Whether the labels describe `cost` now (not stale, made from that array)
 * for the corner rule `corner_cutting`. */
bool region_current(const struct region *r, const uint8_t *cost, bool corner_cutting);

/* The region of `cell`: a number shared by exactly the cells of one
 * region (not dense, not kept across changes), or -1 for a blocked cell.
 * The labels must be current. */
int32_t region_of(const struct region *r, int cell);

/* Cells in the region of `cell` (0 for a blocked cell). */
long region_size(const struct region *r, int cell);

/* How many regions there are, and whether the labels are stale. */
long region_count(const struct region *r);
bool region_stale(const struct region *r);

/* Full relabels made so far (for the tests and the benchmark). */
long region_rebuilds(const struct region *r);

size_t region_memory(const struct region *r);

#endif
