# SPDX-License-Identifier: GPL-2.0
# The config validator's sources (common/config_check/, entry points in
# common/include/config_check.h): the one list that every build of it
# includes (hypervisor/build.mk, driver/Kbuild, tools/build.mk,
# tests/unit/build.mk, tests/fuzz/build.mk), so that a new file is added
# here only.  Paths from the project's root.
CONFIG_CHECK_SRCS := common/config_check/system.c \
	common/config_check/blob.c common/config_check/memory.c \
	common/config_check/cpus_ports.c common/config_check/pins.c \
	common/config_check/devices.c common/config_check/links.c \
	common/config_check/iommus.c common/config_check/dma_alias.c
CONFIG_CHECK_HDRS := common/include/config_check.h \
	common/config_check/check.h
