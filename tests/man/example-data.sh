#!/usr/bin/env bash
# example-data.sh: writes, in the current directory, the files the manual
# pages' EXAMPLES name, from a generated application: by default four small
# launches (gemm, vecadd, gemm, vecadd); SASSKIT_EXAMPLE_APP gives other
# sasskit-gen options, such as the README's "--kernel gemm,vecadd" (two
# launches), which the install check uses. The profiles below describe the
# first launches of that order, as many as the application has.
set -euo pipefail
# shellcheck disable=SC2086 # the options are words
sasskit-gen ${SASSKIT_EXAMPLE_APP:---kernel gemm,vecadd --repeat 2 --size 4k} -o app/
launches=$(grep -c '^kernel-' app/kernelslist.g)
[ "$launches" = 2 ] || [ "$launches" = 4 ] ||
  { echo "example-data.sh: the profiles describe 2 or 4 launches (gemm, vecadd, ...), not $launches" >&2; exit 1; }
mkdir -p traces && cp -r app traces/app
trace-compress -q app/ -o app.sass.z
trace-unpack app.sass.z -o app.stream
cp app.stream in.stream && cp app.stream trace.stream
pipe-sim -q --config qv100 app.stream -o qv100.stream
pipe-sim -q --config a100 app.stream -o a100.stream

# The launches as profiles: a plain CSV, the nsys kern-exec report and sqlite export.
cat > durations.csv <<'CSV'
id,name,duration
1,_Z4gemmPKfS0_Pfi,52000
2,_Z6vecaddPKfS0_Pfi,9000
3,_Z4gemmPKfS0_Pfi,51000
4,_Z6vecaddPKfS0_Pfi,9100
CSV
sed -i "$((launches + 2)),\$d" durations.csv
cp durations.csv profile.csv
cat > app_cuda_kern_exec_trace.csv <<'CSV'
API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),Kernel Dur (ns),Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,Kernel Name
100,5,,,110,52000,52010,7,7,0,cudaLaunchKernel_v7000,  8    8    1 ,  256    1    1 ,"gemm(float const*, float const*, float*, int)"
200,5,,,52200,9000,9010,7,7,0,cudaLaunchKernel_v7000,  256    1    1 ,  256    1    1 ,"vecadd(float const*, float const*, float*, int)"
300,5,,,61300,51000,51010,7,7,0,cudaLaunchKernel_v7000,  8    8    1 ,  256    1    1 ,"gemm(float const*, float const*, float*, int)"
400,5,,,112400,9100,9110,7,7,0,cudaLaunchKernel_v7000,  256    1    1 ,  256    1    1 ,"vecadd(float const*, float const*, float*, int)"
CSV
sed -i "$((launches + 2)),\$d" app_cuda_kern_exec_trace.csv
# The same launches as nsys's sqlite export (its kernel table and string ids).
sqlite3 app.sqlite "
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, correlationId INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL,
  gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm(float const*, float const*, float*, int)'), (2, 'gemm'),
  (3, 'vecadd(float const*, float const*, float*, int)'), (4, 'vecadd');
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (110, 52110, 1, 1, 2, 8, 8, 1, 256, 1, 1),
  (52200, 61200, 2, 3, 4, 256, 1, 1, 256, 1, 1), (61300, 112300, 3, 1, 2, 8, 8, 1, 256, 1, 1),
  (112400, 121500, 4, 3, 4, 256, 1, 1, 256, 1, 1);"
sqlite3 app.sqlite "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId > $launches;"
# A CTA schedule as traced (kernel,cta,sm,clock): CTAs dealt round-robin
# over 80 SMs, for every kernel of the stream.
for trace in app/kernel-*.traceg; do
  id=$(sed -n 's/^-kernel id = //p' "$trace")
  sed -n 's/^-grid dim = (\([0-9]*\),\([0-9]*\),\([0-9]*\))/\1 \2 \3/p' "$trace" |
    awk -v id="$id" '{ for (c = 0; c < $1 * $2 * $3; ++c) print id "," c "," c % 80 "," c }'
done > schedule.csv

# A user's own GPU model, found through SASSKIT_CONFIG_PATH.
mkdir -p "$HOME/gpus"
pipe-sim --config qv100 --name mygpu --dump-config > "$HOME/gpus/mygpu.cfg"

# An Accel-Sim configuration folder: linked from ../shared/data when there
# (commands naming it are skipped otherwise).
accelsim=${SASSKIT_SHARED_DATA:-/nonexistent}/reference-configs/accel-sim/SM86_RTX3070
if [ -d "$accelsim" ]; then ln -s "$accelsim" SM86_RTX3070; else echo SM86_RTX3070 >> unavailable; fi

# Measured cycles of the launches (a plain reference CSV).
printf 'id,cycles\n1,40000\n2,7000\n3,40000\n4,7000\n' | head -n $((launches + 1)) > measured.csv
