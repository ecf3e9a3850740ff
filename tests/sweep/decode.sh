#!/bin/sh
# pf-sweep -B/-L: a decode sweep of the bundled Llama-style block over
# batch x context writes one row per point and policy (7 policies: the
# searched ones and attn-pim), with tokens/s = batch x 1e9 / ns; at a
# fixed batch a longer context never gives more tokens/s under none.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v parallel >/dev/null 2>&1 || { echo "no GNU parallel"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$TOP/pipelines/pf-sweep" -B 1,4 -L 128,1024 -m llama_block_decode -j 2 \
    -o "$tmp/d.csv" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; pol[$c["policy"]] = 1
      if ($c["tokens_per_s"] - $c["batch"] * 1e9 / $c["ns"] > 0.01 ||
          $c["batch"] * 1e9 / $c["ns"] - $c["tokens_per_s"] > 0.01) {
	print "tokens/s inconsistent: " $0; bad = 1 }
      if ($c["policy"] == "none") t[$c["batch"], $c["context"]] = $c["tokens_per_s"] }
    END { np = 0; for (p in pol) np++
      if (n != 28 || np != 7 || !("attn-pim" in pol)) { print n " rows, " np " policies"; bad = 1 }
      for (b = 1; b <= 4; b += 3)
        if (t[b, 1024] + 0 > t[b, 128] + 0) { print "batch " b ": more tokens/s at 1024 than at 128"; bad = 1 }
      exit bad }' "$tmp/d.csv" || exit 1
echo ok
