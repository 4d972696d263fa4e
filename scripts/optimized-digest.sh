#!/usr/bin/env bash
# Prints one line per game of the corpora: a digest of its plain RG
# translation and of its optimized translation (`rgw translate --optimize`),
# or the first line of the error. Run it before and after a refactoring that
# must not change behaviour and diff the two outputs:
#
#   scripts/optimized-digest.sh > /tmp/before.txt   # on the old commit
#   scripts/optimized-digest.sh > /tmp/after.txt    # on the new one
#   diff /tmp/before.txt /tmp/after.txt
#
# RGW (default target/release/rgw) and RGW_CORPUS (default ../shared/corpus)
# can be set; the project's own corpus/ is always included.
set -uo pipefail
cd "$(dirname "$0")/.."
rgw="${RGW:-target/release/rgw}"
shared="${RGW_CORPUS:-../shared/corpus}"
[ -x "$rgw" ] || { echo "no rgw binary at $rgw (cargo build --release first)" >&2; exit 2; }
for file in $(find corpus "$shared" -type f \( -name '*.rg' -o -name '*.rbg' -o -name '*.kif' -o -name '*.gdl' -o -name '*.hrg' \) | sort); do
  for mode in plain optimized; do
    flag=""; [ "$mode" = optimized ] && flag="--optimize"
    if out=$("$rgw" translate "$file" $flag 2>&1); then
      digest=$(printf '%s' "$out" | sha256sum | cut -c1-16)
    else
      digest="error: $(printf '%s' "$out" | head -n 1)"
    fi
    printf '%s\t%s\t%s\n' "$file" "$mode" "$digest"
  done
done
