#!/bin/sh
# Capacity on a machine whose PIM devices are added beside the GPU
# (pim_attach = added; pf-solve -M reads only the PIM config's capacity
# keys, so a hand-written one serves until a shipped config says added):
# the Llama-style decode step's costs on an A100 with HBM-PIM, solved
# with 16 added channels of 1 MiB.  Every policy places all of its bytes
# (GPU part + PIM part = weights + KV cache + activations), none keeps
# everything on the GPU, the searched plan puts some on PIM; those 16 MiB
# are too few for it (refused, naming the PIM devices' memory, exit 1),
# and with -n 1024 channels (1 GiB) it fits.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pimflow -q -x -G a100 -M hbm-pim "$TOP/share/pimflow/models/llama_block_decode.onnx" \
    "$tmp/r" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
printf 'channels = 16\npim_attach = added\nmemory_bytes_per_channel = 1048576\n' >"$tmp/added.conf"
pf-solve -A -G a100 -M "$tmp/added.conf" -l "$tmp/r/layers.csv" -j "$tmp/s.json" \
    "$tmp/r/costs.csv" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
jq -r '.policies[] | [.policy, .memory.weights_bytes + .memory.kv_bytes + .memory.act_bytes,
    .memory.gpu_needs_bytes, .memory.pim_needs_bytes, .memory.pim_has_bytes,
    .memory.fits, .layers.pim + .layers.split] | @tsv' "$tmp/s.json" >"$tmp/mem"
awk -F'\t' '
    $3 + $4 != $2 { print $1 ": gpu " $3 " + pim " $4 " != " $2; bad = 1 }
    $5 != 16777216 { print $1 ": pim has " $5; bad = 1 }
    $1 == "none" && ($4 != 0 || $6 != "true") { print "none: " $0; bad = 1 }
    $1 == "pimflow" { if ($7 == 0 || $4 <= 16777216 || $6 != "false") {
	print "pimflow: want PIM layers needing more than 16 MiB: " $0; bad = 1 }; pn = $4 }
    END { if (pn == "") { print "no pimflow row"; bad = 1 } exit bad }' "$tmp/mem" || exit 1
pn=$(awk -F'\t' '$1 == "pimflow" { print $4 }' "$tmp/mem")
rc=0
pf-solve -P pimflow -G a100 -M "$tmp/added.conf" -l "$tmp/r/layers.csv" \
    "$tmp/r/costs.csv" >"$tmp/out" 2>"$tmp/err" || rc=$?
want="pf-solve: $tmp/r/layers.csv: policy 'pimflow' does not fit: needs $pn bytes of the added PIM devices' memory, they have 16777216"
[ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ] ||
    { echo "exit $rc, stderr '$(cat "$tmp/err")', want '$want'"; exit 1; }
pf-solve -P pimflow -G a100 -M "$tmp/added.conf" -n 1024 -l "$tmp/r/layers.csv" \
    "$tmp/r/costs.csv" >/dev/null 2>"$tmp/err" || { echo "1 GiB of PIM: $(cat "$tmp/err")"; exit 1; }
echo ok
