#!/bin/sh
# Publishing never loses an earlier result: with a good OUTDIR in place,
# a run whose standard output fails (>/dev/full) exits 1 with one line
# and publishes nothing; a run that holds the folder's lock makes a
# second one refuse at once with a clear line; a run killed by SIGTERM or
# SIGINT at whatever moment leaves either the whole old result or the
# whole new one (never no folder, never a mix), and no work folder or
# lock file beside it; a run that fails its checks leaves nothing; three
# concurrent runs into one folder never mix.
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

# A run that fails the checks of its options, model or OUTDIR says only
# its own line and leaves no lock or folder behind.
mkdir "$W/notours"
: >"$W/notours/mine.txt"
for c in "2:-P bogus:-P 'bogus': want none" "1::no such readable file" \
    "1::exists and is not a pimflow result"; do
	want=${c%%:*} c=${c#*:}
	opt=${c%%:*} msg=${c#*:}
	case $msg in
	no*) mm=$W/missing.onnx d=$W/keep ;;
	exists*) mm=$m d=$W/notours ;;
	*) mm=$m d=$W/keep ;;
	esac
	# shellcheck disable=SC2086
	pimflow -q $opt "$mm" "$d" >"$W/out" 2>"$W/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "early check, $msg: exit $rc, want $want"
	[ ! -s "$W/out" ] || fail "early check, $msg: output: $(cat "$W/out")"
	[ "$(wc -l <"$W/err")" -eq 1 ] && grep -q "^pimflow: .*$msg" "$W/err" ||
	    fail "early check, $msg: $(cat "$W/err")"
	left=$(ls -A "$W" | grep '^\.\(keep\|notours\)\.' || true)
	[ -z "$left" ] || fail "early check, $msg: left beside: $left"
done
[ "$(ls -A "$W/notours")" = mine.txt ] || fail "notours: changed: $(ls -A "$W/notours")"
cmp -s "$W/keep/summary.json" "$W/summary.before" || fail "early check: old result changed"

# A second run into a folder in use refuses (the lock is held here); a
# bad option is still named first.
: >"$W/.keep.lock"
flock "$W/.keep.lock" sh -c "pimflow -q -P bogus '$m' '$W/keep' 2>'$W/err'; echo \$? >'$W/rc'"
[ "$(cat "$W/rc")" = 2 ] || fail "locked, bad option: exit $(cat "$W/rc"), want 2"
grep -q "^pimflow: -P 'bogus': want none" "$W/err" || fail "locked, bad option: $(cat "$W/err")"
rm -f "$W/.keep.lock"
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

# Three runs into one new folder at once, each with its own PIM share:
# each either publishes or refuses with one line, and the folder holds
# one run's files only (its tasks, pieces and summary agree with the
# table that run printed), with nothing nested in it and no temporary
# folder or lock beside it.
for n in 8 16 24; do
	pimflow -x -n $n "$m" "$W/three" >"$W/t$n.out" 2>"$W/t$n.err" &
done
wait
ok=""
for n in 8 16 24; do
	if [ -s "$W/t$n.out" ]; then
		[ ! -s "$W/t$n.err" ] || fail "three: -n $n published with: $(cat "$W/t$n.err")"
		ok="$ok $n"
	else
		[ "$(cat "$W/t$n.err")" = "pimflow: $W/three: another pimflow run is writing it; wait for it to end" ] ||
		    fail "three: -n $n: $(cat "$W/t$n.err")"
	fi
done
[ -n "$ok" ] || fail "three: no run published"
check_outdir "$W/three" noplots
n=$(csvcol "$W/three/tasks.csv" pim_channels | sort -u)
case " $ok " in *" $n "*) ;; *) fail "three: tasks.csv of -n '$n', which did not publish ($ok)" ;; esac
[ "$(csvcol "$W/three/pieces.csv" pim_channels | sort -u)" = "$n" ] || fail "three: pieces.csv of another run"
# every policy's time as the -n $n run printed it (time_us, one decimal)
jq -r '.policies[] | "\(.policy) \(.ns)"' "$W/three/summary.json" |
    awk '{ printf "%s %.1f\n", $1, $2 / 1000 }' >"$W/t.want"
awk '$1 ~ /^(none|newton\+|newton\+\+|mddp|pipeline|pimflow|attn-pim)$/ { print $1, $2 }' \
    "$W/t$n.out" >"$W/t.got"
[ -s "$W/t.got" ] && cmp -s "$W/t.want" "$W/t.got" ||
    fail "three: summary.json is not the -n $n run's: $(diff "$W/t.want" "$W/t.got")"
[ -z "$(find "$W/three" -mindepth 1 -type d)" ] || fail "three: a folder nested in the result"
left=$(ls -A "$W" | grep '^\.three\.' || true)
[ -z "$left" ] || fail "three: left beside the result: $left"
# A good run over an earlier result replaces it whole: the -n 8 run's
# tables and summary, nothing of the old one, nothing left beside.
pimflow -q -x -n 8 "$m" "$W/keep" || fail "replacing run: exit $?"
[ "$(csvcol "$W/keep/tasks.csv" pim_channels | sort -u)" = 8 ] || fail "replacing run: tasks.csv not the -n 8 run's"
cmp -s "$W/keep/summary.json" "$W/summary.before" && fail "replacing run: summary.json still the old one"
[ ! -e "$W/keep/plan.png" ] || fail "replacing run: the old result's plots are left in the new one"
left=$(ls -A "$W" | grep '^\.keep\.' || true)
[ -z "$left" ] || fail "replacing run: left beside: $left"
echo "publishing keeps the old result"
