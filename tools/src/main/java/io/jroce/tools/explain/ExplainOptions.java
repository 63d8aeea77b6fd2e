package io.jroce.tools.explain;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.stack.wire.RoceV2;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code jroce explain} was asked for.
 *
 * @param file     the capture
 * @param ports    UDP destination ports read as RoCEv2
 * @param qp       only connections with this QP at either end, or -1
 * @param fromNs   only packets at or after this time since the first frame, or -1
 * @param toNs     only packets at or before this time since the first frame, or -1
 * @param first    only frames from this number, or 0
 * @param last     only frames up to this number, or 0
 * @param packet   the frame to explain field by field ({@code 7} or {@code 7.2}), or null
 * @param mermaid  a Mermaid sequence diagram instead of the terminal ladder
 * @param html     where to write the HTML page instead of printing the ladder, or null
 */
record ExplainOptions(Path file, Set<Integer> ports, int qp, long fromNs, long toNs, int first, int last,
                      String packet, boolean mermaid, Path html) {
    static final String USAGE = """
        usage: jroce explain [--qp N] [--from S] [--to S] [--packets A-B] [--packet N] [--mermaid]
                             [--html OUT] [--udp-port N] FILE

        Explains a RoCEv2 capture (pcap or pcapng: jroce's --pcap, tcpdump's, tshark's, GSO
        super-datagrams included) or jroce devices' event logs (docs/event-log.md): a ladder diagram per connection, one arrow per packet with its
        opcode, PSN, AckReq, MSN, AETH syndrome in words and sizes, then what Wireshark does not
        show: messages reassembled with their latency, retransmissions and what triggered each
        (NAK, RNR NAK, implied NAK, timeout), PSN gaps, duplicates, RNR waits, READs and atomics
        paired with their responses, bad ICRCs, opcode-sequence errors, and a per-QP summary.
        docs/explain.md says what every note means.

        options:
          --qp N          only connections with QP N (decimal or 0x hex) at either end
          --from S        only packets at least S seconds after the first frame
          --to S          only packets at most S seconds after the first frame
          --packets A-B   only frames A to B (either may be left out: 100-, -50)
          --packet N      explain frame N field by field, with the IBTA section of each header
                          (N.K: the K-th packet of a GSO super-datagram)
          --mermaid       print a Mermaid sequenceDiagram per connection instead of the ladder
          --html OUT      write one self-contained HTML page (ladder to time scale, click a packet
                          for its fields, step with the arrow keys, search) to OUT instead
          --udp-port N    also read UDP port N as RoCEv2 (repeatable; 4791 always is); --port N
                          is the same
        """;

    static ExplainOptions parse(List<String> args) throws UsageException {
        Set<Integer> ports = new LinkedHashSet<>(List.of(RoceV2.UDP_PORT));
        int[] qp = {-1};
        long[] range = {-1, -1};
        int[] frames = {0, 0};
        String[] packet = {null};
        boolean[] mermaid = {false};
        String[] html = {null};
        String[] file = {null};
        List<OptionSpec> table = List.of(
            value(OptionSpec.NO_SHORT, "qp", (o, v) -> qp[0] = Getopt.integer(o, v, 0, 0xFFFFFF)),
            value(OptionSpec.NO_SHORT, "from", (o, v) -> range[0] = seconds(o, v)),
            value(OptionSpec.NO_SHORT, "to", (o, v) -> range[1] = seconds(o, v)),
            value(OptionSpec.NO_SHORT, "packets", (o, v) -> frames(o, v, frames)),
            value(OptionSpec.NO_SHORT, "packet", (o, v) -> packet[0] = frame(o, v)),
            flag(OptionSpec.NO_SHORT, "mermaid", () -> mermaid[0] = true),
            value(OptionSpec.NO_SHORT, "html", (o, v) -> html[0] = v),
            value(OptionSpec.NO_SHORT, "udp-port", (o, v) -> ports.add(Getopt.integer(o, v, 1, 65535))),
            value(OptionSpec.NO_SHORT, "port", (o, v) -> ports.add(Getopt.integer(o, v, 1, 65535))));
        new Getopt(table, (o, operand) -> {
            if (file[0] != null) {
                throw new UsageException("one capture file at most, got '" + file[0] + "' and '" + operand + "'");
            }
            file[0] = operand;
        }).parse(args);
        if (file[0] == null) {
            throw new UsageException("which capture? give a pcap or pcapng FILE");
        }
        if (range[0] >= 0 && range[1] >= 0 && range[1] < range[0]) {
            throw new UsageException("--to must not be before --from");
        }
        if (html[0] != null && (mermaid[0] || packet[0] != null)) {
            throw new UsageException("--html writes a page of its own: not with --mermaid or --packet");
        }
        return new ExplainOptions(Path.of(file[0]), ports, qp[0], range[0], range[1], frames[0], frames[1], packet[0],
            mermaid[0], html[0] == null ? null : Path.of(html[0]));
    }

    private static long seconds(String spelling, String value) throws UsageException {
        try {
            double s = Double.parseDouble(value.trim());
            if (s >= 0 && s < 1e9) {
                return Math.round(s * 1e9);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(spelling + " needs seconds (e.g. 0.5), got '" + value + "'");
    }

    private static void frames(String spelling, String value, int[] frames) throws UsageException {
        int dash = value.indexOf('-');
        if (dash < 0 || (dash == 0 && value.length() == 1)) {
            throw new UsageException(spelling + " needs a range of frames A-B, got '" + value + "'");
        }
        String a = value.substring(0, dash).trim();
        String b = value.substring(dash + 1).trim();
        frames[0] = a.isEmpty() ? 0 : Getopt.integer(spelling, a, 1, Integer.MAX_VALUE);
        frames[1] = b.isEmpty() ? 0 : Getopt.integer(spelling, b, 1, Integer.MAX_VALUE);
        if (frames[1] != 0 && frames[1] < frames[0]) {
            throw new UsageException(spelling + ": " + value + " ends before it starts");
        }
    }

    private static String frame(String spelling, String value) throws UsageException {
        if (!value.matches("[1-9][0-9]{0,9}(\\.[1-9][0-9]{0,4})?")) {
            throw new UsageException(spelling + " needs a frame number (or N.K), got '" + value + "'");
        }
        return value;
    }

    /** Whether {@code p} is inside the time and frame ranges. */
    boolean shows(Packet p, long startNs) {
        long t = p.timeNs() - startNs;
        return (fromNs < 0 || t >= fromNs) && (toNs < 0 || t <= toNs) && (first == 0 || p.frame() >= first)
            && (last == 0 || p.frame() <= last);
    }

    /** Whether connection {@code c} is to be shown. */
    boolean shows(Connection c) {
        return qp < 0 || c.a().qpn() == qp || c.b().qpn() == qp;
    }
}
