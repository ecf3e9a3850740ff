#!/bin/sh
# Small models built with python3-onnx's helper API (synth_models.py):
# auto_pad, asymmetric pads, dilation, groups, ceil_mode, Conv1d,
# ConvTranspose, Pad folding, transA, broadcasting MatMul, opset 9/13/17/18
# argument forms, a symbolic batch given with -i; and the exporter's own
# symbolic-dims models in tests/oracle/fixtures (share/pimflow/models/export-models -d:
# BERT with dynamic batch and sequence, whose Reshape shapes are computed
# by Shape/Gather/Cast/Concat chains; ResNet-18 with dynamic batch and
# image size; export_fixtures.py: torch's asymmetric F.pad chain folded
# into a Conv, Resize, LeakyReLU/ELU/Softplus/Tanh/PReLU, ceil_mode pools,
# LogSoftmax; Conv1d/BatchNorm1d/GELU/MaxPool1d with symbolic length).  Each goes through onnx2layers (with NAME.args) and the
# oracle.  Skips (77) without Debian's python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
BIN=${PF_BIN:-$TOP/bin}
if ! [ -x "$PY" ] || ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
	echo "no python3-onnx for $PY"; exit 77
fi
if ! [ -x "$BIN/onnx2layers" ]; then echo "no $BIN/onnx2layers"; exit 77; fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$PY" "$TOP/tests/oracle/synth_models.py" "$tmp" || exit 1
fail=0
cp "$TOP"/tests/oracle/fixtures/*.onnx "$TOP"/tests/oracle/fixtures/*.args "$tmp"/
for m in "$tmp"/*.onnx; do
	b=${m%.onnx}
	args=$(cat "$b.args")
	# shellcheck disable=SC2086
	if ! "$BIN/onnx2layers" $args "$m" >"$b.csv" 2>"$b.err"; then
		echo "FAIL ${b##*/}: onnx2layers: $(head -3 "$b.err")"
		fail=1; continue
	fi
	# shellcheck disable=SC2086
	"$PY" "$TOP/tests/oracle/check_layers.py" $args "$m" "$b.csv" || fail=1
done
exit $fail
