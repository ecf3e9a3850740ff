# Print the named columns (-v cols=a,b,c) of a CSV without quoted fields,
# optionally only rows whose column `where` equals `is`.
BEGIN { FS = OFS = ","; n = split(cols, want, ",") }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
NR == 1 || where == "" || $c[where] == is {
	line = ""
	for (i = 1; i <= n; i++)
		line = line (i > 1 ? OFS : "") $c[want[i]]
	print line
}
