// SPDX-License-Identifier: GPL-2.0
/* Scalar values of the YAML config format (see config_values.h). */
#include <stdio.h>
#include <string.h>

#include <warden/config.h>

#include "config_values.h"

const struct cv_name cv_mem_flags[] = {
	{ "read", WARDEN_MEM_READ },
	{ "write", WARDEN_MEM_WRITE },
	{ "execute", WARDEN_MEM_EXECUTE },
	{ "io", WARDEN_MEM_IO },
	{ "loadable", WARDEN_MEM_LOADABLE },
	{ "comm_region", WARDEN_MEM_COMM_REGION },
	{ "root_shared", WARDEN_MEM_ROOT_SHARED },
	{ NULL, 0 },
};

const struct cv_name cv_cell_flags[] = {
	{ "passive_comm", WARDEN_CELL_PASSIVE_COMM },
	{ "access_log", WARDEN_CELL_ACCESS_LOG },
	{ "legacy_quiet", WARDEN_CELL_LEGACY_QUIET },
	{ "linux", WARDEN_CELL_LINUX },
	{ NULL, 0 },
};

const struct cv_name cv_mem_types[] = {
	{ "uc", WARDEN_MEMTYPE_UC },
	{ "wc", WARDEN_MEMTYPE_WC },
	{ "wt", WARDEN_MEMTYPE_WT },
	{ "wp", WARDEN_MEMTYPE_WP },
	{ "wb", WARDEN_MEMTYPE_WB },
	{ "UC", WARDEN_MEMTYPE_UC },
	{ "WC", WARDEN_MEMTYPE_WC },
	{ "WT", WARDEN_MEMTYPE_WT },
	{ "WP", WARDEN_MEMTYPE_WP },
	{ "WB", WARDEN_MEMTYPE_WB },
	{ NULL, 0 },
};

const struct cv_name cv_console_types[] = {
	{ "none", WARDEN_CONSOLE_NONE },
	{ "uart", WARDEN_CONSOLE_UART_PIO },
	{ "hypercall", WARDEN_CONSOLE_HYPERCALL },
	{ "uart_pio", WARDEN_CONSOLE_UART_PIO },
	{ NULL, 0 },
};

const struct cv_name cv_int_pins[] = {
	{ "none", WARDEN_PCI_INT_NONE }, { "A", 1 },  { "B", 2 }, { "C", 3 },
	{ "D", WARDEN_PCI_INT_D },	 { "a", 1 },  { "b", 2 }, { "c", 3 },
	{ "d", WARDEN_PCI_INT_D },	 { NULL, 0 },
};

/* A BAR's kind: its flags without PREFETCH (a key of its own). */
const struct cv_name cv_bar_types[] = {
	{ "mem32", 0 },
	{ "mem64", WARDEN_PCI_BAR_MEM64 },
	{ "io", WARDEN_PCI_BAR_IO },
	{ NULL, 0 },
};

/* A link's access: its flags (link.h). */
const struct cv_name cv_link_access[] = {
	{ "read-write", 0 },
	{ "directional", WARDEN_LINK_DIRECTIONAL },
	{ "read_write", 0 },
	{ NULL, 0 },
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Reads a plain number (no unit) at *p; advances *p. */
static int digits(const char **p, uint64_t *out, const char **why)
{
	const char *s = *p;
	unsigned int base = 10, d, n = 0;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base) {
			*why = "is too large for 64 bits";
			return -1;
		}
		v = v * base + d;
	}
	if (!n) {
		*why = "is not a number";
		return -1;
	}
	*out = v;
	*p = s;
	return 0;
}

/* Reads a unit at *p (may be none); advances *p. */
static int unit(const char **p, unsigned int *shift)
{
	static const char units[] = "KMGT";
	const char *s = *p, *u;
	char c = *s;

	*shift = 0;
	if (c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	u = c ? strchr(units, c) : NULL;
	if (!u)
		return 0;
	*shift = 10 * (unsigned int)(u - units + 1);
	s++;
	if (s[0] == 'i' && s[1] == 'B')
		s += 2;
	else if (s[0] == 'B')
		s++;
	*p = s;
	return 0;
}

/* A number with an optional unit at *p; advances *p. */
static int number(const char **p, uint64_t *out, const char **why)
{
	unsigned int shift;
	uint64_t v;

	if (digits(p, &v, why))
		return -1;
	unit(p, &shift);
	if (shift && v > (UINT64_MAX >> shift)) {
		*why = "is too large for 64 bits";
		return -1;
	}
	*out = v << shift;
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

int cv_parse_u64(const char *s, uint64_t *out, const char **why)
{
	s = skip_blanks(s);
	if (!*s) {
		*why = "is not a number (empty)";
		return -1;
	}
	if (number(&s, out, why))
		return -1;
	s = skip_blanks(s);
	if (*s) {
		*why = "is not a number (unit K, M, G or T, or trailing text)";
		return -1;
	}
	return 0;
}

int cv_parse_cpus(const char *s, struct warden_cpu_set *set, const char **why)
{
	uint64_t first, last, cpu;

	s = skip_blanks(s);
	if (!*s) {
		*why = "is not a CPU list (empty)";
		return -1;
	}
	while (*s) {
		if (digits(&s, &first, why)) {
			*why = "is not a CPU list such as 0-3,5";
			return -1;
		}
		last = first;
		s = skip_blanks(s);
		if (*s == '-') {
			s = skip_blanks(s + 1);
			if (digits(&s, &last, why)) {
				*why = "has a bad CPU range (a range is "
				       "first-last, e.g. 0-3)";
				return -1;
			}
			if (last < first) {
				*why = "has a bad CPU range (the first CPU is "
				       "above the last)";
				return -1;
			}
		}
		if (last >= WARDEN_MAX_CPUS) {
			*why = "names a CPU above 255";
			return -1;
		}
		/* a set cannot say "twice": a repeated CPU is a mistake
		 * (a typo for another CPU), not to be merged silently */
		for (cpu = first; cpu <= last; cpu++) {
			if (cv_cpu_in(set, (unsigned int)cpu)) {
				*why = "names a CPU twice";
				return -1;
			}
			cv_cpu_add(set, (unsigned int)cpu);
		}
		s = skip_blanks(s);
		if (*s == ',')
			s = skip_blanks(s + 1);
		else if (*s && !(s[-1] == ' ' || s[-1] == '\t')) {
			*why = "is not a CPU list such as 0-3,5";
			return -1;
		}
	}
	return 0;
}

int cv_parse_ports(const char *s, uint32_t *base, uint64_t *length,
		   const char **why)
{
	uint64_t first, second;
	char sep;

	s = skip_blanks(s);
	if (number(&s, &first, why)) {
		*why = "is not a port range such as 0x3f8-0x3ff or 0x3f8+8";
		return -1;
	}
	s = skip_blanks(s);
	sep = *s;
	if (sep == '-' || sep == '+') {
		s = skip_blanks(s + 1);
		if (number(&s, &second, why)) {
			*why = "is not a port range such as 0x3f8-0x3ff or "
			       "0x3f8+8";
			return -1;
		}
		s = skip_blanks(s);
	} else {
		second = 1;
		sep = '+';
	}
	if (*s) {
		*why = "is not a port range such as 0x3f8-0x3ff or 0x3f8+8";
		return -1;
	}
	if (first > 0xffff || (sep == '-' && second > 0xffff)) {
		*why = "has a port above 0xffff";
		return -1;
	}
	if (sep == '-' && second < first) {
		*why = "has a bad port range (the first port is above the "
		       "last)";
		return -1;
	}
	*base = (uint32_t)first;
	*length = sep == '-' ? second - first + 1 : second;
	return 0;
}

int cv_lookup(const struct cv_name *t, const char *name, uint32_t *value)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name)) {
			*value = t->value;
			return 0;
		}
	return -1;
}

const char *cv_name_of(const struct cv_name *t, uint32_t value)
{
	for (; t->name; t++)
		if (t->value == value)
			return t->name;
	return NULL;
}

void cv_names_list(const struct cv_name *table, char *buf, size_t len)
{
	const struct cv_name *t, *u;
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (t = table; t->name; t++) {
		for (u = table; u != t && u->value != t->value; u++)
			;
		if (u != t)
			continue; /* an alias */
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s%s", t == table ? "" : ", ", t->name);
		if (used >= len)
			return;
	}
}

void cv_format_size(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "TGMK";
	unsigned int i, shift;

	/* a unit only where the number stays below 1024: 640K, 767M */
	for (i = 0; v && i < 4; i++) {
		shift = 10 * (4 - i);
		if (!(v & ((1ull << shift) - 1)) && (v >> shift) < 1024) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> shift), units[i]);
			return;
		}
	}
	snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

void cv_format_cpus(const struct warden_cpu_set *set, char *buf, size_t len)
{
	unsigned int cpu = 0, last;
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	while (cpu < WARDEN_MAX_CPUS) {
		if (!cv_cpu_in(set, cpu)) {
			cpu++;
			continue;
		}
		last = cpu;
		while (last + 1 < WARDEN_MAX_CPUS && cv_cpu_in(set, last + 1))
			last++;
		if (last == cpu)
			used += snprintf(buf + used,
					 used < len ? len - used : 0, "%s%u",
					 used ? "," : "", cpu);
		else
			used += snprintf(buf + used,
					 used < len ? len - used : 0, "%s%u-%u",
					 used ? "," : "", cpu, last);
		if (used >= len)
			return;
		cpu = last + 1;
	}
}

/* Hexadecimal digits up to the next character not one, at most max. */
static int hex_field(const char **p, uint64_t max, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned int n = 0, d;

	for (;; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		v = v * 16 + d;
		if (v > max || n > 8)
			return -1;
	}
	if (!n)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

int cv_parse_bdf(const char *s, uint16_t *domain, uint16_t *bdf,
		 const char **why)
{
	uint64_t a, b, dev, fn, dom = 0, bus;
	const char *p = skip_blanks(s);

	*why = "is not a PCI function such as 00:03.0 or 0000:00:03.0 "
	       "(hexadecimal bus:device.function, device up to 1f, "
	       "function up to 7)";
	if (hex_field(&p, 0xffff, &a) || *p++ != ':' ||
	    hex_field(&p, 0xffff, &b))
		return -1;
	if (*p == ':') {
		p++;
		dom = a;
		bus = b;
		if (hex_field(&p, 0x1f, &dev))
			return -1;
	} else {
		bus = a;
		dev = b;
	}
	if (bus > 0xff || dev > 0x1f || *p++ != '.' || hex_field(&p, 7, &fn))
		return -1;
	if (*skip_blanks(p))
		return -1;
	*domain = (uint16_t)dom;
	*bdf = (uint16_t)(bus << 8 | dev << 3 | fn);
	return 0;
}

int cv_parse_ids(const char *s, uint16_t *vendor, uint16_t *device,
		 const char **why)
{
	const char *p = skip_blanks(s);
	uint64_t v, d;

	*why = "is not a vendor:device pair such as 8086:100e (hexadecimal)";
	if (hex_field(&p, 0xffff, &v) || *p++ != ':' ||
	    hex_field(&p, 0xffff, &d) || *skip_blanks(p))
		return -1;
	*vendor = (uint16_t)v;
	*device = (uint16_t)d;
	return 0;
}

int cv_parse_bool(const char *s, bool *v, const char **why)
{
	if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
		*v = true;
		return 0;
	}
	if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
		*v = false;
		return 0;
	}
	*why = "is not true or false";
	return -1;
}

void cv_format_bdf(uint16_t domain, uint16_t bdf, char *buf, size_t len)
{
	if (domain)
		snprintf(buf, len, "%04x:%02x:%02x.%u", domain, bdf >> 8,
			 (bdf >> 3) & 0x1f, bdf & 7);
	else
		snprintf(buf, len, "%02x:%02x.%u", bdf >> 8, (bdf >> 3) & 0x1f,
			 bdf & 7);
}
