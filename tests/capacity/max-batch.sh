#!/bin/sh
# pf-sweep -B/-L's max_batch column: per context, the largest batch that
# fits the machine.  For the bundled Llama-style block on the simulated
# RTX 2060 machine at contexts 128 and 1024, the column is read at batch
# 1 and checked by running the point at that batch (fits true) and one
# more (fits false), and at batch 2 it is the same; a longer context
# fits fewer requests.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v parallel >/dev/null 2>&1 || { echo "no GNU parallel"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pf-sweep -x -B 1,2 -L 128,1024 -m llama_block_decode -G rtx2060-sim -j 2 \
    -o "$tmp/d.csv" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
# batch context max_batch fits of policy none
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["policy"] == "none" { print $c["batch"], $c["context"], $c["max_batch"], $c["fits"] }' \
    "$tmp/d.csv" >"$tmp/none"
[ "$(wc -l <"$tmp/none")" -eq 4 ] || { echo "want 4 rows of none"; cat "$tmp/none"; exit 1; }
for l in 128 1024; do
	m1=$(awk -v l=$l '$1 == 1 && $2 == l { print $3 }' "$tmp/none")
	m2=$(awk -v l=$l '$1 == 2 && $2 == l { print $3 }' "$tmp/none")
	[ -n "$m1" ] && [ "$m1" -gt 2 ] || { echo "context $l: max_batch '$m1'"; exit 1; }
	[ "$m1" = "$m2" ] || { echo "context $l: max_batch $m1 at batch 1, $m2 at batch 2"; exit 1; }
	for b in "$m1" $((m1 + 1)); do
		pf-sweep -2 llama_block_decode rtx2060-sim newton-gddr6 "$b" "$l" >"$tmp/p" 2>"$tmp/err" ||
		    { cat "$tmp/err"; exit 1; }
		f=$(awk -F, -v h="$(head -n 1 "$tmp/d.csv")" 'BEGIN { n = split(h, x, ","); for (i = 1; i <= n; i++) c[x[i]] = i }
		    $c["policy"] == "none" { print $c["fits"] }' "$tmp/p")
		want=true
		[ "$b" = "$m1" ] || want=false
		[ "$f" = "$want" ] || { echo "context $l batch $b: fits '$f', want $want (max_batch $m1)"; exit 1; }
	done
	eval "m_$l=$m1"
done
[ "$m_1024" -lt "$m_128" ] || { echo "max_batch $m_1024 at 1024, $m_128 at 128"; exit 1; }
echo ok
