#!/bin/sh
# Inputs the fuzzers found crashing (tests/fuzz/regress/*.onnx, *.csv),
# kept as regression cases: onnx2layers (and, for tables, a CSV reader
# tool) must end with exit 0, or exit 1 with exactly one diagnostic line
# and nothing on stdout; never a signal, a sanitizer report (make
# check-san runs this with the sanitized tools) or exit 2.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${PF_BIN:-$TOP/bin}
if ! [ -x "$BIN/onnx2layers" ]; then echo "no $BIN/onnx2layers"; exit 77; fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# name, then the command
	n=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q -e 'runtime error:' -e 'Sanitizer' "$tmp/err"; then
		echo "FAIL $n: sanitizer report (exit $rc)"; head -5 "$tmp/err"
		fail=1; return
	fi
	case $rc in
	0) ;;
	1)	if [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
			echo "FAIL $n: exit 1 but output or not one diagnostic:"
			head -5 "$tmp/err"; fail=1
		fi ;;
	*)	echo "FAIL $n: exit $rc"; head -20 "$tmp/err"; fail=1 ;;
	esac
}
for f in "$TOP"/tests/fuzz/regress/*.onnx; do
	[ -f "$f" ] || continue
	check "${f##*/}" "$BIN/onnx2layers" "$f"
	check "${f##*/} -k" "$BIN/onnx2layers" -k "$f"
done
for f in "$TOP"/tests/fuzz/regress/*.csv; do
	[ -f "$f" ] || continue
	[ -x "$BIN/pf-split" ] || continue
	check "${f##*/}" "$BIN/pf-split" "$f"
done
# The stage harnesses' finds (regress/<harness>/) and the adversarial
# corpus (seeds/<harness>/, tests/fuzz/make_corpus.py): the same rule for
# the stage each feeds.  A "config %% table" file is split in two.
tool() {
	case $1 in
	split) echo pf-split ;; gpu) echo gpu-cycles ;; pim) echo pim-cycles ;;
	merge) echo pf-merge ;; solve) echo pf-solve ;;
	esac
}
# fuzz_pim's first byte picks its options (bit 0 -a, 1 -G, 2 -r, 3 -b):
# the same options here, so that a find reproduces.
opts() {	# harness file
	[ "$1" = pim ] || return 0
	b=$(od -An -tu1 -N1 "$2" | tr -d ' ')
	[ $((b & 1)) = 0 ] || printf ' -a'
	[ $((b >> 1 & 1)) = 0 ] || printf ' -G'
	[ $((b >> 2 & 1)) = 0 ] || printf ' -r'
	[ $((b >> 3 & 1)) = 0 ] || printf ' -b'
}
cnt=0
for h in split gpu pim merge solve; do
	t=$(tool $h)
	for f in "$TOP"/tests/fuzz/regress/$h/* "$TOP"/tests/fuzz/seeds/$h/*; do
		[ -f "$f" ] || continue
		cnt=$((cnt + 1))
		o=$(opts $h "$f")
		# shellcheck disable=SC2086
		if grep -q '^%%$' "$f"; then
			sed '/^%%$/,$d' "$f" >"$tmp/conf"
			sed '1,/^%%$/d' "$f" >"$tmp/in"
			check "$h/${f##*/}$o" "$BIN/$t" $o -c "$tmp/conf" "$tmp/in"
		else
			check "$h/${f##*/}$o" "$BIN/$t" $o "$f"
		fi
	done
done
echo "$cnt stage inputs checked"
exit $fail
