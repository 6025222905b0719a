// SPDX-License-Identifier: GPL-2.0
/*
 * The debug console on a 16550-compatible UART at an I/O port
 * (WARDEN_CONSOLE_UART_PIO), polled: the hypervisor takes no interrupts.
 */
#include <asm/processor.h>
#include <hv/arch.h>
#include <hv/types.h>
#include <warden/hypercall.h>

#define UART_TX 0  /* transmit holding register */
#define UART_LCR 3 /* line control */
#define UART_DLL 0 /* divisor latch, with LCR.DLAB */
#define UART_DLM 1
#define UART_LSR 5 /* line status */
#define UART_LCR_8N1 0x03
#define UART_LCR_DLAB 0x80
#define UART_LSR_THRE 0x20 /* transmit holding register empty */
#define UART_CLOCK_BAUD 115200

static u16 uart_base; /* 0: no console */

int arch_console_init(const struct warden_console *con)
{
	u32 divisor;

	uart_base = 0;
	if (con->type == WARDEN_CONSOLE_NONE)
		return 0;
	if (con->type != WARDEN_CONSOLE_UART_PIO || con->address == 0 ||
	    con->address > 0xfff8)
		return -WARDEN_EINVAL;
	uart_base = (u16)con->address;
	if (con->baud) {
		divisor = UART_CLOCK_BAUD / con->baud;
		if (divisor == 0)
			divisor = 1;
		outb(uart_base + UART_LCR, UART_LCR_DLAB);
		outb(uart_base + UART_DLL, divisor & 0xff);
		outb(uart_base + UART_DLM, (divisor >> 8) & 0xff);
	}
	outb(uart_base + UART_LCR, UART_LCR_8N1);
	return 0;
}

static void uart_putc(char c)
{
	unsigned int spins = 100000;

	/* Bounded wait: a broken UART must not hang the hypervisor. */
	while (!(inb(uart_base + UART_LSR) & UART_LSR_THRE) && --spins)
		asm volatile("pause");
	outb(uart_base + UART_TX, (u8)c);
}

void arch_console_write(const char *text, size_t len)
{
	if (!uart_base)
		return;
	for (; len; len--, text++) {
		if (*text == '\n')
			uart_putc('\r');
		uart_putc(*text);
	}
}
