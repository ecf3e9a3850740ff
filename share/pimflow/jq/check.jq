# true when a pf-solve summary has every field of pf-formats(7) that
# pimflow reads (def check in pf.jq).  Run with jq -L share/pimflow/jq -e.
include "pf";
check
