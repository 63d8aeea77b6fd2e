package io.jroce.tools.rping;

/** The two texts about rping's options: the real tool's usage, and {@code jroce help rping}. */
final class RpingUsage {
    /**
     * What rping v44 prints to stdout for an option it does not know, a missing value, or neither
     * -s nor -c (its usage(), named "rping", tabs and all); then it exits with EINVAL.
     */
    static final String RPING = """
        rping -s [-vVd] [-S size] [-C count] [-a addr] [-p port]
        rping -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port]
        \t-c\t\tclient side
        \t-I\t\tSource address to bind to for client.
        \t-s\t\tserver side.  To bind to any address with IPv6 use -a ::0
        \t-v\t\tdisplay ping data to stdout
        \t-V\t\tvalidate ping data
        \t-d\t\tdebug printfs
        \t-S size \tping data size
        \t-C count\tping count times
        \t-a addr\t\taddress
        \t-p port\t\tport
        \t-P\t\tpersistent server mode allowing multiple connections
        \t-q\t\tuse self-created, self-modified QP
        """;

    /** {@code jroce help rping}. */
    static final String HELP = """
        usage: jroce rping -s [-vVdP] [-S size] [-C count] [-a addr] [-p port] [jroce options]
               jroce rping -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port] [jroce options]

        librdmacm's rping (rdma-core v44) on a jroce device, connected through jroce's RDMA CM: the
        same options, connection (port space TCP, port 7174, responder resources and initiator depth
        1, retry and RNR retry counts 7), 16-byte {addr, rkey, size} SENDs and per ping an RDMA READ
        of the client's buffer and an RDMA WRITE back, so either side may be jroce or the real rping
        on Linux rxe. Output lines and exit statuses are rping's: 0 when the pings ran (the server
        ends when the client disconnects), 22 for a bad option, 254 for an address that does not
        resolve, 255 for any other failure.

        options (as rping):
          -s            server side; -a addr picks the address to listen on (without it, or with
                        -a 0.0.0.0 or -a ::0, every address of the device, see below)
          -c            client side; -a addr is the server
          -I addr       client: the source address to connect from (default: the address the
                        host's routing table uses to reach -a, as rdma_resolve_addr does)
          -a addr       address (a name or a literal, IPv4 or IPv6)
          -p port       RDMA CM port (default 7174)
          -C count      pings (default 0: forever)
          -S size       ping data size, 26 to 65535 (default 64)
          -v            display ping data to stdout ("ping data: ...", "server ping data: ...")
          -V            validate ping data (the client compares; "data mismatch!" fails the run)
          -d            debug printfs (rping's; pointers are jroce's object identities)
          -P            persistent server: serve connections one after another and at once,
                        until killed
          -q            use a self-created, self-modified QP: refused, jroce's RDMA CM has no
                        rdma_init_qp_attr nor rdma_establish

        The address decides the jroce device, as librdmacm's address resolution decides the RDMA
        device: the server opens one on its -a address, the client on its source address (-I, or the
        route's). A server without -a (or with a wildcard) opens its device on every address of the
        host's interfaces that are up (of the wildcard's family; --bind chooses them instead) and,
        as rping, binds the wildcard: one listener for all of them.

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            the device's IP addresses instead, one GID each; repeatable
          --udp-port N           RoCE UDP port of this device, and of its peers (default 4791;
                                 the RDMA CM sends to the peers' port, so it is one port)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: eventLoop (default: its own I/O thread)
                                 or invoker (the application's polls); docs/progress-modes.md
        """;

    private RpingUsage() {
    }
}
