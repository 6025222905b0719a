/* SPDX-License-Identifier: GPL-2.0 */
/* "warden link ping": round trips over a link's message channel. */
#ifndef WARDEN_TOOLS_LINK_PING_H
#define WARDEN_TOOLS_LINK_PING_H

/*
 * warden link ping NAME [-c COUNT] [-p PEER] [-s SIZE] [-q]
 *
 * argv[0] is "ping".  Sends COUNT messages one at a time to PEER of the
 * link NAME through /dev/warden-link-NAME (its ring on the message
 * channel, then a doorbell), waits up to a second for each to come back
 * (an echo server such as the link-echo inmate), checks it and times the
 * round trip.  Prints a line per message (unless -q) and a summary.
 * Returns EXIT_OK only if every message came back intact, EXIT_CHECK_FAILED
 * if some were lost or corrupted, EXIT_ERROR for a usage error or a link
 * that cannot be used (the cause on stderr).
 */
int cmd_link_ping(int argc, char **argv);

#endif /* WARDEN_TOOLS_LINK_PING_H */
