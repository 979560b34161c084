#!/usr/bin/env python3
# Writes the fixtures of tests/test_bench.c (run from tests/bench/): a small
# Moving AI map, twelve scenarios whose optimal lengths come from the plain
# Dijkstra below (octile steps, no corner cutting; nothing of astray's),
# the same file with the fourth length one step wrong, and a file naming a
# map that is not there.  Seeded: running it again writes the same files.
import heapq, math, random
rows = [
"@@@@@@@@@@@@@@@@",
"@..............@",
"@..@@@.....@...@",
"@..@.......@...@",
"@..@..@@@..@...@",
"@.....@.@......@",
"@.....@.@..@@@.@",
"@..........@...@",
"@@@@..@@@@.@.@.@",
"@.....@....@.@.@",
"@@@@@@@@@@@@@@@@",
]
H=len(rows); W=len(rows[0])
ok=lambda x,y: 0<=x<W and 0<=y<H and rows[y][x]=='.'
def dij(sx,sy):
    d={(sx,sy):0.0}; pq=[(0.0,sx,sy)]
    while pq:
        c,x,y=heapq.heappop(pq)
        if c>d[(x,y)]: continue
        for dx in (-1,0,1):
            for dy in (-1,0,1):
                if not dx and not dy: continue
                nx,ny=x+dx,y+dy
                if not ok(nx,ny): continue
                if dx and dy and not (ok(x+dx,y) and ok(x,y+dy)): continue
                nc=c+(math.sqrt(2) if dx and dy else 1.0)
                if nc < d.get((nx,ny),1e18): d[(nx,ny)]=nc; heapq.heappush(pq,(nc,nx,ny))
    return d
random.seed(7)
cells=[(x,y) for y in range(H) for x in range(W) if ok(x,y)]
with open('open.map','w') as f:
    f.write("type octile\nheight %d\nwidth %d\nmap\n"%(H,W)); f.write("\n".join(rows)+"\n")
out=[]
while len(out)<12:
    s=random.choice(cells); g=random.choice(cells)
    d=dij(*s)
    if g not in d or s==g: continue
    out.append((s,g,d[g]))
with open('open.map.scen','w') as f:
    f.write("version 1\n")
    for i,(s,g,c) in enumerate(out):
        f.write("%d\topen.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n"%(int(c)//4,W,H,s[0],s[1],g[0],g[1],c))
# a copy with the fourth optimal length wrong by one step
with open('wrong.map.scen','w') as f:
    f.write("version 1\n")
    for i,(s,g,c) in enumerate(out):
        f.write("%d\topen.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n"%(int(c)//4,W,H,s[0],s[1],g[0],g[1],c+(1 if i==3 else 0)))
# a scenario file naming a map that is not there
with open('nomap.map.scen','w') as f:
    f.write("version 1\n0\tabsent.map\t%d\t%d\t1\t1\t2\t1\t1.00000000\n"%(W,H))
print(out)
