#!/bin/sh
# pf-plot on a hand-made folder, needing none of the C tools: plan2dat.awk
# finds the columns by name in any order, reads quoted fields (a name with
# a comma and a doubled quote), converts ns to us and gives whole-layer
# kinds their GPU share; pf-plot draws PNG and SVG and leaves no data
# files; a plan without a needed column is refused with a message.
. "$TOP/tests/pipeline/common"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed (make deps)"
command -v jq >/dev/null 2>&1 || skip "jq not installed (make deps)"
scratch
d=$W/out
mkdir "$d"
cat >"$d/plan.csv" <<'CSV'
ns,layer,name,op,kind,axis,ratio,segment,gpu_ns,pim_ns,base_ns
2000.000,0,"a,b ""x""",conv,split,h,40,0:split:h:40,2000.000,1500.500,2500.000
1000.000,1,c,eltwise,gpu,,,1:gpu,1000.000,0.000,900.000
700.000,2,d,gemm,pim,,,2:pim,0.000,700.000,800.000
CSV
cat >"$d/summary.json" <<'JSON'
{"model": "toy", "machine": {"gpu_clock_mhz": 1000.000}, "policies": [
{"policy": "none", "ns": 4200.000, "gpu_cycles": 4200.000, "speedup": 1.000000, "layers": {"base": 3, "gpu": 0, "pim": 0, "split": 0, "pipe": 0}},
{"policy": "newton+", "ns": 4100.000, "gpu_cycles": 4100.000, "speedup": 1.024390, "layers": {"base": 0, "gpu": 2, "pim": 1, "split": 0, "pipe": 0}},
{"policy": "newton++", "ns": 4000.000, "gpu_cycles": 4000.000, "speedup": 1.050000, "layers": {"base": 0, "gpu": 2, "pim": 1, "split": 0, "pipe": 0}},
{"policy": "mddp", "ns": 3700.000, "gpu_cycles": 3700.000, "speedup": 1.135135, "layers": {"base": 0, "gpu": 1, "pim": 1, "split": 1, "pipe": 0}},
{"policy": "pipeline", "ns": 4000.000, "gpu_cycles": 4000.000, "speedup": 1.050000, "layers": {"base": 0, "gpu": 2, "pim": 1, "split": 0, "pipe": 0}},
{"policy": "pimflow", "ns": 3700.000, "gpu_cycles": 3700.000, "speedup": 1.135135, "layers": {"base": 0, "gpu": 1, "pim": 1, "split": 1, "pipe": 0}}]}
JSON
printf '0\t0:conv\t2.000000\t1.500500\t40\n1\t1:eltwise\t1.000000\t0.000000\t100\n2\t2:gemm\t0.000000\t0.700000\t0\n' >"$W/want"
awk -f "$PIMFLOW_SHARE/gnuplot/plan2dat.awk" "$d/plan.csv" >"$W/got" || fail "plan2dat exit $?"
cmp -s "$W/want" "$W/got" || fail "plan2dat: $(diff "$W/want" "$W/got")"
pf-plot "$d" 2>"$W/err" || fail "pf-plot exit $?: $(cat "$W/err")"
for f in plan speedup; do
	is_png "$d/$f.png" || fail "$f.png is not a PNG"
	is_svg "$d/$f.svg" || fail "$f.svg is not an SVG"
done
grep -q 'toy: plan per layer' "$d/plan.svg" || fail "plan.svg has no title"
grep -q '1:eltwise' "$d/plan.svg" || fail "plan.svg has no layer labels"
grep -q '1.135' "$d/speedup.svg" || fail "speedup.svg has no value labels"
[ "$(ls -A "$d" | grep -c '^\.')" -eq 0 ] || fail "data files left: $(ls -A "$d")"

# A plan of 3000 layers (a 10k-node graph has more): the width is capped
# where Cairo can still draw it (32000 pixels, read from the PNG header).
awk 'BEGIN { print "ns,layer,name,op,kind,axis,ratio,segment,gpu_ns,pim_ns,base_ns"
	for (i = 0; i < 3000; i++)
		printf "1000.000,%d,l%d,conv,gpu,,,%d:gpu,1000.000,0.000,1100.000\n", i, i, i }' \
    >"$W/big.csv" && mkdir "$W/big" && mv "$W/big.csv" "$W/big/plan.csv" &&
    cp "$d/summary.json" "$W/big/" || fail "no big plan"
pf-plot "$W/big" 2>"$W/err" || fail "pf-plot of 3000 layers: exit $?: $(cat "$W/err")"
is_png "$W/big/plan.png" || fail "big plan.png is not a PNG"
pw=$(od -An -tu1 -j16 -N4 "$W/big/plan.png" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
[ "$pw" -eq 32000 ] || fail "big plan.png is $pw pixels wide, want 32000"

pick -v drop=gpu_ns,pim_ns,ns,base_ns "$d/plan.csv" >"$d/p2" && mv "$d/p2" "$d/plan.csv"
pf-plot "$d" 2>"$W/err" && fail "plan without gpu_ns: exit 0"
grep -q "missing column 'gpu_ns'" "$W/err" || fail "no message naming gpu_ns: $(cat "$W/err")"
exit 0
