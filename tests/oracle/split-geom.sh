#!/bin/sh
# pf-split's pieces of 3-D convs along depth (axis d), of transposed convs
# along output rows (axis h, their own halo rule) and of both along output
# channels, against the torch oracle's expectations (split/expect.csv:
# every piece run by split_torch.py as a real torch convolution over the
# input slice its columns imply and joined into exactly the layer's
# output).  Needs no torch: the fixture (split/layers.onnx, exported from
# torch) and the expectations are committed; split_torch.py regenerates
# both, and refuses to when a piece is not exact.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${PF_BIN:-$TOP/bin}
D=$TOP/tests/oracle/split
PICK=$TOP/tests/lib/pick.awk
cols=cand,device,layer,axis,in_c,in_h,in_w,in_d,out_c,out_h,out_w,out_d,pad_top,pad_bottom,pad_front,pad_back,groups,macs
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$BIN/onnx2layers" "$D/layers.onnx" >"$tmp/layers.csv" 2>"$tmp/err" ||
    { echo "FAIL onnx2layers: $(cat "$tmp/err")"; exit 1; }
# the options split_torch.py ran pf-split with
"$BIN/pf-split" -e split-dil,split-grouped -p none "$tmp/layers.csv" \
    >"$tmp/tasks.csv" 2>"$tmp/err" || { echo "FAIL pf-split: $(cat "$tmp/err")"; exit 1; }
awk -v cols=kind,$cols -v body=1 -f "$PICK" "$tmp/tasks.csv" |
    awk -F, '$1 == "split"' | cut -d, -f2- >"$tmp/got"
awk -v cols=$cols -v body=1 -f "$PICK" "$D/expect.csv" >"$tmp/want"
[ -s "$tmp/want" ] || { echo "FAIL no expectations in $D/expect.csv"; exit 1; }
if ! cmp -s "$tmp/got" "$tmp/want"; then
	echo "FAIL pf-split's split pieces differ from the torch-checked ones (< pf-split, > expected):"
	diff "$tmp/got" "$tmp/want" | head -20
	exit 1
fi
# every expected piece was exact, and the rules the fixture is for are there
n=$(awk -v cols=exact -v body=1 -f "$PICK" "$D/expect.csv" | grep -cvx 1)
[ "$n" -eq 0 ] || { echo "FAIL $n expected pieces are not marked exact"; exit 1; }
for want in "Conv d" "Conv n" "ConvTranspose h" "ConvTranspose n"; do
	op=${want% *} ax=${want#* }
	awk -v cols=layer,onnx_op -v body=1 -f "$PICK" "$tmp/layers.csv" |
	    awk -F, -v op="$op" '$2 == op { print $1 }' >"$tmp/ids"
	awk -v cols=layer,axis -v body=1 -f "$PICK" "$D/expect.csv" |
	    awk -F, -v ax="$ax" 'NR == FNR { id[$1]; next } ($1 in id) && $2 == ax' \
	    "$tmp/ids" - | grep -q . || { echo "FAIL no $op piece along $ax"; exit 1; }
done
exit 0
