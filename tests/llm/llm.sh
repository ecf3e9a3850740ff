#!/bin/sh
# The bundled decoder examples (share/pimflow/models/export-models -l, with Debian's
# torch; committed, so no torch is needed here):
#  1. every Linear torch's forward hooks saw at the export shapes
#     (NAME.torch.csv) is a gemm row of onnx2layers' table under the
#     module's node-name prefix with gemm_m = rows of its input, gemm_k =
#     in features, gemm_n = out features, resident = weights;
#  2. the KV cache: decode steps have kv rows (q.K^T with gemm_n = context,
#     p.V with gemm_k = context, head_dim the other dim), none in prefill;
#     batch B and context L from -i: instances B x kv heads, weight_bytes
#     = the cache; doubling the context doubles attention bytes; no row
#     transposes or repeats a decode step's cache;
#  3. pf-split makes kv matmuls PIM candidates without any option;
#  5. pf-solve's attn-pim reference runs the kv layers alone on PIM, and
#     the per-token figures are consistent (tokens = batch);
#  6. the KV packing (COMPs of gpt2's q.K^T) and the KV append (charged
#     once, inside cycles, on both engines);
#  4. physics: on both PIM engines an attention piece's time is never below
#     its KV bytes over the PIM channels' internal bandwidth (Newton: 16
#     banks x 32 B per COMP every 2 clocks at 875 MHz; HBM-PIM: 8 blocks x
#     32 B per MAC read every tCCD_L = 4 clocks at 1 GHz), and on h100 a
#     decode FC layer's GPU time is never below its weight bytes over the
#     GPU's share of the bandwidth (its channels: all
#     of mem_channels on the base row, less pim_channels on the others).
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tools"
M=$TOP/share/pimflow/models

# 1. Linear shapes against torch
for name in gpt2_decode gpt2_prefill llama_block_decode; do
	o2l "$M/$name.onnx" >"$tmp/$name.csv"
	awk -F, -v model="$name" '
	function pre(q,   n, p, i, s) {
		n = split(q, p, "."); s = ""
		for (i = 1; i <= n; i++)
			s = s (p[i] ~ /^[0-9]+$/ ? "." : "/") p[i]
		return s "/"
	}
	FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
	NR == FNR { ne++; px[ne] = pre($1); ish[ne] = $3; osh[ne] = $4; next }
	$col[FILENAME, "op"] == "gemm" {
		nr++; nm[nr] = $col[FILENAME, "name"]
		g[nr] = $col[FILENAME, "gemm_m"] " " $col[FILENAME, "gemm_k"] " " \
		    $col[FILENAME, "gemm_n"] " " \
		    ((FILENAME, "resident") in col ? $col[FILENAME, "resident"] : "")
	}
	END {
		for (e = 1; e <= ne; e++) {
			k = split(ish[e], a, "x"); split(osh[e], b, "x")
			m = 1; for (i = 1; i < k; i++) m *= a[i]
			want = m " " a[k] " " b[k]
			found = 0
			for (r = 1; r <= nr; r++)
				if (index(nm[r], px[e]) == 1) { found = r; break }
			if (!found) { print "FAIL " model ": no gemm under " px[e]; bad = 1; continue }
			split(g[found], h, " ")
			got = h[1] " " h[2] " " h[3]
			if (got != want) { print "FAIL " model " " px[e] ": " got ", torch " want; bad = 1 }
			if (h[4] != "" && h[4] != "weights") { print "FAIL " model " " px[e] ": resident " h[4]; bad = 1 }
		}
		if (ne == 0) { print "FAIL " model ": no expectations"; bad = 1 }
		exit bad
	}' "$M/$name.torch.csv" "$tmp/$name.csv" || exit 1
done

# 2. KV rows: count and shapes
kv() {	# file -> "count gemm_batch gemm_m gemm_n gemm_k weight_bytes" of kv matmuls
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["op"] == "matmul" && $c["resident"] == "kv" { n++
		s = s " " $c["gemm_batch"] "/" $c["gemm_m"] "/" $c["gemm_n"] "/" $c["gemm_k"] "/" $c["weight_bytes"]
		b += $c["weight_bytes"] }
	END { print n + 0, b + 0 s }' "$1"
}
set -- $(kv "$tmp/gpt2_prefill.csv")
[ "$1" = 0 ] || fail "gpt2_prefill: $1 kv rows"
set -- $(kv "$tmp/gpt2_decode.csv")
[ "$1" = 24 ] || fail "gpt2_decode: $1 kv rows, want 24"
[ "$3" = 12/1/2048/64/3145728 ] && [ "$4" = 12/1/64/2048/3145728 ] ||
    fail "gpt2_decode layer 0 attention: $3 $4"
o2l -i x=4x1x4096 -i past_key=4x8x511x128 -i past_value=4x8x511x128 \
    "$M/llama_block_decode.onnx" >"$tmp/l512.csv"
o2l -i x=4x1x4096 -i past_key=4x8x1023x128 -i past_value=4x8x1023x128 \
    "$M/llama_block_decode.onnx" >"$tmp/l1024.csv"
set -- $(kv "$tmp/l512.csv")
[ "$1 $3 $4" = "2 32/4/512/128/4194304 32/4/128/512/4194304" ] ||
    fail "llama_block_decode B=4 L=512: $*"
b512=$2
set -- $(kv "$tmp/l1024.csv")
[ "$2" = $((2 * b512)) ] || fail "doubling the context: $b512 -> $2 attention bytes"
# the cache in its own layout (onnx2layers(1)): no decode step moves its
# cache (K transposed for q.K^T) in a row of its own; the prompt's
# transposes of activations stay
for name in gpt2_decode llama_block_decode l512; do
	f=$tmp/$name.csv
	[ "$name" = l512 ] || o2l "$M/$name.onnx" >"$f"
	n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["op"] == "transpose" || $c["onnx_op"] == "Expand" ||
	    $c["onnx_op"] == "Tile" { n++ } END { print n + 0 }' "$f")
	[ "$n" = 0 ] || fail "$name: $n rows move the cache"
done
n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["op"] == "transpose" { n++ } END { print n + 0 }' "$tmp/gpt2_prefill.csv")
[ "$n" = 48 ] || fail "gpt2_prefill: $n transpose rows, want 48"
# the FC layers of batch 4 are GEMMs of M = 4
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["op"] == "gemm" && $c["gemm_m"] != 4 { print "FAIL fc " $c["name"] " m=" $c["gemm_m"]; exit 1 }' \
    "$tmp/l512.csv" || exit 1

# 3. kv matmuls are PIM candidates by default; 4. physics
# -n 16: the share stated, as pim-cycles runs without gpu-cycles here
"$BIN/pf-split" -n 16 "$tmp/l512.csv" >"$tmp/tasks.csv" 2>"$tmp/err" || fail "pf-split: $(cat "$tmp/err")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["device"] == "pim" && $c["resident"] == "kv" { n++ }
    END { if (n < 2) { print "FAIL pf-split: " n + 0 " kv pim pieces"; exit 1 } }' \
    "$tmp/tasks.csv" || exit 1
bound() {	# file bytes_per_ns_per_channel
	awk -F, -v bw="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["device"] == "pim" && $c["resident"] == "kv" {
		n++; lb = $c["weight_bytes"] / ($c["pim_channels"] * bw)
		if ($c["ns"] + 0 < lb) { print "FAIL " FILENAME ": " $c["name"] " " $c["ns"] " ns < " lb; bad = 1 } }
	END { if (n == 0) { print "FAIL no kv pim rows"; bad = 1 } exit bad }' "$1"
}
"$BIN/pim-cycles" "$tmp/tasks.csv" >"$tmp/newton.csv" || fail "pim-cycles newton"
bound "$tmp/newton.csv" $((16 * 32 / 2 * 875 / 1000)) || exit 1
"$BIN/pim-cycles" -c hbm-pim "$tmp/tasks.csv" >"$tmp/hbm.csv" || fail "pim-cycles hbm-pim"
bound "$tmp/hbm.csv" $((8 * 32 / 4)) || exit 1
"$BIN/pf-split" -c h100 "$tmp/l512.csv" >"$tmp/t100.csv" 2>"$tmp/err" || fail "pf-split -c h100: $(cat "$tmp/err")"
"$BIN/gpu-cycles" -c h100 "$tmp/t100.csv" >"$tmp/g100.csv" 2>"$tmp/err" || fail "gpu-cycles: $(cat "$tmp/err")"
# h100: 20.9375 GB/s per pseudo-channel (share/pimflow/gpu/h100.conf)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["device"] == "gpu" && $c["resident"] == "weights" && $c["op"] == "gemm" {
	ch = $c["mem_channels"] - ($c["kind"] == "base" ? 0 : $c["pim_channels"])
	n++; lb = $c["weight_bytes"] / (ch * 20.9375)
	if ($c["ns"] + 0 < lb) { print "FAIL gpu " $c["name"] " " $c["ns"] " ns < " lb; bad = 1 } }
    END { if (n == 0) { print "FAIL no gpu fc rows"; bad = 1 } exit bad }' "$tmp/g100.csv" || exit 1
# the cache's instances share the channels (pim-cycles(1)): faster than
# the same matmuls as heads one after another (resident blanked)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "resident") r = i }
    NR > 1 && $r == "kv" { $r = "" } { print }' "$tmp/tasks.csv" >"$tmp/seq.csv"
"$BIN/pim-cycles" "$tmp/seq.csv" >"$tmp/seqc.csv" || fail "pim-cycles seq"
paste -d'|' "$tmp/newton.csv" "$tmp/seqc.csv" | awk -F'|' '
    NR == 1 { n = split($1, h, ","); for (i = 1; i <= n; i++) c[h[i]] = i; next }
    { split($1, a, ","); split($2, b, ",")
      if (a[c["device"]] == "pim" && a[c["resident"]] == "kv") { k++; x += a[c["cycles"]]; y += b[c["cycles"]] } }
    END { if (k == 0 || x >= y) { print "FAIL kv packing: " x " cycles vs " y " one head after another"; exit 1 } }' || exit 1

# KV packing (pim-cycles(1)): gpt2's q.K^T (one query row, head_dim 64,
# 12 heads on 16 channels: one channel each) issues only the COMPs of its
# keys, 2048 x 64 / (16 banks x 16 lanes) = 512, with 8 keys per row (the
# weights layout would issue 8 times that)
"$BIN/pf-split" -n 16 "$tmp/gpt2_decode.csv" | "$BIN/pim-cycles" >"$tmp/g2p.csv" || fail "pim-cycles gpt2_decode"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["device"] == "pim" && $c["resident"] == "kv" && $c["gemm_n"] == 2048 && $c["gemm_k"] == 64 {
	n++; if ($c["comp"] != 512) { print "FAIL kv packing: " $c["cand"] " comp " $c["comp"] ", want 512"; bad = 1 } }
    END { if (n == 0) { print "FAIL no gpt2 q.K^T pim row"; bad = 1 } exit bad }' "$tmp/g2p.csv" || exit 1

# the KV append (pim-cycles(1)): every kv piece pays the write of the new
# token's key or value, on both engines, inside cycles: with kv_seq
# blanked (no append) a piece costs exactly cycles - pim_append_cycles
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kv_seq") r = i }
    NR > 1 { $r = "" } { print }' "$tmp/tasks.csv" >"$tmp/noapp.csv"
for cfg in newton-gddr6 hbm-pim; do
	"$BIN/pim-cycles" -c $cfg "$tmp/tasks.csv" >"$tmp/app.csv" || fail "pim-cycles -c $cfg"
	"$BIN/pim-cycles" -c $cfg "$tmp/noapp.csv" >"$tmp/noapp.out" || fail "pim-cycles -c $cfg (no kv_seq)"
	paste -d'|' "$tmp/app.csv" "$tmp/noapp.out" | awk -F'|' -v cfg=$cfg '
	NR == 1 { n = split($1, h, ","); for (i = 1; i <= n; i++) c[h[i]] = i; next }
	{ split($1, a, ","); split($2, b, ",")
	  if (a[c["device"]] != "pim" || a[c["resident"]] != "kv") next
	  k++; app = a[c["pim_append_cycles"]]
	  if (app <= 0 || b[c["pim_append_cycles"]] != 0 || a[c["cycles"]] - app != b[c["cycles"]]) {
		print "FAIL kv append " cfg " " a[c["cand"]] ": " a[c["cycles"]] " cycles, append " app ", without " b[c["cycles"]]; bad = 1 } }
	END { if (k == 0) { print "FAIL no kv rows " cfg; bad = 1 } exit bad }' || exit 1
done

# 5. the attn-pim reference and the per-token figures (pf-solve -F: its
# own plan): the kv layers on PIM, nothing else; tokens = the batch
"$BIN/gpu-cycles" "$tmp/tasks.csv" | "$BIN/pim-cycles" | "$BIN/pf-merge" >"$tmp/costs.csv" ||
    fail "gpu-cycles | pim-cycles | pf-merge"
"$BIN/pf-solve" -F -P all -l "$tmp/l512.csv" -j "$tmp/s.json" "$tmp/costs.csv" >/dev/null ||
    fail "pf-solve"
jq -e '[.policies[] | select(.policy == "attn-pim")] as $a |
    ($a | length) == 1 and $a[0].layers.pim == 2 and $a[0].layers.split == 0 and
    all(.policies[]; .decode.tokens == 4 and
	(.decode.tokens_per_s - 4e9 / .ns | fabs) < 1 and
	((.decode.attn_share + .decode.fc_share + .decode.rest_share) - 1 | fabs) < 1e-5)' \
    "$tmp/s.json" >/dev/null || fail "attn-pim or decode figures: $(cat "$tmp/s.json")"
echo "ok"
