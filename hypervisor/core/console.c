// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor console (contracts in hv/printk.h): lines go to the store
 * root reads (console_log.c) and to the debug console.
 *
 * A cell's CPU never waits for the UART.  A polled UART at 115200 baud
 * takes about 9 ms a line (Bochs emulates the same delay), so a line
 * written on the CPU that raised it stalled a real-time cell that long: a
 * Linux cell's first use of a port (the access log's line) showed as a
 * 6.4 ms wakeup in its cyclictest.  Every line therefore goes to the store
 * and to a queue for the UART, under a lock held only for that copy; a
 * root CPU writes the queue to the UART: at once when the line is its
 * own, and on a cell's line after a console request (arch_console_kick: an
 * NMI, not waited for).  Root's CPUs pay the UART's time, cells' share of
 * it bounded by their budget (a burst of UART_BURST lines, then
 * UART_PER_SECOND a second).  What exceeds the budget or the queue stays
 * in the store, and the UART says how many lines it missed.
 *
 * The locks' waits are bounded: a CPU that stopped while holding one (a
 * lost CPU) must not silence or hang the others, so after CONSOLE_LOCK_MS
 * a writer goes on as if it held the store's lock, and a drain takes the
 * UART from a holder that kept it longer than UART_HOLD_MS.
 */
#include <hv/arch.h>
#include <hv/console_log.h>
#include <hv/format.h>
#include <hv/hypervisor.h>
#include <hv/percpu.h>
#include <hv/printk.h>
#include <hv/spinlock.h>
#include <hv/string.h>

#define CONSOLE_LOCK_MS 200
#define UART_HOLD_MS 2000 /* more than UART_QUEUE lines at 9 ms each */
#define UART_BURST 32
#define UART_PER_SECOND 16
#define LINE_MAX 256
#define UART_QUEUE 32

static spinlock_t console_lock;
static struct console_log log;
static bool log_ready;

/* Lines for the UART, oldest at q_head; under console_lock. */
static struct {
	u16 len;
	char text[LINE_MAX];
} queue[UART_QUEUE];
static unsigned int q_head, q_count;
static u64 q_missed; /* lines over a cell's budget or the queue's room */

/* The UART's writer: 1 while a CPU writes the queue to it, and since when. */
static u32 uart_owner;
static u64 uart_taken;

/* The UART budget of each cell source. */
static struct {
	u64 refilled; /* TSC of the last refill */
	u32 tokens;
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

/* Queue one line for the UART (console_lock held). */
static void uart_line(const char *text, size_t len)
{
	unsigned int slot;

	if (q_count == UART_QUEUE) {
		q_missed++;
		return;
	}
	slot = (q_head + q_count++) % UART_QUEUE;
	if (len > LINE_MAX)
		len = LINE_MAX;
	memcpy(queue[slot].text, text, len);
	queue[slot].len = (u16)len;
}

/* Take the oldest queued line into out (console_lock taken here). */
static bool uart_pop(char *out, size_t *len, u64 *missed)
{
	bool got = false;

	lock_bounded();
	*missed = q_missed;
	q_missed = 0;
	if (q_count) {
		*len = queue[q_head].len;
		memcpy(out, queue[q_head].text, *len);
		q_head = (q_head + 1) % UART_QUEUE;
		q_count--;
		got = true;
	}
	spin_unlock(&console_lock);
	return got;
}

static bool uart_take(void)
{
	const u32 me = 1;
	u32 none = 0, held;
	u64 now = arch_timestamp();

	if (__atomic_compare_exchange_n(&uart_owner, &none, me, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		__atomic_store_n(&uart_taken, now, __ATOMIC_RELAXED);
		return true;
	}
	/* a writer that stopped with the UART must not silence it */
	held = none;
	if (now - __atomic_load_n(&uart_taken, __ATOMIC_RELAXED) <
		    tsc_per_ms() * UART_HOLD_MS ||
	    !__atomic_compare_exchange_n(&uart_owner, &held, me, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&uart_taken, now, __ATOMIC_RELAXED);
	return true;
}

void console_drain(void)
{
	char text[LINE_MAX], notice[64];
	size_t len = 0;
	u64 missed;
	int n;

	do {
		if (!uart_take())
			return; /* the writer will see our lines */
		while (uart_pop(text, &len, &missed)) {
			if (missed) {
				n = hv_format(notice, sizeof(notice),
					      "(%llu lines only in the console "
					      "store: warden console)",
					      (unsigned long long)missed);
				arch_console_write(notice, (size_t)n);
				arch_console_write("\n", 1);
			}
			arch_console_write(text, len);
			arch_console_write("\n", 1);
		}
		__atomic_store_n(&uart_owner, 0, __ATOMIC_RELEASE);
		/* a line queued after the last look found the UART taken */
	} while (__atomic_load_n(&q_count, __ATOMIC_ACQUIRE));
}

/* After lines were queued: a cell's CPU asks root to write them. */
static void uart_deliver(void)
{
	unsigned int id;

	for (id = 1; id < HV_MAX_CELLS; id++)
		if (hv.cells[id]) {
			if (this_cpu()->cell != &hv.root) {
				arch_console_kick();
				return;
			}
			break;
		}
	console_drain();
}

/* May a line of cell source id go to the UART now? */
static bool uart_budget(unsigned int id)
{
	u64 now = arch_timestamp();
	u64 per_line = tsc_per_ms() * 1000 / UART_PER_SECOND, add;

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
		q_missed++; /* said on the UART before its next line */
		return false;
	}
	budget[id].tokens--;
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
	uart_deliver();
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
	uart_deliver();
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
