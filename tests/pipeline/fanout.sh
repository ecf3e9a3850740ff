#!/bin/sh
# When pimflow fans the cost stages out with GNU parallel (pimflow(1)): a
# wrapper parallel first on PATH records each call.  The computed
# threshold 25000 * jobs / (jobs - 1) on a 30 000-row task table
# (tests/lib/gen-graph chain 1500: 750 conv layers of 40 candidate rows):
# serial with 5 job slots (31 250), fanned out with 6 (30 000), the same
# files either way (a table counted by wc); -f and PIMFLOW_FANOUT_ROWS
# set the threshold instead (mobilenet_v2's 1648 rows, counted by the
# shell); one slot never fans out.  With -f on and no -j, the job slots
# are the CPUs the run may use, as nproc(1) counts them: all of them, or
# the one taskset leaves.
. "$TOP/tests/pipeline/common"
need_tools
need_model mobilenet_v2
/usr/bin/python3 -c 'import onnx' 2>/dev/null || skip "python3-onnx not installed (make deps)"
scratch
real=$(command -v parallel)
mkdir "$W/bin"
cat >"$W/bin/parallel" <<EOS
#!/bin/sh
echo call "\$@" >>"$W/calls"
exec "$real" "\$@"
EOS
chmod +x "$W/bin/parallel"
PATH=$W/bin:$PATH
# calls ARGS...: how many times pimflow ARGS called parallel
calls() {
	: >"$W/calls"
	pimflow -q -x "$@" "$W/out" || fail "pimflow $*: exit $?"
	grep -c call "$W/calls"
}
m=$MODELS/mobilenet_v2.onnx
/usr/bin/python3 "$TOP/tests/lib/gen-graph" chain 1500 "$W/c.onnx" || fail "gen-graph"
[ "$(calls -j 5 "$W/c.onnx")" = 0 ] || fail "30000 rows, 5 slots: fanned out"
n=$(($(wc -l <"$W/out/tasks.csv") - 1))
[ "$n" -eq 30000 ] || fail "chain 1500: $n task rows, the case wants 30000"
cp "$W/out/pieces.csv" "$W/serial.csv"
[ "$(calls -j 6 "$W/c.onnx")" = 2 ] || fail "30000 rows, 6 slots: not fanned out"
cmp -s "$W/out/pieces.csv" "$W/serial.csv" || fail "fan-out changed pieces.csv"
# mobilenet_v2: 1648 rows
[ "$(calls -j 2 "$m")" = 0 ] || fail "mobilenet_v2: fanned out by default"
[ "$(calls -j 2 -f 1648 "$m")" = 2 ] || fail "-f 1648: not fanned out"
[ "$(calls -j 2 -f 1649 "$m")" = 0 ] || fail "-f 1649: fanned out"
[ "$(calls -j 1 -f 1 "$m")" = 0 ] || fail "one slot: fanned out"
[ "$(PIMFLOW_FANOUT_ROWS=1000 calls -j 2 "$m")" = 2 ] || fail "PIMFLOW_FANOUT_ROWS=1000: not fanned out"
[ "$(PIMFLOW_FANOUT_ROWS=1000 calls -j 2 -f off "$m")" = 0 ] || fail "-f off: fanned out"
# slots ARGS...: the -j values pimflow ARGS gave parallel
slots() {
	: >"$W/calls"
	"$@" -q -x -f on "$m" "$W/out" || fail "$*: exit $?"
	awk '{ for (i = 2; i < NF; i++) if ($i == "-j") print $(i + 1) }' "$W/calls" | sort -u | tr '\n' ' '
}
ncpu=$(nproc)
s=$(slots pimflow)
[ "$s" = "$ncpu " ] || fail "-f on: job slots $s, want $ncpu"
command -v taskset >/dev/null 2>&1 || fail "taskset missing (util-linux)"
s=$(slots taskset -c 0 pimflow)
[ "$s" = "1 " ] || fail "-f on under taskset -c 0: job slots $s, want 1"
exit 0
