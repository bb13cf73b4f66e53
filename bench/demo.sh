#!/usr/bin/env bash
# The README's demo: bash bench/demo.sh BINDIR (e.g. build/bin).
# Generates a small multi-kernel example trace and shows what it holds.
set -euo pipefail
bin=$(cd "${1:?usage: bash bench/demo.sh BINDIR}" && pwd)
export PATH="$bin:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== sasskit-gen: a 4-launch application (gemm, vecadd, reduce, gather) on sm_70"
sasskit-gen --kernel gemm,vecadd,reduce,gather --size 4k --seed 1 -o "$work/app"
ls -l "$work/app"
echo
echo "== kernelslist.g"
cat "$work/app/kernelslist.g"
echo
echo "== kernel-1.traceg (first 30 lines)"
head -n 30 "$work/app/kernel-1.traceg"
echo
echo "== thread blocks and warp instructions per kernel"
for f in "$work"/app/kernel-*.traceg; do
  awk -v f="$(basename "$f")" '/^-kernel name/ { name = $4 } /^#BEGIN_TB/ { ctas++ }
    /^insts =/ { insts += $3 }
    END { printf "%-16s %-34s %6d CTAs %9d warp instructions\n", f, name, ctas, insts }' "$f"
done
