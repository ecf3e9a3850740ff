#!/bin/sh
# GPT-2-like block stacks (tanh GELU fused into c_fc's act): under the
# default pipelines/pimflow every block's MLP pair (c_fc with its GELU ->
# the projection back) has pipelined chain candidates, both device orders
# (pf-split -p fc, a default type), whose pieces divide the tokens; with
# the published conv types only there are none.  Run on the bundled
# gpt2_prefill and the zoo's gpt2_blocks.
. "$TOP/tests/pipeline/common"
need_tools
need_model gpt2_prefill
scratch
for m in "$MODELS/gpt2_prefill.onnx" "$TOP/tests/zoo/gpt2_blocks.onnx"; do
	n=${m##*/}; n=${n%.onnx}
	pimflow -q -x "$m" "$W/$n" || fail "$n: pimflow exit $?"
	# gelu gemm rows L whose next layer is a gemm fed by L alone
	pick -v cols=layer,op,act,preds -v body=1 "$W/$n/layers.csv" |
	    awk -F, '{ op[$1] = $2; act[$1] = $3; pr[$1] = $4 }
	    END { for (l in op) if (op[l] == "gemm" && act[l] == "gelu" &&
	        op[l + 1] == "gemm" && pr[l + 1] == l) print l "-" l + 1 }' |
	    sort -n >"$W/pairs"
	nb=$(wc -l <"$W/pairs")
	[ "$nb" -ge 2 ] || fail "$n: $nb MLP pairs with a fused gelu (want every block's)"
	pick -v cols=cand,kind -v body=1 "$W/$n/tasks.csv" |
	    awk -F, '$2 == "pipe" { print $1 }' | sort -u >"$W/pipes"
	while read -r p; do
		for o in fcg fcp; do
			grep -qx "$p:pipe:$o:s2" "$W/pipes" || fail "$n: no chain $p:pipe:$o:s2"
		done
		# two stages over the tokens: 4 pieces, each layer's rows add up
		f=${p%-*}
		rows=$(pick -v cols=layer,in_h -v body=1 "$W/$n/layers.csv" | awk -F, -v l="$f" '$1 == l { print $2 }')
		got=$(pick -v cols=cand,layer,in_h -v body=1 "$W/$n/tasks.csv" |
		    awk -F, -v c="$p:pipe:fcg:s2" -v l="$f" '$1 == c && $2 == l { s += $3; k++ } END { print k, s }')
		[ "$got" = "2 $rows" ] || fail "$n: $p fcg pieces of layer $f: $got, want 2 $rows"
	done <"$W/pairs"
	# every pipe candidate is such a pair
	[ "$(wc -l <"$W/pipes")" -eq $((2 * nb)) ] || fail "$n: $(wc -l <"$W/pipes") pipe candidates for $nb pairs"
done
# The published conv types alone form none.
pimflow -q -x -o 'pf-split=-p 1,2,3' "$MODELS/gpt2_prefill.onnx" "$W/pub" || fail "-p 1,2,3: exit $?"
pick -v cols=kind -v body=1 "$W/pub/tasks.csv" | grep -qx pipe && fail "-p 1,2,3: pipe candidates on gpt2_prefill"
exit 0
