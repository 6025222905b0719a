/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What "warden cell load" puts into a cell besides its images: the
 * inmate's command line.  Its place is part of the ABI so that neither the
 * user nor the CLI has to know an address: "warden cell load CELL IMAGE
 * --cmdline STRING" writes STRING with its NUL at WARDEN_CMDLINE_ADDRESS,
 * and libinmate reads it there (INMATE_CMDLINE).  The cell config must map
 * loadable RAM over that page, and no image may overlap it.
 *
 * Plain numbers only: the inmates' assembly includes this header.
 */
#ifndef WARDEN_LOAD_H
#define WARDEN_LOAD_H

/* Guest-physical page of the command line: the last page below 1 MiB,
 * under the communication region libinmate expects at 1 MiB. */
#define WARDEN_CMDLINE_ADDRESS 0xff000
/* Bytes of the command line, its terminating NUL included, at most. */
#define WARDEN_CMDLINE_SIZE 0x1000

#ifndef __ASSEMBLY__
_Static_assert(WARDEN_CMDLINE_ADDRESS % 0x1000 == 0, "the command line starts "
						     "a page");
_Static_assert(WARDEN_CMDLINE_ADDRESS + WARDEN_CMDLINE_SIZE <= 0x100000,
	       "the command line ends below 1 MiB (real-mode reachable)");
#endif

#endif /* WARDEN_LOAD_H */
