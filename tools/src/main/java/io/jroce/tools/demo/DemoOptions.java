package io.jroce.tools.demo;

import io.jroce.tools.ArgCursor;
import io.jroce.tools.UsageException;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import java.nio.file.Path;

/**
 * What {@code jroce demo} was asked for.
 *
 * @param pathMtu        path MTU of both queue pairs
 * @param ipv6           both RNICs on ::1 (ports {@code port} and {@code port + 1}) instead of 127.0.0.1 and 127.0.0.2
 * @param port           UDP port of the first RNIC (of both, for IPv4)
 * @param seed           seed of the random data, so that a failing run can be repeated
 * @param timeoutSeconds longest wait for the completions of one step
 * @param pcap           capture file of jroce0's packets, or null
 */
record DemoOptions(Mtu pathMtu, boolean ipv6, int port, long seed, int timeoutSeconds, Path pcap) {
    static final String USAGE = """
        usage: jroce demo [--mtu 256|512|1024|2048|4096] [--ipv6] [--port N] [--seed N] [--timeout SECONDS]
                          [--pcap FILE]

        Opens two software RNICs, jroce0 on 127.0.0.1 and jroce1 on 127.0.0.2 (UDP port 4791),
        connects one RC queue pair on each (INIT -> RTR -> RTS) and runs, from jroce0 to jroce1:
        SEND, SEND with immediate, RDMA WRITE, RDMA WRITE with immediate, RDMA READ,
        ATOMIC FETCH_AND_ADD and ATOMIC CMP_AND_SWP, with messages from 0 bytes to 1 MiB.
        Each step prints its completions, the packets each RNIC sent and received, and
        "verified" once every byte, immediate and atomic value was checked.
        Exits 0 only if every step verified.

        options:
          --mtu N            path MTU of the queue pairs (default 1024)
          --ipv6             put both RNICs on ::1, on UDP ports N and N+1
          --port N           UDP port (default 4791)
          --seed N           seed of the random message contents (default 1)
          --timeout SECONDS  longest wait for one step's completions (default 10)
          --pcap FILE        capture what jroce0 sends and receives, which is every packet of the
                             demo once (pcap, for Wireshark)
        """;

    static DemoOptions parse(ArgCursor args) throws UsageException {
        Mtu mtu = Mtu.MTU_1024;
        boolean ipv6 = false;
        int port = AddressVector.ROCE_V2_PORT;
        long seed = 1;
        int timeout = 10;
        Path pcap = null;
        while (args.hasNext()) {
            String option = args.next();
            switch (option) {
                case "--mtu" -> mtu = mtu(args.intValue(option, 256, 4096));
                case "--ipv6" -> ipv6 = true;
                case "--port" -> port = args.intValue(option, 1, 65534);
                case "--seed" -> seed = args.intValue(option, 0, Integer.MAX_VALUE);
                case "--timeout" -> timeout = args.intValue(option, 1, 3600);
                case "--pcap" -> pcap = Path.of(args.value(option));
                default -> throw ArgCursor.unknown(option);
            }
        }
        args.finish();
        return new DemoOptions(mtu, ipv6, port, seed, timeout, pcap);
    }

    private static Mtu mtu(int bytes) throws UsageException {
        try {
            return Mtu.fromBytes(bytes);
        } catch (InvalidAttributeException e) {
            throw new UsageException("--mtu must be 256, 512, 1024, 2048 or 4096, got " + bytes);
        }
    }

    String requesterAddress() {
        return ipv6 ? "::1" : "127.0.0.1";
    }

    String responderAddress() {
        return ipv6 ? "::1" : "127.0.0.2";
    }

    int requesterPort() {
        return port;
    }

    int responderPort() {
        return ipv6 ? port + 1 : port;
    }
}
