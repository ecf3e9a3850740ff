#!/bin/sh
# Every bundled model through onnx2layers, its table checked row by row by
# the independent oracle (check_layers.py: onnx's own shape inference and
# the contract's formulas).  Skips (77) without Debian's python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
ORACLE=$TOP/tests/oracle/check_layers.py
BIN=${PF_BIN:-$TOP/bin}
if ! [ -x "$PY" ] || ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
	echo "no python3-onnx for $PY"; exit 77
fi
if ! [ -x "$BIN/onnx2layers" ]; then
	echo "no $BIN/onnx2layers"; exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for m in "$TOP"/share/pimflow/models/*.onnx; do
	n=${m##*/}; n=${n%.onnx}
	if ! "$BIN/onnx2layers" "$m" >"$tmp/$n.csv" 2>"$tmp/$n.err"; then
		echo "FAIL $n: onnx2layers: $(head -3 "$tmp/$n.err")"
		fail=1; continue
	fi
	if ! "$PY" "$ORACLE" "$m" "$tmp/$n.csv"; then fail=1; fi
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
# Other input shapes re-infer every row: checked by the same oracle.
# (Not bert_encoder: the exporter baked its 64 tokens into Reshape shapes.)
for spec in "resnet18 input=2x3x160x96" "mnasnet1_0 input=1x3x128x160" \
    "mobilenet_v2 input=1x3x96x128" "efficientnet_b0 input=1x3x300x300" \
    "resnet50 input=4x3x224x224" "vgg16 input=2x3x224x224"; do
	set -- $spec
	m=$TOP/share/pimflow/models/$1.onnx
	if ! "$BIN/onnx2layers" -i "$2" "$m" >"$tmp/o.csv" 2>"$tmp/o.err"; then
		echo "FAIL $1 -i $2: $(head -3 "$tmp/o.err")"; fail=1; continue
	fi
	"$PY" "$ORACLE" -i "$2" "$m" "$tmp/o.csv" || fail=1
done
# Another element type: every byte count follows it, integer ids keep 8.
for spec in "bert_encoder fp32" "mobilenet_v2 int8"; do
	set -- $spec
	m=$TOP/share/pimflow/models/$1.onnx
	if ! "$BIN/onnx2layers" -t "$2" "$m" >"$tmp/t.csv" 2>"$tmp/t.err"; then
		echo "FAIL $1 -t $2: $(head -3 "$tmp/t.err")"; fail=1; continue
	fi
	"$PY" "$ORACLE" -t "$2" "$m" "$tmp/t.csv" || fail=1
done
exit $fail
