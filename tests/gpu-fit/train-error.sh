#!/bin/sh
# The shipped GPU configs' error on their training sets
# (share/pimflow/gpu/train: GEMMs and convolutions) never exceeds what
# share/doc/gpu-model.md states, per GPU, precision, op class and timing
# class; the check itself fails when a row of the doc's table is missing
# (shown here on a copy of the doc without its first row) and when the
# model gets worse (shown here on a copy of the t4 config whose
# convolutions pay twice the fitted per-call floor); and the shipped
# error table share/pimflow/gpu/error.csv is the one the shipped configs
# give (make gpu-fit writes it).
set -u
command -v python3 >/dev/null || { echo "no python3" >&2; exit 1; }
doc=$TOP/share/doc/gpu-model.md
fit=$TOP/tests/gpu-fit/fit.py
python3 "$fit" --check "$doc" || exit 1
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT

# A missing row is named.
row=$(grep -m1 '^| .* % |' "$doc")
[ -n "$row" ] || { echo "no table row in $doc"; exit 1; }
grep -vxF "$row" "$doc" >"$t/doc.md"
gpu=$(echo "$row" | awk -F' *[|] *' '{ print $2 " " $3 " " $4 " " $5 }')
if python3 "$fit" --check "$t/doc.md" >"$t/out"; then
	echo "fit.py --check passes without the row of $gpu"; exit 1
fi
grep -qF "$gpu: no row in the doc's table" "$t/out" ||
    { echo "fit.py --check does not name $gpu:"; cat "$t/out"; exit 1; }

# A worse model fails: the T4's convolutions with twice the fitted floor.
mkdir "$t/share" && cp -R "$TOP/share/pimflow" "$t/share/pimflow" || exit 1
f=$(awk '$1 == "conv_fixed_ns" { print $3 * 2 }' "$TOP/share/pimflow/gpu/t4.conf")
[ -n "$f" ] || { echo "t4.conf: no conv_fixed_ns"; exit 1; }
sed "s/^conv_fixed_ns = .*/conv_fixed_ns = $f/" "$TOP/share/pimflow/gpu/t4.conf" \
    >"$t/share/pimflow/gpu/t4.conf" || exit 1
if PIMFLOW_SHARE=$t/share/pimflow python3 "$fit" --check "$doc" >"$t/out"; then
	echo "fit.py --check passes with the T4's conv floor doubled"; exit 1
fi
grep -q '^fit.py: T4 fp16 conv kernel-avg: training MAE .* exceeds the doc' "$t/out" ||
    { echo "fit.py --check does not name the T4's fp16 convs:"; cat "$t/out"; exit 1; }

# The shipped error table is current.
python3 "$fit" --err "$t/error.csv" >/dev/null || exit 1
head -1 "$t/error.csv" | grep -qx 'gpu,dtype,class,rows,bias,sys_sd,ind_sd,proxy' ||
    { echo "error.csv: header changed:"; head -1 "$t/error.csv"; exit 1; }
diff "$TOP/share/pimflow/gpu/error.csv" "$t/error.csv" ||
    { echo "share/pimflow/gpu/error.csv is stale: run make gpu-fit"; exit 1; }
