# pf-sweep -B/-L results (decode.csv) to plot data for decode.gp: for the
# first model, GPU, PIM config and dtype, base.dP.B.dat holds "context
# tokens/s speedup" of policy P (its index in first-seen order) at batch
# B, and base.dvars.gp the policy and batch lists, the speedup range of
# all panels (slo, shi) and the title.
BEGIN { OFS = " " }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
NR == 2 { m = $c["model"]; g = $c["gpu"]; p = $c["pim_config"]
	dt = ("dtype" in c) ? $c["dtype"] : "" }
$c["model"] != m || $c["gpu"] != g || $c["pim_config"] != p { next }
("dtype" in c) && $c["dtype"] != dt { next }
{
	pol = $c["policy"]; b = $c["batch"]
	if (!(pol in pi)) { pi[pol] = ++np; pols = pols (np > 1 ? " " : "") pol }
	if (!(b in bi)) { bi[b] = 1; bats = bats (bats != "" ? " " : "") b }
	v = $c["speedup"] + 0
	if (!nv || v < slo) slo = v
	if (!nv || v > shi) shi = v
	nv++
	f = base ".d" pi[pol] "." b ".dat"
	print $c["context"], $c["tokens_per_s"], $c["speedup"] >f
}
END {
	if (np == 0) exit 1
	f = base ".dvars.gp"
	print "pols = \"" pols "\"" >f
	print "bats = \"" bats "\"" >f
	# one speedup range for every panel, 1 always inside it
	print "slo = " (slo < 1 ? slo : 1) / 1.25 >f
	print "shi = " (shi > 1 ? shi : 1) * 1.25 >f
	print "ttl = \"" m " on " g " + " p (dt != "" ? ", " dt : "") ": decode step,\"" >f
	close(f)
}
