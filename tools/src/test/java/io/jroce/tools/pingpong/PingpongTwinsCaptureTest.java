package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.testsupport.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --pcap on uc_pingpong, ud_pingpong and srq_pingpong: what goes on the wire, as Wireshark reads
 * it, is what each real tool makes its device send (as in captures of ibv_uc_pingpong and
 * ibv_ud_pingpong between two rxe peers: UC SEND First/Middle/Last without ACKs, UD SEND Only with a DETH).
 */
class PingpongTwinsCaptureTest {
    private static final int ACKNOWLEDGE = 0x11;
    private static final int UC_SEND_FIRST = 0x20;
    private static final int UC_SEND_ONLY = 0x24;
    private static final int UD_SEND_ONLY = 0x64;
    private static final int BTH_LENGTH = 12;
    private static final int DETH_LENGTH = 8;

    @TempDir
    Path dir;

    private static int hex(String s) {
        return Integer.parseInt(s, 16);
    }

    private static int padCount(RoceFrame p) {
        return (p.roce()[1] >> 4) & 0x3;
    }

    /**
     * UD SEND Only with a DETH: Q_Key 0x11111111 and the sender's QPN as source QP, to the peer's
     * QPN, with exactly the message as payload (no GRH: that is only the receive buffer's room).
     */
    @Test
    void udSendsOneSendOnlyWithQkey11111111PerMessageAndNoAcks() throws Exception {
        PingpongPair pair = PingpongPair.ipv4("ud_pingpong");
        Path pcap = dir.resolve("ud.pcap");
        int iters = 10;
        int size = 513;
        PingpongPair.Result r = pair.run(List.of("-s", Integer.toString(size), "-n", Integer.toString(iters),
            "--pcap", pcap.toString()), List.of("-s", Integer.toString(size), "-n", Integer.toString(iters)));
        PingpongTranscript[] t = PingpongTranscript.assertExchanged(r, PingpongTool.UD, 1, size, iters,
            "::ffff:127.0.0.1", "::ffff:127.0.0.2");
        int serverQpn = hex(t[0].localAddress().qpn());
        int clientQpn = hex(t[1].localAddress().qpn());

        List<RoceFrame> packets = IcrcCheck.readVerified(pcap);
        assertEquals(2 * iters, packets.size(), "one datagram per message each way, nothing else");
        for (RoceFrame p : packets) {
            boolean fromServer = p.srcPort() == pair.serverUdpPort;
            String where = "frame " + p.index();
            assertEquals(UD_SEND_ONLY, p.opcode(), where);
            assertEquals(fromServer ? clientQpn : serverQpn, p.destQp(), where);
            ByteBuffer roce = ByteBuffer.wrap(p.roce());
            assertEquals(PingpongTool.UD_QKEY, roce.getInt(BTH_LENGTH), where + ": Q_Key");
            assertEquals(fromServer ? serverQpn : clientQpn, roce.getInt(BTH_LENGTH + 4) & 0xFFFFFF,
                where + ": source QP");
            assertEquals(size, p.roce().length - BTH_LENGTH - DETH_LENGTH - padCount(p), where + ": payload");
        }
        Tshark.require().decodingAsRoce(pair.serverUdpPort, pair.clientUdpPort)
            .assertEveryFrameIsWellFormedRoce(pcap, packets.size());
    }

    /** UC: SEND First/Middle/Last (or Only) at the path MTU, never an ACK. */
    @Test
    void ucSendsUnacknowledgedSendsAtThePathMtu() throws Exception {
        PingpongPair pair = PingpongPair.ipv4("uc_pingpong");
        Path pcap = dir.resolve("uc.pcap");
        int iters = 10;
        PingpongPair.Result r = pair.run(List.of("-s", "2500", "-n", Integer.toString(iters), "--pcap", pcap.toString()),
            List.of("-s", "2500", "-n", Integer.toString(iters)));
        PingpongTranscript.assertExchanged(r, PingpongTool.UC, 1, 2500, iters, "::ffff:127.0.0.1", "::ffff:127.0.0.2");

        List<RoceFrame> packets = IcrcCheck.readVerified(pcap);
        Set<String> psns = new HashSet<>();
        for (RoceFrame p : packets) {
            assertTrue(p.opcode() >= UC_SEND_FIRST && p.opcode() <= UC_SEND_ONLY && p.opcode() != ACKNOWLEDGE,
                "frame " + p.index() + ": opcode 0x" + Integer.toHexString(p.opcode()) + ", not a UC SEND");
            psns.add((p.srcPort() == pair.serverUdpPort ? "s" : "c") + p.psn());
        }
        // 2500 bytes at path MTU 1024: First, Middle, Last; iters messages each way; nothing twice.
        assertEquals(2 * iters * 3, packets.size());
        assertEquals(packets.size(), psns.size(), "distinct PSNs");
        Tshark.require().decodingAsRoce(pair.serverUdpPort, pair.clientUdpPort)
            .assertEveryFrameIsWellFormedRoce(pcap, packets.size());
    }

    /** srq: each of the 16 QPs of each side sends to its partner QP; the receives all come from one SRQ. */
    @Test
    void srqUsesEveryQpPairBothWays() throws Exception {
        PingpongPair pair = PingpongPair.ipv4("srq_pingpong");
        Path pcap = dir.resolve("srq.pcap");
        PingpongPair.Result r = pair.run(List.of("-s", "1", "-n", "200"),
            List.of("-s", "1", "-n", "200", "--pcap", pcap.toString()));
        PingpongTranscript[] t = PingpongTranscript.assertExchanged(r, PingpongTool.SRQ, 16, 1, 200,
            "::ffff:127.0.0.1", "::ffff:127.0.0.2");
        Set<Integer> serverQpns = t[0].local().stream().map(a -> hex(a.qpn())).collect(Collectors.toSet());
        Set<Integer> clientQpns = t[1].local().stream().map(a -> hex(a.qpn())).collect(Collectors.toSet());

        List<RoceFrame> packets = IcrcCheck.readVerified(pcap);
        Set<Integer> sentTo = new HashSet<>();
        Set<Integer> receivedAt = new HashSet<>();
        for (RoceFrame p : packets) {
            if (p.opcode() == ACKNOWLEDGE) {
                continue;
            }
            (p.srcPort() == pair.clientUdpPort ? sentTo : receivedAt).add(p.destQp());
        }
        assertEquals(serverQpns, sentTo, "the client's SENDs go to every server QP");
        assertEquals(clientQpns, receivedAt, "the server's SENDs go to every client QP");
    }
}
