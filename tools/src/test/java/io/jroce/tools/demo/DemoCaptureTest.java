package io.jroce.tools.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.testsupport.Tshark;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** demo --pcap: jroce0's capture holds every RC operation of the demo, each ICRC valid. */
class DemoCaptureTest {
    private static final Pattern JROCE0 = Pattern.compile(
        "  jroce0\\s+sent ([\\d,]+) packets \\([\\d,]+ bytes\\), received ([\\d,]+) packets.*");

    @TempDir
    Path dir;

    @Test
    void jroce0CapturesEveryOperationOfTheDemo() throws Exception {
        Path pcap = dir.resolve("demo.pcap");
        int port = freeUdpPort();
        CommandRunner r = CommandRunner.run("demo", "--port", Integer.toString(port), "--pcap", pcap.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        Matcher m = r.out().lines().map(JROCE0::matcher).filter(Matcher::matches).findFirst()
            .orElseThrow(() -> new AssertionError("no jroce0 summary line\n" + r.transcript()));
        long counted = Long.parseLong(m.group(1).replace(",", "")) + Long.parseLong(m.group(2).replace(",", ""));

        List<RoceFrame> packets = IcrcCheck.readVerified(pcap);
        assertTrue(packets.size() >= counted, "captured " + packets.size() + " of the " + counted
            + " packets jroce0 counted");
        Set<Integer> opcodes = new TreeSet<>();
        packets.forEach(p -> opcodes.add(p.opcode()));
        // RC SEND First..Only with immediate, RDMA WRITE First..Only with immediate, READ request and
        // responses, ACK, atomic ACK, CMP_AND_SWP, FETCH_ADD (IBTA Table 38).
        Set<Integer> expected = new TreeSet<>(List.of(0x00, 0x01, 0x02, 0x04, 0x05, 0x03, 0x06, 0x07, 0x08, 0x0A,
            0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14));
        assertTrue(opcodes.containsAll(expected), "opcodes captured: " + opcodes);
        Tshark.require().decodingAsRoce(port).assertEveryFrameIsWellFormedRoce(pcap, packets.size());
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0))) {
            return s.getLocalPort();
        }
    }
}
