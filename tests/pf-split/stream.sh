#!/bin/sh
# pf-split reads layers.csv a block at a time (pf-split(1)): on a table of
# 130 copies of mobilenet_v2's layers (1.3 MB; 24 MB of tasks) the first
# rows go out before the last block of layers (1 MiB) is read, so a bad
# last row leaves the output cut (past the 8 MiB held, ended by a lone
# '"'), its line named as before; a bad first row leaves nothing.  A layer whose
# pieces do not fit (layer 0 here, a conv of 2^31 rows) is named only
# once every layer is read and none is bad, as when every layer was
# checked first.
set -u
command -v onnx2layers >/dev/null 2>&1 || { echo "FAIL: onnx2layers not built"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/pf-splits.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
onnx2layers "$PIMFLOW_SHARE/models/mobilenet_v2.onnx" >"$dir/m.csv" ||
    { echo "FAIL: onnx2layers mobilenet_v2"; exit 1; }
big="$TOP/tests/pf-split/err-overflow-rows/in"
# copies of m.csv's layers, ids and producers shifted; with a first
# argument, that row (of $big) first as layer 0
copies() {
	awk -F, -v OFS=, -v k="$1" -v first="${2:-}" '
	NR == FNR { if (FNR == 2) top = $0; next }
	FNR == 1 { print; if (first != "") print top; next }
	{ row[++n] = $0 }
	END {
		off = first != "" ? 1 : 0
		for (c = 0; c < k; c++) {
			for (i = 1; i <= n; i++) {
				$0 = row[i]
				$1 += off
				np = split($5, p, " "); s = ""
				for (j = 1; j <= np; j++)
					s = s (j > 1 ? " " : "") (p[j] + off)
				$5 = s
				print
			}
			off += n
		}
	}' "$big" "$dir/m.csv"
}
copies 130 >"$dir/ok.csv"
n=$(($(wc -l <"$dir/ok.csv") - 1))
pf-split "$dir/ok.csv" >"$dir/ok.out" 2>"$dir/ok.err" ||
    { echo "FAIL: the good table: $(cat "$dir/ok.err")"; fail=1; }
size=$(wc -c <"$dir/ok.out")
[ "$size" -gt 9000000 ] || { echo "FAIL: only $size bytes of tasks"; fail=1; }
# the last row bad: its line named, the output cut past the hold
last=$((n + 1))
sed "${last}s/,conv,/,nosuchop,/" "$dir/ok.csv" >"$dir/bad.csv"
grep -q nosuchop "$dir/bad.csv" || sed "${last}s/,gemm,/,nosuchop,/" "$dir/ok.csv" >"$dir/bad.csv"
pf-split "$dir/bad.csv" >"$dir/bad.out" 2>"$dir/bad.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a bad last row: exit $rc"; fail=1; }
grep -q "^pf-split: $dir/bad.csv:$last: column 'op'" "$dir/bad.err" ||
    { echo "FAIL: a bad last row: $(cat "$dir/bad.err")"; fail=1; }
cut=$(wc -c <"$dir/bad.out")
[ "$cut" -gt 8000000 ] && [ "$(tail -c 1 "$dir/bad.out")" = '"' ] ||
    { echo "FAIL: a bad last row: $cut bytes out, not cut after the hold"; fail=1; }
# the first row bad: nothing out
sed "2s/,conv,/,nosuchop,/" "$dir/ok.csv" >"$dir/bad1.csv"
pf-split "$dir/bad1.csv" >"$dir/bad1.out" 2>"$dir/bad1.err"
[ $? -eq 1 ] && [ ! -s "$dir/bad1.out" ] &&
    grep -q "^pf-split: $dir/bad1.csv:2: column 'op'" "$dir/bad1.err" ||
    { echo "FAIL: a bad first row: $(cat "$dir/bad1.err")"; fail=1; }
# layer 0 too big: named at the end; with a bad last row, that row
copies 130 top >"$dir/top.csv"
pf-split "$dir/top.csv" >"$dir/top.out" 2>"$dir/top.err"
[ $? -eq 1 ] && [ "$(cat "$dir/top.err")" = "pf-split: $dir/top.csv:2: layer 0: its split pieces do not fit pf-split's arithmetic (rows past 2^31 or counts past 2^63)" ] ||
    { echo "FAIL: layer 0 too big: $(cat "$dir/top.err")"; fail=1; }
last=$((n + 2))
sed "${last}s/,conv,/,nosuchop,/" "$dir/top.csv" >"$dir/topbad.csv"
grep -q nosuchop "$dir/topbad.csv" || sed "${last}s/,gemm,/,nosuchop,/" "$dir/top.csv" >"$dir/topbad.csv"
pf-split "$dir/topbad.csv" >/dev/null 2>"$dir/topbad.err"
[ $? -eq 1 ] && [ "$(wc -l <"$dir/topbad.err")" -eq 1 ] &&
    grep -q "^pf-split: $dir/topbad.csv:$last: column 'op'" "$dir/topbad.err" ||
    { echo "FAIL: layer 0 too big, last row bad: $(cat "$dir/topbad.err")"; fail=1; }
exit $fail
