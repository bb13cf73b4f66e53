#!/usr/bin/env bash
# Peak memory of the full, unsampled pipeline on one big generated kernel:
#   trace-unpack DIR | rd-cache | pipe-sim
# each tool's peak RSS from /usr/bin/time -v (goal: <= 1 GiB per tool,
# issue 15), and a small kernel run the same way, whose output is compared
# with the output of a build that holds every CTA in memory: every record
# but the header (which names the format version) as JSON lines, in sorted
# order (rd-cache's cache record moved before the CTAs in format 1.3).
#
#   bash bench/memory/run.sh BINDIR [HELD_BINDIR] [ELEMENTS]
#
# BINDIR: the build to measure. HELD_BINDIR (optional): a build that holds
# whole kernels (e.g. main before issue 15), for the small-kernel comparison.
# ELEMENTS: vecadd size for the big kernel (default 256M: about 5.3 GB of
# Accel-Sim text, a single kernel of 1M CTAs). The trace, the streams and the
# tools' spill files go to $WORK (default /work/tmp/bench-memory), which is
# deleted at the end; it needs about 4x the text size of free disk.
set -euo pipefail
bin=$(cd "${1:?usage: run.sh BINDIR [HELD_BINDIR] [ELEMENTS]}" && pwd)
held=${2:-}
[ -n "$held" ] && held=$(cd "$held" && pwd)
elements=${3:-256M}
work=${WORK:-/work/tmp/bench-memory}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
cd "$work"

peak() {  # peak RSS in MiB from a /usr/bin/time -v log
  awk -F: '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$1"
}
wall() {
  awk '/Elapsed \(wall clock\)/ {print $NF}' "$1"
}
cpu() {  # user + system seconds
  awk -F: '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$1"
}

# pipeline DIR BINDIR OUT: the three tools, each under /usr/bin/time -v.
pipeline() {
  local dir=$1 b=$2 out=$3
  /usr/bin/time -v -o unpack.time "$b/trace-unpack" "$dir" --no-provenance |
    /usr/bin/time -v -o rdcache.time "$b/rd-cache" --config qv100 --no-provenance |
    /usr/bin/time -v -o pipesim.time "$b/pipe-sim" --config qv100 --no-provenance --threads 2 -o "$out"
}

report() {
  local tool log
  for tool in trace-unpack:unpack rd-cache:rdcache pipe-sim:pipesim; do
    log=${tool#*:}.time
    printf '%-12s peak RSS %8s MiB  CPU %7s s  wall %s\n' "${tool%%:*}" "$(peak "$log")" "$(cpu "$log")" "$(wall "$log")"
  done
}

echo "== small kernel (vecadd 4M elements, 16384 CTAs)"
"$bin/sasskit-gen" -q -k vecadd -n 4M -o small
echo "text: $(du -b small | cut -f1) bytes"
pipeline small "$bin" streamed.stream
report
if [ -n "$held" ]; then
  pipeline small "$held" held.stream
  echo "-- held (HELD_BINDIR):"
  report
  for f in streamed held; do
    "$bin/trace-unpack" --to jsonl "$f.stream" | grep -v '"t":"header"' | sort > "$f.jsonl"
  done
  if cmp -s streamed.jsonl held.jsonl; then
    echo "streamed and held outputs: the same records ($(wc -l < streamed.jsonl) records but the header)"
  else
    echo "streamed and held outputs DIFFER"
    exit 1
  fi
fi
rm -rf small streamed.* held.*

echo "== big kernel (vecadd $elements elements)"
"$bin/sasskit-gen" -q -k vecadd -n "$elements" -o big
echo "text: $(du -b big | cut -f1) bytes"
pipeline big "$bin" /dev/null
report
