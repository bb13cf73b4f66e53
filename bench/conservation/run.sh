#!/usr/bin/env bash
# Bytes are conserved: for generated kernels of several shapes on every
# bundled GPU model, the DRAM and L2 traffic of a kernel divided by the time
# pipe-sim simulates for it must not exceed what the model sustains.
#   bench/conservation/run.sh [--quick] [-- GPU-OPTION ...]
# Per case it prints the kernel's DRAM bytes (rd-cache's count; pipe-sim's
# own charge beside it), the implied DRAM rate as a share of the model's
# sustained bandwidth (dram-bandwidth x dram-efficiency), the L2 rate as a
# share of l2-efficiency x noc-bandwidth, and the busiest SM's interconnect
# port as a share of its width. It exits 1 when any share passes 102%.
# --quick runs small kernels (seconds each; the CLI test uses it with a
# small --l2-size so that they still stream through DRAM). Options after
# -- go to every stage, e.g. -- --l2-size 256KiB.
set -euo pipefail
me=bench/conservation/run.sh
. "$(dirname "$0")/../bench-lib.sh"
bench_setup "$me" sasskit-gen trace-unpack rd-cache pipe-sim

quick=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; shift ;;
    --) shift; break ;;
    *) echo "$me: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
gpu_options=("$@")

# model:SASS binary version
models="qv100:70 rtx2060:75 rtx3070:86 a100:80 gtx1080:61 titanx:61 h100:90"
if [ $quick = 1 ]; then
  kernels="vecadd:64k stencil:64k gather:32k reduce:128k gemm:16k tensor:16k"
else
  kernels="vecadd:8M stencil:4M gather:2M reduce:8M"
fi

# The value of `key` in a --dump-config listing.
config_value() { sed -n "s/^$2 = //p" "$1"; }
# The number after "key": in a JSON object's text.
json_number() { sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p" <<<"$1" | head -n 1; }

printf '%-8s %-13s %9s %9s %9s %7s %7s %7s\n' model kernel cycles dram_MB charged_MB dram% l2% port%
worst=0
for m in $models; do
  model=${m%%:*} sass=${m##*:}
  pipe-sim --config "$model" "${gpu_options[@]}" --dump-config >"$work/config"
  clock=$(config_value "$work/config" clock-mhz)
  dram_bpc=$(awk -v b="$(config_value "$work/config" dram-bandwidth)" -v e="$(config_value "$work/config" dram-efficiency)" \
    -v c="$clock" 'BEGIN { print b * e * 1e3 / c }')
  l2_bpc=$(awk -v b="$(config_value "$work/config" noc-bandwidth)" -v e="$(config_value "$work/config" l2-efficiency)" \
    'BEGIN { print b * e }')
  port=$(config_value "$work/config" noc-port-bandwidth)
  line=$(config_value "$work/config" l1d-line-size)
  port_bpc=$(awk -v p="${port:-0}" -v l="$line" 'BEGIN { print (p > 0 ? p : (l > 32 ? l : 32)) }')
  sector=$(config_value "$work/config" l2-sector-size)
  for k in $kernels; do
    kernel=${k%%:*} n=${k##*:}
    [ "$kernel" = tensor ] && [ "$sass" -lt 70 ] && continue  # no tensor cores before Volta
    trace="$work/$kernel-$n-$sass"
    [ -d "$trace" ] || sasskit-gen -q -k "$kernel" -n "$n" --binary-version "$sass" -o "$trace"
    trace-unpack -q "$trace" | rd-cache -q --config "$model" "${gpu_options[@]}" \
      | pipe-sim -q --config "$model" "${gpu_options[@]}" --stats-only | trace-unpack -q --to jsonl - >"$work/out.jsonl"
    cache=$(grep '"t":"cache"' "$work/out.jsonl")
    stats=$(grep '"t":"stats"' "$work/out.jsonl")
    total=$(sed -n 's/.*"total":{\([^}]*\)}.*/\1/p' <<<"$stats")
    cycles=$(json_number "$stats" cycles)
    # The busiest SM's interconnect port: its sectors over its active cycles.
    port_share=$({ grep -o '"active_cycles":[0-9]*[^}]*"l2_sectors":[0-9]*' <<<"$stats" || true; } | tail -n +2 \
      | sed 's/"active_cycles":\([0-9]*\).*"l2_sectors":\([0-9]*\)/\1 \2/' \
      | awk -v s="$sector" -v p="$port_bpc" '$1 > 0 { r = $2 * s / $1 / p; if (r > m) m = r } END { printf "%.1f", 100 * m }')
    read -r dram_mb charged_mb dram_share l2_share < <(awk -v d="$(json_number "$cache" dram_sectors)" \
      -v r="$(json_number "$total" dram_read_sectors)" -v w="$(json_number "$total" dram_write_sectors)" \
      -v l2="$(json_number "$total" l2_sectors)" -v s="$sector" -v c="$cycles" -v db="$dram_bpc" -v lb="$l2_bpc" \
      'BEGIN { printf "%.2f %.2f %.1f %.1f\n", d * s / 1e6, (r + w) * s / 1e6, 100 * d * s / c / db, 100 * l2 * s / c / lb }')
    printf '%-8s %-13s %9d %9s %9s %7s %7s %7s\n' "$model" "$kernel-$n" "$cycles" "$dram_mb" "$charged_mb" \
      "$dram_share" "$l2_share" "$port_share"
    worst=$(printf '%s\n' "$worst" "$dram_share" "$l2_share" "$port_share" | sort -g | tail -n 1)
  done
done
if awk -v w="$worst" 'BEGIN { exit !(w > 102) }'; then
  echo "$me: a kernel moves more than its GPU model sustains (worst ${worst}%)" >&2
  exit 1
fi
echo "every kernel within its model's DRAM, L2 and port bandwidth (worst ${worst}%, limit 102%)"
