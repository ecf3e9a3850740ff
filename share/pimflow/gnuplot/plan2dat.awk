# plan.csv (pf-formats(7)) -> one line per layer for plan.gp:
#   index  label  gpu_us  pim_us  gpu_share_pct
# Columns are found by name.  Fields may be quoted (RFC 4180); a quoted
# field holding a line break is not expected in a plan.  Written for any
# POSIX awk (Debian's default is mawk).
function split_csv(line, f,    n, i, c, q, cur) {
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
				else q = 0
			} else cur = cur c
		} else if (c == "\"") q = 1
		else if (c == ",") { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}
BEGIN { need = "layer op kind ratio gpu_ns pim_ns"; bad = 0 }
{ sub(/\r$/, "") }
NR == 1 {
	nc = split_csv($0, h)
	for (i = 1; i <= nc; i++) col[h[i]] = i
	m = split(need, w, " ")
	for (i = 1; i <= m; i++)
		if (!(w[i] in col)) {
			printf "plan2dat: %s:1: missing column '%s'\n", FILENAME, w[i] > "/dev/stderr"
			bad = 1; exit 1
		}
	next
}
{
	split_csv($0, f)
	r = f[col["ratio"]]
	k = f[col["kind"]]
	# GPU share of the layer: the split ratio; whole-layer kinds by device.
	if (r == "") r = (k == "pim") ? 0 : 100
	printf "%d\t%s:%s\t%.6f\t%.6f\t%s\n", NR - 2, f[col["layer"]], f[col["op"]],
	    f[col["gpu_ns"]] / 1000, f[col["pim_ns"]] / 1000, r
}
END { if (bad) exit 1 }
