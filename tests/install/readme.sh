#!/bin/sh
# The README stays true: every example in it shown as a command and its
# output (an indented line "    $ COMMAND" and the indented lines after
# it) is run, in the order of the README, from a folder that sees the
# source tree's pipelines/, share/ and bin/ as the top of the tree does,
# and must print exactly those lines (stdout and stderr together).
. "$TOP/tests/pipeline/common"
need_tools
scratch
cd "$W" || fail "no scratch folder"
ln -s "$TOP/pipelines" "$TOP/share" "$TOP/bin" . || fail "links"
# examples: "C<tab>command" and "O<tab>output line" lines, in order.
awk '/^    \$ / { sub(/^    \$ /, ""); print "C\t" $0; inex = 1; next }
    inex && /^    / { sub(/^    /, ""); print "O\t" $0; next }
    { inex = 0 }' "$TOP/README.md" >"$W/examples"
n=$(grep -c '^C' "$W/examples")
[ "$n" -ge 4 ] || fail "only $n examples found in README.md"
i=0
while IFS= read -r line; do
	case $line in
	C*)
		i=$((i + 1))
		printf '%s\n' "${line#C	}" >"$W/cmd.$i"
		: >"$W/want.$i" ;;
	O*) printf '%s\n' "${line#O	}" >>"$W/want.$i" ;;
	esac
done <"$W/examples"
k=1
while [ $k -le $i ]; do
	sh "$W/cmd.$k" >"$W/got.$k" 2>&1
	cmp -s "$W/want.$k" "$W/got.$k" ||
	    fail "README example '$(cat "$W/cmd.$k")' prints otherwise:
$(diff "$W/want.$k" "$W/got.$k" | head -10)"
	k=$((k + 1))
done
echo "$i README examples print what the README shows"
