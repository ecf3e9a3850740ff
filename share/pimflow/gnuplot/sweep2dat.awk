# pf-sweep results CSV -> one data file per GPU config and max n_gwrite,
# BASE.<i>.g<G>.dat (i = the GPU's position in the results, from 1), each
# holding one block per model: a title line, then "pim_channels speedup
# p05 p95" rows of the pimflow policy (p05 and p95 the error band's,
# speedup_p05 and speedup_p95; the speedup itself without them); blocks are separated by two blank lines
# (gnuplot "index").  Also BASE.range.gp, setting ymin and ymax over all
# panels, xmin and xmax, and gpus (the GPU names in order, space separated)
# for sweep.gp.  With an objective (dtype) column, only the rows of the
# first objective (dtype) are drawn.
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
	if ("objective" in col) {
		if (obj1 == "") obj1 = $col["objective"]
		if ($col["objective"] != obj1) next
	}
	if ("dtype" in col) {
		if (dt1 == "") dt1 = $col["dtype"]
		if ($col["dtype"] != dt1) next
	}
	g = $col["max_gwrite"]; gpu = $col["gpu"]; m = $col["model"]
	if (!(gpu in gi)) { gi[gpu] = ++ngpu; gname[ngpu] = gpu }
	p = gi[gpu] SUBSEP g
	if (!((p, m) in seen)) { seen[p, m] = 1; nm[p]++; mod[p, nm[p]] = m }
	if (!(g in gs)) { gs[g] = 1; gl[++ng] = g }
	v = $col["speedup"] + 0
	b0 = b1 = $col["speedup"]
	if ("speedup_p05" in col && $col["speedup_p05"] != "") {
		b0 = $col["speedup_p05"]; b1 = $col["speedup_p95"]
	}
	if (!nv || v < lo) lo = v
	if (!nv || v > hi) hi = v
	if (b0 + 0 < lo) lo = b0 + 0
	if (b1 + 0 > hi) hi = b1 + 0
	x = $col["pim_channels"] + 0
	if (!nv || x < xlo) xlo = x
	if (!nv || x > xhi) xhi = x
	nv++
	np[p, m]++
	pt[p, m, np[p, m]] = $col["pim_channels"] " " $col["speedup"] " " b0 " " b1
}
END {
	if (bad) exit 1
	# One y range for every panel, so the panels compare at a glance.
	if (!nv) { lo = 1; hi = 1; xlo = 0; xhi = 1 }
	names = ""
	for (k = 1; k <= ngpu; k++) names = names (k > 1 ? " " : "") gname[k]
	printf "ymin = %.6g; ymax = %.6g; xmin = %.6g; xmax = %.6g; gpus = \"%s\"\n", \
	    lo, hi, xlo, xhi, names > (base ".range.gp")
	close(base ".range.gp")
	for (k = 1; k <= ngpu; k++)
		for (a = 1; a <= ng; a++) {
			p = k SUBSEP gl[a]; f = base "." k ".g" gl[a] ".dat"
			printf "" > f
			for (b = 1; b <= nm[p]; b++) {
				m = mod[p, b]
				if (b > 1) printf "\n\n" > f
				printf "\"%s\"\n", m > f
				for (c = 1; c <= np[p, m]; c++) print pt[p, m, c] > f
			}
			close(f)
		}
}
