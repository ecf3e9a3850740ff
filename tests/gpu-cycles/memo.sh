#!/bin/sh
# A row whose geometry was costed before takes the cells written then
# (gpu_cost's memo keeps each estimate's output texts, csvio_keep, across
# blocks, cleared past 4 MiB at a block's start): mobilenet_v2's tasks 16
# times over, every gpu row a geometry of its own (macs made unique), are
# costed alone (no row meets a geometry twice), then three times in one
# table, the second and third times under other names (not part of the
# geometry): each third must be the first costing, byte for byte, its
# names aside; so must every row repeated at once.  The upstream tools
# failing on the model fails the test.
set -u
t=${TMPDIR:-/tmp}/gpu-memo.$$
trap 'rm -f $t.*' EXIT
m=$TOP/share/pimflow/models/mobilenet_v2.onnx
onnx2layers "$m" >$t.l && pf-split $t.l >$t.t ||
    { echo "FAIL: onnx2layers | pf-split on $m failed"; exit 1; }
# 16 copies, each gpu row's macs its own (name: column 'name' renamed by $2)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; h = $0; next }
    { r[++n] = $0 }
    END { print h; k = 0
        for (j = 0; j < 16; j++) for (i = 1; i <= n; i++) {
            split(r[i], f, ","); $0 = r[i]
            if ($c["device"] == "gpu") $c["macs"] = $c["macs"] + (++k)
            print } }' $t.t >$t.u || exit 1
rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "device") d = i; next }
    $d == "gpu"' $t.u | wc -l)
[ "$rows" -gt 10000 ] || { echo "FAIL: only $rows gpu rows"; exit 1; }
# the rows again, named otherwise (tag in the name column)
renamed() {
	awk -F, -v OFS=, -v tag="$2" 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == "name") c = i; next } { $c = $c tag; print }' "$1"
}
gpu-cycles $t.u >$t.alone || exit 1
{ cat $t.u; renamed $t.u _b; renamed $t.u _c; } >$t.three
gpu-cycles $t.three >$t.out || exit 1
{ cat $t.alone; renamed $t.alone _b; renamed $t.alone _c; } | cmp -s - $t.out ||
    { echo "FAIL: a geometry costed again differs from its first costing"; exit 1; }
# each row twice in a row, the second renamed
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name") c = i
    print; next } { print; $c = $c "_d"; print }' $t.u >$t.twice
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name") c = i
    print; next } { print; $c = $c "_d"; print }' $t.alone >$t.want
gpu-cycles $t.twice | cmp -s - $t.want ||
    { echo "FAIL: a row repeated at once differs from its first costing"; exit 1; }
echo "3 x $rows gpu rows and each twice: as costed alone"
