# SPDX-License-Identifier: GPL-2.0
# cmocka unit tests of host-compilable code.  Each test_<name>.c becomes
# $(BUILD)/tests/unit/test_<name>; UNIT_DEPS_<name> lists the code under test.

UNIT_OUT := $(BUILD)/tests/unit
UNIT_TESTS := hwcaps errmsg format paging config_check insn insn_cache \
	apic_dest \
	cpu_rules vmx_entry_check console_log
UNIT_TESTS += mmio mmio_insn exit_table units wait ioapic_rules pci_rules \
	pci_linux link_rules link_ring link_self link_net link_ping link_sysfs \
	hpet_rules \
	ownership vtd pci_remap irt_map
UNIT_TESTS += hwcaps_host host_facts boot_plan install_md
UNIT_TESTS += elf_image cli_args hwcaps_json yaml_json

UNIT_DEPS_hwcaps := $(HWCAPS_SRCS)
UNIT_DEPS_hwcaps_host := $(HWCAPS_SRCS) tools/hwprobe_host.c
UNIT_DEPS_host_facts := tools/host_facts.c tools/dmar_report.c tools/acpi.c \
	tools/memmap.c \
	tools/config_values.c tools/iomem.c
UNIT_DEPS_boot_plan := tools/boot_plan.c tools/config_values.c
UNIT_LIBS_boot_plan := -lyaml
# docs/install.md against the CLI, the boot group and error.h
UNIT_DEPS_install_md := tools/memmap.c tools/config_values.c
UNIT_LIBS_install_md := -DWARDEN_DOCS=\"$(CURDIR)/docs\" \
	-DWARDEN_TESTS=\"$(CURDIR)/tests\" \
	-DWARDEN_INCLUDE=\"$(CURDIR)/include\" \
	-DWARDEN_CLI=\"$(BUILD)/tools/warden\"
$(UNIT_OUT)/test_install_md: $(BUILD)/tools/warden docs/install.md \
	docs/config.md tests/system/boot.sh
UNIT_DEPS_errmsg := $(ERRMSG_SRCS)
UNIT_DEPS_pci_linux := tools/pci_linux.c
UNIT_DEPS_link_sysfs := tools/link_sysfs.c tools/json_out.c
UNIT_DEPS_elf_image := tools/elf_image.c tools/load_check.c
UNIT_DEPS_cli_args := tools/cli_args.c
UNIT_DEPS_hwcaps_json := tools/hwcaps_json.c $(HWCAPS_SRCS) tools/json_out.c
UNIT_DEPS_yaml_json := tools/yaml_json.c tools/json_out.c tools/config_values.c
UNIT_LIBS_yaml_json := -lyaml
UNIT_DEPS_format := hypervisor/lib/format.c
UNIT_DEPS_paging := hypervisor/core/paging.c hypervisor/arch/x86/pgformat.c \
	hypervisor/arch/x86/vmx/ept.c
UNIT_DEPS_insn := hypervisor/arch/x86/insn.c
UNIT_DEPS_insn_cache := hypervisor/arch/x86/insn_cache.c hypervisor/arch/x86/insn.c
UNIT_DEPS_apic_dest := hypervisor/arch/x86/apic/apic_dest.c
UNIT_DEPS_hpet_rules := hypervisor/arch/x86/hpet/hpet_rules.c
# the Linux cell's loader and legacy ports (docs/linux-cell.md)
UNIT_TESTS += linux_tables legacy_ports
UNIT_DEPS_legacy_ports := hypervisor/arch/x86/exit/legacy_ports.c
# a CPU's access log as the hypervisor packs it and "cell stats" shows it
UNIT_TESTS += access_view
UNIT_DEPS_access_view := tools/access_view.c
# the Linux loader's tables, boot data, bzImage and ELF note; iasl and
# Debian's kernel (when downloaded) are used from the test
UNIT_DEPS_linux_tables := tools/linux_tables.c tools/linux_dsdt.c \
	tools/linux_irqs.c tools/linux_boot.c tools/bzimage.c tools/elf_image.c
UNIT_LIBS_linux_tables := -llzma -DWARDEN_ROOT=\"$(CURDIR)\"
UNIT_DEPS_cpu_rules := hypervisor/arch/x86/cpu_rules.c
UNIT_DEPS_console_log := hypervisor/core/console_log.c hypervisor/lib/format.c
UNIT_DEPS_mmio := hypervisor/core/mmio.c
UNIT_DEPS_mmio_insn := hypervisor/arch/x86/insn.c hypervisor/core/mmio.c
UNIT_DEPS_units := hypervisor/core/units.c
UNIT_DEPS_ownership := hypervisor/core/ownership.c hypervisor/core/units.c
# the VT-d backend against a register model (its accessors are the test's)
UNIT_DEPS_vtd := hypervisor/arch/x86/iommu/vtd.c \
	hypervisor/arch/x86/iommu/vtd_qi.c hypervisor/arch/x86/iommu/vtd_rules.c \
	hypervisor/arch/x86/iommu/vtd_irt.c hypervisor/arch/x86/iommu/vtd_irt_cell.c \
	hypervisor/arch/x86/iommu/irt_map.c \
	hypervisor/core/paging.c
UNIT_LIBS_vtd := -DWARDEN_VTD_MODEL
UNIT_DEPS_wait :=
UNIT_DEPS_link_ring :=
UNIT_DEPS_link_self :=
# libinmate's net.c makes no library calls: it builds for the host as is
UNIT_DEPS_link_net := inmates/lib/net.c
UNIT_LIBS_link_net := -Iinmates/include
# the client against a fake /dev/warden-link-echo: the system calls it
# makes on the device are wrapped by the test
UNIT_DEPS_link_ping := tools/link_ping.c
UNIT_LIBS_link_ping := -Wl,--wrap=open,--wrap=flock,--wrap=ioctl \
	-Wl,--wrap=mmap,--wrap=munmap,--wrap=poll,--wrap=read
UNIT_DEPS_ioapic_rules := hypervisor/arch/x86/ioapic/ioapic_rules.c
UNIT_DEPS_pci_rules := hypervisor/arch/x86/pci/pci_rules.c \
	hypervisor/arch/x86/pci/pci_decoders.c hypervisor/arch/x86/pci/pci_pirq_rules.c
UNIT_DEPS_pci_remap := hypervisor/arch/x86/pci/pci_msi_remap.c
UNIT_DEPS_link_rules := hypervisor/arch/x86/link/link_rules.c
UNIT_DEPS_irt_map := hypervisor/arch/x86/iommu/irt_map.c
UNIT_DEPS_exit_table := hypervisor/arch/x86/exit/exit_table.c
UNIT_DEPS_vmx_entry_check := common/vmx_guest_check.c tools/entry_explain.c \
	hypervisor/arch/x86/vmx/vmx_real_mode.c hypervisor/arch/x86/cpu_rules.c

UNIT_BINS := $(patsubst %,$(UNIT_OUT)/test_%,$(UNIT_TESTS))

# UNIT_LIBS_<name>: more libraries and link flags.
$(UNIT_OUT)/test_%: tests/unit/test_%.c $$(UNIT_DEPS_$$*) tests/unit/*.h \
		tools/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Ihypervisor/include -Ihypervisor/arch/x86 -Ihypervisor/arch/x86/include -Ihypervisor/arch/x86/vmx/include -Itests/unit -Itools \
		-DWARDEN_FIXTURES=\"$(CURDIR)/tests/unit/fixtures\" \
		-DWARDEN_CONFIGS=\"$(CURDIR)/configs\" $< \
		$(UNIT_DEPS_$*) -lcmocka $(UNIT_LIBS_$*) -o $@

UNIT_DEPS_config_check := $(CONFIG_CHECK_SRCS) tests/unit/config_builder.c \
	$(ERRMSG_SRCS)

# The validator is built into the hypervisor too: compile its files with
# the hypervisor's flags, link them into one object and refuse any
# reference outside it (memset, ...).
UNIT_CC_HV_OBJS := $(patsubst %.c,$(UNIT_OUT)/hv/%.o,$(CONFIG_CHECK_SRCS))
$(UNIT_OUT)/test_config_check: $(UNIT_OUT)/config_check.hv.o
$(UNIT_OUT)/hv/%.o: %.c $(CONFIG_CHECK_HDRS) include/warden/*.h
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) -fno-lto -c $< -o $@
$(UNIT_OUT)/config_check.hv.o: $(UNIT_CC_HV_OBJS)
	$(LD) -r $^ -o $@
	@if nm -u $@ | grep .; then \
		echo "$@: references symbols outside the validator"; \
		rm -f $@; exit 1; fi

# The YAML front end (tools/config_*.c) with libyaml.
UNIT_CONFIG_TESTS := config_yaml config_create config_freestanding
UNIT_TESTS += $(UNIT_CONFIG_TESTS)
UNIT_BINS += $(patsubst %,$(UNIT_OUT)/test_%,$(UNIT_CONFIG_TESTS))
UNIT_CONFIG_TOOLS := $(CONFIG_LOAD_SRCS) $(ERRMSG_SRCS) $(CONFIG_CHECK_SRCS)
UNIT_DEPS_config_yaml := $(UNIT_CONFIG_TOOLS) tests/unit/yaml_corpus.c \
	tests/unit/yaml_syntax.c tests/unit/config_builder.c
UNIT_LIBS_config_yaml := -lyaml
UNIT_DEPS_config_create := $(UNIT_CONFIG_TOOLS) $(CONFIG_CREATE_SRCS) \
	tools/memmap.c tools/iomem.c tools/acpi.c tools/dmar_report.c
UNIT_LIBS_config_create := -lyaml

# The same corpus through the validator built with the hypervisor's flags
# (config_check.hv.o above): its two entry points renamed
# hv_config_check_* and every other symbol made local, linked next to the
# hosted build.  -mcmodel=kernel code without PIC links into a non-PIE
# executable (its addresses fit in 32 signed bits).
UNIT_DEPS_config_freestanding := $(UNIT_CONFIG_TOOLS) \
	tests/unit/yaml_corpus.c tests/unit/yaml_syntax.c \
	tests/unit/config_builder.c $(UNIT_OUT)/config_check.hv-renamed.o
UNIT_LIBS_config_freestanding := -lyaml -no-pie
$(UNIT_OUT)/config_check.hv-renamed.o: $(UNIT_OUT)/config_check.hv.o
	objcopy --keep-global-symbol=config_check_system \
		--keep-global-symbol=config_check_cell $< $@.tmp
	objcopy --redefine-sym config_check_system=hv_config_check_system \
		--redefine-sym config_check_cell=hv_config_check_cell $@.tmp $@
	@rm -f $@.tmp
	@if nm -g --defined-only $@ | grep -v ' hv_config_check_'; then \
		echo "$@: unexpected global symbols"; rm -f $@; exit 1; fi
