/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store behind the hypervisor console (struct warden_hv_console in
 * include/warden/hvheader.h): lines in slots divided by source, so that
 * no source can push out another's lines, repeated lines counted instead
 * of stored, and the escaping that keeps a guest's bytes from looking
 * like anything but its own output.
 *
 * Plain C without hardware access or locking (the caller serialises),
 * also compiled into the unit tests.
 */
#ifndef WARDEN_HV_CONSOLE_LOG_H
#define WARDEN_HV_CONSOLE_LOG_H

#include <warden/hvheader.h>

#include "types.h"

/* Sources: the hypervisor, then one per cell id. */
#define CONSOLE_SRC_HV 0
#define CONSOLE_SRC_CELL(id) (1 + (id))
#define CONSOLE_NUM_SOURCES (1 + WARDEN_CONSOLE_SOURCES)
/* Longest line compared for repeats (longer ones are never repeats). */
#define CONSOLE_REPEAT_MAX 240

struct console_source {
	unsigned int first, count; /* its slots */
	unsigned int next;	   /* the next slot to write, from first */
	char name[48];		   /* how the repeat notice names it */
	char last[CONSOLE_REPEAT_MAX];
	unsigned int last_len; /* 0: no line to compare with */
	u64 repeats;	       /* times the last line came again */
	int repeat_slot;       /* the slot of the repeat notice, or -1 */
};

struct console_log {
	struct warden_hv_console *con;
	u64 seq; /* of the last slot written */
	struct console_source src[CONSOLE_NUM_SOURCES];
};

/* Empty con and start numbering lines from 1. */
void console_log_init(struct console_log *log, struct warden_hv_console *con);

/* A source changes hands (a new cell takes the id): its slots are
 * emptied and name is how it is called from now on. */
void console_log_reset_source(struct console_log *log, unsigned int source,
			      const char *name);

/*
 * Store one line (text[0..len), printable, no newline) for source.
 * Returns the number of slots written, 0 if it repeated the source's
 * previous line and was only counted.  *ended_run receives the count of a
 * run of repeats this line ended (0 if none), for outputs that print each
 * line once, such as a UART.
 */
unsigned int console_log_line(struct console_log *log, unsigned int source,
			      const char *text, size_t len, u64 *ended_run);

/* Format the repeat notice of source for n repeats into buf; its length. */
size_t console_repeat_notice(const struct console_log *log, unsigned int source,
			     u64 n, char *buf, size_t size);

/*
 * A guest's byte as it appears on the console: printable ASCII stays
 * (a backslash doubled), anything else becomes \xNN.  Writes at most 4
 * bytes to out and returns how many.  Newlines are the caller's business.
 */
unsigned int console_escape(u8 c, char out[4]);

#endif /* WARDEN_HV_CONSOLE_LOG_H */
