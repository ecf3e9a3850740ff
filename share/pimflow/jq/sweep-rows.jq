# One pf-sweep results row per policy of a pf-solve summary: model, gpu,
# pim_config, pim_channels, max_gwrite (from --arg m, gpu, pc, n, g), policy,
# ns, gpu_cycles, speedup.  Run with jq -r.
.policies[] | [$m, $gpu, $pc, $n, $g, .policy, .ns, .gpu_cycles, .speedup] | map(tostring) | join(",")
