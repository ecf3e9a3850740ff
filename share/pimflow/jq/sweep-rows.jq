# One pf-sweep results row per policy of a pf-solve summary: model, gpu,
# pim_config, pim_channels, max_gwrite (from --arg m, gpu, pc, n, g), policy,
# ns, gpu_cycles, speedup, then the summary's objective and the policy's
# energy_nj, power_w and energy_ratio (empty without energy), and the dtype
# (--arg dt), then the error band of the speedup (pimflow -U: the nominal
# plan's p05, p50, p95 and share of samples beating the GPU alone; empty
# without).  Run with jq -r.
(.objective // "time") as $o |
.policies[] | [$m, $gpu, $pc, $n, $g, .policy, .ns, .gpu_cycles, .speedup, $o,
	(.energy_nj // ""), (.power_w // ""), (.energy_ratio // ""), $dt,
	(.band.nominal.p05 // ""), (.band.nominal.p50 // ""),
	(.band.nominal.p95 // ""), (.band.nominal.beats_gpu // "")] |
	map(tostring) | join(",")
