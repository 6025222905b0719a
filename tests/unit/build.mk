# SPDX-License-Identifier: GPL-2.0
# cmocka unit tests of host-compilable code.  Each test_<name>.c becomes
# $(BUILD)/tests/unit/test_<name>; UNIT_DEPS_<name> lists the code under test.

UNIT_OUT := $(BUILD)/tests/unit
UNIT_TESTS := hwcaps errmsg format paging config_check insn

UNIT_DEPS_hwcaps := tools/hwcaps.c
UNIT_DEPS_errmsg := tools/errmsg.c
UNIT_DEPS_format := hypervisor/lib/format.c
UNIT_DEPS_paging := hypervisor/core/paging.c hypervisor/arch/x86/pgformat.c
UNIT_DEPS_insn := hypervisor/arch/x86/insn.c

UNIT_BINS := $(patsubst %,$(UNIT_OUT)/test_%,$(UNIT_TESTS))

$(UNIT_OUT)/test_%: tests/unit/test_%.c $$(UNIT_DEPS_$$*) tests/unit/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Ihypervisor/include -Ihypervisor/arch/x86/include -Itests/unit -Itools \
		-DWARDEN_FIXTURES=\"$(CURDIR)/tests/unit/fixtures\" $< \
		$(UNIT_DEPS_$*) -lcmocka -o $@

UNIT_DEPS_config_check := common/config_check.c tests/unit/config_builder.c \
	tools/errmsg.c

# config_check.c is built into the hypervisor too: compile it with the
# hypervisor's flags and refuse any reference outside itself (memset, ...).
$(UNIT_OUT)/test_config_check: $(UNIT_OUT)/config_check.hv.o
$(UNIT_OUT)/config_check.hv.o: common/config_check.c \
		common/include/config_check.h include/warden/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) -c $< -o $@
	@if nm -u $@ | grep .; then \
		echo "$<: references symbols outside itself"; rm -f $@; exit 1; fi
