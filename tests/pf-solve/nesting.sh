#!/bin/sh
# On every bundled model, the whole flow onnx2layers | pf-split | gpu-cycles |
# pim-cycles | pf-merge | pf-solve -P all runs, the policies' optima nest
# (pimflow <= mddp <= newton++, pimflow <= pipeline <= newton++), the plan's
# ns column sums to the summary's pimflow total, every layer appears once,
# -D (co-scheduled branches) never does worse than pimflow, and the
# whole-machine choice holds (attn-pim, the reference, keeps its own plan):
# no searched policy is slower than none, a policy runs
# none's plan exactly when its own (fixed_ns, also what -F reports) is
# slower, and -F gives every policy its own optimum.
# Every bundled model is covered: one the upstream tools cannot handle
# fails the test, as does a missing tool or no model at all.
set -u
. "$TOP/tests/pipeline/common"
for t in onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: $t not built"; exit 1; }
done
command -v jq >/dev/null 2>&1 || { echo "FAIL: jq missing (make deps)"; exit 1; }
scratch
fail=0
# one model: the flow, then its checks; returns 1 when a tool failed
nest() {	# file name
	f=$1 m=$2
	if ! onnx2layers "$f" >"$W/l.csv" 2>"$W/err" ||
	    ! pf-split "$W/l.csv" | gpu-cycles | pim-cycles >"$W/t.csv" 2>>"$W/err"; then
		echo "FAIL $m: upstream tools failed: $(head -1 "$W/err")"
		fail=1
		return 1
	fi
	if ! pf-merge "$W/t.csv" >"$W/c.csv" ||
	    ! pf-solve -P all -l "$W/l.csv" -j "$W/s.json" -m "$m" "$W/c.csv" >"$W/p.csv" ||
	    ! pf-solve -D -l "$W/l.csv" -j "$W/d.json" "$W/c.csv" >/dev/null ||
	    ! pf-solve -F -l "$W/l.csv" -j "$W/f.json" "$W/c.csv" >/dev/null; then
		echo "FAIL $m: pf-merge or pf-solve failed"
		fail=1
		return 1
	fi
	jq -e '[.policies[] | {(.policy): .ns}] | add |
	    .pimflow <= .mddp and .mddp <= ."newton++" and
	    .pimflow <= .pipeline and .pipeline <= ."newton++"' "$W/s.json" >/dev/null ||
	    { echo "FAIL $m: optima do not nest"; fail=1; }
	jq -e '(.policies[] | select(.policy == "none")).ns as $g | all(.policies[] | select(.policy != "attn-pim");
	    .ns <= $g and .fixed_ns >= .ns and
	    .chose_none == (.fixed_ns > $g) and
	    (if .chose_none then .ns == $g else .ns == .fixed_ns end))' \
	    "$W/s.json" >/dev/null || { echo "FAIL $m: a policy is slower than none"; fail=1; }
	# attn-pim, the reference mapping, keeps its own plan
	jq -e 'all(.policies[] | select(.policy == "attn-pim");
	    .chose_none == false and .ns == .fixed_ns)' \
	    "$W/s.json" >/dev/null || { echo "FAIL $m: attn-pim does not report its own plan"; fail=1; }
	jq -e --slurpfile f "$W/f.json" '[.policies[].fixed_ns] ==
	    [$f[0].policies[].ns] and all($f[0].policies[]; .chose_none == false)' \
	    "$W/s.json" >/dev/null || { echo "FAIL $m: -F is not the policies' own optima"; fail=1; }
	jq -e --slurpfile d "$W/d.json" '($d[0].policies[] | select(.policy == "pimflow")).ns <= (.policies[] | select(.policy == "pimflow")).ns' \
	    "$W/s.json" >/dev/null || { echo "FAIL $m: -D worse than pimflow"; fail=1; }
	sum=$(pick -v cols=ns -v body=1 "$W/p.csv" | awk '{ s += $1 } END { printf "%.3f", s }')
	tot=$(jq -r '(.policies[] | select(.policy == "pimflow")).ns' "$W/s.json")
	awk -v a="$sum" -v b="$tot" 'BEGIN { d = a - b; exit !(d < 0.01 && d > -0.01) }' ||
	    { echo "FAIL $m: plan sums to $sum, summary says $tot"; fail=1; }
	nl=$(($(wc -l <"$W/l.csv") - 1))
	np=$(pick -v cols=layer -v body=1 "$W/p.csv" | sort -u | wc -l)
	[ "$nl" -eq "$np" ] || { echo "FAIL $m: $np plan layers of $nl"; fail=1; }
	echo "$m: $(jq -r '[.policies[] | "\(.policy) \(.speedup)"] | join(", ")' "$W/s.json"); -D pimflow $(jq -r '(.policies[] | select(.policy == "pimflow")).speedup' "$W/d.json")"
}
each_model nest
[ "$NMODELS" -gt 0 ] || { echo "FAIL: no bundled model in $MODELS"; exit 1; }
exit $fail
