// SPDX-License-Identifier: GPL-2.0
/* The ELF inside a bzImage (bzimage.h). */
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bzimage.h"

/* The setup header (boot.rst, "The real-mode kernel header"). */
#define HDR_SETUP_SECTS 0x1f1
#define HDR_MAGIC 0x202
#define HDR_VERSION 0x206
#define HDR_JUMP_END 0x201 /* the jump's offset byte: the header's end */
#define HDR_KERNEL_ALIGNMENT 0x230
#define HDR_RELOCATABLE 0x234
#define HDR_CMDLINE_SIZE 0x238
#define HDR_INIT_SIZE 0x260
#define HDR_PAYLOAD_OFFSET 0x248
#define HDR_PAYLOAD_LENGTH 0x24c
/* Decompressed kernels are tens of MiB; more than this is not one. */
#define ELF_MAX (512u << 20)

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool bzimage_is_bzimage(const void *data, size_t size)
{
	return size > HDR_PAYLOAD_LENGTH + 4 &&
	       !memcmp((const uint8_t *)data + HDR_MAGIC, "HdrS", 4);
}

/* The name of a payload's compression, from its magic. */
static const char *format_of(const uint8_t *p, size_t n)
{
	if (n >= 2 && p[0] == 0x1f && (p[1] == 0x8b || p[1] == 0x9e))
		return "gzip";
	if (n >= 3 && !memcmp(p, "BZh", 3))
		return "bzip2";
	if (n >= 4 && get32(p) == 0x184c2102)
		return "LZ4";
	if (n >= 4 && get32(p) == 0xfd2fb528)
		return "zstd";
	if (n >= 3 && p[0] == 0x89 && !memcmp(p + 1, "LZO", 3))
		return "LZO";
	if (n >= 3 && p[0] == 0x5d && p[1] == 0 && p[2] == 0)
		return "LZMA";
	return "an unknown format";
}

/* One XZ stream (the kernel's is followed by padding and its size) into
 * a growing buffer. */
static int unxz(const uint8_t *in, size_t n, void **elf, size_t *elf_size,
		char *why, size_t len)
{
	lzma_stream s = LZMA_STREAM_INIT;
	size_t cap = 64u << 20;
	uint8_t *out = malloc(cap), *bigger;
	lzma_ret r;

	if (!out || lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK) {
		free(out);
		snprintf(why, len, "out of memory for the decompressor");
		return -1;
	}
	s.next_in = in;
	s.avail_in = n;
	s.next_out = out;
	s.avail_out = cap;
	for (;;) {
		r = lzma_code(&s, LZMA_FINISH);
		if (r == LZMA_STREAM_END)
			break;
		if (r == LZMA_OK && !s.avail_out && cap < ELF_MAX) {
			bigger = realloc(out, cap * 2);
			if (!bigger)
				break;
			out = bigger;
			s.next_out = out + cap;
			s.avail_out = cap;
			cap *= 2;
			continue;
		}
		lzma_end(&s);
		free(out);
		snprintf(why, len,
			 "its XZ payload does not decompress (liblzma error "
			 "%d%s)",
			 (int)r, r == LZMA_OK ? ": larger than 512 MiB" : "");
		return -1;
	}
	*elf_size = s.total_out;
	lzma_end(&s);
	*elf = out;
	return 0;
}

int bzimage_extract(const void *data, size_t size, void **elf, size_t *elf_size,
		    char *why, size_t len)
{
	const uint8_t *b = data;
	unsigned int sects;
	uint64_t pm, off, plen;

	*elf = NULL;
	if (!bzimage_is_bzimage(data, size)) {
		snprintf(why, len,
			 "not a bzImage (no \"HdrS\" setup header at 0x202)");
		return -1;
	}
	if ((b[HDR_VERSION] | b[HDR_VERSION + 1] << 8) < 0x208) {
		snprintf(why, len,
			 "a bzImage of boot protocol %u.%02u: the payload "
			 "fields need 2.08 or later",
			 b[HDR_VERSION + 1], b[HDR_VERSION]);
		return -1;
	}
	sects = b[HDR_SETUP_SECTS] ? b[HDR_SETUP_SECTS] : 4;
	pm = (uint64_t)(sects + 1) * 512;
	off = get32(b + HDR_PAYLOAD_OFFSET);
	plen = get32(b + HDR_PAYLOAD_LENGTH);
	if (pm + off + plen > size || !plen) {
		snprintf(why, len,
			 "the setup header's payload (0x%llx+0x%llx) goes "
			 "past the end of the file (0x%zx bytes)",
			 (unsigned long long)(pm + off),
			 (unsigned long long)plen, size);
		return -1;
	}
	if (plen < 6 || memcmp(b + pm + off,
			       "\xfd"
			       "7zXZ\0",
			       6)) {
		snprintf(why, len,
			 "its payload is compressed with %s; Warden reads "
			 "XZ payloads (Debian's), or give the ELF vmlinux",
			 format_of(b + pm + off, plen));
		return -1;
	}
	if (unxz(b + pm + off, plen, elf, elf_size, why, len))
		return -1;
	if (*elf_size < 4 || memcmp(*elf,
				    "\x7f"
				    "ELF",
				    4)) {
		free(*elf);
		*elf = NULL;
		snprintf(why, len, "its payload is not an ELF file");
		return -1;
	}
	return 0;
}

int bzimage_pm_code(const void *data, size_t size, struct bzimage_pm *pm,
		    char *why, size_t len)
{
	const uint8_t *p = data;
	unsigned int version, sects;
	size_t end;

	if (!bzimage_is_bzimage(data, size) || size < HDR_INIT_SIZE + 4) {
		snprintf(why, len,
			 "not a bzImage (no \"HdrS\" setup header "
			 "at 0x202)");
		return -1;
	}
	version = p[HDR_VERSION] | (unsigned int)p[HDR_VERSION + 1] << 8;
	/* 2.10: init_size, the memory the kernel needs from its load
	 * address on; relocatable_kernel since 2.05 */
	if (version < 0x20a) {
		snprintf(why, len,
			 "boot protocol %u.%02u is older than 2.10 (no "
			 "init_size)",
			 version >> 8, version & 0xff);
		return -1;
	}
	if (!p[HDR_RELOCATABLE]) {
		snprintf(why, len,
			 "the kernel is not relocatable (relocatable_kernel "
			 "0): it runs only at its own address");
		return -1;
	}
	sects = p[HDR_SETUP_SECTS] ? p[HDR_SETUP_SECTS] : 4;
	end = HDR_MAGIC + (size_t)p[HDR_JUMP_END];
	pm->code_offset = ((size_t)sects + 1) * 512;
	if (pm->code_offset >= size || end <= HDR_INIT_SIZE + 4 ||
	    end > pm->code_offset) {
		snprintf(why, len,
			 "the setup header's %u setup sectors or its end 0x%zx "
			 "do not fit the file (%zu bytes)",
			 sects, end, size);
		return -1;
	}
	pm->code_size = size - pm->code_offset;
	pm->header_len = end - HDR_SETUP_SECTS;
	pm->kernel_alignment = get32(p + HDR_KERNEL_ALIGNMENT);
	pm->init_size = get32(p + HDR_INIT_SIZE);
	pm->cmdline_size = get32(p + HDR_CMDLINE_SIZE);
	return 0;
}
