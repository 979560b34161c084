#!/bin/sh
# crowd.sh - the crowd benchmark of docs/sim.md ("Scale"): AI milliseconds
# per turn (time_ai_ms_mean and time_ai_ms_p95, per game, averaged over the
# games) of N chasers on 512x512 Moving AI maps, for two builds run
# interleaved (A then B for every configuration, ROUNDS times), so machine
# load hits both alike.  Prints one CSV line per run:
#   build,map,player,monsters,round,ai_ms_mean,ai_ms_p95,cpu_ms_mean,cpu_ms_p95
# (the CPU columns, time_ai_cpu_ms_mean and _p95, are empty for a build
# that lacks them; on a shared machine they are the figures to read).
# usage: tests/bench/crowd.sh BIN_A BIN_B [ROUNDS] [SIZES] [TURNS]
# (run from the repository root; SIZES like "100 1000 10000").
set -eu
a=$1 b=$2 rounds=${3:-2} sizes=${4:-"100 1000 10000"} turns=${5:-50}
maps=${ASTRAY_MAPS:-../shared/maps/movingai}
echo "build,map,player,monsters,round,ai_ms_mean,ai_ms_p95,cpu_ms_mean,cpu_ms_p95"
for n in $sizes; do
	for map in random512-10-0 8room_000; do
		for player in idle exit flee; do
			r=1
			while [ "$r" -le "$rounds" ]; do
				for bin in "$a" "$b"; do
					"$bin" sim "$maps/$map.map" --monsters "$n:goblin" --games 2 --turns "$turns" \
						--player "$player" --chase --set goblin.damage=0 --format csv |
						awk -F, -v b="$bin" -v m="$map" -v p="$player" -v n="$n" -v r="$r" '
							$2 == "time_ai_ms_mean" { mean = $4 }
							$2 == "time_ai_ms_p95" { p95 = $4 }
							$2 == "time_ai_cpu_ms_mean" { cmean = $4 }
							$2 == "time_ai_cpu_ms_p95" { cp95 = $4 }
							END { printf "%s,%s,%s,%s,%s,%.4f,%.4f,%s,%s\n", b, m, p, n, r, mean, p95, cmean, cp95 }'
				done
				r=$((r + 1))
			done
		done
	done
done
