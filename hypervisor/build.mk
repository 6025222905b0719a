# SPDX-License-Identifier: GPL-2.0
# The freestanding hypervisor image: no libc, no red zone, no SSE, linked
# by hypervisor/hypervisor.lds at WARDEN_HV_BASE (top 2 GiB: -mcmodel=kernel).

HV_OUT := $(BUILD)/hypervisor
HV_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding \
	-fno-stack-protector -fno-pic -fno-pie -mno-red-zone -mcmodel=kernel \
	-mno-sse -mno-sse2 -mno-mmx -mno-avx -mno-80387 -mgeneral-regs-only \
	-fno-common -fno-asynchronous-unwind-tables -fcf-protection=none \
	-flto=auto \
	-Iinclude -Icommon/include -Ihypervisor/include \
	-Ihypervisor/arch/x86/include -Ihypervisor/arch/x86/vmx/include
HV_SRCS := hypervisor/core/header.c hypervisor/core/console.c \
	hypervisor/core/console_log.c \
	hypervisor/core/setup.c hypervisor/core/control.c \
	hypervisor/core/paging.c hypervisor/core/cell.c hypervisor/core/mmio.c \
	hypervisor/core/units.c hypervisor/core/comm.c \
	hypervisor/core/ownership.c \
	common/config_check.c \
	hypervisor/lib/string.c hypervisor/lib/format.c \
	hypervisor/arch/x86/uart.c hypervisor/arch/x86/entry.S \
	hypervisor/arch/x86/setup.c hypervisor/arch/x86/cpu.c \
	hypervisor/arch/x86/exit.c hypervisor/arch/x86/exit_table.c \
	hypervisor/arch/x86/emulate.c hypervisor/arch/x86/mmio_exit.c \
	hypervisor/arch/x86/msr.c \
	hypervisor/arch/x86/root_cell.c hypervisor/arch/x86/pgformat.c \
	hypervisor/arch/x86/apic.c hypervisor/arch/x86/guest.c \
	hypervisor/arch/x86/insn.c hypervisor/arch/x86/insn_cache.c \
	hypervisor/arch/x86/apic_dest.c \
	hypervisor/arch/x86/cell_tables.c hypervisor/arch/x86/apic_cell.c \
	hypervisor/arch/x86/apic_unit.c \
	hypervisor/arch/x86/scrub.c hypervisor/arch/x86/events.c \
	hypervisor/arch/x86/cpu_rules.c \
	hypervisor/arch/x86/vmx/vmx.c hypervisor/arch/x86/vmx/vmx_vcpu.c \
	hypervisor/arch/x86/vmx/vmx_exit.c hypervisor/arch/x86/vmx/vmx_cell.c \
	hypervisor/arch/x86/vmx/ept.c hypervisor/arch/x86/vmx/vmx_entry.S \
	hypervisor/arch/x86/vmx/vmx_entry_check.c
HV_OBJS := $(patsubst %,$(HV_OUT)/%.o,$(HV_SRCS))

$(HV_OUT)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) -MMD -c $< -o $@

$(HV_OUT)/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(HV_CFLAGS) -D__ASSEMBLY__ -MMD -c $< -o $@

$(HV_OUT)/warden-intel.elf: $(HV_OBJS) hypervisor/hypervisor.lds
	$(CC) $(HV_CFLAGS) -nostdlib -static -no-pie -Wl,--build-id=none \
		-Wl,-z,noexecstack -Wl,-z,max-page-size=4096 \
		-Wl,--no-warn-rwx-segments \
		-T hypervisor/hypervisor.lds $(HV_OBJS) -o $@

# objcopy drops trailing empty sections; pad the file to exactly the
# image_size the header announces.
$(HV_OUT)/warden-intel.bin: $(HV_OUT)/warden-intel.elf
	objcopy -O binary $< $@
	truncate -s $$((0x$$(nm $< | sed -n 's/ A __image_size$$//p'))) $@

-include $(HV_OBJS:.o=.d)
