#!/usr/bin/env bash
# Concurrent kernels against Accel-Sim's figures in issue 33: a generated
# vecadd followed by a gather (sasskit-gen), 40 + 40 and 160 + 160 CTAs, on
# one stream and on streams 0 and 1 (sasskit-gen --stream), simulated by
# pipe-sim (kernels of different streams share SMs) and with
# --serial-kernels (Accel-Sim's default, one kernel at a time). Prints per
# case the makespan (first launch to last end, in cycles) of each run and
# the gain of the second stream, beside Accel-Sim's (QV100; default and
# -gpgpu_concurrent_kernel_sm 1, from the issue: no trace of the shared
# corpus has two streams). Each case runs with pipe-sim's default L1 hit
# rate and with rd-cache's cache records in the pipe (kernels that share
# SMs share L1s there; --serial-kernels goes to both tools).
#   bench/fidelity/streams.sh [GPU-MODEL-OPTIONS...]   (default: --config qv100)
# Tools from $SASSKIT_BIN (default build/bin).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="${SASSKIT_BIN:-$root/build/bin}:$PATH"
model=("$@")
[[ ${#model[@]} -gt 0 ]] || model=(--config qv100)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The makespan of a stream through trace-unpack | [rd-cache OPTIONS |]
# pipe-sim OPTIONS; L1 is "default" (no rd-cache) or "rd-cache".
makespan() {
  local trace=$1 l1=$2; shift 2
  local cache=(cat)
  [[ $l1 == rd-cache ]] && cache=(rd-cache -q "${model[@]}" "$@")
  trace-unpack -q "$trace" | "${cache[@]}" | pipe-sim -q "${model[@]}" "$@" --stats-only -o "$work/out.stream"
  trace-unpack --to jsonl "$work/out.stream" | grep '"t":"stats"' |
    awk '{ match($0, /"start":[0-9]+/); s = substr($0, RSTART + 8, RLENGTH - 8) + 0
           match($0, /"cycles":[0-9]+/); e = s + substr($0, RSTART + 9, RLENGTH - 9)
           if (NR == 1 || s < first) first = s; if (e > last) last = e }
         END { print last - first }'
}

printf '%-9s %-8s %12s %12s %12s %7s %14s %14s %7s\n' CTAs L1 one-stream two-streams two-serial gain \
  accelsim-dflt accelsim-conc gain
# CTAS ACCELSIM-DEFAULT ACCELSIM-CONCURRENT (issue 33's table and text)
while read -r ctas asim_serial asim_conc; do
  for s in 0,0 0,1; do
    sasskit-gen -k vecadd,gather --stream "$s" --grid "$ctas" -o "$work/t-$s" >/dev/null
  done
  for l1 in default rd-cache; do
    one=$(makespan "$work/t-0,0" $l1)
    two=$(makespan "$work/t-0,1" $l1)
    serial=$(makespan "$work/t-0,1" $l1 --serial-kernels)
    awk -v c="$ctas+$ctas" -v l1=$l1 -v one="$one" -v two="$two" -v serial="$serial" -v as="$asim_serial" \
      -v ac="$asim_conc" 'BEGIN { printf "%-9s %-8s %12d %12d %12d %6.2fx %14d %14d %6.2fx\n", c, l1, one, two, serial,
                                  one / two, as, ac, as / ac }'
  done
done <<'CASES'
40 136049 94873
160 34838 25613
CASES
