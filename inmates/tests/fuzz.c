// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: random but seeded attempts to hand the hypervisor guest state it
 * must check, from inside a cell (docs/inmates.md, "fuzz").
 *
 * Command line: seed=S first=N count=C risky=R.  Attempt n draws its kind
 * and values from a generator seeded with (S, n) alone, so any attempt can
 * be replayed by itself with first=n count=1.  Most kinds are survivable:
 * the cell catches the exception a refused value raises (exception_catch)
 * and puts back what it changed.  One attempt in R (default 100) is risky:
 * a port, an address, an MSR, an IPI outside the cell or an LVT whose
 * delivery mode would reach outside it (SMI, INIT, ExtINT), which must fail
 * the cell; the attempt is announced on the console first, with how many
 * attempts of this run raised an exception so far.  kinds=M (a bit
 * mask, default all) skips the survivable kinds whose bit is clear.
 *
 * Progress goes to the page at FUZZ_PROGRESS (the cell config maps it
 * shared with root), written before every attempt, so that root can tell
 * where a run stopped even when the console cannot: struct fuzz_progress.
 * At the end the cell reports itself shut down.
 */
#include <inmate.h>

#define FUZZ_PROGRESS 0x200000ul
#define FUZZ_MAGIC 0x474f525050595a46ull /* "FZYPPROG" */

struct fuzz_progress {
	uint64_t magic;
	uint64_t seed;
	uint64_t attempt;  /* the one under way */
	uint64_t survived; /* attempts of this run completed */
	uint64_t caught;   /* of them, how many raised an exception */
	uint64_t done;	   /* 1 once the run is over */
	uint64_t kind;	   /* of the attempt under way */
};

#define CR0_CD (1ull << 30)
#define CR0_NW (1ull << 29)
#define CR4_VMXE (1ull << 13)
#define CR4_OSXSAVE (1ull << 18)
#define MSR_IA32_PAT 0x277
#define MSR_TSC_AUX 0xc0000103
#define MSR_APIC_BASE_NR 0x1b
#define MSR_X2APIC_ICR 0x830
#define APIC_BASE_EXTD (1ull << 10)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static struct fuzz_progress *const progress =
	(struct fuzz_progress *)FUZZ_PROGRESS;
static uint64_t rng;

/* xorshift64*: fast and plenty for choosing values */
static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n)
{
	return n ? next() % n : 0;
}

/* A 64-bit value of an interesting shape: small, one bit, all ones, a
 * canonical or a non-canonical address, or plain random. */
static uint64_t value(void)
{
	switch (below(6)) {
	case 0:
		return below(256);
	case 1:
		return 1ull << below(64);
	case 2:
		return ~0ull >> below(64);
	case 3:
		return 0xffff800000000000ull | next();
	case 4:
		return next() & 0x0000ffffffffffffull;
	}
	return next();
}

/* What an attempt changes and puts back. */
static struct {
	uint64_t cr0, cr4;
	uint64_t msr;
	uint64_t msr_value;
	uint64_t arg;
} a;

static void try_cr0(void *unused)
{
	(void)unused;
	write_cr0(a.arg);
}

static void try_cr4(void *unused)
{
	(void)unused;
	write_cr4(a.arg);
}

static void try_xsetbv(void *unused)
{
	(void)unused;
	xsetbv((uint32_t)(a.arg >> 60 == 0xf), a.arg & ~(0xfull << 60));
}

static void try_wrmsr(void *unused)
{
	(void)unused;
	wrmsr((uint32_t)a.msr, a.arg);
}

static void try_rdmsr(void *unused)
{
	(void)unused;
	a.msr_value = rdmsr((uint32_t)a.msr);
}

static void put_back_msr(void *unused)
{
	(void)unused;
	wrmsr((uint32_t)a.msr, a.msr_value);
}

/* CR0: flip some of the bits a guest may flip, NE always or never (so that
 * the write exits, or the hardware checks it), now and then a reserved
 * bit. */
static int attempt_cr0(void)
{
	static const uint64_t flips[] = { 1ull << 1,  1ull << 3,  1ull << 5,
					  1ull << 16, 1ull << 18, CR0_CD,
					  CR0_NW,     1ull << 0,  1ull << 31 };
	uint64_t v = read_cr0();
	unsigned int i, n = 1 + (unsigned int)below(3);
	int r;

	for (i = 0; i < n; i++)
		v ^= flips[below(ARRAY_LEN(flips))];
	if (below(4) == 0)
		v |= 1ull << (6 + below(58));
	a.arg = v;
	r = exception_catch(try_cr0, NULL);
	write_cr0(a.cr0);
	return r;
}

static int attempt_cr4(void)
{
	uint64_t v = read_cr4() ^ (1ull << below(32));
	int r;

	if (below(2))
		v ^= CR4_VMXE; /* makes the write exit */
	if (below(8) == 0)
		v |= 1ull << (32 + below(32));
	a.arg = v;
	r = exception_catch(try_cr4, NULL);
	write_cr4(a.cr4);
	return r;
}

static int attempt_xsetbv(void)
{
	/* random subsets of the 19 user bits, rarely a high bit or XCR1 */
	uint64_t v = next() & 0x7ffff;
	int r;

	if (below(4))
		v &= 0x2ff;
	if (below(16) == 0)
		v |= 1ull << below(60);
	if (below(32) == 0)
		v |= 0xfull << 60; /* XCR1 */
	a.arg = v;
	r = exception_catch(try_xsetbv, NULL);
	xsetbv(0, 1);
	return r;
}

/* The MSRs a cell may write (the hypervisor's allow-list for cells, and
 * IA32_APIC_BASE, which it emulates); the TSC it may only read. */
static const uint32_t cell_msrs[] = {
	0x174,	    0x175,	0x176,	    MSR_IA32_PAT, 0x6e0,
	0xc0000080, 0xc0000081, 0xc0000082, 0xc0000083,	  0xc0000084,
	0xc0000100, 0xc0000101, 0xc0000102, MSR_TSC_AUX,  0x10,
	0x1b,	    0x802,	0x803,	    0x808,	  0x80f,
	0x830,	    0x832,	0x838,	    0x83e,
};

/* Delivery modes a cell may send to itself (others fail the cell). */
static const uint32_t self_modes[] = { APIC_ICR_DM_INIT | APIC_ICR_LEVEL_ASSERT,
				       APIC_ICR_DM_SIPI | 0x10,
				       APIC_ICR_DM_NMI | APIC_ICR_LEVEL_ASSERT,
				       APIC_ICR_DM_FIXED | 0x40 };

/* An LVT value a cell may write: unmasked, only Fixed or NMI delivery
 * (the hypervisor fails a cell for SMI, INIT, ExtINT or a reserved mode;
 * that is a risky attempt of its own).  NMI delivery stays masked: an
 * armed timer (or an APIC error) would deliver its NMI at any later
 * moment, outside the catch of the attempt that set it, and the fuzzer
 * would fail itself (seen on qemu-svm, where such an NMI is real). */
static uint64_t lvt_allowed(uint64_t v)
{
	unsigned int mode = (v >> 8) & 7;

	if (!(v & 0x10000) && mode != 0 && mode != 4)
		v &= ~0x700ull;
	if (((v >> 8) & 7) == 4)
		v |= 0x10000;
	return v;
}

static int attempt_msr(void)
{
	int r;

	a.msr = cell_msrs[below(ARRAY_LEN(cell_msrs))];
	/* the value before: the read may raise an exception itself (an
	 * x2APIC register in xAPIC mode) */
	r = exception_catch(try_rdmsr, NULL);
	if (r >= 0 || a.msr == 0x10)
		return r;
	/* EFER: one bit toggled; the ICR: to itself only, in a mode it may
	 * use, any shorthand; IA32_APIC_BASE: the default base, enabled,
	 * x2APIC or not, now and then another bit */
	if (a.msr == 0xc0000080)
		a.arg = a.msr_value ^ (1ull << below(16));
	else if (a.msr == MSR_X2APIC_ICR)
		a.arg = (uint64_t)cpu_apic_id() << 32 |
			self_modes[below(ARRAY_LEN(self_modes))] |
			(below(4) << 18);
	else if (a.msr == MSR_APIC_BASE_NR)
		a.arg = 0xfee00000ull | (1ull << 11) | (below(2) << 10) |
			(below(8) == 0 ? 1ull << below(64) : 0);
	else
		a.arg = value();
	/* an LVT's vector above the exceptions' (see attempt_apic) */
	if (a.msr == 0x82f || (a.msr >= 0x832 && a.msr <= 0x837))
		a.arg = lvt_allowed((a.arg & ~0xffull) | (32 + below(224)));
	if (a.msr == 0x832)
		a.arg &= ~(3ull << 17); /* one-shot, as in attempt_apic */
	r = exception_catch(try_wrmsr, NULL);
	if (a.msr != MSR_APIC_BASE_NR && (a.msr < 0x800 || a.msr > 0x8ff))
		exception_catch(put_back_msr, NULL);
	return r;
}

/* GDTR or IDTR loaded with a random value (a non-canonical base raises
 * #GP), then a CPUID, which always exits: the hypervisor meets the state
 * at the next entry; then the old one back. */
struct dtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

static struct dtr dtr_random, dtr_saved;

static bool dtr_is_gdt;

static void try_dtr(void *unused)
{
	uint32_t eax = 0, ebx, ecx = 0, edx;

	(void)unused;
	if (dtr_is_gdt)
		asm volatile("lgdt %[r]\n\t"
			     "cpuid\n\t"
			     "lgdt %[s]"
			     : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx)
			     : [r] "m"(dtr_random), [s] "m"(dtr_saved)
			     : "memory");
	else
		asm volatile("lidt %[r]\n\t"
			     "cpuid\n\t"
			     "lidt %[s]"
			     : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx)
			     : [r] "m"(dtr_random), [s] "m"(dtr_saved)
			     : "memory");
}

static int attempt_dtr(void)
{
	dtr_random.limit = (uint16_t)next();
	dtr_random.base = value();
	dtr_is_gdt = below(2);
	if (dtr_is_gdt)
		asm volatile("sgdt %0" : "=m"(dtr_saved));
	else
		asm volatile("sidt %0" : "=m"(dtr_saved));
	return exception_catch(try_dtr, NULL);
}

static void try_lldt(void *unused)
{
	uint16_t sel = (uint16_t)a.arg;

	(void)unused;
	asm volatile("lldt %0" : : "r"(sel));
}

static int attempt_ldt(void)
{
	int r;

	a.arg = below(2) ? below(0x40) : next();
	r = exception_catch(try_lldt, NULL);
	a.arg = 0;
	exception_catch(try_lldt, NULL);
	return r;
}

/* 64-bit -> compatibility mode (the 32-bit code segment) -> CPUID, which
 * exits there -> back to 64-bit mode. */
static int attempt_compat(void)
{
	uint64_t scratch;

	asm volatile("pushq %[cs32]\n\t"
		     "leaq 1f(%%rip), %[s]\n\t"
		     "pushq %[s]\n\t"
		     "lretq\n"
		     ".code32\n"
		     "1:\n\t"
		     "xorl %%eax, %%eax\n\t"
		     "xorl %%ecx, %%ecx\n\t"
		     "cpuid\n\t"
		     "ljmpl %[cs64], $2f\n"
		     ".code64\n"
		     "2:"
		     : [s] "=&r"(scratch)
		     : [cs32] "i"(GDT_CODE32), [cs64] "i"(GDT_CODE64)
		     : "rax", "rbx", "rcx", "rdx", "memory");
	return -1;
}

/* Is the APIC in x2APIC mode now?  The fuzzer may have switched it. */
static bool x2apic_now(void)
{
	return rdmsr(MSR_APIC_BASE_NR) & APIC_BASE_EXTD;
}

/* An IPI through the ICR of whichever mode the APIC is in. */
static void send_icr(uint32_t dest, uint32_t low)
{
	if (x2apic_now()) {
		wrmsr(MSR_X2APIC_ICR, (uint64_t)dest << 32 | low);
		return;
	}
	mmio_write32(0xfee00310, dest << 24);
	mmio_write32(0xfee00300, low);
}

static void try_self_ipi(void *unused)
{
	(void)unused;
	send_icr(cpu_apic_id(), (uint32_t)a.arg);
}

/* INIT, SIPI, NMI or a fixed IPI to itself: allowed, and each must be
 * handled as the hardware would (INIT/SIPI to itself are ignored). */
static int attempt_self_ipi(void)
{
	a.arg = self_modes[below(ARRAY_LEN(self_modes))] |
		(below(8) == 0 ? 0x8000 : 0);
	return exception_catch(try_self_ipi, NULL);
}

static void try_apic_mmio(void *unused)
{
	uint64_t off = a.arg & 0xfff;

	(void)unused;
	if (a.arg >> 63)
		mmio_write32(0xfee00000ull + off, (uint32_t)a.msr_value);
	else
		a.msr_value = mmio_read32(0xfee00000ull + off);
}

/* The xAPIC page: a read anywhere, or a write of a random value to a
 * register a cell may set freely (never the ICR: that is risky). */
static int attempt_apic(void)
{
	static const uint16_t regs[] = { 0x80,	0x320, 0x340, 0x350, 0x360,
					 0x370, 0x380, 0x3e0, 0x280, 0xb0 };

	if (x2apic_now())
		return attempt_msr();
	if (below(2)) {
		a.arg = below(0x1000);
	} else {
		a.arg = (1ull << 63) | regs[below(ARRAY_LEN(regs))];
		a.msr_value = next() | (below(2) ? 0x10000 : 0); /* masked */
		/* an LVT's vector stays above the exceptions': 16-31 are
		 * delivered like any other and would land on an exception's
		 * handler */
		if ((a.arg & 0xfff) >= 0x320 && (a.arg & 0xfff) <= 0x370)
			a.msr_value = lvt_allowed((a.msr_value & ~0xffull) |
						  (32 + below(224)));
		/* a one-shot timer: a periodic one with a short count would
		 * only keep this CPU busy with its own interrupts */
		if ((a.arg & 0xfff) == 0x320)
			a.msr_value &= ~(3ull << 17);
		if ((a.arg & 0xfff) == 0x380)
			a.msr_value &= 0xffff; /* short timers only */
	}
	return exception_catch(try_apic_mmio, NULL);
}

static int attempt_cpuid(void)
{
	uint32_t b, c, d,
		leaf = (uint32_t)(below(2) ? below(0x20)
					   : 0x80000000u + below(9));

	cpuid(leaf, (uint32_t)below(4), &leaf, &b, &c, &d);
	return -1;
}

/* Risky: something outside the cell; the hypervisor must fail the cell.
 * Returns only if it did not. */
static void risky(uint64_t n, uint64_t seed, uint64_t caught)
{
	uint64_t addr;
	uint16_t port;

	static const uint32_t lvt_modes[] = { 0x200, 0x500, 0x700 };
	uint32_t lvt;

	switch (below(5)) {
	case 0:
		port = (uint16_t)below(0x10000);
		if (port >= 0x3e8 && port <= 0x3ef)
			port = 0x80;
		printk("fuzz: seed %lu attempt %lu risky (caught %lu): port "
		       "0x%x\n",
		       (unsigned long)seed, (unsigned long)n,
		       (unsigned long)caught, port);
		inb(port);
		break;
	case 1:
		addr = 0x40000000ull + (below(0x40000) << 12);
		printk("fuzz: seed %lu attempt %lu risky (caught %lu): read "
		       "0x%lx\n",
		       (unsigned long)seed, (unsigned long)n,
		       (unsigned long)caught, (unsigned long)addr);
		mmio_read32(addr);
		break;
	case 2:
		a.msr = 0x1a0 + below(0x10);
		printk("fuzz: seed %lu attempt %lu risky (caught %lu): MSR "
		       "0x%lx\n",
		       (unsigned long)seed, (unsigned long)n,
		       (unsigned long)caught, (unsigned long)a.msr);
		rdmsr((uint32_t)a.msr);
		break;
	case 3:
		/* LINT0, unmasked, with SMI, INIT or ExtINT delivery */
		lvt = lvt_modes[below(ARRAY_LEN(lvt_modes))] | 0x40;
		printk("fuzz: seed %lu attempt %lu risky (caught %lu): LVT "
		       "LINT0 0x%x\n",
		       (unsigned long)seed, (unsigned long)n,
		       (unsigned long)caught, lvt);
		if (x2apic_now())
			wrmsr(0x835, lvt);
		else
			mmio_write32(0xfee00350, lvt);
		break;
	default:
		printk("fuzz: seed %lu attempt %lu risky (caught %lu): IPI to "
		       "APIC ID 0\n",
		       (unsigned long)seed, (unsigned long)n,
		       (unsigned long)caught);
		send_icr(0, APIC_ICR_DM_FIXED | APIC_ICR_LEVEL_ASSERT | 0x40);
		break;
	}
	printk("fuzz: seed %lu attempt %lu: still running after a risky "
	       "attempt\n",
	       (unsigned long)seed, (unsigned long)n);
}

static void any_irq(unsigned int vector)
{
	(void)vector;
	if (x2apic_now())
		wrmsr(0x80b, 0);
	else
		mmio_write32(0xfee000b0, 0);
}

void inmate_main(void)
{
	uint64_t seed = cmdline_uint("seed", 1), n;
	uint64_t first = cmdline_uint("first", 0);
	uint64_t count = cmdline_uint("count", 1000);
	uint64_t risky_one_in = cmdline_uint("risky", 100);
	/* kinds=M: only the survivable kinds whose bit is set in M (others
	 * are skipped), to narrow down which kind a failure needs */
	uint64_t kinds = cmdline_uint("kinds", ~0ull);
	unsigned int v;
	int caught;

	for (v = 32; v < 256; v++)
		irq_set_handler(v, any_irq);
	apic_init(false);
	write_cr4(read_cr4() | CR4_OSXSAVE);
	a.cr0 = read_cr0();
	a.cr4 = read_cr4();
	progress->magic = FUZZ_MAGIC;
	progress->seed = seed;
	progress->survived = 0;
	progress->caught = 0;
	progress->done = 0;
	printk("fuzz: seed %lu attempts %lu-%lu, one in %lu risky\n",
	       (unsigned long)seed, (unsigned long)first,
	       (unsigned long)(first + count - 1), (unsigned long)risky_one_in);
	for (n = first; n < first + count; n++) {
		rng = (seed * 0x9e3779b97f4a7c15ull) ^
		      (n + 1) * 0xbf58476d1ce4e5b9ull;
		if (!rng)
			rng = 1;
		next();
		progress->attempt = n;
		if (risky_one_in && below(risky_one_in) == 0) {
			progress->kind = 99;
			risky(n, seed, progress->caught);
			continue;
		}
		progress->kind = below(11);
		if (!(kinds >> progress->kind & 1))
			continue;
		switch (progress->kind) {
		case 0:
			caught = attempt_cr0();
			break;
		case 1:
			caught = attempt_cr4();
			break;
		case 2:
			caught = attempt_xsetbv();
			break;
		case 3:
		case 4:
			caught = attempt_msr();
			break;
		case 5:
			caught = attempt_dtr();
			break;
		case 6:
			caught = attempt_ldt();
			break;
		case 7:
			caught = attempt_compat();
			break;
		case 8:
			caught = attempt_self_ipi();
			break;
		case 9:
			caught = attempt_apic();
			break;
		default:
			caught = attempt_cpuid();
			break;
		}
		/* interrupts the attempt left pending (a self-IPI, a timer) */
		asm volatile("sti; nop; nop; cli" ::: "memory");
		progress->survived++;
		progress->caught += caught >= 0;
		if ((n + 1) % 1000 == 0)
			printk("fuzz: seed %lu at %lu\n", (unsigned long)seed,
			       (unsigned long)n + 1);
	}
	progress->done = 1;
	printk("fuzz: seed %lu attempts %lu-%lu done: %lu survived, %lu "
	       "raised an exception\n",
	       (unsigned long)seed, (unsigned long)first,
	       (unsigned long)(first + count - 1),
	       (unsigned long)progress->survived,
	       (unsigned long)progress->caught);
	comm_set_state(WARDEN_CELL_SHUT_DOWN);
}
