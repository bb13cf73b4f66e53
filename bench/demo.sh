#!/usr/bin/env bash
# The README's demo: bash bench/demo.sh BINDIR (e.g. build/bin).
# Generates a small multi-kernel application trace and runs the whole
# pipeline on it: compress, unpack, cache model, CTA sampling, pipeline
# simulation and the stall report with a plot.
set -euo pipefail
bin=$(cd "${1:?usage: bash bench/demo.sh BINDIR}" && pwd)
export PATH="$bin:$PATH"
out=${SASSKIT_DEMO_DIR:-demo-output}
mkdir -p "$out"
gpu=qv100

step() { printf '\n== %s\n' "$*"; }

step "sasskit-gen: a 4-launch application (gemm, vecadd, reduce with imbalanced CTAs, gather) on sm_70"
sasskit-gen --kernel gemm,vecadd,reduce,gather --size 16k --imbalance 4 --seed 1 -o "$out/app"
cat "$out/app/kernelslist.g"
du -sh "$out/app"

step "trace-compress: Accel-Sim text -> archive"
trace-compress "$out/app" -o "$out/app.sass.z"
ls -l "$out/app.sass.z"

step "trace-unpack --to jsonl: what the archive holds (kernel records)"
trace-unpack "$out/app.sass.z" --to jsonl | grep '"t":"kernel"' | cut -c1-120

step "the pipeline: trace-unpack | rd-cache | cta-sample | pipe-sim  (--config $gpu)"
trace-unpack "$out/app.sass.z" \
  | rd-cache --config "$gpu" \
  | cta-sample --config "$gpu" \
  | pipe-sim --config "$gpu" -o "$out/sim.stream"
ls -l "$out/sim.stream"

step "stall-report"
stall-report "$out/sim.stream" --plot "$out/stalls.svg"
echo
echo "plot: $out/stalls.svg   (all outputs in $out/)"
