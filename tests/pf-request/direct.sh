#!/bin/sh
# pf-request computes every step, no interpolation: for a request of 128
# prompt and 3 generated tokens on the bundled GPT-2-small-like model,
# the decode step at context 130 in steps.csv equals a direct pimflow run
# of the exported step re-shaped to 129 past positions, policy by policy;
# the time to first token equals a direct pimflow run of gpt2_prefill.onnx
# (attn-pim's prefill: none's); and per policy request_ns = ttft + 2 x
# tpot, tokens/s = 3e9 / request_ns, energy per token = (the prefill's
# energy + both steps') / 3.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v parallel >/dev/null 2>&1 || { echo "no GNU parallel"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mdir=$TOP/share/pimflow/models
pf-request -q -x -j 2 gpt2_decode 128,3 "$tmp/r" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
pimflow -q -x -i input_ids=1x1 -i past_key=12x1x12x129x64 -i past_value=12x1x12x129x64 \
    "$mdir/gpt2_decode.onnx" "$tmp/d" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
pimflow -q -x -i input_ids=1x128 "$mdir/gpt2_prefill.onnx" "$tmp/p" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
jq -r '.policies[] | [.policy, .ns, .energy_nj] | @tsv' "$tmp/d/summary.json" >"$tmp/d.tsv"
jq -r '.policies[] | [.policy, .ns, .energy_nj] | @tsv' "$tmp/p/summary.json" >"$tmp/p.tsv"
[ "$(wc -l <"$tmp/d.tsv")" -eq 7 ] || { echo "direct step: want 7 policies"; exit 1; }
awk '
    FILENAME ~ /d.tsv$/ { dns[$1] = $2; next }
    FILENAME ~ /p.tsv$/ { pns[$1] = $2; pe[$1] = $3; next }
    FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; f++; next }
    f == 1 && $c["context"] == 130 {
	n130++
	if ($c["ns"] != sprintf("%.3f", dns[$c["policy"]]) + 0) {
	    print "context 130 " $c["policy"] ": steps.csv " $c["ns"] ", direct " dns[$c["policy"]]; bad = 1 } }
    f == 1 { se[$c["policy"]] += $c["energy_nj"] }
    f == 2 { p = $c["policy"]; q = p == "attn-pim" ? "none" : p; nr++
	if ($c["ttft_ns"] != pns[q] + 0) { print p ": ttft " $c["ttft_ns"] ", direct prefill " pns[q]; bad = 1 }
	d = $c["request_ns"] - ($c["ttft_ns"] + 2 * $c["tpot_ns"])
	if (d > 0.002 || d < -0.002) { print p ": request_ns " $c["request_ns"] " != ttft + 2 tpot"; bad = 1 }
	d = $c["tokens_per_s"] - 3e9 / $c["request_ns"]
	if (d > 0.001 || d < -0.001) { print p ": tokens/s " $c["tokens_per_s"]; bad = 1 }
	d = $c["energy_per_token_nj"] - (pe[q] + se[p]) / 3
	if (d > 0.001 || d < -0.001) { print p ": energy/token " $c["energy_per_token_nj"] ", want " (pe[q] + se[p]) / 3; bad = 1 } }
    END { if (n130 != 7 || nr != 7) { print n130 " steps at 130, " nr " request rows"; bad = 1 }
	exit bad }' FS='\t' "$tmp/d.tsv" "$tmp/p.tsv" FS=, "$tmp/r/steps.csv" "$tmp/r/request.csv" || exit 1
echo ok
