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
 */
#include <inmate.h>

#define VECTOR 0x51
#define UART_IER 1
#define UART_IIR 2
#define UART_MCR 4
#define UART_LSR 5
#define UART_IER_THRE 0x02
#define UART_IIR_THRE 0x02
#define UART_IIR_NONE 0x01
/* DTR, RTS and OUT2: on a PC, OUT2 connects the UART's interrupt line */
#define UART_MCR_IRQ 0x0b
#define WAIT_US 3000000

static uint16_t port;
static unsigned int want;
static bool noeoi;
static volatile unsigned int irqs, sent, other;

static void uart_irq(unsigned int vector)
{
	uint8_t iir = inb(port + UART_IIR);

	(void)vector;
	irqs++;
	if (noeoi) {
		outb(port + UART_IER, 0);
		return; /* no EOI: the interrupt stays in service */
	}
	if ((iir & 0x0f) == UART_IIR_THRE) {
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

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("mode", "x2apic"), "xapic") != 0;
	unsigned int pin = (unsigned int)cmdline_uint("pin", 3);
	uint64_t start;

	port = (uint16_t)cmdline_uint("port", 0x2e8);
	noeoi = cmdline_bool("noeoi", false);
	want = (unsigned int)cmdline_uint("chars", 200);
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
	/* THR is empty: enabling its interrupt raises one at once */
	outb(port + UART_IER, UART_IER_THRE);
	start = rdtsc();
	while (sent < want && !(noeoi && irqs) &&
	       (rdtsc() - start) / tsc_khz() < WAIT_US / 1000)
		asm volatile("pause");
	delay_us(10000);
	irq_disable();
	outb(port + UART_IER, 0);
	if (noeoi) {
		printk("uart-irq-demo: left interrupt %u in service, entry "
		       "0x%llx\n",
		       irqs, (unsigned long long)ioapic_pin_entry(pin));
		return;
	}
	ioapic_pin_mask(pin);
	printk("uart-irq-demo: %u of %u characters sent, %u interrupts "
	       "(%u other), entry 0x%llx\n",
	       sent, want, irqs, other,
	       (unsigned long long)ioapic_pin_entry(pin));
}
