#!/bin/sh
# Rows that share a cost (pim_cost's memo of pieces, the Newton engine's
# memo of GEMV jobs) cost as they do alone: mobilenet_v2's pim pieces
# under seven row parameter sets (channels, n_gwrite, hiding), all in one
# table, give the rows of the seven tables costed in runs of their own, with
# and without -b, -a and -r (the upstream tools failing on the model fails
# the test).
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=${TMPDIR:-/tmp}/pimmemo.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
m=$TOP/share/pimflow/models/mobilenet_v2.onnx
onnx2layers "$m" >"$tmp/layers" && pf-split -n 16 "$tmp/layers" >"$tmp/tasks" ||
    { echo "FAIL: onnx2layers | pf-split on $m failed"; exit 1; }
: >"$tmp/all.body"
for v in 4:1:0 16:2:1 16:2:0 32:8:0 3:2:1 128:1:1 16:4:0; do
	awk -F, -v OFS=, -v v="$v" 'BEGIN { split(v, p, ":") }
	    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	    $c["device"] == "pim" { $c["pim_channels"] = p[1]; $c["pim_gwrite"] = p[2]
	        $c["pim_hiding"] = p[3]; print }' "$tmp/tasks" >"$tmp/t.$v" || exit 1
	tail -n +2 "$tmp/t.$v" >>"$tmp/all.body"
done
{ head -n 1 "$tmp/tasks"; cat "$tmp/all.body"; } >"$tmp/all"
rows=$(wc -l <"$tmp/all.body")
[ "$rows" -gt 1000 ] || { echo "FAIL: only $rows pim rows"; exit 1; }
n=0
for opt in "" "-b" "-a -r"; do
	pim-cycles $opt "$tmp/all" >"$tmp/whole" || exit 1
	: >"$tmp/parts"
	for v in 4:1:0 16:2:1 16:2:0 32:8:0 3:2:1 128:1:1 16:4:0; do
		pim-cycles $opt "$tmp/t.$v" | tail -n +2 >>"$tmp/parts" || exit 1
	done
	tail -n +2 "$tmp/whole" | cmp -s - "$tmp/parts" ||
	    { echo "FAIL: pim-cycles $opt: the table differs from its parts costed alone"; exit 1; }
	n=$((n + 1))
done
echo "$n comparisons of $rows rows equal"
