// SPDX-License-Identifier: GPL-2.0
/* Talking to /dev/warden, with every failure explained. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <warden/ioctl.h>

#include "errmsg.h"
#include "warden.h"

int warden_open_device(void)
{
	int fd = open(WARDEN_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == ENOENT)
		fprintf(stderr,
			"warden: %s does not exist: load the driver first "
			"(modprobe warden, or insmod warden.ko)\n",
			WARDEN_DEVICE);
	else if (errno == EACCES || errno == EPERM)
		fprintf(stderr, "warden: cannot open %s: run as root\n",
			WARDEN_DEVICE);
	else
		fprintf(stderr, "warden: cannot open %s: %s\n", WARDEN_DEVICE,
			strerror(errno));
	return -1;
}

int warden_ioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	return warden_ioctl_describe(fd, cmd, arg, what, NULL, NULL);
}

int warden_ioctl_describe(int fd, unsigned long cmd, void *arg,
			  const char *what, warden_describe_fn describe,
			  void *ctx)
{
	struct warden_error *err = arg;
	char sentence[1024];
	int ret;

	memset(err, 0, sizeof(*err));
	ret = ioctl(fd, cmd, arg);
	if (ret >= 0)
		return ret;
	if (err->code == -errno && err->rule != WARDEN_RULE_NONE && describe) {
		describe(ctx, err, sentence, sizeof(sentence));
		fprintf(stderr, "warden: %s: %s\n", what, sentence);
	} else if (err->code == -errno && err->rule != WARDEN_RULE_NONE)
		fprintf(stderr, "warden: %s: %s\n", what,
			warden_error_describe(err, sentence, sizeof(sentence)));
	else if (errno == ENOTTY)
		fprintf(stderr,
			"warden: %s: the loaded driver does not know this "
			"request (driver and CLI versions differ?)\n",
			what);
	else if (errno == EPERM)
		fprintf(stderr, "warden: %s: permission denied: run as root\n",
			what);
	else
		fprintf(stderr, "warden: %s: %s\n", what, strerror(errno));
	return -1;
}
