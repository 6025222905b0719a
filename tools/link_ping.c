// SPDX-License-Identifier: GPL-2.0
/*
 * "warden link ping": a client of a link's message channel from user
 * space.  /dev/warden-link-NAME (include/warden/link.h section 4) tells
 * the geometry (INFO), maps the shared memory and rings doorbells (RING);
 * read() and poll() report doorbells and state changes.  warden.ko owns
 * root's section header (it initialises it and resets the indexes of a
 * peer that comes up); this client only produces and consumes on the
 * message channel, with the ring code all peers share
 * (include/warden/link_ring.h).  One client per link at a time: the
 * device is locked (flock) while it runs, since a ring has one producer.
 *
 * The message, as the link-echo inmate's ping mode sends it: 32-bit
 * words magic 0x474e4950 ("PING"), sequence number, length, checksum,
 * then bytes (seq * 7 + i) & 0xff; the checksum is FNV-1a over the whole
 * message with the checksum word taken as 0.  Without -s the sizes vary
 * from 16 bytes to the largest payload.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <warden/link_ping.h>
#include <warden/link_ring.h>

#include "link_ping.h"
#include "warden.h"

#define WAIT_MS 1000
#define MAX_COUNT 10000000u

struct ping {
	const char *name;
	int fd;
	struct warden_link_info info;
	void *mem, *own;
	struct warden_link_rings rings;
	uint32_t peer, vector;
};

/* One round trip's result. */
enum outcome { ECHO_OK, ECHO_LOST, ECHO_CORRUPT, PEER_DOWN, FAILED };

static int usage(FILE *out)
{
	fprintf(out,
		"Usage: warden link ping <name> [-c <count>] [-p <peer>] "
		"[-s <size>] [-q]\n\n"
		"Sends <count> (10) messages, one at a time, to peer <peer> "
		"of link <name>\n"
		"(default: the first other peer that is up) on the message "
		"channel, and\n"
		"waits up to a second for each to come back from an echo "
		"server (the\n"
		"link-echo inmate). Each carries a sequence number and a "
		"checksum; each\n"
		"echo is checked and its round trip timed. <size>: bytes per "
		"message\n"
		"(%u-%u; default: varying over that range). -q: only the "
		"summary.\n"
		"Exit status: 0 all came back intact, 1 some were lost or "
		"corrupted,\n2 error.\n",
		WARDEN_PING_HEADER, WARDEN_LINK_MAX_PAYLOAD);
	return out == stdout ? EXIT_OK : EXIT_ERROR;
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = (uint32_t)v;
	return true;
}

/*
 * Open the device, read the link's geometry, map the memory (the whole
 * read-only plus root's section writable on a DIRECTIONAL link, else the
 * whole writable) and check that the driver initialised root's section.
 */
static int open_link(struct ping *p)
{
	char path[64 + WARDEN_NAME_LEN];
	volatile struct warden_link_section_header *own;
	bool directional;
	int prot;

	snprintf(path, sizeof(path), "/dev/warden-link-%s", p->name);
	p->fd = open(path, O_RDWR | O_CLOEXEC);
	if (p->fd < 0) {
		fprintf(stderr,
			"warden: link ping: %s: %s (no link '%s' with Linux "
			"as a peer, or warden.ko not loaded; see 'warden "
			"link list')\n",
			path, strerror(errno), p->name);
		return -1;
	}
	if (flock(p->fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr,
			"warden: link ping: %s: %s (another client uses the "
			"link's message rings)\n",
			path, errno == EWOULDBLOCK ? "busy" : strerror(errno));
		return -1;
	}
	if (ioctl(p->fd, WARDEN_LINK_IOCTL_INFO, &p->info) < 0) {
		fprintf(stderr, "warden: link ping: %s: INFO: %s\n", path,
			strerror(errno));
		return -1;
	}
	directional = p->info.flags & WARDEN_LINK_DIRECTIONAL;
	prot = directional ? PROT_READ : PROT_READ | PROT_WRITE;
	p->mem = mmap(NULL, p->info.shmem_size, prot, MAP_SHARED, p->fd, 0);
	if (p->mem == MAP_FAILED) {
		fprintf(stderr,
			"warden: link ping: %s: mapping 0x%llx bytes: %s\n",
			path, (unsigned long long)p->info.shmem_size,
			strerror(errno));
		return -1;
	}
	if (directional) {
		/* one writer per direction: root writes its section only */
		p->own = mmap(NULL, p->info.section_size,
			      PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
			      (off_t)(p->info.id * p->info.section_size));
		if (p->own == MAP_FAILED) {
			fprintf(stderr,
				"warden: link ping: %s: mapping section %u "
				"writable: %s\n",
				path, p->info.id, strerror(errno));
			p->own = NULL;
			return -1;
		}
	}
	if (warden_link_rings_setup(&p->rings, p->mem, p->own,
				    p->info.section_size, p->info.id,
				    p->info.num_peers) < 0) {
		fprintf(stderr,
			"warden: link ping: %s: peer %u of %u, section 0x%llx:"
			" no rings fit\n",
			path, p->info.id, p->info.num_peers,
			(unsigned long long)p->info.section_size);
		return -1;
	}
	own = warden_link_header(&p->rings, p->info.id);
	if (own->magic != WARDEN_LINK_RING_MAGIC ||
	    own->slots != p->rings.slots) {
		fprintf(stderr,
			"warden: link ping: %s: root's section is not "
			"initialised (magic 0x%x, %u slots; expected %u): "
			"warden.ko does it when it takes the link\n",
			path, own->magic, own->slots, p->rings.slots);
		return -1;
	}
	return 0;
}

static void close_link(struct ping *p)
{
	if (p->own)
		munmap(p->own, p->info.section_size);
	if (p->mem && p->mem != MAP_FAILED)
		munmap(p->mem, p->info.shmem_size);
	if (p->fd >= 0)
		close(p->fd);
}

/* The peer to ping: -p, or the first other one that is up. */
static int choose_peer(struct ping *p, bool given)
{
	uint32_t j;

	if (!given) {
		for (j = 0; j < p->info.num_peers; j++)
			if (j != p->info.id && p->info.peer_states & (1u << j))
				break;
		if (j == p->info.num_peers) {
			fprintf(stderr,
				"warden: link ping: %s: no other peer is up "
				"(states 0x%x)\n",
				p->name, p->info.peer_states);
			return -1;
		}
		p->peer = j;
	}
	if (p->peer >= p->info.num_peers || p->peer == p->info.id) {
		fprintf(stderr,
			"warden: link ping: %s: peer %u: the link's peers are "
			"0-%u, Linux is %u\n",
			p->name, p->peer, p->info.num_peers - 1, p->info.id);
		return -1;
	}
	if (!(p->info.peer_states & (1u << p->peer))) {
		fprintf(stderr, "warden: link ping: %s: peer %u is down\n",
			p->name, p->peer);
		return -1;
	}
	if (!warden_link_ring_peer_valid(&p->rings, p->peer)) {
		fprintf(stderr,
			"warden: link ping: %s: peer %u is up but its section "
			"is not initialised (magic 0x%x)\n",
			p->name, p->peer,
			warden_link_header(&p->rings, p->peer)->magic);
		return -1;
	}
	p->vector = warden_link_vector(WARDEN_LINK_CHANNEL_MSG,
				       p->info.peer_vectors[p->peer]);
	return 0;
}

/* Wait for a doorbell or a state change, at most ms; false if the peer
 * went down (said on stderr) or the wait failed. */
static bool wait_event(struct ping *p, int ms)
{
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	struct warden_link_event ev;
	ssize_t n;

	if (poll(&pfd, 1, ms) < 0) {
		if (errno == EINTR)
			return true;
		fprintf(stderr, "warden: link ping: %s: poll: %s\n", p->name,
			strerror(errno));
		return false;
	}
	if (!(pfd.revents & POLLIN))
		return true;
	n = read(p->fd, &ev, sizeof(ev));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n != (ssize_t)sizeof(ev)) {
		fprintf(stderr, "warden: link ping: %s: read: %s\n", p->name,
			n < 0 ? strerror(errno) : "short event");
		return false;
	}
	if (!(ev.peer_states & (1u << p->peer))) {
		fprintf(stderr, "warden: link ping: %s: peer %u went down\n",
			p->name, p->peer);
		return false;
	}
	return true;
}

/* One message out and its echo back: the outcome, the round trip in
 * *ns and *cycles. */
static enum outcome round_trip(struct ping *p, uint32_t seq, uint32_t len,
			       uint8_t *out, uint8_t *in, uint64_t *ns,
			       uint64_t *cycles)
{
	struct warden_link_ring ring = { .peer = p->peer, .vector = p->vector };
	uint64_t t0, c0, deadline;
	int n, r;

	warden_ping_fill(out, seq, len);
	t0 = now_ns();
	c0 = rdtsc();
	if (warden_link_ring_send(&p->rings, p->peer, WARDEN_LINK_CHANNEL_MSG,
				  out, len) < 0)
		return ECHO_LOST; /* full of unanswered ones */
	if (ioctl(p->fd, WARDEN_LINK_IOCTL_RING, &ring) < 0) {
		fprintf(stderr,
			"warden: link ping: %s: RING peer %u vector "
			"%u: %s\n",
			p->name, p->peer, p->vector,
			errno == ENOTCONN ? "the peer is down"
					  : strerror(errno));
		return errno == ENOTCONN ? PEER_DOWN : FAILED;
	}
	deadline = t0 + WAIT_MS * 1000000ull;
	for (;;) {
		n = warden_link_ring_recv(&p->rings, p->peer,
					  WARDEN_LINK_CHANNEL_MSG, in,
					  WARDEN_LINK_MAX_PAYLOAD);
		if (n) {
			*cycles = rdtsc() - c0;
			*ns = now_ns() - t0;
			r = n < 0 ? -1 : warden_ping_check(in, n, seq, len);
			if (r > 0)
				return ECHO_OK;
			if (r < 0)
				return ECHO_CORRUPT;
			continue; /* a late echo of an earlier message */
		}
		if (now_ns() >= deadline)
			return ECHO_LOST;
		if (!wait_event(p, (int)((deadline - now_ns()) / 1000000 + 1)))
			return PEER_DOWN;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int run(struct ping *p, uint32_t count, uint32_t fixed, bool quiet)
{
	uint8_t out[WARDEN_LINK_MAX_PAYLOAD], in[WARDEN_LINK_MAX_PAYLOAD];
	uint64_t *ns = calloc(count, sizeof(*ns));
	uint64_t *cyc = calloc(count, sizeof(*cyc));
	uint32_t seq, sent = 0, got = 0, corrupt = 0, stale = 0;
	enum outcome o = ECHO_OK;
	int n;

	if (!ns || !cyc) {
		fprintf(stderr, "warden: link ping: out of memory\n");
		free(ns);
		free(cyc);
		return EXIT_ERROR;
	}
	/* echoes left over from an earlier client are not ours */
	while ((n = warden_link_ring_recv(&p->rings, p->peer,
					  WARDEN_LINK_CHANNEL_MSG, in,
					  sizeof(in))) != 0)
		stale++;
	if (!quiet && fixed)
		printf("PING link %s peer %u: %u messages of %u bytes\n",
		       p->name, p->peer, count, fixed);
	else if (!quiet)
		printf("PING link %s peer %u: %u messages of %u-%u bytes\n",
		       p->name, p->peer, count, WARDEN_PING_HEADER,
		       WARDEN_LINK_MAX_PAYLOAD);
	for (seq = 0; seq < count; seq++) {
		uint32_t len = warden_ping_size(seq, fixed);
		uint64_t t = 0, c = 0;

		o = round_trip(p, seq, len, out, in, &t, &c);
		if (o == PEER_DOWN || o == FAILED)
			break;
		sent++;
		if (o == ECHO_OK) {
			ns[got] = t;
			cyc[got] = c;
			got++;
			if (!quiet)
				printf("seq=%u bytes=%u time=%.1f us "
				       "cycles=%llu\n",
				       seq, len, (double)t / 1000.0,
				       (unsigned long long)c);
		} else if (o == ECHO_CORRUPT) {
			corrupt++;
			if (!quiet)
				printf("seq=%u bytes=%u corrupted\n", seq, len);
		} else if (!quiet) {
			printf("seq=%u bytes=%u lost (no echo in %u ms)\n", seq,
			       len, WAIT_MS);
		}
	}
	if (stale && !quiet)
		printf("%u stale message(s) dropped first\n", stale);
	qsort(ns, got, sizeof(*ns), cmp_u64);
	qsort(cyc, got, sizeof(*cyc), cmp_u64);
	printf("%u sent, %u received, %u corrupted, rtt min/median/max = "
	       "%.1f/%.1f/%.1f us, cycles median %llu max %llu\n",
	       sent, got, corrupt, got ? (double)ns[0] / 1000.0 : 0.0,
	       got ? (double)ns[got / 2] / 1000.0 : 0.0,
	       got ? (double)ns[got - 1] / 1000.0 : 0.0,
	       (unsigned long long)(got ? cyc[got / 2] : 0),
	       (unsigned long long)(got ? cyc[got - 1] : 0));
	free(ns);
	free(cyc);
	if (o == PEER_DOWN || o == FAILED)
		return EXIT_ERROR;
	return got == count && !corrupt ? EXIT_OK : EXIT_CHECK_FAILED;
}

int cmd_link_ping(int argc, char **argv)
{
	struct ping p = { .fd = -1 };
	uint32_t count = 10, fixed = 0;
	bool quiet = false, peer_given = false;
	int i, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return usage(stdout);
		if (!strcmp(a, "-q")) {
			quiet = true;
		} else if (!strcmp(a, "-c") && more) {
			if (!parse_u32(argv[++i], 1, MAX_COUNT, &count))
				return usage(stderr);
		} else if (!strcmp(a, "-p") && more) {
			if (!parse_u32(argv[++i], 0, WARDEN_LINK_MAX_PEERS - 1,
				       &p.peer))
				return usage(stderr);
			peer_given = true;
		} else if (!strcmp(a, "-s") && more) {
			if (!parse_u32(argv[++i], WARDEN_PING_HEADER,
				       WARDEN_LINK_MAX_PAYLOAD, &fixed))
				return usage(stderr);
		} else if (a[0] != '-' && !p.name) {
			p.name = a;
		} else {
			return usage(stderr);
		}
	}
	if (!p.name || strlen(p.name) >= WARDEN_NAME_LEN || strchr(p.name, '/'))
		return usage(stderr);
	if (open_link(&p) < 0 || choose_peer(&p, peer_given) < 0) {
		close_link(&p);
		return EXIT_ERROR;
	}
	ret = run(&p, count, fixed, quiet);
	close_link(&p);
	return ret;
}
