/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HPET (IA-PC HPET specification 1.0a), a unit (hpet.c): root keeps
 * its timer (Linux reads the main counter as its clocksource, so the page
 * stays mapped for reading, with no exit), but every timer chooses where
 * its interrupt goes -- an IOAPIC input (Tn_INT_ROUTE_CNF), the legacy
 * IRQ0/IRQ8 routes, or an MSI of its own (FSB delivery) -- so root's
 * writes trap and the HPET they would leave is checked: no timer may
 * drive a pin a cell owns, and no FSB message may reach a cell's CPU.
 *
 * The rules are plain C (hpet_rules.c), also compiled into the unit
 * tests.
 */
#ifndef WARDEN_ASM_HPET_H
#define WARDEN_ASM_HPET_H

#include <hv/types.h>

/* Registers (spec 2.3.1), offsets in the 1 KiB block. */
#define HPET_CAP 0x000		       /* capabilities and ID */
#define HPET_GEN_CONF 0x010	       /* general configuration */
#define HPET_GEN_CONF_LEGACY (1u << 1) /* LEG_RT_CNF */
#define HPET_TIMER(n) (0x100u + 0x20u * (n))
#define HPET_TN_CONF 0x00 /* timer n: configuration and capabilities */
#define HPET_TN_FSB 0x10  /* timer n: FSB interrupt route */
#define HPET_TN_INT_ENB (1u << 2)
#define HPET_TN_ROUTE_SHIFT 9 /* Tn_INT_ROUTE_CNF, bits 13:9 */
#define HPET_TN_ROUTE_MASK 0x1fu
#define HPET_TN_FSB_EN (1u << 14)
#define HPET_MAX_TIMERS 32 /* NUM_TIM_CAP is 5 bits: 1 to 32 timers */
/* The legacy replacement routes (spec 2.3.9.2.2): timer 0 to IOAPIC
 * input 2, timer 1 to input 8. */
#define HPET_LEGACY_GSI_0 2
#define HPET_LEGACY_GSI_1 8

/* What the routing depends on: the general configuration and, per timer,
 * its configuration and FSB route registers (64 bits each). */
struct hpet_state {
	unsigned int timers; /* 1 to HPET_MAX_TIMERS */
	u64 gen_conf;
	u64 conf[HPET_MAX_TIMERS];
	u64 fsb[HPET_MAX_TIMERS];
};

/* Where the state may send interrupts: each callback returns NULL if
 * allowed, else why not.  translate (hpet_write_plan only): NULL with
 * *out, the FSB_INT_ADDR the device gets for root's message (addr, data)
 * -- the hypervisor's remapping index for root's -- or why not. */
struct hpet_checks {
	const char *(*gsi)(void *ctx, u32 gsi);
	const char *(*msi)(void *ctx, u32 addr, u32 data);
	void *ctx;
	const char *(*translate)(void *ctx, u32 addr, u32 data, u32 *out);
};

/*
 * s as it is after a write of the size low bytes of value (size 1, 2, 4
 * or 8, naturally aligned) at offset.  Only the registers of struct
 * hpet_state change; other offsets leave it as it is.
 */
void hpet_apply_write(struct hpet_state *s, u32 offset, unsigned int size,
		      u64 value);

/*
 * Why s may not be: the first timer whose interrupt would go where c
 * refuses (*timer its number), or NULL.  An enabled timer (Tn_INT_ENB)
 * drives the IOAPIC input its route names, or with FSB delivery sends
 * the message of its FSB route register; in legacy replacement mode
 * timers 0 and 1 drive inputs 2 and 8 whatever their fields say (enabled
 * or not: the spec leaves that to the chipset, so the stricter reading).
 */
const char *hpet_state_refused(const struct hpet_state *s,
			       const struct hpet_checks *c,
			       unsigned int *timer);

/* What the device gets for one write of root's (hpet_write_plan). */
struct hpet_write {
	int timer;	 /* whose FSB_INT_ADDR the device gets anew, or -1 */
	u32 addr;	 /* that address (the device's, translated) */
	bool addr_first; /* write addr to the device before value */
	u64 value;	 /* what the device gets at the offset (low bytes) */
};

/*
 * Root writes the size low bytes of value at offset, s being the HPET as
 * root sees it (FSB_INT_ADDR as root wrote it): s becomes the HPET after
 * the write (hpet_apply_write), checked (hpet_state_refused: NULL or why
 * not, *timer the timer at fault), and *w says what the device gets.
 * Where the write sets a timer's FSB route, or its configuration while
 * FSB_EN is set, that message is translated (c->translate: a remappable
 * message names root's remapping index, the device the hypervisor's): the
 * bytes of value that fall in the timer's FSB_INT_ADDR become the
 * translated address's, and where the write does not cover all of
 * FSB_INT_ADDR the address goes first (never an enable before it).
 */
const char *hpet_write_plan(struct hpet_state *s, u32 offset, unsigned int size,
			    u64 value, const struct hpet_checks *c,
			    struct hpet_write *w, unsigned int *timer);

#endif /* WARDEN_ASM_HPET_H */
