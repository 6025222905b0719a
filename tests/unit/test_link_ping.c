// SPDX-License-Identifier: GPL-2.0
/*
 * "warden link ping" (tools/link_ping.c) against a fake
 * /dev/warden-link-NAME: open, flock, ioctl, mmap, poll and read are
 * wrapped (-Wl,--wrap) so that the device is a buffer in this process
 * and a RING ioctl runs the echo peer (peer 1) at once, with the ring
 * code of include/warden/link_ring.h on its side too.  The peer can
 * corrupt, drop or go down, to see the client count and say so.
 */
#include "cmocka_wrap.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <warden/link_ring.h>

#include "link_ping.h"
#include "warden.h"

#define LINK_SIZE 0x100000u

enum mode { ECHO, CORRUPT_ONE, DROP_ONE, GO_DOWN, SILENT };

static uint8_t *mem;
static struct warden_link_rings echo_side, root_side;
static struct warden_link_info info;
static enum mode mode;
static unsigned int rings, pending_events;
static uint32_t states;

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __wrap_flock(int fd, int op);
int __wrap_ioctl(int fd, unsigned long req, void *arg);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
int __wrap_munmap(void *addr, size_t len);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);
ssize_t __wrap_read(int fd, void *buf, size_t len);

int __wrap_open(const char *path, int flags, ...)
{
	(void)flags;
	if (strcmp(path, "/dev/warden-link-echo")) {
		errno = ENOENT;
		return -1;
	}
	return __real_open("/dev/null", O_RDONLY);
}

int __wrap_flock(int fd, int op)
{
	(void)fd;
	(void)op;
	return 0;
}

/* Peer 1: whatever root sent comes back, as mode says. */
static void echo_peer(void)
{
	uint8_t buf[WARDEN_LINK_MAX_PAYLOAD];
	int n;

	while ((n = warden_link_ring_recv(&echo_side, 0, 0, buf, sizeof(buf))) >
	       0) {
		rings++;
		if (mode == SILENT || (mode == DROP_ONE && rings == 3))
			continue;
		if (mode == CORRUPT_ONE && rings == 2)
			buf[n - 1] ^= 0x40;
		assert_int_equal(warden_link_ring_send(&echo_side, 0, 0, buf,
						       (size_t)n),
				 0);
		pending_events++;
	}
	if (mode == GO_DOWN && rings == 4) {
		states &= ~2u;
		pending_events++;
	}
}

int __wrap_ioctl(int fd, unsigned long req, void *arg)
{
	(void)fd;
	if (req == WARDEN_LINK_IOCTL_INFO) {
		memcpy(arg, &info, sizeof(info));
		return 0;
	}
	if (req == WARDEN_LINK_IOCTL_RING) {
		const struct warden_link_ring *r = arg;

		assert_int_equal(r->peer, 1);
		assert_int_equal(r->vector, 1); /* MSG with 3 vectors */
		if (!(states & 2u)) {
			errno = ENOTCONN;
			return -1;
		}
		echo_peer();
		return 0;
	}
	errno = ENOTTY;
	return -1;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	(void)addr;
	(void)flags;
	(void)fd;
	/* a writable mapping of a DIRECTIONAL link: root's section only */
	if (prot & 2 /* PROT_WRITE */)
		assert_true(off == 0 && len == info.section_size);
	else
		assert_true(off == 0 && len == LINK_SIZE);
	return mem + off;
}

int __wrap_munmap(void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return 0;
}

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	(void)n;
	(void)timeout;
	fds[0].revents = pending_events ? POLLIN : 0;
	if (!pending_events)
		usleep(1000); /* the lost message's second passes */
	return pending_events ? 1 : 0;
}

ssize_t __wrap_read(int fd, void *buf, size_t len)
{
	struct warden_link_event ev = { 0 };

	(void)fd;
	assert_true(len >= sizeof(ev));
	if (!pending_events) {
		errno = EAGAIN;
		return -1;
	}
	ev.doorbells = pending_events;
	ev.peer_states = states;
	pending_events = 0;
	memcpy(buf, &ev, sizeof(ev));
	return sizeof(ev);
}

/* The "echo" link: Linux peer 0, link-echo peer 1, both up; warden.ko
 * initialised root's section, link-echo its own. */
static int setup(void **state)
{
	(void)state;
	mem = aligned_alloc(4096, LINK_SIZE);
	if (!mem)
		return -1;
	memset(mem, 0, LINK_SIZE);
	memset(&info, 0, sizeof(info));
	strcpy(info.name, "echo");
	info.id = 0;
	info.num_peers = 2;
	info.flags = WARDEN_LINK_DIRECTIONAL;
	info.vectors = 3;
	info.shmem_size = LINK_SIZE;
	info.section_size = warden_link_section_size(LINK_SIZE, 2);
	info.peer_states = states = 3;
	info.peer_vectors[0] = info.peer_vectors[1] = 3;
	if (warden_link_rings_setup(&root_side, mem, NULL, info.section_size, 0,
				    2) ||
	    warden_link_rings_setup(&echo_side, mem, NULL, info.section_size, 1,
				    2))
		return -1;
	warden_link_ring_init(&root_side);
	warden_link_ring_init(&echo_side);
	mode = ECHO;
	rings = pending_events = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(mem);
	return 0;
}

static int ping(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[8] = { "ping", "echo" };
	int argc = 2;

	if (a1)
		argv[argc++] = (char *)a1;
	if (a2)
		argv[argc++] = (char *)a2;
	if (a3)
		argv[argc++] = (char *)a3;
	if (a4)
		argv[argc++] = (char *)a4;
	return cmd_link_ping(argc, argv);
}

static void all_come_back(void **state)
{
	(void)state;
	assert_int_equal(ping("-c", "40", "-q", NULL), EXIT_OK);
	assert_int_equal(rings, 40);
	assert_int_equal(ping("-c", "5", "-s", "2040"), EXIT_OK);
	assert_int_equal(ping("-c", "5", "-s", "16"), EXIT_OK);
	assert_int_equal(ping("-p", "1", "-q", NULL), EXIT_OK);
	/* 40 + 5 + 5 + 10: more than a ring's slots, wrapped around */
	assert_int_equal(rings, 60);
}

static void corrupted_counted(void **state)
{
	(void)state;
	mode = CORRUPT_ONE;
	assert_int_equal(ping("-c", "5", NULL, NULL), EXIT_CHECK_FAILED);
	assert_int_equal(rings, 5);
}

static void lost_counted(void **state)
{
	(void)state;
	mode = DROP_ONE;
	assert_int_equal(ping("-c", "4", NULL, NULL), EXIT_CHECK_FAILED);
	assert_int_equal(rings, 4);
}

static void peer_down_stops(void **state)
{
	(void)state;
	mode = GO_DOWN;
	assert_int_equal(ping("-c", "10", NULL, NULL), EXIT_ERROR);
	assert_true(rings >= 4 && rings <= 5);
}

static void refusals(void **state)
{
	(void)state;
	/* usage */
	assert_int_equal(cmd_link_ping(1, (char *[]){ "ping", NULL }),
			 EXIT_ERROR);
	assert_int_equal(ping("-c", "0", NULL, NULL), EXIT_ERROR);
	assert_int_equal(ping("-s", "15", NULL, NULL), EXIT_ERROR);
	assert_int_equal(ping("-s", "2041", NULL, NULL), EXIT_ERROR);
	assert_int_equal(ping("-x", NULL, NULL, NULL), EXIT_ERROR);
	/* Linux itself, a peer the link does not have */
	assert_int_equal(ping("-p", "0", NULL, NULL), EXIT_ERROR);
	assert_int_equal(ping("-p", "2", NULL, NULL), EXIT_ERROR);
	/* no such link */
	assert_int_equal(cmd_link_ping(2, (char *[]){ "ping", "trio", NULL }),
			 EXIT_ERROR);
	/* the peer down, or up without its section */
	info.peer_states = 1;
	assert_int_equal(ping(NULL, NULL, NULL, NULL), EXIT_ERROR);
	info.peer_states = 3;
	warden_link_ring_fini(&echo_side);
	assert_int_equal(ping(NULL, NULL, NULL, NULL), EXIT_ERROR);
	warden_link_ring_init(&echo_side);
	/* root's section not initialised by the driver */
	warden_link_ring_fini(&root_side);
	assert_int_equal(ping(NULL, NULL, NULL, NULL), EXIT_ERROR);
	assert_int_equal(rings, 0);
}

static void stale_echoes_dropped(void **state)
{
	uint8_t junk[100] = { 1, 2, 3 };

	(void)state;
	/* left over from an earlier client: not taken for ours */
	assert_int_equal(warden_link_ring_send(&echo_side, 0, 0, junk, 100), 0);
	assert_int_equal(warden_link_ring_send(&echo_side, 0, 0, junk, 50), 0);
	assert_int_equal(ping("-c", "3", NULL, NULL), EXIT_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(all_come_back, setup, teardown),
		cmocka_unit_test_setup_teardown(corrupted_counted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(lost_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(peer_down_stops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(stale_echoes_dropped, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
