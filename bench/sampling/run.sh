#!/usr/bin/env bash
# cta-sample's sampling error estimate against the error it estimates: per
# kernel, the scheduler cycles (warp instructions + stall cycles) that
# stall-report projects from the CTA sample, those of the same pipeline with
# every CTA simulated (cta-sample --keep all), the actual relative error and
# the sample record's estimate (sampling_error_frac).
#
#   bash bench/sampling/run.sh BINDIR [CONFIG]
#
# A generated five-kernel application (vecadd, gemm, stencil, reduce,
# gather; 256k elements) on CONFIG (default qv100), and cta-sample's
# test stream with one CTA of 50x the work (tests/cta-sample/tiny.cfg).
# Files go to $WORK (default /work/tmp/bench-sampling), deleted at the end.
set -euo pipefail
bin=$(cd "${1:?usage: run.sh BINDIR [CONFIG]}" && pwd)
config=${2:-qv100}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/work/tmp/bench-sampling}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"

# kernel_id scheduler_cycles sampling_error_frac, one line per kernel and
# "app" for the application, from stall-report's CSV (names dropped first:
# they may hold commas).
rows() {
  "$bin/stall-report" "$1" --format csv | sed 's/"[^"]*"/name/' | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { cycles = $col["warp_insts"]
      for (c in col) if (c ~ /^stall_[A-Za-z]+_cycles$/) cycles += $(col[c])
      print ($col["scope"] == "kernel" ? $col["kernel_id"] : "app"), cycles, $col["sampling_error_frac"] }'
}

# label config input.stream
compare() {
  local label=$1 cfg=$2 in=$3
  "$bin/cta-sample" --config "$cfg" "$in" | "$bin/rd-cache" --config "$cfg" |
    "$bin/pipe-sim" --config "$cfg" --stats-only > sampled.stream
  "$bin/cta-sample" --config "$cfg" --keep all "$in" | "$bin/rd-cache" --config "$cfg" |
    "$bin/pipe-sim" --config "$cfg" --stats-only > full.stream
  join <(rows sampled.stream | sort) <(rows full.stream | sort) | sort -n |
    awk -v l="$label" '{ printf "%-10s kernel %-4s sampled %11d  full %11d  actual %+6.2f%%  estimate %+6.2f%%\n",
                         l, $1, $2, $4, 100 * ($2 - $4) / $4, 100 * $3 }'
}

"$bin/sasskit-gen" -q --kernel vecadd,gemm,stencil,reduce,gather --size 256k -o app
"$bin/trace-unpack" app -o app.stream
compare "$config" "$config" app.stream
"$bin/ctasample-mkstream" id=1,grid=8,block=64,work=10:10:10:10:10:500:10:10 id=2,grid=4,block=1024,stream=1 > skew.stream
compare skewed "$src/tests/cta-sample/tiny.cfg" skew.stream
