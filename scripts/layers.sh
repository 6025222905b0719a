#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hypervisor's layers, one direction (docs/hypervisor.md):
#   hypervisor/core/ -> hypervisor/arch/x86/ -> hypervisor/arch/x86/vmx/
#                                            -> hypervisor/arch/x86/svm/
# Fails, naming file and line, when
# - code outside the VMX folder reaches VMX: a VMCS field, vmread/vmwrite,
#   a VMX or EPT instruction or header, the EPT format;
# - code outside the SVM folder reaches SVM: the VMCB, an SVM instruction,
#   exit code, intercept or TLB control, an SVM header, the NPT format;
# - one vendor folder includes the other's headers;
# - the core uses inline assembly, a vendor header, or x86 internals;
# - anything but the ownership path (core/ownership.c) changes a cell's
#   second-level tables (arch_map_memory, arch_unmap_memory);
# - the core or the exit path names a unit (its header or its functions):
#   they reach units through the unit table (hv/unit.h);
# - a file reaches into another folder's private header ("../").
# - a vendor word (VMCS, EPT, VMCB, NPT, ...) stands in vendor-neutral code
#   or comments (below).
# Run by "make format-check".
cd "$(dirname "$0")/.." || exit 2
status=0

# found MESSAGE: the lines in $hits break the rule MESSAGE names
found() {
	if [ -n "$hits" ]; then
		echo "layers: $1"
		echo "$hits"
		status=1
	fi
}

# outside VENDOR NAME WORDS: code outside hypervisor/arch/x86/VENDOR/ that
# matches WORDS (comments may name vendor things; code may not)
outside() {
	hits=$(find hypervisor -name '*.[chS]' ! -path "hypervisor/arch/x86/$1/*" |
		sort | xargs grep -nE "$3" |
		grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)')
	found "$2 outside hypervisor/arch/x86/$1/ (use asm/vendor.h):"
}

outside vmx VMX '\b(vmread|vmwrite|vmlaunch|vmresume|vmxon|vmxoff|vmclear|vmptrld|invept|invvpid|vmcall|VMCS|EPT_[A-Z_]+|EPTP_[A-Z_]+|GUEST_[A-Z0-9_]+_(SELECTOR|BASE|LIMIT|AR_BYTES)|EXIT_REASON_[A-Z_]+|VM_(EXIT|ENTRY)_[A-Z_]+|vmx_ept_format)\b|<vmx/|<x86/vmx\.h>'
outside svm SVM '\b(vmrun|vmload|vmsave|stgi|clgi|skinit|invlpga|vmmcall|VMCB|vmcb[a-z_]*|SVM_EXIT_[A-Z0-9_]+|INTERCEPT_[A-Z0-9_]+|TLB_CONTROL_[A-Z_]+|svm_npt_format)\b|<svm/'

# the two vendors never reach each other (the VMX words are checked in
# svm/ above; the SVM words in vmx/ too): no header of the other
hits=$(find hypervisor/arch/x86/svm -name '*.[chS]' | sort |
	xargs grep -nE '#include <(vmx/|x86/vmx\.h>)')
hits="$hits$(find hypervisor/arch/x86/vmx -name '*.[chS]' | sort |
	xargs grep -nE '#include <svm/')"
found "a vendor folder includes the other vendor's header:"

# the core reaches the architecture through hv/arch.h and the few
# asm/ headers it names there (asm/percpu.h, asm/processor.h)
hits=$(find hypervisor/core hypervisor/include -name '*.[ch]' | sort |
	xargs grep -nE '\basm\s*(volatile\s*)?\(|#include <(vmx|x86)/|#include <asm/(vendor|exit|x86_cpu|arch_cell)\.h>')
found "the core uses assembly or a vendor header:"
# the ownership path is the only writer of second-level tables
# (hv/ownership.h): the arch defines the two calls, only it calls them
hits=$(find hypervisor -name '*.[ch]' ! -path hypervisor/core/ownership.c \
	! -path hypervisor/arch/x86/cell_tables.c ! -path hypervisor/include/hv/arch.h |
	sort | xargs grep -nE '\barch_(un)?map_memory\b' |
	grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)')
found "second-level tables changed outside the ownership path:"
# units have one door: the core and the exit path name none of them
hits=$(ls hypervisor/core/*.c hypervisor/include/hv/*.h \
	hypervisor/arch/x86/exit/*.c \
	hypervisor/arch/x86/vmx/vmx_exit.c hypervisor/arch/x86/svm/svm_exit.c |
	xargs grep -nE '#include <asm/(link|ioapic|pci|pci_dev|pci_virt|hpet|vtd_root|root_page)\.h>|\b(link|ioapic|pci|hpet|vtd)_[a-z_]+\(' |
	grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)')
found "the core or the exit path names a unit (use hv/unit.h):"
# Vendor words in vendor-neutral code and comments, where a neutral name
# exists ("the virtualization extension", "the guest-state area",
# "second-level tables", "the TLB tag"): names drift when a vendor
# arrives.  The core (core/, include/, lib/) names no vendor at all; the
# x86 layer outside vmx/ and svm/ may name VMX and SVM (it chooses between
# them) but not one vendor's structures, except on a line that names a
# thing of each vendor (a comparison) or on a line of the list below.
INTEL_WORDS='VMX|VMXON|VMCS|EPT|VPID'
AMD_WORDS='SVM|VMCB|NPT|ASID'
# The allowed lines, one a line: "file|text the line contains" (fixed
# text), each under a comment with its reason.  None today.
VENDOR_WORDS_ALLOWED='
'

# vendor_words REGEX MODE: of the files named on stdin, the lines
# (file:line:text) that match REGEX and are not allowed; MODE compare
# also lets a line through that names a word of each vendor.
vendor_words() {
	xargs grep -nE "$1" | while IFS= read -r hit; do
		file=${hit%%:*}
		text=${hit#*:}
		text=${text#*:}
		if [ "$2" = compare ] &&
			printf '%s\n' "$text" | grep -qE "\\b($INTEL_WORDS)\\b" &&
			printf '%s\n' "$text" | grep -qE "\\b($AMD_WORDS)\\b"; then
			continue
		fi
		if printf '%s\n' "$VENDOR_WORDS_ALLOWED" | grep -v '^#' |
			grep -F "$file|" | cut -d'|' -f2- | grep -v '^$' |
			while IFS= read -r allowed; do
				case "$text" in *"$allowed"*) echo yes ;; esac
			done | grep -q yes; then
			continue
		fi
		echo "$hit"
	done
}
hits=$(find hypervisor/core hypervisor/include hypervisor/lib \
	-name '*.[chS]' | sort |
	vendor_words "\\b($INTEL_WORDS|$AMD_WORDS)\\b" strict)
arch_hits=$(find hypervisor/arch/x86 -name '*.[chS]' \
	! -path 'hypervisor/arch/x86/vmx/*' ! -path 'hypervisor/arch/x86/svm/*' |
	sort | vendor_words '\b(VMCS|VMCB|EPT|NPT|VPID|ASID|vpid|asid)\b' compare)
if [ -n "$hits$arch_hits" ]; then
	echo "layers: a vendor word in vendor-neutral code or comments (name it" \
		"neutrally, or compare both vendors on the line; the allowed" \
		"lines are listed in scripts/layers.sh):"
	[ -z "$hits" ] || echo "$hits"
	[ -z "$arch_hits" ] || echo "$arch_hits"
	status=1
fi
# a unit's private headers are its folder's: no include climbs out
hits=$(find hypervisor -name '*.[chS]' | sort | xargs grep -nE '#include "\.\./')
found "an include reaches another folder's private header:"
[ $status = 0 ] && echo "layers: core -> arch/x86 -> arch/x86/vmx | arch/x86/svm, one direction"
exit $status
