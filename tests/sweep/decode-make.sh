#!/bin/sh
# pipelines/sweep.mk in decode mode (BATCHES and CONTEXTS) with a dtype
# list: one target per decode point must give exactly pf-sweep -B/-L -t's
# results CSV, the tokens/s plot and the speedup plot (BASE-speedup) are
# drawn, and a second make finds nothing to redo.  Each dtype's rows are
# pimflow -t's (the dtype reaches the flow).
. "$TOP/tests/pipeline/common"
need_tools
need_model llama_block_decode
scratch
cd "$W" || exit 1
pf-sweep -B 1,4 -L 256 -t fp16,fp32 -m llama_block_decode -j 2 -o "$W/want.csv" 2>"$W/err" ||
    fail "pf-sweep exit $?: $(cat "$W/err")"
[ "$(head -1 want.csv)" = "model,gpu,pim_config,batch,context,policy,ns,tokens_per_s,speedup,attn_share,fc_share,rest_share,dtype,speedup_p05,speedup_p50,speedup_p95,beats_gpu,energy_nj,max_batch,fits,gpu_needs_bytes,gpu_has_bytes,pim_needs_bytes,pim_has_bytes" ] ||
    fail "header: $(head -1 want.csv)"
# 2 batches x 2 dtypes x 7 policies
[ "$(($(wc -l <want.csv) - 1))" -eq 28 ] || fail "$(($(wc -l <want.csv) - 1)) rows, want 28"
make -s -f "$TOP/pipelines/sweep.mk" -j2 OUT=got BATCHES="1 4" CONTEXTS=256 \
    DTYPES="fp16 fp32" MODELS=llama_block_decode >"$W/mk.out" 2>&1 ||
    fail "make -f sweep.mk: $(cat "$W/mk.out")"
cmp -s want.csv got.csv || fail "sweep.mk results differ: $(diff want.csv got.csv | head -5)"
for f in got want; do
	is_png $f.png && is_png $f-speedup.png || fail "$f: missing PNG plots"
	is_svg $f.svg && is_svg $f-speedup.svg || fail "$f: missing SVG plots"
done
[ "$(ls got.points | wc -l)" -eq 4 ] || fail "want 4 point files: $(ls got.points)"
make -q -f "$TOP/pipelines/sweep.mk" OUT=got BATCHES="1 4" CONTEXTS=256 \
    DTYPES="fp16 fp32" MODELS=llama_block_decode || fail "a second make would redo work"
pimflow -q -x -t fp32 -i x=4x1x4096 -i past_key=4x8x255x128 -i past_value=4x8x255x128 \
    "$MODELS/llama_block_decode.onnx" p32 || fail "pimflow -t fp32"
jq -r '.policies[] | "\(.policy),\(.ns)"' p32/summary.json >want
pick -v where=dtype -v is=fp32 -v cols=batch,policy,ns got.csv | awk -F, '$1 == 4 { print $2 "," $3 }' >got
cmp -s want got || fail "fp32 batch 4 rows differ from pimflow -t fp32: $(diff want got)"
a=$(pick -v where=policy -v is=none -v cols=batch,dtype,ns got.csv | awk -F, '$1 == 4 && $2 == "fp16" { print $3 }')
b=$(pick -v where=policy -v is=none -v cols=batch,dtype,ns got.csv | awk -F, '$1 == 4 && $2 == "fp32" { print $3 }')
[ "$a" != "$b" ] || fail "fp16 and fp32 give the same GPU-only time $a"
exit 0
