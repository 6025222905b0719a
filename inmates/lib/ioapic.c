// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The IOAPIC as a cell sees it: at its usual address, the pins the cell
 * owns usable, the others reading masked (docs/inmates.md).  Accesses go
 * through the select and window registers, 32 bits each.
 */
#include <inmate.h>

#define IOAPIC_REGSEL 0x00
#define IOAPIC_WINDOW 0x10
#define IOAPIC_REDIR(pin) (0x10 + 2 * (pin))
#define IOAPIC_MASKED (1u << 16)
#define IOAPIC_LEVEL (1u << 15)

static uint64_t base = IOAPIC_DEFAULT_BASE;

void ioapic_set_base(uint64_t address)
{
	base = address;
}

uint32_t ioapic_read(unsigned int reg)
{
	mmio_write32(base + IOAPIC_REGSEL, reg);
	return mmio_read32(base + IOAPIC_WINDOW);
}

void ioapic_write(unsigned int reg, uint32_t value)
{
	mmio_write32(base + IOAPIC_REGSEL, reg);
	mmio_write32(base + IOAPIC_WINDOW, value);
}

unsigned int ioapic_pins(void)
{
	return ((ioapic_read(1) >> 16) & 0xff) + 1;
}

/* High half first, so that the entry is complete when it unmasks. */
void ioapic_pin_route(unsigned int pin, unsigned int vector, uint32_t apic_id,
		      bool level)
{
	ioapic_write(IOAPIC_REDIR(pin), IOAPIC_MASKED);
	ioapic_write(IOAPIC_REDIR(pin) + 1, apic_id << 24);
	ioapic_write(IOAPIC_REDIR(pin),
		     (vector & 0xff) | (level ? IOAPIC_LEVEL : 0));
}

void ioapic_pin_mask(unsigned int pin)
{
	ioapic_write(IOAPIC_REDIR(pin),
		     ioapic_read(IOAPIC_REDIR(pin)) | IOAPIC_MASKED);
}

uint64_t ioapic_pin_entry(unsigned int pin)
{
	return ioapic_read(IOAPIC_REDIR(pin)) |
	       (uint64_t)ioapic_read(IOAPIC_REDIR(pin) + 1) << 32;
}
