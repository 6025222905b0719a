// SPDX-License-Identifier: GPL-2.0
/*
 * IPI destinations (hypervisor/arch/x86/apic_dest.c) in every addressing
 * mode the local APIC has: physical, logical flat and cluster (xAPIC),
 * logical cluster (x2APIC), broadcasts and the shorthands.
 */
#include "cmocka_wrap.h"
#include <asm/apic.h>
#include <asm/apic_dest.h>

#define FIXED(vector) (APIC_DM_FIXED << 8 | (vector))
#define LOGICAL APIC_ICR_LOGICAL
#define SH(x) ((u32)(x) << 18)

/* four CPUs as Linux sets them up in xAPIC flat mode: APIC IDs 0-3,
 * logical IDs one bit each */
static const struct apic_target flat[4] = {
	{ 0, 0x01000000, 0xffffffff },
	{ 1, 0x02000000, 0xffffffff },
	{ 2, 0x04000000, 0xffffffff },
	{ 3, 0x08000000, 0xffffffff },
};

/* which of the targets accept; sender is the index of the sending CPU */
static unsigned int accepted(bool x2, u32 low, u32 dest,
			     const struct apic_target *t, unsigned int n,
			     unsigned int sender)
{
	unsigned int i, mask = 0;

	for (i = 0; i < n; i++)
		if (apic_is_destination(x2, low, dest, &t[i], i == sender))
			mask |= 1u << i;
	return mask;
}

static void physical(void **state)
{
	(void)state;
	assert_int_equal(accepted(false, FIXED(0xfd), 2, flat, 4, 0), 0x4);
	assert_int_equal(accepted(false, FIXED(0xfd), 7, flat, 4, 0), 0x0);
	assert_int_equal(accepted(false, FIXED(0xfd), 0xff, flat, 4, 0), 0xf);
	/* INIT and SIPI use the same addressing */
	assert_int_equal(accepted(false, APIC_DM_INIT << 8 | APIC_ICR_ASSERT, 1,
				  flat, 4, 0),
			 0x2);
}

static void logical_flat(void **state)
{
	(void)state;
	assert_int_equal(
		accepted(false, FIXED(0xfb) | LOGICAL, 0x0a, flat, 4, 0), 0xa);
	assert_int_equal(
		accepted(false, FIXED(0xfb) | LOGICAL, 0x10, flat, 4, 0), 0x0);
	assert_int_equal(
		accepted(false, FIXED(0xfb) | LOGICAL, 0xff, flat, 4, 0), 0xf);
}

static void logical_cluster(void **state)
{
	/* two clusters of two CPUs: cluster 1 members 1,2; cluster 2
	 * members 1,2 */
	static const struct apic_target cl[4] = {
		{ 0, 0x11000000, 0x0fffffff },
		{ 1, 0x12000000, 0x0fffffff },
		{ 2, 0x21000000, 0x0fffffff },
		{ 3, 0x22000000, 0x0fffffff },
	};

	(void)state;
	assert_int_equal(accepted(false, FIXED(0xfb) | LOGICAL, 0x13, cl, 4, 0),
			 0x3);
	assert_int_equal(accepted(false, FIXED(0xfb) | LOGICAL, 0x22, cl, 4, 0),
			 0x8);
	assert_int_equal(accepted(false, FIXED(0xfb) | LOGICAL, 0x32, cl, 4, 0),
			 0x0);
	assert_int_equal(accepted(false, FIXED(0xfb) | LOGICAL, 0xff, cl, 4, 0),
			 0xf);
}

static void x2apic(void **state)
{
	/* x2APIC IDs 0, 1, 16, 17: LDR = cluster << 16 | 1 << (id & 15) */
	static const struct apic_target x2[4] = {
		{ 0, 0x00000001, 0 },
		{ 1, 0x00000002, 0 },
		{ 16, 0x00010001, 0 },
		{ 17, 0x00010002, 0 },
	};

	(void)state;
	assert_int_equal(accepted(true, FIXED(0xfd), 16, x2, 4, 0), 0x4);
	assert_int_equal(accepted(true, FIXED(0xfd), 0xffffffff, x2, 4, 0),
			 0xf);
	/* 0xff is an ordinary APIC ID in x2APIC mode, not a broadcast */
	assert_int_equal(accepted(true, FIXED(0xfd), 0xff, x2, 4, 0), 0x0);
	assert_int_equal(accepted(true, FIXED(0xfb) | LOGICAL, 0x00010003, x2,
				  4, 0),
			 0xc);
	assert_int_equal(accepted(true, FIXED(0xfb) | LOGICAL, 0x00000002, x2,
				  4, 0),
			 0x2);
}

static void shorthands(void **state)
{
	(void)state;
	/* the destination field is ignored with a shorthand */
	assert_int_equal(accepted(false, FIXED(0xfd) | SH(APIC_SH_SELF), 3,
				  flat, 4, 1),
			 0x2);
	assert_int_equal(accepted(false, FIXED(0xfd) | SH(APIC_SH_ALL), 3, flat,
				  4, 1),
			 0xf);
	assert_int_equal(accepted(true, FIXED(0xfd) | SH(APIC_SH_OTHERS), 0,
				  flat, 4, 1),
			 0xd);
}

/* A cell of CPUs 2 and 3 beside root's 0 and 1 (xAPIC flat): which CPUs
 * get an IPI from CPU 2, as a mask, or -1 if one is forbidden. */
static int cell_ipi(bool x2, u32 low, u32 dest)
{
	unsigned int i, mask = 0;
	enum apic_cell_verdict v;

	for (i = 0; i < 4; i++) {
		v = apic_cell_ipi_verdict(x2, low, dest, &flat[i], i == 2,
					  i >= 2);
		if (v == APIC_CELL_FORBIDDEN)
			return -1;
		if (v == APIC_CELL_DELIVER)
			mask |= 1u << i;
	}
	return (int)mask;
}

static void cell_confined(void **state)
{
	(void)state;
	/* its own CPUs, physically and logically */
	assert_int_equal(cell_ipi(false, FIXED(0x40), 3), 0x8);
	assert_int_equal(cell_ipi(false, FIXED(0x40) | LOGICAL, 0x08), 0x8);
	/* shorthands and broadcasts: rewritten to the cell's CPUs only */
	assert_int_equal(cell_ipi(false, FIXED(0x40) | SH(APIC_SH_ALL), 0),
			 0xc);
	assert_int_equal(cell_ipi(false, FIXED(0x40) | SH(APIC_SH_OTHERS), 0),
			 0x8);
	assert_int_equal(cell_ipi(false, FIXED(0x40) | SH(APIC_SH_SELF), 0),
			 0x4);
	assert_int_equal(cell_ipi(false, FIXED(0x40), 0xff), 0xc);
	assert_int_equal(cell_ipi(true, FIXED(0x40), 0xffffffff), 0xc);
	/* logical IDs of root's CPUs mean nothing in the cell: left out */
	assert_int_equal(cell_ipi(false, FIXED(0x40) | LOGICAL, 0x0f), 0xc);
	assert_int_equal(cell_ipi(false, FIXED(0x40) | LOGICAL, 0x01), 0x0);
	/* a root CPU by its APIC ID: forbidden, whatever the mode */
	assert_int_equal(cell_ipi(false, FIXED(0x40), 0), -1);
	assert_int_equal(cell_ipi(true, FIXED(0x40), 1), -1);
	assert_int_equal(cell_ipi(false, APIC_DM_NMI << 8, 1), -1);
	assert_int_equal(
		cell_ipi(false, APIC_DM_INIT << 8 | APIC_ICR_ASSERT, 0), -1);
	/* an APIC ID nobody has: reaches nobody, not forbidden */
	assert_int_equal(cell_ipi(false, FIXED(0x40), 9), 0x0);
}

/* LVT delivery modes: Fixed and NMI pass, the others only masked. */
static void lvt_modes(void **state)
{
	unsigned int mode;

	(void)state;
	assert_null(apic_cell_lvt_mode_refused(0x000ec)); /* fixed */
	assert_null(apic_cell_lvt_mode_refused(0x00400)); /* NMI */
	assert_string_equal(apic_cell_lvt_mode_refused(0x00200), "SMI");
	assert_string_equal(apic_cell_lvt_mode_refused(0x00500), "INIT");
	assert_string_equal(apic_cell_lvt_mode_refused(0x00700), "ExtINT");
	/* Linux's LINT0 on an application processor: masked ExtINT */
	assert_null(apic_cell_lvt_mode_refused(0x10700));
	for (mode = 0; mode < 8; mode++) {
		assert_null(apic_cell_lvt_mode_refused(0x10000 | mode << 8));
		if (mode == 0 || mode == 4)
			assert_null(
				apic_cell_lvt_mode_refused(mode << 8 | 0x40));
		else
			assert_non_null(
				apic_cell_lvt_mode_refused(mode << 8 | 0x40));
	}
}

/* A cell's device interrupt: one APIC ID, physical; the broadcast 0xff
 * and logical destinations (which the hardware would resolve against
 * root's LDRs) refused. */
static void device_dest(void **state)
{
	(void)state;
	assert_null(apic_cell_device_dest_refused(FIXED(0x41), 1));
	assert_null(apic_cell_device_dest_refused(FIXED(0x41), 0xfe));
	assert_non_null(apic_cell_device_dest_refused(FIXED(0x41), 0xff));
	assert_non_null(
		apic_cell_device_dest_refused(FIXED(0x41) | LOGICAL, 2));
	/* lowest priority is a delivery mode, checked elsewhere */
	assert_null(
		apic_cell_device_dest_refused(APIC_DM_LOWEST << 8 | 0x41, 3));
}

/* Vectors 0-15 are illegal in Fixed and Lowest Priority deliveries
 * only; NMI, INIT and SIPI keep their vector field (a SIPI to vector 0
 * starts the CPU at 0). */
static void illegal_vectors(void **state)
{
	unsigned int v;

	(void)state;
	for (v = 0; v < 256; v++) {
		assert_int_equal(apic_icr_vector_illegal(FIXED(v)), v < 16);
		assert_int_equal(apic_icr_vector_illegal(APIC_DM_LOWEST << 8 |
							 v),
				 v < 16);
		assert_false(apic_icr_vector_illegal(APIC_DM_NMI << 8 | v));
		assert_false(apic_icr_vector_illegal(APIC_DM_INIT << 8 | v));
		assert_false(apic_icr_vector_illegal(APIC_DM_SIPI << 8 | v));
	}
	/* the other fields do not change it: self shorthand, level,
	 * logical destination */
	assert_true(apic_icr_vector_illegal(SH(1) | APIC_ICR_ASSERT | 2));
	assert_true(apic_icr_vector_illegal(LOGICAL | APIC_ICR_LEVEL | 5));
	assert_false(apic_icr_vector_illegal(SH(1) | APIC_ICR_ASSERT | 16));
	/* an unmasked Fixed LVT with such a vector is refused; masked, or
	 * with NMI delivery (vector ignored), it is not */
	assert_non_null(apic_cell_lvt_mode_refused(0x00002));
	assert_non_null(apic_cell_lvt_mode_refused(0x0000f));
	assert_null(apic_cell_lvt_mode_refused(0x00010));
	assert_null(apic_cell_lvt_mode_refused(0x10002));
	assert_null(apic_cell_lvt_mode_refused(0x00402));
	/* a reserved mode keeps its own name */
	assert_string_equal(apic_cell_lvt_mode_refused(0x00102), "lowest "
								 "priority "
								 "(reserved in "
								 "an LVT)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(physical),
		cmocka_unit_test(logical_flat),
		cmocka_unit_test(logical_cluster),
		cmocka_unit_test(x2apic),
		cmocka_unit_test(shorthands),
		cmocka_unit_test(cell_confined),
		cmocka_unit_test(lvt_modes),
		cmocka_unit_test(device_dest),
		cmocka_unit_test(illegal_vectors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
