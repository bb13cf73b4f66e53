#!/usr/bin/env bash
# Correlation of sasskit's full, unsampled pipeline with Accel-Sim on the shared
# corpus (../shared/data/accelsim-corpus, see its README):
#   trace-unpack DIR | rd-cache --config M | pipe-sim --config M | stall-report
# per case of reference.csv. Prints per case Accel-Sim's cycles (accelsim_cycles:
# launch latency 0, memcpy bug fixed), sasskit's, the gap, L1/L2 hit rates and DRAM
# sectors of both; then per GPU model and overall the median and p90 of |gap|, the
# count within 15% and Pearson r of log cycles; and a gnuplot log-log scatter.
#   bench/fidelity/corpus.sh [OUTDIR [MODEL-OPTIONS...]]   (default $TMPDIR/sasskit-fidelity)
# MODEL-OPTIONS (GPU model keys, e.g. --l2-efficiency 0.6) follow each case's
# --config for rd-cache and pipe-sim: a what-if run over the whole corpus.
# Tools come from $SASSKIT_BIN (default build/bin), data from $SASSKIT_DATA
# (default ../shared/data beside the checkout). Exit 77 when the data is absent.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${SASSKIT_BIN:-$root/build/bin}
data=${SASSKIT_DATA:-$root/../shared/data}
corpus=$data/accelsim-corpus
out=${1:-${TMPDIR:-/tmp}/sasskit-fidelity}
model_options=("${@:2}")
if [[ ! -f $corpus/reference.csv ]]; then
  echo "corpus.sh: skipped: no correlation corpus at $corpus" >&2
  exit 77
fi
export PATH="$bin:$PATH"
for tool in trace-unpack rd-cache pipe-sim stall-report xz awk; do
  command -v "$tool" >/dev/null || { echo "corpus.sh: $tool not found" >&2; exit 1; }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Cases whose Accel-Sim cycles do not measure what sasskit models (the corpus
# README): the straight-line micro traces (Accel-Sim's tested configs have a
# perfect instruction cache, real GPUs do not) and the dependent IADD3 chain
# (Accel-Sim 7.0 cycles per instruction, a V100 4.3: silicon is the reference).
excluded() {
  case $1 in
    micro-chain|micro-indep) echo "straight-line code: Accel-Sim's instruction cache is perfect" ;;
    micro-chain-loop) echo "dependent IADD3: Accel-Sim 7.0 cycles, silicon 4.3" ;;
    *) return 1 ;;
  esac
}

# Accel-Sim's DRAM sectors (reads + writes over all channels) from the stats
# printed after the last kernel; "-" for a case without a log.
accelsim_dram() {
  [[ -f $1 ]] || { echo -; return; }
  xz -dc "$1" | awk '
    /^gpu_tot_sim_cycle/ { n = 0 }
    /^n_cmd=/ { for (i = 1; i <= NF; ++i) if ($i ~ /^n_rd=|^n_write=/) { split($i, kv, "="); n += kv[2] } }
    END { print n + 0 }'
}

# sasskit: "cycles l1_hit l2_hit dram_sectors" of one trace on one model.
sasskit_run() {
  local trace=$1 gpu=$2
  trace-unpack -q "$trace" -o "$work/stream"
  local model=(--config "$gpu" "${model_options[@]}")
  rd-cache -q "${model[@]}" "$work/stream" --format json -o "$work/rd.json"
  rd-cache -q "${model[@]}" "$work/stream" | pipe-sim -q "${model[@]}" \
    | stall-report -q --format csv -o "$work/report.csv"
  local dram
  dram=$(grep -o '"dram_sectors":[0-9]*' "$work/rd.json" | awk -F: '{ s += $2 } END { print s + 0 }')
  awk -F, -v dram="$dram" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["scope"] == "application" { print $col["cycles"], $col["l1_hit_frac"], $col["l2_hit_frac"], dram }' "$work/report.csv"
}

results=$out/corpus.tsv
printf 'case\tgpu\taccelsim\tsasskit\tgap\tas_l1\tsk_l1\tas_l2\tsk_l2\tas_dram\tsk_dram\tcompared\n' >"$results"
# reference.csv: the last field (made_by) may hold quoted commas; the first ten do not.
tail -n +2 "$corpus/reference.csv" | while IFS=, read -r name trace gpu _config cycles _ _ _ as_l1 as_l2 _; do
  read -r sk_cycles sk_l1 sk_l2 sk_dram < <(sasskit_run "$corpus/$trace" "$gpu")
  as_dram=$(accelsim_dram "$corpus/logs/$name.log.xz")
  compared=yes
  why=$(excluded "$name") && compared="no: $why"
  awk -v OFS='\t' -v n="$name" -v g="$gpu" -v a="$cycles" -v s="$sk_cycles" -v al1="$as_l1" -v sl1="$sk_l1" \
      -v al2="$as_l2" -v sl2="$sk_l2" -v ad="$as_dram" -v sd="$sk_dram" -v c="$compared" '
    function pct(x) { return x == "" ? "-" : sprintf("%.1f", 100 * x) }
    BEGIN { print n, g, a, s, sprintf("%+.1f", 100 * (s - a) / a), pct(al1), pct(sl1), pct(al2), pct(sl2), ad, sd, c }'
done >>"$results"

column -t -s $'\t' "$results"
echo
awk -f "$here/summary.awk" "$results"
if command -v gnuplot >/dev/null; then
  awk -F'\t' 'NR > 1 && $12 == "yes" { print $2, $3, $4 }' "$results" >"$out/corpus-points.txt"
  gnuplot -e "points='$out/corpus-points.txt'; output='$out/corpus-scatter.svg'" "$here/scatter.gp"
  echo "scatter plot: $out/corpus-scatter.svg"
fi
