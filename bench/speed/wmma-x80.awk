# The real wmma-sm70 kernel trace (one CTA of 16 warps) with its CTA repeated
# COPIES times (default 80), copy i's addresses moved up by i * STRIDE bytes
# (default 65536): the "wmma x80" case of issue 35 (218,880 warp instructions).
#   awk -f wmma-x80.awk [-v COPIES=80 -v STRIDE=65536] kernel-1.traceg > kernel-1.traceg
# The trace uses address mode 2 (base, deltas), so only the 0x base of a memory
# instruction moves. mawk has no hex conversion: the helpers below do it in
# doubles, exact below 2^53.
BEGIN {
  if (COPIES == "") COPIES = 80
  if (STRIDE == "") STRIDE = 65536
  digits = "0123456789abcdef"
}
function from_hex(s,    n, i) {
  n = 0
  s = tolower(substr(s, 3))
  for (i = 1; i <= length(s); ++i) n = n * 16 + index(digits, substr(s, i, 1)) - 1
  return n
}
function to_hex(n,    s, d) {
  s = ""
  do { d = n % 16; s = substr(digits, d + 1, 1) s; n = (n - d) / 16 } while (n > 0)
  return "0x" s
}
/^-grid dim = / { print "-grid dim = (" COPIES ",1,1)"; next }
/^#BEGIN_TB/ { in_cta = 1 }
in_cta { cta[++lines] = $0; if ($0 ~ /^#END_TB/) in_cta = 0; next }
lines == 0 { print; next }
END {
  for (copy = 0; copy < COPIES; ++copy)
    for (l = 1; l <= lines; ++l) print moved(cta[l], copy * STRIDE, copy)
}
# One line of the CTA for copy COPY: its block index, or its addresses moved.
function moved(line, offset, copy,    fields, n, i, out) {
  if (line ~ /^thread block = /) return "thread block = " copy ",0,0"
  if (line !~ / 0x/) return line
  n = split(line, fields, " ")
  out = fields[1]
  for (i = 2; i <= n; ++i) out = out " " (fields[i] ~ /^0x/ ? to_hex(from_hex(fields[i]) + offset) : fields[i])
  return out
}
