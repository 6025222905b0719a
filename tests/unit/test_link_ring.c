// SPDX-License-Identifier: GPL-2.0
/*
 * The ring protocol of links (include/warden/link_ring.h): two or three
 * peers on one buffer, as they would share a link's memory.
 */
#include "cmocka_wrap.h"
#include <stdlib.h>
#include <string.h>

#include <warden/link_ring.h>

#define LINK_SIZE 0x100000u

static uint8_t *mem;
static struct warden_link_rings peer[3];
static uint64_t section;

/* Three peers of a 1 MiB link, each started (header initialised). */
static int setup3(void **state)
{
	uint32_t i;

	(void)state;
	mem = aligned_alloc(4096, LINK_SIZE);
	if (!mem)
		return -1;
	memset(mem, 0xa5, LINK_SIZE); /* not zero: init must zero */
	section = warden_link_section_size(LINK_SIZE, 3);
	for (i = 0; i < 3; i++) {
		if (warden_link_rings_setup(&peer[i], mem, NULL, section, i, 3))
			return -1;
		warden_link_ring_init(&peer[i]);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(mem);
	return 0;
}

/* A message of len bytes whose content depends on seq. */
static void fill(uint8_t *buf, size_t len, uint32_t seq)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seq * 31 + i * 7 + 1);
}

static void send_ok(int from, int to, uint32_t c, uint32_t seq, size_t len)
{
	uint8_t buf[WARDEN_LINK_MAX_PAYLOAD];

	fill(buf, len, seq);
	assert_int_equal(warden_link_ring_send(&peer[from], to, c, buf, len),
			 0);
}

static void recv_ok(int at, int from, uint32_t c, uint32_t seq, size_t len)
{
	uint8_t want[WARDEN_LINK_MAX_PAYLOAD], got[WARDEN_LINK_MAX_PAYLOAD];

	fill(want, len, seq);
	assert_int_equal(warden_link_ring_peek(&peer[at], from, c), len);
	assert_int_equal(warden_link_ring_recv(&peer[at], from, c, got,
					       sizeof(got)),
			 len);
	assert_memory_equal(got, want, len);
}

static void geometry(void **state)
{
	struct warden_link_rings r;
	volatile struct warden_link_section_header *h;

	(void)state;
	assert_int_equal(peer[0].slots, warden_link_ring_slots(section));
	/* 21 fit in a third of 1 MiB: 16, a power of 2, so that k % slots
	 * stays in step across the wrap of the index k at 2^32 */
	assert_int_equal(peer[0].slots, 16);
	assert_int_equal(warden_link_ring_slots(0x80000), 16); /* 31 fit */
	assert_int_equal(warden_link_ring_slots(0x8000), 1);
	assert_int_equal(warden_link_ring_slots(0x1000), 0);
	assert_int_equal(warden_link_ring_slots(0x4000), 0);
	assert_int_equal(warden_link_ring_slots(0x1000 + 8 * 2048 * 64), 64);
	h = warden_link_header(&peer[1], 1);
	assert_ptr_equal(h, mem + section);
	assert_int_equal(h->magic, WARDEN_LINK_RING_MAGIC);
	assert_int_equal(h->slots, peer[1].slots);
	assert_int_equal(h->prod[2][1].value, 0);
	assert_int_equal(h->cons[0][0].value, 0);
	/* the last ring of a section ends inside it */
	assert_true(warden_link_ring_offset(section, 0, 3, 1) +
			    (uint64_t)peer[0].slots * WARDEN_LINK_SLOT_SIZE <=
		    section);
	/* refused geometries */
	assert_int_equal(warden_link_rings_setup(&r, mem, NULL, section, 3, 3),
			 -1);
	assert_int_equal(warden_link_rings_setup(&r, mem, NULL, section, 0, 1),
			 -1);
	assert_int_equal(warden_link_rings_setup(&r, mem, NULL, 4096, 0, 2),
			 -1);
}

static void fifo_order(void **state)
{
	uint32_t s;

	(void)state;
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
	for (s = 0; s < 5; s++)
		send_ok(0, 1, WARDEN_LINK_CHANNEL_MSG, s, 10 + s * 100);
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 5);
	assert_int_equal(warden_link_ring_space(&peer[0], 1, 0),
			 peer[0].slots - 5);
	for (s = 0; s < 5; s++)
		recv_ok(1, 0, WARDEN_LINK_CHANNEL_MSG, s, 10 + s * 100);
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
	assert_int_equal(warden_link_ring_recv(&peer[1], 0, 0, NULL, 0), 0);
	assert_int_equal(warden_link_ring_space(&peer[0], 1, 0), peer[0].slots);
}

/* Free-running indexes wrap at 2^32 without a hiccup. */
static void wrap_around(void **state)
{
	volatile struct warden_link_section_header *h0, *h1;
	uint32_t s, n = 3 * peer[0].slots;

	(void)state;
	h0 = warden_link_header(&peer[0], 0);
	h1 = warden_link_header(&peer[1], 1);
	h0->prod[1][0].value = 0xfffffff0u;
	h1->cons[0][0].value = 0xfffffff0u;
	for (s = 0; s < n; s++) {
		send_ok(0, 1, 0, s, 1 + s % 300);
		if (s % 3 == 2) { /* a few in flight across the wrap */
			recv_ok(1, 0, 0, s - 2, 1 + (s - 2) % 300);
			recv_ok(1, 0, 0, s - 1, 1 + (s - 1) % 300);
			recv_ok(1, 0, 0, s, 1 + s % 300);
		}
	}
	assert_int_equal(h0->prod[1][0].value, 0xfffffff0u + n);
	assert_true(h0->prod[1][0].value < 0x1000);
	assert_int_equal(h1->cons[0][0].value, h0->prod[1][0].value);
}

static void full_ring(void **state)
{
	uint32_t s, slots = peer[0].slots;
	uint8_t b = 1;

	(void)state;
	/* full across the wrap too */
	warden_link_header(&peer[0], 0)->prod[1][0].value = 0xfffffffeu;
	warden_link_header(&peer[1], 1)->cons[0][0].value = 0xfffffffeu;
	for (s = 0; s < slots; s++)
		send_ok(0, 1, 0, s, 64);
	assert_int_equal(warden_link_ring_space(&peer[0], 1, 0), 0);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 0, &b, 1), -1);
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), slots);
	recv_ok(1, 0, 0, 0, 64);
	assert_int_equal(warden_link_ring_space(&peer[0], 1, 0), 1);
	send_ok(0, 1, 0, slots, 64);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 0, &b, 1), -1);
	for (s = 1; s <= slots; s++)
		recv_ok(1, 0, 0, s, 64);
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
}

static void lengths(void **state)
{
	uint8_t buf[WARDEN_LINK_MAX_PAYLOAD + 1], small[16];

	(void)state;
	memset(buf, 0, sizeof(buf));
	send_ok(0, 1, 0, 7, 1);
	send_ok(0, 1, 0, 8, WARDEN_LINK_MAX_PAYLOAD);
	recv_ok(1, 0, 0, 7, 1);
	recv_ok(1, 0, 0, 8, WARDEN_LINK_MAX_PAYLOAD);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 0, buf, 0), -1);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 0, buf,
					       WARDEN_LINK_MAX_PAYLOAD + 1),
			 -1);
	/* odd lengths and an unaligned buffer */
	send_ok(0, 1, 0, 9, 13);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 0, buf + 3, 21), 0);
	recv_ok(1, 0, 0, 9, 13);
	assert_int_equal(warden_link_ring_recv(&peer[1], 0, 0, small + 1, 15),
			 -1); /* 21 bytes do not fit in 15: dropped */
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
}

/* A peer that writes a bad length has the message dropped, not copied. */
static void bad_length_dropped(void **state)
{
	uint8_t buf[WARDEN_LINK_MAX_PAYLOAD];
	volatile struct warden_link_slot *slot;

	(void)state;
	send_ok(0, 1, 0, 1, 100);
	send_ok(0, 1, 0, 2, 100);
	slot = warden_link_slot(&peer[0], 0, 1, 0, 0);
	slot->len = WARDEN_LINK_MAX_PAYLOAD + 1;
	assert_int_equal(warden_link_ring_peek(&peer[1], 0, 0), -1);
	assert_int_equal(
		warden_link_ring_recv(&peer[1], 0, 0, buf, sizeof(buf)), -1);
	recv_ok(1, 0, 0, 2, 100);
	/* an index far ahead of the consumer: nothing to read, no loop */
	warden_link_header(&peer[0], 0)->prod[1][0].value += 1000;
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
	assert_int_equal(
		warden_link_ring_recv(&peer[1], 0, 0, buf, sizeof(buf)), 0);
}

static void channels_and_peers_independent(void **state)
{
	uint32_t s;

	(void)state;
	for (s = 0; s < 4; s++) {
		send_ok(0, 2, WARDEN_LINK_CHANNEL_MSG, 100 + s, 50);
		send_ok(0, 2, WARDEN_LINK_CHANNEL_NET, 200 + s, 60);
		send_ok(1, 2, WARDEN_LINK_CHANNEL_MSG, 300 + s, 70);
		send_ok(2, 0, WARDEN_LINK_CHANNEL_NET, 400 + s, 80);
	}
	assert_int_equal(warden_link_ring_pending(&peer[2], 0, 0), 4);
	assert_int_equal(warden_link_ring_pending(&peer[2], 0, 1), 4);
	assert_int_equal(warden_link_ring_pending(&peer[2], 1, 0), 4);
	assert_int_equal(warden_link_ring_pending(&peer[2], 1, 1), 0);
	assert_int_equal(warden_link_ring_pending(&peer[0], 2, 0), 0);
	assert_int_equal(warden_link_ring_pending(&peer[0], 2, 1), 4);
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
	/* drain in a mixed order: each ring keeps its own */
	for (s = 0; s < 4; s++) {
		recv_ok(2, 0, WARDEN_LINK_CHANNEL_NET, 200 + s, 60);
		recv_ok(2, 1, WARDEN_LINK_CHANNEL_MSG, 300 + s, 70);
	}
	for (s = 0; s < 4; s++) {
		recv_ok(0, 2, WARDEN_LINK_CHANNEL_NET, 400 + s, 80);
		recv_ok(2, 0, WARDEN_LINK_CHANNEL_MSG, 100 + s, 50);
	}
	/* out of range */
	assert_int_equal(warden_link_ring_send(&peer[0], 0, 0, "x", 1), -1);
	assert_int_equal(warden_link_ring_send(&peer[0], 3, 0, "x", 1), -1);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 2, "x", 1), -1);
	assert_int_equal(warden_link_ring_recv(&peer[0], 1, 2, NULL, 0), 0);
}

/* A peer restarts: it re-initialises its header, the others reset their
 * indexes for it when they see it come up, and both start at 0. */
static void reset_on_peer_up(void **state)
{
	uint8_t buf[WARDEN_LINK_MAX_PAYLOAD] = { 0 };
	uint32_t s;

	(void)state;
	for (s = 0; s < 7; s++) {
		send_ok(0, 1, 0, s, 30);
		send_ok(1, 0, 1, s, 30);
	}
	for (s = 0; s < 3; s++)
		recv_ok(1, 0, 0, s, 30);

	/* peer 1 goes down: its magic gone, nothing is sent to it */
	warden_link_ring_fini(&peer[1]);
	assert_int_equal(warden_link_ring_send(&peer[0], 1, 0, buf, 1), -1);
	assert_int_equal(warden_link_ring_space(&peer[0], 1, 0), 0);
	assert_int_equal(warden_link_ring_recv(&peer[0], 1, 1, buf, 100), 0);

	/* it starts again: zeroed header, stale slots in memory */
	warden_link_ring_init(&peer[1]);
	assert_int_equal(warden_link_header(&peer[1], 1)->cons[0][0].value, 0);
	/* 1's old messages to 0 are gone with its producer index */
	assert_int_equal(warden_link_ring_pending(&peer[0], 1, 1), 0);

	/* peer 0 sees it up (vector 0) and resets its side */
	warden_link_ring_reset_peer(&peer[0], 1);
	assert_int_equal(warden_link_ring_space(&peer[0], 1, 0), peer[0].slots);
	assert_int_equal(warden_link_ring_pending(&peer[1], 0, 0), 0);
	send_ok(0, 1, 0, 50, 40);
	send_ok(1, 0, 1, 60, 45);
	recv_ok(1, 0, 0, 50, 40);
	recv_ok(0, 1, 1, 60, 45);
	assert_int_equal(warden_link_header(&peer[0], 0)->prod[1][0].value, 1);
	/* peer 2's rings were not touched */
	assert_int_equal(warden_link_ring_space(&peer[2], 1, 0), peer[2].slots);
}

/* A separate writable view of the own section (user space on a
 * DIRECTIONAL link) sees the same rings. */
static void separate_own_view(void **state)
{
	struct warden_link_rings r;
	uint8_t *copy;

	(void)state;
	/* the own view must be the same memory: alias section 1 */
	assert_int_equal(warden_link_rings_setup(&r, mem, mem + section,
						 section, 1, 3),
			 0);
	peer[1] = r;
	send_ok(1, 2, 0, 5, 99);
	recv_ok(2, 1, 0, 5, 99);
	send_ok(2, 1, 0, 6, 77);
	recv_ok(1, 2, 0, 6, 77);
	/* a stale own view is visible as such: a copy does not publish */
	copy = malloc(section);
	assert_non_null(copy);
	memcpy(copy, mem + section, section);
	assert_int_equal(
		warden_link_rings_setup(&peer[1], mem, copy, section, 1, 3), 0);
	send_ok(1, 2, 0, 7, 10);
	assert_int_equal(warden_link_ring_pending(&peer[2], 1, 0), 0);
	free(copy);
}

/* Two peers: the rings of peers 2 and 3 are never used. */
static void two_peers(void **state)
{
	struct warden_link_rings a, b;
	uint8_t *m = aligned_alloc(4096, 0x10000);
	uint64_t sec = warden_link_section_size(0x10000, 2);
	uint8_t buf[WARDEN_LINK_MAX_PAYLOAD];
	uint32_t s;

	(void)state;
	assert_non_null(m);
	assert_int_equal(warden_link_rings_setup(&a, m, NULL, sec, 0, 2), 0);
	assert_int_equal(warden_link_rings_setup(&b, m, NULL, sec, 1, 2), 0);
	assert_int_equal(a.slots, 1); /* 28 KiB / 8 rings: one slot */
	warden_link_ring_init(&a);
	assert_int_equal(warden_link_ring_send(&a, 1, 0, "x", 1), -1);
	warden_link_ring_init(&b);
	for (s = 0; s < 10; s++) {
		fill(buf, 100, s);
		assert_int_equal(warden_link_ring_send(&a, 1, 0, buf, 100), 0);
		assert_int_equal(warden_link_ring_send(&a, 1, 0, buf, 100), -1);
		memset(buf, 0, sizeof(buf));
		assert_int_equal(
			warden_link_ring_recv(&b, 0, 0, buf, sizeof(buf)), 100);
		assert_int_equal(buf[5], (uint8_t)(s * 31 + 5 * 7 + 1));
	}
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(geometry, setup3, teardown),
		cmocka_unit_test_setup_teardown(fifo_order, setup3, teardown),
		cmocka_unit_test_setup_teardown(wrap_around, setup3, teardown),
		cmocka_unit_test_setup_teardown(full_ring, setup3, teardown),
		cmocka_unit_test_setup_teardown(lengths, setup3, teardown),
		cmocka_unit_test_setup_teardown(bad_length_dropped, setup3,
						teardown),
		cmocka_unit_test_setup_teardown(channels_and_peers_independent,
						setup3, teardown),
		cmocka_unit_test_setup_teardown(reset_on_peer_up, setup3,
						teardown),
		cmocka_unit_test_setup_teardown(separate_own_view, setup3,
						teardown),
		cmocka_unit_test(two_peers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
