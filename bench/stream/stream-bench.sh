#!/usr/bin/env bash
# The stream format's goals (issue 15), as ratios measured in one run:
#  1. size: stream bytes / Accel-Sim text bytes, on the shared corpus (when
#     ../shared/data is there) and on generated traces;
#  2. pass-through: a filter that owns no cta record (trace-unpack, stream
#     in, stream out) against `cat`, both reading the same stream file;
#  3. stall-report on a simulated stream: the full stream against its
#     stats-only form (pipe-sim --stats-only, when the build has it).
#   bench/stream/stream-bench.sh [GEN_ELEMENTS] [PASS_COPIES] [SIM_ELEMENTS]
# GEN_ELEMENTS (default 2M) sizes the generated traces (gemm: $GEMM_ELEMENTS,
# default 64k, about 120 MB of text); the pass-through
# stream is PASS_COPIES (default 8) members of the generated streams
# concatenated; SIM_ELEMENTS (default 256k) sizes the simulated trace.
# Tools from $SASSKIT_BIN (default build/bin); scratch space from $TMPDIR.
set -euo pipefail
gen_n=${1:-2M}
copies=${2:-8}
sim_n=${3:-256k}
gemm_n=${GEMM_ELEMENTS:-64k}
root=$(cd "$(dirname "$0")/../.." && pwd)
data=${SASSKIT_SHARED_DATA:-$root/../shared/data}
source "$root/bench/bench-lib.sh"
bench_setup stream-bench sasskit-gen trace-unpack pipe-sim stall-report xz gzip

# GB/s; a time under the clock's 10 ms resolution counts as 10 ms.
rate() { awk -v bytes="$1" -v s="$2" 'BEGIN { if (s < 0.01) s = 0.01; printf "%.2f", bytes / s / 1e9 }'; }

# Bytes of a trace directory's kernel text, decompressed.
text_bytes() {
  local total=0 f n
  for f in "$1"/*.traceg*; do
    case $f in
      *.xz) n=$(xz -dc "$f" | wc -c) ;;
      *.gz) n=$(gzip -dc "$f" | wc -c) ;;
      *) n=$(size "$f") ;;
    esac
    total=$((total + n))
  done
  echo "$total"
}

echo "== 1. stream size / Accel-Sim text size"
size_row() {
  local name=$1 dir=$2
  trace-unpack "$dir" --no-provenance -o "$work/s.sks"
  local t s; t=$(text_bytes "$dir"); s=$(size "$work/s.sks")
  printf '  %-22s text %11d  stream %10d  ratio %s\n' "$name" "$t" "$s" "$(ratio "$s" "$t")"
  echo "$s $t" >>"$work/sizes"
}
if [ -d "$data" ]; then
  for d in "$data"/traces/* "$data"/accelsim-corpus/traces/*; do size_row "$(basename "$d")" "$d"; done
else
  echo "  (no shared corpus at $data: generated traces only)"
fi
for kind in vecadd gemm stencil reduce gather tensor; do
  n=$gen_n
  [ "$kind" = gemm ] && n=$gemm_n  # gemm's trace grows as size^1.5
  sasskit-gen -k "$kind" -n "$n" -o "$work/gen-$kind" >/dev/null
  size_row "gen-$kind -n $n" "$work/gen-$kind"
  trace-unpack "$work/gen-$kind" -o "$work/gen-$kind.sks"
  rm -rf "$work/gen-$kind"
done
awk '{ s += $1; t += $2; r = $1 / $2; if (r > worst) worst = r }
     END { printf "  all: stream %d / text %d = %.3f; worst single trace %.3f\n", s, t, s / t, worst }' "$work/sizes"

echo "== 2. pass-through (trace-unpack stream -> stream) against cat, both into a file"
for ((i = 0; i < copies; i++)); do cat "$work"/gen-*.sks; done >"$work/big.sks"
bytes=$(size "$work/big.sks")
cat "$work/big.sks" >/dev/null  # warm the page cache for both
# Both write a file, so both pay for the same output.
read -r cat_cpu cat_wall _ < <(timed "$work/out.sks" cat "$work/big.sks")
read -r pass_cpu pass_wall pass_kib < <(timed "$work/out.sks" trace-unpack "$work/big.sks" -o -)
[ "$(size "$work/out.sks")" -ge "$bytes" ] || { echo "stream-bench: pass-through output too short" >&2; exit 1; }
rm "$work/out.sks"
printf '  stream %d bytes (%d members)\n' "$bytes" $((copies * 6))
printf '  cat           cpu %ss wall %ss: %s GB/s of CPU time\n' "$cat_cpu" "$cat_wall" "$(rate "$bytes" "$cat_cpu")"
printf '  trace-unpack  cpu %ss wall %ss: %s GB/s of CPU time (wall %s GB/s), peak RSS %d MiB\n' \
  "$pass_cpu" "$pass_wall" "$(rate "$bytes" "$pass_cpu")" "$(rate "$bytes" "$pass_wall")" $((pass_kib / 1024))
printf '  trace-unpack / cat CPU time %s\n' "$(ratio "$pass_cpu" "$cat_cpu")"

echo "== 3. stall-report: full simulated stream against its stats-only form"
# PASS_COPIES members of one simulated stream, so the full stream is large.
sasskit-gen -k vecadd,stencil,reduce -n "$sim_n" -o "$work/sim" >/dev/null
trace-unpack "$work/sim" | pipe-sim --config qv100 -q -o "$work/one.sks"
for ((i = 0; i < copies; i++)); do cat "$work/one.sks"; done >"$work/full.sks"
full_bytes=$(size "$work/full.sks")
read -r full_cpu full_wall _ < <(timed "$work/full.txt" stall-report "$work/full.sks")
printf '  full stream %d bytes (%d members): stall-report cpu %ss wall %ss, %s GB/s of CPU time\n' \
  "$full_bytes" "$copies" "$full_cpu" "$full_wall" "$(rate "$full_bytes" "$full_cpu")"
if pipe-sim --help 2>&1 | grep -q -- --stats-only; then
  trace-unpack "$work/sim" | pipe-sim --config qv100 -q --stats-only -o "$work/one-stats.sks"
  for ((i = 0; i < copies; i++)); do cat "$work/one-stats.sks"; done >"$work/stats.sks"
  read -r stats_cpu stats_wall _ < <(timed "$work/stats.txt" stall-report "$work/stats.sks")
  printf '  stats-only  %d bytes: stall-report cpu %ss wall %ss; same report: %s\n' \
    "$(size "$work/stats.sks")" "$stats_cpu" "$stats_wall" \
    "$(cmp -s <(tail -n +2 "$work/full.txt") <(tail -n +2 "$work/stats.txt") && echo yes || echo NO)"
  printf '  stats-only / full: size %s, stall-report CPU time %s\n' \
    "$(ratio "$(size "$work/stats.sks")" "$full_bytes")" "$(ratio "$stats_cpu" "$full_cpu")"
else
  echo "  (this build's pipe-sim has no --stats-only: stats-only part skipped)"
fi
