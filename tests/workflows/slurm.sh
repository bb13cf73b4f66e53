#!/usr/bin/env bash
# slurm.sh BIN SRC: the workflow kit through a real single-node Slurm
# (Debian 12's slurmctld, slurmd and munge), started here as root with a
# minimal slurm.conf in a temporary directory and stopped on exit:
#   make slurm-array submits one array task per run and a summary job;
#   after the jobs, the summary holds every run; a lost result is
#   resubmitted alone (a one-task array); LAUNCH="srun ..." runs make's
#   recipes as Slurm steps.
# Skips (77) with the reason when not root or a program is missing
# (./build.sh deps installs them). Every daemon runs under `timeout`, so
# none can outlive the test or hang CI.
set -euo pipefail
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root to start munged, slurmctld and slurmd"
for p in munged mungekey slurmctld slurmd sbatch srun squeue sinfo make; do
  command -v $p >/dev/null || skip "$p is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
[ -x "$bin/sasskit-gen" ] || skip "sasskit-gen not built"

work=$(mktemp -d)
chmod 700 "$work"
pids=()
# TERM to each daemon's timeout (which passes it on); what still runs after
# 5 s, the timeouts and the daemons of the pid files, gets KILL.
stop() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for i in $(seq 50); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for f in "$work"/d/*.pid; do [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
  exit "$status"
}
trap stop EXIT
fail() {
  echo "FAIL: $*"
  for log in "$work"/d/*.log "$work"/results/slurm/*.log; do
    [ -f "$log" ] && { echo "--- $log"; tail -n 15 "$log"; }
  done
  exit 1
}
export PATH="$bin:$PATH"
life=170  # seconds any daemon may live

# munge with its own key and socket.
mkdir -p "$work/d/state" "$work/d/spool"
mungekey --create --keyfile="$work/d/munge.key" 2>/dev/null || dd if=/dev/urandom of="$work/d/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$work/d/munge.key"
timeout -k 5 $life munged -F --force --key-file="$work/d/munge.key" --socket="$work/d/munge.socket" \
  --pid-file="$work/d/munged.pid" --log-file="$work/d/munged.log" --seed-file="$work/d/munged.seed" \
  >"$work/d/munged.out" 2>&1 &
pids+=($!)

# slurm.conf: this host as controller and only node, on free ports.
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cat >"$work/d/slurm.conf" <<CONF
ClusterName=sasskit-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/d/munge.socket
CredType=cred/munge
StateSaveLocation=$work/d/state
SlurmdSpoolDir=$work/d/spool
SlurmctldPidFile=$work/d/slurmctld.pid
SlurmdPidFile=$work/d/slurmd.pid
SlurmctldLogFile=$work/d/slurmctld.log
SlurmdLogFile=$work/d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=60
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
CONF
export SLURM_CONF=$work/d/slurm.conf
for i in $(seq 50); do [ -S "$work/d/munge.socket" ] && break; sleep 0.1; done
timeout -k 5 $life slurmctld -D -i -f "$SLURM_CONF" >"$work/d/slurmctld.out" 2>&1 &
pids+=($!)
timeout -k 5 $life slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/d/slurmd.out" 2>&1 &
pids+=($!)
for i in $(seq 60); do
  timeout 5 sinfo -h -o %T 2>/dev/null | grep -qE '^idle' && break
  sleep 0.5
done
timeout 5 sinfo -h -o %T 2>/dev/null | grep -qE '^idle' || fail "the node did not come up idle"

cd "$work"
mkdir apps
sasskit-gen -q --kernel gemm,vecadd --size 4k -o apps/two
kit() {
  make -f "$src/workflows/Makefile" APP_DIR=apps GPUS="qv100 a100" VARIANTS="full pkp" PLOT= \
    SBATCH="timeout 20 sbatch" "$@"
}
# Waits until no job of ours is queued or running (at most 90 s).
drain() {
  for i in $(seq 180); do
    [ -z "$(timeout 5 squeue -h -o %i)" ] && return 0
    sleep 0.5
  done
  fail "jobs still queued after 90 s: $(timeout 5 squeue)"
}

kit slurm-array >submit1.log || fail "make slurm-array: $(cat submit1.log)"
grep -q "^slurm-array: 4 runs in job array" submit1.log || fail "first submission: $(cat submit1.log)"
drain
[ "$(find results/runs -name '*.stream' | wc -l)" = 4 ] || fail "the array made $(find results/runs -name '*.stream' | wc -l) of 4 runs"
[ "$(grep -c ',application,' results/summary.csv)" = 4 ] || fail "the summary job did not tabulate 4 runs"
kit -q || fail "the sweep is not complete after the jobs"

# A lost (or failed) run is resubmitted alone, and the summary redone.
rm results/runs/two/a100/pkp.stream
kit slurm-array >submit2.log || fail "resubmission: $(cat submit2.log)"
grep -q "^slurm-array: 1 runs in job array" submit2.log || fail "resubmission: $(cat submit2.log)"
drain
kit -q || fail "the resubmitted run did not complete the sweep"
[ results/summary.csv -nt results/runs/two/a100/pkp.stream ] || fail "the summary was not redone"
[ "$(kit -s slurm-array)" = "slurm-array: every run is done; nothing to submit" ] || fail "a complete sweep submitted jobs"
# Or make runs the sweep and srun each recipe (LAUNCH), all its stages on the node.
kit -j2 LAUNCH="timeout 60 srun -n1 --quiet" OUT=srun-results VARIANTS=full runs >srun.log 2>&1 || fail "srun sweep: $(cat srun.log)"
[ "$(find srun-results/runs -name '*.stream' | wc -l)" = 2 ] || fail "the srun sweep made $(find srun-results/runs -name '*.stream' | wc -l) of 2 runs"
cmp <(stall-report --format csv -l run results/runs/two/qv100/full.stream) \
  <(stall-report --format csv -l run srun-results/runs/two/qv100/full.stream) || fail "srun and sbatch runs differ"

echo "ok: sweep through sbatch --array on a local Slurm ($(slurmctld -V)); a lost run resubmitted alone; srun recipes"
