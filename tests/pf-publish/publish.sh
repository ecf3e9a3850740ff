#!/bin/sh
# pf-publish, both ends of pimflow's publishing.
# -b: the lock on standard input is taken without waiting (exit 3 while
# another process holds it, 4 when the path no longer names the locked
# file), then a private folder is made from each template and named on
# stdout, one a line; a folder it cannot make is one line, exit 1, the
# folders made before it and the lock file removed.  Publishing: an existing target is exchanged, a new one
# renamed to; each -r path is then removed with everything in it, links
# not followed, a missing one being no error; a target that is not a
# folder is refused and nothing is removed.
: "${TOP:?run through tests/run.sh}"
PF_BIN=${PF_BIN:-$TOP/bin}
p=$PF_BIN/pf-publish
fail() { echo "FAIL: $*"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/pf-publish.XXXXXX")
trap 'rm -rf "$W"' EXIT

# -b
: >"$W/.r.lock"
t=$("$p" -b "$W/.r.lock" "$W/.r.tmp.XXXXXX" <"$W/.r.lock") || fail "-b: exit $?"
case $t in "$W"/.r.tmp.??????) ;; *) fail "-b: printed '$t'" ;; esac
[ -d "$t" ] || fail "-b: $t not made"
[ "$(stat -c %a "$t")" = 700 ] || fail "-b: $t mode $(stat -c %a "$t")"
flock -n "$W/.r.lock" true || fail "-b: the lock outlived pf-publish though nothing holds the file"
flock "$W/.r.lock" sh -c "'$p' -b '$W/.r.lock' '$W/.r.tmp.XXXXXX' <'$W/.r.lock' >'$W/out' 2>'$W/err'; echo \$? >'$W/rc'"
[ "$(cat "$W/rc")" = 3 ] || fail "-b, lock held: exit $(cat "$W/rc"), want 3"
[ ! -s "$W/out" ] && [ ! -s "$W/err" ] || fail "-b, lock held: said $(cat "$W/out" "$W/err")"
# the lock stays with the open file: a shell holding it on fd 9 keeps it
sh -c "exec 9<'$W/.r.lock'; '$p' -b '$W/.r.lock' '$W/.r.tmp.XXXXXX' <&9 >/dev/null &&
    ! flock -n '$W/.r.lock' true" || fail "-b: the lock ended with pf-publish while its file was still open"
# the path removed, or replaced, after it was opened
sh -c "exec 9<'$W/.r.lock'; rm '$W/.r.lock'; '$p' -b '$W/.r.lock' '$W/.r.tmp.XXXXXX' <&9"
[ $? -eq 4 ] || fail "-b, lock file removed: want exit 4"
: >"$W/.r.lock"
sh -c "exec 9<'$W/.r.lock'; rm '$W/.r.lock'; : >'$W/.r.lock'; '$p' -b '$W/.r.lock' '$W/.r.tmp.XXXXXX' <&9"
[ $? -eq 4 ] || fail "-b, lock file replaced: want exit 4"
"$p" -b "$W/.r.lock" "$W/no/such/.r.tmp.XXXXXX" <"$W/.r.lock" >"$W/out" 2>"$W/err"
[ $? -eq 1 ] || fail "-b, no parent: want exit 1"
[ "$(cat "$W/err")" = "pf-publish: $W/no/such/.r.tmp.XXXXXX: cannot create the folder: No such file or directory" ] ||
    fail "-b, no parent: $(cat "$W/err")"
[ ! -s "$W/out" ] || fail "-b, no parent: stdout $(cat "$W/out")"
[ ! -e "$W/.r.lock" ] || fail "-b, no parent: lock file left"
: >"$W/.r.lock"
"$p" -b "$W/.r.lock" "$W/.r.tmp" <"$W/.r.lock" 2>"$W/err"
[ $? -eq 2 ] || fail "-b, template without XXXXXX: want exit 2"

# publishing over an old result: -r removes it (a nested folder too) and
# the other paths; a link in it is removed, not followed
rm -rf "$W/new" "$W/out"
mkdir -p "$W/new" "$W/r/sub/deeper"
echo new >"$W/new/summary.json"
echo old >"$W/r/summary.json"
echo keep >"$W/outside"
ln -s "$W/outside" "$W/r/link"
ln -s "$W" "$W/r/sub/up"
echo x >"$W/r/sub/deeper/f"
echo s >"$W/new.scratch"
"$p" -r "$W/new" -r "$W/new.scratch" -r "$W/missing" -r "$W/.r.lock" "$W/new" "$W/r" 2>"$W/err" ||
    fail "publish over r: exit $? $(cat "$W/err")"
[ ! -s "$W/err" ] || fail "publish over r: $(cat "$W/err")"
[ "$(cat "$W/r/summary.json")" = new ] || fail "publish over r: r is not the new folder"
for f in new new.scratch .r.lock; do [ ! -e "$W/$f" ] || fail "publish over r: $f left"; done
[ "$(cat "$W/outside")" = keep ] || fail "publish over r: a link was followed"
# into a new target: renamed
mkdir "$W/n2"
"$p" -r "$W/n2" "$W/n2" "$W/fresh" || fail "publish to fresh: exit $?"
[ -d "$W/fresh" ] && [ ! -e "$W/n2" ] || fail "publish to fresh: not renamed"
# a target that is not a folder: refused, nothing removed
mkdir "$W/n3"
echo f >"$W/file"
"$p" -r "$W/n3" "$W/n3" "$W/file" 2>"$W/err"
[ $? -eq 1 ] || fail "publish over a file: want exit 1"
[ "$(cat "$W/err")" = "pf-publish: $W/file: exists and is not a folder: not replaced" ] ||
    fail "publish over a file: $(cat "$W/err")"
[ -d "$W/n3" ] && [ "$(cat "$W/file")" = f ] || fail "publish over a file: something removed"
"$p" 2>/dev/null
[ $? -eq 2 ] || fail "no operands: want exit 2"
"$p" -b "$W/.r.lock" 2>/dev/null
[ $? -eq 2 ] || fail "-b without a template: want exit 2"
# two templates: two folders, named in order; when the second cannot be
# made, the first is removed too, and the lock file
: >"$W/.r.lock"
"$p" -b "$W/.r.lock" "$W/.r.a.XXXXXX" "$W/.r.b.XXXXXX" <"$W/.r.lock" >"$W/out" || fail "-b, two: exit $?"
[ "$(wc -l <"$W/out")" -eq 2 ] && [ -d "$(sed -n 1p "$W/out")" ] && [ -d "$(sed -n 2p "$W/out")" ] ||
    fail "-b, two: $(cat "$W/out")"
case $(cat "$W/out") in "$W/.r.a."??????"
$W/.r.b."??????) ;; *) fail "-b, two: order $(cat "$W/out")" ;; esac
rm -rf "$W"/.r.a.* "$W"/.r.b.*
"$p" -b "$W/.r.lock" "$W/.r.a.XXXXXX" "$W/none/.r.b.XXXXXX" <"$W/.r.lock" >"$W/out" 2>"$W/err"
[ $? -eq 1 ] || fail "-b, second fails: want exit 1"
[ ! -s "$W/out" ] || fail "-b, second fails: printed $(cat "$W/out")"
[ "$(cat "$W/err")" = "pf-publish: $W/none/.r.b.XXXXXX: cannot create the folder: No such file or directory" ] ||
    fail "-b, second fails: $(cat "$W/err")"
! ls -d "$W"/.r.a.* 2>/dev/null || fail "-b, second fails: the first folder left"
[ ! -e "$W/.r.lock" ] || fail "-b, second fails: lock file left"
# -s: both ends in one process (pimflow's coprocess).  The lock taken
# and held (-b or a second -s refuses: 3), the folders made and named;
# SIGTERM and SIGINT ignored; "publish" on its input puts the first
# folder in place of the target (the old one removed), removes the other
# folders and the lock file; the end of its input without that word
# removes the folders and the lock file, the target untouched.
mkfifo "$W/in" "$W/names"
# serve TARGET: started with its input on fd 3 and its names on fd 4
serve() {
	"$p" -s "$W/.s.lock" "$W/.s.tmp.XXXXXX" "$W/.s.sd.XXXXXX" "$1" <"$W/in" >"$W/names" 2>"$W/err" &
	spid=$!
	exec 3>"$W/in" 4<"$W/names"
	read -r sa <&4 && read -r sb <&4 || fail "-s: no names ($(cat "$W/err"))"
	[ -d "$sa" ] && [ -d "$sb" ] || fail "-s: $sa $sb not made"
	case $sa in "$W"/.s.tmp.??????) ;; *) fail "-s: named $sa" ;; esac
}
rm -rf "$W/r"
mkdir "$W/r"
echo old >"$W/r/summary.json"
serve "$W/r"
echo new >"$sa/summary.json"
echo x >"$sb/err0"
"$p" -b "$W/.s.lock" "$W/.s.x.XXXXXX" <"$W/.s.lock"
[ $? -eq 3 ] || fail "-s: the lock is not held"
kill -TERM $spid; kill -INT $spid
printf 'publish\n' >&3
exec 3>&- 4<&-
wait $spid || fail "-s publish: exit $? ($(cat "$W/err"))"
[ "$(cat "$W/r/summary.json")" = new ] || fail "-s publish: r is not the new folder"
! ls -d "$W"/.s.* 2>/dev/null || fail "-s publish: left $(ls -d "$W"/.s.*)"
[ ! -s "$W/err" ] || fail "-s publish: said $(cat "$W/err")"
serve "$W/r"
echo newer >"$sa/summary.json"
exec 3>&- 4<&-
wait $spid || fail "-s abandoned: exit $?"
[ "$(cat "$W/r/summary.json")" = new ] || fail "-s abandoned: r changed"
! ls -d "$W"/.s.* 2>/dev/null || fail "-s abandoned: left $(ls -d "$W"/.s.*)"
: >"$W/.s.lock"
flock "$W/.s.lock" "$p" -s "$W/.s.lock" "$W/.s.tmp.XXXXXX" "$W/r" </dev/null >"$W/out" 2>"$W/err"
[ $? -eq 3 ] || fail "-s, lock held: want exit 3"
# (an empty line and the status: a coprocess's caller reads them)
[ "$(cat "$W/out")" = "
3" ] && [ ! -s "$W/err" ] || fail "-s, lock held: said $(cat "$W/out" "$W/err")"
! ls -d "$W"/.s.tmp.* 2>/dev/null || fail "-s, lock held: a folder made"
rm -f "$W/.s.lock"
exit 0
