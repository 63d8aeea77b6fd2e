package io.jroce.tests.rc;

import io.jroce.tests.support.RcConnection;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Map;

import static io.jroce.tests.support.Completions.assertNone;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ATOMIC_FETCH_AND_ADD and ATOMIC_CMP_AND_SWP (IBTA Vol. 1 9.4.5): the 8-byte target is a native
 * integer of the responder (as on rxe), the original value lands in the requester's 8-byte buffer
 * as a native integer, the completion is SUCCESS with byte_len 8 whether or not the compare
 * matched, and the target holds the sum, the swap value, or its old value after a failed compare.
 */
class RcAtomicTest extends RcTestBase {
    static final long TARGET_OFF = 4096 + 64;
    static final long RESULT_OFF = 8192 + 8;
    static final long ORIGINAL = 0x0123456789abcdefL;
    static final long WR_ID = 0xa70;

    @Override
    int memoryLength() {
        return 4 * 4096;
    }

    private RcConnection conn() {
        return connection("atomic", new RcConnection.Options());
    }

    private static long nativeLong(MemoryRegion mr, long offset) {
        return mr.buffer().order(ByteOrder.nativeOrder()).getLong(Math.toIntExact(offset));
    }

    private static void putNativeLong(MemoryRegion mr, long offset, long v) {
        mr.buffer().order(ByteOrder.nativeOrder()).putLong(Math.toIntExact(offset), v);
    }

    /** Posts one atomic on A against B's target, waits and checks the completion; returns the fetched value. */
    private long atomic(RcConnection c, WrOpcode op, long compareAdd, long swap) {
        putNativeLong(memA, RESULT_OFF, 0x5a5a5a5a5a5a5a5aL);
        Map<String, Long> beforeB = pair.b().counters();
        Map<String, Long> beforeA = pair.a().counters();
        c.qpA.postSend(new SendWorkRequest().wrId(WR_ID).opcode(op).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(memA, RESULT_OFF, 8))
            .remoteAddress(memB.address() + TARGET_OFF).rkey(memB.rkey()).compareAdd(compareAdd).swap(swap));
        WorkCompletion wc = await(c.sendCqA, op.toString(), c);
        assertCompletion(wc, op.toString(), WR_ID, op == WrOpcode.ATOMIC_FETCH_AND_ADD ? WcOpcode.FETCH_ADD
            : WcOpcode.COMP_SWAP, 8, c.qpA.qpNum());
        assertNone(c.sendCqA, "A's send CQ after " + op);
        assertNone(c.recvCqB, "B's recv CQ after " + op);
        assertNone(c.sendCqB, "B's send CQ after " + op);
        assertTrue(delta(beforeB, pair.b(), "rcvd_pkts") >= 1, "responder received the atomic request; " + c.diagnostics());
        assertTrue(delta(beforeA, pair.a(), "rcvd_pkts") >= 1, "requester received the atomic ACK; " + c.diagnostics());
        assertNoMalformedPackets(beforeA, beforeB);
        return nativeLong(memA, RESULT_OFF);
    }

    @Test
    void fetchAndAdd() {
        RcConnection c = conn();
        putNativeLong(memB, TARGET_OFF, ORIGINAL);
        long fetched = atomic(c, WrOpcode.ATOMIC_FETCH_AND_ADD, 0x1111_0000_0001L, 0);
        assertEquals(ORIGINAL, fetched, "original value returned in the requester's native order");
        assertEquals(ORIGINAL + 0x1111_0000_0001L, nativeLong(memB, TARGET_OFF), "target incremented");
        passed();
    }

    @Test
    void fetchAndAddWrapsAround() {
        RcConnection c = conn();
        putNativeLong(memB, TARGET_OFF, -1L);
        assertEquals(-1L, atomic(c, WrOpcode.ATOMIC_FETCH_AND_ADD, 2, 0));
        assertEquals(1L, nativeLong(memB, TARGET_OFF), "2^64 - 1 + 2 wraps to 1");
        passed();
    }

    @Test
    void fetchAndAddInSequenceReturnsEachIntermediateValue() {
        RcConnection c = conn();
        putNativeLong(memB, TARGET_OFF, 1000);
        for (int i = 0; i < 10; i++) {
            assertEquals(1000 + 7L * i, atomic(c, WrOpcode.ATOMIC_FETCH_AND_ADD, 7, 0), "fetch " + i);
        }
        assertEquals(1070L, nativeLong(memB, TARGET_OFF));
        passed();
    }

    @Test
    void compareAndSwapThatMatches() {
        RcConnection c = conn();
        putNativeLong(memB, TARGET_OFF, ORIGINAL);
        long swap = 0xfedcba9876543210L;
        assertEquals(ORIGINAL, atomic(c, WrOpcode.ATOMIC_CMP_AND_SWP, ORIGINAL, swap), "original value returned");
        assertEquals(swap, nativeLong(memB, TARGET_OFF), "target swapped");
        passed();
    }

    @Test
    void compareAndSwapThatFails() {
        RcConnection c = conn();
        putNativeLong(memB, TARGET_OFF, ORIGINAL);
        assertEquals(ORIGINAL, atomic(c, WrOpcode.ATOMIC_CMP_AND_SWP, ORIGINAL ^ 1, 0x42), "original value returned");
        assertEquals(ORIGINAL, nativeLong(memB, TARGET_OFF), "a failed compare leaves the target alone");
        passed();
    }

    @Test
    void atomicLeavesTheNeighbouringBytesAlone() {
        RcConnection c = conn();
        putNativeLong(memB, TARGET_OFF - 8, 0x1111111111111111L);
        putNativeLong(memB, TARGET_OFF, 5);
        putNativeLong(memB, TARGET_OFF + 8, 0x2222222222222222L);
        putNativeLong(memA, RESULT_OFF - 8, 0x3333333333333333L);
        putNativeLong(memA, RESULT_OFF + 8, 0x4444444444444444L);
        assertEquals(5L, atomic(c, WrOpcode.ATOMIC_FETCH_AND_ADD, 1, 0));
        assertEquals(6L, nativeLong(memB, TARGET_OFF));
        assertEquals(0x1111111111111111L, nativeLong(memB, TARGET_OFF - 8));
        assertEquals(0x2222222222222222L, nativeLong(memB, TARGET_OFF + 8));
        assertEquals(0x3333333333333333L, nativeLong(memA, RESULT_OFF - 8));
        assertEquals(0x4444444444444444L, nativeLong(memA, RESULT_OFF + 8));
        passed();
    }
}
