#!/bin/sh
# Every bundled model through onnx2layers, its table checked row by row by
# the independent oracle (check_layers.py: onnx's own shape inference and
# the contract's formulas; tests/lib/oracle).  Skips (77) without
# Debian's python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/oracle"
fail=0
for m in "$TOP"/share/pimflow/models/*.onnx; do
	n=${m##*/}; n=${n%.onnx}
	oracle_check "$n" "$m" || fail=1
done
# The oracle itself must catch a wrong table: one MAC count off by one.
t=$tmp/resnet18_cifar10.csv
if ! [ -s "$t" ]; then
	echo "FAIL no resnet18_cifar10 table for the oracle's own check"; fail=1
else
	m2=$(awk -v cols=macs -v body=1 -f "$TOP/tests/lib/pick.awk" "$t" | head -1)
	awk -v set=macs -v to=$((m2 + 1)) -v at=2 -f "$TOP/tests/lib/pick.awk" "$t" >"$tmp/mut.csv"
	if "$PY" "$ORACLE" "$TOP/share/pimflow/models/resnet18_cifar10.onnx" \
	    "$tmp/mut.csv" >"$tmp/mut.out"; then
		echo "FAIL the oracle accepted a wrong MAC count"; fail=1
	fi
fi
# The user report's model at 64x64: a clean error at the Gemm, no output.
m=$TOP/share/pimflow/models/resnet18_cifar10.onnx
if "$BIN/onnx2layers" -i input=1x3x64x64 "$m" >"$tmp/c64.csv" 2>"$tmp/c64.err"; then
	echo "FAIL resnet18_cifar10 at 64x64: exit 0"; fail=1
elif [ -s "$tmp/c64.csv" ] || [ "$(wc -l <"$tmp/c64.err")" -ne 1 ] ||
    ! grep -q 2048 "$tmp/c64.err" || ! grep -q 512 "$tmp/c64.err"; then
	echo "FAIL resnet18_cifar10 at 64x64: want one line naming 2048 and 512, nothing on stdout:"
	cat "$tmp/c64.err"; fail=1
fi
# The name may be left out when the model has one data input.
"$BIN/onnx2layers" -i 1x3x64x64 "$m" >"$tmp/c64b.csv" 2>"$tmp/c64b.err"
if ! cmp -s "$tmp/c64.err" "$tmp/c64b.err" || [ -s "$tmp/c64b.csv" ]; then
	echo "FAIL resnet18_cifar10 -i 1x3x64x64 (no name) differs from -i input=..."
	fail=1
fi
# Other input shapes re-infer every row (not bert_encoder: the exporter
# baked its 64 tokens into Reshape shapes); another element type: every
# byte count follows it, integer ids keep 8.  Each checked by the same
# oracle.
for spec in "resnet18 -i input=2x3x160x96" "mnasnet1_0 -i input=1x3x128x160" \
    "mobilenet_v2 -i input=1x3x96x128" "efficientnet_b0 -i input=1x3x300x300" \
    "resnet50 -i input=4x3x224x224" "vgg16 -i input=2x3x224x224" \
    "bert_encoder -t fp32" "mobilenet_v2 -t int8"; do
	set -- $spec
	oracle_check "$1$2" "$TOP/share/pimflow/models/$1.onnx" "$2" "$3" ||
	    fail=1
done
exit $fail
