#!/usr/bin/env bash
# Runs one coverage-guided fuzz target (or all of them) for a time budget:
#   scripts/fuzz.sh TARGET SECONDS [RUNS]  e.g. scripts/fuzz.sh rg_parse 60
#   scripts/fuzz.sh all SECONDS [RUNS]     every target, SECONDS each, one
#                                           per core at a time
# RUNS, if given, also stops a run after that many executions (the issue's
# goal is 10^6 executions or one hour: scripts/fuzz.sh TARGET 3600 1000000).
#   scripts/fuzz.sh list               the targets
# Needs the nightly toolchain; installs cargo-fuzz if it is missing. Each
# target's corpus (fuzz/corpus/TARGET, gitignored) is seeded from the shared
# corpus ($RGW_CORPUS, default ../shared/corpus), the project's corpus/ and
# fuzz/seeds/TARGET. Crashes land in fuzz/artifacts/TARGET; the run's log in
# fuzz/logs/TARGET.log. Prints one line per target: executions, time,
# coverage (libFuzzer's cov and ft) and the crashes found. Exits 1 if any
# target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

TARGETS=(rg_parse rg_check rbg_ll_parse rbg_hl_preprocess kif_prefix kif_infix hrg_parse
    rbgd_parse translate_rbg translate_gdl translate_hrg translate_rbgd translate_replay rg_opt)

usage() {
    echo "usage: scripts/fuzz.sh TARGET|all SECONDS [RUNS]  (targets: ${TARGETS[*]})" >&2
    exit 2
}

[ "${1:-}" = list ] && { printf '%s\n' "${TARGETS[@]}"; exit 0; }
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
target=$1
seconds=$2
runs=${3:--1}
[[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || usage
[[ $runs =~ ^(-1|[0-9]+)$ ]] || usage
if [ "$target" != all ] && [[ ! " ${TARGETS[*]} " =~ " $target " ]]; then
    echo "unknown target $target" >&2
    usage
fi

shared=${RGW_CORPUS:-$root/../shared/corpus}
[ -d "$shared" ] || echo "note: no shared corpus at $shared; seeding from the project only" >&2

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

# The build flags every run uses: no sanitizer (the code is safe Rust;
# without ASan a run executes several times more inputs), debug assertions
# and overflow checks on (cargo-fuzz's default).
BUILD=(-s none --codegen-units 4)

# The seed folders of a target.
seeds() {
    case $1 in
        rg_parse | rg_check) echo "$shared/rg corpus/rg" ;;
        rbg_ll_parse) echo "$shared/rbg-ll" ;;
        rbg_hl_preprocess) echo "$shared/rbg corpus/rbg" ;;
        translate_rbg) echo "$shared/rbg $shared/rbg-ll corpus/rbg" ;;
        kif_prefix | translate_gdl) echo "$shared/kif corpus/kif fuzz/seeds/kif_infix" ;;
        kif_infix) echo "fuzz/seeds/kif_infix" ;;
        hrg_parse | translate_hrg) echo "$shared/hrg corpus/hrg" ;;
        rbgd_parse | translate_rbgd) echo "corpus/rbg-draft" ;;
        translate_replay) echo "corpus/replay" ;;
        rg_opt) echo "" ;;
    esac
}

# Longest input libFuzzer generates, and longest seed copied (the targets
# skip inputs longer than 64 KB, the translation targets longer than 16 KB;
# 16 KB keeps a run at hundreds of executions per second and still admits
# most corpus games).
max_len() {
    case $1 in
        rg_opt) echo 4096 ;;
        *) echo 16384 ;;
    esac
}

# The crashes, out-of-memory kills and timeouts found so far (libFuzzer also
# writes slow-unit-* files for inputs that took over 10 s once, which on a
# shared machine can be contention: they are kept but do not fail the run).
crashes() {
    find "fuzz/artifacts/$1" -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' \
        -o -name 'leak-*' \) | wc -l
}

# Brief runs (60 s or less, e.g. CI's) start from the 40 smallest seeds in a
# scratch corpus: libFuzzer first runs every input of its corpus whatever
# the time budget, and the accumulated corpus of a translation target takes
# minutes. Longer runs use and grow fuzz/corpus/TARGET.
run() {
    local t=$1 corpus=fuzz/corpus/$1 log=fuzz/logs/$1.log brief=0
    if [ "$seconds" -le 60 ]; then
        brief=1
        corpus=fuzz/corpus/brief-$1
        rm -rf "$corpus"
    fi
    mkdir -p "$corpus" fuzz/logs "fuzz/artifacts/$t"
    for dir in $(seeds "$t") fuzz/seeds/$t; do
        [ -d "$dir" ] || continue
        find "$dir" -maxdepth 1 -type f ! -name '*.tsv' ! -name '*.md' -size -"$(max_len "$t")"c \
            -exec cp -n {} "$corpus"/ \;
    done
    if [ "$brief" = 1 ]; then
        find "$corpus" -type f -printf '%s %p\n' | sort -n | tail -n +41 | cut -d' ' -f2- |
            xargs -r rm -f
    fi
    local before
    before=$(crashes "$t")
    local status=0 started=$SECONDS
    (cd fuzz && cargo +nightly fuzz run "${BUILD[@]}" "$t" "${corpus#fuzz/}" -- \
        -max_total_time="$seconds" -runs="$runs" -rss_limit_mb=2048 -timeout=60 \
        -max_len="$(max_len "$t")" -print_final_stats=1) >"$log" 2>&1 || status=$?
    local after execs cov ft took=$((SECONDS - started))
    after=$(crashes "$t")
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    printf '%-18s %10s execs in %5ss  cov %6s  ft %6s  new crashes %s\n' \
        "$t" "${execs:-?}" "$took" "${cov:-?}" "${ft:-?}" "$((after - before))"
    if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
        echo "  $t failed (exit $status); see $log and fuzz/artifacts/$t" >&2
        grep -m3 -E "panicked|ERROR|SUMMARY" "$log" >&2 || tail -5 "$log" >&2
        return 1
    fi
}

# Build every target once up front, so that the time budgets are spent
# fuzzing.
(cd fuzz && cargo +nightly fuzz build "${BUILD[@]}")

failed=0
if [ "$target" = all ]; then
    # One target per core at a time (libFuzzer runs on one thread):
    # RGW_FUZZ_JOBS overrides.
    at_once=${RGW_FUZZ_JOBS:-$(nproc)}
    failures=$(mktemp)
    for t in "${TARGETS[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n || true; done
        { run "$t" || echo "$t" >>"$failures"; } &
    done
    wait
    [ -s "$failures" ] && failed=1
    rm -f "$failures"
else
    run "$target" || failed=1
fi
exit $failed
