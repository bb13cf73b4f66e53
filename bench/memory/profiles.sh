#!/usr/bin/env bash
# Peak memory of the profile and reference readers (issue 59): kernel-select
# PROFILE and stall-report STREAM --reference PROFILE on generated exports of
# four layouts, each about 44 MB (ROWS rows) and 4x that (4 ROWS rows), and an
# nvprof trace 4x as large made of the same kernels with three memory copies
# between them (rows a reader skips). What a reader holds beyond what it
# keeps of the kernels shows as growth with the bytes; what it keeps, as
# growth with the kernels.
#
#   bash bench/memory/profiles.sh [ROWS] [BASE_BINDIR]
#
# ROWS defaults to 1000000. BASE_BINDIR (optional): a second build whose
# kernel-select and stall-report are measured on the same files (e.g. main
# before the readers streamed). SASSKIT_BIN sets the build (default
# build/bin); the files are made in a scratch directory, removed at the end
# (about 700 MB at the default size).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../bench-lib.sh"
bench_setup profiles.sh sasskit-gen trace-unpack rd-cache pipe-sim kernel-select stall-report
rows=${1:-1000000}
base=${2:-}
[ -n "$base" ] && base=$(cd "$base" && pwd)
export TMPDIR=$work  # the readers' spill files too

# plain|ncu|nvprof|nsys N [COPIES]: an export of N kernel launches, each after
# COPIES memory-copy rows (nvprof only).
plain() {
  awk -v n="$1" 'BEGIN { print "id,name,cycles,instructions,l1_hit_rate,occupancy"
    for (i = 1; i <= n; i++) printf "%d,_Z6vecaddPKfS0_Pfi,%d,%d,0.5,0.3\n", i, 800 + i % 97, 400 + i % 13 }'
}
ncu() {
  awk -v n="$1" 'BEGIN { q = "\""
    print q "ID" q "," q "Kernel Name" q "," q "gpc__cycles_elapsed.max" q "," q "gpu__time_duration.sum" q "," q "smsp__inst_executed.sum" q
    print q q "," q q "," q "cycle" q "," q "nsecond" q "," q "inst" q
    for (i = 0; i < n; i++) printf "%s%d%s,%s_Z6vecaddPKfS0_Pfi%s,%s%d%s,%s%d%s,%s%d%s\n", q, i, q, q, q, q, 800 + i % 97, q, q, 600 + i % 89, q, q, 400 + i % 13, q }'
}
nvprof() {
  awk -v n="$1" -v copies="${2:-0}" 'BEGIN {
    print "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\",\"Block Z\",\"Device\",\"Name\",\"inst_executed\",\"ipc\""
    print "ms,us,,,,,,,,,,"
    for (i = 0; i < n; i++) {
      for (c = 0; c < copies; c++) printf "%.6f,1.2,,,,,,,\"Tesla V100\",\"[CUDA memcpy HtoD]\",,\n", i
      printf "%.6f,%.3f,64,1,1,256,1,1,\"Tesla V100\",\"_Z6vecaddPKfS0_Pfi\",%d,1.5\n", i, 2 + (i % 97) / 100, 400 + i % 13
    } }'
}
nsys() {
  awk -v n="$1" 'BEGIN { print "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,Device,Strm,Name"
    for (i = 0; i < n; i++) printf "%d,%d,%d,64,1,1,256,1,1,32,NVIDIA V100 (0),7,_Z6vecaddPKfS0_Pfi\n", 1000 * i, 2000 + i % 97, i }'
}

sasskit-gen -q -k vecadd -n 4k -o "$work/app"
trace-unpack -q "$work/app" | rd-cache -q --config qv100 | pipe-sim -q --config qv100 -o "$work/run.stream"
rm -rf "$work/app"

# peak BINDIR TOOL ARGS...: the tool's peak RSS in MiB.
peak() {
  local bin=$1 tool=$2; shift 2
  timed /dev/null "$bin/$tool" -q "$@" | awk '{ printf "%.0f", $3 / 1024 }'
}

builds=("$(dirname "$(command -v kernel-select)")")
[ -n "$base" ] && builds+=("$base")
printf '%-26s %8s %9s' input MB kernels
names=("SASSKIT_BIN" "BASE_BINDIR")
for i in "${!builds[@]}"; do printf ' | %s: kernel-select, stall-report (MiB)' "${names[$i]}"; done
echo
for input in plain:1:0 plain:4:0 ncu:1:0 ncu:4:0 nvprof:1:0 nvprof:4:0 nvprof:1:3 nsys:1:0 nsys:4:0; do
  IFS=: read -r layout times copies <<<"$input"
  n=$((rows * times))
  "$layout" "$n" "$copies" >"$work/profile.csv"
  label="$layout x$times"
  [ "$copies" = 0 ] || label+=" +$copies copies each"
  printf '%-26s %8.1f %9d' "$label" "$(awk -v b="$(size "$work/profile.csv")" 'BEGIN { print b / 1e6 }')" "$n"
  for b in "${builds[@]}"; do
    ks=$(peak "$b" kernel-select "$work/profile.csv" --no-provenance -o /dev/null)
    sr=-  # nsys reports hold times only: no reference
    [ "$layout" = nsys ] || sr=$(peak "$b" stall-report "$work/run.stream" --reference "$work/profile.csv")
    printf ' | %6s %6s' "$ks" "$sr"
  done
  echo
  rm -f "$work/profile.csv"
done
