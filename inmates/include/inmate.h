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

#include <inmate/apic.h>
#include <inmate/arch.h>
#include <inmate/hypercall.h>
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

typedef void (*irq_handler_t)(unsigned int vector);
int irq_set_handler(unsigned int vector, irq_handler_t handler);
/* Interrupts (vectors 32..255) that had no handler, on all CPUs. */
unsigned long irq_unexpected_count(void);

/*
 * Set the cache attribute of the identity map for [start, start + size)
 * (rounded out to 2 MiB pages, below 4 GiB): uc = true makes it UC through
 * PCD|PWT, false makes it WB (the effective type also depends on the EPT).
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
