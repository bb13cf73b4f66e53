#!/usr/bin/env bash
# trace-compress against xz -9 and gzip -9 on generated Accel-Sim traces:
# a regular one (vecadd) and an irregular one (gather, uniform random
# indices). Prints sizes and CPU times as ratios; see bench/README.md.
#   bench/compress-bench.sh [REGULAR_ELEMENTS] [GATHER_ELEMENTS]
# Defaults (5M and 4M elements) give traces of about 105 and 112 MB.
# Tools come from $SASSKIT_BIN (default build/bin); scratch space from $TMPDIR.
set -euo pipefail
regular_n=${1:-5M}
gather_n=${2:-4M}
source "$(dirname "$0")/bench-lib.sh"
bench_setup compress-bench sasskit-gen trace-compress trace-unpack xz gzip

run_case() {
  local name=$1 kind=$2 n=$3
  local dir="$work/$name"
  sasskit-gen -k "$kind" -n "$n" -o "$dir" >/dev/null
  local text="$dir/kernel-1.traceg"
  local text_size; text_size=$(size "$text")
  read -r xz_s _ _ < <(timed "$work/t.xz" xz -9 -T1 -c "$text")
  read -r gz_s _ _ < <(timed "$work/t.gz" gzip -9 -c "$text")
  read -r ar_s _ ar_kib < <(timed /dev/null trace-compress "$dir" -o "$work/t.sass.z")
  read -r xzd_s _ _ < <(timed /dev/null xz -dc "$work/t.xz")
  read -r un_s _ un_kib < <(timed /dev/null trace-unpack "$work/t.sass.z")
  read -r txt_s _ _ < <(timed /dev/null trace-unpack "$work/t.sass.z" --to accelsim -o "$work/$name.out")
  local ar xz gz; ar=$(size "$work/t.sass.z"); xz=$(size "$work/t.xz"); gz=$(size "$work/t.gz")
  printf '%s (%s, -n %s): text %d bytes\n' "$name" "$kind" "$n" "$text_size"
  printf '  archive %d bytes  xz -9 %d  gzip -9 %d\n' "$ar" "$xz" "$gz"
  printf '  size   archive/xz-9 %s  archive/gzip-9 %s\n' "$(ratio "$ar" "$xz")" "$(ratio "$ar" "$gz")"
  printf '  time   compress %ss / xz -9 %ss = %s\n' "$ar_s" "$xz_s" "$(ratio "$ar_s" "$xz_s")"
  printf '  time   unpack to stream %ss, to text %ss / xz -dc %ss = %s\n' \
    "$un_s" "$txt_s" "$xzd_s" "$(ratio "$txt_s" "$xzd_s")"
  printf '  peak RSS compress %d MiB, unpack %d MiB\n' $((ar_kib / 1024)) $((un_kib / 1024))
  if [ "$kind" = gather ]; then
    # Each element reads one index drawn uniformly from n: log2(n) bits of
    # entropy that no lossless coder can remove.
    local elems; elems=$(numfmt --from=iec "$n")
    local floor; floor=$(awk -v n="$elems" 'BEGIN { printf "%d", n * log(n) / log(2) / 8 }')
    printf '  entropy floor of the random indices %d bytes: archive/floor %s, xz-9/floor %s\n' \
      "$floor" "$(ratio "$ar" "$floor")" "$(ratio "$xz" "$floor")"
  fi
  rm -rf "$dir" "$work/$name.out" "$work"/t.*
}

run_case regular vecadd "$regular_n"
run_case irregular gather "$gather_n"
