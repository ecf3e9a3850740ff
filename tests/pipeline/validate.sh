#!/bin/sh
# pimflow and pf-sweep check every option and config value before any
# stage works (issue 10, defect 9): one line on stderr naming the value
# (a config's by file and line), exit 2 for a bad option and 1 for a bad
# config, nothing on stdout, no OUTDIR, and nothing published: the tools
# are wrappers that log how they were called, and only the check modes
# (pf-split -m, gpu-cycles -p, pim-cycles -p, which pimflow and pf-sweep
# run before any stage) and, for a bad option of a stage that has no
# check mode (-o), the stages of pimflow's pipe (a tool that exits 2
# refused its options: its first line is pimflow's) may appear in the
# log; OUTDIR must not appear and neither the lock nor a work folder is
# left.  Each case runs through the pipe and through the fan-out path
# (-f on), where nothing but the check modes may run.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
mkdir "$W/bin" "$W/conf.d"
for t in onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/log"\nexec "%s/%s" "$@"\n' \
	    "$t" "$W" "$PF_BIN" "$t" >"$W/bin/$t"
	chmod +x "$W/bin/$t"
done
sed 's/^channels *=.*/channels = nan/' "$PIMFLOW_SHARE/gpu/rtx2060-sim.conf" >"$W/nan.conf"
nanline=$(grep -n '^channels = nan' "$W/nan.conf" | cut -d: -f1)
[ -n "$nanline" ] || fail "no channels line in rtx2060-sim.conf"

# expect1 RC 'STDERR' DRIVER ARGS...
expect1() {
	rc=$1 msg=$2
	shift 2
	: >"$W/log"
	PIMFLOW_BIN=$W/bin "$@" >"$W/out" 2>"$W/err"
	got=$?
	what="$*"
	[ "$got" -eq "$rc" ] || fail "$what: exit $got, want $rc ($(cat "$W/err"))"
	[ -s "$W/out" ] && fail "$what: stdout: $(head -3 "$W/out")"
	[ "$(cat "$W/err")" = "$msg" ] || fail "$what: stderr
$(cat "$W/err")
want
$msg"
	if grep -v -e "^pf-split " -e "^gpu-cycles " -e "^pim-cycles " -e "^onnx2layers " \
	    -e "^pf-merge " -e "^pf-solve " "$W/log"; then
		fail "$what: something else ran"
	fi
	# the fan-out path: nothing but the check modes
	if [ "${fan:-}" = 1 ] && grep -v -e "^pf-split -m " -e "^gpu-cycles -p" -e "^pim-cycles -p" \
	    "$W/log"; then
		fail "$what: a stage ran"
	fi
	[ ! -e "$W/o" ] || fail "$what: OUTDIR written"
	! ls -A "$W" | grep '^\.o\.' || fail "$what: left the above beside OUTDIR"
}
# expect RC 'STDERR' DRIVER ARGS...: pimflow both ways, pf-sweep once.
expect() {
	if [ "$3" = pimflow ]; then
		a=$1 b=$2
		shift 3
		fan="" expect1 "$a" "$b" pimflow "$@"
		fan=1 expect1 "$a" "$b" pimflow -f on "$@"
	else
		expect1 "$@"
	fi
}
r='want a step from 1 to 50 or from:to:step with 1 <= from <= to <= 99 and step >= 1'
expect 2 "pimflow: -n '0': want a whole number from 1 to 1048576" pimflow -n 0 "$m" "$W/o"
expect 2 "pimflow: -n 1000: PIM channels must be fewer than the 32 channels of the machine" \
    pimflow -n 1000 "$m" "$W/o"
expect 2 "pimflow: -r '0:100:0': $r" pimflow -r 0:100:0 "$m" "$W/o"
expect 2 "pimflow: -r '100:0:5': $r" pimflow -r 100:0:5 "$m" "$W/o"
expect 2 "pimflow: -r '200': $r" pimflow -r 200 "$m" "$W/o"
expect 2 "pimflow: -g '3': want a power of two (n_gwrite is 1, 2, 4, ...)" pimflow -g 3 "$m" "$W/o"
expect 2 "pimflow: -g 32: more GWRITE groups than the 16 PIM channels" pimflow -g 32 "$m" "$W/o"
expect 2 "pimflow: -g 8: more GWRITE groups than the 4 PIM channels" pimflow -n 4 -g 8 "$m" "$W/o"
expect 2 "pimflow: -C '1': want a whole number from 2 to 1048576" pimflow -C 1 "$m" "$W/o"
expect 2 "pimflow: -O 'fast': want time, energy or edp" pimflow -O fast "$m" "$W/o"
expect 2 "pimflow: -W '-5': want a power cap in watts above 0, at most 1e6" pimflow -W -5 "$m" "$W/o"
expect 2 "pimflow: -t 'fp99': unknown dtype" pimflow -t fp99 "$m" "$W/o"
expect 2 "pimflow: -i 'x=1x0x4x4': want [name=]NxCxHxW with positive dims" pimflow -i x=1x0x4x4 "$m" "$W/o"
expect 2 "pimflow: -j '0': want a whole number from 1 to 4096" pimflow -j 0 "$m" "$W/o"
expect 2 "pimflow: -P 'bogus': want none, newton+, newton++, mddp, pipeline, pimflow or attn-pim" \
    pimflow -P bogus "$m" "$W/o"
expect 2 "pimflow: -g: not an option of arch hbm-pim" pimflow -M hbm-pim -g 2 "$m" "$W/o"
expect 2 "pimflow: -r '0:0:0': want from:to:step with 1 <= from <= to <= 99 and step >= 1" pimflow -o "pf-split=-r 0:0:0" "$m" "$W/o"
expect 1 "pimflow: $W/nan.conf:$nanline: key 'channels': not a whole number: 'nan'" \
    pimflow -G "$W/nan.conf" "$m" "$W/o"
expect 1 "pimflow: $W/conf.d: is a folder, not a config file" pimflow -G "$W/conf.d" "$m" "$W/o"
expect 1 "pimflow: $W/conf.d: is a folder, not a config file" pimflow -M "$W/conf.d" "$m" "$W/o"
expect 1 "pimflow: $W/conf.d: is a folder, not a config file" pimflow -b "$W/conf.d" "$m" "$W/o"
expect 1 "pimflow: $W/conf.d: no such readable file (-m)" pimflow -m "$W/conf.d" "$m" "$W/o"

expect 2 "pf-sweep: -n '0': want a whole number from 1 to 1048576" pf-sweep -n 0 -o "$W/o"
expect 2 "pf-sweep: -g '3': want a power of two from 1 to 64 (n_gwrite is 1, 2, 4, ...)" \
    pf-sweep -g 3 -o "$W/o"
expect 2 "pf-sweep: -g '4': more GWRITE groups than the 2 PIM channels of -n" \
    pf-sweep -n 2,8 -g 4 -o "$W/o"
expect 1 "pf-sweep: $W/nan.conf:$nanline: key 'channels': not a whole number: 'nan'" \
    pf-sweep -G "$W/nan.conf" -o "$W/o"
expect 1 "pf-sweep: $W/conf.d: is a folder, not a config file" pf-sweep -M "$W/conf.d" -o "$W/o"
ls "$W"/o.tmp.* >/dev/null 2>&1 && fail "pf-sweep left a results file"

# A bad config is reported before a bad model, which no stage reads then.
printf 'this is not an onnx model\n\001\002\377' >"$W/junk.onnx"
expect 1 "pimflow: $W/nan.conf:$nanline: key 'channels': not a whole number: 'nan'" \
    pimflow -G "$W/nan.conf" "$W/junk.onnx" "$W/o"
expect 1 "pimflow: $W/conf.d: is a folder, not a config file" pimflow -M "$W/conf.d" "$W/junk.onnx" "$W/o"
# A stage's bad option (-o) in the pipe is a failed check too: one line;
# on the fan-out path, the same line from the stage run alone.
expect1 2 "pimflow: $PF_BIN/pf-merge: invalid option -- 'Z'" pimflow -o pf-merge=-Z "$m" "$W/o"
: >"$W/log"
PIMFLOW_BIN=$W/bin pimflow -f on -o pf-merge=-Z "$m" "$W/o" >"$W/out" 2>"$W/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$W/out" ] &&
    [ "$(cat "$W/err")" = "pimflow: $PF_BIN/pf-merge: invalid option -- 'Z'" ] ||
    fail "-f on -o pf-merge=-Z: exit $rc: $(cat "$W/err")"
[ ! -e "$W/o" ] && ! ls -A "$W" | grep -q '^\.o\.' || fail "-f on -o pf-merge=-Z: something left"

# A stage that fails after its checks passed is a stage failure: its own
# lines, then pimflow's naming it (here gpu-cycles on a measurement table
# without the columns it needs, in the pipe).
printf 'name,ns\nconv1,5\n' >"$W/meas.csv"
: >"$W/log"
PIMFLOW_BIN=$W/bin pimflow -m "$W/meas.csv" "$m" "$W/o" >"$W/out" 2>"$W/err"
rc=$?
[ $rc -eq 1 ] || fail "bad -m: exit $rc, want 1 ($(cat "$W/err"))"
[ ! -s "$W/out" ] || fail "bad -m: stdout: $(head -3 "$W/out")"
[ "$(wc -l <"$W/err")" -eq 2 ] && head -1 "$W/err" | grep -q "^gpu-cycles: $W/meas.csv" &&
    [ "$(tail -1 "$W/err")" = "pimflow: stage gpu-cycles failed (exit 1); no $W/o written" ] ||
    fail "bad -m: stderr: $(cat "$W/err")"
grep -q "^gpu-cycles -m " "$W/log" ||
    fail "bad -m: gpu-cycles did not run in the pipe: $(cat "$W/log")"
[ ! -e "$W/o" ] && ! ls -A "$W" | grep -q '^\.o\.' ||
    fail "bad -m: something left"

# A stage ended by a signal leaves no record: a stage failure, not a check.
cp "$W/bin/pf-merge" "$W/pf-merge.real"
printf '#!/bin/sh\nkill -KILL $$\n' >"$W/bin/pf-merge"
PIMFLOW_BIN=$W/bin pimflow "$m" "$W/o" >"$W/out" 2>"$W/err"
rc=$?
[ $rc -eq 137 ] || fail "killed stage: exit $rc, want 137 ($(cat "$W/err"))"
[ "$(tail -1 "$W/err")" = "pimflow: stage pf-merge killed by SIGKILL; no $W/o written" ] ||
    fail "killed stage: stderr: $(cat "$W/err")"
[ ! -e "$W/o" ] && ! ls -A "$W" | grep -q '^\.o\.' || fail "killed stage: something left"
mv "$W/pf-merge.real" "$W/bin/pf-merge"

# A check mode that fails without a word is still named, with its status.
cp "$W/bin/pim-cycles" "$W/pim-cycles.real"
printf '#!/bin/sh\nexit 3\n' >"$W/bin/pim-cycles"
expect 1 "pimflow: pim-cycles check failed (exit 3)" pimflow "$m" "$W/o"
mv "$W/pim-cycles.real" "$W/bin/pim-cycles"

# A failed check starts no stage: onnx2layers, which would run for a
# minute (the timeout only catches a hang), never starts.
cp "$W/bin/onnx2layers" "$W/o2l.real"
printf '#!/bin/sh\necho $$ >"%s/o2l.pid"\nexec sleep 60\n' "$W" >"$W/bin/onnx2layers"
rm -f "$W/o2l.pid"
for f in off on; do
	PIMFLOW_BIN=$W/bin timeout 30 pimflow -f $f -M "$W/conf.d" "$m" "$W/o" >"$W/out" 2>"$W/err"
	rc=$?
	[ $rc -eq 1 ] || fail "-f $f, failed check: exit $rc, want 1 ($(cat "$W/err"))"
	[ "$(cat "$W/err")" = "pimflow: $W/conf.d: is a folder, not a config file" ] ||
	    fail "-f $f, failed check: $(cat "$W/err")"
	[ ! -e "$W/o2l.pid" ] || fail "-f $f: a failed check started onnx2layers"
	[ ! -e "$W/o" ] && ! ls -A "$W" | grep -q '^\.o\.' || fail "-f $f, failed check: something left"
done
mv "$W/o2l.real" "$W/bin/onnx2layers"

# The wrappers do run the stages of a good run (the log check means something).
: >"$W/log"
PIMFLOW_BIN=$W/bin pimflow -q -x -r 50 -g 2 "$m" "$W/good" || fail "good run: exit $?"
grep -q '^pf-solve ' "$W/log" || fail "good run: the wrappers logged no stage"
exit 0
