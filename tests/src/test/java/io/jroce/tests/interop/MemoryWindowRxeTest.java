package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static io.jroce.tests.interop.RcOpsPeerChannel.crcHex;
import static io.jroce.tests.interop.RcOpsPeerChannel.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.jroce.testsupport.Patterns.bytes;
import static io.jroce.testsupport.Patterns.fillPattern;
import static io.jroce.testsupport.Patterns.pattern;

/**
 * Type 2 memory windows and SEND with invalidate between jroce and real rxe, both ways, driving
 * {@code rc_ops_peer} ({@code tests/src/test/c/rc_ops_peer.c}: MWBIND, SENDINV, WRITEK,
 * READK and the invalidated rkey in WAITRECV's answer).
 *
 * <ol>
 * <li>rxe binds a type 2 window (IBV_WR_BIND_MW) on its buffer; jroce WRITEs and READs through
 * its rkey (data checked on both sides), invalidates it with SEND_WITH_INV (rxe's receive
 * completion has IBV_WC_WITH_INV and the rkey), and a later WRITE through it completes with
 * REM_ACCESS_ERR, leaving rxe's buffer untouched.</li>
 * <li>jroce binds a type 2 window (BIND_MW); rxe WRITEs and READs through it, invalidates it with
 * IBV_WR_SEND_WITH_INV (jroce's receive completion has withInv() and the rkey), and a later rxe
 * WRITE through it completes with IBV_WC_REM_ACCESS_ERR, leaving jroce's buffer untouched.</li>
 * </ol>
 * An access error moves both QPs to ERR, so each direction has a connection of its own: the guest
 * runs {@code rc_ops_peer} twice (one boot). tshark captures the guest's tap ({@code /tmp/mw-rxe.pcap}); every
 * packet must dissect as RoCEv2 and verify its ICRC ({@link RoceCapture}).
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MemoryWindowRxeTest {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryWindowRxeTest.class);
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final int BUF = 64 * 1024;
    private static final int PORT = 18517;
    /** libibverbs' IBV_WC_WITH_INV in ibv_wc.wc_flags. */
    private static final int IBV_WC_WITH_INV = 1 << 3;
    /** The kernel's IB_WC_WITH_INVALIDATE, which rxe puts into user space CQEs unchanged. */
    private static final int IBV_WC_KERNEL_WITH_INVALIDATE = 1 << 2;
    /** The window: [WOFF, WOFF + WLEN) of each side's buffer. */
    private static final int WOFF = 0x1000;
    private static final int WLEN = 0x2000;
    /** Crosses two MTU-1024 packets and starts unaligned inside the window. */
    private static final int LEN = 2049;
    private static final int IN = 0x13;
    /** jroce's target region: a type 2 window is bound on it in phase 2. */
    private static final int TARGET_ACCESS = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.MW_BIND;

    @Test
    void type2WindowsAndSendWithInvalidateBothWays() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            String one = "rc_ops_peer -g 1 -m 1024 -s " + BUF + " -p " + PORT + " " + host;
            String command = one + "; a=$?; " + one + "; b=$?; rdma statistic show link rxe0/1; exit $((a|b))";
            Path pcap = Path.of("/tmp/mw-rxe.pcap");
            RoceCapture capture = null; // on the guest's tap0, where GSO datagrams are cut into packets
            boolean passed = false;
            QpConnector connector = QpConnector.rc().accessFlags(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
            try (RxePeer peer = RxePeer.builder().name("rxe-mw").network(network).command(command)
                     .program(RcOpsPeerChannel.SOURCE).start();
                 ServerSocket listener = RcOpsPeerChannel.listen(host, PORT);
                 RdmaDevice dev = SoftRnic.builder().name("jroce-mw").address(host).udpPort(4791)
                     .activeMtu(Mtu.MTU_1024).open();
                 ProtectionDomain pd = dev.allocPd()) {
                capture = RoceCapture.onGuestTap(peer, pcap, BOOT);
                listener.setSoTimeout((int) BOOT.toMillis());
                long t0 = 0;
                try (RcOpsJroceSide j = new RcOpsJroceSide(dev, pd, BUF, TARGET_ACCESS);
                     RcOpsPeerChannel ch = RcOpsPeerChannel.accept(listener, peer, RUN)) {
                    t0 = System.nanoTime();
                    j.connect(ch, dev.gids().get(0), connector);
                    jroceUsesRxeWindow(j, ch);
                    assertEquals("BYE 0", ch.call("QUIT"), String.join("\n", peer.consoleLines()));
                }
                long t1 = System.nanoTime();
                try (RcOpsJroceSide j = new RcOpsJroceSide(dev, pd, BUF, TARGET_ACCESS);
                     MemoryWindow window = pd.allocMemoryWindow(2);
                     RcOpsPeerChannel ch = RcOpsPeerChannel.accept(listener, peer, RUN)) {
                    j.connect(ch, dev.gids().get(0), connector);
                    rxeUsesJroceWindow(j, window, ch);
                    assertEquals("BYE 0", ch.call("QUIT"), String.join("\n", peer.consoleLines()));
                }
                long t2 = System.nanoTime();
                GuestResult r = peer.awaitExit(RUN);
                assertEquals(0, r.exitStatus(), r.console());
                LOG.info("jroce through rxe's window: {} ms; rxe through jroce's window: {} ms; jroce's counters {}",
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, dev.counters());
                passed = true;
            } finally {
                if (capture != null) {
                    capture.stop();
                }
                if (!passed) {
                    LOG.error("the capture of the failed run is {}", pcap);
                }
            }
            capture.check(); // every packet (BIND_MW does not go on the wire; SEND_WITH_INV's IETH does) is RoCEv2 with a valid ICRC
        }
    }

    /** Phase 1: rxe's type 2 window, jroce the active side. */
    private static void jroceUsesRxeWindow(RcOpsJroceSide j, RcOpsPeerChannel ch) throws Exception {
        ch.expect("FILL " + hex(IN), "OK");
        String[] mw = ch.call("MWBIND " + hex(WOFF) + " " + hex(WLEN) + " "
            + hex(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ)).split(" ");
        assertEquals(List.of("MW", "0"), List.of(mw).subList(0, 2), "rxe's BIND_MW: " + String.join(" ", mw));
        int rkey = Integer.parseUnsignedInt(mw[2], 16);
        long wva = Long.parseUnsignedLong(mw[3], 16);
        assertEquals(j.peerAddr + WOFF, wva, "the window's address");
        assertTrue(rkey != j.peerRkey, "the window's rkey is not the region's");
        LOG.info("rxe's type 2 window: rkey {} at {}", Integer.toHexString(rkey), Long.toHexString(wva));

        // WRITE through the window: the written bytes and their neighbours
        int off = 0x10;
        fillPattern(j.local, 0, LEN, 0x21);
        j.post(new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).remoteAddress(wva + off).rkey(rkey)
            .sgList(ScatterGatherEntry.of(j.local, 0, LEN)), WcStatus.SUCCESS);
        ch.assertMem(WOFF + off, pattern(0x21, 0, LEN), "written through rxe's window");
        ch.assertMem(WOFF, pattern(IN, WOFF, off), "bytes before the write");
        ch.assertMem(WOFF + off + LEN, pattern(IN, WOFF + off + LEN, 64), "bytes after the write");

        // READ through the window, up to its last byte
        ch.expect("FILL " + hex(0x31), "OK");
        fillPattern(j.local, 0, WLEN + 64, -1);
        j.post(new SendWorkRequest().opcode(WrOpcode.RDMA_READ).remoteAddress(wva + WLEN - LEN).rkey(rkey)
            .sgList(ScatterGatherEntry.of(j.local, 0, LEN)), WcStatus.SUCCESS);
        assertArrayEquals(pattern(0x31, WOFF + WLEN - LEN, LEN), bytes(j.local, 0, LEN), "read through rxe's window");
        assertArrayEquals(pattern(-1, 0, 64), bytes(j.local, LEN, 64), "bytes after the read data");

        // SEND_WITH_INV: rxe's completion reports the invalidated rkey
        ch.expect("RECV 100", "OK");
        fillPattern(j.local, 0, 100, 0x41);
        j.post(new SendWorkRequest().opcode(WrOpcode.SEND_WITH_INV).invalidateRkey(rkey)
            .sgList(ScatterGatherEntry.of(j.local, 0, 100)), WcStatus.SUCCESS);
        String[] w = ch.wc("WAITRECV");
        assertEquals(List.of(Integer.toString(WcStatus.SUCCESS.code()), Integer.toString(WcOpcode.RECV.code()), "100", "-",
                crcHex(pattern(0x41, 0, 100)), Integer.toHexString(rkey)), List.of(w).subList(1, 7),
            "rxe's receive completion of SEND_WITH_INV: status opcode byte_len imm crc32 invalidated_rkey");
        // rxe marks it with the kernel's IB_WC_WITH_INVALIDATE (1 << 2), which libibverbs calls
        // IBV_WC_IP_CSUM_OK, instead of IBV_WC_WITH_INV (1 << 3): accept either, and log which.
        int flags = Integer.parseInt(w[7], 16);
        assertTrue((flags & (IBV_WC_WITH_INV | IBV_WC_KERNEL_WITH_INVALIDATE)) != 0,
            "rxe's wc_flags mark the invalidation: " + String.join(" ", w));
        LOG.info("rxe's wc_flags for SEND_WITH_INV: {} (IBV_WC_WITH_INV {}, kernel IB_WC_WITH_INVALIDATE {})",
            w[7], (flags & IBV_WC_WITH_INV) != 0, (flags & IBV_WC_KERNEL_WITH_INVALIDATE) != 0);

        // the invalidated rkey no longer works, and rxe's memory stays as it was
        ch.expect("FILL " + hex(0x51), "OK");
        fillPattern(j.local, 0, 64, 0x61);
        WorkCompletion wc = j.post(new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).remoteAddress(wva).rkey(rkey)
            .sgList(ScatterGatherEntry.of(j.local, 0, 64)), WcStatus.REM_ACCESS_ERR);
        LOG.info("WRITE through rxe's invalidated window: {}", wc);
        ch.assertMem(WOFF, pattern(0x51, WOFF, 64), "rxe's window memory after the refused WRITE");
    }

    /** Phase 2: jroce's type 2 window, rxe the active side. */
    private static void rxeUsesJroceWindow(RcOpsJroceSide j, MemoryWindow window, RcOpsPeerChannel ch)
        throws Exception {
        int rkey = window.nextRkey();
        long wva = j.target.address() + WOFF;
        j.post(new SendWorkRequest().opcode(WrOpcode.BIND_MW)
            .bindMw(window, rkey, j.target, wva, WLEN, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ),
            WcStatus.SUCCESS);
        assertEquals(rkey, window.rkey(), "jroce's window rkey after BIND_MW");
        LOG.info("jroce's type 2 window: rkey {} at {}", Integer.toHexString(rkey), Long.toHexString(wva));

        // rxe WRITEs through jroce's window
        int off = 0x7;
        fillPattern(j.target, 0, BUF, IN);
        String[] w = ch.wc("WRITEK " + Integer.toHexString(rkey) + " " + hex(wva + off) + " " + hex(LEN) + " " + hex(0x22) + " 0");
        assertEquals(List.of("0", Integer.toString(WcOpcode.RDMA_WRITE.code())), List.of(w).subList(1, 3), "rxe's WRITE through jroce's window");
        assertArrayEquals(pattern(0x22, 0, LEN), bytes(j.target, WOFF + off, LEN), "written through jroce's window");
        assertArrayEquals(pattern(IN, WOFF, off), bytes(j.target, WOFF, off), "bytes before the write");
        assertArrayEquals(pattern(IN, WOFF + off + LEN, 64), bytes(j.target, WOFF + off + LEN, 64), "bytes after the write");

        // rxe READs through jroce's window, up to its last byte
        long from = wva + WLEN - LEN;
        j.target.buffer().put(WOFF + WLEN - LEN, pattern(0x32, 0, LEN));
        w = ch.wc("READK " + Integer.toHexString(rkey) + " " + hex(from) + " " + hex(LEN) + " " + hex(0x32) + " 0");
        assertEquals(List.of("0", Integer.toString(WcOpcode.RDMA_READ.code()), Integer.toString(LEN), "-",
            crcHex(pattern(0x32, 0, LEN)), "match"), List.of(w).subList(1, 7), "rxe's READ through jroce's window");

        // rxe's SEND_WITH_INV invalidates jroce's window
        fillPattern(j.local, 0, 200, -1);
        j.qp.postRecv(new ReceiveWorkRequest().wrId(77).sgList(ScatterGatherEntry.of(j.local, 0, 136)));
        w = ch.wc("SENDINV 88 " + hex(0x42) + " " + Integer.toHexString(rkey));
        assertEquals(List.of("0", Integer.toString(WcOpcode.SEND.code())), List.of(w).subList(1, 3), "rxe's SEND_WITH_INV");
        WorkCompletion rwc = j.recv();
        assertEquals(77, rwc.wrId(), rwc.toString());
        assertEquals(WcOpcode.RECV, rwc.opcode(), rwc.toString());
        assertEquals(0x88, rwc.byteLen(), rwc.toString());
        assertTrue(rwc.withInv(), "withInv on jroce's receive completion: " + rwc);
        assertFalse(rwc.withImm(), rwc.toString());
        assertEquals(rkey, rwc.invalidatedRkey(), "invalidatedRkey: " + rwc);
        assertArrayEquals(pattern(0x42, 0, 0x88), bytes(j.local, 0, 0x88), "SEND_WITH_INV's data");
        assertArrayEquals(pattern(-1, 0x88, 64), bytes(j.local, 0x88, 64), "bytes after the received data");

        // rxe's WRITE through the invalidated rkey fails; jroce's memory stays as it was
        fillPattern(j.target, 0, BUF, 0x55);
        w = ch.wc("WRITEK " + Integer.toHexString(rkey) + " " + hex(wva) + " 40 " + hex(0x23) + " " + hex(WcStatus.REM_ACCESS_ERR.code()));
        assertEquals(Integer.toString(WcStatus.REM_ACCESS_ERR.code()), w[1], "rxe's WRITE through jroce's invalidated window: "
            + String.join(" ", w));
        assertArrayEquals(pattern(0x55, WOFF, 64), bytes(j.target, WOFF, 64), "jroce's window memory after the refused WRITE");
    }
}
