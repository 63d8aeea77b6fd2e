package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One side's output of a ping-pong twin, taken apart line by line; every line must be one the real
 * tool prints: a "local address" line per QP (ud_pingpong's with a colon before "GID"), a "remote
 * address" line per QP, the two result lines, and the server's "invalid data in page N" lines.
 */
record PingpongTranscript(List<Address> local, List<Address> remote, long bytes, int iters,
                          List<String> invalidPages) {
    static final Pattern LOCAL = Pattern.compile(
        "  local address: {2}LID 0x([0-9a-f]{4}), QPN 0x([0-9a-f]{6}), PSN 0x([0-9a-f]{6})(, |: )GID (\\S+)");
    static final Pattern REMOTE = Pattern.compile(
        "  remote address: LID 0x([0-9a-f]{4}), QPN 0x([0-9a-f]{6}), PSN 0x([0-9a-f]{6}), GID (\\S+)");
    static final Pattern BYTES = Pattern.compile("(\\d+) bytes in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) Mbit/sec");
    static final Pattern ITERS = Pattern.compile("(\\d+) iters in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) usec/iter");

    /** One address line's QPN, PSN and GID as printed. */
    record Address(String qpn, String psn, String gid) {
    }

    /** The first local address (the only one but for srq_pingpong). */
    Address localAddress() {
        return local.get(0);
    }

    static PingpongTranscript parse(CommandRunner r, PingpongTool tool, int qps) {
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.size() >= 2 * qps + 2, r.transcript());
        List<Address> local = new ArrayList<>();
        List<Address> remote = new ArrayList<>();
        for (int i = 0; i < qps; i++) {
            Matcher l = match(LOCAL, lines.get(i), r);
            assertEquals("0000", l.group(1), "LID 0 on RoCE");
            assertEquals(tool == PingpongTool.UD ? ": " : ", ", l.group(4),
                "the separator before GID in " + tool.realTool() + "'s local line");
            local.add(new Address(l.group(2), l.group(3), l.group(5)));
            Matcher m = match(REMOTE, lines.get(qps + i), r);
            assertEquals("0000", m.group(1), "LID 0 on RoCE");
            remote.add(new Address(m.group(2), m.group(3), m.group(4)));
        }
        Matcher bytes = match(BYTES, lines.get(2 * qps), r);
        Matcher iters = match(ITERS, lines.get(2 * qps + 1), r);
        assertEquals(bytes.group(2), iters.group(2), "one duration in both lines");
        List<String> invalid = lines.subList(2 * qps + 2, lines.size());
        for (String line : invalid) {
            assertTrue(line.matches("invalid data in page \\d+"), r.transcript());
        }
        return new PingpongTranscript(List.copyOf(local), List.copyOf(remote), Long.parseLong(bytes.group(1)),
            Integer.parseInt(iters.group(1)), List.copyOf(invalid));
    }

    private static Matcher match(Pattern p, String line, CommandRunner r) {
        Matcher m = p.matcher(line);
        assertTrue(m.matches(), () -> "'" + line + "' is not " + p + "\n" + r.transcript());
        return m;
    }

    /**
     * Both sides exited 0 with nothing on stderr, each saw the other's addresses (QP by QP, in
     * order), the QPNs of one side are distinct, and both report size x iters x 2 bytes.
     *
     * @return the server's transcript, then the client's
     */
    static PingpongTranscript[] assertExchanged(PingpongPair.Result r, PingpongTool tool, int qps, int size,
                                                int iters, String serverGid, String clientGid) {
        assertEquals(ExitStatus.OK, r.server().status(), r.transcript());
        assertEquals(ExitStatus.OK, r.client().status(), r.transcript());
        assertEquals("", r.server().err(), r.transcript());
        assertEquals("", r.client().err(), r.transcript());
        PingpongTranscript s = parse(r.server(), tool, qps);
        PingpongTranscript c = parse(r.client(), tool, qps);
        for (Address a : s.local) {
            assertEquals(serverGid, a.gid(), r.transcript());
        }
        for (Address a : c.local) {
            assertEquals(clientGid, a.gid(), r.transcript());
        }
        assertEquals(s.local, c.remote, r.transcript());
        assertEquals(c.local, s.remote, r.transcript());
        for (PingpongTranscript t : new PingpongTranscript[] {s, c}) {
            assertEquals(qps, t.local.stream().map(Address::qpn).distinct().count(), r.transcript());
            assertEquals((long) size * iters * 2, t.bytes(), r.transcript());
            assertEquals(iters, t.iters(), r.transcript());
        }
        return new PingpongTranscript[] {s, c};
    }
}
