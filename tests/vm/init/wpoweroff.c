// SPDX-License-Identifier: GPL-2.0
/*
 * Power the test machine off without losing console output: sync, drain
 * the serial console, then reboot(RB_POWER_OFF). Built static.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>

static void drain(const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return;
	tcdrain(fd);
	close(fd);
}

int main(void)
{
	sync();
	drain("/dev/ttyS0");
	drain("/dev/console");
	reboot(RB_POWER_OFF);
	perror("wpoweroff: reboot");
	return 1;
}
