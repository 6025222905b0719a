// SPDX-License-Identifier: GPL-2.0
/*
 * Calling every unit's hooks (contract in hv/unit.h).  The linker puts
 * each DEFINE_UNIT in section warden_units and provides its bounds.
 * Plain C, also compiled into the unit tests.
 */
#include <hv/hypervisor.h>
#include <hv/unit.h>
#include <warden/hypercall.h>

extern const struct unit __start_warden_units[], __stop_warden_units[];

#define FIRST_UNIT __start_warden_units
#define END_UNIT __stop_warden_units

/* Where each unit's per-cell state starts in struct cell's unit_state. */
#define MAX_UNITS 32
static unsigned int state_offset[MAX_UNITS];

/* Place the units' per-cell states: 0, or -WARDEN_ENOSPC. */
static int place_states(void)
{
	const struct unit *u;
	unsigned int at = 0;

	for (u = FIRST_UNIT; u < END_UNIT; u++) {
		if (u - FIRST_UNIT >= MAX_UNITS)
			return -WARDEN_ENOSPC;
		state_offset[u - FIRST_UNIT] = at;
		at += (u->cell_state_size + 7) & ~7u;
	}
	return at > HV_UNIT_STATE_BYTES ? -WARDEN_ENOSPC : 0;
}

void *unit_cell_state(struct cell *cell, const struct unit *u)
{
	return cell->unit_state + state_offset[u - FIRST_UNIT];
}

/* The units with a root_call hook, listed by units_init: the hook runs on
 * every hypercall from root, so the call walks only these. */
static const struct unit *root_callers[MAX_UNITS];
static unsigned int num_root_callers;

int units_init(struct per_cpu *pc)
{
	const struct unit *u;
	int err = place_states();

	if (err) {
		/* a build with too much per-cell unit state */
		hv_set_error(pc, err, WARDEN_RULE_CPU_SETUP_FAILED,
			     WARDEN_ITEM_NONE, 0, 5, err);
		return err;
	}
	num_root_callers = 0;
	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->root_call)
			root_callers[num_root_callers++] = u;
	for (u = FIRST_UNIT; u < END_UNIT; u++) {
		if (!u->init)
			continue;
		err = u->init(pc);
		if (err) {
			while (u-- > FIRST_UNIT)
				if (u->shutdown)
					u->shutdown();
			return err;
		}
	}
	return 0;
}

void units_shutdown(void)
{
	const struct unit *u;

	for (u = END_UNIT; u-- > FIRST_UNIT;)
		if (u->shutdown)
			u->shutdown();
}

int units_cell_init(struct cell *cell, struct warden_error *err)
{
	const struct unit *u;
	int ret;

	for (u = FIRST_UNIT; u < END_UNIT; u++) {
		if (!u->cell_init)
			continue;
		ret = u->cell_init(cell, err);
		if (ret) {
			while (u-- > FIRST_UNIT)
				if (u->cell_exit)
					u->cell_exit(cell);
			return ret;
		}
	}
	return 0;
}

void units_cell_exit(struct cell *cell)
{
	const struct unit *u;

	for (u = END_UNIT; u-- > FIRST_UNIT;)
		if (u->cell_exit)
			u->cell_exit(cell);
}

void units_map(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
	       u32 kind)
{
	const struct unit *u;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->map)
			u->map(cell, guest, phys, size, flags, kind);
}

void units_unmap(struct cell *cell, u64 start, u64 size)
{
	const struct unit *u;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->unmap)
			u->unmap(cell, start, size);
}

unsigned int units_mmio_count(const struct cell *cell)
{
	const struct unit *u;
	unsigned int n = 0;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->mmio_count)
			n += u->mmio_count(cell);
	return n;
}

long units_hypercall(struct per_cpu *pc, unsigned long code, unsigned long arg1,
		     unsigned long arg2)
{
	const struct unit *u;
	long ret;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->hypercall) {
			ret = u->hypercall(pc, code, arg1, arg2);
			if (ret != -WARDEN_ENOSYS)
				return ret;
		}
	return -WARDEN_ENOSYS;
}

void units_root_call(struct per_cpu *pc)
{
	unsigned int i;

	for (i = 0; i < num_root_callers; i++)
		root_callers[i]->root_call(pc);
}

const char *units_fault_reason(const struct cell *cell, u64 gpa, bool write)
{
	const struct unit *u;
	const char *why;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->fault_reason) {
			why = u->fault_reason(cell, gpa, write);
			if (why)
				return why;
		}
	return NULL;
}

void units_cell_stop(struct cell *cell, bool destroy)
{
	const struct unit *u;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->cell_stop)
			u->cell_stop(cell, destroy);
}
