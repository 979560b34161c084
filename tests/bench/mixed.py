#!/usr/bin/env python3
"""mixed.py - the mixed-monster level of the AI benchmark (tests/bench/mixed.sh).

Reads a Moving AI .map and a bestiary and writes an astray level: the
map's passable cells as floor ('.', swamp and water as '~'), the rest as
wall; the player near the middle of the largest region, the stairs far
from it, and N monsters on cells of that region drawn with a fixed seed,
their kinds taken in turn from every kind of the bestiary (an equal share
of each), or only those whose glyphs are in GLYPHS.
usage: mixed.py MAP BESTIARY N OUT [GLYPHS]
"""
import random
import sys
from collections import deque


def kinds(path):
    glyphs = []
    for line in open(path, encoding="ascii"):
        line = line.split(";", 1)[0].strip()
        if line.startswith("glyph:"):
            glyphs.append(line.split(":", 1)[1].strip())
    return glyphs


def main():
    mapfile, bestiary, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    lines = open(mapfile, encoding="ascii").read().split("\n")
    rows = lines[lines.index("map") + 1:]
    h = int(next(l for l in lines if l.startswith("height")).split()[1])
    w = int(next(l for l in lines if l.startswith("width")).split()[1])
    rows = [r.ljust(w, "@")[:w] for r in rows[:h]]
    grid = [["." if c in ".G" else "~" if c in "SW" else "#" for c in r] for r in rows]
    # the largest 4-connected region, by breadth-first search
    label = [[-1] * w for _ in range(h)]
    best, best_cells = -1, []
    for y in range(h):
        for x in range(w):
            if grid[y][x] == "#" or label[y][x] >= 0:
                continue
            cells, q = [], deque([(x, y)])
            label[y][x] = len(cells)
            while q:
                cx, cy = q.popleft()
                cells.append((cx, cy))
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and grid[ny][nx] != "#" and label[ny][nx] < 0:
                        label[ny][nx] = 0
                        q.append((nx, ny))
            if len(cells) > len(best_cells):
                best_cells = cells
    floor = [c for c in best_cells if grid[c[1]][c[0]] == "."]
    px, py = min(floor, key=lambda c: (c[0] - w // 2) ** 2 + (c[1] - h // 2) ** 2)
    ex, ey = max(floor, key=lambda c: abs(c[0] - px) + abs(c[1] - py))
    grid[py][px], grid[ey][ex] = "@", ">"
    rng = random.Random(1)
    free = [c for c in floor if abs(c[0] - px) + abs(c[1] - py) > 8 and grid[c[1]][c[0]] == "."]
    glyphs = kinds(bestiary)
    if len(sys.argv) > 5:
        glyphs = [g for g in glyphs if g in sys.argv[5]]
    for i, (x, y) in enumerate(rng.sample(free, n)):
        grid[y][x] = glyphs[i % len(glyphs)]
    with open(out, "w", encoding="ascii") as f:
        f.write("astray-level 1\nname: mixed %d\ntopology: square8\n" % n)
        f.write("description: %d monsters of %d kinds on %s\nmap:\n" % (n, len(glyphs), mapfile.split("/")[-1]))
        for r in grid:
            f.write("".join(r) + "\n")


main()
