#!/bin/sh
# The CSV fuzz harness links: it names its lib/ modules by hand (the
# others take every lib/*.c), so a module split off csvio must be added
# there.  Built with clang and libFuzzer as make fuzz builds it, not run.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
FUZZ_OUT=$out FUZZ_BUILD_ONLY=1 FUZZ_HARNESS=csv sh "$TOP/tests/fuzz/run.sh" >"$out/log" 2>&1 ||
	{ echo "FAIL: fuzz_csv does not build:"; tail -5 "$out/log"; exit 1; }
exit 0
