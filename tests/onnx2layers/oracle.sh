#!/bin/sh
# The small test models of tests/onnx2layers/models, each through
# onnx2layers and checked row by row by the independent oracle
# (tests/oracle/check_layers.py: onnx's own shape inference and the
# contract's formulas; tests/lib/oracle).  Models the oracle cannot
# follow are left out:
# pool (ceil_mode: onnx 1.12 counts a last window that starts in the right
# padding, PyTorch and onnx2layers drop it), fpad, opset9 and unsorted
# (onnx 1.12 cannot fold their shape chains or order), opset18 and gelu20
# (ops newer than onnx 1.12).  Skips (77) without Debian's python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/oracle"
fail=0
for n in cnn conv_geom autopad broadcast opset10 opset11 opset13 opset17 \
    fusion embed conv1d weights_as_inputs external two_inputs zoo_ops \
    shapechain; do
	oracle_check "$n" "$TOP/tests/onnx2layers/models/$n.onnx" || fail=1
done
# Another input shape re-infers every row.
oracle_check cnn-i "$TOP/tests/onnx2layers/models/cnn.onnx" -i x=2x3x40x24 ||
    fail=1
exit $fail
