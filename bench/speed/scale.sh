#!/usr/bin/env bash
# Speed at the sizes users run (issue 61, item 1). A generated gather
# (`sasskit-gen -k gather -n SIZE --binary-version 70`, 256-thread CTAs,
# qv100) through the unsampled pipeline
#   trace-unpack SRC > S;  rd-cache S > R;  pipe-sim R > P;  stall-report P
# and the SM-sampled one, which shares its first two stages (they see every
# CTA: rd-cache models the L2 and DRAM on all SMs' traffic)
#   trace-unpack SRC > S;  rd-cache S > R;  cta-sample R > C;  pipe-sim C > Q;  stall-report Q
# with SRC the Accel-Sim text and then a trace-compress archive of it (made
# first, not counted). Per stage the median CPU seconds (user + system, one
# thread each) of SCALE_REPEAT runs (default 3); per pipeline the total and
# Accel-Sim's time over it; for the sampled run its application cycles
# against the unsampled run's and its own estimate (stall-report's
# sampling_error_frac).
#
# Accel-Sim is no part of the project. Its time is issue 61's side-by-side
# figure: 288 s for the 1M gather (4,096 CTAs; Accel-Sim dev 73f9fac on the
# QV100 config, one thread, the same 2-core machine). Other sizes scale it by
# their CTA count (Accel-Sim's time grows with the CTAs it simulates): an
# extrapolation, marked as such in the table.
#
#   bash bench/speed/scale.sh [OUTDIR [SIZES]]   (default $TMPDIR/sasskit-scale, "1M 4M")
#
# Writes OUTDIR/scale.tsv and prints it as a table. Needs about 1.5 GB of
# scratch under $TMPDIR for 4M, and a few minutes here. Not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../bench-lib.sh"
bench_setup scale.sh sasskit-gen trace-unpack trace-compress rd-cache cta-sample pipe-sim stall-report awk column
out=${1:-${TMPDIR:-/tmp}/sasskit-scale}
sizes=${2:-1M 4M}
repeat=${SCALE_REPEAT:-3}
mkdir -p "$out"
export TMPDIR=$work  # the tools' spill files too
readonly accelsim_seconds=288 accelsim_ctas=4096
common=(-q --no-provenance --config qv100 -j 1)

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The median CPU seconds of $repeat runs of a command, its stdout to $1.
median_cpu() {
  local to=$1; shift
  local i
  for ((i = 0; i < repeat; ++i)); do cpu_wall "$to" "$@" | cut -d' ' -f1; done | median
}
# FIELD of the application row of a stall-report JSON summary.
app_field() {
  awk -v key="\"$2\":" '{ t = t $0 } END { match(t, /"application":\{[^}]*\}/); a = substr(t, RSTART, RLENGTH)
    i = index(a, key); if (!i) { print "-"; exit } v = substr(a, i + length(key)); sub(/[,}].*/, "", v); print v }' "$1"
}

tsv=$out/scale.tsv
printf 'size\tctas\tsource\ttrace-unpack\trd-cache\tpipe-sim\tstall-report\tfull_s\tx_accelsim\tcta-sample\tsampled_pipe-sim\tsampled_stall-report\tsampled_s\tsampled_x_accelsim\tsampled_err_%%\testimate_%%\taccelsim_s\n' >"$tsv"
for size in $sizes; do
  sasskit-gen -q -k gather -n "$size" --binary-version 70 -o "$work/app"
  ctas=$(awk '/^-grid dim/ { gsub(/[^0-9,]/, "", $0); split($0, g, ","); print g[1] * g[2] * g[3]; exit }' "$work"/app/kernel-*.traceg)
  trace-compress -q "$work/app" -o "$work/app.ska"
  accelsim=$(awk -v c="$ctas" -v s="$accelsim_seconds" -v n="$accelsim_ctas" 'BEGIN { printf "%.0f%s", s * c / n, c == n ? "" : " (extrapolated)" }')
  for source in text archive; do
    src=$work/app
    [[ $source == archive ]] && src=$work/app.ska
    tu=$(median_cpu "$work/s" trace-unpack -q --no-provenance "$src" -o -)
    rd=$(median_cpu "$work/r" rd-cache "${common[@]}" "$work/s" -o -)
    ps=$(median_cpu "$work/p" pipe-sim "${common[@]}" "$work/r" -o -)
    sr=$(median_cpu "$work/full.json" stall-report -q --format json "$work/p")
    cs=$(median_cpu "$work/c" cta-sample -q --no-provenance --config qv100 "$work/r" -o -)
    sps=$(median_cpu "$work/q" pipe-sim "${common[@]}" "$work/c" -o -)
    ssr=$(median_cpu "$work/sampled.json" stall-report -q --format json "$work/q")
    awk -v OFS='\t' -v size="$size" -v ctas="$ctas" -v source="$source" -v tu="$tu" -v rd="$rd" -v ps="$ps" -v sr="$sr" \
        -v cs="$cs" -v sps="$sps" -v ssr="$ssr" -v accelsim="$accelsim" \
        -v full_cycles="$(app_field "$work/full.json" cycles)" -v sampled_cycles="$(app_field "$work/sampled.json" cycles)" \
        -v estimate="$(app_field "$work/sampled.json" sampling_error_frac)" 'BEGIN {
      a = accelsim + 0; full = tu + rd + ps + sr; sampled = tu + rd + cs + sps + ssr
      print size, ctas, source, tu, rd, ps, sr, full, sprintf("%.0f", a / full), cs, sps, ssr, sampled,
            sprintf("%.0f", a / sampled), sprintf("%+.2f", 100 * (sampled_cycles - full_cycles) / full_cycles),
            (estimate == "null" || estimate == "-" ? "-" : sprintf("+-%.2f", 100 * (estimate < 0 ? -estimate : estimate))), accelsim }' >>"$tsv"
    rm -f "$work/s" "$work/r" "$work/p" "$work/c" "$work/q"
  done
  rm -rf "$work/app" "$work/app.ska"
done
column -t -s $'\t' "$tsv"
