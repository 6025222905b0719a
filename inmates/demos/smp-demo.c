// SPDX-License-Identifier: GPL-2.0
/*
 * smp-demo: the first CPU starts the cell's other CPUs; each prints
 *
 *   smp-demo: CPU <APIC ID> up
 *
 * and, once all are ready, sends one IPI (vector IPI_VECTOR) to every other
 * CPU and counts the ones it receives.  The CPUs send in turn, each once the
 * IPIs of the one before arrived: two IPIs of one vector that reach a CPU
 * before it took the first would merge into one interrupt.  The first CPU
 * waits until every IPI arrived (IPI_TIMEOUT_US at most) and prints
 *
 *   smp-demo: <n> CPUs, <k> IPIs sent, <k> received, unexpected 0
 *   smp-demo: done
 *
 * and reports SHUT_DOWN (FAILED, with "smp-demo: incomplete", if IPIs were
 * missing).  Command line: mode=x2apic|xapic (x2apic).
 */
#include <inmate.h>

#define IPI_VECTOR 0x50
#define IPI_TIMEOUT_US 1000000

static bool want_x2apic = true;
static uint32_t num_cpus; /* set by the first CPU; 0: not yet */
static uint32_t ready;	  /* CPUs that can take IPIs */
static uint32_t turn;	  /* index of the CPU to send next */
static uint32_t sent;	  /* IPIs, all CPUs */
static uint32_t received[INMATE_MAX_CPUS]; /* by CPU index */
static uint32_t apic_ids[INMATE_MAX_CPUS]; /* by CPU index */

static void ipi_handler(unsigned int vector)
{
	(void)vector;
	__atomic_fetch_add(&received[smp_cpu_index()], 1, __ATOMIC_SEQ_CST);
	apic_eoi();
}

static uint32_t load(uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* APIC on, the ID known, ready to take IPIs. */
static void cpu_up(unsigned int index)
{
	apic_init(want_x2apic);
	apic_ids[index] = apic_id();
	printk("smp-demo: CPU %u up\n", apic_ids[index]);
	__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST);
}

static uint32_t total_received(unsigned int n)
{
	uint32_t sum = 0;

	for (unsigned int i = 0; i < n; i++)
		sum += load(&received[i]);
	return sum;
}

/* With interrupts enabled: wait for this CPU's turn, send, pass it on. */
static void send_ipis(unsigned int index, unsigned int n)
{
	uint64_t start, timeout = (uint64_t)tsc_khz() * IPI_TIMEOUT_US / 1000;

	while (load(&turn) != index)
		cpu_relax();
	for (unsigned int i = 0; i < n; i++) {
		if (i == index)
			continue;
		apic_send_ipi(apic_ids[i], IPI_VECTOR);
		__atomic_fetch_add(&sent, 1, __ATOMIC_SEQ_CST);
	}
	start = rdtsc();
	while (total_received(n) < load(&sent) && rdtsc() - start < timeout)
		cpu_relax();
	__atomic_store_n(&turn, index + 1, __ATOMIC_SEQ_CST);
}

void inmate_ap_main(unsigned int cpu_index)
{
	unsigned int n;

	cpu_up(cpu_index);
	while (!(n = load(&num_cpus)) || load(&ready) < n)
		cpu_relax();
	irq_enable();
	/* a CPU that came up after the first one stopped waiting sits out */
	if (cpu_index < n)
		send_ipis(cpu_index, n);
	for (;;)
		cpu_wait_for_interrupt();
}

void inmate_main(void)
{
	struct warden_comm_region *comm = comm_region();
	const char *mode = cmdline_str("mode", "x2apic");
	uint64_t start, timeout = (uint64_t)tsc_khz() * IPI_TIMEOUT_US / 1000;
	unsigned int n, expected;
	bool complete;

	if (!strcmp(mode, "xapic"))
		want_x2apic = false;
	else if (strcmp(mode, "x2apic"))
		printk("smp-demo: unknown mode=%s, using x2apic\n", mode);
	irq_set_handler(IPI_VECTOR, ipi_handler);
	if (apic_init(want_x2apic) < 0) {
		printk("smp-demo: no local APIC\n");
		comm_set_state(WARDEN_CELL_FAILED);
		return;
	}
	if (want_x2apic && !apic_is_x2apic())
		printk("smp-demo: x2APIC not supported, using xAPIC\n");
	want_x2apic = apic_is_x2apic(); /* the same mode on every CPU */
	cpu_up(0);
	printk("smp-demo: %s, starting the other CPUs\n",
	       want_x2apic ? "x2apic" : "xapic");

	n = smp_start_cpus();
	if (comm && comm->num_cpus && n != comm->num_cpus)
		printk("smp-demo: %u of the cell's %u CPUs came up\n", n,
		       comm->num_cpus);
	__atomic_store_n(&num_cpus, n, __ATOMIC_SEQ_CST);

	start = rdtsc();
	while (load(&ready) < n && rdtsc() - start < timeout)
		cpu_relax();
	irq_enable();
	send_ipis(0, n);
	expected = n * (n - 1);
	while ((load(&sent) < expected || total_received(n) < expected) &&
	       rdtsc() - start < timeout)
		cpu_relax();
	irq_disable();

	complete = load(&sent) == expected && total_received(n) == expected;
	printk("smp-demo: %u CPUs, %u IPIs sent, %u received, unexpected %lu\n",
	       n, load(&sent), total_received(n), irq_unexpected_count());
	if (!complete) {
		printk("smp-demo: incomplete\n");
		comm_set_state(WARDEN_CELL_FAILED);
		return;
	}
	printk("smp-demo: done\n");
	comm_set_state(WARDEN_CELL_SHUT_DOWN);
}
