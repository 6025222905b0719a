// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ARP and ICMP echo answers (inmate/net.h).  Fields are read and written
 * byte by byte in network order, so that nothing depends on alignment or
 * on the host's byte order.  Formats: Ethernet II (destination, source,
 * type), ARP for Ethernet and IPv4 (RFC 826), IPv4 (RFC 791), ICMP echo
 * (RFC 792).
 */
#include <inmate/net.h>

#define ARP_HTYPE_ETHERNET 1
#define IP_OFF_VER_IHL 0
#define IP_OFF_TOTAL_LEN 2
#define IP_OFF_FRAG 6
#define IP_OFF_TTL 8
#define IP_OFF_PROTO 9
#define IP_OFF_CHECKSUM 10
#define IP_OFF_SRC 12
#define IP_OFF_DST 16
#define IP_FRAG_MASK 0x3fff /* MF and the fragment offset */
#define IP_TTL 64

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void copy(uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		dst[i] = src[i];
}

uint16_t net_checksum(const uint8_t *data, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += get16(data + i);
	if (len & 1)
		sum += (uint32_t)data[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The Ethernet header of a reply to frame from mac. */
static void eth_reply(uint8_t *reply, const uint8_t *frame,
		      const uint8_t mac[NET_ETH_ALEN])
{
	copy(reply, frame + NET_ETH_ALEN, NET_ETH_ALEN);
	copy(reply + NET_ETH_ALEN, mac, NET_ETH_ALEN);
	copy(reply + 2 * NET_ETH_ALEN, frame + 2 * NET_ETH_ALEN, 2);
}

static enum net_kind arp(const uint8_t *frame, size_t len, uint32_t ip,
			 const uint8_t mac[NET_ETH_ALEN], uint8_t *reply,
			 size_t *reply_len)
{
	const uint8_t *a = frame + NET_ETH_HLEN;
	uint8_t *r = reply + NET_ETH_HLEN;

	if (len < NET_ETH_HLEN + NET_ARP_LEN)
		return NET_OTHER;
	/* Ethernet and IPv4, 6 and 4 byte addresses, a request for ip */
	if (get16(a) != ARP_HTYPE_ETHERNET ||
	    get16(a + 2) != NET_ETHERTYPE_IPV4 || a[4] != NET_ETH_ALEN ||
	    a[5] != 4 || get16(a + 6) != NET_ARP_REQUEST || get32(a + 24) != ip)
		return NET_OTHER;
	eth_reply(reply, frame, mac);
	copy(r, a, 6);
	put16(r + 6, NET_ARP_REPLY);
	copy(r + 8, mac, NET_ETH_ALEN); /* sender: us */
	put32(r + 14, ip);
	copy(r + 18, a + 8, 10); /* target: the requester's MAC and IP */
	*reply_len = NET_ETH_HLEN + NET_ARP_LEN;
	return NET_ARP;
}

static enum net_kind icmp(const uint8_t *frame, size_t len, uint32_t ip,
			  const uint8_t mac[NET_ETH_ALEN], uint8_t *reply,
			  size_t *reply_len)
{
	const uint8_t *h = frame + NET_ETH_HLEN;
	uint8_t *r = reply + NET_ETH_HLEN;
	size_t ihl, total;
	uint8_t *c;

	if (len < NET_ETH_HLEN + 20 || h[IP_OFF_VER_IHL] >> 4 != 4)
		return NET_OTHER;
	if (get32(h + IP_OFF_DST) != ip)
		return NET_OTHER;
	if (h[IP_OFF_PROTO] != NET_IP_PROTO_ICMP)
		return NET_OTHER;
	ihl = (size_t)(h[IP_OFF_VER_IHL] & 0xf) * 4;
	total = get16(h + IP_OFF_TOTAL_LEN);
	/* Ethernet may pad a short packet: the IP length counts */
	if (ihl < 20 || total < ihl + 8 || total > len - NET_ETH_HLEN)
		return NET_BAD;
	if (get16(h + IP_OFF_FRAG) & IP_FRAG_MASK)
		return NET_OTHER; /* fragments: not reassembled */
	if (net_checksum(h, ihl) != 0 || net_checksum(h + ihl, total - ihl))
		return NET_BAD;
	if (h[ihl] != NET_ICMP_ECHO_REQUEST || h[ihl + 1] != 0)
		return NET_OTHER;

	eth_reply(reply, frame, mac);
	copy(r, h, total);
	put32(r + IP_OFF_SRC, ip);
	copy(r + IP_OFF_DST, h + IP_OFF_SRC, 4);
	r[IP_OFF_TTL] = IP_TTL;
	put16(r + IP_OFF_CHECKSUM, 0);
	put16(r + IP_OFF_CHECKSUM, net_checksum(r, ihl));
	c = r + ihl;
	c[0] = NET_ICMP_ECHO_REPLY;
	put16(c + 2, 0);
	put16(c + 2, net_checksum(c, total - ihl));
	*reply_len = NET_ETH_HLEN + total;
	return NET_ICMP_ECHO;
}

enum net_kind net_answer(const uint8_t *frame, size_t len, uint32_t ip,
			 const uint8_t mac[NET_ETH_ALEN], uint8_t *reply,
			 size_t *reply_len)
{
	if (len < NET_ETH_HLEN)
		return NET_BAD;
	switch (get16(frame + 2 * NET_ETH_ALEN)) {
	case NET_ETHERTYPE_ARP:
		return arp(frame, len, ip, mac, reply, reply_len);
	case NET_ETHERTYPE_IPV4:
		return icmp(frame, len, ip, mac, reply, reply_len);
	default:
		return NET_OTHER;
	}
}

int net_parse_ipv4(const char *s, uint32_t *ip)
{
	uint32_t value = 0, part;
	unsigned int i, digits;

	for (i = 0; i < 4; i++) {
		part = 0;
		for (digits = 0; *s >= '0' && *s <= '9'; s++, digits++) {
			part = part * 10 + (uint32_t)(*s - '0');
			if (digits == 3 || part > 255)
				return -1;
		}
		if (!digits || (i < 3 && *s++ != '.'))
			return -1;
		value = value << 8 | part;
	}
	if (*s)
		return -1;
	*ip = value;
	return 0;
}
