#!/usr/bin/env bash
# Silicon microbenchmarks as small traces (micro-trace.awk), run through the
# full pipeline (trace-unpack | rd-cache | pipe-sim | stall-report) and compared
# with the V100 (TITAN V) measurements of accel-sim-framework's
# GPU_Microbenchmark (../shared/data/hardware/volta-microbenchmark-output.txt).
# Each figure is the slope between two sizes, so launch, cold misses and drain cancel.
#   bench/fidelity/micro.sh [GPU-MODEL-OPTIONS...]
# Default model: the bundled qv100 with the TITAN V's memory system, as the
# same file describes it (the measured GPU): 48 L2 banks ("L2 Banks number"),
# 1536 B/clk of L2 ("Max Theortical L2 bandwidth"), 652.8 GB/s of HBM2
# ("Max Theortical Mem BW"; 850 MHz x 3072 bit x 2), 4.5 MiB of L2 (TITAN V), and
# the SM clock at which mem_bw's two figures agree (521.05 GB/s / 445.77 B/clk =
# 1169 MHz), so that DRAM bytes per clock compare.
# Then the Hopper rows: figures measured on an H100 PCIe (cited at each row), on the
# bundled h100-pcie model whatever the options.
# Tools from $SASSKIT_BIN (default build/bin), data from $SASSKIT_DATA (default
# ../shared/data). Exit 77 when the measurements are absent.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${SASSKIT_BIN:-$root/build/bin}
data=${SASSKIT_DATA:-$root/../shared/data}
silicon=$data/hardware/volta-microbenchmark-output.txt
if [[ ! -f $silicon ]]; then
  echo "micro.sh: skipped: no V100 microbenchmark output at $silicon" >&2
  exit 77
fi
export PATH="$bin:$PATH"
model=("$@")
[[ ${#model[@]} -gt 0 ]] || model=(--config qv100 --l2-slices 48 --noc-bandwidth 1536 --dram-bandwidth 652.8 \
                                  --l2-size 4608KiB --l2-assoc 16 --clock-mhz 1169)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The silicon figure: the first number after PATTERN in the section of the
# benchmark named SECTION ("running ./SECTION microbenchmark").
measured() {
  awk -v sec="running ./$1 microbenchmark" -v pat="$2" '
    $0 == sec { on = 1; next }
    /^running / { on = 0 }
    on && index($0, pat) { s = substr($0, index($0, pat) + length(pat)); sub(/^[ =]*/, "", s); print s + 0; exit }' "$silicon"
}

# Cycles of the micro kernel KIND with N per warp (for launch: N CTAs of $threads
# threads), binary version $sm, on the GPU model ${model[@]}.
threads=256 sm=70
cycles() {
  local dir=$work/$1-$2-$threads-$sm
  mkdir -p "$dir"
  awk -v kind="$1" -v n="$2" -v threads="$threads" -v sm="$sm" -v memcpy="$dir/memcpy" \
    -f "$here/micro-trace.awk" >"$dir/kernel-1.traceg"
  { cat "$dir/memcpy"; echo kernel-1.traceg; } >"$dir/kernelslist.g"
  trace-unpack -q "$dir" | rd-cache -q "${model[@]}" | pipe-sim -q "${model[@]}" \
    | stall-report -q --format csv \
    | awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next } $col["scope"] == "application" { print $col["cycles"] }'
}

# KIND N1 N2 UNIT-WORK SECTION PATTERN [scale]: per-N work is UNIT-WORK (1 for a
# latency: cycles per chain step; else work per cycle).
printf '%-13s %-10s %10s %10s %8s\n' benchmark unit silicon sasskit gap
row() {
  compare "$1" "$2" "$3" "$4" "$5" "$(measured "$6" "$7")" "$1"
}
# KIND N1 N2 UNIT PER-N SILICON LABEL: the row of a silicon figure given as a number.
compare() {
  local kind=$1 n1=$2 n2=$3 unit=$4 per_n=$5 sil=$6 label=$7
  local c1 c2
  c1=$(cycles "$kind" "$n1"); c2=$(cycles "$kind" "$n2")
  awk -v k="$label" -v u="$unit" -v n1="$n1" -v n2="$n2" -v c1="$c1" -v c2="$c2" -v w="$per_n" -v s="$sil" 'BEGIN {
    v = u ~ /^clk/ ? (c2 - c1) / (n2 - n1) : w * (n2 - n1) / (c2 - c1)
    f = u == "clk/CTA" ? "%-13s %-10s %10.2f %10.2f %+7.1f%%\n" : "%-13s %-10s %10.1f %10.1f %+7.1f%%\n"
    printf f, k, u, s, v, 100 * (v - s) / s }'
}
row lat-int     500 1000 clk      1          lat_int32      "int32 latency"
row lat-fp32    500 1000 clk      1          lat_float      "float-precision FPU latency"
row lat-fp64    500 1000 clk      1          lat_double     "double-precision DPU latency"
row lat-sfu     500 1000 clk      1          sfu_lat_fsqrt  "SFU fast sqrt latency"
row lat-smem    500 1000 clk      1          shared_lat     "Shared Memory Latency"
row lat-l1      500 1000 clk      1          l1_lat         "L1 Latency"
row lat-l2      500 1000 clk      1          l2_lat         "L2 Hit Latency"
row lat-dram    500 1000 clk      1          mem_lat        "Mem latency"
row lat-atomic  200  400 clk      1          atomic_add_lat "Atomic int32 latency"
# Throughputs: one CTA of 32 warps on one SM; work per warp instruction x 32 warps.
row tp-fp32     256  512 flop/clk $((32 * 64))   MaxFlops_float  "FLOP per SM"
row tp-fp64     256  512 flop/clk $((32 * 64))   MaxFlops_double "DPU FLOP per SM"
row tp-half     256  512 flop/clk $((32 * 128))  MaxFlops_half   "half FLOP per SM"
row tp-int      256  512 flop/clk $((32 * 64))   MaxFlops_int32  "int32 FLOP per SM"
row tp-sfu      256  512 op/clk   $((32 * 32))   sfu_bw_fsqrt    "SFU fast sqrt bw"
# HMMA.884: 477.6 FMA/clk/SM at 59.7 threads/clk/SM = 256 FMA per warp instruction.
row tp-tensor   256  512 fma/clk  $((32 * 256))  tensor_bw_half  "FMA tensor bandwidth"
row bw-l1       256  512 B/clk    $((32 * 512))  l1_bw_128       "L1 bandwidth"
row bw-smem     256  512 B/clk    $((32 * 128))  shared_bw       "Shared Memory Bandwidth"
# Chip-wide: 80 CTAs of 32 warps, one per SM.
row bw-l2        32   64 B/clk    $((80 * 32 * 512)) l2_bw_128   "L2 bandwidth"
row bw-dram      32   64 B/clk    $((80 * 32 * 512)) mem_bw      "Mem BW"
# Stores and a copy (bytes read plus bytes written per clock). The V100 file has
# no store or copy measurement: both are compared with mem_bw's read rate, the
# rate the model lets writes sustain too (no read/write turnaround is modelled).
row bw-dram-st   32   64 B/clk    $((80 * 32 * 512)) mem_bw      "Mem BW"
row bw-dram-copy 32   64 B/clk    $((80 * 32 * 512)) mem_bw      "Mem BW"

# Hopper: an H100 PCIe (114 SMs, 1755 MHz) measured with Nsight Compute, each figure the
# slope between two sizes (sasskit issue 56), on the h100-pcie model.
model=(--config h100-pcie) sm=90
echo
echo "H100 PCIe (h100-pcie):"
# Dependent FFMA, one warp: 4.11 to 4.17 cycles per FFMA over 1 to 10 warps (the middle).
compare lat-fp32 500 1000 clk 1 4.14 lat-fp32
# Empty kernels, 4,096 -> 16,384 CTAs: cycles per extra CTA, whole GPU. 256 threads 1.04;
# 512, 544 and 672 threads 1.03 to 1.05 (the middle, 1.04); 704 and 1,024 threads, where
# two CTAs fit per SM, 1.38 to 1.48 (the middle, 1.43).
for threads in 256 512 544 672; do compare launch 4096 16384 clk/CTA 1 1.04 "launch-$threads"; done
for threads in 704 1024; do compare launch 4096 16384 clk/CTA 1 1.43 "launch-$threads"; done
# Pointer-chase latencies of Luo et al. (IPDPS 2024, arXiv:2402.13499), their raw data:
# github.com/HPMLL/NVIDIA-Hopper-Benchmark (commit ded6f57),
# RegularUnits/random_latency/h800_pcie.txt, one thread chasing 8-byte pointers
# (`idx = *idx`) over a footprint that grows, at 1755 MHz (the log's clock column). The
# H800 PCIe is the export variant of the H100 PCIe (same GH100, HBM2e, clock); a chain's
# latency does not depend on the SM count. Cycles per step: L1, footprints of 2 to 215
# KB, 32.0 to 32.4 (the middle, 32.2); L2, 0.35 to 20 MB (past L1, within the near
# partition), 263.8 to 264.5 (264.2); DRAM, footprints of 60 MB to 1.75 GB (past the 50 MB
# L2), 597.8 to 656.3 (the median of the nine sizes, 632.6).
threads=256
compare lat-l1   500 1000 clk 1 32.2  lat-l1
compare lat-l2   500 1000 clk 1 264.2 lat-l2
compare lat-dram 500 1000 clk 1 632.6 lat-dram
# A case the model was not set from: the same chase through 16-byte bulk copies completing
# on an mbarrier (NewFeatures/TMA/Latency/tma_lat_random/h800_tma.txt), footprints of 0.35
# to 19 MB (L2), 368.4 to 369.1 cycles a step (369.0).
compare lat-tma  200  400 clk 1 369.0 lat-tma
# A second case the model was not set from: the same study's tma_bw loop
# (NewFeatures/TMA/Throughput/tma_bw/log), one thread per CTA and one CTA per SM (114)
# copying 1 KB at a time with cp.async.bulk from a 4 GiB array (DRAM) and waiting on the
# mbarrier before the next copy: 222.8 GiB/s, i.e. 1,024 B / (222.8 x 2^30 B/s / 114 /
# 1755 MHz) = 857 cycles a copy (2 KB: 904, 4 KB: 1,005, 8 KB: 1,242).
compare lat-tma-dram 200 400 clk 1 857 lat-tma-dram
# Documented peaks, not measurements (no published H100 throughput log was found): NVIDIA
# H100 whitepaper, 128 FP32 lanes per SM (256 flop/clk) and 989.4 dense FP16 tensor TFLOPS
# on 132 SMs (2048 FMA/clk per SM at 1830 MHz, where the figure comes out whole). They check that the model's unit rates,
# and its rule for HGMMA's shapes, reach the pipeline as documented.
compare tp-fp32  256  512 flop/clk $((32 * 64))    256  tp-fp32
compare tp-hgmma  64  128 fma/clk  $((32 * 65536)) 2048 tp-hgmma
