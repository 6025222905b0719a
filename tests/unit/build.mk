# SPDX-License-Identifier: GPL-2.0
# cmocka unit tests of host-compilable code.  Each test_<name>.c becomes
# $(BUILD)/tests/unit/test_<name>; UNIT_DEPS_<name> lists the code under test.

UNIT_OUT := $(BUILD)/tests/unit
UNIT_TESTS := hwcaps errmsg format paging

UNIT_DEPS_hwcaps := tools/hwcaps.c
UNIT_DEPS_errmsg := tools/errmsg.c
UNIT_DEPS_format := hypervisor/lib/format.c
UNIT_DEPS_paging := hypervisor/core/paging.c hypervisor/arch/x86/pgformat.c

UNIT_BINS := $(patsubst %,$(UNIT_OUT)/test_%,$(UNIT_TESTS))

$(UNIT_OUT)/test_%: tests/unit/test_%.c $$(UNIT_DEPS_$$*) tests/unit/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Ihypervisor/include -Ihypervisor/arch/x86/include -Itests/unit -Itools \
		-DWARDEN_FIXTURES=\"$(CURDIR)/tests/unit/fixtures\" $< \
		$(UNIT_DEPS_$*) -lcmocka -o $@
