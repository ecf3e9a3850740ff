#!/bin/sh
# The shipped GPU configs' error on their training set
# (share/pimflow/gpu/train) never exceeds what share/doc/gpu-model.md
# states, per GPU, precision and timing class; and the check itself fails
# when a row of the doc's table is missing (shown here on a copy of the
# doc without its first row).
set -u
command -v python3 >/dev/null || { echo "no python3" >&2; exit 1; }
doc=$TOP/share/doc/gpu-model.md
python3 "$TOP/tests/gpu-fit/fit.py" --check "$doc" || exit 1
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
row=$(grep -m1 '^| .* % |' "$doc")
[ -n "$row" ] || { echo "no table row in $doc"; exit 1; }
grep -vxF "$row" "$doc" >"$t/doc.md"
gpu=$(echo "$row" | awk -F' *[|] *' '{ print $2 " " $3 " " $4 }')
if python3 "$TOP/tests/gpu-fit/fit.py" --check "$t/doc.md" >"$t/out"; then
	echo "fit.py --check passes without the row of $gpu"; exit 1
fi
grep -qF "$gpu: no row in the doc's table" "$t/out" ||
    { echo "fit.py --check does not name $gpu:"; cat "$t/out"; exit 1; }
