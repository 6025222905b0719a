# SPDX-License-Identifier: GPL-2.0
# The inmate SDK: "make install-sdk" installs libinmate, its headers (with
# the ABI headers they include), the linker script, a Makefile fragment
# and a pkg-config file under $(DESTDIR)$(PREFIX), so that an inmate
# builds out of the tree (docs/inmates.md, "Out of the tree").  The
# build checks it the way a user would: tests/sdk/hello, an inmate kept
# out of the tree's own rules, is built against an install into
# $(BUILD)/sdk-root only, into $(BUILD)/inmates/sdk-hello.elf, which
# the sdk system group runs in a cell.

SDK_INCLUDE := $(PREFIX)/include/warden-inmate
SDK_LIB := $(PREFIX)/lib/warden
SDK_SUBST = sed -e 's|@ARCH_CFLAGS@|$(strip $(INMATE_ARCH_CFLAGS))|' \
	-e 's|@ARCH_LDFLAGS@|$(strip $(INMATE_ARCH_LDFLAGS))|' \
	-e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(WARDEN_SDK_VERSION)|'
WARDEN_SDK_VERSION := $(shell sed -n 's/^\#define WARDEN_VERSION "\(.*\)"/\1/p' tools/warden.h)

.PHONY: install-sdk
install-sdk: $(INMATE_LIB)
	install -D -m 0644 $(INMATE_LIB) $(DESTDIR)$(SDK_LIB)/libinmate.a
	install -D -m 0644 $(INMATE_LDS) $(DESTDIR)$(SDK_LIB)/inmate.lds
	install -D -m 0644 -t $(DESTDIR)$(SDK_INCLUDE) inmates/include/inmate.h
	install -D -m 0644 -t $(DESTDIR)$(SDK_INCLUDE)/inmate \
		inmates/include/inmate/*.h
	install -D -m 0644 -t $(DESTDIR)$(SDK_INCLUDE)/warden include/warden/*.h
	@mkdir -p $(DESTDIR)$(PREFIX)/share/warden $(DESTDIR)$(PREFIX)/lib/pkgconfig
	$(SDK_SUBST) inmates/sdk/inmate.mk.in \
		>$(DESTDIR)$(PREFIX)/share/warden/inmate.mk
	$(SDK_SUBST) inmates/sdk/warden-inmate.pc.in \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/warden-inmate.pc

# The out-of-tree example, against a fresh install of the SDK alone.
SDK_ROOT := $(BUILD)/sdk-root
$(INMATE_OUT)/sdk-hello.elf: $(INMATE_LIB) $(INMATE_LDS) inmates/sdk.mk \
		inmates/sdk/inmate.mk.in tests/sdk/hello/Makefile \
		tests/sdk/hello/hello.c $(wildcard include/warden/*.h) \
		$(wildcard inmates/include/*.h inmates/include/inmate/*.h)
	rm -rf $(SDK_ROOT) $(INMATE_OUT)/sdk-hello
	$(MAKE) --no-print-directory install-sdk DESTDIR=$(SDK_ROOT) PREFIX=/usr
	mkdir -p $(INMATE_OUT)/sdk-hello
	cp tests/sdk/hello/Makefile tests/sdk/hello/hello.c $(INMATE_OUT)/sdk-hello/
	$(MAKE) --no-print-directory -C $(INMATE_OUT)/sdk-hello \
		WARDEN_SDK=$(SDK_ROOT)/usr
	cp $(INMATE_OUT)/sdk-hello/hello.elf $@

inmates: $(INMATE_OUT)/sdk-hello.elf

.PHONY: clean-sdk
clean-sdk:
	rm -rf $(SDK_ROOT)
clean: clean-sdk
