package io.jroce.benchmarks.harness;

import static io.jroce.tools.getopt.OptionSpec.NO_SHORT;
import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code jroce udp_bw} and {@code udp_lat}: perftest's flags where they mean
 * something without RDMA, so the harness runs a baseline with the same line as the jroce test.
 * Without a server address it is the server; with one, the client.
 */
record BaselineOptions(boolean latency, String server, String bind, int port, int udpPort, int size, int iters,
                       int durationSecs, int flows, int mtu, int txDepth, int outstandingReads, boolean read,
                       boolean reportGbits, boolean busyPoll) {

    static final int DEFAULT_PORT = 18515;
    static final String DEFAULT_BIND = "127.0.0.1";
    /** The RC requester's window of unacknowledged PSNs (rnic-sim Requester.WINDOW, rxe's too). */
    static final int RC_WINDOW = 128;
    /** A multi-packet message asks for an ACK at least this often (Requester.ACK_REQUEST_INTERVAL). */
    static final int ACK_REQUEST_INTERVAL = 64;

    static String usage(boolean latency) {
        String name = latency ? "udp_lat" : "udp_bw";
        String what = latency
            ? "Ping-pong of one datagram the size of an RC SEND of -s bytes (BTH + payload + ICRC) between two\n"
                + "processes; prints half the round trip per iteration as perftest's send_lat prints its latency.\n"
            : "Streams the datagrams jroce would send for RDMA WRITEs of -s bytes at path MTU -m (or, with --read,\n"
                + "RDMA READ responses), paced like an RC queue pair: at most 128 datagrams unacknowledged per flow\n"
                + "(-t messages at most), the receiver answering a 16-byte ACK where the RC requester sets AckReq\n"
                + "(last packet of a message, and every 64 packets). Prints perftest's write_bw/read_bw report.\n";
        return "usage: jroce " + name + " [options]              (server)\n"
            + "       jroce " + name + " [options] SERVER_ADDR  (client)\n\n"
            + "Benchmark baseline: raw UDP through jroce's own socket layer (UdpTransport: Netty epoll, the same\n"
            + "socket options, GSO/GRO and flush batching, one I/O thread), without any RDMA protocol.\n"
            + what
            + "Server and client agree on the test over TCP (-p) first. docs/benchmarks.md explains the baseline.\n\n"
            + "options:\n"
            + "  -s, --size=BYTES         message size (default " + (latency ? 2 : 65536) + ")\n"
            + "  -n, --iters=N            iterations" + (latency ? "" : " per flow") + " (default "
            + (latency ? 1000 : 5000) + ")\n"
            + "  -D, --duration=SECS      run for SECS seconds instead of -n iterations\n"
            + "  -m, --mtu=BYTES          path MTU: 256, 512, 1024, 2048 or 4096 (default 1024)\n"
            + (latency ? "" : "  -q, --qp=N               flows, each paced like one QP (default 1)\n"
                + "  -t, --tx-depth=N         messages outstanding per flow (default 128)\n"
                + "  -o, --outs=N             READ requests outstanding per flow, with --read (default 16)\n"
                + "      --read               the pattern of RDMA READ: requests one way, responses back\n"
                + "      --report_gbits       report Gbit/s instead of MiB/s\n")
            + "  -p, --port=PORT          TCP port of the handshake (default " + DEFAULT_PORT + ")\n"
            + "      --bind=ADDR          local IP address of the UDP socket and the handshake (default "
            + DEFAULT_BIND + ")\n"
            + "      --udp-port=PORT      UDP port of both sockets (default 4791, jroce's)\n"
            + "      --busy-poll          the event loop never sleeps in epoll: it polls its socket, yielding\n"
            + "                           between polls (what a jroce device does while its application\n"
            + "                           waits for a message)\n"
            + "  -F, -N                   accepted and ignored (perftest's CPU-frequency check, no-peak)\n";
    }

    static BaselineOptions parse(boolean latency, List<String> args) throws UsageException {
        return new Parser(latency).parse(args);
    }

    /** The option table of udp_bw or udp_lat (which has no flows, depths or READ), and what it has read so far. */
    private static final class Parser {
        private final boolean latency;
        private String bind = DEFAULT_BIND;
        private int port = DEFAULT_PORT;
        private int udpPort = 4791;
        private int size;
        private int iters;
        private int duration;
        private int flows = 1;
        private int mtu = 1024;
        private int txDepth = 128;
        private int outs = 16;
        private boolean read;
        private boolean gbits;
        private boolean busyPoll;

        Parser(boolean latency) {
            this.latency = latency;
            this.size = latency ? 2 : 65536;
            this.iters = latency ? 1000 : 5000;
        }

        private List<OptionSpec> table() {
            List<OptionSpec> table = new ArrayList<>(List.of(
                value('s', "size", (o, v) -> size = Getopt.integer(o, v, 0, 1 << 30)),
                value('n', "iters", (o, v) -> iters = Getopt.integer(o, v, 1, Integer.MAX_VALUE)),
                value('D', "duration", (o, v) -> duration = Getopt.integer(o, v, 1, 3600)),
                value('m', "mtu", (o, v) -> mtu = mtu(Getopt.integer(o, v, 256, 4096))),
                value('p', "port", (o, v) -> port = Getopt.integer(o, v, 1, 0xFFFF)),
                value(NO_SHORT, "udp-port", (o, v) -> udpPort = Getopt.integer(o, v, 1, 0xFFFF)),
                value(NO_SHORT, "bind", (o, v) -> bind = v),
                flag(NO_SHORT, "busy-poll", () -> busyPoll = true),
                flag('F', null, () -> { }),
                flag('N', "noPeak", () -> { })));
            if (!latency) {
                table.addAll(List.of(
                    value('q', "qp", (o, v) -> flows = Getopt.integer(o, v, 1, 65536)),
                    value('t', "tx-depth", (o, v) -> txDepth = Getopt.integer(o, v, 1, 1 << 16)),
                    value('o', "outs", (o, v) -> outs = Getopt.integer(o, v, 1, 1 << 16)),
                    flag(NO_SHORT, "read", () -> read = true),
                    flag(NO_SHORT, "report_gbits", () -> gbits = true)));
            }
            return table;
        }

        BaselineOptions parse(List<String> args) throws UsageException {
            String server = Getopt.parseWithServer(table(), args);
            if (latency && size > mtu) {
                throw new UsageException("udp_lat sends one datagram each way: -s must be at most the MTU (" + mtu + ")");
            }
            return new BaselineOptions(latency, server, bind, port, udpPort, size, iters, duration, flows, mtu,
                txDepth, outs, read, gbits, busyPoll);
        }
    }

    private static int mtu(int mtu) throws UsageException {
        if (Integer.bitCount(mtu) != 1) {
            throw new UsageException("-m must be 256, 512, 1024, 2048 or 4096, got " + mtu);
        }
        return mtu;
    }

    boolean isServer() {
        return server == null;
    }

    /** Packets per message. */
    int packetsPerMessage() {
        return WireLayout.packets(size, mtu);
    }

    /**
     * Unacknowledged datagrams a flow may have: RC's window, and no more than -t messages. For READ,
     * the requests outstanding are limited the same way: -o requests, and the window over their
     * response packets.
     */
    int window() {
        long byDepth = (long) (read ? Math.min(txDepth, outstandingReads) : txDepth) * packetsPerMessage();
        return (int) Math.max(1, Math.min(RC_WINDOW, byDepth));
    }

    /** Messages a flow may have outstanding under {@link #window()} (at least one). */
    int messagesInFlight() {
        return Math.max(1, window() / packetsPerMessage());
    }
}
