#!/bin/sh
# Runs every test of the project and prints one closing line:
#   "N passed, N failed, N skipped"
# Kinds of test:
#  - unit programs: every executable in $PF_UNIT (built from tests/unit/*.c);
#  - golden cases: every directory tests/<tool>/<case>/ holding a file "cmd"
#    (a sh script run in that directory with the tools first on PATH, stdin
#    from "in" when present); its stdout, stderr and exit status must equal
#    "out", "err" (when present) and "rc" (0 when absent).  $TOP in output
#    is written as @TOP@.  UPDATE=1 rewrites out/err/rc instead;
#  - scripts: every tests/*/*.sh but tests/fuzz/run.sh (make fuzz); exit 0
#    passes, 77 skips, else fails.
# TESTS=pattern limits the run to tests whose name contains the pattern.
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
	if [ -f "$d/in" ]; then inp=$d/in; else inp=/dev/null; fi
	(cd "$d" && sh ./cmd <"$inp" >"$o.out" 2>"$o.err"; echo $? >"$o.rc")
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
	if [ -f "$d/err" ]; then
		# Sanitizer builds may add nothing to stderr; compare exactly.
		cmp -s "$o.err" "$d/err" || why="$why stderr differs"
	fi
	if [ -z "$why" ]; then ok "$name"; else
		bad "$name:$why"
		[ -f "$d/out" ] && diff "$d/out" "$o.out" | head -10 | sed 's/^/    /'
		[ -f "$d/err" ] && diff "$d/err" "$o.err" | head -5 | sed 's/^/    /'
	fi
done

for s in "$TOP"/tests/*/*.sh; do
	[ -f "$s" ] || continue
	name=${s#"$TOP"/tests/}
	# The fuzzing campaign is "make fuzz", not a test; its regressions are.
	[ "$name" = fuzz/run.sh ] && continue
	want "$name" || continue
	log=$out/$(echo "$name" | tr / .).log
	sh "$s" >"$log" 2>&1
	rc=$?
	case $rc in
	0) ok "$name" ;;
	77) skip=$((skip + 1)); echo "skip $name: $(tail -1 "$log")" ;;
	*) bad "$name (exit $rc)"; tail -15 "$log" | sed 's/^/    /' ;;
	esac
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
