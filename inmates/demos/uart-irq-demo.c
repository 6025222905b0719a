// SPDX-License-Identifier: GPL-2.0
/*
 * uart-irq-demo: an interrupt-driven UART in a cell.  The cell owns COM4
 * (ports 0x2e8-0x2ef) and its IOAPIC pin (3 on a PC); the demo routes the
 * pin to its own CPU and sends characters on COM4, one per transmit
 * interrupt (THR empty), then prints how many interrupts came.  No exit
 * is needed for an interrupt to arrive: the IOAPIC delivers straight to
 * the cell's CPU.
 * Command line: port=0x2e8 pin=3 chars=200 mode=x2apic|xapic (x2apic);
 * for the containment tests, dest=ID routes the pin to APIC ID ID instead
 * of its own CPU (outside the cell: the hypervisor fails the cell) and
 * other=PIN first masks a pin the cell does not own and reads it back
 * (ignored: it reads masked, its owner's programming stays); level=1
 * routes the pin level-triggered and noeoi=1 leaves the first interrupt
 * unacknowledged (the IOAPIC's Remote IRR stays set: destroy must clear
 * it for the pin's next owner).
 * rx=1 takes receive interrupts instead: with COM4 in loopback mode (MCR
 * LOOP, the transmitter's output goes straight back to the receiver) and
 * only the receive-data-available interrupt enabled, it sends chars=
 * characters one at a time (polled), each read from RBR by the interrupt
 * handler and checked against the byte sent; each is waited for wait_us=
 * (20000) at most (one that does not come is counted lost, never waited
 * for again), then it prints "uart-irq-demo: N of N characters received
 * by interrupt, N interrupts with data (0 mismatched, 0 other, E empty)":
 * an empty interrupt found nothing to read (seen now and then on QEMU,
 * whose UART may raise its line again while a character is pending: one
 * more edge for the IOAPIC).  The emulators (QEMU, Bochs) raise the UART's
 * interrupt in loopback mode as outside it; a real PC's UART may not
 * (OUT2, which gates its interrupt line, is looped internally).
 */
#include <inmate.h>

#define VECTOR 0x51
#define UART_IER 1
#define UART_IIR 2
#define UART_MCR 4
#define UART_LSR 5
#define UART_IER_RDA 0x01
#define UART_IER_THRE 0x02
#define UART_IIR_THRE 0x02
#define UART_IIR_RDA 0x04
#define UART_IIR_TIMEOUT 0x0c
#define UART_IIR_NONE 0x01
#define UART_LSR_DR 0x01
#define UART_LSR_THRE 0x20
#define UART_MCR_LOOP 0x10
/* DTR, RTS and OUT2: on a PC, OUT2 connects the UART's interrupt line */
#define UART_MCR_IRQ 0x0b
#define WAIT_US 3000000
/* bytes the receive handler reads per interrupt at most (the FIFO's) */
#define RX_MAX 16

static uint16_t port;
static unsigned int want;
static bool noeoi, rx;
static volatile unsigned int irqs, sent, other;
/* rx=1: the byte in flight (-1: none), what came */
static volatile int expect = -1;
static volatile unsigned int received, mismatched, lost, empty;

/*
 * receive-data-available (or FIFO timeout): read what came, check it; an
 * interrupt that finds nothing is counted empty
 */
static void uart_rx(void)
{
	unsigned int n;
	uint8_t c;

	for (n = 0; n < RX_MAX && (inb(port + UART_LSR) & UART_LSR_DR); n++) {
		c = inb(port);
		if (c == expect) {
			received++;
			expect = -1;
		} else {
			mismatched++;
		}
	}
	if (!n)
		empty++;
}

static void uart_irq(unsigned int vector)
{
	uint8_t iir = inb(port + UART_IIR);

	(void)vector;
	irqs++;
	if (noeoi) {
		outb(port + UART_IER, 0);
		return; /* no EOI: the interrupt stays in service */
	}
	if (rx && ((iir & 0x0f) == UART_IIR_RDA ||
		   (iir & 0x0f) == UART_IIR_TIMEOUT || (iir & UART_IIR_NONE))) {
		uart_rx();
	} else if (!rx && (iir & 0x0f) == UART_IIR_THRE) {
		if (sent < want) {
			outb(port, (uint8_t)('a' + sent % 26));
			sent++;
		} else {
			outb(port + UART_IER, 0);
		}
	} else if (!(iir & UART_IIR_NONE)) {
		other++;
		inb(port + UART_LSR);
	}
	apic_eoi();
}

static uint64_t elapsed_us(uint64_t start)
{
	return (rdtsc() - start) * 1000 / tsc_khz();
}

/*
 * rx=1: loopback on, each character sent (polled) and waited for until
 * the handler has read it, wait_us at most
 */
static void receive(uint64_t wait_us)
{
	unsigned int i, n;
	uint64_t start;
	uint8_t c;

	outb(port + UART_MCR, UART_MCR_IRQ | UART_MCR_LOOP);
	for (n = 0; n < RX_MAX && (inb(port + UART_LSR) & UART_LSR_DR); n++)
		inb(port);
	outb(port + UART_IER, UART_IER_RDA);
	for (i = 0; i < want && !(noeoi && irqs); i++) {
		c = (uint8_t)('A' + i % 26);
		start = rdtsc();
		while (!(inb(port + UART_LSR) & UART_LSR_THRE) &&
		       elapsed_us(start) < wait_us)
			asm volatile("pause");
		n = received + mismatched;
		expect = c;
		outb(port, c);
		sent++;
		start = rdtsc();
		while (received + mismatched == n && !(noeoi && irqs) &&
		       elapsed_us(start) < wait_us)
			asm volatile("pause");
		if (received + mismatched == n) {
			lost++;
			expect = -1;
		}
	}
}

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("mode", "x2apic"), "xapic") != 0;
	unsigned int pin = (unsigned int)cmdline_uint("pin", 3);
	uint64_t start;

	port = (uint16_t)cmdline_uint("port", 0x2e8);
	noeoi = cmdline_bool("noeoi", false);
	want = (unsigned int)cmdline_uint("chars", 200);
	rx = cmdline_bool("rx", false);
	if (apic_init(x2apic) < 0) {
		printk("uart-irq-demo: no local APIC\n");
		return;
	}
	irq_set_handler(VECTOR, uart_irq);
	uart_init(port, 115200);
	outb(port + UART_MCR, UART_MCR_IRQ);
	printk("uart-irq-demo: %s, APIC ID %u: COM port 0x%x, IOAPIC pin %u "
	       "(of %u), vector 0x%x\n",
	       apic_is_x2apic() ? "x2apic" : "xapic", apic_id(), port, pin,
	       ioapic_pins(), VECTOR);
	if (cmdline_uint("other", 0xffff) != 0xffff) {
		unsigned int o = (unsigned int)cmdline_uint("other", 0);

		ioapic_pin_route(o, VECTOR, apic_id(), false);
		printk("uart-irq-demo: pin %u (not the cell's) reads 0x%llx "
		       "after a write\n",
		       o, (unsigned long long)ioapic_pin_entry(o));
	}
	ioapic_pin_route(pin, VECTOR, (uint32_t)cmdline_uint("dest", apic_id()),
			 cmdline_bool("level", false));
	irq_enable();
	if (rx) {
		receive(cmdline_uint("wait_us", 20000));
	} else {
		/* THR is empty: enabling its interrupt raises one at once */
		outb(port + UART_IER, UART_IER_THRE);
		start = rdtsc();
		while (sent < want && !(noeoi && irqs) &&
		       (rdtsc() - start) / tsc_khz() < WAIT_US / 1000)
			asm volatile("pause");
	}
	delay_us(10000);
	irq_disable();
	outb(port + UART_IER, 0);
	outb(port + UART_MCR, UART_MCR_IRQ);
	if (noeoi) {
		printk("uart-irq-demo: left interrupt %u in service, entry "
		       "0x%llx\n",
		       irqs, (unsigned long long)ioapic_pin_entry(pin));
		return;
	}
	ioapic_pin_mask(pin);
	if (rx) {
		printk("uart-irq-demo: %u of %u characters received by "
		       "interrupt, %u interrupts with data (%u mismatched, "
		       "%u other, %u empty)\n",
		       received, want, irqs - empty - other, mismatched, other,
		       empty);
		if (lost)
			printk("uart-irq-demo: %u characters lost\n", lost);
		return;
	}
	printk("uart-irq-demo: %u of %u characters sent, %u interrupts "
	       "(%u other), entry 0x%llx\n",
	       sent, want, irqs, other,
	       (unsigned long long)ioapic_pin_entry(pin));
}
