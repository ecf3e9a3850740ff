#!/bin/sh
# HBM-PIM energy (share/doc/energy.md): on the hbm-pim golden inputs every
# pim row gets energy_nj, pim_handoff_nj and static_w; energy_nj is the
# per-command model over the piece's channel runs, recomputed here from
# the command columns and the constants read from hbm-pim.conf by name;
# a GEMV never costs less than reading each of its weights once from the
# array (e_rd_pj per burst_bytes of its fp16 gemm_n x gemm_k x gemm_batch
# resident operand); and pimflow on h100 + hbm-pim gives
# every policy of a decode step an energy.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${PF_BIN:-$TOP/bin}
conf=$TOP/share/pimflow/pim/hbm-pim.conf
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL $*"; exit 1; }
"$BIN/pim-cycles" -c hbm-pim "$TOP/tests/pim-cycles/hbm-pim/in" >"$tmp/out" ||
    fail "pim-cycles -c hbm-pim"
awk -F, -v OFS=, '
FNR == NR { sub(/#.*/, ""); if (split($0, kv, "=") == 2) { gsub(/ /, "", kv[1]); gsub(/ /, "", kv[2]); k[kv[1]] = kv[2] } next }
FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["device"] == "pim" {
	n++
	runs = ($c["pim_kernel"] == "gemv" ? $c["gemm_batch"] : 1) * $c["pim_chans"]
	ch = $c["pim_act"] * k["pim_blocks"] * k["e_act_pj"] + \
	    $c["pim_rd"] * k["pim_blocks"] * (k["e_rd_pj"] + k["pim_lanes"] * (k["e_mul_pj"] + k["e_add_pj"])) + \
	    $c["pim_wr"] * k["pim_blocks"] * k["e_wr_pj"] + $c["ref"] * k["e_ref_pj"]
	ho = ($c["in_bytes"] + $c["out_bytes"]) * 8 * k["e_io_pj_per_bit"] / 1000
	want = runs * ch / 1000 + ho
	e = $c["energy_nj"]
	if (e == "" || (e - want) ^ 2 > 1e-4 || ($c["pim_handoff_nj"] - ho) ^ 2 > 1e-4) {
		print "FAIL " $c["name"] ": energy " e ", handoff " $c["pim_handoff_nj"] ", want " want ", " ho; bad = 1 }
	sw = $c["pim_channels"] * k["static_mw_per_channel"] / 1000
	if (($c["static_w"] - sw) ^ 2 > 1e-12) { print "FAIL " $c["name"] ": static_w " $c["static_w"] ", want " sw; bad = 1 }
	wb = $c["gemm_n"] * $c["gemm_k"] * $c["gemm_batch"] * 2
	if ($c["pim_kernel"] == "gemv" && e - ho < wb / k["burst_bytes"] * k["e_rd_pj"] / 1000) {
		print "FAIL " $c["name"] ": " e - ho " nJ below reading its weights once"; bad = 1 }
}
END { if (n < 5) { print "FAIL only " n + 0 " pim rows"; bad = 1 } exit bad }' "$conf" "$tmp/out" || exit 1
"$TOP/pipelines/pimflow" -q -x -G h100 -M hbm-pim "$TOP/share/pimflow/models/llama_block_decode.onnx" \
    "$tmp/run" >/dev/null 2>"$tmp/err" || fail "pimflow -G h100 -M hbm-pim: $(cat "$tmp/err")"
jq -e '(.policies | length) == 7 and all(.policies[]; (.energy_nj // 0) > 0 and .decode != null)' \
    "$tmp/run/summary.json" >/dev/null || fail "h100 + hbm-pim summary without energy"
echo ok
