// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation: the two entry points (config_check.h), the header,
 * the system part and a cell's descriptor; the rule families are in the
 * files beside this one (check.h).
 *
 * Freestanding on purpose: the same files are built into the hypervisor,
 * the driver, the CLI and the tests (their one list: common/config_check.mk).
 * Arrays are read only when the counts fit the blob.
 */
#include "check.h"

/* The 8 bytes of a signature string (7 characters and the NUL). */
static uint64_t signature_value(const char *s)
{
	return load((const uint8_t *)s, 0, 8);
}

/*
 * Header checks.  Returns true when the descriptor that follows can be
 * read: right signature and revision, and the blob holds header and
 * descriptor.
 */
static bool check_header(struct checker *ck, const uint8_t *p, size_t size,
			 bool cell)
{
	size_t min = HDR_SIZE + (cell ? CELL_DESC_SIZE : SYS_DESC_SIZE);
	uint64_t sig, expected;
	uint32_t v;

	if (size > CONFIG_CHECK_MAX_SIZE)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_TOO_LARGE, size,
			       CONFIG_CHECK_MAX_SIZE);
	if (size < HDR_SIZE) {
		cc_fail_config(ck, WARDEN_RULE_CONFIG_TOO_SMALL, size, min);
		return false;
	}
	sig = load64(p, OFF(struct warden_config_header, signature));
	expected = signature_value(cell ? WARDEN_CELL_SIGNATURE
					: WARDEN_SYSTEM_SIGNATURE);
	if (sig != expected) {
		/* values[1]: 0 a system config was expected, 1 a cell one */
		cc_fail_config(ck, WARDEN_RULE_CONFIG_SIGNATURE, sig, cell);
		return false;
	}
	v = load16(p, OFF(struct warden_config_header, revision));
	if (v != WARDEN_CONFIG_REVISION) {
		cc_fail_config(ck, WARDEN_RULE_CONFIG_REVISION, v,
			       WARDEN_CONFIG_REVISION);
		return false;
	}
	v = load16(p, OFF(struct warden_config_header, architecture));
	if (v != WARDEN_ARCH_X86_64)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_ARCH, v,
			       WARDEN_ARCH_X86_64);
	v = load32(p, OFF(struct warden_config_header, total_size));
	if (v != size)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_SIZE, v, size);
	v = load32(p, OFF(struct warden_config_header, flags));
	if (v)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_FLAGS, v, 0);
	v = load32(p, OFF(struct warden_config_header, reserved));
	if (v)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       OFF(struct warden_config_header, reserved), v);
	if (size < min) {
		cc_fail_config(ck, WARDEN_RULE_CONFIG_TOO_SMALL, size, min);
		return false;
	}
	return true;
}

/* Returns true when the name is non-empty, printable and terminated. */
static bool check_name(struct checker *ck, const struct cell *c)
{
	const uint8_t *name = c->blob + c->desc + CELL_OFF(name);
	bool printable = true;
	unsigned int i;

	if (!name[0]) {
		cc_fail(ck, WARDEN_RULE_NAME_EMPTY, WARDEN_ITEM_CELL, c->id, 0,
			0, 0, 0);
		return false;
	}
	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (!name[i])
			return printable;
		if (printable && (name[i] < 0x20 || name[i] > 0x7e)) {
			cc_fail(ck, WARDEN_RULE_NAME_NOT_PRINTABLE,
				WARDEN_ITEM_CELL, c->id, i, name[i], 0, 0);
			printable = false;
		}
	}
	cc_fail(ck, WARDEN_RULE_NAME_UNTERMINATED, WARDEN_ITEM_CELL, c->id, 0,
		0, 0, 0);
	return false;
}

static bool same_name(const struct cell *a, const struct cell *b)
{
	return cc_names_equal(a->blob + a->desc + CELL_OFF(name),
			      b->blob + b->desc + CELL_OFF(name));
}

/* index: 0 the hypervisor's debug console, 1 a cell's console. */
static void check_console(struct checker *ck, const struct console *con,
			  uint32_t index, bool hypercall_ok)
{
	bool ok;

	if (con->flags)
		cc_fail(ck, WARDEN_RULE_CONFIG_FLAGS, WARDEN_ITEM_CONSOLE,
			index, con->flags, 0, 0, 0);
	switch (con->type) {
	case WARDEN_CONSOLE_NONE:
		ok = true;
		break;
	case WARDEN_CONSOLE_UART_PIO:
		ok = con->address <= PORT_END - UART_PORTS;
		break;
	case WARDEN_CONSOLE_HYPERCALL:
		ok = hypercall_ok;
		break;
	default:
		ok = false;
		break;
	}
	if (!ok)
		cc_fail(ck, WARDEN_RULE_CONSOLE, WARDEN_ITEM_CONSOLE, index,
			con->type, con->address, 0, 0);
}

/*
 * Everything about one cell that needs no other config.  sys gives the
 * hypervisor memory for the root cell's regions (NULL otherwise).
 */
static bool check_cell_alone(struct checker *ck, const struct cell *c,
			     const struct system *sys)
{
	bool name_ok = check_name(ck, c);
	/* the guest policies (linux, legacy_quiet, access_log) are for
	 * cells: root's Linux has its own MSR and port rules */
	uint32_t allowed = c->root ? WARDEN_CELL_PASSIVE_COMM
				   : WARDEN_CELL_FLAGS_ALL;

	if (c->flags & ~allowed)
		cc_fail(ck, WARDEN_RULE_CELL_FLAGS, WARDEN_ITEM_CELL, c->id,
			c->flags, allowed, 0, 0);
	if (c->reserved)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       c->desc + CELL_OFF(reserved), c->reserved);
	if (cc_cpus_empty(c->cpus))
		cc_fail(ck, WARDEN_RULE_CPUS_EMPTY, WARDEN_ITEM_CELL, c->id, 0,
			0, 0, 0);
	else if (cpu_in(c->cpus, 0) != c->root)
		cc_fail(ck, WARDEN_RULE_CPU0_NOT_ROOT, WARDEN_ITEM_CPU, 0, 0, 0,
			0, 0);
	check_console(ck, &c->console, 1, !c->root);
	if (!c->arrays)
		return name_ok;
	cc_check_regions(ck, c, sys);
	cc_check_pio(ck, c);
	if (!c->root && c->console.type == WARDEN_CONSOLE_UART_PIO &&
	    c->console.address <= PORT_END - UART_PORTS &&
	    !cc_ports_in_cell(c, c->console.address, UART_PORTS))
		cc_fail(ck, WARDEN_RULE_CONSOLE_PORTS, WARDEN_ITEM_CONSOLE, 1,
			c->console.type, c->console.address, 0, 0);
	cc_check_pins(ck, c);
	cc_check_pci(ck, c);
	return name_ok;
}

static bool check_system_blob(struct checker *ck, const uint8_t *p, size_t size,
			      struct system *sys)
{
	uint64_t v, extra;
	unsigned int cpu;

	if (!check_header(ck, p, size, false))
		return false;
	sys->hv_start = load64(p, SYS_OFF(hv_mem_start));
	sys->hv_size = load64(p, SYS_OFF(hv_mem_size));
	if (!sys->hv_size || !page_aligned(sys->hv_start) ||
	    !page_aligned(sys->hv_size) ||
	    sys->hv_size < CONFIG_CHECK_HV_MEM_MIN ||
	    wraps(sys->hv_start, sys->hv_size))
		cc_fail(ck, WARDEN_RULE_HV_MEM, WARDEN_ITEM_SYSTEM, 0,
			sys->hv_start, sys->hv_size, CONFIG_CHECK_HV_MEM_MIN,
			0);
	sys->hv_usable = sys->hv_size && !wraps(sys->hv_start, sys->hv_size);

	cc_read_console(p, SYS_OFF(debug_console), &sys->debug);
	check_console(ck, &sys->debug, 0, false);

	sys->num_ioapics = load16(p, PLAT_OFF(num_ioapics));
	sys->num_links = load16(p, PLAT_OFF(num_links));
	sys->mmconfig_base = load64(p, PLAT_OFF(mmconfig_base));
	v = load(p, PLAT_OFF(mmconfig_end_bus), 1);
	sys->mmconfig_size = sys->mmconfig_base ? (v + 1) << 20 : 0;
	sys->iommu_base = load64(p, PLAT_OFF(iommu_base));
	sys->hpet_base = load64(p, PLAT_OFF(hpet_base));
	sys->num_iommus = load16(p, PLAT_OFF(num_iommus));
	v = load(p, PLAT_OFF(reserved2), 1);
	if (v)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       PLAT_OFF(reserved2), v);
	v = load(p, PLAT_OFF(reserved3),
		 sizeof(((struct warden_platform *)0)->reserved3));
	if (v)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       PLAT_OFF(reserved3), v);

	sys->root.id = WARDEN_ROOT_CELL_ID;
	sys->root.root = true;
	sys->ioapics = sys->num_ioapics <= CONFIG_CHECK_MAX_IOAPICS;
	if (!sys->ioapics)
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 4,
			sys->num_ioapics, CONFIG_CHECK_MAX_IOAPICS, 0, 0);
	sys->links = sys->num_links <= CONFIG_CHECK_MAX_LINKS;
	if (!sys->links)
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 5,
			sys->num_links, CONFIG_CHECK_MAX_LINKS, 0, 0);
	sys->iommus = sys->num_iommus <= CONFIG_CHECK_MAX_IOMMUS;
	if (!sys->iommus)
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 6,
			sys->num_iommus, CONFIG_CHECK_MAX_IOMMUS, 0, 0);
	extra = sys->ioapics ? (uint64_t)sys->num_ioapics * IOAPIC_SIZE : 0;
	if (sys->links)
		extra += (uint64_t)sys->num_links * LINK_SIZE;
	if (sys->iommus)
		extra += (uint64_t)sys->num_iommus * IOMMU_SIZE;
	cc_read_cell(ck, &sys->root, p, size, SYS_OFF(root_cell), extra);
	sys->ioapics_off = sys->root.end_off;
	sys->ioapics = sys->ioapics && sys->root.arrays;
	sys->links_off =
		sys->ioapics_off + (size_t)sys->num_ioapics * IOAPIC_SIZE;
	/* the links come after the IOAPICs: a count too large for those
	 * leaves them nowhere */
	sys->links = sys->links && sys->ioapics;
	sys->iommus_off = sys->links_off + (size_t)sys->num_links * LINK_SIZE;
	sys->iommus = sys->iommus && sys->links;
	check_cell_alone(ck, &sys->root, sys);
	if (sys->ioapics) {
		cc_check_ioapics(ck, sys, p);
		cc_check_pins_ioapic(ck, &sys->root, sys);
	}
	if (sys->links)
		cc_check_links(ck, sys);
	cc_check_iommus(ck, sys);

	sys->machine_cpus = 0;
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
		if (cpu_in(sys->root.cpus, cpu))
			sys->machine_cpus = cpu + 1;
	return true;
}

unsigned int config_check_system(const void *blob, size_t size,
				 config_report_fn report, void *ctx)
{
	struct checker ck = { .report = report, .ctx = ctx, .errors = 0 };
	struct system sys;

	if (!blob)
		size = 0;
	check_system_blob(&ck, blob, size, &sys);
	return ck.errors;
}

/* Reads and checks a cell blob with its header; false: unreadable. */
static bool check_cell_blob(struct checker *ck, const uint8_t *p, size_t size,
			    uint32_t id, struct cell *c)
{
	if (!p)
		size = 0;
	c->arrays = false;
	if (!check_header(ck, p, size, true))
		return false;
	c->id = id;
	c->root = false;
	cc_read_cell(ck, c, p, size, HDR_SIZE, 0);
	check_cell_alone(ck, c, NULL);
	return true;
}

/* Checks a config the new cell depends on without reporting its errors:
 * true when it is valid, else reported once as CONFIG_CONTEXT. */
static bool context_valid(struct checker *ck, const struct checker *quiet,
			  bool readable, uint32_t kind, uint32_t index)
{
	if (readable && !quiet->errors)
		return true;
	cc_fail(ck, WARDEN_RULE_CONFIG_CONTEXT, kind, index, quiet->errors, 0,
		0, 0);
	return false;
}

unsigned int config_check_cell(const void *blob, size_t size,
			       const void *system_blob, size_t system_size,
			       const void *const *others,
			       const size_t *other_sizes, size_t n_others,
			       config_report_fn report, void *ctx)
{
	struct checker ck = { .report = report, .ctx = ctx, .errors = 0 };
	struct checker quiet;
	struct system sys;
	struct cell c, o;
	bool name_ok, ok;
	size_t k;

	if (!blob)
		size = 0;
	if (!check_header(&ck, blob, size, true))
		return ck.errors;
	c.id = (uint32_t)(n_others + 1);
	c.root = false;
	cc_read_cell(&ck, &c, blob, size, HDR_SIZE, 0);
	name_ok = check_cell_alone(&ck, &c, NULL);
	if (!system_blob)
		return ck.errors;

	quiet = (struct checker){ .report = NULL, .ctx = NULL, .errors = 0 };
	ok = check_system_blob(&quiet, system_blob, system_size, &sys);
	if (!context_valid(&ck, &quiet, ok, WARDEN_ITEM_SYSTEM, 0))
		return ck.errors;
	if (name_ok && same_name(&c, &sys.root))
		cc_fail(&ck, WARDEN_RULE_NAME_DUPLICATE, WARDEN_ITEM_CELL, c.id,
			WARDEN_ROOT_CELL_ID, 0, 0, 0);
	cc_check_cpus_root(&ck, &c, &sys);
	if (c.arrays) {
		cc_check_regions_root(&ck, &c, &sys);
		cc_check_pio_root(&ck, &c, &sys);
		cc_check_config_space(&ck, &c, &sys);
		cc_check_pins_system(&ck, &c, &sys);
		cc_check_pci_system(&ck, &c, &sys);
		cc_check_pci_alias(&ck, &c, &sys);
		cc_check_bars_not_taken(&ck, &c, &sys);
		if (sys.links)
			cc_check_links_cell(&ck, &c, &sys, name_ok);
	}

	if (n_others && (!others || !other_sizes)) {
		cc_fail(&ck, WARDEN_RULE_CONFIG_CONTEXT, WARDEN_ITEM_CELL, 1, 0,
			0, 0, 0);
		return ck.errors;
	}
	for (k = 0; k < n_others; k++) {
		quiet = (struct checker){ .report = NULL, .errors = 0 };
		o.id = (uint32_t)(k + 1);
		ok = check_cell_blob(&quiet, others[k], other_sizes[k], o.id,
				     &o);
		if (!context_valid(&ck, &quiet, ok, WARDEN_ITEM_CELL, o.id))
			continue;
		if (name_ok && same_name(&c, &o))
			cc_fail(&ck, WARDEN_RULE_NAME_DUPLICATE,
				WARDEN_ITEM_CELL, c.id, o.id, 0, 0, 0);
		cc_check_cpus_other(&ck, &c, &o);
		if (c.arrays) {
			cc_check_regions_other(&ck, &c, &o);
			cc_check_pio_other(&ck, &c, &o);
			cc_check_pins_other(&ck, &c, &o);
			cc_check_pci_other(&ck, &c, &o);
		}
	}
	return ck.errors;
}
