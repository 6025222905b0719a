// SPDX-License-Identifier: GPL-2.0
/*
 * Root reads the hypervisor console: the ring of lines it writes in its
 * memory (struct warden_hv_console), the pages Linux may still read once
 * Warden is enabled.  read() on /dev/warden and the console attribute
 * (main.c) come here.
 */
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <warden/hvheader.h>

#include "hv_state.h"
#include "warden-driver.h"

/*
 * The hypervisor console (struct warden_hv_console): lines in slots,
 * numbered by seq.  The slot with the lowest seq at or after pos, copied
 * whole into *line (the hypervisor may rewrite a slot while it is read:
 * its seq changes then, and it is read again), or 0 if there is none.
 */
static u64 console_next(const struct warden_hv_console *con, u64 pos,
			struct warden_hv_console_line *line)
{
	unsigned int i, best, tries;
	u64 seq, best_seq;

	for (tries = 0; tries < 8; tries++) {
		best_seq = 0;
		best = 0;
		for (i = 0; i < WARDEN_CONSOLE_LINES; i++) {
			seq = smp_load_acquire(&con->line[i].seq);
			if (seq >= pos && seq &&
			    (!best_seq || seq < best_seq)) {
				best_seq = seq;
				best = i;
			}
		}
		if (!best_seq)
			return 0;
		memcpy(line, &con->line[best], sizeof(*line));
		smp_rmb();
		if (READ_ONCE(con->line[best].seq) == best_seq &&
		    line->seq == best_seq)
			return best_seq;
	}
	return 0;
}

/* Append line to buf (len bytes, n used): false if it does not fit. */
static bool console_put(char *buf, size_t len, size_t *n,
			const struct warden_hv_console_line *line)
{
	size_t need = min_t(size_t, line->len, WARDEN_CONSOLE_TEXT) +
		      !(line->flags & WARDEN_LINE_CONTINUED);

	if (*n + need > len)
		return false;
	memcpy(buf + *n, line->text,
	       need - !(line->flags & WARDEN_LINE_CONTINUED));
	*n += need;
	if (!(line->flags & WARDEN_LINE_CONTINUED))
		buf[*n - 1] = '\n';
	return true;
}

ssize_t wd_console_read(char *buf, size_t len, u64 *pos)
{
	struct warden_hv_console_line line;
	const struct warden_hv_console *con;
	size_t n = 0;
	u64 seq;

	mutex_lock(&wd_lock);
	if (!wd.enabled || !wd.console_offset) {
		mutex_unlock(&wd_lock);
		return -ENODEV;
	}
	con = wd.hv_mem + wd.console_offset;
	while ((seq = console_next(con, *pos, &line)) &&
	       console_put(buf, len, &n, &line))
		*pos = seq + 1;
	mutex_unlock(&wd_lock);
	return n;
}

ssize_t wd_console_tail(char *buf, size_t len)
{
	struct warden_hv_console_line line;
	const struct warden_hv_console *con;
	u64 pos = 0, seq, start = 0;
	size_t total = 0, n = 0;
	u64 *lens;
	unsigned int count = 0, i;

	lens = kcalloc(WARDEN_CONSOLE_LINES, sizeof(*lens) * 2, GFP_KERNEL);
	if (!lens)
		return -ENOMEM;
	mutex_lock(&wd_lock);
	if (!wd.enabled || !wd.console_offset) {
		mutex_unlock(&wd_lock);
		kfree(lens);
		return -ENODEV;
	}
	con = wd.hv_mem + wd.console_offset;
	/* the seqs and lengths, oldest first; then the newest that fit */
	while (count < WARDEN_CONSOLE_LINES &&
	       (seq = console_next(con, pos, &line))) {
		lens[2 * count] = seq;
		lens[2 * count + 1] = line.len + 1;
		count++;
		pos = seq + 1;
	}
	for (i = count; i > 0 && total + lens[2 * (i - 1) + 1] <= len; i--) {
		total += lens[2 * (i - 1) + 1];
		start = lens[2 * (i - 1)];
	}
	pos = start;
	while (start && (seq = console_next(con, pos, &line)) &&
	       console_put(buf, len, &n, &line))
		pos = seq + 1;
	mutex_unlock(&wd_lock);
	kfree(lens);
	return n;
}
