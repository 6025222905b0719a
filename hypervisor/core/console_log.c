// SPDX-License-Identifier: GPL-2.0
/*
 * The console's line store (contract in hv/console_log.h).
 *
 * A slot is written with its seq cleared first and set last, with release
 * order in between, so that a reader who finds the same nonzero seq
 * before and after copying a slot has a whole line.
 */
#include <hv/console_log.h>
#include <hv/format.h>
#include <hv/string.h>

void console_log_init(struct console_log *log, struct warden_hv_console *con)
{
	unsigned int s, first = WARDEN_CONSOLE_HV_LINES;

	memset(con, 0, sizeof(*con));
	memcpy(con->signature, WARDEN_CONSOLE_SIGNATURE,
	       sizeof(con->signature));
	con->lines = WARDEN_CONSOLE_LINES;
	memset(log, 0, sizeof(*log));
	log->con = con;
	for (s = 0; s < CONSOLE_NUM_SOURCES; s++) {
		struct console_source *src = &log->src[s];

		if (s == CONSOLE_SRC_HV) {
			src->first = 0;
			src->count = WARDEN_CONSOLE_HV_LINES;
			hv_format(src->name, sizeof(src->name), "hypervisor");
		} else {
			src->first = first;
			src->count = WARDEN_CONSOLE_CELL_LINES;
			first += WARDEN_CONSOLE_CELL_LINES;
			hv_format(src->name, sizeof(src->name), "cell %u",
				  s - 1);
		}
		src->repeat_slot = -1;
	}
}

static void clear_slot(struct warden_hv_console_line *l)
{
	__atomic_store_n(&l->seq, 0, __ATOMIC_RELEASE);
}

void console_log_reset_source(struct console_log *log, unsigned int source,
			      const char *name)
{
	struct console_source *src = &log->src[source];
	unsigned int i;

	for (i = 0; i < src->count; i++)
		clear_slot(&log->con->line[src->first + i]);
	src->next = 0;
	src->last_len = 0;
	src->repeats = 0;
	src->repeat_slot = -1;
	hv_format(src->name, sizeof(src->name), "%s", name);
}

/* Write one slot with a fresh seq (or the given one, when nonzero). */
static void write_slot(struct console_log *log, unsigned int slot,
		       unsigned int source, const char *text, size_t len,
		       u8 flags, u64 seq)
{
	struct warden_hv_console_line *l = &log->con->line[slot];
	size_t i;

	__atomic_store_n(&l->seq, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	l->source = source == CONSOLE_SRC_HV ? WARDEN_CONSOLE_SOURCE_HV
					     : (u16)(source - 1);
	l->len = (u8)len;
	l->flags = flags;
	for (i = 0; i < len; i++)
		l->text[i] = text[i];
	__atomic_store_n(&l->seq, seq ? seq : ++log->seq, __ATOMIC_RELEASE);
}

/* The next slot of source, taken. */
static unsigned int take_slot(struct console_source *src)
{
	unsigned int slot = src->first + src->next;

	src->next = (src->next + 1) % src->count;
	return slot;
}

size_t console_repeat_notice(const struct console_log *log, unsigned int source,
			     u64 n, char *buf, size_t size)
{
	int len = hv_format(buf, size,
			    "(%s: the line before repeated %llu "
			    "more time%s)",
			    log->src[source].name, (unsigned long long)n,
			    n == 1 ? "" : "s");

	return len < (int)size ? (size_t)len : size - 1;
}

/* Count one more repeat: the notice slot is taken once and then only
 * rewritten, keeping its place after the line it counts. */
static void count_repeat(struct console_log *log, unsigned int source)
{
	struct console_source *src = &log->src[source];
	char notice[WARDEN_CONSOLE_TEXT];
	size_t len;
	u64 seq = 0;

	src->repeats++;
	len = console_repeat_notice(log, source, src->repeats, notice,
				    sizeof(notice));
	if (src->repeat_slot < 0)
		src->repeat_slot = (int)take_slot(src);
	else
		seq = __atomic_load_n(&log->con->line[src->repeat_slot].seq,
				      __ATOMIC_RELAXED);
	write_slot(log, (unsigned int)src->repeat_slot, source, notice, len, 0,
		   seq);
}

unsigned int console_log_line(struct console_log *log, unsigned int source,
			      const char *text, size_t len, u64 *ended_run)
{
	struct console_source *src;
	unsigned int n = 0;
	size_t part;

	*ended_run = 0;
	if (source >= CONSOLE_NUM_SOURCES)
		return 0;
	src = &log->src[source];
	if (len && len == src->last_len && !memcmp(text, src->last, len)) {
		count_repeat(log, source);
		return 0;
	}
	*ended_run = src->repeats;
	src->repeats = 0;
	src->repeat_slot = -1;
	src->last_len = len <= CONSOLE_REPEAT_MAX ? (unsigned int)len : 0;
	if (src->last_len)
		memcpy(src->last, text, len);
	do {
		part = len > WARDEN_CONSOLE_TEXT ? WARDEN_CONSOLE_TEXT : len;
		write_slot(log, take_slot(src), source, text, part,
			   part < len ? WARDEN_LINE_CONTINUED : 0, 0);
		text += part;
		len -= part;
		n++;
	} while (len);
	return n;
}

unsigned int console_escape(u8 c, char out[4])
{
	static const char hex[] = "0123456789abcdef";

	if (c == '\\') {
		out[0] = out[1] = '\\';
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}
