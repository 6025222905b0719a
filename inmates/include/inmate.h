/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libinmate: the API for bare-metal programs running in Warden cells.
 *
 * An inmate defines inmate_main(); the library's entry code brings the CPU
 * into 64-bit mode, installs the IDT, sets up the console and calls it.
 * When inmate_main() returns, the CPU halts with interrupts disabled.
 * See docs/inmates.md.
 */
#ifndef INMATE_H
#define INMATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/comm.h>
#include <warden/hypercall.h>
#include <warden/link_ring.h>

#include <inmate/apic.h>
#include <inmate/arch.h>
#include <inmate/hypercall.h>
#include <inmate/pci.h>
#include <inmate/x86.h>

/* The console port used when there is no comm region. */
#ifndef INMATE_DEFAULT_CONSOLE_PORT
#define INMATE_DEFAULT_CONSOLE_PORT 0x3e8
#endif
/* TSC frequency assumed when neither the comm region nor CPUID knows it. */
#ifndef INMATE_FALLBACK_TSC_KHZ
#define INMATE_FALLBACK_TSC_KHZ 2000000
#endif

#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))

/* Provided by the inmate. */
void inmate_main(void);
/*
 * Optional: what the other CPUs run once smp_start_cpus() started them
 * (cpu_index 1, 2, ... by arrival; interrupts disabled, IDT loaded, the
 * APIC not set up).  The default halts.  Returning halts the CPU.
 */
void inmate_ap_main(unsigned int cpu_index);

/* Halt this CPU forever with interrupts disabled. */
void inmate_halt(void) __noreturn;

/* Console: the comm region's console, else a 16550 at the default port. */
void console_init(void);
void console_putc(char c);
void console_write(const char *s);
/* WARDEN_CONSOLE_* in use, and its port for WARDEN_CONSOLE_UART_PIO. */
unsigned int console_type(void);
uint16_t console_port(void);

/* Polled 16550 UART; baud 0 leaves the line settings alone. */
void uart_init(uint16_t port, uint32_t baud);
void uart_putc(uint16_t port, char c);

/*
 * Formatted output: %s %c %d %i %u %x %X %p %%, flags '-' and '0', a
 * width (or '*'), a precision for %s, length modifiers hh h l ll z.
 */
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* Communication region at INMATE_COMM_REGION (NULL: no valid signature). */
struct warden_comm_region *comm_region(void);
uint32_t comm_tsc_khz(void);		 /* 0 when unknown */
void comm_set_state(uint32_t state);	 /* WARDEN_CELL_* */
uint32_t comm_poll_msg(void);		 /* WARDEN_MSG_* */
void comm_reply(uint32_t reply);	 /* WARDEN_REPLY_* */
bool comm_handle_shutdown(bool approve); /* true: approved a request */
bool comm_shutdown_requested(void);	 /* pending and not answered */
void comm_heartbeat(void);		 /* watchdog++ */

/*
 * Command line at INMATE_CMDLINE: "key=value key2 ..." (a bare key has the
 * value "").  The getters return def when the key is missing (or, for
 * numbers and booleans, malformed: then they also print a warning).
 * Numbers are decimal or 0x hex; booleans 1/y/yes/on/true, a bare key, or
 * 0/n/no/off/false.
 */
const char *cmdline(void); /* the whole line, "" when none */
const char *cmdline_str(const char *key, const char *def);
uint64_t cmdline_uint(const char *key, uint64_t def);
bool cmdline_bool(const char *key, bool def);

/*
 * Local APIC (registers: <inmate/apic.h>, by x2APIC MSR index in both
 * modes).  apic_init() software-enables the APIC (SVR, spurious vector
 * 0xff, TPR 0, timer masked) in x2APIC mode when asked for and supported,
 * else in xAPIC mode; -1 when there is no APIC.  Every CPU that uses the
 * APIC calls it, all with the same mode.
 */
int apic_init(bool x2apic);
bool apic_is_initialized(void);
bool apic_is_x2apic(void);
bool apic_x2apic_supported(void); /* CPUID.1:ECX[21] */
uint32_t apic_read(unsigned int reg);
void apic_write(unsigned int reg, uint32_t value);
uint32_t apic_id(void); /* this CPU's, from the APIC ID register */
void apic_eoi(void);
/* ICR: physical destination (8 bits in xAPIC mode), low half as is. */
void apic_send_icr(uint32_t dest, uint32_t icr_low);
void apic_send_ipi(uint32_t dest, unsigned int vector); /* fixed, edge */
void apic_send_init(uint32_t dest);
void apic_send_sipi(uint32_t dest, unsigned int vector); /* CS.base V<<12 */
/*
 * APIC timer, divide by 1: its frequency calibrated against the TSC on
 * first use (25 ms), periodic interrupts every period_us at vector (0, or
 * -1 when the period does not fit the 32-bit counter or the vector is
 * below 32), stop; counts of the timer in nanoseconds.
 */
uint32_t apic_timer_khz(void);
int apic_timer_periodic(uint32_t period_us, unsigned int vector);
void apic_timer_stop(void);
/*
 * TSC-deadline mode (CPUID.1:ECX[24]): the timer fires once when the TSC
 * reaches the value armed (0 disarms).  apic_timer_deadline() switches
 * the timer to it at vector (-1 without the mode or with a vector below
 * 32); apic_timer_deadline_arm() sets the next deadline.
 */
bool apic_timer_deadline_supported(void);
int apic_timer_deadline(unsigned int vector);
void apic_timer_deadline_arm(uint64_t tsc);
uint64_t apic_timer_counts_to_ns(uint64_t counts);

/*
 * SMP: smp_start_cpus() (first CPU, once) starts the cell's other CPUs
 * (comm region apic_ids, else all but this one) with INIT, SIPI, SIPI and
 * waits until they counted in (1 s at most); it returns the number of CPUs
 * running the inmate, this one included.  Calls apic_init(true) if the
 * APIC was not set up.  smp_cpu_index(): 0 on the first CPU, 1, 2, ... on
 * the others by arrival (taken from the stack pointer: no VM exit).
 */
unsigned int smp_start_cpus(void);
unsigned int smp_num_cpus(void);
unsigned int smp_cpu_index(void);

/* Time, by the TSC. */
uint32_t tsc_khz(void);
void delay_us(uint64_t us);
uint64_t tsc_ticks_to_us(uint64_t ticks);
uint64_t tsc_ticks_to_ns(uint64_t ticks);

/*
 * Run fn(arg) so that an exception it raises (vectors 0-31) ends it
 * instead of the inmate: -1 if fn returned, else the vector, with its
 * error code in inmate_catch_error.  The stack and the callee-saved
 * registers are as at the call, the code segment 64-bit again; what else
 * fn changed stays changed.  One CPU at a time; not nested.
 */
int exception_catch(void (*fn)(void *), void *arg);
extern uint64_t inmate_catch_error;

/* Interrupts: vectors 32..255; the handler sends any EOI itself. */
/*
 * IOAPIC (inmates/lib/ioapic.c): the cell sees the IOAPIC at its usual
 * address with the pins it owns (irq_pins in its config) usable; others
 * read masked and ignore writes.  ioapic_pin_route: Fixed delivery of
 * vector to the CPU with apic_id (physical mode), edge or level, unmasked.
 */
#define IOAPIC_DEFAULT_BASE 0xfec00000ull
void ioapic_set_base(uint64_t address);
uint32_t ioapic_read(unsigned int reg);
void ioapic_write(unsigned int reg, uint32_t value);
unsigned int ioapic_pins(void);
void ioapic_pin_route(unsigned int pin, unsigned int vector, uint32_t apic_id,
		      bool level);
void ioapic_pin_mask(unsigned int pin);
uint64_t ioapic_pin_entry(unsigned int pin);

/*
 * PCI (inmates/lib/pci.c, constants in <inmate/pci.h>): configuration space
 * through ports 0xcf8/0xcfc (mechanism #1; the cell needs them, which the
 * hypervisor emulates for a cell's own functions).  A function is a bdf,
 * PCI_BDF(bus, dev, fn); reg is the byte offset (0-0xff), aligned to the
 * access size.  A function that is not there reads all ones.  Accesses
 * are made with interrupts disabled (the address/data pair is not torn by
 * a handler on this CPU); one CPU at a time.
 */
uint8_t pci_read8(uint16_t bdf, unsigned int reg);
uint16_t pci_read16(uint16_t bdf, unsigned int reg);
uint32_t pci_read32(uint16_t bdf, unsigned int reg);
void pci_write8(uint16_t bdf, unsigned int reg, uint8_t value);
void pci_write16(uint16_t bdf, unsigned int reg, uint16_t value);
void pci_write32(uint16_t bdf, unsigned int reg, uint32_t value);
bool pci_present(uint16_t bdf); /* vendor ID not 0xffff */
/*
 * Enumeration: the next present function after bdf (-1: start at 00:00.0)
 * on buses 0..last_bus, or -1 when there is none.  Functions 1-7 are
 * probed when function 0 says multi-function (header type bit 7), and
 * also when function 0 is absent if all_functions (a cell may own a
 * device's function 1 and not its function 0).
 */
int pci_next_function(int bdf, unsigned int last_bus, bool all_functions);
/* The first function with vendor:device after bdf (-1: from the start). */
int pci_find_device(uint16_t vendor, uint16_t device, int bdf,
		    unsigned int last_bus);
/* The capability's config offset (PCI_CAP_ID_*), 0 when not listed. */
unsigned int pci_find_cap(uint16_t bdf, uint8_t cap_id);

/*
 * A BAR: its type (PCI_BAR_NONE, _MEM32, _MEM64, _PIO), address (as the
 * cell sees it) and size (from all-ones written with decoding off).
 * pci_bar_read() returns the number of BAR registers it takes (2 for a
 * 64-bit memory BAR, else 1), 0 for a bad index or an empty BAR.
 */
struct pci_bar {
	unsigned int type;
	bool prefetch;
	uint64_t address;
	uint64_t size;
};
unsigned int pci_bar_read(uint16_t bdf, unsigned int bar, struct pci_bar *out);
const char *pci_bar_type_name(unsigned int type); /* "mem32", ... */

/* Command register: set and clear bits; memory decode plus bus master. */
void pci_command(uint16_t bdf, uint16_t set, uint16_t clear);
void pci_enable_device(uint16_t bdf); /* memory, I/O (if any) and master */
void pci_intx_enable(uint16_t bdf, bool enable); /* command bit 10 */

/*
 * MSI: one message (MME 0), fixed delivery of vector to apic_id in
 * physical destination mode (address 0xfee00000 | apic_id << 12, an xAPIC
 * ID below 256; the 64-bit variant's high half 0), edge; the vector
 * unmasked where the function masks per vector; enabled.  INTx is left as
 * it is (a function does not signal INTx while MSI is on).  -1 without an
 * MSI capability or for a bad vector or APIC ID.  pci_msi_disable() clears
 * the enable bit.
 */
int pci_msi_enable(uint16_t bdf, uint32_t apic_id, unsigned int vector);
void pci_msi_disable(uint16_t bdf);

/*
 * MSI-X: the table lives in one of the function's memory BARs, BIR and
 * offset in the capability.  pci_msix_find() fills in where (no access to
 * the table), -1 without an MSI-X capability; pci_msix_map() reads that
 * BAR and checks the table lies within it, below 4 GiB, makes it UC and
 * sets table (the address of entry 0), -1 otherwise.  The entries are
 * accessed as dwords.
 *   pci_msix_set_entry(): entry i masked, then its message: address
 *     0xfee00000 | apic_id << 12 (physical destination, an xAPIC ID below
 *     256, high half 0), data = vector (fixed, edge); left masked.  -1 for
 *     a bad entry, vector (0x10-0xfe) or APIC ID.
 *   pci_msix_mask_entry(): vector control bit 0 set (true) or cleared.
 *   pci_msix_enable(): the control word's enable bit (bit 15) set or
 *     cleared; pci_msix_mask_all() its function mask (bit 14).  A function
 *     with MSI-X enabled signals neither INTx nor MSI.
 */
struct pci_msix {
	uint16_t bdf;
	unsigned int cap;     /* config offset of the capability */
	unsigned int entries; /* table size */
	unsigned int bir;     /* BAR of the table */
	uint32_t offset;      /* of the table in that BAR */
	unsigned int pba_bir; /* BAR of the pending bit array */
	uint32_t pba_offset;  /* of the pending bit array in it */
	uint64_t table;	      /* entry 0, once mapped (else 0) */
};
int pci_msix_find(uint16_t bdf, struct pci_msix *msix);
int pci_msix_map(struct pci_msix *msix);
int pci_msix_set_entry(const struct pci_msix *msix, unsigned int i,
		       uint32_t apic_id, unsigned int vector);
void pci_msix_mask_entry(const struct pci_msix *msix, unsigned int i,
			 bool mask);
uint32_t pci_msix_entry_read(const struct pci_msix *msix, unsigned int i,
			     unsigned int reg); /* PCI_MSIX_ENTRY_* */
void pci_msix_enable(const struct pci_msix *msix, bool enable);
void pci_msix_mask_all(const struct pci_msix *msix, bool mask);

/* "bb:dd.f" of a bdf into buf (at least 8 bytes); returns buf. */
char *pci_bdf_name(uint16_t bdf, char *buf);

/*
 * Links (inmates/lib/link.c; ABI in <warden/link.h>, the ring protocol in
 * <warden/link_ring.h>): shared memory with other cells or Linux, seen as
 * a virtual PCI function (WARDEN_LINK_VENDOR_ID:WARDEN_LINK_DEVICE_ID)
 * with registers and MSI-X in BAR 0 and the memory in BAR 2.
 *
 *   link_find(): every link function on buses 0..last_bus in bdf order,
 *     opened into links[0..max-1] (index = position there; a function
 *     that does not open is reported on the console and left out).
 *     Returns how many.
 *   link_open(): one function: BARs read (BAR 0 made UC, BAR 2 WB),
 *     memory decoding and bus mastering on, registers read and checked
 *     against the BARs, rings described.  -1 (cause on the console) for
 *     a function that is not a link or whose BARs and registers disagree.
 *   link_irq_setup(): MSI-X entry v to this CPU's APIC ID at
 *     LINK_VECTOR(index, v) for each of the link's vectors, handlers that
 *     count them (link_irqs()); needs apic_init() first and index below
 *     INMATE_MAX_LINKS.  -1 without MSI-X or when enabling it fails.
 *   link_start(): own section header initialised (link_ring.h), STATE up,
 *     then link_update_states().  link_stop(): magic cleared, STATE down.
 *   link_update_states(): PEER_STATES read; peers that came up since the
 *     last call get their ring indexes reset (the protocol's "Start"),
 *     and l->peers_up (others only, never this peer's bit) follows; *up
 *     and *down (may be NULL) get the bits that changed.  Call it
 *     whenever vector 0 came (link_irqs(l, 0) changed), before sending.
 *   link_send(): one message into the ring to peer on channel, no
 *     doorbell; -1 if the peer is not in peers_up, or as
 *     warden_link_ring_send().  link_notify(): the doorbell for channel
 *     on peer (vector warden_link_vector(channel, its vectors)); -1 for a
 *     bad peer.  Send a batch, then notify once.
 *   link_recv(): the next message from peer on channel (length, 0 when
 *     none or the peer is not in peers_up, -1 for a dropped bad one: as
 *     warden_link_ring_recv()).
 *   link_read32()/link_read64()/link_write32(): BAR 0 registers
 *     (WARDEN_LINK_REG_*).
 *   link_irqs(): interrupts of vector v so far; link_irq_total(): of all
 *     links and vectors, and of the tick.
 *   link_wait(): until link_irq_total() differs from *seen (true) or
 *     timeout_us passed (false); *seen is updated.  It sleeps (sti; hlt)
 *     once link_tick_start() runs a periodic APIC timer that bounds the
 *     sleep, else it polls (pause), which is also what poll = true asks
 *     for (the lowest latency).  timeout_us 0: no bound, it sleeps until
 *     an interrupt comes.  Interrupts are enabled on return.
 *   link_tick_start(): APIC timer every period_us at LINK_TICK_VECTOR
 *     (counted in link_irq_total()); -1 if the timer cannot.
 */
#define INMATE_MAX_LINKS 4
#define LINK_VECTOR_BASE 0x80
#define LINK_VECTOR(index, v) (LINK_VECTOR_BASE + 4 * (index) + (v))
#define LINK_TICK_VECTOR 0x7f

struct link {
	unsigned int index; /* in the inmate's links */
	uint16_t bdf;
	uint64_t regs;	/* BAR 0 */
	uint64_t shmem; /* BAR 2 */
	uint64_t shmem_size, section_size;
	uint32_t id, num_peers, flags, vectors; /* the registers */
	uint32_t peer_vectors[WARDEN_LINK_MAX_PEERS];
	uint32_t peers_up; /* bit i: peer i up, as link_update_states() saw */
	bool irqs_on;	   /* MSI-X set up */
	struct pci_msix msix;
	struct warden_link_rings rings;
	volatile uint32_t irqs[WARDEN_LINK_MAX_VECTORS]; /* per vector */
};

unsigned int link_find(struct link *links, unsigned int max,
		       unsigned int last_bus);
int link_open(struct link *l, uint16_t bdf, unsigned int index);
int link_irq_setup(struct link *l);
void link_start(struct link *l);
void link_stop(struct link *l);
uint32_t link_update_states(struct link *l, uint32_t *up, uint32_t *down);
int link_send(struct link *l, uint32_t peer, uint32_t channel, const void *buf,
	      size_t len);
int link_notify(struct link *l, uint32_t peer, uint32_t channel);
int link_recv(struct link *l, uint32_t peer, uint32_t channel, void *buf,
	      size_t size);
uint32_t link_read32(const struct link *l, unsigned int reg);
uint64_t link_read64(const struct link *l, unsigned int reg);
void link_write32(const struct link *l, unsigned int reg, uint32_t value);
uint32_t link_irqs(const struct link *l, unsigned int vector);
uint32_t link_irq_total(void);
bool link_wait(uint32_t *seen, uint64_t timeout_us, bool poll);
int link_tick_start(uint32_t period_us);

typedef void (*irq_handler_t)(unsigned int vector);
int irq_set_handler(unsigned int vector, irq_handler_t handler);
/* Interrupts (vectors 32..255) that had no handler, on all CPUs. */
unsigned long irq_unexpected_count(void);

/*
 * Set the cache attribute of the identity map for [start, start + size)
 * (rounded out to 4 KiB pages, below 4 GiB): uc = true makes it UC through
 * PCD|PWT, false makes it WB (the effective type also depends on the EPT).
 * A 2 MiB page the range covers only partly is split into 4 KiB pages;
 * after 8 splits the whole 2 MiB page changes instead.  -1 for an empty
 * range or one above 4 GiB.
 */
int paging_set_uc(uint64_t start, uint64_t size, bool uc);

/* String functions (the compiler may also emit calls to the mem* ones). */
void *memset(void *s, int c, size_t n);
void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

#endif /* INMATE_H */
