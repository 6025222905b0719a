# SPDX-License-Identifier: GPL-2.0
# The freestanding hypervisor image: no libc, no red zone, no SSE, linked
# by hypervisor/hypervisor.lds at WARDEN_HV_BASE (top 2 GiB: -mcmodel=kernel).

HV_OUT := $(BUILD)/hypervisor
HV_CFLAGS := -std=gnu11 -g -Wall -Wextra -Werror -ffreestanding \
	-fno-stack-protector -fno-pic -fno-pie -mno-red-zone -mcmodel=kernel \
	-mno-sse -mno-sse2 -mno-mmx -mno-avx -mno-80387 -mgeneral-regs-only \
	-fno-common -fno-asynchronous-unwind-tables -fcf-protection=none \
	-flto=auto \
	-Iinclude -Icommon/include -Ihypervisor/include \
	-Ihypervisor/arch/x86/include
# The core and the vendor-neutral x86 layer, shared by both images; each
# vendor's objects see only their own headers (HV_VENDOR_INC).
HV_SRCS := hypervisor/core/header.c hypervisor/core/console.c \
	hypervisor/core/console_log.c \
	hypervisor/core/setup.c hypervisor/core/control.c \
	hypervisor/core/paging.c hypervisor/core/cell.c hypervisor/core/mmio.c \
	hypervisor/core/units.c hypervisor/core/comm.c \
	hypervisor/core/ownership.c \
	$(CONFIG_CHECK_SRCS) \
	hypervisor/lib/string.c hypervisor/lib/format.c \
	hypervisor/arch/x86/uart.c hypervisor/arch/x86/entry.S \
	hypervisor/arch/x86/setup.c hypervisor/arch/x86/cpu.c \
	hypervisor/arch/x86/exit/exit.c hypervisor/arch/x86/exit/exit_table.c \
	hypervisor/arch/x86/exit/exit_rare.c \
	hypervisor/arch/x86/exit/emulate.c hypervisor/arch/x86/exit/mmio_exit.c \
	hypervisor/arch/x86/exit/access_log.c hypervisor/arch/x86/exit/legacy_ports.c \
	hypervisor/arch/x86/exit/cpuid_linux.c \
	hypervisor/arch/x86/msr.c \
	hypervisor/arch/x86/root_cell.c hypervisor/arch/x86/pgformat.c \
	hypervisor/arch/x86/apic/apic.c hypervisor/arch/x86/guest.c \
	hypervisor/arch/x86/insn.c hypervisor/arch/x86/insn_cache.c \
	hypervisor/arch/x86/apic/apic_dest.c \
	hypervisor/arch/x86/cell_tables.c hypervisor/arch/x86/apic/apic_cell.c \
	hypervisor/arch/x86/apic/apic_unit.c \
	hypervisor/arch/x86/ioapic/ioapic.c hypervisor/arch/x86/ioapic/ioapic_rules.c \
	hypervisor/arch/x86/irq_dest.c \
	hypervisor/arch/x86/hpet/hpet.c hypervisor/arch/x86/hpet/hpet_rules.c \
	hypervisor/arch/x86/root_page.c \
	hypervisor/arch/x86/pci/pci.c hypervisor/arch/x86/pci/pci_msix.c hypervisor/arch/x86/pci/pci_msi_remap.c \
	hypervisor/arch/x86/pci/pci_msix_root.c hypervisor/arch/x86/pci/pci_msi_root.c hypervisor/arch/x86/pci/pci_root_fns.c \
	hypervisor/arch/x86/pci/pci_rules.c hypervisor/arch/x86/pci/pci_decoders.c \
	hypervisor/arch/x86/pci/pci_pirq.c hypervisor/arch/x86/pci/pci_pirq_rules.c \
	hypervisor/arch/x86/pci/pci_rcba.c \
	hypervisor/arch/x86/link/link.c hypervisor/arch/x86/link/link_irq.c \
	hypervisor/arch/x86/link/link_rules.c \
	hypervisor/arch/x86/scrub.c hypervisor/arch/x86/events.c \
	hypervisor/arch/x86/cpu_rules.c \
	hypervisor/arch/x86/iommu/iommu.c hypervisor/arch/x86/iommu/vtd.c \
	hypervisor/arch/x86/iommu/vtd_qi.c hypervisor/arch/x86/iommu/vtd_irt.c \
	hypervisor/arch/x86/iommu/vtd_irt_cell.c \
	hypervisor/arch/x86/iommu/vtd_root_regs.c \
	hypervisor/arch/x86/iommu/vtd_rules.c hypervisor/arch/x86/iommu/irt_map.c
HV_VMX_SRCS := hypervisor/arch/x86/vmx/vmx.c hypervisor/arch/x86/vmx/vmx_vcpu.c \
	hypervisor/arch/x86/vmx/vmx_exit.c hypervisor/arch/x86/vmx/vmx_cell.c \
	hypervisor/arch/x86/vmx/ept.c hypervisor/arch/x86/vmx/vmx_entry.S \
	hypervisor/arch/x86/vmx/vmx_real_mode.c
HV_SVM_SRCS := hypervisor/arch/x86/svm/svm.c \
	hypervisor/arch/x86/svm/svm_vcpu.c hypervisor/arch/x86/svm/svm_exit.c \
	hypervisor/arch/x86/svm/svm_cell.c hypervisor/arch/x86/svm/npt.c \
	hypervisor/arch/x86/svm/svm_entry.S
HV_OBJS := $(patsubst %,$(HV_OUT)/%.o,$(HV_SRCS))
HV_VMX_OBJS := $(patsubst %,$(HV_OUT)/%.o,$(HV_VMX_SRCS))
HV_SVM_OBJS := $(patsubst %,$(HV_OUT)/%.o,$(HV_SVM_SRCS))
# Three levels (the image must fit in 128 KiB, issue 31).  -O2 for the
# code every VM exit of root's runs through (HV_HOT_SRCS): the
# dispatcher, the handlers of the exits root takes while running (CPUID,
# MSR, I/O, APIC, MMIO, hypercalls) and the vendors' exit paths; these
# files are not aligned (no padding of functions, loops and jumps): Bochs
# counts instructions, so the padding only cost bytes (1,280 of them).
# -Os for the code a running cell's events take (HV_WARM_SRCS): its
# doorbells and their delivery (link/, irq_dest.c: a cell's destination
# checked per doorbell), its emulated APIC where root is in xAPIC mode,
# the requests and events between CPUs (events.c), the access log of its
# exits, the console its lines go through.  -Oz (GCC 12's smallest code:
# 1.8 KB under -Os) for the rest, which runs at enable, create, destroy
# and disable or per programming act of root's.  LTO keeps each function's
# level (GCC records -O per function).
HV_OPT := -Oz
HV_HOT_SRCS := hypervisor/arch/x86/exit/exit.c \
	hypervisor/arch/x86/exit/exit_table.c hypervisor/arch/x86/exit/emulate.c \
	hypervisor/arch/x86/exit/mmio_exit.c \
	hypervisor/arch/x86/msr.c hypervisor/arch/x86/apic/apic.c \
	hypervisor/arch/x86/apic/apic_dest.c \
	hypervisor/arch/x86/insn.c \
	hypervisor/arch/x86/insn_cache.c hypervisor/arch/x86/guest.c \
	hypervisor/core/control.c hypervisor/core/mmio.c \
	hypervisor/arch/x86/vmx/vmx_exit.c hypervisor/arch/x86/vmx/vmx_vcpu.c \
	hypervisor/arch/x86/svm/svm_exit.c hypervisor/arch/x86/svm/svm_vcpu.c
HV_WARM_SRCS := hypervisor/arch/x86/link/link.c \
	hypervisor/arch/x86/link/link_irq.c hypervisor/arch/x86/apic/apic_cell.c \
	hypervisor/arch/x86/irq_dest.c hypervisor/arch/x86/events.c \
	hypervisor/arch/x86/exit/access_log.c hypervisor/core/console.c
$(patsubst %,$(HV_OUT)/%.o,$(HV_WARM_SRCS)): HV_OPT := -Os
$(patsubst %,$(HV_OUT)/%.o,$(HV_HOT_SRCS)): HV_OPT := -O2 -fno-align-functions -fno-align-jumps -fno-align-loops -fno-align-labels
$(HV_VMX_OBJS): HV_VENDOR_INC := -Ihypervisor/arch/x86/vmx/include
$(HV_SVM_OBJS): HV_VENDOR_INC := -Ihypervisor/arch/x86/svm/include

$(HV_OUT)/%.c.o: %.c hypervisor/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) $(HV_OPT) $(HV_VENDOR_INC) -MMD -MP -c $< -o $@

$(HV_OUT)/%.S.o: %.S hypervisor/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) $(HV_OPT) $(HV_VENDOR_INC) -D__ASSEMBLY__ -MMD -MP -c $< -o $@

# Two images from the shared objects: warden-intel.bin (VMX) and
# warden-amd.bin (SVM); the driver loads the one of the CPU's vendor.
HV_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,-z,max-page-size=4096 \
	-Wl,--no-warn-rwx-segments -T hypervisor/hypervisor.lds

$(HV_OUT)/warden-intel.elf: $(HV_OBJS) $(HV_VMX_OBJS) hypervisor/hypervisor.lds
	$(CC) $(HV_CFLAGS) -Oz $(HV_LDFLAGS) $(HV_OBJS) $(HV_VMX_OBJS) -o $@

$(HV_OUT)/warden-amd.elf: $(HV_OBJS) $(HV_SVM_OBJS) hypervisor/hypervisor.lds
	$(CC) $(HV_CFLAGS) -Oz $(HV_LDFLAGS) $(HV_OBJS) $(HV_SVM_OBJS) -o $@

# objcopy drops trailing empty sections; pad the file to exactly the
# image_size the header announces.
$(HV_OUT)/%.bin: $(HV_OUT)/%.elf
	objcopy -O binary $< $@
	truncate -s $$((0x$$(nm $< | sed -n 's/ A __image_size$$//p'))) $@

-include $(HV_OBJS:.o=.d) $(HV_VMX_OBJS:.o=.d) $(HV_SVM_OBJS:.o=.d)
