#!/bin/sh
# The sweep command of the README, with -S : (GNU parallel's name for the
# local host, so the remote-host code path runs) on a tiny subset: one
# model, PIM channels 8 and 24, max n_gwrite 1 and 4, one GPU config.
# Checks the results CSV's rows against separate pimflow runs of the same
# points, and that the plot was drawn.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
cd "$W" || exit 1
pf-sweep -S : -m resnet18_cifar10 -n 8,24 -g 1,4 -G rtx2060-sim -o "$W/res.csv" 2>"$W/err" ||
    fail "pf-sweep exit $?: $(cat "$W/err")"
[ "$(head -1 res.csv)" = "model,gpu,pim_config,pim_channels,max_gwrite,policy,ns,gpu_cycles,speedup" ] ||
    fail "header: $(head -1 res.csv)"
# 1 model x 1 GPU x 2 channel counts x 2 n_gwrite x 6 policies, in sweep order.
[ "$(($(wc -l <res.csv) - 1))" -eq 24 ] || fail "$(($(wc -l <res.csv) - 1)) rows, want 24"
awk -F, 'NR > 1 && $6 == "pimflow" { print $4, $5 }' res.csv | tr '\n' ' ' >order
[ "$(cat order)" = "8 1 8 4 24 1 24 4 " ] || fail "order: $(cat order)"
for n in 8 24; do
	for g in 1 4; do
		pimflow -q -x -n $n -g $g "$MODELS/resnet18_cifar10.onnx" "p$n-$g" || fail "pimflow -n $n -g $g"
		jq -r '.policies[] | "\(.policy),\(.ns),\(.speedup)"' "p$n-$g/summary.json" >want
		awk -F, -v n=$n -v g=$g 'NR > 1 && $4 == n && $5 == g { print $6 "," $7 "," $9 }' res.csv >got
		cmp -s want got || fail "-n $n -g $g: sweep rows differ from pimflow: $(diff want got)"
	done
done
# The channel count must reach the cost tools: 8 and 24 PIM channels
# cannot give the same pimflow time.
a=$(awk -F, '$6 == "pimflow" && $4 == 8 && $5 == 4 { print $7 }' res.csv)
b=$(awk -F, '$6 == "pimflow" && $4 == 24 && $5 == 4 { print $7 }' res.csv)
[ "$a" != "$b" ] || fail "8 and 24 PIM channels give the same time $a"
is_png res.png || fail "res.png is not a PNG"
is_svg res.svg || fail "res.svg is not an SVG"
ls res.*.dat res.range.gp >/dev/null 2>&1 && fail "plot data left behind"
exit 0
