package io.jroce.tools.rdmaep;

/** {@code jroce help rdma_server} and {@code jroce help rdma_client}. */
final class EpUsage {
    private static final String COMMON = """

        Output lines and exit statuses are the program's: "%1$s: start", "%1$s: end N" with N its
        status (0; -1 after a failed call, whose perror line goes to stderr, e.g. "rdma_connect:
        Connection refused" when nobody listens; getaddrinfo's error, e.g. -2, after
        "rdma_getaddrinfo: Name or service not known"), exit status N modulo 256, 1 for a bad option.
        The SEND is inline (IBV_SEND_INLINE), as the programs send it when the device takes 16 bytes
        inline, which a jroce device does.

        options (as %1$s):
          -s addr       %2$s
          -p port       RDMA CM port (default 7471; port space TCP)

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            the device's IP addresses instead, one GID each; repeatable
          --udp-port N           RoCE UDP port of this device, and of its peers (default 4791)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: eventLoop (default: its own I/O thread)
                                 or invoker (the application's polls); docs/progress-modes.md
        """;

    static final String SERVER_HELP = """
        usage: jroce rdma_server [-s server_address] [-p port] [jroce options]

        librdmacm's rdma_server (rdma-core v44) on a jroce device, through jroce's convenience layer
        (rdma_getaddrinfo, rdma_create_ep, rdma_get_request, rdma_verbs.h): it waits for one
        connection, posts a 16-byte receive, accepts, waits for the client's 16 bytes, sends 16 back
        (zeros, as rdma_server's static buffer holds), and disconnects. jroce has no wildcard bind:
        with -s 0.0.0.0 (the default) the device opens on every IPv4 address of the host's interfaces
        that are up (--bind chooses them instead) and listens on each.
        """ + COMMON.formatted("rdma_server", "the address to listen on (default 0.0.0.0: every address)");

    static final String CLIENT_HELP = """
        usage: jroce rdma_client [-s server_address] [-p port] [jroce options]

        librdmacm's rdma_client (rdma-core v44) on a jroce device, through jroce's convenience layer
        (rdma_getaddrinfo, rdma_create_ep, rdma_verbs.h): it posts a 16-byte receive, connects
        (responder resources and initiator depth the device's limits, retry and RNR retry counts 7,
        as rdma_connect without parameters), sends 16 bytes (zeros), waits for the server's 16, and
        disconnects. The device opens on the address the host's routing table uses to reach -s (the
        first --bind address when --bind gives the device other addresses).
        """ + COMMON.formatted("rdma_client", "the server to connect to (default 127.0.0.1)");

    private EpUsage() {
    }
}
