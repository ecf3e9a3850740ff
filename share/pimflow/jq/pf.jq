# Definitions shared by the pimflow jq filters (jq -L share/pimflow/jq).
# check: true when a pf-solve summary (pf-formats(7)) has every field
# pimflow, the table and the plots read: model, machine.gpu_clock_mhz, and
# the six policies in order (then attn-pim for decoder models), each with numeric ns, gpu_cycles, speedup,
# fixed_ns, fixed_speedup, a boolean chose_none and a layers count per kind.
def num: type == "number";
def check:
(.model | type == "string")
and (.machine.gpu_clock_mhz | num)
and ([.policies[].policy] | .[:6] == ["none", "newton+", "newton++", "mddp", "pipeline", "pimflow"]
	and (length == 6 or .[6:] == ["attn-pim"]))
and all(.policies[];
	(.ns | num) and (.gpu_cycles | num) and (.speedup | num)
	and (.chose_none | type == "boolean") and (.fixed_ns | num) and (.fixed_speedup | num)
	and ([.layers[]?] | length == 5 and all(num))
	and (.layers | has("base") and has("gpu") and has("pim") and has("split") and has("pipe")));
