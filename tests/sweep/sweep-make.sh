#!/bin/sh
# pipelines/sweep.mk: the same tiny sweep as sweep.sh run by make -j2 (one
# target per point) must give exactly pf-sweep's results CSV, plot included,
# and a second make must find nothing to redo.
. "$TOP/tests/pipeline/common"
need_tools
need_model resnet18_cifar10
scratch
cd "$W" || exit 1
pf-sweep -m resnet18_cifar10 -n 8,24 -g 1,4 -G rtx2060-sim -o "$W/want.csv" 2>"$W/err" ||
    fail "pf-sweep exit $?: $(cat "$W/err")"
make -s -f "$TOP/pipelines/sweep.mk" -j2 OUT=got MODELS=resnet18_cifar10 \
    CHANNELS="8 24" GWRITES="1 4" GPUS=rtx2060-sim >"$W/mk.out" 2>&1 ||
    fail "make -f sweep.mk: $(cat "$W/mk.out")"
cmp -s want.csv got.csv || fail "sweep.mk results differ: $(diff want.csv got.csv | head -5)"
is_png got.png || fail "got.png is not a PNG"
is_svg got.svg || fail "got.svg is not an SVG"
[ "$(ls got.points | wc -l)" -eq 4 ] || fail "want 4 point files: $(ls got.points)"
make -q -f "$TOP/pipelines/sweep.mk" OUT=got MODELS=resnet18_cifar10 \
    CHANNELS="8 24" GWRITES="1 4" GPUS=rtx2060-sim || fail "a second make would redo work"
exit 0
