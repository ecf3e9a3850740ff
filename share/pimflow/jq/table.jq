# The policy table pimflow prints: one row per policy of a pf-solve summary
# (pf-formats(7)), times in microseconds and GPU-clock cycles, speedup over
# the GPU-only plan, and where the layers went; then a note for each policy
# whose own (partitioned) plan lost to the GPU alone, so that it runs none's.  Run with jq -r; fails
# (exit 5) when the summary lacks a field check asks for (pf.jq).  Needs
# jq -L share/pimflow/jq.
include "pf";
def lpad($n): tostring | if length >= $n then . else (" " * ($n - length)) + . end;
def rpad($n): tostring | if length >= $n then . else . + (" " * ($n - length)) end;
def fix($d): . * pow(10; $d) | round | tostring
	| if $d == 0 then . else
	    (if length <= $d then ("0" * ($d - length + 1)) + . else . end)
	    | .[:length - $d] + "." + .[length - $d:] end;
def row: "\(.[0] | rpad(9)) \(.[1] | lpad(12)) \(.[2] | lpad(12)) \(.[3] | lpad(8))  \(.[4])";
if check | not then error("summary.json lacks the fields of pf-formats(7)") else . end |
"model \(if .model == "" then "-" else .model end), GPU clock \(.machine.gpu_clock_mhz) MHz",
(["policy", "time_us", "gpu_cycles", "speedup", "layers gpu/pim/split/pipe"] | row),
(.policies[] | [.policy, (.ns / 1000 | fix(1)), (.gpu_cycles | fix(0)),
	(.speedup | fix(3)),
	"\(.layers.base + .layers.gpu)/\(.layers.pim)/\(.layers.split)/\(.layers.pipe)"] | row)
	,
(.policies[] | select(.chose_none == true) |
	"note: \(.policy): its own plan (speedup \(.fixed_speedup | fix(3))) is slower than the GPU alone with every channel; it runs the none plan (pimflow -F keeps its own)")
