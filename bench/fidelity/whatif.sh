#!/usr/bin/env bash
# Design-change responses of sasskit against Accel-Sim's (issue 55) on the shared
# what-if set (../shared/data/accelsim-whatif, see its README). For every row of its
# reference.csv the full pipeline
#   trace-unpack DIR | rd-cache --config M OPTS | pipe-sim --config M OPTS | stall-report
# runs once as shipped (base) and once with the row's change; the response is
# cycles(change) / cycles(base) in each simulator, the gap sasskit's over Accel-Sim's.
# The summary counts the responses within 5% and those that move the other way
# where Accel-Sim moves by 2% or more, over the rows compared. A row whose
# Accel-Sim response comes from a mechanism of its own, which the GPU does not
# have, is judged against the range a source gives instead (source_range below;
# bench/README.md, What-if responses, gives each source), and not counted.
#   bench/fidelity/whatif.sh [OUTDIR [MODEL-OPTIONS...]]  (default $TMPDIR/sasskit-whatif)
# MODEL-OPTIONS follow --config in both runs (base and change) of every case.
# Tools come from $SASSKIT_BIN (default build/bin), data from $SASSKIT_DATA (default
# ../shared/data beside the checkout). Exit 77 when the data is absent.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${SASSKIT_DATA:-$root/../shared/data}
whatif=$data/accelsim-whatif
corpus=$data/accelsim-corpus
out=${1:-${TMPDIR:-/tmp}/sasskit-whatif}
model_options=("${@:2}")
if [[ ! -f $whatif/reference.csv || ! -d $corpus/traces ]]; then
  echo "whatif.sh: skipped: no what-if set at $whatif or no corpus at $corpus" >&2
  exit 77
fi
source "$root/bench/bench-lib.sh"
bench_setup whatif.sh trace-unpack rd-cache pipe-sim stall-report sasskit-gen awk
mkdir -p "$out"

# sasskit's options for a variant of the README's table on one GPU model.
variant_options() {
  local variant=$1 gpu=$2
  case $variant/$gpu in
    base/*) ;;
    smhalf/qv100) echo --num-sms 40 ;;
    smhalf/rtx3070) echo --num-sms 23 ;;
    gto/*) echo --scheduler gto ;;
    l2q/qv100 | l2w/qv100) echo --l2-size 1536KiB ;;
    l2q/rtx3070 | l2w/rtx3070) echo --l2-size 1MiB ;;
    dramhalf/qv100) echo --dram-bandwidth 435 ;;
    *) echo "whatif.sh: no sasskit options for variant $variant on $gpu" >&2; return 1 ;;
  esac
}

# Rows whose Accel-Sim response comes from a mechanism of Accel-Sim's own
# (bench/README.md, "What-if responses (issue 55)"): judged against the source
# there, and left out of the counts below.
# "LOW HIGH WHY" for a row judged against a source: the GPU's response lies in
# [LOW, HIGH]; WHY names Accel-Sim's own mechanism. Nothing for a compared row.
# Such a row is judged as the others are, within 5% of that range.
source_range() {
  case $1/$2 in
    gen-tensor-sm70/l2q | gen-tensor-sm70/l2w)
      echo "1.00 1.48 Accel-Sim's L2 refuses every write while its miss queue is full" ;;
    gen-tensor-sm86/l2q | gen-tensor-sm86/l2w)
      echo "1.00 1.55 Accel-Sim's L2 refuses every write while its miss queue is full" ;;
    vecadd-1M-sm70/smhalf)
      echo "1.014 1.032 Accel-Sim's full L1 miss queues bind its SMs' requests; a V100 keeps 97-99% of its DRAM rate with half the threads" ;;
    *) return 1 ;;
  esac
}

trace_dir() {
  local name=$1
  case $name in
    vecadd-1M-sm70)
      [[ -d $work/$name ]] || sasskit-gen -k vecadd -n 1M --binary-version 70 -o "$work/$name" >/dev/null
      echo "$work/$name" ;;
    *) echo "$corpus/traces/$name" ;;
  esac
}

# sasskit's application cycles of one trace on one model with extra options.
sasskit_cycles() {
  local trace=$1 gpu=$2; shift 2
  local model=(--config "$gpu" "${model_options[@]}" "$@")
  [[ -f $work/stream-$(basename "$trace") ]] || trace-unpack -q "$trace" -o "$work/stream-$(basename "$trace")"
  rd-cache -q "${model[@]}" "$work/stream-$(basename "$trace")" | pipe-sim -q "${model[@]}" \
    | stall-report -q --format csv \
    | awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
               $col["scope"] == "application" { print $col["cycles"] }'
}

results=$out/whatif.tsv
printf 'case\tgpu\tvariant\tas_base\tas_change\tas_response\tsk_base\tsk_change\tsk_response\tgap\tcompared\tsource_range\n' >"$results"
# reference.csv: accelsim_change may hold quoted commas, so take the cycles from the
# end of the line (the last four fields are plain numbers).
tail -n +2 "$whatif/reference.csv" | awk -F, -v OFS=' ' '{ print $1, $2, $3, $(NF - 3) }' >"$work/rows"
declare -A as_base sk_base
while read -r name gpu variant cycles; do
  trace=$(trace_dir "$name")
  change=$(variant_options "$variant" "$gpu")  # an unknown variant stops the script here
  read -r -a options <<<"$change"
  sk=$(sasskit_cycles "$trace" "$gpu" "${options[@]}")
  [[ -n $sk ]] || { echo "whatif.sh: $name $variant: no cycles from the pipeline" >&2; exit 1; }
  if [[ $variant == base ]]; then
    as_base[$name]=$cycles sk_base[$name]=$sk
    continue
  fi
  [[ -n ${as_base[$name]:-} ]] || { echo "whatif.sh: $name: $variant comes before its base row" >&2; exit 1; }
  compared=yes range=-
  if judged=$(source_range "$name" "$variant"); then
    read -r low high why <<<"$judged"
    compared="no: $why" range=$low-$high
  fi
  awk -v OFS='\t' -v n="$name" -v g="$gpu" -v v="$variant" -v ab="${as_base[$name]}" -v ac="$cycles" \
      -v sb="${sk_base[$name]}" -v sc="$sk" -v c="$compared" -v r="$range" 'BEGIN {
    ar = ac / ab; sr = sc / sb
    print n, g, v, ab, ac, sprintf("%.3f", ar), sb, sc, sprintf("%.3f", sr), sprintf("%+.1f", 100 * (sr / ar - 1)), c, r }'
done <"$work/rows" >>"$results"

column -t -s $'\t' "$results"
echo
# Over the compared rows: within 5% is |gap| <= 5%; the other way is where
# Accel-Sim moves by 2% or more and sasskit to the other side of 1 (an unmoved
# sasskit is not counted as the other way).
median=$(awk -F'\t' 'NR > 1 && $11 == "yes" { g = $10 + 0; print g < 0 ? -g : g }' "$results" | sort -n \
  | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
awk -F'\t' -v median="$median" 'NR > 1 && $11 != "yes" {
    ++left; split($12, r, "-")
    if ($9 + 0 >= (r[1] + 0) / 1.05 && $9 + 0 <= (r[2] + 0) * 1.05) ++inside
    next
  }
  NR > 1 {
    ar = $6 + 0; sr = $9 + 0; g = $10 + 0; a = g < 0 ? -g : g; ++n
    if (a <= 5) ++within
    if ((ar >= 1.02 && sr < 1) || (ar <= 0.98 && sr > 1)) { ++other; list = list " " $1 "/" $3 }
    if (a > worst) { worst = a; which = $1 "/" $3 }
  }
  END {
    printf "compared responses: %d (%d left out); within 5%%: %d; the other way (Accel-Sim moves >= 2%%): %d%s\n",
           n, left, within, other, list
    printf "median |gap| %.1f%%; largest |gap| %.1f%% (%s)\n", median, worst, which
    printf "judged against a source: %d; within 5%% of the source'"'"'s range: %d\n", left, inside
  }' "$results"
