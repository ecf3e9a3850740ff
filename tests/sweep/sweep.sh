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
[ "$(head -1 res.csv)" = "model,gpu,pim_config,pim_channels,max_gwrite,policy,ns,gpu_cycles,speedup,objective,energy_nj,power_w,energy_ratio,dtype,speedup_p05,speedup_p50,speedup_p95,beats_gpu" ] ||
    fail "header: $(head -1 res.csv)"
# 1 model x 1 GPU x 2 channel counts x 2 n_gwrite x 6 policies, in sweep order.
[ "$(($(wc -l <res.csv) - 1))" -eq 24 ] || fail "$(($(wc -l <res.csv) - 1)) rows, want 24"
pick -v body=1 -v where=policy -v is=pimflow -v cols=pim_channels,max_gwrite -v sep=' ' res.csv | tr '\n' ' ' >order
[ "$(cat order)" = "8 1 8 4 24 1 24 4 " ] || fail "order: $(cat order)"
for n in 8 24; do
	for g in 1 4; do
		pimflow -q -x -n $n -g $g "$MODELS/resnet18_cifar10.onnx" "p$n-$g" || fail "pimflow -n $n -g $g"
		jq -r '.policies[] | "\(.policy),\(.ns),\(.speedup)"' "p$n-$g/summary.json" >want
		pick -v where=pim_channels -v is=$n -v cols=max_gwrite,policy,ns,speedup res.csv |
		    awk -F, -v g=$g '$1 == g { print $2 "," $3 "," $4 }' >got
		cmp -s want got || fail "-n $n -g $g: sweep rows differ from pimflow: $(diff want got)"
		# the error band carried: pimflow's own (-U, on by default)
		jq -r '.policies[] | "\(.policy),\(.band.nominal.p05),\(.band.nominal.p50),\(.band.nominal.p95),\(.band.nominal.beats_gpu)"' \
		    "p$n-$g/summary.json" >want
		pick -v where=pim_channels -v is=$n -v cols=max_gwrite,policy,speedup_p05,speedup_p50,speedup_p95,beats_gpu res.csv |
		    awk -F, -v g=$g '$1 == g { print $2 "," $3 "," $4 "," $5 "," $6 }' >got
		cmp -s want got || fail "-n $n -g $g: sweep band differs from pimflow: $(diff want got)"
	done
done
# The channel count must reach the cost tools: 8 and 24 PIM channels
# cannot give the same pimflow time.
a=$(pick -v where=policy -v is=pimflow -v cols=pim_channels,max_gwrite,ns res.csv | awk -F, '$1 == 8 && $2 == 4 { print $3 }')
b=$(pick -v where=policy -v is=pimflow -v cols=pim_channels,max_gwrite,ns res.csv | awk -F, '$1 == 24 && $2 == 4 { print $3 }')
[ "$a" != "$b" ] || fail "8 and 24 PIM channels give the same time $a"
# The objective as a sweep dimension: one point under time and energy;
# the energy rows are pimflow -O energy's, and no policy's plan for energy
# takes more energy than its plan for time.
pf-sweep -m resnet18_cifar10 -n 16 -g 4 -G rtx2060-sim -O time,energy -o "$W/obj.csv" 2>"$W/err" ||
    fail "pf-sweep -O exit $?: $(cat "$W/err")"
[ "$(($(wc -l <obj.csv) - 1))" -eq 12 ] || fail "-O time,energy: $(($(wc -l <obj.csv) - 1)) rows, want 12"
pimflow -q -x -n 16 -g 4 -O energy "$MODELS/resnet18_cifar10.onnx" pe || fail "pimflow -O energy"
jq -r '.policies[] | "\(.policy),\(.ns),\(.energy_nj)"' pe/summary.json >want
pick -v body=1 -v where=objective -v is=energy -v cols=policy,ns,energy_nj obj.csv >got
cmp -s want got || fail "-O energy sweep rows differ from pimflow: $(diff want got)"
pick -v body=1 -v cols=objective,policy,energy_nj obj.csv | awk -F, '
    { e[$1, $2] = $3 } END { for (k in e) { split(k, a, SUBSEP); if (a[1] == "energy" && e[k] > e["time", a[2]] + 1e-3) { print a[2]; bad = 1 } } exit bad }' ||
    fail "a plan for energy takes more energy than the plan for time"
is_png res.png || fail "res.png is not a PNG"
is_svg res.svg || fail "res.svg is not an SVG"
ls res.*.dat res.range.gp >/dev/null 2>&1 && fail "plot data left behind"
exit 0
