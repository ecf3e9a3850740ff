#!/bin/sh
# pimflow passes its options to the stages that need them, checked in the
# files each stage wrote: the machine partition from the GPU config (the
# T4 config's own channel count, read here with sed) and from -C/-n, -g,
# -r, -t, -i, -P and -o.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
# distinct VALUES of COLUMN in FILE over rows where COL2 = VAL2 (optional)
vals() {
	csvcol "$1" "$2" >"$W/v1"
	if [ -n "${3:-}" ]; then
		csvcol "$1" "$3" >"$W/v2"
		paste -d' ' "$W/v1" "$W/v2" | awk -v w="$4" '$2 == w { print $1 }'
	else
		cat "$W/v1"
	fi | sort -u | tr '\n' ' '
}

# -G t4: the total is the config's channels, PIM gets half of them.
tc=$(sed -n 's/^channels *= *\([0-9]*\).*/\1/p' "$PIMFLOW_SHARE/gpu/t4.conf")
[ -n "$tc" ] || fail "no channels in t4.conf"
pimflow -q -x -G t4 "$m" "$W/t4" || fail "-G t4: exit $?"
[ "$(vals "$W/t4/pieces.csv" mem_channels kind base)" = "$tc " ] || fail "-G t4: base mem_channels $(vals "$W/t4/pieces.csv" mem_channels kind base), want $tc"
[ "$(vals "$W/t4/pieces.csv" mem_channels kind gpu)" = "$((tc - tc / 2)) " ] || fail "-G t4: gpu mem_channels"
[ "$(vals "$W/t4/tasks.csv" pim_channels)" = "$((tc / 2)) " ] || fail "-G t4: pim_channels on every piece"
clk=$(sed -n 's/^clock_mhz *= *\([0-9.]*\).*/\1/p' "$PIMFLOW_SHARE/gpu/t4.conf")
jq -e --argjson c "$clk" '.machine.gpu_clock_mhz == $c' "$W/t4/summary.json" >/dev/null ||
    fail "-G t4: summary clock $(jq .machine.gpu_clock_mhz "$W/t4/summary.json"), want $clk"

# -b: the build reaches gpu-cycles; t4 runs its default_build, library.
[ "$(vals "$W/t4/pieces.csv" gpu_build device gpu)" = "library " ] ||
    fail "-G t4: build $(vals "$W/t4/pieces.csv" gpu_build device gpu), want library"
pimflow -q -x -b fused "$m" "$W/fused" || fail "-b fused: exit $?"
[ "$(vals "$W/fused/pieces.csv" gpu_build device gpu)" = "fused " ] ||
    fail "-b fused: build $(vals "$W/fused/pieces.csv" gpu_build device gpu)"

# -C 40 -n 8 -g 2 -r 25:75:25 -t fp32
pimflow -q -x -C 40 -n 8 -g 2 -r 25:75:25 -t fp32 "$m" "$W/o" || fail "options: exit $?"
[ "$(vals "$W/o/pieces.csv" mem_channels kind base)" = "40 " ] || fail "-C 40: base"
[ "$(vals "$W/o/pieces.csv" mem_channels kind gpu)" = "32 " ] || fail "-C 40 -n 8: gpu"
[ "$(vals "$W/o/tasks.csv" pim_channels)" = "8 " ] || fail "-n 8: pim_channels on every piece"
# -g 2 on the published-setting PIM pieces; newton+ keeps its own 1.
[ "$(vals "$W/o/tasks.csv" pim_gwrite device pim)" = "1 2 " ] || fail "-g 2: $(vals "$W/o/tasks.csv" pim_gwrite device pim)"
[ "$(vals "$W/o/tasks.csv" ratio kind split)" = "25 50 75 " ] || fail "-r: $(vals "$W/o/tasks.csv" ratio kind split)"
[ "$(vals "$W/o/layers.csv" dtype)" = "fp32 " ] || fail "-t fp32: $(vals "$W/o/layers.csv" dtype)"

# -r with a bare step
pimflow -q -x -r 30 "$m" "$W/r" || fail "-r 30: exit $?"
[ "$(vals "$W/r/tasks.csv" ratio kind split)" = "30 60 " ] || fail "-r 30: $(vals "$W/r/tasks.csv" ratio kind split)"

# -i: the first conv sees the new input size (resnet18: global pooling,
# so any size fits).
need_model resnet18
pimflow -q -x -i input=1x3x48x40 "$MODELS/resnet18.onnx" "$W/i" || fail "-i: exit $?"
[ "$(csvcol "$W/i/layers.csv" in_h | head -1) $(csvcol "$W/i/layers.csv" in_w | head -1)" = "48 40" ] ||
    fail "-i: first layer input $(csvcol "$W/i/layers.csv" in_h | head -1)x$(csvcol "$W/i/layers.csv" in_w | head -1)"

# -P mddp: the plan has no pipelined layer and equals pf-solve's own plan;
# -o passes words to a stage (no split candidates at all with -a none).
pimflow -q -x -P mddp "$m" "$W/p" || fail "-P mddp: exit $?"
case " $(vals "$W/p/plan.csv" kind)" in *" pipe "* | *" base "*) fail "-P mddp plan kinds: $(vals "$W/p/plan.csv" kind)" ;; esac
pf-solve -P mddp -m resnet18_cifar10 -U 100 -G rtx2060-sim -l "$W/p/layers.csv" "$W/p/costs.csv" >"$W/mddp.csv" || fail "pf-solve"
cmp -s "$W/mddp.csv" "$W/p/plan.csv" || fail "-P mddp: plan.csv is not pf-solve -P mddp's plan"
# pf-plot -P draws that policy's plan (solved again from costs.csv), not
# plan.csv's, and leaves plan.csv as it was.
cp "$W/p/plan.csv" "$W/plan.before"
pf-plot -P newton+ "$W/p" || fail "pf-plot -P newton+: exit $?"
grep -q 'newton+ plan per layer' "$W/p/plan.svg" || fail "pf-plot -P newton+: title"
cp "$W/p/plan.svg" "$W/newton.svg"
pf-plot -P mddp "$W/p" || fail "pf-plot -P mddp: exit $?"
cmp -s "$W/p/plan.svg" "$W/newton.svg" && fail "pf-plot -P: newton+ and mddp plans drawn the same"
cmp -s "$W/p/plan.csv" "$W/plan.before" || fail "pf-plot -P changed plan.csv"
pimflow -q -x -o 'pf-split=-a none' "$m" "$W/a" || fail "-o: exit $?"
case " $(vals "$W/a/tasks.csv" kind)" in *" split "*) fail "-o 'pf-split=-a none' left split rows" ;; esac
exit 0
