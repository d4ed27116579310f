# SPDX-License-Identifier: GPL-2.0-or-later
#
# build/kstack      the live tool (shared/ + live/)
# build/kstack.so   the crash extension (shared/ + extension/)
# Sources and include folders are found per tree (shared/, live/,
# extension/) at any depth, so that a new file or subfolder needs no edit
# here.

CC	?= gcc
PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
# Where crash 8 looks for "extend kstack.so" without a path (after
# $CRASH_EXTENSIONS and /usr/lib64/crash/extensions), whatever PREFIX is:
# /usr/local/lib/crash/extensions is not searched.
CRASH_EXTDIR ?= /usr/lib/crash/extensions
# systemd searches /usr/local/lib/systemd/system and /usr/lib/systemd/system
SYSTEMD_UNITDIR ?= $(PREFIX)/lib/systemd/system
# crash's headers: Debian 12's crash-dev (8.0.2, its gdb 10.2) by default.
# CRASH_SRC names a built crash source tree instead (vmcores/build-crash:
# crash 9.0.2 with gdb 16.3), whose defs.h the extension is compiled
# against into a build folder of its own: defs.h changes between releases.
CRASH_SRC ?=
# defs.h selects its per-arch code by the crash target's macro: a built
# tree says which in its Makefile ("TARGET=ARM64" after crash's own
# "make target=ARM64"); crash-dev's defs.h alone is the host's, X86_64.
ifneq ($(CRASH_SRC),)
CRASH_INC	:= -I$(CRASH_SRC)
CRASH_GDB	?= GDB_16_3
CRASH_TARGET	?= $(shell sed -n 's/^TARGET=//p' $(CRASH_SRC)/Makefile 2>/dev/null)
BUILD	?= build/$(notdir $(patsubst %/,%,$(CRASH_SRC)))
else
CRASH_INC	:= -I/usr/include/crash
CRASH_GDB	?= GDB_10_2
CRASH_TARGET	?= X86_64
endif
BUILD	?= build
SAN	?=
# The one version: the binaries, the man pages and debian/changelog agree with it.
VERSION	:= $(shell cat VERSION)

# -I for every folder of a tree that holds a header
incs	= $(addprefix -I,$(sort $(patsubst %/,%,$(dir $(shell find $(1) -name '*.h')))))
SHARED_INC	:= $(call incs,shared)
LIVE_INC	:= $(call incs,live)
# crash's kstack knows the live tool's own rows (live/options/) to refuse
# them by name: their header and their object, no more of live/
LIVE_ROWS_OBJ	= $(BUILD)/live/options/live_options.o
EXT_INC		:= $(call incs,extension) -Ilive/options
SUPPORT_INC	:= $(call incs,tests/support)

WARN	:= -Wall -Wextra -Werror
CFLAGS	?= -O2 -g
# Without the ":=" flags, for the static rule too.  kstack.so exports only
# its constructor: hidden by default, what the core defines stays inside.
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -DKS_VERSION='"$(VERSION)"' $(WARN) \
	-fvisibility=hidden $(SHARED_INC) $(CPPFLAGS) $(CFLAGS)
KS_CFLAGS := $(BASE_CFLAGS) -fPIC
KDUMP_CFLAGS := $(shell pkg-config --cflags libkdumpfile 2>/dev/null)
# target_kdump.c translates addresses itself too (libaddrxlat)
KDUMP_LIBS := $(shell pkg-config --libs libkdumpfile libaddrxlat 2>/dev/null)
# -l (live, --vmcore and crash) and --decode: file:line from DWARF with
# elfutils' libdw
DW_CFLAGS := $(shell pkg-config --cflags libdw 2>/dev/null)
DW_LIBS	:= $(shell pkg-config --libs libdw 2>/dev/null)
LIBS	:= -lz

ifneq ($(SAN),)
KS_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDSAN	:= -fsanitize=address,undefined
endif

SHARED_SRC	:= $(sort $(shell find shared -name '*.c'))
LIVE_SRC	:= $(sort $(shell find live -name '*.c'))
EXT_SRC		:= $(sort $(shell find extension -name '*.c'))
UNIT_SRC	:= $(wildcard tests/unit/test_*.c)
# test support (the fake kernel target): linked into tests only
SUPPORT_SRC	:= $(sort $(shell find tests/support -name '*.c'))

SHARED_OBJ	:= $(SHARED_SRC:%.c=$(BUILD)/%.o)
LIVE_OBJ	:= $(LIVE_SRC:%.c=$(BUILD)/%.o)
LIVE_LIB_OBJ	:= $(filter-out %/live/main.o,$(LIVE_OBJ))
EXT_OBJ		:= $(EXT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN	:= $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
SUPPORT_OBJ	:= $(SUPPORT_SRC:%.c=$(BUILD)/%.o)

# The static binary goes into vmcore guests; it has no libkdumpfile mode.
STATIC_LIVE_OBJ	:= $(filter-out %/target_kdump.o %/dump_prefetch.o,$(LIVE_OBJ))
# What the unit tests link: the core as an archive, and the live objects
# as one, so that each test takes only the objects it calls.
CORE_LIB	:= $(BUILD)/libkstack-core.a
LIVE_LIB	:= $(BUILD)/libkstack-live.a

.PHONY: all live extension static tests check check-unit \
	check-more check-fresh bench demo install install-live install-extension deps \
	clean vmcore vmcore-hooks vmcore-612 vmcore-612-hooks deb \
	vmcore-510 vmcore-510-hooks vmcore-72 vmcore-72-hooks \
	vmcore-snoop bench-lines fuzz fuzz-build fuzz-bins \
	vmcore-locks vmcore-612-locks vmcore-72-locks vmcore-rt-locks \
	static-arm64 vmcore-arm64 vmcore-arm64-612 vmcore-arm64-612-nolpa2 \
	vmcore-arm64-hooks vmcore-arm64-612-hooks vmcore-arm64-livetests \
	vmcore-livetests vmcore-oops vmcore-nmi vmcore-bug-wq vmcore-timer \
	vmcore-hung vmcore-612-oops vmcore-612-nmi vmcore-72-oops vmcore-72-nmi \
	vmcore-510-oops vmcore-510-nmi vmcore-arm64-oops vmcore-arm64-612-oops \
	vmcore-arm64-hung vmcore-die

all: live extension

live: $(BUILD)/kstack
extension: $(BUILD)/kstack.so
static: $(BUILD)/kstack-static

# The arm64 guests' kstack, cross-built into $(BUILD)/arm64 with arm64's
# static zlib from an apt list of its own (vmcores/arm64-zlib.sh).
ARM64_CC ?= aarch64-linux-gnu-gcc
static-arm64:
	zlib=$$(vmcores/arm64-zlib.sh) && \
	$(MAKE) CC=$(ARM64_CC) BUILD=$(BUILD)/arm64 SAN= \
		CPPFLAGS="$(CPPFLAGS) -isystem $$zlib/usr/include" \
		LIBS="$$zlib/usr/lib/aarch64-linux-gnu/libz.a" $(BUILD)/arm64/kstack-static

# The live tool sees its own headers; the core sees only its own.
$(BUILD)/live/%.o $(BUILD)/static/live/%.o: TREE_INC := $(LIVE_INC)

# Every object depends on VERSION (a new version is compiled in everywhere)
# and on this Makefile (new flags, such as -fvisibility, reach old objects).
$(BUILD)/%.o: %.c VERSION Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KS_CFLAGS) $(TREE_INC) $(KDUMP_CFLAGS) $(DW_CFLAGS) -MMD -MP -c $< -o $@

# crash's defs.h is GNU C, not ISO C, and wants its arch and gdb defines.
# The arch is one the core has a table for (shared/kernel/arch/): another
# would compile against a machdep the extension does not know.
$(BUILD)/extension/%.o: extension/%.c VERSION Makefile
	@case "$(CRASH_TARGET)" in X86_64 | ARM64) ;; *) \
		echo "crash target '$(CRASH_TARGET)' of $(or $(CRASH_SRC),/usr/include/crash):" \
			"kstack.so is built for X86_64 or ARM64 only" >&2; exit 1 ;; esac
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -std=c11,$(KS_CFLAGS)) -std=gnu11 -Wno-unused-parameter \
		-Wno-sign-compare -Wno-missing-field-initializers \
		-D$(CRASH_TARGET) -D$(CRASH_GDB) $(EXT_INC) $(CRASH_INC) -MMD -MP -c $< -o $@

$(BUILD)/kstack: $(LIVE_OBJ) $(SHARED_OBJ)
	$(CC) $(LDSAN) $(LDFLAGS) -o $@ $^ $(KDUMP_LIBS) $(DW_LIBS) $(LIBS)

$(BUILD)/kstack-static: $(STATIC_LIVE_OBJ:$(BUILD)/%=$(BUILD)/static/%) \
		$(SHARED_OBJ:$(BUILD)/%=$(BUILD)/static/%)
	$(CC) -static -o $@ $^ $(LIBS)

# The guests' binary: the same flags and header dependencies as the others
# (a header change rebuilds it), no sanitizers, no libkdumpfile, no libdw.
$(BUILD)/static/%.o: %.c VERSION Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(TREE_INC) -DKS_NO_KDUMP -DKS_NO_LIBDW -MMD -MP -c $< -o $@

# zlib is background mode's and --decode's (live/), not the extension's;
# libdw is -l's (shared/lines/), in crash too.
$(BUILD)/kstack.so: $(EXT_OBJ) $(SHARED_OBJ) $(LIVE_ROWS_OBJ)
	$(CC) $(LDSAN) $(LDFLAGS) -shared -o $@ $^ $(DW_LIBS)

$(CORE_LIB): $(SHARED_OBJ)
	rm -f $@
	ar rcs $@ $^

$(LIVE_LIB): $(LIVE_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/support/%.o: tests/support/%.c VERSION Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KS_CFLAGS) $(SUPPORT_INC) -MMD -MP -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(SUPPORT_OBJ) $(LIVE_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(KS_CFLAGS) $(KDUMP_CFLAGS) $(LIVE_INC) $(SUPPORT_INC) -o $@ $^ \
		$(LDSAN) $(LDFLAGS) -lcmocka $(KDUMP_LIBS) $(DW_LIBS) $(LIBS)

tests: $(UNIT_BIN)

# make check: everything, under ASan/UBSan, in a build folder of its own.
# It provides every input, so a suite that skips for a missing one fails.
check:
	@scripts/install-deps.sh check
	$(MAKE) BUILD=build/san SAN=1 all tests
	$(MAKE) BUILD=build/san fuzz-build
	$(MAKE) BUILD=build/release-fuzz FUZZ_SAN= fuzz-build
	$(MAKE) all static
	$(MAKE) vmcore vmcore-hooks vmcore-snoop vmcore-locks \
		vmcore-arm64 vmcore-arm64-612 vmcore-arm64-612-nolpa2
	$(MAKE) vmcore-arm64-livetests
	$(MAKE) vmcore-die
	KSTACK_REQUIRE_INPUTS=1 \
	KSTACK_RELEASE_FUZZ=build/release-fuzz/fuzz \
	KSTACK_DIE_VMCORE_DIRS="$(DIE_VMCORES:%=cache/vmcores/%)" \
	KSTACK_ARCH_VMCORE_DIRS="cache/vmcores/arm64-basic cache/vmcores/arm64-612-basic \
		cache/vmcores/arm64-612-nolpa2" \
	KSTACK_GUEST_TEST_DIRS="cache/vmcores/arm64-livetests" \
	KSTACK_SCENARIO_VMCORE_DIRS="cache/vmcores/hooks cache/vmcores/locks" \
		tests/run-all.sh build/san

check-unit:
	$(MAKE) BUILD=build/san SAN=1 all tests
	tests/run-all.sh build/san unit

check-more:
	@scripts/install-deps.sh check
	$(MAKE) all
	vmcores/check-more.sh

# static: the guests of the vmcore benches run kstack too
bench:
	@scripts/install-deps.sh bench
	$(MAKE) all static $(CORE_LIB)
	tests/bench/run.sh build

# -l against the same vmcore without it (the basic vmcore; no QEMU run)
bench-lines: all
	tests/bench/lines.sh build

# Each target installs the packages it runs (scripts/install-deps.sh's
# groups); make deps installs them all.
demo:
	@scripts/install-deps.sh demo
	$(MAKE) all
	scripts/demo.sh

deps:
	@scripts/install-deps.sh

# make check-fresh: the README's two commands as root in a new Debian 12
# root made by debootstrap (tests/fresh/check-fresh.sh), downloads and all.
check-fresh:
	@scripts/install-deps.sh fresh
	tests/fresh/check-fresh.sh

# make fuzz: a libFuzzer harness per parser (tests/fuzz), built with clang
# under ASan/UBSan into $(BUILD)/fuzz, each run FUZZ_SECONDS (FUZZ_JOBS at
# a time); what they find stays in $(BUILD)/fuzz/crashes.  make check runs
# each FUZZ_RUNS (20000) times from its seeds: tests/run-all.sh's fuzz kind.
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_BUILD	:= $(BUILD)/fuzz
FUZZ_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS	:= $(KS_CFLAGS) $(KDUMP_CFLAGS) $(DW_CFLAGS) $(LIVE_INC) \
	$(SUPPORT_INC) -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_SRC	:= $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN	:= $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
# everything but main(), instrumented: each harness takes what it calls
FUZZ_LIB_OBJ	:= $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(SHARED_SRC) \
	$(filter-out %/main.c,$(LIVE_SRC)) $(SUPPORT_SRC))

fuzz:
	@tests/fuzz/run.sh probe $(FUZZ_CC) || { echo "make fuzz: $(FUZZ_CC)" \
		"cannot link -fsanitize=fuzzer (make deps installs its runtime)" >&2; \
		exit 1; }
	$(MAKE) fuzz-bins
	tests/fuzz/run.sh fuzz $(FUZZ_BUILD) $(FUZZ_SECONDS)

# for make check: nothing (and a note) where clang's libFuzzer is missing
fuzz-build:
	@if tests/fuzz/run.sh probe $(FUZZ_CC); then $(MAKE) fuzz-bins; else \
		echo "fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer:" \
			"harnesses not built" >&2; fi

fuzz-bins: $(FUZZ_BIN) $(FUZZ_BUILD)/seeds/.made

$(FUZZ_BUILD)/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/libkstack.a: $(FUZZ_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libkstack.a
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) $(LDFLAGS) -o $@ $^ \
		$(KDUMP_LIBS) $(DW_LIBS) $(LIBS)

# seeds too big to keep in git, and decode's stand-in kernel
$(FUZZ_BUILD)/seeds/.made: tests/fuzz/make-seeds.sh tests/fuzz/make-seeds.py \
		tests/fuzz/btf-types.c $(shell find tests/fixtures -type f)
	tests/fuzz/make-seeds.sh $(FUZZ_BUILD)
	touch $@

vmcore: static
	vmcores/make-vmcore default basic cache/vmcores/basic

# kprobes, kretprobes, ftrace ops and the kshook test module
vmcore-hooks: static
	vmcores/make-vmcore default hooks cache/vmcores/hooks

# Linux 6.12 (Debian 13's LTS, shipped for Debian 12 as +deb12): crash
# 8.0.2 cannot open these, kstack --vmcore must.
vmcore-612: static
	vmcores/make-vmcore 6.12 basic cache/vmcores/612-basic

vmcore-612-hooks: static
	vmcores/make-vmcore 6.12 hooks cache/vmcores/612-hooks

# Debian 11's 5.10 (bullseye, read through a list of its own): task_struct
# .state, core_layout, no kallsyms tables in VMCOREINFO; crash 8.0.2 opens it.
vmcore-510: static
	vmcores/make-vmcore 5.10 basic cache/vmcores/510-basic

vmcore-510-hooks: static
	vmcores/make-vmcore 5.10 hooks cache/vmcores/510-hooks

# sid's 7.2 (Debian 14's split packages): timekeeper_data, place-relative
# kallsyms, 7.1's ORC registers; no crash release opens it yet.
vmcore-72: static
	vmcores/make-vmcore 7.2 basic cache/vmcores/72-basic

# kshook for 7.2: the headers' modpost and objtool run with sid's libc6.
vmcore-72-hooks: static
	vmcores/make-vmcore 7.2 hooks cache/vmcores/72-hooks

# Dumps that die (vmcores/scenarios/oops.sh, nmi.sh): an Oops in process
# context from the ksdie module, an NMI panic (unknown_nmi_panic=1 and
# QEMU's inject-nmi); tests/vmcore/test_panic.sh compares with the console.
vmcore-oops: static
	vmcores/make-vmcore default oops cache/vmcores/oops

vmcore-nmi: static
	vmcores/make-vmcore default nmi cache/vmcores/nmi

# BUG() in a work item, panic() in a timer callback, a hung-task panic
vmcore-bug-wq: static
	vmcores/make-vmcore default bug-wq cache/vmcores/bug-wq

vmcore-timer: static
	vmcores/make-vmcore default timer cache/vmcores/timer

vmcore-hung: static
	vmcores/make-vmcore default hung cache/vmcores/hung

# The oops and the NMI panic on the other x86-64 kernel lines
vmcore-612-oops: static
	vmcores/make-vmcore 6.12 oops cache/vmcores/612-oops

vmcore-612-nmi: static
	vmcores/make-vmcore 6.12 nmi cache/vmcores/612-nmi

vmcore-72-oops: static
	vmcores/make-vmcore 7.2 oops cache/vmcores/72-oops

vmcore-72-nmi: static
	vmcores/make-vmcore 7.2 nmi cache/vmcores/72-nmi

vmcore-510-oops: static
	vmcores/make-vmcore 5.10 oops cache/vmcores/510-oops

vmcore-510-nmi: static
	vmcores/make-vmcore 5.10 nmi cache/vmcores/510-nmi

# arm64's oops and its hung-task panic; QEMU's virt machine has no NMI
# to inject
vmcore-arm64-oops: static-arm64
	vmcores/make-vmcore cloud-arm64 oops cache/vmcores/arm64-oops

vmcore-arm64-612-oops: static-arm64
	vmcores/make-vmcore 6.12-cloud-arm64 oops cache/vmcores/arm64-612-oops

vmcore-arm64-hung: static-arm64
	vmcores/make-vmcore cloud-arm64 hung cache/vmcores/arm64-hung

# The dumps that die, as make check makes them: every scenario on 6.1, the
# oops and the NMI on 5.10, 6.12 and 7.2, and arm64's oops on 6.1 and 6.12
# and its hung task (a panicking guest boots, dies and is dumped in about
# 12 s under TCG: 2026-12-02).
DIE_VMCORES := oops nmi bug-wq timer hung 612-oops 612-nmi 72-oops 72-nmi \
	510-oops 510-nmi arm64-oops arm64-612-oops arm64-hung
vmcore-die: $(DIE_VMCORES:%=vmcore-%)

# kstack --snoop in the guest: kprobes with stacks, cleanup after SIGKILL
vmcore-snoop: static
	vmcores/make-vmcore default snoop cache/vmcores/snoop

# --waits: threads the kslock module blocks on locks, a chain, a deadlock
# (tests/vmcore/test_waits.sh); 7.x's locks keep a first_waiter and
# task->blocker; PREEMPT_RT's are rt_mutexes.
vmcore-locks: static
	vmcores/make-vmcore default locks cache/vmcores/locks

vmcore-612-locks: static
	vmcores/make-vmcore 6.12 locks cache/vmcores/612-locks

vmcore-72-locks: static
	vmcores/make-vmcore 7.2 locks cache/vmcores/72-locks

vmcore-rt-locks: static
	vmcores/make-vmcore rt locks cache/vmcores/rt-locks

# Debian 12's 6.1 cloud kernel for arm64 in qemu-system-aarch64 (TCG,
# -M virt), its capture taken by the cross-built kstack
vmcore-arm64: static-arm64
	vmcores/make-vmcore cloud-arm64 basic cache/vmcores/arm64-basic

# The 6.12 LTS for arm64 (+deb12): its kallsyms lists data symbols
# (CONFIG_KALLSYMS_ALL), so --vmcore reads it without the vmlinux too
vmcore-arm64-612: static-arm64
	vmcores/make-vmcore 6.12-cloud-arm64 basic cache/vmcores/arm64-612-basic

# The same kernel on a CPU without FEAT_LPA2 (Graviton 2 and 3, Ampere
# Altra): its 52-bit build runs 48 bits (TCR_EL1_T1SZ 16), four levels,
# PHYS_OFFSET moved down.  The CPU options are in the dump's reuse key.
vmcore-arm64-612-nolpa2: static-arm64
	VMCORE_ARM64_CPU_OPTS=lpa2=off \
		vmcores/make-vmcore 6.12-cloud-arm64 basic cache/vmcores/arm64-612-nolpa2

# kprobes, ftrace and the kshook module on arm64 (make check-more's)
vmcore-arm64-hooks: static-arm64
	vmcores/make-vmcore cloud-arm64 hooks cache/vmcores/arm64-hooks

vmcore-arm64-612-hooks: static-arm64
	vmcores/make-vmcore 6.12-cloud-arm64 hooks cache/vmcores/arm64-612-hooks

# The live tool's /proc tests run inside the arm64 guest against its
# static kstack (tests/guest/test_guest_live.sh reads the results); the
# same on x86-64 with vmcore-livetests.
vmcore-arm64-livetests: static-arm64
	vmcores/make-vmcore cloud-arm64 livetests cache/vmcores/arm64-livetests

vmcore-livetests: static
	vmcores/make-vmcore default livetests cache/vmcores/livetests

install: install-live install-extension

# The unit runs the kstack this install puts in BINDIR: made at each
# install, as BINDIR may differ from the last one.
install-live: live
	install -D -m 0755 $(BUILD)/kstack $(DESTDIR)$(BINDIR)/kstack
	install -D -m 0644 docs/kstack.8 $(DESTDIR)$(MANDIR)/man8/kstack.8
	sed 's|@BINDIR@|$(BINDIR)|g' docs/kstack.service.in >$(BUILD)/kstack.service
	install -D -m 0644 $(BUILD)/kstack.service $(DESTDIR)$(SYSTEMD_UNITDIR)/kstack.service

install-extension: extension
	install -D -m 0644 $(BUILD)/kstack.so $(DESTDIR)$(CRASH_EXTDIR)/kstack.so
	install -D -m 0644 docs/kstack-crash.8 $(DESTDIR)$(MANDIR)/man8/kstack-crash.8

# make deb: the Debian packages kstack and crash-kstack, built from a copy
# of the tree in $(BUILD)/deb so that nothing is written into the tree; the
# .deb files land in $(BUILD)/deb.  Rebuilt only when a file changed.
DEB_DIR		:= $(BUILD)/deb
DEB_ARCH	= $(shell dpkg-architecture -qDEB_HOST_ARCH)
DEB_FILES	= $(DEB_DIR)/kstack_$(VERSION)_$(DEB_ARCH).deb \
		  $(DEB_DIR)/crash-kstack_$(VERSION)_$(DEB_ARCH).deb
# the files of the tree: tracked or new, not ignored, not deleted
DEB_SRC		:= $(wildcard $(shell git ls-files -co --exclude-standard 2>/dev/null))

# dpkg-buildpackage checks the Build-Depends, build-essential among them
deb:
	@scripts/install-deps.sh deb
	$(MAKE) $(DEB_DIR)/.built

$(DEB_DIR)/.built: $(DEB_SRC)
	@command -v dpkg-buildpackage >/dev/null || \
		{ echo "make deb: dpkg-buildpackage missing (apt-get install dpkg-dev debhelper)" >&2; exit 1; }
	$(if $(DEB_SRC),,@echo "make deb: needs a git checkout" >&2; exit 1)
	@test "$$(dpkg-parsechangelog -S Version)" = "$(VERSION)" || \
		{ echo "make deb: debian/changelog is not at VERSION $(VERSION)" >&2; exit 1; }
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/kstack-$(VERSION)
	cp --parents -P -t $(DEB_DIR)/kstack-$(VERSION) $(DEB_SRC)
	cd $(DEB_DIR)/kstack-$(VERSION) && dpkg-buildpackage -us -uc -b >../build.log 2>&1 || \
		{ tail -n 30 ../build.log >&2; exit 1; }
	rm -rf $(DEB_DIR)/kstack-$(VERSION)
	ls $(DEB_FILES)
	touch $@

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
