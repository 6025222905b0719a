// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML front end: the top-level "links:" list of a system config
 * (config_yaml_parts.h), each link with its memory, access and peers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml_parts.h"

/* A name into a field of WARDEN_NAME_LEN bytes: it ends at a NUL ("\0"
 * in YAML); a longer one fills the field without one, and the validator
 * says it is too long. */
static void name_field(yaml_node_t *n, char *field)
{
	const char *name = cy_text(n);
	size_t len = strnlen(name, n->data.scalar.length);

	memcpy(field, name, len < WARDEN_NAME_LEN ? len : WARDEN_NAME_LEN);
}

/* One peer of a link: {cell, bdf, regs, shmem, vectors}. */
static void link_peer(struct ctx *x, yaml_node_t *n, const char *what,
		      const struct warden_link *l, struct warden_link_peer *q)
{
	static const char *const keys[] = { "cell", "bdf", "regs", "shmem",
					    "vectors" };
	enum { CELL, BDF, REGS, SHMEM, VECTORS, N };
	int ids[N];
	unsigned int lines[N];
	uint16_t domain = 0;
	const char *s, *why;
	char sub[160];
	uint64_t v;

	if (!cy_fields(x, n, what, keys, N, ids, lines))
		return;
	s = cy_text(cy_node(x, ids[CELL]));
	if (!ids[CELL])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'cell' is missing (the cell's name, the root "
			    "cell's for root)",
			    what);
	else if (!s || cy_is_null(cy_node(x, ids[CELL])))
		cy_diag_add(x, lines[CELL], "%s.cell: a name is needed", what);
	else
		name_field(cy_node(x, ids[CELL]), q->cell);
	s = cy_text(cy_node(x, ids[BDF]));
	if (!ids[BDF])
		cy_diag_add(x, cy_line_of(n), "%s: 'bdf' is missing", what);
	else if (!s || cv_parse_bdf(s, &domain, &q->bdf, &why))
		cy_diag_add(x, lines[BDF], "%s.bdf: '%s' %s", what, s ? s : "",
			    s ? why : "is not a PCI function such as 00:10.0");
	else if (domain)
		cy_diag_add(x, lines[BDF],
			    "%s.bdf: '%s': a link's function is in PCI segment "
			    "0",
			    what, s);
	snprintf(sub, sizeof(sub), "%s.regs", what);
	if (!ids[REGS])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'regs' (the address of its registers, BAR 0) "
			    "is "
			    "missing",
			    what);
	cy_opt_number(x, ids[REGS], sub, UINT64_MAX, &q->regs_address);
	/* root sees the memory where it is; a cell where it says */
	snprintf(sub, sizeof(sub), "%s.shmem", what);
	q->shmem_address = l->phys_start;
	if (ids[SHMEM])
		cy_opt_number(x, ids[SHMEM], sub, UINT64_MAX,
			      &q->shmem_address);
	else if (q->cell[0] && x->root_name &&
		 strncmp(q->cell, x->root_name, WARDEN_NAME_LEN))
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'shmem' is missing: a cell's peer says where "
			    "the "
			    "cell sees the link's memory (BAR 2); only the "
			    "root "
			    "cell's defaults to memory.phys",
			    what);
	snprintf(sub, sizeof(sub), "%s.vectors", what);
	v = 0;
	if (!ids[VECTORS])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'vectors' (1 to %d) is missing", what,
			    WARDEN_LINK_MAX_VECTORS);
	cy_opt_number(x, ids[VECTORS], sub, 0xff, &v);
	q->vectors = (uint8_t)v;
}

/* One link: {name, memory: {phys, size}, access, peers}. */
static void link(struct ctx *x, yaml_node_t *n, const char *what,
		 struct warden_link *l, struct cy_link_lines *ll)
{
	static const char *const keys[] = { "name", "memory", "access", "peers",
					    "doorbell_rate" };
	static const char *const mem_keys[] = { "phys", "size" };
	enum { NAME, MEMORY, ACCESS, PEERS, RATE, N };
	int ids[N], mem[2];
	unsigned int lines[N], mem_lines[2];
	yaml_node_t *peers, *item;
	uint32_t access;
	uint64_t rate;
	size_t i, count;
	char sub[96], peer_what[112];

	memset(l, 0, sizeof(*l));
	ll->link = cy_line_of(n);
	if (!cy_fields(x, n, what, keys, N, ids, lines))
		return;
	ll->name = lines[NAME];
	ll->memory = lines[MEMORY];
	ll->access = lines[ACCESS];
	ll->peers = lines[PEERS];
	if (!ids[NAME])
		cy_diag_add(x, cy_line_of(n), "%s: 'name' is missing", what);
	else if (!cy_text(cy_node(x, ids[NAME])) ||
		 cy_is_null(cy_node(x, ids[NAME])))
		cy_diag_add(x, lines[NAME], "%s.name: a name is needed", what);
	else
		name_field(cy_node(x, ids[NAME]), l->name);
	snprintf(sub, sizeof(sub), "%s.memory", what);
	if (!ids[MEMORY])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'memory' ({phys, size}: from the memmap= "
			    "reservation) is missing",
			    what);
	else if (cy_fields(x, cy_node(x, ids[MEMORY]), sub, mem_keys, 2, mem,
			   mem_lines)) {
		if (!mem[0] || !mem[1])
			cy_diag_add(x, lines[MEMORY],
				    "%s: 'phys' and 'size' are needed", sub);
		snprintf(sub, sizeof(sub), "%s.memory.phys", what);
		cy_opt_number(x, mem[0], sub, UINT64_MAX, &l->phys_start);
		snprintf(sub, sizeof(sub), "%s.memory.size", what);
		cy_opt_number(x, mem[1], sub, UINT64_MAX, &l->size);
	}
	snprintf(sub, sizeof(sub), "%s.access", what);
	if (!ids[ACCESS])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'access' (directional or read-write) is "
			    "missing",
			    what);
	else if (!cy_named_value(x, ids[ACCESS], sub, cv_link_access,
				 UINT32_MAX, &access))
		l->flags = access;
	snprintf(sub, sizeof(sub), "%s.doorbell_rate", what);
	rate = 0;
	cy_opt_number(x, ids[RATE], sub, 0xffff, &rate);
	l->doorbell_rate = (uint16_t)rate;
	peers = cy_node(x, ids[PEERS]);
	if (!peers || cy_is_null(peers)) {
		cy_diag_add(x, ids[PEERS] ? lines[PEERS] : cy_line_of(n),
			    "%s: 'peers' (a list of 2 to %d) is missing", what,
			    WARDEN_LINK_MAX_PEERS);
		return;
	}
	if (peers->type != YAML_SEQUENCE_NODE) {
		cy_diag_add(x, cy_line_of(peers),
			    "%s.peers must be a list (- item), not %s", what,
			    cy_kind_name(peers));
		return;
	}
	count = cy_items(peers);
	if (count > WARDEN_LINK_MAX_PEERS) {
		cy_diag_add(x, cy_line_of(peers),
			    "%s.peers: %zu peers, a link has 2 to %d", what,
			    count, WARDEN_LINK_MAX_PEERS);
		return;
	}
	l->num_peers = (uint16_t)count;
	for (i = 0; i < count; i++) {
		item = cy_item_of(x, peers, i);
		ll->peer[i] = cy_line_of(item);
		snprintf(peer_what, sizeof(peer_what), "%s.peers[%zu]", what,
			 i);
		link_peer(x, item, peer_what, l, &l->peers[i]);
	}
}

/* The top-level "links:" list of a system config. */
void cy_links(struct ctx *x, int id, unsigned int key_line)
{
	struct cy_config *c = x->c;
	yaml_node_t *n = cy_node(x, id), *item;
	size_t i, count;
	char what[32];

	c->links = key_line;
	if (!n || cy_is_null(n))
		return;
	if (n->type != YAML_SEQUENCE_NODE) {
		cy_diag_add(x, cy_line_of(n),
			    "links must be a list (- item), not %s",
			    cy_kind_name(n));
		return;
	}
	count = cy_items(n);
	if (count > 0xffff) {
		cy_diag_add(x, cy_line_of(n), "links: more than 65535");
		return;
	}
	x->links = calloc(count ? count : 1, sizeof(*x->links));
	c->link = calloc(count ? count : 1, sizeof(*c->link));
	if (!x->links || !c->link) {
		perror("warden");
		exit(2);
	}
	x->n_links = c->n_links = count;
	for (i = 0; i < count; i++) {
		item = cy_item_of(x, n, i);
		snprintf(what, sizeof(what), "links[%zu]", i);
		link(x, item, what, &x->links[i], &c->link[i]);
	}
}
