#!/bin/sh
# The manual pages read as the README shows them (man -l PAGE, from the
# source tree or the installed one): every page is mdoc whose first request
# is .Dd, or a symbolic link to such a page in the same folder (pf-plot(1)
# and pf-sweep(1) are pimflow(1)); a .so stub fails under man -l, which
# resolves it against the current folder. mandoc -Tlint prints no warning
# (or worse) on any page.
. "$TOP/tests/pipeline/common"
command -v mandoc >/dev/null 2>&1 || skip "mandoc not installed (make deps)"
bad=0
for p in "$TOP"/share/man/man1/* "$TOP"/share/man/man7/*; do
	n=${p#"$TOP"/}
	if [ -L "$p" ]; then
		t=$(readlink "$p")
		case $t in
		*/*) echo "$n: links to '$t', not a page beside it"; bad=1; continue ;;
		esac
		[ -f "${p%/*}/$t" ] || { echo "$n: links to missing '$t'"; bad=1; continue; }
	fi
	first=$(grep -v '^\.\\"' "$p" | head -1)
	case $first in
	.Dd*) ;;
	*) echo "$n: first request '$first', not .Dd"; bad=1 ;;
	esac
	grep -n '^\.so' "$p" | sed "s|^|$n:|" | grep . && bad=1
	mandoc -Tlint -W warning "$p" 2>&1 | sed "s|$TOP/||" | grep . && bad=1
done
exit $bad
