#!/usr/bin/env bash
# Principal Kernel Projection (pipe-sim --pkp, pipe-sim(1) PROJECTION)
# against full simulation on generated kernels of several shapes, sizes and
# GPU models: per kernel, the projection error of its cycles, the share of
# them simulated, PKP's error estimate and whether it covers the error.
#
#   bash bench/pkp/run.sh BINDIR [unseen]
#
# Shapes (sasskit-gen): streaming (vecadd), random access (gather), CTAs of
# unequal work (vecadd --imbalance 4), phases (a gather, stencil and vecadd
# application), repeated launches (reduce --repeat 3), tensor cores, and
# grids below one wave; on qv100, rtx2060 and rtx3070; default s and window.
# About 6 minutes on 2 cores (3.5 minutes of CPU). With "unseen", other
# shapes, sizes and seeds instead, chosen after PKP's rule (issue 57):
# random gathers of several sizes and seeds, imbalanced stencils, a reduce
# repeated three times, multi-wave gemm and tensor kernels. Traces go to $WORK (default
# /work/tmp/bench-pkp), deleted at the end.
set -euo pipefail
bin=$(cd "${1:?usage: run.sh BINDIR [unseen]}" && pwd)
set=${2:-}
case $set in "" | unseen) ;; *) echo "run.sh: unknown set '$set' (unseen, or none for the default mix)" >&2; exit 2 ;; esac
work=${WORK:-/work/tmp/bench-pkp}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"

# One line per kernel of a JSON summary: cycles simulated_cycles error,
# error "-" where PKP did not stop the kernel.
kernels() {
  sed 's/{"kernel_id"/\n&/g' "$1" | grep '^{"kernel_id"' | while read -r k; do
    local v=() key
    for key in cycles simulated_cycles projection_error_frac; do
      v+=("$(grep -o "\"$key\":[0-9.e+-]*" <<<"$k" | head -1 | cut -d: -f2 || true)")
    done
    echo "${v[0]} ${v[1]} ${v[2]:--}"
  done
}

# name config sasskit-gen-arguments...
shape() {
  local name=$1 config=$2
  shift 2
  "$bin/sasskit-gen" -q "$@" -o "$name.trace"
  "$bin/trace-unpack" "$name.trace" -o "$name.stream"
  rm -rf "$name.trace"
  "$bin/pipe-sim" -q --config "$config" --format json "$name.stream" -o "$name.full.json"
  "$bin/pipe-sim" -q --config "$config" --format json --pkp "$name.stream" -o "$name.pkp.json"
  paste -d' ' <(kernels "$name.full.json") <(kernels "$name.pkp.json") | awk -v n="$name" -v c="$config" '
    { full = $1; p = $4; err = (p - full) / full
      est = $6 == "-" ? "-" : sprintf("%5.1f%%", 100 * $6)
      verdict = $6 == "-" ? "ran to the end" : (err <= $6 && -err <= $6 ? "covered" : "NOT covered")
      printf "%-18s %-8s k%-2d full %8d  pkp %8d  error %+5.1f%%  simulated %5.1f%%  estimate %6s  %s\n",
             n, c, NR, full, p, 100 * err, 100 * $5 / full, est, verdict }'
}

unseen() {
  shape gather-3M-s11 qv100 -k gather -n 3M --seed 11
  shape gather-5M-s5 rtx2060 -k gather -n 5M --seed 5 --binary-version 75
  shape gather-10M-s3 qv100 -k gather -n 10M --seed 3
  shape gather-1M-s9 rtx3070 -k gather -n 1M --seed 9 --binary-version 86
  shape stencil-imb8-4M qv100 -k stencil -n 4M --imbalance 8
  shape stencil-imb4-4M rtx3070 -k stencil -n 4M --imbalance 4 --binary-version 86
  shape reduce-x3-4M rtx3070 -k reduce -n 4M --repeat 3 --binary-version 86
  shape gemm-256k qv100 -k gemm -n 256k
  shape tensor-2M rtx3070 -k tensor -n 2M --binary-version 86
}

if [ "$set" = unseen ]; then unseen | tee results.txt; else {
  shape gather-4M qv100 -k gather -n 4M
  shape gather-2M qv100 -k gather -n 2M
  shape vecadd-8M qv100 -k vecadd -n 8M
  shape vecadd-8M rtx2060 -k vecadd -n 8M --binary-version 75
  shape imbalance-4M qv100 -k vecadd -n 4M --imbalance 4
  shape imbalance-4M rtx3070 -k vecadd -n 4M --imbalance 4 --binary-version 86
  shape phases-1M qv100 -k gather,stencil,vecadd -n 1M
  shape reduce-x3-2M rtx2060 -k reduce -n 2M --repeat 3 --binary-version 75
  shape reduce-x3-1M qv100 -k reduce -n 1M --repeat 3
  shape tensor-256k rtx3070 -k tensor -n 256k --binary-version 86
  shape gemm-16k qv100 -k gemm -n 16k
  # The same shapes at larger sizes, and issue 29's own cases (its gemm of
  # 48 x 48 CTAs is left out: 330 s in full here).
  shape gather-6M qv100 -k gather -n 6M
  shape gather-8M rtx2060 -k gather -n 8M --binary-version 75
  shape vecadd-32M qv100 -k vecadd -n 32M
  shape imbalance-16M qv100 -k vecadd -n 16M --imbalance 4
  shape stencil-imb-8M qv100 -k stencil -n 8M --imbalance 4
  shape phases-4M qv100 -k gather,stencil,vecadd -n 4M
  shape reduce-x3-8M qv100 -k reduce -n 8M --repeat 3
  shape tensor-1M rtx3070 -k tensor -n 1M --binary-version 86
} | tee results.txt; fi
awk 'function abs(x) { return x < 0 ? -x : x }
     { n++; sim += $11 + 0; full += $5; simulated += $5 * $11 / 100 }
     $NF == "covered" { stopped++; e = abs($9 + 0); sum += e; if (e > max) max = e
                        if ($(NF - 1) == "NOT") missed = missed " " $1 "/" $2 "/" $3; else covered++ }
     END { printf "%d kernels, %d stopped early: mean |error| %.1f%%, at most %.1f%%; the estimate covers %d of %d%s; %.1f%% of the cycles simulated on average per kernel, %.1f%% of all the cycles\n",
                  n, stopped, stopped ? sum / stopped : 0, max, covered, stopped, missed ? " (missed:" missed ")" : "", sim / n,
                  100 * simulated / full }' results.txt
