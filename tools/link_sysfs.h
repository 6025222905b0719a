/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The links as warden.ko lists them while Warden is enabled, one
 * directory each, <sysfs>/kernel/warden/links/<name>/:
 *
 *   index       its place in the system config ("0")
 *   memory      "<phys> <size>" in hex ("0x33c00000 0x100000")
 *   access      "directional" or "read-write"
 *   local_peer  root's peer index, or -1 when root is not a peer
 *   device      "/dev/warden-link-<name>", or "-"
 *   netdev      root's net interface ("wl-<name>"), or "-"
 *   peers       a line per peer:
 *               "<index> <cell> <bb:dd.f> <vectors> <present|absent>
 *               <up|down>"
 *
 * (every file ends with a newline).  Reading and parsing them, and the
 * table "warden link list" prints.  sysfs is "/sys", or a directory of
 * fake files in the unit tests.
 */
#ifndef WARDEN_TOOLS_LINK_SYSFS_H
#define WARDEN_TOOLS_LINK_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <warden/link.h>

#define LINK_SYSFS "/sys"

struct link_peer_state {
	unsigned int index;
	char cell[WARDEN_NAME_LEN]; /* as the driver prints it */
	char bdf[16];		    /* "00:10.0" */
	unsigned int vectors;
	bool present; /* root, or its cell exists */
	bool up;      /* its STATE register is not 0 */
};

struct link_state {
	char name[WARDEN_NAME_LEN]; /* the directory's name */
	unsigned int index;
	uint64_t phys, size;
	char access[16];
	int local_peer;	 /* root's peer index, -1: root is not a peer */
	char device[96]; /* "-" when none */
	char netdev[24]; /* "-" when none */
	unsigned int n_peers;
	struct link_peer_state peers[WARDEN_LINK_MAX_PEERS];
};

/* "<phys> <size>\n" (hexadecimal, 0x optional): 0 or -1. */
int link_parse_memory(const char *text, uint64_t *phys, uint64_t *size);

/*
 * The peers file into l->peers and l->n_peers.  A cell name may hold
 * blanks: the fields after it are taken from the end of the line.
 * Returns 0, or the 1-based number of the first line that is not a peer
 * (a blank last line is none).
 */
int link_parse_peers(const char *text, struct link_state *l);

/*
 * Is Warden enabled, as <sysfs>/kernel/warden/enabled says: 1, 0, or
 * -ENOENT when there is no such file (the driver is not loaded).
 */
int link_enabled(const char *sysfs);

/*
 * Every link of <sysfs>/kernel/warden/links, sorted by index, into
 * *out (malloc'ed, the caller frees it; NULL when there are none) and
 * *n.  Returns 0; -ENOENT when the directory does not exist; another
 * negative errno with the file at fault and why in err.
 */
int link_read_all(const char *sysfs, struct link_state **out, size_t *n,
		  char *err, size_t errlen);

/* The table of "warden link list": a row per peer, the link's name,
 * memory and access on its first; root's device and net interface on
 * root's row. */
void link_print_table(FILE *out, const struct link_state *links, size_t n);

/* The same as one JSON array ("warden link list --json"): a link per
 * element, its peers in "peers". */
void link_print_json(FILE *out, const struct link_state *links, size_t n);

#endif /* WARDEN_TOOLS_LINK_SYSFS_H */
