#!/bin/sh
# pf-solve reads costs.csv a block of rows at a time (solve_io_load_costs),
# holding the candidates, not the table; what needs every row is checked
# at the end in a whole-table read's order.  On a table of many blocks
# (60 000 layers, 5 MB): the plan's total is the sum of each layer's best
# candidate; a duplicate id far from its first row is named at its later
# line; a bad energy early and a bad time late: the time is named (the
# rows are checked before the energy columns), as a whole-table read did.
. "$TOP/tests/pipeline/common"
scratch
H=cand,first,last,kind,axis,ratio,pim_gwrite,pim_hiding,gpu_ns,pim_ns,ns,energy_nj
awk -v h=$H 'BEGIN { print h
    for (i = 0; i < 60000; i++) {
	g = 10 + i % 7; p = 8 + i % 5
	printf "%d:base,%d,%d,base,,100,,,%d,0,%d,1\n", i, i, i, g, g
	printf "%d:gpu,%d,%d,gpu,,100,,,%d,0,%d,1\n", i, i, i, g, g
	printf "%d:pim,%d,%d,pim,,0,4,1,0,%d,%d,1\n", i, i, i, p, p } }' >"$W/c.csv"
[ "$(wc -c <"$W/c.csv")" -gt 3000000 ] || fail "the costs table is under 3 MB"
want=$(awk -F, 'NR > 1 && $4 != "base" { l = $2; if (!(l in b) || $11 < b[l]) b[l] = $11 }
    END { for (l in b) s += b[l]; printf "%.3f", s / 1000 }' "$W/c.csv")
pf-solve -P newton++ "$W/c.csv" >"$W/plan.csv" || fail "pf-solve on 180 000 candidates: exit $?"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { s += $c["ns"]; n++ } END { printf "%d %.3f", n, s / 1000 }' "$W/plan.csv")
[ "$got" = "60000 $want" ] || fail "plan: $got (layers, us), want 60000 $want"

# a duplicate 180 000 rows after the first
{ cat "$W/c.csv"; sed -n 4p "$W/c.csv"; } >"$W/dup.csv"
pf-solve "$W/dup.csv" >"$W/out" 2>"$W/err" && fail "a duplicate candidate passed"
[ "$(cat "$W/err")" = "pf-solve: $W/dup.csv:180002: duplicate candidate '0:pim'" ] ||
    fail "duplicate: $(cat "$W/err")"
[ -s "$W/out" ] && fail "output on a fault"

# a bad energy on line 2, a bad time on the last line
awk -F, -v OFS=, 'NR == 2 { $12 = "x" } { print }' "$W/c.csv" >"$W/bad.csv"
sed -n '$p' "$W/c.csv" | sed 's/,1$/,1/; s/,\([0-9]*\),1$/,-\1,1/' >>"$W/bad.csv"
sed -i '$s/^[0-9]*:pim/late:pim/' "$W/bad.csv"
pf-solve "$W/bad.csv" >"$W/out" 2>"$W/err" && fail "bad rows passed"
[ "$(cat "$W/err")" = "pf-solve: $W/bad.csv:180002: column 'ns': bad time '-12'" ] ||
    fail "two faults: $(cat "$W/err")"
# the energy fault alone
sed -i '$d' "$W/bad.csv"
pf-solve "$W/bad.csv" >"$W/out" 2>"$W/err" && fail "a bad energy passed"
[ "$(cat "$W/err")" = "pf-solve: $W/bad.csv:2: column 'energy_nj': bad energy 'x'" ] ||
    fail "bad energy: $(cat "$W/err")"
exit 0
