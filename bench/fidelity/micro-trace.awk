# Writes one micro-benchmark kernel as an Accel-Sim trace (kernel-1.traceg on
# stdout; the MemcpyHtoD lines for kernelslist.g go to the file `memcpy`),
# shaped like the V100 microbenchmarks of accel-sim-framework's
# util/tuner/GPU_Microbenchmark: dependent chains for latencies, many warps of
# independent work for throughputs.
#   awk -v kind=KIND -v n=N -v memcpy=FILE [-v threads=T -v sm=VERSION] -f micro-trace.awk
# n is the work per warp (chain length or instructions); micro.sh takes the
# slope between two values of n so fixed costs (launch, cold misses, drain) cancel.
#
# Chains (one warp, one lane for memory chases): lat-int IADD3, lat-fp32 FFMA,
# lat-fp64 DFMA, lat-sfu MUFU.SQRT, lat-smem LDS, lat-l1 / lat-l2 / lat-dram LDG
# over a footprint that fits L1 / fits L2 but not L1 (copied in, so L2 holds it) /
# exceeds L2, lat-atomic ATOM.ADD. Throughputs (one CTA of 32 warps, or 80 CTAs
# for the chip-wide levels): tp-fp32 FFMA, tp-fp64 DFMA, tp-half HFMA2, tp-int IMAD,
# tp-sfu MUFU.SQRT, tp-tensor HMMA.884, bw-l1 / bw-l2 / bw-dram LDG.E.128,
# bw-dram-st STG.E.128 (each line written once: DRAM sees the write-backs),
# bw-dram-copy LDG.E.128 and STG.E.128 in turn (one array to another), bw-smem LDS. Registers rotate over 8 accumulators so throughput kernels have
# independent work.
# launch: an empty kernel (one EXIT per warp) of n CTAs of `threads` threads
# (default 256), for the rate at which the GPU launches and retires CTAs.
# Hopper (sm 90): lat-tma, a chase through bulk copies as Luo et al.'s
# tma_lat_random runs it, per step UBLKCP of the next 16-byte pointer into
# shared memory, SYNCS.ARRIVE.TRANS64 (expect_tx and arrive), SYNCS.PHASECHK
# (the wait) and the LDS that reads the pointer back; lat-tma-dram, Luo et al.'s
# tma_bw loop, per step a 1 KiB UBLKCP from memory no step reuses (so from DRAM),
# its SYNCS.ARRIVE.TRANS64 and SYNCS.PHASECHK: one copy in flight at a time;
# tp-hgmma, HGMMA.64x256x16 from 32 warps (eight warpgroups).
BEGIN {
  # Addresses are offsets below 4 GiB (mawk's %x is 32-bit) printed after the
  # high bits of the windows the tracer shows: global 0x00007f00..., shared 0x00007e00...
  line = 128
  ctas = 1; warps = 32; lanes = 32; smem = 0; nregs = 32
  if (sm == "") sm = 70
  if (kind == "launch") { ctas = n; warps = int(((threads ? threads : 256) + 31) / 32); n = 1; nregs = 16 }
  if (kind ~ /^lat-/) { warps = 1; lanes = kind ~ /^lat-(smem|l1|l2|dram|atomic|tma|tma-dram)$/ ? 1 : 32 }
  per = kind == "lat-tma" ? 4 : kind == "lat-tma-dram" ? 3 : 1   # trace instructions per step
  if (kind ~ /^bw-(l2|dram)/) ctas = 80
  if (kind == "bw-smem" || kind == "lat-smem" || kind ~ /^lat-tma/) smem = 49152
  # Footprints, in 128-byte lines: L1 holds 32 KiB at the largest carve-out,
  # L2 4.5 MiB (TITAN V) to 6 MiB (Quadro GV100).
  if (kind == "lat-l1") footprint = 64             # 8 KiB
  if (kind == "lat-l2" || kind == "lat-tma") footprint = 2048  # 256 KiB: > L1, < L2
  if (kind == "lat-dram") footprint = 131072       # 16 MiB: > L2
  if (kind == "bw-l1") footprint = 64              # 8 KiB per SM, read over and over
  if (kind == "bw-l2") footprint = 16384           # 2 MiB shared by all SMs
  if (kind == "lat-l2" || kind == "lat-tma" || kind == "bw-l2") printf "MemcpyHtoD,%s,%d\n", global(0), footprint * line > memcpy
  else printf "" > memcpy
  header()
  for (c = 0; c < ctas; ++c) {
    printf "\n#BEGIN_TB\n\nthread block = %d,0,0\n\n", c
    for (w = 0; w < warps; ++w) {
      printf "warp = %d\ninsts = %d\n", w, n * per
      for (i = 0; i < n; ++i) inst(c, w, i)
      printf "\n"
    }
    printf "#END_TB\n"
  }
}

function header() {
  printf "-kernel name = micro_%s\n-kernel id = 1\n", kind
  printf "-grid dim = (%d,1,1)\n-block dim = (%d,1,1)\n", ctas, warps * 32
  printf "-shmem = %d\n-nregs = %d\n-binary version = %d\n-cuda stream id = 0\n", smem, nregs, sm
  printf "-shmem base_addr = %s\n-local mem base_addr = %s\n", shared(0), shared(16777216)
  printf "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
  printf "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n"
}

function global(offset) { return sprintf("0x00007f00%08x", offset) }
function shared(offset) { return sprintf("0x00007e00%08x", offset) }
# PCs loop over 64 slots (1 KiB of code), as a loop body would.
function pc(i) { return sprintf("%04x", (i % 64) * 16) }
function mask() { return lanes == 32 ? "ffffffff" : "00000001" }
function alu(i, op, dst, srcs) { printf "%s %s 1 R%d %s %s 0 \n", pc(i), mask(), dst, op, srcs }
# A memory instruction: lanes consecutive `width`-byte elements from `base`.
function mem(i, op, dst, srcs, width, base) {
  if (lanes == 1) printf "%s %s 1 R%d %s %s %d 0 %s \n", pc(i), mask(), dst, op, srcs, width, base
  else printf "%s %s 1 R%d %s %s %d 1 %s %d \n", pc(i), mask(), dst, op, srcs, width, base, width
}
# A store of all lanes: consecutive `width`-byte elements from `base`.
function store(i, op, srcs, width, base) {
  printf "%s %s 0 %s %s %d 1 %s %d \n", pc(i), mask(), op, srcs, width, base, width
}

function inst(c, w, i,    acc, k) {
  acc = 8 + 4 * (i % 8)   # throughput kernels: 8 independent accumulators
  if (kind == "lat-int") alu(i, "IADD3", 1, "3 R1 R2 R255")
  else if (kind == "lat-fp32") alu(i, "FFMA", 1, "3 R1 R2 R3")
  else if (kind == "lat-fp64") alu(i, "DFMA", 2, "3 R2 R4 R6")
  else if (kind == "lat-sfu") alu(i, "MUFU.SQRT", 1, "1 R1")
  else if (kind == "lat-smem") mem(i, "LDS", 1, "1 R1", 4, shared((i * 132) % 49152))
  else if (kind ~ /^lat-(l1|l2|dram)$/) mem(i, "LDG.E", 2, "1 R2", 8, global((i % footprint) * line))
  else if (kind == "lat-atomic") mem(i, "ATOM.E.ADD", 2, "2 R2 R2", 4, global(0))
  else if (kind == "lat-tma") {
    mem(4 * i, "UBLKCP.S.G", 4, "1 R2", 16, global((i % footprint) * line))
    mem(4 * i + 1, "SYNCS.ARRIVE.TRANS64.A1T0", 5, "1 R3", 8, shared(16))
    mem(4 * i + 2, "SYNCS.PHASECHK.TRANS64.TRYWAIT", 6, "1 R3", 8, shared(16))
    mem(4 * i + 3, "LDS.64", 2, "2 R3 R6", 8, shared(0))  # R6: the wait's predicate, read by its branch
  }
  else if (kind == "lat-tma-dram") {
    mem(3 * i, "UBLKCP.S.G", 4, "1 R2", 1024, global(i * 1024))
    mem(3 * i + 1, "SYNCS.ARRIVE.TRANS64.A1T0", 5, "1 R3", 8, shared(16))
    mem(3 * i + 2, "SYNCS.PHASECHK.TRANS64.TRYWAIT", 6, "1 R3", 8, shared(16))
  }
  else if (kind == "tp-hgmma") alu(i, "HGMMA.64x256x16.F32", acc, "1 R" acc)
  else if (kind == "launch") printf "%s %s 0 EXIT 0 0 \n", pc(i), mask()
  else if (kind == "tp-fp32") alu(i, "FFMA", acc, "3 R" acc " R2 R3")
  else if (kind == "tp-fp64") alu(i, "DFMA", acc, "3 R" acc " R4 R6")
  else if (kind == "tp-half") alu(i, "HFMA2", acc, "3 R" acc " R2 R3")
  else if (kind == "tp-int") alu(i, "IMAD", acc, "3 R" acc " R2 R3")
  else if (kind == "tp-sfu") alu(i, "MUFU.SQRT", acc, "1 R2")
  else if (kind == "tp-tensor") alu(i, "HMMA.884.F32.F32.STEP0", acc, "3 R2 R4 R" acc)
  else if (kind == "bw-l1") mem(i, "LDG.E.128", acc, "1 R2", 16, global(c * 1048576 + ((w * n + i) * 4 % footprint) * line))
  else if (kind == "bw-smem") mem(i, "LDS", acc, "1 R2", 4, shared(((w * n + i) * 128) % 49152))
  else if (kind == "bw-l2") mem(i, "LDG.E.128", acc, "1 R2", 16, global((((c * 977 + w) * n + i) * 4 % footprint) * line))
  else if (kind == "bw-dram") mem(i, "LDG.E.128", acc, "1 R2", 16, global((((c * warps + w) * n + i) * 4) * line))
  else if (kind == "bw-dram-st") store(i, "STG.E.128", "2 R2 R" acc, 16, global((((c * warps + w) * n + i) * 4) * line))
  else if (kind == "bw-dram-copy" && i % 2 == 0) mem(i, "LDG.E.128", acc, "1 R2", 16, global((((c * warps + w) * n + i) * 2) * line))
  else if (kind == "bw-dram-copy") store(i, "STG.E.128", "2 R4 R" (acc - 4), 16, global(1073741824 + (((c * warps + w) * n + i - 1) * 2) * line))
  else { print "micro-trace.awk: unknown kind " kind > "/dev/stderr"; exit 2 }
}
