#!/bin/sh
# An op onnx2layers does not know, kept with -k, is costed by its bytes
# only and says so: column costed (bytes on its row, model elsewhere) in
# layers.csv, carried onto its pieces in tasks.csv and pieces.csv, in
# plan.csv, bytes_only_layers in summary.json and a note under pimflow's
# table (pf-formats(7)).  The model's FooBar has no declared output shape:
# the Conv it feeds fixes the channels (onnx2layers(1) -k).
. "$TOP/tests/pipeline/common"
need_tools
scratch
m=$TOP/tests/onnx2layers/models/keep_conv.onnx
pimflow -x -k "$m" "$W/o" >"$W/table" 2>"$W/err" || fail "pimflow -k: exit $?: $(cat "$W/err")"
grep -q "output 'f' taken as 1x6x8x8" "$W/err" || fail "no warning of the inferred shape: $(cat "$W/err")"
check_outdir "$W/o" noplots
# layer name costed, per file (pieces: distinct pairs)
pairs() { pick -v cols=layer,costed -v body=1 "$1" | sort -u | tr '\n' ' '; }
want="0,bytes 1,model "
for f in layers tasks pieces plan; do
	[ "$(pairs "$W/o/$f.csv")" = "$want" ] || fail "$f.csv: layer,costed $(pairs "$W/o/$f.csv"), want $want"
done
[ "$(jq .bytes_only_layers "$W/o/summary.json")" = 1 ] || fail "summary: bytes_only_layers $(jq .bytes_only_layers "$W/o/summary.json")"
grep -qx "note: 1 layer of op other (data movement, ops kept with onnx2layers -k) costed by bytes only (costed = bytes in plan.csv)" "$W/table" ||
    fail "no note under the table: $(cat "$W/table")"
# Without an other row there is no such column, field or note.
m2=$TOP/tests/onnx2layers/models/cnn.onnx
pimflow -x "$m2" "$W/c" >"$W/table2" || fail "pimflow cnn: exit $?"
head -1 "$W/c/layers.csv" | grep -q costed && fail "costed column without an other row"
[ "$(jq .bytes_only_layers "$W/c/summary.json")" = null ] || fail "bytes_only_layers without an other row"
grep -q 'costed by bytes' "$W/table2" && fail "note without an other row"
exit 0
