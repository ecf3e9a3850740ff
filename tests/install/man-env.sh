#!/bin/sh
# No hidden channels: every environment variable the C sources read
# (getenv("NAME") in lib/ and tools/) is named (.It Ev NAME) in the
# ENVIRONMENT section of the page of every tool whose binary holds that
# name (a module of the static library is linked only where it is used),
# and every variable the drivers read is in pimflow(1)'s.
. "$TOP/tests/pipeline/common"
need_tools
bad=0
vars=$(grep -ho 'getenv("[A-Z_][A-Z_0-9]*")' "$TOP"/lib/*.c "$TOP"/lib/*/*.c "$TOP"/tools/*.c 2>/dev/null |
    sed 's/getenv("\(.*\)")/\1/' | sort -u)
[ -n "$vars" ] || fail "no getenv found: the test lost its point"
# envsec PAGE: the variables its ENVIRONMENT section names
envsec() { awk '/^\.Sh / { on = ($2 == "ENVIRONMENT") } on && /^\.It Ev / { print $3 }' "$1"; }
for t in "$PF_BIN"/*; do
	n=${t##*/}
	for v in $vars; do
		grep -aq "$v" "$t" || continue
		envsec "$TOP/share/man/man1/$n.1" | grep -qx "$v" && continue
		echo "$n reads $v, which $n(1) ENVIRONMENT does not name"
		bad=1
	done
done
# the drivers: ${NAME...} of the variables pimflow documents as its own
for v in $(grep -ho '\${PIMFLOW_[A-Z_]*' "$TOP"/pipelines/pimflow "$TOP"/pipelines/pf-paths.sh |
    sed 's/\${//' | sort -u); do
	envsec "$TOP/share/man/man1/pimflow.1" | grep -qx "$v" && continue
	echo "pimflow reads $v, which pimflow(1) ENVIRONMENT does not name"
	bad=1
done
exit $bad
