#!/usr/bin/env bash
# what-if.sh BIN SRC: the workflow kit's SWEEP of model keys (issue 55) on a
# generated vecadd of 1,024 CTAs: one run per design point, named GPU+KEY_V,
# each with its key given to rd-cache and pipe-sim and recorded in the summary;
# fewer SMs take longer; a malformed SWEEP is refused before anything runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/kit-test.sh"

mkdir apps
sasskit-gen -q --kernel vecadd --size 256k -o apps/va
kit() { make -f "$src/workflows/Makefile" APP_DIR=apps GPUS=qv100 VARIANTS=full PLOT= "$@"; }

kit -j2 SWEEP="num-sms=40,20 scheduler=gto" >make.log 2>&1 || { cat make.log; fail "the sweep failed"; }
for m in qv100 qv100+num-sms_40 qv100+num-sms_20 qv100+scheduler_gto; do
  [ -s "results/runs/va/$m/full.stream" ] || fail "no run for $m"
done
[ "$(find results/runs -name '*.stream' | wc -l)" = 4 ] || fail "not 4 runs"
# The base run first (stall-report's baseline), each point's key in its config.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["scope"] == "application" { print $col["run"] "|" $col["config"] "|" $col["cycles"] }' results/summary.csv >apps.txt
head -1 apps.txt | grep -q '^va/qv100/full|rd-cache; pipe-sim --stats-only|' || fail "the base run is not first: $(head -1 apps.txt)"
grep -q '^va/qv100+num-sms_40/full|rd-cache --num-sms=40; pipe-sim --num-sms=40 --stats-only|' apps.txt || fail "num-sms 40: $(cat apps.txt)"
grep -q '^va/qv100+scheduler_gto/full|rd-cache --scheduler=gto; pipe-sim --scheduler=gto --stats-only|' apps.txt || fail "gto: $(cat apps.txt)"
cycles() { grep "^va/$1/full|" apps.txt | cut -d'|' -f3; }
base=$(cycles qv100) n40=$(cycles qv100+num-sms_40) n20=$(cycles qv100+num-sms_20)
[ "$base" -lt "$n40" ] && [ "$n40" -lt "$n20" ] || fail "cycles on 80, 40, 20 SMs: $base, $n40, $n20"

# A word that is not KEY=V[,V...], a value with +, and a GPU name with + are refused.
for bad in "num-sms" "num-sms=" "num-sms=40,+1" "a.b=1"; do
  if kit SWEEP="$bad" OUT=bad >bad.log 2>&1; then fail "SWEEP=$bad was accepted"; fi
  grep -q "SWEEP: $bad is not KEY=VALUE" bad.log || { cat bad.log; fail "SWEEP=$bad: no clear message"; }
done
if kit SWEEP="num-sms=40" GPUS="a+b" OUT=bad >bad.log 2>&1; then fail "a GPU name with + was accepted"; fi
grep -q "GPU model names may not hold +" bad.log || { cat bad.log; fail "GPU+: no clear message"; }
[ ! -e bad ] || fail "a refused sweep left files"
echo "ok: what-if sweep"
