package io.jroce.tools.demo;

import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What one step works with: the two endpoints, its seeded random data, posting, waiting for
 * completions before a deadline, and checking what arrived. Records the completions it saw so that
 * the table can show them even when the step fails.
 */
final class StepContext {
    private final Endpoint requester;
    private final Endpoint responder;
    private final long wrId;
    private final SplittableRandom random;
    private final long deadlineNs;
    private final int timeoutSeconds;
    private final WorkCompletion scratch = new WorkCompletion();
    private WorkCompletion requesterWc;
    private WorkCompletion responderWc;
    private MemoryRegion target;
    private byte[] expected;
    private byte[] guard;

    StepContext(Endpoint requester, Endpoint responder, int stepNumber, long seed, int timeoutSeconds) {
        this.requester = requester;
        this.responder = responder;
        this.wrId = stepNumber;
        this.random = new SplittableRandom(seed * 1_000_003L + stepNumber);
        this.timeoutSeconds = timeoutSeconds;
        this.deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    Endpoint requester() {
        return requester;
    }

    Endpoint responder() {
        return responder;
    }

    byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    int randomInt() {
        return random.nextInt();
    }

    long randomLong() {
        return random.nextLong();
    }

    static void write(MemoryRegion mr, int offset, byte[] data) {
        mr.buffer().put(offset, data);
    }

    static byte[] read(MemoryRegion mr, int offset, int length) {
        byte[] b = new byte[length];
        mr.buffer().get(offset, b);
        return b;
    }

    /** Atomics operate on 64-bit words in host byte order, as in verbs. */
    static void writeLong(MemoryRegion mr, int offset, long value) {
        mr.buffer().duplicate().order(ByteOrder.nativeOrder()).putLong(offset, value);
    }

    static long readLong(MemoryRegion mr, int offset) {
        return mr.buffer().duplicate().order(ByteOrder.nativeOrder()).getLong(offset);
    }

    /**
     * Prepares {@code mr} to receive {@code data} at offset 0: fills it with the complement of
     * {@code data}, so that every byte must be written to verify, and puts random guard bytes
     * after it, which must stay as they are.
     */
    void prepareTarget(MemoryRegion mr, byte[] data) {
        byte[] complement = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            complement[i] = (byte) ~data[i];
        }
        target = mr;
        expected = data;
        guard = randomBytes(Endpoint.GUARD);
        write(mr, 0, complement);
        write(mr, data.length, guard);
    }

    /** Checks the target prepared by {@link #prepareTarget}, byte for byte, and its guard. */
    void verifyTarget(String what) throws StepFailedException {
        byte[] got = read(target, 0, expected.length);
        int differing = 0;
        int first = -1;
        for (int i = 0; i < got.length; i++) {
            if (got[i] != expected[i]) {
                differing++;
                first = first < 0 ? i : first;
            }
        }
        check(differing == 0, "%s: %d of %d bytes differ; byte %d is 0x%02x, expected 0x%02x",
            what, differing, expected.length, first, first < 0 ? 0 : got[first] & 0xff,
            first < 0 ? 0 : expected[first] & 0xff);
        byte[] after = read(target, expected.length, guard.length);
        for (int i = 0; i < guard.length; i++) {
            check(after[i] == guard[i], "%s: byte %d, past the end of the %d-byte message, was overwritten",
                what, expected.length + i, expected.length);
        }
    }

    /** A signaled send work request of this step. */
    SendWorkRequest sendRequest(WrOpcode opcode) {
        return new SendWorkRequest().wrId(wrId).opcode(opcode).sendFlags(SendFlags.SIGNALED);
    }

    /** The requester's local buffer from offset 0: no entry at all for a zero-byte message. */
    ScatterGatherEntry[] localSges(int length) {
        return length == 0
            ? new ScatterGatherEntry[0]
            : new ScatterGatherEntry[] {ScatterGatherEntry.of(requester.localMr(), 0, length)};
    }

    void postSend(SendWorkRequest wr) throws StepFailedException {
        try {
            requester.qp().postSend(wr);
        } catch (VerbsException e) {
            throw new StepFailedException(requester.name() + " refused the post: " + e, true);
        }
    }

    /** Posts a receive of the whole message area of the responder's exposed region. */
    void postReceive() throws StepFailedException {
        ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(wrId)
            .sgList(ScatterGatherEntry.of(responder.remoteMr(), 0, Endpoint.MAX_MESSAGE));
        try {
            responder.qp().postRecv(wr);
        } catch (VerbsException e) {
            throw new StepFailedException(responder.name() + " refused the receive: " + e, true);
        }
    }

    WorkCompletion awaitRequester(WcOpcode opcode) throws StepFailedException, InterruptedException {
        return await(requester, opcode);
    }

    WorkCompletion awaitResponder(WcOpcode opcode) throws StepFailedException, InterruptedException {
        return await(responder, opcode);
    }

    private WorkCompletion await(Endpoint side, WcOpcode opcode) throws StepFailedException, InterruptedException {
        long remaining = Math.max(0, deadlineNs - System.nanoTime());
        WorkCompletion wc = new WorkCompletion();
        if (!side.cq().pollBlocking(wc, remaining, TimeUnit.NANOSECONDS)) {
            throw new StepFailedException(String.format("no %s completion on %s within %d s (its QP is in %s)",
                opcode, side.name(), timeoutSeconds, side.qp().state()), true);
        }
        if (side == requester) {
            requesterWc = wc;
        } else {
            responderWc = wc;
        }
        if (wc.wrId() != wrId) {
            throw new StepFailedException(side.name() + " completed wr_id " + wc.wrId() + ", expected " + wrId
                + ": " + wc, true);
        }
        if (wc.status() != WcStatus.SUCCESS) {
            throw new StepFailedException(side.name() + " completed with status " + wc.status() + ": " + wc, true);
        }
        check(wc.opcode() == opcode, "%s completion opcode %s, expected %s", side.name(), wc.opcode(), opcode);
        return wc;
    }

    /** Fails the step if either CQ holds a completion nobody asked for. */
    void expectNoMoreCompletions() throws StepFailedException {
        for (Endpoint side : new Endpoint[] {requester, responder}) {
            if (side.cq().poll(scratch)) {
                throw new StepFailedException("unexpected completion on " + side.name() + ": " + scratch, true);
            }
        }
    }

    void checkImmediate(WorkCompletion wc, boolean withImm, int imm) throws StepFailedException {
        check(wc.withImm() == withImm, "receive completion %s immediate data", withImm ? "lacks" : "carries");
        if (withImm) {
            check(wc.immData() == imm, "immediate data 0x%08x, expected 0x%08x", wc.immData(), imm);
        }
    }

    /** Fails the step (not fatally) with a formatted message unless {@code ok}. */
    static void check(boolean ok, String format, Object... args) throws StepFailedException {
        if (!ok) {
            throw new StepFailedException(String.format(format, args), false);
        }
    }

    /** "OPCODE STATUS" of the requester's completion, "-" if none came. */
    String requesterCompletion() {
        return describe(requesterWc);
    }

    String responderCompletion() {
        return describe(responderWc);
    }

    private static String describe(WorkCompletion wc) {
        if (wc == null) {
            return "-";
        }
        return wc.status() == WcStatus.SUCCESS ? wc.opcode() + " " + wc.status() : wc.status().name();
    }
}
