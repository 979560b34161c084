#!/bin/sh
# crowd-rules.sh - `make bench-crowd`: the crowd rules side by side (docs/ai.md,
# "Crowds: priority passing").  Every suite is played under rules.crowd=detour
# (A, rules version 4) and rules.crowd=pass (B) on the same seeds by one
# `astray sim --compare`, which pairs the games; prints one CSV line per suite,
# player and metric:
#   suite,player,monsters,metric,a,b,diff,ci_lo,ci_hi,verdict
# verdict: "B higher" / "A higher" when the paired 95% interval excludes 0,
# "same" otherwise.  Metrics: the behaviour metrics of docs/sim.md (blocked
# waits, oscillations, stuck actions, longest jam), goblin contacts, searches,
# and the AI's CPU milliseconds per turn (mean and p95).
# Suites: tests/bench/crowd/*.lvl (their own goblins), the Moving AI
# 512x512 maps with N chasers, and den520d (256x257, a map of the Moving AI
# multi-agent (MAPF) benchmark set, movingai.com/benchmarks/mapf; the
# monsters are placed from each game's seed, not from its MAPF scenarios)
# with N chasers.
# With A and B, those two settings are compared instead (each a --compare
# side, e.g. 'goblin.congestion=0' 'goblin.congestion=100': the
# congestion knob, docs/ai.md "Crowds", step 4).
# usage: tests/bench/crowd-rules.sh [BIN] [GAMES] [TURNS] [N] [A B]
#   (from the repository root; defaults build/astray 6 80 1000
#    rules.crowd=detour rules.crowd=pass;
#    ASTRAY_MAPS: the Moving AI maps, default ../shared/maps/movingai)
set -eu
bin=${1:-build/astray} games=${2:-6} turns=${3:-80} n=${4:-1000}
side_a=${5:-rules.crowd=detour} side_b=${6:-rules.crowd=pass}
maps=${ASTRAY_MAPS:-../shared/maps/movingai}
metrics='^(blocked_waits|oscillations|stuck|longest_jam|goblin\.contacts|searches|time_ai_cpu_ms_mean|time_ai_cpu_ms_p95)$'
echo "suite,player,monsters,metric,a,b,diff,ci_lo,ci_hi,verdict"
run() { # suite player monsters sim-args...
	suite=$1 player=$2 mons=$3
	shift 3
	"$bin" sim "$@" --games "$games" --turns "$turns" --player "$player" --chase --set goblin.damage=0 \
		--compare "$side_a" "$side_b" --format csv |
		awk -F, -v s="$suite" -v p="$player" -v m="$mons" -v re="$metrics" '
			NR > 1 && $2 ~ re {
				v = $10 == 1 ? ($11 == "B" ? "B higher" : "A higher") : "same"
				printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, p, m, $2, $4, $5, $6, $8, $9, v
			}'
}
for player in idle exit flee; do
	for lvl in tests/bench/crowd/*.lvl; do
		run "$(basename "$lvl" .lvl)" "$player" level "$lvl"
	done
	for map in 8room_000 random512-10-0 den520d; do
		[ -f "$maps/$map.map" ] || continue
		run "$map" "$player" "$n" "$maps/$map.map" --monsters "$n:goblin"
	done
done
