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
import java.util.Random;

import io.jroce.rnic.ModelMemory.Region;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.Fate;
import io.jroce.stack.fault.LinkConditions;
import io.jroce.stack.wire.Psn;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.QpState;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Runs one {@link RcWorkload} from A to B over a lossy fabric and checks that every operation
 * completed exactly once, successfully, in posted order, and left both memories byte-exact. On
 * failure it prints the seed, the link conditions, the workload and the fabric's packet trace
 * (the last 16384 packets; {@code -Djroce.traceCapacity=N} keeps more when replaying a seed). A
 * RETRY_EXC_ERR passes only if the trace proves the network earned it ({@link RetryExhaustion}).
 * {@code -Djroce.dumpTrace=true} prints the whole trace of passing runs too.
 */
final class ReliabilityRun {
    static final String A = "10.0.0.1";
    static final String B = "10.0.0.2";
    /** Enough virtual time for a 1 MiB message at 20% loss; a hang ends here. */
    private static final long MAX_RUN_NS = 600_000_000_000L;
    /**
     * After the last completion: several ACK timeouts (67 ms at timeout 14) and far more than any
     * reordering delay, for late duplicates to do any harm they can.
     */
    private static final long SETTLE_NS = 300_000_000L;
    /** Spare receive WQEs that must stay unused (a SEND executed twice would take one). */
    private static final int SPARE_RECVS = 2;
    private static final int TRACE_LINES_IN_MESSAGE = 80;
    /** retry_cnt of both QPs, as the issue asks (timeout 14 is FabricPair's). */
    static final int RETRY_COUNT = 7;

    private final RcWorkload.Mix mix;
    private final long seed;
    private final SimulatedFabric fabric;
    private final RcWorkload workload;
    private final LinkConditions forward;
    private final LinkConditions reverse;
    private final int psnA;
    private final int psnB;
    private final List<WorkCompletion> sendWcs = new ArrayList<>();
    private final List<WorkCompletion> recvWcs = new ArrayList<>();
    /** When the first error completion was polled; -1 while there is none. */
    private long failedAtNs = -1;

    ReliabilityRun(RcWorkload.Mix mix, long seed) {
        this.mix = mix;
        this.seed = seed;
        Random r = new Random(seed * 1_000_003L + mix.ordinal());
        forward = conditions(r);
        reverse = conditions(r);
        workload = RcWorkload.generate(mix, r, seed % 50 == 0);
        psnA = startPsn(r);
        psnB = startPsn(r);
        fabric = SimulatedFabric.builder().seed(seed).traceCapacity(Integer.getInteger("jroce.traceCapacity", 16384))
            .build();
        fabric.faults().link(A, B, forward).link(B, A, reverse);
    }

    /** A random start PSN, a quarter of them just before the 24-bit wrap so that the run crosses it. */
    private static int startPsn(Random r) {
        return r.nextInt(4) == 0 ? Psn.MODULUS - 1 - r.nextInt(300) : r.nextInt(Psn.MODULUS);
    }

    /** Up to 20% loss (a quarter of the links at exactly 20%), with copies, reordering and bit errors. */
    private static LinkConditions conditions(Random r) {
        double loss = r.nextInt(4) == 0 ? 0.2 : r.nextDouble() * 0.2;
        return LinkConditions.ideal().loss(loss).duplicate(r.nextDouble() * 0.05)
            .reorder(r.nextDouble() * 0.05, 1_000 + r.nextInt(100_000)).delay(r.nextInt(5_000)).jitter(r.nextInt(5_000))
            .corrupt(r.nextDouble() * 0.02);
    }

    /** Runs the workload and checks it; throws an AssertionError that says how to replay the seed. */
    void runAndCheck() {
        try (FabricPair p = new FabricPair(fabric, workload.mtu, Math.max(4096, Math.max(workload.a.size(),
            workload.b.size())), RETRY_COUNT, 7, psnA, psnB)) {
            try {
                run(p);
                check(p);
                System.out.println(summary());
                if (Boolean.getBoolean("jroce.dumpTrace")) {
                    System.out.println(context(p) + "\n" + fabric.trace().dump(Integer.MAX_VALUE));
                }
            } catch (AssertionError | RuntimeException e) {
                String context = context(p);
                System.out.println(context + "\n" + e + "\n" + fabric.trace().dump(Integer.MAX_VALUE));
                throw new AssertionError(e.getMessage() + "\n" + context + "\n"
                    + fabric.trace().dump(TRACE_LINES_IN_MESSAGE), e);
            }
        }
    }

    /** One line per run, in the test's output file: how hard the network made it. */
    private String summary() {
        long bytes = 0;
        for (RcOp op : workload.ops) {
            bytes += op.length();
        }
        return String.format("seed %d %s: %d ops, %d bytes, mtu %d, %d packets %s, %.3f s virtual", seed, mix,
            workload.ops.size(), bytes, workload.mtu.bytes(), fabric.trace().recorded(), fates(),
            fabric.nowNs() / 1e9);
    }

    private String fates() {
        StringBuilder sb = new StringBuilder("(");
        for (Fate f : Fate.values()) {
            if (f != Fate.DELIVERED) {
                sb.append(sb.length() > 1 ? " " : "").append(f.name().toLowerCase()).append(' ')
                    .append(fabric.trace().count(f));
            }
        }
        return sb.append(')').toString();
    }

    private String context(FabricPair p) {
        return "seed " + seed + ", scenario " + mix + " (replay: -Djroce.seed=" + seed + ")"
            + String.format("%n  start PSNs A 0x%06x, B 0x%06x", psnA, psnB)
            + "\n  link A>B " + forward + "\n  link B>A " + reverse
            + "\n  counters A " + p.a.device.counters() + "\n  counters B " + p.b.device.counters()
            + "\n  send completions " + sendWcs + "\n  recv completions " + recvWcs
            + "\n  workload " + workload;
    }

    private void run(FabricPair p) {
        p.a.mr.buffer().put(0, workload.a.initial());
        p.b.mr.buffer().put(0, workload.b.initial());
        for (RcOp.Recv recv : workload.recvs) {
            p.b.qp.postRecv(recv.toWorkRequest(p));
        }
        for (int i = 0; i < SPARE_RECVS; i++) {
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(-1 - i));
        }
        for (RcOp op : workload.ops) {
            p.a.qp.postSend(op.toWorkRequest(p));
        }
        int sends = workload.ops.size();
        int recvs = workload.recvs.size();
        WorkCompletion wc = new WorkCompletion();
        boolean done = fabric.runUntil(() -> {
            drain(p.a.cq, sendWcs, wc);
            drain(p.b.cq, recvWcs, wc);
            // After an error completion the rest are flushed, and messages never sent are never received.
            return sendWcs.size() >= sends && (recvWcs.size() >= recvs || anyError(sendWcs));
        }, MAX_RUN_NS);
        if (!done) {
            fail("hang: " + sendWcs.size() + " of " + sends + " send and " + recvWcs.size() + " of " + recvs
                + " receive completions after " + MAX_RUN_NS / 1_000_000_000 + " s of virtual time");
        }
        fabric.runFor(SETTLE_NS);
        drain(p.a.cq, sendWcs, wc);
        drain(p.b.cq, recvWcs, wc);
    }

    private static boolean anyError(List<WorkCompletion> wcs) {
        for (WorkCompletion wc : wcs) {
            if (wc.status() != WcStatus.SUCCESS) {
                return true;
            }
        }
        return false;
    }

    private void drain(CompletionQueue cq, List<WorkCompletion> into, WorkCompletion wc) {
        while (cq.poll(wc)) {
            into.add(new WorkCompletion().copyFrom(wc));
            if (wc.status() != WcStatus.SUCCESS && failedAtNs < 0) {
                failedAtNs = fabric.nowNs();
            }
        }
    }

    private void check(FabricPair p) {
        String earned = earnedExhaustion();
        if (earned != null) {
            checkAfterEarnedExhaustion(p);
            System.out.println("seed " + seed + " " + mix + ": RETRY_EXC_ERR " + earned);
            return;
        }
        assertEquals(workload.ops.size(), sendWcs.size(), "send completions: exactly one per WR");
        for (RcOp op : workload.ops) {
            WorkCompletion wc = sendWcs.get(op.index());
            assertEquals(WcStatus.SUCCESS, wc.status(), "status of " + op + ": " + wc);
            assertEquals(op.index(), wc.wrId(), "send completion " + op.index() + " out of posted order: " + wc);
            assertEquals(op.opcode().completionOpcode(), wc.opcode(), "opcode of " + op + ": " + wc);
        }
        assertEquals(workload.recvs.size(), recvWcs.size(), "receive completions: exactly one per consumed WQE");
        for (RcOp.Recv recv : workload.recvs) {
            WorkCompletion wc = recvWcs.get(recv.index());
            assertEquals(WcStatus.SUCCESS, wc.status(), "status of recv#" + recv.index() + ": " + wc);
            assertEquals(RcOp.RECV_WR_ID_BASE + recv.index(), wc.wrId(), "receive completion out of order: " + wc);
            assertEquals(recv.opcode(), wc.opcode(), "recv#" + recv.index() + ": " + wc);
            assertEquals(recv.byteLen(), wc.byteLen(), "byte_len of recv#" + recv.index() + ": " + wc);
            assertEquals(recv.withImm(), wc.withImm(), "recv#" + recv.index() + ": " + wc);
            if (recv.withImm()) {
                assertEquals(recv.imm(), wc.immData(), "immediate of recv#" + recv.index() + ": " + wc);
            }
        }
        assertEquals(QpState.RTS, p.a.qp.state(), "A's QP");
        assertEquals(QpState.RTS, p.b.qp.state(), "B's QP");
        checkIncrements(p);
        checkMemory("A", p.a, workload.a);
        checkMemory("B", p.b, workload.b);
        assertEquals(0L, p.a.device.counters().get("drop_internal_error"), "A raised inside the packet path");
        assertEquals(0L, p.b.device.counters().get("drop_internal_error"), "B raised inside the packet path");
    }

    /**
     * Why a RETRY_EXC_ERR was the network's doing, or null if there is none or the trace does not
     * show it was (then the strict checks run and fail on it).
     */
    private String earnedExhaustion() {
        int failed = -1;
        for (int i = 0; i < sendWcs.size(); i++) {
            WcStatus st = sendWcs.get(i).status();
            WcStatus allowed = failed < 0 ? (st == WcStatus.RETRY_EXC_ERR ? st : WcStatus.SUCCESS) : WcStatus.WR_FLUSH_ERR;
            if (st != allowed) {
                return null;
            }
            if (st == WcStatus.RETRY_EXC_ERR) {
                failed = i;
            }
        }
        if (failed < 0 || sendWcs.size() != workload.ops.size()) {
            return null;
        }
        return RetryExhaustion.earned(fabric.trace().events(), A, failedAtNs, RETRY_COUNT + 1);
    }

    /**
     * After an earned RETRY_EXC_ERR: completions still in order and exactly once, what did
     * complete is byte-exact, and no atomic ran twice. (Operations after the failed one may or may
     * not have run at B, so B's WRITE targets are not checked.)
     */
    private void checkAfterEarnedExhaustion(FabricPair p) {
        assertEquals(QpState.ERR, p.a.qp.state(), "A's QP after RETRY_EXC_ERR");
        assertEquals(QpState.RTS, p.b.qp.state(), "B's QP");
        int succeeded = 0;
        int recvsNeeded = 0;
        while (sendWcs.get(succeeded).status() == WcStatus.SUCCESS) {
            RcOp op = workload.ops.get(succeeded);
            assertEquals(op.index(), sendWcs.get(succeeded).wrId(), "send completions in posted order");
            recvsNeeded += op.recv() != null ? 1 : 0;
            if (op.opcode() == WrOpcode.RDMA_READ || op.opcode().isAtomic()) {
                checkRegions("A", p.a, workload.a, op.local());
            }
            succeeded++;
        }
        assertTrue(recvWcs.size() >= recvsNeeded && recvWcs.size() <= workload.recvs.size(),
            recvWcs.size() + " receive completions, " + recvsNeeded + ".." + workload.recvs.size() + " expected");
        for (int i = 0; i < recvWcs.size(); i++) {
            RcOp.Recv recv = workload.recvs.get(i);
            WorkCompletion wc = recvWcs.get(i);
            assertEquals(WcStatus.SUCCESS, wc.status(), "recv#" + i + ": " + wc);
            assertEquals(RcOp.RECV_WR_ID_BASE + i, wc.wrId(), "receive completion out of order: " + wc);
            assertEquals(recv.byteLen(), wc.byteLen(), "recv#" + i + ": " + wc);
            checkRegions("B", p.b, workload.b, recv.sges());
        }
        ByteBuffer b = p.b.mr.buffer().order(ByteOrder.nativeOrder());
        ByteBuffer a = p.a.mr.buffer().order(ByteOrder.nativeOrder());
        long counter = b.getLong(workload.incrementCounter);
        assertTrue(counter >= 0 && counter <= workload.incrementResults.size(), "counter " + counter + " after at most "
            + workload.incrementResults.size() + " fetch-adds of 1");
        for (int i = 0; i < workload.incrementResults.size(); i++) {
            long original = a.getLong(workload.incrementResults.get(i));
            if (original == i) {
                assertTrue(i < counter, "fetch-add " + i + " returned " + i + " but the counter is " + counter);
            }
        }
        assertEquals(0L, p.a.device.counters().get("drop_internal_error"), "A raised inside the packet path");
        assertEquals(0L, p.b.device.counters().get("drop_internal_error"), "B raised inside the packet path");
    }

    private static void checkRegions(String side, FabricPair.Side s, ModelMemory model, List<Region> regions) {
        byte[] expected = model.expected();
        for (Region r : regions) {
            byte[] actual = new byte[r.length()];
            s.mr.buffer().get(r.offset(), actual);
            assertArrayEquals(Arrays.copyOfRange(expected, r.offset(), r.end()), actual, side + " region " + r);
        }
    }

    /** N fetch-adds of 1 leave exactly N, and return 0, 1, ..., N-1 in posted order: none ran twice. */
    private void checkIncrements(FabricPair p) {
        ByteBuffer a = p.a.mr.buffer().order(ByteOrder.nativeOrder());
        ByteBuffer b = p.b.mr.buffer().order(ByteOrder.nativeOrder());
        List<Integer> results = workload.incrementResults;
        assertEquals(results.size(), b.getLong(workload.incrementCounter), "counter after " + results.size()
            + " fetch-adds of 1");
        for (int i = 0; i < results.size(); i++) {
            assertEquals(i, a.getLong(results.get(i)), "original returned by fetch-add " + i + " of 1");
        }
    }

    private void checkMemory(String side, FabricPair.Side s, ModelMemory model) {
        byte[] expected = model.expected();
        byte[] actual = new byte[expected.length];
        s.mr.buffer().get(0, actual);
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                int last = i;
                while (last + 1 < expected.length && expected[last + 1] != actual[last + 1]) {
                    last++;
                }
                fail(side + "'s memory differs from the model at " + i + ".." + last + " (" + (last - i + 1)
                    + " bytes), in " + owner(side, i));
            }
        }
    }

    /** Which operation's buffer covers {@code offset}, to name the operation that went wrong. */
    private String owner(String side, int offset) {
        StringBuilder sb = new StringBuilder();
        for (RcOp op : workload.ops) {
            List<Region> regions = new ArrayList<>();
            if (side.equals("A")) {
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
