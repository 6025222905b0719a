# SPDX-License-Identifier: GPL-2.0
# The warden CLI: linked statically so that the test machine's busybox
# initramfs needs no shared libraries.

TOOLS_OUT := $(BUILD)/tools
TOOLS_LIB_SRCS := tools/hwcaps.c tools/errmsg.c
TOOLS_SRCS := tools/warden.c tools/device.c tools/cmd_hardware.c \
	tools/cmd_enable.c \
	$(TOOLS_LIB_SRCS)
TOOLS_OBJS := $(patsubst %.c,$(TOOLS_OUT)/%.o,$(TOOLS_SRCS))

$(TOOLS_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -MMD -c $< -o $@

$(TOOLS_OUT)/warden: $(TOOLS_OBJS)
	$(CC) -static $(TOOLS_OBJS) -o $@

-include $(TOOLS_OBJS:.o=.d)
