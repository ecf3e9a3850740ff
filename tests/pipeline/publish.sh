#!/bin/sh
# Publishing never loses an earlier result: with a good OUTDIR in place,
# a run whose standard output fails (>/dev/full) exits 1 with one line
# and publishes nothing; a run that holds the folder's lock makes a
# second one refuse at once with a clear line; a run killed by SIGTERM or
# SIGINT at whatever moment leaves either the whole old result or the
# whole new one (never no folder, never a mix), and no temporary folder.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
pimflow -q "$m" "$W/keep" || fail "good run: exit $?"
cp "$W/keep/summary.json" "$W/summary.before"

pimflow "$m" "$W/keep" >/dev/full 2>"$W/err"
rc=$?
[ $rc -eq 1 ] || fail ">/dev/full: exit $rc, want 1"
[ "$(wc -l <"$W/err")" -eq 1 ] || fail ">/dev/full: not one line: $(cat "$W/err")"
grep -q "^pimflow: <stdout>: cannot write the table; no .*keep written" "$W/err" ||
    fail ">/dev/full: $(cat "$W/err")"
cmp -s "$W/keep/summary.json" "$W/summary.before" || fail ">/dev/full: old result changed"

# A second run into a folder in use refuses (the lock is held here).
: >"$W/.keep.lock"
flock "$W/.keep.lock" sh -c "pimflow -q '$m' '$W/keep' 2>'$W/err'; echo \$? >'$W/rc'"
[ "$(cat "$W/rc")" = 1 ] || fail "locked: exit $(cat "$W/rc"), want 1"
grep -q "^pimflow: .*keep: another pimflow run is writing it" "$W/err" ||
    fail "locked: $(cat "$W/err")"
cmp -s "$W/keep/summary.json" "$W/summary.before" || fail "locked: old result changed"
rm -f "$W/.keep.lock"

# Signals at several moments of a run: a complete result is always there.
for sig in TERM INT; do
	for d in 0.1 0.4; do
		pimflow -q "$m" "$W/keep" & pid=$!
		sleep $d
		kill -s $sig $pid 2>/dev/null
		wait $pid
		[ -f "$W/keep/summary.json" ] && [ -f "$W/keep/plan.csv" ] &&
		    [ -f "$W/keep/stages.csv" ] || fail "$sig after ${d}s: result lost"
		cmp -s "$W/keep/summary.json" "$W/summary.before" ||
		    fail "$sig after ${d}s: summary.json differs from both runs'"
	done
done
left=$(ls -A "$W" | grep '^\.keep\.' || true)
[ -z "$left" ] || fail "temporary folders left: $left"
echo "publishing keeps the old result"
