#!/bin/sh
# -h on every tool and driver: the usage on stdout, nothing on stderr,
# exit 0; an unknown option still gives the usage on stderr and exit 2.
. "$TOP/tests/pipeline/common"
need_tools
scratch
for t in onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve pimflow pf-sweep pf-plot; do
	"$t" -h >"$W/out" 2>"$W/err"
	rc=$?
	[ "$rc" -eq 0 ] || fail "$t -h: exit $rc"
	[ -s "$W/err" ] && fail "$t -h: stderr: $(cat "$W/err")"
	grep -q "^usage: $t " "$W/out" || fail "$t -h: no usage on stdout: $(head -1 "$W/out")"
	"$t" -Z >"$W/out" 2>"$W/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$t -Z: exit $rc, want 2"
	[ -s "$W/out" ] && fail "$t -Z: output on stdout"
	grep -q "usage: $t " "$W/err" || fail "$t -Z: no usage on stderr"
done
exit 0
