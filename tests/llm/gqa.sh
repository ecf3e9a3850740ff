#!/bin/sh
# Grouped-query and multi-query attention folded exactly, the cache in its
# own layout (onnx2layers(1) KV CACHE), on the fixtures of gqa_models.py
# (8 query heads of 16, 2 key/value heads, context 128, fp16: a key cache
# of 2 x 128 x 16 x 2 = 8192 bytes):
#  1. the cache repeated to the query heads (Expand + Reshape as
#     transformers' repeat_kv exports, Tile, a Gather of heads): the
#     attention matmuls read the cache as stored: gemm_batch = kv heads
#     (x batch), gemm_m = query heads per group, weight_bytes = the
#     cache; the MACs those of the repeated form; no row repeats or
#     transposes the cache; the appends are the new token's bytes; a
#     Gather of heads that is no grouping is made (keeps its row);
#  2. -i batch 4, context 256: every figure scales with the cache;
#  3. MQA (one key/value head broadcast by Expand): batch 1, 8 rows;
#  4. a past cache stored [B, L, H, D] and transposed to [B, H, L, D]
#     before its Concat: no Transpose row of the cache;
#  5. a repeated cache that is also a graph output is made: its Expand
#     keeps its row, the other is folded;
#  6. pim-cycles on both engines runs the folded pieces, and on Newton
#     the group's 4 query rows share one buffer load (pim-cycles(1)):
#     the G_ACT sets of q.K^T are those of one query row;
#  7. on both engines a group costs no more than its query heads run as
#     separate instances over copies of the cache.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tools"
F=$TOP/tests/llm/fixtures
# kv matmuls as batch/m/n/k/weight_bytes/macs, then the cache-moving rows
kv() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	($c["op"] == "matmul" || $c["op"] == "concat") && !("resident" in c) {
		print "FAIL no resident column"; exit 1 }
	$c["op"] == "matmul" && $c["resident"] == "kv" {
		s = s " " $c["gemm_batch"] "/" $c["gemm_m"] "/" $c["gemm_n"] "/" \
		    $c["gemm_k"] "/" $c["weight_bytes"] "/" $c["macs"] }
	$c["op"] == "concat" && $c["resident"] == "kv" { s = s " app" $c["in_bytes"] }
	$c["onnx_op"] ~ /^(Transpose|Expand|Tile|Gather)$/ { s = s " " $c["onnx_op"] }
	END { print substr(s, 2) }' "$tmp/o.csv"
}
check() {	# what got want
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# 1. the three repetitions; the matmuls' MACs: 8 heads x 128 x 16
want="app64 app64 2/4/128/16/8192/16384 2/4/16/128/8192/16384"
for m in gqa_repeat_kv gqa_tile gqa_gather; do
	o2l "$F/$m.onnx" >"$tmp/o.csv"
	check "$m" "$(kv)" "$want"
done
# 2. batch 4, context 256 (255 past)
o2l -i x=4x1x128 -i past_key=4x2x255x16 -i past_value=4x2x255x16 \
    "$F/gqa_repeat_kv.onnx" >"$tmp/o.csv"
check "gqa_repeat_kv B=4 L=256" "$(kv)" \
    "app256 app256 8/4/256/16/65536/131072 8/4/16/256/65536/131072"
# 3. MQA
o2l "$F/mqa_expand.onnx" >"$tmp/o.csv"
check mqa_expand "$(kv)" "app32 app32 1/8/128/16/4096/16384 1/8/16/128/4096/16384"
# 4. the past cache's own layout
o2l -i x=2x1x128 -i past_key=2x63x8x16 -i past_value=2x63x8x16 \
    "$F/kv_layout.onnx" >"$tmp/o.csv"
check "kv_layout B=2 L=64" "$(kv)" \
    "app512 app512 16/1/64/16/32768/16384 16/1/16/64/32768/16384"
# a Gather of heads that is no grouping (0 0 0 0 0 1 1 1) is made
o2l "$F/gqa_uneven.onnx" >"$tmp/o.csv"
check gqa_uneven "$(kv)" "app64 app64 Gather Gather 2/4/128/16/8192/16384 2/4/16/128/8192/16384"
# 5. a repeated cache that is also an output
o2l "$F/gqa_shared.onnx" >"$tmp/o.csv"
check gqa_shared "$(kv)" "app64 app64 Expand 2/4/128/16/8192/16384 2/4/16/128/8192/16384"

# 6. the PIM engines
o2l -i x=4x1x128 -i past_key=4x2x255x16 -i past_value=4x2x255x16 \
    "$F/gqa_repeat_kv.onnx" >"$tmp/o.csv"
"$BIN/pf-split" -n 16 "$tmp/o.csv" >"$tmp/t.csv" 2>"$tmp/err" ||
    fail "pf-split: $(cat "$tmp/err")"
for cfg in newton-gddr6 hbm-pim; do
	"$BIN/pim-cycles" -c $cfg "$tmp/t.csv" >"$tmp/$cfg.csv" 2>"$tmp/err" ||
	    fail "pim-cycles -c $cfg: $(cat "$tmp/err")"
	awk -F, -v cfg=$cfg 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["device"] == "pim" && $c["resident"] == "kv" && $c["cycles"] > 0 { n++ }
	    END { if (n < 2) { print "FAIL " cfg ": " n + 0 " kv pim pieces"; exit 1 } }' \
	    "$tmp/$cfg.csv" || exit 1
done
# one query row per group (gemm_m 1, the rest of the row as it is)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gemm_m") g = i }
    NR > 1 && $0 ~ /,kv,/ { $g = 1 } { print }' "$tmp/t.csv" >"$tmp/t1.csv"
"$BIN/pim-cycles" "$tmp/t1.csv" >"$tmp/n1.csv" || fail "pim-cycles one row"
paste -d'|' "$tmp/newton-gddr6.csv" "$tmp/n1.csv" | awk -F'|' '
    NR == 1 { n = split($1, h, ","); for (i = 1; i <= n; i++) c[h[i]] = i; next }
    { split($1, a, ","); split($2, b, ",")
      if (a[c["device"]] != "pim" || a[c["kv_seq"]] != "n") next
      k++
      if (a[c["gact"]] != b[c["gact"]] || a[c["comp"]] != 4 * b[c["comp"]]) {
	print "FAIL newton q.K^T " a[c["cand"]] ": gact " a[c["gact"]] " comp " a[c["comp"]] \
	    ", one row: gact " b[c["gact"]] " comp " b[c["comp"]]; bad = 1 } }
    END { if (k == 0) { print "FAIL no newton q.K^T piece"; bad = 1 } exit bad }' || exit 1

# 7. on both engines a group costs no more than its query heads as
# separate instances, each over its own copy of the cache (the view
# before the fold: gemm_batch x 4, gemm_m 1), the best PIM candidate of
# each layer against the best (pf-solve's choice); HBM-PIM's p.V, whose 16
# outputs fill one channel of the two an instance has, splits the context
o2l -i x=4x1x128 -i past_key=4x2x2047x16 -i past_value=4x2x2047x16 \
    "$F/gqa_repeat_kv.onnx" >"$tmp/o.csv"
"$BIN/pf-split" -n 16 "$tmp/o.csv" >"$tmp/t.csv" 2>"$tmp/err" ||
    fail "pf-split: $(cat "$tmp/err")"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "gemm_m") g = i
	if ($i == "gemm_batch") b = i } }
    NR > 1 && $0 ~ /,kv,/ && $g == 4 { $g = 1; $b = 4 * $b } { print }' \
    "$tmp/t.csv" >"$tmp/t4.csv"
for cfg in newton-gddr6 hbm-pim; do
	"$BIN/pim-cycles" -c $cfg "$tmp/t.csv" >"$tmp/g.csv" &&
	    "$BIN/pim-cycles" -c $cfg "$tmp/t4.csv" >"$tmp/u.csv" ||
	    fail "pim-cycles -c $cfg"
	paste -d'|' "$tmp/g.csv" "$tmp/u.csv" | awk -F'|' -v cfg=$cfg '
	NR == 1 { n = split($1, h, ","); for (i = 1; i <= n; i++) if (!(h[i] in c)) c[h[i]] = i; next }
	{ split($1, a, ","); split($2, b, ",")
	  if (a[c["device"]] != "pim" || a[c["resident"]] != "kv") next
	  L = a[c["layer"]]; ga = a[c["cycles"]] + 0; ub = b[c["cycles"]] + 0
	  if (!(L in g) || ga < g[L]) g[L] = ga
	  if (!(L in u) || ub < u[L]) u[L] = ub }
	END { for (L in g) { k++
		if (g[L] > u[L]) { print "FAIL " cfg " layer " L ": grouped " g[L] \
		    " cycles, heads apart " u[L]; bad = 1 } }
	      if (k < 2) { print "FAIL " cfg ": no kv layers"; bad = 1 } exit bad }' || exit 1
done
echo ok
