/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's one ELF loader: an ELF file read into memory, its loadable
 * segments and entry point, each checked with the reason it cannot be
 * loaded (docs/cli.md, "cell load").  Plain C without system calls, so
 * that the unit tests feed it any bytes (tests/unit/test_elf_image.c).
 */
#ifndef WARDEN_TOOLS_ELF_IMAGE_H
#define WARDEN_TOOLS_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Loadable segments of one image, at most (an inmate has two). */
#define ELF_MAX_SEGMENTS 8

struct elf_segment {
	uint64_t address;   /* guest-physical (the program header's paddr) */
	uint64_t offset;    /* of its bytes in the file */
	uint64_t file_size; /* bytes from the file; the rest up to */
	uint64_t mem_size;  /* mem_size is zeros (BSS) */
	unsigned int index; /* of its program header, for messages */
};

struct elf_image {
	uint64_t entry;
	unsigned int num_segments;
	struct elf_segment segments[ELF_MAX_SEGMENTS];
};

/* Whether data starts with the ELF magic (the rest may still be bad). */
bool elf_is_elf(const void *data, size_t size);

/*
 * Parse an ELF executable for x86-64 of size bytes: 0 with img filled in
 * (segments sorted by address, none empty), or -1 with the reason in why,
 * a sentence without the file name ("a 32-bit ELF file (ELFCLASS32): ...").
 */
int elf_parse(const void *data, size_t size, struct elf_image *img, char *why,
	      size_t len);

/* The bytes a segment puts into memory: its file bytes, then zeros up to
 * mem_size, into buf (mem_size bytes). */
void elf_segment_bytes(const void *data, const struct elf_segment *seg,
		       void *buf);

/*
 * The descriptor of the first note of the given name and type in the
 * file's PT_NOTE segments, a 4- or 8-byte little-endian number, into
 * *value: 0, or -1 if there is none.  (Linux's PVH entry: name "Xen",
 * type 18, XEN_ELFNOTE_PHYS32_ENTRY.)
 */
int elf_note(const void *data, size_t size, const char *name, uint32_t type,
	     uint64_t *value);

#endif /* WARDEN_TOOLS_ELF_IMAGE_H */
