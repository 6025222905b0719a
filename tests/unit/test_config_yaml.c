// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML config front end (tools/config_yaml*.c, config_file.c,
 * config_report.c, config_show.c, config_values.c):
 *
 *  - values: numbers with units, CPU lists, port ranges;
 *  - the base configs compile to the very blobs config_builder.c builds;
 *  - every invalid config of the corpus (yaml_corpus.c) is rejected with
 *    its rule and item, and printed as "file:line: sentence" with the
 *    marked line and the expected sentence;
 *  - front-end errors (unknown key, bad number, bad CPU range, bad flag
 *    name, ...) with their lines;
 *  - round trips YAML → blob → "config show" YAML → blob;
 *  - the shipped configs/: byte-equal to what configs/mkconfig.py made,
 *    the demo cells valid together, the conflicting pair rejected.
 *
 * VERBOSE=1 prints every printed error line.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmocka_wrap.h"
#include "config_builder.h"
#include "config_report.h"
#include "config_show.h"
#include "config_values.h"
#include "config_yaml.h"
#include "yaml_corpus.h"
#include "yaml_parts.h"
#include <config_check.h>

static bool verbose(void)
{
	return getenv("VERBOSE") != NULL;
}

static void compile_ok(struct cy_config *c, const char *file, const char *text)
{
	unsigned int i;

	if (cy_compile(c, file, text, strlen(text))) {
		for (i = 0; i < c->n_diags && i < CY_MAX_DIAGS; i++)
			print_message("%s:%u: %s\n", file, c->diags[i].line,
				      c->diags[i].msg);
		fail_msg("%s does not compile", file);
	}
	assert_non_null(c->blob);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* ---- values ---- */

static void numbers(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} good[] = {
		{ "0", 0 },
		{ "4096", 4096 },
		{ "0x1000", 0x1000 },
		{ "0X1f", 0x1f },
		{ "4K", 0x1000 },
		{ "4k", 0x1000 },
		{ "64M", 0x4000000 },
		{ "64MiB", 0x4000000 },
		{ "1G", 0x40000000 },
		{ "1GB", 0x40000000 },
		{ "2T", 0x20000000000ull },
		{ "0x10M", 0x1000000 },
		{ " 12 ", 12 },
		{ "0xffffffffffffffff", ~0ull },
		{ "16777215T", 0xffffff0000000000ull },
	};
	static const char *const bad[] = {
		"",
		"x",
		"0x",
		"12Q",
		"1 2",
		"-1",
		"0x10000000000000000",
		"18446744073709551616",
		"16777216T",
		"4KK",
		"1.5M",
	};
	const char *why;
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(cv_parse_u64(good[i].s, &v, &why), 0);
		assert_true(v == good[i].v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cv_parse_u64(bad[i], &v, &why), -1);
}

static void cpu_lists(void **state)
{
	struct warden_cpu_set set;
	const char *why;
	char buf[64];

	(void)state;
	memset(&set, 0, sizeof(set));
	assert_int_equal(cv_parse_cpus("0-3,5", &set, &why), 0);
	assert_true(set.bits[0] == 0x2f);
	cv_format_cpus(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,5");
	memset(&set, 0, sizeof(set));
	assert_int_equal(cv_parse_cpus("1 3, 64 - 65,255", &set, &why), 0);
	assert_true(set.bits[0] == 0xa && set.bits[1] == 3 &&
		    set.bits[3] == 1ull << 63);
	cv_format_cpus(&set, buf, sizeof(buf));
	assert_string_equal(buf, "1,3,64-65,255");
	assert_int_equal(cv_parse_cpus("3-1", &set, &why), -1);
	assert_non_null(strstr(why, "bad CPU range"));
	assert_int_equal(cv_parse_cpus("256", &set, &why), -1);
	assert_int_equal(cv_parse_cpus("0-", &set, &why), -1);
	assert_int_equal(cv_parse_cpus("a", &set, &why), -1);
	assert_int_equal(cv_parse_cpus("1;2", &set, &why), -1);
	memset(&set, 0, sizeof(set));
	assert_int_equal(cv_parse_cpus("1,1", &set, &why), -1);
	assert_string_equal(why, "names a CPU twice");
	memset(&set, 0, sizeof(set));
	assert_int_equal(cv_parse_cpus("0-3,2", &set, &why), -1);
	assert_int_equal(cv_parse_cpus("", &set, &why), -1);
	memset(&set, 0, sizeof(set));
	cv_format_cpus(&set, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void port_ranges(void **state)
{
	const char *why;
	uint32_t base;
	uint64_t len;

	(void)state;
	assert_int_equal(cv_parse_ports("0x3f8-0x3ff", &base, &len, &why), 0);
	assert_true(base == 0x3f8 && len == 8);
	assert_int_equal(cv_parse_ports("0x3f8+8", &base, &len, &why), 0);
	assert_true(base == 0x3f8 && len == 8);
	assert_int_equal(cv_parse_ports("0x60", &base, &len, &why), 0);
	assert_true(base == 0x60 && len == 1);
	assert_int_equal(cv_parse_ports("0 - 0xffff", &base, &len, &why), 0);
	assert_true(base == 0 && len == 0x10000);
	assert_int_equal(cv_parse_ports("0x300+0xfd01", &base, &len, &why), 0);
	assert_true(len == 0xfd01); /* the validator judges the end */
	assert_int_equal(cv_parse_ports("0x3ff-0x3f8", &base, &len, &why), -1);
	assert_int_equal(cv_parse_ports("0x10000", &base, &len, &why), -1);
	assert_int_equal(cv_parse_ports("0x3f8-", &base, &len, &why), -1);
	assert_int_equal(cv_parse_ports("com1", &base, &len, &why), -1);
}

static void sizes(void **state)
{
	char buf[32];

	(void)state;
	cv_format_size(0x600000, buf, sizeof(buf));
	assert_string_equal(buf, "6M");
	cv_format_size(0xa0000, buf, sizeof(buf));
	assert_string_equal(buf, "640K");
	cv_format_size(0x40000000, buf, sizeof(buf));
	assert_string_equal(buf, "1G");
	cv_format_size(0x100800, buf, sizeof(buf));
	assert_string_equal(buf, "0x100800");
	cv_format_size(0xffc00000, buf, sizeof(buf));
	assert_string_equal(buf, "0xffc00000");
	cv_format_size(0x100801, buf, sizeof(buf));
	assert_string_equal(buf, "0x100801");
	cv_format_size(0, buf, sizeof(buf));
	assert_string_equal(buf, "0x0");
}

/* ---- the base configs are config_builder.c's blobs ---- */

static void base_configs(void **state)
{
	struct cb_blob b;
	struct cy_config c;
	const char *texts[] = { yc_system,	yc_cell_a,     yc_cell_b,
				yc_system_pci,	yc_cell_a_pci, yc_cell_b_pci,
				yc_system_links };
	int i;

	(void)state;
	for (i = 0; i < 7; i++) {
		if (i == 6)
			cb_system_links(&b);
		else if (i == 0)
			cb_system(&b);
		else if (i < 3)
			cb_cell(&b, i - 1);
		else if (i == 3)
			cb_system_pci(&b);
		else
			cb_cell_pci(&b, i - 4);
		compile_ok(&c, "base.yaml", texts[i]);
		assert_int_equal(c.size, b.size);
		assert_memory_equal(c.blob, b.u.bytes, b.size);
		cy_free(&c);
	}
}

/* ---- invalid configs ---- */

#define MAX_LOG 32

struct log {
	struct warden_error e[MAX_LOG];
	unsigned int n;
};

static void collect(void *ctx, const struct warden_error *err)
{
	struct log *log = ctx;

	if (log->n < MAX_LOG)
		log->e[log->n] = *err;
	log->n++;
}

static void invalid_configs(void **state)
{
	size_t k;

	(void)state;
	assert_true(yc_n_invalid >= 40);
	for (k = 0; k < yc_n_invalid; k++) {
		const struct yc_invalid *t = &yc_invalid[k];
		const char *sys_text = t->system ? t->system : yc_system;
		const char *marked =
			t->cell && yc_marked_line(t->cell)     ? t->cell
			: t->other && yc_marked_line(t->other) ? t->other
							       : sys_text;
		const char *file = marked == t->cell	? "cell.yaml"
				   : marked == t->other ? "other.yaml"
							: "system.yaml";
		struct cy_config sys, cell, other;
		const struct cy_config *others[1] = { &other };
		struct log log = { .n = 0 };
		char *out = NULL, where[64];
		size_t out_len = 0, i;
		unsigned int n, line = yc_marked_line(marked);
		FILE *f;

		compile_ok(&sys, "system.yaml", sys_text);
		if (t->other)
			compile_ok(&other, "other.yaml", t->other);
		if (t->cell)
			compile_ok(&cell, "cell.yaml", t->cell);
		if (!t->cell) {
			n = config_check_system(sys.blob, sys.size, collect,
						&log);
		} else {
			const void *ob[1] = { t->other ? other.blob : NULL };
			size_t os[1] = { t->other ? other.size : 0 };

			n = config_check_cell(cell.blob, cell.size, sys.blob,
					      sys.size, ob, os,
					      t->other ? 1 : 0, collect, &log);
		}
		for (i = 0; i < log.n && i < MAX_LOG; i++)
			if (log.e[i].rule == t->rule)
				break;
		if (i == log.n || i == MAX_LOG)
			fail_msg("%s: rule %u not reported (%u errors, first "
				 "rule %u)",
				 t->name, t->rule, n,
				 log.n ? log.e[0].rule : 0);
		assert_int_equal(log.e[i].item_kind, t->kind);

		f = open_memstream(&out, &out_len);
		assert_non_null(f);
		if (t->cell)
			assert_int_equal(config_validate(f, "", &cell, &sys,
							 others,
							 t->other ? 1 : 0),
					 n);
		else
			assert_int_equal(
				config_validate(f, "", &sys, NULL, NULL, 0), n);
		fclose(f);
		if (verbose())
			print_message("%s:\n%s", t->name, out);
		snprintf(where, sizeof(where), "%s:%u: ", file, line);
		if (!line || !strstr(out, where) ||
		    !strstr(strstr(out, where), t->message))
			fail_msg("%s: expected \"%s...%s\" in:\n%s", t->name,
				 where, t->message, out);
		free(out);
		cy_free(&sys);
		if (t->other)
			cy_free(&other);
		if (t->cell)
			cy_free(&cell);
	}
}

/* ---- front-end errors ---- */

static void syntax_errors(void **state)
{
	struct cy_config c;
	size_t k;
	unsigned int i, line;
	bool found;

	(void)state;
	for (k = 0; k < yc_n_syntax; k++) {
		const struct yc_syntax *t = &yc_syntax[k];

		line = yc_marked_line(t->yaml);
		assert_true(line > 0);
		assert_true(cy_compile(&c, "bad.yaml", t->yaml,
				       strlen(t->yaml)) > 0);
		assert_null(c.blob);
		found = false;
		for (i = 0; i < c.n_diags && i < CY_MAX_DIAGS; i++) {
			if (verbose())
				print_message("%s: bad.yaml:%u: %s\n", t->name,
					      c.diags[i].line, c.diags[i].msg);
			if (c.diags[i].line == line &&
			    strstr(c.diags[i].msg, t->message))
				found = true;
		}
		if (!found)
			fail_msg("%s: no error \"%s\" on line %u (first: %u: "
				 "%s)",
				 t->name, t->message, line, c.diags[0].line,
				 c.diags[0].msg);
		cy_free(&c);
	}
}

/* Several errors in one file are all reported. */
static void all_errors(void **state)
{
	static const char text[] = "cell:\n"
				   "  name: x\n"
				   "  cpus: 9-8\n"
				   "  colour: red\n"
				   "  memory:\n"
				   "    - {phys: 1x, size: 4K, flags: [reed]}\n"
				   "    - {size: 4K, flags: [read], type: xx}\n"
				   "  ports: [0x10000]\n";
	struct cy_config c;

	(void)state;
	assert_int_equal(cy_compile(&c, "many.yaml", text, strlen(text)), 7);
	assert_int_equal(c.diags[0].line, 4); /* unknown key, as met */
	assert_int_equal(c.diags[1].line, 3);
	assert_int_equal(c.diags[6].line, 8);
	cy_free(&c);
}

/* Binary input, missing files, NUL bytes. */
static void files(void **state)
{
	char path[] = "/tmp/warden-test-XXXXXX";
	struct warden_error e = { .rule = WARDEN_RULE_MEM_EMPTY,
				  .item_kind = WARDEN_ITEM_MEMORY_REGION };
	struct cy_config c, y;
	char where[128];
	FILE *f;
	int fd;

	(void)state;
	compile_ok(&y, "base.yaml", yc_system);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(y.blob, 1, y.size, f), y.size);
	fclose(f);
	assert_int_equal(cy_load_file(&c, path), 0);
	assert_false(c.yaml);
	assert_true(c.system);
	assert_int_equal(c.size, y.size);
	assert_memory_equal(c.blob, y.blob, y.size);
	assert_int_equal(cy_error_line(&c, &e), 0);
	cy_where(&c, &e, where, sizeof(where));
	assert_non_null(strstr(where, ": "));
	assert_null(strstr(where + strlen(path) + 1, ":"));
	cy_free(&c);
	unlink(path);
	assert_int_equal(cy_load_file(&c, "/nonexistent/x.yaml"), 1);
	assert_int_equal(c.diags[0].line, 0);
	cy_free(&c);
	assert_true(cy_compile(&c, "nul.yaml", "cell:\n  name: a\0b\n", 18) >
		    0);
	cy_free(&c);
	cy_free(&y);
}

/* Records the driver returns map to lines as the validator's do. */
static void driver_records(void **state)
{
	struct warden_error e = { .rule = WARDEN_RULE_MEM_NOT_RESERVED,
				  .item_kind = WARDEN_ITEM_SYSTEM,
				  .values = { 0x30000000, 0x600000 } };
	struct cy_config c;
	char buf[512];

	(void)state;
	compile_ok(&c, "sys.yaml", yc_system);
	config_describe(&c, &e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "sys.yaml:2: system config: memory "
				    "0x30000000+0x600000 is not reserved"));
	e = (struct warden_error){ .rule = WARDEN_RULE_PIO_RANGE,
				   .item_kind = WARDEN_ITEM_PIO_RANGE,
				   .item_index = 1 };
	config_describe(&c, &e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "sys.yaml:14: ports[1]"));
	e = (struct warden_error){ .rule = WARDEN_RULE_NAME_EMPTY,
				   .item_kind = WARDEN_ITEM_CELL };
	config_describe(&c, &e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "sys.yaml:6: cell 0 \"linux\": "));
	cy_free(&c);
}

/* Limits: more regions than the validator takes still compile. */
static void too_many(void **state)
{
	struct cy_config c;
	struct log log = { .n = 0 };
	char *text = NULL;
	size_t len = 0;
	unsigned int i, n;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	fprintf(f, "cell:\n  name: big\n  cpus: 1\n  memory:\n");
	for (i = 0; i < 4200; i++)
		fprintf(f, "    - {phys: %uM, size: 1M, flags: [read]}\n",
			0x400 + i);
	fclose(f);
	compile_ok(&c, "big.yaml", text);
	n = config_check_cell(c.blob, c.size, NULL, 0, NULL, NULL, 0, collect,
			      &log);
	assert_true(n >= 2);
	assert_int_equal(log.e[0].rule, WARDEN_RULE_CONFIG_TOO_LARGE);
	assert_int_equal(log.e[1].rule, WARDEN_RULE_CONFIG_TOO_MANY);
	assert_int_equal(cy_error_line(&c, &log.e[1]), 4);
	cy_free(&c);
	free(text);
}

/* ---- round trips ---- */

static void round_trip(const char *name, const char *text)
{
	struct cy_config a, b, d;
	char *shown = NULL, *again = NULL;
	size_t shown_len = 0, again_len = 0;
	const char *why;
	FILE *f;

	compile_ok(&a, name, text);
	f = open_memstream(&shown, &shown_len);
	assert_non_null(f);
	assert_int_equal(config_show(f, a.blob, a.size, name, &why), 0);
	fclose(f);
	compile_ok(&b, "shown.yaml", shown);
	if (a.size != b.size || memcmp(a.blob, b.blob, a.size))
		fail_msg("%s: the shown YAML compiles to other bytes:\n%s",
			 name, shown);
	f = open_memstream(&again, &again_len);
	assert_non_null(f);
	assert_int_equal(config_show(f, b.blob, b.size, name, &why), 0);
	fclose(f);
	assert_string_equal(shown, again);
	/* the line map of the shown YAML is complete too */
	compile_ok(&d, "shown.yaml", again);
	assert_int_equal(d.cell.n_regions, b.cell.n_regions);
	free(shown);
	free(again);
	cy_free(&a);
	cy_free(&b);
	cy_free(&d);
}

static const char *const shipped[] = {
	"system-bochs.yaml",
	"bad/unreserved.yaml",
	"bad/overlap.yaml",
	"cells/tiny-demo.yaml",
	"cells/apic-demo.yaml",
	"cells/smp-demo.yaml",
	"cells/bad/overlap-tiny.yaml",
	"system-qemu.yaml", /* the IOMMU unit and the IOAPIC's source id */
};

static void round_trips(void **state)
{
	char path[512], *text;
	size_t i, len;

	(void)state;
	round_trip("system", yc_system);
	round_trip("cell-a", yc_cell_a);
	round_trip("cell-b", yc_cell_b);
	round_trip("system-pci", yc_system_pci);
	round_trip("cell-a-pci", yc_cell_a_pci);
	round_trip("cell-b-pci", yc_cell_b_pci);
	round_trip("system-links", yc_system_links);
	for (i = 0; i < yc_n_valid; i++)
		round_trip("valid", yc_valid[i]);
	for (i = 0; i < yc_n_invalid; i++) {
		if (yc_invalid[i].system)
			round_trip(yc_invalid[i].name, yc_invalid[i].system);
		if (yc_invalid[i].cell)
			round_trip(yc_invalid[i].name, yc_invalid[i].cell);
	}
	for (i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", WARDEN_CONFIGS,
			 shipped[i]);
		text = read_all(path, &len);
		round_trip(shipped[i], text);
		free(text);
	}
}

/* The IOMMU units and the source ids (config revision 5): the blob's
 * fields, and back through config show. */
static void iommu_units(void **state)
{
	static const char text[] = SYS_HEAD_NO_PLATFORM
		"  platform: {iommu_base: 0xfed90000, hpet_source_id: "
		"ff:0f.0}\n"
		"  ioapics:\n"
		"    - {address: 0xfec00000, pins: 24, source_id: ff:00.0}\n"
		"    - {address: 0xfec01000, gsi_base: 24, pins: 24}\n"
		"  iommus:\n"
		"    - {base: 0xfed91000, scope: [\"00:02.0\", \"03-05\"]}\n"
		"    - {base: 0xfed90000, include_pci_all: true}\n" ROOT_HEAD
			ROOT_MEM R_PORTS;
	const struct warden_system_desc *s;
	const struct warden_iommu_unit *u;
	const struct warden_ioapic *io;
	struct cy_config c;

	(void)state;
	compile_ok(&c, "iommus.yaml", text);
	s = (const struct warden_system_desc
		     *)(c.blob + sizeof(struct warden_config_header));
	assert_int_equal(s->platform.num_iommus, 2);
	assert_int_equal(s->platform.hpet_source_id, 0xff78);
	io = warden_system_ioapics(s);
	assert_int_equal(io[0].source_id, 0xff00);
	assert_int_equal(io[1].source_id, WARDEN_NO_SOURCE_ID);
	u = warden_system_iommus(s);
	assert_true(u[0].base == 0xfed91000 && !u[0].flags &&
		    u[0].num_scopes == 2);
	assert_int_equal(u[0].scopes[0].type, WARDEN_IOMMU_SCOPE_FUNCTION);
	assert_int_equal(u[0].scopes[0].bdf, 0x10);
	assert_int_equal(u[0].scopes[1].type, WARDEN_IOMMU_SCOPE_BUSES);
	assert_int_equal(u[0].scopes[1].bdf, 0x300);
	assert_int_equal(u[0].scopes[1].end_bus, 5);
	assert_true(u[1].base == 0xfed90000 &&
		    u[1].flags == WARDEN_IOMMU_INCLUDE_PCI_ALL &&
		    !u[1].num_scopes);
	/* the units sit after the links, last in the blob */
	assert_true((const uint8_t *)(u + 2) == c.blob + c.size);
	assert_int_equal(config_check_system(c.blob, c.size, NULL, NULL), 0);
	cy_free(&c);
	round_trip("iommus", text);
}

/* "cell create" warns about every PCI device that says dma_unisolated. */
static void dma_warnings(void **state)
{
	struct cy_config c;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	compile_ok(&c, "a.yaml", yc_cell_a_pci);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(config_dma_warnings(f, "warden: cell create: ", &c),
			 1);
	fclose(f);
	assert_non_null(strstr(out, "warden: cell create: warning: PCI device "
				    "00:03.0 (8086:100e): its DMA is not "
				    "isolated where no IOMMU confines it"));
	assert_non_null(strstr(out, "all memory"));
	free(out);
	cy_free(&c);
	/* no devices, or a system config: nothing */
	compile_ok(&c, "a.yaml", yc_cell_a);
	assert_int_equal(config_dma_warnings(stderr, "", &c), 0);
	cy_free(&c);
	compile_ok(&c, "s.yaml", yc_system_pci);
	assert_int_equal(config_dma_warnings(stderr, "", &c), 0);
	cy_free(&c);
}

/* Blobs YAML cannot express are shown with comments, not silently. */
static void show_lossy(void **state)
{
	struct cb_blob b;
	char *out = NULL;
	size_t len = 0;
	const char *why;
	FILE *f;

	(void)state;
	cb_system(&b);
	cb_region(&b, 1)->reserved[1] = 1;
	cb_sys(&b)->debug_console.flags = 2;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(config_show(f, b.u.bytes, b.size, NULL, &why), 1);
	fclose(f);
	assert_non_null(strstr(out, "# NOT EXPRESSIBLE IN YAML: console "
				    "flags 0x2"));
	assert_non_null(strstr(out, "reserved bytes of the next region: "
				    "0x000100"));
	free(out);
	assert_int_equal(config_show(stdout, b.u.bytes, 10, NULL, &why), -1);
	memcpy(b.u.bytes, "WRDNXXX", 8);
	assert_int_equal(config_show(stdout, b.u.bytes, b.size, NULL, &why),
			 -1);

	/* pins, devices and IOAPICs: reserved fields, unknown flags, and
	 * IOAPICs the blob does not hold */
	cb_system_pci(&b);
	cb_pin(&b, 0)->reserved = 1;
	cb_pci(&b, 1)->flags |= 0x100;
	cb_pci(&b, 1)->bars[0].reserved = 3;
	out = NULL;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(config_show(f, b.u.bytes, b.size, NULL, &why), 1);
	fclose(f);
	assert_non_null(strstr(out, "reserved fields of 1 IOAPIC pins"));
	assert_non_null(strstr(out, "unknown flags of the next PCI device: "
				    "0x100"));
	assert_non_null(strstr(out, "reserved field of the next BAR: 0x3"));
	free(out);
	cb_sys(&b)->platform.num_ioapics = 3;
	out = NULL;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(config_show(f, b.u.bytes, b.size, NULL, &why), 1);
	fclose(f);
	assert_non_null(strstr(out, "3 IOAPICs beyond the end of the blob"));
	free(out);
}

/* ---- configs/ ---- */

static void load(struct cy_config *c, const char *name)
{
	char path[512];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/%s", WARDEN_CONFIGS, name);
	if (cy_load_file(c, path)) {
		for (i = 0; i < c->n_diags && i < CY_MAX_DIAGS; i++)
			print_message("%s:%u: %s\n", path, c->diags[i].line,
				      c->diags[i].msg);
		fail_msg("%s does not compile", path);
	}
}

/* The configs/ YAML compile to what configs/mkconfig.py wrote (kept in
 * tests/unit/fixtures/mkconfig/ when the script was retired; since
 * config revision 2 with the counts of pins and devices in each cell
 * descriptor, and system-bochs.cell with root's six pins, the IOAPIC
 * and, since the PCI unit, its six PCI functions appended; since
 * revision 3 with the platform's num_links and iommu_base, and
 * system-bochs.cell with its four links appended (the fourth, "duo",
 * between two cells), byte by byte as the ABI lays them out, packed by a
 * script apart from the C structures). */
static void same_as_mkconfig(void **state)
{
	static const char *const pairs[][2] = {
		{ "system-bochs.yaml", "system-bochs.cell" },
		{ "bad/unreserved.yaml", "bad-unreserved.cell" },
		{ "bad/overlap.yaml", "bad-overlap.cell" },
	};
	struct cy_config c;
	char path[512], *ref;
	size_t i, len;

	(void)state;
	for (i = 0; i < 3; i++) {
		load(&c, pairs[i][0]);
		snprintf(path, sizeof(path), "%s/mkconfig/%s", WARDEN_FIXTURES,
			 pairs[i][1]);
		ref = read_all(path, &len);
		assert_int_equal(c.size, len);
		assert_memory_equal(c.blob, ref, len);
		free(ref);
		cy_free(&c);
	}
}

static unsigned int check_set(const char *const *names, size_t n, FILE *out)
{
	struct cy_config sys, cells[4];
	const struct cy_config *others[4];
	unsigned int errors = 0, e;
	size_t i, n_others = 0;

	load(&sys, "system-bochs.yaml");
	errors += config_validate(out, "", &sys, NULL, NULL, 0);
	for (i = 0; i < n; i++) {
		load(&cells[i], names[i]);
		e = config_validate(out, "", &cells[i], &sys, others, n_others);
		if (!e)
			others[n_others++] = &cells[i];
		errors += e;
	}
	for (i = 0; i < n; i++)
		cy_free(&cells[i]);
	cy_free(&sys);
	return errors;
}

static void shipped_sets(void **state)
{
	static const char *const ok1[] = { "cells/tiny-demo.yaml", "cells/"
								   "smp-demo."
								   "yaml" };
	static const char *const ok2[] = { "cells/apic-demo.yaml", "cells/"
								   "smp-demo."
								   "yaml" };
	static const char *const clash[] = { "cells/tiny-demo.yaml", "cells/"
								     "bad/"
								     "overlap-"
								     "tiny."
								     "yaml" };
	static const char *const alone[] = { "cells/bad/overlap-tiny.yaml" };
	struct cy_config c;
	char *out = NULL, path[512], expect[1200];
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(check_set(ok1, 2, stdout), 0);
	assert_int_equal(check_set(ok2, 2, stdout), 0);
	assert_int_equal(check_set(alone, 1, stdout), 0);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(check_set(clash, 2, f), 1);
	fclose(f);
	/* the error points to memory[0] of overlap-tiny.yaml */
	snprintf(path, sizeof(path), "%s/cells/bad/overlap-tiny.yaml",
		 WARDEN_CONFIGS);
	assert_int_equal(cy_load_file(&c, path), 0);
	snprintf(expect, sizeof(expect),
		 "%s:%u: memory[0] 0x30680000+0x100000: belongs to cell 1 "
		 "(\"tiny-demo\", %s/cells/tiny-demo.yaml)\n",
		 path, c.cell.regions[0], WARDEN_CONFIGS);
	assert_string_equal(out, expect);
	cy_free(&c);
	free(out);
	/* bad-overlap is invalid, bad-unreserved valid (the driver refuses
	 * it) */
	load(&c, "bad/overlap.yaml");
	assert_int_equal(config_validate(NULL, "", &c, NULL, NULL, 0), 1);
	cy_free(&c);
	load(&c, "bad/unreserved.yaml");
	assert_int_equal(config_validate(NULL, "", &c, NULL, NULL, 0), 0);
	cy_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers),
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(port_ranges),
		cmocka_unit_test(sizes),
		cmocka_unit_test(base_configs),
		cmocka_unit_test(invalid_configs),
		cmocka_unit_test(syntax_errors),
		cmocka_unit_test(all_errors),
		cmocka_unit_test(files),
		cmocka_unit_test(driver_records),
		cmocka_unit_test(too_many),
		cmocka_unit_test(round_trips),
		cmocka_unit_test(iommu_units),
		cmocka_unit_test(show_lossy),
		cmocka_unit_test(dma_warnings),
		cmocka_unit_test(same_as_mkconfig),
		cmocka_unit_test(shipped_sets),
	};

	return cmocka_run_group_tests_name("config_yaml", tests, NULL, NULL);
}
