package io.jroce.tools.demo;

import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * An 8-byte atomic on the responder's memory: FETCH_AND_ADD, or CMP_AND_SWP whose compare value
 * matches (the swap happens) or not (memory stays). Either way the original value comes back.
 */
final class AtomicStep extends DemoStep {
    enum Kind { FETCH_AND_ADD, SWAP, NO_SWAP }

    private final Kind kind;

    AtomicStep(Kind kind) {
        super(kind == Kind.FETCH_AND_ADD ? WrOpcode.ATOMIC_FETCH_AND_ADD : WrOpcode.ATOMIC_CMP_AND_SWP, 8);
        this.kind = kind;
    }

    @Override
    String run(StepContext c) throws StepFailedException, InterruptedException {
        MemoryRegion target = c.responder().remoteMr();
        MemoryRegion result = c.requester().localMr();
        long original = c.randomLong();
        long operand = c.randomLong();
        long compare = kind == Kind.NO_SWAP ? ~original : original;
        StepContext.writeLong(target, Endpoint.ATOMIC_OFFSET, original);
        StepContext.writeLong(result, Endpoint.ATOMIC_OFFSET, ~original);
        c.postSend(c.sendRequest(opcode())
            .sgList(ScatterGatherEntry.of(result, Endpoint.ATOMIC_OFFSET, 8))
            .remoteAddress(target.address() + Endpoint.ATOMIC_OFFSET).rkey(target.rkey())
            .compareAdd(kind == Kind.FETCH_AND_ADD ? operand : compare)
            .swap(operand));

        WorkCompletion wc = c.awaitRequester(kind == Kind.FETCH_AND_ADD ? WcOpcode.FETCH_ADD : WcOpcode.COMP_SWAP);
        StepContext.check(wc.byteLen() == 8, "atomic completion byte_len %d, expected 8", wc.byteLen());
        long returned = StepContext.readLong(result, Endpoint.ATOMIC_OFFSET);
        StepContext.check(returned == original, "%s got 0x%016x back as the original value, expected 0x%016x",
            c.requester().name(), returned, original);
        long expected = switch (kind) {
            case FETCH_AND_ADD -> original + operand;
            case SWAP -> operand;
            case NO_SWAP -> original;
        };
        long now = StepContext.readLong(target, Endpoint.ATOMIC_OFFSET);
        StepContext.check(now == expected, "%s's memory holds 0x%016x, expected 0x%016x",
            c.responder().name(), now, expected);
        return switch (kind) {
            case FETCH_AND_ADD -> String.format("verified, 0x%016x + 0x%016x", original, operand);
            case SWAP -> "verified, compare matched: swapped";
            case NO_SWAP -> "verified, compare differed: not swapped";
        };
    }
}
