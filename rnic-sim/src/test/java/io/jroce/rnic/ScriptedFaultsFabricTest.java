package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Operation;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * One scripted fault per test, aimed at one recovery path of the RC protocol: each asserts that
 * its fault really happened ({@link FaultRule#applied()}) and that the operations still completed
 * exactly once and byte-exact. A failure prints the fabric's packet trace.
 */
class ScriptedFaultsFabricTest {
    private static final int MR = 1 << 20;
    /** A's first send PSN (FabricPair's default). */
    private static final int PSN = 0x100;
    private static final long MS = 1_000_000;

    /** Runs {@code body} on a fresh pair and prints the trace if it fails. */
    private static void scripted(Mtu mtu, Consumer<FabricPair> body) {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(1).build();
        try (FabricPair p = new FabricPair(fabric, mtu, MR, 7, 7)) {
            try {
                body.accept(p);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nfabric seed " + fabric.seed() + ", rules "
                    + fabric.faults().rules() + "\ncounters A "
                    + p.a.device.counters() + "\ncounters B " + p.b.device.counters() + "\n"
                    + fabric.trace().dump(200), e);
            }
        }
    }

    private static byte[] fill(FabricPair.Side s, int offset, int len) {
        byte[] data = new byte[len];
        new Random(offset * 31L + len).nextBytes(data);
        s.mr.buffer().put(offset, data);
        return data;
    }

    private static byte[] read(FabricPair.Side s, int offset, int len) {
        byte[] out = new byte[len];
        s.mr.buffer().get(offset, out);
        return out;
    }

    private static SendWorkRequest wr(FabricPair p, long id, WrOpcode op, int localOffset, int len) {
        SendWorkRequest wr = new SendWorkRequest().wrId(id).opcode(op).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(p.a.mr, localOffset, len));
        return wr.remoteAddress(p.b.mr.address()).rkey(p.b.mr.rkey());
    }

    private static void assertAllSucceededInOrder(List<WorkCompletion> wcs) {
        for (int i = 0; i < wcs.size(); i++) {
            assertEquals(WcStatus.SUCCESS, wcs.get(i).status(), wcs.get(i).toString());
            assertEquals(i, wcs.get(i).wrId(), "completions in posted order: " + wcs);
        }
    }

    /** Runs a while longer and checks that no completion appears on {@code side}'s CQ. */
    private static void assertNoMoreCompletions(FabricPair p, FabricPair.Side side) {
        p.fabric.runFor(500 * MS);
        WorkCompletion wc = new WorkCompletion();
        assertFalse(side.cq.poll(wc), "an extra completion: " + wc);
    }

    private static long count(FabricPair.Side s, String counter) {
        return s.device.counters().get(counter);
    }

    private static long sent(SimulatedFabric f, int opcode, int psn) {
        return f.trace().events().stream().filter(e -> e.opcode() == opcode && e.psn() == psn).count();
    }

    @Test
    void theSecondReadResponseIsLostAndReadAgainFromItsPsn() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(
                FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_RESPONSE)).occurrence(2).named("2nd READ response"));
            byte[] data = fill(p.b, 0, 4 * 1024 + 100);
            p.a.qp.postSend(wr(p, 0, WrOpcode.RDMA_READ, 0, data.length));
            assertAllSucceededInOrder(p.await(p.a.cq, 1));
            assertEquals(1, rule.applied());
            assertArrayEquals(data, read(p.a, 0, data.length));
            assertEquals(1, sent(p.fabric, Opcode.RC_RDMA_READ_REQUEST, PSN + 1),
                "the READ is asked for again from the lost response's PSN");
        });
    }

    @Test
    void everyAckLostFor5msCostsATimeoutButNothingRunsTwice() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(FaultRule.drop(PacketMatch.acks()).forNs(5 * MS).named("ACKs for 5 ms"));
            int n = 10;
            int len = 1500;
            for (int i = 0; i < n + 2; i++) { // two spares: a SEND executed twice would take one
                p.b.qp.postRecv(new ReceiveWorkRequest().wrId(i).sgList(ScatterGatherEntry.of(p.b.mr, i * 2048, 2048)));
            }
            byte[][] data = new byte[n][];
            for (int i = 0; i < n; i++) {
                data[i] = fill(p.a, i * 2048, len);
                p.a.qp.postSend(wr(p, i, WrOpcode.SEND, i * 2048, len));
            }
            assertAllSucceededInOrder(p.await(p.a.cq, n));
            List<WorkCompletion> recvs = p.await(p.b.cq, n);
            assertAllSucceededInOrder(recvs);
            for (int i = 0; i < n; i++) {
                assertEquals(len, recvs.get(i).byteLen());
                assertArrayEquals(data[i], read(p.b, i * 2048, len));
            }
            assertTrue(rule.applied() >= n, "every first ACK was lost: " + rule);
            assertTrue(count(p.b, "duplicate_request") > 0, "the retransmissions were seen as duplicates");
            assertNoMoreCompletions(p, p.b);
        });
    }

    @Test
    void aWritePacketLostOnceIsResentFromItsPsnAfterOneSequenceNak() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(
                FaultRule.drop(PacketMatch.psn(PSN + 4).and(PacketMatch.requests())).once().named("drop PSN 0x104 once"));
            byte[] data = fill(p.a, 0, 10 * 1024);
            p.a.qp.postSend(wr(p, 0, WrOpcode.RDMA_WRITE, 0, data.length));
            assertAllSucceededInOrder(p.await(p.a.cq, 1));
            assertEquals(1, rule.applied());
            assertArrayEquals(data, read(p.b, 0, data.length));
            assertEquals(1, count(p.a, "rcvd_seq_err"), "one PSN sequence error NAK");
            assertEquals(1, count(p.a, "completer_retry_err"), "one retry");
            assertEquals(2, sent(p.fabric, Opcode.RC_RDMA_WRITE_MIDDLE, PSN + 4));
            assertEquals(1, sent(p.fabric, Opcode.RC_RDMA_WRITE_MIDDLE, PSN + 3), "go back to the gap, not before");
        });
    }

    @Test
    void duplicatedAtomicRequestsAreAnsweredFromTheReplayRecordNotRunTwice() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(FaultRule.duplicate(
                PacketMatch.operation(Operation.FETCH_ADD).or(PacketMatch.operation(Operation.COMPARE_SWAP))));
            ByteBuffer b = p.b.mr.buffer().order(ByteOrder.nativeOrder());
            b.putLong(0, 0);
            int n = 16;
            for (int i = 0; i < n; i++) {
                p.a.qp.postSend(wr(p, i, WrOpcode.ATOMIC_FETCH_AND_ADD, i * 8, 8).compareAdd(1));
            }
            // A chain of swaps 16 -> 100 -> 101: a second run of the first would fail its compare and show.
            p.a.qp.postSend(wr(p, n, WrOpcode.ATOMIC_CMP_AND_SWP, n * 8, 8).compareAdd(n).swap(100));
            p.a.qp.postSend(wr(p, n + 1, WrOpcode.ATOMIC_CMP_AND_SWP, (n + 1) * 8, 8).compareAdd(100).swap(101));
            assertAllSucceededInOrder(p.await(p.a.cq, n + 2));
            ByteBuffer a = p.a.mr.buffer().order(ByteOrder.nativeOrder());
            for (int i = 0; i < n; i++) {
                assertEquals(i, a.getLong(i * 8), "fetch-add " + i + " returns the count before it");
            }
            assertEquals(n, a.getLong(n * 8));
            assertEquals(100, a.getLong((n + 1) * 8));
            assertEquals(101, b.getLong(0), "every atomic ran exactly once");
            assertEquals(n + 2, rule.applied());
            assertEquals(n + 2, count(p.b, "duplicate_request"));
        });
    }

    @Test
    void aLostAtomicAcknowledgeIsRepeatedFromTheReplayRecord() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(
                FaultRule.drop(PacketMatch.operation(Operation.ATOMIC_ACKNOWLEDGE)).occurrence(1));
            ByteBuffer b = p.b.mr.buffer().order(ByteOrder.nativeOrder());
            b.putLong(0, 40);
            p.a.qp.postSend(wr(p, 0, WrOpcode.ATOMIC_FETCH_AND_ADD, 0, 8).compareAdd(2));
            p.a.qp.postSend(wr(p, 1, WrOpcode.ATOMIC_FETCH_AND_ADD, 8, 8).compareAdd(2));
            assertAllSucceededInOrder(p.await(p.a.cq, 2));
            ByteBuffer a = p.a.mr.buffer().order(ByteOrder.nativeOrder());
            assertEquals(40, a.getLong(0));
            assertEquals(42, a.getLong(8));
            assertEquals(44, b.getLong(0), "the retransmitted fetch-add was not applied again");
            assertEquals(1, rule.applied());
            assertEquals(2, sent(p.fabric, Opcode.RC_ATOMIC_ACKNOWLEDGE, PSN), "the first answer, then the replay");
        });
    }

    /**
     * A NAK delayed past the timeout arrives after the PSNs it names were acknowledged. It is stale:
     * the requester must ignore it (rxe's check_psn drops a response older than the next expected
     * one), not take a retry from the budget or go back. Enough of them in a row end the QP with
     * RETRY_EXC_ERR although every operation is making progress.
     */
    @Test
    void aStaleSequenceNakCostsNoRetry() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule lost = p.fabric.faults().add(FaultRule.drop(PacketMatch.psn(PSN).and(PacketMatch.requests())).once());
            FaultRule late = p.fabric.faults().add(FaultRule.delay(PacketMatch.naks(), 100 * MS).named("NAKs 100 ms late"));
            FaultRule ackLost = p.fabric.faults().add(FaultRule.drop(PacketMatch.acks().and(PacketMatch.psn(PSN + 2))).once());
            for (int i = 0; i < 3; i++) {
                p.b.qp.postRecv(new ReceiveWorkRequest().wrId(i).sgList(ScatterGatherEntry.of(p.b.mr, i * 64, 64)));
            }
            p.a.qp.postSend(wr(p, 0, WrOpcode.SEND, 0, 64));
            p.a.qp.postSend(wr(p, 1, WrOpcode.SEND, 64, 64));
            assertAllSucceededInOrder(p.await(p.a.cq, 2)); // after one ACK timeout (67 ms): the NAK is still held
            assertEquals(1, count(p.a, "completer_retry_err"), "the timeout");
            // WR 2 is outstanding (its ACK is lost) when the stale NAK for PSN 0x100 arrives at 100 ms.
            p.a.qp.postSend(wr(p, 2, WrOpcode.SEND, 128, 64));
            WorkCompletion wc = p.await(p.a.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(1, lost.applied());
            assertEquals(1, late.applied());
            assertEquals(1, ackLost.applied());
            assertEquals(2, count(p.a, "completer_retry_err"), "two timeouts; the stale NAK must not cost a retry");
            assertEquals(2, sent(p.fabric, Opcode.RC_SEND_ONLY, PSN + 1), "nothing resent because of the stale NAK");
        });
    }

    @Test
    void reorderedReadResponsesStillPlaceEveryByte() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(
                FaultRule.delay(PacketMatch.opcode(Opcode.RC_RDMA_READ_RESPONSE_FIRST), 50_000).once());
            byte[] data = fill(p.b, 0, 8 * 1024);
            p.a.qp.postSend(wr(p, 0, WrOpcode.RDMA_READ, 0, data.length));
            assertAllSucceededInOrder(p.await(p.a.cq, 1));
            assertEquals(1, rule.applied());
            assertArrayEquals(data, read(p.a, 0, data.length));
        });
    }

    @Test
    void aLateCopyOfASendLastIsNotExecutedAgainInTheMiddleOfTheNextMessage() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule held = p.fabric.faults().add(
                FaultRule.delay(PacketMatch.opcode(Opcode.RC_SEND_LAST), 100 * MS).once().named("1st SEND LAST 100 ms late"));
            for (int i = 0; i < 3; i++) {
                p.b.qp.postRecv(new ReceiveWorkRequest().wrId(i).sgList(ScatterGatherEntry.of(p.b.mr, i * 4096, 4096)));
            }
            byte[] first = fill(p.a, 0, 3000);
            p.a.qp.postSend(wr(p, 0, WrOpcode.SEND, 0, first.length));
            assertAllSucceededInOrder(p.await(p.a.cq, 1)); // resent at the timeout, before the held LAST arrives
            byte[] second = fill(p.a, 4096, 3000);
            // The second message's LAST is lost once, so that the responder is in its middle at 100 ms.
            FaultRule gap = p.fabric.faults().add(FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_LAST)).once());
            p.a.qp.postSend(wr(p, 1, WrOpcode.SEND, 4096, second.length));
            WorkCompletion wc = p.await(p.a.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            List<WorkCompletion> recvs = p.await(p.b.cq, 2);
            assertAllSucceededInOrder(recvs);
            assertArrayEquals(first, read(p.b, 0, first.length));
            assertArrayEquals(second, read(p.b, 4096, second.length));
            assertEquals(1, held.applied());
            assertEquals(1, gap.applied());
            assertNoMoreCompletions(p, p.b);
        });
    }

    @Test
    void aLostRnrNakIsCoveredByTheTimeoutAndTheSendLandsOnce() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(FaultRule.drop(PacketMatch.rnrNaks()).once());
            byte[] data = fill(p.a, 0, 2500);
            p.a.qp.postSend(wr(p, 0, WrOpcode.SEND_WITH_IMM, 0, data.length).immData(77));
            p.fabric.runFor(MS); // no receive posted yet: RNR NAK, lost
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(0).sgList(ScatterGatherEntry.of(p.b.mr, 0, 4096)));
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(p.b.mr, 4096, 4096)));
            assertAllSucceededInOrder(p.await(p.a.cq, 1));
            WorkCompletion recv = p.await(p.b.cq, 1).get(0);
            assertEquals(WcStatus.SUCCESS, recv.status());
            assertEquals(77, recv.immData());
            assertEquals(1, rule.applied());
            assertArrayEquals(data, read(p.b, 0, data.length));
            assertNoMoreCompletions(p, p.b);
        });
    }

    @Test
    void aLostReadRequestIsResentAtTheTimeout() {
        scripted(Mtu.MTU_4096, p -> {
            FaultRule rule = p.fabric.faults().add(FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_REQUEST)).once());
            byte[] data = fill(p.b, 0, 20_000);
            p.a.qp.postSend(wr(p, 0, WrOpcode.RDMA_READ, 0, data.length));
            assertAllSucceededInOrder(p.await(p.a.cq, 1));
            assertEquals(1, rule.applied());
            assertEquals(1, count(p.a, "completer_retry_err"));
            assertArrayEquals(data, read(p.a, 0, data.length));
        });
    }

    @Test
    void aDuplicatedReadRequestIsAnsweredTwiceButCompletesOnce() {
        scripted(Mtu.MTU_1024, p -> {
            FaultRule rule = p.fabric.faults().add(FaultRule.duplicate(PacketMatch.operation(Operation.RDMA_READ_REQUEST)));
            byte[] data = fill(p.b, 0, 6000);
            byte[] other = fill(p.b, 8192, 100);
            p.a.qp.postSend(wr(p, 0, WrOpcode.RDMA_READ, 0, data.length));
            p.a.qp.postSend(wr(p, 1, WrOpcode.RDMA_READ, 8192, other.length).remoteAddress(p.b.mr.address() + 8192));
            assertAllSucceededInOrder(p.await(p.a.cq, 2));
            assertEquals(2, rule.applied());
            assertArrayEquals(data, read(p.a, 0, data.length));
            assertArrayEquals(other, read(p.a, 8192, other.length));
            assertNoMoreCompletions(p, p.a);
        });
    }
}
