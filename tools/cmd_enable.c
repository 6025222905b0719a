// SPDX-License-Identifier: GPL-2.0
/*
 * "warden enable | disable | status": the hypervisor's life cycle, as
 * thin calls of the driver's ioctls (console: cmd_console.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/cell.h>
#include <warden/ioctl.h>

#include "config_report.h"
#include "config_yaml.h"
#include "entry_explain.h"
#include "json_out.h"
#include "errmsg.h"
#include "pci_linux.h"
#include "warden.h"

int cmd_enable(int argc, char **argv)
{
	struct warden_enable arg;
	struct cy_config c;
	unsigned int n;
	int fd, ret;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(argc == 2 ? stdout : stderr,
			"Usage: warden enable <system config>\n\n"
			"Loads the hypervisor under the running Linux, which "
			"goes on as the root\ncell. The config is YAML "
			"(docs/config.md) or compiled by 'warden config\n"
			"compile' (detected by its WRDNSYS signature). A "
			"refusal says why, with the\nfile and line for a "
			"YAML config.\n\nExit status: 0 enabled, 1 the config "
			"is invalid on its own (YAML\nor rule errors, "
			"all listed), 2 refused by the running system, or "
			"error.\n");
		return argc == 2 && !strcmp(argv[1], "--help") ? EXIT_OK
							       : EXIT_ERROR;
	}
	fd = config_open_device(&c, argv[1], "enable", &ret);
	if (fd < 0)
		return ret;
	memset(&arg, 0, sizeof(arg));
	arg.config_ptr = (uintptr_t)c.blob;
	arg.config_size = (uint32_t)c.size;
	ret = warden_ioctl_describe(fd, WARDEN_IOCTL_ENABLE, &arg, "enable",
				    describe_config_refusal, &c);
	close(fd);
	if (ret < 0 && c.yaml && config_rule(arg.error.rule) &&
	    arg.error.rule != WARDEN_RULE_MEM_NOT_RESERVED) {
		/* The driver names the first error; list them all. */
		n = config_validate(NULL, NULL, &c, NULL, NULL, 0);
		if (n > 1) {
			fprintf(stderr, "warden: enable: all %u errors:\n", n);
			config_validate(stderr, "  ", &c, NULL, NULL, 0);
		}
	}
	cy_free(&c);
	if (ret < 0)
		return EXIT_ERROR;
	printf("Warden enabled\n");
	return EXIT_OK;
}

/* Every cell together has at most this many PCI functions to give back
 * to Linux after disable. */
#define DISABLE_MAX_FUNCTIONS 1024u

int cmd_disable(int argc, char **argv)
{
	struct warden_cell_ref arg;
	struct pci_fn *fns;
	unsigned int n;
	int fd, ret;

	if (argc != 1) {
		fprintf(strcmp(argv[1], "--help") ? stderr : stdout,
			"Usage: warden disable\n\nDestroys the cells left, "
			"returns Linux to bare metal and\nunloads the "
			"hypervisor; the cells' PCI functions go back to Linux "
			"(their\ndrivers probed again).\n\nExit status: 0 "
			"disabled, 2 refused or error (also when a PCI\n"
			"function did not come back).\n");
		return strcmp(argv[1], "--help") ? EXIT_ERROR : EXIT_OK;
	}
	fns = calloc(DISABLE_MAX_FUNCTIONS, sizeof(*fns));
	if (!fns) {
		fprintf(stderr, "warden: disable: out of memory\n");
		return EXIT_ERROR;
	}
	fd = warden_open_device();
	if (fd < 0) {
		free(fns);
		return EXIT_ERROR;
	}
	/* before disable: the cells' sysfs directories go with them */
	n = cells_pci_functions(fd, fns, DISABLE_MAX_FUNCTIONS, "disable");
	memset(&arg, 0, sizeof(arg));
	ret = warden_ioctl(fd, WARDEN_IOCTL_DISABLE, &arg, "disable");
	close(fd);
	if (ret < 0) {
		free(fns);
		return EXIT_ERROR;
	}
	printf("Warden disabled\n");
	ret = pci_give_back(stdout, stderr, PCI_SYSFS, fns, n, "disable")
		      ? EXIT_ERROR
		      : EXIT_OK;
	free(fns);
	return ret;
}

static const char *cpu_state(uint32_t state)
{
	return state == WARDEN_CPU_RUNNING  ? "running"
	       : state == WARDEN_CPU_PARKED ? "parked"
	       : state == WARDEN_CPU_FAILED ? "failed"
	       : state == WARDEN_CPU_LOST   ? "lost"
					    : "suspended";
}

/* A failed CPU's last VM entry refused for invalid guest state, in
 * words (entry_explain.c), or NULL when the hypervisor kept none. */
static const char *entry_failure(int fd, unsigned int cpu, char *buf,
				 size_t len)
{
	struct warden_cpu_entry_failure f;

	memset(&f, 0, sizeof(f));
	f.cpu = cpu;
	if (warden_ioctl(fd, WARDEN_IOCTL_CPU_ENTRY_FAILURE, &f,
			 "entry failure") < 0 ||
	    !f.record.exit_reason)
		return NULL;
	return entry_explain(&f.record, buf, len);
}

static void status_text(int fd, const struct warden_status *st)
{
	struct warden_cpu_info info;
	unsigned int cpu, i;
	const char *why;
	char buf[200];

	printf("Warden is enabled: %u CPUs, %u cell%s\n", st->num_cpus,
	       st->num_cells, st->num_cells == 1 ? "" : "s");
	printf("memory pool: %llu of %llu pages used (%llu KiB free)\n",
	       (unsigned long long)st->mem_pool_used,
	       (unsigned long long)st->mem_pool_pages,
	       (unsigned long long)(st->mem_pool_pages - st->mem_pool_used) *
		       4);
	for (cpu = 0; cpu < st->num_cpus; cpu++) {
		memset(&info, 0, sizeof(info));
		info.cpu = cpu;
		if (warden_ioctl(fd, WARDEN_IOCTL_CPU_INFO, &info, "cpu info") <
		    0)
			continue;
		printf("cpu %u: %s, cell %u, vmexits:", cpu,
		       cpu_state(info.state), info.cell_id);
		for (i = 0; i < info.num_stats && i < WARDEN_NUM_STATS; i++)
			if (i == 0 || info.stats[i])
				printf(" %s=%llu", stat_names[i],
				       (unsigned long long)info.stats[i]);
		printf("\n");
		why = info.state == WARDEN_CPU_FAILED
			      ? entry_failure(fd, cpu, buf, sizeof(buf))
			      : NULL;
		if (why)
			printf("cpu %u: VM entry failed (exit reason 33): %s\n",
			       cpu, why);
	}
}

/* The same facts as status_text, as one JSON object (every counter). */
static void status_json(int fd, const struct warden_status *st)
{
	struct warden_cpu_info info;
	unsigned int cpu, i;
	const char *sep = "", *why;
	char buf[200];

	printf("{\n  \"enabled\": true,\n  \"cpus\": %u,\n  \"cells\": %u,\n",
	       st->num_cpus, st->num_cells);
	printf("  \"memory_pool\": {\"pages\": %llu, \"used\": %llu, "
	       "\"free_kib\": %llu},\n",
	       (unsigned long long)st->mem_pool_pages,
	       (unsigned long long)st->mem_pool_used,
	       (unsigned long long)(st->mem_pool_pages - st->mem_pool_used) *
		       4);
	printf("  \"cpu\": [");
	for (cpu = 0; cpu < st->num_cpus; cpu++) {
		memset(&info, 0, sizeof(info));
		info.cpu = cpu;
		if (warden_ioctl(fd, WARDEN_IOCTL_CPU_INFO, &info, "cpu info") <
		    0)
			continue;
		printf("%s\n    {\"cpu\": %u, \"state\": \"%s\", \"cell\": %u, "
		       "\"vmexits\": {",
		       sep, cpu, cpu_state(info.state), info.cell_id);
		for (i = 0; i < info.num_stats && i < WARDEN_NUM_STATS; i++)
			printf("%s\"%s\": %llu", i ? ", " : "", stat_names[i],
			       (unsigned long long)info.stats[i]);
		printf("}");
		why = info.state == WARDEN_CPU_FAILED
			      ? entry_failure(fd, cpu, buf, sizeof(buf))
			      : NULL;
		if (why) {
			printf(", \"entry_failure\": ");
			json_str(stdout, why, sizeof(buf));
		}
		printf("}");
		sep = ",";
	}
	printf("%s]\n}\n", *sep ? "\n  " : "");
}

int cmd_status(int argc, char **argv)
{
	bool json = argc == 2 && !strcmp(argv[1], "--json");
	struct warden_status st;
	int fd;

	if (argc > 2 || (argc == 2 && !json)) {
		fprintf(strcmp(argv[1], "--help") ? stderr : stdout,
			"Usage: warden status [--json]\n\nSays whether Warden "
			"is enabled, the memory pool usage, and per CPU its "
			"state and\nVM-exit counters, and for a CPU failed by "
			"a VM entry the rule broken. --json prints the same "
			"as one JSON object:\n  {\"enabled\": true, \"cpus\": "
			"N, \"cells\": N, \"memory_pool\": {\"pages\",\n"
			"  \"used\", \"free_kib\"}, \"cpu\": [{\"cpu\", "
			"\"state\", \"cell\", \"vmexits\": {\"total\",\n"
			"  ...}, \"entry_failure\" (a failed VM entry's "
			"rule, VMX)}]}, or {\"enabled\": false}; without the "
			"driver "
			"{\"enabled\": false,\n  \"driver_loaded\": "
			"false} (exit 2).\n");
		return strcmp(argv[1], "--help") ? EXIT_ERROR : EXIT_OK;
	}
	fd = warden_open_device();
	if (fd < 0) {
		/* still one JSON value for a script, the reason on stderr */
		if (json)
			printf("{\"enabled\": false, \"driver_loaded\": "
			       "%s}\n",
			       access(WARDEN_DEVICE, F_OK) ? "false" : "true");
		return EXIT_ERROR;
	}
	memset(&st, 0, sizeof(st));
	if (warden_ioctl(fd, WARDEN_IOCTL_STATUS, &st, "status") < 0) {
		close(fd);
		return EXIT_ERROR;
	}
	if (!st.enabled)
		printf(json ? "{\"enabled\": false}\n"
			    : "Warden is not enabled\n");
	else if (json)
		status_json(fd, &st);
	else
		status_text(fd, &st);
	close(fd);
	return EXIT_OK;
}
