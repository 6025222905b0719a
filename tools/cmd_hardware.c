// SPDX-License-Identifier: GPL-2.0
/*
 * "warden hardware check | dump": probe every online CPU through the driver
 * and report each feature Warden needs (VMX on Intel, SVM on AMD), or print
 * the raw facts.  The judging is in hwcaps.c and hwcaps_svm.c.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/ioctl.h>

#include "hwcaps.h"
#include "hwcaps_json.h"
#include "warden.h"

static void usage(FILE *out)
{
	fprintf(out, "Usage: warden hardware check [--from FILE] [--json]\n"
		     "       warden hardware dump\n"
		     "\n"
		     "check: reads raw CPUID on every online CPU (through the "
		     "driver), on Intel\n"
		     "  the VMX capability MSRs and a VMXON/VMXOFF probe, on "
		     "AMD the MSRs VM_CR\n"
		     "  and EFER, then prints one line per feature\n"
		     "  Warden needs (ok, MISSING or info) and a verdict. With "
		     "--from, judges a\n"
		     "  dump recorded on another machine instead. --json: the "
		     "same as one JSON\n  object (\"can_run\", \"features\": "
		     "[{\"name\", \"status\", \"detail\"}]).\n"
		     "dump:  prints those raw facts, one per line.\n"
		     "\n"
		     "Exit status: 0 all required features present, 1 some "
		     "missing "
		     "or a CPU\n"
		     "could not be probed, 2 error.\n");
}

/* Probe every possible CPU; offline ones are counted in *skipped. */
static int probe_all(struct warden_hw_probe *probes, size_t *n,
		     unsigned int *skipped)
{
	unsigned int cpu, num_cpus = 1;
	int fd = warden_open_device();

	if (fd < 0)
		return -1;
	*n = 0;
	*skipped = 0;
	for (cpu = 0; cpu < num_cpus && cpu < WARDEN_MAX_CPUS; cpu++) {
		struct warden_hw_probe *p = &probes[*n];

		memset(p, 0, sizeof(*p));
		p->cpu = cpu;
		if (warden_ioctl(fd, WARDEN_IOCTL_HW_PROBE, p,
				 "hardware probe") < 0) {
			if (p->error.rule != WARDEN_RULE_CPU_OFFLINE) {
				close(fd);
				return -1;
			}
			(*skipped)++;
		} else {
			(*n)++;
		}
		num_cpus = p->num_cpus;
	}
	close(fd);
	return 0;
}

/* --json given to "hardware check" */
static bool json;

static int report(const struct warden_hw_probe *probes, size_t n,
		  unsigned int skipped, const char *source)
{
	struct hwcap_report rep;
	struct hwcap_result *res = rep.results;
	const char *first = "";
	int missing, i;

	missing = hwcaps_evaluate(probes, n, &rep);
	if (json) {
		hwcaps_print_json(stdout, &rep, n, skipped, missing);
		return missing || skipped ? EXIT_CHECK_FAILED : EXIT_OK;
	}
	printf("Warden hardware check: %zu CPU%s probed%s%s\n", n,
	       n == 1 ? "" : "s", source ? ", recorded in " : "",
	       source ? source : "");
	for (i = 0; i < (int)rep.num; i++) {
		char where[24] = "";

		if (res[i].status == HWCAP_MISSING && n > 1)
			snprintf(where, sizeof(where), " [CPU %u]", res[i].cpu);
		printf("  %-8s %-34s %s%s\n", hwcap_status_name(res[i].status),
		       res[i].name, res[i].detail, where);
	}
	for (i = (int)rep.num - 1; i >= 0; i--)
		if (res[i].status == HWCAP_MISSING)
			first = res[i].name;
	if (missing)
		printf("Verdict: Warden cannot run on this machine: "
		       "%d required feature%s missing (first: %s).\n",
		       missing, missing == 1 ? "" : "s", first);
	if (skipped)
		printf("Verdict incomplete: %u offline CPU%s could not be "
		       "probed: bring %s online and check again.\n",
		       skipped, skipped == 1 ? "" : "s",
		       skipped == 1 ? "it" : "them");
	if (missing || skipped)
		return EXIT_CHECK_FAILED;
	printf("Verdict: this machine can run Warden.\n");
	return EXIT_OK;
}

static int from_file(const char *path, struct warden_hw_probe *probes)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;
	int bad;

	if (!f) {
		fprintf(stderr, "warden: cannot open %s: ", path);
		perror(NULL);
		return EXIT_ERROR;
	}
	bad = hwcaps_read_dump(f, probes, WARDEN_MAX_CPUS, &n);
	fclose(f);
	if (bad < 0) {
		fprintf(stderr, "warden: %s holds no CPU facts\n", path);
		return EXIT_ERROR;
	}
	if (bad) {
		fprintf(stderr,
			"warden: %s:%d: not a line of 'warden hardware dump'\n",
			path, bad);
		return EXIT_ERROR;
	}
	return report(probes, n, 0, path);
}

int cmd_hardware(int argc, char **argv)
{
	struct warden_hw_probe *probes;
	unsigned int skipped;
	size_t n;
	int ret = EXIT_ERROR;

	if (argc >= 2 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return EXIT_OK;
	}
	/* --json last: the forms below stay as they are */
	json = argc >= 3 && !strcmp(argv[1], "check") &&
	       !strcmp(argv[argc - 1], "--json");
	if (json)
		argc--;
	if (!(argc == 2 && !strcmp(argv[1], "check")) &&
	    !(argc == 4 && !strcmp(argv[1], "check") &&
	      !strcmp(argv[2], "--from")) &&
	    !(argc == 2 && !strcmp(argv[1], "dump"))) {
		usage(stderr);
		return EXIT_ERROR;
	}
	probes = calloc(WARDEN_MAX_CPUS, sizeof(*probes));
	if (!probes) {
		fprintf(stderr, "warden: out of memory\n");
		return EXIT_ERROR;
	}
	if (argc == 4) {
		ret = from_file(argv[3], probes);
	} else if (probe_all(probes, &n, &skipped) == 0) {
		if (!strcmp(argv[1], "dump")) {
			hwcaps_write_dump(stdout, probes, n);
			ret = skipped ? EXIT_CHECK_FAILED : EXIT_OK;
		} else {
			ret = report(probes, n, skipped, NULL);
		}
	}
	free(probes);
	return ret;
}
