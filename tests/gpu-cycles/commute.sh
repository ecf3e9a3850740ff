#!/bin/sh
# gpu-cycles | pim-cycles and pim-cycles | gpu-cycles give the same values
# (columns compared by name), and gpu-cycles leaves the pim rows' own
# fields byte-identical.
set -u
command -v pim-cycles >/dev/null 2>&1 || { echo "no pim-cycles"; exit 1; }
in=$TOP/tests/gpu-cycles/basic/in
t=${TMPDIR:-/tmp}/gpu-commute.$$
trap 'rm -f $t.*' EXIT
# Rows with columns in name order (no field of the inputs holds a comma).
byname() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { o[i] = $i; idx[$i] = i }
		m = NF; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
		if (o[j] < o[i]) { x = o[i]; o[i] = o[j]; o[j] = x } }
		{ s = ""; for (i = 1; i <= m; i++) s = s (i > 1 ? "," : "") $(idx[o[i]])
		print s }' "$1"
}
gpu-cycles <"$in" | pim-cycles >$t.a || exit 1
pim-cycles <"$in" | gpu-cycles >$t.b || exit 1
byname $t.a >$t.an
byname $t.b >$t.bn
cmp $t.an $t.bn || { diff $t.an $t.bn | head; exit 1; }
# The pim row's original fields are untouched by gpu-cycles.
gpu-cycles <"$in" | awk -v cols="$(head -1 "$in")" -v where=device -v is=pim \
    -f "$TOP/tests/lib/pick.awk" >$t.p || exit 1
awk -v where=device -v is=pim -f "$TOP/tests/lib/pick.awk" "$in" >$t.q
cmp $t.p $t.q || exit 1
echo ok
