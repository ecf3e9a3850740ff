#!/bin/sh
# The row-wise stages stream (pf-formats(7), Streaming): a table of many
# blocks gives the bytes the same rows give a block at a time; a fault
# past the 8 MiB the output is held for exits 1 with one line and ends the
# output with an unterminated quoted field, which the next stage refuses;
# pf-merge folds candidates cut across blocks whole.
. "$TOP/tests/pipeline/common"
scratch
B=$TOP/tests/gpu-cycles/basic/in
# N copies of basic's rows, candidate names made unique per copy.
copies() {
	awk -F, -v n="$1" 'NR == 1 { print; next } { r[++k] = $0 }
	    END { for (i = 0; i < n; i++) for (j = 1; j <= k; j++) print i "/" r[j] }' "$B"
}
copies 3000 >"$W/big.csv"
gpu-cycles "$B" >"$W/one.csv" || fail "gpu-cycles on basic: exit $?"
gpu-cycles "$W/big.csv" >"$W/big.out" || fail "gpu-cycles on the big table: exit $?"
awk -F, -v n=3000 'NR == 1 { print; next } { r[++k] = $0 }
    END { for (i = 0; i < n; i++) for (j = 1; j <= k; j++) print i "/" r[j] }' \
    "$W/one.csv" >"$W/want.csv"
[ "$(wc -c <"$W/big.out")" -gt 9000000 ] || fail "the big table's output is under the 8 MiB held"
cmp -s "$W/big.out" "$W/want.csv" || fail "gpu-cycles: a table of many blocks differs from its rows costed alone"

# late: STAGE FILE: a fault on the last row, past the hold.
late() {
	"$@" >"$W/late.out" 2>"$W/late.err"
	rc=$?
	[ $rc = 1 ] || fail "$1 with a late fault: exit $rc, want 1"
	[ "$(wc -l <"$W/late.err")" = 1 ] || fail "$1: want one line on stderr: $(cat "$W/late.err")"
	[ "$(tail -c 1 "$W/late.out")" = '"' ] || fail "$1: a cut output does not end in an open quote"
	n=$(($(wc -c <"$W/late.out") - 1))
	[ $n -gt 8000000 ] || fail "$1: only $n bytes before the fault"
	head -c $n "$W/late.out" >"$W/a"
	head -c $n "$W/good.out" >"$W/b"
	cmp -s "$W/a" "$W/b" || fail "$1: what came before the fault differs from the good output"
	[ "$(tail -c 2 "$W/late.out" | head -c 1)" = "$(printf '\n')" ] ||
	    fail "$1: the output is not cut after a whole row"
}
# gpu-cycles: a row of an unknown device after the big table.
{ cat "$W/big.csv"; tail -n 1 "$B" | sed 's/,gpu,/,cpu,/'; } >"$W/bad.csv"
cp "$W/big.out" "$W/good.out"
late gpu-cycles "$W/bad.csv"
grep -q "bad.csv:$(($(wc -l <"$W/bad.csv"))): column 'device'" "$W/late.err" ||
    fail "gpu-cycles: the late fault names the wrong line: $(cat "$W/late.err")"
pim-cycles <"$W/late.out" >"$W/next.out" 2>"$W/next.err" && fail "pim-cycles took a cut table"
# (it streams too: past its own hold it passes the cut on, ended the same way)
[ -s "$W/next.out" ] && [ "$(tail -c 1 "$W/next.out")" != '"' ] &&
    fail "pim-cycles wrote a result from a cut table"
grep -q "the input ends inside a quoted field (cut short?)" "$W/next.err" ||
    fail "pim-cycles on a cut table: $(cat "$W/next.err")"
# pim-cycles: the gpu rows pass through; a bad pim row at the end.
pim-cycles "$W/big.out" >"$W/good.out" || fail "pim-cycles on the big table: exit $?"
{ cat "$W/big.out"; tail -n 1 "$W/big.out" | sed 's/,gpu,/,pim,/; s/,conv,Conv,/,relu,Relu,/'; } >"$W/bad.csv"
late pim-cycles "$W/bad.csv"

# pf-merge: 40 000 candidates of three pieces, blocks cutting them anywhere.
awk 'BEGIN { print "cand,first,last,kind,axis,ratio,step,device,ns"
    for (i = 0; i < 40000; i++) {
	c = "c" i ",0,0,pipe,h,50,"
	print c "0,gpu,1"; print c "0,pim,2"; print c "1,gpu,3" } }' >"$W/t.csv"
pf-merge "$W/t.csv" >"$W/c.csv" || fail "pf-merge on 120 000 rows: exit $?"
awk 'BEGIN { print "cand,first,last,kind,axis,ratio,pim_gwrite,pim_hiding,gpu_ns,pim_ns,ns,gpu_clock_mhz,energy_nj,gpu_static_w,pim_static_w,handoff_ns,dev_in,dev_out,handoff_in_ns,handoff_out_ns,gpu_tensor,gpu_gemm_ns,gpu_conv_ns,gpu_depthwise_ns,gpu_elementwise_ns,pim_dispatch_ns,gpu_dtype"
    for (i = 0; i < 40000; i++) print "c" i ",0,0,pipe,h,50,,,4.000,2.000,5.000,,,,,0.000,both,gpu,0.000,0.000,,,,,,," }' >"$W/want.csv"
cmp -s "$W/c.csv" "$W/want.csv" || fail "pf-merge: candidates cut by blocks are folded wrong"
# and a late fault: 70 000 long-named candidates, then the first again.
awk 'BEGIN { print "cand,first,last,kind,axis,ratio,step,device,ns"
    p = sprintf("%0100d", 0)
    for (i = 0; i < 70000; i++) print p i ",0,0,gpu,,100,0,gpu,1" }' >"$W/t.csv"
pf-merge "$W/t.csv" >"$W/good.out" || fail "pf-merge on 70 000 candidates: exit $?"
{ cat "$W/t.csv"; sed -n 2p "$W/t.csv"; } >"$W/bad.csv"
late pf-merge "$W/bad.csv"
grep -q "bad.csv:70002: candidate '0*0': its pieces come again" "$W/late.err" ||
    fail "pf-merge: $(cat "$W/late.err")"

# pf-split streams too: 4000 layers of one small conv (over 8 MiB of
# candidates), then a conv of 2^31 rows whose split pieces overflow
# (err-overflow-rows): the fault comes after the first rows are out.
awk -F, -v OFS=, 'NR == 1 { print } NR == 2 { for (i = 0; i < 4000; i++) { $1 = i; print } }' \
    "$TOP/tests/pf-split/header/in" >"$W/l.csv"
pf-split "$W/l.csv" >"$W/good.out" || fail "pf-split on 4000 layers: exit $?"
{ cat "$W/l.csv"; tail -n 1 "$TOP/tests/pf-split/err-overflow-rows/in" | sed 's/^0,/4000,/'; } >"$W/bad.csv"
late pf-split "$W/bad.csv"
grep -q "bad.csv:4002: layer 4000: its split pieces do not fit" "$W/late.err" ||
    fail "pf-split: $(cat "$W/late.err")"
exit 0
