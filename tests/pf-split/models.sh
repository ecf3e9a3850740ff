#!/bin/sh
# On every bundled model, pf-split's pieces partition their layers: for each
# candidate and each layer it covers, the pieces' MACs add up to the layer's,
# and so do their output rows (h, m) or output channels (n), or they are the
# whole layer (base, gpu, pim); every piece has positive dimensions and every
# candidate id has a single layer range.  A model onnx2layers cannot read
# fails the test (every bundled model is covered), as does no model.
set -u
. "$TOP/tests/pipeline/common"
command -v onnx2layers >/dev/null 2>&1 || { echo "FAIL: onnx2layers not built"; exit 1; }
scratch
fail=0
# one model: its pieces against its layers; returns 1 when a tool failed
pieces() {	# file name
	f=$1 m=$2
	onnx2layers "$f" >"$W/l.csv" 2>"$W/err" || { echo "FAIL $m: onnx2layers: $(head -1 "$W/err")"; fail=1; return 1; }
	# generic chains and 3 stages too, to exercise the general pipelines
	pf-split -p 1,2,3,c2,c3 -s 2,3 "$W/l.csv" >"$W/t.csv" || { echo "FAIL $m: pf-split"; fail=1; return 1; }
	awk -F, -v model="$m" '
	FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
	FILENAME ~ /l.csv$/ {
		L = $c[FILENAME, "layer"]
		macs[L] = $c[FILENAME, "macs"]
		oh[L] = $c[FILENAME, "out_h"]; oc[L] = $c[FILENAME, "out_c"]
		b[L] = $c[FILENAME, "batch"]; ih[L] = $c[FILENAME, "in_h"]
		op[L] = $c[FILENAME, "op"]
		next
	}
	{
		T = FILENAME
		id = $c[T, "cand"]; L = $c[T, "layer"]; k = $c[T, "kind"]; ax = $c[T, "axis"]
		r = $c[T, "first"] "-" $c[T, "last"]
		if ((id in range) && range[id] != r) { print model ": " id ": two ranges"; bad = 1 }
		range[id] = r
		for (n = split("batch in_c in_h in_w out_c out_h out_w", d, " "); n > 0; n--)
			if ($c[T, d[n]] + 0 < 1) { print model ": " id ": " d[n] " " $c[T, d[n]]; bad = 1 }
		key = id SUBSEP L
		sm[key] += $c[T, "macs"]
		if (k == "split" || k == "pipe") {
			if (ax == "n") su[key] += $c[T, "out_c"]
			else if (op[L] != "conv" && ih[L] == 1) su[key] += $c[T, "batch"]
			else su[key] += $c[T, "out_h"]
		}
		kind[key] = k; axis[key] = ax; lay[key] = L
	}
	END {
		for (key in sm) {
			L = lay[key]; split(key, p, SUBSEP)
			want = kind[key] == "pim" || kind[key] == "base" || kind[key] == "gpu" ? 1 : 0
			if (want && sm[key] != macs[L]) { print model ": " p[1] ": macs " sm[key] " of " macs[L]; bad = 1 }
			if (!want && sm[key] != macs[L]) { print model ": " p[1] " layer " L ": macs " sm[key] " of " macs[L]; bad = 1 }
			if (!want) {
				whole = axis[key] == "n" ? oc[L] : (op[L] != "conv" && ih[L] == 1 ? b[L] : oh[L])
				if (su[key] != whole) { print model ": " p[1] " layer " L ": units " su[key] " of " whole; bad = 1 }
			}
		}
		exit bad
	}' "$W/l.csv" "$W/t.csv" || fail=1
	echo "$m: $(($(wc -l <"$W/t.csv") - 1)) pieces, $(csvcol "$W/t.csv" cand | sort -u | wc -l) candidates"
}
each_model pieces
[ "$NMODELS" -gt 0 ] || { echo "FAIL: no bundled model in $MODELS"; exit 1; }
exit $fail
