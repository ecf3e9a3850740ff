# pimflow: see README.md.  Targets: all deps check check-san bench fuzz gpu-fit demo
# install uninstall clean.  Every tool is tools/<name>.c linked against the
# library of lib/*.c modules; nothing here needs listing by hand when a
# module or tool is added.

include config.mk

# Object and binary directories; check-san reuses the rules with other ones.
O = build
B = bin

LIBSRC = $(wildcard lib/*/*.c lib/*.c)
TOOLSRC = $(wildcard tools/*.c)
UNITSRC = $(wildcard tests/unit/*.c)
TOOLS = $(patsubst tools/%.c,$(B)/%,$(TOOLSRC))
UNITS = $(patsubst tests/unit/%.c,$(O)/unit/%,$(UNITSRC))
LIBOBJ = $(patsubst lib/%.c,$(O)/lib/%.o,$(LIBSRC)) $(O)/gen/onnx.pb-c.o
LIBA = $(O)/libpf.a
ONNXPROTO = /usr/include/onnx/onnx.proto
# Headers are included by bare name ("csvio.h"): one -I per wing folder
# (the module map says what each may include).
INC = $(patsubst %/,-I%,$(sort $(dir $(wildcard lib/*/*.h)))) -Ilib -I$(O)/gen
HDRS = $(wildcard lib/*/*.h lib/*.h)

DEBPKGS = build-essential libcsv-dev libprotobuf-c-dev protobuf-c-compiler \
	libonnx-dev jq parallel gnuplot-nox clang libclang-rt-14-dev time \
	python3-onnx python3-numpy mandoc

all: $(TOOLS) $(UNITS)

# Installs the Debian packages the build, tests and pipelines use; a no-op
# when every one of them is already installed.  Only deps itself and the
# targets the README's Set-up names as installing (demo, check, check-san)
# depend on it; all, bench, fuzz and install never install anything.
deps:
	@missing=""; for p in $(DEBPKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

$(O)/gen/onnx.pb-c.c $(O)/gen/onnx.pb-c.h: $(ONNXPROTO)
	@mkdir -p $(O)/gen
	protoc-c --c_out=$(O)/gen -I$(dir $(ONNXPROTO)) $(ONNXPROTO)

$(O)/gen/onnx.pb-c.o: $(O)/gen/onnx.pb-c.c
	$(CC) $(GENCFLAGS) $(EXTRA) -c -o $@ $(O)/gen/onnx.pb-c.c

$(O)/lib/%.o: lib/%.c $(HDRS) $(O)/gen/onnx.pb-c.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA) $(CPPFLAGS) $(INC) -c -o $@ $<

$(LIBA): $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(B)/%: tools/%.c $(LIBA) $(HDRS)
	@mkdir -p $(B)
	$(CC) $(CFLAGS) $(EXTRA) $(CPPFLAGS) $(INC) -o $@ $< $(LIBA) $(LDFLAGS) $(EXTRA) $(LDLIBS)

$(O)/unit/%: tests/unit/%.c $(LIBA) $(HDRS) $(wildcard tests/unit/*.h)
	@mkdir -p $(O)/unit
	$(CC) $(CFLAGS) $(EXTRA) $(CPPFLAGS) $(INC) -o $@ $< $(LIBA) $(LDFLAGS) $(EXTRA) $(LDLIBS)

check: deps
	@$(MAKE) --no-print-directory all
	@PF_BIN=$(CURDIR)/$(B) PF_UNIT=$(CURDIR)/$(O)/unit sh tests/run.sh

check-san: deps
	@$(MAKE) --no-print-directory O=build-san B=bin-san EXTRA="$(SANFLAGS)" all
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		PF_SAN=1 PF_BIN=$(CURDIR)/bin-san PF_UNIT=$(CURDIR)/build-san/unit sh tests/run.sh

bench: all
	@bash pipelines/bench

# The GPU model's error on its training sets (share/doc/gpu-model.md),
# and its error table for the uncertainty band written to
# share/pimflow/gpu/error.csv; FIT=1 searches the fitted constants again
# (and writes nothing).
gpu-fit: all
	@PF_BIN=$(CURDIR)/$(B) python3 tests/gpu-fit/fit.py $(if $(FIT),--fit,--err share/pimflow/gpu/error.csv)

demo: deps
	@$(MAKE) --no-print-directory all
	@PATH=$(CURDIR)/$(B):$$PATH pipelines/pimflow share/pimflow/models/mobilenet_v2.onnx demo-out/mobilenet_v2
	@echo "tables, summary.json and plots (plan, speedup and energy, .png and .svg) in demo-out/mobilenet_v2/"

fuzz:
	@sh tests/fuzz/run.sh

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man7
	cp -f $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	for f in pipelines/*; do case $$f in *.mk|*/bench) ;; *) cp -f $$f $(DESTDIR)$(PREFIX)/bin/ ;; esac; done
	cp -R share/pimflow/. $(DESTDIR)$(SHAREDIR)/
	cp -f pipelines/*.mk $(DESTDIR)$(SHAREDIR)/ 2>/dev/null || true
	cp -f share/man/man1/*.1 $(DESTDIR)$(MANPREFIX)/man1/
	cp -f share/man/man7/*.7 $(DESTDIR)$(MANPREFIX)/man7/
	mkdir -p $(DESTDIR)$(DOCDIR)
	cp -f README.md share/doc/* $(DESTDIR)$(DOCDIR)/

uninstall:
	for t in $(TOOLS) pipelines/*; do rm -f $(DESTDIR)$(PREFIX)/bin/$${t##*/}; done
	rm -rf $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(DOCDIR)
	for m in share/man/man1/*.1; do rm -f $(DESTDIR)$(MANPREFIX)/man1/$${m##*/}; done
	for m in share/man/man7/*.7; do rm -f $(DESTDIR)$(MANPREFIX)/man7/$${m##*/}; done

clean:
	rm -rf build build-san bin bin-san demo-out tests/out fuzz-out

.PHONY: all deps check check-san bench demo fuzz gpu-fit install uninstall clean
.SECONDARY:
