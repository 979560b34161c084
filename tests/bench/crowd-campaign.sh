#!/bin/sh
# crowd-campaign.sh - 100 chasers on every campaign level (issue 29's
# target: under 0.2 ms of AI CPU a turn).  `--monsters` places monsters on
# Moving AI maps only, so this writes a copy of each levels/*.lvl with
# goblins added on every k-th floor cell ('.') of its map until it holds N
# more monsters (its own stay), then plays them with `astray sim --chase`
# (every monster hunts) and prints one CSV line per level and build:
#   build,level,monsters_added,cpu_ms_mean,cpu_ms_p95
# For two builds, A then B on each level (interleaved, so load hits both).
# usage: tests/bench/crowd-campaign.sh BIN_A [BIN_B] [N] [GAMES] [TURNS] [PLAYER]
#   (from the repository root; defaults N 100, 3 games of 100 turns, exit)
set -eu
a=$1 b=${2:-} n=${3:-100} games=${4:-3} turns=${5:-100} player=${6:-exit}
dir=$(mktemp -d "${TMPDIR:-/tmp}/crowd-campaign.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cp levels/bestiary.txt levels/items.txt "$dir/"
echo "build,level,monsters_added,cpu_ms_mean,cpu_ms_p95"
for lvl in levels/[0-9]*.lvl; do
	out="$dir/$(basename "$lvl")"
	awk -v n="$n" '
		{ line[NR] = $0 }
		/^map:/ { m = NR }
		END {
			floor = 0
			for (i = m + 1; i <= NR; i++) floor += gsub(/\./, ".", line[i])
			k = int(floor / n); if (k < 1) k = 1
			seen = 0; added = 0
			for (i = 1; i <= NR; i++) {
				s = line[i]
				if (i > m) {
					t = ""
					for (j = 1; j <= length(s); j++) {
						ch = substr(s, j, 1)
						if (ch == ".") { if (seen % k == k - 1 && added < n) { ch = "g"; added++ } seen++ }
						t = t ch
					}
					s = t
				}
				print s
			}
			print added > "/dev/stderr"
		}' "$lvl" > "$out" 2> "$out.added"
	for bin in $a $b; do
		"$bin" sim "$out" --games "$games" --turns "$turns" --player "$player" --chase --set goblin.damage=0 \
			--format csv |
			awk -F, -v b="$bin" -v l="$(basename "$lvl" .lvl)" -v k="$(cat "$out.added")" '
				$2 == "time_ai_cpu_ms_mean" { mean = $4 }
				$2 == "time_ai_cpu_ms_p95" { p95 = $4 }
				END { printf "%s,%s,%s,%.4f,%.4f\n", b, l, k, mean, p95 }'
	done
done
