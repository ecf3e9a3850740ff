#!/bin/sh
# Every key of every shipped config and every output column of every tool
# is named (.Cm NAME) in the tool's manual page or in pf-formats(7).
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
man1=$TOP/share/man/man1 fmt=$TOP/share/man/man7/pf-formats.7
bad=0
# named PAGE NAME...: each NAME appears as .Cm NAME in PAGE or pf-formats(7)
named() {
	page=$1
	shift
	for n in "$@"; do
		grep -Eq "^\.(Cm|It Cm)( .* | )$n( |$)" "$man1/$page.1" "$fmt" && continue
		echo "$page(1): '$n' is not named"
		bad=1
	done
}
keys() { sed -n 's/^\([a-z_0-9]*\) *=.*/\1/p' "$@" | sort -u; }
named gpu-cycles $(keys "$PIMFLOW_SHARE"/gpu/*.conf "$PIMFLOW_SHARE"/build/*.conf "$PIMFLOW_SHARE"/energy/*.conf)
named pim-cycles $(keys "$PIMFLOW_SHARE"/pim/*.conf)
header() { head -1 "$1" | tr ',' '\n'; }
# added IN OUT: the columns OUT has and IN has not (what a stage writes)
added() { header "$1" | sort >"$W/a"; header "$2" | sort | comm -13 "$W/a" -; }
m=$MODELS/resnet18_cifar10.onnx
onnx2layers "$m" >"$W/l.csv" || fail "onnx2layers"
pf-split -c t4 "$W/l.csv" >"$W/t.csv" || fail "pf-split"
gpu-cycles -c t4 "$W/t.csv" >"$W/g.csv" || fail "gpu-cycles"
pim-cycles "$W/g.csv" >"$W/p.csv" || fail "pim-cycles"
pim-cycles -c hbm-pim "$W/g.csv" >"$W/h.csv" || fail "pim-cycles -c hbm-pim"
pf-merge "$W/p.csv" >"$W/c.csv" || fail "pf-merge"
pf-solve -l "$W/l.csv" "$W/c.csv" >"$W/plan.csv" || fail "pf-solve"
named onnx2layers $(header "$W/l.csv")
named pf-split $(added "$W/l.csv" "$W/t.csv")
named gpu-cycles $(added "$W/t.csv" "$W/g.csv")
named pim-cycles $(added "$W/g.csv" "$W/p.csv") $(added "$W/g.csv" "$W/h.csv")
named pf-merge $(header "$W/c.csv")
named pf-solve $(header "$W/plan.csv")
exit $bad
