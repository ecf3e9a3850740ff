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
	# the same pieces with the row parameters varied row by row
	# (channels 3 to 128, n_gwrite 1 to 8, hiding on and off): refreshes
	# at every phase of every block shape
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	    { k = NR % 7; $c["pim_channels"] = k == 0 ? 4 : k == 1 ? 32 : k == 2 ? 64 : k == 3 ? 8 : k == 4 ? 3 : k == 5 ? 128 : 16
	      $c["pim_gwrite"] = NR % 3 == 0 ? 1 : NR % 3 == 1 ? 2 : 8; $c["pim_hiding"] = NR % 2; print }' \
	    "$tmp/tasks" >"$tmp/mixed" || exit 1
	for opt in "" "-a" "-b"; do
		pim-cycles $opt "$tmp/mixed" >"$tmp/f" || exit 1
		pim-cycles -E $opt "$tmp/mixed" >"$tmp/e" || exit 1
		cmp -s "$tmp/f" "$tmp/e" || { echo "differs on mixed mobilenet_v2: $opt"; exit 1; }
		n=$((n + 1))
	done
else
	echo "FAIL: onnx2layers | pf-split on $m failed"
	exit 1
fi
echo "$n comparisons equal"
