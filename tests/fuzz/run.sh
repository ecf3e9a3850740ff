#!/bin/sh
# make fuzz: builds the libFuzzer harnesses with clang (address and
# undefined-behaviour sanitizers, Debian's libclang-rt-14-dev) against
# lib/*.c and the generated ONNX protobuf code, and runs each for
# FUZZ_SECONDS (default 60) from seed corpora: the bundled models, the
# models under tests/, and the tables.  Corpora and crash reproducers are
# kept in fuzz-out/ (FUZZ_OUT); a crash, leak or hang makes it exit 1.
# fuzz-out/stats gets one line per run: time, harness, seconds, executions,
# exit status.
# Harnesses: fuzz_csv (CSV reader, layer_get), fuzz_onnx (model bytes
# through onnx2layers' library path), fuzz_graph (bytes that build an ONNX
# graph of known ops with odd attributes, same path), fuzz_wire (model
# bytes read with weights stripped and whole: both readings must agree).
# Every harness takes its entry and its table and file plumbing from
# tests/fuzz/fuzz_common.h; fuzz_onnx and fuzz_graph the model path from
# fuzz_model.h.
# Stage harnesses (tests/fuzz/fuzz_stage.h): fuzz_split (layers table ->
# pf-split), fuzz_gpu and fuzz_pim (optional config bytes, a "%%" line,
# a tasks table -> the cost stage), fuzz_merge, fuzz_solve (tables ->
# pf-merge, pf-solve under every policy), each checking that what it
# writes is finite and non-negative; fuzz_chain (structure-aware: bytes
# choose a valid layers table that runs through every stage in process,
# checking that every piece is costed and the policies nest).  Their
# seeds: the golden inputs of each tool and tests/fuzz/seeds/<harness>/
# (the adversarial corpus).
# FUZZ_HARNESS=csv|onnx|graph|wire|split|gpu|pim|merge|solve|chain runs
# only one; FUZZ_BUILD_ONLY=1 builds and links without running (a link
# failure exits 1).  FUZZ_KEEPGOING=1 runs in
# libFuzzer's fork mode, collecting every crash instead of stopping at the
# first (reproducers in fuzz-out/crash-NAME/).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_OUT:-$TOP/fuzz-out}
SECS=${FUZZ_SECONDS:-60}
CC=${FUZZ_CC:-clang}
cd "$TOP" || exit 1
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "fuzz: no $CC (apt-get install clang libclang-rt-14-dev)"; exit 1
fi
make --no-print-directory build/gen/onnx.pb-c.c >/dev/null || exit 1
mkdir -p "$OUT/bin"
FLAGS="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -DSHAREDIR=\"/nonexistent\" \
-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
-fno-omit-frame-pointer $(for d in lib/*/; do printf -- "-I%s " "${d%/}"; done)-Ilib -Ibuild/gen"
LIBS="-lcsv -lprotobuf-c -lm"
# The ONNX harness needs the loader; the CSV one needs no ONNX module.
CSVSRC="lib/base/csvio.c lib/base/csvio_read.c lib/base/csvio_num.c lib/base/csvio_write.c lib/base/csvio_pipe.c lib/base/csvio_stream.c lib/table/layer.c lib/base/nameix.c lib/base/nametab.c lib/base/diag.c lib/base/xalloc.c lib/base/arith.c"
ONNXSRC="$(ls lib/*/*.c lib/*.c 2>/dev/null | grep -v -e '/main\.c$') build/gen/onnx.pb-c.c"

build() {	# name sources...
	name=$1; shift
	echo "fuzz: building $name"
	# shellcheck disable=SC2086
	$CC $FLAGS -o "$OUT/bin/$name.$$" "tests/fuzz/$name.c" "$@" $LIBS ||
		return 1
}

seed() {	# corpus dir, max bytes, files...
	d=$1 max=$2; shift 2
	mkdir -p "$d"
	for f in "$@"; do
		[ -f "$f" ] || continue
		[ "$(wc -c <"$f")" -le "$max" ] || continue
		# Named by content, so that reruns add nothing.
		s=$(cksum <"$f" | cut -d' ' -f1)
		[ -f "$d/seed-$s" ] || cp "$f" "$d/seed-$s"
	done
}

run() {		# name corpus extra-libfuzzer-args...
	name=$1 corpus=$2; shift 2
	if [ -n "${FUZZ_BUILD_ONLY:-}" ]; then
		rm -f "$OUT/bin/$name.$$"
		return 0
	fi
	mkdir -p "$OUT/crash-$name"
	# Own log per run (several runs may share fuzz-out), then the latest.
	log=$OUT/$name.log.$$
	echo "fuzz: running $name for ${SECS}s"
	# shellcheck disable=SC2046
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$OUT/bin/$name.$$" -max_total_time="$SECS" -timeout=10 \
	    $([ -n "${FUZZ_KEEPGOING:-}" ] && echo -fork=1 -ignore_crashes=1 \
	    -ignore_timeouts=1 -ignore_ooms=1) \
	    -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
	    -artifact_prefix="$OUT/crash-$name/" "$@" "$corpus" >"$log" 2>&1
	rc=$?
	mv -f "$log" "$OUT/$name.log"
	log=$OUT/$name.log
	rm -f "$OUT/bin/$name.$$"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	# -fork mode prints no final stats: take the last progress count.
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\):* .*/\1/p' "$log" | tail -1)
	echo "fuzz: $name: exit $rc, ${execs:-?} executions (log $log)"
	echo "$(date -u +%FT%TZ) $name $SECS ${execs:-0} $rc" >>"$OUT/stats"
	[ "$rc" -eq 0 ]
}

fail=0
want() { [ -z "${FUZZ_HARNESS:-}" ] || [ "$FUZZ_HARNESS" = "$1" ]; }
if want csv; then
	# (a reader's buffer of 61 bytes: the inputs cross many of its edges)
	build fuzz_csv -DTABLE_RDBUF=61 $CSVSRC || exit 1
	seed "$OUT/corpus-csv" 8192 tests/*/*/in tests/*/*/out tests/*/*/*.csv \
	    share/pimflow/*/*.csv tests/fuzz/seeds/*.csv
	run fuzz_csv "$OUT/corpus-csv" -dict=tests/fuzz/csv.dict -max_len=8192 ||
	    fail=1
fi
# Model-bytes harnesses: the bundled models, the models under tests/ and
# the light zoo models of ../shared too, when present (not copied into the
# repository, only into the corpus).  Not tests/fuzz/regress: known
# crashers would stop every run at once (regress.sh checks them).
model() {	# harness
	h=$1
	want "$h" || return 0
	build "fuzz_$h" $ONNXSRC || exit 1
	seed "$OUT/corpus-$h" 131072 share/pimflow/models/*.onnx \
	    $(ls tests/*/*/*.onnx tests/*/*/*/*.onnx 2>/dev/null |
	    grep -v '^tests/fuzz/regress/') ../shared/onnx-light/*.onnx
	run "fuzz_$h" "$OUT/corpus-$h" -max_len=131072 || fail=1
}
model onnx
model wire
if want graph; then
	# Structure-aware: the bytes build a graph; no seeds needed.
	build fuzz_graph $ONNXSRC || exit 1
	mkdir -p "$OUT/corpus-graph"
	run fuzz_graph "$OUT/corpus-graph" -max_len=512 -len_control=0 ||
	    fail=1
fi
# Stage harnesses: name, seed files.
stage() {	# harness, seeds...
	h=$1; shift
	want "$h" || return 0
	build "fuzz_$h" $ONNXSRC || { fail=1; return 0; }
	# regress/<harness>/: inputs that once crashed or hung it (fixed)
	seed "$OUT/corpus-$h" 16384 "$@" tests/fuzz/seeds/"$h"/* \
	    tests/fuzz/regress/"$h"/*
	run "fuzz_$h" "$OUT/corpus-$h" -dict=tests/fuzz/csv.dict \
	    -max_len=16384 || fail=1
}
stage split tests/pf-split/*/in tests/onnx2layers/*/out
stage gpu tests/gpu-cycles/*/in tests/pf-split/*/out
stage pim tests/pim-cycles/*/in tests/pf-split/*/out
stage merge tests/pf-merge/*/in tests/pim-cycles/*/out
stage solve tests/pf-solve/*/in
if want chain; then
	build fuzz_chain $ONNXSRC || exit 1
	mkdir -p "$OUT/corpus-chain"
	run fuzz_chain "$OUT/corpus-chain" -max_len=256 || fail=1
fi
exit $fail
