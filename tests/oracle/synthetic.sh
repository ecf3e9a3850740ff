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
# oracle (tests/lib/oracle).  Skips (77) without Debian's python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/oracle"
"$PY" "$TOP/tests/oracle/synth_models.py" "$tmp" || exit 1
fail=0
cp "$TOP"/tests/oracle/fixtures/*.onnx "$TOP"/tests/oracle/fixtures/*.args "$tmp"/
for m in "$tmp"/*.onnx; do
	b=${m%.onnx}
	# shellcheck disable=SC2046
	oracle_check "${b##*/}" "$m" $(cat "$b.args") || fail=1
done
exit $fail
