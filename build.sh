#!/usr/bin/env bash
# Set-up, build, demo and tests for sasskit on Debian 12.
#   ./build.sh deps    install the Debian packages the build needs (idempotent)
#   ./build.sh build   deps, then configure and build into build/
#   ./build.sh demo    build, then run the pipeline on a generated example
#   ./build.sh test    build, then run every test with ctest
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake make g++ libcli11-dev libmsgpack-cxx-dev libboost-iostreams-dev libgsl-dev
          zlib1g-dev liblzma-dev libgtest-dev libgmock-dev libbenchmark-dev xz-utils gzip
          gnuplot-nox libsqlite3-dev sqlite3)

deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
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
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)"
}

run_tests() {
  build
  ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600
}

demo() {
  build
  bash bench/demo.sh build/bin
}

case "${1:-}" in
  deps) deps ;;
  build) build ;;
  demo) demo ;;
  test) run_tests ;;
  *) echo "usage: ./build.sh deps|build|demo|test" >&2; exit 2 ;;
esac
