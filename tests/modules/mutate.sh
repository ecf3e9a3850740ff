#!/bin/sh
# tests/modules/map.sh can fail: on a copy of the sources it passes, and each
# breach below, one per rule, makes it fail with the line that names it.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
u=${PF_UNIT:-$TOP/build/unit}
OBJ=${u%/unit}/lib
export OBJ
T=${TMPDIR:-/tmp}/mutate.$$
trap 'rm -rf "$T"' EXIT
mkdir -p "$T" || exit 1
bad=0

# fresh: a copy of lib/, tools/ and the map, times kept (so that only a
# mutated file is newer than its object and compiled again).
fresh() {
	rm -rf "$T/src"
	mkdir -p "$T/src/share/doc" &&
	cp -Rp "$TOP/lib" "$TOP/tools" "$T/src/" &&
	cp -p "$TOP/share/doc/modules.md" "$T/src/share/doc/"
}
# expect NAME PATTERN: map.sh on the copy fails, saying PATTERN.
expect() {
	SRC=$T/src MAP=$T/src/share/doc/modules.md sh "$TOP/tests/modules/map.sh" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] || ! grep -q -- "$2" "$T/out"; then
		echo "FAIL: mutation '$1' not caught (exit $rc, want a line with '$2'):"
		head -5 "$T/out"
		bad=1
	fi
}

fresh || exit 1
if ! SRC=$T/src MAP=$T/src/share/doc/modules.md sh "$TOP/tests/modules/map.sh" >"$T/out" 2>&1; then
	echo "FAIL: the unmutated copy fails:"; head -5 "$T/out"; exit 1
fi

# An export without its module's prefix.
fresh
printf 'int stray_export(void);\nint stray_export(void) { return 0; }\n' >>"$T/src/lib/base/memo.c"
expect export 'lib/base/memo.c: exports stray_export, no module.s prefix'

# An export with another module's prefix.
fresh
printf 'int csvio_stray(void);\nint csvio_stray(void) { return 0; }\n' >>"$T/src/lib/base/memo.c"
expect prefix 'exports csvio_stray, prefix csvio_ is csvio.s, not memo.s'

# An include the map does not allow: base (csvio) reaching into plan.
fresh
sed -i 's/^#include "diag.h"$/#include "diag.h"\n#include "split_geom.h"/' "$T/src/lib/base/csvio.c"
expect include 'lib/base/csvio.c:[0-9]*: includes "split_geom.h": csvio may not use split_geom'

# A tool including another wing past its faces.
fresh
sed -i 's/^#include "solve_merge.h"$/#include "solve_merge.h"\n#include "solve.h"/' "$T/src/tools/pf-merge.c"
expect face 'tools/pf-merge.c:[0-9]*: includes "solve.h", not a face of wing plan'

# A private header outside its module.
fresh
sed -i 's/^#include "memo.h"$/#include "memo.h"\n#include "csvio_arena.h"/' "$T/src/lib/table/layer_cache.c"
expect private 'includes "csvio_arena.h", private to csvio'

# A .c without its module's header.
fresh
sed -i '/^#include "memo.h"$/d' "$T/src/lib/base/memo.c"
expect header 'lib/base/memo.c: does not include its module.s header "memo.h"'

# A file the map does not place.
fresh
printf '#include "diag.h"\n' >"$T/src/lib/base/stray.c"
expect unplaced 'lib/base/stray.c: not in the module map'

# A file past 800 lines.
fresh
awk 'BEGIN { for (i = 0; i < 800; i++) print "/* pad */" }' >>"$T/src/lib/base/jsonw.c"
expect file-length 'lib/base/jsonw.c: [0-9]* lines (over 800)'

# A function past 80 lines.
fresh
{ printf 'int jw_long(void);\nint\njw_long(void)\n{\n\tint x = 0;\n'
  awk 'BEGIN { for (i = 0; i < 80; i++) print "\tx++;" }'
  printf '\treturn x;\n}\n'; } >>"$T/src/lib/base/jsonw.c"
expect function-length 'lib/base/jsonw.c: function jw_long is 85 lines (over 80)'

# An exception that no longer applies.
fresh
printf '| jsonw.c:jw_str | a stale reason |\n' >>"$T/src/share/doc/modules.md"
expect stale 'exception jsonw.c:jw_str no longer applies'

# The map declaring a use that climbs: table using plan.
fresh
sed -i 's/^\(| task | table | task.h | task.c | task_ | [^|]*\)|/\1 split_geom |/' \
    "$T/src/share/doc/modules.md"
expect map-use 'task (table) uses split_geom: wing table may not use wing plan'

# A use that closes a circle: the device model using the estimate above it.
fresh
sed -i 's/^\(| gpu_model | gpu | [^|]*|[^|]*|[^|]*| conf diag gpu_build layer\) |/\1 gpu_layer |/' \
    "$T/src/share/doc/modules.md"
expect module-circle 'modules in a circle: gpu_model -> gpu_layer -> gpu_model'

# Headers in a circle: csvio.h including its private header, which
# includes csvio.h.
fresh
sed -i 's/^#include "nameix.h"$/#include "nameix.h"\n#include "csvio_arena.h"/' "$T/src/lib/base/csvio.h"
expect header-circle 'lib/base/csvio.h: headers in a circle: csvio.h -> csvio_arena.h -> csvio.h'

exit $bad
