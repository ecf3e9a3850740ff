#!/bin/sh
# The test zoo: exports nobody here wrote (share/pimflow/models/export-models -z, with
# Debian's torch; committed, so no torch is needed here).  Each NAME.onnx
# goes through onnx2layers with no option, and every module torch's
# forward hooks saw (NAME.torch.csv: its node-name prefix and its output
# as layers.csv columns) must be a row of that table with those columns:
# the k-th call of a module is the k-th conv/gemm row under its prefix
# (swin's window attention, whose qkv and proj products torchvision
# computes with F.linear, records each such call as one of its own);
# an LSTM or GRU module (a "steps" count) must have exactly that many
# recurrent step rows (named .../t<step>) under its prefix, each with
# that batch and gemm_k (the hidden size).  Then the whole flow: pipelines/pimflow with no option beyond
# the model must succeed.  A model that fails anywhere fails the test.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${PF_BIN:-$TOP/bin}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for m in "$TOP"/tests/zoo/*.onnx; do
	name=${m##*/}; name=${name%.onnx}
	exp=${m%.onnx}.torch.csv
	n=$((n + 1))
	if ! [ -s "$exp" ]; then
		echo "FAIL $name: no $exp"; fail=1; continue
	fi
	if ! "$BIN/onnx2layers" "$m" >"$tmp/$name.csv" 2>"$tmp/$name.err" ||
	    [ -s "$tmp/$name.err" ]; then
		echo "FAIL $name: onnx2layers: $(head -3 "$tmp/$name.err")"
		fail=1; continue
	fi
	# Expectations first (file 1), then the layer table (file 2).
	if ! awk -F, -v model="$name" '
	    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
	    NR == FNR { ne++; pre[ne] = $col[FILENAME, "prefix"]; line[ne] = $0
		exf = FILENAME; next }
	    {
		op = $col[FILENAME, "op"]
		if (op != "conv" && op != "gemm") next
		nm = $col[FILENAME, "name"]
		nr++; rname[nr] = nm; rline[nr] = $0; tf = FILENAME
	    }
	    END {
		if (ne == 0) { print "FAIL " model ": no expectations"; exit 1 }
		bad = 0
		for (e = 1; e <= ne; e++) {
			p = pre[e]; split(line[e], x, ",")
			if ((exf, "steps") in col && x[col[exf, "steps"]] != "") {
				ns = 0
				for (r = 1; r <= nr; r++) {
					if (index(rname[r], p) != 1 ||
					    rname[r] !~ /\/t[0-9]+$/) continue
					ns++; split(rline[r], y, ",")
					if (y[col[tf, "batch"]] != x[col[exf, "batch"]] ||
					    y[col[tf, "gemm_k"]] != x[col[exf, "gemm_k"]]) {
						print "FAIL " model ": " rname[r] \
						    ": batch/gemm_k " y[col[tf, "batch"]] "/" \
						    y[col[tf, "gemm_k"]] ", torch says " \
						    x[col[exf, "batch"]] "/" x[col[exf, "gemm_k"]]
						bad = 1
					}
				}
				if (ns != x[col[exf, "steps"]]) {
					print "FAIL " model ": " ns " step rows under " \
					    p ", torch says " x[col[exf, "steps"]]
					bad = 1
				}
				continue
			}
			k = ++seen[p]; hit = 0
			for (r = 1; r <= nr && !hit; r++)
				if (index(rname[r], p) == 1 && ++cnt[e, p] == k)
					hit = r
			if (!hit) {
				print "FAIL " model ": no row " k " under " p
				bad = 1; continue
			}
			split(rline[hit], y, ",")
			nc = split("batch out_d out_c out_h out_w", c, " ")
			for (j = 1; j <= nc; j++) {
				want = x[col[exf, c[j]]]
				if (want == "") continue
				if (!((tf, c[j]) in col)) {
					print "FAIL " model ": " p ": no column " c[j]
					bad = 1; continue
				}
				got = y[col[tf, c[j]]]
				if (got != want) {
					print "FAIL " model ": " rname[hit] ": " \
					    c[j] " " got ", torch says " want
					bad = 1
				}
			}
		}
		exit bad
	    }' "$exp" "$tmp/$name.csv"; then
		fail=1
	fi
	if ! "$TOP/pipelines/pimflow" "$m" "$tmp/$name.out" \
	    >"$tmp/$name.flow" 2>&1 || ! [ -s "$tmp/$name.out/summary.json" ]; then
		echo "FAIL $name: pimflow: $(tail -3 "$tmp/$name.flow")"
		fail=1
	fi
done
# GPT-2's tanh GELU fuses into c_fc, so c_fc -> mlp_proj is a chain: with
# chains of two allowed (pf-split -p c2) every block has its pipe.
if "$BIN/onnx2layers" "$TOP/tests/zoo/gpt2_blocks.onnx" 2>/dev/null |
    "$BIN/pf-split" -p c2 >"$tmp/g2.tasks" 2>"$tmp/g2.err"; then
	k=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["kind"] == "pipe" { split($c["cand"], p, ":"); s[p[1]] = 1 }
	    END { n = 0; for (x in s) n++; print n }' "$tmp/g2.tasks")
	[ "$k" -eq 2 ] || { echo "FAIL gpt2_blocks: $k chains with -p c2, want 2 (c_fc -> mlp_proj per block)"; fail=1; }
else
	echo "FAIL gpt2_blocks: pf-split -p c2: $(head -2 "$tmp/g2.err")"; fail=1
fi
[ "$n" -gt 0 ] || { echo "FAIL no models in tests/zoo"; fail=1; }
exit $fail
