# SPDX-License-Identifier: GPL-2.0
#
# Warden top-level build.  "make" builds everything; "make test" runs the
# unit and system tests; "make demo" boots the emulated machine.  All
# outputs go to build/ (the kernel module builds in driver/, as Kbuild
# wants).  See README.md.

BUILD := $(CURDIR)/build
CC := gcc
LD := ld
HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Iinclude -Icommon/include
# The kernel the modules are built for: "make" and "make install" build
# for the running one (scripts/kdir.sh running); test, demo and bench for
# the test machine's (build/kver, scripts/deps.sh), whatever runs the host.
# KDIR= names another kernel build tree for either.
KDIR ?=
MODULE_KERNEL ?= running
test demo bench: MODULE_KERNEL = test
# Without the running kernel's headers "make" builds the rest and says why
# the module is missing; asked for by name (driver, install) it is an error.
MODULE_REQUIRED := $(filter driver install install-driver,$(MAKECMDGOALS))
DESTDIR ?=
PREFIX ?= /usr/local
T ?=
KEEP ?=

.SECONDEXPANSION:
.PHONY: all deps deps-build hypervisor driver tools configs unit vm test \
	unit-test demo bench format format-check install install-driver \
	install-firmware install-tools clean test-modules

all: deps-build hypervisor driver tools inmates configs

# deps: everything the test machine needs too; deps-build: only what
# building and installing need (scripts/deps.sh).
deps:
	@scripts/deps.sh
deps-build:
	@scripts/deps.sh build

include common/config_check.mk
include hypervisor/build.mk
include tools/build.mk
include tests/unit/build.mk
include inmates/build.mk
include inmates/sdk.mk
include tests/fuzz/build.mk
include scripts/package.mk

hypervisor: $(BUILD)/hypervisor/warden-intel.bin \
	$(BUILD)/hypervisor/warden-amd.bin
tools: $(BUILD)/tools/warden
# Configs: YAML in configs/, compiled by the CLI (docs/config.md).  The
# bad-* system configs are for refusal tests and compiled as they are.
WARDEN_CLI := $(BUILD)/tools/warden
CONFIG_CELLS := $(patsubst configs/cells/%.yaml,$(BUILD)/configs/cells/%.cell,\
	$(wildcard configs/cells/*.yaml configs/cells/bad/*.yaml))
CONFIGS := $(BUILD)/configs/system-bochs.cell $(BUILD)/configs/system-qemu.cell \
	$(BUILD)/configs/system-qemu-noiommu.cell \
	$(BUILD)/configs/bad-unreserved.cell $(BUILD)/configs/bad-overlap.cell \
	$(CONFIG_CELLS)
configs: $(CONFIGS)

$(BUILD)/configs/system-%.cell: configs/system-%.yaml $(WARDEN_CLI)
	@mkdir -p $(dir $@)
	$(WARDEN_CLI) config compile $< -o $@
$(BUILD)/configs/bad-%.cell: configs/bad/%.yaml $(WARDEN_CLI)
	@mkdir -p $(dir $@)
	$(WARDEN_CLI) config compile --no-check $< -o $@
$(BUILD)/configs/cells/%.cell: configs/cells/%.yaml $(WARDEN_CLI)
	@mkdir -p $(dir $@)
	$(WARDEN_CLI) config compile $< -o $@
unit: $(UNIT_BINS)

driver: deps-build
	@if kdir=$$(scripts/kdir.sh $(MODULE_KERNEL) "$(KDIR)"); then \
		$(MAKE) -C "$$kdir" M=$(CURDIR)/driver modules; \
	elif [ -n "$(MODULE_REQUIRED)" ]; then exit 1; \
	else echo "warden: driver/warden.ko not built (above);" \
		"'make test' builds it for the test machine's kernel"; fi

# The test module the system tests load (tests/modules/wdtest.c).
test-modules: deps
	@kdir=$$(scripts/kdir.sh test "$(KDIR)") && \
	$(MAKE) -C "$$kdir" M=$(CURDIR)/tests/modules modules

vm: deps
	@$(MAKE) --no-print-directory -f tests/vm/Makefile BUILD=$(BUILD) vm-tools

unit-test: unit
	@tests/run.py --unit-only --build $(BUILD) $(if $(T),--only $(T))

test: deps all unit vm test-modules dkms-module
	@tests/run.py --build $(BUILD) $(if $(T),--only $(T)) \
		$(if $(KEEP),--keep $(KEEP))

# Benchmarks (not part of make test): bench/run.py, docs/bench.md.
# JSON=FILE also writes the rows there (default build/bench.json);
# BENCH_MACHINE=bochs or BENCH_MACHINE=qemu-svm runs one machine's part only.
bench: deps all vm test-modules
	@kdir=$$(scripts/kdir.sh test "$(KDIR)") && \
	$(MAKE) -C "$$kdir" M=$(CURDIR)/bench modules
	@bench/run.py --build $(BUILD) $(if $(JSON),--json $(JSON)) \
		$(if $(KEEP),--keep $(KEEP)) $(if $(BENCH_MACHINE),--machine $(BENCH_MACHINE)) \
		$(if $(BENCH_PART),--part $(BENCH_PART))

# M= picks the machine (tests/demo.sh lists them); the build's output
# goes to build/demo-build.log, the session's to build/demo-<machine>.log.
# The build is a make of its own: it gets the test machine's kernel.
demo:
	@tests/demo-build.sh $(BUILD) $(MAKE) MODULE_KERNEL=test deps all vm \
		test-modules
	@tests/run.py --build $(BUILD) --demo $(if $(M),--machine $(M))

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' | grep -v '^tests/vm/')
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && \
		echo "format-check: $(words $(FORMAT_FILES)) files formatted"
	@scripts/layers.sh

# "make install" puts everything in place for the running kernel (or
# KDIR='s): each part has its own target, so that more can hook in with a
# line of their own ("install: install-<part>").  The driver loads the
# image of the CPU's vendor (warden-intel.bin or warden-amd.bin,
# include/warden/abi.h); both are installed.
install: install-driver install-firmware install-tools
# the inmate SDK (inmates/sdk.mk)
install: install-sdk

install-driver: driver
	@kdir=$$(scripts/kdir.sh $(MODULE_KERNEL) "$(KDIR)") && \
	kver=$$(scripts/kdir.sh release "$$kdir") && \
	install -D -m 0644 driver/warden.ko \
		$(DESTDIR)/lib/modules/$$kver/extra/warden.ko && \
	echo "installed warden.ko for kernel $$kver" && \
	if [ -z "$(DESTDIR)" ]; then depmod -a "$$kver"; fi

install-firmware: hypervisor
	install -D -m 0644 $(BUILD)/hypervisor/warden-intel.bin \
		$(DESTDIR)/lib/firmware/warden-intel.bin
	install -D -m 0644 $(BUILD)/hypervisor/warden-amd.bin \
		$(DESTDIR)/lib/firmware/warden-amd.bin

install-tools: tools
	install -D -m 0755 $(BUILD)/tools/warden $(DESTDIR)$(PREFIX)/sbin/warden
	install -D -m 0644 docs/warden.8 $(DESTDIR)$(PREFIX)/share/man/man8/warden.8
	install -D -m 0644 scripts/warden.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/warden

clean:
	rm -rf $(BUILD)/hypervisor $(BUILD)/tools $(BUILD)/tests $(BUILD)/vm \
		$(BUILD)/inmates $(BUILD)/configs
	@kdir=/usr/src/linux-headers-$$(cat $(BUILD)/kver 2>/dev/null); \
	[ ! -d "$$kdir" ] || $(MAKE) -C "$$kdir" M=$(CURDIR)/driver clean
