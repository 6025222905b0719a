// SPDX-License-Identifier: GPL-2.0
/* Error-channel records to sentences: the links' rules (errmsg_parts.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/config.h>

#include "errmsg_parts.h"

/* A name fault of LINK_FIELDS (config_check.c): 0 empty, 0x100 no NUL
 * in the field, else the first byte that is not printable. */
static void name_fault(char *buf, size_t len, const char *whose,
		       unsigned long long value)
{
	if (!value)
		errmsg_add(buf, len, "%s is empty", whose);
	else if (value == 0x100)
		errmsg_add(buf, len, "%s is longer than %d characters", whose,
			   WARDEN_NAME_LEN - 1);
	else
		errmsg_add(buf, len, "%s has a non-printable byte 0x%02llx",
			   whose, value);
}

/* WARDEN_RULE_LINK_FIELDS: what (values[0]), the value at fault and the
 * peer (values[2], not a peer index for the link's own fields). */
static void link_fields(char *buf, size_t len, unsigned long long what,
			unsigned long long value, unsigned long long peer)
{
	if (peer < WARDEN_LINK_MAX_PEERS)
		errmsg_add(buf, len, "peer %llu: ", peer);
	switch (what) {
	case WARDEN_LINK_BAD_NAME:
		name_fault(buf, len, "the name", value);
		break;
	case WARDEN_LINK_BAD_NAME_DUPLICATE:
		errmsg_add(buf, len, "the name is already used by links[%llu]",
			   value);
		break;
	case WARDEN_LINK_BAD_FLAGS:
		errmsg_add(buf, len,
			   "unknown flags 0x%llx (known: directional 0x%x)",
			   value & ~(unsigned long long)WARDEN_LINK_FLAGS_ALL,
			   WARDEN_LINK_DIRECTIONAL);
		break;
	case WARDEN_LINK_BAD_NUM_PEERS:
		errmsg_add(buf, len, "%llu peers, but a link has 2 to %d",
			   value, WARDEN_LINK_MAX_PEERS);
		break;
	case WARDEN_LINK_BAD_RESERVED:
		errmsg_add(buf, len,
			   "byte %llu of the link is not 0 (a peer's reserved "
			   "bytes, "
			   "and the entries past num_peers, must be 0)",
			   value);
		break;
	case WARDEN_LINK_BAD_PEER_NAME:
		name_fault(buf, len, "the cell name", value);
		break;
	default:
		errmsg_add(buf, len, "field %llu is wrong (value 0x%llx)", what,
			   value);
		break;
	}
}

/* WARDEN_RULE_LINK_MEMORY: the fault, found again from the values. */
static void link_memory(char *buf, size_t len, unsigned long long phys,
			unsigned long long size)
{
	errmsg_add(buf, len, "memory 0x%llx+0x%llx: ", phys, size);
	if (!size || (size & (size - 1)) || size < WARDEN_LINK_MIN_SIZE)
		errmsg_add(buf, len,
			   "the size must be a power of 2 of at least %u KiB",
			   WARDEN_LINK_MIN_SIZE >> 10);
	else if (phys & (size - 1))
		errmsg_add(buf, len,
			   "the address must be a multiple of the size");
	else
		errmsg_add(buf, len,
			   "is not inside one RAM region of the root cell "
			   "(read, "
			   "write, not io): take it from the memmap= "
			   "reservation");
}

/* WARDEN_RULE_LINK_PEER_ADDRESS: what (values[2]) of which address. */
static void link_address(char *buf, size_t len, unsigned long long peer,
			 unsigned long long address, unsigned long long what)
{
	errmsg_add(buf, len, "peer %llu: ", peer);
	switch (what) {
	case WARDEN_LINK_BAD_REGS_ALIGN:
		errmsg_add(buf, len,
			   "regs 0x%llx must be a multiple of 4 KiB, its page "
			   "below "
			   "4 GiB (a 32-bit BAR)",
			   address);
		break;
	case WARDEN_LINK_BAD_REGS_NOT_DEVICE:
		errmsg_add(buf, len,
			   "regs 0x%llx is not inside one io region of the "
			   "root cell "
			   "(device memory, where Linux puts no RAM)",
			   address);
		break;
	case WARDEN_LINK_BAD_REGS_OVER_BAR:
		errmsg_add(buf, len,
			   "regs 0x%llx overlaps a BAR of one of the root "
			   "cell's PCI "
			   "devices",
			   address);
		break;
	case WARDEN_LINK_BAD_REGS_TRAPPED:
		errmsg_add(buf, len,
			   "regs 0x%llx overlaps an IOAPIC or the PCI MMCONFIG "
			   "window, "
			   "which the hypervisor keeps",
			   address);
		break;
	case WARDEN_LINK_BAD_ROOT_SHMEM:
		errmsg_add(buf, len,
			   "shmem 0x%llx: the root cell sees the link's memory "
			   "where "
			   "it is: shmem must be the memory's phys",
			   address);
		break;
	case WARDEN_LINK_BAD_OVER_MEMORY:
		errmsg_add(buf, len,
			   "0x%llx (regs or shmem) overlaps the cell's memory "
			   "(guest-physical)",
			   address);
		break;
	case WARDEN_LINK_BAD_OVER_OTHER:
		errmsg_add(buf, len,
			   "0x%llx (regs or shmem) overlaps another BAR of the "
			   "same "
			   "cell's links (its own regs and shmem, or another "
			   "link's)",
			   address);
		break;
	case WARDEN_LINK_BAD_SHMEM_ALIGN:
		errmsg_add(buf, len,
			   "shmem 0x%llx must be a multiple of the link's size "
			   "(BAR "
			   "2 is aligned to its size)",
			   address);
		break;
	default:
		errmsg_add(buf, len, "address 0x%llx is wrong (fault %llu)",
			   address, what);
		break;
	}
}

bool errmsg_links(const struct warden_error *e, char *buf, size_t len)
{
	const uint64_t *v = e->values;
	unsigned long long a = v[0], b = v[1], c = v[2], d = v[3];

	switch (e->rule) {
	case WARDEN_RULE_LINK_FIELDS:
		link_fields(buf, len, a, b, c);
		break;
	case WARDEN_RULE_LINK_MEMORY:
		link_memory(buf, len, a, b);
		break;
	case WARDEN_RULE_LINK_MEMORY_OVERLAP:
		/* item LINK: its memory; item MEMORY_REGION: a cell's */
		if (e->item_kind == WARDEN_ITEM_LINK)
			errmsg_add(buf, len, "memory 0x%llx+0x%llx: ", a, b);
		if (c == 0)
			errmsg_add(buf, len,
				   "overlaps the hypervisor's memory");
		else if (e->item_kind == WARDEN_ITEM_LINK)
			errmsg_add(buf, len,
				   "overlaps the memory of links[%llu]", d);
		else
			errmsg_add(buf, len,
				   "overlaps the memory of links[%llu]%s%s%s, "
				   "which "
				   "the system config shares between its "
				   "peers: no "
				   "cell may take it",
				   d, e->text[0] ? " \"" : "",
				   e->text[0] ? e->text : "",
				   e->text[0] ? "\"" : "");
		break;
	case WARDEN_RULE_LINK_PEER:
		if (b)
			errmsg_add(buf, len,
				   "peer %llu: its cell is neither the root "
				   "cell nor "
				   "one of the cell configs given",
				   a);
		else
			errmsg_add(buf, len,
				   "peer %llu: names the same cell as peer "
				   "%llu (a "
				   "cell is a peer of a link once)",
				   a, c);
		break;
	case WARDEN_RULE_LINK_PEER_BDF:
		errmsg_add(buf, len, "peer %llu: PCI function ", a);
		errmsg_pci_name(buf, len, b);
		errmsg_add(buf, len,
			   " is in use: by one of the cell's PCI devices, or "
			   "by its "
			   "function of another link");
		break;
	case WARDEN_RULE_LINK_PEER_ADDRESS:
		link_address(buf, len, a, b, c);
		break;
	case WARDEN_RULE_LINK_PEER_VECTORS:
		errmsg_add(buf, len,
			   "peer %llu: %llu vectors, but a peer has 1 to %d", a,
			   b, WARDEN_LINK_MAX_VECTORS);
		break;
	default:
		return false;
	}
	return true;
}
