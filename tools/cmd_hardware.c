// SPDX-License-Identifier: GPL-2.0
/*
 * "warden hardware check | dump": probe every online CPU through the driver
 * (or, where /dev/warden does not exist, from user space: hwprobe_host.c)
 * and report each feature Warden needs (VMX on Intel, SVM on AMD) and the
 * state of the running system (host_facts.c), or print the raw facts.
 * The judging is in hwcaps.c, hwcaps_svm.c and host_facts.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <warden/ioctl.h>

#include "host_facts.h"
#include "hwcaps.h"
#include "hwcaps_json.h"
#include "hwprobe_host.h"
#include "warden.h"

/* What a check learnt besides the CPUs' facts. */
struct context {
	const char *source;   /* a recorded dump's file, or NULL */
	bool no_driver;	      /* probed from user space */
	int msr_errno;	      /* why the MSRs could not be read */
	unsigned int skipped; /* offline CPUs */
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: warden hardware check [--from FILE] [--json]\n"
		     "       warden hardware dump [--json]\n"
		     "\n"
		     "check: reads raw CPUID on every online CPU (through the "
		     "driver), on Intel\n"
		     "  the VMX capability MSRs and a VMXON/VMXOFF probe, on "
		     "AMD the MSRs VM_CR\n"
		     "  and EFER, then prints one line per feature\n"
		     "  Warden needs (ok, MISSING, info, or unread), the "
		     "system's state (warden.ko,\n"
		     "  KVM, the memmap= reservation, the IOMMU) and a "
		     "verdict. Without the driver\n"
		     "  it reads CPUID itself and the MSRs through the msr "
		     "module (as root; other\n"
		     "  users get the rows that need MSRs as unread). With "
		     "--from, judges a dump\n"
		     "  recorded on another machine instead. --json: the CPUs' "
		     "rows as one JSON\n  object (\"can_run\", \"features\": "
		     "[{\"name\", \"status\", \"detail\"}]).\n"
		     "dump:  prints those raw facts, one per line (the "
		     "format --from reads);\n"
		     "  --json: as one JSON object.\n"
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

/*
 * One line per row; a run of rows with one status and one reason (a CPU
 * without VMX: two dozen rows that say "no VMX on this CPU") is shown by
 * its first row and a count.
 */
static void print_rows(const struct hwcap_result *res, size_t num, size_t n)
{
	size_t i, same;

	for (i = 0; i < num; i += same) {
		char where[24] = "";

		if (res[i].status == HWCAP_MISSING && n > 1)
			snprintf(where, sizeof(where), " [CPU %u]", res[i].cpu);
		printf("  %-8s %-34s %s%s\n", hwcap_status_name(res[i].status),
		       res[i].name, res[i].detail, where);
		for (same = 1;
		     i + same < num && res[i + same].status == res[i].status &&
		     !strcmp(res[i + same].detail, res[i].detail);
		     same++)
			;
		if (same > 2)
			printf("  %-8s %-34s the same, from %s to %s\n",
			       hwcap_status_name(res[i].status), "",
			       res[i + 1].name, res[i + same - 1].name);
		else
			same = 1;
	}
}

/* The system's rows: about this machine, never about a recorded dump. */
static size_t system_rows(const struct context *ctx,
			  const struct hwcap_report *rep,
			  struct hwcap_result *rows)
{
	bool amd = rep->table == HWCAP_TABLE_SVM;
	int cpuid_row = amd ? HWCAP_SVM_CPUID : HWCAP_VMX_CPUID;
	struct host_facts_opts o = { "", "", !ctx->no_driver, amd,
				     rep->results[cpuid_row].status ==
					     HWCAP_OK };
	struct utsname u;

	if (ctx->source || uname(&u))
		return 0;
	o.release = u.release;
	printf("This system (kernel %s):\n", u.release);
	return host_facts(&o, rows);
}

/* --json given to "hardware check" or "hardware dump" */
static bool json;

static int report(const struct warden_hw_probe *probes, size_t n,
		  const struct context *ctx)
{
	struct hwcap_result sys[HOST_FACTS_ROWS];
	struct hwcap_report rep;
	const char *first = NULL;
	char hint[400];
	size_t i, num_sys;
	int missing;

	missing = hwcaps_evaluate(probes, n, &rep);
	if (json) {
		hwcaps_print_json(stdout, &rep, n, ctx->skipped, missing);
		return missing || ctx->skipped ? EXIT_CHECK_FAILED : EXIT_OK;
	}
	printf("Warden hardware check: %zu CPU%s probed%s%s%s\n", n,
	       n == 1 ? "" : "s", ctx->source ? ", recorded in " : "",
	       ctx->source ? ctx->source : "",
	       ctx->no_driver ? " without the driver (CPUID read directly, "
				"MSRs through /dev/cpu/N/msr, VMXON not "
				"tried)"
			      : "");
	print_rows(rep.results, rep.num, n);
	num_sys = system_rows(ctx, &rep, sys);
	print_rows(sys, num_sys, 1);
	for (i = 0; i < num_sys; i++)
		if (sys[i].status == HWCAP_MISSING)
			missing++;
	for (i = rep.num + num_sys; i-- > 0;) {
		const struct hwcap_result *r = i < rep.num ? &rep.results[i]
							   : &sys[i - rep.num];

		if (r->status == HWCAP_MISSING)
			first = r->name;
	}
	if (hwcaps_nested_hint(&probes[0], hint, sizeof(hint)))
		printf("Hint: %s.\n", hint);
	if (missing)
		printf("Verdict: Warden cannot run on this machine: "
		       "%d requirement%s missing (first: %s).\n",
		       missing, missing == 1 ? "" : "s", first);
	if (rep.unread)
		printf("Verdict incomplete: %u row%s could not be read: the "
		       "MSRs need root%s (/dev/cpu/N/msr: %s).\n",
		       rep.unread, rep.unread == 1 ? "" : "s",
		       ctx->msr_errno == ENOENT ? " and the msr module" : "",
		       strerror(ctx->msr_errno ? ctx->msr_errno : EACCES));
	if (ctx->skipped)
		printf("Verdict incomplete: %u offline CPU%s could not be "
		       "probed: bring %s online and check again.\n",
		       ctx->skipped, ctx->skipped == 1 ? "" : "s",
		       ctx->skipped == 1 ? "it" : "them");
	if (missing || rep.unread || ctx->skipped)
		return EXIT_CHECK_FAILED;
	printf("Verdict: this machine can run Warden.\n");
	return EXIT_OK;
}

/*
 * Without the driver: root gets the MSRs from the msr module, loaded here
 * if it is not (modprobe's own messages say why it could not be).
 */
static int probe_host(struct warden_hw_probe *probes, size_t *n,
		      struct context *ctx)
{
	struct hwprobe_host_info info;

	if (geteuid() == 0 && access("/dev/cpu/0/msr", F_OK) &&
	    system("modprobe -q msr") != 0)
		fprintf(stderr, "warden: hardware: could not load the "
				"msr module: the MSR rows stay unread\n");
	if (hwprobe_host(probes, WARDEN_MAX_CPUS, n, &info)) {
		fprintf(stderr, "warden: hardware: no CPU could be "
				"probed\n");
		return -1;
	}
	ctx->no_driver = true;
	ctx->msr_errno = info.msr_errno;
	ctx->skipped = info.skipped;
	return 0;
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
	return report(probes, n, &(struct context){ .source = path });
}

int cmd_hardware(int argc, char **argv)
{
	struct warden_hw_probe *probes;
	struct context ctx = { 0 };
	size_t n;
	int ret = EXIT_ERROR, got;

	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
	}
	/* --json last: the forms below stay as they are */
	json = argc >= 3 &&
	       (!strcmp(argv[1], "check") || !strcmp(argv[1], "dump")) &&
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
		free(probes);
		return ret;
	}
	/* no device (no driver), or one this user may not open: the probe
	 * without the driver gives what it can */
	if (access(WARDEN_DEVICE, R_OK | W_OK) &&
	    (errno == ENOENT || errno == EACCES))
		got = probe_host(probes, &n, &ctx);
	else
		got = probe_all(probes, &n, &ctx.skipped);
	if (got == 0 && !strcmp(argv[1], "dump")) {
		if (json)
			hwcaps_write_dump_json(stdout, probes, n);
		else
			hwcaps_write_dump(stdout, probes, n);
		ret = ctx.skipped ? EXIT_CHECK_FAILED : EXIT_OK;
	} else if (got == 0) {
		ret = report(probes, n, &ctx);
	}
	free(probes);
	return ret;
}
