#!/usr/bin/env bash
# readme-figures.sh SRC: every pair of tests/docs/readme-figures.txt holds:
# its bench/README.md phrase is in bench/README.md and its README phrase in
# README.md's "How good is it" section, white space runs compared as one.
set -u
src=$1
squeeze() { tr '\n\t' '  ' | tr -s ' '; }
bench=$(squeeze <"$src/bench/README.md")
section=$(sed -n '/^## How good is it/,/^## /p' "$src/README.md" | squeeze)
[ -n "$section" ] || { echo "FAIL: README.md has no 'How good is it' section"; exit 1; }
failed=0 pairs=0
while IFS=$'\t' read -r from_bench in_readme; do
  [[ -z $from_bench || $from_bench == '#'* ]] && continue
  pairs=$((pairs + 1))
  [[ $bench == *"$from_bench"* ]] || { echo "FAIL: bench/README.md no longer says: $from_bench"; failed=1; }
  [[ $section == *"$in_readme"* ]] || { echo "FAIL: README.md's How good is it does not say: $in_readme"; failed=1; }
done <"$src/tests/docs/readme-figures.txt"
[ $failed = 0 ] && echo "ok: $pairs figures of README.md match bench/README.md"
exit $failed
