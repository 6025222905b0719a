// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config compile | check | show | create": YAML configs
 * (docs/config.md) on the host; no driver needed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_create.h"
#include "config_report.h"
#include "config_show.h"
#include "config_values.h"
#include "config_yaml.h"
#include "yaml_json.h"
#include "iomem.h"
#include "warden.h"

#define MAX_CHECK_FILES 64

static const char usage_text[] =
	"Usage: warden config compile <config.yaml> -o <config.cell> "
	"[--no-check]\n"
	"       warden config check <system config> [<cell config>...]\n"
	"       warden config show <config> [--json]\n"
	"       warden config create [-o <system.yaml>] [--root DIR] "
	"[--hv-size SIZE]\n"
	"                     [--probe-intx]\n"
	"       warden config create --suggest-reservation [--root DIR]\n"
	"\n"
	"compile: YAML to the binary config the driver takes. The config is "
	"validated\n"
	"  on its own first (--no-check: write it anyway, e.g. to test a "
	"refusal).\n"
	"check:   validates each config and the set together: every cell "
	"against the\n"
	"  system config and the cells named before it (no CPU, memory or "
	"port used\n"
	"  twice); with cells given, every link peer must be root or one of "
	"them.\n"
	"  Every error is listed as file:line: reason. Configs may "
	"be YAML or\n"
	"  compiled; with no system config, cells are checked on their "
	"own.\n"
	"show:    prints a config (compiled or YAML) as YAML, every field "
	"explicit;\n"
	"  --json: the same as JSON (numbers and sizes in bytes).\n"
	"create:  writes a system config for this machine (default: to "
	"stdout) from\n"
	"  /proc/iomem, /proc/ioports, /proc/cmdline (the memmap=SIZE$ADDR "
	"reservation),\n"
	"  /sys/devices/system/cpu/possible and the ACPI tables in\n"
	"  /sys/firmware/acpi/tables (MADT, HPET, MCFG, FADT, DMAR). --root "
	"DIR "
	"reads them\n"
	"  under DIR instead; --hv-size (default 6M, and 32K per CPU beyond "
	"16) is the\n"
	"  part of the reservation the hypervisor takes, the rest is for "
	"cells. Run it\n"
	"  as root. A PCI function\n"
	"  without a driver shows the firmware's interrupt line, not "
	"always the IOAPIC\n"
	"  pin its INTx drives: --probe-intx enables each such function "
	"for a moment so\n"
	"  that Linux routes it (this may program an ACPI interrupt link).\n"
	"  --suggest-reservation: reads /proc/iomem and prints a free range "
	"of System RAM\n"
	"  for memmap= (64 MiB: the hypervisor and example cells), with the "
	"GRUB line.\n"
	"\n"
	"Exit status: 0 success (valid), 1 a config is invalid (errors "
	"listed),\n"
	"2 usage error or a file that cannot be read or written.\n";

static int usage(int ret)
{
	fputs(usage_text, ret == EXIT_OK ? stdout : stderr);
	return ret;
}

static int write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size) {
		fprintf(stderr, "warden: cannot write %s: %s\n", path,
			strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if (fclose(f)) {
		fprintf(stderr, "warden: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Loads path; prints its front-end errors to out.  Returns EXIT_OK,
 * EXIT_CHECK_FAILED (YAML errors) or EXIT_ERROR (unreadable). */
static int load(struct cy_config *c, const char *path, FILE *out)
{
	if (!cy_load_file(c, path))
		return EXIT_OK;
	config_print_diags(out, "", c);
	return c->n_diags == 1 && !c->diags[0].line && !c->yaml
		       ? EXIT_ERROR
		       : EXIT_CHECK_FAILED;
}

static int compile(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	struct cy_config c;
	bool check = true;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help"))
			return usage(EXIT_OK);
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--no-check"))
			check = false;
		else if (argv[i][0] != '-' && !in)
			in = argv[i];
		else
			return usage(EXIT_ERROR);
	}
	if (!in || !out)
		return usage(EXIT_ERROR);
	ret = load(&c, in, stderr);
	if (ret == EXIT_OK && !c.yaml) {
		fprintf(stderr, "warden: %s is compiled already\n", in);
		ret = EXIT_ERROR;
	}
	if (ret == EXIT_OK && check &&
	    config_validate(stderr, "", &c, NULL, NULL, 0))
		ret = EXIT_CHECK_FAILED;
	if (ret == EXIT_OK && write_file(out, c.blob, c.size))
		ret = EXIT_ERROR;
	cy_free(&c);
	return ret;
}

static int check(int argc, char **argv)
{
	static struct cy_config files[MAX_CHECK_FILES];
	const struct cy_config *others[MAX_CHECK_FILES];
	const struct cy_config *cells[MAX_CHECK_FILES];
	const struct cy_config *sys = NULL;
	size_t n_cells = 0;
	unsigned int errors = 0, n, bad_files = 0;
	size_t n_files = 0, n_others = 0, i;
	int ret = EXIT_OK, r;

	for (i = 1; i < (size_t)argc; i++)
		if (!strcmp(argv[i], "--help"))
			return usage(EXIT_OK);
		else if (argv[i][0] == '-')
			return usage(EXIT_ERROR);
	if (argc < 2)
		return usage(EXIT_ERROR);
	if (argc - 1 > MAX_CHECK_FILES) {
		fprintf(stderr, "warden: at most %d configs at once\n",
			MAX_CHECK_FILES);
		return EXIT_ERROR;
	}
	for (i = 1; i < (size_t)argc; i++) {
		r = load(&files[n_files], argv[i], stdout);
		if (r == EXIT_ERROR)
			ret = EXIT_ERROR;
		if (r != EXIT_OK) {
			errors += files[n_files].n_diags;
			bad_files++;
		}
		if (files[n_files].blob && files[n_files].system) {
			if (sys) {
				fprintf(stderr,
					"warden: %s and %s are both system "
					"configs\n",
					sys->file, argv[i]);
				ret = EXIT_ERROR;
			} else {
				sys = &files[n_files];
			}
		}
		n_files++;
	}
	n = sys ? config_validate(stdout, "", sys, NULL, NULL, 0) : 0;
	if (n) {
		errors += n;
		bad_files++;
		if (n_files > 1)
			printf("%s: invalid, so the cells are checked on their "
			       "own\n",
			       sys->file);
		sys = NULL;
	}
	for (i = 0; i < n_files; i++) {
		if (!files[i].blob || files[i].system)
			continue;
		cells[n_cells++] = &files[i];
		n = config_validate(stdout, "", &files[i], sys, others,
				    n_others);
		if (n) {
			errors += n;
			bad_files++;
		} else if (sys) {
			/* a valid cell takes its resources for the ones
			 * after it */
			others[n_others++] = &files[i];
		}
	}
	/* with the set's cells given, every link peer must be one of them
	 * (or root): a link to a cell that is not there is a typo */
	n = sys && n_cells ? config_link_peers(stdout, "", sys, cells, n_cells)
			   : 0;
	if (n) {
		errors += n;
		bad_files++;
	}
	if (errors)
		printf("%u error%s in %u of %zu config%s\n", errors,
		       errors == 1 ? "" : "s", bad_files, n_files,
		       n_files == 1 ? "" : "s");
	else
		printf("%zu config%s valid%s\n", n_files,
		       n_files == 1 ? "" : "s",
		       sys || n_files == 1 ? ""
					   : " (cells checked on their own: "
					     "no system config)");
	for (i = 0; i < n_files; i++)
		cy_free(&files[i]);
	if (ret == EXIT_ERROR)
		return ret;
	return errors ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* The config as YAML, then as JSON through the same text: one writer
 * decides what a config says (yaml_json.h). */
static int show_json(const struct cy_config *c, const char **why)
{
	char *yaml = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&yaml, &len);
	int ret;

	if (!f) {
		*why = "out of memory";
		return -1;
	}
	ret = config_show(f, c->blob, c->size, c->file, why);
	fclose(f);
	if (ret >= 0 && yaml_to_json(stdout, yaml, len, why))
		ret = -1;
	free(yaml);
	return ret;
}

static int show(int argc, char **argv)
{
	struct cy_config c;
	const char *why;
	bool json = false;
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(EXIT_OK);
	if (argc == 3 && !strcmp(argv[2], "--json")) {
		json = true;
		argc--;
	}
	if (argc != 2 || argv[1][0] == '-')
		return usage(EXIT_ERROR);
	ret = load(&c, argv[1], stderr);
	if (ret != EXIT_OK) {
		cy_free(&c);
		return ret;
	}
	if (json)
		ret = show_json(&c, &why);
	else
		ret = config_show(stdout, c.blob, c.size, c.file, &why);
	if (ret < 0)
		fprintf(stderr, "warden: %s: %s\n", c.file, why);
	else if (ret && json)
		fprintf(stderr,
			"warden: %s: parts of this config have no YAML form "
			"(see 'warden config show %s'): they are left out\n",
			c.file, c.file);
	cy_free(&c);
	return ret < 0 ? EXIT_ERROR : ret ? EXIT_CHECK_FAILED : EXIT_OK;
}

/*
 * --suggest-reservation: a free range of System RAM for memmap=, and the
 * lines to put it on the kernel command line.  Linux's KASLR keeps its
 * own image out of memmap= ranges, so a range free now stays free.
 */
static int suggest(const char *root)
{
	uint64_t size = RESERVATION_SUGGESTED, start;
	char path[512], *text;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/iomem", root);
	f = fopen(path, "r");
	text = f ? calloc(1, 1 << 20) : NULL;
	len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
	if (f)
		fclose(f);
	if (!text || !len) {
		fprintf(stderr, "warden: config create: cannot read %s\n",
			path);
		free(text);
		return EXIT_ERROR;
	}
	if (!strstr(text, "System RAM") || strstr(text, "00000000-00000000")) {
		fprintf(stderr,
			"warden: config create: %s shows no addresses: run it "
			"as root\n",
			path);
		free(text);
		return EXIT_ERROR;
	}
	if (iomem_suggest(text, size, &start)) {
		fprintf(stderr,
			"warden: config create: no %llu MiB of System RAM "
			"below 4 GiB is free of Linux's own ranges (%s)\n",
			(unsigned long long)(size >> 20), path);
		free(text);
		return EXIT_CHECK_FAILED;
	}
	free(text);
	printf("Free for the reservation: %llu MiB of System RAM at "
	       "0x%llx-0x%llx (%s)\n"
	       "Kernel command line:  memmap=%lluM$0x%llx\n"
	       "In /etc/default/grub: GRUB_CMDLINE_LINUX=\"... "
	       "memmap=%lluM\\\\\\$0x%llx\"\n"
	       "  (the shell and GRUB each take one level of escaping; "
	       "unescaped, Linux would\n"
	       "  get memmap=%lluMx%llx and reserve nothing). Then: "
	       "update-grub, reboot, and\n"
	       "  warden config create -o /etc/warden/system.yaml\n",
	       (unsigned long long)(size >> 20), (unsigned long long)start,
	       (unsigned long long)(start + size - 1), path,
	       (unsigned long long)(size >> 20), (unsigned long long)start,
	       (unsigned long long)(size >> 20), (unsigned long long)start,
	       (unsigned long long)(size >> 20), (unsigned long long)start);
	return EXIT_OK;
}

static int create(int argc, char **argv)
{
	struct cc_options o = { .root = "", .hv_size = 0 };
	const char *out = NULL, *why;
	bool suggesting = false;
	char err[512];
	FILE *f;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help"))
			return usage(EXIT_OK);
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			o.root = argv[++i];
		} else if (!strcmp(argv[i], "--probe-intx")) {
			o.probe_intx = 1;
		} else if (!strcmp(argv[i], "--suggest-reservation")) {
			suggesting = true;
		} else if (!strcmp(argv[i], "--hv-size") && i + 1 < argc) {
			if (cv_parse_u64(argv[++i], &o.hv_size, &why)) {
				fprintf(stderr, "warden: --hv-size '%s' %s\n",
					argv[i], why);
				return EXIT_ERROR;
			}
		} else {
			return usage(EXIT_ERROR);
		}
	}
	if (suggesting)
		return out ? usage(EXIT_ERROR) : suggest(o.root);
	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "warden: cannot write %s: %s\n", out,
			strerror(errno));
		return EXIT_ERROR;
	}
	ret = config_create(f, &o, stderr, err, sizeof(err));
	if (ret)
		fprintf(stderr, "warden: config create: %s\n", err);
	if (out && fclose(f)) {
		fprintf(stderr, "warden: cannot write %s: %s\n", out,
			strerror(errno));
		ret = -1;
	}
	if (ret && out)
		unlink(out);
	return ret ? EXIT_ERROR : EXIT_OK;
}

int cmd_config(int argc, char **argv)
{
	if (argc < 2)
		return usage(EXIT_ERROR);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return usage(EXIT_OK);
	if (!strcmp(argv[1], "compile"))
		return compile(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "create"))
		return create(argc - 1, argv + 1);
	fprintf(stderr, "warden: config: unknown command '%s'\n", argv[1]);
	return usage(EXIT_ERROR);
}
