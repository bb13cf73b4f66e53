# Writes a tiny Accel-Sim trace directory for the CLI cases (sourced by cmd).
#   make_trace DIR CTAS THREADS [OPCODE]
# CTAS CTAs of THREADS threads; every warp runs MOV, OPCODE (default IADD3)
# on the result, a global load, a dependent add, and EXIT.
make_trace() {
  local dir=$1 ctas=$2 threads=$3 op=${4:-IADD3} warps=$(( ($3 + 31) / 32 ))
  mkdir -p "$dir"
  printf 'MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\n' >"$dir/kernelslist.g"
  {
    printf -- '-kernel name = _Z4testPi\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (%d,1,1)\n' "$ctas" "$threads"
    printf -- '-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n'
    printf -- '-shmem base_addr = 0x00007f1000000000\n-local mem base_addr = 0x00007f2000000000\n'
    printf -- '-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n'
    printf '#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n'
    for ((c = 0; c < ctas; c++)); do
      printf '#BEGIN_TB\n\nthread block = %d,0,0\n\n' "$c"
      for ((w = 0; w < warps; w++)); do
        printf 'warp = %d\ninsts = 5\n' "$w"
        printf '0000 ffffffff 1 R1 MOV 0 0 \n'
        printf '0010 ffffffff 1 R2 %s 2 R1 R1 0 \n' "$op"
        printf '0020 ffffffff 1 R4 LDG.E 1 R2 4 1 0x%x 4\n' $(( 0x7f0000000000 + (c * warps + w) * 128 ))
        printf '0030 ffffffff 1 R5 IADD3 2 R4 R1 0 \n'
        printf '0040 ffffffff 0 EXIT 0 0 \n\n'
      done
      printf '#END_TB\n\n'
    done
  } >"$dir/kernel-1.traceg"
}
