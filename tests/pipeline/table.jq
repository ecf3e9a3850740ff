# The policy table pimflow prints: one row per policy of a pf-solve summary
# (pf-formats(7)), times in microseconds and GPU-clock cycles, speedup over
# the GPU-only plan, and where the layers went (with energy: the plan's
# energy in microjoules, its ratio to the GPU-only plan's and the average
# power); then a note for each policy whose own (partitioned) plan lost to
# the GPU alone, so that it runs none's, and one for layers costed by
# bytes only (summary field bytes_only_layers).  Run with jq -r; fails (exit 5) when the summary lacks a field check asks for (pf.jq).  Needs
# jq -L share/pimflow/jq.
include "pf";
def lpad($n): tostring | if length >= $n then . else (" " * ($n - length)) + . end;
def rpad($n): tostring | if length >= $n then . else . + (" " * ($n - length)) end;
def fix($d): . * pow(10; $d) | round | tostring
	| if $d == 0 then . else
	    (if length <= $d then ("0" * ($d - length + 1)) + . else . end)
	    | .[:length - $d] + "." + .[length - $d:] end;
def row: "\(.[0] | rpad(9)) \(.[1] | lpad(12)) \(.[2] | lpad(12)) \(.[3] | lpad(8))"
	+ (if length > 5 then " \(.[5] | lpad(10)) \(.[6] | lpad(7)) \(.[7] | lpad(8))" else "" end)
	+ "  \(.[4])";
# energy columns when the summary has them (an energy config for the GPU)
def en($p): if $p.energy_nj == null then [] else
	[($p.energy_nj / 1000 | fix(1)), ($p.energy_ratio | fix(3)), ($p.power_w | fix(2))] end;
if check | not then error("summary.json lacks the fields of pf-formats(7)") else . end |
(.objective // "time") as $obj |
"model \(if .model == "" then "-" else .model end), GPU clock \(.machine.gpu_clock_mhz) MHz, objective \($obj)\(if .power_cap_w then ", power cap \(.power_cap_w) W" else "" end)",
(["policy", "time_us", "gpu_cycles", "speedup", "layers gpu/pim/split/pipe"]
	+ (if .policies[0].energy_nj == null then [] else ["energy_uJ", "e_ratio", "power_W"] end) | row),
(.policies[] | [.policy, (.ns / 1000 | fix(1)), (.gpu_cycles | fix(0)),
	(.speedup | fix(3)),
	"\(.layers.base + .layers.gpu)/\(.layers.pim)/\(.layers.split)/\(.layers.pipe)"] + en(.) | row)
	,
# decoder models: per decode step
(if .policies[0].decode == null then empty else
	"per decode step (\(.policies[0].decode.tokens) tokens): time_us tokens/s, shares of attention / fc / rest",
	(.policies[] | "\(.policy | rpad(9)) \(.decode.step_ns / 1000 | fix(1) | lpad(10)) \(.decode.tokens_per_s | fix(0) | lpad(10))  \(.decode.attn_share * 100 | fix(1))% / \(.decode.fc_share * 100 | fix(1))% / \(.decode.rest_share * 100 | fix(1))%")
	end),
(.policies[] | select(.over_cap == true) |
	"note: \(.policy): no plan keeps the power cap; its best plan without it is shown"),
(.policies[] | select(.chose_none == true) |
	"note: \(.policy): its own plan (speedup \(.fixed_speedup | fix(3))\(if .fixed_energy_ratio == null then "" else ", energy ratio \(.fixed_energy_ratio | fix(3))" end)) is worse under -O \($obj) than the GPU alone with every channel; it runs the none plan (pimflow -F keeps its own)"),
(if (.bytes_only_layers // 0) > 0 then
	"note: \(.bytes_only_layers) layer\(if .bytes_only_layers > 1 then "s" else "" end) of op other (data movement, ops kept with onnx2layers -k) costed by bytes only (costed = bytes in plan.csv)"
	else empty end)
