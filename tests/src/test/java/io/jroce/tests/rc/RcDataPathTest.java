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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.jroce.tests.support.Completions.assertNone;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every RC data operation at sizes 0, 1, MTU-1, MTU, MTU+1 and 1 MiB, for path MTUs 1024 and 4096:
 * byte-exact data on the other side (and nothing written past it), the exact completion on both
 * sides, no stray completion, and at least one packet per MTU of payload received. The requester's
 * first PSN is 0xfffe00, so the 1 MiB messages at path MTU 1024 (and the run at 4096) cross the
 * 24-bit PSN wrap. Subclasses choose the address family.
 */
abstract class RcDataPathTest extends RcTestBase {
    static final int MIB = 1 << 20;
    /** Payload source, at an odd offset so nothing relies on alignment. */
    static final long SRC_OFF = 7;
    /** Payload destination, also odd, after the source with room to spare. */
    static final long DST_OFF = MIB + 4096 + 13;
    /** Bytes after the destination that must stay untouched. */
    static final int GUARD = 64;
    /** The receive buffer of an RDMA WRITE with immediate, which must stay untouched. */
    static final long SCRATCH_OFF = 2L * MIB + 3 * 4096;
    static final long SEND_WR_ID = 0x5e4d;
    static final long RECV_WR_ID = 0x4ecf;

    static final WrOpcode[] OPS = {WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE,
        WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.RDMA_READ};

    @Override
    int memoryLength() {
        return 2 * MIB + 4 * 4096;
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Mtu mtu : new Mtu[] {Mtu.MTU_1024, Mtu.MTU_4096}) {
            int m = mtu.bytes();
            for (WrOpcode op : OPS) {
                for (int size : new int[] {0, 1, m - 1, m, m + 1, MIB}) {
                    out.add(Arguments.of(op, size, mtu));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} of {1} bytes, path {2}")
    @MethodSource("cases")
    void transfer(WrOpcode op, int size, Mtu mtu) {
        RcConnection c = connection(mtu.name(), new RcConnection.Options().pathMtu(mtu));
        boolean read = op == WrOpcode.RDMA_READ;
        boolean recvCompletes = op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.RDMA_WRITE_WITH_IMM;
        long seed = ((long) op.ordinal() << 40) ^ ((long) size << 8) ^ mtu.bytes() ^ address().hashCode();
        int imm = (int) (seed * 0x9e3779b97f4a7c15L >>> 32);
        // READ moves data from B to A; every other operation from A to B.
        MemoryRegion src = read ? memB : memA;
        MemoryRegion dst = read ? memA : memB;
        byte[] data = Patterns.fill(src, SRC_OFF, size, seed);
        byte[] previous = Patterns.fill(dst, DST_OFF, size + GUARD, ~seed);
        byte[] scratch = Patterns.fill(memB, SCRATCH_OFF, 64, seed + 1);
        Map<String, Long> beforeA = pair.a().counters();
        Map<String, Long> beforeB = pair.b().counters();

        if (op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM) {
            c.qpB.postRecv(new ReceiveWorkRequest().wrId(RECV_WR_ID)
                .sgList(ScatterGatherEntry.of(memB, DST_OFF, size + GUARD)));
        } else if (op == WrOpcode.RDMA_WRITE_WITH_IMM) {
            c.qpB.postRecv(new ReceiveWorkRequest().wrId(RECV_WR_ID).sgList(ScatterGatherEntry.of(memB, SCRATCH_OFF, 64)));
        }
        ScatterGatherEntry[] local = size == 0 ? new ScatterGatherEntry[0]
            : new ScatterGatherEntry[] {ScatterGatherEntry.of(memA, read ? DST_OFF : SRC_OFF, size)};
        SendWorkRequest wr = new SendWorkRequest().wrId(SEND_WR_ID).opcode(op).sendFlags(SendFlags.SIGNALED)
            .sgList(local).immData(imm);
        if (read) {
            wr.remoteAddress(memB.address() + SRC_OFF).rkey(memB.rkey());
        } else if (op != WrOpcode.SEND && op != WrOpcode.SEND_WITH_IMM) {
            wr.remoteAddress(memB.address() + DST_OFF).rkey(memB.rkey());
        }
        c.qpA.postSend(wr);

        String what = op + " of " + size + " bytes at " + mtu;
        WorkCompletion swc = await(c.sendCqA, "requester completion of " + what, c);
        assertCompletion(swc, "requester completion of " + what, SEND_WR_ID, op.completionOpcode(), size, c.qpA.qpNum());
        if (recvCompletes) {
            WorkCompletion rwc = await(c.recvCqB, "responder completion of " + what, c);
            WcOpcode expected = op == WrOpcode.RDMA_WRITE_WITH_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV;
            assertCompletion(rwc, "responder completion of " + what, RECV_WR_ID, expected, size, c.qpB.qpNum());
            assertEquals(op.hasImmediate(), rwc.withImm(), "responder completion withImm: " + rwc);
            if (op.hasImmediate()) {
                assertEquals(imm, rwc.immData(), "immediate data: " + rwc);
            }
        }

        Patterns.assertRegion(dst, DST_OFF, data, what + ": data at the destination");
        Patterns.assertRegion(dst, DST_OFF + size, previous, size, GUARD, what + ": bytes after the destination");
        if (op == WrOpcode.RDMA_WRITE_WITH_IMM) {
            Patterns.assertRegion(memB, SCRATCH_OFF, scratch, what + ": the receive buffer of a WRITE with immediate");
        }
        assertNone(c.sendCqA, "A's send CQ after " + what);
        assertNone(c.recvCqA, "A's recv CQ after " + what);
        assertNone(c.sendCqB, "B's send CQ after " + what);
        assertNone(c.recvCqB, "B's recv CQ after " + what);

        int pkts = packets(size, mtu.bytes());
        if (read) {
            long got = delta(beforeA, pair.a(), "rcvd_pkts");
            assertTrue(got >= pkts, "requester received " + got + " packets of read responses, expected >= " + pkts
                + "; " + c.diagnostics());
            assertTrue(delta(beforeB, pair.b(), "rcvd_pkts") >= 1, "responder received the read request; " + c.diagnostics());
        } else {
            long got = delta(beforeB, pair.b(), "rcvd_pkts");
            assertTrue(got >= pkts, "responder received " + got + " packets, expected >= " + pkts + "; " + c.diagnostics());
            assertTrue(delta(beforeA, pair.a(), "rcvd_pkts") >= 1, "requester received an ACK; " + c.diagnostics());
        }
        assertNoMalformedPackets(beforeA, beforeB);
        passed();
    }
}
