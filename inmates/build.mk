# SPDX-License-Identifier: GPL-2.0
# Inmates: libinmate (inmates/lib, freestanding, no libc) archived into
# $(BUILD)/inmates/libinmate.a, and flat images linked at guest-physical 0
# by inmates/lib/inmate.lds: $(BUILD)/inmates/<name>.bin from
# inmates/demos/<name>.c or inmates/tests/<name>.c.  See docs/inmates.md.

INMATE_OUT := $(BUILD)/inmates
# What every inmate is compiled and linked with, in the tree and out of it
# (the SDK's inmate.mk and warden-inmate.pc carry them: inmates/sdk.mk).
INMATE_ARCH_CFLAGS := -ffreestanding -fno-stack-protector -fno-pic \
	-fno-pie -mno-red-zone -mcmodel=small -mno-sse -mno-sse2 -mno-mmx \
	-mno-avx -mno-80387 -mgeneral-regs-only -fno-common \
	-fno-asynchronous-unwind-tables -fcf-protection=none \
	-fno-tree-loop-distribute-patterns
INMATE_ARCH_LDFLAGS := -nostdlib -static -z noexecstack -z max-page-size=4096
INMATE_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes $(INMATE_ARCH_CFLAGS) -Iinclude -Iinmates/include
INMATE_LDFLAGS := $(INMATE_ARCH_LDFLAGS) --fatal-warnings

INMATE_LIB_SRCS := entry.S isr.S setup.c irq.c uart.c printk.c comm.c \
	timing.c string.c paging.c cmdline.c apic.c smp.c catch.S ioapic.c pci.c \
	link.c net.c
INMATE_LIB_OBJS := $(patsubst %,$(INMATE_OUT)/lib/%.o,$(INMATE_LIB_SRCS))
INMATE_LIB := $(INMATE_OUT)/libinmate.a
INMATE_LDS := inmates/lib/inmate.lds

INMATE_DEMOS := tiny-demo apic-demo smp-demo uart-irq-demo pci-demo link-echo
INMATE_TESTS := exception-test bad-write triple-fault shutdown-test ipi-root edu-dma \
	bad-msr vmx-insn bad-port bad-state fuzz nmi-hold
INMATE_BINS := $(patsubst %,$(INMATE_OUT)/%.bin,$(INMATE_DEMOS) $(INMATE_TESTS))

.PHONY: inmates
inmates: $(INMATE_BINS)

$(INMATE_OUT)/lib/%.c.o: inmates/lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(INMATE_CFLAGS) -MMD -MP -c $< -o $@

$(INMATE_OUT)/lib/%.S.o: inmates/lib/%.S
	@mkdir -p $(dir $@)
	$(CC) $(INMATE_CFLAGS) -D__ASSEMBLY__ -MMD -MP -c $< -o $@

$(INMATE_LIB): $(INMATE_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $(INMATE_LIB_OBJS)

$(INMATE_OUT)/obj/%.o: inmates/demos/%.c
	@mkdir -p $(dir $@)
	$(CC) $(INMATE_CFLAGS) -MMD -MP -c $< -o $@

$(INMATE_OUT)/obj/%.o: inmates/tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(INMATE_CFLAGS) -MMD -MP -c $< -o $@

$(INMATE_OUT)/%.elf: $(INMATE_OUT)/obj/%.o $(INMATE_LIB) $(INMATE_LDS)
	$(LD) $(INMATE_LDFLAGS) -T $(INMATE_LDS) $< $(INMATE_LIB) -o $@

$(INMATE_OUT)/%.bin: $(INMATE_OUT)/%.elf
	objcopy -O binary $< $@

.PRECIOUS: $(INMATE_OUT)/%.elf $(INMATE_OUT)/obj/%.o

-include $(INMATE_LIB_OBJS:.o=.d) \
	$(patsubst %,$(INMATE_OUT)/obj/%.d,$(INMATE_DEMOS) $(INMATE_TESTS))
