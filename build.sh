#!/usr/bin/env bash
# Set-up, build, demo and tests for sasskit on Debian 12.
#   ./build.sh deps    install the Debian packages the build needs (idempotent)
#   ./build.sh build   deps, then configure and build into build/
#   ./build.sh demo    build, then run the pipeline on a generated example
#   ./build.sh test    build and install the test packages (Slurm, munge), then
#                      run every test with ctest, the whole suite
#                      again under ASan+UBSan (build-asan/, without the tests
#                      labelled slow), and a 10 s smoke run of every fuzz
#                      target (built in build-asan/ too; needs clang)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake make g++ libcli11-dev libmsgpack-cxx-dev libboost-iostreams-dev libgsl-dev
          zlib1g-dev liblzma-dev libgtest-dev libgmock-dev xz-utils gzip
          gnuplot-nox libsqlite3-dev sqlite3)
# For `./build.sh test` only: a single-node Slurm for tests/workflows/slurm.sh.
TEST_PACKAGES=(slurmctld slurmd slurm-client munge)

# Installs the Debian packages named that are missing (all of PACKAGES by default).
deps() {
  local missing=() wanted=("${@:-${PACKAGES[@]}}") p
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "build.sh: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
  deps
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSASSKIT_BENCH=ON >/dev/null  # the drivers: see that they compile
  cmake --build build -j"$(nproc)"
}

# ctest's summary line "N% tests passed, F tests failed out of T" -> "P F".
passed_failed() {
  sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\2 \1/p' "$1" \
    | awk '{print $1 - $2, $2}'
}

# The suite again, built with AddressSanitizer and UBSan; any report fails.
# One build (build-asan/) serves this leg and the fuzz smoke leg: with clang,
# the libraries the fuzz targets drive also carry libFuzzer's coverage and the
# targets are built beside the tests (CMakeLists.txt, SASSKIT_FUZZ); without
# clang (none installable) gcc builds the suite alone and the fuzz leg says it
# was skipped. -O1: instrumented code compiles about 3 times faster than at
# -O3 and still inlines enough for the suite to run quickly. Tests labelled
# slow (the workflow kit under make and Slurm, the install check, the
# conservation script's forty pipelines: a third of this leg's time) are left
# out: they run tools on the code paths the other tests drive, and the
# release leg runs them.
sanitizer_leg() {
  command -v clang++ >/dev/null || deps clang || true
  local fuzz=OFF
  if command -v clang++ >/dev/null; then
    export CC=clang CXX=clang++
    fuzz=ON
  fi
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only -DNDEBUG" \
    -DSASSKIT_SANITIZE=ON -DSASSKIT_FUZZ="$fuzz" -DSASSKIT_BENCH=OFF >/dev/null  # no benchmark drivers: no test runs them
  cmake --build build-asan -j"$(nproc)" || { echo "build.sh: the ASan+UBSan build FAILED"; return 1; }
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 1200 -LE slow
}

# Every libFuzzer target of the sanitizer leg's build for FUZZ_SECONDS (10)
# from its seed corpus; a crash, leak, timeout or out-of-memory fails.
# Skipped, saying so, without clang.
fuzz_leg() {
  if ! command -v clang++ >/dev/null; then
    echo "build.sh: fuzz smoke leg SKIPPED: clang++ is not installed and could not be installed"
    return 0
  fi
  local ok=0 bad=0 target name work
  for target in build-asan/bin/*_fuzz; do
    if [ ! -x "$target" ]; then
      echo "build.sh: no fuzz targets in build-asan/bin: the ASan+UBSan build failed"; bad=1; break
    fi
    name=$(basename "$target" _fuzz)
    work=$(mktemp -d)
    if "$target" -max_total_time="${FUZZ_SECONDS:-10}" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
         -artifact_prefix="build-asan/$name-" "$work" "tests/fuzz/corpus/$name" >"build-asan/$name.log" 2>&1; then
      ok=$((ok + 1))
      echo "fuzz $name: ok, $(sed -n 's/.*stat::number_of_executed_units: *//p' "build-asan/$name.log") runs"
    else
      bad=$((bad + 1))
      echo "fuzz $name: FAILED, see build-asan/$name.log"; tail -n 30 "build-asan/$name.log"
    fi
    rm -rf "$work"
  done
  echo "fuzz targets: $ok passed, $bad failed"
  [ "$bad" -eq 0 ]
}

# Runs every leg even when one fails, then prints one summary line.
run_tests() {
  build
  local log=build/test-legs.log status=0 p=0 f=0 leg
  : >"$log"
  deps "${TEST_PACKAGES[@]}" || echo "build.sh: could not install ${TEST_PACKAGES[*]}; workflows/slurm will skip"
  ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600 | tee -a "$log" || status=1
  sanitizer_leg | tee build/asan-leg.log || status=1
  cat build/asan-leg.log >>"$log"
  fuzz_leg | tee build/fuzz-leg.log || status=1
  while read -r leg; do
    p=$((p + ${leg% *})); f=$((f + ${leg#* }))
  done < <(passed_failed "$log"; sed -n 's/^fuzz targets: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' build/fuzz-leg.log)
  [ "$status" -eq 0 ] || [ "$f" -gt 0 ] || f=1  # a leg that failed before its tests ran
  echo "$p passed, $f failed"
  return "$status"
}

# The demo needs the tools and the trace generator only, not the test suite:
# building just those targets takes a fraction of the full build.
demo() {
  deps
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" --target sasskit-gen trace-compress trace-unpack kernel-select \
    cta-sample rd-cache pipe-sim stall-report
  bash bench/demo.sh build/bin
}

case "${1:-}" in
  deps) deps ;;
  build) build ;;
  demo) demo ;;
  test) run_tests ;;
  *) echo "usage: ./build.sh deps|build|demo|test" >&2; exit 2 ;;
esac
