#!/usr/bin/env bash
# cta-sample's sampling error estimate against the error it estimates: per
# kernel, the scheduler cycles (warp instructions + stall cycles) that
# stall-report projects from the CTA sample (rd-cache | cta-sample |
# pipe-sim), those of the same pipeline with every CTA simulated (cta-sample
# --keep all), the actual relative error and the sample record's estimate
# (sampling_error_frac).
#
#   bash bench/sampling/run.sh BINDIR [CONFIG]
#
# A generated five-kernel application (vecadd, gemm, stencil, reduce,
# gather; 256k elements) and a vecadd whose every 8th CTA does 4x the work
# (--imbalance 4) on CONFIG (default qv100); then CTA-sets of unequal work
# on the 4-SM test GPU (tests/cta-sample/tiny.cfg): cta-sample's test
# stream with one CTA of 50x the work, CTAs of two sizes alternating, one
# long CTA in eight over several rounds of an SM, and a long CTA every
# fourth (the round-robin places them all on one SM).
# About 1 minute of CPU. Files go to $WORK (default
# /work/tmp/bench-sampling), deleted at the end.
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
  "$bin/rd-cache" --config "$cfg" "$in" -o cached.stream
  "$bin/cta-sample" --config "$cfg" cached.stream | "$bin/pipe-sim" --config "$cfg" --stats-only > sampled.stream
  "$bin/cta-sample" --config "$cfg" --keep all cached.stream | "$bin/pipe-sim" --config "$cfg" --stats-only > full.stream
  join <(rows sampled.stream | sort) <(rows full.stream | sort) | sort -n |
    awk -v l="$label" '{ printf "%-10s kernel %-4s sampled %11d  full %11d  actual %+6.2f%%  estimate %+6.2f%%\n",
                         l, $1, $2, $4, 100 * ($2 - $4) / $4, 100 * $3 }'
}

"$bin/sasskit-gen" -q --kernel vecadd,gemm,stencil,reduce,gather --size 256k -o app
"$bin/trace-unpack" app -o app.stream
compare "$config" "$config" app.stream
"$bin/ctasample-mkstream" id=1,grid=8,block=64,work=10:10:10:10:10:500:10:10 id=2,grid=4,block=1024,stream=1 > skew.stream
compare skewed "$src/tests/cta-sample/tiny.cfg" skew.stream
"$bin/sasskit-gen" -q --kernel vecadd --size 256k --imbalance 4 -o imbalanced
"$bin/trace-unpack" imbalanced -o imbalanced.stream
compare imbalance "$config" imbalanced.stream
tiny() {
  local label=$1
  shift
  "$bin/ctasample-mkstream" "$@" > "$label.stream"
  compare "$label" "$src/tests/cta-sample/tiny.cfg" "$label.stream"
}
tiny alternate id=1,grid=32,block=256,work=10:30
tiny rounds id=1,grid=64,block=512,work=10:10:10:10:10:10:10:80
tiny fourth id=1,grid=16,block=1024,work=200:200:200:800
