// SPDX-License-Identifier: GPL-2.0
/*
 * What enable (and disable) check before touching anything: the CPUs
 * online, the config (the shared validator), the links' memory reserved,
 * the CPU vendor and its image, the virtualization extension free.  Each
 * fills the error record and returns an errno on a refusal.
 */
#include <linux/cpumask.h>
#include <linux/firmware.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/smp.h>

#include <asm/msr.h>
#include <asm/special_insns.h>

#include <warden/config.h>
#include <warden/hvheader.h>
#include <x86/cpuid.h>

#include "config_check.h"
#include "enable_steps.h"
#include "hv_state.h"
#include "warden-driver.h"

/* Every CPU online, but those the hypervisor lost. */
int check_all_online(struct warden_error *err, const char *what)
{
	struct wd_reason why = { .rule = WARDEN_RULE_CPU_OFFLINE,
				 .item_kind = WARDEN_ITEM_CPU,
				 .cpu = WARDEN_NO_CPU };
	unsigned int cpu;

	for_each_possible_cpu (cpu) {
		if (cpu_online(cpu) || cpu_lost(cpu))
			continue;
		why.item_index = cpu;
		return wd_error(err, -EBUSY, &why,
				"%s: CPU %u is offline; bring it online first",
				what, cpu);
	}
	return 0;
}

/* Keep the first error the validator reports. */
static void first_error(void *ctx, const struct warden_error *e)
{
	struct warden_error *first = ctx;

	if (!first->rule)
		*first = *e;
}

/*
 * The shared validator (common/config_check.c) decides; the hypervisor
 * checks again, as it trusts no one.
 */
int check_config(struct warden_error *err, const void *blob, u32 size)
{
	struct warden_error first = { 0 };
	unsigned int n = config_check_system(blob, size, first_error, &first);

	if (!n)
		return 0;
	*err = first;
	err->cpu = WARDEN_NO_CPU;
	pr_err("warden: enable: the system config has %u error%s; the first: "
	       "rule %u, item kind %u index %u, values 0x%llx 0x%llx\n",
	       n, n == 1 ? "" : "s", first.rule, first.item_kind,
	       first.item_index, first.values[0], first.values[1]);
	return first.code ? first.code : -EINVAL;
}

/* Every link's memory lies outside Linux's RAM (a memmap= reservation):
 * 0, or an error naming the link (the config is validated: its links are
 * inside the blob). */
int check_links_reserved(struct warden_error *err,
			 const struct warden_system_desc *sys)
{
	const struct warden_link *l = warden_system_links(sys);
	struct wd_reason why = { .rule = WARDEN_RULE_MEM_NOT_RESERVED,
				 .item_kind = WARDEN_ITEM_LINK,
				 .cpu = WARDEN_NO_CPU };
	unsigned int i;

	for (i = 0; i < sys->platform.num_links; i++) {
		if (region_intersects(l[i].phys_start, l[i].size,
				      IORESOURCE_SYSTEM_RAM,
				      IORES_DESC_NONE) == REGION_DISJOINT)
			continue;
		why.item_index = i;
		why.values[0] = l[i].phys_start;
		why.values[1] = l[i].size;
		return wd_error(err, -ENOMEM, &why,
				"enable: link \"%.*s\" memory 0x%llx+0x%llx is "
				"Linux's RAM, not reserved; boot with memmap=",
				WARDEN_NAME_LEN, l[i].name, l[i].phys_start,
				l[i].size);
	}
	return 0;
}

int check_image(struct warden_error *err, const struct firmware *fw,
		const char *image, u64 need_after_image)
{
	const struct warden_hv_header *h = (const void *)fw->data;
	struct wd_reason why = { .rule = WARDEN_RULE_FIRMWARE_INVALID,
				 .item_kind = WARDEN_ITEM_NONE,
				 .cpu = WARDEN_NO_CPU };

	if (fw->size < sizeof(*h) ||
	    memcmp(h->signature, WARDEN_HV_SIGNATURE, sizeof(h->signature))) {
		why.text = "signature";
		return wd_error(err, -EINVAL, &why,
				"enable: %s is not a Warden hypervisor image",
				image);
	}
	if (h->abi_revision != WARDEN_ABI_REVISION) {
		why.text = "ABI revision";
		why.values[0] = h->abi_revision;
		why.values[1] = WARDEN_ABI_REVISION;
		return wd_error(err, -EINVAL, &why,
				"enable: %s has ABI revision %u, the driver %d",
				image, h->abi_revision, WARDEN_ABI_REVISION);
	}
	if (h->image_size != fw->size || h->core_size < h->image_size ||
	    h->entry_offset >= h->image_size) {
		why.text = "image size";
		why.values[0] = h->image_size;
		why.values[1] = fw->size;
		return wd_error(err, -EINVAL, &why,
				"enable: %s is damaged (sizes do not match)",
				image);
	}
	if (h->core_size + need_after_image > wd.hv_size) {
		why.rule = WARDEN_RULE_HV_MEM_TOO_SMALL;
		why.values[0] = h->core_size + need_after_image;
		why.values[1] = wd.hv_size;
		return wd_error(err, -ENOMEM, &why,
				"enable: hypervisor memory too small: 0x%llx "
				"bytes needed, 0x%llx reserved",
				h->core_size + need_after_image, wd.hv_size);
	}
	return 0;
}

/*
 * The image for this CPU's vendor into *image (abi.h: Hygon counts as AMD),
 * and the vendor string of CPUID leaf 0 into name, for messages.  Warden
 * has no image for other vendors.  All CPUs of a machine have one vendor,
 * so this CPU's decides.
 */
int pick_image(struct warden_error *err, u32 *vendor, const char **image,
	       char name[13])
{
	struct wd_reason why = { .rule = WARDEN_RULE_CPU_VENDOR,
				 .cpu = WARDEN_NO_CPU };
	u32 id[3];

	*vendor = warden_cpuid_vendor(id);
	warden_vendor_text(id, name);
	if (*vendor == WARDEN_VENDOR_INTEL) {
		*image = WARDEN_FIRMWARE_INTEL;
		return 0;
	}
	if (*vendor == WARDEN_VENDOR_AMD) {
		*image = WARDEN_FIRMWARE_AMD;
		return 0;
	}
	why.text = name;
	return wd_error(err, -ENODEV, &why,
			"enable: CPU vendor \"%s\" is not supported; Warden "
			"runs on Intel, AMD and Hygon CPUs",
			name);
}

/*
 * Refuse when another hypervisor (KVM, for one) has switched the vendor's
 * virtualization extension on, here: CR4.VMXE on Intel (SDM Vol. 3C 24.7),
 * EFER.SVME on AMD (APM Vol. 2 15.4); and on AMD when the CPU has no SVM
 * (CPUID 8000_0001h ECX[2], APM Vol. 3 E.4.2: the image is not loaded at
 * all) or the firmware has disabled it (VM_CR.SVMDIS).  "warden hardware
 * check" names the same refusals (tools/hwcaps_svm.c).
 */
int check_virt_free(struct warden_error *err, u32 vendor)
{
	struct wd_reason why = { .cpu = smp_processor_id() };
	u64 efer, vm_cr;

	if (vendor == WARDEN_VENDOR_INTEL) {
		if (!(__read_cr4() & X86_CR4_VMXE))
			return 0;
		why.rule = WARDEN_RULE_VMX_BUSY;
		return wd_error(err, -EBUSY, &why,
				"enable: VMX is in use by another hypervisor: "
				"CR4.VMXE is set (is a KVM virtual machine "
				"running?)");
	}
	if (!(cpuid_ecx(0x80000001) & CPUID80000001_ECX_SVM)) {
		why.rule = WARDEN_RULE_FEATURE_MISSING;
		why.values[0] = 0x80000001;
		why.values[1] = CPUID80000001_ECX_SVM;
		why.text = "SVM (CPUID 0x80000001 ECX[2] = 0)";
		return wd_error(err, -EOPNOTSUPP, &why,
				"enable: this CPU has no SVM (CPUID 0x80000001 "
				"ECX[2] = 0)");
	}
	rdmsrl(MSR_EFER, efer);
	if (efer & EFER_SVME) {
		why.rule = WARDEN_RULE_SVM_BUSY;
		return wd_error(err, -EBUSY, &why,
				"enable: SVM is in use by another hypervisor: "
				"EFER.SVME is set (is a KVM virtual machine "
				"running?)");
	}
	/* the firmware can switch SVM off for good: VM_CR bit 4, SVMDIS (APM
	 * Vol. 2, 15.30.1) */
	if (rdmsrl_safe(MSR_VM_CR, &vm_cr) || !(vm_cr & (1ull << 4)))
		return 0;
	why.rule = WARDEN_RULE_SVM_DISABLED;
	return wd_error(err, -EOPNOTSUPP, &why,
			"enable: SVM disabled by firmware (VM_CR.SVMDIS)");
}
