/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of tools/errmsg.c, private to its files.  Each family's
 * function appends the sentence of e's rule to buf and returns true, or
 * returns false (buf untouched) when the rule is not its family's.
 */
#ifndef WARDEN_TOOLS_ERRMSG_PARTS_H
#define WARDEN_TOOLS_ERRMSG_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include <warden/error.h>

/* Appends to buf like snprintf, never overflowing (errmsg.c). */
void errmsg_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A PCI function, domain << 16 | bdf, written as lspci does. */
void errmsg_pci_name(char *buf, size_t len, unsigned long long id);

bool errmsg_config(const struct warden_error *e, char *buf, size_t len);
bool errmsg_devices(const struct warden_error *e, char *buf, size_t len);
bool errmsg_links(const struct warden_error *e, char *buf, size_t len);
bool errmsg_system(const struct warden_error *e, char *buf, size_t len);

#endif /* WARDEN_TOOLS_ERRMSG_PARTS_H */
