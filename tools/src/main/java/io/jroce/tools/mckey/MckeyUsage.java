package io.jroce.tools.mckey;

/** The two texts about mckey's options: the real tool's usage, and {@code jroce help mckey}. */
final class MckeyUsage {
    /**
     * What mckey v44 prints to stdout for an option it does not know or a missing value (argv[0] as
     * "mckey", tabs and all), after getopt's complaint on stderr; then it exits with 1.
     */
    static final String MCKEY = """
        usage: mckey
        \t-m multicast_address
        \t[-M unmapped_multicast_address]
        \t replaces -m and requires -b
        \t[-s(ender)]
        \t[-b bind_address]
        \t[-c connections]
        \t[-C message_count]
        \t[-S message_size]
        \t[-p port_space - 0x111 for UDP (default), 0x2 for IPOIB]
        \t[-o join as a send-only full-member]
        \t[-l join without multicast loopback]
        """;

    /** {@code jroce help mckey}. */
    static final String HELP = """
        usage: jroce mckey -m multicast_address [-s] [-b bind_address] [-c connections]
                           [-C message_count] [-S message_size] [-p port_space] [jroce options]

        librdmacm's mckey (rdma-core v44) on a jroce device: -c UDP-port-space IDs each resolve the
        group -m from -b, create a UD QP, join the group (RoCE: the MGID ::ffff:<group>, QPN
        0xFFFFFF, Q_Key 0x01234567; the QP is attached and the device takes the IP group), pause
        3 s as mckey does, then the sender (-s) SENDs -C messages of -S bytes with the immediate
        data its QPN to the group, and a receiver waits for -C of them on each ID. Either side may
        be jroce or the real mckey on Linux rxe; a receiver must have joined before the sender
        sends. Output lines and exit statuses are mckey's: "return status N" and exit N (0 when
        every message moved, 1 for a bad option after its usage, 254 for a group or address that
        does not resolve). As mckey's, a receiver waits for its messages without end.

        options (as mckey):
          -m address    the multicast group (IPv4 224.0.0.0/4 or IPv6 ff00::/8), required
          -s            be the sender (default: a receiver)
          -b address    the address to join from: it chooses the device (default: the source
                        address of the host's route to the group)
          -c count      IDs, each joining the group (default 1)
          -C count      messages per ID (default 10; 0: only join)
          -S size       bytes per message, at most the device's active MTU (default 100)
          -p space      the port space as a number: 0x111 (UDP) only
          -M address    refused: an unmapped (AF_IB) group is InfiniBand's
          -o            join as a send-only full member: the QP is not attached and the device takes
                        no group membership (no IGMP/MLD, as the kernel on RoCE); it sends, and
                        receives nothing from the group
          -l            refused: jroce's QPs cannot block their own multicast loopback

        The sender's twin asks for a completion of its last SEND and waits for it before it leaves
        the group (mckey posts all unsignaled and leaves at once): jroce discards work still queued
        on a QP when it is destroyed, and the datagrams must be out first.

        A host needs the address on an interface that is up, has carrier and is multicast-capable
        (loopback is not), see docs/udp-transport.md.

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            the device's IP addresses instead, one GID each; repeatable
          --udp-port N           RoCE UDP port of this device, and of the group (default 4791)
          --peer-udp-port N      RoCE UDP port the sender sends to (default: --udp-port)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: eventLoop (default: its own I/O thread)
                                 or invoker (the application's polls); docs/progress-modes.md
        """;

    private MckeyUsage() {
    }
}
