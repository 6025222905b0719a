// SPDX-License-Identifier: GPL-2.0
/*
 * ELF images for "warden cell load" (elf_image.h).  Only what the
 * hypervisor can start is taken: a 64-bit little-endian x86-64 executable
 * (ET_EXEC) whose PT_LOAD segments give guest-physical addresses (paddr,
 * the load address; an inmate runs with paging off at first, so its
 * virtual addresses do not place it).  Everything about the file is
 * checked here, before any of it is copied; the checks against the cell's
 * memory are load_check.c's.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "elf_image.h"

bool elf_is_elf(const void *data, size_t size)
{
	return size >= SELFMAG && !memcmp(data, ELFMAG, SELFMAG);
}

/* The header's identification and type: 0, or -1 with the reason. */
static int check_header(const Elf64_Ehdr *eh, char *why, size_t len)
{
	if (eh->e_ident[EI_CLASS] != ELFCLASS64) {
		snprintf(why, len,
			 "a %s ELF file: Warden loads 64-bit (ELFCLASS64) "
			 "images for x86-64",
			 eh->e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit"
							     : "bad-class");
		return -1;
	}
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(why, len,
			 "not a little-endian ELF file "
			 "(EI_DATA is not ELFDATA2LSB)");
		return -1;
	}
	if (eh->e_ident[EI_VERSION] != EV_CURRENT ||
	    eh->e_version != EV_CURRENT) {
		snprintf(why, len, "an unknown ELF version (not EV_CURRENT)");
		return -1;
	}
	if (eh->e_machine != EM_X86_64) {
		snprintf(why, len,
			 "built for another machine (e_machine %u, not "
			 "EM_X86_64 %u)",
			 eh->e_machine, EM_X86_64);
		return -1;
	}
	if (eh->e_type == ET_REL) {
		snprintf(why, len,
			 "an object file (ET_REL), not linked: link "
			 "it into an executable first");
		return -1;
	}
	if (eh->e_type == ET_DYN) {
		snprintf(why, len,
			 "position-independent (ET_DYN): a cell runs an "
			 "image at the addresses it was linked for; link "
			 "with -static -no-pie and a linker script that "
			 "places it (libinmate's inmate.lds)");
		return -1;
	}
	if (eh->e_type != ET_EXEC) {
		snprintf(why, len, "not an executable (e_type %u)", eh->e_type);
		return -1;
	}
	return 0;
}

/* One program header into img; 0, or -1 with the reason. */
static int take_segment(const Elf64_Phdr *ph, unsigned int index, size_t size,
			struct elf_image *img, char *why, size_t len)
{
	struct elf_segment *seg;

	if (ph->p_type == PT_INTERP) {
		snprintf(why, len,
			 "dynamically linked (program header %u is "
			 "PT_INTERP): a cell has no loader; link with "
			 "-static",
			 index);
		return -1;
	}
	if (ph->p_type != PT_LOAD || !ph->p_memsz)
		return 0;
	if (ph->p_filesz > ph->p_memsz) {
		snprintf(why, len,
			 "segment %u: 0x%llx bytes in the file but 0x%llx "
			 "in memory (p_filesz > p_memsz)",
			 index, (unsigned long long)ph->p_filesz,
			 (unsigned long long)ph->p_memsz);
		return -1;
	}
	if (ph->p_offset > size || ph->p_filesz > size - ph->p_offset) {
		snprintf(why, len,
			 "segment %u: its bytes 0x%llx+0x%llx go past the "
			 "end of the file (0x%zx bytes; truncated?)",
			 index, (unsigned long long)ph->p_offset,
			 (unsigned long long)ph->p_filesz, size);
		return -1;
	}
	if (ph->p_paddr + ph->p_memsz < ph->p_paddr) {
		snprintf(why, len,
			 "segment %u: 0x%llx+0x%llx wraps around the "
			 "address space",
			 index, (unsigned long long)ph->p_paddr,
			 (unsigned long long)ph->p_memsz);
		return -1;
	}
	if (img->num_segments == ELF_MAX_SEGMENTS) {
		snprintf(why, len, "more than %d loadable segments",
			 ELF_MAX_SEGMENTS);
		return -1;
	}
	seg = &img->segments[img->num_segments++];
	seg->address = ph->p_paddr;
	seg->offset = ph->p_offset;
	seg->file_size = ph->p_filesz;
	seg->mem_size = ph->p_memsz;
	seg->index = index;
	return 0;
}

/* Sort by address and refuse overlaps: two segments writing the same
 * bytes would make the result depend on their order. */
static int sort_segments(struct elf_image *img, char *why, size_t len)
{
	struct elf_segment t;
	unsigned int i, j;

	for (i = 1; i < img->num_segments; i++)
		for (j = i; j > 0 && img->segments[j].address <
					     img->segments[j - 1].address;
		     j--) {
			t = img->segments[j];
			img->segments[j] = img->segments[j - 1];
			img->segments[j - 1] = t;
		}
	for (i = 1; i < img->num_segments; i++) {
		const struct elf_segment *a = &img->segments[i - 1];
		const struct elf_segment *b = &img->segments[i];

		if (b->address - a->address < a->mem_size) {
			snprintf(why, len,
				 "segments %u (0x%llx+0x%llx) and %u "
				 "(0x%llx+0x%llx) overlap",
				 a->index, (unsigned long long)a->address,
				 (unsigned long long)a->mem_size, b->index,
				 (unsigned long long)b->address,
				 (unsigned long long)b->mem_size);
			return -1;
		}
	}
	return 0;
}

int elf_parse(const void *data, size_t size, struct elf_image *img, char *why,
	      size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned int i;

	memset(img, 0, sizeof(*img));
	if (!elf_is_elf(data, size)) {
		snprintf(why, len,
			 "not an ELF file (no \\x7fELF at its "
			 "start)");
		return -1;
	}
	if (size < EI_NIDENT ||
	    (((const uint8_t *)data)[EI_CLASS] == ELFCLASS64 &&
	     size < sizeof(eh))) {
		snprintf(why, len, "too short for an ELF header (0x%zx bytes)",
			 size);
		return -1;
	}
	memset(&eh, 0, sizeof(eh));
	memcpy(&eh, data, size < sizeof(eh) ? size : sizeof(eh));
	if (check_header(&eh, why, len))
		return -1;
	if (eh.e_phnum && eh.e_phentsize != sizeof(ph)) {
		snprintf(why, len,
			 "program headers of %u bytes, not %zu "
			 "(e_phentsize)",
			 eh.e_phentsize, sizeof(ph));
		return -1;
	}
	if (eh.e_phoff > size ||
	    (uint64_t)eh.e_phnum * sizeof(ph) > size - eh.e_phoff) {
		snprintf(why, len,
			 "its %u program headers at 0x%llx go past the end "
			 "of the file (0x%zx bytes; truncated?)",
			 eh.e_phnum, (unsigned long long)eh.e_phoff, size);
		return -1;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, (const uint8_t *)data + eh.e_phoff + i * sizeof(ph),
		       sizeof(ph));
		if (take_segment(&ph, i, size, img, why, len))
			return -1;
	}
	if (!img->num_segments) {
		snprintf(why, len, "no loadable segment (PT_LOAD)");
		return -1;
	}
	img->entry = eh.e_entry;
	return sort_segments(img, why, len);
}

void elf_segment_bytes(const void *data, const struct elf_segment *seg,
		       void *buf)
{
	memcpy(buf, (const uint8_t *)data + seg->offset, seg->file_size);
	memset((uint8_t *)buf + seg->file_size, 0,
	       seg->mem_size - seg->file_size);
}

int elf_note(const void *data, size_t size, const char *name, uint32_t type,
	     uint64_t *value)
{
	const uint8_t *b = data;
	size_t nlen = strlen(name) + 1, at, end, desc;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Nhdr nh;
	unsigned int i;

	if (!elf_is_elf(data, size) || size < sizeof(eh))
		return -1;
	memcpy(&eh, data, sizeof(eh));
	if (eh.e_phentsize != sizeof(ph) || eh.e_phoff > size ||
	    (uint64_t)eh.e_phnum * sizeof(ph) > size - eh.e_phoff)
		return -1;
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, b + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > size ||
		    ph.p_filesz > size - ph.p_offset)
			continue;
		at = ph.p_offset;
		end = ph.p_offset + ph.p_filesz;
		/* notes: header, name and descriptor, each 4-byte aligned */
		while (end - at >= sizeof(nh)) {
			memcpy(&nh, b + at, sizeof(nh));
			desc = at + sizeof(nh) + ((nh.n_namesz + 3) & ~3u);
			if (nh.n_namesz > end - at || desc > end ||
			    nh.n_descsz > end - desc)
				break;
			if (nh.n_type == type && nh.n_namesz == nlen &&
			    !memcmp(b + at + sizeof(nh), name, nlen) &&
			    (nh.n_descsz == 4 || nh.n_descsz == 8)) {
				*value = 0;
				memcpy(value, b + desc, nh.n_descsz);
				return 0;
			}
			at = desc + ((nh.n_descsz + 3) & ~3u);
		}
	}
	return -1;
}
