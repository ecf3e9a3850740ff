#!/bin/sh
# Every value of every shipped config (GPU, build, energy and PIM) carries
# a "# source:" comment (on the line above it, or above the group of
# values it belongs to; arch, which names the engine, is no value), and
# every config loads in the tool that reads it.
set -u
S=$TOP/share/pimflow
in=$TOP/tests/gpu-cycles/basic/in
bad=0 n=0
for f in "$S"/gpu/*.conf "$S"/build/*.conf "$S"/energy/*.conf "$S"/pim/*.conf; do
	awk -v f="${f#"$S"/}" '
	/^arch *=/ { next }
	/^[a-z_0-9]+ *=/ { if (prev !~ /^# source:/) { print f ":" NR ": no source: " $0; bad = 1 } next }
	{ prev = $0 }
	END { exit bad }' "$f" || bad=1
	case $f in
	*/gpu/*) gpu-cycles -c "$f" "$in" ;;
	*/build/*) gpu-cycles -b "$f" "$in" ;;
	*/energy/*) gpu-cycles -c "$(basename "$f" .conf)" -e "$f" "$in" ;;
	*/pim/hbm-*) pim-cycles -c "$f" "$TOP/tests/pim-cycles/hbm-pim/in" ;;
	*/pim/*) pim-cycles -c "$f" "$TOP/tests/pim-cycles/geometry/in" ;;
	esac >/dev/null || { echo "${f#"$S"/}: does not load"; bad=1; }
	n=$((n + 1))
done
[ "$n" -gt 20 ] || { echo "only $n configs found in $S"; bad=1; }
exit $bad
