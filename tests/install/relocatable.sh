#!/usr/bin/env bash
# relocatable.sh BUILD SRC: `cmake --install BUILD --prefix P`, then P moved
# to Q must still work: Q/bin/pipe-sim --config qv100 simulates a generated
# kernel (GPU model and opcode tables found beside the executable), and
# `man -M Q/share/man` shows every tool's page. The source tree is hidden
# from the moved tools by running them with an empty SASSKIT_CONFIG_PATH.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/P" >/dev/null
mv "$work/P" "$work/Q"
Q=$work/Q
unset SASSKIT_CONFIG_PATH
cd "$work"

# Every tool and every manual page is installed, pages in their sections.
for tool in "$src"/tools/*/; do
  name=$(basename "$tool")
  [ -x "$Q/bin/$name" ] || { echo "FAIL: $name not installed in bin/"; exit 1; }
done
[ -x "$Q/bin/sasskit-gen" ] || { echo "FAIL: sasskit-gen not installed"; exit 1; }
for page in "$src"/man/*.[157]; do
  name=$(basename "$page")
  [ -f "$Q/share/man/man${name##*.}/$name" ] || { echo "FAIL: $name not in share/man/man${name##*.}"; exit 1; }
done

# The moved tree runs the pipeline with a bundled model by name.
"$Q/bin/sasskit-gen" --kernel vecadd -o app/ >/dev/null
"$Q/bin/trace-unpack" app/ | "$Q/bin/pipe-sim" --config qv100 -q | "$Q/bin/stall-report" --format csv >report.csv
grep -q ',application,-1,(application),' report.csv || { echo "FAIL: no application row in the report"; cat report.csv; exit 1; }
"$Q/bin/pipe-sim" --config "$Q/share/sasskit/configs/a100.cfg" --dump-config >/dev/null

# The moved workflow kit finds the moved tools (bin/ beside its share/), with
# no sasskit tool on PATH.
mkdir apps && ln -s "$work/app" apps/vecadd
PATH=/usr/bin:/bin make -s -f "$Q/share/sasskit/workflows/Makefile" APP_DIR=apps GPUS=qv100 VARIANTS=full PLOT= >/dev/null
grep -q '^vecadd/qv100/full,QV100,.*,application,' results/summary.csv ||
  { echo "FAIL: the installed workflow kit made no summary"; exit 1; }

# No installed binary names the source or build tree.
if grep -l -F -e "$src/configs" -e "$build" "$Q"/bin/* >/dev/null; then
  echo "FAIL: an installed binary names the source or build tree"; exit 1
fi

# man finds the page in the moved tree.
if command -v man >/dev/null; then
  MANPAGER=cat MANWIDTH=80 man -M "$Q/share/man" pipe-sim 2>/dev/null | grep -q 'stall-aware' ||
    { echo "FAIL: man -M Q/share/man pipe-sim shows no page"; exit 1; }
else
  echo "note: man is not installed; the page files were checked only"
fi
echo "ok: install moved from P to Q works"
