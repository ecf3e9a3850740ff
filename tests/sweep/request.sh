#!/bin/sh
# pf-sweep -R: whole requests as sweep points.  Two requests (128:2 and
# 128:3) of the bundled GPT-2-small-like model give
# one header and 7 rows per request, and the 128:3 rows are pf-request's
# own, byte for byte.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v parallel >/dev/null 2>&1 || { echo "no GNU parallel"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pf-sweep -R 128:2,128:3 -m gpt2_decode -j 2 -o "$tmp/r.csv" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
[ "$(cat "$tmp/err")" = "pf-sweep: 2 requests, 14 rows in $tmp/r.csv" ] ||
    { echo "stderr: $(cat "$tmp/err")"; exit 1; }
pf-request -q -x -j 2 gpt2_decode 128,3 "$tmp/one" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
[ "$(head -n 1 "$tmp/r.csv")" = "$(head -n 1 "$tmp/one/request.csv")" ] || { echo "header differs"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["gen"] == 3' "$tmp/r.csv" >"$tmp/got"
tail -n +2 "$tmp/one/request.csv" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 7 ] || { echo "pf-request: $(wc -l <"$tmp/want") rows"; exit 1; }
cmp -s "$tmp/got" "$tmp/want" || { echo "128:3 rows differ:"; diff "$tmp/want" "$tmp/got" | head -5; exit 1; }
echo ok
