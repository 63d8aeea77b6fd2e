package io.jroce.tests.rc;

import io.jroce.tests.support.Completions;
import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpState;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.jroce.testsupport.Patterns.bytes;
import static io.jroce.testsupport.Patterns.pattern;

/**
 * Memory windows over real UDP sockets (two devices on 127.0.0.1, path MTU 1024): type 1 windows
 * bound with {@code bindMemoryWindow}, type 2 windows bound with BIND_MW, remote WRITE and READ
 * through the window's rkey (byte-exact, neighbours untouched), access outside the window,
 * SEND_WITH_INV and LOCAL_INV. B owns the windows; A is the remote side using their rkeys. An
 * access error moves both QPs to ERR, so every test has a connection of its own.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MemoryWindowUdpTest {
    private static final int LEN = 64 * 1024;
    /** The window: [WOFF, WOFF + WLEN) of B's region. */
    private static final int WOFF = 8192;
    private static final int WLEN = 8192;
    /** Three packets at path MTU 1024. */
    private static final int MSG = 3000;
    private static final int BG = 0x5A;

    private RcPair pair;
    private RcConnection c;
    private MemoryRegion memA;
    private MemoryRegion memB;

    @BeforeEach
    void open() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_1024);
        memA = pair.a().allocateMemory(LEN, AccessFlags.LOCAL_WRITE);
        // no remote access of its own: only the windows give any
        memB = pair.b().allocateMemory(LEN, AccessFlags.LOCAL_WRITE | AccessFlags.MW_BIND);
        c = pair.connect(new RcConnection.Options());
        memB.buffer().put(0, pattern(BG, 0, LEN));
    }

    @AfterEach
    void close() {
        pair.close();
    }

    @Test
    void type1WindowCarriesWritesAndReadsAndRefusesAccessOutsideIt() {
        MemoryWindow w = pair.b().own(pair.b().pd().allocMemoryWindow(1));
        assertEquals(1, w.type());
        int rkey = c.qpB.bindMemoryWindow(w, memB, memB.address() + WOFF, WLEN,
            AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ, 10, true);
        WorkCompletion bind = await(c.sendCqB, "bind of the type 1 window");
        assertEquals(WcStatus.SUCCESS, bind.status(), bind.toString());
        assertEquals(WcOpcode.BIND_MW, bind.opcode(), bind.toString());
        assertNotEquals(memB.rkey(), rkey);
        assertEquals(rkey, w.rkey());

        writeAndReadThrough(rkey, "type 1");
        // one byte past the window's end: refused, nothing written
        accessFails(WrOpcode.RDMA_WRITE, memB.address() + WOFF + WLEN - 8, 9, rkey, "WRITE across the window's end");
    }

    @Test
    void type2WindowCarriesWritesAndReadsAndRefusesAccessOutsideIt() {
        MemoryWindow w = pair.b().own(pair.b().pd().allocMemoryWindow(2));
        assertEquals(2, w.type());
        int rkey = bindType2(w, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
        writeAndReadThrough(rkey, "type 2");
        // one byte before the window: refused
        accessFails(WrOpcode.RDMA_READ, memB.address() + WOFF - 1, 16, rkey, "READ starting before the window");
    }

    @Test
    void type2WindowWithoutRemoteWriteRefusesWrites() {
        MemoryWindow w = pair.b().own(pair.b().pd().allocMemoryWindow(2));
        int rkey = bindType2(w, AccessFlags.REMOTE_READ);
        read(memB.address() + WOFF, 100, rkey);
        assertArrayEquals(pattern(BG, WOFF, 100), bytes(memA, 0, 100), "read through a read-only window");
        accessFails(WrOpcode.RDMA_WRITE, memB.address() + WOFF, 100, rkey, "WRITE through a read-only window");
    }

    @Test
    void sendWithInvalidateInvalidatesAType2Window() {
        MemoryWindow w = pair.b().own(pair.b().pd().allocMemoryWindow(2));
        int rkey = bindType2(w, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
        writeAndReadThrough(rkey, "type 2 before SEND_WITH_INV");

        memB.buffer().put(40000, pattern(-1, 0, 200));
        c.qpB.postRecv(new ReceiveWorkRequest().wrId(55).sgList(ScatterGatherEntry.of(memB, 40000, 150)));
        memA.buffer().put(0, pattern(0x71, 0, MSG));
        c.qpA.postSend(new SendWorkRequest().wrId(56).opcode(WrOpcode.SEND_WITH_INV).invalidateRkey(rkey)
            .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(memA, 0, 150)));
        WorkCompletion s = await(c.sendCqA, "SEND_WITH_INV");
        assertEquals(WcStatus.SUCCESS, s.status(), s.toString());
        assertEquals(WcOpcode.SEND, s.opcode(), s.toString());
        WorkCompletion r = await(c.recvCqB, "receive of SEND_WITH_INV");
        assertEquals(WcStatus.SUCCESS, r.status(), r.toString());
        assertEquals(55, r.wrId());
        assertEquals(WcOpcode.RECV, r.opcode(), r.toString());
        assertEquals(150, r.byteLen(), r.toString());
        assertTrue(r.withInv(), "withInv: " + r);
        assertFalse(r.withImm(), r.toString());
        assertEquals(rkey, r.invalidatedRkey(), "invalidatedRkey: " + r);
        assertArrayEquals(pattern(0x71, 0, 150), bytes(memB, 40000, 150), "SEND_WITH_INV's data");
        assertArrayEquals(pattern(-1, 150, 50), bytes(memB, 40150, 50), "bytes after it");

        accessFails(WrOpcode.RDMA_WRITE, memB.address() + WOFF, 64, rkey, "WRITE through the invalidated window");
    }

    @Test
    void localInvalidateInvalidatesAType2WindowThatCanBeBoundAgain() {
        MemoryWindow w = pair.b().own(pair.b().pd().allocMemoryWindow(2));
        int rkey = bindType2(w, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
        writeAndReadThrough(rkey, "type 2 before LOCAL_INV");

        c.qpB.postSend(new SendWorkRequest().wrId(21).opcode(WrOpcode.LOCAL_INV).invalidateRkey(rkey)
            .sendFlags(SendFlags.SIGNALED));
        WorkCompletion inv = await(c.sendCqB, "LOCAL_INV");
        assertEquals(WcStatus.SUCCESS, inv.status(), inv.toString());
        assertEquals(WcOpcode.LOCAL_INV, inv.opcode(), inv.toString());

        // bound again with the next key: the new rkey works, the old one does not
        int rkey2 = bindType2(w, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
        assertNotEquals(rkey, rkey2);
        assertEquals(rkey & ~0xFF, rkey2 & ~0xFF, "only the key byte changes");
        writeAndReadThrough(rkey2, "type 2 bound again");
        accessFails(WrOpcode.RDMA_WRITE, memB.address() + WOFF, 64, rkey, "WRITE with the locally invalidated rkey");
    }

    // --- helpers --------------------------------------------------------------------------------

    private int bindType2(MemoryWindow w, int access) {
        int rkey = w.nextRkey();
        c.qpB.postSend(new SendWorkRequest().wrId(20).opcode(WrOpcode.BIND_MW).sendFlags(SendFlags.SIGNALED)
            .bindMw(w, rkey, memB, memB.address() + WOFF, WLEN, access));
        WorkCompletion wc = await(c.sendCqB, "BIND_MW");
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(WcOpcode.BIND_MW, wc.opcode(), wc.toString());
        assertEquals(rkey, w.rkey(), "the window's rkey after BIND_MW");
        return rkey;
    }

    /** A WRITEs MSG bytes at an unaligned offset inside the window, then READs the window's last MSG bytes. */
    private void writeAndReadThrough(int rkey, String what) {
        int off = 13;
        memB.buffer().put(0, pattern(BG, 0, LEN));
        memA.buffer().put(0, pattern(0x33, 0, MSG));
        c.qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(memB.address() + WOFF + off).rkey(rkey).sgList(ScatterGatherEntry.of(memA, 0, MSG)));
        WorkCompletion wc = await(c.sendCqA, "WRITE through the " + what + " window");
        assertEquals(WcStatus.SUCCESS, wc.status(), what + ": " + wc);
        assertArrayEquals(pattern(0x33, 0, MSG), bytes(memB, WOFF + off, MSG), what + ": written bytes");
        assertArrayEquals(pattern(BG, 0, WOFF + off), bytes(memB, 0, WOFF + off), what + ": bytes before");
        assertArrayEquals(pattern(BG, WOFF + off + MSG, LEN - WOFF - off - MSG),
            bytes(memB, WOFF + off + MSG, LEN - WOFF - off - MSG), what + ": bytes after");

        memB.buffer().put(WOFF + WLEN - MSG, pattern(0x44, 0, MSG));
        read(memB.address() + WOFF + WLEN - MSG, MSG, rkey);
        assertArrayEquals(pattern(0x44, 0, MSG), bytes(memA, 0, MSG), what + ": bytes read up to the window's end");
        assertArrayEquals(pattern(-1, MSG, 64), bytes(memA, MSG, 64), what + ": bytes after the read data");
    }

    private void read(long remote, int len, int rkey) {
        memA.buffer().put(0, pattern(-1, 0, len + 64));
        c.qpA.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(remote).rkey(rkey).sgList(ScatterGatherEntry.of(memA, 0, len)));
        WorkCompletion wc = await(c.sendCqA, "READ through a window");
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(WcOpcode.RDMA_READ, wc.opcode(), wc.toString());
    }

    /** The access completes with REM_ACCESS_ERR on A, B's memory is untouched, A's QP is in ERR. */
    private void accessFails(WrOpcode op, long remote, int len, int rkey, String what) {
        byte[] before = bytes(memB, 0, LEN);
        memA.buffer().put(0, pattern(0x66, 0, len));
        c.qpA.postSend(new SendWorkRequest().wrId(99).opcode(op).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(remote).rkey(rkey).sgList(ScatterGatherEntry.of(memA, 0, len)));
        WorkCompletion wc = await(c.sendCqA, what);
        assertEquals(99, wc.wrId(), wc.toString());
        assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), what + ": " + wc + "; " + c.diagnostics());
        assertArrayEquals(before, bytes(memB, 0, LEN), what + ": B's memory must not change");
        if (op == WrOpcode.RDMA_READ) {
            assertArrayEquals(pattern(0x66, 0, len), bytes(memA, 0, len), what + ": A's buffer must not change");
        }
        assertEquals(QpState.ERR, c.qpA.state(), what + ": the requester's QP");
    }

    private WorkCompletion await(CompletionQueue cq, String what) {
        return Completions.await(cq, what, c::diagnostics);
    }
}
