// SPDX-License-Identifier: GPL-2.0
/* Error-channel records to sentences: the driver's and the hypervisor's rules: enable, firmware, CPUs, cells (errmsg_parts.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <x86/cpuid.h>
#include <x86/msr.h>

#include "errmsg_parts.h"

/* What a WARDEN_RULE_CPU_NO_ANSWER request was (WARDEN_REQUEST_*). */
static const char *request_name(uint64_t what)
{
	static const char *const names[] = {
		[WARDEN_REQUEST_SUSPEND] = "suspend",
		[WARDEN_REQUEST_PARK] = "park",
		[WARDEN_REQUEST_RETURN] = "return",
		[WARDEN_REQUEST_STOP] = "stop",
		[WARDEN_REQUEST_START] = "start",
		[WARDEN_REQUEST_ENTER] = "enter",
	};

	return what < sizeof(names) / sizeof(names[0]) && names[what]
		       ? names[what]
		       : "(unknown)";
}

/* For WARDEN_RULE_FIRMWARE_MISSING: the vendor the image was looked for
 * (values[1], WARDEN_VENDOR_*; 0 from drivers that do not say). */
static const char *image_vendor(unsigned long long vendor)
{
	switch (vendor) {
	case WARDEN_VENDOR_INTEL:
		return "it is the image for Intel CPUs, as this one is: ";
	case WARDEN_VENDOR_AMD:
		return "it is the image for AMD and Hygon CPUs, as this one "
		       "is: ";
	default:
		return "";
	}
}

/* For WARDEN_RULE_FEATURE_MISSING: what the hypervisor found missing,
 * from values[0] (a CPUID leaf, or a VMX capability or AMD MSR) and
 * values[1] (the bits wanted there, or the value read). */
static void feature_missing(char *buf, size_t len, unsigned long long where,
			    unsigned long long bits)
{
	if (where == 0 && bits == CPUID1_ECX_VMX)
		errmsg_add(buf, len, "VMX (CPUID.1:ECX[5] = 0)");
	else if (where == 0x80000000)
		errmsg_add(buf, len, "SVM (CPUID leaf 0x8000000a is missing)");
	else if (where == 0x80000001 && bits == CPUID80000001_ECX_SVM)
		errmsg_add(buf, len, "SVM (CPUID 0x80000001 ECX[2] = 0)");
	else if (where == 0x8000000a && bits == CPUID8000000A_EDX_NPT)
		errmsg_add(buf, len,
			   "nested paging, NPT (CPUID 0x8000000a EDX[0] = 0)");
	else if (where == 0x8000000a)
		errmsg_add(buf, len,
			   "guest ASIDs (CPUID 0x8000000a EBX = %llu)", bits);
	else if (where == MSR_AMD_VM_CR)
		errmsg_add(buf, len,
			   "SVM, disabled by firmware (VM_CR.SVMDIS)");
	else if (bits)
		errmsg_add(buf, len, "VMX capabilities 0x%llx of MSR 0x%llx",
			   bits, where);
	else
		errmsg_add(buf, len, "VMX capabilities of MSR 0x%llx", where);
}

bool errmsg_system(const struct warden_error *e, char *buf, size_t len)
{
	const uint64_t *v = e->values;
	unsigned long long a = v[0], b = v[1];

	switch (e->rule) {
	case WARDEN_RULE_CPU0_NOT_ROOT:
		errmsg_add(buf, len, "CPU 0 must stay in the root cell");
		break;
	case WARDEN_RULE_CPU_OFFLINE:
		errmsg_add(buf, len,
			   "is offline; bring it online (echo 1 > "
			   "/sys/devices/system/cpu/cpu%u/online)",
			   e->item_index);
		break;
	case WARDEN_RULE_MEM_NOT_RESERVED:
		errmsg_add(buf, len,
			   "memory 0x%llx+0x%llx is not reserved: boot Linux "
			   "with "
			   "memmap=0x%llx$0x%llx",
			   a, b, b, a);
		break;
	case WARDEN_RULE_FIRMWARE_MISSING:
		errmsg_add(buf, len,
			   "hypervisor image %s not found (error %lld); "
			   "%sinstall it "
			   "to /lib/firmware",
			   e->text[0] ? e->text : "(unnamed)", (long long)a,
			   image_vendor(b));
		break;
	case WARDEN_RULE_FIRMWARE_INVALID:
		errmsg_add(buf, len,
			   "hypervisor image: %s is 0x%llx, expected 0x%llx",
			   e->text[0] ? e->text : "a header field", a, b);
		break;
	case WARDEN_RULE_ALREADY_ENABLED:
		errmsg_add(buf, len, "Warden is already enabled");
		break;
	case WARDEN_RULE_NOT_ENABLED:
		errmsg_add(buf, len, "Warden is not enabled");
		break;
	case WARDEN_RULE_IN_CELL:
		errmsg_add(buf, len,
			   "%s: this kernel runs inside a Warden cell (CPUID "
			   "leaf 0x%llx says WardenWarden, the hypervisor "
			   "refuses root's calls): only root manages Warden; "
			   "here warden.ko only binds the cell's links",
			   e->text[0] ? e->text : "this request", a);
		break;
	case WARDEN_RULE_VMX_BUSY:
		errmsg_add(buf, len,
			   "VMX is in use by another hypervisor: CR4.VMXE is "
			   "set (is "
			   "a KVM virtual machine running?)");
		break;
	case WARDEN_RULE_SVM_BUSY:
		errmsg_add(buf, len,
			   "SVM is in use by another hypervisor: EFER.SVME is "
			   "set (is "
			   "a KVM virtual machine running?)");
		break;
	case WARDEN_RULE_SVM_DISABLED:
		errmsg_add(buf, len, "SVM disabled by firmware (VM_CR.SVMDIS)");
		break;
	case WARDEN_RULE_CPU_VENDOR:
		errmsg_add(buf, len,
			   "CPU vendor \"%s\" is not supported: Warden runs on "
			   "Intel, AMD and Hygon CPUs",
			   e->text);
		break;
	case WARDEN_RULE_FEATURE_MISSING:
		/* the driver says it in words; the hypervisor gives where
		 * (a CPUID leaf, an MSR) and the bits */
		errmsg_add(buf, len, "a required CPU feature is missing: ");
		if (e->text[0])
			errmsg_add(buf, len, "%s", e->text);
		else
			feature_missing(buf, len, a, b);
		errmsg_add(buf, len, " (run 'warden hardware check')");
		break;
	case WARDEN_RULE_CPU_SETUP_FAILED:
		errmsg_add(buf, len,
			   "setting up the hypervisor failed at stage %llu "
			   "(error %lld)",
			   a, (long long)b);
		break;
	case WARDEN_RULE_NO_MEMORY:
		errmsg_add(buf, len,
			   "out of memory: %llu pages needed, %llu free", a, b);
		break;
	case WARDEN_RULE_HV_MEM_TOO_SMALL:
		errmsg_add(buf, len,
			   "hypervisor memory too small: 0x%llx bytes needed, "
			   "0x%llx "
			   "given",
			   a, b);
		break;
	case WARDEN_RULE_CELL_NOT_FOUND:
		errmsg_add(buf, len, "no such cell");
		break;
	case WARDEN_RULE_CELL_STATE:
		errmsg_add(buf, len,
			   "not possible now: another cell operation runs, or "
			   "the "
			   "cell is in the wrong state");
		break;
	case WARDEN_RULE_SHUTDOWN_DENIED:
		errmsg_add(buf, len, "the cell denied the shutdown request%s",
			   a == WARDEN_CELL_RUNNING_LOCKED ? " (it is locked)"
							   : "");
		break;
	case WARDEN_RULE_CPU_NO_ANSWER:
		/* a root CPU's silence changes nothing, a cell CPU is lost */
		errmsg_add(buf, len,
			   "CPU %u did not answer a %s request of the "
			   "hypervisor "
			   "within %llu ms%s",
			   e->item_index, request_name(a), b,
			   a == WARDEN_REQUEST_SUSPEND ||
					   a == WARDEN_REQUEST_ENTER
				   ? " (nothing was changed; try again)"
				   : " (a cell CPU: it is lost, see 'warden "
				     "console')");
		break;
	case WARDEN_RULE_CELL_LOST_CPU:
		errmsg_add(buf, len,
			   "the cell lost CPU %lld (see 'warden console'): it "
			   "can "
			   "only be destroyed, and its memory and ports stay "
			   "quarantined until disable",
			   (long long)a);
		break;
	case WARDEN_RULE_LOST_CPU_EARLIER:
		errmsg_add(buf, len,
			   "the hypervisor lost CPU %llu since this system "
			   "booted; "
			   "it may still run hypervisor code: reboot before "
			   "enabling "
			   "Warden again",
			   a);
		break;
	case WARDEN_RULE_CPU_HOTPLUG:
		errmsg_add(buf, len,
			   "Linux could not hand over the CPU (error %lld)",
			   (long long)a);
		break;
	case WARDEN_RULE_IMAGE_OUTSIDE:
		errmsg_add(buf, len,
			   "0x%llx+0x%llx does not fit in a loadable region of "
			   "the "
			   "cell",
			   a, b);
		break;
	case WARDEN_RULE_ROOT_CELL:
		errmsg_add(buf, len, "not possible for the root cell");
		break;
	case WARDEN_RULE_BAD_ARGUMENT:
		errmsg_add(buf, len,
			   "invalid request argument %llu (value 0x%llx)", a,
			   b);
		break;
	case WARDEN_RULE_NOT_PERMITTED:
		errmsg_add(buf, len, "not permitted");
		break;
	case WARDEN_RULE_UNSUPPORTED:
		errmsg_add(buf, len,
			   "request 0x%llx is not supported by this driver "
			   "version",
			   a);
		break;
	default:
		return false;
	}
	return true;
}
