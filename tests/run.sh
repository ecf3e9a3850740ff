#!/bin/sh
# Runs every test of the project and prints one closing line:
#   "N passed, N failed, N skipped"
# Kinds of test:
#  - unit programs: every executable in $PF_UNIT (built from tests/unit/*.c);
#  - golden cases: every directory tests/<tool>/<case>/ holding a file "cmd"
#    (a sh script run with the tools first on PATH, stdin from "in" when
#    present, in that directory of a scratch copy of tests/, so a case may
#    write files and never writes into the source tree); its stdout,
#    stderr and exit status must equal "out" (empty when absent), "err"
#    (empty when absent) and "rc" (0 when absent).  $TOP in output is
#    written as @TOP@.  UPDATE=1 rewrites out/err/rc instead;
#  - scripts: every tests/*/*.sh but tests/fuzz/run.sh (make fuzz), run in
#    a scratch folder (also $TMPDIR); exit 0 passes, 77 skips (the last
#    line says why; with $CI set, as .ci/run does, a skip fails), else
#    fails.
# A run that leaves a file in tests/ newer than its start fails (UPDATE=1
# aside).  TESTS=pattern limits the run to tests whose name contains the
# pattern.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PF_BIN=${PF_BIN:-$TOP/bin}
PF_UNIT=${PF_UNIT:-$TOP/build/unit}
PATH=$PF_BIN:$TOP/pipelines:$PATH
PIMFLOW_SHARE=$TOP/share/pimflow
export TOP PF_BIN PATH PIMFLOW_SHARE
pass=0 fail=0 skip=0
# Per-run scratch space, so concurrent runs never share files.
out=$(mktemp -d "${TMPDIR:-/tmp}/pftest.XXXXXX")
trap 'rm -rf "$out"' EXIT
touch "$out/start"
# The scratch copy the golden cases run in (sibling cases' files included).
cp -R "$TOP/tests" "$out/tree"

want() { case "$1" in *"${TESTS:-}"*) return 0 ;; esac; return 1; }
ok() { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $1"; return 0; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

for u in "$PF_UNIT"/*; do
	[ -x "$u" ] || continue
	name=unit/${u##*/}
	want "$name" || continue
	if "$u" >"$out/unit.${u##*/}.log" 2>&1; then ok "$name"; else
		bad "$name"; sed 's/^/    /' "$out/unit.${u##*/}.log" | head -20
	fi
done

for c in "$TOP"/tests/*/*/cmd; do
	[ -f "$c" ] || continue
	d=${c%/cmd}
	name=${d#"$TOP"/tests/}
	want "$name" || continue
	o=$out/$(echo "$name" | tr / .)
	w=$out/tree/$name
	if [ -f "$w/in" ]; then inp=$w/in; else inp=/dev/null; fi
	(cd "$w" && sh ./cmd <"$inp" >"$o.out" 2>"$o.err"; echo $? >"$o.rc")
	for f in out err; do
		sed "s|$TOP|@TOP@|g" "$o.$f" >"$o.$f.n" && mv "$o.$f.n" "$o.$f"
	done
	if [ -n "${UPDATE:-}" ]; then
		cp "$o.out" "$d/out"; cp "$o.rc" "$d/rc"
		if [ -s "$o.err" ] || [ -f "$d/err" ]; then cp "$o.err" "$d/err"; fi
		ok "$name"; continue
	fi
	exp_rc=0; [ -f "$d/rc" ] && exp_rc=$(cat "$d/rc")
	why=""
	[ "$(cat "$o.rc")" = "$exp_rc" ] || why="exit $(cat "$o.rc"), want $exp_rc"
	if [ -f "$d/out" ]; then cmp -s "$o.out" "$d/out" || why="$why stdout differs"
	else [ -s "$o.out" ] && why="$why unexpected stdout"; fi
	# No err file: stderr must be empty.  Sanitizer builds may add
	# nothing to stderr either; compare exactly.
	if [ -f "$d/err" ]; then cmp -s "$o.err" "$d/err" || why="$why stderr differs"
	else [ -s "$o.err" ] && why="$why unexpected stderr"; fi
	if [ -z "$why" ]; then ok "$name"; else
		bad "$name:$why"
		[ -f "$d/out" ] && diff "$d/out" "$o.out" | head -10 | sed 's/^/    /'
		if [ -f "$d/err" ]; then diff "$d/err" "$o.err"; else cat "$o.err"; fi |
		    head -5 | sed 's/^/    /'
	fi
done

for s in "$TOP"/tests/*/*.sh; do
	[ -f "$s" ] || continue
	name=${s#"$TOP"/tests/}
	# The fuzzing campaign is "make fuzz", not a test; its regressions are.
	[ "$name" = fuzz/run.sh ] && continue
	want "$name" || continue
	log=$out/$(echo "$name" | tr / .).log
	sd=$out/sh.$(echo "$name" | tr / .)
	mkdir "$sd"
	(cd "$sd" && TMPDIR=$sd sh "$s" >"$log" 2>&1)
	rc=$?
	case $rc in
	0) ok "$name" ;;
	77)	# In CI ($CI set, .ci/run) nothing may skip: what a test
		# needs is there, or the run fails.
		if [ -n "${CI:-}" ]; then
			bad "$name (skipped in CI: $(tail -1 "$log"))"
		else
			skip=$((skip + 1)); echo "skip $name: $(tail -1 "$log")"
		fi ;;
	*) bad "$name (exit $rc)"; tail -15 "$log" | sed 's/^/    /' ;;
	esac
done

if [ -z "${UPDATE:-}" ]; then
	wrote=$(find "$TOP/tests" -newer "$out/start" -type f | head -5)
	if [ -n "$wrote" ]; then
		bad "tests wrote into the source tree:"
		echo "$wrote" | sed "s|$TOP/|    |"
	fi
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
