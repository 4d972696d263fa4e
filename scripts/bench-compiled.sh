#!/usr/bin/env bash
# The compiled reasoner against the RG engine as built at commit e43e655
# (issue #19's baseline), on the issue's seven games, one thread, rounds
# interleaved so both see the same load: medians of 5 perft rounds and 3
# playout rounds, as a Markdown table on stdout.
#   scripts/bench-compiled.sh [BASE_RGW]
# BASE_RGW: an rgw binary built at e43e655; by default it is built once in
# a git worktree under target/base-e43e655. The games are read from
# $RGW_CORPUS/rbg-ll (default ../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=${RGW_CORPUS:-$root/../shared/corpus}/rbg-ll
base=${1:-}
if [ -z "$base" ]; then
    tree=$root/target/base-e43e655
    if [ ! -x "$tree/target/release/rgw" ]; then
        [ -d "$tree" ] || git worktree add --detach "$tree" e43e655 >&2
        (cd "$tree" && cargo build --release -q) >&2
    fi
    base=$tree/target/release/rgw
fi
cargo build --release -q
rgw=$root/target/release/rgw
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# game:perft depth:playouts per round
GAMES=(breakthrough:5:2000 chess:4:40 connect4:8:20000 englishDraughts:8:2000
    reversi:8:500 amazons:2:100 hex_9x9:4:1000)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
json() { grep -o "\"$1\":[0-9.e+-]*" | tail -1 | cut -d: -f2; }

echo "| game (perft depth) | engine e43e655 perft s | compiled perft s | perft ratio | engine playouts/s | compiled playouts/s | playout ratio | generate+build s |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|"
for entry in "${GAMES[@]}"; do
    IFS=: read -r game depth playouts <<<"$entry"
    file=$corpus/$game.rbg
    start=$(date +%s.%N)
    "$rgw" compile "$file" -o "$work/$game" --build >/dev/null 2>&1
    build=$(awk "BEGIN {print $(date +%s.%N) - $start}")
    bin=$(ls "$work/$game"/target/release/rgc_* | grep -v '\.d$' | head -1)
    : >"$work/ep"; : >"$work/cp"; : >"$work/eo"; : >"$work/co"
    for _ in 1 2 3 4 5; do
        "$base" perft "$file" "$depth" --via rg --optimize --threads 1 --json |
            grep -o '"seconds":\[[^]]*\]' | tr -d '[]"' | tr ',' '\n' | tail -1 >>"$work/ep"
        "$bin" perft "$depth" --first-keeper-walk | tail -1 | json seconds >>"$work/cp"
    done
    for seed in 1 2 3; do
        "$base" play "$file" --via rg --optimize --playouts "$playouts" --seed "$seed" --json |
            json playouts_per_second >>"$work/eo"
        s=$("$bin" playouts "$playouts" "$seed" --first-keeper-walk | json seconds)
        awk "BEGIN {print $playouts / $s}" >>"$work/co"
    done
    ep=$(median <"$work/ep"); cp=$(median <"$work/cp")
    eo=$(median <"$work/eo"); co=$(median <"$work/co")
    printf '| %s (%s) | %.3f | %.4f | %.1f× | %.0f | %.0f | %.1f× | %.1f |\n' \
        "$game" "$depth" "$ep" "$cp" "$(awk "BEGIN {print $ep / $cp}")" \
        "$eo" "$co" "$(awk "BEGIN {print $co / $eo}")" "$build"
done
