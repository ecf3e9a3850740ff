# Sweep with make: every bundled model x PIM channels x max n_gwrite x GPU
# configs, one pimflow run per point (pf-sweep -1), as separate targets so
# that "make -j" runs them concurrently and a rerun redoes only what is
# missing; then one results CSV and its plot (pf-sweep -p).
#
#   make -f pipelines/sweep.mk -j2 [OUT=sweep] [MODELS="resnet18 vgg16"] \
#       [GPUS="rtx2060-sim t4"] [CHANNELS="8 16 24"] [GWRITES="1 2 4"] \
#       [OBJECTIVES="time energy"] [DTYPES="fp16 fp32"]
#
# Decode mode (pf-sweep -B/-L): with BATCHES and CONTEXTS, one decode step
# per model x GPU x PIM config x batch x context x dtype (pf-sweep -2),
# into OUT.csv (default decode) with the tokens/s and speedup plots; MODELS
# defaults to the bundled models with a NAME.decode file, PIMCONF may be a
# list:
#
#   make -f pipelines/sweep.mk -j2 BATCHES="1 4 16 64" \
#       CONTEXTS="128 512 2048 8192" MODELS=gpt2_decode
#
# Installed, the file is $(PREFIX)/share/pimflow/sweep.mk and runs the
# pf-sweep found on PATH.  For several machines use pf-sweep -S host1,host2
# (GNU parallel) instead.

HERE := $(dir $(lastword $(MAKEFILE_LIST)))
PFSWEEP = $(if $(wildcard $(HERE)pf-sweep),$(HERE)pf-sweep,pf-sweep)
SHARE = $(if $(wildcard $(HERE)models),$(HERE),$(HERE)../share/pimflow)
BATCHES =
CONTEXTS =
DECODE = $(and $(strip $(BATCHES)),$(strip $(CONTEXTS)))
MODELS = $(basename $(notdir $(wildcard $(SHARE)/models/*.$(if $(DECODE),decode,onnx))))
GPUS = rtx2060-sim
CHANNELS = 8 16 24
GWRITES = 1 2 4
OBJECTIVES = time
DTYPES = fp16
PIMCONF = newton-gddr6
OUT = $(if $(DECODE),decode,sweep)

empty =
space = $(empty) $(empty)
comma = ,
commas = $(subst $(space),$(comma),$(strip $(1)))

# cross(AXES): every combination of the axes' values (variables named in
# AXES, the first outermost), each as v1@v2@...@
cross = $(if $(1),$(foreach v,$($(firstword $(1))),$(call cross,$(wordlist 2,$(words $(1)),$(1)),$(2)$(v)@)),$(2))

# One target per point, OUT.points/v1@v2@....csv over AXES: one pf-sweep
# run (POINT, of the point's values $*); the results CSV is HEADER, the
# points in order, then pf-sweep -p PLOT.
ifeq ($(DECODE),)
AXES = MODELS GPUS CHANNELS GWRITES OBJECTIVES DTYPES
POINT = -1 $(wordlist 1,4,$(subst @, ,$*)) $(PIMCONF) \
	$(wordlist 5,6,$(subst @, ,$*))
HEADER = model,gpu,pim_config,pim_channels,max_gwrite,policy,ns,gpu_cycles,speedup,objective,energy_nj,power_w,energy_ratio,dtype,speedup_p05,speedup_p50,speedup_p95,beats_gpu
PLOT = -G $(call commas,$(GPUS)) -g $(call commas,$(GWRITES)) \
	-n $(call commas,$(CHANNELS)) -m $(call commas,$(MODELS)) \
	-O $(call commas,$(OBJECTIVES)) -t $(call commas,$(DTYPES))
else
AXES = MODELS GPUS PIMCONF BATCHES CONTEXTS DTYPES
POINT = -2 $(subst @, ,$*)
HEADER = model,gpu,pim_config,batch,context,policy,ns,tokens_per_s,speedup,attn_share,fc_share,rest_share,dtype,speedup_p05,speedup_p50,speedup_p95,beats_gpu,energy_nj,max_batch,fits,gpu_needs_bytes,gpu_has_bytes,pim_needs_bytes,pim_has_bytes
PLOT = -B $(call commas,$(BATCHES)) -L $(call commas,$(CONTEXTS)) \
	-G $(call commas,$(GPUS)) -M $(call commas,$(PIMCONF)) \
	-m $(call commas,$(MODELS)) -t $(call commas,$(DTYPES))
endif
POINTS = $(patsubst %@,$(OUT).points/%.csv,$(call cross,$(AXES)))

all: $(OUT).csv

$(OUT).points/%.csv:
	@mkdir -p $(OUT).points
	$(PFSWEEP) $(POINT) >$@.tmp && mv $@.tmp $@

$(OUT).csv: $(POINTS)
	echo $(HEADER) >$@.tmp
	cat $(POINTS) >>$@.tmp
	mv $@.tmp $@
	$(PFSWEEP) -p -o $@ $(PLOT)

clean:
	rm -rf $(OUT).points $(OUT).csv $(OUT).png $(OUT).svg $(OUT)-speedup.png \
		$(OUT)-speedup.svg

.PHONY: all clean
