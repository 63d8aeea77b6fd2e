package io.jroce.tools.udaddy;

/** The two texts about udaddy's options: the real tool's usage, and {@code jroce help udaddy}. */
final class UdaddyUsage {
    /**
     * What udaddy v44 prints to stdout for an option it does not know or a missing value (argv[0]
     * as "udaddy", tabs and all), after getopt's complaint on stderr; then it exits with 1.
     */
    static final String UDADDY = """
        usage: udaddy
        \t[-s server_address]
        \t[-b bind_address]
        \t[-f address_format]
        \t    name, ip, ipv6, or gid
        \t[-P port_space]
        \t    udp or ipoib
        \t[-c connections]
        \t[-C message_count]
        \t[-S message_size]
        \t[-t type_of_service]
        \t[-p port_space - 0x111 for UDP (default), 0x2 for IPOIB]
        """;

    /** {@code jroce help udaddy}. */
    static final String HELP = """
        usage: jroce udaddy [-b bind_address] [-c connections] [-C message_count] [-S message_size]
                            [-f address_format] [-P port_space] [jroce options]
               jroce udaddy -s server_address [same options]

        librdmacm's udaddy (rdma-core v44) on a jroce device: UD QPs found through the RDMA CM's
        UDP port space (SIDR, port 7174), so either side may be jroce or the real udaddy on Linux
        rxe. The client resolves -c IDs (each a SIDR_REQ answered by a SIDR_REP naming the server's
        QP and Q_Key) and SENDs -C messages of -S bytes with the immediate data its QPN; the server
        answers -c requests, receives every message, builds its reply's address from the first
        receive's GRH area and the QPN from its immediate data, and SENDs as many back. Output lines
        and exit statuses are udaddy's: "return status N" and exit N (0 when every message moved,
        1 for a bad option after its usage, the event's status when the SIDR fails, e.g. 1 when
        nobody listens on the port, 2 when the server rejected, 254 for a name that does not
        resolve). As udaddy's, a run waits for its messages without end: a lost datagram stops it.

        options (as udaddy):
          -s address    the server to resolve: be the client (without -s: be the server)
          -b address    the server's address to bind (default: the wildcard 0.0.0.0, see below);
                        the client's source address (default: the route's to -s)
          -c count      connections (default 1)
          -C count      messages each way per connection (default 10; 0: only resolve)
          -S size       bytes per message, at most the device's active MTU (default 100; 0 sends none)
          -f format     ip (addresses must be literals), name (default); gid: refused, AF_IB
          -P space      udp (default); ipoib: refused, jroce has no IPoIB port space
          -p space      the port space as a number: 0x111 (UDP) only
          -t tos        type of service of the client's routes (rdma_set_option RDMA_OPTION_ID_TOS):
                        the traffic class of its SIDR route and of the address handles it gets

        The address decides the jroce device, as librdmacm's address resolution decides the RDMA
        device: the server opens one on its -b address (without -b, on every IPv4 address of the
        host's interfaces that are up, and binds 0.0.0.0 as udaddy does), the client on its -b
        address, else the one the host's routing table uses to reach -s.

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            the device's IP addresses instead, one GID each; repeatable
          --udp-port N           RoCE UDP port of this device, and of its peers (default 4791;
                                 the RDMA CM sends to the peers' port, so it is one port)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: eventLoop (default: its own I/O thread)
                                 or invoker (the application's polls); docs/progress-modes.md
        """;

    private UdaddyUsage() {
    }
}
