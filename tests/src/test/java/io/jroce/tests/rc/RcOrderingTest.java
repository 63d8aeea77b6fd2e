package io.jroce.tests.rc;

import io.jroce.testsupport.Patterns;
import io.jroce.tests.support.RcConnection;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.jroce.tests.support.Completions.assertNone;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Completion semantics of a send queue (IBTA Vol. 1 10.8.6, 11.4.1.1): unsignaled work requests
 * produce no completion unless sq_sig_all, while a later signaled one does; receives always
 * complete; and long runs of back-to-back work requests complete in posted order on both sides
 * with every message intact.
 */
class RcOrderingTest extends RcTestBase {
    static final int LEN = 1 << 20;
    static final int SLOT = 3 * 1024 + 128;

    @Override
    int memoryLength() {
        return LEN;
    }

    private RcConnection conn() {
        return connection("deep", new RcConnection.Options().pathMtu(Mtu.MTU_1024).queueDepth(256, 256).cqEntries(1024));
    }

    @Test
    void unsignaledWritesProduceNoCompletionButASignaledOneAfterThemDoes() {
        RcConnection c = conn();
        byte[][] data = new byte[4][];
        for (int i = 0; i < 4; i++) {
            data[i] = Patterns.fill(memA, (long) i * SLOT, 2000 + i, 100 + i);
            Patterns.fill(memB, (long) i * SLOT, 2000 + i, ~(100L + i));
        }
        for (int i = 0; i < 4; i++) {
            c.qpA.postSend(new SendWorkRequest().wrId(70 + i).opcode(WrOpcode.RDMA_WRITE)
                .sendFlags(i == 3 ? SendFlags.SIGNALED : 0).sgList(ScatterGatherEntry.of(memA, (long) i * SLOT, 2000 + i))
                .remoteAddress(memB.address() + (long) i * SLOT).rkey(memB.rkey()));
        }
        WorkCompletion wc = await(c.sendCqA, "the signaled write", c);
        assertCompletion(wc, "the only completion: the signaled 4th write", 73, WcOpcode.RDMA_WRITE, 2003, c.qpA.qpNum());
        assertNone(c.sendCqA, "A's send CQ: the 3 unsignaled writes complete silently");
        for (int i = 0; i < 4; i++) {
            Patterns.assertRegion(memB, (long) i * SLOT, data[i], "write " + i);
        }
        passed();
    }

    @Test
    void unsignaledSendsStillCompleteTheirReceives() {
        RcConnection c = conn();
        for (int i = 0; i < 4; i++) {
            c.qpB.postRecv(new ReceiveWorkRequest().wrId(80 + i).sgList(ScatterGatherEntry.of(memB, (long) i * SLOT, SLOT)));
        }
        byte[][] data = new byte[4][];
        for (int i = 0; i < 4; i++) {
            data[i] = Patterns.fill(memA, (long) i * SLOT, 100 * (i + 1), 200 + i);
            c.qpA.postSend(new SendWorkRequest().wrId(90 + i).opcode(WrOpcode.SEND)
                .sendFlags(i == 3 ? SendFlags.SIGNALED : 0).sgList(ScatterGatherEntry.of(memA, (long) i * SLOT, 100 * (i + 1))));
        }
        for (int i = 0; i < 4; i++) {
            WorkCompletion r = await(c.recvCqB, "receive " + i, c);
            assertCompletion(r, "receive " + i, 80 + i, WcOpcode.RECV, 100 * (i + 1), c.qpB.qpNum());
            Patterns.assertRegion(memB, (long) i * SLOT, data[i], "message " + i);
        }
        assertCompletion(await(c.sendCqA, "signaled send", c), "signaled send", 93, WcOpcode.SEND, 400, c.qpA.qpNum());
        assertNone(c.sendCqA, "A's send CQ: unsignaled sends complete silently");
        assertNone(c.recvCqB, "B's recv CQ");
        passed();
    }

    @Test
    void sqSigAllSignalsEveryRequest() {
        RcConnection c = connection("sigall", new RcConnection.Options().pathMtu(Mtu.MTU_1024).sqSigAll(true));
        for (int i = 0; i < 3; i++) {
            Patterns.fill(memA, (long) i * SLOT, 64, 300 + i);
            c.qpA.postSend(new SendWorkRequest().wrId(110 + i).opcode(WrOpcode.RDMA_WRITE).sendFlags(0)
                .sgList(ScatterGatherEntry.of(memA, (long) i * SLOT, 64))
                .remoteAddress(memB.address() + (long) i * SLOT).rkey(memB.rkey()));
        }
        for (int i = 0; i < 3; i++) {
            assertCompletion(await(c.sendCqA, "write " + i, c), "write " + i + " with sq_sig_all", 110 + i,
                WcOpcode.RDMA_WRITE, 64, c.qpA.qpNum());
        }
        assertNone(c.sendCqA, "A's send CQ");
        passed();
    }

    @Test
    void twoHundredSendsOfVaryingSizeCompleteInPostedOrder() {
        RcConnection c = conn();
        int n = 200;
        Random rnd = new Random(4791);
        int[] sizes = new int[n];
        byte[][] data = new byte[n][];
        for (int i = 0; i < n; i++) {
            sizes[i] = switch (i % 10) {
                case 0 -> 0;
                case 1 -> 1;
                case 2 -> 1024;
                case 3 -> 1025;
                default -> rnd.nextInt(SLOT + 1);
            };
            data[i] = Patterns.fill(memA, (long) i * SLOT, sizes[i], 1000 + i);
            Patterns.fill(memB, (long) i * SLOT, SLOT, ~(1000L + i));
            c.qpB.postRecv(new ReceiveWorkRequest().wrId(10_000 + i).sgList(ScatterGatherEntry.of(memB, (long) i * SLOT, SLOT)));
        }
        for (int i = 0; i < n; i++) {
            ScatterGatherEntry[] sgl = sizes[i] == 0 ? new ScatterGatherEntry[0]
                : new ScatterGatherEntry[] {ScatterGatherEntry.of(memA, (long) i * SLOT, sizes[i])};
            c.qpA.postSend(new SendWorkRequest().wrId(i).opcode(i % 3 == 0 ? WrOpcode.SEND_WITH_IMM : WrOpcode.SEND)
                .immData(i * 7919).sendFlags(SendFlags.SIGNALED).sgList(sgl));
        }
        for (int i = 0; i < n; i++) {
            WorkCompletion s = await(c.sendCqA, "send completion " + i, c);
            assertCompletion(s, "send completion " + i + " (in posted order)", i, WcOpcode.SEND, sizes[i], c.qpA.qpNum());
        }
        for (int i = 0; i < n; i++) {
            WorkCompletion r = await(c.recvCqB, "receive completion " + i, c);
            assertCompletion(r, "receive completion " + i + " (in posted order)", 10_000 + i, WcOpcode.RECV, sizes[i],
                c.qpB.qpNum());
            assertEquals(i % 3 == 0, r.withImm(), "withImm of message " + i + ": " + r);
            if (i % 3 == 0) {
                assertEquals(i * 7919, r.immData(), "imm of message " + i);
            }
            Patterns.assertRegion(memB, (long) i * SLOT, data[i], "message " + i + " of " + sizes[i] + " bytes");
        }
        assertNone(c.sendCqA, "A's send CQ after 200 sends");
        assertNone(c.recvCqB, "B's recv CQ after 200 receives");
        passed();
    }

    @Test
    void mixedOperationsCompleteInPostedOrder() {
        RcConnection c = conn();
        final int n = 120;
        final int slot = 2504;
        final long counterOff = LEN - 4096;
        WrOpcode[] cycle = {WrOpcode.SEND, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ, WrOpcode.RDMA_WRITE_WITH_IMM,
            WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.SEND_WITH_IMM};
        Random rnd = new Random(1234);
        memB.buffer().order(ByteOrder.nativeOrder()).putLong((int) counterOff, 0);
        int[] sizes = new int[n];
        byte[][] data = new byte[n][];
        List<Integer> receivers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            WrOpcode op = cycle[i % cycle.length];
            long off = (long) i * slot;
            sizes[i] = op.isAtomic() ? 8 : 1 + rnd.nextInt(slot);
            if (op == WrOpcode.RDMA_READ) {
                data[i] = Patterns.fill(memB, off, sizes[i], 5000 + i);
                Patterns.fill(memA, off, slot, ~(5000L + i));
            } else if (!op.isAtomic()) {
                data[i] = Patterns.fill(memA, off, sizes[i], 5000 + i);
                Patterns.fill(memB, off, slot, ~(5000L + i));
            }
            if (op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.RDMA_WRITE_WITH_IMM) {
                c.qpB.postRecv(new ReceiveWorkRequest().wrId(20_000 + i).sgList(ScatterGatherEntry.of(memB, off, slot)));
                receivers.add(i);
            }
        }
        for (int i = 0; i < n; i++) {
            WrOpcode op = cycle[i % cycle.length];
            long off = (long) i * slot;
            SendWorkRequest wr = new SendWorkRequest().wrId(i).opcode(op).sendFlags(SendFlags.SIGNALED).immData(-i)
                .sgList(ScatterGatherEntry.of(memA, off, sizes[i]));
            if (op.isAtomic()) {
                wr.remoteAddress(memB.address() + counterOff).rkey(memB.rkey()).compareAdd(1);
            } else if (op != WrOpcode.SEND && op != WrOpcode.SEND_WITH_IMM) {
                wr.remoteAddress(memB.address() + off).rkey(memB.rkey());
            }
            c.qpA.postSend(wr);
        }
        long fetched = 0;
        for (int i = 0; i < n; i++) {
            WrOpcode op = cycle[i % cycle.length];
            WorkCompletion s = await(c.sendCqA, "completion " + i + " (" + op + ")", c);
            assertCompletion(s, "completion " + i + " (" + op + ", in posted order)", i, op.completionOpcode(), sizes[i],
                c.qpA.qpNum());
            if (op.isAtomic()) {
                long v = memA.buffer().order(ByteOrder.nativeOrder()).getLong((int) ((long) i * slot));
                assertEquals(fetched, v, "fetch-and-add " + i + " saw the counter after every earlier one");
                fetched++;
            } else if (op != WrOpcode.SEND && op != WrOpcode.SEND_WITH_IMM && op != WrOpcode.RDMA_WRITE_WITH_IMM) {
                Patterns.assertRegion(op == WrOpcode.RDMA_READ ? memA : memB, (long) i * slot, data[i], op + " " + i);
            }
        }
        for (int i : receivers) {
            WrOpcode op = cycle[i % cycle.length];
            WorkCompletion r = await(c.recvCqB, "receive completion for op " + i, c);
            assertCompletion(r, "receive completion for op " + i + " (" + op + ", in posted order)", 20_000 + i,
                op == WrOpcode.RDMA_WRITE_WITH_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV, sizes[i], c.qpB.qpNum());
            assertEquals(op.hasImmediate(), r.withImm(), "withImm: " + r);
            if (op.hasImmediate()) {
                assertEquals(-i, r.immData(), "imm: " + r);
            }
            Patterns.assertRegion(memB, (long) i * slot, data[i], op + " " + i);
        }
        assertEquals(fetched, memB.buffer().order(ByteOrder.nativeOrder()).getLong((int) counterOff), "counter");
        assertNone(c.sendCqA, "A's send CQ");
        assertNone(c.recvCqB, "B's recv CQ");
        passed();
    }
}
