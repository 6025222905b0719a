// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An inmate from outside the Warden tree: greets whom its command line
 * names, reports running, and waits for a shutdown request. */
#include <inmate.h>

void inmate_main(void)
{
	printk("hello from an out-of-tree inmate, who=%s\n",
	       cmdline_str("who", "nobody"));
	comm_set_state(WARDEN_CELL_RUNNING);
	while (!comm_shutdown_requested())
		delay_us(1000);
	/* the last words before the approval: once approved, the cell may
	 * be stopped at any instruction */
	printk("hello: shutting down\n");
	comm_handle_shutdown(true);
}
