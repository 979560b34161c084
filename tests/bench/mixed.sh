#!/bin/sh
# mixed.sh - the mixed-monster benchmark of issue 27 (docs/ai.md, "Cost"):
# N monsters (default 1000), an equal share of every kind of the bestiary,
# on the 512x512 Moving AI map random512-10-0, with --chase and without it,
# damage 0 for every kind so the games last.  For each build given (run
# interleaved, A then B, ROUNDS times, so machine load hits both alike) it
# prints one CSV line per run: the monsters' milliseconds per game turn,
# wall (time_ai_ms_mean) and CPU (time_ai_cpu_ms_mean, and its p95
# time_ai_cpu_ms_p95: empty for a build without those columns).
#   build,chase,round,ai_ms_mean,ai_cpu_ms_mean,ai_cpu_ms_p95
# usage: tests/bench/mixed.sh BIN_A [BIN_B] (from the repository root)
# env: ROUNDS (2), TURNS (100), GAMES (2), N (1000), PLAYER (exit),
#      GLYPHS (only these kinds, e.g. "mU" for the diggers), SIM_ARGS (more
#      options for sim, e.g. "--set mole.dig=0"),
#      BESTIARY (levels/bestiary.txt), ASTRAY_MAPS (../shared/maps/movingai)
set -eu
a=$1 b=${2:-}
rounds=${ROUNDS:-2} turns=${TURNS:-100} games=${GAMES:-2} n=${N:-1000} player=${PLAYER:-exit}
bestiary=${BESTIARY:-levels/bestiary.txt}
map=${ASTRAY_MAPS:-../shared/maps/movingai}/random512-10-0.map
mkdir -p build
lvl=build/bench-mixed-$n${GLYPHS:+-$GLYPHS}.lvl
python3 tests/bench/mixed.py "$map" "$bestiary" "$n" "$lvl" ${GLYPHS:+"$GLYPHS"}
sets=
for k in $(sed -n 's/^kind:[[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' "$bestiary"); do
	sets="$sets --set $k.damage=0"
done
echo "build,chase,round,ai_ms_mean,ai_cpu_ms_mean,ai_cpu_ms_p95"
r=1
while [ "$r" -le "$rounds" ]; do
	for chase in no yes; do
		for bin in $a $b; do
			flag=
			[ "$chase" = yes ] && flag=--chase
			# shellcheck disable=SC2086
			"$bin" sim "$lvl" --bestiary "$bestiary" --games "$games" --turns "$turns" --player "$player" \
				$flag $sets ${SIM_ARGS:-} --format csv |
				awk -F, -v b="$bin" -v c="$chase" -v r="$r" '
					$2 == "time_ai_ms_mean" { mean = $4 }
					$2 == "time_ai_cpu_ms_mean" { cpu = $4 }
					$2 == "time_ai_cpu_ms_p95" { p95 = $4 }
					END { printf "%s,%s,%s,%.4f,%s,%s\n", b, c, r, mean, cpu, p95 }'
		done
	done
	r=$((r + 1))
done
