// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's MSI and MSI-X as remapped interrupts, the PCI side
 * (hypervisor/arch/x86/pci/pci_msi_remap.c), against a fake function's
 * configuration space and a fake IOMMU unit: what is reserved at create
 * (one entry per MSI vector the function can ask for and per MSI-X
 * entry; a function that finds no room refuses the cell with nothing
 * kept), what the device holds (the fixed remappable message), what the
 * cell reads back (what it wrote), and which entries its checked
 * messages become -- before the enable bit reaches the device.
 */
#include <string.h>

#include "cmocka_wrap.h"
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include <asm/pci.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <pci/pci_dev.h>
#include <warden/error.h>
#include <warden/hypercall.h>

#define MSI 0x50  /* 64-bit, multiple message capable: 4 */
#define MSIX 0x70 /* 5 entries */
#define FN 0x20	  /* 00:04.0 */
#define FN2 0x18  /* 00:03.0: MSI only, 1 vector */

static u8 cfg[2][256]; /* FN, FN2 */

static u8 *space(u16 bdf)
{
	return cfg[bdf == FN ? 0 : 1];
}

u32 pci_phys_read(u16 bdf, u16 reg, unsigned int size)
{
	u32 v = 0;

	memcpy(&v, space(bdf) + reg, size);
	return v;
}

void pci_phys_write(u16 bdf, u16 reg, unsigned int size, u32 value)
{
	memcpy(space(bdf) + reg, &value, size);
}

u8 pci_find_cap(u16 bdf, u8 id)
{
	if (id == PCI_CAP_ID_MSI)
		return MSI;
	return id == PCI_CAP_ID_MSIX && bdf == FN ? MSIX : 0;
}

void printk(const char *fmt, ...)
{
	(void)fmt;
}

/* MSI messages: the rule itself is pci_rules.c's (unit/pci_rules);
 * here any message in the APIC window, compatibility format. */
const char *msi_cell_refused(u32 addr, u32 data, unsigned int vectors)
{
	(void)data;
	(void)vectors;
	if ((addr & 0xfff00000u) != 0xfee00000u || (addr & 0x10))
		return "not a compatibility-format message";
	return NULL;
}

/* the cell has APIC ID 1 */
const char *irq_cell_dest(const struct cell *cell, u32 low, u32 dest,
			  u32 *apic_id)
{
	(void)cell;
	(void)low;
	if (dest != 1)
		return "destination is a CPU outside the cell";
	*apic_id = 1;
	return NULL;
}

/* ---- the fake IOMMU unit: a cells' range of 16 entries from 4096 ---- */

static bool remapped = true;
static u8 owner[16];
static struct {
	bool present;
	u32 vector, apic_id;
	u16 bdf;
	unsigned int order; /* when it was set */
} entry[16];
static unsigned int sets;

bool iommu_cell_irqs_remapped(void)
{
	return remapped;
}

int iommu_cell_irq_reserve(const struct cell *cell, unsigned int n, u32 *first)
{
	unsigned int i, run = 0;

	for (i = 0; i < 16; i++) {
		run = owner[i] ? 0 : run + 1;
		if (run == n) {
			*first = 4096 + i + 1 - n;
			memset(&owner[i + 1 - n], (int)cell->id, n);
			return 0;
		}
	}
	return -WARDEN_ENOSPC;
}

void iommu_cell_irq_release(u32 first, unsigned int n)
{
	if (first && n)
		memset(&owner[first - 4096], 0, n);
}

int iommu_cell_irq_set(u32 index, bool present, u32 vector, u32 apic_id,
		       u16 bdf)
{
	assert_true(index >= 4096 && index < 4096 + 16);
	assert_true(owner[index - 4096] != 0);
	entry[index - 4096].present = present;
	entry[index - 4096].vector = vector;
	entry[index - 4096].apic_id = apic_id;
	entry[index - 4096].bdf = bdf;
	entry[index - 4096].order = ++sets;
	return 0;
}

void iommu_cell_irq_message(u32 index, u32 *addr, u32 *data)
{
	*addr = 0xfee00000u | index << 5 | 0x18;
	*data = 0;
}

unsigned int iommu_cell_irqs_used(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < 16; i++)
		n += !!owner[i];
	return n;
}

/* ---- the tests ---- */

static struct warden_cell_desc desc = { .name = "c" };
static struct cell cell = { .id = 1, .config = &desc };
static struct warden_pci_device devs[2] = { { .bdf = FN }, { .bdf = FN2 } };

static int setup(void **state)
{
	(void)state;
	memset(cfg, 0, sizeof(cfg));
	memset(owner, 0, sizeof(owner));
	memset(entry, 0, sizeof(entry));
	sets = 0;
	remapped = true;
	/* FN: MSI 64-bit, MMC 2 (4 vectors); MSI-X 5 entries.  FN2: MSI
	 * 32-bit, 1 vector. */
	pci_phys_write(FN, MSI + PCI_MSI_CTRL, 2, PCI_MSI_CTRL_64BIT | 2 << 1);
	pci_phys_write(FN, MSIX + PCI_MSI_CTRL, 2, 4);
	pci_phys_write(FN2, MSI + PCI_MSI_CTRL, 2, 0);
	return 0;
}

static void reserve(void **state)
{
	struct pci_irq_range r[2];
	struct warden_error err = { 0 };

	(void)state;
	/* MSI 4 + MSI-X 5 for FN, MSI 1 for FN2, one run each */
	assert_int_equal(pci_irq_reserve(&cell, devs, 2, r, &err), 0);
	assert_int_equal(r[0].first, 4096);
	assert_int_equal(r[0].msi, 4);
	assert_int_equal(r[0].msix, 5);
	assert_int_equal(r[1].first, 4105);
	assert_int_equal(r[1].msi, 1);
	assert_int_equal(r[1].msix, 0);
	assert_int_equal(iommu_cell_irqs_used(), 10);
	/* a second cell with FN2' and FN': FN2's entry found (4106), FN's 9
	 * not (5 left): refused, naming FN and the count, and FN2's entry
	 * given back */
	cell.id = 2;
	{
		struct warden_pci_device two[2] = { { .bdf = FN2 },
						    { .bdf = FN } };

		assert_int_equal(pci_irq_reserve(&cell, two, 2, r, &err),
				 -WARDEN_ENOSPC);
	}
	assert_int_equal(err.rule, WARDEN_RULE_PCI_IRQ_REMAP_FULL);
	assert_int_equal(err.item_kind, WARDEN_ITEM_PCI_DEVICE);
	assert_int_equal(err.item_index, 1);
	assert_int_equal(err.values[0], FN);
	assert_int_equal(err.values[1], 9);
	assert_int_equal(iommu_cell_irqs_used(), 10);
	cell.id = 1;
	/* without remapping: nothing reserved, first 0 */
	remapped = false;
	assert_int_equal(pci_irq_reserve(&cell, devs, 2, r, &err), 0);
	assert_int_equal(r[0].first, 0);
	assert_int_equal(iommu_cell_irqs_used(), 10);
}

static void msi(void **state)
{
	struct pci_irq_range r[2];
	struct warden_error err = { 0 };
	struct pci_dev d = { .owner = &cell, .bdf = FN, .msi_cap = MSI };
	const char *why;
	bool done;
	u64 v, bad = 0;
	unsigned int i;

	(void)state;
	assert_int_equal(pci_irq_reserve(&cell, devs, 2, r, &err), 0);
	pci_irq_take(&d, &r[0]);
	assert_true(d.remapped);
	/* the device: the fixed remappable message, SHV, subhandle 0 */
	assert_int_equal(pci_phys_read(FN, MSI + 4, 4),
			 0xfee00000u | 4096 << 5 | 0x18);
	assert_int_equal(pci_phys_read(FN, MSI + 8, 4), 0);
	assert_int_equal(pci_phys_read(FN, MSI + 12, 2), 0);
	/* the cell's message goes to its view; reads show it */
	why = pci_msi_remap_write(&d, &cell, MSI + 4, 4, 0xfee01000u, &done,
				  &bad);
	assert_null(why);
	assert_true(done);
	assert_int_equal(pci_phys_read(FN, MSI + 4, 4),
			 0xfee00000u | 4096 << 5 | 0x18);
	assert_true(pci_msi_view_read(&d, MSI + 4, 4, &v));
	assert_int_equal(v, 0xfee01000u);
	assert_true(pci_msi_view_read(&d, MSI + 5, 1, &v));
	assert_int_equal(v, 0x10);
	why = pci_msi_remap_write(&d, &cell, MSI + 12, 2, 0x40, &done, &bad);
	assert_null(why);
	assert_true(done);
	assert_int_equal(sets, 0); /* not enabled: no entry yet */
	/* the control word is the device's */
	assert_false(pci_msi_view_read(&d, MSI + 2, 2, &v));
	/* enable with 4 vectors (MME 2): entries 4096-4099, vectors
	 * 0x40-0x43, APIC 1, the function's id; then the caller writes the
	 * control word (done false) */
	why = pci_msi_remap_write(&d, &cell, MSI + PCI_MSI_CTRL, 2,
				  PCI_MSI_CTRL_64BIT | 2 << 1 |
					  2 << PCI_MSI_CTRL_MME_SHIFT |
					  PCI_MSI_CTRL_ENABLE,
				  &done, &bad);
	assert_null(why);
	assert_false(done);
	for (i = 0; i < 4; i++) {
		assert_true(entry[i].present);
		assert_int_equal(entry[i].vector, 0x40 + i);
		assert_int_equal(entry[i].apic_id, 1);
		assert_int_equal(entry[i].bdf, FN);
	}
	assert_false(entry[4].present); /* MSI-X's */
	pci_phys_write(FN, MSI + PCI_MSI_CTRL, 2,
		       PCI_MSI_CTRL_64BIT | 2 << 1 |
			       2 << PCI_MSI_CTRL_MME_SHIFT |
			       PCI_MSI_CTRL_ENABLE);
	/* while enabled, a message to a CPU not the cell's fails it: the
	 * message named, the view and the entries as they were */
	sets = 0;
	why = pci_msi_remap_write(&d, &cell, MSI + 4, 4, 0xfee00000u, &done,
				  &bad);
	assert_non_null(strstr(why, "outside the cell"));
	assert_int_equal(bad, (u64)0xfee00000u << 32 | 0x40);
	assert_int_equal(sets, 0);
	assert_true(pci_msi_view_read(&d, MSI + 4, 4, &v));
	assert_int_equal(v, 0xfee01000u);
	/* a new vector while enabled: the entries follow at once */
	why = pci_msi_remap_write(&d, &cell, MSI + 12, 2, 0x60, &done, &bad);
	assert_null(why);
	assert_int_equal(entry[3].vector, 0x63);
	/* more vectors than the function offers */
	why = pci_msi_remap_write(&d, &cell, MSI + PCI_MSI_CTRL, 2,
				  PCI_MSI_CTRL_64BIT |
					  3 << PCI_MSI_CTRL_MME_SHIFT |
					  PCI_MSI_CTRL_ENABLE,
				  &done, &bad);
	assert_non_null(why);
	/* given back: the fake unit's range free again */
	pci_irq_give_back(&d);
	assert_false(d.remapped);
	assert_int_equal(iommu_cell_irqs_used(), 1); /* FN2's */
}

static void msix(void **state)
{
	struct pci_irq_range r[2];
	struct warden_error err = { 0 };
	struct pci_dev d = { .owner = &cell, .bdf = FN, .msix_cap = MSIX };
	u32 e[4] = { 0xfee01000u, 0, 0x52, 1 }, hw[4] = { 0 };

	(void)state;
	assert_int_equal(pci_irq_reserve(&cell, devs, 1, r, &err), 0);
	pci_irq_take(&d, &r[0]);
	/* masked: no entry written */
	assert_null(pci_msix_remap_entry(&d, &cell, 2, e));
	assert_int_equal(sets, 0);
	/* unmasked: MSI-X entry 2 is index first + MSI's 4 + 2 */
	e[3] = 0;
	assert_null(pci_msix_remap_entry(&d, &cell, 2, e));
	assert_true(entry[6].present);
	assert_int_equal(entry[6].vector, 0x52);
	assert_int_equal(entry[6].bdf, FN);
	/* a destination outside the cell: why, no entry */
	e[0] = 0xfee00000u;
	assert_non_null(pci_msix_remap_entry(&d, &cell, 3, e));
	assert_false(entry[7].present);
	/* the device's entry: the remappable message naming 4096 + 4 + 2 */
	pci_msix_remap_message(&d, 2, hw);
	assert_int_equal(hw[0], 0xfee00000u | 4102u << 5 | 0x18);
	assert_int_equal(hw[1], 0);
	assert_int_equal(hw[2], 0);
	pci_irq_give_back(&d);
	assert_int_equal(iommu_cell_irqs_used(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(reserve, setup),
		cmocka_unit_test_setup(msi, setup),
		cmocka_unit_test_setup(msix, setup),
	};

	return cmocka_run_group_tests_name("pci_remap", tests, NULL, NULL);
}
