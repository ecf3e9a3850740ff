#!/bin/sh
# gpu-cycles | pim-cycles and pim-cycles | gpu-cycles give the same
# values (column order aside), and pim-cycles leaves gpu rows' cells
# byte-identical (DESIGN.md, cost columns).
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v gpu-cycles >/dev/null 2>&1 || { echo "gpu-cycles not built"; exit 1; }
command -v pim-cycles >/dev/null 2>&1 || { echo "pim-cycles not built"; exit 1; }
tmp=${TMPDIR:-/tmp}/pimcompose.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
in=$TOP/tests/pim-cycles/geometry/in
gpu=$TOP/tests/pim-cycles/fill/in
# A table with both devices: the geometry rows plus gpu copies of them.
{ cat "$in"; sed 1d "$in" | sed 's/,pim,/,gpu,/; s/,pim,/,gpu,/'; } >"$tmp/in"
gpu-cycles "$tmp/in" | pim-cycles >"$tmp/a" || exit 1
pim-cycles "$tmp/in" | gpu-cycles >"$tmp/b" || exit 1
# One line per cell, "row name=value", sorted (the inputs have no
# quoted commas).
norm() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
	    { for (i = 1; i <= NF; i++) print NR, h[i] "=" $i }' "$1" | sort
}
norm "$tmp/a" >"$tmp/a.n"
norm "$tmp/b" >"$tmp/b.n"
if ! cmp -s "$tmp/a.n" "$tmp/b.n"; then
	echo "orders differ:"; diff "$tmp/a.n" "$tmp/b.n" | head; exit 1
fi
grep -q ' cycles=[0-9]' "$tmp/a.n" || { echo "no cycles filled"; exit 1; }
# Gpu rows of the input come out with their cells unchanged.
pim-cycles "$gpu" >"$tmp/c" || exit 1
cols=$(head -1 "$gpu")
awk -v cols="$cols" -v where=device -v is=gpu -f "$TOP/tests/lib/pick.awk" "$tmp/c" >"$tmp/c.g" || exit 1
awk -v where=device -v is=gpu -f "$TOP/tests/lib/pick.awk" "$gpu" | cmp -s - "$tmp/c.g" || { echo "gpu rows changed"; exit 1; }
echo ok
