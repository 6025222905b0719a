// SPDX-License-Identifier: GPL-2.0
/*
 * bad-write: writes to guest-physical 512 MiB, outside every region of
 * its cell.  The hypervisor must stop the cell (failed, "write outside its
 * memory 0x20000000") and leave root and other cells running.
 */
#include <inmate.h>

void inmate_main(void)
{
	printk("bad-write: writing to 0x20000000\n");
	*(volatile uint32_t *)0x20000000ul = 0xdeadbeef;
	printk("bad-write: still running after the write\n");
}
