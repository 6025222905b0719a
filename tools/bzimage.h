/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ELF vmlinux inside a Linux bzImage, as distributions ship it
 * (/boot/vmlinuz-*): the setup header (linux Documentation/x86/boot.rst,
 * fields payload_offset 0x248 and payload_length 0x24c, protocol 2.08
 * and later) locates the compressed kernel in the protected-mode part,
 * and XZ (Debian's choice) is decompressed with liblzma.  The ELF's PVH
 * entry note is what "warden cell linux" starts (elf_image.h).
 */
#ifndef WARDEN_TOOLS_BZIMAGE_H
#define WARDEN_TOOLS_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether data has a bzImage's setup header ("HdrS" at 0x202). */
bool bzimage_is_bzimage(const void *data, size_t size);

/*
 * The ELF vmlinux of the bzImage data (size bytes) into *elf (malloc'd,
 * *elf_size bytes): 0, or -1 with the reason in why ("the payload is
 * compressed with gzip; Warden reads XZ payloads", "the setup header's
 * payload (0x...+0x...) goes past the end of the file", ...).
 */
int bzimage_extract(const void *data, size_t size, void **elf, size_t *elf_size,
		    char *why, size_t len);

/* What the 32-bit boot protocol needs of a bzImage (boot.rst, "The
 * real-mode kernel header"). */
struct bzimage_pm {
	size_t code_offset, code_size; /* the protected-mode code */
	size_t header_len;	       /* setup header bytes from 0x1f1 */
	uint32_t kernel_alignment, init_size, cmdline_size;
};

/*
 * The protected-mode code and the header fields of the bzImage data
 * (size bytes) into *pm: 0, or -1 with the reason in why ("boot protocol
 * 2.06 is older than 2.10", "the kernel is not relocatable", ...).
 */
int bzimage_pm_code(const void *data, size_t size, struct bzimage_pm *pm,
		    char *why, size_t len);

#endif /* WARDEN_TOOLS_BZIMAGE_H */
