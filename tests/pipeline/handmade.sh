#!/bin/sh
# The machine is decided where it is known (pf-formats(7), MACHINE MODEL):
# pf-split, told nothing of the machine, leaves pim_channels = auto and
# gpu-cycles writes its config's share there, so the bare hand-made
# pipeline gives pimflow's plan and summary byte for byte on GPU configs
# of 16 channels (t4: PIM gets half) and 80 (h100: the published 16), as
# does pf-split -c; the clock of the summary's cycles comes from the
# data (and pf-solve -G the memory); a PIM share that leaves the GPU no channel is refused, not
# costed, and pim-cycles refuses a share nobody decided.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
onnx2layers "$m" >"$W/layers.csv" || fail "onnx2layers: exit $?"
hand() {	# hand GPU [pf-split options...]
	g=$1
	shift
	pf-split "$@" "$W/layers.csv" | gpu-cycles -c "$g" | pim-cycles |
	    pf-merge | pf-solve -P all -m resnet18_cifar10 -U 100 -G "$g" -l "$W/layers.csv" \
	    -j "$W/$g.hand.json" >"$W/$g.hand.csv" || fail "$g: hand-made pipeline failed"
}
same() {	# same GPU: the hand-made results equal pimflow -G GPU's
	pimflow -q -x -G "$1" "$m" "$W/$1" || fail "pimflow -G $1: exit $?"
	cmp "$W/$1.hand.csv" "$W/$1/plan.csv" || fail "$1: plan differs from pimflow's"
	cmp "$W/$1.hand.json" "$W/$1/summary.json" || fail "$1: summary differs from pimflow's"
	want=$(gpu-cycles -p -c "$1" | pick -v cols=clock_mhz -v body=1)
	got=$(jq .machine.gpu_clock_mhz "$W/$1/summary.json")
	[ "$(echo "$got $want" | awk '{ print ($1 == $2) }')" = 1 ] ||
	    fail "$1: summary clock $got, want the config's $want"
}
hand t4
same t4
hand t4 -c t4
same t4
hand h100
same h100
# auto becomes the config's share on every row, PIM rows too
pf-split "$W/layers.csv" | gpu-cycles -c t4 >"$W/t4.tasks" || fail "auto: exit $?"
[ "$(csvcol "$W/t4.tasks" pim_channels | sort -u)" = 8 ] ||
    fail "auto on t4: pim_channels $(csvcol "$W/t4.tasks" pim_channels | sort -u | tr '\n' ' ')"
# nobody decided the share: pim-cycles refuses it, one line, no output
pf-split "$W/layers.csv" | pim-cycles >"$W/auto.csv" 2>"$W/auto.err" &&
    fail "pim-cycles costed pim_channels = auto"
[ "$(cat "$W/auto.err")" = "pim-cycles: <stdin>:4: column 'pim_channels': 'auto' is the share the GPU config decides: run gpu-cycles first, or give pf-split -c or -n, or pim-cycles -n" ] ||
    fail "pim-cycles on auto: $(cat "$W/auto.err")"
[ -s "$W/auto.csv" ] && fail "pim-cycles on auto: output on stdout"
# pim-cycles -n fills auto: the costs of pf-split -n's share
pf-split "$W/layers.csv" | pim-cycles -n 8 >"$W/auto8.csv" || fail "pim-cycles -n 8 on auto: exit $?"
pf-split -n 8 "$W/layers.csv" | pim-cycles >"$W/n8.csv" || fail "pf-split -n 8 | pim-cycles: exit $?"
[ "$(csvcol "$W/auto8.csv" ns)" = "$(csvcol "$W/n8.csv" ns)" ] ||
    fail "pim-cycles -n 8 on auto costs differ from pf-split -n 8's"
# The published share (16) on a 16-channel GPU leaves it no channel.
pf-split -n 16 "$W/layers.csv" | gpu-cycles -c t4 >"$W/bad.csv" 2>"$W/bad.err" &&
    fail "t4 with 16 PIM channels was costed"
grep -q "column 'pim_channels': '16' PIM channels leave the GPU none of the 16 channels of t4" "$W/bad.err" ||
    fail "t4 with 16 PIM channels: $(cat "$W/bad.err")"
[ -s "$W/bad.csv" ] && fail "t4 with 16 PIM channels: output on stdout"
exit 0
