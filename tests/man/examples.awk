# Prints the commands of a manual page's EXAMPLES section, one per line:
# the lines of its .nf/.fi and .RS/.RE blocks with roff escapes undone and
# backslash-continued lines joined.
/^\.SH/ { in_examples = ($2 == "EXAMPLES"); next }
!in_examples { next }
/^\.(nf|RS)/ { in_block = 1; next }
/^\.(fi|RE)/ { in_block = 0; next }
!in_block || /^\./ { next }
{
  line = $0
  gsub(/\\-/, "-", line)
  gsub(/\\e/, "\\", line)
  sub(/^[ \t]+/, "", line)
  if (line ~ /\\$/) { pending = pending substr(line, 1, length(line) - 1); next }
  line = pending line
  pending = ""
  if (line != "") print line
}
