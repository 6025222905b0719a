// SPDX-License-Identifier: GPL-2.0
/*
 * The ARP and ICMP echo responder of link-echo (inmates/lib/net.c): the
 * replies Linux's ping needs, checked field by field and by checksum.
 */
#include "cmocka_wrap.h"
#include <string.h>

#include <inmate/net.h>

static const uint8_t our_mac[6] = { 0x02, 0x57, 0x4c, 0x4b, 0x00, 0x01 };
static const uint8_t linux_mac[6] = { 0x02, 0x57, 0x4c, 0x4b, 0x00, 0x00 };
#define OUR_IP NET_IPV4(192, 168, 77, 2)
#define LINUX_IP NET_IPV4(192, 168, 77, 1)

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* An ARP request from Linux for ip; returns its length. */
static size_t arp_request(uint8_t *f, uint32_t ip)
{
	memset(f, 0xff, 6);
	memcpy(f + 6, linux_mac, 6);
	put16(f + 12, NET_ETHERTYPE_ARP);
	put16(f + 14, 1);
	put16(f + 16, NET_ETHERTYPE_IPV4);
	f[18] = 6;
	f[19] = 4;
	put16(f + 20, NET_ARP_REQUEST);
	memcpy(f + 22, linux_mac, 6);
	put32(f + 28, LINUX_IP);
	memset(f + 32, 0, 6);
	put32(f + 38, ip);
	return 42;
}

/* An ICMP echo request from Linux to ip with data bytes of payload,
 * padded to pad bytes of frame; returns the frame's length. */
static size_t echo_request(uint8_t *f, uint32_t ip, size_t data, size_t pad)
{
	uint8_t *h = f + 14, *c = h + 20;
	size_t i, total = 20 + 8 + data;

	memcpy(f, our_mac, 6);
	memcpy(f + 6, linux_mac, 6);
	put16(f + 12, NET_ETHERTYPE_IPV4);
	memset(h, 0, 20);
	h[0] = 0x45;
	put16(h + 2, (uint16_t)total);
	put16(h + 4, 0x1234); /* identification */
	put16(h + 6, 0x4000); /* DF */
	h[8] = 64;
	h[9] = NET_IP_PROTO_ICMP;
	put32(h + 12, LINUX_IP);
	put32(h + 16, ip);
	put16(h + 10, net_checksum(h, 20));
	c[0] = NET_ICMP_ECHO_REQUEST;
	c[1] = 0;
	put16(c + 2, 0);
	put16(c + 4, 0xbeef); /* identifier */
	put16(c + 6, 7);      /* sequence */
	for (i = 0; i < data; i++)
		c[8 + i] = (uint8_t)(i * 3);
	put16(c + 2, net_checksum(c, 8 + data));
	if (14 + total < pad) {
		memset(f + 14 + total, 0xee, pad - 14 - total);
		return pad;
	}
	return 14 + total;
}

static void checksum_known_values(void **state)
{
	/* RFC 1071's example: 0x0001 0xf203 0xf4f5 0xf6f7 sum to 0xddf2 */
	static const uint8_t d[] = { 0x00, 0x01, 0xf2, 0x03,
				     0xf4, 0xf5, 0xf6, 0xf7 };
	static const uint8_t odd[] = { 0x01, 0x02, 0x03 };

	(void)state;
	assert_int_equal(net_checksum(d, sizeof(d)), (uint16_t)~0xddf2);
	/* an odd byte is padded with a zero */
	assert_int_equal(net_checksum(odd, 3), (uint16_t) ~(0x0102 + 0x0300));
}

static void arp_answered(void **state)
{
	uint8_t f[64], r[64];
	size_t len = arp_request(f, OUR_IP), rlen = 0;

	(void)state;
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_ARP);
	assert_int_equal(rlen, 42);
	assert_memory_equal(r, linux_mac, 6);	/* to the requester */
	assert_memory_equal(r + 6, our_mac, 6); /* from us */
	assert_int_equal(r[12] << 8 | r[13], NET_ETHERTYPE_ARP);
	assert_memory_equal(r + 14, f + 14, 6); /* htype, ptype, lens */
	assert_int_equal(r[20] << 8 | r[21], NET_ARP_REPLY);
	assert_memory_equal(r + 22, our_mac, 6);   /* sender MAC */
	assert_int_equal(get32(r + 28), OUR_IP);   /* sender IP */
	assert_memory_equal(r + 32, linux_mac, 6); /* target MAC */
	assert_int_equal(get32(r + 38), LINUX_IP); /* target IP */

	/* for another address, or a reply: nothing */
	len = arp_request(f, OUR_IP + 1);
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
	len = arp_request(f, OUR_IP);
	put16(f + 20, NET_ARP_REPLY);
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
	/* truncated */
	len = arp_request(f, OUR_IP);
	assert_int_equal(net_answer(f, 41, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
}

static void echo_answered(void **state)
{
	uint8_t f[1600], r[1600];
	size_t data, len, rlen;
	uint8_t *h = r + 14, *c = h + 20;

	(void)state;
	for (data = 0; data <= 1472; data += 56 + (data & 1)) {
		len = echo_request(f, OUR_IP, data, 60); /* padded if short */
		rlen = 0;
		assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
				 NET_ICMP_ECHO);
		assert_int_equal(rlen, 14 + 28 + data); /* no padding */
		assert_memory_equal(r, linux_mac, 6);
		assert_memory_equal(r + 6, our_mac, 6);
		assert_int_equal(get32(h + 12), OUR_IP);
		assert_int_equal(get32(h + 16), LINUX_IP);
		assert_int_equal(h[9], NET_IP_PROTO_ICMP);
		assert_int_equal(h[4] << 8 | h[5], 0x1234);
		assert_int_equal(net_checksum(h, 20), 0);
		assert_int_equal(c[0], NET_ICMP_ECHO_REPLY);
		assert_int_equal(c[1], 0);
		assert_memory_equal(c + 4, f + 14 + 20 + 4, 4); /* id, seq */
		assert_memory_equal(c + 8, f + 14 + 28, data);
		assert_int_equal(net_checksum(c, 8 + data), 0);
	}
}

static void echo_refused(void **state)
{
	uint8_t f[200], r[200];
	size_t len, rlen = 0;

	(void)state;
	/* another address */
	len = echo_request(f, OUR_IP + 1, 32, 0);
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
	/* a bad ICMP checksum */
	len = echo_request(f, OUR_IP, 32, 0);
	f[14 + 28 + 3] ^= 1;
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_BAD);
	/* a bad IP header checksum */
	len = echo_request(f, OUR_IP, 32, 0);
	f[14 + 8] = 63; /* TTL changed, checksum not */
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_BAD);
	/* IP length beyond the frame */
	len = echo_request(f, OUR_IP, 32, 0);
	assert_int_equal(net_answer(f, len - 1, OUR_IP, our_mac, r, &rlen),
			 NET_BAD);
	/* an echo reply is not answered */
	len = echo_request(f, OUR_IP, 32, 0);
	f[14 + 20] = NET_ICMP_ECHO_REPLY;
	f[14 + 20 + 2] = 0;
	f[14 + 20 + 3] = 0;
	put16(f + 14 + 20 + 2, net_checksum(f + 14 + 20, 8 + 32));
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
	/* a fragment */
	len = echo_request(f, OUR_IP, 32, 0);
	put16(f + 14 + 6, 0x2000); /* MF */
	put16(f + 14 + 10, 0);
	put16(f + 14 + 10, net_checksum(f + 14, 20));
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
	/* IPv6, and runts */
	len = echo_request(f, OUR_IP, 32, 0);
	put16(f + 12, 0x86dd);
	assert_int_equal(net_answer(f, len, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
	assert_int_equal(net_answer(f, 13, OUR_IP, our_mac, r, &rlen), NET_BAD);
	len = echo_request(f, OUR_IP, 32, 0);
	assert_int_equal(net_answer(f, 14 + 19, OUR_IP, our_mac, r, &rlen),
			 NET_OTHER);
}

static void parse_ipv4(void **state)
{
	uint32_t ip = 0;

	(void)state;
	assert_int_equal(net_parse_ipv4("192.168.77.2", &ip), 0);
	assert_int_equal(ip, NET_IPV4(192, 168, 77, 2));
	assert_int_equal(net_parse_ipv4("0.0.0.0", &ip), 0);
	assert_int_equal(ip, 0);
	assert_int_equal(net_parse_ipv4("255.255.255.255", &ip), 0);
	assert_int_equal(ip, 0xffffffffu);
	assert_int_equal(net_parse_ipv4("256.1.1.1", &ip), -1);
	assert_int_equal(net_parse_ipv4("1.2.3", &ip), -1);
	assert_int_equal(net_parse_ipv4("1.2.3.4.5", &ip), -1);
	assert_int_equal(net_parse_ipv4("1.2.3.4 ", &ip), -1);
	assert_int_equal(net_parse_ipv4("1..3.4", &ip), -1);
	assert_int_equal(net_parse_ipv4("0001.2.3.4", &ip), -1);
	assert_int_equal(net_parse_ipv4("", &ip), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checksum_known_values),
		cmocka_unit_test(arp_answered),
		cmocka_unit_test(echo_answered),
		cmocka_unit_test(echo_refused),
		cmocka_unit_test(parse_ipv4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
