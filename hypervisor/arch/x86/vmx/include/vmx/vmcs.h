/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VMCS field encodings (Intel SDM Vol. 3, Appendix B), exit reasons
 * (Appendix C) and the VMX instructions.
 */
#ifndef WARDEN_VMX_VMCS_H
#define WARDEN_VMX_VMCS_H

#include <asm/vectors.h>
#include <hv/types.h>

enum vmcs_field {
	/* 16-bit */
	VIRTUAL_PROCESSOR_ID = 0x0000,
	GUEST_ES_SELECTOR = 0x0800,
	GUEST_CS_SELECTOR = 0x0802,
	GUEST_SS_SELECTOR = 0x0804,
	GUEST_DS_SELECTOR = 0x0806,
	GUEST_FS_SELECTOR = 0x0808,
	GUEST_GS_SELECTOR = 0x080a,
	GUEST_LDTR_SELECTOR = 0x080c,
	GUEST_TR_SELECTOR = 0x080e,
	HOST_ES_SELECTOR = 0x0c00,
	HOST_CS_SELECTOR = 0x0c02,
	HOST_SS_SELECTOR = 0x0c04,
	HOST_DS_SELECTOR = 0x0c06,
	HOST_FS_SELECTOR = 0x0c08,
	HOST_GS_SELECTOR = 0x0c0a,
	HOST_TR_SELECTOR = 0x0c0c,
	/* 64-bit */
	IO_BITMAP_A = 0x2000,
	IO_BITMAP_B = 0x2002,
	MSR_BITMAP = 0x2004,
	VM_EXIT_MSR_STORE_ADDR = 0x2006,
	VM_EXIT_MSR_LOAD_ADDR = 0x2008,
	VM_ENTRY_MSR_LOAD_ADDR = 0x200a,
	TSC_OFFSET = 0x2010,
	VIRTUAL_APIC_PAGE_ADDR = 0x2012,
	APIC_ACCESS_ADDR = 0x2014,
	EPT_POINTER = 0x201a,
	GUEST_PHYSICAL_ADDRESS = 0x2400,
	VMCS_LINK_POINTER = 0x2800,
	GUEST_IA32_DEBUGCTL = 0x2802,
	GUEST_IA32_PAT = 0x2804,
	GUEST_IA32_EFER = 0x2806,
	GUEST_PDPTR0 = 0x280a,
	GUEST_PDPTR1 = 0x280c,
	GUEST_PDPTR2 = 0x280e,
	GUEST_PDPTR3 = 0x2810,
	HOST_IA32_PAT = 0x2c00,
	HOST_IA32_EFER = 0x2c02,
	/* 32-bit */
	PIN_BASED_VM_EXEC_CONTROL = 0x4000,
	CPU_BASED_VM_EXEC_CONTROL = 0x4002,
	EXCEPTION_BITMAP = 0x4004,
	PAGE_FAULT_ERROR_CODE_MASK = 0x4006,
	PAGE_FAULT_ERROR_CODE_MATCH = 0x4008,
	CR3_TARGET_COUNT = 0x400a,
	VM_EXIT_CONTROLS = 0x400c,
	VM_EXIT_MSR_STORE_COUNT = 0x400e,
	VM_EXIT_MSR_LOAD_COUNT = 0x4010,
	VM_ENTRY_CONTROLS = 0x4012,
	VM_ENTRY_MSR_LOAD_COUNT = 0x4014,
	VM_ENTRY_INTR_INFO_FIELD = 0x4016,
	VM_ENTRY_EXCEPTION_ERROR_CODE = 0x4018,
	VM_ENTRY_INSTRUCTION_LEN = 0x401a,
	TPR_THRESHOLD = 0x401c,
	SECONDARY_VM_EXEC_CONTROL = 0x401e,
	VM_INSTRUCTION_ERROR = 0x4400,
	VM_EXIT_REASON = 0x4402,
	VM_EXIT_INTR_INFO = 0x4404,
	VM_EXIT_INTR_ERROR_CODE = 0x4406,
	IDT_VECTORING_INFO_FIELD = 0x4408,
	IDT_VECTORING_ERROR_CODE = 0x440a,
	VM_EXIT_INSTRUCTION_LEN = 0x440c,
	VMX_INSTRUCTION_INFO = 0x440e,
	GUEST_ES_LIMIT = 0x4800,
	GUEST_CS_LIMIT = 0x4802,
	GUEST_SS_LIMIT = 0x4804,
	GUEST_DS_LIMIT = 0x4806,
	GUEST_FS_LIMIT = 0x4808,
	GUEST_GS_LIMIT = 0x480a,
	GUEST_LDTR_LIMIT = 0x480c,
	GUEST_TR_LIMIT = 0x480e,
	GUEST_GDTR_LIMIT = 0x4810,
	GUEST_IDTR_LIMIT = 0x4812,
	GUEST_ES_AR_BYTES = 0x4814,
	GUEST_CS_AR_BYTES = 0x4816,
	GUEST_SS_AR_BYTES = 0x4818,
	GUEST_DS_AR_BYTES = 0x481a,
	GUEST_FS_AR_BYTES = 0x481c,
	GUEST_GS_AR_BYTES = 0x481e,
	GUEST_LDTR_AR_BYTES = 0x4820,
	GUEST_TR_AR_BYTES = 0x4822,
	GUEST_INTERRUPTIBILITY_INFO = 0x4824,
	GUEST_ACTIVITY_STATE = 0x4826,
	GUEST_SYSENTER_CS = 0x482a,
	VMX_PREEMPTION_TIMER_VALUE = 0x482e,
	HOST_IA32_SYSENTER_CS = 0x4c00,
	/* natural width */
	CR0_GUEST_HOST_MASK = 0x6000,
	CR4_GUEST_HOST_MASK = 0x6002,
	CR0_READ_SHADOW = 0x6004,
	CR4_READ_SHADOW = 0x6006,
	EXIT_QUALIFICATION = 0x6400,
	GUEST_LINEAR_ADDRESS = 0x640a,
	GUEST_CR0 = 0x6800,
	GUEST_CR3 = 0x6802,
	GUEST_CR4 = 0x6804,
	GUEST_ES_BASE = 0x6806,
	GUEST_CS_BASE = 0x6808,
	GUEST_SS_BASE = 0x680a,
	GUEST_DS_BASE = 0x680c,
	GUEST_FS_BASE = 0x680e,
	GUEST_GS_BASE = 0x6810,
	GUEST_LDTR_BASE = 0x6812,
	GUEST_TR_BASE = 0x6814,
	GUEST_GDTR_BASE = 0x6816,
	GUEST_IDTR_BASE = 0x6818,
	GUEST_DR7 = 0x681a,
	GUEST_RSP = 0x681c,
	GUEST_RIP = 0x681e,
	GUEST_RFLAGS = 0x6820,
	GUEST_PENDING_DBG_EXCEPTIONS = 0x6822,
	GUEST_SYSENTER_ESP = 0x6824,
	GUEST_SYSENTER_EIP = 0x6826,
	HOST_CR0 = 0x6c00,
	HOST_CR3 = 0x6c02,
	HOST_CR4 = 0x6c04,
	HOST_FS_BASE = 0x6c06,
	HOST_GS_BASE = 0x6c08,
	HOST_TR_BASE = 0x6c0a,
	HOST_GDTR_BASE = 0x6c0c,
	HOST_IDTR_BASE = 0x6c0e,
	HOST_IA32_SYSENTER_ESP = 0x6c10,
	HOST_IA32_SYSENTER_EIP = 0x6c12,
	HOST_RSP = 0x6c14,
	HOST_RIP = 0x6c16,
};

/* Basic exit reasons (SDM Vol. 3, Appendix C). */
#define EXIT_REASON_EXCEPTION_NMI 0
#define EXIT_REASON_EXTERNAL_INTERRUPT 1
#define EXIT_REASON_TRIPLE_FAULT 2
#define EXIT_REASON_INIT 3
#define EXIT_REASON_SIPI 4
#define EXIT_REASON_NMI_WINDOW 8
#define EXIT_REASON_CPUID 10
#define EXIT_REASON_HLT 12
#define EXIT_REASON_INVD 13
#define EXIT_REASON_VMCALL 18
#define EXIT_REASON_VMCLEAR 19
#define EXIT_REASON_VMLAUNCH 20
#define EXIT_REASON_VMPTRLD 21
#define EXIT_REASON_VMPTRST 22
#define EXIT_REASON_VMREAD 23
#define EXIT_REASON_VMRESUME 24
#define EXIT_REASON_VMWRITE 25
#define EXIT_REASON_VMXOFF 26
#define EXIT_REASON_VMXON 27
#define EXIT_REASON_CR_ACCESS 28
#define EXIT_REASON_IO_INSTRUCTION 30
#define EXIT_REASON_MSR_READ 31
#define EXIT_REASON_MSR_WRITE 32
#define EXIT_REASON_INVALID_STATE 33
#define EXIT_REASON_MSR_LOAD_FAIL 34
#define EXIT_REASON_MCE_DURING_ENTRY 41
#define EXIT_REASON_APIC_ACCESS 44
#define EXIT_REASON_EPT_VIOLATION 48
#define EXIT_REASON_EPT_MISCONFIG 49
#define EXIT_REASON_INVEPT 50
#define EXIT_REASON_PREEMPTION_TIMER 52
#define EXIT_REASON_INVVPID 53
#define EXIT_REASON_WBINVD 54
#define EXIT_REASON_XSETBV 55
#define EXIT_REASON_MAX 70
#define EXIT_REASON_ENTRY_FAILED (1u << 31)

/* EPT pointer: memory type WB, page-walk length 4 - 1 in bits 5:3
 * (SDM Vol. 3C, 25.6.11). */
#define EPTP_MEMTYPE_WB 6ull
#define EPTP_WALK_LENGTH_4 (3ull << 3)

/* Interruption information (SDM 25.8.3, 26.9.2). */
#define INTR_INFO_VALID (1u << 31)
#define INTR_INFO_DELIVER_CODE (1u << 11)
#define INTR_TYPE_EXTERNAL (0u << 8)
#define INTR_TYPE_NMI (2u << 8)
#define INTR_TYPE_HARD_EXCEPTION (3u << 8)
#define INTR_TYPE_SOFT_EXCEPTION (6u << 8)
#define INTR_TYPE_MASK (7u << 8)
#define INTR_VECTOR_MASK 0xffu

/* Guest interruptibility (SDM 25.4.2). */
#define GUEST_INTR_STI (1u << 0)
#define GUEST_INTR_MOV_SS (1u << 1)
#define GUEST_INTR_NMI (1u << 3)

/* Activity states. */
#define GUEST_ACTIVITY_ACTIVE 0
#define GUEST_ACTIVITY_HLT 1
#define GUEST_ACTIVITY_WAIT_SIPI 3

/* Primary processor-based: NMI-window exiting (25.6.2). */
#define PROC_NMI_WINDOW_EXITING (1u << 22)

/* Access rights (25.4.1). */
#define VMX_AR_UNUSABLE (1u << 16)

static inline int vmxon(u64 pa)
{
	u8 fail;

	asm volatile("vmxon %1; setna %0"
		     : "=q"(fail)
		     : "m"(pa)
		     : "cc", "memory");
	return fail ? -1 : 0;
}

static inline void vmxoff(void)
{
	asm volatile("vmxoff" ::: "cc", "memory");
}

static inline int vmclear(u64 pa)
{
	u8 fail;

	asm volatile("vmclear %1; setna %0"
		     : "=q"(fail)
		     : "m"(pa)
		     : "cc", "memory");
	return fail ? -1 : 0;
}

static inline int vmptrld(u64 pa)
{
	u8 fail;

	asm volatile("vmptrld %1; setna %0"
		     : "=q"(fail)
		     : "m"(pa)
		     : "cc", "memory");
	return fail ? -1 : 0;
}

static inline u64 vmread(enum vmcs_field field)
{
	u64 v;

	asm volatile("vmread %1, %0" : "=rm"(v) : "r"((u64)field) : "cc");
	return v;
}

/* VMWRITE that reports failure (VMfail, SDM Vol. 3C, 31.2): for setting
 * up a VMCS, where a field the CPU does not have must be named. */
static inline bool vmwrite_checked(enum vmcs_field field, u64 value)
{
	u8 fail;

	asm volatile("vmwrite %2, %1; setna %0"
		     : "=q"(fail)
		     : "r"((u64)field), "rm"(value)
		     : "cc");
	return !fail;
}

/* VMWRITE after set-up (vmx.c's setup_* wrote every field with
 * vmwrite_checked): a writable field the CPU has, on the current VMCS,
 * cannot fail, and the exit path does not pay for the check. */
static inline void vmwrite(enum vmcs_field field, u64 value)
{
	asm volatile("vmwrite %1, %0" : : "r"((u64)field), "rm"(value) : "cc");
}

/* INVEPT/INVVPID all-context (SDM Vol. 3, 30.3). */
static inline void invept_all(void)
{
	struct {
		u64 eptp, reserved;
	} desc = { 0, 0 };

	asm volatile("invept %0, %1" : : "m"(desc), "r"(2ul) : "cc", "memory");
}

static inline void invvpid_all(void)
{
	struct {
		u64 vpid, address;
	} desc = { 0, 0 };

	asm volatile("invvpid %0, %1" : : "m"(desc), "r"(2ul) : "cc", "memory");
}

#endif /* WARDEN_VMX_VMCS_H */
