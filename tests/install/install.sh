#!/bin/sh
# make install PREFIX=<temp> installs tools, pipelines, share and man pages;
# the installed pimflow, run from another folder with only the installed
# bin/ and the system on PATH and no PIMFLOW_SHARE, finds its tools and
# share folder and gives the same summary as the source tree; the man pages
# render; make uninstall removes what install put there.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
P=$W/prefix
make -s -C "$TOP" install PREFIX="$P" >"$W/log" 2>&1 || fail "make install: $(tail -5 "$W/log")"
for t in onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve pimflow pf-plot pf-sweep; do
	[ -x "$P/bin/$t" ] || fail "$P/bin/$t not installed"
done
[ -f "$P/share/pimflow/models/resnet18_cifar10.onnx" ] || fail "models not installed"
[ -f "$P/share/pimflow/gnuplot/plan.gp" ] || fail "gnuplot scripts not installed"
[ -f "$P/share/pimflow/jq/check.jq" ] || fail "jq filters not installed"
for f in "$TOP"/share/doc/*; do
	[ -f "$P/share/doc/pimflow/${f##*/}" ] || fail "share/doc/${f##*/} not installed"
done
for p in man1/pimflow.1 man7/pf-formats.7; do
	[ -f "$P/share/man/$p" ] || fail "$p not installed"
	# man-db is not among the build's packages: render only where present.
	command -v man >/dev/null 2>&1 || continue
	MANWIDTH=80 man -l "$P/share/man/$p" 2>"$W/merr" | grep -q NAME ||
	    fail "$p does not render: $(cat "$W/merr")"
done

# Every installed program has a manual page (pf-plot and pf-sweep are
# described in pimflow(1)); pf-paths.sh, which the drivers source from
# their own folder, is no program (not executable) and is there.
[ -f "$P/bin/pf-paths.sh" ] && [ ! -x "$P/bin/pf-paths.sh" ] || fail "pf-paths.sh not installed as a sourced file"
for t in "$P"/bin/*; do
	[ "$t" = "$P/bin/pf-paths.sh" ] && continue
	[ -f "$P/share/man/man1/${t##*/}.1" ] || fail "no manual page for ${t##*/}"
done
if command -v man >/dev/null 2>&1; then
	MANPATH=$P/share/man MANWIDTH=80 man pf-sweep 2>/dev/null | grep -q 'pf-sweep' ||
	    fail "man pf-sweep does not reach pimflow(1)"
fi

mkdir "$W/elsewhere"
(
	cd "$W/elsewhere" || exit 1
	unset PIMFLOW_SHARE PIMFLOW_BIN
	PATH=$P/bin:/usr/bin:/bin
	export PATH
	pimflow "$P/share/pimflow/models/resnet18_cifar10.onnx" >table 2>err
) || fail "installed pimflow: exit $?: $(cat "$W/elsewhere/err")"
check_outdir "$W/elsewhere/resnet18_cifar10"
pimflow -q -x "$MODELS/resnet18_cifar10.onnx" "$W/tree" || fail "source-tree run: exit $?"
cmp -s "$W/tree/summary.json" "$W/elsewhere/resnet18_cifar10/summary.json" ||
    fail "installed and source-tree summaries differ"
grep -q '^pimflow ' "$W/elsewhere/table" || fail "installed run printed no table"

make -s -C "$TOP" uninstall PREFIX="$P" >"$W/log" 2>&1 || fail "make uninstall: $(tail -5 "$W/log")"
left=$(find "$P" -type f | head -5)
[ -z "$left" ] || fail "left after uninstall: $left"
exit 0
