#!/bin/sh
# The project stands alone: the background notes it was built from are not
# shipped, so no tracked file outside share/doc may cite one of them by its
# bare name (devices, pim-timing, hbm-pim-timing, pimflow with a .md suffix);
# citations go to the project's own share/doc documents, and every
# share/doc document cited anywhere must exist.
cd "$TOP" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files >"$TMPDIR/files" || exit 1
else
	find . -path ./.git -prune -o -path ./build -prune -o -path ./bin -prune \
	    -o -type f -print | sed 's|^\./||' >"$TMPDIR/files"
fi
[ -s "$TMPDIR/files" ] || { echo "no files listed"; exit 1; }
# The note names, spelt in pieces so this script does not cite them itself.
md='\.m''d'
notes="(devices|pim-timing|pimflow)$md"
bad=0
while IFS= read -r f; do
	[ -f "$f" ] || continue
	case $f in share/doc/*) continue ;; esac
	grep -IonE "[A-Za-z0-9_./-]*$notes" "$f" 2>/dev/null |
	while IFS=: read -r line tok; do
		case $tok in
		share/doc/*) ;; # existence checked below
		*) echo "$f:$line: cites unshipped note '$tok'" ;;
		esac
	done
done <"$TMPDIR/files" >"$TMPDIR/unshipped"
if [ -s "$TMPDIR/unshipped" ]; then cat "$TMPDIR/unshipped"; bad=1; fi
while IFS= read -r f; do
	[ -f "$f" ] || continue
	grep -IonE "share/doc/[A-Za-z0-9_.-]+$md" "$f" 2>/dev/null |
	while IFS=: read -r line tok; do
		[ -f "$tok" ] || echo "$f:$line: cites missing '$tok'"
	done
done <"$TMPDIR/files" >"$TMPDIR/missing"
if [ -s "$TMPDIR/missing" ]; then cat "$TMPDIR/missing"; bad=1; fi
exit $bad
