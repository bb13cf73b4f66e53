#!/usr/bin/env bash
# How fast sasskit-gen writes Accel-Sim text: bash bench/gen-speed.sh BINDIR [SCALE]
# For each kernel kind it generates a trace of roughly 100 MB x SCALE and
# prints the output rate and the ratio of its time to that of copying the
# same bytes (cp), i.e. how close generation is to plain file writing.
set -euo pipefail
bin=$(cd "${1:?usage: bash bench/gen-speed.sh BINDIR [SCALE]}" && pwd)
scale=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
# kind and the --size that gives about 100 MB of text at sm_70
cases="vecadd:4500000 gather:3500000 stencil:4200000 reduce:1000000 gemm:56000 tensor:500000"
printf "%-8s %10s %9s %9s %11s\n" kernel MB seconds MB/s "gen/cp"
for c in $cases; do
  kind=${c%%:*}
  size=$(( ${c##*:} * scale ))
  t0=$(now)
  "$bin/sasskit-gen" --kernel "$kind" --size "$size" -o "$work/$kind"
  t1=$(now)
  cp "$work/$kind/kernel-1.traceg" "$work/copy"
  t2=$(now)
  bytes=$(stat -c %s "$work/$kind/kernel-1.traceg")
  awk -v k="$kind" -v b="$bytes" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
    'BEGIN { g = t1 - t0
             printf "%-8s %10.1f %9.2f %9.0f %11.2f\n", k, b / 1e6, g, b / 1e6 / g, g / (t2 - t1) }'
  rm -rf "${work:?}/$kind" "$work/copy"
done
