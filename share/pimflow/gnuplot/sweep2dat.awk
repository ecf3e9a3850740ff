# pf-sweep results CSV -> one data file per max n_gwrite value, BASE.gG.dat,
# holding one block per series (model, plus the GPU config when the sweep
# has several), each block a title line then "pim_channels speedup" rows
# of the pimflow policy, blocks separated by two blank lines (gnuplot
# "index"), and BASE.range.gp setting ymin and ymax over all of them.
# Run with awk -F, -v base=BASE.  Result fields are never quoted.
NR == 1 {
	for (i = 1; i <= NF; i++) col[$i] = i
	if (!("model" in col) || !("gpu" in col) || !("max_gwrite" in col) ||
	    !("pim_channels" in col) || !("policy" in col) || !("speedup" in col)) {
		print "sweep2dat: " FILENAME ":1: not a pf-sweep results file" > "/dev/stderr"
		bad = 1; exit 1
	}
	next
}
$col["policy"] == "pimflow" {
	g = $col["max_gwrite"]; gpu = $col["gpu"]
	s = $col["model"] SUBSEP gpu
	if (!((g, s) in seen)) { seen[g, s] = 1; ns[g]++; ser[g, ns[g]] = s }
	if (!(gpu in gpus)) { gpus[gpu] = 1; ngpu++ }
	if (!(g in gs)) { gs[g] = 1; gl[++ng] = g }
	v = $col["speedup"] + 0
	if (!nv || v < lo) lo = v
	if (!nv || v > hi) hi = v
	nv++
	np[g, s]++
	pt[g, s, np[g, s]] = $col["pim_channels"] " " $col["speedup"]
}
END {
	if (bad) exit 1
	# One y range for every panel, so the panels compare at a glance.
	if (!nv) { lo = 1; hi = 1 }
	printf "ymin = %.6g; ymax = %.6g\n", lo, hi > (base ".range.gp")
	close(base ".range.gp")
	for (a = 1; a <= ng; a++) {
		g = gl[a]; f = base ".g" g ".dat"
		printf "" > f
		for (b = 1; b <= ns[g]; b++) {
			s = ser[g, b]; split(s, p, SUBSEP)
			t = (ngpu > 1) ? p[1] " " p[2] : p[1]
			if (b > 1) printf "\n\n" > f
			printf "\"%s\"\n", t > f
			for (c = 1; c <= np[g, s]; c++) print pt[g, s, c] > f
		}
		close(f)
	}
}
