#!/usr/bin/env bash
# Memory each tool holds per kernel launch of an application: peak RSS of
# trace-unpack, rd-cache and pipe-sim (one thread) on a generated application
# of five kernel kinds launched R times each, and on one launched 4R times,
# and the growth per added launch. What a tool keeps of a kernel after it
# ended (pipe-sim: each SM's results until its batch is written) shows here;
# a tool that keeps nothing grows by about 0.
#
#   bash bench/memory/per-launch.sh [R]
#
# R defaults to 4 (20 and 80 launches of 64k elements: about 70 MB and 270
# MB of Accel-Sim text, made in a scratch directory that is removed at the
# end). SASSKIT_BIN sets the build (default build/bin).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../bench-lib.sh"
bench_setup per-launch.sh sasskit-gen trace-unpack rd-cache pipe-sim
few=${1:-4}
many=$((4 * few))
export TMPDIR=$work  # the tools' spill files too

# peak_kib TOOL ARGS...: the tool's peak RSS in KiB, its output to $work/out.
peak_kib() { timed "$work/out" "$@" | cut -d' ' -f3; }

declare -A rss
for r in "$few" "$many"; do
  sasskit-gen -q -k vecadd,gather,stencil,reduce,tensor -n 64k --repeat "$r" -o "$work/app"
  rss[trace-unpack.$r]=$(peak_kib trace-unpack -q --no-provenance "$work/app" -o -)
  mv "$work/out" "$work/s"
  rm -rf "$work/app"
  rss[rd-cache.$r]=$(peak_kib rd-cache -q --no-provenance --config qv100 -j 1 "$work/s" -o -)
  mv "$work/out" "$work/r"
  rss[pipe-sim.$r]=$(peak_kib pipe-sim -q --no-provenance --config qv100 -j 1 "$work/r" -o -)
done

printf '%-13s %15s %15s %s\n' tool "$((5 * few)) launches" "$((5 * many)) launches" "growth per launch"
for tool in trace-unpack rd-cache pipe-sim; do
  a=${rss[$tool.$few]} z=${rss[$tool.$many]}
  printf '%-13s %11s KiB %11s KiB %6s KiB\n' "$tool" "$a" "$z" "$(( (z - a) / (5 * (many - few)) ))"
done
