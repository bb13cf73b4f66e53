#!/usr/bin/env bash
# run-examples.sh PAGE: runs each command of PAGE's EXAMPLES section, in
# order, in one directory prepared by example-data.sh. A command fails the
# test when it exits non-zero (141, a reader such as head going away, is
# fine). A command that needs a program that is not installed (nsys, jq),
# or data example-data.sh lists in ./unavailable, is skipped with a note;
# example-data.sh provides what a skipped command would have made.
set -u
here=$(cd "$(dirname "$0")" && pwd)
page=$1
export PATH="${SASSKIT_BIN:?}:$PATH" SRC="${SASSKIT_SRC:?}"
mapfile -t commands < <(awk -f "$here/examples.awk" "$page")
[ ${#commands[@]} -gt 0 ] || { echo "$(basename "$page"): no EXAMPLES"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export HOME=$work
bash "$here/example-data.sh" >/dev/null || { echo "example-data.sh failed"; exit 1; }
touch unavailable  # words (data folders) example-data.sh could not provide

# The programs a command runs: the first word of each pipeline stage.
programs() {
  tr '|;&' '\n\n\n' <<<"$1" | sed -E 's/^[[:space:]]*([A-Za-z_]+=[^[:space:]]*[[:space:]]+)*//' | awk 'NF { print $1 }'
}

failed=0
for cmd in "${commands[@]}"; do
  missing=""
  for p in $(programs "$cmd"); do command -v "$p" >/dev/null || missing+=" $p"; done
  while read -r word; do [[ $cmd == *"$word"* ]] && missing+=" $word"; done <unavailable
  if [ -n "$missing" ]; then
    echo "skipped (needs$missing): $cmd"
    continue
  fi
  bash -o pipefail -c "$cmd" >/dev/null 2>err.txt </dev/null
  status=$?
  if [ $status = 0 ] || [ $status = 141 ]; then
    echo "ok: $cmd"
  else
    echo "FAIL (exit $status): $cmd"; sed 's/^/  /' err.txt; failed=1
  fi
done
exit $failed
