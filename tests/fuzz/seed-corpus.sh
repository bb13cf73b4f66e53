#!/usr/bin/env bash
# Rebuilds tests/fuzz/corpus/ from the tests' own small inputs, using the
# tools in BIN (default build/bin):  bash tests/fuzz/seed-corpus.sh [BIN]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/bin}
c=tests/fuzz/corpus
# profile/ and plan/ hold hand-made seeds (README) and are kept.
rebuilt=(accelsim_trace accelsim_payload kernelslist archive cta_block gpu_config accelsim_config replay jsonl_roundtrip stream profile_sqlite)
for d in "${rebuilt[@]}"; do rm -rf "${c:?}/$d" && mkdir -p "$c/$d"; done
n=0
for d in tests/*/data/*/; do
  n=$((n + 1))
  for f in "$d"kernel-*.traceg; do cp "$f" "$c/accelsim_trace/$n-$(basename "$f")"; done
  cp "$d/kernelslist.g" "$c/kernelslist/$n-kernelslist.g"
done
tiny=tests/trace-unpack/data/tiny
"$bin/trace-compress" "$tiny" -o "$c/archive/tiny-xz.sz"
"$bin/trace-compress" --codec zlib "$tiny" -o "$c/archive/tiny-zlib.sz"
"$bin/trace-compress" --codec none "$tiny" -o "$c/archive/tiny-none.sz"
# The first CTA block's payload: after the 12-byte file header and the
# 18-byte block header, whose bytes 10-13 hold the raw size (ARCHIVE.md).
raw=$(od -An -tu4 -j22 -N4 "$c/archive/tiny-none.sz" | tr -d ' ')
tail -c +31 "$c/archive/tiny-none.sz" | head -c "$raw" > "$c/cta_block/tiny-first-block"
cp configs/qv100.cfg configs/gtx1080.cfg tests/cta-sample/tiny.cfg "$c/gpu_config/"
# A fuzz finding: a quote in the name did not read back from --dump-config.
sed "s/^name = .*/name = 'GTX \"1080\" b'/" configs/gtx1080.cfg > "$c/gpu_config/regression-quote-in-name"
cp tests/pipe-sim/cases/import-accelsim-line-size-zero-refused/cmd "$c/accelsim_config/with-shell-lines"
sed -n '/^-gpgpu_n_clusters/,/^-icnt_flit_size/p' "$c/accelsim_config/with-shell-lines" \
  | sed 's/S:4:0:64/S:4:128:64/' > "$c/accelsim_config/tiny"
printf '%s\n' '-trace_opcode_latency_initiation_int 4,2' '-trace_opcode_latency_initiation_sp 4,1' \
  '-trace_opcode_latency_initiation_dp 8,4' '-trace_opcode_latency_initiation_sfu 20,8' \
  '-trace_opcode_latency_initiation_tensor 16,16' >> "$c/accelsim_config/tiny"
rm "$c/accelsim_config/with-shell-lines"
printf '0%s\n' '-trace_issued_sms_num 2' '-trace_issued_sms_vector 0,3' \
  '-trace_issued_sm_id_0 1,0,(1,1,1a0),' '-trace_issued_sm_id_3 2,3,(1,0,100),(1,2,1b0),' > "$c/replay/issue.config"
printf '1kernel,cta,sm,clock\n1,0,0,100\n1,1,1,120\n1,2,0,300\n' > "$c/replay/log.csv"
"$bin/trace-unpack" --no-provenance "$tiny" -o "$c/stream/tiny.sks"
"$bin/cta-sample" --config tests/cta-sample/tiny.cfg --no-provenance "$c/stream/tiny.sks" -o "$c/stream/sampled.sks"
"$bin/rd-cache" --config qv100 --no-provenance "$c/stream/sampled.sks" -o "$c/stream/cached.sks"
"$bin/pipe-sim" --config qv100 --no-provenance "$c/stream/cached.sks" -o "$c/stream/simulated.sks"
cp "$c"/stream/*.sks "$c/jsonl_roundtrip/"
cp "$c"/stream/*.sks "$c/accelsim_payload/"
# The nsys sqlite export of the manual's example data, as SQL and as a file.
sed -n '/^sqlite3 app.sqlite "/,/;"$/p' tests/man/example-data.sh | sed '1s/^sqlite3 app.sqlite "//; $s/"$//' \
  > "$c/profile_sqlite/nsys-kernels.sql"
sqlite3 "$c/profile_sqlite/nsys-kernels.sqlite" < "$c/profile_sqlite/nsys-kernels.sql"
du -sh "$c"
