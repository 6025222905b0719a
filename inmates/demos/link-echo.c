// SPDX-License-Identifier: GPL-2.0
/*
 * link-echo: the other end of every link the cell is a peer of
 * (include/warden/link.h, libinmate's link API).  On start it opens each
 * link function, initialises its section, sets its state up and prints
 *
 *   link-echo: link 0 id 1 of 2 peers up 0x1, 00:01.0, shmem 0x80100000
 *   size 0x100000, 16 slots, 3 vectors, ip 192.168.77.2
 *
 * (one line; "peers up": the other peers up then, bit i = peer i).  Then,
 * for ever:
 *
 *  - channel MSG: every message goes back unchanged to the peer it came
 *    from (the ring it was in);
 *  - channel NET: ARP requests for the link's IPv4 address and ICMP echo
 *    requests to it are answered (inmate/net.h), so that Linux's ping
 *    through the link's wl-<name> interface gets replies; other frames
 *    are counted and dropped.  The MAC is WARDEN_LINK_MAC(l, id), l taken
 *    from the sender's Warden MAC (the system config's link number, which
 *    the function does not tell);
 *  - a peer's state change (vector 0): "link-echo: link N peer P up" or
 *    "... down", and the ring indexes reset for a peer that came up;
 *  - every report=S seconds (10; 0: never) in which something happened,
 *    and at shutdown: "link-echo: link N: echoed M (B bytes), arp A, icmp
 *    I, other O, bad X, full F".
 *
 * Between events the CPU sleeps (sti; hlt), woken by doorbells and a
 * 20 ms APIC timer tick.  A shutdown request is approved: the links go
 * down first.
 *
 * Command line:
 *   ip=A[,B,...]   IPv4 address of link 0, 1, ... (192.168.77.2,
 *                  192.168.78.2, ...: 192.168.(77 + index).2)
 *   report=S       seconds between summaries (10)
 *   apic=x2apic|xapic
 *   tick=US        the APIC timer tick that bounds each sleep (20000; 0:
 *                  none, the CPU wakes only for doorbells: what a test
 *                  of the exits per doorbell wants)
 *   mode=storm link=N peer=P count=C
 *                  containment test: first ring peer P of link N C times
 *                  (100000) in a tight loop, then print
 *     link-storm: rang C in T cycles, dropped D
 *                  (D: the DROPPED register, the doorbells over the
 *                  hypervisor's bound), then serve as above
 *   mode=statestorm link=N count=C
 *                  containment test: toggle this peer's STATE on link N
 *                  C times (1000) in a tight loop, from up (an even C
 *                  ends up), then print
 *     link-statestorm: toggled C in T ms, state S, dropped D
 *                  (each change raises vector 0 of the other peers
 *                  within the hypervisor's bound, which throttles the
 *                  loop; D, the DROPPED register, counts doorbells only
 *                  and stays 0), then serve as above
 *   mode=rowrite link=N peer=P
 *                  containment test: write to peer P's section of link N
 *                  (read-only for this cell on a DIRECTIONAL link): the
 *                  hypervisor fails the cell; "link-rowrite: survived"
 *                  if it did not
 *   mode=ping link=N peer=P count=C size=S wait_us=U up_wait=S
 *                  first a ping client: C messages (1000) of varying
 *                  size (or S bytes) to peer P (0) of link N (0), each
 *                  with a sequence number and a checksum, each echo
 *                  waited for U us (1000000), checked, its round trip
 *                  timed in TSC cycles; waits up to S seconds (30) for
 *                  the peer to come up.  The result:
 *     link-ping: C of C ok, lost 0, corrupted 0, rtt cycles median M max X
 *                  Then it serves as above, except that messages from
 *                  peer P of link N are never echoed (two echo servers
 *                  would bounce a late echo for ever).
 *
 * The ping message (as `warden link ping` sends it): 32-bit words magic
 * 0x474e4950 ("PING"), sequence number, length, checksum, then bytes
 * (seq * 7 + i) & 0xff; the checksum is FNV-1a over the whole message
 * with the checksum word taken as 0.
 */
#include <inmate.h>
#include <inmate/net.h>
#include <warden/link_ping.h>

#define TICK_US 20000
#define MAX_SAMPLES 4096
#define NO_PEER 0xffffffffu

struct counts {
	uint64_t echoed, bytes, arp, icmp, other, bad, full;
};

struct echo_link {
	struct link link;
	uint32_t ip;
	uint32_t seen_state_irqs; /* link_irqs(vector 0) handled */
	uint32_t no_echo_peer;	  /* the ping target: replies, not echoed */
	struct counts now, reported;
};

static struct echo_link links[INMATE_MAX_LINKS];
static unsigned int num_links;
static uint8_t buf[WARDEN_LINK_MAX_PAYLOAD] __attribute__((aligned(8)));
static uint8_t reply[WARDEN_LINK_MAX_PAYLOAD] __attribute__((aligned(8)));
static uint64_t samples[MAX_SAMPLES];

static void print_ip(const char *prefix, uint32_t ip, const char *suffix)
{
	printk("%s%u.%u.%u.%u%s", prefix, ip >> 24, (ip >> 16) & 0xff,
	       (ip >> 8) & 0xff, ip & 0xff, suffix);
}

/* ip=A,B,...: the index-th address, else 192.168.(77 + index).2. */
static uint32_t link_ip(unsigned int index)
{
	const char *s = cmdline_str("ip", "");
	char one[16];
	unsigned int i = 0, n;
	uint32_t ip;

	while (*s && i < index) {
		if (*s++ == ',')
			i++;
	}
	for (n = 0; *s && *s != ',' && n < sizeof(one) - 1; n++)
		one[n] = *s++;
	one[n] = '\0';
	if (n && net_parse_ipv4(one, &ip) == 0)
		return ip;
	if (n)
		printk("link-echo: ip=%s is not an IPv4 address\n", one);
	return NET_IPV4(192, 168, 77 + index, 2);
}

static void summary(struct echo_link *e)
{
	struct counts *c = &e->now;

	printk("link-echo: link %u: echoed %llu (%llu bytes), arp %llu, "
	       "icmp %llu, other %llu, bad %llu, full %llu\n",
	       e->link.index, (unsigned long long)c->echoed,
	       (unsigned long long)c->bytes, (unsigned long long)c->arp,
	       (unsigned long long)c->icmp, (unsigned long long)c->other,
	       (unsigned long long)c->bad, (unsigned long long)c->full);
	e->reported = e->now;
}

static void report_states(struct echo_link *e)
{
	uint32_t up, down, p;

	link_update_states(&e->link, &up, &down);
	for (p = 0; p < e->link.num_peers; p++) {
		if (down & (1u << p))
			printk("link-echo: link %u peer %u down\n",
			       e->link.index, p);
		if (up & (1u << p))
			printk("link-echo: link %u peer %u up\n", e->link.index,
			       p);
	}
}

static void check_states(struct echo_link *e)
{
	uint32_t irqs = link_irqs(&e->link, 0);

	if (irqs == e->seen_state_irqs)
		return;
	e->seen_state_irqs = irqs;
	report_states(e);
}

/* Messages from peer p back to it, as long as there is room back. */
static void echo_messages(struct echo_link *e, uint32_t p)
{
	struct link *l = &e->link;
	unsigned int sent = 0;
	int n;

	for (;;) {
		if (p != e->no_echo_peer &&
		    !warden_link_ring_space(&l->rings, p,
					    WARDEN_LINK_CHANNEL_MSG)) {
			/* left in its ring: the peer drains ours first */
			if (warden_link_ring_pending(&l->rings, p,
						     WARDEN_LINK_CHANNEL_MSG))
				e->now.full++;
			break;
		}
		n = link_recv(l, p, WARDEN_LINK_CHANNEL_MSG, buf, sizeof(buf));
		if (!n)
			break;
		if (n < 0) {
			e->now.bad++;
			continue;
		}
		if (p == e->no_echo_peer)
			continue; /* a late echo of our own ping */
		if (link_send(l, p, WARDEN_LINK_CHANNEL_MSG, buf, (size_t)n) <
		    0) {
			e->now.full++;
			continue;
		}
		e->now.echoed++;
		e->now.bytes += (uint64_t)n;
		sent++;
	}
	if (sent)
		link_notify(l, p, WARDEN_LINK_CHANNEL_MSG);
}

/* The MAC of this peer: the link's number from the sender's Warden MAC
 * (02:57:4c:4b:l:i), else the inmate's own index of the link. */
static void own_mac(const struct echo_link *e, const uint8_t *frame,
		    uint8_t mac[NET_ETH_ALEN])
{
	static const uint8_t prefix[] = { 0x02, 0x57, 0x4c, 0x4b };
	const uint8_t *src = frame + NET_ETH_ALEN;
	uint8_t l = (uint8_t)e->link.index;

	if (!memcmp(src, prefix, sizeof(prefix)))
		l = src[4];
	mac[0] = 0x02;
	mac[1] = 0x57;
	mac[2] = 0x4c;
	mac[3] = 0x4b;
	mac[4] = l;
	mac[5] = (uint8_t)e->link.id;
}

/* Frames from peer p: ARP and ICMP echo for our address answered. */
static void answer_frames(struct echo_link *e, uint32_t p)
{
	struct link *l = &e->link;
	uint8_t mac[NET_ETH_ALEN];
	unsigned int sent = 0;
	size_t reply_len;
	int n;

	for (;;) {
		if (!warden_link_ring_space(&l->rings, p,
					    WARDEN_LINK_CHANNEL_NET)) {
			if (warden_link_ring_pending(&l->rings, p,
						     WARDEN_LINK_CHANNEL_NET))
				e->now.full++;
			break;
		}
		n = link_recv(l, p, WARDEN_LINK_CHANNEL_NET, buf, sizeof(buf));
		if (!n)
			break;
		if (n < 0) {
			e->now.bad++;
			continue;
		}
		if ((size_t)n < NET_ETH_HLEN) {
			e->now.bad++;
			continue;
		}
		own_mac(e, buf, mac);
		switch (net_answer(buf, (size_t)n, e->ip, mac, reply,
				   &reply_len)) {
		case NET_ARP:
			e->now.arp++;
			break;
		case NET_ICMP_ECHO:
			e->now.icmp++;
			break;
		case NET_BAD:
			e->now.bad++;
			continue;
		default:
			e->now.other++;
			continue;
		}
		if (link_send(l, p, WARDEN_LINK_CHANNEL_NET, reply, reply_len) <
		    0) {
			e->now.full++;
			continue;
		}
		sent++;
	}
	if (sent)
		link_notify(l, p, WARDEN_LINK_CHANNEL_NET);
}

static void serve(struct echo_link *e)
{
	uint32_t p;

	check_states(e);
	for (p = 0; p < e->link.num_peers; p++) {
		if (!(e->link.peers_up & (1u << p)))
			continue;
		echo_messages(e, p);
		answer_frames(e, p);
	}
}

/* ---- ping client ---- */

static void sort(uint64_t *v, unsigned int n)
{
	unsigned int gap, i, j;
	uint64_t x;

	for (gap = n / 2; gap; gap /= 2)
		for (i = gap; i < n; i++) {
			x = v[i];
			for (j = i; j >= gap && v[j - gap] > x; j -= gap)
				v[j] = v[j - gap];
			v[j] = x;
		}
}

/* Wait for peer p to be up with its rings valid, serving the others. */
static bool ping_wait_up(struct echo_link *e, uint32_t p, uint64_t seconds)
{
	uint64_t start = rdtsc(), limit = seconds * tsc_khz() * 1000;
	uint32_t seen = link_irq_total();

	while (rdtsc() - start < limit) {
		check_states(e);
		if (e->link.peers_up & (1u << p) &&
		    warden_link_ring_peer_valid(&e->link.rings, p))
			return true;
		link_wait(&seen, 100000, false);
	}
	return false;
}

static void ping(struct echo_link *e)
{
	uint32_t p = (uint32_t)cmdline_uint("peer", 0);
	uint32_t count = (uint32_t)cmdline_uint("count", 1000);
	uint32_t fixed = (uint32_t)cmdline_uint("size", 0);
	uint64_t wait_us = cmdline_uint("wait_us", 1000000);
	uint64_t wait_ticks = wait_us * tsc_khz() / 1000;
	uint32_t seq, ok = 0, lost = 0, corrupted = 0, late = 0, stored = 0;
	struct link *l = &e->link;
	uint64_t max = 0;

	if (p >= l->num_peers || p == l->id ||
	    (fixed &&
	     (fixed < WARDEN_PING_HEADER || fixed > WARDEN_LINK_MAX_PAYLOAD))) {
		printk("link-ping: bad peer %u (link %u has %u, this is %u) "
		       "or size %u (%u-%u)\n",
		       p, l->index, l->num_peers, l->id, fixed,
		       WARDEN_PING_HEADER, WARDEN_LINK_MAX_PAYLOAD);
		return;
	}
	e->no_echo_peer = p;
	if (!ping_wait_up(e, p, cmdline_uint("up_wait", 30))) {
		printk("link-ping: link %u peer %u not up (states 0x%x)\n",
		       l->index, p,
		       link_read32(l, WARDEN_LINK_REG_PEER_STATES));
		return;
	}
	printk("link-ping: link %u peer %u up, %u messages\n", l->index, p,
	       count);
	for (seq = 0; seq < count; seq++) {
		uint32_t len = warden_ping_size(seq, fixed);
		uint64_t t0, t;
		int n = 0, r = 0;

		check_states(e);
		if (!(l->peers_up & (1u << p))) {
			printk("link-ping: peer %u went down at %u\n", p, seq);
			lost += count - seq;
			break;
		}
		warden_ping_fill(reply, seq, len);
		t0 = rdtsc();
		if (link_send(l, p, WARDEN_LINK_CHANNEL_MSG, reply, len) < 0) {
			lost++; /* the ring is full of unanswered ones */
			continue;
		}
		link_notify(l, p, WARDEN_LINK_CHANNEL_MSG);
		/* poll: the lowest latency, and no interrupt needed */
		for (;;) {
			n = link_recv(l, p, WARDEN_LINK_CHANNEL_MSG, buf,
				      sizeof(buf));
			t = rdtsc();
			if (n) {
				r = n < 0 ? -1
					  : warden_ping_check(buf, n, seq, len);
				if (r)
					break;
				late++;
				continue;
			}
			if (t - t0 >= wait_ticks)
				break;
			cpu_relax();
		}
		if (r > 0) {
			ok++;
			if (t - t0 > max)
				max = t - t0;
			if (stored < MAX_SAMPLES)
				samples[stored++] = t - t0;
		} else if (r < 0) {
			corrupted++;
		} else {
			lost++;
			if (lost <= 3)
				printk("link-ping: seq %u: no echo in %llu "
				       "us\n",
				       seq, (unsigned long long)wait_us);
		}
	}
	sort(samples, stored);
	printk("link-ping: %u of %u ok, lost %u, corrupted %u, rtt cycles "
	       "median %llu max %llu\n",
	       ok, count, lost, corrupted,
	       (unsigned long long)(stored ? samples[stored / 2] : 0),
	       (unsigned long long)max);
	if (late)
		printk("link-ping: %u late echoes dropped\n", late);
	if (stored)
		printk("link-ping: rtt median %llu ns, TSC %u kHz\n",
		       (unsigned long long)tsc_ticks_to_ns(samples[stored / 2]),
		       tsc_khz());
}

/* ---- main ---- */

/* mode=storm: ring as fast as the CPU can. */
static void storm(struct echo_link *e)
{
	uint32_t p = (uint32_t)cmdline_uint("peer", 0);
	uint64_t count = cmdline_uint("count", 100000), i, start;
	uint32_t bell = WARDEN_LINK_DOORBELL(
		p, warden_link_vector(
			   WARDEN_LINK_CHANNEL_MSG,
			   link_read32(&e->link,
				       WARDEN_LINK_REG_PEER_VECTORS(p))));

	start = rdtsc();
	for (i = 0; i < count; i++)
		link_write32(&e->link, WARDEN_LINK_REG_DOORBELL, bell);
	printk("link-storm: rang %llu in %llu cycles, dropped %u\n",
	       (unsigned long long)count, (unsigned long long)(rdtsc() - start),
	       link_read32(&e->link, WARDEN_LINK_REG_DROPPED));
}

/* mode=statestorm: change state as fast as the CPU can. */
static void statestorm(struct echo_link *e)
{
	uint64_t count = cmdline_uint("count", 1000), i, start, ticks;
	uint32_t state = WARDEN_LINK_STATE_UP;

	start = rdtsc();
	for (i = 0; i < count; i++) {
		state = state == WARDEN_LINK_STATE_UP ? WARDEN_LINK_STATE_DOWN
						      : WARDEN_LINK_STATE_UP;
		link_write32(&e->link, WARDEN_LINK_REG_STATE, state);
	}
	ticks = rdtsc() - start;
	printk("link-statestorm: toggled %llu in %llu ms, state %u, dropped "
	       "%u\n",
	       (unsigned long long)count,
	       (unsigned long long)(ticks / tsc_khz()),
	       link_read32(&e->link, WARDEN_LINK_REG_STATE),
	       link_read32(&e->link, WARDEN_LINK_REG_DROPPED));
}

/* mode=rowrite: a store into another peer's section. */
static void rowrite(struct echo_link *e)
{
	uint32_t p = (uint32_t)cmdline_uint("peer", 0);
	volatile uint32_t *w =
		(volatile uint32_t *)(uintptr_t)(e->link.shmem +
						 p * e->link.section_size + 64);

	printk("link-rowrite: writing peer %u's section at 0x%llx\n", p,
	       (unsigned long long)(uintptr_t)w);
	*w = 0x5741524e;
	printk("link-rowrite: survived\n");
}

static bool start_link(struct echo_link *e)
{
	struct link *l = &e->link;
	char name[8];

	e->ip = link_ip(l->index);
	e->no_echo_peer = NO_PEER;
	if (link_irq_setup(l) < 0)
		printk("link-echo: link %u: no interrupts, polling\n",
		       l->index);
	e->seen_state_irqs = link_irqs(l, 0);
	link_start(l);
	printk("link-echo: link %u id %u of %u peers up 0x%x, %s, shmem "
	       "0x%llx size 0x%llx, %u slots, %u vectors",
	       l->index, l->id, l->num_peers, l->peers_up,
	       pci_bdf_name(l->bdf, name), (unsigned long long)l->shmem,
	       (unsigned long long)l->shmem_size, l->rings.slots, l->vectors);
	print_ip(", ip ", e->ip, "\n");
	return true;
}

static void shutdown(void)
{
	unsigned int i;

	for (i = 0; i < num_links; i++)
		link_stop(&links[i].link);
	for (i = 0; i < num_links; i++)
		summary(&links[i]);
	printk("link-echo: shutdown approved\n");
	comm_handle_shutdown(true);
	inmate_halt();
}

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("apic", "x2apic"), "xapic") != 0;
	const char *mode = cmdline_str("mode", "echo");
	uint64_t tick = cmdline_uint("tick", TICK_US);
	uint64_t report_ticks = cmdline_uint("report", 10) * tsc_khz() * 1000;
	struct link found[INMATE_MAX_LINKS];
	uint64_t last_report = rdtsc();
	uint32_t seen;
	unsigned int i;

	if (apic_init(x2apic) < 0) {
		printk("link-echo: no local APIC\n");
		comm_set_state(WARDEN_CELL_FAILED);
		return;
	}
	num_links = link_find(found, INMATE_MAX_LINKS, 0);
	printk("link-echo: %u link(s), APIC ID %u, TSC %u kHz\n", num_links,
	       apic_id(), tsc_khz());
	for (i = 0; i < num_links; i++) {
		links[i].link = found[i];
		start_link(&links[i]);
	}
	if (tick && link_tick_start(tick) < 0)
		printk("link-echo: no APIC timer tick, polling\n");
	irq_enable();

	if (strcmp(mode, "echo")) {
		unsigned int n = (unsigned int)cmdline_uint("link", 0);

		if (n >= num_links)
			printk("link-%s: no link %u (%u found)\n", mode, n,
			       num_links);
		else if (!strcmp(mode, "ping"))
			ping(&links[n]);
		else if (!strcmp(mode, "storm"))
			storm(&links[n]);
		else if (!strcmp(mode, "statestorm"))
			statestorm(&links[n]);
		else if (!strcmp(mode, "rowrite"))
			rowrite(&links[n]);
		else
			printk("link-echo: unknown mode=%s\n", mode);
	}

	seen = link_irq_total();
	for (;;) {
		for (i = 0; i < num_links; i++)
			serve(&links[i]);
		if (comm_shutdown_requested())
			shutdown();
		if (report_ticks && rdtsc() - last_report >= report_ticks) {
			last_report = rdtsc();
			for (i = 0; i < num_links; i++)
				if (memcmp(&links[i].now, &links[i].reported,
					   sizeof(struct counts)))
					summary(&links[i]);
		}
		link_wait(&seen, tick, false);
	}
}
