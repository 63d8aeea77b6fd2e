package io.jroce.rnic.core;

import java.util.ArrayDeque;

/**
 * The device's cap on RC packets sent and not yet acknowledged, summed over all its QPs (READ
 * responses count, from the request on; a READ larger than the budget goes out alone, and others
 * wait until its responses arrive). Each QP keeps its own 128-PSN window, but nothing in
 * RC paces QPs against each other: 16 QPs with full windows of 4 KiB packets put 8 MiB in flight,
 * more than a receiver's socket buffer holds, and the losses come back after every go-back-N
 * until retry_cnt runs out. A hardware RNIC leans on the fabric (PFC, ECN) here; jroce, which
 * sends into a UDP socket, shares one budget instead. Retransmissions of PSNs already sent take
 * nothing more; a go-back-N returns the packets the responder dropped, so a QP that waits out
 * RNR NAKs forever (rnr_retry 7) holds nothing. A QP with timeout 0 that loses its packets keeps
 * them charged, as it keeps its own work, until it is reset.
 *
 * <p>The budget owns its waiting queue: the QPs refused, in the order they asked, each at most once
 * (a flag on the QP says it is queued: a hashed set cost a tenth of the sender's time at 256 QPs).
 * It wakes one waiting QP per {@code quantum} of the packets free (rounded up), counting the QPs
 * woken whose turn has not yet come: a woken QP takes as many as it can send. Waking one per packet
 * made 256 QPs with full queues take turns of one packet each, a QP's whole turn (schedule, drain,
 * work, refusal, queue again) per 4 KiB sent, and cost the sender twice the CPU per byte of one QP
 * (docs/benchmarks.md, "Many QPs").
 *
 * <p>Liveness: while QPs wait, packets are in flight (whose ACKs or timeouts give them back) or a
 * woken QP's turn is still to come. A woken QP's turn ends in {@link #turnTaken} and a QP that leaves
 * (flushed, reset, destroyed) in {@link #remove}; both hand on what the QP did not take, so a woken
 * QP that sends nothing (in ERR, not yet in RTS, its work failed, or it sent in an ACK's turn first)
 * cannot strand the QPs behind it, whose timers are off while they wait with nothing in flight. A
 * woken QP refused again before that turn waits again and stops counting as woken: a QP in the
 * queue is never counted, so a second wake cannot count it twice.
 * I/O thread only; the queue allocates nothing once it has grown.
 */
final class TransmitBudget {
    /** Packets in flight per device: two full QP windows, about 1 MiB at path MTU 4096. */
    static final int DEFAULT_PACKETS = 256;
    /** Free packets per QP woken: a 64 KiB message at MTU 4096. */
    static final int DEFAULT_WAKE_QUANTUM = 16;

    private final int limit;
    private final int quantum;
    private final ArrayDeque<QpContext> waiting = new ArrayDeque<>();
    private final QpScheduler scheduler;
    private int inFlight;
    /** QPs woken whose turn has not yet ended: each is counted as taking a quantum. */
    private int woken;

    TransmitBudget(int limit, int quantum, QpScheduler scheduler) {
        if (limit < 1 || quantum < 1) {
            throw new IllegalArgumentException("limit " + limit + " and quantum " + quantum + " must be at least 1");
        }
        this.limit = limit;
        this.quantum = Math.min(quantum, limit);
        this.scheduler = scheduler;
    }

    /** True when a new PSN may go out now; otherwise {@code qp} is queued to run when packets are acknowledged. */
    boolean mayTransmit(QpContext qp) {
        if (inFlight < limit) {
            return true;
        }
        if (qp.wokenByBudget) {
            // Woken, it has had its turn (an ACK's, before the one it was woken for) and is refused
            // again: it waits now, and must not count twice if it is woken again before that turn.
            qp.wokenByBudget = false;
            woken--;
        }
        if (!qp.waitingForBudget) {
            qp.waitingForBudget = true;
            waiting.addLast(qp);
        }
        return false;
    }

    /** True while {@code qp} waits for packets to be given back. */
    boolean isWaiting(QpContext qp) {
        return qp.waitingForBudget;
    }

    /** {@code packets} more in flight (negative: acknowledged or given up). */
    void add(int packets) {
        inFlight += packets;
        if (packets < 0) {
            wake();
        }
    }

    /**
     * The turn the budget scheduled for {@code qp} is over (whatever it sent, or failed to): if it
     * was woken, what it left free goes to the QPs behind it. Called after each scheduled turn.
     */
    void turnTaken(QpContext qp) {
        if (qp.wokenByBudget) {
            qp.wokenByBudget = false;
            woken--;
            wake();
        }
    }

    /**
     * Forgets {@code qp}, which leaves the budget's care (flushed in ERR, reset, destroyed): out of
     * the queue, and a wake it had not used goes to the next QP.
     */
    void remove(QpContext qp) {
        if (qp.waitingForBudget) {
            qp.waitingForBudget = false;
            waiting.remove(qp);
        }
        turnTaken(qp);
    }

    /** Wakes QPs, oldest first, until those woken and not yet run cover what is free. */
    private void wake() {
        while (!waiting.isEmpty() && (long) woken * quantum < limit - inFlight) {
            QpContext qp = waiting.pollFirst();
            qp.waitingForBudget = false;
            qp.wokenByBudget = true;
            woken++;
            scheduler.schedule(qp);
        }
    }

    int inFlight() {
        return inFlight;
    }
}
