#!/bin/sh
# pimflow runs onnx2layers .. pf-solve as one pipe when no cost stage can
# fan out (here -j 1), tee(1) keeping the tables: the files are those of
# the serial flow (-f on, fanned out), byte for byte; stages.csv has each
# stage's own figures as time(1) measured them.  A
# stage that fails in the pipe is named with its own message alone: the
# stages after it, which fail for want of its output, are not heard; a
# stage that stops reading first leaves the ones before it a SIGPIPE,
# and it is the one named; a signal is named.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
pimflow -q -x -j 1 "$m" "$W/pipe" || fail "piped run: exit $?"
pimflow -q -x -j 2 -f on "$m" "$W/serial" || fail "fanned-out run: exit $?"
for f in layers.csv tasks.csv pieces.csv costs.csv plan.csv summary.json; do
	cmp -s "$W/pipe/$f" "$W/serial/$f" || fail "$f differs between the pipe and the serial flow"
done
awk -F, 'NR == 1 { if ($0 != "stage,wall_s,cpu_s,maxrss_kb") exit 1; next }
    { s = s $1 " "; if ($2 !~ /^[0-9]+\.[0-9]+$/ || $3 !~ /^[0-9]+\.[0-9]+$/) exit 1
      if (NR > 2 && !($4 > 0)) exit 1 }
    END { if (s != "onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve ") exit 1 }' \
    "$W/pipe/stages.csv" || fail "stages.csv of the pipe: $(cat "$W/pipe/stages.csv")"

# wrap TOOL SCRIPT: TOOL replaced by SCRIPT (sh) in a tool folder.
mkdir "$W/bin"
for t in onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve; do
	ln -s "$PF_BIN/$t" "$W/bin/$t"
done
# (the check modes, -p and -m, run before any stage, are the tool's own)
wrap() {
	rm -f "$W/bin/$1"
	printf '#!/bin/sh\ncase "$1" in -p | -m) exec "%s" "$@" ;; esac\n%s\n' \
	    "$PF_BIN/$1" "$2" >"$W/bin/$1"
	chmod +x "$W/bin/$1"
}
# expect TOOL RC 'STDERR': a run with the tool folder
expect() {
	PIMFLOW_BIN=$W/bin pimflow -q -x -j 1 "$m" "$W/x" >"$W/out" 2>"$W/err"
	rc=$?
	[ $rc -eq "$2" ] || fail "$1: exit $rc, want $2: $(cat "$W/err")"
	[ "$(cat "$W/err")" = "$3" ] || fail "$1: stderr
$(cat "$W/err")
want
$3"
	[ ! -e "$W/x" ] || fail "$1: OUTDIR written"
	ls -A "$W" | grep -q '^\.x' && fail "$1: left $(ls -A "$W" | grep '^\.x')"
	rm -f "$W/bin/$1"
	ln -s "$PF_BIN/$1" "$W/bin/$1"
}
wrap pim-cycles 'head -c 100 >/dev/null; echo "pim-cycles: <stdin>:7: injected fault" >&2; exit 1'
expect pim-cycles 1 "pim-cycles: <stdin>:7: injected fault
pimflow: stage pim-cycles failed (exit 1); no $W/x written"
wrap pf-solve 'echo "pf-solve: <stdin>: refused at once" >&2; exit 1'
expect pf-solve 1 "pf-solve: <stdin>: refused at once
pimflow: stage pf-solve failed (exit 1); no $W/x written"
wrap pf-merge 'kill -SEGV $$'
expect pf-merge 139 "pimflow: stage pf-merge killed by SIGSEGV; no $W/x written"
exit 0
