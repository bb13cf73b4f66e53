#!/usr/bin/env bash
# Runs one CLI test case folder and compares with its golden files.
#   cmd     bash snippet, run in a fresh temporary directory with the tools
#           on PATH; $SRC is the source tree, $DATA the shared data folder
#   exit    expected exit status (default 0)
#   stdout  expected stdout (optional; compared exactly)
#   stderr  expected stderr (optional; compared exactly)
#   needs-shared   present: skip (77) when ../shared/data is missing
#   needs   commands the case runs besides the tools, one a line: skip (77)
#           when one is not installed (e.g. python3)
# A cmd that finds it cannot run in this build or on this machine (an
# AddressSanitizer build under an address-space limit) exits 77 after saying
# why on stderr: the case is then skipped (77), never passed or updated.
# SASSKIT_UPDATE_GOLDEN=1 rewrites stdout/stderr/exit from the actual run.
set -u
case_dir=$(cd "$1" && pwd)
name=$(basename "$(dirname "$(dirname "$case_dir")")")/$(basename "$case_dir")
export SRC="${SASSKIT_SRC:?}" DATA="${SASSKIT_SHARED_DATA:-/nonexistent}"
export PATH="${SASSKIT_BIN:?}:$PATH"
if [ -e "$case_dir/needs-shared" ] && [ ! -d "$DATA" ]; then
  echo "skipped: $name needs ../shared/data, which is absent"
  exit 77
fi
if [ -e "$case_dir/needs" ]; then
  while read -r needed; do
    if [ -n "$needed" ] && ! command -v "$needed" >/dev/null; then
      echo "skipped: $name needs $needed, which is not installed"
      exit 77
    fi
  done <"$case_dir/needs"
fi
work=$(mktemp -d)
outs=$(mktemp -d)
trap 'rm -rf "$work" "$outs"' EXIT
cd "$work"
bash -o pipefail "$case_dir/cmd" >"$outs/stdout" 2>"$outs/stderr" </dev/null
status=$?
if [ "$status" = 77 ]; then
  echo "skipped: $name: $(tail -n 1 "$outs/stderr")"
  exit 77
fi
expected=$(cat "$case_dir/exit" 2>/dev/null || echo 0)
if [ "${SASSKIT_UPDATE_GOLDEN:-0}" = 1 ]; then
  echo "$status" >"$case_dir/exit"
  [ -e "$case_dir/stdout" ] && cp "$outs/stdout" "$case_dir/stdout"
  [ -e "$case_dir/stderr" ] && cp "$outs/stderr" "$case_dir/stderr"
  exit 0
fi
ok=1
if [ "$status" != "$expected" ]; then
  echo "FAIL $name: exit status $status, expected $expected"; ok=0
fi
for s in stdout stderr; do
  if [ -e "$case_dir/$s" ] && ! diff -u "$case_dir/$s" "$outs/$s"; then
    echo "FAIL $name: $s differs from golden"; ok=0
  fi
done
if [ $ok = 0 ]; then
  echo "--- stderr was:"; head -c 2000 "$outs/stderr"
  exit 1
fi
echo "ok $name"
