#!/bin/sh
# The shipped GPU configs' error on their training set
# (share/pimflow/gpu/train) never exceeds what share/doc/gpu-model.md
# states, per GPU, precision and timing class; and the check itself fails
# when a row of the doc's table is missing.
set -u
command -v python3 >/dev/null || { echo "no python3" >&2; exit 1; }
python3 "$TOP/tests/gpu-fit/fit.py" --check "$TOP/share/doc/gpu-model.md"
