# pf-paths.sh: where the tools and the share folder are, for the bash
# drivers (pimflow, pf-plot, pf-sweep), which source it from their own
# folder after setting $prog and $here (that folder, links resolved):
#
#   self=$(readlink -f -- "${BASH_SOURCE[0]}") here=${self%/*}
#   . "$here/pf-paths.sh"
#
# The share folder (configs, models, jq filters, gnuplot scripts) is
# $PIMFLOW_SHARE, else ../share/pimflow from $here (the source tree's
# pipelines/ and the installed PREFIX/bin both sit beside it); it is made
# absolute and exported, so every tool resolves config names in the same
# folder.  A tool is taken from $PIMFLOW_BIN, then $here (the installed
# tree), then $here/../bin (the source tree), then PATH.  See pimflow(1),
# ENVIRONMENT.

share=${PIMFLOW_SHARE:-${here%/*}/share/pimflow}
[[ $share = /* ]] || share=$PWD/$share
[ -d "$share" ] || {
	echo "$prog: $share: no share folder (set PIMFLOW_SHARE)" >&2
	exit 1
}
export PIMFLOW_SHARE=$share

# tool NAME VAR: VAR = the path of tool NAME; no such tool is an error.
tool() {
	local d p=""
	for d in ${PIMFLOW_BIN:+"$PIMFLOW_BIN"} "$here" "$here/../bin"; do
		if [ -x "$d/$1" ] && [ ! -d "$d/$1" ]; then
			p=$d/$1
			break
		fi
	done
	[ -n "$p" ] || p=$(command -v "$1") || {
		echo "$prog: $1: tool not found in ${PIMFLOW_BIN:+$PIMFLOW_BIN, }$here, $here/../bin or PATH" >&2
		exit 1
	}
	printf -v "$2" '%s' "$p"
}
