// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create": the IOAPIC pins Linux has handlers on, from
 * /proc/interrupts, and the pin count of each IOAPIC of the MADT
 * (config_create_parts.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config_create_parts.h"

/* The IOAPIC with the lowest GSI base (the one with the ISA IRQs). */
static uint32_t first_gsi_base(const struct platform *p)
{
	uint32_t base = UINT32_MAX;
	unsigned int i;

	for (i = 0; i < p->madt.n_ioapics; i++)
		if (p->madt.ioapic[i].gsi_base < base)
			base = p->madt.ioapic[i].gsi_base;
	return p->madt.n_ioapics ? base : 0;
}

/*
 * /proc/interrupts: "  4:  123  0  IO-APIC   4-edge      ttyS0" (or
 * IR-IO-APIC with interrupt remapping).  The number before the trigger is
 * the pin of its IOAPIC; the IOAPIC is not named, so with one IOAPIC (or
 * for the ISA IRQs, which sit on the first) the GSI is that IOAPIC's base
 * plus the pin, and above the ISA IRQs Linux numbers the IRQ of a GSI by
 * the GSI itself.  Kernels before 3.19 print "IO-APIC-edge" without the
 * pin: there the IRQ number stands for the GSI.
 */
static void parse_interrupts(const char *text, const struct platform *plat,
			     struct pins *out)
{
	const char *p = text, *eol, *chip, *t;
	unsigned long irq, pin;
	char *endp, line[512];
	struct intr *in;
	struct pin *pn;
	uint64_t gsi;
	bool old;
	size_t i;

	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		t = line;
		while (*t == ' ')
			t++;
		irq = strtoul(t, &endp, 10);
		if (endp == t || *endp != ':')
			continue; /* the header, NMI:, LOC:, ... */
		out->irqs = cc_xrealloc(out->irqs,
					(out->n_irqs + 1) * sizeof(*out->irqs));
		in = &out->irqs[out->n_irqs++];
		in->irq = (unsigned int)irq;
		in->chip = IRQ_OTHER;
		chip = strstr(endp, "IO-APIC");
		if (!chip || (chip != endp && chip[-1] != ' ' &&
			      strncmp(chip - 3, "IR-", 3)))
			continue;
		in->chip = IRQ_IOAPIC;
		t = chip + strlen("IO-APIC");
		old = *t == '-';
		if (old) {
			gsi = irq; /* no pin */
		} else {
			while (*t == ' ')
				t++;
			pin = strtoul(t, &endp, 10);
			if (endp == t || *endp != '-')
				continue;
			gsi = plat->madt.n_ioapics > 1 && irq >= 16
				      ? irq
				      : first_gsi_base(plat) + pin;
		}
		if (gsi > UINT32_MAX)
			continue;
		in->gsi = (uint32_t)gsi;
		/* the devices: after the trigger word */
		t = chip;
		while (*t && *t != ' ')
			t++;
		while (*t == ' ')
			t++;
		if (!old && strchr(t, ' ')) {
			t = strchr(t, ' ');
			while (*t == ' ')
				t++;
		}
		for (i = 0; i < out->n; i++)
			if (out->p[i].gsi == gsi)
				break;
		if (i < out->n) {
			pn = &out->p[i];
			snprintf(pn->what + strlen(pn->what),
				 sizeof(pn->what) - strlen(pn->what),
				 "; IRQ %lu: %s", irq, *t ? t : "(no name)");
			continue;
		}
		out->p = cc_xrealloc(out->p, (out->n + 1) * sizeof(*out->p));
		pn = &out->p[out->n++];
		pn->gsi = (uint32_t)gsi;
		snprintf(pn->what, sizeof(pn->what), "IRQ %lu: %s", irq,
			 *t ? t : "(no name)");
	}
}

/*
 * 24 pins per IOAPIC, unless Linux handles a higher GSI below the next
 * IOAPIC's: then the IOAPIC has that pin, and the count covers it (at
 * most 240), so that root's pins stay inside their IOAPIC.
 */
void cc_fit_ioapic_pins(struct platform *p, const struct pins *pins)
{
	uint64_t base, next, top;
	unsigned int i, j;
	size_t k;

	for (i = 0; i < p->madt.n_ioapics; i++) {
		base = p->madt.ioapic[i].gsi_base;
		next = base + 240;
		for (j = 0; j < p->madt.n_ioapics; j++)
			if (p->madt.ioapic[j].gsi_base > base &&
			    p->madt.ioapic[j].gsi_base < next)
				next = p->madt.ioapic[j].gsi_base;
		top = base + CC_IOAPIC_PINS;
		for (k = 0; k < pins->n; k++)
			if (pins->p[k].gsi >= top && pins->p[k].gsi < next)
				top = (uint64_t)pins->p[k].gsi + 1;
		p->ioapic_pins[i] = (unsigned int)(top - base);
	}
}

static int by_gsi(const void *a, const void *b)
{
	const struct pin *x = a, *y = b;

	return x->gsi < y->gsi ? -1 : x->gsi > y->gsi;
}

void cc_read_pins(const struct gen *g, const struct platform *plat,
		  struct pins *out)
{
	char *text = cc_slurp(g, "/proc/interrupts", NULL);

	memset(out, 0, sizeof(*out));
	if (!text)
		return;
	out->read = true;
	parse_interrupts(text, plat, out);
	qsort(out->p, out->n, sizeof(*out->p), by_gsi);
	free(text);
}
