# SPDX-License-Identifier: GPL-2.0
# Installing the boot-time setup, the demo inmates and the module's DKMS
# source; the Debian packages (make deb, from debian/) and their check
# (make deb-check); warden.ko built by DKMS from the packaged source for
# the test machine's kernel (make dkms-module), which the boot group loads.

.PHONY: install-boot install-inmates install-dkms-src deb deb-check \
	dkms-module

install: install-boot install-inmates

WARDEN_PKG_VERSION := $(shell sed -n 's/^\#define WARDEN_VERSION "\(.*\)"/\1/p' \
	tools/warden.h)
DEMO_INMATES := tiny-demo apic-demo smp-demo uart-irq-demo pci-demo link-echo

# warden.service (not enabled: it needs /etc/warden/system.yaml) and the
# /etc/warden tree with its example, both naming where PREFIX puts the
# CLI and the demo inmates.
install-boot:
	@mkdir -p $(DESTDIR)/lib/systemd/system
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' scripts/warden.service \
		>$(DESTDIR)/lib/systemd/system/warden.service
	install -d $(DESTDIR)/etc/warden/cells
	install -m 0644 configs/etc/README $(DESTDIR)/etc/warden/README
	sed 's|/usr/lib/warden/|$(PREFIX)/lib/warden/|' \
		configs/etc/cells/tiny-demo.yaml.example \
		>$(DESTDIR)/etc/warden/cells/tiny-demo.yaml.example

install-inmates: inmates
	install -d $(DESTDIR)$(PREFIX)/lib/warden/inmates
	install -m 0644 $(patsubst %,$(BUILD)/inmates/%.bin,$(DEMO_INMATES)) \
		$(DESTDIR)$(PREFIX)/lib/warden/inmates/

# What DKMS builds warden.ko from: the driver and the ABI and common code
# it includes (driver/Kbuild), and dkms.conf (dh_dkms installs that).
install-dkms-src:
	@dest=$(DESTDIR)/usr/src/warden-$(WARDEN_PKG_VERSION); \
	for f in driver/Kbuild driver/Makefile driver/*.[chS] \
			common/config_check.mk common/config_check/*.[ch] \
			common/include/*.h \
			common/include/*/*.h include/warden/*.h; do \
		install -D -m 0644 $$f $$dest/$$f || exit 1; done

# The packages, built by dpkg-buildpackage in a copy of the tracked files
# (it writes to the parent folder), again only when a tracked file
# changed (scripts/deb-build.sh): build/deb/warden_*.deb and
# build/deb/warden-dkms_*.deb.
DEB_DIR := $(BUILD)/deb
deb: deps-build
	@scripts/deb-build.sh $(DEB_DIR) $(WARDEN_PKG_VERSION)

# Contents (scripts/deb-check.sh: each package unpacked into a scratch
# root, its file list against tests/package/*.files), lintian, and the
# unit checked by systemd-analyze there.
deb-check: deb
	@scripts/deb-check.sh $(DEB_DIR)

# warden.ko as DKMS builds it from the warden-dkms package, in a private
# DKMS tree under build/dkms (no system state touched), for the test
# machine's kernel: build/dkms/warden.ko.
dkms-module: deb
	@scripts/dkms-module.sh $(DEB_DIR)/warden-dkms_$(WARDEN_PKG_VERSION)_all.deb \
		$(BUILD)/dkms
