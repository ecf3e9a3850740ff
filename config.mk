# pimflow build configuration: edit here, or override on the make command line.
PREFIX = /usr/local
MANPREFIX = $(PREFIX)/share/man
SHAREDIR = $(PREFIX)/share/pimflow
DOCDIR = $(PREFIX)/share/doc/pimflow

CC = cc
OPT = -O2 -g
WFLAGS = -std=c11 -pedantic -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes
# -pthread: pf-solve works out what needs every row on a second thread
CFLAGS = $(OPT) $(WFLAGS) -pthread
# Generated protobuf-c code is compiled with relaxed warnings and never edited.
GENCFLAGS = $(OPT) -std=c11 -w
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -DSHAREDIR=\"$(SHAREDIR)\"
LDFLAGS =
LDLIBS = -lcsv -lprotobuf-c -lm

# Sanitizer build (make check-san)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
