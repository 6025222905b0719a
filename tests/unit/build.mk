# SPDX-License-Identifier: GPL-2.0
# cmocka unit tests of host-compilable code.  Each test_<name>.c becomes
# $(BUILD)/tests/unit/test_<name>; UNIT_DEPS_<name> lists the code under test.

UNIT_OUT := $(BUILD)/tests/unit
UNIT_TESTS := hwcaps errmsg format paging config_check insn insn_cache \
	apic_dest \
	cpu_rules vmx_entry_check console_log
UNIT_TESTS += mmio mmio_insn exit_table units wait ioapic_rules pci_rules \
	pci_linux link_rules link_ring link_net link_ping link_sysfs hpet_rules
UNIT_TESTS += elf_image cli_args hwcaps_json

UNIT_DEPS_hwcaps := tools/hwcaps.c tools/hwcaps_svm.c
UNIT_DEPS_errmsg := tools/errmsg.c
UNIT_DEPS_pci_linux := tools/pci_linux.c
UNIT_DEPS_link_sysfs := tools/link_sysfs.c tools/json_out.c
UNIT_DEPS_elf_image := tools/elf_image.c tools/load_check.c
UNIT_DEPS_cli_args := tools/cli_args.c
UNIT_DEPS_hwcaps_json := tools/hwcaps_json.c tools/hwcaps.c \
	tools/hwcaps_svm.c tools/json_out.c
UNIT_DEPS_format := hypervisor/lib/format.c
UNIT_DEPS_paging := hypervisor/core/paging.c hypervisor/arch/x86/pgformat.c \
	hypervisor/arch/x86/vmx/ept.c
UNIT_DEPS_insn := hypervisor/arch/x86/insn.c
UNIT_DEPS_insn_cache := hypervisor/arch/x86/insn_cache.c hypervisor/arch/x86/insn.c
UNIT_DEPS_apic_dest := hypervisor/arch/x86/apic_dest.c
UNIT_DEPS_hpet_rules := hypervisor/arch/x86/hpet_rules.c
UNIT_DEPS_cpu_rules := hypervisor/arch/x86/cpu_rules.c
UNIT_DEPS_console_log := hypervisor/core/console_log.c hypervisor/lib/format.c
UNIT_DEPS_mmio := hypervisor/core/mmio.c
UNIT_DEPS_mmio_insn := hypervisor/arch/x86/insn.c hypervisor/core/mmio.c
UNIT_DEPS_units := hypervisor/core/units.c
UNIT_DEPS_wait :=
UNIT_DEPS_link_ring :=
# libinmate's net.c makes no library calls: it builds for the host as is
UNIT_DEPS_link_net := inmates/lib/net.c
UNIT_LIBS_link_net := -Iinmates/include
# the client against a fake /dev/warden-link-echo: the system calls it
# makes on the device are wrapped by the test
UNIT_DEPS_link_ping := tools/link_ping.c
UNIT_LIBS_link_ping := -Wl,--wrap=open,--wrap=flock,--wrap=ioctl \
	-Wl,--wrap=mmap,--wrap=munmap,--wrap=poll,--wrap=read
UNIT_DEPS_ioapic_rules := hypervisor/arch/x86/ioapic_rules.c
UNIT_DEPS_pci_rules := hypervisor/arch/x86/pci_rules.c \
	hypervisor/arch/x86/pci_decoders.c hypervisor/arch/x86/pci_pirq_rules.c
UNIT_DEPS_link_rules := hypervisor/arch/x86/link_rules.c
UNIT_DEPS_exit_table := hypervisor/arch/x86/exit_table.c
UNIT_DEPS_vmx_entry_check := hypervisor/arch/x86/vmx/vmx_entry_check.c \
	hypervisor/arch/x86/cpu_rules.c

UNIT_BINS := $(patsubst %,$(UNIT_OUT)/test_%,$(UNIT_TESTS))

# UNIT_LIBS_<name>: more libraries and link flags.
$(UNIT_OUT)/test_%: tests/unit/test_%.c $$(UNIT_DEPS_$$*) tests/unit/*.h \
		tools/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Ihypervisor/include -Ihypervisor/arch/x86/include -Ihypervisor/arch/x86/vmx/include -Itests/unit -Itools \
		-DWARDEN_FIXTURES=\"$(CURDIR)/tests/unit/fixtures\" \
		-DWARDEN_CONFIGS=\"$(CURDIR)/configs\" $< \
		$(UNIT_DEPS_$*) -lcmocka $(UNIT_LIBS_$*) -o $@

UNIT_DEPS_config_check := common/config_check.c tests/unit/config_builder.c \
	tools/errmsg.c

# config_check.c is built into the hypervisor too: compile it with the
# hypervisor's flags and refuse any reference outside itself (memset, ...).
$(UNIT_OUT)/test_config_check: $(UNIT_OUT)/config_check.hv.o
$(UNIT_OUT)/config_check.hv.o: common/config_check.c \
		common/include/config_check.h include/warden/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) -fno-lto -c $< -o $@
	@if nm -u $@ | grep .; then \
		echo "$<: references symbols outside itself"; rm -f $@; exit 1; fi

# The YAML front end (tools/config_*.c) with libyaml.
UNIT_CONFIG_TESTS := config_yaml config_create config_freestanding
UNIT_TESTS += $(UNIT_CONFIG_TESTS)
UNIT_BINS += $(patsubst %,$(UNIT_OUT)/test_%,$(UNIT_CONFIG_TESTS))
UNIT_CONFIG_TOOLS := tools/config_values.c tools/config_yaml.c \
	tools/config_file.c tools/config_report.c tools/config_show.c \
	tools/errmsg.c common/config_check.c
UNIT_DEPS_config_yaml := $(UNIT_CONFIG_TOOLS) tests/unit/yaml_corpus.c \
	tests/unit/yaml_syntax.c tests/unit/config_builder.c
UNIT_LIBS_config_yaml := -lyaml
UNIT_DEPS_config_create := $(UNIT_CONFIG_TOOLS) tools/config_create.c \
	tools/acpi.c
UNIT_LIBS_config_create := -lyaml

# The same corpus through config_check.c built with the hypervisor's flags
# (config_check.hv.o above): its two functions renamed hv_config_check_*,
# linked next to the hosted build.  -mcmodel=kernel code without PIC links
# into a non-PIE executable (its addresses fit in 32 signed bits).
UNIT_DEPS_config_freestanding := $(UNIT_CONFIG_TOOLS) \
	tests/unit/yaml_corpus.c tests/unit/yaml_syntax.c \
	tests/unit/config_builder.c $(UNIT_OUT)/config_check.hv-renamed.o
UNIT_LIBS_config_freestanding := -lyaml -no-pie
$(UNIT_OUT)/config_check.hv-renamed.o: $(UNIT_OUT)/config_check.hv.o
	objcopy --redefine-sym config_check_system=hv_config_check_system \
		--redefine-sym config_check_cell=hv_config_check_cell $< $@
	@if nm -g --defined-only $@ | grep -v ' hv_config_check_'; then \
		echo "$@: unexpected global symbols"; rm -f $@; exit 1; fi
