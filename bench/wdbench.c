// SPDX-License-Identifier: GPL-2.0
/*
 * wdbench: the root-side measurements of `make bench` (bench/run.py).
 *
 *   insmod wdbench.ko
 *   taskset -c N sh -c 'echo alu > /sys/module/wdbench/parameters/run'
 *   cat /sys/module/wdbench/parameters/result      -> "alu 1253"
 *
 * A write to "run" measures in the writing task, so on the CPU it is
 * pinned to, and leaves "<name> <value>" in "result" ("<name> error ..."
 * when it could not measure).  Values are in TSC cycles times 100 (two
 * decimals as an integer), per iteration, load or operation:
 *   alu       a dependent ALU chain, interrupts on (what root's work pays)
 *   mem       64 MiB read with a 64-byte stride, interrupts on
 *   tlb       64 MiB read one load per 4 KiB page, interrupts on (nested
 *             paging cost: on real hardware; Bochs' TSC counts instructions)
 *   apic_read / apic_write   the local APIC's version register read and
 *             TPR write through Linux's apic_read/apic_write (xAPIC MMIO or
 *             x2APIC MSR, as Linux runs it), interrupts off
 *   cpuid     CPUID leaf 0, interrupts off
 *   ipi       smp_call_function_single() to the next online CPU, waiting
 *   hypercall Warden's HYPERVISOR_GET_INFO(ABI revision), which does
 *             nothing else: only with Warden enabled (else #UD)
 *   ns        not a measurement: Linux's monotonic clock in ns, to time
 *             shell commands
 *   idle S, idle-warden S   sleep S seconds in the kernel (no process starts inside the
 *             window) and report its length in ms and, with Warden
 *             enabled, every CPU's VM exits by reason in it, from Warden's
 *             counters: "idle <ms> <cpu>:<n0>,<n1>,... <cpu>:..." in
 *             WARDEN_STAT_* order
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/delay.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/processor.h>
#include <warden/hypercall.h>
#include <warden/stats.h>

#define BIG (64ul << 20)
#define OPS 2000

#define NSTATS WARDEN_NUM_STATS

static char result[1024];
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "the last measurement: <name> <cycles x 100>");

static u64 per_100(u64 cycles, u64 n)
{
	return n ? div64_u64(cycles * 100, n) : 0;
}

static u64 bench_alu(void)
{
	const u64 n = 2000000;
	u64 t0, t1, x = 1, i;

	t0 = rdtsc_ordered();
	for (i = 0; i < n; i++) {
		x = x * 3 + i;
		x ^= x >> 7;
		asm volatile("" : "+r"(x));
	}
	t1 = rdtsc_ordered();
	return per_100(t1 - t0, n);
}

/* Read buf with stride; the sum keeps the loads. */
static u64 bench_read(const u8 *buf, unsigned long stride, unsigned int passes)
{
	unsigned long off, loads = 0;
	unsigned int p;
	u64 t0, t1, sum = 0;

	t0 = rdtsc_ordered();
	for (p = 0; p < passes; p++)
		for (off = (p * 64) % stride; off < BIG; off += stride) {
			sum += READ_ONCE(buf[off]);
			loads++;
		}
	t1 = rdtsc_ordered();
	asm volatile("" : : "r"(sum));
	return per_100(t1 - t0, loads);
}

static u64 bench_memory(bool tlb, int *err)
{
	u8 *buf = vmalloc(BIG);
	u64 v;

	if (!buf) {
		*err = -ENOMEM;
		return 0;
	}
	memset(buf, 1, BIG); /* every page present before the clock starts */
	v = tlb ? bench_read(buf, 4096 + 64, 16) : bench_read(buf, 64, 1);
	vfree(buf);
	return v;
}

/* Cycles x 100 per execution of stmt, OPS times with interrupts off. */
#define TIME_OPS(stmt)                                                         \
	({                                                                     \
		unsigned long flags_;                                          \
		u64 t0_, t1_;                                                  \
		int i_;                                                        \
                                                                               \
		local_irq_save(flags_);                                        \
		t0_ = rdtsc_ordered();                                         \
		for (i_ = 0; i_ < OPS; i_++) {                                 \
			stmt;                                                  \
		}                                                              \
		t1_ = rdtsc_ordered();                                         \
		local_irq_restore(flags_);                                     \
		per_100(t1_ - t0_, OPS);                                       \
	})

static u64 bench_apic(bool write)
{
	u32 tpr = apic_read(APIC_TASKPRI), sum = 0;
	u64 v;

	if (write)
		v = TIME_OPS(apic_write(APIC_TASKPRI, tpr));
	else
		v = TIME_OPS(sum += apic_read(APIC_LVR));
	asm volatile("" : : "r"(sum));
	return v;
}

static u64 bench_cpuid(void)
{
	unsigned int a, b, c, d;

	return TIME_OPS(cpuid(0, &a, &b, &c, &d));
}

static void nothing(void *unused)
{
}

static u64 bench_ipi(int *err)
{
	unsigned int self = get_cpu(),
		     target = cpumask_next(self, cpu_online_mask);
	const int n = 500;
	u64 t0, t1;
	int i;

	put_cpu();
	if (target >= nr_cpu_ids)
		target = cpumask_first(cpu_online_mask);
	if (target == self) {
		*err = -ENODEV;
		return 0;
	}
	t0 = rdtsc_ordered();
	for (i = 0; i < n && !*err; i++)
		*err = smp_call_function_single(target, nothing, NULL, 1);
	t1 = rdtsc_ordered();
	return per_100(t1 - t0, n);
}

/* WARDEN_HC_INSN_*: this CPU vendor's hypercall instruction, chosen at
 * module init (<warden/hypercall.h>). */
static unsigned int hc_insn;

static long hypercall(unsigned long code, unsigned long arg1,
		      unsigned long arg2)
{
	return warden_hypercall_with(hc_insn, code, arg1, arg2);
}

/* The cheapest hypercall there is: the ABI revision. */
static u64 bench_hypercall(void)
{
	return TIME_OPS(hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
				  WARDEN_INFO_ABI_REVISION, 0));
}

/* Every online CPU's exit counters (up to 8 CPUs). */
static void read_exits(u64 (*n)[NSTATS])
{
	unsigned int cpu, k;

	for_each_online_cpu (cpu)
		for (k = 0; k < NSTATS && cpu < 8; k++)
			n[cpu][k] = hypercall(WARDEN_HC_CPU_GET_INFO, cpu,
					      WARDEN_CPU_INFO_STAT_BASE + k);
}

static void bench_idle(unsigned int secs, bool warden)
{
	static u64 a[8][NSTATS], b[8][NSTATS];
	unsigned int cpu, k;
	size_t len;
	u64 t0, t1;

	if (warden)
		read_exits(a);
	t0 = ktime_get_ns();
	msleep(secs * 1000);
	t1 = ktime_get_ns();
	if (warden)
		read_exits(b);
	len = scnprintf(result, sizeof(result), "idle %llu",
			div64_u64(t1 - t0, 1000000));
	for_each_online_cpu (cpu) {
		if (!warden || cpu >= 8)
			break;
		len += scnprintf(result + len, sizeof(result) - len,
				 " %u:", cpu);
		for (k = 0; k < NSTATS; k++)
			len += scnprintf(result + len, sizeof(result) - len,
					 "%s%llu", k ? "," : "",
					 b[cpu][k] - a[cpu][k]);
	}
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	char name[32];
	unsigned int secs;
	int err = 0;
	u64 v;

	if (sscanf(val, "%31s", name) != 1)
		return -EINVAL;
	if (sscanf(val, "idle %u", &secs) == 1 ||
	    sscanf(val, "idle-warden %u", &secs) == 1) {
		if (!secs || secs > 600)
			return -EINVAL;
		bench_idle(secs, !strncmp(val, "idle-warden", 11));
		return 0;
	}
	if (!strcmp(name, "alu"))
		v = bench_alu();
	else if (!strcmp(name, "mem"))
		v = bench_memory(false, &err);
	else if (!strcmp(name, "tlb"))
		v = bench_memory(true, &err);
	else if (!strcmp(name, "apic_read"))
		v = bench_apic(false);
	else if (!strcmp(name, "apic_write"))
		v = bench_apic(true);
	else if (!strcmp(name, "cpuid"))
		v = bench_cpuid();
	else if (!strcmp(name, "ipi"))
		v = bench_ipi(&err);
	else if (!strcmp(name, "hypercall"))
		v = bench_hypercall();
	else if (!strcmp(name, "ns"))
		v = ktime_get_ns();
	else
		return -EINVAL;
	if (err)
		snprintf(result, sizeof(result), "%s error %d", name, err);
	else
		snprintf(result, sizeof(result), "%s %llu", name, v);
	return 0;
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
};
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "measure: alu mem tlb apic_read apic_write cpuid ipi "
		      "hypercall ns, idle S, idle-warden S");

static int __init wdbench_init(void)
{
	hc_insn = warden_hypercall_insn();
	return 0;
}

static void __exit wdbench_exit(void)
{
}

module_init(wdbench_init);
module_exit(wdbench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Warden benchmark helper");
