package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.testsupport.Tshark;
import io.jroce.verbs.Gid;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** --pcap on rc_pingpong: what each side sent and received, as Wireshark reads it. */
class RcPingpongCaptureTest {
    private static final int SEND_FIRST = 0x00;
    private static final int SEND_MIDDLE = 0x01;
    private static final int SEND_LAST = 0x02;
    private static final int SEND_ONLY = 0x04;
    private static final int ACKNOWLEDGE = 0x11;

    @TempDir
    Path dir;

    private PingpongPair pair(String family) {
        return family.equals("ipv4") ? PingpongPair.ipv4() : PingpongPair.ipv6();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ipv4", "ipv6"})
    void theServersCaptureHoldsEveryMessageBothWaysWithVerifyingIcrcs(String family) throws Exception {
        if (family.equals("ipv6")) {
            org.junit.jupiter.api.Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback");
        }
        PingpongPair pair = pair(family);
        Path pcap = dir.resolve("server.pcap");
        int iters = 20;
        PingpongPair.Result r = pair.run(List.of("-s", "3000", "-n", Integer.toString(iters), "--pcap", pcap.toString()),
            List.of("-s", "3000", "-n", Integer.toString(iters)));
        RcPingpongCommandTest.assertExchanged(r, 3000, iters, GidText.format(Gid.parse(pair.serverAddress)),
            GidText.format(Gid.parse(pair.clientAddress)));

        List<RoceFrame> packets = IcrcCheck.readVerified(pcap);
        byte[] server16 = Gid.parse(pair.serverAddress).toBytes();
        byte[] client16 = Gid.parse(pair.clientAddress).toBytes();
        Set<String> sendPsns = new HashSet<>();
        for (RoceFrame p : packets) {
            boolean fromServer = p.srcPort() == pair.serverUdpPort;
            String where = "frame " + p.index();
            assertArrayEquals(server16, fromServer ? p.src16() : p.dst16(), where);
            assertArrayEquals(client16, fromServer ? p.dst16() : p.src16(), where);
            assertEquals(fromServer ? pair.clientUdpPort : pair.serverUdpPort, p.dstPort(), where);
            assertEquals(fromServer ? pair.serverUdpPort : pair.clientUdpPort, p.srcPort(), where);
            int op = p.opcode();
            assertTrue(op == SEND_FIRST || op == SEND_MIDDLE || op == SEND_LAST || op == ACKNOWLEDGE,
                "frame " + p.index() + ": opcode 0x" + Integer.toHexString(op) + ", not SEND or ACK");
            if (op != ACKNOWLEDGE) {
                sendPsns.add((fromServer ? "s" : "c") + p.psn()); // a retransmission repeats a PSN
            }
        }
        // 3000 bytes at path MTU 1024: First, Middle, Last; iters messages each way.
        assertEquals(2 * iters * 3, sendPsns.size(), "distinct SEND packets");
    }

    @Test
    void tsharkDissectsARcPingpongCaptureAsRoceV2() throws Exception {
        PingpongPair pair = PingpongPair.ipv4();
        Path pcap = dir.resolve("client.pcap");
        PingpongPair.Result r = pair.run(List.of("-s", "1", "-n", "10"),
            List.of("-s", "1", "-n", "10", "--pcap", pcap.toString()));
        RcPingpongCommandTest.assertExchanged(r, 1, 10, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
        List<RoceFrame> packets = IcrcCheck.readVerified(pcap);
        assertTrue(packets.stream().anyMatch(p -> p.opcode() == SEND_ONLY), "1-byte messages go as SEND Only");
        Tshark.require().decodingAsRoce(pair.serverUdpPort, pair.clientUdpPort)
            .assertEveryFrameIsWellFormedRoce(pcap, packets.size());
    }
}
