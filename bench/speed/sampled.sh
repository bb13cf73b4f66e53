#!/usr/bin/env bash
# Sampled end to end (issue 35, item 5): the whole unsampled pipeline against
# the sampled one on a generated application, in CPU seconds (user + system,
# one thread each) and in the application's total cycles (stall-report's
# application row, projected for the sampled run).
#
#   full:     trace-unpack APP > S;  rd-cache S > R;  pipe-sim R > P;  stall-report P
#   plan:     trace-unpack APP | kernel-select (STEM) --format csv > PLAN
#   sampled:  trace-unpack --plan PLAN APP > S';  rd-cache S' > R';  cta-sample R' > C;
#             pipe-sim --pkp C > P';  stall-report P'
#
# The plan is made here from the trace (durations: warp instruction counts),
# where a user would make it from a profile of the real run; its cost is
# shown apart, and the speed-up is given with and without it.
#
#   bash bench/speed/sampled.sh [KINDS] [SIZE] [REPEAT] [GPU]
#
# Default: vecadd,gather,stencil,reduce,tensor, 64k, 64 (320 launches, 1.09 GB
# of Accel-Sim text, as bench/speed/run.sh's SPEED_BIG case), qv100. Needs
# about 1.6 GB of scratch under $TMPDIR and, here, a few minutes.
# SAMPLED_ARCHIVE=1: both pipelines read a trace-compress archive of the
# application instead of its text (made first, its time not counted), which
# is how a kept trace is read (trace-unpack --plan then decodes only the
# picked kernels' blocks).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../bench-lib.sh"
bench_setup sampled.sh trace-unpack trace-compress kernel-select cta-sample rd-cache pipe-sim stall-report sasskit-gen awk
kinds=${1:-vecadd,gather,stencil,reduce,tensor}
elements=${2:-64k}
repeat=${3:-64}
gpu=${4:-qv100}
export TMPDIR=$work  # the tools' spill files too

sasskit-gen -q -k "$kinds" -n "$elements" --repeat "$repeat" -o "$work/app"
echo "application: $(du -sb "$work/app" | cut -f1) bytes of Accel-Sim text, $(grep -c '^kernel-' "$work/app/kernelslist.g") launches ($kinds, $elements, x$repeat), $gpu"
app=$work/app
if [[ ${SAMPLED_ARCHIVE:-0} == 1 ]]; then
  trace-compress -q "$work/app" -o "$work/app.ska"
  rm -rf "$work/app"
  app=$work/app.ska
  echo "read from its archive: $(du -sb "$app" | cut -f1) bytes"
fi

# cpu STAGE OUT COMMAND...: runs it, stdout to OUT; prints "STAGE CPU-SECONDS" to the log.
cpu() {
  local stage=$1 out=$2
  shift 2
  echo "$stage $(cpu_wall "$out" "$@" | cut -d' ' -f1)" >>"$work/cpu.log"
}
# The application's total cycles from a stall-report JSON summary.
app_cycles() {
  awk '{ t = t $0 } END { match(t, /"application":\{[^}]*\}/); a = substr(t, RSTART, RLENGTH)
         match(a, /"cycles":[0-9.e+]+/); print substr(a, RSTART + 9, RLENGTH - 9) }' "$1"
}
common=(-q --no-provenance --config "$gpu" -j 1)

cpu full/trace-unpack "$work/s" trace-unpack -q --no-provenance "$app" -o -
cpu full/rd-cache "$work/r" rd-cache "${common[@]}" "$work/s" -o -
cpu full/pipe-sim "$work/p" pipe-sim "${common[@]}" "$work/r" -o -
cpu full/stall-report "$work/full.json" stall-report -q --format json "$work/p"
rm -f "$work/s" "$work/r" "$work/p"

cpu plan/trace-unpack "$work/s" trace-unpack -q --no-provenance "$app" -o -
cpu plan/kernel-select "$work/plan.csv" kernel-select -q --format csv "$work/s" -o -
rm -f "$work/s"

cpu sampled/trace-unpack "$work/s" trace-unpack -q --no-provenance --plan "$work/plan.csv" "$app" -o -
cpu sampled/rd-cache "$work/r" rd-cache "${common[@]}" "$work/s" -o -
cpu sampled/cta-sample "$work/c" cta-sample -q --no-provenance --config "$gpu" "$work/r" -o -
cpu sampled/pipe-sim "$work/p" pipe-sim "${common[@]}" --pkp "$work/c" -o -
cpu sampled/stall-report "$work/sampled.json" stall-report -q --format json "$work/p"

full_cycles=$(app_cycles "$work/full.json")
sampled_cycles=$(app_cycles "$work/sampled.json")
picked=$(tail -n +2 "$work/plan.csv" | wc -l)
awk -v full="$full_cycles" -v sampled="$sampled_cycles" -v picked="$picked" '
  { split($1, p, "/"); cpu[p[1]] += $2; printf "%-26s %8.3f s\n", $1, $2 }
  END {
    printf "full pipeline              %8.3f s   %d cycles\n", cpu["full"], full
    printf "plan (%d launches picked)   %8.3f s\n", picked, cpu["plan"]
    printf "sampled pipeline           %8.3f s   %d cycles projected\n", cpu["sampled"], sampled
    printf "error in total cycles      %+.2f%%\n", 100 * (sampled - full) / full
    printf "speed-up                   %.1fx (%.1fx counting the plan)\n",
           cpu["full"] / cpu["sampled"], cpu["full"] / (cpu["sampled"] + cpu["plan"])
  }' "$work/cpu.log"
