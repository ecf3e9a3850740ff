#!/bin/sh
# A whole fp32 or int8 model runs through pimflow: PIM refuses every
# piece it cannot multiply (pim-cycles(1) "Data types": Newton takes
# fp16/bf16, HBM2-PIM fp16), pf-merge leaves those candidates out with
# one warning, and every policy puts every layer on the GPU; an fp16 run
# of the same model still uses PIM and warns nothing.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
run() {	# run NAME OPTIONS...: pimflow into $W/NAME, stderr kept
	n=$1; shift
	pimflow -q -x "$@" "$m" "$W/$n" 2>"$W/$n.err" ||
	    fail "pimflow $* failed: $(cat "$W/$n.err")"
}
for t in fp32 int8; do
	for M in newton-gddr6 hbm-pim; do
		case $M in hbm-pim) G="-G h100" ;; *) G= ;; esac
		run "$t-$M" -t "$t" $G -M "$M"
		grep -q "warning: [0-9]* candidates left out, a PIM piece refused: dtype '$t'" \
		    "$W/$t-$M.err" || fail "$t $M: no refusal warning: $(cat "$W/$t-$M.err")"
		[ "$(wc -l <"$W/$t-$M.err")" -eq 1 ] || fail "$t $M: more than one line on stderr"
		jq -e '[.policies[] | .layers.pim + .layers.split + .layers.pipe] | add == 0' \
		    "$W/$t-$M/summary.json" >/dev/null ||
		    fail "$t $M: a policy still uses PIM: $(jq -c '[.policies[] | .layers]' "$W/$t-$M/summary.json")"
		# the refused pieces say why, the GPU pieces are costed
		n=$(pick -F, -v cols=device,pim_refused -v body=1 "$W/$t-$M/pieces.csv" |
		    grep -c "^pim,dtype '$t'")
		[ "$n" -gt 0 ] || fail "$t $M: no pim row says why it was refused"
	done
done
run fp16
[ ! -s "$W/fp16.err" ] || fail "fp16: unexpected stderr: $(cat "$W/fp16.err")"
jq -e '[.policies[] | select(.policy == "pimflow") | .layers.pim + .layers.split] | add > 0' \
    "$W/fp16/summary.json" >/dev/null || fail "fp16: pimflow uses no PIM"
exit 0
