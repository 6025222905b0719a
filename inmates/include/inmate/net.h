/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A minimal IPv4 responder for inmates on a link's net channel
 * (inmates/lib/net.c): answers ARP requests and ICMP echo requests for
 * one address, as a host would, so that Linux's ping reaches an inmate
 * through its wl-<name> interface.  Frames are Ethernet II without FCS
 * (link.h: a slot holds one).  No library calls: the code also builds
 * for the host's unit tests.
 */
#ifndef INMATE_NET_H
#define INMATE_NET_H

#include <stddef.h>
#include <stdint.h>

#define NET_ETH_HLEN 14
#define NET_ETH_ALEN 6
#define NET_ETHERTYPE_IPV4 0x0800
#define NET_ETHERTYPE_ARP 0x0806
#define NET_IP_PROTO_ICMP 1
#define NET_ICMP_ECHO_REPLY 0
#define NET_ICMP_ECHO_REQUEST 8
#define NET_ARP_REQUEST 1
#define NET_ARP_REPLY 2
#define NET_ARP_LEN 28 /* Ethernet/IPv4 ARP packet */

/* An IPv4 address a.b.c.d as a host number (a in the top byte). */
#define NET_IPV4(a, b, c, d)                                                   \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 |      \
	 (uint32_t)(d))

/* What net_answer() made of a frame. */
enum net_kind {
	NET_OTHER,     /* not for us, or not ARP / ICMP echo: no answer */
	NET_BAD,       /* for us, but malformed (length, checksum) */
	NET_ARP,       /* an ARP request for ip: *reply is the ARP reply */
	NET_ICMP_ECHO, /* an echo request to ip: *reply is the echo reply */
};

/*
 * Answer frame (len bytes) as the host with IPv4 address ip and MAC mac:
 * writes the reply into reply (room for len bytes, at least 42) and its
 * length into *reply_len for NET_ARP and NET_ICMP_ECHO.  The echo reply
 * swaps the MAC and IP addresses, keeps the identifier, sequence number
 * and data, and has fresh IP and ICMP checksums; frames to other
 * addresses, fragments and malformed ones get none.
 */
enum net_kind net_answer(const uint8_t *frame, size_t len, uint32_t ip,
			 const uint8_t mac[NET_ETH_ALEN], uint8_t *reply,
			 size_t *reply_len);

/* The Internet checksum (RFC 1071) of len bytes: the one's complement
 * of the one's complement sum of 16-bit big-endian words. */
uint16_t net_checksum(const uint8_t *data, size_t len);

/* "a.b.c.d" to a host number; -1 if s is not one. */
int net_parse_ipv4(const char *s, uint32_t *ip);

#endif /* INMATE_NET_H */
