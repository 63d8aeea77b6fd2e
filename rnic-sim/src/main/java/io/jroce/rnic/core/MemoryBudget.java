package io.jroce.rnic.core;

import io.jroce.verbs.ResourceLimitException;

/**
 * The heap a device's queues may take. Every WQE and completion slot is allocated when its queue
 * is created (posting and polling allocate nothing), so a QP at its maximum capacities costs tens
 * of megabytes at once; without a budget, creating QPs or CQs within the advertised limits ended
 * in an OutOfMemoryError that could take down the whole JVM. Each QP, SRQ and CQ is charged its
 * {@link QueueFootprint} when created and refunded when destroyed, and creation beyond the budget
 * fails with a {@link ResourceLimitException} first. Any thread.
 */
final class MemoryBudget {
    private final String device;
    private final long limit;
    private long used;

    MemoryBudget(String device, long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a memory budget must be positive, got " + limit);
        }
        this.device = device;
        this.limit = limit;
    }

    long limit() {
        return limit;
    }

    synchronized long used() {
        return used;
    }

    /**
     * Takes {@code bytes} from the budget for {@code what} (e.g. "a QP of max_send_wr=..."), or
     * throws saying what was asked, what is left and how to raise the budget.
     */
    synchronized void charge(long bytes, String what) {
        if (bytes > limit - used) {
            throw new ResourceLimitException("cannot create " + what + ": its queues take about " + bytes
                + " bytes of heap, and device " + device + " has " + (limit - used) + " of its memory budget of "
                + limit + " bytes left; destroy QPs, SRQs or CQs, ask for smaller queues, or raise the budget "
                + "(SoftRnic.builder().memoryBudget(bytes) or -Djroce.memoryBudget=bytes)");
        }
        used += bytes;
    }

    synchronized void refund(long bytes) {
        used -= bytes;
    }
}
