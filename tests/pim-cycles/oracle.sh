#!/bin/sh
# The streams pim-cycles -T writes, re-timed line by line by an
# independent Python implementation of share/doc/newton-timing.md §4 (oracle.py), give
# the cycles and command counts pim-cycles reports.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3"; exit 77; }
tmp=${TMPDIR:-/tmp}/pimoracle.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
for c in reference geometry gemm trace-counts fill; do
	opt= hid=1
	# fill's empty fields take -n 16 -g 1 -x
	[ $c = fill ] && opt="-n 16 -g 1 -x" hid=0
	pim-cycles $opt -T "$tmp/t.pim" "$TOP/tests/pim-cycles/$c/in" >"$tmp/out" || exit 1
	echo "== $c"
	/usr/bin/python3 "$TOP/tests/pim-cycles/oracle.py" "$tmp/out" "$tmp/t.pim" $hid || exit 1
done
