/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offsets into struct warden_entry_ctx for stub.S (checked against the C
 * layout with static_assert in enable.c).
 */
#ifndef WARDEN_DRIVER_STUB_H
#define WARDEN_DRIVER_STUB_H

#define CTX_HV_CR3 0
#define CTX_HV_ENTRY 8
#define CTX_HV_STACK 16
#define CTX_CPU_ID 32
#define CTX_TRAMP_IDT 54
#define CTX_LINUX 168

/* struct warden_linux_state, from CTX_LINUX */
#define LS_CR3 8
#define LS_GDTR_BASE 48
#define LS_IDTR_BASE 56
#define LS_GDTR_LIMIT 64
#define LS_IDTR_LIMIT 66
#define LS_CS 72
#define LS_SS 96
#define LS_DS 120
#define LS_ES 144
#define LS_FS 168
#define LS_GS 192
#define LS_TR 216
#define LS_RSP 296
#define LS_RIP 304
#define LS_RFLAGS 312
#define LS_REGS 320
#define LS_GDT_RW 448
/* struct warden_segment */
#define SEG_BASE 16

#endif /* WARDEN_DRIVER_STUB_H */
