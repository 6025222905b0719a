// SPDX-License-Identifier: GPL-2.0
/*
 * "warden enable | disable | status | console": the hypervisor's life
 * cycle, as thin calls of the driver's ioctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <warden/cell.h>
#include <warden/ioctl.h>

#include "warden.h"

static const char *const stat_names[WARDEN_NUM_STATS] = {
	"total",     "cpuid",	   "cr",	"msr_read",
	"msr_write", "x2apic_icr", "xapic",	"xsetbv",
	"pio",	     "mmio",	   "hypercall", "management",
	"nmi",	     "init_sipi",  "exception", "other",
};

/* Read a whole file into memory; prints why on failure. */
static void *read_file(const char *path, size_t *size)
{
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "warden: cannot open %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || st.st_size <= 0 || st.st_size > (1 << 20)) {
		fprintf(stderr, "warden: %s: not a config file (size %lld)\n",
			path, (long long)st.st_size);
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		fprintf(stderr, "warden: cannot read %s\n", path);
		free(buf);
		close(fd);
		return NULL;
	}
	close(fd);
	*size = st.st_size;
	return buf;
}

int cmd_enable(int argc, char **argv)
{
	struct warden_enable arg;
	size_t size;
	void *config;
	int fd, ret;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(argc == 2 ? stdout : stderr,
			"Usage: warden enable <system config>\n\n"
			"Loads the hypervisor under the running Linux, which "
			"goes on as the root\ncell. The config is the binary "
			"the build makes from configs/.\n");
		return argc == 2 && !strcmp(argv[1], "--help") ? EXIT_OK
							       : EXIT_ERROR;
	}
	config = read_file(argv[1], &size);
	if (!config)
		return EXIT_ERROR;
	fd = warden_open_device();
	if (fd < 0) {
		free(config);
		return EXIT_ERROR;
	}
	memset(&arg, 0, sizeof(arg));
	arg.config_ptr = (uintptr_t)config;
	arg.config_size = size;
	ret = warden_ioctl(fd, WARDEN_IOCTL_ENABLE, &arg, "enable");
	close(fd);
	free(config);
	if (ret < 0)
		return EXIT_ERROR;
	printf("Warden enabled\n");
	return EXIT_OK;
}

int cmd_disable(int argc, char **argv)
{
	struct warden_cell_ref arg;
	int fd, ret;

	if (argc != 1) {
		fprintf(strcmp(argv[1], "--help") ? stderr : stdout,
			"Usage: warden disable\n\nReturns Linux to bare metal "
			"and unloads the hypervisor.\n");
		return strcmp(argv[1], "--help") ? EXIT_ERROR : EXIT_OK;
	}
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	memset(&arg, 0, sizeof(arg));
	ret = warden_ioctl(fd, WARDEN_IOCTL_DISABLE, &arg, "disable");
	close(fd);
	if (ret < 0)
		return EXIT_ERROR;
	printf("Warden disabled\n");
	return EXIT_OK;
}

int cmd_status(int argc, char **argv)
{
	struct warden_status st;
	struct warden_cpu_info info;
	unsigned int cpu, i;
	int fd;

	if (argc != 1) {
		fprintf(strcmp(argv[1], "--help") ? stderr : stdout,
			"Usage: warden status\n\nSays whether Warden is "
			"enabled, the memory pool usage, and per CPU its "
			"state and\nVM-exit counters.\n");
		return strcmp(argv[1], "--help") ? EXIT_ERROR : EXIT_OK;
	}
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	memset(&st, 0, sizeof(st));
	if (warden_ioctl(fd, WARDEN_IOCTL_STATUS, &st, "status") < 0) {
		close(fd);
		return EXIT_ERROR;
	}
	if (!st.enabled) {
		printf("Warden is not enabled\n");
		close(fd);
		return EXIT_OK;
	}
	printf("Warden is enabled: %u CPUs, %u cell%s\n", st.num_cpus,
	       st.num_cells, st.num_cells == 1 ? "" : "s");
	printf("memory pool: %llu of %llu pages used (%llu KiB free)\n",
	       (unsigned long long)st.mem_pool_used,
	       (unsigned long long)st.mem_pool_pages,
	       (unsigned long long)(st.mem_pool_pages - st.mem_pool_used) * 4);
	for (cpu = 0; cpu < st.num_cpus; cpu++) {
		memset(&info, 0, sizeof(info));
		info.cpu = cpu;
		if (warden_ioctl(fd, WARDEN_IOCTL_CPU_INFO, &info, "cpu info") <
		    0)
			continue;
		printf("cpu %u: %s, cell %u, vmexits:", cpu,
		       info.state == WARDEN_CPU_RUNNING	 ? "running"
		       : info.state == WARDEN_CPU_PARKED ? "parked"
		       : info.state == WARDEN_CPU_FAILED ? "failed"
							 : "suspended",
		       info.cell_id);
		for (i = 0; i < info.num_stats && i < WARDEN_NUM_STATS; i++)
			if (i == 0 || info.stats[i])
				printf(" %s=%llu", stat_names[i],
				       (unsigned long long)info.stats[i]);
		printf("\n");
	}
	close(fd);
	return EXIT_OK;
}

int cmd_console(int argc, char **argv)
{
	bool follow = argc == 2 && !strcmp(argv[1], "-f");
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc > 2 || (argc == 2 && !follow)) {
		fprintf(strcmp(argv[1], "--help") ? stderr : stdout,
			"Usage: warden console [-f]\n\nPrints the hypervisor "
			"console (its last 4 KiB); -f keeps printing new "
			"output.\n");
		return strcmp(argv[1], "--help") ? EXIT_ERROR : EXIT_OK;
	}
	fd = open(WARDEN_DEVICE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return warden_open_device() < 0 ? EXIT_ERROR : EXIT_ERROR;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			fwrite(buf, 1, n, stdout);
			fflush(stdout);
			continue;
		}
		if (n < 0 || !follow)
			break;
		usleep(200000);
	}
	close(fd);
	return n < 0 ? EXIT_ERROR : EXIT_OK;
}
