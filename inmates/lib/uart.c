// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Console output: a polled 16550 UART at an I/O port, or the hypervisor's
 * debug console through a hypercall, as the comm region says.
 */
#include <inmate.h>

#define UART_THR 0 /* transmit holding (DLAB 0) */
#define UART_DLL 0 /* divisor latch low (DLAB 1) */
#define UART_IER 1
#define UART_DLM 1 /* divisor latch high (DLAB 1) */
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5

#define UART_LCR_8N1 0x03
#define UART_LCR_DLAB 0x80
#define UART_FCR_ENABLE_CLEAR 0x07
#define UART_MCR_DTR_RTS 0x03
#define UART_LSR_THRE 0x20

#define UART_CLOCK_BAUD 115200
/* Give up waiting for THRE after this many polls (no UART there). */
#define UART_POLL_LIMIT 1000000

static unsigned int con_type;
static uint16_t con_port;

void uart_init(uint16_t port, uint32_t baud)
{
	uint32_t divisor;

	if (!baud)
		return;
	divisor = UART_CLOCK_BAUD / baud;
	if (!divisor)
		divisor = 1;
	outb(port + UART_IER, 0);
	outb(port + UART_LCR, UART_LCR_DLAB);
	outb(port + UART_DLL, divisor & 0xff);
	outb(port + UART_DLM, (divisor >> 8) & 0xff);
	outb(port + UART_LCR, UART_LCR_8N1);
	outb(port + UART_FCR, UART_FCR_ENABLE_CLEAR);
	outb(port + UART_MCR, UART_MCR_DTR_RTS);
}

void uart_putc(uint16_t port, char c)
{
	unsigned int n;

	for (n = 0; n < UART_POLL_LIMIT; n++) {
		if (inb(port + UART_LSR) & UART_LSR_THRE)
			break;
		cpu_relax();
	}
	outb(port + UART_THR, (uint8_t)c);
}

void console_init(void)
{
	struct warden_comm_region *comm = comm_region();

	if (!comm) {
		con_type = WARDEN_CONSOLE_UART_PIO;
		con_port = INMATE_DEFAULT_CONSOLE_PORT;
		uart_init(con_port, UART_CLOCK_BAUD);
		return;
	}
	con_type = comm->console.type;
	con_port = 0;
	switch (con_type) {
	case WARDEN_CONSOLE_UART_PIO:
		if (comm->console.address > 0xffff) {
			con_type = WARDEN_CONSOLE_NONE;
			break;
		}
		con_port = comm->console.address;
		uart_init(con_port, comm->console.baud);
		break;
	case WARDEN_CONSOLE_HYPERCALL:
		break;
	default:
		con_type = WARDEN_CONSOLE_NONE;
		break;
	}
}

unsigned int console_type(void)
{
	return con_type;
}

uint16_t console_port(void)
{
	return con_port;
}

static void console_raw_putc(char c)
{
	if (con_type == WARDEN_CONSOLE_UART_PIO)
		uart_putc(con_port, c);
	else if (con_type == WARDEN_CONSOLE_HYPERCALL)
		warden_debug_putc(c);
}

void console_putc(char c)
{
	if (c == '\n')
		console_raw_putc('\r');
	console_raw_putc(c);
}

void console_write(const char *s)
{
	while (*s)
		console_putc(*s++);
}
