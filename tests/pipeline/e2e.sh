#!/bin/sh
# End to end: pimflow on bundled models (a CNN at 32x32, mobilenet_v2, the
# BERT-like encoder, then every other bundled model without plots): exit 0, OUTDIR complete with plots, summary fields
# present and policies nested, the plan's per-layer times adding up to the
# summary's pimflow total, the printed table equal to the summary, and
# nothing left beside OUTDIR.  Then the cost stages fanned out with GNU
# parallel must give byte-identical files to the serial run.
. "$TOP/tests/pipeline/common"
need_tools
scratch
for m in resnet18_cifar10 mobilenet_v2 bert_encoder; do
	need_model $m
	pimflow "$MODELS/$m.onnx" "$W/$m" >"$W/$m.table" 2>"$W/$m.err" ||
	    fail "$m: pimflow exit $?: $(cat "$W/$m.err")"
	[ ! -s "$W/$m.err" ] || fail "$m: unexpected stderr: $(cat "$W/$m.err")"
	check_outdir "$W/$m"
	# Sum of the plan's ns column = the pimflow policy's total.
	s=$(csvcol "$W/$m/plan.csv" ns | awk '{ s += $1 } END { printf "%.6f", s }')
	jq -e --argjson s "$s" '.policies[] | select(.policy == "pimflow")
	    | ((.ns - $s) | fabs) <= 1e-3 * (.ns / 1000 + 1)' "$W/$m/summary.json" >/dev/null ||
	    fail "$m: plan ns sums to $s, summary says $(jq '(.policies[] | select(.policy == "pimflow")).ns' "$W/$m/summary.json")"
	# The table: one row per policy, times in us to 0.1, speedup to 0.001,
	# as computed here from the JSON with awk (not with table.jq).
	jq -r '.policies[] | "\(.policy) \(.ns) \(.gpu_cycles) \(.speedup)"' "$W/$m/summary.json" |
	    awk '{ printf "%s %.1f %.0f %.3f\n", $1, $2 / 1000, $3, $4 }' >"$W/want"
	awk 'NR > 2 && NR <= 8 { print $1, $2, $3, $4 }' "$W/$m.table" >"$W/got"
	cmp -s "$W/want" "$W/got" || fail "$m: table differs from summary: $(diff "$W/want" "$W/got")"
	[ "$(sed -n 2p "$W/$m.table" | awk '{ print $1, $2, $3, $4 }')" = "policy time_us gpu_cycles speedup" ] ||
	    fail "$m: table header: $(sed -n 2p "$W/$m.table")"
done
# Every other bundled model, without plots.
for f in "$MODELS"/*.onnx; do
	m=${f##*/}
	m=${m%.onnx}
	[ -d "$W/$m" ] && continue
	pimflow -q -x "$f" "$W/$m" || fail "$m: pimflow exit $?"
	check_outdir "$W/$m" noplots
done
ls -A "$W" | grep -q '^\.' && fail "leftover temporary folders: $(ls -A "$W")"

# Fan-out forced on and off (2 jobs) must not change a byte.
m=mobilenet_v2
pimflow -q -x -f on -j 2 "$MODELS/$m.onnx" "$W/on" || fail "fan-out on: exit $?"
pimflow -q -x -f off "$MODELS/$m.onnx" "$W/off" || fail "fan-out off: exit $?"
for f in layers tasks pieces costs plan; do
	cmp -s "$W/on/$f.csv" "$W/off/$f.csv" || fail "fan-out changed $f.csv"
done
cmp -s "$W/on/summary.json" "$W/off/summary.json" || fail "fan-out changed summary.json"
cmp -s "$W/on/summary.json" "$W/$m/summary.json" || fail "run not deterministic"
exit 0
