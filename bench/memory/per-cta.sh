#!/usr/bin/env bash
# Memory each tool holds per CTA of a kernel (issue 35: at most 64 bytes in
# cta-sample and pipe-sim): peak RSS (/usr/bin/time -v) of cta-sample,
# rd-cache and pipe-sim on one generated vecadd kernel of SMALL CTAs and one of
# 4 x SMALL CTAs (32 threads, or BLOCK, and one element a thread per CTA, so
# the traces stay small), and the growth between the two over the added CTAs. The
# growth leaves out what does not depend on the grid: start-up, the resident
# CTAs' working set, the cache model's tag stores.
#
#   bash bench/memory/per-cta.sh BINDIR [BASE_BINDIR]
#
# BASE_BINDIR (optional): another build measured on the same streams, whose
# outputs must be byte-identical. SMALL (default 65536) sets the small
# kernel's CTAs; BLOCK (default 32) the threads of a CTA (256 for the
# issue-61 goal: per-warp state then counts 8 times a CTA). Traces, streams
# and outputs go to $WORK (default $TMPDIR/sasskit-per-cta), deleted at the
# end: about 400 MB at the default, and with BLOCK=256 about 1.5 GB while the
# larger trace is unpacked.
set -euo pipefail
bin=$(cd "${1:?usage: per-cta.sh BINDIR [BASE_BINDIR]}" && pwd)
base=${2:-}
[ -n "$base" ] && base=$(cd "$base" && pwd)
small=${SMALL:-65536}
block=${BLOCK:-32}
large=$((4 * small))
work=${WORK:-${TMPDIR:-/tmp}/sasskit-per-cta}
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
cd "$work"

# peak_kib OUT TOOL ARGS...: runs the tool with -o OUT, prints its peak RSS in KiB.
peak_kib() {
  local out=$1
  shift
  /usr/bin/time -f %M -o rss "$@" -o "$out" || { echo "per-cta.sh: failed: $*" >&2; exit 1; }
  cat rss
}

for ctas in "$small" "$large"; do
  "$bin/sasskit-gen" -q -k vecadd -n "$((block * ctas))" --block "$block" --iters 1 -o "v$ctas"
  "$bin/trace-unpack" -q --no-provenance "v$ctas" -o "v$ctas.stream"
  "$bin/rd-cache" -q --no-provenance --config qv100 "v$ctas.stream" -o "v$ctas.rd"
  rm -rf "v$ctas"
done

# measure LABEL BINDIR: one line per tool.
measure() {
  local label=$1 b=$2 tool input a z
  for tool in cta-sample:stream rd-cache:stream pipe-sim:rd; do
    input=${tool#*:}
    tool=${tool%%:*}
    a=$(peak_kib "$label.$tool.$small" "$b/$tool" -q --no-provenance --config qv100 "v$small.$input")
    z=$(peak_kib "$label.$tool.$large" "$b/$tool" -q --no-provenance --config qv100 "v$large.$input")
    printf '%-5s %-10s %9s KiB %9s KiB %6s bytes per CTA\n' "$label" "$tool" "$a" "$z" \
      "$(( (z - a) * 1024 / (large - small) ))"
  done
}

printf '%-5s %-10s %13s %13s %s\n' build tool "$small CTAs" "$large CTAs" growth
measure new "$bin"
if [ -n "$base" ]; then
  measure base "$base"
  for f in new.*; do
    cmp -s "$f" "base.${f#new.}" || { echo "per-cta.sh: outputs differ: ${f#new.}" >&2; exit 1; }
  done
  echo "every output byte-identical between the two builds"
fi
