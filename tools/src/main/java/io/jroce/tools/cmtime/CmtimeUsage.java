package io.jroce.tools.cmtime;

/** The two texts about cmtime's options: the real tool's usage, and {@code jroce help cmtime}. */
final class CmtimeUsage {
    /** What cmtime v44 prints to stdout for an option it does not know or a missing value; then it exits with 1. */
    static final String CMTIME = """
        usage: cmtime
        \t[-s server_address]
        \t[-b bind_address]
        \t[-c connections]
        \t[-p port_number]
        \t[-r retries]
        \t[-t timeout_ms]
        """;

    /** {@code jroce help cmtime}. */
    static final String HELP = """
        usage: jroce cmtime [-b bind_address] [-p port] [jroce options]
               jroce cmtime -s server_address [-b bind_address] [-c connections] [-p port]
                            [-r retries] [-t timeout_ms] [jroce options]

        librdmacm's cmtime (rdma-core v44) on a jroce device: the client times the steps of setting
        up and tearing down -c RC connections through the RDMA CM (create id, bind addr, resolve
        addr, resolve route, create qp, connect, disconnect, destroy), each step for all connections
        at once, and prints cmtime's table (total ms, max ms, min us, us / conn); the server accepts
        every request and answers every disconnect until it is stopped, as cmtime's does. Either
        side may be jroce or the real cmtime on Linux rxe. Output lines and exit statuses are
        cmtime's (a failed connection prints its event and the client still exits 0, as cmtime).

        options (as cmtime):
          -s address    the server: be the client (without -s: be the server)
          -b address    the server's address to listen on (default 0.0.0.0); the client's source
          -c count      connections (default 100)
          -p port       RDMA CM port (default 7471; a number, cmtime also takes a service name)
          -r retries    resolution retries and the REQ's retry count (default 2)
          -t ms         address and route resolution timeout (default 2000)

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            the device's IP addresses instead, one GID each; repeatable
          --udp-port N           RoCE UDP port of this device, and of its peers (default 4791)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: eventLoop (default: its own I/O thread)
                                 or invoker (the application's polls); docs/progress-modes.md
        """;

    private CmtimeUsage() {
    }
}
