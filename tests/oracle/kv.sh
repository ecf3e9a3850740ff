#!/bin/sh
# The decode-step fixtures of tests/llm (gqa_models.py: the cache repeated
# to the query heads by Expand + Reshape, Tile or a Gather of heads, MQA,
# a [B, L, H, D] past cache, a repeated cache that is also an output)
# through onnx2layers and the oracle, which reads the cache's fold and
# the GEMM view of the cache as stored from the ONNX rules itself
# (check_layers.py kv_fold), at the export shapes and at batch 4,
# context 256 (tests/lib/oracle).  Skips (77) without Debian's
# python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/oracle"
F=$TOP/tests/llm/fixtures
fail=0
check() {	# model [options]
	m=$1; shift
	oracle_check "$m" "$F/$m.onnx" "$@" || fail=1
}
n=0
for m in "$F"/*.onnx; do
	m=${m##*/}; m=${m%.onnx}
	n=$((n + 1))
	check "$m"
done
[ "$n" -ge 6 ] || { echo "FAIL only $n fixtures in $F"; fail=1; }
check gqa_repeat_kv -i x=4x1x128 -i past_key=4x2x255x16 -i past_value=4x2x255x16
check mqa_expand -i x=4x1x128 -i past_key=4x1x255x16 -i past_value=4x1x255x16
exit $fail
