#!/bin/sh
# The fast path (runs of identical blocks skipped by their measured
# duration) gives byte-identical output to issuing every command (-E), on
# the golden inputs with every option and on a bundled model's full
# candidate set (the upstream tools failing on it fails the test).
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=${TMPDIR:-/tmp}/pimexact.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
for in in "$TOP"/tests/pim-cycles/*/in; do
	# hbm-*: inputs for arch hbm-pim (eltwise rows newton cannot run);
	# batch-*: streams past what -E issues (tests/unit/t_newton.c
	# compares the closed-form periods with issuing every command)
	case $in in */bad-* | */hbm-* | */batch-*) continue ;; esac
	for opt in "" "-a" "-G -r" "-x -g 1" "-c aim-gddr6"; do
		pim-cycles $opt "$in" >"$tmp/f" 2>&1 || { echo "failed: $opt $in"; exit 1; }
		pim-cycles -E $opt "$in" >"$tmp/e" 2>&1 || exit 1
		cmp -s "$tmp/f" "$tmp/e" || { echo "differs: $opt $in"; exit 1; }
		n=$((n + 1))
	done
done
m=$TOP/share/pimflow/models/mobilenet_v2.onnx
if onnx2layers "$m" >"$tmp/layers" && pf-split -n 16 "$tmp/layers" >"$tmp/tasks"; then
	for opt in "" "-x -g 1"; do
		pim-cycles $opt "$tmp/tasks" >"$tmp/f" || exit 1
		pim-cycles -E $opt "$tmp/tasks" >"$tmp/e" || exit 1
		cmp -s "$tmp/f" "$tmp/e" || { echo "differs on mobilenet_v2: $opt"; exit 1; }
		n=$((n + 1))
	done
else
	echo "FAIL: onnx2layers | pf-split on $m failed"
	exit 1
fi
echo "$n comparisons equal"
