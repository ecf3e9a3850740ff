#!/bin/sh
# The code against its module map (share/doc/modules.md): every file of lib/
# placed in its wing's folder by the map; every .c including its module's
# header; every include of lib/ and tools/ one the map allows (the module's
# uses, and a use across wings only through a face); every symbol an object
# of lib/ exports carrying its module's prefix (nm of the build's objects);
# no file past 800 lines and no function past 80 but the map's exceptions,
# and no exception that no longer applies; no circle among the modules' uses
# (the map's) or the headers' includes.  One line per breach:
#   map: FILE[:LINE]: what
# MAP, SRC and OBJ (a build's lib/ objects) may name others, for the
# mutation checks of tests/modules/mutate.sh.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
MAP=${MAP:-$TOP/share/doc/modules.md}
SRC=${SRC:-$TOP}
# The objects of the build that made PF_UNIT (build/unit -> build/lib).
if [ -z "${OBJ:-}" ]; then
	u=${PF_UNIT:-$TOP/build/unit}
	OBJ=${u%/unit}/lib
fi
T=${TMPDIR:-/tmp}/map.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
[ -f "$MAP" ] || { echo "map: $MAP: missing"; exit 1; }

# The map's tables, one record a line: wings "W wing uses faces",
# modules "M module wing header private sources prefixes uses",
# exceptions "X name"; fields joined by tabs, lists by spaces.
awk -F'|' '
function trim(s) { gsub(/^[ \t`]+|[ \t`]+$/, "", s); gsub(/`/, "", s); return s }
/^## / { sec = $0; next }
/^\|/ && !/^\|[- |]*$/ {
	if (sec ~ /Wings/ && NF >= 5 && trim($2) != "wing")
		printf "W\t%s\t%s\t%s\n", trim($2), trim($3), trim($4)
	else if (sec ~ /Modules/ && NF >= 9 && trim($2) != "module") {
		h = trim($4); priv = ""
		if (match(h, /\(private [^)]*\)/)) {
			priv = substr(h, RSTART + 9, RLENGTH - 10)
			h = trim(substr(h, 1, RSTART - 1))
		}
		printf "M\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", trim($2), trim($3), h,
		    priv, trim($5), trim($6), trim($7)
	} else if (sec ~ /Exceptions/ && NF >= 4 && trim($2) != "exception")
		printf "X\t%s\n", trim($2)
}' "$MAP" >"$T/map" || exit 1
grep -q '^M' "$T/map" || { echo "map: $MAP: no module table"; exit 1; }

# Every file under lib/ and tools/*.c, as "path".
(cd "$SRC" && find lib -type f \( -name '*.c' -o -name '*.h' \) | sort) >"$T/libfiles"
(cd "$SRC" && ls tools/*.c 2>/dev/null) >"$T/tools"

# includes: "path line header" for every #include "..." of lib/ and tools/.
(cd "$SRC" && cat "$T/libfiles" "$T/tools" | xargs awk '
/^[ \t]*#[ \t]*include[ \t]*"/ {
	h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
	print FILENAME, FNR, h }') >"$T/incl"

# exports: "path symbol" from nm of each lib .c's object (compiled here when
# the build has none or an older one).
incs=""
for d in "$SRC"/lib/*/; do incs="$incs -I$d"; done
gen=${OBJ%/lib}/gen
: >"$T/objs"
n=0
for f in $(grep '\.c$' "$T/libfiles"); do
	o=$OBJ/${f#lib/}
	o=${o%.c}.o
	if [ ! -f "$o" ] || [ "$SRC/$f" -nt "$o" ]; then
		n=$((n + 1))
		o=$T/obj$n.o
		# shellcheck disable=SC2086
		${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -DSHAREDIR='""' \
		    $incs -I"$SRC/lib" -I"$gen" -c -o "$o" "$SRC/$f" 2>"$T/cc.err" || {
			echo "map: $f: does not compile for nm: $(head -1 "$T/cc.err")"
			echo 1 >"$T/bad"; continue; }
	fi
	echo "$o $f" >>"$T/objs"
done
# nm -A: "object:address type symbol", the object mapped back to its source;
# names with two underscores are the compiler's (a sanitizer's __odr_asan.*).
# shellcheck disable=SC2046
nm -A -g --defined-only $(cut -d' ' -f1 "$T/objs") 2>/dev/null |
    awk 'NR == FNR { src[$1] = $2; next }
	NF >= 3 && $NF !~ /^__/ { o = $1; sub(/:[^:]*$/, "", o); print src[o], $NF }' "$T/objs" - >"$T/syms"

# function lengths: "path name lines", style(9) shape (name at column 0,
# body from "{" to "}" at column 0); file lengths: "path lines".
(cd "$SRC" && grep '\.c$' "$T/libfiles"; cat "$T/tools") | (cd "$SRC" && xargs awk '
/^[A-Za-z_][A-Za-z0-9_]*\(/ { name = $0; sub(/\(.*/, "", name); start = FNR; next }
/^\{/ { if (name != "") open = 1; next }
/^\}/ { if (open && name != "") print FILENAME, name, FNR - start + 1
	open = 0; name = ""; next }') >"$T/funcs"
(cd "$SRC" && cat "$T/libfiles" "$T/tools" | xargs wc -l | grep -v ' total$') >"$T/lens"

awk -v T="$T" -v mapname="${MAP#"$SRC"/}" '
function base(p) { sub(/.*\//, "", p); return p }
function folder(p) { sub(/\/[^\/]*$/, "", p); sub(/^lib\//, "", p); return p }
FILENAME == T "/map" {
	split($0, a, "\t")
	if (a[1] == "W") {
		wing[a[2]] = 1; mayuse[a[2]] = " " a[3] " "
		if (a[4] == "all") allface[a[2]] = 1
		else { n = split(a[4], fs, " "); for (i = 1; i <= n; i++) face[fs[i]] = 1 }
	} else if (a[1] == "M") {
		m = a[2]; mwing[m] = a[3]; hdr[m] = a[4]; morder[++nmod] = m
		if (a[4] in hmod) err(mapname, "header " a[4] " in two modules")
		hmod[a[4]] = m; hwing[a[4]] = a[3]
		n = split(a[5], ps, " ")
		for (i = 1; i <= n; i++) { hmod[ps[i]] = m; hwing[ps[i]] = a[3]; priv[ps[i]] = m }
		n = split(a[6], ss, " ")
		for (i = 1; i <= n; i++) if (ss[i] != "-") {
			if (ss[i] in smod) err(mapname, "source " ss[i] " in two modules")
			smod[ss[i]] = m
		}
		n = split(a[7], ps, " ")
		for (i = 1; i <= n; i++) {
			if (ps[i] in pmod) err(mapname, "prefix " ps[i] " in two modules")
			pmod[ps[i]] = m
		}
		uses[m] = " " a[8] " "
	} else if (a[1] == "X") { exc[a[2]] = 1 }
	next
}
FILENAME == T "/libfiles" {
	b = base($1); f = folder($1)
	m = (b ~ /\.c$/) ? smod[b] : hmod[b]
	if (b ~ /\.h$/) { hpath[b] = $1; horder[++nh] = b }
	if (m == "") { err($1, "not in the module map"); next }
	if (f != mwing[m]) err($1, "module " m " is wing " mwing[m] ", not in lib/" mwing[m] "/")
	if (b ~ /\.c$/) { need[$1] = hdr[m] }
	next
}
FILENAME == T "/incl" {
	path = $1; h = $3; b = base(path)
	if (path ~ /^tools\//) {
		if (!(h in hmod)) { err(path ":" $2, "includes \"" h "\", no module'"'"'s header"); next }
		w = hwing[h]
		if (!(w in allface) && !(h in face) || (h in priv))
			err(path ":" $2, "includes \"" h "\", not a face of wing " w)
		next
	}
	if (path in need && h == need[path]) have[path] = 1
	if (b ~ /\.h$/ && (h in hmod) && h != b) hinc[b] = hinc[b] " " h
	m = (b ~ /\.c$/) ? smod[b] : hmod[b]
	if (m == "") next
	if (!(h in hmod)) { err(path ":" $2, "includes \"" h "\", no module'"'"'s header"); next }
	hm = hmod[h]
	if (hm == m) next
	if (h in priv) { err(path ":" $2, "includes \"" h "\", private to " priv[h]); next }
	if (index(uses[m], " " hm " ") == 0) {
		err(path ":" $2, "includes \"" h "\": " m " may not use " hm " (map: uses)"); next
	}
	next
}
FILENAME == T "/syms" {
	path = $1; s = $2; m = smod[base(path)]
	if (m == "") next
	best = ""
	for (p in pmod) if (index(s, p) == 1 && length(p) > length(best)) best = p
	if (best == "") err(path, "exports " s ", no module'"'"'s prefix (" m ": " prefixes(m) ")")
	else if (pmod[best] != m)
		err(path, "exports " s ", prefix " best " is " pmod[best] "'"'"'s, not " m "'"'"'s")
	next
}
FILENAME == T "/funcs" {
	k = base($1) ":" $2
	if ($3 > 80) { if (k in exc) used[k] = 1; else err($1, "function " $2 " is " $3 " lines (over 80)") }
	next
}
FILENAME == T "/lens" {
	k = base($2)
	if ($1 > 800) { if (k in exc) used[k] = 1; else err($2, $1 " lines (over 800)") }
	next
}
function prefixes(m,   p, s) { s = ""; for (p in pmod) if (pmod[p] == m) s = s " " p; return substr(s, 2) }
function err(w, what) { print "map: " w ": " what; bad = 1 }
# circle(G, V): a depth-first walk of graph G ("M" the uses of modules, "H"
# the includes of headers) from V; each edge that closes a circle reports
# the circle once, from the node where it is entered.
function circle(g, v,   n, i, ws, w, j, s) {
	col[g, v] = 1; stk[++sp] = v
	n = split(g == "M" ? uses[v] : hinc[v], ws, " ")
	for (i = 1; i <= n; i++) {
		w = ws[i]
		if (w == "-" || w == v) continue
		if (col[g, w] == 1) {
			for (j = sp; stk[j] != w; j--) ;
			s = w
			for (j++; j <= sp; j++) s = s " -> " stk[j]
			if (g == "M") err(mapname, "modules in a circle: " s " -> " w)
			else err(hpath[w], "headers in a circle: " s " -> " w)
		} else if (col[g, w] == 0) circle(g, w)
	}
	sp--; col[g, v] = 2
}
END {
	# No circle among the modules (a use climbs back) or the headers.
	for (i = 1; i <= nmod; i++) if (col["M", morder[i]] == 0) circle("M", morder[i])
	for (i = 1; i <= nh; i++) if (col["H", horder[i]] == 0) circle("H", horder[i])
	# The map itself: each declared use within the wing rules.
	for (m in uses) {
		n = split(uses[m], us, " ")
		for (i = 1; i <= n; i++) {
			u = us[i]
			if (u == "-") continue
			if (!(u in mwing)) { err(mapname, m " uses " u ", no such module"); continue }
			w = mwing[m]; uw = mwing[u]
			if (uw == w) continue
			if (index(mayuse[w], " " uw " ") == 0)
				err(mapname, m " (" w ") uses " u ": wing " w " may not use wing " uw)
			else if (!(uw in allface) && !(hdr[u] in face))
				err(mapname, m " (" w ") uses " u ": not a face of wing " uw)
		}
	}
	for (f in need) if (!(f in have)) err(f, "does not include its module'"'"'s header \"" need[f] "\"")
	for (k in exc) if (!(k in used)) err(mapname, "exception " k " no longer applies: drop it")
	exit bad
}' "$T/map" "$T/libfiles" "$T/incl" "$T/syms" "$T/funcs" "$T/lens" || echo 1 >"$T/bad"
[ ! -f "$T/bad" ]
