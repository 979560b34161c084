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
# (build/bench-fallback/, gen --seed 7; SIZE=WxH for smaller), carves two
# sealed pockets next to a floor a quarter and half of the map from the
# player, and clicks from the player (fallback_targets.py): a wall by the
# floor near the player, a quarter of the map away and half of it away,
# the pockets, and a wall deep in rock.  Prints per click the median over
# ROUNDS (default 3) of the search's CPU ms: new (the process's first
# search: its memory's first touches in it), warm (the same search again at
# once, as in a game, whose contexts live with the level), layered
# (--no-regions; NOREG=0 leaves it out), and the CPU ms of labelling the
# regions (once per level, not per click).
# ASTRAY=path/to/astray picks the program (default build/astray).
# With MAIN=path/to/another/astray (the code before a change), each click
# is also run by it, interleaved: its first search's CPU ms (main) and
# main / new; both must give the same route figures.
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
# one run: prints "search_cpu search_wall regions_cpu again_cpu" (again: 0
# from a program that does not print it) and leaves the figures in $dir/out
run() {
	"$1" path "$2" "$3" "$4" --fallback --time $5 2>"$dir/err" >"$dir/out"
	sed -n 's/^time: regions \([0-9.]*\) ms cpu ([0-9.]* wall), search \([0-9.]*\) ms cpu (\([0-9.]*\) wall)\(, again \([0-9.]*\) ms cpu.*\)*$/\2 \3 \1 \5/p' "$dir/err" |
		awk '{ print $1, $2, $3, ($4 == "" ? 0 : $4) }'
}
figures() { tail -n 1 "$dir/out" | sed "s/ expanded=[0-9]*//"; }
expanded() { sed -n 's/.*expanded=\([0-9]*\).*/\1/p' "$dir/out"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'; }
printf '%-9s %-6s %-10s %9s %9s %10s %8s %9s %8s %9s %s\n' topology style click new_cpu warm_cpu layered_cpu ratio \
	main_cpu main/new labels expanded_new/layered
for topo in ${TOPOS:-square8 hex diamond8}; do
	for style in ${STYLES:-caves rooms}; do
		lvl=$dir/$topo-$style-$size.lvl
		[ -s "$lvl" ] || "$astray" gen --topology "$topo" --seed 7 --size "$size" --style "$style" -o "$lvl"
		[ -s "$lvl.clicks" ] || python3 "$here/fallback_targets.py" "$lvl" "$lvl.p.lvl" >"$lvl.clicks"
		while read -r name from to; do
			: >"$dir/new" && : >"$dir/old" && : >"$dir/main"
			en=0 eo=-
			i=0
			while [ "$i" -lt "$rounds" ]; do
				run "$astray" "$lvl.p.lvl" "$from" "$to" "" >>"$dir/new"
				en=$(expanded); fn=$(figures)
				if [ "${NOREG:-1}" != 0 ]; then
					run "$astray" "$lvl.p.lvl" "$from" "$to" --no-regions >>"$dir/old"
					eo=$(expanded); fo=$(figures)
					if [ "$fn" != "$fo" ]; then
						echo "fallback.sh: $topo $style $name: the answers differ: $fn / $fo" >&2
						exit 1
					fi
				fi
				if [ -n "${MAIN:-}" ]; then
					run "$MAIN" "$lvl.p.lvl" "$from" "$to" "" >>"$dir/main"
					fm=$(figures)
					if [ "$fn" != "$fm" ]; then
						echo "fallback.sh: $topo $style $name: main's answer differs: $fn / $fm" >&2
						exit 1
					fi
				fi
				i=$((i + 1))
			done
			n=$(cut -d' ' -f1 "$dir/new" | median); nw=$(cut -d' ' -f4 "$dir/new" | median)
			lab=$(cut -d' ' -f3 "$dir/new" | median)
			o=-; r=-; m=-; rm=-
			[ -s "$dir/old" ] && o=$(cut -d' ' -f1 "$dir/old" | median) && r=$(ratio "$o" "$n")
			[ -s "$dir/main" ] && m=$(cut -d' ' -f1 "$dir/main" | median) && rm=$(ratio "$m" "$n")
			printf '%-9s %-6s %-10s %9s %9s %10s %8s %9s %8s %9s %s\n' "$topo" "$style" "$name" "$n" "$nw" "$o" "$r" \
				"$m" "$rm" "$lab" "$en/$eo"
		done <"$lvl.clicks"
		if [ -n "${OLD:-}" ]; then
			i=0
			while [ "$i" -lt "$rounds" ]; do
				for prog in "$astray" "$OLD"; do
					printf '%-9s %-6s %-10s %s: ' "$topo" "$style" game "$prog"
					"$prog" play "$lvl.p.lvl" --seed 1 --bench-preview "${PREVIEWS:-400}" | grep "^bench-preview:" |
						sed 's/.*cpu_us_mean=\([0-9.]*\).*cpu_us_p95=\([0-9.]*\) cpu_us_max=\([0-9.]*\).*game_create_ms=\([0-9.]*\).*/mean \1 p95 \2 max \3 create_ms \4/'
				done
				i=$((i + 1))
			done
		fi
	done
done
