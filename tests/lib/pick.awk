# The one helper the tests use to address CSV columns by name (never by
# position), RFC 4180 quotes understood.  awk -f pick.awk with:
#   -v cols=a,b,c    print these columns, in this order (default: all)
#   -v drop=a,b      print every column but these
#   -v where=x -v is=v   only rows whose column x equals v
#   -v body=1        leave out the header line
#   -v sep=' '       output separator (default ",")
#   -v set=x -v to=v -v at=N   replace column x by v on line N (1 = header)
# Fields are written as they were read (quotes included).  A named column
# that is not in the header is an error (exit 1), so a renamed or moved
# column fails the test that uses it.
function fields(line, f,    n, i, c, q, cur) {
	if (index(line, "\"") == 0)
		return split(line, f, ",")
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c c; i++ }
		else if (c == "\"") { q = !q; cur = cur c }
		else if (c == "," && !q) { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}
function col(name) {
	if (!(name in c)) {
		print "pick.awk: no column '" name "'" > "/dev/stderr"
		bad = 1
		exit 1
	}
	return c[name]
}
BEGIN { if (sep == "") sep = "," }
NR == 1 {
	nh = fields($0, h)
	for (i = 1; i <= nh; i++) c[h[i]] = i
	if (cols != "") n = split(cols, w, ",")
	else for (i = 1; i <= nh; i++) w[++n] = h[i]
	if (drop != "") {
		nd = split(drop, d, ",")
		for (i = 1; i <= nd; i++) { col(d[i]); dropped[d[i]] = 1 }
		m = 0
		for (i = 1; i <= n; i++) if (!(w[i] in dropped)) w2[++m] = w[i]
		n = m
		for (i = 1; i <= n; i++) w[i] = w2[i]
	}
	for (i = 1; i <= n; i++) k[i] = col(w[i])
	if (where != "") wk = col(where)
	if (set != "") sk = col(set)
}
{
	fields($0, f)
	if (set != "" && NR == at + 0) f[sk] = to
	if (NR == 1 ? body != "" : where != "" && f[wk] != is)
		next
	line = ""
	for (i = 1; i <= n; i++) line = line (i > 1 ? sep : "") f[k[i]]
	print line
}
END { exit bad }
