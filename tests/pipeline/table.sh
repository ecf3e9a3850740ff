#!/bin/sh
# pf-solve -t, the policy table pimflow prints, against an independent
# formatting of the summary.json of the same run (tests/pipeline/table.jq,
# the jq filter pimflow used before the table moved into pf-solve):
# byte-identical on a CNN, an encoder whose policies choose none (the
# notes), a decoder model (the decode lines), with and without energy
# columns, under -O energy, a power cap no plan keeps (over_cap notes), -F
# and without -m (model "-").
. "$TOP/tests/pipeline/common"
need_tools
scratch
cases=0
for m in mobilenet_v2 bert_encoder llama_block_decode; do
	need_model $m
	onnx2layers "$MODELS/$m.onnx" >"$W/l.csv" || fail "$m: onnx2layers"
	pf-split "$W/l.csv" >"$W/t.csv" || fail "$m: pf-split"
	# a config given as a path has no energy config: no energy columns
	for g in rtx2060-sim "$PIMFLOW_SHARE/gpu/rtx2060-sim.conf"; do
		gpu-cycles -c "$g" "$W/t.csv" | pim-cycles | pf-merge >"$W/c.csv" ||
		    fail "$m: cost stages"
		for a in "-m $m" "-m $m -O energy -W 1" "-m $m -F" "-O edp"; do
			# -O energy and edp need the energy columns
			case $g in */*) case $a in *-O*) continue ;; esac ;; esac
			# shellcheck disable=SC2086
			pf-solve $a -l "$W/l.csv" -j "$W/s.json" -t "$W/got" "$W/c.csv" \
			    >/dev/null 2>"$W/err" || fail "$m $a: pf-solve exit $?: $(cat "$W/err")"
			jq -L "$PIMFLOW_SHARE/jq" -r -f "$TOP/tests/pipeline/table.jq" \
			    "$W/s.json" >"$W/want" || fail "$m $a: table.jq"
			cmp -s "$W/want" "$W/got" ||
			    fail "$m $a (gpu $g): table differs: $(diff "$W/want" "$W/got" | head -6)"
			cat "$W/got" >>"$W/all.$m"
			cases=$((cases + 1))
		done
	done
	[ "$m" != bert_encoder ] || grep -q '^note: .*runs the none plan' "$W/all.$m" ||
	    fail "$m: no chose-none note any more: the case lost its point"
	grep -q '^note: .*power cap' "$W/all.$m" || fail "$m: no over-cap note"
	[ "$m" != llama_block_decode ] || grep -q '^per decode step' "$W/all.$m" ||
	    fail "$m: no decode lines"
done
# -t alone (no -j) writes the same table; an unwritable -t is exit 1
# and names the file.
pf-solve -m llama_block_decode -l "$W/l.csv" -t "$W/t2" "$W/c.csv" >/dev/null ||
    fail "-t without -j: exit $?"
pf-solve -m llama_block_decode -l "$W/l.csv" -j "$W/s.json" -t "$W/t3" "$W/c.csv" \
    >/dev/null || fail "-t: exit $?"
cmp -s "$W/t2" "$W/t3" || fail "-t with and without -j differ"
pf-solve -t "$W/no/such/t" "$W/c.csv" >/dev/null 2>"$W/err"
rc=$?
[ $rc -eq 1 ] || fail "-t into a missing folder: exit $rc"
grep -q "^pf-solve: $W/no/such/t: cannot create" "$W/err" || fail "-t error: $(cat "$W/err")"
[ "$(grep -c . "$W/t2")" -gt 8 ] && [ $cases -eq 18 ] || fail "only $cases cases ran"
exit 0
