package io.jroce.tools.cmatose;

/** The two texts about ucmatose's options: the real tool's usage, and {@code jroce help ucmatose}. */
final class CmatoseUsage {
    /** What cmatose v44 prints to stdout for an option it does not know or a missing value; then it exits with 1. */
    static final String CMATOSE = """
        usage: ucmatose
        \t[-s server_address]
        \t[-b bind_address]
        \t[-f address_format]
        \t    name, ip, ipv6, or gid
        \t[-P port_space]
        \t    tcp or ib
        \t[-c connections]
        \t[-C message_count]
        \t[-S message_size]
        \t[-t type_of_service]
        \t[-p port_number]
        \t[-m(igrate)]
        \t[-a ack_timeout]
        """;

    /** {@code jroce help ucmatose}. */
    static final String HELP = """
        usage: jroce ucmatose [-b bind_address] [-f name|ip] [-P tcp|ib] [-c connections]
                              [-C message_count] [-S message_size] [-p port] [jroce options]
               jroce ucmatose -s server_address [same options]

        librdmacm's cmatose (rdma-core v44, installed as ucmatose) on a jroce device: without -s a
        server that accepts -c RC connections, with -s a client that makes them; then the server
        sends -C messages of -S bytes on each connection, the client receives them and sends as many
        back, and the server disconnects. Same connections as cmatose (port 7471, port space TCP or
        IB, the client's responder resources and initiator depth 1, retry count 5, RNR retry count
        0; the server accepts with the REQ's values), same output lines ("cmatose: starting server",
        "receiving data transfers", "return status 0", ...) and exit status: its return status (0,
        the REJ reason of a rejected connection, e.g. 8 when nobody listens, or a negative errno
        modulo 256), 1 for a bad option.

        options (as cmatose):
          -s addr       server address: be the client and connect there
          -b addr       bind address: the server's address to listen on (default: every address of
                        the host), the client's source (default: the address the host's routing
                        table uses to reach -s)
          -f name|ip    address format: ip takes literals only (RAI_NUMERICHOST); gid is refused
                        (AF_IB addresses: jroce's RDMA CM speaks IP addresses only)
          -P tcp|ib     port space (service ID 0x0106 or 0x013F << 16 | port)
          -c n          connections (default 1); both sides must be given the same
          -C n          messages each way on each connection (default 10)
          -S n          message size in bytes (default 100)
          -p port       RDMA CM port (default 7471)
          -t tos        type of service of the client's routes (rdma_set_option RDMA_OPTION_ID_TOS):
                        the REQ's traffic class, and both QPs'
          -a timeout    local ACK timeout of every QP, 0..31 (rdma_set_option RDMA_OPTION_ID_ACK_TIMEOUT);
                        on the client also the path's packet life time (timeout - 1) in its REQ
          -m            refused: jroce's RDMA CM API has no rdma_migrate_id

        The address decides the jroce device, as librdmacm's address resolution decides the RDMA
        device: the server opens one on its -b address, the client on its source address. jroce has
        no wildcard bind: a server without -b opens its device on every address of the host's
        interfaces that are up (--bind chooses them instead) and listens on each.

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            the device's IP addresses instead, one GID each; repeatable
          --udp-port N           RoCE UDP port of this device, and of its peers (default 4791)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: eventLoop (default: its own I/O thread)
                                 or invoker (the application's polls); docs/progress-modes.md
        """;

    private CmatoseUsage() {
    }
}
