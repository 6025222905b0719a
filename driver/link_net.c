// SPDX-License-Identifier: GPL-2.0
/*
 * The net interface wl-NAME of a link: Ethernet frames (without FCS) on
 * the net channel of the ring protocol.  Peer i of link l has the MAC
 * address WARDEN_LINK_MAC(l, i); a unicast frame goes to the peer whose
 * address it names, a broadcast or multicast one to every peer that is up
 * (a copy each), any other is dropped.  The carrier is on while a peer is.
 *
 * Transmit copies the frame into root's ring to the peer and rings the
 * peer's doorbell on its net channel's vector.  The queue stops when a
 * ring it just used is full, so that the next frame always finds a slot;
 * as a consumer tells nobody that it made room, a timer (one tick) and
 * every receive look again and wake the queue.  Receive is NAPI: a
 * doorbell on our net channel's vector schedules it, and it drains the
 * rings of every peer that is up, in turn.
 *
 * The ring lock of the device is held around each send and receive, as
 * the state interrupt resets the indexes of a peer that came up.
 */
#include <linux/ctype.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/timer.h>

#include "warden-driver.h"
#include "wd-link.h"

struct link_net {
	struct wd_link_dev *ldev;
	struct net_device *ndev;
	struct napi_struct napi;
	struct timer_list tx_timer; /* looks for room while stopped */
	u32 rx_next;		    /* the peer receive starts with */
	/* a frame in pieces is copied here first; transmit is serialised
	 * by the queue's lock */
	u8 tx_buf[WARDEN_LINK_MAX_PAYLOAD];
};

static const u32 net_channel = WARDEN_LINK_CHANNEL_NET;

/* The peers other than root that are up, of states. */
static u32 others(const struct wd_link_dev *ldev, u32 states)
{
	return states & GENMASK(ldev->num_peers - 1, 0) & ~BIT(ldev->id);
}

/* The peers a frame to dest goes to (states: those up). */
static u32 targets(const struct wd_link_dev *ldev, const u8 *dest, u32 states)
{
	u32 up = others(ldev, states), j;

	if (is_multicast_ether_addr(dest))
		return up;
	for (j = 0; j < ldev->num_peers; j++) {
		u8 mac[ETH_ALEN] = WARDEN_LINK_MAC(ldev->index, j);

		if (ether_addr_equal(dest, mac))
			return up & BIT(j);
	}
	return 0;
}

/* Whether our ring to peer j on the net channel is full (a peer whose
 * header is not valid takes nothing: it never holds the queue). */
static bool ring_full(struct wd_link_dev *ldev, u32 j)
{
	return warden_link_ring_peer_valid(&ldev->rings, j) &&
	       !warden_link_ring_space(&ldev->rings, j, net_channel);
}

/* Every peer that is up has room for a frame. */
static bool room_for_all(struct wd_link_dev *ldev)
{
	u32 up = others(ldev, wd_link_peer_states(ldev)), j;

	for (j = 0; j < ldev->num_peers; j++)
		if (up & BIT(j) && ring_full(ldev, j))
			return false;
	return true;
}

/* The queue is stopped: wake it if there is room, else look again in a
 * tick. */
static void try_wake(struct link_net *net)
{
	if (!netif_running(net->ndev) || !netif_queue_stopped(net->ndev))
		return;
	if (room_for_all(net->ldev))
		netif_wake_queue(net->ndev);
	else
		mod_timer(&net->tx_timer, jiffies + 1);
}

static void tx_timer_fn(struct timer_list *t)
{
	struct link_net *net = from_timer(net, t, tx_timer);

	try_wake(net);
}

static netdev_tx_t link_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct link_net *net = netdev_priv(ndev);
	struct wd_link_dev *ldev = net->ldev;
	const void *data = skb->data;
	u32 len = skb->len, to, j, vector, sent = 0, full = 0;
	unsigned long flags;
	int ret;

	if (len < ETH_HLEN || len > WARDEN_LINK_MAX_PAYLOAD)
		goto drop;
	if (skb_headlen(skb) < len) {
		if (skb_copy_bits(skb, 0, net->tx_buf, len))
			goto drop;
		data = net->tx_buf;
	}
	to = targets(ldev, data, wd_link_peer_states(ldev));
	for (j = 0; j < ldev->num_peers; j++) {
		if (!(to & BIT(j)))
			continue;
		spin_lock_irqsave(&ldev->ring_lock, flags);
		/* down since targets() looked: nothing goes to it */
		ret = ldev->peer_states & BIT(j)
			      ? warden_link_ring_send(&ldev->rings, j,
						      net_channel, data, len)
			      : -1;
		vector = warden_link_vector(net_channel, ldev->peer_vectors[j]);
		if (!ret && ring_full(ldev, j))
			full |= BIT(j);
		spin_unlock_irqrestore(&ldev->ring_lock, flags);
		if (ret)
			continue;
		wd_link_ring_doorbell(ldev, j, vector);
		sent++;
	}
	if (!sent)
		goto drop;
	ndev->stats.tx_packets++;
	ndev->stats.tx_bytes += len;
	dev_consume_skb_any(skb);
	if (full) {
		netif_stop_queue(ndev);
		/* room made before the stop would wake no one */
		try_wake(net);
	}
	return NETDEV_TX_OK;
drop:
	ndev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/* Drop the next frame of peer j's ring (ring lock taken inside). */
static void rx_drop(struct link_net *net, u32 j)
{
	struct wd_link_dev *ldev = net->ldev;
	unsigned long flags;

	spin_lock_irqsave(&ldev->ring_lock, flags);
	warden_link_ring_recv(&ldev->rings, j, net_channel, NULL, 0);
	spin_unlock_irqrestore(&ldev->ring_lock, flags);
}

/* Take the next frame of peer j's ring: whether there was one. */
static bool rx_one(struct link_net *net, u32 j)
{
	struct wd_link_dev *ldev = net->ldev;
	struct net_device *ndev = net->ndev;
	struct sk_buff *skb;
	unsigned long flags;
	int len, n;

	len = warden_link_ring_peek(&ldev->rings, j, net_channel);
	if (!len)
		return false;
	if (len < ETH_HLEN) {
		ndev->stats.rx_errors++;
		ndev->stats.rx_length_errors++;
		rx_drop(net, j);
		return true;
	}
	skb = napi_alloc_skb(&net->napi, len);
	if (!skb) {
		ndev->stats.rx_dropped++;
		rx_drop(net, j);
		return true;
	}
	/* the frame at the head is another one if the peer restarted since
	 * the peek: over len it is dropped, an empty ring gives 0 */
	spin_lock_irqsave(&ldev->ring_lock, flags);
	n = warden_link_ring_recv(&ldev->rings, j, net_channel, skb->data, len);
	spin_unlock_irqrestore(&ldev->ring_lock, flags);
	if (n < ETH_HLEN) {
		dev_kfree_skb_any(skb);
		if (!n)
			return false;
		ndev->stats.rx_errors++;
		ndev->stats.rx_length_errors++;
		return true;
	}
	skb_put(skb, n);
	skb->protocol = eth_type_trans(skb, ndev);
	ndev->stats.rx_packets++;
	ndev->stats.rx_bytes += n;
	napi_gro_receive(&net->napi, skb);
	return true;
}

/* A frame waits in the ring of a peer that is up. */
static bool rx_pending(struct link_net *net)
{
	struct wd_link_dev *ldev = net->ldev;
	u32 up = others(ldev, wd_link_peer_states(ldev)), j;

	for (j = 0; j < ldev->num_peers; j++)
		if (up & BIT(j) &&
		    warden_link_ring_pending(&ldev->rings, j, net_channel))
			return true;
	return false;
}

static int link_poll(struct napi_struct *napi, int budget)
{
	struct link_net *net = container_of(napi, struct link_net, napi);
	struct wd_link_dev *ldev = net->ldev;
	u32 n = ldev->num_peers, up, k, j;
	int done = 0;
	bool more = true;

	/* a frame from each peer in turn, so that none starves the rest */
	while (more && done < budget) {
		more = false;
		up = others(ldev, wd_link_peer_states(ldev));
		for (k = 0; k < n && done < budget; k++) {
			j = (net->rx_next + k) % n;
			if (up & BIT(j) && rx_one(net, j)) {
				done++;
				more = true;
			}
		}
		net->rx_next = (net->rx_next + 1) % n;
	}
	try_wake(net);
	/* a frame published after our last look, whose doorbell came while
	 * we were still scheduled, would wait for the next doorbell */
	if (done < budget && napi_complete_done(napi, done) && rx_pending(net))
		napi_schedule(napi);
	return done;
}

static int link_open(struct net_device *ndev)
{
	struct link_net *net = netdev_priv(ndev);

	napi_enable(&net->napi);
	netif_start_queue(ndev);
	/* what came while we were down */
	napi_schedule(&net->napi);
	return 0;
}

static int link_stop(struct net_device *ndev)
{
	struct link_net *net = netdev_priv(ndev);

	netif_stop_queue(ndev);
	napi_disable(&net->napi);
	/* netif_running() is false already: the timer does not rearm */
	timer_delete_sync(&net->tx_timer);
	return 0;
}

static const struct net_device_ops link_netdev_ops = {
	.ndo_open = link_open,
	.ndo_stop = link_stop,
	.ndo_start_xmit = link_xmit,
	.ndo_validate_addr = eth_validate_addr,
};

void wd_link_net_doorbell(struct wd_link_dev *ldev)
{
	struct link_net *net = netdev_priv(ldev->ndev);

	napi_schedule(&net->napi);
}

void wd_link_net_states(struct wd_link_dev *ldev, u32 states)
{
	struct link_net *net = netdev_priv(ldev->ndev);

	if (others(ldev, states))
		netif_carrier_on(ldev->ndev);
	else
		netif_carrier_off(ldev->ndev);
	/* a peer gone down holds the queue no longer; one come up may
	 * have sent before we saw it */
	if (netif_queue_stopped(ldev->ndev))
		mod_timer(&net->tx_timer, jiffies);
	napi_schedule(&net->napi);
}

/* "wl-" and the link's name, as far as it fits in an interface name, its
 * characters that an interface name may not have (or that would make it
 * a pattern: '%') as '_'. */
static void iface_name(char *name, const char *link)
{
	size_t i, n = strlen("wl-");
	char c;

	memcpy(name, "wl-", n);
	for (i = 0; link[i] && n < IFNAMSIZ - 1; i++, n++) {
		c = link[i];
		name[n] = isalnum(c) || c == '-' || c == '_' || c == '.' ? c
									 : '_';
	}
	name[n] = '\0';
}

int wd_link_net_add(struct wd_link_dev *ldev)
{
	u8 mac[ETH_ALEN] = WARDEN_LINK_MAC(ldev->index, ldev->id);
	struct net_device *ndev;
	struct link_net *net;
	char name[IFNAMSIZ];
	int ret;

	iface_name(name, ldev->name);
	/* a name given, not an eth%d to be renamed by udev */
	ndev = alloc_netdev_mqs(sizeof(*net), name, NET_NAME_PREDICTABLE,
				ether_setup, 1, 1);
	if (!ndev) {
		dev_err(&ldev->pdev->dev,
			"warden: link %s: no memory for interface %s\n",
			ldev->name, name);
		return -ENOMEM;
	}
	net = netdev_priv(ndev);
	net->ldev = ldev;
	net->ndev = ndev;
	timer_setup(&net->tx_timer, tx_timer_fn, 0);
	SET_NETDEV_DEV(ndev, &ldev->pdev->dev);
	ndev->netdev_ops = &link_netdev_ops;
	ndev->mtu = ETH_DATA_LEN;
	ndev->max_mtu = WARDEN_LINK_MAX_PAYLOAD - ETH_HLEN;
	eth_hw_addr_set(ndev, mac);
	netif_napi_add(ndev, &net->napi, link_poll);
	netif_carrier_off(ndev);
	ret = register_netdev(ndev);
	if (ret) {
		dev_err(&ldev->pdev->dev,
			"warden: link %s: cannot register interface %s (%d); "
			"the link has no interface\n",
			ldev->name, name, ret);
		netif_napi_del(&net->napi);
		free_netdev(ndev);
		return ret;
	}
	ldev->ndev = ndev;
	return 0;
}

void wd_link_net_remove(struct wd_link_dev *ldev)
{
	struct net_device *ndev = ldev->ndev;
	struct link_net *net;

	if (!ndev)
		return;
	net = netdev_priv(ndev);
	ldev->ndev = NULL;
	unregister_netdev(ndev); /* stops it: link_stop */
	/* Unlisted, then one expedited grace period before free_netdev
	 * frees the poll's memory (readers find it under RCU: busy polling,
	 * netpoll).  netif_napi_del waits for a normal grace period, which
	 * took from 15 ms to 3.2 s of Linux's clock on the test machines
	 * and made 'warden disable' take seconds (docs/bench.md). */
	__netif_napi_del(&net->napi);
	synchronize_rcu_expedited();
	timer_delete_sync(&net->tx_timer);
	free_netdev(ndev);
}
