#!/bin/sh
# A failing stage stops pimflow with that stage's own message and a
# non-zero status, and leaves no OUTDIR that looks complete: a corrupt
# model (truncated, then random bytes) into a fresh OUTDIR, and over an
# OUTDIR of an earlier good run, which must stay as it was.  Bad options
# exit 2 before anything runs.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
sz=$(wc -c <"$m")
head -c $((sz / 2)) "$m" >"$W/trunc.onnx"
printf 'this is not an onnx model\n\001\002\377' >"$W/junk.onnx"
for bad in trunc junk; do
	pimflow "$W/$bad.onnx" "$W/out-$bad" >"$W/out" 2>"$W/err"
	rc=$?
	[ $rc -eq 1 ] || fail "$bad: exit $rc, want 1"
	[ ! -s "$W/out" ] || fail "$bad: stdout not empty: $(cat "$W/out")"
	head -1 "$W/err" | grep -q "^onnx2layers: .*$bad.onnx" ||
	    fail "$bad: first message is not onnx2layers' own: $(cat "$W/err")"
	tail -1 "$W/err" | grep -q "^pimflow: stage onnx2layers failed" ||
	    fail "$bad: no pimflow line naming the stage: $(cat "$W/err")"
	[ ! -e "$W/out-$bad" ] || fail "$bad: OUTDIR exists after a failed run"
done

# A good run, then a failing one into the same OUTDIR: the old one stays.
pimflow -q "$m" "$W/keep" || fail "good run: exit $?"
cp "$W/keep/summary.json" "$W/summary.before"
pimflow "$W/junk.onnx" "$W/keep" >/dev/null 2>&1 && fail "junk into keep: exit 0"
cmp -s "$W/keep/summary.json" "$W/summary.before" || fail "failed run changed the old OUTDIR"
check_outdir "$W/keep"

# A PIM config that does not exist is found before any stage runs, by
# pim-cycles' check mode: one line with its words, exit 1.
pimflow -M no-such-pim "$m" "$W/nopim" >/dev/null 2>"$W/err"
rc=$?
[ $rc -eq 1 ] || fail "missing PIM config: exit $rc, want 1"
[ "$(wc -l <"$W/err")" -eq 1 ] && grep -q "^pimflow: no pim config named 'no-such-pim'" "$W/err" ||
    fail "missing PIM config: $(cat "$W/err")"
[ ! -e "$W/nopim" ] || fail "OUTDIR exists after pim-cycles failed"
ls -A "$W" | grep -q '^\.' && fail "leftover temporary folders: $(ls -A "$W")"

# Under ulimit -f the stage that passes the limit says "File too large"
# and pimflow names it (it said only "exit 153", SIGXFSZ; issue 10,
# defect 12); nothing is published, no work folder is left.  In the
# pipe the tables are kept by tee(1), which names the file it cannot
# write, and pimflow the element (tee) that failed.
(ulimit -f 20 && pimflow -q -x "$m" "$W/small") >"$W/out" 2>"$W/err"
rc=$?
[ $rc -eq 1 ] || fail "ulimit -f: exit $rc, want 1: $(cat "$W/err")"
grep -Eq '^([a-z0-9-]*: <stdout>|tee: .*/\.small\.[^/]*/out/(layers|tasks|pieces|costs)\.csv): File too large$' "$W/err" ||
    fail "ulimit -f: no stage says File too large: $(cat "$W/err")"
[ "$(wc -l <"$W/err")" -eq 2 ] || fail "ulimit -f: want two lines: $(cat "$W/err")"
grep -q "^pimflow: stage [a-z0-9-]* failed (exit 1); no $W/small written\$" "$W/err" ||
    fail "ulimit -f: $(cat "$W/err")"
[ ! -e "$W/small" ] || fail "ulimit -f: OUTDIR written"
ls -A "$W" | grep -q '^\.small' && fail "ulimit -f: left $(ls -A "$W" | grep '^\.small')"

# An existing folder that is not a pimflow result is never replaced.
mkdir "$W/precious"
echo keep >"$W/precious/notes"
pimflow -q -x "$m" "$W/precious" >/dev/null 2>"$W/err" && fail "precious: exit 0"
grep -q "^pimflow: $W/precious: exists and is not a pimflow result" "$W/err" ||
    fail "precious: $(cat "$W/err")"
[ "$(cat "$W/precious/notes")" = keep ] && [ "$(ls "$W/precious")" = notes ] ||
    fail "precious folder changed"

# Usage errors: exit 2, nothing run, nothing created (a bad option value
# is one line without the usage: tests/pipeline/validate.sh).
for args in "" "-Z $m" "$m a b"; do
	# shellcheck disable=SC2086
	(cd "$W" && pimflow $args) >/dev/null 2>"$W/err"
	rc=$?
	[ $rc -eq 2 ] || fail "pimflow $args: exit $rc, want 2"
	grep -q '^usage: pimflow' "$W/err" || fail "pimflow $args: no usage line"
done
pimflow "$W/absent.onnx" "$W/x" >/dev/null 2>"$W/err"
[ $? -eq 1 ] || fail "absent model: want exit 1"
grep -q "^pimflow: $W/absent.onnx: no such readable file" "$W/err" || fail "absent model: $(cat "$W/err")"
exit 0
