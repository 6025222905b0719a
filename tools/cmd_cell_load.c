// SPDX-License-Identifier: GPL-2.0
/*
 * "warden cell load" and "warden cell run": images into a cell.  Each file
 * is an ELF executable (its loadable segments at their physical addresses,
 * its entry point where the cell starts: elf_image.c) or a flat binary (at
 * -a ADDRESS, default 0); --cmdline puts the inmate's command line at its
 * place in the ABI (warden/load.h).  Everything is read and checked
 * against the cell's loadable memory (load_check.c) before the first byte
 * is copied, so that a refusal changes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <warden/ioctl.h>
#include <warden/load.h>

#include "config_yaml.h"
#include "elf_image.h"
#include "load_check.h"
#include "warden.h"

/* Images, segments and strings of one load, at most. */
#define LOAD_MAX 16
#define CELLS_SYSFS "/sys/kernel/warden/cells"

struct load_plan {
	const char *what; /* "cell load" or "cell run", for messages */
	unsigned int n;
	struct warden_image images[LOAD_MAX];
	struct load_piece pieces[LOAD_MAX];
	void *data[LOAD_MAX];
	/* ELF images whose entry point is checked */
	unsigned int num_elf;
	struct elf_image elf[LOAD_MAX];
	const char *elf_file[LOAD_MAX];
};

static const char load_usage[] =
	"Usage: warden cell load <cell> <image> [-a <address>] [<image> [-a "
	"<address>]]...\n"
	"                        [--cmdline <string>] [-s <string> -a "
	"<address>]...\n"
	"       warden cell run <cell config> <image> [-a <address>]... "
	"[--cmdline <string>]\n"
	"                       [-s <string> -a <address>]...\n\n"
	"load: stops the cell and copies each image into its loadable "
	"memory. An ELF\n"
	"  executable goes where its loadable segments say (their physical "
	"addresses,\n"
	"  BSS zeroed); its entry point must be the cell's reset address. A "
	"flat\n"
	"  binary goes to -a <address> (default 0). --cmdline puts the "
	"inmate's command\n"
	"  line (with its NUL, at most 4095 characters) at 0xff000, where "
	"libinmate\n"
	"  reads it; -s <string> -a <address> puts a string anywhere. "
	"Everything is\n"
	"  checked against the cell's loadable memory before anything is "
	"copied.\n"
	"run:  cell create, load and start in one step; a cell it created is "
	"destroyed\n"
	"  again if loading or starting fails.\n\n"
	"Exit status: 0 loaded (and started), 1 the cell config is invalid, "
	"2 error\n"
	"(a file that cannot be read, an image refused, with the reason).\n";

static int usage(FILE *out)
{
	fputs(load_usage, out);
	return out == stdout ? EXIT_OK : EXIT_ERROR;
}

static void plan_free(struct load_plan *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		free(p->data[i]);
	p->n = 0;
}

/* Room for one more piece; false after saying there is none. */
static bool room(struct load_plan *p)
{
	if (p->n < LOAD_MAX)
		return true;
	fprintf(stderr,
		"warden: %s: at most %d images, segments and strings at "
		"once\n",
		p->what, LOAD_MAX);
	return false;
}

/* Bytes to copy to address: the plan takes data (freed with it). */
static void add(struct load_plan *p, void *data, uint64_t size,
		uint64_t address, const char *what)
{
	struct load_piece *piece = &p->pieces[p->n];

	p->data[p->n] = data;
	p->images[p->n].source_ptr = (uintptr_t)data;
	p->images[p->n].size = size;
	p->images[p->n].guest_address = address;
	snprintf(piece->what, sizeof(piece->what), "%s", what);
	piece->address = address;
	piece->size = size;
	p->n++;
}

/* An ELF file's segments into the plan. */
static int add_elf(struct load_plan *p, const char *path, void *file,
		   size_t size)
{
	struct elf_image *img = &p->elf[p->num_elf];
	char why[512], what[160];
	unsigned int i;
	void *buf;

	if (!room(p)) /* each ELF takes a piece at least: elf[] has room */
		return -1;
	if (elf_parse(file, size, img, why, sizeof(why))) {
		fprintf(stderr, "warden: %s: %s: %s\n", p->what, path, why);
		return -1;
	}
	for (i = 0; i < img->num_segments; i++) {
		const struct elf_segment *seg = &img->segments[i];

		if (!room(p))
			return -1;
		buf = malloc(seg->mem_size);
		if (!buf) {
			fprintf(stderr,
				"warden: %s: %s: segment %u: out of "
				"memory\n",
				p->what, path, seg->index);
			return -1;
		}
		elf_segment_bytes(file, seg, buf);
		snprintf(what, sizeof(what), "%s segment %u", path, seg->index);
		add(p, buf, seg->mem_size, seg->address, what);
	}
	p->elf_file[p->num_elf++] = path;
	return 0;
}

static int parse_address(const char *what, const char *arg, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 0);
	if (!*arg || *end || errno) {
		fprintf(stderr, "warden: %s: -a '%s' is not an address\n", what,
			arg);
		return -1;
	}
	return 0;
}

/*
 * The images and strings of argv (from index first on) into p: 0, or -1
 * after saying why (EXIT_ERROR for usage errors too).
 */
static int plan_args(struct load_plan *p, int argc, char **argv, int first)
{
	bool last_flat = false; /* -a applies to the image just before */
	char *copy, what[32];
	void *file;
	size_t size;
	int i;

	for (i = first; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-a") && i + 1 < argc) {
			if (!last_flat) {
				fprintf(stderr,
					"warden: %s: -a %s follows no flat "
					"binary or -s string (an ELF image "
					"goes where its segments say)\n",
					p->what, argv[i + 1]);
				return -1;
			}
			if (parse_address(p->what, argv[++i],
					  &p->images[p->n - 1].guest_address))
				return -1;
			p->pieces[p->n - 1].address =
				p->images[p->n - 1].guest_address;
			last_flat = false;
			continue;
		}
		if ((!strcmp(arg, "-s") || !strcmp(arg, "--cmdline")) &&
		    i + 1 < argc) {
			size = strlen(argv[++i]) + 1;
			if (arg[1] == '-' && size > WARDEN_CMDLINE_SIZE) {
				fprintf(stderr,
					"warden: %s: the command line has "
					"%zu characters, at most %d fit\n",
					p->what, size - 1,
					WARDEN_CMDLINE_SIZE - 1);
				return -1;
			}
			copy = room(p) ? strdup(argv[i]) : NULL;
			if (!copy)
				return -1;
			snprintf(what, sizeof(what), "string #%u", p->n + 1);
			add(p, copy, size,
			    arg[1] == '-' ? WARDEN_CMDLINE_ADDRESS : 0,
			    arg[1] == '-' ? "the command line" : what);
			last_flat = arg[1] != '-';
			continue;
		}
		if (arg[0] == '-') {
			fprintf(stderr, "warden: %s: unknown option '%s'\n",
				p->what, arg);
			return -1;
		}
		if (cli_read_file(p->what, arg, &file, &size))
			return -1;
		if (elf_is_elf(file, size)) {
			last_flat = false;
			if (add_elf(p, arg, file, size)) {
				free(file);
				return -1;
			}
			free(file);
			continue;
		}
		if (!room(p)) {
			free(file);
			return -1;
		}
		add(p, file, size, 0, arg);
		last_flat = true;
	}
	if (!p->n) {
		fprintf(stderr, "warden: %s: no image given\n", p->what);
		return -1;
	}
	return 0;
}

/* The plan against the cell's memory: 0, or -1 after saying why. */
static int plan_check(const struct load_plan *p, const struct cell_memory *m)
{
	char why[768];
	unsigned int i;

	if (load_check_pieces(m, p->pieces, p->n, why, sizeof(why))) {
		fprintf(stderr, "warden: %s: %s\n", p->what, why);
		return -1;
	}
	for (i = 0; i < p->num_elf; i++)
		if (load_check_entry(m, &p->elf[i], p->elf_file[i], why,
				     sizeof(why))) {
			fprintf(stderr, "warden: %s: %s\n", p->what, why);
			return -1;
		}
	return 0;
}

/* A small sysfs file into buf; false if it cannot be read. */
static bool read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return true;
}

/* Cell id's memory as the driver lists it; false when an older driver
 * does not (its own check of the places then stands alone). */
static bool sysfs_memory(uint32_t id, struct cell_memory *m)
{
	char path[128], loadable[4096], reset[64];

	snprintf(path, sizeof(path), CELLS_SYSFS "/%u/loadable", id);
	if (!read_small(path, loadable, sizeof(loadable)))
		return false;
	snprintf(path, sizeof(path), CELLS_SYSFS "/%u/reset_address", id);
	if (!read_small(path, reset, sizeof(reset)))
		return false;
	return cell_memory_parse(loadable, reset, m) == 0;
}

/* The load ioctl of a checked plan; EXIT_OK or EXIT_ERROR. */
static int plan_load(int fd, uint32_t id, struct load_plan *p)
{
	struct warden_cell_load arg;

	memset(&arg, 0, sizeof(arg));
	arg.cell_id = id;
	arg.num_images = p->n;
	arg.images_ptr = (uintptr_t)p->images;
	if (warden_ioctl(fd, WARDEN_IOCTL_CELL_LOAD, &arg, p->what))
		return EXIT_ERROR;
	printf("Cell %u: %u piece%s loaded\n", id, p->n, p->n == 1 ? "" : "s");
	return EXIT_OK;
}

/* load: the files first (a typo is said before the driver is needed),
 * then the cell's memory from sysfs. */
static int load_body(struct load_plan *p, int argc, char **argv, int *fd)
{
	struct cell_memory m;
	uint32_t id;

	if (plan_args(p, argc, argv, 2))
		return EXIT_ERROR;
	*fd = warden_open_device();
	if (*fd < 0)
		return EXIT_ERROR;
	id = resolve_cell(*fd, argv[1], p->what);
	if (!id || (sysfs_memory(id, &m) && plan_check(p, &m)))
		return EXIT_ERROR;
	return plan_load(*fd, id, p);
}

/* After a failed load or start: the cell run made goes again. */
/* run: the images against the config before anything is created. */
static int run_body(struct load_plan *p, int argc, char **argv, int *fd)
{
	struct warden_cell_ref ref;
	struct cell_memory m;
	struct cy_config c;
	uint32_t id = 0;
	int ret;

	if (cy_load_file(&c, argv[1]) == 0) {
		ret = cell_memory_from_config(c.blob, c.size, &m);
		cy_free(&c);
		if (ret) {
			fprintf(stderr,
				"warden: cell run: %s is not a cell config\n",
				argv[1]);
			return EXIT_ERROR;
		}
		if (plan_args(p, argc, argv, 2) || plan_check(p, &m))
			return EXIT_ERROR;
	} else {
		cy_free(&c); /* cell create says what is wrong with it */
	}
	ret = cell_create_file(argv[1], false, &id);
	if (ret)
		return ret;
	*fd = warden_open_device();
	memset(&ref, 0, sizeof(ref));
	ref.cell_id = id;
	if (*fd < 0 || plan_load(*fd, id, p) ||
	    warden_ioctl(*fd, WARDEN_IOCTL_CELL_START, &ref, p->what)) {
		cell_destroy_again("cell run", id);
		return EXIT_ERROR;
	}
	printf("Cell %u started\n", id);
	return EXIT_OK;
}

/* "cell load" and "cell run": the plan around the body. */
static int load_command(int argc, char **argv, const char *what,
			int (*body)(struct load_plan *p, int argc, char **argv,
				    int *fd))
{
	struct load_plan *p;
	int fd = -1, ret;

	if (argc >= 2 && !strcmp(argv[1], "--help"))
		return usage(stdout);
	if (argc < 3)
		return usage(stderr);
	p = calloc(1, sizeof(*p));
	if (!p) {
		fprintf(stderr, "warden: %s: out of memory\n", what);
		return EXIT_ERROR;
	}
	p->what = what;
	ret = body(p, argc, argv, &fd);
	if (fd >= 0)
		close(fd);
	plan_free(p);
	free(p);
	return ret;
}

int cell_load_main(int argc, char **argv)
{
	return load_command(argc, argv, "cell load", load_body);
}

int cell_run_main(int argc, char **argv)
{
	return load_command(argc, argv, "cell run", run_body);
}
