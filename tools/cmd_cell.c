// SPDX-License-Identifier: GPL-2.0
/*
 * "warden cell ...": the cell commands, as thin calls of the driver's
 * ioctls: create (or only check) a cell, list and destroy cells.  Loading
 * and starting inmates come next (the cells issue).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <string.h>
#include <unistd.h>

#include <warden/cell.h>
#include <warden/ioctl.h>

#include "access_view.h"
#include "cli_args.h"
#include "config_report.h"
#include "config_values.h"
#include "config_yaml.h"
#include "json_out.h"
#include "pci_linux.h"
#include "warden.h"

static int usage(FILE *out)
{
	fprintf(out,
		"Usage: warden cell create [--check] <cell config>\n"
		"       warden cell load <cell> <image>... [--cmdline "
		"<string>]\n"
		"       warden cell run <cell config> <image>... [--cmdline "
		"<string>]\n"
		"       warden cell linux <cell config> <kernel> [--initrd "
		"<file>] [--cmdline <string>]\n"
		"       warden cell start <cell>\n"
		"       warden cell shutdown <cell>\n"
		"       warden cell list [--json]\n"
		"       warden cell stats <cell> [--json] [--watch]\n"
		"       warden cell destroy <cell>\n\n"
		"<cell> is a cell id or name.\n\n"
		"create:  the running hypervisor checks the cell config (YAML "
		"or compiled)\n"
		"  against the system config and the cells that exist; then "
		"Linux gives up\n"
		"  the cell's CPUs and the cell is created with its CPUs "
		"parked. --check:\n"
		"  only the check, nothing changes. A refusal says why, with "
		"the file and\n"
		"  line for a YAML config; after any failure the CPUs are "
		"online again.\n"
		"load:    stops the cell and copies each image (ELF, or flat "
		"at -a <address>)\n"
		"  into its loadable memory, and --cmdline at its place "
		"(0xff000); see\n"
		"  'warden cell load --help'.\n"
		"run:     create, load and start in one step.\n"
		"start:   (re)starts the cell's CPUs in real mode at its reset "
		"address.\n"
		"shutdown: asks the cell to stop; it may deny (exit 2, the "
		"reason said).\n"
		"list:    id, name, state and CPUs of every cell.\n"
		"stats:   VM exits of each cell CPU since it entered the cell, "
		"and per second\n  over one second, by reason; the DMA "
		"faults of its PCI functions.\n"
		"  --watch: again every second, until interrupted.\n"
		"--json:  list and stats print one JSON value instead (stats "
		"--watch: one a\n  line).\n"
		"destroy: asks a running cell to stop like shutdown, then its "
		"CPUs, memory\n  and ports go back to Linux.\n"
		"PCI functions: create checks that Linux has each one with "
		"the config's ids,\n  then Linux lets go of them "
		"(driver_override, the driver unbound);\n  destroy gives them "
		"back (drivers_probe) and says which driver took each.\n\n"
		"Exit status: 0 success, 1 the config was refused, 2 error "
		"(also a PCI\nfunction that did not come back after "
		"destroy).\n");
	return out == stdout ? EXIT_OK : EXIT_ERROR;
}

static int cell_create(int argc, char **argv)
{
	static const char *const flags[] = { "--check", NULL };
	bool check[1] = { false };
	const char *file;
	uint32_t cell_id = 0;
	int r = args_flags(argc, argv, flags, check, &file);

	if (r == ARGS_HELP)
		return usage(stdout);
	if (r != ARGS_OK || !file)
		return usage(stderr);
	return cell_create_file(file, check[0], &cell_id);
}

static const char *cell_state(uint32_t state)
{
	switch (state) {
	case WARDEN_CELL_RUNNING:
		return "running";
	case WARDEN_CELL_RUNNING_LOCKED:
		return "running/locked";
	case WARDEN_CELL_SHUT_DOWN:
		return "shut down";
	case WARDEN_CELL_FAILED:
		return "failed";
	case WARDEN_CELL_CREATED:
		return "created";
	case WARDEN_CELL_LOADING:
		return "loading";
	case WARDEN_CELL_QUARANTINED:
		return "quarantined";
	}
	return "unknown";
}

/* CPU set as a list with ranges ("2-3,5"), "-" when empty. */
static const char *cpu_list(const struct warden_cpu_set *set, char *buf,
			    size_t len)
{
	cv_format_cpus(set, buf, len);
	return buf[0] ? buf : "-";
}

static void json_cpus(const struct warden_cpu_set *set)
{
	unsigned int cpu;
	bool any = false;

	putchar('[');
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
		if (warden_cpu_in_set(set, cpu)) {
			printf("%s%u", any ? ", " : "", cpu);
			any = true;
		}
	putchar(']');
}

static int cell_list(int argc, char **argv)
{
	struct warden_cell_info info;
	bool json = argc == 2 && !strcmp(argv[1], "--json");
	char cpus[WARDEN_MAX_CPUS * 4], failed[WARDEN_MAX_CPUS * 4],
		lost[WARDEN_MAX_CPUS * 4];
	uint32_t i;
	int fd;

	if (argc > 2 || (argc == 2 && !json))
		return usage(strcmp(argv[1], "--help") ? stderr : stdout);
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	if (json)
		printf("[");
	else
		printf("%-4s %-24s %-11s %-10s %s\n", "id", "name", "state",
		       "cpus", "failed");
	for (i = 0; cell_at(fd, i, &info); i++) {
		if (json) {
			printf("%s{\"id\": %u, \"name\": ", i ? ", " : "",
			       info.cell_id);
			json_str(stdout, info.name, sizeof(info.name));
			printf(", \"state\": \"%s\", \"cpus\": ",
			       cell_state(info.state));
			json_cpus(&info.cpus);
			printf(", \"failed_cpus\": ");
			json_cpus(&info.failed_cpus);
			printf(", \"lost_cpus\": ");
			json_cpus(&info.lost_cpus);
			printf("}");
			continue;
		}
		/* "failed" lists the lost CPUs too; they are also named */
		cv_format_cpus(&info.lost_cpus, lost, sizeof(lost));
		printf("%-4u %-24.*s %-11s %-10s %s%s%s%s\n", info.cell_id,
		       (int)sizeof(info.name), info.name,
		       cell_state(info.state),
		       cpu_list(&info.cpus, cpus, sizeof(cpus)),
		       cpu_list(&info.failed_cpus, failed, sizeof(failed)),
		       lost[0] ? " (lost: " : "", lost, lost[0] ? ")" : "");
	}
	if (json)
		printf("]\n");
	close(fd);
	return EXIT_OK;
}

/* destroy and start: one cell, one ioctl. */
static int cell_ref_command(int argc, char **argv, unsigned long cmd,
			    const char *what, const char *done)
{
	struct warden_cell_ref arg;
	int fd, ret;

	if (argc != 2 || !strcmp(argv[1], "--help"))
		return usage(argc == 2 ? stdout : stderr);
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	memset(&arg, 0, sizeof(arg));
	arg.cell_id = resolve_cell(fd, argv[1], what);
	if (!arg.cell_id) {
		close(fd);
		return EXIT_ERROR;
	}
	ret = warden_ioctl(fd, cmd, &arg, what);
	close(fd);
	if (ret < 0)
		return EXIT_ERROR;
	printf("Cell %u %s\n", arg.cell_id, done);
	return EXIT_OK;
}

/* The counters of n CPUs into out; false after saying why. */
static bool read_cpus(int fd, const unsigned int *cpus, unsigned int n,
		      struct warden_cpu_info *out)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].cpu = cpus[i];
		if (warden_ioctl(fd, WARDEN_IOCTL_CPU_INFO, &out[i],
				 "cell stats"))
			return false;
	}
	return true;
}

/* A CPU's access log into log; false after saying why. */
static bool read_access(int fd, unsigned int cpu,
			struct warden_cpu_access_log *log)
{
	memset(log, 0, sizeof(*log));
	log->cpu = cpu;
	return !warden_ioctl(fd, WARDEN_IOCTL_CPU_ACCESS_LOG, log,
			     "cell stats");
}

static void stats_json(int fd, const struct warden_cell_info *info,
		       const unsigned int *cpus, unsigned int n,
		       const struct warden_cpu_info *a,
		       const struct warden_cpu_info *b)
{
	static struct warden_cpu_access_log log;
	unsigned int i, k;

	printf("{\"cell\": %u, \"name\": ", info->cell_id);
	json_str(stdout, info->name, sizeof(info->name));
	printf(", \"state\": \"%s\", \"cpus\": [", cell_state(info->state));
	for (i = 0; i < n; i++) {
		printf("%s{\"cpu\": %u, \"vmexits\": {", i ? ", " : "",
		       cpus[i]);
		for (k = 0; k < b[i].num_stats && k < WARDEN_NUM_STATS; k++)
			printf("%s\"%s\": %llu", k ? ", " : "", stat_names[k],
			       (unsigned long long)b[i].stats[k]);
		printf("}, \"per_second\": {");
		for (k = 0; k < b[i].num_stats && k < WARDEN_NUM_STATS; k++)
			printf("%s\"%s\": %llu", k ? ", " : "", stat_names[k],
			       (unsigned long long)(b[i].stats[k] -
						    a[i].stats[k]));
		printf("}");
		if (read_access(fd, cpus[i], &log)) {
			printf(", \"access_log\": {\"dropped\": %u, "
			       "\"entries\": [",
			       log.dropped);
			for (k = 0; k < log.num_entries &&
				    k < WARDEN_ACCESS_LOG_ENTRIES;
			     k++) {
				printf(k ? ", " : "");
				access_entry_json(stdout, &log.entries[k]);
			}
			printf("]}");
		}
		printf("}");
	}
	printf("], \"dma_faults\": %u, \"irq_remaps\": %u}\n", info->dma_faults,
	       info->irq_remaps);
}

static void stats_text(int fd, const struct warden_cell_info *info,
		       const unsigned int *cpus, unsigned int n,
		       const struct warden_cpu_info *a,
		       const struct warden_cpu_info *b)
{
	static struct warden_cpu_access_log log;
	unsigned int i, k;
	char line[128];

	printf("cell %u \"%.*s\": %s\n", info->cell_id, (int)sizeof(info->name),
	       info->name, cell_state(info->state));
	/* where the IOMMU confines its functions' DMA (else always 0) */
	if (info->dma_faults)
		printf("DMA faults of its PCI functions: %u\n",
		       info->dma_faults);
	/* where the IOMMU remaps cells' interrupts (else always 0) */
	if (info->irq_remaps)
		printf("interrupt remapping entries: %u (MSI, MSI-X, IOAPIC "
		       "pins)\n",
		       info->irq_remaps);
	for (i = 0; i < n; i++) {
		printf("cpu %u: vmexits total=%llu, per second:", cpus[i],
		       (unsigned long long)b[i].stats[0]);
		for (k = 0; k < b[i].num_stats && k < WARDEN_NUM_STATS; k++)
			if (k == 0 || b[i].stats[k] != a[i].stats[k])
				printf(" %s=%llu", stat_names[k],
				       (unsigned long long)(b[i].stats[k] -
							    a[i].stats[k]));
		printf("\n");
	}
	/* what the guest used through exits, per CPU (the policies'
	 * answers; everything with the cell flag access_log) */
	for (i = 0; i < n; i++) {
		if (!read_access(fd, cpus[i], &log) || !log.num_entries)
			continue;
		for (k = 0;
		     k < log.num_entries && k < WARDEN_ACCESS_LOG_ENTRIES;
		     k++) {
			access_entry_text(line, sizeof(line), &log.entries[k]);
			printf("cpu %u: used %s\n", cpus[i], line);
		}
		if (log.dropped)
			printf("cpu %u: %u more uses found no room in the "
			       "access log\n",
			       cpus[i], log.dropped);
	}
}

/* The cell id names, into info; false (said) when there is none. */
static bool find_cell(int fd, const char *arg, struct warden_cell_info *info)
{
	uint32_t id = resolve_cell(fd, arg, "cell stats"), idx;

	for (idx = 0; id && cell_at(fd, idx, info); idx++)
		if (info->cell_id == id)
			return true;
	if (id)
		fprintf(stderr, "warden: cell stats: no cell %u\n", id);
	return false;
}

/*
 * cell stats <cell> [--json] [--watch]: each CPU's VM exits, total and per
 * second over one second, by reason (the counters restart when a CPU
 * enters the cell); --watch again every second until interrupted or the
 * cell is gone.
 */
static int cell_stats(int argc, char **argv)
{
	static const char *const flags[] = { "--json", "--watch", NULL };
	struct warden_cpu_info a[8], b[8];
	struct warden_cell_info info;
	unsigned int cpus[8], n = 0, k;
	bool set[2] = { false, false }, json, watch;
	const char *cell;
	int fd, r = args_flags(argc, argv, flags, set, &cell);

	if (r == ARGS_HELP)
		return usage(stdout);
	if (r != ARGS_OK || !cell)
		return usage(stderr);
	json = set[0];
	watch = set[1];
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	if (!find_cell(fd, cell, &info))
		goto fail;
	for (k = 0; k < WARDEN_MAX_CPUS && n < 8; k++)
		if (warden_cpu_in_set(&info.cpus, k))
			cpus[n++] = k;
	if (!read_cpus(fd, cpus, n, a))
		goto fail;
	do {
		sleep(1);
		if (!read_cpus(fd, cpus, n, b) || !find_cell(fd, cell, &info))
			goto fail;
		if (json)
			stats_json(fd, &info, cpus, n, a, b);
		else
			stats_text(fd, &info, cpus, n, a, b);
		fflush(stdout);
		memcpy(a, b, sizeof(a));
	} while (watch);
	close(fd);
	return EXIT_OK;
fail:
	close(fd);
	return EXIT_ERROR;
}

/* The cell with id exists (a destroyed cell that lost a CPU stays,
 * quarantined). */
static bool cell_exists(int fd, uint32_t id)
{
	struct warden_cell_info info;
	uint32_t i;

	for (i = 0; cell_at(fd, i, &info); i++)
		if (info.cell_id == id)
			return true;
	return false;
}

/*
 * destroy: the cell's PCI functions (read before they are gone from
 * sysfs) go back to Linux once it is destroyed (drivers_probe); one that
 * cannot be given back is an error (exit 2), the cell is gone anyway.
 */
static int cell_destroy(int argc, char **argv)
{
	struct warden_cell_ref arg;
	struct pci_fn *fns;
	unsigned int n = 0;
	int fd, ret = EXIT_ERROR;

	if (argc != 2 || !strcmp(argv[1], "--help"))
		return usage(argc == 2 ? stdout : stderr);
	fns = calloc(PCI_MAX_FUNCTIONS, sizeof(*fns));
	if (!fns) {
		fprintf(stderr, "warden: cell destroy: out of memory\n");
		return EXIT_ERROR;
	}
	fd = warden_open_device();
	if (fd < 0)
		goto out;
	memset(&arg, 0, sizeof(arg));
	arg.cell_id = resolve_cell(fd, argv[1], "cell destroy");
	if (!arg.cell_id)
		goto out_close;
	if (cell_exists(fd, arg.cell_id))
		n = cell_functions(arg.cell_id, fns, PCI_MAX_FUNCTIONS,
				   "cell destroy");
	if (warden_ioctl(fd, WARDEN_IOCTL_CELL_DESTROY, &arg, "cell destroy"))
		goto out_close;
	printf("Cell %u destroyed\n", arg.cell_id);
	ret = EXIT_OK;
	if (n && cell_exists(fd, arg.cell_id))
		fprintf(stderr,
			"warden: cell destroy: warning: cell %u is "
			"quarantined (it lost a CPU): its PCI functions (%u) "
			"stay out of Linux until 'warden disable'\n",
			arg.cell_id, n);
	else if (pci_give_back(stdout, stderr, PCI_SYSFS, fns, n,
			       "cell destroy"))
		ret = EXIT_ERROR;
out_close:
	close(fd);
out:
	free(fns);
	return ret;
}

static int cell_shutdown(int argc, char **argv)
{
	return cell_ref_command(argc, argv, WARDEN_IOCTL_CELL_SHUTDOWN,
				"cell shutdown", "shut down");
}

static int cell_start(int argc, char **argv)
{
	return cell_ref_command(argc, argv, WARDEN_IOCTL_CELL_START,
				"cell start", "started");
}

int cmd_cell(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return cell_create(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "list"))
		return cell_list(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "destroy"))
		return cell_destroy(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "load"))
		return cell_load_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cell_run_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "linux"))
		return cell_linux_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "start"))
		return cell_start(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "shutdown"))
		return cell_shutdown(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "stats"))
		return cell_stats(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout);
	return usage(stderr);
}

void cell_destroy_again(const char *what, uint32_t id)
{
	char num[16];
	char *argv[] = { "cell", "destroy", num, NULL };

	snprintf(num, sizeof(num), "%u", id);
	fprintf(stderr, "warden: %s: destroying cell %u again\n", what, id);
	cmd_cell(3, argv);
}
