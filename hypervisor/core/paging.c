// SPDX-License-Identifier: GPL-2.0
/* The page pool and the page-table engine (contracts in hv/paging.h). */
#include <hv/paging.h>
#include <warden/hypercall.h>

#define ENTRIES 512
#define BITS_PER_WORD 64

static void zero_pages(void *p, unsigned long num)
{
	u64 *w = p;
	unsigned long i;

	for (i = 0; i < num * PAGE_SIZE / sizeof(u64); i++)
		w[i] = 0;
}

u64 pool_virt_to_phys(const struct page_pool *pool, const void *virt)
{
	return (u64)virt - pool->base_virt + pool->base_phys;
}

void *pool_phys_to_virt(const struct page_pool *pool, u64 phys)
{
	return (void *)(phys - pool->base_phys + pool->base_virt);
}

static bool test_bit(const struct page_pool *pool, unsigned long n)
{
	return pool->bitmap[n / BITS_PER_WORD] & (1ull << (n % BITS_PER_WORD));
}

static void set_bits(struct page_pool *pool, unsigned long n, unsigned long num,
		     bool set)
{
	for (; num; num--, n++) {
		u64 bit = 1ull << (n % BITS_PER_WORD);

		if (set)
			pool->bitmap[n / BITS_PER_WORD] |= bit;
		else
			pool->bitmap[n / BITS_PER_WORD] &= ~bit;
	}
}

int pool_init(struct page_pool *pool, u64 virt, u64 phys, unsigned long pages)
{
	unsigned long bits_per_page = PAGE_SIZE * 8;

	pool->base_virt = virt;
	pool->base_phys = phys;
	pool->pages = pages;
	pool->bitmap_pages = (pages + bits_per_page - 1) / bits_per_page;
	if (pages <= pool->bitmap_pages)
		return -WARDEN_ENOMEM;
	pool->bitmap = (u64 *)virt;
	pool->lock.locked = 0;
	zero_pages(pool->bitmap, pool->bitmap_pages);
	set_bits(pool, 0, pool->bitmap_pages, true);
	pool->used = pool->bitmap_pages;
	return 0;
}

void *page_alloc(struct page_pool *pool, unsigned long num)
{
	unsigned long start, n;

	if (num == 0)
		return NULL;
	spin_lock(&pool->lock);
	for (start = 0; start + num <= pool->pages; start++) {
		for (n = 0; n < num && !test_bit(pool, start + n); n++)
			;
		if (n == num) {
			void *page =
				(void *)(pool->base_virt + start * PAGE_SIZE);

			set_bits(pool, start, num, true);
			pool->used += num;
			spin_unlock(&pool->lock);
			zero_pages(page, num);
			return page;
		}
		start += n; /* skip past the page in use */
	}
	spin_unlock(&pool->lock);
	return NULL;
}

void page_free(struct page_pool *pool, void *page, unsigned long num)
{
	unsigned long first;

	if (!page)
		return;
	first = ((u64)page - pool->base_virt) / PAGE_SIZE;
	spin_lock(&pool->lock);
	set_bits(pool, first, num, false);
	pool->used -= num;
	spin_unlock(&pool->lock);
}

static void destroy_level(struct page_table *pt, u64 *table,
			  unsigned int level);

static u64 level_size(unsigned int level)
{
	return PAGE_SIZE << (9 * level);
}

static unsigned int index_of(u64 virt, unsigned int level)
{
	return (virt >> (12 + 9 * level)) & (ENTRIES - 1);
}

int pt_init(struct page_table *pt, const struct paging_format *fmt,
	    struct page_pool *pool)
{
	pt->fmt = fmt;
	pt->pool = pool;
	pt->root = page_alloc(pool, 1);
	return pt->root ? 0 : -WARDEN_ENOMEM;
}

static u64 *next_table(struct page_table *pt, u64 entry, unsigned int level)
{
	return pool_phys_to_virt(pt->pool, pt->fmt->phys(entry, level));
}

/*
 * Replace the large page in *entry (at level) by a table of smaller pages
 * with the same translation, flags and memory type.
 */
static int split(struct page_table *pt, u64 *entry, unsigned int level)
{
	const struct paging_format *f = pt->fmt;
	u64 phys = f->phys(*entry, level);
	unsigned int flags = f->flags(*entry), type = f->mem_type(*entry);
	u64 *table = page_alloc(pt->pool, 1);
	unsigned int i;

	if (!table)
		return -WARDEN_ENOMEM;
	for (i = 0; i < ENTRIES; i++)
		table[i] = f->leaf(phys + i * level_size(level - 1), level - 1,
				   flags, type);
	*entry = f->table(pool_virt_to_phys(pt->pool, table));
	return 0;
}

static bool aligned(u64 v, u64 size)
{
	return (v & (size - 1)) == 0;
}

/* The entry for virt at level, if the tables above it exist. */
static u64 *entry_at_level(struct page_table *pt, u64 virt, unsigned int level)
{
	const struct paging_format *f = pt->fmt;
	u64 *table = pt->root;
	unsigned int l;

	for (l = 3; l > level; l--) {
		u64 e = table[index_of(virt, l)];

		if (!f->present(e) || f->is_leaf(e, l))
			return NULL;
		table = next_table(pt, e, l);
	}
	return &table[index_of(virt, level)];
}

/*
 * Where the table under the level-`level` entry for virt holds one whole
 * large page (every entry a leaf, contiguous from an aligned start, same
 * flags and memory type), put that large page in its place and free the
 * table: unmapping part of a large page and mapping it back then leaves
 * the tables as they were, and no page of the pool behind.
 */
static void coalesce_one(struct page_table *pt, u64 virt, unsigned int level)
{
	const struct paging_format *f = pt->fmt;
	u64 *e = entry_at_level(pt, virt, level), *t, first;
	unsigned int i, flags, type;
	u64 phys;

	if (!e || !f->present(*e) || f->is_leaf(*e, level))
		return;
	t = next_table(pt, *e, level);
	first = t[0];
	if (!f->present(first) || (level > 1 && !f->is_leaf(first, level - 1)))
		return;
	phys = f->phys(first, level - 1);
	flags = f->flags(first);
	type = f->mem_type(first);
	if (!aligned(phys, level_size(level)))
		return;
	for (i = 1; i < ENTRIES; i++)
		if (!f->present(t[i]) ||
		    (level > 1 && !f->is_leaf(t[i], level - 1)) ||
		    f->phys(t[i], level - 1) !=
			    phys + i * level_size(level - 1) ||
		    f->flags(t[i]) != flags || f->mem_type(t[i]) != type)
			return;
	*e = f->leaf(phys, level, flags, type);
	page_free(pt->pool, t, 1);
}

static void coalesce(struct page_table *pt, u64 virt, u64 size)
{
	unsigned int level;
	u64 v, step;

	for (level = 1; level <= pt->fmt->max_leaf_level; level++) {
		step = level_size(level);
		for (v = virt & ~(step - 1); v < virt + size; v += step)
			coalesce_one(pt, v, level);
	}
}

int pt_map(struct page_table *pt, u64 virt, u64 phys, u64 size,
	   unsigned int flags, unsigned int mem_type)
{
	const struct paging_format *f = pt->fmt;
	u64 start = virt, total = size;

	while (size) {
		u64 *table = pt->root;
		unsigned int level = 3;

		for (;;) {
			u64 *e = &table[index_of(virt, level)];
			u64 step = level_size(level);

			if (level <= f->max_leaf_level && aligned(virt, step) &&
			    aligned(phys, step) && size >= step) {
				/* Whole entry becomes a leaf: a table that
				 * was here only held mappings being
				 * replaced, so free it. */
				if (level > 0 && f->present(*e) &&
				    !f->is_leaf(*e, level))
					destroy_level(pt,
						      next_table(pt, *e, level),
						      level - 1);
				*e = f->leaf(phys, level, flags, mem_type);
				virt += step;
				phys += step;
				size -= step;
				break;
			}
			if (!f->present(*e)) {
				u64 *t = page_alloc(pt->pool, 1);

				if (!t)
					return -WARDEN_ENOMEM;
				*e = f->table(pool_virt_to_phys(pt->pool, t));
			} else if (f->is_leaf(*e, level)) {
				int err = split(pt, e, level);

				if (err)
					return err;
			}
			table = next_table(pt, *e, level);
			level--;
		}
	}
	coalesce(pt, start, total);
	return 0;
}

int pt_unmap(struct page_table *pt, u64 virt, u64 size)
{
	const struct paging_format *f = pt->fmt;

	while (size) {
		u64 *table = pt->root;
		unsigned int level = 3;

		for (;;) {
			u64 *e = &table[index_of(virt, level)];
			u64 step = level_size(level);
			u64 skip = step - (virt & (step - 1));

			if (!f->present(*e)) {
				/* Nothing mapped up to the next boundary. */
				if (skip >= size)
					return 0;
				virt += skip;
				size -= skip;
				break;
			}
			if (f->is_leaf(*e, level) || level == 0) {
				if (aligned(virt, step) && size >= step) {
					*e = 0;
					virt += step;
					size -= step;
					break;
				}
				if (split(pt, e, level))
					return -WARDEN_ENOMEM;
			}
			table = next_table(pt, *e, level);
			level--;
		}
	}
	return 0;
}

bool pt_lookup(const struct page_table *pt, u64 virt, u64 *phys,
	       unsigned int *flags, unsigned int *mem_type)
{
	const struct paging_format *f = pt->fmt;
	u64 *table = pt->root;
	unsigned int level = 3;

	for (;;) {
		u64 e = table[index_of(virt, level)];

		if (!f->present(e))
			return false;
		if (f->is_leaf(e, level) || level == 0) {
			if (phys)
				*phys = f->phys(e, level) +
					(virt & (level_size(level) - 1));
			if (flags)
				*flags = f->flags(e);
			if (mem_type)
				*mem_type = f->mem_type(e);
			return true;
		}
		table = pool_phys_to_virt(pt->pool, f->phys(e, level));
		level--;
	}
}

static void destroy_level(struct page_table *pt, u64 *table, unsigned int level)
{
	unsigned int i;

	if (level > 0) {
		for (i = 0; i < ENTRIES; i++)
			if (pt->fmt->present(table[i]) &&
			    !pt->fmt->is_leaf(table[i], level))
				destroy_level(pt,
					      next_table(pt, table[i], level),
					      level - 1);
	}
	page_free(pt->pool, table, 1);
}

void pt_destroy(struct page_table *pt)
{
	if (pt->root)
		destroy_level(pt, pt->root, 3);
	pt->root = NULL;
}
