#!/usr/bin/env bash
# relocatable.sh BUILD SRC: `cmake --install BUILD --prefix P`, then P moved
# to Q must still work: Q/bin/pipe-sim --config qv100 simulates a generated
# kernel (GPU model and opcode tables found beside the executable),
# `man -M Q/share/man` shows every tool's page, every page renders without a
# troff warning, and every page's EXAMPLES run as typed, with the moved
# tools, against the README's application. The source tree is hidden
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
# Every installed page renders without a troff warning at 60, 80 and 120
# columns (man's line length is the terminal's width less 2).
if command -v groff >/dev/null; then
  for page in "$Q"/share/man/man*/*; do
    for width in 58 78 118; do
      warnings=$(groff -man -ww -z -Tutf8 -rLL="${width}n" "$page" 2>&1)
      [ -z "$warnings" ] ||
        { echo "FAIL: $(basename "$page") renders with a warning at $((width + 2)) columns: $warnings"; exit 1; }
    done
  done
else
  echo "note: groff is not installed; the pages' rendering was not checked"
fi

# Every page's EXAMPLES, as typed, with the moved tools, on the data
# tests/man/example-data.sh makes from the README's application (its
# sasskit-gen line in "A pipeline"), as a new user would try them.
readme_app=$(sed -n 's|^sasskit-gen \(.*\) -o app/ .*|\1|p' "$src/README.md")
[ -n "$readme_app" ] || { echo "FAIL: no 'sasskit-gen ... -o app/' line in README.md"; exit 1; }
for page in "$Q"/share/man/man*/*; do
  status=0
  SASSKIT_BIN=$Q/bin SASSKIT_SRC=$src SASSKIT_EXAMPLES_AT_TERMINAL=0 SASSKIT_EXAMPLE_APP=$readme_app \
    bash "$src/tests/man/run-examples.sh" "$page" >"$work/examples.txt" 2>&1 || status=$?
  if [ "$status" != 0 ] && [ "$status" != 77 ]; then
    echo "FAIL: the EXAMPLES of $(basename "$page") on the README's application (sasskit-gen $readme_app):"
    grep -v '^ok: ' "$work/examples.txt"; exit 1
  fi
done
echo "ok: install moved from P to Q works"
