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
void comm_heartbeat(void);		 /* watchdog++ */

/* Time, by the TSC. */
uint32_t tsc_khz(void);
void delay_us(uint64_t us);
uint64_t tsc_ticks_to_us(uint64_t ticks);

/* Interrupts: vectors 32..255; the handler sends any EOI itself. */
typedef void (*irq_handler_t)(unsigned int vector);
int irq_set_handler(unsigned int vector, irq_handler_t handler);

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
