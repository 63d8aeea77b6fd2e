package io.jroce.tests.verbs;

import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AccessViolationException;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidKeyException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;

import static io.jroce.tests.support.Completions.assertNone;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What ibv_post_send, ibv_post_recv and ibv_reg_mr refuse, and with which exception. Each test has
 * a fresh RC connection in RTS; a refused post must leave no work behind (no completion, QP still
 * in RTS).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerbsValidationTest {
    private static final int MR_LEN = 64 * 1024;
    private static final int MAX_SGE = 4;

    private RcPair pair;
    private MemoryRegion mrA;
    private MemoryRegion mrB;
    private RcConnection conn;

    @BeforeAll
    void open() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_4096);
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        mrA = pair.a().allocateMemory(MR_LEN, access);
        mrB = pair.b().allocateMemory(MR_LEN, access);
    }

    @AfterAll
    void close() {
        if (pair != null) {
            pair.close();
        }
    }

    @BeforeEach
    void connect() {
        RcConnection.Options o = new RcConnection.Options().queueDepth(8, 8);
        o.maxSge = MAX_SGE;
        // An RNR NAK asks for a 1.28 ms pause: the queue-full test leaves a SEND retrying forever.
        o.minRnrTimer = 14;
        conn = pair.connect(o);
    }

    @AfterEach
    void disconnect() {
        if (conn != null) {
            pair.disconnect(conn);
        }
    }

    /** After a refused post: still RTS and nothing completed. */
    private void assertNothingHappened() {
        assertEquals(QpState.RTS, conn.qpA.state(), "a refused post leaves the QP in RTS");
        assertNone(conn.sendCqA, "A's send CQ after a refused post");
        assertNone(conn.recvCqA, "A's recv CQ after a refused post");
    }

    private static SendWorkRequest send(ScatterGatherEntry... sges) {
        return new SendWorkRequest().wrId(7).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).sgList(sges);
    }

    private static ReceiveWorkRequest recv(ScatterGatherEntry... sges) {
        return new ReceiveWorkRequest().wrId(8).sgList(sges);
    }

    /** An lkey that no MR of device A has: A's own MRs are mrA and nothing else. */
    private int unknownKey() {
        int k = mrA.lkey() ^ 0x5a5a5a00;
        assertNotEquals(mrA.lkey(), k);
        assertNotEquals(mrA.rkey(), k);
        return k;
    }

    @Test
    void sendWithUnknownLkeyIsRefused() {
        ScatterGatherEntry sge = new ScatterGatherEntry(mrA.address(), 16, unknownKey());
        assertThrows(InvalidKeyException.class, () -> conn.qpA.postSend(send(sge)));
        assertNothingHappened();
    }

    @Test
    void recvWithUnknownLkeyIsRefused() {
        ScatterGatherEntry sge = new ScatterGatherEntry(mrA.address(), 16, unknownKey());
        assertThrows(InvalidKeyException.class, () -> conn.qpA.postRecv(recv(sge)));
        assertNothingHappened();
    }

    @Test
    void lkeyOfADeregisteredRegionIsRefused() {
        MemoryRegion gone = pair.a().pd().allocateMemory(4096, AccessFlags.LOCAL_WRITE);
        ScatterGatherEntry sge = ScatterGatherEntry.of(gone, 0, 16);
        gone.close();
        assertThrows(InvalidKeyException.class, () -> conn.qpA.postSend(send(sge)), "keys stop working at dereg");
        assertThrows(InvalidKeyException.class, () -> conn.qpA.postRecv(recv(sge)), "keys stop working at dereg");
        assertNothingHappened();
    }

    @Test
    void lkeyOfAnotherProtectionDomainIsRefused() {
        ProtectionDomain other = pair.a().device().allocPd();
        try {
            MemoryRegion foreign = other.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
            try {
                ScatterGatherEntry sge = ScatterGatherEntry.of(foreign, 0, 16);
                assertThrows(InvalidKeyException.class, () -> conn.qpA.postSend(send(sge)), "MR of another PD");
                assertThrows(InvalidKeyException.class, () -> conn.qpA.postRecv(recv(sge)), "MR of another PD");
                assertNothingHappened();
            } finally {
                foreign.close();
            }
        } finally {
            other.close();
        }
    }

    @Test
    void sgeRunningPastTheEndOfItsRegionIsRefused() {
        ScatterGatherEntry sge = new ScatterGatherEntry(mrA.address() + MR_LEN - 8, 16, mrA.lkey());
        assertThrows(AccessViolationException.class, () -> conn.qpA.postSend(send(sge)), "send SGE past the end");
        assertThrows(AccessViolationException.class, () -> conn.qpA.postRecv(recv(sge)), "recv SGE past the end");
        SendWorkRequest write = new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .sgList(sge).remoteAddress(mrB.address()).rkey(mrB.rkey());
        assertThrows(AccessViolationException.class, () -> conn.qpA.postSend(write), "write SGE past the end");
        assertNothingHappened();
    }

    @Test
    void sgeStartingBeforeItsRegionIsRefused() {
        ScatterGatherEntry sge = new ScatterGatherEntry(mrA.address() - 1, 4, mrA.lkey());
        assertThrows(AccessViolationException.class, () -> conn.qpA.postSend(send(sge)), "send SGE before the start");
        assertThrows(AccessViolationException.class, () -> conn.qpA.postRecv(recv(sge)), "recv SGE before the start");
        assertNothingHappened();
    }

    @Test
    void readIntoARegionWithoutLocalWriteIsRefused() {
        MemoryRegion readOnly = pair.a().pd().allocateMemory(4096, AccessFlags.REMOTE_READ);
        try {
            SendWorkRequest read = new SendWorkRequest().wrId(10).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(readOnly, 0, 64)).remoteAddress(mrB.address()).rkey(mrB.rkey());
            assertThrows(AccessViolationException.class, () -> conn.qpA.postSend(read),
                "an RDMA READ writes its local SGE: the MR needs LOCAL_WRITE");
            assertNothingHappened();
        } finally {
            readOnly.close();
        }
    }

    @Test
    void tooManySgesAreRefused() {
        ScatterGatherEntry[] sges = new ScatterGatherEntry[MAX_SGE + 1];
        for (int i = 0; i < sges.length; i++) {
            sges[i] = ScatterGatherEntry.of(mrA, 64L * i, 16);
        }
        assertThrows(InvalidAttributeException.class, () -> conn.qpA.postSend(send(sges)), "max_send_sge is " + MAX_SGE);
        assertThrows(InvalidAttributeException.class, () -> conn.qpA.postRecv(recv(sges)), "max_recv_sge is " + MAX_SGE);
        assertNothingHappened();
    }

    @Test
    void atomicWithALocalBufferOtherThanEightBytesIsRefused() {
        SendWorkRequest faa = new SendWorkRequest().wrId(11).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
            .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(mrA, 0, 4))
            .remoteAddress(mrB.address()).rkey(mrB.rkey()).compareAdd(1);
        assertThrows(InvalidAttributeException.class, () -> conn.qpA.postSend(faa), "atomics move 8 bytes");
        assertNothingHappened();
    }

    @Test
    void sendQueueFullIsRefused() {
        // B posts no receive and retries RNR NAKs forever (rnr_retry 7): the first SEND never
        // completes, so every later one stays outstanding too, with no timing involved.
        int depth = conn.options().maxSendWr;
        for (int i = 0; i < depth; i++) {
            final int n = i;
            assertDoesNotThrow(() -> conn.qpA.postSend(send(ScatterGatherEntry.of(mrA, 0, 8)).wrId(n)),
                "post " + (n + 1) + " of max_send_wr " + depth);
        }
        assertThrows(QueueFullException.class, () -> conn.qpA.postSend(send(ScatterGatherEntry.of(mrA, 0, 8))),
            "post " + (depth + 1) + " with max_send_wr " + depth + " outstanding");
        assertNone(conn.sendCqA, "A's send CQ while B has no receive posted");
    }

    @Test
    void receiveQueueFullIsRefused() {
        int depth = conn.options().maxRecvWr;
        for (int i = 0; i < depth; i++) {
            final int n = i;
            assertDoesNotThrow(() -> conn.qpB.postRecv(recv(ScatterGatherEntry.of(mrB, 64L * n, 64)).wrId(n)),
                "post_recv " + (n + 1) + " of max_recv_wr " + depth);
        }
        assertThrows(QueueFullException.class, () -> conn.qpB.postRecv(recv(ScatterGatherEntry.of(mrB, 0, 64))),
            "post_recv " + (depth + 1) + " with max_recv_wr " + depth + " outstanding");
    }

    @Test
    void heapBufferCannotBeRegistered() {
        assertThrows(InvalidAttributeException.class,
            () -> pair.a().pd().registerMemory(ByteBuffer.allocate(4096), AccessFlags.LOCAL_WRITE));
    }

    @Test
    void remoteWriteOrAtomicWithoutLocalWriteIsRefused() {
        ProtectionDomain pd = pair.a().pd();
        ByteBuffer direct = ByteBuffer.allocateDirect(4096);
        assertThrows(InvalidAttributeException.class, () -> pd.registerMemory(direct, AccessFlags.REMOTE_WRITE));
        assertThrows(InvalidAttributeException.class, () -> pd.registerMemory(direct, AccessFlags.REMOTE_ATOMIC));
        assertThrows(InvalidAttributeException.class,
            () -> pd.registerMemory(direct, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ));
        assertThrows(InvalidAttributeException.class, () -> pd.allocateMemory(4096, AccessFlags.REMOTE_WRITE));
        assertThrows(InvalidAttributeException.class, () -> pd.allocateMemory(4096, AccessFlags.REMOTE_ATOMIC));
    }

    @Test
    void unknownAccessBitsAreRefused() {
        int unknown = Integer.lowestOneBit(~AccessFlags.ALL);
        ProtectionDomain pd = pair.a().pd();
        assertThrows(InvalidAttributeException.class,
            () -> pd.registerMemory(ByteBuffer.allocateDirect(4096), AccessFlags.LOCAL_WRITE | unknown));
        assertThrows(InvalidAttributeException.class, () -> pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE | unknown));
    }

    @Test
    void validRegistrationsAreAccepted() {
        ProtectionDomain pd = pair.a().pd();
        ByteBuffer direct = ByteBuffer.allocateDirect(8192);
        direct.position(100).limit(4196);
        MemoryRegion mr = pd.registerMemory(direct, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        try {
            assertEquals(4096, mr.length(), "registers position..limit");
            assertEquals(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, mr.access());
            assertEquals(pd, mr.protectionDomain());
            mr.buffer().put(0, (byte) 0x5a);
            assertEquals((byte) 0x5a, direct.get(100), "buffer() shares the registered memory");
        } finally {
            mr.close();
        }
        MemoryRegion readOnly = pd.allocateMemory(4096, AccessFlags.REMOTE_READ);
        try {
            assertEquals(4096, readOnly.length());
            assertEquals(0, readOnly.address() % 4096, "allocateMemory is page-aligned");
            assertEquals(0, readOnly.buffer().get(17), "allocateMemory is zeroed");
        } finally {
            readOnly.close();
        }
    }
}
