# Sweep with make: every bundled model x PIM channels x max n_gwrite x GPU
# configs, one pimflow run per point (pf-sweep -1), as separate targets so
# that "make -j" runs them concurrently and a rerun redoes only what is
# missing; then one results CSV and its plot (pf-sweep -p).
#
#   make -f pipelines/sweep.mk -j2 [OUT=sweep] [MODELS="resnet18 vgg16"] \
#       [GPUS="rtx2060-sim t4"] [CHANNELS="8 16 24"] [GWRITES="1 2 4"] \
#       [OBJECTIVES="time energy"]
#
# Installed, the file is $(PREFIX)/share/pimflow/sweep.mk and runs the
# pf-sweep found on PATH.  For several machines use pf-sweep -S host1,host2
# (GNU parallel) instead.

HERE := $(dir $(lastword $(MAKEFILE_LIST)))
PFSWEEP = $(if $(wildcard $(HERE)pf-sweep),$(HERE)pf-sweep,pf-sweep)
SHARE = $(if $(wildcard $(HERE)models),$(HERE),$(HERE)../share/pimflow)
MODELS = $(basename $(notdir $(wildcard $(SHARE)/models/*.onnx)))
GPUS = rtx2060-sim
CHANNELS = 8 16 24
GWRITES = 1 2 4
OBJECTIVES = time
PIMCONF = newton-gddr6
OUT = sweep

empty =
space = $(empty) $(empty)
comma = ,
commas = $(subst $(space),$(comma),$(strip $(1)))

# One target per point: OUT.points/model@gpu@channels@gwrite@objective.csv
POINTS = $(foreach m,$(MODELS),$(foreach g,$(GPUS),$(foreach n,$(CHANNELS),\
	$(foreach w,$(GWRITES),$(foreach o,$(OBJECTIVES),\
	$(OUT).points/$(m)@$(g)@$(n)@$(w)@$(o).csv)))))

all: $(OUT).csv

$(OUT).points/%.csv:
	@mkdir -p $(OUT).points
	$(PFSWEEP) -1 $(wordlist 1,4,$(subst @, ,$*)) $(PIMCONF) \
		$(word 5,$(subst @, ,$*)) >$@.tmp && mv $@.tmp $@

$(OUT).csv: $(POINTS)
	echo model,gpu,pim_config,pim_channels,max_gwrite,policy,ns,gpu_cycles,speedup,objective,energy_nj,power_w,energy_ratio >$@.tmp
	cat $(POINTS) >>$@.tmp
	mv $@.tmp $@
	$(PFSWEEP) -p -o $@ -G $(call commas,$(GPUS)) -g $(call commas,$(GWRITES)) \
		-n $(call commas,$(CHANNELS)) -m $(call commas,$(MODELS)) \
		-O $(call commas,$(OBJECTIVES))

clean:
	rm -rf $(OUT).points $(OUT).csv $(OUT).png $(OUT).svg

.PHONY: all clean
