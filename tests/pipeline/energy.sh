#!/bin/sh
# Energy on every bundled model: every piece has a non-negative energy_nj;
# a candidate's energy_nj is the sum of its pieces'; under -O time, energy
# and edp no searched policy is worse than none under that objective (the
# whole-machine choice; attn-pim is a reference and exempt); a plan's energy is the sum of its candidates'
# energy_nj plus its static term, the static term is the machine's static
# power times the plan's time, and plan.csv's energy_nj column sums to the
# summary's.
. "$TOP/tests/pipeline/common"
need_tools
scratch
# one model: its pieces' and candidates' energy, then each objective
energy() {	# file name
	f=$1 m=$2
	onnx2layers "$f" >"$W/l.csv" || fail "$m: onnx2layers"
	pf-split "$W/l.csv" | gpu-cycles | pim-cycles >"$W/t.csv" || fail "$m: cost tools"
	pf-merge "$W/t.csv" >"$W/c.csv" || fail "$m: pf-merge"
	# pieces: energy present and >= 0; per candidate sums = costs.csv
	csvcol "$W/t.csv" cand >"$W/pc"
	csvcol "$W/t.csv" energy_nj >"$W/pe"
	csvcol "$W/c.csv" cand >"$W/cc"
	csvcol "$W/c.csv" energy_nj >"$W/ce"
	paste "$W/pc" "$W/pe" | awk -F '\t' -v m="$m" '
	    $2 == "" || $2 < 0 { print "FAIL " m ": piece " $1 " energy \"" $2 "\""; bad = 1 }
	    { s[$1] += $2 } END { for (c in s) printf "%s\t%.3f\n", c, s[c]; exit bad }' \
	    >"$W/psum" || fail "$m: a piece without a non-negative energy"
	paste "$W/cc" "$W/ce" | awk -F '\t' -v m="$m" 'NR == FNR { s[$1] = $2; next }
	    { d = s[$1] - $2; if (d > 0.01 || d < -0.01) { print "FAIL " m ": " $1 " pieces " s[$1] " costs " $2; bad = 1 } }
	    END { exit bad }' "$W/psum" - || fail "$m: candidate energy is not the sum of its pieces"
	for o in time energy edp; do
		pf-solve -O $o -l "$W/l.csv" -j "$W/s.json" "$W/c.csv" >"$W/p.csv" ||
		    fail "$m: pf-solve -O $o"
		jq -e --arg o $o '.objective == $o and
		    (.policies[] | select(.policy == "none") | [.ns, .energy_nj, .ns * .energy_nj]) as $g |
		    all(.policies[]; .energy_nj >= 0 and .static_nj >= 0 and .static_nj <= .energy_nj and
		        (if .policy == "attn-pim" then true
		         elif $o == "time" then .ns <= $g[0]
		         elif $o == "energy" then .energy_nj <= $g[1]
		         else .ns * .energy_nj <= $g[2] end))' "$W/s.json" >/dev/null ||
		    fail "$m -O $o: a policy is worse than none: $(jq -c '[.policies[] | [.policy, .ns, .energy_nj]]' "$W/s.json")"
		# the pimflow plan: candidates' energy + static = total
		csvcol "$W/p.csv" segment | sort -u >"$W/segs"
		dyn=$(paste "$W/cc" "$W/ce" | awk -F '\t' 'NR == FNR { e[$1] = $2; next }
		    { s += e[$1]; n++ } END { printf "%.3f %d", s, n }' - "$W/segs")
		colsum=$(csvcol "$W/p.csv" energy_nj | awk '{ s += $1 } END { printf "%.3f", s }')
		jq -e --arg d "$dyn" --arg c "$colsum" '
		    ($d | split(" ") | map(tonumber)) as [$dyn, $n] |
		    (.policies[] | select(.policy == "pimflow")) as $p |
		    (if $p.chose_none then .machine.gpu_only_static_w else .machine.partitioned_static_w end) as $w |
		    (($dyn + $p.static_nj - $p.energy_nj) | fabs) <= 0.001 * $n + 1e-9 * $p.energy_nj and
		    (($w * $p.ns - $p.static_nj) | fabs) <= 0.001 * $n + 1e-9 * $p.static_nj and
		    ((($c | tonumber) - $p.energy_nj) | fabs) <= 0.001 * $n' "$W/s.json" >/dev/null ||
		    fail "$m -O $o: plan energy is not its pieces plus static power x time (candidates $dyn, column $colsum): $(jq -c '.machine, (.policies[] | select(.policy == "pimflow"))' "$W/s.json")"
	done
	echo "$m: $(jq -r '[.policies[] | "\(.policy) \(.energy_ratio)"] | join(", ")' "$W/s.json") (-O edp energy ratios)"
}
each_model energy
[ "$NMODELS" -gt 0 ] || fail "no bundled model in $MODELS"
