package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.jroce.rnic.ModelMemory.Region;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * What one {@link Flow} of a {@link ReliabilityRun} must have produced: its completions against
 * its workload, and both memories against the model of every operation executed once, in order.
 */
final class ReliabilityChecks {
    private final Flow flow;
    private final RcWorkload workload;

    ReliabilityChecks(Flow flow) {
        this.flow = flow;
        this.workload = flow.workload;
    }

    /**
     * Everything completed exactly once, successfully, in order, and both memories match the model.
     *
     * @param qpsStayUp false when another flow of the run ended in an earned RETRY_EXC_ERR, which
     *                  leaves a QP in the error state (its flushed spare receives are then ignored)
     */
    void all(boolean qpsStayUp) {
        String name = flow.name + ": ";
        List<WorkCompletion> sendWcs = flow.sendWcs;
        List<WorkCompletion> recvWcs = qpsStayUp ? flow.recvWcs : withoutFlushedSpares(flow.recvWcs);
        assertEquals(workload.ops.size(), sendWcs.size(), name + "send completions: exactly one per WR");
        for (RcOp op : workload.ops) {
            WorkCompletion wc = sendWcs.get(op.index());
            assertEquals(WcStatus.SUCCESS, wc.status(), name + "status of " + op + ": " + wc);
            assertEquals(op.index(), wc.wrId(), name + "send completion " + op.index() + " out of posted order: " + wc);
            assertEquals(op.opcode().completionOpcode(), wc.opcode(), name + "opcode of " + op + ": " + wc);
        }
        assertEquals(workload.recvs.size(), recvWcs.size(), name + "receive completions: exactly one per consumed WQE");
        for (RcOp.Recv recv : workload.recvs) {
            WorkCompletion wc = recvWcs.get(recv.index());
            String what = name + "recv#" + recv.index() + ": " + wc;
            assertEquals(WcStatus.SUCCESS, wc.status(), what);
            assertEquals(RcOp.RECV_WR_ID_BASE + recv.index(), wc.wrId(), name + "receive completion out of order: " + wc);
            assertEquals(recv.opcode(), wc.opcode(), what);
            assertEquals(recv.byteLen(), wc.byteLen(), "byte_len of " + what);
            assertEquals(recv.withImm(), wc.withImm(), what);
            if (recv.withImm()) {
                assertEquals(recv.imm(), wc.immData(), "immediate of " + what);
            }
        }
        if (qpsStayUp) {
            assertEquals(QpState.RTS, flow.requester.qp.state(), name + "requester's QP");
            assertEquals(QpState.RTS, flow.responder.qp.state(), name + "responder's QP");
        }
        checkIncrements();
        checkMemory("requester", flow.local, workload.a);
        checkMemory("responder", flow.remote, workload.b);
        assertEquals(0L, flow.requester.device.counters().get("drop_internal_error"), "raised in the packet path");
        assertEquals(0L, flow.responder.device.counters().get("drop_internal_error"), "raised in the packet path");
    }

    private static List<WorkCompletion> withoutFlushedSpares(List<WorkCompletion> wcs) {
        List<WorkCompletion> out = new ArrayList<>();
        for (WorkCompletion wc : wcs) {
            if (wc.wrId() >= 0 || wc.status() != WcStatus.WR_FLUSH_ERR) {
                out.add(wc);
            }
        }
        return out;
    }

    /** Whether the sends ended SUCCESS..., one RETRY_EXC_ERR, WR_FLUSH_ERR... (and nothing else). */
    boolean endsInOneRetryExhaustion() {
        List<WorkCompletion> sendWcs = flow.sendWcs;
        int failed = -1;
        for (int i = 0; i < sendWcs.size(); i++) {
            WcStatus st = sendWcs.get(i).status();
            WcStatus allowed = failed < 0 ? (st == WcStatus.RETRY_EXC_ERR ? st : WcStatus.SUCCESS) : WcStatus.WR_FLUSH_ERR;
            if (st != allowed) {
                return false;
            }
            if (st == WcStatus.RETRY_EXC_ERR) {
                failed = i;
            }
        }
        return failed >= 0 && sendWcs.size() == workload.ops.size();
    }

    /**
     * After an earned RETRY_EXC_ERR: completions still in order and exactly once, what did
     * complete is byte-exact, and no atomic ran twice. (Operations after the failed one may or may
     * not have run at the responder, so its WRITE targets are not checked.)
     */
    void afterEarnedExhaustion() {
        String name = flow.name + ": ";
        assertEquals(QpState.ERR, flow.requester.qp.state(), name + "requester's QP after RETRY_EXC_ERR");
        int succeeded = 0;
        int recvsNeeded = 0;
        while (flow.sendWcs.get(succeeded).status() == WcStatus.SUCCESS) {
            RcOp op = workload.ops.get(succeeded);
            assertEquals(op.index(), flow.sendWcs.get(succeeded).wrId(), name + "send completions in posted order");
            recvsNeeded += op.recv() != null ? 1 : 0;
            if (op.opcode() == WrOpcode.RDMA_READ || op.opcode().isAtomic()) {
                checkRegions(name + "requester", flow.local, workload.a, op.local());
            }
            succeeded++;
        }
        // Receives complete in order; once the responder's QP is in error the rest are flushed.
        int received = 0;
        for (WorkCompletion wc : flow.recvWcs) {
            if (wc.status() == WcStatus.WR_FLUSH_ERR) {
                break;
            }
            RcOp.Recv recv = workload.recvs.get(received);
            assertEquals(WcStatus.SUCCESS, wc.status(), name + "recv#" + received + ": " + wc);
            assertEquals(RcOp.RECV_WR_ID_BASE + received, wc.wrId(), name + "receive completion out of order: " + wc);
            assertEquals(recv.byteLen(), wc.byteLen(), name + "recv#" + received + ": " + wc);
            checkRegions(name + "responder", flow.remote, workload.b, recv.sges());
            received++;
        }
        assertTrue(received >= recvsNeeded && received <= workload.recvs.size(),
            name + received + " receive completions, " + recvsNeeded + ".." + workload.recvs.size() + " expected");
        ByteBuffer a = flow.local.buffer().order(ByteOrder.nativeOrder());
        ByteBuffer b = flow.remote.buffer().order(ByteOrder.nativeOrder());
        long counter = b.getLong(workload.incrementCounter);
        assertTrue(counter >= 0 && counter <= workload.incrementResults.size(), name + "counter " + counter
            + " after at most " + workload.incrementResults.size() + " fetch-adds of 1");
        for (int i = 0; i < workload.incrementResults.size(); i++) {
            if (a.getLong(workload.incrementResults.get(i)) == i) {
                assertTrue(i < counter, name + "fetch-add " + i + " returned " + i + " but the counter is " + counter);
            }
        }
    }

    private static void checkRegions(String what, MemoryRegion mr, ModelMemory model, List<Region> regions) {
        byte[] expected = model.expected();
        for (Region r : regions) {
            byte[] actual = new byte[r.length()];
            mr.buffer().get(r.offset(), actual);
            assertArrayEquals(Arrays.copyOfRange(expected, r.offset(), r.end()), actual, what + " region " + r);
        }
    }

    /** N fetch-adds of 1 leave exactly N, and return 0, 1, ..., N-1 in posted order: none ran twice. */
    private void checkIncrements() {
        ByteBuffer a = flow.local.buffer().order(ByteOrder.nativeOrder());
        ByteBuffer b = flow.remote.buffer().order(ByteOrder.nativeOrder());
        List<Integer> results = workload.incrementResults;
        assertEquals(results.size(), b.getLong(workload.incrementCounter), flow.name + ": counter after "
            + results.size() + " fetch-adds of 1");
        for (int i = 0; i < results.size(); i++) {
            assertEquals(i, a.getLong(results.get(i)), flow.name + ": original returned by fetch-add " + i + " of 1");
        }
    }

    private void checkMemory(String side, MemoryRegion mr, ModelMemory model) {
        byte[] expected = model.expected();
        byte[] actual = new byte[expected.length];
        mr.buffer().get(0, actual);
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                int last = i;
                while (last + 1 < expected.length && expected[last + 1] != actual[last + 1]) {
                    last++;
                }
                fail(flow.name + ": the " + side + "'s memory differs from the model at " + i + ".." + last + " ("
                    + (last - i + 1) + " bytes), in " + owner(side.equals("requester"), i));
            }
        }
    }

    /** Which operation's buffer covers {@code offset}, to name the operation that went wrong. */
    private String owner(boolean requesterSide, int offset) {
        StringBuilder sb = new StringBuilder();
        for (RcOp op : workload.ops) {
            List<Region> regions = new ArrayList<>();
            if (requesterSide) {
                regions.addAll(op.local());
            } else {
                if (op.remoteOffset() >= 0) {
                    regions.add(new Region(op.remoteOffset(), op.length()));
                }
                if (op.recv() != null) {
                    regions.addAll(op.recv().sges());
                }
            }
            for (Region r : regions) {
                if (offset >= r.offset() && offset < r.end()) {
                    sb.append(op).append("; ");
                }
            }
        }
        return sb.length() == 0 ? "no operation's buffer (a stray write)" : sb.toString();
    }
}
