#!/usr/bin/env bash
# run-examples.sh PAGE: runs the commands of PAGE's EXAMPLES section, in
# order, twice, each time in a fresh copy of the data example-data.sh
# writes: as a script runs them (no terminal), then as typed at a terminal
# (under script(1): a pty for stdin, stdout and stderr), where tools draw
# progress and refuse to write a binary stream. A command fails the test
# when it exits non-zero (141, a reader such as head going away, is fine).
# A command that needs a program that is not installed (nsys, jq), or data
# example-data.sh lists in ./unavailable, is skipped with a note;
# example-data.sh provides what a skipped command would have made.
set -u
here=$(cd "$(dirname "$0")" && pwd)
page=$1
export PATH="${SASSKIT_BIN:?}:$PATH" SRC="${SASSKIT_SRC:?}"
mapfile -t commands < <(awk -f "$here/examples.awk" "$page")
[ ${#commands[@]} -gt 0 ] || { echo "$(basename "$page"): no EXAMPLES"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/data" && cd "$work/data"
HOME=$PWD bash "$here/example-data.sh" >/dev/null || { echo "example-data.sh failed"; exit 1; }
touch unavailable  # words (data folders) example-data.sh could not provide
# At a terminal less would wait for a key: it pages nothing here.
mkdir "$work/pager" && printf '#!/bin/sh\nexec cat "$@"\n' >"$work/pager/less" && chmod +x "$work/pager/less"

# The programs a command runs: the first word of each pipeline stage.
programs() {
  tr '|;&' '\n\n\n' <<<"$1" | sed -E 's/^[[:space:]]*([A-Za-z_]+=[^[:space:]]*[[:space:]]+)*//' | awk 'NF { print $1 }'
}

failed=0
# report STATUS WHAT OUTPUT: one line per run; a failure shows the output.
report() {
  if [ "$1" = 0 ] || [ "$1" = 141 ]; then
    echo "ok: $2"
  else
    echo "FAIL (exit $1): $2"; tr -d '\r' <"$3" | sed 's/^/  /'; failed=1
  fi
}

# run_all MODE: every command, in order, in a fresh copy of the data.
run_all() {
  local cmd p missing
  cp -a "$work/data" "$work/$1" && cd "$work/$1"
  export HOME=$PWD
  for cmd in "${commands[@]}"; do
    missing=""
    for p in $(programs "$cmd"); do command -v "$p" >/dev/null || missing+=" $p"; done
    while read -r word; do [[ $cmd == *"$word"* ]] && missing+=" $word"; done <unavailable
    if [ -n "$missing" ]; then
      echo "skipped (needs$missing): $cmd"
    elif [ "$1" = plain ]; then
      bash -o pipefail -c "$cmd" >/dev/null 2>"$work/out.txt" </dev/null
      report "$?" "$cmd" "$work/out.txt"
    else
      # script(1) runs the command with $SHELL and returns its status (-e).
      PATH="$work/pager:$PATH" SHELL=/bin/bash timeout 120 \
        script -qec "set -o pipefail; $cmd" /dev/null >"$work/out.txt" 2>&1 </dev/null
      report "$?" "at a terminal: $cmd" "$work/out.txt"
    fi
  done
}

run_all plain
if [ "${SASSKIT_EXAMPLES_AT_TERMINAL:-1}" = 1 ]; then
  run_all terminal
else
  echo "not run at a terminal (SASSKIT_EXAMPLES_AT_TERMINAL=0)"
fi
exit $failed
