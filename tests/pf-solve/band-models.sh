#!/bin/sh
# The error band and the ladder on every bundled model: pimflow (its
# default -U auto: 100 samples there) gives every policy a band with p05 <= p50 <= p95 and a
# beats share in [0, 1], the table its cell for each, and plan.csv a
# stability in [0, 1] on every layer; the none policy's band is 1 wide 0;
# pimflow -A gives its five steps and a band line for each PIM policy.
# pimflow -A on one model: its rows are the runs they name (the first
# the published assumptions, the whole-machine row pimflow with the
# deployment build), and each effect is the change of the row's best.
. "$TOP/tests/pipeline/common"
need_tools
scratch
# one model: its bands, table cells, plan stability and ladder
band() {	# file name
	f=$1 m=$2
	pimflow -x "$f" "$W/$m" >"$W/$m.txt" 2>"$W/$m.err" ||
	    fail "$m: pimflow exit $?: $(cat "$W/$m.err")"
	jq -e '[.policies[] | .band as $b | $b.samples == 100 and
	    ($b.nominal | .p05 <= .p50 and .p50 <= .p95 and .beats_gpu >= 0 and .beats_gpu <= 1) and
	    ($b.resolved | .p05 <= .p50 and .p50 <= .p95 and .beats_gpu >= 0 and .beats_gpu <= 1)] | all' \
	    "$W/$m/summary.json" >/dev/null || fail "$m: a policy without a well-formed band"
	jq -e '.policies[0] | .policy == "none" and .band.nominal.p05 == 1 and .band.nominal.p95 == 1' \
	    "$W/$m/summary.json" >/dev/null || fail "$m: the none policy's band is not 1"
	np=$(jq '.policies | length' "$W/$m/summary.json")
	nc=$(grep -cE '^[a-z+-]+ .*\] [0-9]+%' "$W/$m.txt")
	[ "$nc" -eq "$np" ] || fail "$m: $nc band cells in the table, $np policies"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stability") c = i; if (!c) exit 1; next }
	    $c == "" || $c < 0 || $c > 1 { exit 1 }' "$W/$m/plan.csv" ||
	    fail "$m: plan.csv without a stability in [0, 1] on every layer"
	# the ladder: five steps after the published row, a band per policy
	pimflow -A "$f" >"$W/$m.lad" 2>"$W/$m.err" || fail "$m: pimflow -A exit $?: $(cat "$W/$m.err")"
	[ "$(grep -c '^+ ' "$W/$m.lad")" -eq 5 ] || fail "$m: ladder rows: $(cat "$W/$m.lad")"
	[ "$(grep -cE '^  [a-z+-]+ +[0-9.]+ \[[0-9.]+-[0-9.]+\] [0-9]+%$' "$W/$m.lad")" -eq $((np - 1)) ] ||
	    fail "$m: ladder band lines: $(cat "$W/$m.lad")"
}
each_model band
[ "$NMODELS" -ge 10 ] || fail "only $NMODELS bundled models"
# every shipped PIM config has its dispatch and hand-off ranges: the
# default band runs with each (hbm3-pim had none and -M hbm3-pim failed)
n=0
for c in "$TOP"/share/pimflow/pim/*.conf; do
	c=$(basename "$c" .conf)
	pimflow -q -x -M "$c" "$MODELS/resnet18_cifar10.onnx" "$W/m-$c" 2>"$W/err" ||
	    fail "pimflow -M $c: exit $?: $(cat "$W/err")"
	jq -e '.policies[1].band.samples == 100' "$W/m-$c/summary.json" >/dev/null ||
	    fail "pimflow -M $c: no band"
	n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "only $n PIM configs"

m=$MODELS/resnet18_cifar10.onnx
pimflow -A "$m" "$W/ladder" >"$W/ladder.txt" 2>"$W/err" || fail "pimflow -A: exit $?: $(cat "$W/err")"
pimflow -q -x -U 0 -F -b tvm-cudnn -o 'pim-cycles=-d 0 -H' "$m" "$W/pub" || fail "published run"
pimflow -q -x -U 0 -b fused "$m" "$W/ours" || fail "whole-machine run"
# the table's numbers, three decimals as pf-ladder prints them
row() { jq -r '[.policies[] | select(.policy != "none") | .speedup * 1000 | round / 1000] | map(tostring) | join(" ")' "$1"; }
tab() { grep -F "$1" "$W/ladder.txt" | awk '{ for (i = NF - 5; i < NF; i++) printf "%s%s", (i > NF - 5 ? " " : ""), $i + 0; print "" }'; }
[ "$(tab 'published (')" = "$(row "$W/pub/summary.json")" ] ||
    fail "published row '$(tab 'published (')' is not pimflow -F -d 0 -H's '$(row "$W/pub/summary.json")'"
[ "$(tab '+ whole-machine')" = "$(row "$W/ours/summary.json")" ] ||
    fail "whole-machine row '$(tab '+ whole-machine')' is not pimflow -b fused's '$(row "$W/ours/summary.json")'"
# pimflow's other options reach the runs: -a partition (pf-split -A) is
# the default machine, so the same ladder
pimflow -A -a partition "$m" >"$W/ladder-a.txt" 2>"$W/err" ||
    fail "pimflow -A -a partition: exit $?: $(cat "$W/err")"
cmp -s "$W/ladder.txt" "$W/ladder-a.txt" ||
    fail "pimflow -A -a partition differs: $(diff "$W/ladder.txt" "$W/ladder-a.txt" | head -5)"
[ "$(grep -c '^+ ' "$W/ladder.txt")" -eq 5 ] || fail "ladder rows: $(cat "$W/ladder.txt")"
awk 'NR > 2 && NR <= 7 { best = 0; for (i = NF - 5; i < NF; i++) if ($i > best) best = $i
	if (NR > 3 && (($NF - (best - prev)) > 0.0015 || (best - prev) - $NF > 0.0015)) bad = 1; prev = best }
    END { exit bad }' "$W/ladder.txt" || fail "an effect is not the change of the best: $(cat "$W/ladder.txt")"
exit 0
