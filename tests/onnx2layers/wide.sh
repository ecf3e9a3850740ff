#!/bin/sh
# Work linear in the graph (issue 10, defect 10): 199 999 Relu nodes read
# one input and feed one Sum, Max, Min, Mean and Concat of 199 999
# operands each (tests/lib/gen-graph wide, generated here).  The consumers of
# a tensor and the source layers of a node's operands were gathered with
# a scan per element, 61 s of CPU for this model; they are now counted
# and sorted (1.5 s).  The run must finish within a CPU-time limit 20
# times the linear cost (ten times more under the sanitizers), and every
# big node must list its 199 999 producers.  Skips (77) without Debian's
# python3-onnx.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
BIN=${PF_BIN:-$TOP/bin}
N=199999
if ! [ -x "$PY" ] || ! "$PY" -c 'import onnx' 2>/dev/null; then
	echo "no python3-onnx for $PY"; exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$PY" "$TOP/tests/lib/gen-graph" wide $N "$tmp/wide.onnx" || exit 1
lim=30
[ -n "${PF_SAN:-}" ] && lim=300
(ulimit -t $lim && exec "$BIN/onnx2layers" "$tmp/wide.onnx") >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: onnx2layers exit $rc (CPU limit ${lim}s): $(head -3 "$tmp/err")"
	exit 1
fi
[ -s "$tmp/err" ] && { echo "FAIL: stderr: $(head -3 "$tmp/err")"; exit 1; }
# the last five rows: op, onnx_op, number of preds, out_c (by name)
awk -F, -v n=$N '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
NR > n + 1 { printf "%s %s %d %s\n", $c["op"], $c["onnx_op"], split($c["preds"], a, " "), $c["out_c"] }
' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<EOF
eltwise Sum $N 4
eltwise Max $N 4
eltwise Min $N 4
eltwise Mean $N 4
concat Concat $N $((4 * N))
EOF
cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: rows:"; diff "$tmp/want" "$tmp/got" | head; exit 1; }
[ "$(($(wc -l <"$tmp/out") - 1))" -eq $((N + 5)) ] || { echo "FAIL: $(wc -l <"$tmp/out") lines"; exit 1; }
exit 0
