package io.jroce.tools.demo;

import static io.jroce.tools.getopt.OptionSpec.NO_SHORT;
import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import java.nio.file.Path;
import java.util.List;

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
        usage: jroce demo [--mtu 256|512|1024|2048|4096] [--ipv6] [--udp-port N] [--seed N]
                          [--timeout SECONDS] [--pcap FILE]

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
          --udp-port N       UDP port (default 4791); --port N is the same
          --seed N           seed of the random message contents (default 1)
          --timeout SECONDS  longest wait for one step's completions (default 10)
          --pcap FILE        capture what jroce0 sends and receives, which is every packet of the
                             demo once (pcap, for Wireshark)
        """;

    static DemoOptions parse(List<String> args) throws UsageException {
        Mtu[] mtu = {Mtu.MTU_1024};
        boolean[] ipv6 = {false};
        int[] port = {AddressVector.ROCE_V2_PORT};
        long[] seed = {1};
        int[] timeout = {10};
        Path[] pcap = {null};
        new Getopt(List.of(
            value(NO_SHORT, "mtu", (o, v) -> mtu[0] = mtu(Getopt.integer(o, v, 256, 4096))),
            flag(NO_SHORT, "ipv6", () -> ipv6[0] = true),
            value(NO_SHORT, "udp-port", (o, v) -> port[0] = Getopt.integer(o, v, 1, 65534)),
            value(NO_SHORT, "port", (o, v) -> port[0] = Getopt.integer(o, v, 1, 65534)),
            value(NO_SHORT, "seed", (o, v) -> seed[0] = Getopt.integer(o, v, 0, Integer.MAX_VALUE)),
            value(NO_SHORT, "timeout", (o, v) -> timeout[0] = Getopt.integer(o, v, 1, 3600)),
            value(NO_SHORT, "pcap", (o, v) -> pcap[0] = Path.of(v))), (o, operand) -> {
                throw Getopt.unknown(operand);
            }).parse(args);
        return new DemoOptions(mtu[0], ipv6[0], port[0], seed[0], timeout[0], pcap[0]);
    }

    /** jroce0, the requester: the one that captures, as it takes part in every exchange. */
    DeviceOptions requesterDevice() {
        return DeviceOptions.of("jroce0", ipv6 ? "::1" : "127.0.0.1", port, pcap);
    }

    /** jroce1, the responder: on 127.0.0.2, or on ::1 one UDP port up. */
    DeviceOptions responderDevice() {
        return DeviceOptions.of("jroce1", ipv6 ? "::1" : "127.0.0.2", ipv6 ? port + 1 : port, null);
    }

    private static Mtu mtu(int bytes) throws UsageException {
        try {
            return Mtu.fromBytes(bytes);
        } catch (InvalidAttributeException e) {
            throw new UsageException("--mtu must be 256, 512, 1024, 2048 or 4096, got " + bytes);
        }
    }
}
