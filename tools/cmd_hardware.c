// SPDX-License-Identifier: GPL-2.0
/*
 * "warden hardware check": probe every online CPU through the driver and
 * report each feature Warden needs.  The judging is in hwcaps.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/ioctl.h>

#include "hwcaps.h"
#include "warden.h"

static void usage(FILE *out)
{
	fprintf(out, "Usage: warden hardware check\n"
		     "\n"
		     "Reads raw CPUID and VMX capability MSRs on every online "
		     "CPU "
		     "(through the\n"
		     "driver) and tries VMXON/VMXOFF, then prints one line per "
		     "feature Warden\n"
		     "needs: ok, MISSING or info, and a verdict.\n"
		     "Exit status: 0 all required features present, 1 some "
		     "missing, 2 error.\n");
}

static int check(void)
{
	struct warden_hw_probe *probes;
	struct hwcap_result res[HWCAP_NUM_FEATURES];
	unsigned int cpu, n = 0, num_cpus = 1, skipped = 0;
	int fd, missing, i;

	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	probes = calloc(WARDEN_MAX_CPUS, sizeof(*probes));
	if (!probes) {
		fprintf(stderr, "warden: out of memory\n");
		close(fd);
		return EXIT_ERROR;
	}
	for (cpu = 0; cpu < num_cpus && cpu < WARDEN_MAX_CPUS; cpu++) {
		struct warden_hw_probe *p = &probes[n];

		memset(p, 0, sizeof(*p));
		p->cpu = cpu;
		if (warden_ioctl(fd, WARDEN_IOCTL_HW_PROBE, p,
				 "hardware probe") < 0) {
			if (p->error.rule == WARDEN_RULE_CPU_OFFLINE) {
				skipped++;
				num_cpus = p->num_cpus;
				continue;
			}
			free(probes);
			close(fd);
			return EXIT_ERROR;
		}
		num_cpus = p->num_cpus;
		n++;
	}
	close(fd);

	missing = hwcaps_evaluate(probes, n, res);
	printf("Warden hardware check: %u CPU%s probed%s\n", n,
	       n == 1 ? "" : "s",
	       skipped ? " (offline CPUs skipped: bring them online)" : "");
	for (i = 0; i < HWCAP_NUM_FEATURES; i++) {
		char where[24] = "";

		if (res[i].status == HWCAP_MISSING && n > 1)
			snprintf(where, sizeof(where), " [CPU %u]", res[i].cpu);
		printf("  %-8s %-34s %s%s\n", hwcap_status_name(res[i].status),
		       res[i].name, res[i].detail, where);
	}
	if (missing || skipped) {
		const char *first = "";

		for (i = HWCAP_NUM_FEATURES - 1; i >= 0; i--)
			if (res[i].status == HWCAP_MISSING)
				first = res[i].name;
		if (missing)
			printf("Verdict: Warden cannot run on this machine: "
			       "%d required feature%s missing (first: %s).\n",
			       missing, missing == 1 ? "" : "s", first);
		if (skipped)
			printf("Verdict incomplete: %u offline CPU%s could not "
			       "be probed: bring %s online and check again.\n",
			       skipped, skipped == 1 ? "" : "s",
			       skipped == 1 ? "it" : "them");
		free(probes);
		return EXIT_CHECK_FAILED;
	}
	printf("Verdict: this machine can run Warden.\n");
	free(probes);
	return EXIT_OK;
}

int cmd_hardware(int argc, char **argv)
{
	if (argc >= 2 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc != 2 || strcmp(argv[1], "check")) {
		usage(stderr);
		return EXIT_ERROR;
	}
	return check();
}
