package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.wire.Opcode;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.verbs.QpConnector;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event logs of two jroce devices on UDP loopback, where no frame number travels with a packet: a
 * packet the network delivered twice is paired with both its arrivals; a packet whose ICRC failed
 * is found as a capture's would be; a packet the receiver dropped on arrival (its QP does not
 * exist) is drawn dropped, its note naming the drop counter and the arrival, as the receiver's
 * {@code roce:packet_dropped} names it.
 */
class ExplainUdpEventLogsTest {
    /** A sender that keeps no log, so that explain draws what the receiver's log says arrived from it. */
    private static final String STRANGER = "127.0.0.3";

    @TempDir
    Path dir;

    private Ladder explain(Path logA, Path logB) throws Exception {
        Path both = dir.resolve("both.jsonseq");
        Files.write(both, Files.readAllBytes(logA));
        Files.write(both, Files.readAllBytes(logB), StandardOpenOption.APPEND);
        CommandRunner r = CommandRunner.run("explain", both.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        System.out.println(r.out()); // the surefire report keeps the ladder
        return new Ladder(r.out());
    }

    @Test
    void aPacketTheNetworkCopiedIsPairedWithBothItsArrivals() throws Exception {
        Path logA = dir.resolve("a.jsonseq");
        Path logB = dir.resolve("b.jsonseq");
        try (FaultedRun run = new FaultedRun(dir.resolve("dup.pcap")).eventLogs(logA, logB)) {
            FaultRule rule = FaultRule.duplicate(PacketMatch.opcode(Opcode.RC_SEND_ONLY)).once().named("copy the SEND");
            run.faultsA.add(rule);
            run.open(QpConnector.rc().timeout(16));
            run.postReceive(64);
            run.send(64);
            run.completes();
            assertEquals(1, rule.applied(), rule.toString());
        }
        Ladder ladder = explain(logA, logB);
        Ladder.Entry send = ladder.only("the SEND", e -> e.arrow().contains("RC_SEND_ONLY psn 16777213 "));
        assertTrue(send.arrow().contains("[duplicated]"), send.toString());
        assertTrue(send.noted("DUPLICATED on the way: explainA sent it once, the network delivered a copy too (fault: "
            + "copy the SEND (seen 1, applied 1)); explainB received it twice"), send.toString());
    }

    /**
     * Two datagrams from a sender without a log: one whose ICRC is wrong (B's transport drops it,
     * its log says so), one to a QP B does not have (B's RNIC drops it, its log names the arrival).
     */
    @Test
    void aPacketItsReceiverDroppedIsDrawnDroppedWithTheReason() throws Exception {
        Path logA = dir.resolve("a.jsonseq");
        Path logB = dir.resolve("b.jsonseq");
        try (FaultedRun run = new FaultedRun(dir.resolve("drops.pcap")).eventLogs(logA, logB);
             DatagramSocket stranger = new DatagramSocket(new InetSocketAddress(STRANGER, 0))) {
            run.open(QpConnector.rc().timeout(16));
            InetSocketAddress b = new InetSocketAddress("127.0.0.2", run.portB);
            stranger.send(sendOnly(stranger, b, run.qpB.qpNum(), 0x42, false));
            run.awaitCounterOfB("drop_bad_icrc");
            stranger.send(sendOnly(stranger, b, 0xABCDE, 0x43, true));
            run.awaitCounterOfB("drop_unknown_qpn");
        }
        String b = Files.readString(logB);
        assertTrue(b.matches("(?s).*\"reason\":\"drop_bad_icrc\",\"count\":1,\"arrival\":\\d+,\"src\":\"127\\.0\\.0\\.3\".*"),
            "on UDP too the transport's drop names the arrival: " + b);
        Ladder ladder = explain(logA, logB);
        Ladder.Entry badIcrc = ladder.only("the bad ICRC", e -> e.arrow().contains("RC_SEND_ONLY psn 66 "));
        assertTrue(badIcrc.noted("bad ICRC: its receiver's log says the ICRC did not match the headers and payload; it "
            + "dropped the packet"), "the analysis reads the log's icrc bad as a capture's: " + badIcrc);
        Ladder.Entry unknownQp = ladder.only("the unknown QP", e -> e.arrow().contains("RC_SEND_ONLY psn 67 "));
        assertTrue(unknownQp.notes().stream().anyMatch(n -> n.matches("DROPPED on arrival: explainB received it and "
            + "dropped it \\(drop_unknown_qpn, its arrival \\d+\\)")), unknownQp.toString());
    }

    /** An RC SEND ONLY of 4 bytes from {@code from} to {@code to}'s QP {@code qpn}, its ICRC right or wrong. */
    private static DatagramPacket sendOnly(DatagramSocket from, InetSocketAddress to, int qpn, int psn, boolean goodIcrc)
        throws Exception {
        byte[] bytes = new byte[12 + 4 + 4];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, (byte) Opcode.RC_SEND_ONLY);
        b.putByte(1, (byte) 0); // SE 0, MigReq 0, pad 0, TVer 0
        b.putShort(2, (short) 0xFFFF, java.nio.ByteOrder.BIG_ENDIAN);
        b.putInt(4, qpn & 0xFFFFFF, java.nio.ByteOrder.BIG_ENDIAN);
        b.putInt(8, psn & 0xFFFFFF, java.nio.ByteOrder.BIG_ENDIAN);
        b.putInt(12, 0x6A6F6365, java.nio.ByteOrder.BIG_ENDIAN); // "joce"
        int icrc = new IcrcCalculator().computeIpv4(ipv4(from.getLocalAddress()), ipv4(to.getAddress()), 0,
            IcrcCalculator.IPV4_FLAGS_DF, from.getLocalPort(), to.getPort(), b, 0, 16);
        IcrcCalculator.writeIcrc(b, 16, goodIcrc ? icrc : ~icrc);
        return new DatagramPacket(bytes, bytes.length, to);
    }

    private static int ipv4(InetAddress a) {
        byte[] b = a.getAddress();
        return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | b[3] & 0xFF;
    }
}
