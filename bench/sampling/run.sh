#!/usr/bin/env bash
# cta-sample's sampling error estimate against the error it estimates: per
# kernel, the scheduler cycles (warp instructions + stall cycles) that
# stall-report projects from the CTA sample (rd-cache | cta-sample |
# pipe-sim), against those of the same pipeline with every CTA simulated
# (cta-sample --keep all): the actual relative error and the estimate
# (sampling_error_frac), under each estimate method (cta-sample
# --estimate check, the default, and --estimate limits), and the error of
# the kernel's cycles (not scaled: the kept SMs' longest).
#
#   bash bench/sampling/run.sh BINDIR [CONFIG] [large]
#
# A generated five-kernel application (vecadd, gemm, stencil, reduce,
# gather; 256k elements) and a vecadd whose every 8th CTA does 4x the work
# (--imbalance 4) on CONFIG (default qv100); then CTA-sets of unequal work
# on the 4-SM test GPU (tests/cta-sample/tiny.cfg): cta-sample's test
# stream with one CTA of 50x the work, CTAs of two sizes alternating, one
# long CTA in eight over several rounds of an SM, and a long CTA every
# fourth (the round-robin places them all on one SM). With "large", also
# every shape of sasskit-gen at 1,024 to 8,192 CTAs (real sizes; the gemm
# of 4,096 CTAs alone takes several minutes in full). Files go to $WORK (default /work/tmp/bench-sampling),
# deleted at the end.
set -euo pipefail
bin=$(cd "${1:?usage: run.sh BINDIR [CONFIG] [large]}" && pwd)
config=${2:-qv100}
large=${3:-}
case $large in "" | large) ;; *) echo "run.sh: unknown set '$large' (large, or none)" >&2; exit 2 ;; esac
src=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/work/tmp/bench-sampling}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"

# kernel_id scheduler_cycles sampling_error_frac cycles sampling_method,
# one line per kernel and "app" for the application, from stall-report's
# CSV (names dropped first: they may hold commas).
rows() {
  "$bin/stall-report" "$1" --format csv | sed 's/"[^"]*"/name/' | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { cycles = $col["warp_insts"]
      for (c in col) if (c ~ /^stall_[A-Za-z]+_cycles$/) cycles += $(col[c])
      e = $col["sampling_error_frac"]; m = $col["sampling_method"]
      print ($col["scope"] == "kernel" ? $col["kernel_id"] : "app"), cycles, e == "" ? "-" : e, $col["cycles"],
            m == "" ? "-" : m }'
}

# label config input.stream
compare() {
  local label=$1 cfg=$2 in=$3
  "$bin/rd-cache" --config "$cfg" "$in" -o cached.stream
  "$bin/cta-sample" --config "$cfg" --keep all cached.stream | "$bin/pipe-sim" --config "$cfg" --stats-only > full.stream
  local m
  for m in check limits; do
    "$bin/cta-sample" --config "$cfg" --estimate $m cached.stream | "$bin/pipe-sim" --config "$cfg" --stats-only > $m.stream
  done
  join <(rows check.stream | sort) <(rows limits.stream | sort) | join - <(rows full.stream | sort) | sort -n |
    awk -v l="$label" '
      function covers(a, e) { return (a <= 0 ? -a : a) <= (e <= 0 ? -e : e) + 5e-5 }
      { full = $10; a1 = ($2 - full) / full; a2 = ($6 - full) / full
        printf "%-10s kernel %-4s full %11d  check %+6.2f%% est %+6.2f%% (%s) %s  limits %+6.2f%% est %+6.2f%% %s  cycles check %+5.1f%% limits %+5.1f%%\n",
               l, $1, full, 100 * a1, 100 * $3, $5, covers(a1, $3) ? "yes" : "NO", 100 * a2, 100 * $7,
               covers(a2, $7) ? "yes" : "NO", 100 * ($4 - $12) / $12, 100 * ($8 - $12) / $12 }'
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

[ "$large" = large ] || exit 0
# Real sizes: every shape of sasskit-gen at 1,024 to 8,192 CTAs.
gen() {
  local label=$1 cfg=$2
  shift 2
  "$bin/sasskit-gen" -q "$@" -o "$label"
  "$bin/trace-unpack" "$label" -o "$label.stream"
  rm -rf "$label"
  compare "$label" "$cfg" "$label.stream"
  rm -f "$label.stream"
}
gen gather-1M qv100 -k gather -n 1M
gen gather-2M-s7 qv100 -k gather -n 2M --seed 7
gen vecadd-1M qv100 -k vecadd -n 1M
gen vecadd-imb-2M qv100 -k vecadd -n 2M --imbalance 4
gen stencil-4M qv100 -k stencil -n 4M
gen stencil-imb-4M qv100 -k stencil -n 4M --imbalance 4
gen reduce-2M qv100 -k reduce -n 2M
gen gemm-1M qv100 -k gemm -n 1M
gen tensor-1M rtx3070 -k tensor -n 1M --binary-version 86
gen gather-2M rtx2060 -k gather -n 2M --binary-version 75
