#!/bin/sh
# Capacity (pf-solve -G, run by pimflow): the bundled Llama-style decode
# step on the simulated RTX 2060 machine.  Its summary's "memory" is
# checked against an oracle read from layers.csv by column name (weights:
# weight_bytes of every row but the KV-cache matmuls; KV cache: those
# rows' weight_bytes; activations: the largest in_bytes + out_bytes), and
# on a partitioned machine every policy needs the sum of the three.  Then
# the same machine with memory_bytes one byte short of that sum is
# refused (one line naming the bytes needed and had, exit 1, no result
# folder), and with exactly that many bytes it runs.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
m=$TOP/share/pimflow/models/llama_block_decode.onnx
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pimflow -q -x -U 0 -G rtx2060-sim "$m" "$tmp/ok" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { kv = $c["resident"] == "kv" && $c["op"] == "matmul"
      if (kv) k += $c["weight_bytes"]; else w += $c["weight_bytes"]
      a = $c["in_bytes"] + $c["out_bytes"]; if (a > act) act = a }
    END { printf "%d %d %d %d\n", w, k, act, w + k + act }' "$tmp/ok/layers.csv" >"$tmp/want"
read -r w k a need <"$tmp/want"
[ "$k" -gt 0 ] || { echo "no KV-cache bytes in layers.csv"; exit 1; }
jq -r '.policies[] | [.policy, .memory.weights_bytes, .memory.kv_bytes,
    .memory.act_bytes, .memory.gpu_needs_bytes, .memory.gpu_has_bytes,
    .memory.fits] | @tsv' "$tmp/ok/summary.json" >"$tmp/mem"
[ "$(wc -l <"$tmp/mem")" -eq 7 ] || { echo "want 7 policies with memory"; cat "$tmp/mem"; exit 1; }
awk -v w="$w" -v k="$k" -v a="$a" -v n="$need" '
    $2 != w || $3 != k || $4 != a || $5 != n || $6 != 17179869184 || $7 != "true" {
	print "policy " $1 ": " $0 ", want " w " " k " " a " " n " 17179869184 true"; bad = 1 }
    END { exit bad }' "$tmp/mem" || exit 1

conf=$TOP/share/pimflow/gpu/rtx2060-sim.conf
sed "s/^memory_bytes = .*/memory_bytes = $((need - 1))/" "$conf" >"$tmp/short.conf"
sed "s/^memory_bytes = .*/memory_bytes = $need/" "$conf" >"$tmp/exact.conf"
rc=0
pimflow -q -x -U 0 -G "$tmp/short.conf" "$m" "$tmp/short" 2>"$tmp/err" || rc=$?
want="pf-solve: $tmp/.ok.tmp: policy 'pimflow' does not fit: needs $need bytes of the card's memory (weights, KV cache, activations: $w, $k, $a), short has $((need - 1))"
first=$(head -n 1 "$tmp/err")
# (the layers.csv named is in pimflow's temporary folder: compare the rest)
case $first in
"pf-solve: "*"/layers.csv: policy 'pimflow' does not fit: needs $need bytes of the card's memory (weights, KV cache, activations: $w, $k, $a), short has $((need - 1))") ;;
*) echo "refusal: got '$first'"; echo "want like: $want"; exit 1 ;;
esac
[ "$rc" -eq 1 ] || { echo "exit $rc, want 1"; exit 1; }
[ ! -e "$tmp/short" ] || { echo "a refused run left $tmp/short"; exit 1; }
pimflow -q -x -U 0 -G "$tmp/exact.conf" "$m" "$tmp/exact" 2>"$tmp/err" ||
    { echo "exactly $need bytes: refused"; cat "$tmp/err"; exit 1; }
echo ok
