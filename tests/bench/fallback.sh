#!/bin/sh
# The fallback on 4096x4096 levels, with the region labels (as `astray path
# --fallback` answers now) and without them (--no-regions: the layered
# search that settles the start's whole region first, the code before the
# labels), interleaved click by click, in CPU time (and wall beside it).
#
#   tests/bench/fallback.sh [ROUNDS]        (make bench-fallback)
#
# For each topology (TOPOS, default "square8 hex diamond8") and style
# (STYLES, default "caves rooms") it generates a 4096x4096 level once
# (build/bench-fallback/, gen --seed 7; SIZE=WxH for smaller), carves a
# sealed pocket next to a floor far from the player, and clicks from the
# player (fallback_targets.py): a wall by the floor near the player and
# far from it, the pocket, and a wall deep in rock.  Prints per click the
# median over ROUNDS (default 3) of the search's CPU ms, new and old, and
# the CPU ms of labelling the regions (once per level, not per click).
# ASTRAY=path/to/astray picks the program (default build/astray).
# With OLD=path/to/another/astray, each level is also played headless for
# the game's clicks and cursor previews (`play --bench-preview`, PREVIEWS,
# default 400: known walls near the player, far unseen cells, the border),
# the two programs interleaved ROUNDS times: mean, p95 and worst CPU us a
# plan, and the level's creation (which makes the labels of known[]).
set -eu
rounds=${1:-3}
astray=${ASTRAY:-build/astray}
size=${SIZE:-4096x4096}
dir=build/bench-fallback
here=$(dirname "$0")
mkdir -p "$dir"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# one run: prints "search_cpu search_wall regions_cpu" and the figures line
run() {
	"$astray" path "$1" "$2" "$3" --fallback --time $4 2>"$dir/err" >"$dir/out"
	sed -n 's/^time: regions \([0-9.]*\) ms cpu ([0-9.]* wall), search \([0-9.]*\) ms cpu (\([0-9.]*\) wall)$/\2 \3 \1/p' "$dir/err"
}
printf '%-9s %-6s %-10s %10s %10s %8s %10s %9s %s\n' topology style click new_cpu old_cpu ratio new_wall labels expanded_new/old
for topo in ${TOPOS:-square8 hex diamond8}; do
	for style in ${STYLES:-caves rooms}; do
		lvl=$dir/$topo-$style-$size.lvl
		[ -s "$lvl" ] || "$astray" gen --topology "$topo" --seed 7 --size "$size" --style "$style" -o "$lvl"
		[ -s "$lvl.clicks" ] || python3 "$here/fallback_targets.py" "$lvl" "$lvl.p.lvl" >"$lvl.clicks"
		while read -r name from to; do
			: >"$dir/new" && : >"$dir/old"
			i=0
			while [ "$i" -lt "$rounds" ]; do
				run "$lvl.p.lvl" "$from" "$to" "" >>"$dir/new"
				en=$(sed -n 's/.*expanded=\([0-9]*\).*/\1/p' "$dir/out"); fn=$(tail -n 1 "$dir/out" | sed "s/ expanded=[0-9]*//")
				run "$lvl.p.lvl" "$from" "$to" --no-regions >>"$dir/old"
				eo=$(sed -n 's/.*expanded=\([0-9]*\).*/\1/p' "$dir/out"); fo=$(tail -n 1 "$dir/out" | sed "s/ expanded=[0-9]*//")
				if [ "$fn" != "$fo" ]; then
					echo "fallback.sh: $topo $style $name: the answers differ: $fn / $fo" >&2
					exit 1
				fi
				i=$((i + 1))
			done
			n=$(cut -d' ' -f1 "$dir/new" | median); o=$(cut -d' ' -f1 "$dir/old" | median)
			nw=$(cut -d' ' -f2 "$dir/new" | median); lab=$(cut -d' ' -f3 "$dir/new" | median)
			printf '%-9s %-6s %-10s %10s %10s %8s %10s %9s %s\n' "$topo" "$style" "$name" "$n" "$o" \
				"$(awk -v a="$o" -v b="$n" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')" "$nw" "$lab" "$en/$eo"
		done <"$lvl.clicks"
		if [ -n "${OLD:-}" ]; then
			i=0
			while [ "$i" -lt "$rounds" ]; do
				for prog in "$astray" "$OLD"; do
					printf '%-9s %-6s %-10s %s: ' "$topo" "$style" game "$prog"
					"$prog" play "$lvl.p.lvl" --seed 1 --bench-preview "${PREVIEWS:-400}" |
						sed 's/.*cpu_us_mean=\([0-9.]*\).*cpu_us_p95=\([0-9.]*\) cpu_us_max=\([0-9.]*\).*game_create_ms=\([0-9.]*\).*/mean \1 p95 \2 max \3 create_ms \4/'
				done
				i=$((i + 1))
			done
		fi
	done
done
