// SPDX-License-Identifier: GPL-2.0
/*
 * Calling every unit's hooks (contract in hv/unit.h).  The linker puts
 * each DEFINE_UNIT in section warden_units and provides its bounds.
 * Plain C, also compiled into the unit tests.
 */
#include <hv/unit.h>

extern const struct unit __start_warden_units[], __stop_warden_units[];

#define FIRST_UNIT __start_warden_units
#define END_UNIT __stop_warden_units

int units_init(struct per_cpu *pc)
{
	const struct unit *u;
	int err;

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

void units_cell_stop(struct cell *cell, bool destroy)
{
	const struct unit *u;

	for (u = FIRST_UNIT; u < END_UNIT; u++)
		if (u->cell_stop)
			u->cell_stop(cell, destroy);
}
