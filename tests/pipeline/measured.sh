#!/bin/sh
# pimflow -m: a measurement of a real layer is used (its split pieces fall
# back to the model, said once on stderr); a measurement that matches no
# layer stops the run with gpu-cycles' message naming its line, and no
# result folder.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PATH=${PF_BIN:-$TOP/bin}:$TOP/pipelines:$PATH
m=$TOP/tests/zoo/unet.onnx
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
hdr=name,op,batch,in_c,in_h,in_w,out_c,out_h,out_w,kernel_h,kernel_w,stride_h,stride_w,groups,ns
printf '%s\n/enc1/enc1.0/Conv,conv,1,3,64,64,16,64,64,3,3,1,1,1,5000\n' \
    "$hdr" >"$tmp/good.csv"
sed 's|^/enc1/enc1.0/Conv,|/nosuch/Conv,|' "$tmp/good.csv" >"$tmp/bad.csv"
if ! pimflow -q -m "$tmp/good.csv" "$m" "$tmp/good" >"$tmp/g.out" \
    2>"$tmp/g.err"; then
	echo "FAIL pimflow -m good.csv: $(tail -2 "$tmp/g.err")"; fail=1
elif [ "$(grep -c "warning: layer '/enc1/enc1.0/Conv': rows of a geometry" \
    "$tmp/g.err")" -ne 1 ]; then
	echo "FAIL want the fallback of /enc1/enc1.0/Conv named once:"
	cat "$tmp/g.err"; fail=1
elif [ "$(awk -v where=cand -v is=0:base -v cols=ns -v body=1 \
    -f "$TOP/tests/lib/pick.awk" "$tmp/good/costs.csv")" != 5000.000 ]; then
	echo "FAIL layer 0 (/enc1/enc1.0/Conv) is not 5000 ns in costs.csv"
	fail=1
fi
if pimflow -q -m "$tmp/bad.csv" "$m" "$tmp/bad" >"$tmp/b.out" 2>"$tmp/b.err"; then
	echo "FAIL pimflow -m bad.csv: exit 0"; fail=1
elif ! grep -q "bad.csv:2: measured layer '/nosuch/Conv' (op conv) matches no gpu row" \
    "$tmp/b.err" || [ -e "$tmp/bad" ]; then
	echo "FAIL pimflow -m bad.csv: want gpu-cycles naming line 2, no folder:"
	cat "$tmp/b.err"; fail=1
fi
exit $fail
