// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of "warden hardware check" about the running system rather
 * than the CPU (host_facts.h): whether warden.ko can be had for this
 * kernel, whether KVM holds VMX or SVM, the memmap= reservation, the
 * IOMMU's ACPI table, and whether Linux saw VMX or SVM usable.  Everything is read under a root prefix so that the
 * unit tests use recorded trees.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dmar_report.h"
#include "host_facts.h"
#include "memmap.h"

#define MIB (1ull << 20)

static bool exists(const char *root, const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return access(full, F_OK) == 0;
}

/* The first line of a small file, without its newline; "" if unreadable. */
static void read_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];
	FILE *f;

	buf[0] = '\0';
	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static struct hwcap_result *row(struct hwcap_result *r, const char *name,
				enum hwcap_status st)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->status = st;
	return r;
}

/* warden.ko loaded, installed for this kernel, or buildable (headers). */
static void module_row(const struct host_facts_opts *o, struct hwcap_result *r)
{
	static const char *const dirs[] = { "extra", "updates", "updates/dkms",
					    "kernel/extra" };
	static const char *const exts[] = { "", ".xz", ".zst", ".gz" };
	char path[256];
	size_t d, e;

	if (o->driver_loaded || exists(o->root, "/sys/module/warden")) {
		snprintf(row(r, "warden.ko", HWCAP_OK)->detail,
			 sizeof(r->detail), "loaded");
		return;
	}
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		for (e = 0; e < sizeof(exts) / sizeof(exts[0]); e++) {
			snprintf(path, sizeof(path),
				 "/lib/modules/%s/%s/warden.ko%s", o->release,
				 dirs[d], exts[e]);
			if (exists(o->root, path)) {
				snprintf(row(r, "warden.ko", HWCAP_OK)->detail,
					 sizeof(r->detail),
					 "installed (%.150s), not loaded: "
					 "modprobe warden",
					 path);
				return;
			}
		}
	}
	snprintf(path, sizeof(path), "/lib/modules/%s/build/Makefile",
		 o->release);
	if (exists(o->root, path)) {
		snprintf(row(r, "warden.ko", HWCAP_OK)->detail,
			 sizeof(r->detail),
			 "not installed; kernel %s's headers are there to "
			 "build it (make install)",
			 o->release);
		return;
	}
	snprintf(row(r, "warden.ko", HWCAP_MISSING)->detail, sizeof(r->detail),
		 "not installed, and no headers for kernel %s to build it "
		 "(Debian: apt-get install linux-headers-%s)",
		 o->release, o->release);
}

/*
 * KVM holds VMX (VMXON) or SVM (EFER.SVME) while a virtual machine runs,
 * and from the moment it is loaded when kvm.enable_virt_at_load is Y
 * (Linux 6.12 on); Warden's enable is then refused.
 */
static void kvm_row(const struct host_facts_opts *o, struct hwcap_result *r)
{
	const char *mod = o->amd ? "kvm_amd" : "kvm_intel";
	const char *ext = o->amd ? "SVM" : "VMX";
	char path[128], at_load[8];

	snprintf(path, sizeof(path), "/sys/module/%s", mod);
	if (!exists(o->root, path)) {
		snprintf(row(r, "KVM not holding VMX/SVM", HWCAP_OK)->detail,
			 sizeof(r->detail), "%s not loaded", mod);
		return;
	}
	read_line(o->root, "/sys/module/kvm/parameters/enable_virt_at_load",
		  at_load, sizeof(at_load));
	if (at_load[0] == 'Y' || at_load[0] == '1') {
		snprintf(
			row(r, "KVM not holding VMX/SVM", HWCAP_MISSING)->detail,
			sizeof(r->detail),
			"%s is loaded and holds %s (enable_virt_at_load): "
			"rmmod %s",
			mod, ext, mod);
		return;
	}
	snprintf(row(r, "KVM not holding VMX/SVM", HWCAP_INFO)->detail,
		 sizeof(r->detail),
		 "%s is loaded: it holds %s while a VM runs; stop them first",
		 mod, ext);
}

static void reservation_row(const struct host_facts_opts *o,
			    struct hwcap_result *r)
{
	char cmdline[4096];
	struct memmap m;

	read_line(o->root, "/proc/cmdline", cmdline, sizeof(cmdline));
	switch (memmap_find(cmdline, &m)) {
	case MEMMAP_NONE:
		snprintf(row(r, "memmap= reservation", HWCAP_MISSING)->detail,
			 sizeof(r->detail),
			 "none on the kernel command line: see warden config "
			 "create --suggest-reservation");
		return;
	case MEMMAP_MANGLED:
		snprintf(row(r, "memmap= reservation", HWCAP_MISSING)->detail,
			 sizeof(r->detail),
			 "%.60s: mangled by GRUB ('$0' taken for a variable): "
			 "write %.70s in /etc/default/grub",
			 m.text, m.fixed);
		return;
	case MEMMAP_FOUND:
		break;
	}
	if (m.size < MEMMAP_MIN_SIZE) {
		snprintf(row(r, "memmap= reservation", HWCAP_MISSING)->detail,
			 sizeof(r->detail),
			 "%.100s: %llu MiB, too small: %llu MiB at least",
			 m.text, (unsigned long long)(m.size / MIB),
			 MEMMAP_MIN_SIZE / MIB);
		return;
	}
	snprintf(row(r, "memmap= reservation", HWCAP_OK)->detail,
		 sizeof(r->detail), "%.100s: %llu MiB at 0x%llx", m.text,
		 (unsigned long long)(m.size / MIB),
		 (unsigned long long)m.start);
}

/* The IOMMU: an Intel one (DMAR) is the hypervisor's from enable to
 * disable, so Linux must leave its DMA remapping off (intel_iommu=off;
 * Linux makes IOMMU groups only while it translates DMA, and "warden
 * enable" refuses then); an AMD one (IVRS) is not driven yet. */
static void iommu_row(const struct host_facts_opts *o, struct hwcap_result *r)
{
	const char *table = NULL;

	if (exists(o->root, "/sys/firmware/acpi/tables/DMAR"))
		table = "DMAR (Intel VT-d)";
	else if (exists(o->root, "/sys/firmware/acpi/tables/IVRS"))
		table = "IVRS (AMD-Vi)";
	if (table && table[0] == 'D' &&
	    exists(o->root, "/sys/kernel/iommu_groups/0")) {
		snprintf(row(r, "IOMMU", HWCAP_MISSING)->detail,
			 sizeof(r->detail),
			 "%s: Linux translates DMA with it (IOMMU groups): "
			 "boot it with intel_iommu=off, which keeps "
			 "interrupt remapping, so that the hypervisor owns "
			 "DMA remapping",
			 table);
		return;
	}
	snprintf(row(r, "IOMMU", HWCAP_INFO)->detail, sizeof(r->detail), "%s%s",
		 table ? table : "no DMAR or IVRS table",
		 !table		   ? ": devices' DMA is not confined"
		 : table[0] == 'D' ? ": the hypervisor confines devices' DMA "
				     "(boot "
				     "Linux with intel_iommu=off)"
				   : ": not driven yet, devices' DMA is not "
				     "confined");
}

/* Is flag among the "flags" of /proc/cpuinfo's first CPU? */
static bool cpuinfo_flag(const char *root, const char *flag, bool *read)
{
	char path[512], line[4096], want[32];
	bool found = false;
	FILE *f;

	*read = false;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "r");
	if (!f)
		return false;
	snprintf(want, sizeof(want), " %s ", flag);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		line[strcspn(line, "\n")] = ' ';
		found = strstr(line, want) != NULL;
		*read = true;
		break;
	}
	fclose(f);
	return found;
}

static void cpuinfo_row(const struct host_facts_opts *o, struct hwcap_result *r)
{
	const char *flag = o->amd ? "svm" : "vmx";
	bool read, set = cpuinfo_flag(o->root, flag, &read);

	if (!o->cpuid_virt || !read) {
		snprintf(row(r, "VMX/SVM usable (/proc/cpuinfo)", HWCAP_INFO)
				 ->detail,
			 sizeof(r->detail), "%s",
			 read ? "nothing to see without VMX/SVM in CPUID"
			      : "/proc/cpuinfo has no flags line");
		return;
	}
	if (set) {
		snprintf(row(r, "VMX/SVM usable (/proc/cpuinfo)", HWCAP_OK)
				 ->detail,
			 sizeof(r->detail), "/proc/cpuinfo lists %s", flag);
		return;
	}
	snprintf(
		row(r, "VMX/SVM usable (/proc/cpuinfo)", HWCAP_MISSING)->detail,
		sizeof(r->detail),
		"/proc/cpuinfo lacks %s although CPUID has it: the firmware "
		"locked it off (enable it in the setup) or clearcpuid=",
		flag);
}

/* Linux's sysfs view of a unit's registers, where its DMAR driver shows
 * them (/sys/class/iommu/dmarN/intel-iommu/: not with intel_iommu=off). */
static bool unit_regs(const char *root, uint64_t base, struct dmar_caps *c)
{
	char path[96], line[64];
	unsigned long long addr, cap, ecap;
	int n;

	for (n = 0; n < 64; n++) {
		snprintf(path, sizeof(path),
			 "/sys/class/iommu/dmar%d/intel-iommu/address", n);
		line[0] = '\0';
		read_line(root, path, line, sizeof(line));
		if (sscanf(line, "%llx", &addr) != 1 || addr != base)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/iommu/dmar%d/intel-iommu/cap", n);
		read_line(root, path, line, sizeof(line));
		if (sscanf(line, "%llx", &cap) != 1)
			return false;
		snprintf(path, sizeof(path),
			 "/sys/class/iommu/dmar%d/intel-iommu/ecap", n);
		read_line(root, path, line, sizeof(line));
		if (sscanf(line, "%llx", &ecap) != 1)
			return false;
		dmar_caps_decode(cap, ecap, c);
		return true;
	}
	return false;
}

/* The units of the ACPI DMAR and what they cover: the source ids the
 * hypervisor's interrupt remapping must know for the IOAPICs and HPETs. */
static void units_row(const struct host_facts_opts *o, struct hwcap_result *r)
{
	static uint8_t table[1 << 16];
	struct dmar_caps caps[ACPI_DMAR_MAX_UNITS];
	bool known[ACPI_DMAR_MAX_UNITS] = { false };
	struct acpi_dmar d;
	char path[512];
	const char *why = "cannot be read";
	unsigned int i;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/DMAR",
		 o->root);
	f = fopen(path, "rb");
	if (!f) {
		snprintf(row(r, "IOMMU units (ACPI DMAR)", HWCAP_INFO)->detail,
			 sizeof(r->detail), "none");
		return;
	}
	len = fread(table, 1, sizeof(table), f);
	fclose(f);
	if (acpi_parse_dmar_units(table, len, &d, &why)) {
		snprintf(row(r, "IOMMU units (ACPI DMAR)", HWCAP_INFO)->detail,
			 sizeof(r->detail),
			 "the table cannot be read (%s, or not as root)", why);
		return;
	}
	for (i = 0; i < d.num_units; i++)
		known[i] = unit_regs(o->root, d.units[i].base, &caps[i]);
	dmar_describe(&d, caps, known,
		      row(r, "IOMMU units (ACPI DMAR)", HWCAP_INFO)->detail,
		      sizeof(r->detail));
}

size_t host_facts(const struct host_facts_opts *o, struct hwcap_result *out)
{
	module_row(o, &out[0]);
	kvm_row(o, &out[1]);
	reservation_row(o, &out[2]);
	iommu_row(o, &out[3]);
	cpuinfo_row(o, &out[4]);
	units_row(o, &out[5]);
	return HOST_FACTS_ROWS;
}
