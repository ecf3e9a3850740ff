#!/bin/sh
# pimflow and pf-sweep check every option and config value before any
# stage runs (issue 10, defect 9): one line on stderr naming the value
# (a config's by file and line), exit 2 for a bad option and 1 for a bad
# config, nothing on stdout, no OUTDIR, and no stage from pf-split on
# started: the tools are wrappers that log how they were called, and only
# the check modes (pf-split -m, gpu-cycles -p, pim-cycles -p), pimflow's
# lock and folders (pf-publish -b, which comes before them: their
# messages are kept in the scratch folder, in $TMPDIR here) and
# onnx2layers, which pimflow runs beside the check modes since it needs
# none of their values and stops when one fails, may appear in the log;
# neither the lock nor a folder is left.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
m=$MODELS/resnet18_cifar10.onnx
mkdir "$W/bin" "$W/conf.d" "$W/td"
for t in onnx2layers pf-split gpu-cycles pim-cycles pf-merge pf-solve pf-publish; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/log"\nexec "%s/%s" "$@"\n' \
	    "$t" "$W" "$PF_BIN" "$t" >"$W/bin/$t"
	chmod +x "$W/bin/$t"
done
cp "$TOP/pipelines/pf-plot" "$W/bin/"
sed 's/^channels *=.*/channels = nan/' "$PIMFLOW_SHARE/gpu/rtx2060-sim.conf" >"$W/nan.conf"
nanline=$(grep -n '^channels = nan' "$W/nan.conf" | cut -d: -f1)
[ -n "$nanline" ] || fail "no channels line in rtx2060-sim.conf"

# expect RC 'STDERR' DRIVER ARGS...
expect() {
	rc=$1 msg=$2
	shift 2
	: >"$W/log"
	TMPDIR=$W/td PIMFLOW_BIN=$W/bin "$@" >"$W/out" 2>"$W/err"
	got=$?
	what="$*"
	[ "$got" -eq "$rc" ] || fail "$what: exit $got, want $rc ($(cat "$W/err"))"
	[ -s "$W/out" ] && fail "$what: stdout: $(head -3 "$W/out")"
	[ "$(cat "$W/err")" = "$msg" ] || fail "$what: stderr
$(cat "$W/err")
want
$msg"
	if grep -v -e "^pf-split -m " -e "^gpu-cycles -p" -e "^pim-cycles -p" -e "^onnx2layers " \
	    -e "^pf-publish -b $W/\.o\.lock $W/\.o\.tmp\.XXXXXX $W/td/pimflow\.XXXXXX\$" "$W/log"; then
		fail "$what: a stage ran"
	fi
	[ ! -e "$W/o" ] || fail "$what: OUTDIR written"
	! ls -A "$W" | grep '^\.o\.' || fail "$what: left the above beside OUTDIR"
	[ -z "$(ls -A "$W/td")" ] || fail "$what: left $(ls -A "$W/td") in TMPDIR"
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

# A check mode that fails without a word is still named, with its status.
cp "$W/bin/pim-cycles" "$W/pim-cycles.real"
printf '#!/bin/sh\ncase "$1" in -p) exit 3 ;; esac\nexec "%s/pim-cycles" "$@"\n' "$PF_BIN" >"$W/bin/pim-cycles"
expect 1 "pimflow: pim-cycles check failed (exit 3)" pimflow "$m" "$W/o"
mv "$W/pim-cycles.real" "$W/bin/pim-cycles"

# onnx2layers, running beside the checks, is stopped when one fails: here
# it would run for a minute (the timeout only catches a hang: a run that
# waited for it), and it is gone when pimflow has ended.
cp "$W/bin/onnx2layers" "$W/o2l.real"
printf '#!/bin/sh\necho $$ >"%s/o2l.pid"\nexec sleep 60\n' "$W" >"$W/bin/onnx2layers"
rm -f "$W/o2l.pid"
TMPDIR=$W/td PIMFLOW_BIN=$W/bin timeout 30 pimflow -M "$W/conf.d" "$m" "$W/o" >"$W/out" 2>"$W/err"
rc=$?
[ $rc -eq 1 ] || fail "check failing beside onnx2layers: exit $rc, want 1 ($(cat "$W/err"))"
[ "$(cat "$W/err")" = "pimflow: $W/conf.d: is a folder, not a config file" ] ||
    fail "check failing beside onnx2layers: $(cat "$W/err")"
if [ -s "$W/o2l.pid" ] && kill -0 "$(cat "$W/o2l.pid")" 2>/dev/null; then
	kill "$(cat "$W/o2l.pid")"
	fail "a failed check left onnx2layers running"
fi
[ ! -e "$W/o" ] && [ -z "$(ls -A "$W/td")" ] && ! ls -A "$W" | grep -q '^\.o\.' ||
    fail "check failing beside onnx2layers: something left"
mv "$W/o2l.real" "$W/bin/onnx2layers"

# The wrappers do run the stages of a good run (the log check means something).
: >"$W/log"
PIMFLOW_BIN=$W/bin pimflow -q -x -r 50 -g 2 "$m" "$W/good" || fail "good run: exit $?"
grep -q '^pf-solve ' "$W/log" || fail "good run: the wrappers logged no stage"
exit 0
