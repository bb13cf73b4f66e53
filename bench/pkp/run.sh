#!/usr/bin/env bash
# Principal Kernel Projection (pipe-sim --pkp, pka-micro21 §3.2 at kernel
# level) against full simulation on generated kernels: per kernel and s, the
# projection error of the kernel's cycles and the fraction of its cycles
# simulated.
#
#   bash bench/pkp/run.sh BINDIR [CONFIG]
#
# Kernels of several waves (vecadd, stencil, reduce) and below one wave
# (gemm, stencil, vecadd) on CONFIG (default qv100), s = 0.25, 0.1, 0.05,
# window 3000 cycles. Traces go to $WORK (default /work/tmp/bench-pkp),
# deleted at the end.
set -euo pipefail
bin=$(cd "${1:?usage: run.sh BINDIR [CONFIG]}" && pwd)
config=${2:-qv100}
work=${WORK:-/work/tmp/bench-pkp}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cd "$work"

field() {  # the first value of "KEY": in a one-kernel JSON summary
  grep -o "\"$1\":[a-z0-9.]*" "$2" | head -1 | cut -d: -f2
}

# name sasskit-gen-arguments...
kernel() {
  local name=$1
  shift
  "$bin/sasskit-gen" -q "$@" -o "$name.trace"
  "$bin/trace-unpack" "$name.trace" -o "$name.stream"
  "$bin/pipe-sim" --config "$config" --format json "$name.stream" -o "$name.full.json"
  local full grid
  full=$(field cycles "$name.full.json")
  for s in 0.25 0.1 0.05; do
    "$bin/pipe-sim" --config "$config" --format json --pkp --pkp-s "$s" "$name.stream" -o "$name.$s.json"
    awk -v n="$name" -v s="$s" -v full="$full" -v p="$(field cycles "$name.$s.json")" \
      -v sim="$(field simulated_cycles "$name.$s.json")" -v stopped="$(field projected "$name.$s.json")" \
      'BEGIN { printf "%-16s s=%-5s full %9d  projected %9d  error %+6.1f%%  simulated %5.1f%%  %s\n",
               n, s, full, p, 100 * (p - full) / full, 100 * sim / full, stopped == "true" ? "stopped early" : "ran to the end" }'
  done
}

# Several waves (qv100: 80 SMs x 8 CTAs of 256 threads = 640 CTAs a wave).
kernel vecadd-65536 -k vecadd -n 16M
kernel stencil-4096 -k stencil -n 16M
kernel reduce-8192 -k reduce -n 2M
# Below one wave.
kernel gemm-64 -k gemm -n 16k
kernel stencil-256 -k stencil -n 1M
kernel vecadd-64 -k vecadd -n 16k
