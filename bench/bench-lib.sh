# Helpers shared by the bench/ scripts; source it after `set -euo pipefail`
# and call bench_setup with the tools the script needs. It puts $SASSKIT_BIN
# (default build/bin) first on PATH and makes a scratch directory $work,
# removed on exit.
bench_setup() {
  local me=$1; shift
  local bin=${SASSKIT_BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/bin}
  export PATH="$bin:$PATH"
  local tool
  for tool in "$@" /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$me: $tool not found" >&2; exit 1; }
  done
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# "cpu_seconds wall_seconds peak_kib" of a command (user + system time, so
# that other work on a shared machine does not distort CPU ratios), its
# stdout to $out.
timed() {
  local out=$1; shift
  /usr/bin/time -f "%U %S %e %M" -o "$work/time" "$@" >"$out"
  awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }' "$work/time"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
size() { stat -c %s "$1"; }

# "cpu_seconds wall_seconds" of a command, its stdout to $1: bash's `times`
# gives the child's user and system time to the millisecond (GNU time to 10 ms).
cpu_wall() {
  local to=$1; shift
  local start=$EPOCHREALTIME
  ( "$@" >"$to"; times ) | awk '
    function seconds(t, m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return 60 * m + t }
    NR == 2 { printf "%.3f\n", seconds($1) + seconds($2) }' >"$work/cpu"
  local end=$EPOCHREALTIME
  echo "$(cat "$work/cpu") $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')"
}
