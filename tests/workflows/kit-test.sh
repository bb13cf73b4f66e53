# Sourced by the workflow kit's tests after `set -euo pipefail`, with the
# test's arguments BIN SRC: sets $bin and $src, skips (77) without
# sasskit-gen or GNU make, enters a scratch directory removed on exit, puts
# the tools first on PATH and defines fail MESSAGE.
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
[ -x "$bin/sasskit-gen" ] || { echo "skipped: sasskit-gen not built"; exit 77; }
command -v make >/dev/null || { echo "skipped: GNU make not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export PATH="$bin:$PATH"
fail() { echo "FAIL: $*"; exit 1; }
