#!/bin/sh
# The decode-step fixtures of tests/llm (gqa_models.py: the cache repeated
# to the query heads by Expand + Reshape, Tile or a Gather of heads, MQA,
# a [B, L, H, D] past cache, a repeated cache that is also an output)
# through onnx2layers and the oracle, which reads the cache's fold and
# the GEMM view of the cache as stored from the ONNX rules itself
# (check_layers.py kv_fold), at the export shapes and at batch 4,
# context 256.  Skips (77) without Debian's python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
BIN=${PF_BIN:-$TOP/bin}
F=$TOP/tests/llm/fixtures
if ! [ -x "$PY" ] || ! "$PY" -c 'import onnx, numpy' 2>/dev/null; then
	echo "no python3-onnx for $PY"; exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# model [args]
	m=$1; shift
	# shellcheck disable=SC2068
	if ! "$BIN/onnx2layers" $@ "$F/$m.onnx" >"$tmp/o.csv" 2>"$tmp/err"; then
		echo "FAIL $m: onnx2layers: $(head -3 "$tmp/err")"; fail=1; return
	fi
	# shellcheck disable=SC2068
	"$PY" "$TOP/tests/oracle/check_layers.py" $@ "$F/$m.onnx" "$tmp/o.csv" ||
	    fail=1
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
