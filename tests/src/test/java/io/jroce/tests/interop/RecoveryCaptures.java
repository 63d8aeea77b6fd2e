package io.jroce.tests.interop;

import static io.jroce.tests.interop.RcOpsPeerChannel.crcHex;
import static io.jroce.tests.interop.RcOpsPeerChannel.hex;
import static io.jroce.testsupport.Patterns.bytes;
import static io.jroce.testsupport.Patterns.fillPattern;
import static io.jroce.testsupport.Patterns.pattern;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fault.FaultPolicy;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.Opcode;
import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RequiresRxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RxePeer;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the captures of stack/src/test/resources/captures/naks/ (its README says how to run it):
 * real rxe sending PSN sequence error NAKs and RNR NAKs, and the retransmissions that follow, each
 * captured on the guest's {@code tap0} with tshark. One guest runs {@code rc_ops_peer} over IPv4 at
 * path MTU 1024; jroce, on the host, loses its own packets through its fault policy, each rule armed
 * only for the step it is meant for:
 * <ul>
 *   <li>{@code jroce-rxe_seq_nak.pcap}: a 4096-byte SEND whose first MIDDLE jroce loses, then a
 *   3000-byte RDMA WRITE whose FIRST it loses: rxe's responder NAKs each gap, jroce goes back;</li>
 *   <li>{@code jroce-rxe_rnr_nak.pcap}: a SEND before rxe has a receive posted: rxe answers with RNR
 *   NAKs until the test, once jroce counted one, posts the receive;</li>
 *   <li>{@code rxe-jroce_rnr_timeout.pcap}: rxe the requester: its SEND finds no receive at jroce
 *   (jroce's RNR NAKs, rxe's waits and retries), then jroce loses the ACK of rxe's 3000-byte RDMA
 *   WRITE and rxe resends it after its ACK timeout;</li>
 *   <li>{@code rxe-jroce_seq_nak.pcap}: rxe's 3000-byte RDMA WRITE whose MIDDLE is lost on its way
 *   to jroce, by an iptables rule in the guest's container, after tap0 (the capture holds it): jroce
 *   NAKs the gap, rxe goes back.</li>
 * </ul>
 * Run by hand only, when the captures are to be made again ({@code -Dtest=RecoveryCaptures
 * -Djroce.recoveryCaptures.dir=DIR}, DIR where they go): its name matches none of the suite's
 * test patterns, so CI never runs it and never reports it skipped. Nothing here depends on how
 * many NAKs rxe sends or on any timing: each step waits for the counter that says its fault
 * happened.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RecoveryCaptures {
    static final String DIR_PROPERTY = "jroce.recoveryCaptures.dir";
    private static final Logger LOG = LoggerFactory.getLogger(RecoveryCaptures.class);
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final int BUF = 16 * 1024;
    private static final int PORT = 18517;
    private static final int PEER_GID = 1; // the guest's IPv4-mapped GID

    private final AtomicBoolean loseSendMiddle = new AtomicBoolean();
    private final AtomicBoolean loseWriteFirst = new AtomicBoolean();
    private final AtomicBoolean loseAck = new AtomicBoolean();

    @Test
    void rxeNaksAndRetransmissionsAgainstJroce() throws Exception {
        String where = System.getProperty(DIR_PROPERTY);
        assertNotNull(where, "say where the captures go: -D" + DIR_PROPERTY + "=DIR");
        Path dir = Path.of(where);
        Files.createDirectories(dir);
        FaultPolicy faults = new FaultPolicy(1);
        FaultRule sendMiddle = faults.add(FaultRule.drop(armed(loseSendMiddle)
            .and(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE))).once().named("lose SEND MIDDLE"));
        FaultRule writeFirst = faults.add(FaultRule.drop(armed(loseWriteFirst)
            .and(PacketMatch.opcode(Opcode.RC_RDMA_WRITE_FIRST))).once().named("lose RDMA WRITE FIRST"));
        FaultRule ack = faults.add(FaultRule.drop(armed(loseAck).and(PacketMatch.acks())).once().named("lose ACK"));
        String command = "rc_ops_peer -g " + PEER_GID + " -m 1024 -s " + BUF + " -p " + PORT + " %s"
            + "; s=$?; rdma statistic show link rxe0/1; exit $s";
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer peer = RxePeer.builder().name("rxe-recovery").network(network)
                 .command(String.format(command, network.hostIpv4())).program(RcOpsPeerChannel.SOURCE).start();
             ServerSocket listener = RcOpsPeerChannel.listen(network.hostIpv4(), PORT)) {
            listener.setSoTimeout((int) BOOT.toMillis());
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-recovery").address(network.hostIpv4()).udpPort(4791)
                     .activeMtu(Mtu.MTU_1024).faults(faults, null).open();
                 ProtectionDomain pd = dev.allocPd();
                 RcOpsJroceSide j = new RcOpsJroceSide(dev, pd, BUF, AccessFlags.REMOTE_WRITE);
                 RcOpsPeerChannel ch = RcOpsPeerChannel.accept(listener, peer, RUN)) {
                j.connect(ch, dev.gids().get(0), QpConnector.rc().pathMtu(Mtu.MTU_1024));
                warmUp(j, ch);

                RoceCapture capture = RoceCapture.onGuestTap(peer, dir.resolve("jroce-rxe_seq_nak.pcap"), BOOT).awaitCapturing();
                jroceLosesASendMiddle(j, ch, dev);
                assertEquals(1, sendMiddle.applied(), sendMiddle.toString());
                jroceLosesAWriteFirst(j, ch, dev);
                assertEquals(1, writeFirst.applied(), writeFirst.toString());
                finish(capture);

                capture = RoceCapture.onGuestTap(peer, dir.resolve("jroce-rxe_rnr_nak.pcap"), BOOT).awaitCapturing();
                jroceSendsBeforeRxeHasAReceive(j, ch, dev);
                finish(capture);

                capture = RoceCapture.onGuestTap(peer, dir.resolve("rxe-jroce_rnr_timeout.pcap"), BOOT).awaitCapturing();
                rxeSendsBeforeJroceHasAReceive(j, ch, dev);
                rxeWritesAndJroceLosesTheAck(j, ch, dev);
                assertEquals(1, ack.applied(), ack.toString());
                finish(capture);

                capture = RoceCapture.onGuestTap(peer, dir.resolve("rxe-jroce_seq_nak.pcap"), BOOT).awaitCapturing();
                rxeWritesAndItsMiddleIsLost(j, ch, dev, peer);
                finish(capture);

                assertEquals("BYE 0", ch.call("QUIT"), peer.consoleLines().toString());
                GuestResult r = peer.awaitExit(RUN);
                assertEquals(0, r.exitStatus(), r.console());
                LOG.info("jroce's counters: {}", dev.counters());
            }
        }
    }

    /** One SEND and one WRITE before anything is captured: the first packets of a fresh JVM are slow. */
    private static void warmUp(RcOpsJroceSide j, RcOpsPeerChannel ch) throws Exception {
        ch.expect("RECV 40", "OK");
        j.post(new SendWorkRequest().opcode(WrOpcode.SEND).sgList(j.localSge(0, 64)));
        assertEquals("0", ch.wc("WAITRECV")[1], "rxe's receive completion of the warm-up SEND");
        j.post(new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).remoteAddress(j.peerAddr).rkey(j.peerRkey)
            .sgList(j.localSge(0, 64)));
    }

    /** SEND FIRST, (MIDDLE lost), MIDDLE: rxe NAKs the lost PSN, jroce resends from it. */
    private void jroceLosesASendMiddle(RcOpsJroceSide j, RcOpsPeerChannel ch, RdmaDevice dev) throws Exception {
        int size = 4096;
        ch.expect("RECV " + hex(size), "OK");
        fillPattern(j.local, 0, size, 0x30);
        long seqErrors = counter(dev, Counter.RCVD_SEQ_ERR);
        loseSendMiddle.set(true);
        j.post(new SendWorkRequest().opcode(WrOpcode.SEND).sgList(j.localSge(0, size)));
        loseSendMiddle.set(false);
        assertTrue(counter(dev, Counter.RCVD_SEQ_ERR) > seqErrors, "jroce learned of the gap: " + dev.counters());
        String[] wc = ch.wc("WAITRECV");
        assertEquals(List.of("0", Integer.toString(WcOpcode.RECV.code()), Integer.toString(size), "-",
            crcHex(pattern(0x30, 0, size))), List.of(wc).subList(1, 6), "rxe received the whole SEND");
    }

    /** RDMA WRITE (FIRST lost), MIDDLE, LAST: rxe NAKs the FIRST's PSN, jroce resends the message. */
    private void jroceLosesAWriteFirst(RcOpsJroceSide j, RcOpsPeerChannel ch, RdmaDevice dev) throws Exception {
        int size = 3000;
        fillPattern(j.local, 0, size, 0x40);
        long seqErrors = counter(dev, Counter.RCVD_SEQ_ERR);
        loseWriteFirst.set(true);
        j.post(new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).remoteAddress(j.peerAddr).rkey(j.peerRkey)
            .sgList(j.localSge(0, size)));
        loseWriteFirst.set(false);
        assertTrue(counter(dev, Counter.RCVD_SEQ_ERR) > seqErrors, "jroce learned of the gap: " + dev.counters());
        ch.assertMem(0, pattern(0x40, 0, size), "the region rxe's buffer got");
    }

    /** A SEND posted before rc_ops_peer's receive: rxe answers RNR NAK until the receive is there. */
    private static void jroceSendsBeforeRxeHasAReceive(RcOpsJroceSide j, RcOpsPeerChannel ch, RdmaDevice dev)
            throws Exception {
        int size = 64;
        fillPattern(j.local, 0, size, 0x50);
        j.qp.postSend(new SendWorkRequest().wrId(50).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(j.localSge(0, size)));
        awaitCounter(dev, Counter.RCVD_RNR_ERR, 1);
        ch.expect("RECV " + hex(size), "OK");
        WorkCompletion wc = new WorkCompletion();
        assertTrue(j.scq.pollBlocking(wc, 60, TimeUnit.SECONDS), "the SEND never completed");
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        String[] w = ch.wc("WAITRECV");
        assertEquals(List.of("0", Integer.toString(WcOpcode.RECV.code()), Integer.toString(size), "-",
            crcHex(pattern(0x50, 0, size))), List.of(w).subList(1, 6), "rxe received the SEND after its RNR NAKs");
    }

    /** rc_ops_peer SENDs while jroce has no receive posted: jroce RNR NAKs until the test posts one. */
    private static void rxeSendsBeforeJroceHasAReceive(RcOpsJroceSide j, RcOpsPeerChannel ch, RdmaDevice dev)
            throws Exception {
        int size = 64;
        fillPattern(j.local, 0, size + 64, -1);
        ch.send("SEND " + hex(size) + " 60");
        awaitCounter(dev, Counter.SEND_RNR_ERR, 1);
        j.qp.postRecv(new ReceiveWorkRequest().wrId(60).sgList(j.localSge(0, size)));
        String reply = ch.readLine();
        assertTrue(reply.startsWith("WC 0 " + WcOpcode.SEND.code() + " "), "rxe's SEND completion: " + reply);
        WorkCompletion wc = j.recv();
        assertEquals(size, wc.byteLen(), wc.toString());
        assertArrayEquals(pattern(0x60, 0, size), bytes(j.local, 0, size), "what jroce received");
    }

    /** rc_ops_peer's RDMA WRITE whose ACK jroce loses: rxe's ACK timer fires and it resends the WRITE. */
    private void rxeWritesAndJroceLosesTheAck(RcOpsJroceSide j, RcOpsPeerChannel ch, RdmaDevice dev) throws Exception {
        int size = 3000;
        long duplicates = counter(dev, Counter.DUPLICATE_REQUEST);
        loseAck.set(true);
        String[] w = ch.wc("WRITE 0 " + hex(size) + " 70");
        loseAck.set(false);
        assertEquals(List.of("0", Integer.toString(WcOpcode.RDMA_WRITE.code())), List.of(w).subList(1, 3),
            "rxe's WRITE completion");
        assertTrue(counter(dev, Counter.DUPLICATE_REQUEST) > duplicates, "rxe sent the WRITE again: " + dev.counters());
        assertArrayEquals(pattern(0x70, 0, size), bytes(j.target, 0, size), "what rxe wrote");
    }

    /**
     * rc_ops_peer's RDMA WRITE of 3000 bytes loses its MIDDLE (opcode 0x07) in the container's
     * bridge: the FORWARD chain sees bridged packets (bridge-nf-call-iptables), and the quota, a
     * little more than one MIDDLE's 1068 bytes, makes the rule drop one packet only.
     */
    private static void rxeWritesAndItsMiddleIsLost(RcOpsJroceSide j, RcOpsPeerChannel ch, RdmaDevice dev,
            RxePeer peer) throws Exception {
        int size = 3000;
        List<String> rule = List.of("FORWARD", "-p", "udp", "--dport", "4791", "-m", "u32", "--u32",
            "0>>22&0x3C@8>>24=0x07", "-m", "quota", "--quota", "1100", "-j", "DROP");
        long gaps = counter(dev, Counter.OUT_OF_SEQ_REQUEST);
        iptables(peer, "-I", rule);
        try {
            String[] w = ch.wc("WRITE 0 " + hex(size) + " 71");
            assertEquals(List.of("0", Integer.toString(WcOpcode.RDMA_WRITE.code())), List.of(w).subList(1, 3),
                "rxe's WRITE completion");
        } finally {
            iptables(peer, "-D", rule);
        }
        assertTrue(counter(dev, Counter.OUT_OF_SEQ_REQUEST) > gaps, "jroce saw the gap: " + dev.counters());
        assertArrayEquals(pattern(0x71, 0, size), bytes(j.target, 0, size), "what rxe wrote");
    }

    /** iptables in the network namespace of {@code peer}'s container (nsenter, as root). */
    private static void iptables(RxePeer peer, String action, List<String> rule) throws Exception {
        List<String> command = new ArrayList<>(List.of("nsenter", "-t", Long.toString(peer.containerPid()),
            "-n", "iptables", action));
        command.addAll(rule);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "iptables did not end");
        assertEquals(0, p.exitValue(), command + ": " + out);
    }

    private static void finish(RoceCapture capture) throws Exception {
        capture.stop();
        capture.check();
    }

    /** Matches while {@code flag} is set: a rule armed for one step only. */
    private static PacketMatch armed(AtomicBoolean flag) {
        return p -> flag.get();
    }

    private static long counter(RdmaDevice dev, Counter c) {
        return dev.counters().getOrDefault(c.counterName(), 0L);
    }

    private static void awaitCounter(RdmaDevice dev, Counter c, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (counter(dev, c) < atLeast) {
            assertTrue(System.nanoTime() - deadline < 0, () -> c + " never reached " + atLeast + ": " + dev.counters());
            Thread.sleep(1);
        }
    }
}
