#!/usr/bin/env bash
# Compiled reasoner against the RG engine on every game of some folders:
#   scripts/sweep-compiled.sh OUT.tsv [DEPTH] [SECONDS] DIR...
# e.g. scripts/sweep-compiled.sh /tmp/sweep.tsv 3 30 ../shared/corpus/rbg-ll
# For each game, runs `rgw perft FILE DEPTH --threads 1 --json` with
# `--via compiled` and with `--via rg --optimize` (the same optimized RG),
# each with a time limit of SECONDS (default 30), and writes one line per
# game: file, verdict, the depths both completed, the two count lists, the
# generate+build seconds, and why a side stopped early (time limit or an
# error of the game). A stopped run still reports the depths it completed,
# and those are compared. Verdicts: agree (both completed every depth),
# agree-partial (a side stopped; every depth both completed agrees),
# DIFFER, engine-error / compiled-error (one side failed before reporting
# counts, with its message), both-error (both failed so), too-large
# (refused by the compile size limit). Exits 1 if any game differs.
# Environment: RGW, an rgw binary to use (default: build this checkout).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 OUT.tsv [DEPTH] [SECONDS] DIR..." >&2; exit 2; }
out=$1
shift
depth=3
seconds=30
[[ ${1:-} =~ ^[0-9]+$ ]] && { depth=$1; shift; }
[[ ${1:-} =~ ^[0-9]+$ ]] && { seconds=$1; shift; }
# RGW: an rgw binary to use instead of building this checkout's (a sweep
# takes long; a copy keeps it from changing under a running sweep).
if [ -n "${RGW:-}" ]; then
    rgw=$RGW
else
    cargo build --release -q
    rgw=target/release/rgw
fi
printf 'file\tverdict\tdepths\tcompiled\tengine\tbuild_s\tstopped\n' >"$out"
differ=0
for dir in "$@"; do
    for file in "$dir"/*; do
        case $file in *.rg | *.rbg | *.hrg | *.kif | *.gdl) ;; *) continue ;; esac
        c=$($rgw perft "$file" "$depth" --via compiled --threads 1 --json --time-limit "$seconds" 2>&1)
        cstatus=$?
        e=$($rgw perft "$file" "$depth" --via rg --optimize --threads 1 --json --time-limit "$seconds" 2>&1)
        estatus=$?
        verdict=$(python3 - "$c" "$cstatus" "$e" "$estatus" <<'EOF'
import json, sys
c, cs, e, es = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def parse(text):
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('{'):
            try:
                return json.loads(line)
            except ValueError:
                pass
    return None
cj, ej = parse(c), parse(e)
last = lambda t: t.strip().splitlines()[-1] if t.strip() else ''
build = ''
if cj and 'compile_seconds' in cj:
    build = '%.1f' % cj['compile_seconds']
# A run stopped by its time limit or by an error of the game still reports
# the depths it completed: those are compared.
counted = lambda j: j is not None and 'perft' in j
if not counted(cj):
    if 'too large to compile' in c:
        print('too-large\t\t\t\t' + build + '\t')
    elif not counted(ej):
        print('both-error\t\t%s\t%s\t%s\t' % (last(c), last(e), build))
    else:
        print('compiled-error\t\t%s\t\t%s\t' % (last(c), build))
    sys.exit()
if not counted(ej):
    print('engine-error\t\t\t%s\t%s\t' % (last(e), build))
    sys.exit()
cp, ep = cj['perft'], ej['perft']
n = min(len(cp), len(ep))
stops = '; '.join('%s: %s' % (side, j['stopped'])
                  for side, j in (('compiled', cj), ('engine', ej)) if j.get('stopped'))
if cp[:n] != ep[:n]:
    verdict = 'DIFFER'
elif stops:
    verdict = 'agree-partial'
else:
    verdict = 'agree'
print('%s\t%d\t%s\t%s\t%s\t%s' % (verdict, n - 1,
      ' '.join(map(str, cp)), ' '.join(map(str, ep)), build, stops))
EOF
)
        printf '%s\t%s\n' "$file" "$verdict" >>"$out"
        printf '%s\t%s\n' "$(basename "$file")" "${verdict%%	*}"
        case $verdict in DIFFER*) differ=1 ;; esac
    done
done
exit $differ
