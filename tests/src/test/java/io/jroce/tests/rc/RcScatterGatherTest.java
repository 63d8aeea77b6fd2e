package io.jroce.tests.rc;

import io.jroce.testsupport.Patterns;
import io.jroce.tests.support.RcConnection;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static io.jroce.tests.support.Completions.assertNone;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scatter/gather lists (IBTA Vol. 1 10.7.1.2): a send gathers its SGEs in list order into one
 * message, a receive scatters the message over its SGEs in list order, filling each before the
 * next; RDMA WRITE gathers and RDMA READ scatters likewise. SGEs come from two regions on each side
 * so that the lkey of every entry matters. Path MTU 1024, so entries straddle packet boundaries.
 */
class RcScatterGatherTest extends RcTestBase {
    static final int LEN = 64 * 1024;
    private MemoryRegion memA2;
    private MemoryRegion memB2;

    @Override
    int memoryLength() {
        return LEN;
    }

    @BeforeAll
    void secondRegions() {
        memA2 = pair.a().allocateMemory(LEN, ALL_ACCESS);
        memB2 = pair.b().allocateMemory(LEN, ALL_ACCESS);
    }

    private RcConnection conn() {
        return connection("sg", new RcConnection.Options().pathMtu(Mtu.MTU_1024));
    }

    /** Fills each SGE with seeded data and returns the message they gather, in list order. */
    private static byte[] fillGather(long seed, MemoryRegion[] mrs, ScatterGatherEntry[] sges) {
        ByteArrayOutputStream msg = new ByteArrayOutputStream();
        for (int i = 0; i < sges.length; i++) {
            long off = sges[i].address() - mrs[i].address();
            msg.writeBytes(Patterns.fill(mrs[i], off, sges[i].length(), seed + i));
        }
        return msg.toByteArray();
    }

    /** Checks that {@code msg} was scattered over {@code sges} in order and nothing else was written. */
    private static void assertScattered(byte[] msg, MemoryRegion[] mrs, ScatterGatherEntry[] sges, byte[][] before,
                                        String what) {
        int pos = 0;
        for (int i = 0; i < sges.length; i++) {
            long off = sges[i].address() - mrs[i].address();
            int n = Math.min(sges[i].length(), msg.length - pos);
            Patterns.assertRegion(mrs[i], off, msg, pos, n, what + ": SGE " + i + " holds bytes " + pos + ".." + (pos + n));
            Patterns.assertRegion(mrs[i], off + n, before[i], n, sges[i].length() - n,
                what + ": SGE " + i + " past the message is untouched");
            pos += n;
        }
        assertEquals(msg.length, pos, what + ": the SGEs hold the whole message");
    }

    private static byte[][] fillScatter(long seed, MemoryRegion[] mrs, ScatterGatherEntry[] sges) {
        byte[][] before = new byte[sges.length][];
        for (int i = 0; i < sges.length; i++) {
            before[i] = Patterns.fill(mrs[i], sges[i].address() - mrs[i].address(), sges[i].length(), ~(seed + i));
        }
        return before;
    }

    @Test
    void sendGathersThreeEntriesIntoAReceiveOfFour() {
        RcConnection c = conn();
        MemoryRegion[] gatherMrs = {memA, memA2, memA};
        ScatterGatherEntry[] gather = {ScatterGatherEntry.of(memA, 100, 100), ScatterGatherEntry.of(memA2, 5, 3000),
            ScatterGatherEntry.of(memA, 9000, 1500)};
        MemoryRegion[] scatterMrs = {memB, memB2, memB, memB2};
        ScatterGatherEntry[] scatter = {ScatterGatherEntry.of(memB, 50, 1000), ScatterGatherEntry.of(memB2, 3, 1),
            ScatterGatherEntry.of(memB, 20000, 2048), ScatterGatherEntry.of(memB2, 7000, 4096)};
        byte[] msg = fillGather(1, gatherMrs, gather);
        byte[][] before = fillScatter(2, scatterMrs, scatter);
        c.qpB.postRecv(new ReceiveWorkRequest().wrId(21).sgList(scatter));
        c.qpA.postSend(new SendWorkRequest().wrId(20).opcode(WrOpcode.SEND_WITH_IMM).immData(0x01020304)
            .sendFlags(SendFlags.SIGNALED).sgList(gather));
        assertCompletion(await(c.sendCqA, "send", c), "send", 20, WcOpcode.SEND, msg.length, c.qpA.qpNum());
        WorkCompletion r = await(c.recvCqB, "recv", c);
        assertCompletion(r, "recv", 21, WcOpcode.RECV, msg.length, c.qpB.qpNum());
        assertEquals(true, r.withImm(), "withImm: " + r);
        assertEquals(0x01020304, r.immData(), "imm: " + r);
        assertScattered(msg, scatterMrs, scatter, before, "send 3 SGEs -> recv 4 SGEs");
        assertNone(c.sendCqA, "A's send CQ");
        assertNone(c.recvCqB, "B's recv CQ");
        passed();
    }

    @Test
    void zeroLengthEntriesInTheListsAreSkipped() {
        RcConnection c = conn();
        MemoryRegion[] gatherMrs = {memA, memA2, memA};
        ScatterGatherEntry[] gather = {ScatterGatherEntry.of(memA, 300, 1200), ScatterGatherEntry.of(memA2, 0, 0),
            ScatterGatherEntry.of(memA, 4000, 900)};
        MemoryRegion[] scatterMrs = {memB, memB2, memB};
        ScatterGatherEntry[] scatter = {ScatterGatherEntry.of(memB, 64, 1000), ScatterGatherEntry.of(memB2, 64, 0),
            ScatterGatherEntry.of(memB, 30000, 4000)};
        byte[] msg = fillGather(3, gatherMrs, gather);
        byte[][] before = fillScatter(4, scatterMrs, scatter);
        c.qpB.postRecv(new ReceiveWorkRequest().wrId(31).sgList(scatter));
        c.qpA.postSend(new SendWorkRequest().wrId(30).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).sgList(gather));
        assertCompletion(await(c.sendCqA, "send", c), "send", 30, WcOpcode.SEND, msg.length, c.qpA.qpNum());
        assertCompletion(await(c.recvCqB, "recv", c), "recv", 31, WcOpcode.RECV, msg.length, c.qpB.qpNum());
        assertScattered(msg, scatterMrs, scatter, before, "send with a 0-byte SGE");
        passed();
    }

    @Test
    void rdmaWriteGathersIntoOneRemoteRange() {
        RcConnection c = conn();
        MemoryRegion[] gatherMrs = {memA2, memA, memA2, memA};
        ScatterGatherEntry[] gather = {ScatterGatherEntry.of(memA2, 11, 700), ScatterGatherEntry.of(memA, 2000, 1024),
            ScatterGatherEntry.of(memA2, 40000, 1), ScatterGatherEntry.of(memA, 50000, 2500)};
        byte[] msg = fillGather(5, gatherMrs, gather);
        long remoteOff = 12345;
        byte[] before = Patterns.fill(memB2, remoteOff, msg.length + 64, 6);
        c.qpA.postSend(new SendWorkRequest().wrId(40).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .sgList(gather).remoteAddress(memB2.address() + remoteOff).rkey(memB2.rkey()));
        assertCompletion(await(c.sendCqA, "write", c), "write", 40, WcOpcode.RDMA_WRITE, msg.length, c.qpA.qpNum());
        Patterns.assertRegion(memB2, remoteOff, msg, "write gathered from 4 SGEs");
        Patterns.assertRegion(memB2, remoteOff + msg.length, before, msg.length, 64, "bytes after the write");
        assertNone(c.recvCqB, "B's recv CQ after a write");
        passed();
    }

    @Test
    void rdmaReadScattersOverThreeEntries() {
        RcConnection c = conn();
        long remoteOff = 777;
        int total = 300 + 2200 + 1000;
        byte[] msg = Patterns.fill(memB, remoteOff, total, 7);
        MemoryRegion[] scatterMrs = {memA2, memA, memA2};
        ScatterGatherEntry[] scatter = {ScatterGatherEntry.of(memA2, 1, 300), ScatterGatherEntry.of(memA, 10000, 2200),
            ScatterGatherEntry.of(memA2, 20001, 1000)};
        byte[][] before = fillScatter(8, scatterMrs, scatter);
        c.qpA.postSend(new SendWorkRequest().wrId(50).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .sgList(scatter).remoteAddress(memB.address() + remoteOff).rkey(memB.rkey()));
        assertCompletion(await(c.sendCqA, "read", c), "read", 50, WcOpcode.RDMA_READ, total, c.qpA.qpNum());
        assertScattered(msg, scatterMrs, scatter, before, "read scattered over 3 SGEs");
        passed();
    }

    @Test
    void rdmaWriteWithImmediateGathersAndCompletesTheReceive() {
        RcConnection c = conn();
        MemoryRegion[] gatherMrs = {memA, memA2};
        ScatterGatherEntry[] gather = {ScatterGatherEntry.of(memA, 123, 1500), ScatterGatherEntry.of(memA2, 456, 1500)};
        byte[] msg = fillGather(9, gatherMrs, gather);
        long remoteOff = 33333;
        Patterns.fill(memB, remoteOff, msg.length, 10);
        c.qpB.postRecv(new ReceiveWorkRequest().wrId(61));
        c.qpA.postSend(new SendWorkRequest().wrId(60).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).immData(0xcafef00d)
            .sendFlags(SendFlags.SIGNALED).sgList(gather).remoteAddress(memB.address() + remoteOff).rkey(memB.rkey()));
        assertCompletion(await(c.sendCqA, "write imm", c), "write imm", 60, WcOpcode.RDMA_WRITE, msg.length, c.qpA.qpNum());
        WorkCompletion r = await(c.recvCqB, "write imm receive", c);
        assertCompletion(r, "receive of a WRITE with immediate (posted with no SGE)", 61, WcOpcode.RECV_RDMA_WITH_IMM,
            msg.length, c.qpB.qpNum());
        assertEquals(true, r.withImm(), "withImm: " + r);
        assertEquals(0xcafef00d, r.immData(), "imm: " + r);
        Patterns.assertRegion(memB, remoteOff, msg, "write with immediate gathered from 2 SGEs");
        passed();
    }
}
