#!/usr/bin/env bash
# check-headers.sh VERSION PAGE...: every page has one header form,
#   .TH NAME SECTION "DATE" "sasskit VERSION" "sasskit manual"
# with NAME its file name in capitals and VERSION the project's.
set -u
version=$1; shift
bad=0
for page in "$@"; do
  file=$(basename "$page")
  name=${file%.*} section=${file##*.}
  th=$(grep -m1 '^\.TH' "$page")
  if ! grep -qE "^\.TH ${name^^} ${section} \"[0-9]{4}-[0-9]{2}\" \"sasskit ${version//./\\.}\" \"sasskit manual\"$" <<<"$th"; then
    echo "FAIL $file: $th"; bad=1
  fi
done
[ $bad = 0 ] && echo "ok: $# pages share one header, sasskit $version"
exit $bad
