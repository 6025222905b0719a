// SPDX-License-Identifier: GPL-2.0
/*
 * apic-demo: the local APIC timer in periodic mode, and how late its ticks
 * arrive.  Command line (all optional):
 *
 *   mode=x2apic|xapic   APIC mode (x2apic; xAPIC if x2APIC is missing)
 *   timer=periodic|deadline
 *                       the timer's mode (periodic)
 *   period=<us>         timer period in microseconds (1000)
 *   report=<ticks>      ticks per report line (1000)
 *
 * A tick is due when the timer reloads; the handler reads the TSC first
 * thing, then the current count: initial - current counts have passed since
 * the reload, so the tick was due at that TSC time minus those counts (by
 * the calibration against the TSC), and its lateness is the TSC at entry
 * minus that.  This holds however far the timer and the TSC drift apart.
 * Due times more than one period apart mean lost ticks (a tick that came
 * while the previous one was still pending): they are counted as missed.
 * Every report ticks:
 *
 *   apic-demo: x2apic ticks 1000 jitter min/avg/max 120/340/2100 ns \
 *   unexpected 0
 *
 * That estimate of the due time is only as good as the current-count read:
 * where the read exits to the hypervisor (an emulated x2APIC, a trapped
 * xAPIC page), the count is taken somewhere inside the exit, not halfway,
 * and the lateness is off by half the difference between the exit's path
 * before and after it (docs/bench.md).  With timer=deadline there is no
 * read: the timer fires when the TSC reaches a deadline the inmate armed,
 * so the lateness is the TSC at entry minus that deadline, exactly, and
 * the next deadline is one period after the last (deadlines already past
 * count as missed):
 *
 *   apic-demo: x2apic deadline ticks 1000 lateness min/avg/max \
 *   310/320/600 ns unexpected 0
 *
 * Between ticks the CPU sleeps (sti; hlt).  Shutdown requests in the comm
 * region: the first is denied, the second approved (timer stopped, cell
 * state SHUT_DOWN, halt); the approval says how many ticks came in all.
 */
#include <inmate.h>

#define TIMER_VECTOR 0x40

struct stats {
	uint64_t ticks, missed;
	int64_t min, max, sum;
};

static struct stats window, snapshot;
static uint64_t ticks_total; /* since start, said at shutdown */
static volatile bool snapshot_ready;
static uint64_t report_every, period_tsc, tsc_freq_khz, apic_freq_khz;
static uint64_t last_due, next_deadline;
static uint32_t initial_count;

static int64_t signed_tsc_to_ns(int64_t ticks)
{
	return ticks < 0 ? -(int64_t)tsc_ticks_to_ns(-ticks)
			 : (int64_t)tsc_ticks_to_ns(ticks);
}

/*
 * The TSC time the timer last reloaded: TSC and current count read
 * together (the count about halfway between the two TSC reads), minus the
 * counts since the reload.  A read that took long (the CPU was stopped in
 * between, e.g. by the emulator's host) is tried again, twice at most.
 */
static uint64_t timer_reload_tsc(void)
{
	uint64_t a, b;
	uint32_t current;
	int tries = 0;

	do {
		a = rdtsc();
		current = apic_read(APIC_TMCCT);
		b = rdtsc();
	} while (b - a > period_tsc / 16 && ++tries < 3);
	return a + (b - a) / 2 -
	       (uint64_t)(initial_count - current) * tsc_freq_khz /
		       apic_freq_khz;
}

/* One tick, late by late TSC ticks; missed ticks lost before it. */
static void record(int64_t late, uint64_t missed)
{
	int64_t ns = signed_tsc_to_ns(late);

	window.missed += missed;
	ticks_total++;
	if (!window.ticks || ns < window.min)
		window.min = ns;
	if (!window.ticks || ns > window.max)
		window.max = ns;
	window.sum += ns;
	if (++window.ticks == report_every) {
		snapshot = window;
		snapshot_ready = true;
		window = (struct stats){ 0 };
	}
}

static void timer_tick(unsigned int vector)
{
	uint64_t t1 = rdtsc(), due = timer_reload_tsc(), periods, missed = 0;

	(void)vector;
	/* a retried read may see a later reload: due times are a period
	 * apart, take the last one before the interrupt came */
	while ((int64_t)(due - t1) > (int64_t)(period_tsc / 8))
		due -= period_tsc;
	/* due times one period apart, unless ticks were lost */
	if (last_due) {
		periods = (due - last_due + period_tsc / 2) / period_tsc;
		if (periods > 1)
			missed = periods - 1;
	}
	last_due = due;
	record((int64_t)(t1 - due), missed);
	apic_eoi();
}

/* The timer fires at or after the deadline (SDM Vol. 3, 11.5.4.1). */
static void deadline_tick(unsigned int vector)
{
	uint64_t t1 = rdtsc(), periods = 1;

	(void)vector;
	if (t1 > next_deadline)
		periods += (t1 - next_deadline) / period_tsc;
	record((int64_t)(t1 - next_deadline), periods - 1);
	next_deadline += periods * period_tsc;
	apic_timer_deadline_arm(next_deadline);
	apic_eoi();
}

static void report(const char *mode, bool deadline)
{
	struct stats s = snapshot;

	snapshot_ready = false;
	irq_enable(); /* the timer goes on while the UART is slow */
	printk("apic-demo: %s%s ticks %lu %s min/avg/max %ld/%ld/%ld ns "
	       "unexpected %lu\n",
	       mode, deadline ? " deadline" : "", (unsigned long)s.ticks,
	       deadline ? "lateness" : "jitter", (long)s.min,
	       (long)(s.sum / (int64_t)s.ticks), (long)s.max,
	       irq_unexpected_count());
	if (s.missed)
		printk("apic-demo: %lu ticks missed\n",
		       (unsigned long)s.missed);
	irq_disable();
}

void inmate_main(void)
{
	const char *mode = cmdline_str("mode", "x2apic");
	const char *timer = cmdline_str("timer", "periodic");
	uint64_t period_us = cmdline_uint("period", 1000);
	unsigned int requests = 0;
	bool want_x2apic = true, withdrawn = true, deadline = false;

	report_every = cmdline_uint("report", 1000);
	if (!strcmp(mode, "xapic"))
		want_x2apic = false;
	else if (strcmp(mode, "x2apic"))
		printk("apic-demo: unknown mode=%s, using x2apic\n", mode);
	if (!report_every)
		report_every = 1;
	if (!strcmp(timer, "deadline"))
		deadline = true;
	else if (strcmp(timer, "periodic"))
		printk("apic-demo: unknown timer=%s, using periodic\n", timer);

	if (apic_init(want_x2apic) < 0) {
		printk("apic-demo: no local APIC\n");
		comm_set_state(WARDEN_CELL_FAILED);
		return;
	}
	if (want_x2apic && !apic_is_x2apic())
		printk("apic-demo: x2APIC not supported, using xAPIC\n");
	mode = apic_is_x2apic() ? "x2apic" : "xapic";
	printk("apic-demo: %s, APIC ID %u, TSC %u kHz, APIC timer %u kHz\n",
	       mode, apic_id(), tsc_khz(), apic_timer_khz());
	printk("apic-demo: period %lu us, report every %lu ticks\n",
	       (unsigned long)period_us, (unsigned long)report_every);

	if (deadline && !apic_timer_deadline_supported()) {
		printk("apic-demo: no TSC-deadline mode (CPUID.1:ECX[24]), "
		       "using periodic\n");
		deadline = false;
	}
	tsc_freq_khz = tsc_khz();
	if (deadline) {
		period_tsc = period_us * tsc_freq_khz / 1000;
		if (!period_tsc || period_us > 0xffffffff) {
			printk("apic-demo: cannot program a %lu us period\n",
			       (unsigned long)period_us);
			comm_set_state(WARDEN_CELL_FAILED);
			return;
		}
		printk("apic-demo: TSC-deadline mode\n");
		irq_set_handler(TIMER_VECTOR, deadline_tick);
		apic_timer_deadline(TIMER_VECTOR);
		/* interrupts are still disabled: no tick before this is set */
		next_deadline = rdtsc() + period_tsc;
		apic_timer_deadline_arm(next_deadline);
		goto run;
	}
	irq_set_handler(TIMER_VECTOR, timer_tick);
	if (period_us > 0xffffffff ||
	    apic_timer_periodic(period_us, TIMER_VECTOR) < 0) {
		printk("apic-demo: cannot program a %lu us period\n",
		       (unsigned long)period_us);
		comm_set_state(WARDEN_CELL_FAILED);
		return;
	}
	/* interrupts are still disabled: no tick before these are set */
	initial_count = apic_read(APIC_TMICT);
	apic_freq_khz = apic_timer_khz();
	period_tsc = (uint64_t)initial_count * tsc_freq_khz / apic_freq_khz;

run:
	for (;;) {
		if (snapshot_ready) {
			report(mode, deadline);
			continue;
		}
		/* after a denial, a new request only once it was withdrawn */
		if (!withdrawn &&
		    comm_poll_msg() != WARDEN_MSG_SHUTDOWN_REQUEST)
			withdrawn = true;
		if (withdrawn && comm_shutdown_requested()) {
			if (++requests == 1) {
				comm_handle_shutdown(false);
				withdrawn = false;
				irq_enable();
				printk("apic-demo: shutdown request 1 "
				       "denied\n");
				irq_disable();
				continue;
			}
			printk("apic-demo: shutdown request %u approved, "
			       "stopping after %lu ticks\n",
			       requests, (unsigned long)ticks_total);
			apic_timer_stop();
			comm_handle_shutdown(true);
			inmate_halt();
		}
		cpu_wait_for_interrupt(); /* sti; hlt */
		irq_disable();
	}
}
