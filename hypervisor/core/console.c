// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor console (contracts in hv/printk.h): lines go to the store
 * root reads (console_log.c) and to the debug console.
 *
 * One lock serialises both, so that lines do not mix on the UART.  Taking
 * it is bounded: a CPU that stopped while holding it (a lost CPU) must not
 * silence or hang the others, so after CONSOLE_LOCK_MS a writer goes on as
 * if it held the lock.
 *
 * Cells' lines reach the UART within a budget (a burst of UART_BURST
 * lines, then UART_PER_SECOND a second): a polled UART at 115200 baud
 * takes about 9 ms a line, and a flooding guest must not make every other
 * CPU wait for the lock that long.  What exceeds the budget stays in the
 * store, and the UART says how many lines it missed.
 */
#include <hv/arch.h>
#include <hv/console_log.h>
#include <hv/format.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/spinlock.h>
#include <hv/string.h>

#define CONSOLE_LOCK_MS 200
#define UART_BURST 32
#define UART_PER_SECOND 16
#define LINE_MAX 256

static spinlock_t console_lock;
static struct console_log log;
static bool log_ready;

/* The UART budget of each cell source. */
static struct {
	u64 refilled; /* TSC of the last refill */
	u32 tokens;
	u64 missed; /* lines not shown on the UART since the last one */
} budget[WARDEN_CONSOLE_SOURCES];

static u64 tsc_per_ms(void)
{
	return hv.header && hv.header->tsc_khz ? hv.header->tsc_khz : 1000000;
}

static void lock_bounded(void)
{
	u64 start = arch_timestamp(), limit = tsc_per_ms() * CONSOLE_LOCK_MS;

	while (!spin_trylock(&console_lock))
		if (arch_timestamp() - start > limit)
			return; /* the holder is gone: go on without it */
}

void console_init(void *store)
{
	console_log_init(&log, store);
	log_ready = true;
}

static void uart_line(const char *text, size_t len)
{
	arch_console_write(text, len);
	arch_console_write("\n", 1);
}

/* May a line of cell source id go to the UART now? */
static bool uart_budget(unsigned int id)
{
	u64 now = arch_timestamp();
	u64 per_line = tsc_per_ms() * 1000 / UART_PER_SECOND, add;
	char notice[80];
	int n;

	if (!budget[id].refilled) {
		budget[id].tokens = UART_BURST;
		budget[id].refilled = now;
	}
	add = (now - budget[id].refilled) / per_line;
	if (add) {
		budget[id].tokens = add >= UART_BURST ? UART_BURST
				    : budget[id].tokens + (u32)add > UART_BURST
					    ? UART_BURST
					    : budget[id].tokens + (u32)add;
		budget[id].refilled += add * per_line;
	}
	if (!budget[id].tokens) {
		budget[id].missed++;
		return false;
	}
	budget[id].tokens--;
	if (budget[id].missed) {
		n = hv_format(notice, sizeof(notice),
			      "(%llu lines of cell %u only in the console "
			      "store: warden console)",
			      (unsigned long long)budget[id].missed, id);
		uart_line(notice, (size_t)n < sizeof(notice)
					  ? (size_t)n
					  : sizeof(notice) - 1);
		budget[id].missed = 0;
	}
	return true;
}

/* One line of source, under the lock. */
static void emit(unsigned int source, const char *text, size_t len)
{
	char notice[WARDEN_CONSOLE_TEXT];
	u64 ended = 0;
	unsigned int stored = 1;
	bool cell = source != CONSOLE_SRC_HV;

	if (log_ready && len)
		stored = console_log_line(&log, source, text, len, &ended);
	if (!stored)
		return; /* a repeat: counted in the store */
	if (cell && !uart_budget(source - 1))
		return;
	if (ended)
		uart_line(notice,
			  console_repeat_notice(&log, source, ended, notice,
						sizeof(notice)));
	uart_line(text, len);
}

/* Format, then emit line by line. */
static void vlog(unsigned int source, const char *prefix, const char *fmt,
		 va_list ap)
{
	char buf[LINE_MAX];
	size_t start = 0, i, len;
	int n;

	n = hv_format(buf, sizeof(buf), "%s", prefix);
	n += hv_vformat(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	len = n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
	lock_bounded();
	for (i = 0; i <= len; i++)
		if (i == len || buf[i] == '\n') {
			if (i > start || buf[i] == '\n')
				emit(source, buf + start, i - start);
			start = i + 1;
		}
	spin_unlock(&console_lock);
}

void printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(CONSOLE_SRC_HV, "", fmt, ap);
	va_end(ap);
}

void cell_printk(const struct cell *cell, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(CONSOLE_SRC_CELL(cell->id), "", fmt, ap);
	va_end(ap);
}

void console_cell_reset(const struct cell *cell)
{
	char name[48];

	hv_format(name, sizeof(name), "cell %u \"%s\"", cell->id,
		  cell->config->name);
	lock_bounded();
	console_log_reset_source(&log, CONSOLE_SRC_CELL(cell->id), name);
	budget[cell->id].refilled = 0;
	budget[cell->id].missed = 0;
	spin_unlock(&console_lock);
}

void console_cell_flush(struct per_cpu *pc)
{
	char line[WARDEN_NAME_LEN + 3 + sizeof(pc->out_line)];
	size_t n = 0, i;
	const char *name = pc->cell->config->name;

	if (!pc->out_len)
		return;
	/* "[name] text": no line of the hypervisor's starts with '[' */
	line[n++] = '[';
	for (i = 0; name[i] && i < WARDEN_NAME_LEN; i++)
		line[n++] = name[i];
	line[n++] = ']';
	line[n++] = ' ';
	for (i = 0; i < pc->out_len; i++)
		line[n++] = pc->out_line[i];
	pc->out_len = 0;
	lock_bounded();
	emit(CONSOLE_SRC_CELL(pc->cell->id), line, n);
	spin_unlock(&console_lock);
}

void console_cell_putc(struct per_cpu *pc, u8 c)
{
	char esc[4];
	unsigned int n, i;

	if (c == '\n') {
		/* an empty line is kept: a cell may print one */
		if (!pc->out_len)
			pc->out_line[pc->out_len++] = ' ';
		console_cell_flush(pc);
		return;
	}
	if (c == '\r')
		return; /* line ends are the console's business */
	n = console_escape(c, esc);
	if (pc->out_len + n > sizeof(pc->out_line))
		console_cell_flush(pc);
	for (i = 0; i < n; i++)
		pc->out_line[pc->out_len++] = esc[i];
}
