#!/usr/bin/env python3
"""Clicks for the fallback benchmark (tests/bench/fallback.sh).

Reads a level, writes a copy with two sealed pockets carved next to a
floor, a quarter and half of the map from the player, and prints one line
per click: NAME X,Y X,Y (from the player).  Clicks: a wall next to the
floor near the player, a quarter of the map from it and half of the map
from it (one wall cell away), the two pockets (one wall away), and a wall
deep in rock (several walls away: the layered search answers that one).
Cells are read as the level format lays them out (hex and diamond rows
doubled); '#' is rock, '.' floor, other glyphs are not chosen.
"""
import sys


def load(path):
    lines = open(path).read().split('\n')
    i = lines.index('map:')
    head = lines[:i + 1]
    rows = [l for l in lines[i + 1:] if l]
    topo = next(l.split(':', 1)[1].split(';')[0].strip() for l in head if l.startswith('topology:'))
    return head, rows, topo


def main():
    src, out = sys.argv[1], sys.argv[2]
    head, rows, topo = load(src)
    stag = topo in ('hex', 'diamond4', 'diamond8')
    h = len(rows)
    w = (len(rows[0]) + 1) // 2 if stag else len(rows[0])
    grid = [bytearray(w) for _ in range(h)]
    for y, line in enumerate(rows):
        for x in range(w):
            col = 2 * x + (y & 1) if stag else x
            grid[y][x] = ord(line[col]) if col < len(line) else ord(' ')
    px = py = None
    for y in range(h):
        for x in range(w):
            if grid[y][x] == ord('@'):
                px, py = x, y
    FLOOR, ROCK = ord('.'), ord('#')

    def wall_by_floor(cx, cy):
        for d in range(0, 400):
            for y in range(max(1, cy - d), min(h - 1, cy + d + 1)):
                for x in (cx - d, cx + d) if d else (cx,):
                    if 1 <= x < w - 1 and grid[y][x] == ROCK and FLOOR in (
                            grid[y][x - 1], grid[y][x + 1], grid[y - 1][x], grid[y + 1][x]):
                        return x, y
        return None

    def rock(x0, y0, x1, y1):
        if x0 < 1 or y0 < 1 or x1 >= w - 1 or y1 >= h - 1:
            return False
        return all(grid[y][x] == ROCK for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))

    def pocket_site(cx, cy):
        for d in range(0, 600):
            for y in range(max(4, cy - d), min(h - 4, cy + d + 1)):
                for x in (cx - d, cx + d) if d else (cx,):
                    if 1 <= x < w - 9 and grid[y][x] == FLOOR and rock(x + 1, y - 3, x + 7, y + 3):
                        return x, y
        return None

    def deep_rock(cx, cy, k=4):
        for d in range(0, 600, 3):
            for y in range(max(k + 1, cy - d), min(h - k - 1, cy + d + 1), 3):
                for x in (cx - d, cx + d) if d else (cx,):
                    if rock(x - k, y - k, x + k, y + k):
                        return x, y
        return None

    fx, fy = (px + w // 2) % w, (py + h // 2) % h
    mx, my = (px + w // 4) % w, (py + h // 4) % h
    clicks = []
    near = wall_by_floor(min(w - 2, px + 40), min(h - 2, py + 25))
    mid = wall_by_floor(mx, my)
    far = wall_by_floor(fx, fy)
    sites = [('pocket-mid', pocket_site(mx, my)), ('pocket', pocket_site(fx, fy))]
    deep = deep_rock(fx, fy)
    if near:
        clicks.append(('wall-near', near))
    if mid:
        clicks.append(('wall-mid', mid))
    if far:
        clicks.append(('wall-far', far))
    for name, site in sites:
        if site:
            sx, sy = site
            for y in range(sy - 1, sy + 2):
                for x in range(sx + 2, sx + 5):
                    grid[y][x] = FLOOR
            clicks.append((name, (sx + 3, sy)))
    if deep:
        clicks.append(('deep-rock', deep))
    with open(out, 'w') as f:
        f.write('\n'.join(head) + '\n')
        for y in range(h):
            if stag:
                line = bytearray(b' ' * (2 * w))
                for x in range(w):
                    line[2 * x + (y & 1)] = grid[y][x]
                f.write(line.decode().rstrip() + '\n')
            else:
                f.write(grid[y].decode() + '\n')
    for name, (x, y) in clicks:
        print(name, f'{px},{py}', f'{x},{y}')


main()
