// SPDX-License-Identifier: GPL-2.0
/*
 * shutdown-test: answers shutdown requests in its communication region:
 * denies the first, approves the second, then halts.
 */
#include <inmate.h>

void inmate_main(void)
{
	unsigned int requests = 0;

	printk("shutdown-test: waiting for shutdown requests\n");
	for (;;) {
		if (comm_poll_msg() != WARDEN_MSG_SHUTDOWN_REQUEST) {
			asm volatile("pause");
			continue;
		}
		requests++;
		if (comm_handle_shutdown(requests >= 2)) {
			printk("shutdown-test: request %u approved\n",
			       requests);
			return;
		}
		printk("shutdown-test: request %u denied\n", requests);
		/* wait until the hypervisor withdraws the request */
		while (comm_poll_msg() == WARDEN_MSG_SHUTDOWN_REQUEST)
			asm volatile("pause");
	}
}
