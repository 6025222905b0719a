// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware probe without the driver: what driver/hwprobe.c reads on
 * each CPU, read from user space, so that "warden hardware check" gives a
 * verdict where warden.ko does not build or load.  CPUID runs as the
 * instruction on each online CPU in turn (the thread pinned there); the
 * MSRs come from the msr module's /dev/cpu/N/msr, which only root may
 * read.  VMXON needs ring 0: it is not tried (HWCAP_PROBE_HOST), and CR0
 * and CR4 stay 0.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <x86/msr.h>

#include "hwcaps.h"
#include "hwprobe_host.h"

/* The driver's leaves and MSRs (driver/hwprobe.c), in its order, so that
 * a dump reads the same whoever took it (test_hwcaps_host.c compares
 * them with the driver's recordings). */
static const unsigned int leaves[][2] = {
	{ 0, 0 },	   { 1, 0 },	      { 7, 0 },		 { 0xd, 1 },
	{ 0x80000000, 0 }, { 0x80000001, 0 }, { 0x8000000a, 0 },
};
static const unsigned int msrs_vmx[] = {
	MSR_IA32_FEATURE_CONTROL,
	MSR_IA32_VMX_BASIC,
	MSR_IA32_VMX_PINBASED_CTLS,
	MSR_IA32_VMX_PROCBASED_CTLS,
	MSR_IA32_VMX_EXIT_CTLS,
	MSR_IA32_VMX_ENTRY_CTLS,
	MSR_IA32_VMX_MISC,
	MSR_IA32_VMX_CR0_FIXED0,
	MSR_IA32_VMX_CR0_FIXED1,
	MSR_IA32_VMX_CR4_FIXED0,
	MSR_IA32_VMX_CR4_FIXED1,
	MSR_IA32_VMX_VMCS_ENUM,
	MSR_IA32_VMX_PROCBASED_CTLS2,
	MSR_IA32_VMX_EPT_VPID_CAP,
	MSR_IA32_VMX_TRUE_PINBASED_CTLS,
	MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
	MSR_IA32_VMX_TRUE_EXIT_CTLS,
	MSR_IA32_VMX_TRUE_ENTRY_CTLS,
};
static const unsigned int msrs_svm[] = { MSR_AMD_VM_CR, MSR_IA32_EFER };

_Static_assert(sizeof(leaves) / sizeof(leaves[0]) <= WARDEN_PROBE_MAX_CPUID,
	       "leaves");
_Static_assert(sizeof(msrs_vmx) / sizeof(msrs_vmx[0]) <= WARDEN_PROBE_MAX_MSRS,
	       "msrs");

static void read_cpuid(struct warden_hw_probe *p)
{
	unsigned int i;

	for (i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++) {
		struct warden_cpuid_leaf *l = &p->cpuid[i];

		l->leaf = leaves[i][0];
		l->subleaf = leaves[i][1];
		__cpuid_count(l->leaf, l->subleaf, l->eax, l->ebx, l->ecx,
			      l->edx);
	}
	p->num_cpuid = i;
}

/* Returns 0, or the errno of opening /dev/cpu/N/msr. */
static int read_msrs(struct warden_hw_probe *p, const unsigned int *index,
		     size_t num)
{
	char path[48];
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", p->cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	for (i = 0; i < num; i++) {
		struct warden_msr_value *m = &p->msrs[i];
		uint64_t v;

		m->index = index[i];
		/* the msr module answers EIO for an MSR that faults */
		m->valid = pread(fd, &v, sizeof(v), index[i]) == sizeof(v);
		m->value = m->valid ? v : 0;
	}
	p->num_msrs = (uint32_t)num;
	close(fd);
	return 0;
}

static bool online(unsigned int cpu)
{
	char path[64], c = '1';
	FILE *f;

	if (cpu == 0)
		return true; /* CPU 0 has no "online" file on most machines */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online",
		 cpu);
	f = fopen(path, "r");
	if (!f)
		return access(path, F_OK) != 0; /* no file: cannot go offline */
	if (fread(&c, 1, 1, f) != 1)
		c = '0';
	fclose(f);
	return c == '1';
}

const unsigned int *hwprobe_host_msrs(bool amd, size_t *num)
{
	*num = amd ? sizeof(msrs_svm) / sizeof(msrs_svm[0])
		   : sizeof(msrs_vmx) / sizeof(msrs_vmx[0]);
	return amd ? msrs_svm : msrs_vmx;
}

int hwprobe_host(struct warden_hw_probe *probes, size_t max, size_t *num,
		 struct hwprobe_host_info *info)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t saved, one;
	unsigned int cpu;
	int vendor = -1;

	memset(info, 0, sizeof(*info));
	*num = 0;
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -1;
	for (cpu = 0; cpu < (unsigned int)ncpus && *num < max; cpu++) {
		struct warden_hw_probe *p = &probes[*num];
		const unsigned int *msrs;
		size_t n_msrs;
		uint32_t id[3];
		int err;

		if (!online(cpu)) {
			info->skipped++;
			continue;
		}
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			info->skipped++;
			continue;
		}
		memset(p, 0, sizeof(*p));
		p->cpu = cpu;
		p->vmx_state = WARDEN_VMX_NOT_PROBED | HWCAP_PROBE_HOST;
		read_cpuid(p);
		id[0] = p->cpuid[0].ebx;
		id[1] = p->cpuid[0].edx;
		id[2] = p->cpuid[0].ecx;
		vendor = (int)warden_vendor_of(id);
		msrs = hwprobe_host_msrs(vendor == WARDEN_VENDOR_AMD, &n_msrs);
		err = vendor == WARDEN_VENDOR_OTHER
			      ? 0
			      : read_msrs(p, msrs, n_msrs);
		if (err) {
			p->vmx_state |= HWCAP_PROBE_NO_MSRS;
			if (!info->msr_errno)
				info->msr_errno = err;
		}
		(*num)++;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	return *num ? 0 : -1;
}
