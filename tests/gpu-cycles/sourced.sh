#!/bin/sh
# Every value of every shipped GPU config carries a "# source:" comment
# (on the line above it, or above the group of values it belongs to), and
# every config loads.
set -u
bad=0
for f in "$TOP"/share/pimflow/gpu/*.conf; do
	awk -v f="${f##*/}" '
	/^[a-z_0-9]+ *=/ { if (prev !~ /^# source:/) { print f ":" NR ": no source: " $0; bad = 1 } next }
	{ prev = $0 }
	END { exit bad }' "$f" || bad=1
	gpu-cycles -c "$f" "$TOP/tests/gpu-cycles/basic/in" >/dev/null || bad=1
done
exit $bad
