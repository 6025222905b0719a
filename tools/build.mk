# SPDX-License-Identifier: GPL-2.0
# The warden CLI: linked statically so that the test machine's busybox
# initramfs needs no shared libraries.

TOOLS_OUT := $(BUILD)/tools
# Host-side logic that the unit tests and fuzz targets link too.
# The error messages, a file per family of rules (tools/errmsg_parts.h).
ERRMSG_SRCS := tools/errmsg.c tools/errmsg_config.c tools/errmsg_devices.c \
	tools/errmsg_links.c tools/errmsg_system.c
# The capability evaluator, its two vendor tables and its dump format.
HWCAPS_SRCS := tools/hwcaps.c tools/hwcaps_svm.c tools/hwcaps_dump.c
TOOLS_LIB_SRCS := $(HWCAPS_SRCS) $(ERRMSG_SRCS) \
	tools/host_facts.c tools/dmar_report.c tools/memmap.c tools/hwprobe_host.c \
	tools/json_out.c tools/hwcaps_json.c tools/yaml_json.c \
	tools/pci_linux.c tools/link_sysfs.c
# "warden config create", a file per source (tools/config_create_parts.h).
CONFIG_CREATE_SRCS := tools/config_create.c tools/config_create_memory.c \
	tools/config_create_acpi.c tools/config_create_pins.c \
	tools/config_create_pci.c tools/config_create_writer.c \
	tools/config_create_iommu.c
# The YAML front end, a file per subject (tools/config_yaml_parts.h).
CONFIG_YAML_SRCS := tools/config_yaml.c tools/config_yaml_nodes.c \
	tools/config_yaml_system.c tools/config_yaml_cell.c \
	tools/config_yaml_pci.c tools/config_yaml_links.c
# Loading, reporting on and showing configs: what the unit tests and the
# fuzzers link with the validator too.
CONFIG_LOAD_SRCS := tools/config_values.c $(CONFIG_YAML_SRCS) \
	tools/config_file.c tools/config_report.c tools/config_show.c
TOOLS_CONFIG_SRCS := $(CONFIG_LOAD_SRCS) $(CONFIG_CREATE_SRCS) tools/acpi.c \
	tools/boot_plan.c tools/iomem.c
TOOLS_SRCS := tools/warden.c tools/device.c tools/cmd_hardware.c \
	tools/cli_common.c tools/cmd_enable.c tools/cmd_cell.c \
	tools/cmd_cell_create.c tools/cmd_cell_load.c \
	tools/cmd_console.c tools/cli_args.c tools/cmd_config.c \
	tools/cmd_link.c tools/elf_image.c tools/load_check.c \
	tools/cmd_cell_linux.c tools/bzimage.c tools/linux_tables.c \
	tools/linux_dsdt.c tools/linux_irqs.c tools/linux_boot.c \
	tools/access_view.c tools/entry_explain.c common/vmx_guest_check.c \
	tools/link_ping.c tools/cmd_boot.c $(CONFIG_CHECK_SRCS) \
	$(TOOLS_LIB_SRCS) $(TOOLS_CONFIG_SRCS)
TOOLS_OBJS := $(patsubst %.c,$(TOOLS_OUT)/%.o,$(TOOLS_SRCS))

$(TOOLS_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

# libyaml (libyaml-dev) is linked statically like everything else; the
# Debian package links it as a shared library (TOOLS_LDFLAGS= in
# debian/rules), as Debian's policy wants.
TOOLS_LDFLAGS ?= -static
$(TOOLS_OUT)/warden: $(TOOLS_OBJS)
	$(CC) $(TOOLS_LDFLAGS) $(TOOLS_OBJS) -lyaml -llzma -o $@

-include $(TOOLS_OBJS:.o=.d)
