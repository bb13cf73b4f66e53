#!/usr/bin/env bash
# Speed of every stage of sasskit (issue 35, item 1). Per case, the CPU seconds
# (user + system) of
#   trace-unpack DIR > S;  rd-cache S > R;  pipe-sim R > P;  stall-report P
# each stage reading the previous one's file, rd-cache and pipe-sim at -j 1 and
# -j 2 (outputs compared byte for byte), the median of SPEED_REPEAT runs
# (default 3); pipe-sim's simulated warp instructions and SM-cycles (the stats
# records' total.insts and total.sm_cycles) per CPU second; and, where the
# case's Accel-Sim log gives a simulation time of at least 5 s (the log rounds
# to whole seconds), that time over pipe-sim's CPU seconds and over the whole
# unsampled pipeline's (trace-unpack + rd-cache + pipe-sim + stall-report, one
# thread each). Beside it, the same for the SM-sampled pipeline, R > cta-sample
# > C;  pipe-sim C > Q;  stall-report Q (cta-sample's default sample of
# rd-cache's output, one thread): the CPU seconds of the stages it adds, its
# ratios to Accel-Sim, and the application's cycles it projects against the
# unsampled run's (an accuracy trade, measured, not the goals). Then the
# two-thread speed-up of pipe-sim, wall clock: the
# median of SPEED_RUNS (default 5) alternating -j 1 / -j 2 runs on wmma x80,
# the corpus's gather cases and a generated gather of 65,536 CTAs, beside the
# speed-up that two independent -j 1 runs at once get on the machine then
# (the most that two threads could; on a shared or throttled machine it is
# well below 2).
#
#   bash bench/speed/run.sh [OUTDIR]      (default $TMPDIR/sasskit-speed)
#
# Cases: every case of the shared corpus (../shared/data/accelsim-corpus);
# wmma x80, the real wmma-sm70 trace with its CTA repeated 80 times, 64 KiB
# apart (wmma-x80.awk; Accel-Sim: 29.7 s, issue 35's figure, no log here);
# with SPEED_BIG=1 also a generated application of 1.09 GB of Accel-Sim text
# and 320 launches of five kinds (about 3 minutes more on a 2-core machine,
# and 1.6 GB of scratch space under $TMPDIR).
# SPEED_STAGES=1 adds the other stages' goals (rd-cache's accesses per CPU
# second, `trace-unpack --to accelsim` against `xz -dc`) on a 1.04 GB vecadd and
# a 0.46 GB gather kernel (stages.tsv; a few minutes more, 2 GB of scratch).
# SPEED_SERIAL=1 adds the serial part of trace-unpack (from the text),
# rd-cache and pipe-sim (issue 61): each at -j 1 and -j 2 under SASSKIT_TIMING (sasskit(7)) on a generated
# gather of 65,536 CTAs of 256 threads (-n 16M, 0.4 GB of text), the wall and
# CPU time outside the parallel sections and Amdahl's speed-up at 16 and 64
# threads (serial.tsv; one run each, a few minutes on a 2-core machine).
# SPEED_QUICK=1 runs one small generated case only, to check the script (under
# a minute). Without the shared data the corpus and wmma cases are skipped,
# saying so (exit 77 when nothing else was asked for). Writes OUTDIR/speed.tsv and OUTDIR/two-threads.tsv and prints
# both as tables. Tools come from $SASSKIT_BIN (default build/bin), data from
# $SASSKIT_DATA (default ../shared/data beside the checkout). Not a test: speed
# is never timed in ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/../bench-lib.sh"
bench_setup run.sh trace-unpack cta-sample rd-cache pipe-sim stall-report sasskit-gen awk column cmp
data=${SASSKIT_DATA:-$root/../shared/data}
corpus=$data/accelsim-corpus
out=${1:-${TMPDIR:-/tmp}/sasskit-speed}
repeat=${SPEED_REPEAT:-3}
runs=${SPEED_RUNS:-5}
mkdir -p "$out"

# The median CPU seconds of $repeat runs of a command (stdout to $1).
median_cpu() {
  local to=$1; shift
  local i
  for ((i = 0; i < repeat; ++i)); do cpu_wall "$to" "$@" | cut -d' ' -f1; done | median
}
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Both outputs of a -j 1 / -j 2 pair must be the same bytes.
same_bytes() {
  cmp -s "$1" "$2" || { echo "run.sh: $3: -j 1 and -j 2 outputs differ" >&2; exit 1; }
}

# "insts sm_cycles" summed over the kernels of pipe-sim's output stream.
simulated() {
  trace-unpack --to jsonl "$1" | awk '/^\{"t":"stats"/ {
      match($0, /"total":\{[^}]*\}/); t = substr($0, RSTART, RLENGTH)
      match(t, /"sm_cycles":[0-9]+/); c += substr(t, RSTART + 12, RLENGTH - 12)
      match(t, /"insts":[0-9]+/); n += substr(t, RSTART + 8, RLENGTH - 8) }
    END { printf "%d %d\n", n, c }'
}

# One row of speed.tsv: NAME TRACE-DIR CONFIG ACCELSIM-SECONDS ("-" if none).
measure_case() {
  local name=$1 trace=$2 config=$3 accelsim=$4
  local s=$work/unpacked.stream r1=$work/rd1.stream r2=$work/rd2.stream p1=$work/ps1.stream p2=$work/ps2.stream
  local unpack cta rd1 rd2 ps1 ps2 report insts sm_cycles
  unpack=$(median_cpu /dev/null trace-unpack -q "$trace" -o "$s")
  rd1=$(median_cpu /dev/null rd-cache -q --no-provenance --config "$config" -j 1 "$s" -o "$r1")
  rd2=$(median_cpu /dev/null rd-cache -q --no-provenance --config "$config" -j 2 "$s" -o "$r2")
  same_bytes "$r1" "$r2" "$name: rd-cache"
  ps1=$(median_cpu /dev/null pipe-sim -q --no-provenance --config "$config" -j 1 "$r1" -o "$p1")
  ps2=$(median_cpu /dev/null pipe-sim -q --no-provenance --config "$config" -j 2 "$r1" -o "$p2")
  same_bytes "$p1" "$p2" "$name: pipe-sim"
  report=$(median_cpu /dev/null stall-report -q "$p1")
  read -r insts sm_cycles < <(simulated "$p1")
  local cta sps sreport cycles scycles
  cta=$(median_cpu /dev/null cta-sample -q --config "$config" "$r1" -o "$work/sampled.stream")
  sps=$(median_cpu /dev/null pipe-sim -q --no-provenance --config "$config" -j 1 "$work/sampled.stream" -o "$work/sps.stream")
  sreport=$(median_cpu /dev/null stall-report -q "$work/sps.stream")
  cycles=$(application_cycles "$p1")
  scycles=$(application_cycles "$work/sps.stream")
  awk -v OFS='\t' -v n="$name" -v mb="$(size "$s")" -v u="$unpack" -v c="$cta" -v r1="$rd1" -v r2="$rd2" \
      -v p1="$ps1" -v p2="$ps2" -v sr="$report" -v i="$insts" -v k="$sm_cycles" -v a="$accelsim" \
      -v sps="$sps" -v ssr="$sreport" -v cy="$cycles" -v scy="$scycles" '
    function rate(x, t) { return t > 0 ? sprintf("%.2f", x / t / 1e6) : "-" }
    function times(t) { return a == "-" || t <= 0 ? "-" : sprintf("%.0f", a / t) }
    BEGIN { all = u + r1 + p1 + sr; sampled = u + r1 + c + sps + ssr
            print n, sprintf("%.2f", mb / 1e6), u, r1, r2, p1, p2, sr, all, i, k, rate(i, p1), rate(k, p1), a, times(p1), times(all),
                  c, sps, ssr, sampled, times(sps), times(sampled), cy, scy, sprintf("%+.2f", 100 * (scy - cy) / cy) }'
  rm -f "$s" "$work/sampled.stream" "$work/sps.stream" "$r2" "$p1" "$p2"
  mv "$r1" "$work/$name.rd.stream"  # kept for the two-thread runs
}

# The application's cycles in a pipe-sim output stream, as stall-report projects
# them (kernel names, which may hold commas, are quoted: dropped first).
application_cycles() {
  stall-report "$1" --format csv | sed 's/"[^"]*"/name/g' | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["scope"] == "application" { print $col["cycles"] }'
}

# Accel-Sim's gpgpu_simulation_time in seconds from a case's log, "-" below 5 s or without a log.
accelsim_seconds() {
  [[ -f $1 ]] || { echo -; return; }
  xz -dc "$1" | awk '/^gpgpu_simulation_time/ { s = $(NF - 1); sub(/\(/, "", s) } END { print (s + 0 >= 5 ? s + 0 : "-") }'
}

# The wall clock of COUNT copies of a command run at once, copy i writing
# $work/copyI.stream.
copies_wall() {
  local count=$1 start=$EPOCHREALTIME i pids=()
  shift
  for ((i = 1; i <= count; ++i)); do
    "$@" -o "$work/copy$i.stream" &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || exit 1; done
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}

# The two-thread speed-up of pipe-sim on a kept rd-cache stream, wall clock:
# "case runs median min max walls-j1 walls-j2 ceiling of_ceiling". ceiling is
# the median of 2 * wall(one -j 1 run) / wall(two -j 1 runs at once): the
# speed-up two wholly independent runs get, which is how much of a second
# CPU the machine gives while both are busy; of_ceiling is the median of
# the two-thread speed-up over it.
two_threads() {
  local name=$1 config=$2 rd=$work/$1.rd.stream
  local i copy one two solo pair walls ratios
  walls=$(for ((i = 0; i < runs; ++i)); do
    one=$(cpu_wall "$work/tt1.stream" pipe-sim -q --no-provenance --config "$config" -j 1 "$rd" -o - | cut -d' ' -f2)
    two=$(cpu_wall "$work/tt2.stream" pipe-sim -q --no-provenance --config "$config" -j 2 "$rd" -o - | cut -d' ' -f2)
    same_bytes "$work/tt1.stream" "$work/tt2.stream" "$name: pipe-sim (two-thread runs)"
    solo=$(copies_wall 1 pipe-sim -q --no-provenance --config "$config" -j 1 "$rd")
    pair=$(copies_wall 2 pipe-sim -q --no-provenance --config "$config" -j 1 "$rd")
    for copy in 1 2; do same_bytes "$work/tt1.stream" "$work/copy$copy.stream" "$name: pipe-sim (two runs at once)"; done
    echo "$one $two $solo $pair"
  done)
  ratios=$(awk '{ print $1 / $2 }' <<<"$walls" | sort -g)
  printf '%s\t%d\t%.2f\t%.2f\t%.2f\t%s\t%s\t%.2f\t%.2f\n' "$name" "$runs" "$(median <<<"$ratios")" \
    "$(head -1 <<<"$ratios")" "$(tail -1 <<<"$ratios")" "$(cut -d' ' -f1 <<<"$walls" | paste -sd' ')" \
    "$(cut -d' ' -f2 <<<"$walls" | paste -sd' ')" "$(awk '{ print 2 * $3 / $4 }' <<<"$walls" | median)" \
    "$(awk '{ print ($1 / $2) / (2 * $3 / $4) }' <<<"$walls" | median)"
}

results=$out/speed.tsv
threads=$out/two-threads.tsv
printf 'case\tstream_MB\tunpack\trd-cache_j1\trd-cache_j2\tpipe-sim_j1\tpipe-sim_j2\tstall-report\tpipeline_j1\twarp_insts\tsm_cycles\tM_insts/cpu_s\tM_sm_cycles/cpu_s\taccelsim_s\tx_pipe-sim\tx_pipeline\tcta-sample\tsampled_pipe-sim\tsampled_stall-report\tsampled_pipeline\tx_sampled_pipe-sim\tx_sampled_pipeline\tcycles\tsampled_cycles\tsampled_cycles_err_%%\n' >"$results"
printf 'case\truns\tmedian_speedup\tmin\tmax\twall_j1\twall_j2\tceiling\tof_ceiling\n' >"$threads"
two_thread_cases=()

if [[ ${SPEED_QUICK:-0} == 1 ]]; then
  sasskit-gen -q -k vecadd,gather -n 64k -o "$work/quick"
  measure_case quick-vecadd-gather "$work/quick" qv100 - >>"$results"
  two_thread_cases=(quick-vecadd-gather:qv100)
elif [[ ! -f $corpus/reference.csv || ! -f $data/traces/wmma-sm70/kernel-1.traceg ]]; then
  echo "run.sh: corpus and wmma x80 skipped: no shared data at $data" >&2
  [[ ${SPEED_BIG:-0} == 1 ]] || exit 77
else
  # reference.csv: the last field (made_by) may hold quoted commas; the first four do not.
  while IFS=, read -r name trace gpu _; do
    measure_case "$name" "$corpus/$trace" "$gpu" "$(accelsim_seconds "$corpus/logs/$name.log.xz")" >>"$results"
  done < <(tail -n +2 "$corpus/reference.csv")
  mkdir "$work/wmma-x80"
  cp "$data/traces/wmma-sm70/kernelslist.g" "$work/wmma-x80/"
  awk -f "$here/wmma-x80.awk" "$data/traces/wmma-sm70/kernel-1.traceg" >"$work/wmma-x80/kernel-1.traceg"
  measure_case wmma-x80 "$work/wmma-x80" qv100 29.7 >>"$results"
  # The goal's generated kernel of at least 64k CTAs: a gather of 2M
  # elements in CTAs of one warp (65,536 CTAs, 58 MB of text).
  sasskit-gen -q -k gather --block 32 --iters 1 -n 2M -o "$work/gather-64k-ctas"
  measure_case gather-64k-ctas "$work/gather-64k-ctas" qv100 - >>"$results"
  rm -rf "$work/gather-64k-ctas"
  two_thread_cases=(wmma-x80:qv100 gen-gather-sm70:qv100 gen-gather-sm75:rtx2060 gen-gather-sm86:rtx3070
    gather-64k-ctas:qv100)
fi
if [[ ${SPEED_BIG:-0} == 1 ]]; then
  # 5 kinds x 64 launches, 1.09 GB of text; measured once (SPEED_REPEAT=1):
  # each stage runs for seconds to minutes.
  sasskit-gen -q -k vecadd,gather,stencil,reduce,tensor -n 64k --repeat 64 -o "$work/app"
  echo "generated application: $(du -sb "$work/app" | cut -f1) bytes of Accel-Sim text, $(grep -c '^kernel-' "$work/app/kernelslist.g") launches" >&2
  repeat=1 measure_case gen-app-320 "$work/app" qv100 - >>"$results"
  rm -rf "$work/app"
fi
for entry in "${two_thread_cases[@]}"; do two_threads "${entry%%:*}" "${entry#*:}" >>"$threads"; done

# One row of stages.tsv: the other stages' goals on one generated kernel of
# KIND and SIZE: rd-cache's sector accesses (L1 and L2, from its JSON summary)
# and warp requests per CPU second at -j 1, and `trace-unpack --to accelsim`
# against `xz -dc` of the same text (xz -1; both write a file; the text
# written must be the generated one). Median CPU seconds of $repeat runs.
measure_stages() {
  local kind=$1 size=$2 dir=$work/stage-text s=$work/stage.stream
  local rd xz unpack requests sectors
  rm -rf "$dir" "$work/stage-unpacked"
  sasskit-gen -q -k "$kind" -n "$size" -o "$dir"
  trace-unpack -q --no-provenance "$dir" -o "$s"
  rd=$(median_cpu "$work/stage.json" rd-cache -q --no-provenance --config qv100 -j 1 --format json "$s" -o -)
  read -r requests sectors < <(awk '{ t = t $0 } END {
      $0 = t
      match($0, /"gmem_requests": *[0-9]+/); split(substr($0, RSTART, RLENGTH), a, ":")
      match($0, /"l1_sectors": *[0-9]+/); split(substr($0, RSTART, RLENGTH), b, ":")
      match($0, /"l2_sectors": *[0-9]+/); split(substr($0, RSTART, RLENGTH), c, ":")
      print a[2] + 0, b[2] + c[2] }' "$work/stage.json")
  xz -1 -T2 -c "$dir/kernel-1.traceg" >"$work/stage.xz"
  xz=$(median_cpu "$work/stage-xz.txt" xz -dc "$work/stage.xz")
  unpack=$(for ((i = 0; i < repeat; ++i)); do
    rm -rf "$work/stage-unpacked"
    cpu_wall /dev/null trace-unpack -q --to accelsim "$s" -o "$work/stage-unpacked" | cut -d' ' -f1
  done | median)
  cmp -s "$work/stage-unpacked/kernel-1.traceg" "$dir/kernel-1.traceg" ||
    { echo "run.sh: $kind $size: --to accelsim did not give the generated text back" >&2; exit 1; }
  awk -v OFS='\t' -v k="$kind-$size" -v b="$(size "$dir/kernel-1.traceg")" -v rd="$rd" -v q="$requests" \
      -v n="$sectors" -v x="$xz" -v u="$unpack" 'BEGIN {
    print k, b, rd, q, n, sprintf("%.1f", n / rd / 1e6), sprintf("%.2f", q / rd / 1e6), u, x, sprintf("%.2f", x / u) }'
  rm -rf "$dir" "$s" "$work/stage.json" "$work/stage.xz" "$work/stage-xz.txt" "$work/stage-unpacked"
}

# Rows of serial.tsv: NAME TRACE-DIR, each tool at 1 and 2 threads, the
# figures of its SASSKIT_TIMING line as columns.
measure_serial() {
  local name=$1 dir=$2 s=$work/serial.stream r=$work/serial.rd j tool input
  trace-unpack -q --no-provenance "$dir" -o "$s"
  rd-cache -q --no-provenance --config qv100 "$s" -o "$r"
  for j in 1 2; do
    for tool in "trace-unpack:$dir" "rd-cache:$s" "pipe-sim:$r"; do
      input=${tool#*:}
      tool=${tool%%:*}
      local gpu=(--config qv100)
      [[ $tool == trace-unpack ]] && gpu=()
      SASSKIT_TIMING=1 "$tool" -q --no-provenance "${gpu[@]}" -j "$j" "$input" -o /dev/null 2>"$work/timing.txt"
      awk -v OFS='\t' -v n="$name" -v t="$tool" -v j="$j" '
        { for (i = 1; i <= NF; i++) { gsub(/[,;%x()]/, "", $i); v[i] = $i } }
        END { print n, t, j, v[4], v[7], v[9], v[13], v[18], v[22], v[25], v[28], v[34], v[38], v[48], v[49] }' \
        "$work/timing.txt"
    done
  done
  rm -f "$s" "$r" "$work/timing.txt"
}

if [[ ${SPEED_SERIAL:-0} == 1 ]]; then
  serial=$out/serial.tsv
  printf 'case\ttool\tthreads\twall_s\tcpu_s\tsections\tsections_wall_s\ttasks_cpu_s\tserial_wall_s\tserial_cpu_s\tserial_%%\tamdahl_16\tamdahl_64\tbounded_16\tbounded_64\n' >"$serial"
  size=16M
  [[ ${SPEED_QUICK:-0} == 1 ]] && size=64k
  sasskit-gen -q -k gather -n "$size" -o "$work/serial-gather"
  measure_serial "gather-$size" "$work/serial-gather" >>"$serial"
  rm -rf "$work/serial-gather"
fi

if [[ ${SPEED_STAGES:-0} == 1 ]]; then
  stages=$out/stages.tsv
  printf 'kernel\ttext_bytes\trd-cache_cpu_s\tgmem_requests\tl1+l2_sectors\tM_sectors/cpu_s\tM_requests/cpu_s\tto-accelsim_cpu_s\txz-dc_cpu_s\txz/to-accelsim\n' >"$stages"
  measure_stages vecadd 48M >>"$stages"
  measure_stages gather 16M >>"$stages"
fi

column -t -s $'\t' "$results"
echo
echo "pipe-sim -j 2 against -j 1, wall clock, $runs alternating runs each"
column -t -s $'\t' "$threads"
if [[ ${SPEED_SERIAL:-0} == 1 ]]; then
  echo
  echo "the serial part (SASSKIT_TIMING): wall and CPU seconds outside the parallel sections, Amdahl's speed-up"
  column -t -s $'\t' "$serial"
fi
if [[ ${SPEED_STAGES:-0} == 1 ]]; then
  echo
  echo "rd-cache and trace-unpack --to accelsim on generated kernels (CPU seconds)"
  column -t -s $'\t' "$stages"
fi
