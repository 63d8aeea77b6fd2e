package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static io.jroce.tests.interop.RcOpsPeerChannel.crcHex;
import static io.jroce.tests.interop.RcOpsPeerChannel.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.jroce.testsupport.Patterns.bytes;
import static io.jroce.testsupport.Patterns.constant;
import static io.jroce.testsupport.Patterns.fillPattern;
import static io.jroce.testsupport.Patterns.pattern;

/**
 * Every RC operation between jroce on this host and real rxe in a guest, both ways, with the data
 * checked on both sides: jroce drives SEND, SEND with immediate, RDMA WRITE, RDMA WRITE with
 * immediate, RDMA READ, FETCH_AND_ADD and CMP_AND_SWP at {@code rc_ops_peer}
 * ({@code tests/src/test/c/rc_ops_peer.c}, which reports what its buffer and its receive
 * queue saw), then {@code rc_ops_peer} drives the same operations at jroce (and checks what READs
 * and atomics returned). Sizes 0, 1, path MTU + 1 and 64 KiB. One guest boot per test (the TCP
 * command channel of rc_ops_peer lets one guest do both directions).
 *
 * <p>While the test runs, tshark captures the guest's tap ({@code /tmp/rc-ops-<name>.pcap});
 * afterwards every packet must dissect as RoCEv2 with nothing malformed and verify its ICRC
 * ({@link RoceCapture}).
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class RcOpsRxeTest {
    private static final Logger LOG = LoggerFactory.getLogger(RcOpsRxeTest.class);
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(5);
    private static final int BUF = 128 * 1024;
    /** An unaligned remote offset for WRITE and READ; atomics use 8-byte aligned ones. */
    private static final int ROFF = 3;
    /** rc_ops_peer's TCP port on the host (each test has a network, so a host address, of its own). */
    private static final int PORT = 18516;

    @Test
    void everyRcOperationBothWaysOverIpv4() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            run(network, network.hostIpv4(), 1, Mtu.MTU_1024, "ipv4");
        }
    }

    @Test
    void everyRcOperationBothWaysOverIpv6WithPathMtu4096() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().ipv6().mtu(9000).create()) {
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            run(network, host6, 2, Mtu.MTU_4096, "ipv6");
        }
    }

    private void run(RxeNetwork network, String host, int peerGidIndex, Mtu mtu, String name) throws Exception {
        int mtuBytes = mtu.bytes();
        List<Integer> sizes = List.of(0, 1, mtuBytes + 1, 65536);
        Path pcap = Path.of("/tmp/rc-ops-" + name + ".pcap");
        RoceCapture capture = null; // on the guest's tap0, where GSO datagrams are cut into packets
        boolean passed = false;
        // rxe's counters after the run (retries, duplicates, errors) go to the log; the status is rc_ops_peer's.
        String command = "rc_ops_peer -g " + peerGidIndex + " -m " + mtuBytes + " -s " + BUF + " -p " + PORT + " " + host
            + "; s=$?; rdma statistic show link rxe0/1; exit $s";
        // The guest first: until a port is up on a fresh bridge, the host's IPv6 address stays tentative.
        try (RxePeer peer = RxePeer.builder().name("rxe-ops-" + name).network(network).command(command)
                     .program(RcOpsPeerChannel.SOURCE).start();
             ServerSocket listener = RcOpsPeerChannel.listen(host, PORT)) {
            capture = RoceCapture.onGuestTap(peer, pcap, BOOT);
            listener.setSoTimeout((int) BOOT.toMillis());
            try (RdmaDevice dev = SoftRnic.builder().name("jroce-ops-" + name).address(host).udpPort(4791)
                     .activeMtu(mtu).open();
                 ProtectionDomain pd = dev.allocPd();
                 RcOpsJroceSide j = new RcOpsJroceSide(dev, pd, BUF,
                     AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);
                 RcOpsPeerChannel ch = RcOpsPeerChannel.accept(listener, peer, RUN)) {
                j.connect(ch, dev.gids().get(0), QpConnector.rc().pathMtu(mtu));
                long t0 = System.nanoTime();
                for (int size : sizes) {
                    jroceDrives(j, ch, size);
                }
                jroceDrivesAtomics(j, ch);
                long t1 = System.nanoTime();
                for (int size : sizes) {
                    rxeDrives(j, ch, size);
                }
                rxeDrivesAtomics(j, ch);
                long t2 = System.nanoTime();
                assertEquals("BYE 0", ch.call("QUIT"), peer.consoleLines().toString());
                GuestResult r = peer.awaitExit(RUN);
                assertEquals(0, r.exitStatus(), r.console());
                LOG.info("{}: jroce drove every operation in {} ms, rxe in {} ms", name,
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
                LOG.info("{}: jroce's counters: {}", name, dev.counters());
                passed = true;
            }
        } finally {
            if (capture != null) {
                capture.stop();
            }
            if (!passed) {
                LOG.error("{}: the capture of the failed run is {}", name, pcap);
            }
        }
        capture.check(); // after the test passed: every packet dissects as RoCEv2, every ICRC verifies
    }

    // --- jroce drives, rc_ops_peer is the passive side -----------------------------------------

    private static void jroceDrives(RcOpsJroceSide j, RcOpsPeerChannel ch, int size) throws Exception {
        String what = " (jroce drives, " + size + " bytes)";
        // SEND and SEND with immediate: the peer's receive completion and the data's CRC
        for (boolean imm : new boolean[] {false, true}) {
            int seed = imm ? 0x31 : 0x30;
            int immData = 0xC0DE0000 | size;
            ch.expect("RECV " + hex(size), "OK");
            fillPattern(j.local, 0, size, seed);
            WorkCompletion wc = j.post(new SendWorkRequest().opcode(imm ? WrOpcode.SEND_WITH_IMM : WrOpcode.SEND)
                .immData(immData).sgList(j.localSge(0, size)));
            assertEquals(WcOpcode.SEND, wc.opcode(), "send completion" + what);
            String[] w = ch.wc("WAITRECV");
            assertEquals(List.of("0", Integer.toString(WcOpcode.RECV.code()), Integer.toString(size),
                imm ? Integer.toHexString(immData) : "-", crcHex(pattern(seed, 0, size))), List.of(w).subList(1, 6),
                "rxe's receive completion: status opcode byte_len imm crc32" + what);
        }
        // RDMA WRITE and WRITE with immediate at an unaligned offset: the region and its neighbours
        for (boolean imm : new boolean[] {false, true}) {
            int seed = imm ? 0x41 : 0x40;
            int background = 0x11;
            int immData = 0x57000000 | size;
            ch.expect("FILL " + hex(background), "OK");
            if (imm) {
                ch.expect("RECV 0", "OK");
            }
            fillPattern(j.local, 0, size, seed);
            WorkCompletion wc = j.post(new SendWorkRequest()
                .opcode(imm ? WrOpcode.RDMA_WRITE_WITH_IMM : WrOpcode.RDMA_WRITE).immData(immData)
                .remoteAddress(j.peerAddr + ROFF).rkey(j.peerRkey).sgList(j.localSge(0, size)));
            assertEquals(WcOpcode.RDMA_WRITE, wc.opcode(), "write completion" + what);
            if (imm) {
                String[] w = ch.wc("WAITRECV");
                assertEquals(List.of("0", Integer.toString(WcOpcode.RECV_RDMA_WITH_IMM.code()), Integer.toString(size),
                    Integer.toHexString(immData)), List.of(w).subList(1, 5),
                    "rxe's completion of WRITE with immediate: status opcode byte_len imm" + what);
            }
            ch.assertMem(ROFF, pattern(seed, 0, size), "written region" + what);
            ch.assertMem(0, pattern(background, 0, ROFF), "bytes before the written region" + what);
            ch.assertMem(ROFF + size, pattern(background, ROFF + size, 64), "bytes after the written region" + what);
        }
        // RDMA READ from an unaligned offset into a buffer filled with 0xEE
        int seed = 0x50;
        ch.expect("FILL " + hex(seed), "OK");
        fillPattern(j.local, 0, size + 64, -1);
        j.post(new SendWorkRequest().opcode(WrOpcode.RDMA_READ).remoteAddress(j.peerAddr + ROFF).rkey(j.peerRkey)
            .sgList(j.localSge(0, size)));
        assertArrayEquals(pattern(seed, ROFF, size), bytes(j.local, 0, size), "data read" + what);
        assertArrayEquals(constant(0xEE, 64), bytes(j.local, size, 64), "bytes after the read data" + what);
        ch.assertMem(0, pattern(seed, 0, size + 2 * ROFF), "the peer's buffer after the read" + what);
    }

    private static void jroceDrivesAtomics(RcOpsJroceSide j, RcOpsPeerChannel ch) throws Exception {
        long v = 0x0102030405060708L;
        long add = 0x1111_0000_0000_00FFL;
        ch.expect("SET64 40 " + Long.toHexString(v), "OK");
        j.post(new SendWorkRequest().opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(add)
            .remoteAddress(j.peerAddr + 0x40).rkey(j.peerRkey).sgList(j.localSge(0, 8)));
        assertEquals(v, j.local.buffer().order(ByteOrder.nativeOrder()).getLong(0), "FETCH_AND_ADD's original (jroce drives)");
        ch.assertMem(0x40, nativeBytes(v + add), "the peer's u64 after FETCH_AND_ADD (native order)");

        long old = 0xFEDC_BA98_7654_3210L;
        long swap = 0x0A0B_0C0D_0E0F_1011L;
        ch.expect("SET64 48 " + Long.toHexString(old), "OK");
        j.post(new SendWorkRequest().opcode(WrOpcode.ATOMIC_CMP_AND_SWP).compareAdd(old).swap(swap)
            .remoteAddress(j.peerAddr + 0x48).rkey(j.peerRkey).sgList(j.localSge(8, 8)));
        assertEquals(old, j.local.buffer().order(ByteOrder.nativeOrder()).getLong(8), "CMP_AND_SWP's original (equal)");
        ch.assertMem(0x48, nativeBytes(swap), "the peer's u64 after a matching CMP_AND_SWP");
        j.post(new SendWorkRequest().opcode(WrOpcode.ATOMIC_CMP_AND_SWP).compareAdd(old).swap(42)
            .remoteAddress(j.peerAddr + 0x48).rkey(j.peerRkey).sgList(j.localSge(16, 8)));
        assertEquals(swap, j.local.buffer().order(ByteOrder.nativeOrder()).getLong(16), "CMP_AND_SWP's original (not equal)");
        ch.assertMem(0x48, nativeBytes(swap), "the peer's u64 after a CMP_AND_SWP that did not match");
    }

    // --- rc_ops_peer drives, jroce is the passive side -----------------------------------------

    private static void rxeDrives(RcOpsJroceSide j, RcOpsPeerChannel ch, int size) throws Exception {
        String what = " (rxe drives, " + size + " bytes)";
        for (boolean imm : new boolean[] {false, true}) {
            int seed = imm ? 0x61 : 0x60;
            int immData = 0xABC00000 | size;
            fillPattern(j.local, 0, size + 64, -1);
            j.qp.postRecv(new ReceiveWorkRequest().wrId(size).sgList(j.localSge(0, size)));
            String[] w = ch.wc("SEND " + hex(size) + " " + hex(seed) + (imm ? " " + Integer.toHexString(immData) : ""));
            assertEquals(List.of("0", Integer.toString(WcOpcode.SEND.code())), List.of(w).subList(1, 3), "rxe's send completion" + what);
            WorkCompletion wc = j.recv();
            assertEquals(WcOpcode.RECV, wc.opcode(), "jroce's receive completion" + what);
            assertEquals(size, wc.byteLen(), "byte_len" + what);
            assertEquals(imm, wc.withImm(), "with immediate" + what);
            if (imm) {
                assertEquals(immData, wc.immData(), "immediate data" + what);
            }
            assertArrayEquals(pattern(seed, 0, size), bytes(j.local, 0, size), "received data" + what);
            assertArrayEquals(constant(0xEE, 64), bytes(j.local, size, 64), "bytes after the received data" + what);
        }
        for (boolean imm : new boolean[] {false, true}) {
            int seed = imm ? 0x71 : 0x70;
            int background = 0x22;
            int immData = 0x0DD00000 | size;
            fillPattern(j.target, 0, BUF, background);
            if (imm) {
                j.qp.postRecv(new ReceiveWorkRequest().wrId(1000 + size)); // no SGE: WRITE with immediate only
            }
            String[] w = ch.wc("WRITE " + hex(ROFF) + " " + hex(size) + " " + hex(seed)
                + (imm ? " " + Integer.toHexString(immData) : ""));
            assertEquals(List.of("0", Integer.toString(WcOpcode.RDMA_WRITE.code())), List.of(w).subList(1, 3), "rxe's write completion" + what);
            if (imm) {
                WorkCompletion wc = j.recv();
                assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, wc.opcode(), "jroce's completion of WRITE with immediate" + what);
                assertTrue(wc.withImm(), "with immediate" + what);
                assertEquals(immData, wc.immData(), "immediate data" + what);
                assertEquals(size, wc.byteLen(), "byte_len of WRITE with immediate (rxe reports the write's length)" + what);
            }
            assertArrayEquals(pattern(seed, 0, size), bytes(j.target, ROFF, size), "written region" + what);
            assertArrayEquals(pattern(background, 0, ROFF), bytes(j.target, 0, ROFF), "bytes before" + what);
            assertArrayEquals(pattern(background, ROFF + size, 64), bytes(j.target, ROFF + size, 64), "bytes after" + what);
        }
        int seed = 0x80;
        fillPattern(j.target, 0, BUF, seed);
        String[] w = ch.wc("READ " + hex(ROFF) + " " + hex(size) + " " + hex(seed));
        assertEquals(List.of("0", Integer.toString(WcOpcode.RDMA_READ.code()), Integer.toString(size),
            "-", crcHex(pattern(seed, ROFF, size)), "match"), List.of(w).subList(1, 7), "rxe's READ" + what);
        assertArrayEquals(pattern(seed, 0, size + 2 * ROFF), bytes(j.target, 0, size + 2 * ROFF), "jroce's buffer after the read" + what);
    }

    private static void rxeDrivesAtomics(RcOpsJroceSide j, RcOpsPeerChannel ch) throws Exception {
        ByteBuffer t = j.target.buffer().order(ByteOrder.nativeOrder());
        long v = 0x1122334455667788L;
        long add = 0x0000_0001_0000_0001L;
        t.putLong(0x40, v);
        String[] w = ch.wc("FADD 40 " + Long.toHexString(add) + " " + Long.toHexString(v));
        assertEquals(List.of("0", Integer.toString(WcOpcode.FETCH_ADD.code()), "8", "-", Long.toHexString(v), "match"),
            List.of(w).subList(1, 7), "rxe's FETCH_AND_ADD (status opcode byte_len - original)");
        assertEquals(v + add, t.getLong(0x40), "jroce's u64 after FETCH_AND_ADD (native order)");

        long old = 0x8877665544332211L;
        long swap = 0x0102030405060708L;
        t.putLong(0x48, old);
        w = ch.wc("CSWP 48 " + Long.toHexString(old) + " " + Long.toHexString(swap) + " " + Long.toHexString(old));
        assertEquals(List.of("0", Integer.toString(WcOpcode.COMP_SWAP.code()), "8", "-", Long.toHexString(old), "match"),
            List.of(w).subList(1, 7), "rxe's CMP_AND_SWP (equal)");
        assertEquals(swap, t.getLong(0x48), "jroce's u64 after a matching CMP_AND_SWP");
        w = ch.wc("CSWP 48 " + Long.toHexString(old) + " 2a " + Long.toHexString(swap));
        assertEquals(List.of("0", Integer.toString(WcOpcode.COMP_SWAP.code()), "8", "-", Long.toHexString(swap), "match"),
            List.of(w).subList(1, 7), "rxe's CMP_AND_SWP (not equal)");
        assertEquals(swap, t.getLong(0x48), "jroce's u64 after a CMP_AND_SWP that did not match");
    }

    // --- helpers --------------------------------------------------------------------------------

    private static byte[] nativeBytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, v).array();
    }
}
