#!/usr/bin/env bash
# sweep.sh BIN SRC: the workflow kit's promises, on two generated apps x
# qv100, a100, gtx1080 x full, cta-sample, plan, pkp:
#   one `make -j2` makes every run, the summary table and the plots;
#   a second `make` (and `make -q`) has nothing to do;
#   a lost result is remade alone; a failing run leaves no partial file.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/kit-test.sh"

mkdir apps
sasskit-gen -q --kernel gemm,vecadd --repeat 2 --size 4k -o apps/twice
sasskit-gen -q --kernel reduce,gather,vecadd --size 4k -o apps/three
gpus="qv100 a100 gtx1080" variants="full cta-sample plan pkp"
plot=$(command -v gnuplot >/dev/null && echo svg || true)
kit() { make -f "$src/workflows/Makefile" APP_DIR=apps GPUS="$gpus" VARIANTS="$variants" PLOT="$plot" "$@"; }

# One command runs the sweep.
kit -j2 >make1.log 2>&1 || { cat make1.log; fail "the sweep failed"; }
runs=$(find results/runs -name '*.stream' | wc -l)
[ "$runs" = 24 ] || fail "$runs run results, expected 24"

# The table: one application row per run (kernel_id -1, sasskit(7)), numeric
# kernel ids, the GPU model from the provenance matching the run's.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["scope"] == "application" { apps[$col["run"]] = 1; if ($col["kernel_id"] != "-1") bad = "application row with id " $col["kernel_id"] }
  $col["scope"] == "kernel" && $col["kernel_id"] !~ /^[0-9]+$/ { bad = "kernel id " $col["kernel_id"] }
  { split($col["run"], p, "/"); if (toupper(p[2]) != $col["gpu"]) bad = "gpu " $col["gpu"] " in run " $col["run"] }
  END { n = 0; for (r in apps) ++n; if (bad != "") { print bad; exit 1 } if (n != 24) { print n " runs"; exit 1 } }' \
  results/summary.csv || fail "summary.csv is not the expected tidy table"
for app in twice three; do
  for g in $gpus; do
    for v in $variants; do
      grep -q "^$app/$g/$v," results/summary.csv || fail "no rows for $app/$g/$v"
    done
  done
done
grep -q '"runs":\[{"run":"three/qv100/full","gpu":"QV100"' results/summary.json || fail "summary.json"
grep -q '^twice/qv100/plan,QV100,rd-cache; pipe-sim --stats-only,kernel,' results/summary.csv || fail "plan runs"
grep -q '^twice/qv100/pkp,QV100,rd-cache; pipe-sim --pkp --stats-only,kernel,' results/summary.csv || fail "pkp config"
grep -q '^twice/qv100/cta-sample,QV100,rd-cache; cta-sample; pipe-sim --stats-only,kernel,' results/summary.csv || fail "cta-sample"
if [ -n "$plot" ]; then
  for app in twice three; do grep -q '<svg' "results/plots/$app.svg" || fail "no plot for $app"; done
fi

# A second make does nothing.
touch marker
kit -q || fail "make -q: something is out of date after the sweep"
kit -j2 >make2.log 2>&1
grep -q "Nothing to be done" make2.log || { cat make2.log; fail "the second make did something"; }
[ -z "$(find results -newer marker -type f)" ] || fail "the second make rewrote files"

# The sharded variant (rd-cache once, pipe-sim per kernel range) merges to
# exactly the full run's rows.
kit -j2 GPUS=qv100 VARIANTS="full sharded" KERNEL_SHARDS="1 2-99" KERNEL_SHARDS_twice="1-2 3 4" OUT=sharded \
  >make7.log 2>&1 || { cat make7.log; fail "the sharded sweep failed"; }
[ "$(find sharded/shards -name '*.stream' | wc -l)" = 5 ] || fail "$(find sharded/shards -name '*.stream' | wc -l) shards, expected 5"
for app in twice three; do
  grep -q "^$app/qv100/sharded,QV100,rd-cache; pipe-sim --stats-only,kernel,2," sharded/summary.csv || fail "$app: no sharded rows"
  cmp <(grep "^$app/qv100/full," sharded/summary.csv | cut -d, -f2-) \
    <(grep "^$app/qv100/sharded," sharded/summary.csv | cut -d, -f2-) || fail "$app: sharded differs from full"
done

# A changed trace file redoes that application's 12 runs and its plan only.
touch apps/three/kernel-1.traceg
kit -j2 >make5.log 2>&1
[ "$(grep -c '^  results/runs/three/' make5.log)" = 12 ] && [ "$(grep -c '^  results/runs/' make5.log)" = 12 ] &&
  grep -q '^  results/plans/three.csv' make5.log || { cat make5.log; fail "a changed trace redid other runs"; }

# A lost result is listed (for a Slurm array) and remade alone.
rm results/runs/three/a100/pkp.stream
[ "$(kit -s list-runs)" = "results/runs/three/a100/pkp.stream" ] || fail "list-runs: $(kit -s list-runs)"
kit -j2 >make3.log 2>&1
[ "$(grep -c '^  results/runs/' make3.log)" = 1 ] || { cat make3.log; fail "the resumed sweep redid more than the missing run"; }
kit -q || fail "the resumed sweep did not finish"

# A failing run (a GPU model that does not exist) stops the sweep without
# leaving a partial or temporary file, and the results already made stay.
touch marker
if kit -j2 GPUS="nosuch" >make4.log 2>&1; then fail "a sweep with an unknown GPU model succeeded"; fi
grep -q "no bundled GPU model named 'nosuch'" make4.log || { cat make4.log; fail "no reason given"; }
[ -z "$(find results -name '*.tmp*')" ] || fail "temporary files left: $(find results -name '*.tmp*')"
[ -z "$(find results/runs -path '*nosuch*' -type f)" ] || fail "a failed run left a result"
kit -q || fail "the failed sweep damaged the finished one"
# Changed options redo what they affect: the pkp runs for PKP_FLAGS.
kit -j2 PKP_FLAGS="--pkp --pkp-window 500" >make6.log 2>&1
[ "$(grep -c '^  results/runs/.*/pkp.stream' make6.log)" = 6 ] && [ "$(grep -c '^  results/runs/' make6.log)" = 6 ] ||
  { cat make6.log; fail "changed PKP_FLAGS did not redo exactly the 6 pkp runs"; }
kit -q PKP_FLAGS="--pkp --pkp-window 500" || fail "not up to date after the PKP_FLAGS change"

# make validate: the full runs of each application that names a reference,
# as one suite. This reference holds the warp instructions of twice's qv100
# run, the same on every GPU: they match on all three runs.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; print "id,name,instructions"; next }
  $col["run"] == "twice/qv100/full" && $col["scope"] == "kernel" { print $col["kernel_id"] "," $col["kernel_name"] "," $col["warp_insts"] }' \
  results/summary.csv > ref-twice.csv
kit validate REFERENCE_twice=ref-twice.csv >make7.log 2>&1 || { cat make7.log; fail "make validate failed"; }
for g in $gpus; do
  awk -F, -v run="twice/$g/full" '$1 == run && $3 == "instructions" && $4 != "" { ++n; if ($8 != 0) bad = 1 } END { exit bad || n != 4 }' \
    results/validation.csv || { cat results/validation.csv; fail "instructions of twice/$g/full not matched exactly"; }
done
grep -q "^Suite: 3 runs against their references, 12 kernels matched" results/validation.txt ||
  { cat results/validation.txt; fail "no suite section"; }
[ -z "$plot" ] || [ -s "results/validation.$plot" ] || fail "no correlation plot"
kit -q validate REFERENCE_twice=ref-twice.csv || fail "make validate: not up to date after it ran"
# make validate REFERENCE=FILE: one ncu export of both applications'
# processes (made here from the qv100 full runs' warp instructions, ncu's IDs
# running on across them), every application's full runs against its process.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i
    print "\"ID\",\"Process ID\",\"Process Name\",\"Kernel Name\",\"smsp__inst_executed.sum\""
    print "\"\",\"\",\"\",\"\",\"inst\""; next }
  $col["run"] ~ /^(twice|three)\/qv100\/full$/ && $col["scope"] == "kernel" { split($col["run"], p, "/")
    printf "\"%d\",\"%d\",\"%s\",\"%s\",\"%s\"\n", n++, p[1] == "twice" ? 101 : 102, p[1], $col["kernel_name"], $col["warp_insts"] }' \
  results/summary.csv > ref-both.csv
kit validate REFERENCE=ref-both.csv >make8.log 2>&1 || { cat make8.log; fail "make validate REFERENCE= failed"; }
awk -F, '$3 == "instructions" && $4 != "" { ++n; if ($8 != 0) bad = 1 } END { exit bad || n != 21 }' results/validation.csv ||
  { cat results/validation.csv; fail "make validate REFERENCE=: instructions not matched exactly on the 6 runs' 21 kernels"; }
grep -q "^Suite: 6 runs against their references, 21 kernels matched" results/validation.txt ||
  { cat results/validation.txt; fail "make validate REFERENCE=: no suite section of 6 runs"; }

echo "ok: 24 runs, summary and plots in one make -j2; nothing to redo; changed trace or options redo only what they affect; one lost run remade alone; failures atomic; make validate, per application and from one multi-process export"
