/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning error-channel records into sentences.
 *
 * Contract: warden_error_describe() writes one English sentence (no
 * trailing newline) explaining err into buf, naming the item, the rule and
 * the values involved; it never fails: an unknown rule is printed with its
 * number and raw values.  Returns buf.
 */
#ifndef WARDEN_TOOLS_ERRMSG_H
#define WARDEN_TOOLS_ERRMSG_H

#include <stddef.h>

#include <warden/error.h>

char *warden_error_describe(const struct warden_error *err, char *buf,
			    size_t len);

#endif /* WARDEN_TOOLS_ERRMSG_H */
