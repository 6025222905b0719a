/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page pool and the generic page-table engine.
 *
 * The pool hands out 4 KiB pages of hypervisor memory, first fit, tracked by
 * a bitmap kept in the pool's own first pages.  Addresses it returns are
 * hypervisor virtual addresses; pool->to_phys/to_virt convert.
 *
 * The engine builds and edits x86-64 4-level page tables of one *format*:
 * the host's own tables and the vendors' second-level ones differ only in
 * how an entry encodes
 * "present", access rights, memory type and a large page, so each format is
 * a small set of functions (struct paging_format) and everything else —
 * walking, splitting large pages, picking 1 GiB / 2 MiB / 4 KiB pages —
 * is shared.  It is plain C, also compiled into the unit tests.
 */
#ifndef WARDEN_HV_PAGING_H
#define WARDEN_HV_PAGING_H

#include "spinlock.h"
#include "types.h"

#define PAGE_SIZE 4096ul
#define PAGE_MASK (~(PAGE_SIZE - 1))

struct page_pool {
	u64 base_virt; /* first page of the pool */
	u64 base_phys;
	unsigned long pages; /* pages under management, bitmap included */
	unsigned long used;  /* pages allocated, bitmap included */
	unsigned long bitmap_pages;
	u64 *bitmap;
	spinlock_t lock; /* CPUs allocate concurrently */
};

/* Set up a pool over [virt, virt + pages * 4 KiB) at physical phys.  The
 * bitmap takes the first page(s).  Returns 0 or -WARDEN_ENOMEM when the
 * area cannot even hold its bitmap. */
int pool_init(struct page_pool *pool, u64 virt, u64 phys, unsigned long pages);
/* Allocate num contiguous zeroed pages; NULL when none are left.  Safe to
 * call from several CPUs at once, as is page_free. */
void *page_alloc(struct page_pool *pool, unsigned long num);
/* Give back pages from page_alloc. */
void page_free(struct page_pool *pool, void *page, unsigned long num);
u64 pool_virt_to_phys(const struct page_pool *pool, const void *virt);
void *pool_phys_to_virt(const struct page_pool *pool, u64 phys);

/* Generic access flags of a mapping. */
#define MAP_READ (1u << 0)
#define MAP_WRITE (1u << 1)
#define MAP_EXECUTE (1u << 2)

/* The encoding of one page-table format. level: 0 = 4 KiB entry (PTE),
 * 1 = 2 MiB (PDE), 2 = 1 GiB (PDPTE), 3 = PML4E. */
struct paging_format {
	bool (*present)(u64 entry);
	bool (*is_leaf)(u64 entry, unsigned int level);
	u64 (*table)(u64 phys); /* entry pointing to a next-level table */
	u64 (*leaf)(u64 phys, unsigned int level, unsigned int flags,
		    unsigned int mem_type);
	u64 (*phys)(u64 entry, unsigned int level);
	/* flags and mem_type of a leaf, to split it into smaller pages */
	unsigned int (*flags)(u64 entry);
	unsigned int (*mem_type)(u64 entry);
	unsigned int max_leaf_level; /* 2 if 1 GiB pages may be used */
};

struct page_table {
	const struct paging_format *fmt;
	struct page_pool *pool;
	u64 *root; /* the PML4 (virtual) */
};

/* Allocate an empty root table; 0 or -WARDEN_ENOMEM. */
int pt_init(struct page_table *pt, const struct paging_format *fmt,
	    struct page_pool *pool);
/* Map [virt, virt + size) to phys (all 4 KiB aligned), using the largest
 * pages alignment allows.  Existing mappings in the range are replaced.
 * 0, or -WARDEN_ENOMEM (the range may then be partly mapped). */
int pt_map(struct page_table *pt, u64 virt, u64 phys, u64 size,
	   unsigned int flags, unsigned int mem_type);
/* Remove [virt, virt + size), splitting large pages at the edges.
 * 0, or -WARDEN_ENOMEM if a split needed a page that was not there. */
int pt_unmap(struct page_table *pt, u64 virt, u64 size);
/* Translate virt; returns true and sets *phys, *flags, *mem_type (any may
 * be NULL) if mapped. */
bool pt_lookup(const struct page_table *pt, u64 virt, u64 *phys,
	       unsigned int *flags, unsigned int *mem_type);
/* Free every table page (not the mapped memory). */
void pt_destroy(struct page_table *pt);

#endif /* WARDEN_HV_PAGING_H */
