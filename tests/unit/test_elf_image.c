// SPDX-License-Identifier: GPL-2.0
/*
 * tools/elf_image.c and tools/load_check.c: ELF images for "warden cell
 * load", built here byte by byte (an inmate's two segments, then each
 * thing a user could get wrong), and checked against a cell's memory as a
 * config or the driver's sysfs files give it.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include <warden/config.h>
#include <warden/load.h>

#include "cmocka_wrap.h"
#include "elf_image.h"
#include "load_check.h"

/* An image as inmate.lds links one: code at 0 (entry 0), data at
 * 0x2000 with BSS after it. */
static uint8_t file[0x3000];
static char why[512];

static Elf64_Ehdr *ehdr(void)
{
	return (Elf64_Ehdr *)file;
}

static Elf64_Phdr *phdr(unsigned int i)
{
	return (Elf64_Phdr *)(file + sizeof(Elf64_Ehdr)) + i;
}

static int setup(void **state)
{
	Elf64_Ehdr *e = ehdr();

	(void)state;
	memset(file, 0, sizeof(file));
	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = ELFDATA2LSB;
	e->e_ident[EI_VERSION] = EV_CURRENT;
	e->e_type = ET_EXEC;
	e->e_machine = EM_X86_64;
	e->e_version = EV_CURRENT;
	e->e_entry = 0;
	e->e_phoff = sizeof(Elf64_Ehdr);
	e->e_phentsize = sizeof(Elf64_Phdr);
	e->e_phnum = 3;
	/* listed data first: the loader sorts them */
	*phdr(0) = (Elf64_Phdr){ .p_type = PT_LOAD,
				 .p_offset = 0x2000,
				 .p_vaddr = 0x2000,
				 .p_paddr = 0x2000,
				 .p_filesz = 0x100,
				 .p_memsz = 0x5000 };
	*phdr(1) = (Elf64_Phdr){ .p_type = PT_LOAD,
				 .p_offset = 0x1000,
				 .p_vaddr = 0,
				 .p_paddr = 0,
				 .p_filesz = 0x800,
				 .p_memsz = 0x800 };
	*phdr(2) = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = 0x200 };
	memset(file + 0x1000, 0xf4, 0x800); /* "code" */
	memset(file + 0x2000, 0x5a, 0x100); /* "data" */
	return 0;
}

/* A cell with RAM 0+1M loadable, reset address 0. */
static const struct cell_memory cell = {
	.reset_address = 0,
	.num_regions = 1,
	.regions = { { 0, 0x100000 } },
};

static void parse_ok(struct elf_image *img)
{
	int ret = elf_parse(file, sizeof(file), img, why, sizeof(why));

	if (ret)
		fail_msg("refused: %s", why);
}

static void refused(const char *needle)
{
	struct elf_image img;

	assert_int_equal(elf_parse(file, sizeof(file), &img, why, sizeof(why)),
			 -1);
	if (!strstr(why, needle))
		fail_msg("reason '%s' lacks '%s'", why, needle);
}

static void inmate_image_loads(void **state)
{
	struct elf_image img;
	uint8_t buf[0x5000];

	(void)state;
	parse_ok(&img);
	assert_int_equal(img.num_segments, 2);
	assert_int_equal(img.segments[0].address, 0);
	assert_int_equal(img.segments[0].mem_size, 0x800);
	assert_int_equal(img.segments[1].address, 0x2000);
	assert_int_equal(img.segments[1].index, 0);
	/* the BSS part comes out as zeros, the file part as the file */
	memset(buf, 0xee, sizeof(buf));
	elf_segment_bytes(file, &img.segments[1], buf);
	assert_int_equal(buf[0], 0x5a);
	assert_int_equal(buf[0xff], 0x5a);
	assert_int_equal(buf[0x100], 0);
	assert_int_equal(buf[0x4fff], 0);
	assert_int_equal(
		load_check_entry(&cell, &img, "x.elf", why, sizeof(why)), 0);
}

static void paddr_places_it(void **state)
{
	struct elf_image img;

	(void)state;
	/* linked to run at a high virtual address, loaded low */
	phdr(1)->p_vaddr = 0xffffffff80000000ull;
	parse_ok(&img);
	assert_int_equal(img.segments[0].address, 0);
}

static void not_elf(void **state)
{
	struct elf_image img;

	(void)state;
	assert_false(elf_is_elf("\xeb\x00", 2));
	assert_int_equal(
		elf_parse("\xeb\x00\x00\x00", 4, &img, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not an ELF file"));
	assert_int_equal(elf_parse(file, 40, &img, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "too short"));
}

static void wrong_kind(void **state)
{
	(void)state;
	file[EI_CLASS] = ELFCLASS32;
	refused("32-bit");
	setup(NULL);
	file[EI_DATA] = ELFDATA2MSB;
	refused("little-endian");
	setup(NULL);
	ehdr()->e_machine = EM_386;
	refused("EM_X86_64");
	setup(NULL);
	ehdr()->e_type = ET_DYN;
	refused("-no-pie");
	setup(NULL);
	ehdr()->e_type = ET_REL;
	refused("not linked");
	setup(NULL);
	phdr(2)->p_type = PT_INTERP;
	refused("dynamically linked");
}

static void bad_headers(void **state)
{
	(void)state;
	ehdr()->e_phoff = sizeof(file) - 0x10;
	refused("past the end of the file");
	setup(NULL);
	ehdr()->e_phentsize = 32;
	refused("e_phentsize");
	setup(NULL);
	phdr(0)->p_filesz = 0x6000;
	refused("p_filesz > p_memsz");
	setup(NULL);
	phdr(0)->p_offset = 0x2f80; /* 0x100 bytes from there: past 0x3000 */
	refused("segment 0: its bytes 0x2f80+0x100 go past the end");
	setup(NULL);
	phdr(0)->p_paddr = 0xfffffffffffff000ull;
	refused("wraps around");
	setup(NULL);
	phdr(0)->p_paddr = 0x400; /* inside the code segment 0+0x800 */
	refused("segments 1 (0x0+0x800) and 0 (0x400+0x5000) overlap");
	setup(NULL);
	phdr(0)->p_type = PT_NULL;
	phdr(1)->p_type = PT_DYNAMIC;
	refused("no loadable segment");
}

static void entry_point(void **state)
{
	struct cell_memory m = cell;
	struct elf_image img;

	(void)state;
	parse_ok(&img);
	m.reset_address = 0x1000;
	assert_int_equal(load_check_entry(&m, &img, "x.elf", why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "x.elf: entry point 0x0 is not the cell's "
				    "reset address 0x1000"));
	/* the reset address, but in the BSS: nothing there to run */
	ehdr()->e_entry = 0x3000;
	parse_ok(&img);
	m.reset_address = 0x3000;
	assert_int_equal(load_check_entry(&m, &img, "x.elf", why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "in none of its segments"));
}

static void pieces_in_cell(void **state)
{
	struct load_piece p[3] = {
		{ "x.elf segment 1", 0, 0x800 },
		{ "x.elf segment 0", 0x2000, 0x5000 },
		{ "the command line", WARDEN_CMDLINE_ADDRESS, 9 },
	};
	struct cell_memory small = cell;

	(void)state;
	assert_int_equal(load_check_pieces(&cell, p, 3, why, sizeof(why)), 0);
	/* a cell with 64 KiB of RAM has no room for the command line */
	small.regions[0].size = 0x10000;
	assert_int_equal(load_check_pieces(&small, p, 3, why, sizeof(why)), -1);
	assert_string_equal(why, "the command line (0xff000+0x9) is outside "
				 "the cell's loadable memory (0x0+0x10000)");
	/* an image over the command line's place */
	p[1].size = 0xfe000;
	assert_int_equal(load_check_pieces(&cell, p, 3, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "x.elf segment 0 (0x2000+0xfe000) and the "
				    "command line (0xff000+0x9) overlap"));
	/* a piece across two regions is refused like the driver does */
	small.num_regions = 2;
	small.regions[1].start = 0x10000;
	small.regions[1].size = 0x10000;
	p[1].size = 0x10000;
	assert_int_equal(load_check_pieces(&small, p, 2, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0x0+0x10000, 0x10000+0x10000"));
}

static void memory_from_sysfs(void **state)
{
	struct cell_memory m;

	(void)state;
	assert_int_equal(cell_memory_parse("0x0+0x100000\n0x200000+0x1000\n",
					   "0x0\n", &m),
			 0);
	assert_int_equal(m.num_regions, 2);
	assert_int_equal(m.regions[1].start, 0x200000);
	assert_int_equal(m.regions[1].size, 0x1000);
	assert_int_equal(cell_memory_parse("", "0x1000\n", &m), 0);
	assert_int_equal(m.num_regions, 0);
	assert_int_equal(m.reset_address, 0x1000);
	assert_int_equal(cell_memory_parse("0x0 0x1000\n", "0x0\n", &m), -1);
	assert_int_equal(cell_memory_parse("0x0+0x1000\n", "zero\n", &m), -1);
	assert_int_equal(cell_memory_parse("0x+0x1000\n", "0x0\n", &m), -1);
}

static void memory_from_config(void **state)
{
	struct {
		struct warden_config_header h;
		struct warden_cell_desc d;
		struct warden_mem_region r[3];
	} c;
	struct cell_memory m;

	(void)state;
	memset(&c, 0, sizeof(c));
	memcpy(c.h.signature, WARDEN_CELL_SIGNATURE, 8);
	c.d.num_memory_regions = 3;
	c.d.reset_address = 0x1000;
	c.r[0] = (struct warden_mem_region){ .guest_start = 0,
					     .size = 0x100000,
					     .flags = WARDEN_MEM_LOADABLE };
	c.r[1] = (struct warden_mem_region){ .guest_start = 0x100000,
					     .size = 0x1000,
					     .flags = WARDEN_MEM_COMM_REGION };
	c.r[2] = (struct warden_mem_region){ .guest_start = 0x400000,
					     .size = 0x2000,
					     .flags = WARDEN_MEM_LOADABLE };
	assert_int_equal(cell_memory_from_config(&c, sizeof(c), &m), 0);
	assert_int_equal(m.reset_address, 0x1000);
	assert_int_equal(m.num_regions, 2);
	assert_int_equal(m.regions[1].start, 0x400000);
	/* a system config, or one cut short, is not a cell's */
	assert_int_equal(cell_memory_from_config(&c, sizeof(c) - 32, &m), -1);
	memcpy(c.h.signature, WARDEN_SYSTEM_SIGNATURE, 8);
	assert_int_equal(cell_memory_from_config(&c, sizeof(c), &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(inmate_image_loads, setup),
		cmocka_unit_test_setup(paddr_places_it, setup),
		cmocka_unit_test_setup(not_elf, setup),
		cmocka_unit_test_setup(wrong_kind, setup),
		cmocka_unit_test_setup(bad_headers, setup),
		cmocka_unit_test_setup(entry_point, setup),
		cmocka_unit_test(pieces_in_cell),
		cmocka_unit_test(memory_from_sysfs),
		cmocka_unit_test(memory_from_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
